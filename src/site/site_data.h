// What the static site shows, read from the index's current-state views:
// every current map entry (current_maps) for the list pages, and per map
// content everything its page shows. Text is as the index stores it (valid
// UTF-8; the pages escape it).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <sqlite3.h>

namespace mapindex::site {

// One current map entry: a row of the index page and of maps.json.
struct EntryRow {
  std::string name, source, entry_path, status, sha256, format;
  std::string source_kind;         // sources.kind: archive, folder, file, stdin
  std::vector<std::string> codes;  // errors first, then warnings (current_maps.codes)
  std::int64_t map_id = 0, file_id = 0;
  std::int64_t game_width = 0, game_height = 0, layers = 0, images = 0, size = 0;
  std::string first_seen, last_seen;               // dates (YYYY-MM-DD) of runs
  std::vector<std::string> features;               // ddnet_features, in ddnet_mapinfo's order
  std::int64_t thumb_width = 0, thumb_height = 0;  // 0: no stored thumbnail
};

struct Cell {
  std::string text;
  bool number = false;
};
using Row = std::vector<Cell>;

// A table of a map page: column titles and rows.
struct Table {
  std::vector<std::string> columns;
  std::vector<Row> rows;
};

struct ProblemRow {
  std::string severity, code, title, meaning, message, location;
};

// Where a content is or was: an entry of a source.
struct Sighting {
  std::string source, entry_path, first_seen, last_seen;
  bool current = false;
};

// The counts a page compares between versions of a map.
struct Counts {
  std::int64_t size = 0, game_width = 0, game_height = 0, layers = 0, images = 0, envelopes = 0,
               sounds = 0, quads = 0, errors = 0, warnings = 0;
};

struct Version {
  std::string sha256, name, status, first_seen;
  Counts counts;
};

// Everything a map content's page shows.
struct MapPage {
  std::int64_t map_id = 0;
  std::string sha256, name, status, teeworlds_status, format, format_version;
  std::optional<bool> loads_06, loads_07;
  std::vector<std::pair<std::string, std::string>> info;  // label, value (author, ...)
  std::vector<std::string> settings;
  Counts counts;
  std::vector<std::string> features;
  Table layers, tiles, entities, images, envelopes, sounds;
  std::vector<ProblemRow> problems;
  std::vector<Sighting> sightings;
  std::vector<Version> versions;  // other contents seen under the same name, newest first
  std::int64_t thumb_width = 0, thumb_height = 0;
};

struct Problem {
  std::int64_t map_id = 0;
  std::string sha256, name, severity, code, message;
};

// The index as the site shows it.
struct SiteData {
  std::string latest_run;         // "run 3, 2026-11-28" of the newest complete run; "" when none
  std::vector<EntryRow> entries;  // by name (case-insensitive), source, path
  // The map contents that get a page: every current content, and every other
  // content seen under the name of a current map entry (its versions).
  std::vector<std::int64_t> page_maps;
  std::vector<Problem> problems;  // of current contents, all severities
};

// Reads the list data. Throws sqlite::IndexError on a SQLite failure.
SiteData load_site(sqlite3* db);

// Reads the pages of the maps of `data` (its current entries say which
// sightings are current; its page_maps which versions have a page to link).
// Throws sqlite::IndexError.
class PageLoader {
 public:
  PageLoader(sqlite3* db, const SiteData& data);
  ~PageLoader();
  MapPage load(std::int64_t map_id);
  // Whether map `map_id` has a page (is in page_maps).
  bool has_page(std::int64_t map_id) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The thumbnail PNG stored for `map_id`, or "".
std::string stored_thumbnail(sqlite3* db, std::int64_t map_id);

}  // namespace mapindex::site
