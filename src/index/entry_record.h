// What the writer stores about one entry of a source (besides its map's
// statistics), and the counters of a run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/problem.h"
#include "common/sha256.h"

namespace mapindex::index {

// map: a Teeworlds map or SpriteTile level (decoded, or known by its SHA-256);
// other: read but not a map; oversize: skipped unread for its size;
// unreadable: reading it failed.
enum class EntryKind : unsigned char { map, other, oversize, unreadable };

std::string_view to_string(EntryKind kind);  // files.kind
std::optional<EntryKind> parse_entry_kind(std::string_view text);

// What a source given to `mapindex index` is (sources.kind): "archive",
// "folder", "file" (a single entry) or "stdin".
enum class SourceKind : unsigned char { archive, folder, file, standard_input };

std::string_view to_string(SourceKind kind);
std::optional<SourceKind> parse_source_kind(std::string_view text);

// How completely a run read a source (run_sources.reading): to its end, cut
// short after some entries, or not at all.
enum class SourceReading : unsigned char { complete, partial, unreadable };

std::string_view to_string(SourceReading reading);
std::optional<SourceReading> parse_source_reading(std::string_view text);

// runs.status: a run is running until it finishes complete, interrupted
// (Ctrl-C, or its process is gone) or failed (the index failed under it).
enum class RunStatus : unsigned char { running, complete, interrupted, failed };

std::string_view to_string(RunStatus status);
std::optional<RunStatus> parse_run_status(std::string_view text);

struct EntryRecord {
  std::int64_t source_id = 0;  // from IndexDb::source_id
  std::string entry_path;      // path inside the source ("maps/Kobra 4.map")
  EntryKind kind = EntryKind::other;
  std::uint64_t size = 0;
  std::optional<Sha256> sha256;  // the content's; none when not read (oversize, unreadable)
  std::uint32_t crc32 = 0;       // ignored without sha256
  Problems problems;             // entry problems (unreadable, oversize, ...), stored with the file
  // A map whose content the run found in this index (IndexDb::known_maps):
  // its maps.map_id, so that the writer need not look it up by sha256 (the
  // costliest of the lookups a known entry took). 0: looked up. Rows of maps
  // are never deleted, so an id known_maps gave stays valid for the run.
  std::int64_t known_map_id = 0;
};

struct RunCounters {
  std::uint64_t entries = 0;
  std::uint64_t maps_indexed = 0;
  std::uint64_t maps_known = 0;
  std::uint64_t rejected = 0;
  std::uint64_t with_warnings = 0;
  std::uint64_t not_maps = 0;
  std::uint64_t unreadable = 0;
  std::uint64_t oversize = 0;
  std::uint64_t bytes = 0;
};

// The file name without folder and extension: "maps/Kobra 4.map" -> "Kobra 4".
std::string entry_name(std::string_view entry_path);

}  // namespace mapindex::index
