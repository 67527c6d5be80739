// The nightly archive audit's result: what changed between two runs of the
// index, per source, and what is (newly) broken. Plain data, filled by
// build_audit (src/audit/build_audit.h) and printed by the renderers
// (src/audit/render.h). The JSON form of this struct is a documented,
// stable interface (docs/audit-json.md): add fields, never rename or remove them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/problem.h"
#include "extract/map_stats.h"
#include "index/entry_record.h"

namespace mapindex::audit {

// Version of the JSON report format ("format_version").
inline constexpr int kAuditFormatVersion = 1;

// When the audit fails (exit status 1): on entries newly broken (error), also
// on entries with new warnings (warning), or never. Info never fails it.
enum class FailOn { error, warning, never };

std::optional<FailOn> parse_fail_on(std::string_view text);  // "error", "warning", "never"
std::string_view to_string(FailOn fail_on);

struct RunInfo {
  std::int64_t run_id = 0;
  index::RunStatus status = index::RunStatus::running;
  std::string started_at;
  std::string finished_at;  // "" while running or when cut short
  std::string command;
};

// An entry's health as the audit ranks it: a map's status (ok, warnings,
// rejected), or the kind of an entry that is no map (other, oversize,
// unreadable).
enum class Health : unsigned char { ok, warnings, rejected, other, oversize, unreadable };
std::string_view to_string(Health health);
// The health of an entry of `kind`; `map_status` is a map's status.
Health health_of(index::EntryKind kind, MapStatus map_status);

// One entry of a source as one run saw it.
struct EntryState {
  std::string path;  // entry path inside the source
  index::EntryKind kind = index::EntryKind::other;
  Health status = Health::other;
  std::int64_t size = 0;
  std::string sha256;                  // "" when not read (oversize, unreadable)
  std::optional<std::int64_t> map_id;  // maps only

  bool operator==(const EntryState&) const = default;
};

// An entry whose content changed at the same path (changed), or the same
// content found at a new path (moved: before.path is the old path).
struct EntryChange {
  EntryState before;
  EntryState after;
};

// A map entry whose content at the same path is another map, not a new
// version of the same one (source_comparison.h, is_replaced): the game
// layer's size before and after (0 x 0 without a game layer).
struct Replacement {
  EntryState before;
  EntryState after;
  std::int64_t game_width_before = 0, game_height_before = 0;
  std::int64_t game_width_after = 0, game_height_after = 0;
};

// One content held by several map entries of a source.
struct DuplicateGroup {
  std::string sha256;
  std::optional<std::int64_t> map_id;
  std::vector<std::string> paths;  // sorted
  bool is_new = false;             // one of the paths did not hold this content in the baseline
};

// A change in an entry's health. `before` is "" when the entry is new.
// newly_broken / gained_problems: `codes` are the problem codes it has now and
// did not have before; fixed: the codes it had and no longer has. `message` is
// the first problem message behind those codes (errors first).
struct HealthChange {
  std::string path;
  std::optional<Health> before;  // none when the entry is new
  Health after = Health::ok;
  std::vector<std::string> codes;
  std::string message;
  std::string sha256;         // the entry's content now ("" when not read)
  bool acknowledged = false;  // the content is acknowledged (`mapindex audit --acknowledge`)
};

// An error that cut the reading of a source short: the source itself (or an
// archive in it) could not be opened or read to its end (read.truncated,
// read.corrupt, read.io, ... on the archive, or read.truncated on an entry).
struct ReadingError {
  std::string path;  // "" for the source itself
  std::string code;
  std::string message;
};

// How many entries of a source have a problem code, now and in the baseline.
struct CodeCount {
  std::string code;
  Severity severity = Severity::error;
  std::int64_t entries = 0;  // entries with the code now
  std::int64_t before = 0;   // entries with the code in the baseline
  bool is_new = false;       // entries > 0 and no entry had it in the baseline
};

// Rule names of the map-release checks (Finding::rule): codes of the one code
// table (src/common/problem_codes.h, kReleaseChecks), which holds each
// rule's severity, title, meaning and hint.
namespace rules {
inline constexpr std::string_view kRejected = to_string(Code::map_rejected);
inline constexpr std::string_view kNoTimeCheckpoints = to_string(Code::race_no_time_checkpoints);
inline constexpr std::string_view kDuplicateImage = to_string(Code::image_duplicate);
inline constexpr std::string_view kUnusedImage = to_string(Code::image_unused);
inline constexpr std::string_view kEmbeddedStandardImage = to_string(Code::image_embedded_standard);
inline constexpr std::string_view kExternalNonstandardImage =
    to_string(Code::image_external_nonstandard);
inline constexpr std::string_view kSimilarName = to_string(Code::name_similar);
}  // namespace rules

// A map-release check that an entry fails. (rule, subject) identifies the
// finding within its entry: a finding is new unless the entry (or the entry
// it was moved from) had the same one in the baseline.
struct Finding {
  std::string rule;
  Severity severity = Severity::warning;
  std::string path;
  std::optional<std::int64_t> map_id;
  std::string subject;  // image name, normalised map name, or "" for the whole map
  std::string message;
  bool is_new = false;
  std::string sha256;         // the map's content
  bool acknowledged = false;  // the content is acknowledged: never counts as new
};

struct Totals {
  std::int64_t entries = 0;        // entries seen
  std::int64_t bytes = 0;          // their sizes added up
  std::int64_t maps = 0;           // map entries
  std::int64_t distinct_maps = 0;  // distinct map contents
  std::int64_t ok = 0;             // map entries by status
  std::int64_t warnings = 0;
  std::int64_t rejected = 0;
  std::int64_t other = 0;  // entries that are not maps
  std::int64_t oversize = 0;
  std::int64_t unreadable = 0;

