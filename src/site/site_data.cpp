#include "site/site_data.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <unordered_map>

#include "extract/teeworlds_features.h"
#include "sqlite/statement.h"

namespace mapindex::site {
namespace {

using sqlite::Statement;

std::string date_of(const std::string& timestamp) { return timestamp.substr(0, 10); }

std::string yes_no(std::int64_t v) { return v ? "yes" : "no"; }

Cell num(std::int64_t v) { return {std::to_string(v), true}; }
Cell text(std::string v) { return {std::move(v), false}; }

// The position of a feature in ddnet_mapinfo's order (unknown ones last).
std::size_t feature_rank(const std::string& feature) {
  const auto& names = teeworlds::kDdnetFeatureNames;
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), feature) - names.begin());
}

// Features in ddnet_mapinfo's order, unknown ones last by name.
void sort_features(std::vector<std::string>& features) {
  std::sort(features.begin(), features.end(), [](const std::string& a, const std::string& b) {
    return std::make_pair(feature_rank(a), a) < std::make_pair(feature_rank(b), b);
  });
}

std::vector<std::string> split_codes(const std::string& codes) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < codes.size()) {
    auto end = codes.find(',', start);
    if (end == std::string::npos) end = codes.size();
    if (end > start) out.push_back(codes.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Physics layer kinds in the order a page lists them.
int kind_rank(const std::string& kind) {
  static const std::vector<std::string> order = {"game",    "front",  "tele",
                                                 "speedup", "switch", "tune"};
  return static_cast<int>(std::find(order.begin(), order.end(), kind) - order.begin());
}

// "run 3, 2026-11-28": the newest complete run; "" when there is none.
std::string latest_run(sqlite3* db) {
  Statement run(db,
                "SELECT run_id, started_at FROM runs WHERE status = 'complete' "
                "ORDER BY run_id DESC LIMIT 1");
  if (!run.step()) return "";
  return "run " + std::to_string(run.column_int(0)) + ", " + date_of(run.column_text(1));
}

// Every current map entry, by name (case-insensitive), source, path; without features.
std::vector<EntryRow> current_entries(sqlite3* db) {
  Statement entries(
      db,
      "SELECT c.name, c.source, c.entry_path, c.status, coalesce(c.codes, ''), c.sha256, "
      "c.format, c.map_id, c.file_id, c.game_width, c.game_height, c.layers, c.images, c.size, "
      "(SELECT r.started_at FROM file_versions v JOIN runs r ON r.run_id = v.first_run_id "
      " WHERE v.file_id = c.file_id AND v.map_id = c.map_id ORDER BY v.first_run_id LIMIT 1), "
      "(SELECT r.started_at FROM files f JOIN runs r ON r.run_id = f.last_run_id "
      " WHERE f.file_id = c.file_id), "
      "coalesce(t.width, 0), coalesce(t.height, 0), "
      "(SELECT kind FROM sources s WHERE s.source_id = c.source_id) "
      "FROM current_maps c LEFT JOIN thumbnails t ON t.map_id = c.map_id "
      "ORDER BY c.name COLLATE NOCASE, c.name, c.source, c.entry_path, c.occurrence");
  std::vector<EntryRow> rows;
  while (entries.step()) {
    EntryRow e;
    e.name = entries.column_text(0);
    e.source = entries.column_text(1);
    e.entry_path = entries.column_text(2);
    e.status = entries.column_text(3);
    e.codes = split_codes(entries.column_text(4));
    e.sha256 = entries.column_text(5);
    e.format = entries.column_text(6);
    e.map_id = entries.column_int(7);
    e.file_id = entries.column_int(8);
    e.game_width = entries.column_int(9);
    e.game_height = entries.column_int(10);
    e.layers = entries.column_int(11);
    e.images = entries.column_int(12);
    e.size = entries.column_int(13);
    e.first_seen = date_of(entries.column_text(14));
    e.last_seen = date_of(entries.column_text(15));
    e.thumb_width = entries.column_int(16);
    e.thumb_height = entries.column_int(17);
    e.source_kind = entries.column_text(18);
    rows.push_back(std::move(e));
  }
  return rows;
}

// Fills each entry's DDNet features (of the `current` contents only).
void add_features(sqlite3* db, const std::set<std::int64_t>& current,
                  std::vector<EntryRow>& entries) {
  std::unordered_map<std::int64_t, std::vector<std::string>> features;
  Statement feature_rows(db, "SELECT map_id, feature FROM ddnet_features");
  while (feature_rows.step()) {
    const auto map_id = feature_rows.column_int(0);
    if (current.count(map_id)) features[map_id].push_back(feature_rows.column_text(1));
  }
  for (auto& [map_id, list] : features) sort_features(list);
  for (auto& e : entries)
    if (const auto found = features.find(e.map_id); found != features.end())
      e.features = found->second;
}

// The contents that get a page: the `current` ones and every content seen
// under the name of a current entry (its versions), by map_id.
std::vector<std::int64_t> page_maps(sqlite3* db, const std::set<std::int64_t>& current,
                                    const std::vector<EntryRow>& entries) {
  std::set<std::int64_t> pages = current;
  std::set<std::string> names;
  for (const auto& e : entries) names.insert(e.name);
  Statement versions(db,
                     "SELECT DISTINCT v.map_id FROM files f "
                     "JOIN file_versions v ON v.file_id = f.file_id "
                     "WHERE f.name = ?1 AND v.kind = 'map' AND v.map_id IS NOT NULL");
  for (const auto& name : names) {
    versions.bind_all(name);
    while (versions.step()) pages.insert(versions.column_int(0));
  }
  return {pages.begin(), pages.end()};
}

// The problems of the `current` contents, by map_id and position.
std::vector<Problem> current_problems(sqlite3* db, const std::set<std::int64_t>& current) {
  Statement problems(db,
                     "SELECT p.map_id, m.sha256, coalesce(n.name, ''), p.severity, p.code, "
                     "p.message FROM problems p JOIN maps m ON m.map_id = p.map_id "
                     "LEFT JOIN map_names n ON n.map_id = p.map_id "
                     "WHERE p.map_id IS NOT NULL ORDER BY p.map_id, p.position");
  std::vector<Problem> rows;
  while (problems.step()) {
    const auto map_id = problems.column_int(0);
    if (!current.count(map_id)) continue;
    rows.push_back({map_id, problems.column_text(1), problems.column_text(2),
                    problems.column_text(3), problems.column_text(4), problems.column_text(5)});
  }
  return rows;
}

}  // namespace

SiteData load_site(sqlite3* db) {
  SiteData data;
  data.latest_run = latest_run(db);
  data.entries = current_entries(db);
  std::set<std::int64_t> current;
  for (const auto& e : data.entries) current.insert(e.map_id);
  add_features(db, current, data.entries);
  data.page_maps = page_maps(db, current, data.entries);
  data.problems = current_problems(db, current);
  return data;
}

struct PageLoader::Impl {
  sqlite3* db;
  std::set<std::pair<std::int64_t, std::int64_t>> current;  // (file_id, map_id)
  std::set<std::int64_t> pages;
  Statement map, settings, layers, tiles, entities, images, envelopes, sounds, problems, sightings,
      versions, features;

  // One reader per part of a page, each of one prepared statement.
  bool read_map_row(std::int64_t map_id, MapPage& p);  // false: no such map
  std::vector<std::string> settings_of(std::int64_t map_id);
  Table layers_of(std::int64_t map_id);
  Table tiles_of(std::int64_t map_id);
  Table entities_of(std::int64_t map_id);
  Table images_of(std::int64_t map_id);
  Table envelopes_of(std::int64_t map_id);
  Table sounds_of(std::int64_t map_id);
  std::vector<ProblemRow> problems_of(std::int64_t map_id);
  std::vector<Sighting> sightings_of(std::int64_t map_id);
  std::vector<Version> versions_of(std::int64_t map_id);
  std::vector<std::string> features_of(std::int64_t map_id);
};

PageLoader::PageLoader(sqlite3* db, const SiteData& data) : impl_(std::make_unique<Impl>()) {
  auto& i = *impl_;
  i.db = db;
  for (const auto& e : data.entries) i.current.insert({e.file_id, e.map_id});
  i.pages.insert(data.page_maps.begin(), data.page_maps.end());
  i.map = Statement(
      db,
      "SELECT m.sha256, m.status, m.teeworlds_status, m.format, m.format_version, "
      "m.loads_teeworlds_06, m.loads_teeworlds_07, m.author, m.map_version, m.credits, "
      "m.license, m.size, m.crc32, m.game_width, m.game_height, m.num_layers, m.num_images, "
      "m.num_envelopes, m.num_sounds, m.num_quads, m.errors, m.warnings, m.infos, m.num_groups, "
      "coalesce(m.uuid_types, ''), coalesce(n.name, ''), coalesce(t.width, 0), "
      "coalesce(t.height, 0) "
      "FROM maps m LEFT JOIN map_names n ON n.map_id = m.map_id "
      "LEFT JOIN thumbnails t ON t.map_id = m.map_id WHERE m.map_id = ?1");
  i.settings = Statement(db, "SELECT command FROM settings WHERE map_id = ?1 ORDER BY position");
  i.layers = Statement(db,
                       "SELECT layer_index, coalesce(group_index, ''), kind, name, width, "
                       "height, non_empty, coalesce(image, ''), detail, num_quads, num_sources "
                       "FROM layers WHERE map_id = ?1 ORDER BY layer_index");
  i.tiles = Statement(db,
                      "SELECT layer_kind, tile, coalesce(tile_name, ''), count FROM map_tiles "
                      "WHERE map_id = ?1 ORDER BY layer_kind, tile");
  i.entities = Statement(db,
                         "SELECT layer_kind, entity, sum(count) FROM entities WHERE map_id = ?1 "
                         "GROUP BY layer_kind, entity ORDER BY layer_kind, entity");
  i.images =
      Statement(db,
                "SELECT i.image_index, i.name, i.width, i.height, i.external, i.rgba, "
                "coalesce(i.data_stored_size, 0), (SELECT group_concat(u.layer_index, ', ') FROM "
                "image_users u WHERE u.map_id = i.map_id AND u.image_index = i.image_index) "
                "FROM images i WHERE i.map_id = ?1 ORDER BY i.image_index");
  i.envelopes = Statement(
      db,
      "SELECT e.envelope_index, e.name, e.kind, e.channels, e.num_points, e.synchronized, "
      "(SELECT group_concat(DISTINCT u.layer_index) FROM envelope_users u "
      " WHERE u.map_id = e.map_id AND u.envelope_index = e.envelope_index) "
      "FROM envelopes e WHERE e.map_id = ?1 ORDER BY e.envelope_index");
  i.sounds = Statement(db,
                       "SELECT s.sound_index, s.name, s.external, coalesce(s.data_stored_size, 0), "
                       "(SELECT group_concat(u.layer_index, ', ') FROM sound_users u "
                       " WHERE u.map_id = s.map_id AND u.sound_index = s.sound_index) "
                       "FROM sounds s WHERE s.map_id = ?1 ORDER BY s.sound_index");
  i.problems = Statement(db,
                         "SELECT severity, code, message, location FROM problems "
                         "WHERE map_id = ?1 ORDER BY CASE severity WHEN 'error' THEN 0 "
                         "WHEN 'warning' THEN 1 ELSE 2 END, position");
  i.sightings =
      Statement(db,
                "SELECT s.path, f.entry_path, f.file_id, "
                "(SELECT started_at FROM runs WHERE run_id = v.first_run_id), "
                "(SELECT r.started_at FROM file_sightings h JOIN runs r ON r.run_id = h.run_id "
                " WHERE h.file_id = f.file_id AND h.version_id = v.version_id "
                " ORDER BY h.run_id DESC LIMIT 1) "
                "FROM file_versions v JOIN files f ON f.file_id = v.file_id "
                "JOIN sources s ON s.source_id = f.source_id WHERE v.map_id = ?1 "
                "ORDER BY s.path, f.entry_path, f.occurrence");
  i.versions = Statement(
      db,
      "SELECT m.map_id, m.sha256, m.status, coalesce(n.name, ''), "
      "(SELECT started_at FROM runs WHERE run_id = m.first_run_id), m.size, m.game_width, "
      "m.game_height, m.num_layers, m.num_images, m.num_envelopes, m.num_sounds, m.num_quads, "
      "m.errors, m.warnings FROM maps m LEFT JOIN map_names n ON n.map_id = m.map_id "
      "WHERE m.map_id <> ?1 AND m.map_id IN (SELECT v2.map_id FROM files f2 "
      " JOIN file_versions v2 ON v2.file_id = f2.file_id WHERE v2.kind = 'map' AND f2.name IN "
      " (SELECT f.name FROM file_versions v JOIN files f ON f.file_id = v.file_id "
      "  WHERE v.map_id = ?1)) ORDER BY m.first_run_id DESC, m.map_id DESC");
  i.features = Statement(db, "SELECT feature FROM ddnet_features WHERE map_id = ?1");
}

PageLoader::~PageLoader() = default;

bool PageLoader::has_page(std::int64_t map_id) const { return impl_->pages.count(map_id) > 0; }

MapPage PageLoader::load(std::int64_t map_id) {
  auto& i = *impl_;
  MapPage p;
  p.map_id = map_id;
  if (!i.read_map_row(map_id, p)) return p;
  p.settings = i.settings_of(map_id);
  p.layers = i.layers_of(map_id);
  p.tiles = i.tiles_of(map_id);
  p.entities = i.entities_of(map_id);
  p.images = i.images_of(map_id);
  p.envelopes = i.envelopes_of(map_id);
  p.sounds = i.sounds_of(map_id);
  p.problems = i.problems_of(map_id);
  p.sightings = i.sightings_of(map_id);
  p.versions = i.versions_of(map_id);
  p.features = i.features_of(map_id);
  return p;
}

// The maps row: verdicts, info items, counts, name and thumbnail size.
bool PageLoader::Impl::read_map_row(std::int64_t map_id, MapPage& p) {
  map.bind_all(map_id);
  if (!map.step()) return false;
  auto& m = map;
  p.sha256 = m.column_text(0);
  p.status = m.column_text(1);
  p.teeworlds_status = m.column_text(2);
  p.format = m.column_text(3);
  p.format_version = m.column_text(4);
  if (!m.column_is_null(5)) p.loads_06 = m.column_int(5) != 0;
  if (!m.column_is_null(6)) p.loads_07 = m.column_int(6) != 0;
  const char* labels[] = {"author", "version", "credits", "license"};
  for (int c = 0; c < 4; ++c)
    if (!m.column_is_null(7 + c)) p.info.emplace_back(labels[c], m.column_text(7 + c));
  p.counts.size = m.column_int(11);
  char crc[16];
  std::snprintf(crc, sizeof crc, "%08llx",
                static_cast<unsigned long long>(m.column_int(12)) & 0xffffffffull);
  p.info.emplace_back("CRC-32", crc);
  p.counts.game_width = m.column_int(13);
  p.counts.game_height = m.column_int(14);
  p.counts.layers = m.column_int(15);
  p.counts.images = m.column_int(16);
  p.counts.envelopes = m.column_int(17);
  p.counts.sounds = m.column_int(18);
  p.counts.quads = m.column_int(19);
  p.counts.errors = m.column_int(20);
  p.counts.warnings = m.column_int(21);
  p.info.emplace_back("info findings", m.column_text(22));
  p.info.emplace_back("groups", m.column_text(23));
  if (!m.column_text(24).empty()) p.info.emplace_back("UUID items", m.column_text(24));
  p.name = m.column_text(25);
  p.thumb_width = m.column_int(26);
  p.thumb_height = m.column_int(27);
  return true;
}

std::vector<std::string> PageLoader::Impl::settings_of(std::int64_t map_id) {
  std::vector<std::string> out;
  settings.bind_all(map_id);
  while (settings.step()) out.push_back(settings.column_text(0));
  return out;
}

// A layer's size and content say what it holds: tiles, quads or sound sources.
Table PageLoader::Impl::layers_of(std::int64_t map_id) {
  Table t{{"#", "group", "kind", "name", "size", "content", "image"}, {}};
  layers.bind_all(map_id);
  while (layers.step()) {
    auto& l = layers;
    const std::string kind = l.column_text(2);
    std::string size = std::to_string(l.column_int(4)) + " x " + std::to_string(l.column_int(5));
    std::string content = std::to_string(l.column_int(6)) + " tiles";
    if (kind == "quads") {
      size = "";
      content = std::to_string(l.column_int(9)) + " quads";
    } else if (kind == "sounds" || kind == "sounds_deprecated") {
      size = "";
      content = std::to_string(l.column_int(10)) + " sources";
    }
    if (l.column_int(8)) content += ", detail";
    t.rows.push_back({num(l.column_int(0)), text(l.column_text(1)), text(kind),
                      text(l.column_text(3)), text(size), text(content), text(l.column_text(7))});
  }
  return t;
}

// Tiles by physics layer kind in kind_rank's order, then by tile.
Table PageLoader::Impl::tiles_of(std::int64_t map_id) {
  Table t{{"layer", "tile", "name", "count"}, {}};
  tiles.bind_all(map_id);
  std::vector<std::pair<int, Row>> ranked;
  while (tiles.step()) {
    const std::string kind = tiles.column_text(0);
    ranked.push_back({kind_rank(kind),
                      {text(kind), num(tiles.column_int(1)), text(tiles.column_text(2)),
                       num(tiles.column_int(3))}});
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [rank, row] : ranked) t.rows.push_back(std::move(row));
  return t;
}

Table PageLoader::Impl::entities_of(std::int64_t map_id) {
  Table t{{"layer", "entity", "count"}, {}};
  entities.bind_all(map_id);
  while (entities.step())
    t.rows.push_back({text(entities.column_text(0)), text(entities.column_text(1)),
                      num(entities.column_int(2))});
  return t;
}

Table PageLoader::Impl::images_of(std::int64_t map_id) {
  Table t{{"#", "name", "size", "kind", "stored bytes", "used by layers"}, {}};
  images.bind_all(map_id);
  while (images.step()) {
    auto& g = images;
    const bool external = g.column_int(4) != 0;
    std::string kind = external ? "external" : "embedded";
    if (!external && g.column_int(5) == 0) kind += ", RGB";
    t.rows.push_back(
        {num(g.column_int(0)), text(g.column_text(1)),
         text(std::to_string(g.column_int(2)) + " x " + std::to_string(g.column_int(3))),
         text(kind), external ? text("") : num(g.column_int(6)),
         text(g.column_is_null(7) ? "none" : g.column_text(7))});
  }
  return t;
}

Table PageLoader::Impl::envelopes_of(std::int64_t map_id) {
  Table t{{"#", "name", "kind", "channels", "points", "synchronized", "used by layers"}, {}};
  envelopes.bind_all(map_id);
  while (envelopes.step()) {
    auto& e = envelopes;
    t.rows.push_back({num(e.column_int(0)), text(e.column_text(1)), text(e.column_text(2)),
                      num(e.column_int(3)), num(e.column_int(4)), text(yes_no(e.column_int(5))),
                      text(e.column_is_null(6) ? "none" : e.column_text(6))});
  }
  return t;
}

Table PageLoader::Impl::sounds_of(std::int64_t map_id) {
  Table t{{"#", "name", "kind", "stored bytes", "used by layers"}, {}};
  sounds.bind_all(map_id);
  while (sounds.step()) {
    auto& s = sounds;
    const bool external = s.column_int(2) != 0;
    t.rows.push_back({num(s.column_int(0)), text(s.column_text(1)),
                      text(external ? "external" : "embedded"),
                      external ? text("") : num(s.column_int(3)),
                      text(s.column_is_null(4) ? "none" : s.column_text(4))});
  }
  return t;
}

std::vector<ProblemRow> PageLoader::Impl::problems_of(std::int64_t map_id) {
  std::vector<ProblemRow> out;
  problems.bind_all(map_id);
  while (problems.step()) {
    ProblemRow r;
    r.severity = problems.column_text(0);
    r.code = problems.column_text(1);
    r.message = problems.column_text(2);
    r.location = problems.column_text(3);
    out.push_back(std::move(r));
  }
  return out;
}

// The entries that hold or held the content, the current ones first.
std::vector<Sighting> PageLoader::Impl::sightings_of(std::int64_t map_id) {
  std::vector<Sighting> out;
  sightings.bind_all(map_id);
  while (sightings.step()) {
    Sighting s;
    s.source = sightings.column_text(0);
    s.entry_path = sightings.column_text(1);
    s.current = current.count({sightings.column_int(2), map_id}) > 0;
    s.first_seen = date_of(sightings.column_text(3));
    if (!s.current) s.last_seen = date_of(sightings.column_text(4));
    out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Sighting& a, const Sighting& b) { return a.current > b.current; });
  return out;
}

