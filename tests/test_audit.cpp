// The audit's comparison of two runs: runs written with IndexDb and
// hand-made MapStats, then build_audit over the index; each category of
// change, health changes, problem counts, totals, run selection and the exit
// status for each --fail-on.
#include <doctest/doctest.h>

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "app/commands.h"
#include "audit/audit_report.h"
#include "audit/build_audit.h"
#include "audit/render.h"
#include "tests/test_audit_helpers.h"

using namespace mapindex;
using namespace mapindex::audit;
using namespace mapindex::audit::testing;

namespace {

const HealthChange* find_change(const std::vector<HealthChange>& changes, const std::string& path) {
  for (const auto& c : changes)
    if (c.path == path) return &c;
  return nullptr;
}

// A map of `stats` with a game layer of w x h, the author `author` ("":
// none) and, when `layer_key` is not 0, a tiles layer with a tile whose
// stored data has a SHA-256 of 32 bytes `layer_key`.
MapStats shaped(MapStats stats, std::int64_t w, std::int64_t h, const std::string& author,
                std::uint8_t layer_key = 0) {
  stats.game_width = w;
  stats.game_height = h;
  stats.layers[0].width = w;
  stats.layers[0].height = h;
  if (!author.empty()) stats.author = author;
  if (layer_key != 0) {
    add_layer(stats, LayerKind::tiles, {{1, 10}});
    auto& l = stats.layers.back();
    l.non_empty = 10;
    LayerDataKey key;
    key.sha256.fill(layer_key);
    key.kind = LayerKind::tiles;
    key.version = 3;
    key.width = l.width;
    key.height = l.height;
    key.data_size = l.width * l.height * 4;
    l.data_key = key;
  }
  return stats;
}

}  // namespace

