// Part of the one code table (problem_codes.h, which includes this file and
// documents the columns): the codes of reading entries, of the audit's
// release checks and of the commands' own errors.
// Include problem_codes.h, not this file.
#pragma once

#define MAPINDEX_ENTRY_TOOL_CODES(X)                                                               \
  /* entries (stored with the entry; README, "Reading inputs") */                                  \
  X(read_io, "read.io", error, entry, none, none, none, "input cannot be read",                    \
    "cannot open, list or read a file, folder or stream",                                          \
    "Check that the file or folder exists and is readable (permissions, disk); the message has "   \
    "the system's reason.")                                                                        \
  X(read_truncated, "read.truncated", error, entry, none, none, none, "archive cut short",         \
    "an archive or compressed stream ends early (the entries before the cut are indexed)",         \
    "The archive ends early (an interrupted download or copy): get it again; the entries before "  \
    "the cut are indexed.")                                                                        \
  X(read_corrupt, "read.corrupt", error, entry, none, none, none, "archive or entry damaged",      \
    "libarchive rejects an archive or an entry's data",                                            \
    "The archive is damaged or of a kind libarchive cannot read: get a fresh copy or repack it.")  \
  X(read_encrypted, "read.encrypted", error, entry, none, none, none, "entry encrypted",           \
    "an encrypted entry (not read)",                                                               \
    "Repack the archive without a password: encrypted entries are not read.")                      \
  X(read_nesting, "read.nesting", error, entry, none, none, none, "archives nested too deep",      \
    "an archive nested deeper than `--max-nesting` (not followed)",                                \
    "Unpack the outer archives, or raise --max-nesting.")                                          \
  X(read_oversize_archive, "read.oversize_archive", error, entry, none, none, none,                \
    "nested 7z archive too large",                                                                 \
    "a 7z archive inside an archive or on standard input, larger than `--max-map-size`",           \
    "Unpack the 7z archive first, or raise --max-map-size.")                                       \
  X(read_empty, "read.empty", error, entry, none, none, none, "input is empty",                    \
    "an input that gives no entries: empty, zeros (an empty tar), an empty archive or folder",     \
    "The file, folder or archive holds nothing: check the path and that the upload or copy "       \
    "finished.")                                                                                   \
  X(read_empty_inner, "read.empty", warning, entry, none, none, none, "inner archive is empty",    \
    "an archive inside an archive with no entries",                                                \
    "An archive inside the input holds nothing: remove it or replace it with the intended one.")   \
  X(read_not_regular, "read.not_regular", warning, entry, none, none, none, "not a regular file",  \
    "a link, device, FIFO or socket (not read), or a folder loop",                                 \
    "Links, devices, FIFOs and sockets are not followed: give the file they point to instead.")    \
  X(read_duplicate_name, "read.duplicate_name", warning, entry, none, none, none,                  \
    "path twice in archive",                                                                       \
    "the entry's path occurs more than once in its archive (at the 2nd and later occurrences)",    \
    "The archive holds this path more than once: repack it with each map once (the tools that "    \
    "unpack it keep only one).")                                                                   \
  X(entry_oversize, "entry.oversize", error, entry, none, none, none, "entry over --max-map-size", \
    "an entry larger than `--max-map-size` (not read)",                                            \
    "The entry was not read: raise --max-map-size if it really is a map.")                         \
  X(internal, "internal", error, entry, none, none, none, "measuring failed (internal)",           \
    "measuring the entry threw (out of memory or a bug); no input is known to cause it",           \
    "Out of memory or a bug in mapindex: run it again; if it stays, please report it with the "    \
    "file.")                                                                                       \
  /* release checks of the audit (src/audit/audit_rules.cpp): findings, never stored */            \
  X(map_rejected, "map.rejected", error, release, none, none, none, "map refused by the game",     \
    "the game the audit judges by (DDNet; with --game teeworlds both Teeworlds 0.6 and 0.7) "      \
    "would refuse the map: it has an error, whose codes the finding names",                        \
    "Fix the map's first error: mapindex inspect MAP lists its problems, mapindex explain CODE "   \
    "says what each means.")                                                                       \
  X(race_no_time_checkpoints, "race.no_time_checkpoints", info, release, none, none, none,         \
    "race map without time checkpoints",                                                           \
    "a race map (START and FINISH tiles) without time checkpoints: no tile 35..59 on the game "    \
    "or front layer",                                                                              \
    "Place time checkpoints along the route if players should see split times; DDNet does not "    \
    "require them.")                                                                               \
  X(image_duplicate, "image.duplicate", warning, release, none, none, none,                        \
    "two images share one name", "several images of the map share one name",                       \
    "Rename or remove the extra image in the editor's image list.")                                \
  X(image_embedded_standard, "image.embedded_standard", info, release, none, none, none,           \
    "standard image embedded",                                                                     \
    "an embedded image that the game ships as a standard external image: the map carries bytes "   \
    "it need not",                                                                                 \
    "Make the image external in the editor to save its bytes; clients have it.")                   \
  X(name_similar, "name.similar", warning, release, none, none, none,                              \
    "name nearly equal to another's",                                                              \
    "the map's file name differs from another map's in the same source only by case or "           \
    "punctuation (`Kobra_4`, `kobra 4`)",                                                          \
    "Rename one of the maps, or remove the outdated copy from the archive.")                       \
  /* errors of commands (exit status; never stored) */                                             \
  X(index_damaged, "index.damaged", error, tool, none, none, none, "index is damaged",             \
    "the index is damaged",                                                                        \
    "Run mapindex check for the details; restore the index from a backup or build it again with "  \
    "mapindex index.")                                                                             \
  X(index_failed, "index.failed", error, tool, none, none, none, "writing the index failed",       \
    "writing the index failed",                                                                    \
    "The message has SQLite's reason (often disk full): fix it and run mapindex index again; "     \
    "indexed content is skipped.")                                                                 \
  X(index_foreign, "index.foreign", error, tool, none, none, none, "another program's database",   \
    "the file is another program's SQLite database",                                               \
    "Give --db a file that mapindex created, or a new file name.")                                 \
  X(index_io, "index.io", error, tool, none, none, none, "index I/O error",                        \
    "the index cannot be read or written",                                                         \
    "Check the disk (space, permissions, errors) and run the command again.")                      \
  X(index_locked, "index.locked", error, tool, none, none, none, "index busy with another run",    \
    "another process holds the index",                                                             \
    "Wait for the other mapindex index run (the message names it) to finish, or stop it.")         \
  X(index_migration, "index.migration", error, tool, none, none, none, "schema migration failed",  \
    "a migration failed",                                                                          \
    "The index stays at its old version: run mapindex check, then try again or build a new "       \
    "index.")                                                                                      \
  X(index_migrations, "index.migrations", error, tool, none, none, none,                           \
    "built-in migrations inconsistent", "the built-in migrations are inconsistent",                \
    "A bug in this build of mapindex: please report it.")                                          \
  X(index_newer, "index.newer", error, tool, none, none, none, "index from a newer mapindex",      \
    "the index has a newer schema than this program",                                              \
    "Use the newer mapindex that wrote the index, or build a new index with this one.")            \
  X(index_not_sqlite, "index.not_sqlite", error, tool, none, none, none, "not a SQLite database",  \
    "the file is not a SQLite database",                                                           \
    "Give --db an index mapindex created (or a new file name).")                                   \
  X(index_older, "index.older", error, tool, none, none, none, "index needs a migration",          \
    "the index has an older schema and may not be migrated here",                                  \
    "Run mapindex index --db FILE with an INPUT once: it migrates the index in place; then run "   \
    "the command again.")                                                                          \
  X(index_open, "index.open", error, tool, none, none, none, "index cannot be opened",             \
    "the index cannot be opened",                                                                  \
    "Check the --db path and its permissions; create an index with mapindex index --db FILE "      \
    "INPUT.")                                                                                      \
  X(index_sql, "index.sql", error, tool, none, none, none, "SQLite refused a statement",           \
    "SQLite refused a statement",                                                                  \
    "A bug or a damaged index: run mapindex check, and report the message if the index is "        \
    "sound.")                                                                                      \
  X(query_empty, "query.empty", error, tool, none, none, none, "no SQL given",                     \
    "no SQL statement given",                                                                      \
    "Give the SQL as an argument, with -f FILE, or on standard input (-).")                        \
  X(query_interrupted, "query.interrupted", error, tool, none, none, none, "query interrupted",    \
    "the query was interrupted",                                                                   \
    "Run the query again; add a WHERE or LIMIT if it takes too long.")                             \
  X(query_open, "query.open", error, tool, none, none, none, "query index unopenable",             \
    "the index of a query cannot be opened",                                                       \
    "Check --db: the index must exist (create it with mapindex index).")                           \
  X(query_parameter, "query.parameter", error, tool, none, none, none,                             \
    "query parameter missing or unused", "a query parameter missing or not used",                  \
    "Give each :name in the SQL once with -p name=VALUE, and no others.")                          \
  X(query_sql, "query.sql", error, tool, none, none, none, "SQLite refused the query",             \
    "SQLite refused a query",                                                                      \
    "Fix the SQL (the message has SQLite's reason); the schema reference lists the tables and "    \
    "views.")                                                                                      \
  X(query_write, "query.write", error, tool, none, none, none, "query would write",                \
    "a query that would write",                                                                    \
    "Queries only read the index: remove the statement that writes (INSERT, UPDATE, DELETE, "      \
    "CREATE, ...).")                                                                               \
  X(audit_accept, "audit.accept", error, tool, none, none, none, "audit --accept failed",          \
    "`audit --accept` failed",                                                                     \
    "The message has the reason; check that the run exists and the index is writable.")            \
  X(audit_acknowledge, "audit.acknowledge", error, tool, none, none, none,                         \
    "audit --acknowledge failed", "`audit --acknowledge` failed",                                  \
    "The message has the reason; check the SHA-256, path or name given and that the index is "     \
    "writable.")                                                                                   \
  X(audit_against, "audit.against", error, tool, none, none, none, "bad --against run",            \
    "a bad `--against` run",                                                                       \
    "Give a run id the index has (mapindex query \"SELECT run_id, status FROM runs\").")           \
  X(audit_no_complete_run, "audit.no_complete_run", error, tool, none, none, none,                 \
    "no complete run yet", "the index has no complete run",                                        \
    "Run mapindex index to the end once, then audit.")                                             \
  X(audit_no_runs, "audit.no_runs", error, tool, none, none, none, "index has no runs",            \
    "the index has no runs", "Run mapindex index first.")                                          \
  X(audit_read, "audit.read", error, tool, none, none, none, "reading the index failed",           \
    "reading the index for the audit failed",                                                      \
    "Run mapindex check on the index; the message has SQLite's reason.")                           \
  X(audit_game, "audit.game", error, tool, none, none, none, "index lacks Teeworlds verdicts",     \
    "--game teeworlds on an index without the Teeworlds verdicts (schema older than 4)",           \
    "Run mapindex index once with this version to migrate and re-measure, then audit with "        \
    "--game teeworlds.")                                                                           \
  X(audit_run, "audit.run", error, tool, none, none, none, "bad --run", "a bad `--run`",           \
    "Give a run id the index has (mapindex query \"SELECT run_id, status FROM runs\").")           \
  X(audit_output, "audit.output", error, tool, none, none, none, "audit report not written",       \
    "`audit --out`: the report cannot be written",                                                 \
    "Check the --out path: its folder must exist and be writable.")                                \
  X(render_input, "render.input", error, tool, none, none, none, "render input unreadable",        \
    "`render`: the MAP cannot be read, is not a map, or the archive has no such entry",            \
    "Check the MAP path (or ARCHIVE::entry path) and that it is a map.")                           \
  X(render_nothing, "render.nothing", error, tool, none, none, none, "nothing to draw",            \
    "`render`: the map has nothing to draw (no game layer, no level layers)",                      \
    "The map has no game layer or level layers; mapindex inspect shows why.")                      \
  X(render_size, "render.size", error, tool, none, none, none, "image would be too large",         \
    "`render`: the image would be larger than the limit (2^26 pixels)",                            \
    "Lower --scale, or draw fewer layers.")                                                        \
  X(render_png, "render.png", error, tool, none, none, none, "PNG not written",                    \
    "`render`: the PNG cannot be encoded or written",                                              \
    "Check the --out path: its folder must exist and be writable, and the disk not full.")         \
  X(render_thumbnail, "render.thumbnail", error, tool, none, none, none, "no stored thumbnail",    \
    "`render --from-index`: no stored thumbnail for that SHA-256 or name",                         \
    "Check the SHA-256 or name (mapindex query \"SELECT name FROM map_names\"); maps indexed "     \
    "with --no-thumbnails have none.")                                                             \
  X(site_output, "site.output", error, tool, none, none, none, "site not written",                 \
    "`site`: the --out folder or a file in it cannot be written, or holds files the site did "     \
    "not write",                                                                                   \
    "Give --out a folder of its own (new, or one an earlier mapindex site wrote) that is "         \
    "writable.")                                                                                   \
  X(tile_names_header, "tile_names.header", error, tool, none, none, none,                         \
    "tile names CSV header bad", "schema/tile_names.csv: bad or missing header",                   \
    "A bug in this build (schema/tile_names.csv is built in): please report it.")                  \
  X(tile_names_quote, "tile_names.quote", error, tool, none, none, none,                           \
    "tile names CSV quoting bad", "schema/tile_names.csv: a quoted field",                         \
    "A bug in this build (schema/tile_names.csv is built in): please report it.")                  \
  X(tile_names_fields, "tile_names.fields", error, tool, none, none, none,                         \
    "tile names CSV fields wrong", "schema/tile_names.csv: wrong number of fields",                \
    "A bug in this build (schema/tile_names.csv is built in): please report it.")                  \
  X(tile_names_tile, "tile_names.tile", error, tool, none, none, none, "tile names CSV tile bad",  \
    "schema/tile_names.csv: a tile that is not a number",                                          \
    "A bug in this build (schema/tile_names.csv is built in): please report it.")                  \
  X(tile_names_kind, "tile_names.kind", error, tool, none, none, none, "tile names CSV kind bad",  \
    "schema/tile_names.csv: a layer kind that is not a physics layer",                             \
    "A bug in this build (schema/tile_names.csv is built in): please report it.")                  \
  X(tile_names_category, "tile_names.category", error, tool, none, none, none,                     \
    "tile names CSV category bad", "schema/tile_names.csv: a category that is not tile or entity", \
    "A bug in this build (schema/tile_names.csv is built in): please report it.")                  \
  X(tile_names_empty, "tile_names.empty", error, tool, none, none, none,                           \
    "tile names CSV field empty", "schema/tile_names.csv: empty layer kind or name",               \
    "A bug in this build (schema/tile_names.csv is built in): please report it.")                  \
  X(tile_names_duplicate, "tile_names.duplicate", error, tool, none, none, none,                   \
    "tile named twice in CSV", "schema/tile_names.csv: a tile named twice",                        \
    "A bug in this build (schema/tile_names.csv is built in): please report it.")
