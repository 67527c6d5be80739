#include "audit/build_audit.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_set>

#include "audit/audit_loader.h"
#include "audit/source_comparison.h"
#include "sqlite/statement.h"

namespace mapindex::audit {
namespace {

// Holds a read transaction open (unless the caller already has one) so every
// query sees the same snapshot of the index.
class ReadSnapshot {
 public:
  explicit ReadSnapshot(sqlite3* db) : db_(db) {
    if (sqlite3_get_autocommit(db_)) {
      sqlite::exec_sql(db_, "BEGIN");
      owned_ = true;
    }
  }
  ~ReadSnapshot() {
    if (owned_) sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
  }
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  sqlite3* db_;
  bool owned_ = false;
};

void add(Totals& sum, const Totals& t) {
  sum.entries += t.entries;
  sum.bytes += t.bytes;
  sum.maps += t.maps;
  sum.ok += t.ok;
  sum.warnings += t.warnings;
  sum.rejected += t.rejected;
  sum.other += t.other;
  sum.oversize += t.oversize;
  sum.unreadable += t.unreadable;
}

std::int64_t distinct_maps(const std::vector<const std::vector<SeenEntry>*>& lists) {
  std::unordered_set<std::string> contents;
  for (const auto* entries : lists)
    for (const auto& e : *entries)
      if (e.state.kind == index::EntryKind::map) contents.insert(e.state.sha256);
  return static_cast<std::int64_t>(contents.size());
}

std::string describe(const RunInfo& run) {
  return "run " + std::to_string(run.run_id) + " (" + std::string(to_string(run.status)) + ")";
}

// The run audited: --run, else the latest complete run.
Result<RunInfo> run_audited(sqlite3* db, const AuditOptions& options) {
  std::int64_t run_id = 0;
  if (options.run) {
    run_id = *options.run;
  } else if (const auto complete = latest_complete_run(db)) {
    run_id = *complete;
  } else if (const auto latest = latest_run(db)) {
    const auto info = load_run(db, *latest);
    return Error{Code::audit_no_complete_run,
                 "the index has no complete run yet (the latest is " + describe(*info) +
                     "): finish a `mapindex index` run, or audit that one with --run " +
                     std::to_string(*latest)};
  } else {
    return Error{Code::audit_no_runs, "the index has no runs yet: run `mapindex index` first"};
  }
  const auto run = load_run(db, run_id);
  if (!run) {
    const auto latest = latest_run(db);
    return Error{Code::audit_run, "--run " + std::to_string(run_id) +
                                      ": the index has no such run" +
                                      (latest ? " (runs go up to " + std::to_string(*latest) + ")"
                                              : std::string(" (it has no runs)"))};
  }
  return *run;
}

// The baseline given with --against, if any.
Result<std::optional<RunInfo>> baseline_given(sqlite3* db, const AuditOptions& options,
                                              std::int64_t run_id) {
  if (!options.against) return std::optional<RunInfo>();
  if (*options.against == run_id)
    return Error{Code::audit_against, "--against " + std::to_string(run_id) +
                                          " is the run audited: compare it with another run"};
  auto against = load_run(db, *options.against);
  if (!against)
    return Error{Code::audit_against,
                 "--against " + std::to_string(*options.against) + ": the index has no such run"};
  return against;
}

// The entries of one source the runs read: a reading cut short
// (run_sources.reading) has reading errors that are not entries of the
// source (kept in audit.reading_errors), and a baseline given with --against
// may itself be cut short.
void entries_read(sqlite3* db, const SourceInfo& source, const std::vector<SeenEntry>& seen_now,
                  const std::vector<SeenEntry>* seen_before, const MapFactsById& facts,
                  SourceAudit& audit, std::vector<SeenEntry>& read_now,
                  std::vector<SeenEntry>& read_before) {
  const bool cut_short = audit.reading != index::SourceReading::complete;
  for (const auto& e : seen_now) {
    if (!cut_short || !e.reading_error) {
      read_now.push_back(e);
      continue;
    }
    const auto problems = problems_of(e, facts);
    audit.reading_errors.push_back({e.state.path, problems.empty() ? "" : problems.front().code,
                                    problems.empty() ? "" : problems.front().message});
  }
  const bool before_cut_short =
      seen_before && audit.baseline_run &&
      reading_of(db, *audit.baseline_run, source.source_id) != index::SourceReading::complete;
  if (seen_before)
    for (const auto& e : *seen_before)
      if (!before_cut_short || !e.reading_error) read_before.push_back(e);
}

// The audit of one source: what it holds now (`seen_now`) against its
// baseline's entries (`seen_before`, null without a baseline).
SourceAudit audit_source(sqlite3* db, const SourceInfo& source,
                         std::optional<std::int64_t> baseline_run,
                         const std::vector<SeenEntry>& seen_now,
                         const std::vector<SeenEntry>* seen_before, MapFactsById& facts,
                         const std::unordered_set<std::string>& acknowledged) {
  SourceAudit audit;
  audit.source_id = source.source_id;
  audit.path = source.path;
  audit.kind = source.kind;
  audit.baseline_run = baseline_run;
  // A reading cut short: the baseline's entries not seen were not read
  // rather than removed.
  audit.reading = source.reading;
  if (audit.reading == index::SourceReading::partial) audit.last_entry_read = source.last_entry;
  const bool cut_short = audit.reading != index::SourceReading::complete;
  std::vector<SeenEntry> read_now, read_before;
  entries_read(db, source, seen_now, seen_before, facts, audit, read_now, read_before);
  // Whether a changed map is another map depends on its layers' data:
  // loaded for those maps only.
  if (seen_before) load_layer_data(db, replacement_candidates(read_before, read_now, facts), facts);
  compare_source(seen_before ? &read_before : nullptr, read_now, facts, audit);
  if (cut_short) {
    audit.not_read = std::move(audit.removed);
    audit.removed.clear();
  }
  if (!acknowledged.empty()) {
    for (auto* list : {&audit.newly_broken, &audit.gained_problems, &audit.gained_info})
      for (auto& change : *list) change.acknowledged = acknowledged.count(change.sha256) > 0;
    for (auto& f : audit.findings) f.acknowledged = acknowledged.count(f.sha256) > 0;
  }
  return audit;
}

// The maps the HTML report shows: added, removed, changed (both sides),
// newly broken.
std::set<std::string> maps_shown(const AuditReport& report) {
  std::set<std::string> shown;
  for (const auto& s : report.sources) {
    for (const auto* list : {&s.added, &s.removed})
      for (const auto& e : *list)
        if (e.map_id) shown.insert(e.sha256);
    for (const auto& c : s.changed)
      for (const auto* e : {&c.before, &c.after})
        if (e->map_id) shown.insert(e->sha256);
    for (const auto& c : s.newly_broken) shown.insert(c.sha256);
  }
  return shown;
}

Result<AuditReport> build(sqlite3* db, const AuditOptions& options) {
  AuditReport report;
  auto run = run_audited(db, options);
  if (!run) return run.error();
  report.run = *run;
  const std::int64_t run_id = run->run_id;
  auto against = baseline_given(db, options, run_id);
  if (!against) return against.error();
  if (*against) report.baseline_given = true;

  // Each source's baseline run.
  const auto sources = sources_of_run(db, run_id);
  std::map<std::int64_t, std::optional<std::int64_t>> baseline_of;  // source_id -> run
  std::set<std::int64_t> baseline_runs;
  for (const auto& source : sources) {
    std::optional<std::int64_t> baseline;
    if (*against) {
      if (run_read_source(db, (*against)->run_id, source.source_id)) baseline = (*against)->run_id;
    } else {
      baseline = previous_complete_run(db, source.source_id, run_id);
    }
    baseline_of[source.source_id] = baseline;
    if (baseline) baseline_runs.insert(*baseline);
  }
  if (*against) baseline_runs.insert((*against)->run_id);
  for (const auto id : baseline_runs)
    if (auto info = load_run(db, id)) report.baselines.push_back(std::move(*info));

  // What the runs saw, and the facts about their maps.
  const auto entries_now = load_entries(db, run_id, options.game);
  std::map<std::int64_t, std::unordered_map<std::int64_t, std::vector<SeenEntry>>> entries_before;
  for (const auto id : baseline_runs)
    entries_before.emplace(id, load_entries(db, id, options.game));
  std::vector<std::int64_t> run_ids(baseline_runs.begin(), baseline_runs.end());
  run_ids.push_back(run_id);
  auto facts = load_map_facts(db, run_ids, options.game);

  report.sources_not_read = sources_not_read(db, run_id, options.against);
  report.accepted = acceptance_of(db, run_id);
  const auto acknowledged = acknowledged_contents(db);

  static const std::vector<SeenEntry> kNone;
  std::vector<const std::vector<SeenEntry>*> all_now, all_before;
  for (const auto& source : sources) {
    const auto baseline_run = baseline_of[source.source_id];
    const auto now = entries_now.find(source.source_id);
    const auto& seen_now = now == entries_now.end() ? kNone : now->second;
    const std::vector<SeenEntry>* seen_before = nullptr;
    if (baseline_run) {
      const auto& run_entries = entries_before[*baseline_run];
      const auto found = run_entries.find(source.source_id);
      seen_before = found == run_entries.end() ? &kNone : &found->second;
    }
    SourceAudit audit =
        audit_source(db, source, baseline_run, seen_now, seen_before, facts, acknowledged);
    add(report.now, audit.now);
    all_now.push_back(&seen_now);
    if (audit.before) {
      if (!report.before) report.before = Totals{};
      add(*report.before, *audit.before);
      all_before.push_back(seen_before);
    }
    report.sources.push_back(std::move(audit));
  }
  if (options.pictures) report.pictures = load_pictures(db, maps_shown(report));
  report.now.distinct_maps = distinct_maps(all_now);
  if (report.before) report.before->distinct_maps = distinct_maps(all_before);
  return report;
}

}  // namespace

Result<AuditReport> build_audit(sqlite3* db, const AuditOptions& options) {
  try {
    ReadSnapshot snapshot(db);
    if (options.game == Game::teeworlds && !has_game_verdicts(db))
      return Error{Code::audit_game,
                   "--game teeworlds: this index has no Teeworlds verdicts yet (schema older "
                   "than 4); run `mapindex index` once with this version to add them"};
    return build(db, options);
  } catch (const sqlite::IndexError& e) {
    // Every SQLite failure is the index's (exit status 3).
    return Error{e.code() == Code::index_sql ? Code::index_failed : e.code(),
                 "reading index '" + sqlite::database_file(db) + "' failed: " + e.what()};
  }
}

}  // namespace mapindex::audit
