// Part of the one code table (problem_codes.h, which includes this file and
// documents the columns): the codes of maps and levels, from the datafile
// container to DDNet's map rules, the further checks and SpriteTile levels.
// Include problem_codes.h, not this file.
#pragma once

#define MAPINDEX_MAP_CODES(X)                                                                      \
  /* container header (src/decode/datafile): the map does not open */                              \
  X(H1, "H1", error, container, refuses, fails, fails, "file too short for a map",                 \
    "file shorter than the 36-byte datafile header",                                               \
    "The file is not a map or lost almost all its bytes: download or copy it again from its "      \
    "source.")                                                                                     \
  X(H2, "H2", error, container, refuses, fails, fails, "not a map file",                           \
    "magic is neither `DATA` nor `ATAD`",                                                          \
    "The file does not start like a map: check that it is the right file (not an image or an "     \
    "archive renamed to .map) and get a fresh copy.")                                              \
  X(H3, "H3", error, container, refuses, fails, fails, "unsupported datafile version",             \
    "datafile version is not 3 or 4",                                                              \
    "Not a datafile version the games read (an old or foreign format): get the map in a current "  \
    "format.")                                                                                     \
  X(H4, "H4", error, container, refuses, fails, fails, "header counts are impossible",             \
    "a negative header count or size, more than 65536 item types, or item_size not a multiple "    \
    "of 4",                                                                                        \
    "The file's header is damaged: get a fresh copy of the map, or an earlier save.")              \
  X(H5, "H5", error, container, refuses, loads, fails, "file cut short or too long",               \
    "header, metadata and data sizes do not add up to the file size",                              \
    "An interrupted download, upload or copy cuts a map short: get it again from its source, or "  \
    "from the mapper's own copy.")                                                                 \
  X(H6, "H6", error, container, refuses, loads, fails, "header size field wrong",                  \
    "header `size` is not the file size minus 16 (nor the v4 crude variant)",                      \
    "A tool wrote a wrong header, or the file was damaged: restore an earlier save or get a "      \
    "fresh copy.")                                                                                 \
  X(H7, "H7", error, container, refuses, loads, fails, "header swaplen field wrong",               \
    "header `swaplen` is not the file size minus data_size minus 16 (nor the v4 crude variant)",   \
    "A tool wrote a wrong header, or the file was damaged: restore an earlier save or get a "      \
    "fresh copy.")                                                                                 \
  X(H8, "H8", error, container, refuses, fails, fails, "metadata larger than 2 GiB",               \
    "metadata larger than 2 GiB",                                                                  \
    "The header claims impossible sizes: the file is damaged; get a fresh copy.")                  \
  X(H6_crude, "H6.crude", warning, container, none, none, none, "old crude v4 header",             \
    "v4 \"crude\" header whose size and swaplen leave out the data size table (accepted)",         \
    "The games load it; saving the map again in a current DDNet editor writes a standard "         \
    "header.")                                                                                     \
  /* container structure */                                                                        \
  X(V1, "V1", error, container, refuses, fails, fails, "item type table broken",                   \
    "item types: type id outside 0..65535 or repeated, num not positive, start not running, or "   \
    "not adding up to num_items",                                                                  \
    "The map's item tables are damaged: get a fresh copy, or an earlier save of the map.")         \
  X(V2, "V2", error, container, refuses, fails, fails, "item offsets broken",                      \
    "item offsets: the first not 0, not increasing, or not below item_size",                       \
    "The map's item tables are damaged: get a fresh copy, or an earlier save of the map.")         \
  X(V3, "V3", error, container, refuses, fails, fails, "an item is malformed",                     \
    "an item shorter than its 8-byte header, in another type than its header says, with a "        \
    "repeated id, or whose size disagrees with its span",                                          \
    "A tool wrote a broken item, or the file is damaged: restore an earlier save or get a fresh "  \
    "copy.")                                                                                       \
  X(V4, "V4", error, container, refuses, loads, fails, "item sizes do not add up",                 \
    "item spans do not add up to item_size",                                                       \
    "The map's item tables are damaged: restore an earlier save or get a fresh copy.")             \
  X(V5, "V5", error, container, refuses, fails, fails, "data offsets broken",                      \
    "data offsets: the first not 0, not increasing, or not below data_size",                       \
    "The map's data tables are damaged: get a fresh copy, or an earlier save of the map.")         \
  X(V6, "V6", error, container, refuses, fails, fails, "negative data size",                       \
    "a v4 uncompressed data size is negative",                                                     \
    "The map's data size table is damaged: get a fresh copy, or an earlier save of the map.")      \
  X(V6_zero_size, "V6", warning, container, none, none, none, "data item with size 0",             \
    "a v4 uncompressed data size is 0 (that data item cannot be read)",                            \
    "One data item cannot be read (the message says which); saving the map again in a current "    \
    "DDNet editor rewrites it.")                                                                   \
  /* data items: in the message of the problem of whatever needed the data */                      \
  X(D1, "D1", error, data_item, none, none, none, "data index out of range",                       \
    "data item index out of range",                                                                \
    "Shown inside another problem's message, whose code says what is affected: restore an "        \
    "earlier save or get a fresh copy.")                                                           \
  X(D2, "D2", error, data_item, none, none, none, "data item size is 0",                           \
    "data item's declared uncompressed size is 0",                                                 \
    "Shown inside another problem's message, whose code says what is affected: restore an "        \
    "earlier save or get a fresh copy.")                                                           \
  X(D4, "D4", error, data_item, none, none, none, "data item does not inflate",                    \
    "data item does not inflate, or not to exactly its declared size",                             \
    "The compressed data is damaged: get a fresh copy of the map; the problem's code says what "   \
    "is affected.")                                                                                \
  X(D7, "D7", error, data_item, none, none, none, "string data unreadable",                        \
    "string data item empty, not NUL-terminated, with an inner NUL, or not UTF-8",                 \
    "A name or text is not a proper string: rename the affected item in the editor and save "      \
    "again.")                                                                                      \
  X(D_cap, "D.cap", error, data_item, none, none, none, "data item too large",                     \
    "data item's declared size above the limit of one data item",                                  \
    "A data item declares more than mapindex reads for one item: the file is damaged or not a "    \
    "normal map.")                                                                                 \
  X(D_budget, "D.budget", error, data_item, none, none, none, "too much data inflated",            \
    "not inflated: the file's data items together were already inflated twice their size plus "    \
    "16 MiB",                                                                                      \
    "The map's data items are inflated over and over (one item shared by many layers or names): "  \
    "save the map again in a current DDNet editor so each has its own data.")                      \
  X(group_ex_item_size, "group_ex.item_size", warning, check, none, none, none,                    \
    "group extension item too short",                                                              \
    "DDNet's group extension item shorter than 2 ints (the extension is ignored, not reported)",   \
    "Nothing to do for players; saving the map again in a current DDNet editor rewrites the "      \
    "item.")                                                                                       \
  /* map level (DDNet refuses the map) */                                                          \
  X(M1, "M1", error, map_rule, refuses, loads, fails, "version item missing or wrong",             \
    "no version item (type 0, id 0), shorter than 4 bytes, or not version 1",                      \
    "The map lacks a proper version item (a broken tool wrote it): restore an earlier save or "    \
    "get a fresh copy.")                                                                           \
  X(M2, "M2", error, map_rule, refuses, fails, fails, "group item broken",                         \
    "group item shorter than 28 bytes, or its layer range is negative or beyond the layers",       \
    "A group is damaged or points at layers that do not exist: restore an earlier save or get a "  \
    "fresh copy.")                                                                                 \
  X(M3, "M3", error, map_rule, refuses, loads, loads, "layer in two groups",                       \
    "a layer belongs to two groups (reported once at the layer, naming its first two groups)",     \
    "A tool put one layer into two groups: restore an earlier save or get a fresh copy.")          \
  X(M4, "M4", error, map_rule, refuses, loads, loads, "layer item too short",                      \
    "layer item shorter than 12 bytes",                                                            \
    "A layer item is damaged: restore an earlier save or get a fresh copy.")                       \
  X(M5, "M5", error, map_rule, refuses, loads, loads, "tilemap item broken",                       \
    "tilemap item shorter than 60 bytes, version outside 2..4, or more than one physics flag",     \
    "A tile layer's item is damaged or marks several physics kinds: restore an earlier save or "   \
    "get a fresh copy.")                                                                           \
  X(M6, "M6", error, map_rule, refuses, loads, loads, "tile layer data index missing",             \
    "v3/v4 tilemap without room for its name (72 bytes), or a physics layer without its own "      \
    "DDNet data index",                                                                            \
    "An old or third-party tool wrote the layer the message names in a form DDNet cannot read: "   \
    "recreate that layer in an editor that still opens the map, or restore an earlier save.")      \
  X(M7, "M7", error, map_rule, refuses, game_layer, game_layer, "tile layer size invalid",         \
    "tilemap width or height below 2, or width*height*tile size overflows 31 bits",                \
    "The layer the message names is smaller than 2x2 tiles or far too large: resize it in an "     \
    "editor that still opens the map, or restore an earlier save.")                                \
  X(M8, "M8", error, map_rule, refuses, loads, loads, "layer color out of range",                  \
    "tiles layer color component outside 0..255",                                                  \
    "Set the color of the layer the message names again (each component 0..255) in an editor "     \
    "that still opens the map, or restore an earlier save.")                                       \
  X(M10, "M10", error, map_rule, refuses, fails, fails, "no game layer",                           \
    "no game layer in any group",                                                                  \
    "Every map needs a game layer: add one in an editor that opens the map, or restore an "        \
    "earlier save.")                                                                               \
  X(M11, "M11", error, map_rule, refuses, game_layer, tile_layers, "tile data index invalid",      \
    "a tile layer's data index is out of range or shared with another tile layer",                 \
    "Two tile layers share data, or a layer's data is missing: restore an earlier save or get a "  \
    "fresh copy.")                                                                                 \
  X(M13, "M13", error, map_rule, refuses, loads, loads, "physics layer smaller than game",         \
    "a physics layer (not game) has fewer tiles than the game layer",                              \
    "Resize the physics layer the message names to the game layer's size in an editor that "       \
    "still opens the map, or restore an earlier save.")                                            \
  X(M14, "M14", error, map_rule, refuses, game_layer, tile_layers, "tile data broken",             \
    "tile data: skip runs that do not expand to exactly width*height or leave input over; plain "  \
    "data shorter than width*height structs; a non-zero reserved byte; data of a non-game layer "  \
    "that cannot be inflated",                                                                     \
    "The tile data of the layer the message names is damaged or of the wrong size: restore an "    \
    "earlier save or get a fresh copy.")                                                           \
  X(M15, "M15", error, map_rule, refuses, loads, fails, "game layer data unreadable",              \
    "the game layer's data cannot be inflated",                                                    \
    "The game layer's compressed data is damaged: restore an earlier save or get a fresh copy.")   \
  /* further checks (the map loads, but something is wrong) */                                     \
  X(layer_duplicate_physics, "layer.duplicate_physics", warning, check, none, none, none,          \
    "duplicate physics layer",                                                                     \
    "more than one physics layer of a kind; at the replaced one (the game uses the last)",         \
    "Delete the extra layer of that kind in the editor: the game only uses the last one.")         \
  X(layer_size_mismatch, "layer.size_mismatch", warning, check, none, none, none,                  \
    "physics layer size differs",                                                                  \
    "a physics layer's size differs from the game layer's (with enough tiles)",                    \
    "Resize the physics layer to the game layer's size in the editor.")                            \
  X(layer_ungrouped, "layer.ungrouped", warning, check, none, none, none, "layer in no group",     \
    "a layer no group holds (the game ignores it)",                                                \
    "The game ignores this layer: move it into a group in the editor, or delete it.")              \
  X(layer_physics_outside_game_group, "layer.physics_outside_game_group", warning, check, none,    \
    none, none, "physics layer outside game group",                                                \
    "a physics layer outside the group holding the game layer",                                    \
    "Move the physics layer into the group that holds the game layer in the editor.")              \
  X(layer_type, "layer.type", warning, check, none, none, none, "unknown layer type",              \
    "unknown layer type (not 2, 3, 9, 10)",                                                        \
    "A tool or mod wrote a layer the games do not know: delete it in the editor if it is not "     \
    "needed.")                                                                                     \
  X(quads_item_size, "quads.item_size", warning, check, none, none, none,                          \
    "quads layer item too short", "quads layer item shorter than 7 ints",                          \
    "Save the map again in a current DDNet editor; delete and recreate the quads layer if it "     \
    "stays.")                                                                                      \
  X(sounds_item_size, "sounds.item_size", warning, check, none, none, none,                        \
    "sounds layer item too short", "sounds layer item shorter than 7 ints",                        \
    "Save the map again in a current DDNet editor; delete and recreate the sounds layer if it "    \
    "stays.")                                                                                      \
  X(quads_data, "quads.data", warning, check, none, none, none, "quads data unreadable",           \
    "quads data index out of range or data that cannot be inflated",                               \
    "The quads of this layer are lost: recreate the layer's quads in the editor, or restore an "   \
    "earlier save.")                                                                               \
  X(sounds_data, "sounds.data", warning, check, none, none, none, "sound sources unreadable",      \
    "sound source data index out of range or data that cannot be inflated",                        \
    "The sound sources of this layer are lost: recreate them in the editor, or restore an "        \
    "earlier save.")                                                                               \
  X(quads_data_size, "quads.data_size", warning, check, none, none, none, "quads data size wrong", \
    "`num_quads * 152` differs from the data size",                                                \
    "Save the map again in a current DDNet editor; recreate the layer's quads if it stays.")       \
  X(sounds_data_size, "sounds.data_size", warning, check, none, none, none,                        \
    "sound source data size wrong",                                                                \
    "`num_sources * 52` (deprecated: 36) differs from the data size",                              \
    "Save the map again in a current DDNet editor; recreate the layer's sound sources if it "      \
    "stays.")                                                                                      \
  X(tile_invalid, "tile.invalid", warning, check, none, none, none,                                \
    "tiles undefined for the layer",                                                               \
    "tile keys not defined for the layer kind (schema/tile_names.csv), with counts",               \
    "The message lists the tile numbers: replace or erase them in the editor (they do nothing, "   \
    "or something unintended, in the game).")                                                      \
  X(group_game_not_standard, "group.game_not_standard", warning, check, none, none, none,          \
    "game group offset or parallax",                                                               \
    "the game group has an offset, parallax other than 100 or clipping",                           \
    "Set the game group's offset to 0, parallax to 100 and clipping off in the editor: physics "   \
    "ignores them, so what players see would not match it.")                                       \
  X(envelope_item_size, "envelope.item_size", warning, check, none, none, none,                    \
    "envelope item too short", "envelope item shorter than 4 ints",                                \
    "Save the map again in a current DDNet editor; recreate the envelope if it stays.")            \
  X(envelope_channels, "envelope.channels", warning, check, none, none, none,                      \
    "envelope channel count wrong", "channels not 1 (sound), 3 (position) or 4 (color)",           \
    "Recreate the envelope in the editor (position 3, color 4, sound 1 channels).")                \
  X(envelope_points_range, "envelope.points_range", warning, check, none, none, none,              \
    "envelope points out of range",                                                                \
    "`start_point + num_points` outside the envelope points (or negative)",                        \
    "Recreate the envelope in the editor, or restore an earlier save.")                            \
  X(envelope_time_order, "envelope.time_order", warning, check, none, none, none,                  \
    "envelope times go backwards", "point times decrease within an envelope (first occurrence)",   \
    "Reorder the envelope's points by time in the editor.")                                        \
  X(envelope_missing, "envelope.missing", warning, check, none, none, none, "envelope missing",    \
    "a layer, quad or sound source uses an envelope that does not exist (at the layer)",           \
    "Pick an existing envelope (or none) for the layer, quad or sound source in the editor.")      \
  X(envelope_kind, "envelope.kind", warning, check, none, none, none,                              \
    "envelope of the wrong kind",                                                                  \
    "an envelope used in a role of another kind (e.g. a position envelope as layer color)",        \
    "Use an envelope of the matching kind (position, color, sound) for that role in the editor.")  \
  X(envelope_unused, "envelope.unused", info, check, none, none, none, "envelope unused",          \
    "an envelope nothing uses (info: the games evaluate an envelope only for its users; it only "  \
    "takes bytes)",                                                                                \
    "Harmless: delete the envelope in the editor to save bytes.")                                  \
  X(envpoints_size, "envpoints.size", warning, check, none, none, none,                            \
    "envelope points size wrong",                                                                  \
    "the envelope points item is not a multiple of the point size (6 or 22 ints)",                 \
    "Save the map again in a current DDNet editor; recreate the envelopes if it stays.")           \
  X(envpoints_bezier_count, "envpoints.bezier_count", warning, check, none, none, none,            \
    "bezier points count differs",                                                                 \
    "DDNet's bezier item holds another number of points than the points item (ignored)",           \
    "The games ignore the bezier data: save the map again in a current DDNet editor to rewrite "   \
    "it.")                                                                                         \
  X(image_item_size, "image.item_size", warning, check, none, none, none, "image item too short",  \
    "image item shorter than 6 ints",                                                              \
    "Save the map again in a current DDNet editor; remove and add the image again if it stays.")   \
  X(image_name, "image.name", warning, check, none, none, none, "image name missing or bad",       \
    "image name missing, not a NUL-terminated string, or longer than 128 bytes (a name that is "   \
    "not UTF-8 is kept: `text.not_utf8`)",                                                         \
    "Rename the image in the editor (a plain name of at most 127 bytes).")                         \
  X(image_size, "image.size", warning, check, none, none, none, "image size invalid",              \
    "image width or height not positive", "Replace the image in the editor with a proper PNG.")    \
  X(image_no_data, "image.no_data", warning, check, none, none, none, "image data missing",        \
    "embedded image whose data index is out of range",                                             \
    "Replace the image in the editor with its PNG, or remove it.")                                 \
  X(image_data_size, "image.data_size", warning, check, none, none, none, "image data too small",  \
    "embedded image data smaller than width*height*bytes per pixel",                               \
    "Replace the image in the editor with its PNG.")                                               \
  X(image_rgb, "image.rgb", warning, check, none, none, none, "embedded RGB image",                \
    "embedded RGB image (0.7 variant 0); DDNet loads only RGBA",                                   \
    "DDNet loads only RGBA images: replace the image in the editor with an RGBA PNG.")             \
  X(image_external_nonstandard, "image.external_nonstandard", warning, check, none, none, none,    \
    "external image not standard", "external image name not in the standard mapres list",          \
    "Clients will not find it: embed the image in the editor, or use a standard mapres name.")     \
  X(image_tile_size, "image.tile_size", warning, check, none, none, none,                          \
    "tileset size not multiple of 16",                                                             \
    "an image used by a tile layer whose size is not a multiple of 16",                            \
    "Scale the tileset to a multiple of 16 pixels per side (usually 1024x1024) and replace it "    \
    "in the editor.")                                                                              \
  X(image_missing, "image.missing", warning, check, none, none, none, "image missing",             \
    "a layer uses an image index that does not exist (at the layer)",                              \
    "Pick an existing image (or none) for the layer in the editor.")                               \
  X(image_unused, "image.unused", info, check, none, none, none, "image unused",                   \
    "an image no layer uses (info: the client loads it and draws nothing with it; it costs "       \
    "bytes)",                                                                                      \
    "Harmless: remove the image in the editor to make the map smaller.")                           \
  X(images_too_many, "images.too_many", warning, check, none, none, none, "more than 64 images",   \
    "more than 64 images",                                                                         \
    "The games load at most 64 images: remove unused or merge images in the editor.")              \
  X(sound_item_size, "sound.item_size", warning, check, none, none, none, "sound item too short",  \
    "sound item shorter than 4 ints",                                                              \
    "Save the map again in a current DDNet editor; remove and add the sound again if it stays.")   \
  X(sound_name, "sound.name", warning, check, none, none, none, "sound name bad",                  \
    "sound name not a NUL-terminated string (a name that is not UTF-8 is kept: `text.not_utf8`)",  \
    "Rename the sound in the editor.")                                                             \
  X(sound_no_data, "sound.no_data", warning, check, none, none, none, "sound data missing",        \
    "sound data index out of range", "Add the sound again in the editor, or remove it.")           \
  X(sound_external, "sound.external", warning, check, none, none, none, "sound marked external",   \
    "a sound marked external (no external sounds exist)",                                          \
    "There are no external sounds: add the sound again in the editor (it is embedded).")           \
  X(sound_missing, "sound.missing", warning, check, none, none, none, "sound missing",             \
    "a sounds layer uses a sound index that does not exist",                                       \
    "Pick an existing sound for the sounds layer's sources in the editor.")                        \
  X(sound_unused, "sound.unused", info, check, none, none, none, "sound unused",                   \
    "a sound no sounds layer uses (info: the client loads it and never plays it; it costs "        \
    "bytes)",                                                                                      \
    "Harmless: remove the sound in the editor to make the map smaller.")                           \
  X(sounds_too_many, "sounds.too_many", warning, check, none, none, none, "more than 64 sounds",   \
    "more than 64 sounds", "The games load at most 64 sounds: remove sounds in the editor.")       \
  X(automapper_item_size, "automapper.item_size", warning, check, none, none, none,                \
    "automapper item too short", "automapper item shorter than 3 ints",                            \
    "Save the map again in a current DDNet editor; set the layer's automapper again if it "        \
    "stays.")                                                                                      \
  X(automapper_target, "automapper.target", info, check, none, none, none,                         \
    "automapper target missing",                                                                   \
    "an automapper pointing at a missing group or a layer beyond its group (info: only DDNet's "   \
    "editor reads automapper items, and it skips one whose target is out of range)",               \
    "Harmless in the game: set or clear the layer's automapper in the editor.")                    \
  X(info_item_size, "info.item_size", warning, check, none, none, none, "map info item empty",     \
    "info item empty",                                                                             \
    "Fill in the map details (author, version, credits, license) in the editor and save.")         \
  X(info_string, "info.string", warning, check, none, none, none, "map info text bad",             \
    "author/version/credits/license not a NUL-terminated string (D7 without its UTF-8 part: "      \
    "text that is not UTF-8 is kept, `text.not_utf8`)",                                            \
    "Enter the author, version, credits and license again in the editor's map details.")           \
  X(info_too_long, "info.too_long", warning, check, none, none, none, "map info text too long",    \
    "info string longer than its maximum (author 32, version 16, credits 128, license 32 bytes "   \
    "with NUL)",                                                                                   \
    "Shorten the map details in the editor (author 31, version 15, credits 127, license 31 "       \
    "bytes).")                                                                                     \
  X(info_settings, "info.settings", warning, check, none, none, none, "map settings unreadable",   \
    "settings not NUL-terminated or unreadable",                                                   \
    "Enter the map's server settings again in the editor's map details.")                          \
  X(text_not_utf8, "text.not_utf8", warning, check, none, none, none, "text not UTF-8",            \
    "a layer, group, image, envelope or sound name, an info string or a settings line (at the "    \
    "map), or an entry path (at the entry) is not valid UTF-8: the message shows its bytes in "    \
    "hex; the index stores the text with U+FFFD for each invalid sequence and the original "       \
    "bytes in the `*_raw` column beside it",                                                       \
    "Rename the item (or the file) in the editor using plain UTF-8 text; the message shows the "   \
    "bytes.")                                                                                      \
  /* SpriteTile levels (src/decode/spritetile, src/extract/spritetile_stats) */                    \
  X(st_lzf_empty, "st.lzf.empty", error, spritetile, none, none, none, "level file empty",         \
    "the file is empty: expected an LZF stream",                                                   \
    "The level file has no content: save the level again in SpriteTile or get a fresh copy.")      \
  X(st_lzf_truncated, "st.lzf.truncated", error, spritetile, none, none, none,                     \
    "level file cut short", "an LZF token runs past the end of the input",                         \
    "The level's compressed stream ends early: get a fresh copy or save it again in SpriteTile.")  \
  X(st_lzf_backref, "st.lzf.backref", error, spritetile, none, none, none,                         \
    "level compression broken", "an LZF back reference before the start of the output",            \
    "The level file is damaged: get a fresh copy or save it again in SpriteTile.")                 \
  X(st_lzf_cap, "st.lzf.cap", error, spritetile, none, none, none, "level decompresses too large", \
    "the level decompresses to more than its size limit",                                          \
    "The level expands beyond mapindex's limit: it is damaged or not a level.")                    \
  X(st_lzf_failed, "st.lzf.failed", error, spritetile, none, none, none, "LZF decoders disagree",  \
    "liblzf disagreed with the LZF walk (a bug: should not happen)",                               \
    "A bug in mapindex: please report it with the file.")                                          \
  X(st_magic, "st.magic", error, spritetile, none, none, none, "not a SpriteTile level",           \
    "the decompressed file does not start with `SpriteTileLevel`",                                 \
    "The file is not a SpriteTile level: check that it is the right file.")                        \
  X(st_header_truncated, "st.header.truncated", error, spritetile, none, none, none,               \
    "level header cut short", "the level is shorter than its 24-byte header",                      \
    "The level file is damaged: get a fresh copy or save it again in SpriteTile.")                 \
  X(st_endian, "st.endian", error, spritetile, none, none, none, "level byte order invalid",       \
    "endianness byte neither 0 (big) nor 1 (little)",                                              \
    "The level file is damaged: get a fresh copy or save it again in SpriteTile.")                 \
  X(st_version, "st.version", error, spritetile, none, none, none, "unsupported level version",    \
    "level version other than 2 or 3",                                                             \
    "Save the level again in a SpriteTile version that writes level version 2 or 3.")              \
  X(st_tags_count, "st.tags.count", error, spritetile, none, none, none, "level tag table broken", \
    "tag count below 1, or the tag table runs past the end",                                       \
    "The level file is damaged: get a fresh copy or save it again in SpriteTile.")                 \
  X(st_lvlayrs_duplicate, "st.lvlayrs.duplicate", error, spritetile, none, none, none,             \
    "two layer tables", "a second `lvlayrs` tag",                                                  \
    "The level file is damaged: get a fresh copy or save it again in SpriteTile.")                 \
  X(st_numsets_duplicate, "st.numsets.duplicate", error, spritetile, none, none, none,             \
    "two tile set counts", "a second `numsets` tag",                                               \
    "The level file is damaged: get a fresh copy or save it again in SpriteTile.")                 \
  X(st_not_level, "st.not_level", error, spritetile, none, none, none, "groups file, not a level", \
    "no `lvlayrs` but groups tags: a SpriteTile groups file, not a level (the entry is not a "     \
    "map)",                                                                                        \
    "Nothing to fix: this is a SpriteTile groups file, not a level.")                              \
  X(st_lvlayrs_missing, "st.lvlayrs.missing", error, spritetile, none, none, none,                 \
    "level has no layers tag", "no `lvlayrs` tag (and no groups tags)",                            \
    "The level file is damaged: get a fresh copy or save it again in SpriteTile.")                 \
  X(st_tag_offset, "st.tag.offset", error, spritetile, none, none, none, "level tag outside file", \
    "`lvlayrs` or `numsets` data outside the file",                                                \
    "The level file is damaged: get a fresh copy or save it again in SpriteTile.")                 \
  X(st_numsets, "st.numsets", error, spritetile, none, none, none, "tile set count invalid",       \
    "numsets not 2, 4, 8, 16 or 32",                                                               \
    "Save the level again in SpriteTile (2, 4, 8, 16 or 32 tile sets).")                           \
  X(st_layers_count, "st.layers.count", error, spritetile, none, none, none,                       \
    "layer count invalid", "negative layer count, or more layers than the bytes allow",            \
    "The level file is damaged: get a fresh copy or save it again in SpriteTile.")                 \
  X(st_layer_truncated, "st.layer.truncated", error, spritetile, none, none, none,                 \
    "layer header cut short", "a layer header runs past the end (at the layer)",                   \
    "The level file is damaged: get a fresh copy or save it again in SpriteTile.")                 \
  X(st_layer_size, "st.layer.size", error, spritetile, none, none, none, "layer size invalid",     \
    "width or height below 1, or width*height cells (7 bytes each) run past the end (at the "      \
    "layer)",                                                                                      \
    "The level file is damaged: get a fresh copy or save it again in SpriteTile.")                 \
  X(st_layer_tag, "st.layer.tag", warning, spritetile, none, none, none, "layer tag unexpected",   \
    "a layer's tag is not `lyrdata`", "Save the level again in SpriteTile.")                       \
  X(st_layer_lock, "st.layer.lock", warning, spritetile, none, none, none,                         \
    "layer lock out of range", "LayerLock outside 0..3",                                           \
    "Set the layer's lock again in SpriteTile and save.")                                          \
  X(st_layer_float, "st.layer.float", warning, spritetile, none, none, none,                       \
    "layer number not finite", "a tile size or Z that is not a finite number",                     \
    "Set the layer's tile size and Z again in SpriteTile and save.")                               \
  X(st_layer_tile_size, "st.layer.tile_size", warning, spritetile, none, none, none,               \
    "layer tile size not positive", "tile size not positive",                                      \
    "Set the layer's tile size again in SpriteTile and save.")                                     \
  X(st_cell_rotation, "st.cell.rotation", warning, spritetile, none, none, none,                   \
    "cell rotation out of range", "cells with a rotation above 1799 (359.8 degrees)",              \
    "Rotate the listed cells again in SpriteTile and save.")                                       \
  X(st_cell_unused_bits, "st.cell.unused_bits", warning, spritetile, none, none, none,             \
    "cells with unused bits set", "cells with the unused misc bits 13-14 set",                     \
    "Save the level again in SpriteTile; redraw the cells if it stays.")                           \
  X(st_cell_empty_value, "st.cell.empty_value", warning, spritetile, none, none, none,             \
    "empty cells with odd value", "empty cells storing a negative tile other than -1",             \
    "Erase the listed cells again in SpriteTile and save.")