  bool operator==(const Totals&) const = default;
};

struct SourceAudit {
  std::int64_t source_id = 0;
  std::string path;
  index::SourceKind kind = index::SourceKind::archive;
  std::optional<std::int64_t> baseline_run;  // none: every entry counts as new
  Totals now;
  std::optional<Totals> before;   // set when there is a baseline
  std::int64_t unchanged = 0;     // entries with the same content at the same path
  std::vector<EntryState> added;  // sorted by path (all of these: by path)
  std::vector<EntryState> removed;
  std::vector<EntryChange> changed;  // every content change at a path, replaced ones too
  // The changed map entries that hold another map now. Their content counts
  // as new (like an added entry's): never fixed, its problems and findings
  // new; HealthChange::before is none.
  std::vector<Replacement> replaced;
  std::vector<EntryChange> moved;
  std::vector<DuplicateGroup> duplicates;
  std::vector<HealthChange> newly_broken;     // became rejected or unreadable (or are new and so)
  std::vector<HealthChange> gained_problems;  // new problem codes, not newly broken
  std::vector<HealthChange> fixed;  // status got better (rejected -> warnings, ...); never replaced
  // New info codes (findings that cannot break a map: unused envelopes,
  // images, sounds, ...), whatever else changed; never fail the audit.
  // newly_broken and gained_problems hold error and warning codes only.
  std::vector<HealthChange> gained_info;
  std::vector<CodeCount> problem_counts;  // info codes last; new codes first, gone codes last;
                                          // errors first, then by count
  std::vector<Finding> findings;          // by path, rule, subject (renderers list info ones last)
  // How the audited run read the source: complete, partial (cut short: the
  // entries after the cut were not read) or unreadable (nothing read).
  index::SourceReading reading = index::SourceReading::complete;
  std::vector<ReadingError> reading_errors;  // what cut it short (not entries of the source)
  std::string last_entry_read;               // partial: the last entry read ("" unknown)
  // Partial or unreadable reading: the baseline's entries the run did not see
  // (they are not counted as removed: the run could not tell).
  std::vector<EntryState> not_read;
};

// A source an earlier run read that the audited run did not list.
struct SourceNotRead {
  std::int64_t source_id = 0;
  std::string path;
  index::SourceKind kind = index::SourceKind::archive;
  std::int64_t last_run = 0;  // the run it is compared from (the previous complete run)
};

// `mapindex audit --accept`: a run accepted as it is.
struct Acceptance {
  std::string accepted_at;
  std::string note;
};

// A map content's counts the HTML report compares (maps columns).
struct MapCounts {
  std::int64_t size = 0;  // bytes
  std::int64_t game_width = 0, game_height = 0;
  std::int64_t groups = 0, layers = 0, images = 0, envelopes = 0, sounds = 0, quads = 0;
  std::int64_t errors = 0, warnings = 0;

  bool operator==(const MapCounts&) const = default;
};

// What the HTML report shows of a map content: its thumbnail (the index's
// map_thumbnails view) and its counts.
struct MapPicture {
  std::string png;                     // the thumbnail's PNG bytes; "" when the index has none
  std::int64_t width = 0, height = 0;  // the thumbnail's size (0 without one)
  MapCounts counts;
};

struct AuditReport {
  RunInfo run;
  std::vector<RunInfo> baselines;               // the distinct baseline runs used, by run_id
  bool baseline_given = false;                  // --against: every source compared with that run
  std::vector<SourceAudit> sources;             // by path
  Totals now;                                   // over all sources
  std::optional<Totals> before;                 // over the sources that have a baseline
  std::vector<SourceNotRead> sources_not_read;  // by path
  std::optional<Acceptance> accepted;           // the audited run was accepted: exit 0
  // By SHA-256: the map contents of the added, removed, changed and newly
  // broken entries, filled only when asked (AuditOptions::pictures, for the
  // HTML report). Not part of the JSON report.
  std::map<std::string, MapPicture> pictures;
};

// What decides the exit status: entries (per source) newly broken, and
// entries with new warnings (a gained problem code or a new warning-level
// finding), each entry counted once.
struct NewCounts {
  std::int64_t errors = 0;
  std::int64_t warnings = 0;
  std::int64_t infos = 0;  // entries with new info codes or findings (never fail the audit)
  std::int64_t unread_sources = 0;  // sources read partially or not at all
};
NewCounts count_new(const AuditReport& report);

// The entries of a source with new warnings (gained problem codes or new
// warning-level findings, not newly broken, not acknowledged), by path, each
// with what is new: problem codes, then finding rules.
struct NewWarning {
  std::string path;
  std::vector<std::string> what;
};
std::vector<NewWarning> new_warnings(const SourceAudit& source);
// The entries of a source with new info (gained info codes, new info-level
// findings; not acknowledged), by path: codes, then finding rules.
std::vector<NewWarning> new_infos(const SourceAudit& source);
// The acknowledged health changes and findings of a source, by path.
std::vector<NewWarning> acknowledged_items(const SourceAudit& source);

// 0 (kExitOk) or 1 (kExitFindings, as `mapindex` uses it): error fails when
// something is newly broken or a source was read partially or not at all;
// warning also when something has new warnings; never always gives 0, and
// so does an accepted run.
int exit_status(const AuditReport& report, FailOn fail_on);

}  // namespace mapindex::audit