TEST_SUITE("audit") {
  TEST_CASE(
      "audit: a status or kind in the index that no enum knows is an error naming it (exit 3)") {
    AuditIndex index;
    const auto run = index.begin_run();
    const auto source = index.source(run, "maps.zip");
    index.map(run, source, "maps/ok.map", 1, ok_map(), 1000);
    index.finish(run);
    REQUIRE(index.audit().sources.size() == 1);
    // What the schema's CHECK constraints forbid, written past them.
    REQUIRE(sqlite3_exec(index.db().handle(),
                         "PRAGMA query_only = OFF; PRAGMA ignore_check_constraints = ON; "
                         "UPDATE runs SET status = 'paused'",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    const auto report = build_audit(index.db().handle(), {.run = run});
    REQUIRE_FALSE(report.ok());
    CHECK(report.error().code == Code::index_damaged);
    CHECK(exit_status_for(report.error()) == kExitIndex);
    CHECK_MESSAGE(report.error().message.find("runs.status is 'paused'") != std::string::npos,
                  report.error().message);
  }

  TEST_CASE("audit: the first run has no baseline and everything in it counts as new") {
    AuditIndex index;
    const auto run = index.begin_run();
    const auto source = index.source(run, "maps.zip");
    index.map(run, source, "maps/ok.map", 1, ok_map(), 1000);
    index.map(run, source, "maps/warn.map", 2, warning_map(Code::layer_ungrouped), 2000);
    index.map(run, source, "maps/bad.map", 3, rejected_map(Code::M10), 3000);
    index.unreadable(run, source, "maps/cut.map");
    index.other(run, source, "README.txt", 4, 50);
    index.finish(run);

    const auto report = index.audit();
    CHECK(report.run.run_id == run);
    CHECK(report.run.status == index::RunStatus::complete);
    CHECK(report.baselines.empty());
    CHECK_FALSE(report.before.has_value());
    REQUIRE(report.sources.size() == 1);
    const auto& s = report.sources[0];
    CHECK(s.path == "maps.zip");
    CHECK(s.kind == index::SourceKind::archive);
    CHECK_FALSE(s.baseline_run.has_value());
    CHECK(paths_of(s.added) ==
          Strings{"README.txt", "maps/bad.map", "maps/cut.map", "maps/ok.map", "maps/warn.map"});
    CHECK(s.removed.empty());
    CHECK(s.changed.empty());
    CHECK(s.moved.empty());
    CHECK(paths_of(s.newly_broken) == Strings{"maps/bad.map", "maps/cut.map"});
    CHECK(paths_of(s.gained_problems) == Strings{"maps/warn.map"});
    CHECK(s.fixed.empty());

    const auto* bad = find_change(s.newly_broken, "maps/bad.map");
    REQUIRE(bad);
    CHECK(bad->before == std::nullopt);
    CHECK(bad->after == Health::rejected);
    CHECK(bad->codes == Strings{"M10"});
    CHECK(bad->message == "error M10");
    const auto* cut = find_change(s.newly_broken, "maps/cut.map");
    REQUIRE(cut);
    CHECK(cut->after == Health::unreadable);
    CHECK(cut->codes == Strings{"read.truncated"});
    CHECK(cut->message == "the archive ends inside this entry");

    // Totals: 5 entries of 1000 + 2000 + 3000 + 500 + 50 bytes.
    CHECK(s.now.entries == 5);
    CHECK(s.now.bytes == 6550);
    CHECK(s.now.maps == 3);
    CHECK(s.now.distinct_maps == 3);
    CHECK(s.now.ok == 1);
    CHECK(s.now.warnings == 1);
    CHECK(s.now.rejected == 1);
    CHECK(s.now.other == 1);
    CHECK(s.now.unreadable == 1);
    CHECK(s.now.oversize == 0);
    CHECK(report.now == s.now);

    // Every code is new.
    REQUIRE(s.problem_counts.size() == 3);
    for (const auto& c : s.problem_counts) CHECK(c.is_new);

    const auto counts = count_new(report);
    CHECK(counts.errors == 2);
    CHECK(counts.warnings == 1);
    CHECK(exit_status(report, FailOn::error) == 1);
    CHECK(exit_status(report, FailOn::warning) == 1);
    CHECK(exit_status(report, FailOn::never) == 0);
  }

  TEST_CASE("audit: added, removed, changed, moved and duplicate entries of a source") {
    AuditIndex index;
    const auto r1 = index.begin_run();
    auto src = index.source(r1, "maps.zip");
    index.map(r1, src, "maps/a.map", 1, ok_map());
    index.map(r1, src, "maps/b.map", 2, ok_map());
    index.map(r1, src, "maps/c.map", 3, ok_map());
    index.map(r1, src, "maps/d.map", 4, ok_map());
    index.map(r1, src, "maps/old.map", 7, ok_map());
    index.finish(r1);

    const auto r2 = index.begin_run();
    src = index.source(r2, "maps.zip");
    index.map(r2, src, "maps/a.map", 1, ok_map());        // unchanged
    index.map(r2, src, "maps/b.map", 5, ok_map(), 1200);  // changed content
    index.map(r2, src, "maps/renamed.map", 3, ok_map());  // c.map moved here
    index.map(r2, src, "maps/d.map", 4, ok_map());        // unchanged
    index.map(r2, src, "maps/d copy.map", 4, ok_map());   // same content as d.map: a duplicate
    index.map(r2, src, "maps/new.map", 6, ok_map());      // added
    index.finish(r2);                                     // old.map removed

    const auto report = index.audit();
    CHECK(report.run.run_id == r2);
    REQUIRE(report.baselines.size() == 1);
    CHECK(report.baselines[0].run_id == r1);
    REQUIRE(report.sources.size() == 1);
    const auto& s = report.sources[0];
    CHECK(s.baseline_run == r1);
    CHECK(paths_of(s.added) == Strings{"maps/d copy.map", "maps/new.map"});
    CHECK(paths_of(s.removed) == Strings{"maps/old.map"});
    CHECK(paths_of(s.changed) == Strings{"maps/b.map -> maps/b.map"});
    REQUIRE(s.changed.size() == 1);
    CHECK(s.changed[0].before.size == 1000);
    CHECK(s.changed[0].after.size == 1200);
    CHECK(s.changed[0].before.sha256 == content_sha(2));
    CHECK(s.changed[0].after.sha256 == content_sha(5));
    CHECK(paths_of(s.moved) == Strings{"maps/c.map -> maps/renamed.map"});
    CHECK(s.unchanged == 2);
    REQUIRE(s.duplicates.size() == 1);
    CHECK(s.duplicates[0].paths == Strings{"maps/d copy.map", "maps/d.map"});
    CHECK(s.duplicates[0].sha256 == content_sha(4));
    CHECK(s.duplicates[0].is_new);
    // Nothing got worse: only ok maps.
    CHECK(s.newly_broken.empty());
    CHECK(s.gained_problems.empty());
    CHECK(s.fixed.empty());
    CHECK(exit_status(report, FailOn::warning) == 0);

    // Totals before and after: 5 maps -> 6 entries, 6 distinct -> 5 distinct.
    REQUIRE(s.before.has_value());
    CHECK(s.before->entries == 5);
    CHECK(s.now.entries == 6);
    CHECK(s.now.maps == 6);
    CHECK(s.now.distinct_maps == 5);
    CHECK(s.now.bytes == 6200);

    // The same duplicate in the next run is no longer new.
    const auto r3 = index.begin_run();
    src = index.source(r3, "maps.zip");
    index.map(r3, src, "maps/d.map", 4, ok_map());
    index.map(r3, src, "maps/d copy.map", 4, ok_map());
    index.finish(r3);
    const auto next = index.audit();
    REQUIRE(next.sources[0].duplicates.size() == 1);
    CHECK_FALSE(next.sources[0].duplicates[0].is_new);
  }

  TEST_CASE("audit: newly rejected, newly unreadable, new problem codes and fixed maps") {
    AuditIndex index;
    const auto r1 = index.begin_run();
    auto src = index.source(r1, "maps");
    index.map(r1, src, "a.map", 1, ok_map());
    index.map(r1, src, "b.map", 2, ok_map());
    index.map(r1, src, "c.map", 3,
              map_stats({error(Code::H5, "size 120 is not the file size 100")}));
    index.map(r1, src, "d.map", 4, warning_map(Code::envelope_missing));
    index.map(r1, src, "e.map", 5, ok_map());
    index.map(r1, src, "f.map", 10, rejected_map(Code::M10));
    index.finish(r1);

    const auto r2 = index.begin_run();
    src = index.source(r2, "maps");
    index.map(r2, src, "a.map", 6,
              map_stats({warning(Code::layer_ungrouped),
                         error(Code::M10, "no game layer, expected at least one")}));
    index.map(r2, src, "b.map", 7, warning_map(Code::layer_ungrouped));
    index.map(r2, src, "c.map", 8, ok_map());
    index.map(r2, src, "d.map", 9,
              map_stats({warning(Code::envelope_missing), warning(Code::sound_missing)}));
    index.unreadable(r2, src, "e.map", Code::read_corrupt, "deflate stream is corrupt");
    index.map(r2, src, "f.map", 11, rejected_map(Code::H6));  // still rejected, for another reason
    index.finish(r2);

    const auto report = index.audit();
    REQUIRE(report.sources.size() == 1);
    const auto& s = report.sources[0];
    CHECK(paths_of(s.newly_broken) == Strings{"a.map", "e.map"});
    const auto* a = find_change(s.newly_broken, "a.map");
    REQUIRE(a);
    CHECK(a->before == Health::ok);
    CHECK(a->after == Health::rejected);
    CHECK(a->codes == Strings{"M10", "layer.ungrouped"});  // errors first
    CHECK(a->message == "no game layer, expected at least one");
    const auto* e = find_change(s.newly_broken, "e.map");
    REQUIRE(e);
    CHECK(e->before == Health::ok);
    CHECK(e->after == Health::unreadable);
    CHECK(e->codes == Strings{"read.corrupt"});
    CHECK(e->message == "deflate stream is corrupt");

    CHECK(paths_of(s.gained_problems) == Strings{"b.map", "d.map", "f.map"});
    const auto* b = find_change(s.gained_problems, "b.map");
    REQUIRE(b);
    CHECK(b->before == Health::ok);
    CHECK(b->after == Health::warnings);
    CHECK(b->codes == Strings{"layer.ungrouped"});
    const auto* d = find_change(s.gained_problems, "d.map");
    REQUIRE(d);
    CHECK(d->before == Health::warnings);
    CHECK(d->codes == Strings{"sound.missing"});  // envelope.missing was there before
    const auto* f = find_change(s.gained_problems, "f.map");
    REQUIRE(f);
    CHECK(f->codes == Strings{"H6"});  // already rejected: a new problem, not newly broken

    REQUIRE(s.fixed.size() == 1);
    CHECK(s.fixed[0].path == "c.map");
    CHECK(s.fixed[0].before == Health::rejected);
    CHECK(s.fixed[0].after == Health::ok);
    CHECK(s.fixed[0].codes == Strings{"H5"});
    CHECK(s.fixed[0].message == "size 120 is not the file size 100");

    const auto counts = count_new(report);
    CHECK(counts.errors == 2);
    CHECK(exit_status(report, FailOn::error) == 1);
    CHECK(exit_status(report, FailOn::warning) == 1);
    CHECK(exit_status(report, FailOn::never) == 0);

    // Problem counts: new codes first (errors before warnings), then the others.
    std::vector<std::string> order;
    for (const auto& c : s.problem_counts)
      order.push_back(c.code + ":" + std::to_string(c.entries) + "/" + std::to_string(c.before) +
                      (c.is_new ? ":new" : ""));
    CHECK(order == Strings{"H6:1/0:new", "read.corrupt:1/0:new", "layer.ungrouped:2/0:new",
                           "sound.missing:1/0:new", "M10:1/1", "envelope.missing:1/1", "H5:0/1"});
  }

  TEST_CASE("audit: another map under the same name is replaced, never fixed") {
    AuditIndex index;
    const auto r1 = index.begin_run();
    auto src = index.source(r1, "maps");
    const auto rejected = map_stats({error(Code::H6)});
    // Each before: rejected, 50 x 50.
    index.map(r1, src, "swap.map", 1, shaped(rejected, 50, 50, "alice", 0xA1));
    index.map(r1, src, "grow.map", 3, shaped(rejected, 50, 50, "bob", 0xB1));
    index.map(r1, src, "edit.map", 5, shaped(rejected, 50, 50, "", 0xC1));
    index.map(r1, src, "same-size.map", 7, shaped(rejected, 50, 50, "dave", 0xD1));
    index.map(r1, src, "cut.map", 9, shaped(ok_map(), 50, 50, "erin", 0xE1));
    index.finish(r1);

    const auto r2 = index.begin_run();
    src = index.source(r2, "maps");
    // Another author, another size, no layer data in common: another map.
    index.map(r2, src, "swap.map", 2, shaped(ok_map(), 80, 40, "carol", 0xA2));
    // The same author, resized: the same map, fixed.
    index.map(r2, src, "grow.map", 4, shaped(ok_map(), 60, 60, "bob", 0xB2));
    // No author, resized, but its decoration layer is the same: fixed.
    index.map(r2, src, "edit.map", 6, shaped(ok_map(), 70, 50, "", 0xC1));
    // Another author but the same size: a new version (fixed).
    index.map(r2, src, "same-size.map", 8, shaped(ok_map(), 50, 50, "zed", 0xD2));
    // Cut short: no game layer, so not another map (newly broken).
    auto cut = rejected_map(Code::H5);
    cut.layers.clear();
    cut.game_width = cut.game_height = 0;
    index.map(r2, src, "cut.map", 10, cut);
    index.finish(r2);

    const auto report = index.audit();
    REQUIRE(report.sources.size() == 1);
    const auto& s = report.sources[0];
    REQUIRE(s.replaced.size() == 1);
    const auto& r = s.replaced[0];
    CHECK(r.after.path == "swap.map");
    CHECK(r.before.status == Health::rejected);
    CHECK(r.after.status == Health::ok);
    CHECK(r.before.sha256 == content_sha(1));
    CHECK(r.after.sha256 == content_sha(2));
    CHECK(std::vector<std::int64_t>{r.game_width_before, r.game_height_before, r.game_width_after,
                                    r.game_height_after} ==
          std::vector<std::int64_t>{50, 50, 80, 40});
    // Still a change of content at its path; fixed only for the same map.
    CHECK(paths_of(s.changed) == Strings{"cut.map -> cut.map", "edit.map -> edit.map",
                                         "grow.map -> grow.map", "same-size.map -> same-size.map",
                                         "swap.map -> swap.map"});
    CHECK(paths_of(s.fixed) == Strings{"edit.map", "grow.map", "same-size.map"});
    CHECK(paths_of(s.newly_broken) == Strings{"cut.map"});
    CHECK(find_change(s.newly_broken, "cut.map")->before == Health::ok);
  }

  TEST_CASE("audit: --fail-on error ignores new warnings, --fail-on warning does not") {
    AuditIndex index;
    const auto r1 = index.begin_run();
    auto src = index.source(r1, "maps.zip");
    index.map(r1, src, "a.map", 1, ok_map());
    index.map(r1, src, "still-bad.map", 2, rejected_map());
    index.finish(r1);

    // The same content again: the rejected map is not newly broken.
    const auto r2 = index.begin_run();
    src = index.source(r2, "maps.zip");
    index.map(r2, src, "a.map", 1, ok_map());
    index.map(r2, src, "still-bad.map", 2, rejected_map());
    index.finish(r2);
    auto report = index.audit();
    CHECK(report.sources[0].newly_broken.empty());
    CHECK(report.sources[0].gained_problems.empty());
    CHECK(report.sources[0].unchanged == 2);
    CHECK(count_new(report).errors == 0);
    CHECK(count_new(report).warnings == 0);
    CHECK(exit_status(report, FailOn::error) == 0);
    CHECK(exit_status(report, FailOn::warning) == 0);
    CHECK(exit_status(report, FailOn::never) == 0);

    // A new map with warnings only.
    const auto r3 = index.begin_run();
    src = index.source(r3, "maps.zip");
    index.map(r3, src, "a.map", 1, ok_map());
    index.map(r3, src, "still-bad.map", 2, rejected_map());
    index.map(r3, src, "new.map", 3, warning_map());
    index.finish(r3);
    report = index.audit();
    CHECK(count_new(report).errors == 0);
    CHECK(count_new(report).warnings == 1);
    CHECK(exit_status(report, FailOn::error) == 0);
    CHECK(exit_status(report, FailOn::warning) == 1);
    CHECK(exit_status(report, FailOn::never) == 0);

    // A removed rejected map is not a failure either.
    const auto r4 = index.begin_run();
    src = index.source(r4, "maps.zip");
    index.map(r4, src, "a.map", 1, ok_map());
    index.map(r4, src, "new.map", 3, warning_map());
    index.finish(r4);
    report = index.audit();
    CHECK(paths_of(report.sources[0].removed) == Strings{"still-bad.map"});
    CHECK(report.sources[0].removed[0].status == Health::rejected);
    CHECK(exit_status(report, FailOn::warning) == 0);
  }

  TEST_CASE("audit: a moved map keeps its health, a copy of a rejected map is new") {
    AuditIndex index;
    const auto r1 = index.begin_run();
    auto src = index.source(r1, "maps.zip");
    index.map(r1, src, "old/bad.map", 1, rejected_map());
    index.finish(r1);

    const auto r2 = index.begin_run();
    src = index.source(r2, "maps.zip");
    index.map(r2, src, "new/bad.map", 1, rejected_map());
    index.finish(r2);
    auto report = index.audit();
    CHECK(paths_of(report.sources[0].moved) == Strings{"old/bad.map -> new/bad.map"});
    CHECK(report.sources[0].newly_broken.empty());
    CHECK(exit_status(report, FailOn::warning) == 0);
    REQUIRE(report.sources[0].findings.size() == 1);
    CHECK(report.sources[0].findings[0].rule == rules::kRejected);
    CHECK_FALSE(report.sources[0].findings[0].is_new);

    const auto r3 = index.begin_run();
    src = index.source(r3, "maps.zip");
    index.map(r3, src, "new/bad.map", 1, rejected_map());
    index.map(r3, src, "copy/bad.map", 1, rejected_map());
    index.finish(r3);
    report = index.audit();
    CHECK(paths_of(report.sources[0].added) == Strings{"copy/bad.map"});
    CHECK(paths_of(report.sources[0].newly_broken) == Strings{"copy/bad.map"});
    CHECK(exit_status(report, FailOn::error) == 1);
  }

  TEST_CASE("audit: the run audited and the baseline runs") {
    AuditIndex index;
    CHECK(index.audit_error({}).code == Code::audit_no_runs);

    const auto r1 = index.begin_run();
    const auto a1 = index.source(r1, "a.zip");
    index.map(r1, a1, "x.map", 1, ok_map());
    // Not finished yet: no complete run.
    const auto none = index.audit_error({});
    CHECK(none.code == Code::audit_no_complete_run);
    CHECK(none.message.find("--run 1") != std::string::npos);
    index.finish(r1);

    const auto r2 = index.begin_run();  // reads a.zip and the new b.zip
    const auto a2 = index.source(r2, "a.zip");
    const auto b2 = index.source(r2, "b.zip");
    index.map(r2, a2, "x.map", 1, ok_map());
    index.map(r2, a2, "y.map", 2, ok_map());
    index.map(r2, b2, "z.map", 3, rejected_map());
    index.finish(r2);

    const auto r3 = index.begin_run();  // cut short: not a default run or baseline
    const auto a3 = index.source(r3, "a.zip");
    index.map(r3, a3, "x.map", 1, ok_map());
    index.finish(r3, index::RunStatus::interrupted);

    // Default: run 2; a.zip against run 1, b.zip has no baseline.
    auto report = index.audit();
    CHECK(report.run.run_id == r2);
    CHECK_FALSE(report.baseline_given);
    REQUIRE(report.sources.size() == 2);
    CHECK(report.sources[0].path == "a.zip");
    CHECK(report.sources[0].baseline_run == r1);
    CHECK(paths_of(report.sources[0].added) == Strings{"y.map"});
    CHECK(report.sources[1].path == "b.zip");
    CHECK_FALSE(report.sources[1].baseline_run.has_value());
    CHECK(paths_of(report.sources[1].newly_broken) == Strings{"z.map"});
    REQUIRE(report.before.has_value());
    CHECK(report.before->entries == 1);  // only a.zip has a baseline
    CHECK(report.now.entries == 3);

    // --run 3 (interrupted) is audited against run 2, the previous complete one.
    report = index.audit({.run = r3});
    CHECK(report.run.status == index::RunStatus::interrupted);
    REQUIRE(report.sources.size() == 1);
    CHECK(report.sources[0].baseline_run == r2);
    CHECK(paths_of(report.sources[0].removed) == Strings{"y.map"});

    // --against 1: every source compared with run 1; b.zip was not read by it.
    report = index.audit({.run = r2, .against = r1});
    CHECK(report.baseline_given);
    REQUIRE(report.baselines.size() == 1);
    CHECK(report.baselines[0].run_id == r1);
    CHECK(report.sources[0].baseline_run == r1);
    CHECK_FALSE(report.sources[1].baseline_run.has_value());

    // Comparing backwards works too.
    report = index.audit({.run = r1, .against = r2});
    REQUIRE(report.sources.size() == 1);
    CHECK(paths_of(report.sources[0].removed) == Strings{"y.map"});

    CHECK(index.audit_error({.run = 99}).code == Code::audit_run);
    CHECK(index.audit_error({.run = r2, .against = r2}).code == Code::audit_against);
    CHECK(index.audit_error({.against = 42}).code == Code::audit_against);
  }

  TEST_CASE("audit: oversize entries and non-maps") {
    AuditIndex index;
    const auto r1 = index.begin_run();
    auto src = index.source(r1, "maps.zip");
    index.map(r1, src, "big.map", 1, ok_map());
    index.other(r1, src, "notes.txt", 2);
    index.finish(r1);

    const auto r2 = index.begin_run();
    src = index.source(r2, "maps.zip");
    index::EntryRecord big;
    big.source_id = src;
    big.entry_path = "big.map";
    big.kind = index::EntryKind::oversize;
    big.size = 100 << 20;
    big.problems = {
        {Code::entry_oversize, "100 MB is over --max-map-size 64 MB", Location::file()}};
    index.db().write_entry(r2, big, nullptr);
    index.other(r2, src, "notes.txt", 3);  // changed, still not a map
    index.finish(r2);

    const auto report = index.audit();
    const auto& s = report.sources[0];
    CHECK(s.newly_broken.empty());
    REQUIRE(s.gained_problems.size() == 1);
    CHECK(s.gained_problems[0].path == "big.map");
    CHECK(s.gained_problems[0].after == Health::oversize);
    CHECK(s.gained_problems[0].codes == Strings{"entry.oversize"});
    CHECK(paths_of(s.changed) == Strings{"big.map -> big.map", "notes.txt -> notes.txt"});
    CHECK(s.now.oversize == 1);
    CHECK(s.now.other == 1);
    CHECK(s.now.maps == 0);
    CHECK(exit_status(report, FailOn::error) == 0);
    CHECK(exit_status(report, FailOn::warning) == 1);
  }

  TEST_CASE(
      "audit: a reading cut short is never a baseline, its entries are not read, not removed") {
    AuditIndex index;
    const auto r1 = index.begin_run();
    const auto s1 = index.source(r1, "maps.zip");
    index.map(r1, s1, "a.map", 1, ok_map());
    index.map(r1, s1, "b.map", 2, ok_map());
    index.map(r1, s1, "old-bad.map", 3, rejected_map(Code::M10));
    index.map(r1, s1, "old-warn.map", 4, warning_map(Code::layer_ungrouped));
    index.finish(r1);

    // Run 2 read a.map, then the archive ended.
    const auto r2 = index.begin_run();
    const auto s2 = index.source(r2, "maps.zip");
    index.map(r2, s2, "a.map", 1, ok_map());
    index.unreadable(r2, s2, "", Code::read_truncated,
                     "\"maps.zip\": reading the entry after \"a.map\": truncated");
    index.db().set_source_reading(r2, s2, index::SourceReading::partial, "a.map");
    index.finish(r2);

    auto report = index.audit({.run = r2});
    REQUIRE(report.sources.size() == 1);
    const auto& cut = report.sources[0];
    CHECK(cut.reading == index::SourceReading::partial);
    CHECK(cut.last_entry_read == "a.map");
    CHECK(cut.baseline_run == r1);
    REQUIRE(cut.reading_errors.size() == 1);
    CHECK(cut.reading_errors[0].path == "");
    CHECK(cut.reading_errors[0].code == "read.truncated");
    CHECK(paths_of(cut.not_read) == Strings{"b.map", "old-bad.map", "old-warn.map"});
    CHECK(cut.removed.empty());
    CHECK(cut.added.empty());  // the reading error is not an entry
    CHECK(cut.newly_broken.empty());
    CHECK(cut.now.entries == 1);
    CHECK(count_new(report).unread_sources == 1);
    CHECK(exit_status(report, FailOn::error) == 1);
    CHECK(exit_status(report, FailOn::never) == 0);

    // Run 3 reads everything again: compared with run 1, not with run 2.
    const auto r3 = index.begin_run();
    const auto s3 = index.source(r3, "maps.zip");
    index.map(r3, s3, "a.map", 1, ok_map());
    index.map(r3, s3, "b.map", 2, ok_map());
    index.map(r3, s3, "old-bad.map", 3, rejected_map(Code::M10));
    index.map(r3, s3, "old-warn.map", 4, warning_map(Code::layer_ungrouped));
    index.finish(r3);
    report = index.audit();
    CHECK(report.run.run_id == r3);
    REQUIRE(report.sources.size() == 1);
    CHECK(report.sources[0].baseline_run == r1);
    CHECK(report.sources[0].reading == index::SourceReading::complete);
    CHECK(report.sources[0].newly_broken.empty());
    CHECK(report.sources[0].gained_problems.empty());
    CHECK(report.sources[0].unchanged == 4);
    CHECK(exit_status(report, FailOn::warning) == 0);
    // With run 2 as the baseline on purpose, its reading error is no entry either.
    report = index.audit({.against = r2});
    CHECK(paths_of(report.sources[0].added) == Strings{"b.map", "old-bad.map", "old-warn.map"});
    CHECK(report.sources[0].removed.empty());

    // Without run_sources.reading saying so, an unreadable entry is an entry.
    const auto r4 = index.begin_run();
    const auto s4 = index.source(r4, "maps.zip");
    index.map(r4, s4, "a.map", 1, ok_map());
    index.unreadable(r4, s4, "b.map", Code::read_corrupt, "bad CRC");
    index.finish(r4);
    report = index.audit();
    CHECK(report.sources[0].reading == index::SourceReading::complete);
    CHECK(paths_of(report.sources[0].newly_broken) == Strings{"b.map"});
    CHECK(paths_of(report.sources[0].removed) == Strings{"old-bad.map", "old-warn.map"});
  }

  TEST_CASE("audit: schema 3 sets run_sources.reading of older runs from what they stored") {
    mapindex::testing::TempDir dir;
    const auto path = (dir / "v2.sqlite").string();
    index::OpenOptions v2;
    v2.migrations = {index::default_migrations()[0], index::default_migrations()[1]};
    {
      auto opened = index::IndexDb::open(path, index::OpenMode::read_write, v2);
      REQUIRE(opened.ok());
      auto& db = *opened;
      REQUIRE(db.schema_version() == 2);
      const auto run = db.begin_run("mapindex index (test)", "0.0-test");
      const auto whole = db.source_id(run, "whole.zip", index::SourceKind::archive);
      const auto cut = db.source_id(run, "cut.zip", index::SourceKind::archive);
      const auto missing = db.source_id(run, "missing.zip", index::SourceKind::file);
      const auto entry_cut = db.source_id(run, "entry-cut.zip", index::SourceKind::archive);
      const auto write = [&](std::int64_t source, const std::string& entry, bool readable,
                             Code code) {
        index::EntryRecord e;
        e.source_id = source;
        e.entry_path = entry;
        if (readable) {
          e.kind = index::EntryKind::other;
          e.sha256 = content_digest(static_cast<int>(source) * 10 + static_cast<int>(entry.size()));
        } else {
          e.kind = index::EntryKind::unreadable;
          e.problems = {{code, "reason", Location::file()}};
        }
        e.size = 10;
        db.write_entry(run, e, nullptr);
      };
      write(whole, "a.txt", true, Code::read_io);
      write(whole, "b.txt", false, Code::read_encrypted);  // one bad entry: still complete
      write(cut, "a.txt", true, Code::read_io);
      write(cut, "", false, Code::read_truncated);
      write(missing, "", false, Code::read_io);
      write(entry_cut, "a.txt", true, Code::read_io);
      write(entry_cut, "big.txt", false, Code::read_truncated);
      db.finish_run(run, index::RunStatus::complete, {});
    }
    auto opened = index::IndexDb::open(path, index::OpenMode::read_write);
    REQUIRE(opened.ok());
    CHECK(opened->schema_version() == index::default_migrations().back().version);
    std::map<std::string, std::string> reading;
    sqlite::Statement st(opened->handle(),
                         "SELECT s.path, rs.reading FROM run_sources rs "
                         "JOIN sources s ON s.source_id = rs.source_id");
    while (st.step()) reading[st.column_text(0)] = st.column_text(1);
    CHECK(reading == std::map<std::string, std::string>{{"cut.zip", "partial"},
                                                        {"entry-cut.zip", "partial"},
                                                        {"missing.zip", "unreadable"},
                                                        {"whole.zip", "complete"}});
  }

  TEST_CASE("audit: info codes never fail the audit and come last, counted apart") {
    AuditIndex index;
    const auto r1 = index.begin_run();
    auto src = index.source(r1, "maps");
    for (const char* path : {"a.map", "b.map", "c.map"}) index.map(r1, src, path, 1, ok_map());
    index.finish(r1);

    const auto r2 = index.begin_run();
    src = index.source(r2, "maps");
    const auto only_info = map_stats({info_problem(Code::envelope_unused)});
    CHECK(only_info.status == MapStatus::ok);  // info cannot make a map's status worse
    index.map(r2, src, "a.map", 2, only_info);
    index.map(r2, src, "b.map", 3,
              map_stats({info_problem(Code::image_unused), warning(Code::layer_ungrouped)}));
    index.map(r2, src, "c.map", 4,
              map_stats({info_problem(Code::sound_unused), info_problem(Code::automapper_target)}));
    index.finish(r2);

    const auto report = index.audit();
    REQUIRE(report.sources.size() == 1);
    const auto& s = report.sources[0];
    CHECK(s.now.ok == 2);
    CHECK(s.now.warnings == 1);
    // Only the real warning is a new problem; every info code is in gained_info.
    CHECK(paths_of(s.gained_problems) == Strings{"b.map"});
    CHECK(s.gained_problems[0].codes == Strings{"layer.ungrouped"});
    CHECK(paths_of(s.gained_info) == Strings{"a.map", "b.map", "c.map"});
    CHECK(find_change(s.gained_info, "b.map")->codes == Strings{"image.unused"});
    CHECK(find_change(s.gained_info, "c.map")->codes ==
          Strings{"sound.unused", "automapper.target"});
    const auto counts = count_new(report);
    CHECK(counts.errors == 0);
    CHECK(counts.warnings == 1);
    CHECK(counts.infos == 3);
    CHECK(exit_status(report, FailOn::warning) == 1);  // b.map's layer.ungrouped
    CHECK(exit_status(report, FailOn::error) == 0);
    // Info codes last in the problem counts, whatever their number of entries.
    std::vector<std::string> order;
    for (const auto& c : s.problem_counts)
      order.push_back(c.code + ":" + std::string(to_string(c.severity)));
    CHECK(order == Strings{"layer.ungrouped:warning", "automapper.target:info",
                           "envelope.unused:info", "image.unused:info", "sound.unused:info"});

    // Without b.map's warning, --fail-on warning passes.
    AuditReport info_only = report;
    info_only.sources[0].gained_problems.clear();
    CHECK(count_new(info_only).infos == 3);
    CHECK(exit_status(info_only, FailOn::warning) == 0);

    // Text and markdown list the new info last, after the release checks.
    std::ostringstream text, markdown;
    render_text(report, text, {});
    render_markdown(report, markdown, {});
    CHECK(text.str().find("result: 0 entries newly broken, 1 entry with new warnings; 3 entries "
                          "with new info (never fails)\n") != std::string::npos);
    const auto info_at = text.str().find("  new info (never fails the audit) (3):\n");
    REQUIRE(info_at != std::string::npos);
    CHECK(text.str().find("    i c.map  [sound.unused, automapper.target]\n") > info_at);
    CHECK(text.str().find("  new problems (1):") < info_at);
    CHECK(text.str().find("  problem codes") < info_at);
    const auto md_info = markdown.str().find("**New info (never fails the audit) (3)**");
    REQUIRE(md_info != std::string::npos);
    CHECK(markdown.str().find("**New problems (1)**") < md_info);
  }

}  // TEST_SUITE
