// The audit's map-release checks: rejected maps, race maps without time
// checkpoints, duplicate / unused / embedded-standard / external-non-standard
// images, and names that differ only by case or punctuation; and which
// findings are new from one run to the next.
#include <doctest/doctest.h>

#include "audit/audit_rules.h"
#include "tests/test_audit_helpers.h"

using namespace mapindex;
using namespace mapindex::audit;
using namespace mapindex::audit::testing;

namespace {

// "rule path subject" of every finding, with "new " in front of new ones.
Strings describe(const std::vector<Finding>& findings) {
  Strings out;
  for (const auto& f : findings)
    out.push_back(std::string(f.is_new ? "new " : "") + f.rule + " " + f.path +
                  (f.subject.empty() ? "" : " " + f.subject));
  return out;
}

const Finding* find_finding(const std::vector<Finding>& findings, std::string_view rule,
                            const std::string& path) {
  for (const auto& f : findings)
    if (f.rule == rule && f.path == path) return &f;
  return nullptr;
}

MapStats race(std::vector<TileCount> game, std::vector<TileCount> front = {}) {
  auto s = map_stats({}, std::move(game));
  if (!front.empty()) add_layer(s, LayerKind::front, std::move(front));
  return s;
}

MapStats with_images(std::vector<ImageStats> images, std::vector<Problem> problems = {}) {
  auto s = map_stats(std::move(problems));
  s.images = std::move(images);
  return s;
}

}  // namespace

