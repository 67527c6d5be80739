// An entry's rows: its map (map_rows.h), its files row, the file's version
// and sighting, and the entry's problems. The files statements bind their
// parameters by name, so that a column moved in one cannot take another's value.
#include <optional>
#include <string>
#include <string_view>

#include "common/hex.h"
#include "common/utf8.h"
#include "index/index_db_internal.h"

namespace mapindex::index {

using sqlite::named;
namespace {

// The values of an entry's files row (its name aside, derived from
// entry_path where it is written); file_versions repeats some of them.
struct FileRow {
  std::int64_t source_id = 0;
  std::string_view entry_path;
  std::int64_t occurrence = 1;
  std::optional<sqlite::Blob> entry_path_raw;  // the path's bytes when they are not UTF-8
  std::string_view kind;
  std::uint64_t size = 0;
  std::optional<std::string> sha256;   // as the index stores it (hex); none for an entry not read
  std::optional<std::uint32_t> crc32;  // with sha256
  std::optional<std::int64_t> map_id;
};

FileRow file_row(const EntryRecord& e, std::int64_t occurrence,
                 std::optional<std::int64_t> map_id) {
  FileRow row{e.source_id,
              e.entry_path,
              occurrence,
              sqlite::bytes_if_not_utf8(e.entry_path),
              to_string(e.kind),
              e.size,
              std::nullopt,
              std::nullopt,
              map_id};
  if (e.sha256) {
    row.sha256 = to_hex(*e.sha256);
    row.crc32 = e.crc32;
  }
  return row;
}

// The problems stored with the entry's file: the entry's own, and those of
// its path (not UTF-8; a name that occurs more than once in its archive).
Problems entry_problems(const EntryRecord& e, bool valid_path, std::int64_t occurrence) {
  Problems problems = e.problems;
  if (!valid_path)
    problems.push_back(
        Problem{Code::text_not_utf8,
                "entry path is not valid UTF-8 (bytes: " + hex_bytes(e.entry_path) +
                    "); stored as '" + to_valid_utf8(e.entry_path) +
                    "' with U+FFFD for the invalid bytes, the bytes in files.entry_path_raw",
                Location::file()});
  if (occurrence > 1)
    problems.push_back(Problem{Code::read_duplicate_name,
                               "entry '" + e.entry_path +
                                   "' occurs more than once in its archive; this is occurrence " +
                                   std::to_string(occurrence),
                               Location::file()});
  return problems;
}

// How many rows of the entry's path in its source this run has sighted.
std::int64_t earlier_occurrences(sqlite::StatementCache& st, std::int64_t run_id,
                                 const EntryRecord& e) {
  auto& earlier = st.get(
      "SELECT count(*) FROM files f JOIN file_sightings h ON h.file_id = f.file_id "
      "WHERE f.source_id = ? AND f.entry_path = ? AND h.run_id = ?");
  earlier.bind_all(e.source_id, e.entry_path, run_id);
  return earlier.single_int().value_or(0);
}

// Writes the whole files row (bind_file_row binds it); the upsert adds its
// conflict clause.
constexpr std::string_view kInsertFileRow =
    "INSERT INTO files (source_id, entry_path, occurrence, entry_path_raw, name, kind, size, "
    "sha256, crc32, map_id, first_run_id, last_run_id, changed_run_id) "
    "VALUES (:source_id, :entry_path, :occurrence, :entry_path_raw, :name, :kind, :size, "
    ":sha256, :crc32, :map_id, :run_id, :run_id, :run_id)";

// Binds a statement that writes the whole files row, `run_id` as
// first_run_id, last_run_id and changed_run_id.
sqlite::Statement& bind_file_row(sqlite::Statement& s, std::int64_t run_id, const FileRow& f) {
  return s.bind_named(named(":source_id", f.source_id), named(":entry_path", f.entry_path),
                      named(":occurrence", f.occurrence),
                      named(":entry_path_raw", f.entry_path_raw),
                      named(":name", entry_name(f.entry_path)), named(":kind", f.kind),
                      named(":size", f.size), named(":sha256", f.sha256), named(":crc32", f.crc32),
                      named(":map_id", f.map_id), named(":run_id", run_id));
}

std::int64_t insert_file_version(sqlite::StatementCache& st, std::int64_t run_id,
                                 std::int64_t file_id, const FileRow& f) {
  return st
      .get(
          "INSERT INTO file_versions (file_id, kind, size, sha256, crc32, map_id, first_run_id) "
          "VALUES (?, ?, ?, ?, ?, ?, ?)")
      .bind_all(file_id, f.kind, f.size, f.sha256, f.crc32, f.map_id, run_id)
      .insert();
}

// The rows of a path's first entry in a source this run created: none of
// the path's rows can exist yet. Returns the file_id.
std::int64_t insert_new_file(sqlite::StatementCache& st, std::int64_t run_id, const FileRow& f) {
  auto& insert = st.get(kInsertFileRow);
  const std::int64_t file_id = bind_file_row(insert, run_id, f).insert();
  const std::int64_t version_id = insert_file_version(st, run_id, file_id, f);
  st.get("INSERT INTO file_sightings (run_id, file_id, version_id) VALUES (?, ?, ?)")
      .bind_all(run_id, file_id, version_id)
      .run();
  return file_id;
}

// The files row of an entry whose path may have rows: a file seen before as
// it is (the usual case of a run over unchanged inputs) only gets its
// last_run_id, one row rewritten and no index entry; anything else goes
// through the upsert, which rewrites every column and the entries of the
// files_by_* indexes (four times the cost). Returns the file_id.
//
// The file seen as it is: found by its key and every column, then updated by
// its rowid. One UPDATE ... RETURNING does the same but costs more than the
// two: SQLite gathers a RETURNING statement's rows in a table of their own
// before it returns any (measured: see the benchmark results).
std::int64_t upsert_file(sqlite::StatementCache& st, std::int64_t run_id, const FileRow& f) {
  auto& file_seen = st.get(
      "SELECT file_id FROM files WHERE source_id = :source_id "
      "AND entry_path = :entry_path AND occurrence = :occurrence "
      "AND entry_path_raw IS :entry_path_raw AND kind = :kind AND size = :size "
      "AND sha256 IS :sha256 AND crc32 IS :crc32 AND map_id IS :map_id");
  file_seen.bind_named(named(":source_id", f.source_id), named(":entry_path", f.entry_path),
                       named(":occurrence", f.occurrence),
                       named(":entry_path_raw", f.entry_path_raw), named(":kind", f.kind),
                       named(":size", f.size), named(":sha256", f.sha256), named(":crc32", f.crc32),
                       named(":map_id", f.map_id));
  if (const auto seen_id = file_seen.single_int()) {
    st.get("UPDATE files SET last_run_id = ? WHERE file_id = ?").bind_all(run_id, *seen_id).run();
    return *seen_id;
  }
  static const std::string upsert_sql =
      std::string(kInsertFileRow) +
      " ON CONFLICT (source_id, entry_path, occurrence) DO UPDATE SET "
      "changed_run_id = CASE WHEN files.kind IS NOT excluded.kind "
      "OR files.size IS NOT excluded.size OR files.sha256 IS NOT excluded.sha256 "
      "THEN excluded.changed_run_id ELSE files.changed_run_id END, "
      "name = excluded.name, kind = excluded.kind, size = excluded.size, "
      "sha256 = excluded.sha256, crc32 = excluded.crc32, map_id = excluded.map_id, "
      "last_run_id = excluded.last_run_id, entry_path_raw = excluded.entry_path_raw "
      "RETURNING file_id";
  return *bind_file_row(st.get(upsert_sql), run_id, f).single_int();
}

// The file's version with the entry's content (found, or new) and the run's
// sighting of it; the file's problems are replaced by the caller.
void write_version_and_sighting(sqlite::StatementCache& st, std::int64_t run_id,
                                std::int64_t file_id, const FileRow& f) {
  auto& version_select = st.get(
      "SELECT version_id FROM file_versions "
      "WHERE file_id = ? AND kind = ? AND size = ? AND ifnull(sha256, '') = ?");
  version_select.bind_all(file_id, f.kind, f.size, f.sha256.value_or(""));
  auto version_id = version_select.single_int();
  if (!version_id) version_id = insert_file_version(st, run_id, file_id, f);
  st.get(
        "INSERT INTO file_sightings (run_id, file_id, version_id) VALUES (?, ?, ?) "
        "ON CONFLICT (run_id, file_id) DO UPDATE SET version_id = excluded.version_id")
      .bind_all(run_id, file_id, *version_id)
      .run();
}

}  // namespace

void check_entry(const EntryRecord& entry, const MapStats* stats) {
  const auto where = [&entry] { return "entry '" + entry.entry_path + "'"; };
  if (entry.kind == EntryKind::map && !entry.sha256)
    throw sqlite::IndexError(where() + ": a map needs its sha256");
  if (stats && entry.kind != EntryKind::map)
    throw sqlite::IndexError(where() + ": statistics given for an entry of kind " +
                             std::string(to_string(entry.kind)));
  if (entry.known_map_id && (stats || entry.kind != EntryKind::map))
    throw sqlite::IndexError(where() + ": a known map id (" + std::to_string(entry.known_map_id) +
                             ") given with statistics or for an entry that is not a map");
}

std::optional<std::int64_t> IndexDb::Impl::entry_map_id(std::int64_t run_id, const EntryRecord& e,
                                                        const MapStats* stats,
                                                        const MapPartKeys* keys) {
  if (e.kind != EntryKind::map) return std::nullopt;
  if (stats) {
    std::optional<MapPartKeys> computed;
    if (!keys) keys = &computed.emplace(part_keys(*stats, extractor_version));
    const StoredMapRows stored = store_map(*statements, parts, run_id, extractor_version,
                                           MapIdentity{*e.sha256, e.crc32, e.size}, *stats, *keys);
    if (stored.parts_written) layer_index_deferral.wrote(stats->layers.size());
    return stored.map_id;
  }
  if (e.known_map_id) return e.known_map_id;
  if (const auto stored = find_map(*statements, *e.sha256)) return stored->map_id;
  throw sqlite::IndexError("entry '" + e.entry_path + "': map " + to_hex(*e.sha256) +
                           " is not in the index, so its statistics are needed");
}

std::int64_t IndexDb::Impl::write_entry(std::int64_t run_id, const EntryRecord& e,
                                        const MapStats* stats, const MapPartKeys* keys) {
  const std::optional<std::int64_t> map_id = entry_map_id(run_id, e, stats, keys);

  // The same path may occur more than once in a source (an archive holding
  // two entries of one name): each occurrence has its own row, numbered in
  // the order this run writes them (archive order), so that the next run maps
  // them to the same rows. Counted from this run's sightings when the path
  // may have been written before in this run (seen_paths), else the first.
  // Paths that differ only in bytes that are not UTF-8 are stored alike
  // (U+FFFD), so they count as occurrences of one path.
  const bool valid_path = is_valid_utf8(e.entry_path);
  const bool seen = seen_paths.check_and_add(
      e.source_id, valid_path ? e.entry_path : to_valid_utf8(e.entry_path));
  const std::int64_t occurrence = seen ? earlier_occurrences(*statements, run_id, e) + 1 : 1;
  const Problems problems = entry_problems(e, valid_path, occurrence);
  const FileRow row = file_row(e, occurrence, map_id);

  // The first entry of a path in a source this run started to read (a new
  // archive or folder, the usual case of a new index).
  if (!seen && new_sources.contains(e.source_id)) {
    const std::int64_t file_id = insert_new_file(*statements, run_id, row);
    insert_problems(*statements, run_id, std::nullopt, file_id, problems);
    return file_id;
  }
  const std::int64_t file_id = upsert_file(*statements, run_id, row);
  write_version_and_sighting(*statements, run_id, file_id, row);
  sql("DELETE FROM problems WHERE file_id = ?").bind_all(file_id).run();
  insert_problems(*statements, run_id, std::nullopt, file_id, problems);
  return file_id;
}

}  // namespace mapindex::index
