// Every problem and error code, in one table: the enum name, the stable
// string (stored in the index, printed in text and JSON), the severity, where
// the code appears, what the Teeworlds-family games do with a map that breaks
// the rule, and a one-line meaning. The code tables of stages/extract/README.md
// are this table (tests/test_problem_codes.cpp checks them); every code that
// can reach the index has a fixture there that triggers it.
//
// Codes are the enum everywhere between stages; the string is used only at the
// edges (SQL, JSON, text, messages). Two codes may share a string when the
// same string is stored with two severities (V6, read.empty).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace mapindex {

// error: the game refuses the map (or the entry cannot be read); warning: the
// map loads, but something is wrong that a player can meet; info: hygiene that
// cannot break the map in any game (unused data, editor-only data). A map's
// status counts errors and warnings only: a map with only info findings is ok.
enum class Severity : unsigned char { error, warning, info };

inline std::string_view to_string(Severity s) {
  return s == Severity::error ? "error" : s == Severity::warning ? "warning" : "info";
}

// Where a code comes from, and where it appears (the sections of the tables in
// stages/extract/README.md).
enum class CodeGroup : unsigned char {
  container,   // the datafile container (stages/decode/datafile); stored with the map
  data_item,   // reading a data item: only inside the message of another problem
  map_rule,    // DDNet's map-level rules (M*): the map is rejected
  check,       // further checks: the map loads, but something is wrong (warnings), or
               // hygiene that cannot break the map (info)
  spritetile,  // SpriteTile levels
  entry,       // reading inputs and writing entries; stored with the entry
  tool,        // an error of a command (exit status); never stored
};

std::string_view to_string(CodeGroup g);

// What a game's server does with a map that breaks a rule that makes DDNet
// reject the map (docs/formats/map-loaders.md has the evidence per rule).
enum class GameLoad : unsigned char {
  none,         // not a rule that rejects a map (warnings, reading, SpriteTile, tools)
  refuses,      // DDNet's column: DDNet refuses the map
  loads,        // the game loads the map: it does not check this, or it is harmless there
  fails,        // the game refuses the map, or crashes or reads out of bounds on it
  game_layer,   // fails when the problem is at the game layer (or the whole file)
  tile_layers,  // fails when the problem is at the game layer or a plain tiles layer
};

// What the Teeworlds columns say, and why, rule by rule: docs/formats/map-loaders.md.
// Problems at DDNet-only layers (front, tele, speedup, switch, tune) never
// fail 0.6 or 0.7; for 0.7 the later reader (0.7.5) is assumed.
std::string_view to_string(GameLoad g);