// The other contents under the same name that have a page (see SiteData), newest first.
std::vector<Version> PageLoader::Impl::versions_of(std::int64_t map_id) {
  std::vector<Version> out;
  versions.bind_all(map_id);
  while (versions.step()) {
    auto& v = versions;
    if (!pages.count(v.column_int(0))) continue;
    Version version;
    version.sha256 = v.column_text(1);
    version.status = v.column_text(2);
    version.name = v.column_text(3);
    version.first_seen = date_of(v.column_text(4));
    version.counts = {v.column_int(5),  v.column_int(6),  v.column_int(7),  v.column_int(8),
                      v.column_int(9),  v.column_int(10), v.column_int(11), v.column_int(12),
                      v.column_int(13), v.column_int(14)};
    out.push_back(std::move(version));
  }
  return out;
}

std::vector<std::string> PageLoader::Impl::features_of(std::int64_t map_id) {
  std::vector<std::string> out;
  features.bind_all(map_id);
  while (features.step()) out.push_back(features.column_text(0));
  sort_features(out);
  return out;
}

std::string stored_thumbnail(sqlite3* db, std::int64_t map_id) {
  Statement select(db, "SELECT png FROM thumbnails WHERE map_id = ?1");
  select.bind_all(map_id);
  return select.step() ? std::string(select.column_blob(0)) : std::string();
}

}  // namespace mapindex::site