TEST_SUITE("audit") {
  TEST_CASE("audit rules: names are compared lowercased without punctuation") {
    CHECK(normalised_name("Kobra 4") == "kobra4");
    CHECK(normalised_name("kobra_4") == "kobra4");
    CHECK(normalised_name("KOBRA-4!") == "kobra4");
    CHECK(normalised_name("Kobra 5") == "kobra5");
    CHECK(normalised_name("  ") == "");
    // UTF-8 bytes are kept as they are (no case folding outside ASCII).
    CHECK(normalised_name("Caf\xC3\xA9 1") ==
          "caf\xC3\xA9"
          "1");
  }

  TEST_CASE("audit rules: each map-release check over a run") {
    AuditIndex index;
    const auto r1 = index.begin_run();
    auto src = index.source(r1, "maps.zip");
    // START 33 and FINISH 34 but no time checkpoint (35..59).
    index.map(r1, src, "race/no-cp.map", 1, race({{1, 50}, {33, 4}, {34, 4}}));
    // Checkpoints on the front layer count.
    index.map(r1, src, "race/cp-front.map", 2, race({{33, 4}, {34, 4}}, {{40, 1}}));
    // START and FINISH on the front layer, a checkpoint 59 on the game layer.
    index.map(r1, src, "race/cp-game.map", 3, race({{59, 2}}, {{33, 1}, {34, 1}}));
    // No FINISH: not a race map by this rule.
    index.map(r1, src, "race/start-only.map", 4, race({{33, 4}}));
    // Checkpoint-like tiles on a visual tiles layer do not count.
    auto visual = race({{33, 1}, {34, 1}});
    add_layer(visual, LayerKind::tiles, {{35, 10}});
    index.map(r1, src, "race/visual-cp.map", 5, visual);

    index.map(
        r1, src, "images.map", 6,
        with_images(
            {image(0, "grass_main", true, true, true), image(1, "grass_main", false, true, true),
             image(2, "leftover", false, false, false), image(3, "my_tiles", true, false, true)},
            {info_problem(Code::image_unused)}));
    index.map(r1, src, "bad.map", 7,
              map_stats({info_problem(Code::envelope_unused), error(Code::M10, "no game layer"),
                         error(Code::H5)}));

    index.map(r1, src, "names/Kobra 4.map", 8, ok_map());
    index.map(r1, src, "names/kobra_4.map", 9, ok_map());
    index.map(r1, src, "other/Kobra 4.map", 10, ok_map());
    index.map(r1, src, "names/Kobra 5.map", 11, ok_map());
    index.other(r1, src, "names/kobra-4.txt", 12);  // not a map: no name check
    index.finish(r1);

    const auto report = index.audit();
    REQUIRE(report.sources.size() == 1);
    const auto& findings = report.sources[0].findings;
    CHECK(describe(findings) == Strings{
                                    "new map.rejected bad.map",
                                    "new image.duplicate images.map grass_main",
                                    "new image.embedded_standard images.map grass_main",
                                    "new image.external_nonstandard images.map my_tiles",
                                    "new image.unused images.map leftover",
                                    "new name.similar names/Kobra 4.map kobra4",
                                    "new name.similar names/kobra_4.map kobra4",
                                    "new name.similar other/Kobra 4.map kobra4",
                                    "new race.no_time_checkpoints race/no-cp.map",
                                    "new race.no_time_checkpoints race/visual-cp.map",
                                });

    const auto* rejected = find_finding(findings, rules::kRejected, "bad.map");
    REQUIRE(rejected);
    CHECK(rejected->severity == Severity::error);
    CHECK(rejected->message == "DDNet would refuse it (M10, H5): no game layer");
    const auto* race_finding = find_finding(findings, rules::kNoTimeCheckpoints, "race/no-cp.map");
    REQUIRE(race_finding);
    // Info: DDNet does not require time checkpoints, and the check fires on
    // more than a fifth of real maps (docs/audit.md).
    CHECK(race_finding->severity == Severity::info);
    CHECK(race_finding->map_id.has_value());
    const auto* duplicate = find_finding(findings, rules::kDuplicateImage, "images.map");
    REQUIRE(duplicate);
    CHECK(duplicate->message == "images 0 and 1 'grass_main' share one name");
    CHECK(duplicate->severity == Severity::warning);
    const auto* embedded = find_finding(findings, rules::kEmbeddedStandardImage, "images.map");
    REQUIRE(embedded);
    CHECK(embedded->message.find("image 1 'grass_main' is embedded") == 0);
    CHECK(embedded->message.find("save 1000 bytes") != std::string::npos);
    CHECK(embedded->severity == Severity::info);  // bytes only: it cannot break the map
    const auto* unused = find_finding(findings, rules::kUnusedImage, "images.map");
    REQUIRE(unused);
    CHECK(unused->message == "image 2 'leftover' is used by no layer");
    CHECK(unused->severity == Severity::info);
    const auto* similar = find_finding(findings, rules::kSimilarName, "names/kobra_4.map");
    REQUIRE(similar);
    CHECK(similar->message == "name 'kobra_4' differs only by case or punctuation from 'Kobra 4'");

    // Every warning-level finding is a new warning on the first run.
    const auto counts = count_new(report);
    CHECK(counts.errors == 1);  // bad.map
    // images.map and 3 names (bad.map is newly broken: its warning counts
    // there; the race maps' findings are info).
    CHECK(counts.warnings == 4);
  }

  TEST_CASE("audit rules: only findings the baseline did not have are new") {
    AuditIndex index;
    const auto r1 = index.begin_run();
    auto src = index.source(r1, "maps.zip");
    index.map(r1, src, "Kobra 4.map", 1, ok_map());
    index.map(r1, src, "kobra_4.map", 2, ok_map());
    index.map(r1, src, "race.map", 3, race({{33, 1}, {34, 1}}));
    index.map(r1, src, "img.map", 4, with_images({image(0, "leftover", false, false, false)}));
    index.finish(r1);

    const auto r2 = index.begin_run();
    src = index.source(r2, "maps.zip");
    index.map(r2, src, "Kobra 4.map", 1, ok_map());
    index.map(r2, src, "kobra_4.map", 2, ok_map());
    index.map(r2, src, "KOBRA-4.map", 5, ok_map());                       // a third spelling
    index.map(r2, src, "renamed-race.map", 3, race({{33, 1}, {34, 1}}));  // moved
    // Same path, new content: one more unused image and an external custom one.
    index.map(r2, src, "img.map", 6,
              with_images({image(0, "leftover", false, false, false),
                           image(1, "custom", true, false, false)}));
    index.finish(r2);

    const auto report = index.audit();
    const auto& s = report.sources[0];
    CHECK(paths_of(s.moved) == Strings{"race.map -> renamed-race.map"});
    CHECK(describe(s.findings) == Strings{
                                      "new name.similar KOBRA-4.map kobra4",
                                      "name.similar Kobra 4.map kobra4",
                                      "new image.external_nonstandard img.map custom",
                                      "new image.unused img.map custom",
                                      "image.unused img.map leftover",
                                      "name.similar kobra_4.map kobra4",
                                      "race.no_time_checkpoints renamed-race.map",
                                  });
    // The old names now also differ from the new spelling.
    const auto* old_name = find_finding(s.findings, rules::kSimilarName, "Kobra 4.map");
    REQUIRE(old_name);
    CHECK(old_name->message ==
          "name 'Kobra 4' differs only by case or punctuation from 'KOBRA-4', 'kobra_4'");
    const auto counts = count_new(report);
    CHECK(counts.errors == 0);
    CHECK(counts.warnings == 2);  // KOBRA-4.map and img.map
    CHECK(exit_status(report, FailOn::error) == 0);
    CHECK(exit_status(report, FailOn::warning) == 1);
  }

  TEST_CASE("audit rules: evaluate_rules over plain data skips maps without facts") {
    SeenEntry known;
    known.file_id = 1;
    known.version_id = 1;
    known.name = "a";
    known.state = {"a.map", index::EntryKind::map, Health::rejected, 10, content_sha(1), 7};
    SeenEntry unknown = known;
    unknown.file_id = 2;
    unknown.name = "A";
    unknown.state.path = "A.map";
    unknown.state.map_id = 8;  // no facts: skipped, also for the name check
    MapFactsById facts;
    facts[7].status = MapStatus::rejected;
    facts[7].problems = {{Severity::error, "H1", "bad magic"}};
    const auto findings = evaluate_rules({known, unknown}, facts);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].rule == rules::kRejected);
    CHECK(findings[0].message == "DDNet would refuse it (H1): bad magic");
    CHECK_FALSE(findings[0].is_new);
  }

}  // TEST_SUITE
