#include "audit/audit_loader.h"

#include "render/png.h"
#include "sqlite/statement.h"

namespace mapindex::audit {
namespace {

using index::EntryKind;
using sqlite::Statement;

// "1, 2, 3" for an IN list (integers only, so no quoting is needed).
std::string id_list(const std::vector<std::int64_t>& ids) {
  std::string text;
  for (const auto id : ids) text += (text.empty() ? "" : ", ") + std::to_string(id);
  return text.empty() ? "NULL" : text;
}

// The distinct maps the runs saw, as a CTE named `audited`.
std::string audited_maps(const std::vector<std::int64_t>& run_ids) {
  return "WITH audited(map_id) AS (SELECT DISTINCT v.map_id FROM file_sightings h "
         "JOIN file_versions v ON v.version_id = h.version_id "
         "WHERE h.run_id IN (" +
         id_list(run_ids) + ") AND v.map_id IS NOT NULL) ";
}

// The source's own path: its reading failed as a whole.
bool occurrence_one_empty(const std::string& entry_path, std::int64_t occurrence) {
  return entry_path.empty() && occurrence == 1;
}

}  // namespace

std::optional<RunInfo> load_run(sqlite3* db, std::int64_t run_id) {
  Statement s(db,
              "SELECT run_id, status, started_at, ifnull(finished_at, ''), command "
              "FROM runs WHERE run_id = ?");
  s.bind_all(run_id);
  if (!s.step()) return std::nullopt;
  return RunInfo{s.column_int(0), s.column_enum(1, index::parse_run_status, "runs.status"),
                 s.column_text(2), s.column_text(3), s.column_text(4)};
}

std::optional<std::int64_t> latest_complete_run(sqlite3* db) {
  Statement s(db, "SELECT max(run_id) FROM runs WHERE status = 'complete'");
  if (!s.step() || s.column_is_null(0)) return std::nullopt;
  return s.column_int(0);
}

std::optional<std::int64_t> latest_run(sqlite3* db) {
  Statement s(db, "SELECT max(run_id) FROM runs");
  if (!s.step() || s.column_is_null(0)) return std::nullopt;
  return s.column_int(0);
}

std::vector<SourceInfo> sources_of_run(sqlite3* db, std::int64_t run_id) {
  Statement s(db,
              "SELECT s.source_id, s.path, s.kind, rs.reading, ifnull(rs.last_entry, '') "
              "FROM run_sources rs "
              "JOIN sources s ON s.source_id = rs.source_id WHERE rs.run_id = ? "
              "ORDER BY s.path, s.kind");
  s.bind_all(run_id);
  std::vector<SourceInfo> sources;
  while (s.step())
    sources.push_back({s.column_int(0), s.column_text(1),
                       s.column_enum(2, index::parse_source_kind, "sources.kind"),
                       s.column_enum(3, index::parse_source_reading, "run_sources.reading"),
                       s.column_text(4)});
  return sources;
}

bool run_read_source(sqlite3* db, std::int64_t run_id, std::int64_t source_id) {
  Statement s(db, "SELECT 1 FROM run_sources WHERE run_id = ? AND source_id = ?");
  s.bind_all(run_id, source_id);
  return s.step();
}

std::optional<index::SourceReading> reading_of(sqlite3* db, std::int64_t run_id,
                                               std::int64_t source_id) {
  Statement s(db, "SELECT reading FROM run_sources WHERE run_id = ? AND source_id = ?");
  s.bind_all(run_id, source_id);
  if (!s.step()) return std::nullopt;
  return s.column_enum(0, index::parse_source_reading, "run_sources.reading");
}

std::optional<std::int64_t> previous_complete_run(sqlite3* db, std::int64_t source_id,
                                                  std::int64_t run_id) {
  Statement s(db,
              "SELECT max(r.run_id) FROM run_sources rs JOIN runs r ON r.run_id = rs.run_id "
              "WHERE rs.source_id = ? AND rs.run_id < ? AND r.status = 'complete' "
              "AND rs.reading = 'complete'");
  s.bind_all(source_id, run_id);
  if (!s.step() || s.column_is_null(0)) return std::nullopt;
  return s.column_int(0);
}

std::vector<SourceNotRead> sources_not_read(sqlite3* db, std::int64_t run_id,
                                            std::optional<std::int64_t> against) {
  std::optional<std::int64_t> earlier = against;
  if (!earlier) {
    Statement s(db, "SELECT max(run_id) FROM runs WHERE status = 'complete' AND run_id < ?");
    s.bind_all(run_id);
    if (s.step() && !s.column_is_null(0)) earlier = s.column_int(0);
  }
  std::vector<SourceNotRead> out;
  if (!earlier) return out;
  Statement s(db,
              "SELECT s.source_id, s.path, s.kind FROM run_sources rs "
              "JOIN sources s ON s.source_id = rs.source_id WHERE rs.run_id = ?1 "
              "AND NOT EXISTS (SELECT 1 FROM run_sources n WHERE n.run_id = ?2 "
              "AND n.source_id = rs.source_id) ORDER BY s.path, s.kind");
  s.bind_all(*earlier, run_id);
  while (s.step())
    out.push_back({s.column_int(0), s.column_text(1),
                   s.column_enum(2, index::parse_source_kind, "sources.kind"), *earlier});
  return out;
}

namespace {
// The SQL expression of a map's status for `game` (maps aliased m). A map
// measured before schema 4 has no Teeworlds verdict yet: DDNet's stands in.
std::string status_of_map(Game game) {
  return game == Game::ddnet ? "m.status" : "coalesce(m.teeworlds_status, m.status)";
}
}  // namespace

std::map<std::string, MapPicture> load_pictures(sqlite3* db, const std::set<std::string>& sha256s) {
  std::map<std::string, MapPicture> pictures;
  if (sha256s.empty()) return pictures;
  const bool thumbnails = sqlite::schema_has(db, "view", "map_thumbnails");
  // One content, one row: the view's name comes from map_names; the PNG is
  // the same for every name.
  Statement s(db, std::string("SELECT m.size, m.game_width, m.game_height, m.num_groups, "
                              "m.num_layers, m.num_images, m.num_envelopes, m.num_sounds, "
                              "m.num_quads, m.errors, m.warnings, ") +
                      (thumbnails ? "(SELECT t.png FROM map_thumbnails t WHERE t.map_id = "
                                    "m.map_id LIMIT 1)"
                                  : "NULL") +
                      " FROM maps m WHERE m.sha256 = ?");
  for (const auto& sha256 : sha256s) {
    if (sha256.empty()) continue;
    s.bind_all(sha256);
    if (!s.step()) continue;
    MapPicture p;
    p.counts = {s.column_int(0), s.column_int(1), s.column_int(2), s.column_int(3),
                s.column_int(4), s.column_int(5), s.column_int(6), s.column_int(7),
                s.column_int(8), s.column_int(9), s.column_int(10)};
    if (!s.column_is_null(11)) {
      const auto png = s.column_blob(11);
      if (const auto size = render::png_size(
              Bytes(reinterpret_cast<const std::uint8_t*>(png.data()), png.size()))) {
        p.png = std::string(png);
        p.width = size->first;
        p.height = size->second;
      }
    }
    pictures.emplace(sha256, std::move(p));
  }
  return pictures;
}

bool has_game_verdicts(sqlite3* db) {
  Statement s(db, "SELECT 1 FROM pragma_table_info('maps') WHERE name = 'teeworlds_status'");
  return s.step();
}

std::optional<Acceptance> acceptance_of(sqlite3* db, std::int64_t run_id) {
  if (!sqlite::schema_has(db, "table", "audit_acceptances")) return std::nullopt;
  Statement s(db, "SELECT accepted_at, note FROM audit_acceptances WHERE run_id = ?");
  s.bind_all(run_id);
  if (!s.step()) return std::nullopt;
  return Acceptance{s.column_text(0), s.column_text(1)};
}

std::unordered_set<std::string> acknowledged_contents(sqlite3* db) {
  std::unordered_set<std::string> out;
  if (!sqlite::schema_has(db, "table", "acknowledged_maps")) return out;
  Statement s(db, "SELECT sha256 FROM acknowledged_maps");
  while (s.step()) out.insert(s.column_text(0));
  return out;
}

std::unordered_map<std::int64_t, std::vector<SeenEntry>> load_entries(sqlite3* db,
                                                                      std::int64_t run_id,
                                                                      Game game) {
  std::unordered_map<std::int64_t, std::vector<SeenEntry>> by_source;
  std::unordered_map<std::int64_t, SeenEntry*> unread;  // file_id -> entry
  Statement s(db,
              "SELECT f.source_id, f.file_id, v.version_id, f.entry_path, f.name, v.kind, v.size, "
              "ifnull(v.sha256, ''), v.map_id, " +
                  status_of_map(game) +
                  ", f.occurrence "
                  "FROM file_sightings h JOIN files f ON f.file_id = h.file_id "
                  "JOIN file_versions v ON v.version_id = h.version_id "
                  "LEFT JOIN maps m ON m.map_id = v.map_id WHERE h.run_id = ?");
  s.bind_all(run_id);
  while (s.step()) {
    SeenEntry e;
    e.file_id = s.column_int(1);
    e.version_id = s.column_int(2);
    e.state.path = s.column_text(3);
    // An archive may hold a path more than once: the 2nd, 3rd, ... occurrence
    // is an entry of its own and is named so in the report.
    if (const auto occurrence = s.column_int(10); occurrence > 1)
      e.state.path += " (occurrence " + std::to_string(occurrence) + ")";
    e.name = s.column_text(4);
    e.state.kind = s.column_enum(5, index::parse_entry_kind, "file_versions.kind");
    e.state.size = s.column_int(6);
    e.state.sha256 = s.column_text(7);
    if (!s.column_is_null(8)) e.state.map_id = s.column_int(8);
    e.state.status =
        health_of(e.state.kind, e.state.map_id ? s.column_enum(9, parse_map_status, "maps.status")
                                               : MapStatus::ok);
    e.reading_error = e.state.kind == EntryKind::unreadable &&
                      occurrence_one_empty(s.column_text(3), s.column_int(10));
    by_source[s.column_int(0)].push_back(std::move(e));
  }
  for (auto& [source, entries] : by_source)
    for (auto& e : entries)
      if (e.state.kind == EntryKind::unreadable || e.state.kind == EntryKind::oversize)
        unread.emplace(e.file_id, &e);
  if (unread.empty()) return by_source;

  // Entry problems are stored for the latest run that saw the entry; they
  // describe this run's sighting when the kind still matches.
  Statement p(db,
              "SELECT p.file_id, p.severity, p.code, p.message, f.kind FROM problems p "
              "JOIN files f ON f.file_id = p.file_id "
              "WHERE p.file_id IN (SELECT h.file_id FROM file_sightings h "
              "JOIN file_versions v ON v.version_id = h.version_id "
              "WHERE h.run_id = ? AND v.kind IN ('unreadable', 'oversize')) "
              "AND p.file_id IS NOT NULL ORDER BY p.file_id, p.position");
  p.bind_all(run_id);
  while (p.step()) {
    const auto found = unread.find(p.column_int(0));
    if (found == unread.end() ||
        p.column_enum(4, index::parse_entry_kind, "files.kind") != found->second->state.kind)
      continue;
    found->second->entry_problems.push_back({p.column_enum(1, parse_severity, "problems.severity"),
                                             p.column_text(2), p.column_text(3)});
    if (p.column_text(2) == to_string(Code::read_truncated)) found->second->reading_error = true;
  }
  return by_source;
}

MapFactsById load_map_facts(sqlite3* db, const std::vector<std::int64_t>& run_ids, Game game) {
  MapFactsById facts;
  const std::string with = audited_maps(run_ids);

  Statement maps(db, with + "SELECT m.map_id, " + status_of_map(game) +
                         ", m.game_width, m.game_height, coalesce(m.author, '') FROM maps m "
                         "JOIN audited a ON a.map_id = m.map_id");
  while (maps.step()) {
    auto& f = facts[maps.column_int(0)];
    f.status = maps.column_enum(1, parse_map_status, "maps.status");
    f.game = game;
    f.game_width = maps.column_int(2);
    f.game_height = maps.column_int(3);
    f.author = maps.column_text(4);
  }

  Statement problems(db, with +
                             "SELECT p.map_id, p.severity, p.code, p.message FROM audited a "
                             "JOIN problems p ON p.map_id = a.map_id "
                             "WHERE p.map_id IS NOT NULL ORDER BY p.map_id, p.position");
  while (problems.step())
    facts[problems.column_int(0)].problems.push_back(
        {problems.column_enum(1, parse_severity, "problems.severity"), problems.column_text(2),
         problems.column_text(3)});

  Statement images(db, with +
                           "SELECT i.map_id, i.image_index, i.name, i.external, "
                           "i.standard_name, i.width, i.height, ifnull(i.data_stored_size, -1), "
                           "EXISTS (SELECT 1 FROM image_users u WHERE u.map_id = i.map_id "
                           "AND u.image_index = i.image_index) "
                           "FROM audited a JOIN images i ON i.map_id = a.map_id "
                           "ORDER BY i.map_id, i.image_index");
  while (images.step()) {
    ImageFacts image;
    image.index = static_cast<std::int32_t>(images.column_int(1));
    image.name = images.column_text(2);
    image.external = images.column_int(3) != 0;
    image.standard_name = images.column_int(4) != 0;
    image.width = images.column_int(5);
    image.height = images.column_int(6);
    image.data_stored_size = images.column_int(7);
    image.used = images.column_int(8) != 0;
    facts[images.column_int(0)].images.push_back(std::move(image));
  }

  // START 33, FINISH 34, time checkpoints 35..59 on the game and front layers.
  // One pass over the (layer_kind, tile) index range, not one per map.
  Statement race(db, with +
                         "SELECT t.map_id, max(t.tile = 33), max(t.tile = 34), "
                         "max(t.tile BETWEEN 35 AND 59) FROM tile_counts t "
                         "WHERE t.layer_kind IN ('game', 'front') AND t.tile BETWEEN 33 AND 59 "
                         "AND t.count > 0 AND t.map_id IN (SELECT map_id FROM audited) "
                         "GROUP BY t.map_id");
  while (race.step()) {
    auto& f = facts[race.column_int(0)];
    f.has_start = race.column_int(1) != 0;
    f.has_finish = race.column_int(2) != 0;
    f.has_time_checkpoint = race.column_int(3) != 0;
  }
  return facts;
}

void load_layer_data(sqlite3* db, const std::set<std::int64_t>& map_ids, MapFactsById& facts) {
  Statement s(db,
              "SELECT DISTINCT d.sha256 FROM layers l "
              "JOIN layer_data d ON d.layer_data_id = l.layer_data_id "
              "WHERE l.map_id = ? AND d.sha256 IS NOT NULL AND d.non_empty > 0 ORDER BY d.sha256");
  for (const auto map_id : map_ids) {
    const auto found = facts.find(map_id);
    if (found == facts.end()) continue;
    std::vector<std::string> keys;
    s.bind_all(map_id);
    while (s.step()) keys.push_back(s.column_text(0));
    found->second.layer_data = std::move(keys);
  }
}

}  // namespace mapindex::audit