// X(name, "string", severity, group, DDNet, Teeworlds 0.6, Teeworlds 0.7, "meaning")
#define MAPINDEX_CODES(X)                                                                          \
  /* container header (stages/decode/datafile): the map does not open */                           \
  X(H1, "H1", error, container, refuses, fails, fails,                                             \
    "file shorter than the 36-byte datafile header")                                               \
  X(H2, "H2", error, container, refuses, fails, fails, "magic is neither `DATA` nor `ATAD`")       \
  X(H3, "H3", error, container, refuses, fails, fails, "datafile version is not 3 or 4")           \
  X(H4, "H4", error, container, refuses, fails, fails,                                             \
    "a negative header count or size, more than 65536 item types, or item_size not a multiple "    \
    "of 4")                                                                                        \
  X(H5, "H5", error, container, refuses, loads, fails,                                             \
    "header, metadata and data sizes do not add up to the file size")                              \
  X(H6, "H6", error, container, refuses, loads, fails,                                             \
    "header `size` is not the file size minus 16 (nor the v4 crude variant)")                      \
  X(H7, "H7", error, container, refuses, loads, fails,                                             \
    "header `swaplen` is not the file size minus data_size minus 16 (nor the v4 crude variant)")   \
  X(H8, "H8", error, container, refuses, fails, fails, "metadata larger than 2 GiB")               \
  X(H6_crude, "H6.crude", warning, container, none, none, none,                                    \
    "v4 \"crude\" header whose size and swaplen leave out the data size table (accepted)")         \
  /* container structure */                                                                        \
  X(V1, "V1", error, container, refuses, fails, fails,                                             \
    "item types: type id outside 0..65535 or repeated, num not positive, start not running, or "   \
    "not adding up to num_items")                                                                  \
  X(V2, "V2", error, container, refuses, fails, fails,                                             \
    "item offsets: the first not 0, not increasing, or not below item_size")                       \
  X(V3, "V3", error, container, refuses, fails, fails,                                             \
    "an item shorter than its 8-byte header, in another type than its header says, with a "        \
    "repeated id, or whose size disagrees with its span")                                          \
  X(V4, "V4", error, container, refuses, loads, fails, "item spans do not add up to item_size")    \
  X(V5, "V5", error, container, refuses, fails, fails,                                             \
    "data offsets: the first not 0, not increasing, or not below data_size")                       \
  X(V6, "V6", error, container, refuses, fails, fails, "a v4 uncompressed data size is negative")  \
  X(V6_zero_size, "V6", warning, container, none, none, none,                                      \
    "a v4 uncompressed data size is 0 (that data item cannot be read)")                            \
  /* data items: in the message of the problem of whatever needed the data */                      \
  X(D1, "D1", error, data_item, none, none, none, "data item index out of range")                  \
  X(D2, "D2", error, data_item, none, none, none, "data item's declared uncompressed size is 0")   \
  X(D4, "D4", error, data_item, none, none, none,                                                  \
    "data item does not inflate, or not to exactly its declared size")                             \
  X(D7, "D7", error, data_item, none, none, none,                                                  \
    "string data item empty, not NUL-terminated, with an inner NUL, or not UTF-8")                 \
  X(D_cap, "D.cap", error, data_item, none, none, none,                                            \
    "data item's declared size above the limit of one data item")                                  \
  X(D_budget, "D.budget", error, data_item, none, none, none,                                      \
    "not inflated: the file's data items together were already inflated twice their size plus "    \
    "16 MiB")                                                                                      \
  X(group_ex_item_size, "group_ex.item_size", warning, check, none, none, none,                    \
    "DDNet's group extension item shorter than 2 ints (the extension is ignored, not reported)")   \
  /* map level (DDNet refuses the map) */                                                          \
  X(M1, "M1", error, map_rule, refuses, loads, fails,                                              \
    "no version item (type 0, id 0), shorter than 4 bytes, or not version 1")                      \
  X(M2, "M2", error, map_rule, refuses, fails, fails,                                              \
    "group item shorter than 28 bytes, or its layer range is negative or beyond the layers")       \
  X(M3, "M3", error, map_rule, refuses, loads, loads,                                              \
    "a layer belongs to two groups (reported once at the layer, naming its first two groups)")     \
  X(M4, "M4", error, map_rule, refuses, loads, loads, "layer item shorter than 12 bytes")          \
  X(M5, "M5", error, map_rule, refuses, loads, loads,                                              \
    "tilemap item shorter than 60 bytes, version outside 2..4, or more than one physics flag")     \
  X(M6, "M6", error, map_rule, refuses, loads, loads,                                              \
    "v3/v4 tilemap without room for its name (72 bytes), or a physics layer without its own "      \
    "DDNet data index")                                                                            \
  X(M7, "M7", error, map_rule, refuses, game_layer, game_layer,                                    \
    "tilemap width or height below 2, or width*height*tile size overflows 31 bits")                \
  X(M8, "M8", error, map_rule, refuses, loads, loads,                                              \
    "tiles layer color component outside 0..255")                                                  \
  X(M10, "M10", error, map_rule, refuses, fails, fails, "no game layer in any group")              \
  X(M11, "M11", error, map_rule, refuses, game_layer, tile_layers,                                 \
    "a tile layer's data index is out of range or shared with another tile layer")                 \
  X(M13, "M13", error, map_rule, refuses, loads, loads,                                            \
    "a physics layer (not game) has fewer tiles than the game layer")                              \
  X(M14, "M14", error, map_rule, refuses, game_layer, tile_layers,                                 \
    "tile data: skip runs that do not expand to exactly width*height or leave input over; plain "  \
    "data shorter than width*height structs; a non-zero reserved byte; data of a non-game layer "  \
    "that cannot be inflated")                                                                     \
  X(M15, "M15", error, map_rule, refuses, loads, fails,                                            \
    "the game layer's data cannot be inflated")                                                    \
  /* further checks (the map loads, but something is wrong) */                                     \
  X(layer_duplicate_physics, "layer.duplicate_physics", warning, check, none, none, none,          \
    "more than one physics layer of a kind; at the replaced one (the game uses the last)")         \
  X(layer_size_mismatch, "layer.size_mismatch", warning, check, none, none, none,                  \
    "a physics layer's size differs from the game layer's (with enough tiles)")                    \
  X(layer_ungrouped, "layer.ungrouped", warning, check, none, none, none,                          \
    "a layer no group holds (the game ignores it)")                                                \
  X(layer_physics_outside_game_group, "layer.physics_outside_game_group", warning, check, none,    \
    none, none, "a physics layer outside the group holding the game layer")                        \
  X(layer_type, "layer.type", warning, check, none, none, none,                                    \
    "unknown layer type (not 2, 3, 9, 10)")                                                        \
  X(quads_item_size, "quads.item_size", warning, check, none, none, none,                          \
    "quads layer item shorter than 7 ints")                                                        \
  X(sounds_item_size, "sounds.item_size", warning, check, none, none, none,                        \
    "sounds layer item shorter than 7 ints")                                                       \
  X(quads_data, "quads.data", warning, check, none, none, none,                                    \
    "quads data index out of range or data that cannot be inflated")                               \
  X(sounds_data, "sounds.data", warning, check, none, none, none,                                  \
    "sound source data index out of range or data that cannot be inflated")                        \
  X(quads_data_size, "quads.data_size", warning, check, none, none, none,                          \
    "`num_quads * 152` differs from the data size")                                                \
  X(sounds_data_size, "sounds.data_size", warning, check, none, none, none,                        \
    "`num_sources * 52` (deprecated: 36) differs from the data size")                              \
  X(tile_invalid, "tile.invalid", warning, check, none, none, none,                                \
    "tile keys not defined for the layer kind (schema/tile_names.csv), with counts")               \
  X(group_game_not_standard, "group.game_not_standard", warning, check, none, none, none,          \
    "the game group has an offset, parallax other than 100 or clipping")                           \
  X(envelope_item_size, "envelope.item_size", warning, check, none, none, none,                    \
    "envelope item shorter than 4 ints")                                                           \
  X(envelope_channels, "envelope.channels", warning, check, none, none, none,                      \
    "channels not 1 (sound), 3 (position) or 4 (color)")                                           \
  X(envelope_points_range, "envelope.points_range", warning, check, none, none, none,              \
    "`start_point + num_points` outside the envelope points (or negative)")                        \
  X(envelope_time_order, "envelope.time_order", warning, check, none, none, none,                  \
    "point times decrease within an envelope (first occurrence)")                                  \
  X(envelope_missing, "envelope.missing", warning, check, none, none, none,                        \
    "a layer, quad or sound source uses an envelope that does not exist (at the layer)")           \
  X(envelope_kind, "envelope.kind", warning, check, none, none, none,                              \
    "an envelope used in a role of another kind (e.g. a position envelope as layer color)")        \
  X(envelope_unused, "envelope.unused", info, check, none, none, none,                             \
    "an envelope nothing uses (info: the games evaluate an envelope only for its users; it "       \
    "only takes bytes)")                                                                           \
  X(envpoints_size, "envpoints.size", warning, check, none, none, none,                            \
    "the envelope points item is not a multiple of the point size (6 or 22 ints)")                 \
  X(envpoints_bezier_count, "envpoints.bezier_count", warning, check, none, none, none,            \
    "DDNet's bezier item holds another number of points than the points item (ignored)")           \
  X(image_item_size, "image.item_size", warning, check, none, none, none,                          \
    "image item shorter than 6 ints")                                                              \
  X(image_name, "image.name", warning, check, none, none, none,                                    \
    "image name missing, not a NUL-terminated string, or longer than 128 bytes (a name that is "   \
    "not UTF-8 is kept: `text.not_utf8`)")                                                         \
  X(image_size, "image.size", warning, check, none, none, none,                                    \
    "image width or height not positive")                                                          \
  X(image_no_data, "image.no_data", warning, check, none, none, none,                              \
    "embedded image whose data index is out of range")                                             \
  X(image_data_size, "image.data_size", warning, check, none, none, none,                          \
    "embedded image data smaller than width*height*bytes per pixel")                               \
  X(image_rgb, "image.rgb", warning, check, none, none, none,                                      \
    "embedded RGB image (0.7 variant 0); DDNet loads only RGBA")                                   \
  X(image_external_nonstandard, "image.external_nonstandard", warning, check, none, none, none,    \
    "external image name not in the standard mapres list")                                         \
  X(image_tile_size, "image.tile_size", warning, check, none, none, none,                          \
    "an image used by a tile layer whose size is not a multiple of 16")                            \
  X(image_missing, "image.missing", warning, check, none, none, none,                              \
    "a layer uses an image index that does not exist (at the layer)")                              \
  X(image_unused, "image.unused", info, check, none, none, none,                                   \
    "an image no layer uses (info: the client loads it and draws nothing with it; it costs "       \
    "bytes)")                                                                                      \
  X(images_too_many, "images.too_many", warning, check, none, none, none, "more than 64 images")   \
  X(sound_item_size, "sound.item_size", warning, check, none, none, none,                          \
    "sound item shorter than 4 ints")                                                              \
  X(sound_name, "sound.name", warning, check, none, none, none,                                    \
    "sound name not a NUL-terminated string (a name that is not UTF-8 is kept: `text.not_utf8`)")  \
  X(sound_no_data, "sound.no_data", warning, check, none, none, none,                              \
    "sound data index out of range")                                                               \
  X(sound_external, "sound.external", warning, check, none, none, none,                            \
    "a sound marked external (no external sounds exist)")                                          \
  X(sound_missing, "sound.missing", warning, check, none, none, none,                              \
    "a sounds layer uses a sound index that does not exist")                                       \
  X(sound_unused, "sound.unused", info, check, none, none, none,                                   \
    "a sound no sounds layer uses (info: the client loads it and never plays it; it costs bytes)") \
  X(sounds_too_many, "sounds.too_many", warning, check, none, none, none, "more than 64 sounds")   \
  X(automapper_item_size, "automapper.item_size", warning, check, none, none, none,                \
    "automapper item shorter than 3 ints")                                                         \
  X(automapper_target, "automapper.target", info, check, none, none, none,                         \
    "an automapper pointing at a missing group or a layer beyond its group (info: only DDNet's "   \
    "editor reads automapper items, and it skips one whose target is out of range)")               \
  X(info_item_size, "info.item_size", warning, check, none, none, none, "info item empty")         \
  X(info_string, "info.string", warning, check, none, none, none,                                  \
    "author/version/credits/license not a NUL-terminated string (D7 without its UTF-8 part: "      \
    "text that is not UTF-8 is kept, `text.not_utf8`)")                                            \
  X(info_too_long, "info.too_long", warning, check, none, none, none,                              \
    "info string longer than its maximum (author 32, version 16, credits 128, license 32 bytes "   \
    "with NUL)")                                                                                   \
  X(info_settings, "info.settings", warning, check, none, none, none,                              \
    "settings not NUL-terminated or unreadable")                                                   \
  X(text_not_utf8, "text.not_utf8", warning, check, none, none, none,                              \
    "a layer, group, image, envelope or sound name, an info string or a settings line (at the "    \
    "map), or an entry path (at the entry) is not valid UTF-8: the message shows its bytes in "    \
    "hex; the index stores the text with U+FFFD for each invalid sequence and the original bytes " \
    "in the `*_raw` column beside it")                                                             \
  /* SpriteTile levels (stages/decode/spritetile, stages/extract/spritetile_stats) */              \
  X(st_lzf_empty, "st.lzf.empty", error, spritetile, none, none, none,                             \
    "the file is empty: expected an LZF stream")                                                   \
  X(st_lzf_truncated, "st.lzf.truncated", error, spritetile, none, none, none,                     \
    "an LZF token runs past the end of the input")                                                 \
  X(st_lzf_backref, "st.lzf.backref", error, spritetile, none, none, none,                         \
    "an LZF back reference before the start of the output")                                        \
  X(st_lzf_cap, "st.lzf.cap", error, spritetile, none, none, none,                                 \
    "the level decompresses to more than its size limit")                                          \
  X(st_lzf_failed, "st.lzf.failed", error, spritetile, none, none, none,                           \
    "liblzf disagreed with the LZF walk (a bug: should not happen)")                               \
  X(st_magic, "st.magic", error, spritetile, none, none, none,                                     \
    "the decompressed file does not start with `SpriteTileLevel`")                                 \
  X(st_header_truncated, "st.header.truncated", error, spritetile, none, none, none,               \
    "the level is shorter than its 24-byte header")                                                \
  X(st_endian, "st.endian", error, spritetile, none, none, none,                                   \
    "endianness byte neither 0 (big) nor 1 (little)")                                              \
  X(st_version, "st.version", error, spritetile, none, none, none,                                 \
    "level version other than 2 or 3")                                                             \
  X(st_tags_count, "st.tags.count", error, spritetile, none, none, none,                           \
    "tag count below 1, or the tag table runs past the end")                                       \
  X(st_lvlayrs_duplicate, "st.lvlayrs.duplicate", error, spritetile, none, none, none,             \
    "a second `lvlayrs` tag")                                                                      \
  X(st_numsets_duplicate, "st.numsets.duplicate", error, spritetile, none, none, none,             \
    "a second `numsets` tag")                                                                      \
  X(st_not_level, "st.not_level", error, spritetile, none, none, none,                             \
    "no `lvlayrs` but groups tags: a SpriteTile groups file, not a level (the entry is not a "     \
    "map)")                                                                                        \
  X(st_lvlayrs_missing, "st.lvlayrs.missing", error, spritetile, none, none, none,                 \
    "no `lvlayrs` tag (and no groups tags)")                                                       \
  X(st_tag_offset, "st.tag.offset", error, spritetile, none, none, none,                           \
    "`lvlayrs` or `numsets` data outside the file")                                                \
  X(st_numsets, "st.numsets", error, spritetile, none, none, none,                                 \
    "numsets not 2, 4, 8, 16 or 32")                                                               \
  X(st_layers_count, "st.layers.count", error, spritetile, none, none, none,                       \
    "negative layer count, or more layers than the bytes allow")                                   \
  X(st_layer_truncated, "st.layer.truncated", error, spritetile, none, none, none,                 \
    "a layer header runs past the end (at the layer)")                                             \
  X(st_layer_size, "st.layer.size", error, spritetile, none, none, none,                           \
    "width or height below 1, or width*height cells (7 bytes each) run past the end (at the "      \
    "layer)")                                                                                      \
  X(st_layer_tag, "st.layer.tag", warning, spritetile, none, none, none,                           \
    "a layer's tag is not `lyrdata`")                                                              \
  X(st_layer_lock, "st.layer.lock", warning, spritetile, none, none, none,                         \
    "LayerLock outside 0..3")                                                                      \
  X(st_layer_float, "st.layer.float", warning, spritetile, none, none, none,                       \
    "a tile size or Z that is not a finite number")                                                \
  X(st_layer_tile_size, "st.layer.tile_size", warning, spritetile, none, none, none,               \
    "tile size not positive")                                                                      \
  X(st_cell_rotation, "st.cell.rotation", warning, spritetile, none, none, none,                   \
    "cells with a rotation above 1799 (359.8 degrees)")                                            \
  X(st_cell_unused_bits, "st.cell.unused_bits", warning, spritetile, none, none, none,             \
    "cells with the unused misc bits 13-14 set")                                                   \
  X(st_cell_empty_value, "st.cell.empty_value", warning, spritetile, none, none, none,             \
    "empty cells storing a negative tile other than -1")                                           \
  /* entries (stored with the entry; README, "Reading inputs") */                                  \
  X(read_io, "read.io", error, entry, none, none, none,                                            \
    "cannot open, list or read a file, folder or stream")                                          \
  X(read_truncated, "read.truncated", error, entry, none, none, none,                              \
    "an archive or compressed stream ends early (the entries before the cut are indexed)")         \
  X(read_corrupt, "read.corrupt", error, entry, none, none, none,                                  \
    "libarchive rejects an archive or an entry's data")                                            \
  X(read_encrypted, "read.encrypted", error, entry, none, none, none,                              \
    "an encrypted entry (not read)")                                                               \
  X(read_nesting, "read.nesting", error, entry, none, none, none,                                  \
    "an archive nested deeper than `--max-nesting` (not followed)")                                \
  X(read_oversize_archive, "read.oversize_archive", error, entry, none, none, none,                \
    "a 7z archive inside an archive or on standard input, larger than `--max-map-size`")           \
  X(read_empty, "read.empty", error, entry, none, none, none,                                      \
    "an input that gives no entries: empty, zeros (an empty tar), an empty archive or folder")     \
  X(read_empty_inner, "read.empty", warning, entry, none, none, none,                              \
    "an archive inside an archive with no entries")                                                \
  X(read_not_regular, "read.not_regular", warning, entry, none, none, none,                        \
    "a link, device, FIFO or socket (not read), or a folder loop")                                 \
  X(read_duplicate_name, "read.duplicate_name", warning, entry, none, none, none,                  \
    "the entry's path occurs more than once in its archive (at the 2nd and later occurrences)")    \
  X(entry_oversize, "entry.oversize", error, entry, none, none, none,                              \
    "an entry larger than `--max-map-size` (not read)")                                            \
  X(internal, "internal", error, entry, none, none, none,                                          \
    "measuring the entry threw (out of memory or a bug); no input is known to cause it")           \
  /* errors of commands (exit status; never stored) */                                             \
  X(index_damaged, "index.damaged", error, tool, none, none, none, "the index is damaged")         \
  X(index_failed, "index.failed", error, tool, none, none, none, "writing the index failed")       \
  X(index_foreign, "index.foreign", error, tool, none, none, none,                                 \
    "the file is another program's SQLite database")                                               \
  X(index_io, "index.io", error, tool, none, none, none, "the index cannot be read or written")    \
  X(index_locked, "index.locked", error, tool, none, none, none,                                   \
    "another process holds the index")                                                             \
  X(index_migration, "index.migration", error, tool, none, none, none, "a migration failed")       \
  X(index_migrations, "index.migrations", error, tool, none, none, none,                           \
    "the built-in migrations are inconsistent")                                                    \
  X(index_newer, "index.newer", error, tool, none, none, none,                                     \
    "the index has a newer schema than this program")                                              \
  X(index_not_sqlite, "index.not_sqlite", error, tool, none, none, none,                           \
    "the file is not a SQLite database")                                                           \
  X(index_older, "index.older", error, tool, none, none, none,                                     \
    "the index has an older schema and may not be migrated here")                                  \
  X(index_open, "index.open", error, tool, none, none, none, "the index cannot be opened")         \
  X(index_sql, "index.sql", error, tool, none, none, none, "SQLite refused a statement")           \
  X(query_empty, "query.empty", error, tool, none, none, none, "no SQL statement given")           \
  X(query_interrupted, "query.interrupted", error, tool, none, none, none,                         \
    "the query was interrupted")                                                                   \
  X(query_open, "query.open", error, tool, none, none, none,                                       \
    "the index of a query cannot be opened")                                                       \
  X(query_parameter, "query.parameter", error, tool, none, none, none,                             \
    "a query parameter missing or not used")                                                       \
  X(query_sql, "query.sql", error, tool, none, none, none, "SQLite refused a query")               \
  X(query_write, "query.write", error, tool, none, none, none, "a query that would write")         \
  X(audit_accept, "audit.accept", error, tool, none, none, none, "`audit --accept` failed")        \
  X(audit_acknowledge, "audit.acknowledge", error, tool, none, none, none,                         \
    "`audit --acknowledge` failed")                                                                \
  X(audit_against, "audit.against", error, tool, none, none, none, "a bad `--against` run")        \
  X(audit_no_complete_run, "audit.no_complete_run", error, tool, none, none, none,                 \
    "the index has no complete run")                                                               \
  X(audit_no_runs, "audit.no_runs", error, tool, none, none, none, "the index has no runs")        \
  X(audit_read, "audit.read", error, tool, none, none, none,                                       \
    "reading the index for the audit failed")                                                      \
  X(audit_game, "audit.game", error, tool, none, none, none,                                       \
    "--game teeworlds on an index without the Teeworlds verdicts (schema older than 4)")           \
  X(audit_run, "audit.run", error, tool, none, none, none, "a bad `--run`")                        \
  X(audit_output, "audit.output", error, tool, none, none, none,                                   \
    "`audit --out`: the report cannot be written")                                                 \
  X(render_input, "render.input", error, tool, none, none, none,                                   \
    "`render`: the MAP cannot be read, is not a map, or the archive has no such entry")            \
  X(render_nothing, "render.nothing", error, tool, none, none, none,                               \
    "`render`: the map has nothing to draw (no game layer, no level layers)")                      \
  X(render_size, "render.size", error, tool, none, none, none,                                     \
    "`render`: the image would be larger than the limit (2^26 pixels)")                            \
  X(render_png, "render.png", error, tool, none, none, none,                                       \
    "`render`: the PNG cannot be encoded or written")                                              \
  X(render_thumbnail, "render.thumbnail", error, tool, none, none, none,                           \
    "`render --from-index`: no stored thumbnail for that SHA-256 or name")                         \
  X(tile_names_header, "tile_names.header", error, tool, none, none, none,                         \
    "schema/tile_names.csv: bad or missing header")                                                \
  X(tile_names_quote, "tile_names.quote", error, tool, none, none, none,                           \
    "schema/tile_names.csv: a quoted field")                                                       \
  X(tile_names_fields, "tile_names.fields", error, tool, none, none, none,                         \
    "schema/tile_names.csv: wrong number of fields")                                               \
  X(tile_names_tile, "tile_names.tile", error, tool, none, none, none,                             \
    "schema/tile_names.csv: a tile that is not a number")                                          \
  X(tile_names_kind, "tile_names.kind", error, tool, none, none, none,                             \
    "schema/tile_names.csv: a layer kind that is not a physics layer")                             \
  X(tile_names_category, "tile_names.category", error, tool, none, none, none,                     \
    "schema/tile_names.csv: a category that is not tile or entity")                                \
  X(tile_names_empty, "tile_names.empty", error, tool, none, none, none,                           \
    "schema/tile_names.csv: empty layer kind or name")                                             \
  X(tile_names_duplicate, "tile_names.duplicate", error, tool, none, none, none,                   \
    "schema/tile_names.csv: a tile named twice")

enum class Code : std::uint16_t {
#define MAPINDEX_CODE_ENUM(name, string, severity, group, ddnet, tw06, tw07, meaning) name,
  MAPINDEX_CODES(MAPINDEX_CODE_ENUM)
#undef MAPINDEX_CODE_ENUM
};

struct CodeInfo {
  Code code;
  std::string_view string;
  Severity severity;
  CodeGroup group;
  GameLoad ddnet, teeworlds06, teeworlds07;
  std::string_view meaning;
};

// The table, in enum order (code_table()[i].code == Code(i)).
std::span<const CodeInfo> code_table();
const CodeInfo& info(Code code);

inline std::string_view to_string(Code code) { return info(code).string; }
inline Severity severity_of(Code code) { return info(code).severity; }

}  // namespace mapindex
