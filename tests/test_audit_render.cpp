// The audit report's three forms: JSON (exact text for a hand-built report,
// and the documented structure of a report built from an index, checked with
// an independent parser), plain text and markdown (the lines a reader looks
// for), escaping of hostile entry paths, and the --limit cut-off.
#include <doctest/doctest.h>

#include <sstream>

#include "audit/render.h"
#include "common/json_writer.h"
#include "common/problem_codes.h"
#include "tests/support/process.h"
#include "tests/test_audit_helpers.h"

using namespace mapindex;
using namespace mapindex::audit;
using namespace mapindex::audit::testing;
using mapindex::testing::contains;
using mapindex::testing::has_line;

namespace {

std::string text_of(const AuditReport& report, std::size_t limit = 50) {
  std::ostringstream out;
  render_text(report, out, {limit});
  return out.str();
}
std::string markdown_of(const AuditReport& report, std::size_t limit = 50) {
  std::ostringstream out;
  render_markdown(report, out, {limit});
  return out.str();
}
std::string json_of(const AuditReport& report) {
  std::ostringstream out;
  render_json(report, out);
  return out.str();
}

std::size_t count_of_text(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// A small report, built by hand: one source, a new rejected map, a move.
AuditReport small_report() {
  AuditReport r;
  r.run = {3, index::RunStatus::complete, "2026-01-31T02:00:00.000Z", "2026-01-31T02:05:00.000Z",
           "mapindex index maps.zip"};
  r.baselines = {
      {2, index::RunStatus::complete, "2026-01-30T02:00:00.000Z", "", "mapindex index maps.zip"}};
  SourceAudit s;
  s.source_id = 1;
  s.path = "maps.zip";
  s.kind = index::SourceKind::archive;
  s.baseline_run = 2;
  s.now = {.entries = 3, .bytes = 3010, .maps = 3, .distinct_maps = 3, .ok = 2, .rejected = 1};
  s.before = Totals{.entries = 2, .bytes = 2000, .maps = 2, .distinct_maps = 2, .ok = 2};
  s.unchanged = 1;
  s.added = {
      {"maps/new.map", index::EntryKind::map, Health::rejected, 1010, std::string(64, 'c'), 9}};
  s.moved = {{{"a.map", index::EntryKind::map, Health::ok, 1000, std::string(64, 'a'), 4},
              {"b.map", index::EntryKind::map, Health::ok, 1000, std::string(64, 'a'), 4}}};
  s.newly_broken = {{"maps/new.map", std::nullopt, Health::rejected, {"M10"}, "no game layer"}};
  s.problem_counts = {{"M10", Severity::error, 1, 0, true}};
  s.findings = {{std::string(rules::kRejected), Severity::error, "maps/new.map", 9, "",
                 "DDNet would refuse it (M10): no game layer", true}};
  r.now = s.now;
  r.before = s.before;
  r.sources = {s};
  return r;
}

}  // namespace

TEST_SUITE("audit") {
  TEST_CASE("audit json: strings are escaped and made valid UTF-8") {
    CHECK(json_string("plain") == "\"plain\"");
    CHECK(json_string("a\"b\\c") == "\"a\\\"b\\\\c\"");
    CHECK(json_string("line\nnext\ttab\r") == "\"line\\nnext\\ttab\\r\"");
    CHECK(json_string(std::string("nul\0x", 5)) == "\"nul\\u0000x\"");
    CHECK(json_string("\x1f") == "\"\\u001f\"");
    CHECK(json_string("Caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") ==
          "\"Caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"");
    // Invalid: a lone continuation byte, a truncated sequence, an overlong form,
    // a surrogate, Latin-1.
    CHECK(json_string("\x80") == "\"\xEF\xBF\xBD\"");
    CHECK(json_string("a\xC3") == "\"a\xEF\xBF\xBD\"");
    CHECK(json_string("\xC0\xAF") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
    CHECK(json_string("\xED\xA0\x80") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
    CHECK(json_string("Kobra \xE9") == "\"Kobra \xEF\xBF\xBD\"");
  }

  TEST_CASE("audit json: the writer nests, separates and indents") {
    std::ostringstream out;
    JsonWriter j(out);
    j.begin_object().field("a", 1).key("b").begin_array().value("x").null().value(true).end_array();
    j.key("c").begin_object().end_object().key("d").begin_array().end_array();
    j.field("e", std::optional<std::int64_t>{}).field("f", std::optional<std::int64_t>{-5});
    j.end_object();
    CHECK(out.str() ==
          "{\n"
          "  \"a\": 1,\n"
          "  \"b\": [\n"
          "    \"x\",\n"
          "    null,\n"
          "    true\n"
          "  ],\n"
          "  \"c\": {},\n"
          "  \"d\": [],\n"
          "  \"e\": null,\n"
          "  \"f\": -5\n"
          "}\n");
  }

  TEST_CASE("audit json: a small report, exactly as documented") {
    const std::string a64(64, 'a'), c64(64, 'c');
    const std::string expected = R"({
  "format_version": 1,
  "generator": "mapindex )" MAPINDEX_VERSION R"(",
  "run": {
    "run_id": 3,
    "status": "complete",
    "started_at": "2026-01-31T02:00:00.000Z",
    "finished_at": "2026-01-31T02:05:00.000Z",
    "command": "mapindex index maps.zip"
  },
  "baseline_given": false,
  "baselines": [
    {
      "run_id": 2,
      "status": "complete",
      "started_at": "2026-01-30T02:00:00.000Z",
      "finished_at": null,
      "command": "mapindex index maps.zip"
    }
  ],
  "accepted": null,
  "new": {
    "errors": 1,
    "warnings": 0,
    "infos": 0,
    "unread_sources": 0
  },
  "sources_not_read": [],
  "totals": {
    "now": {
      "entries": 3,
      "bytes": 3010,
      "maps": 3,
      "distinct_maps": 3,
      "ok": 2,
      "warnings": 0,
      "rejected": 1,
      "other": 0,
      "oversize": 0,
      "unreadable": 0
    },
    "before": {
      "entries": 2,
      "bytes": 2000,
      "maps": 2,
      "distinct_maps": 2,
      "ok": 2,
      "warnings": 0,
      "rejected": 0,
      "other": 0,
      "oversize": 0,
      "unreadable": 0
    }
  },
  "sources": [
    {
      "source_id": 1,
      "path": "maps.zip",
      "kind": "archive",
      "baseline_run_id": 2,
      "totals": {
        "now": {
          "entries": 3,
          "bytes": 3010,
          "maps": 3,
          "distinct_maps": 3,
          "ok": 2,
          "warnings": 0,
          "rejected": 1,
          "other": 0,
          "oversize": 0,
          "unreadable": 0
        },
        "before": {
          "entries": 2,
          "bytes": 2000,
          "maps": 2,
          "distinct_maps": 2,
          "ok": 2,
          "warnings": 0,
          "rejected": 0,
          "other": 0,
          "oversize": 0,
          "unreadable": 0
        }
      },
      "unchanged": 1,
      "added": [
        {
          "path": "maps/new.map",
          "kind": "map",
          "status": "rejected",
          "size": 1010,
          "sha256": "CCC",
          "map_id": 9
        }
      ],
      "removed": [],
      "changed": [],
      "moved": [
        {
          "before": {
            "path": "a.map",
            "kind": "map",
            "status": "ok",
            "size": 1000,
            "sha256": "AAA",
            "map_id": 4
          },
          "after": {
            "path": "b.map",
            "kind": "map",
            "status": "ok",
            "size": 1000,
            "sha256": "AAA",
            "map_id": 4
          }
        }
      ],
      "replaced": [],
      "duplicates": [],
      "newly_broken": [
        {
          "path": "maps/new.map",
          "before": null,
          "after": "rejected",
          "codes": [
            "M10"
          ],
          "titles": [
            "TITLE_M10"
          ],
          "message": "no game layer",
          "sha256": null,
          "acknowledged": false
        }
      ],
      "gained_problems": [],
      "fixed": [],
      "gained_info": [],
      "problem_counts": [
        {
          "code": "M10",
          "title": "TITLE_M10",
          "severity": "error",
          "entries": 1,
          "before": 0,
          "new": true
        }
      ],
      "findings": [
        {
          "rule": "map.rejected",
          "title": "TITLE_REJECTED",
          "severity": "error",
          "path": "maps/new.map",
          "map_id": 9,
          "subject": "",
          "message": "DDNet would refuse it (M10): no game layer",
          "new": true,
          "acknowledged": false
        }
      ],
      "reading": "complete",
      "reading_errors": [],
      "last_entry_read": null,
      "not_read": [],
      "new_warnings": [],
      "new_infos": []
    }
  ]
}
)";
    // Titles from the code table (src/common/problem_codes.h).
    const std::string m10_title(info(Code::M10).title),
        rejected_title(info(Code::map_rejected).title);
    std::string wanted = expected;
    for (const auto& [placeholder, value] : {std::pair<std::string, std::string>{"AAA", a64},
                                             {"CCC", c64},
                                             {"TITLE_M10", m10_title},
                                             {"TITLE_REJECTED", rejected_title}})
      for (auto at = wanted.find(placeholder); at != std::string::npos;
           at = wanted.find(placeholder))
        wanted.replace(at, placeholder.size(), value);
    CHECK(json_of(small_report()) == wanted);
  }

  TEST_CASE("audit json: a report from an index has every documented field") {
    AuditIndex index;
    const auto r1 = index.begin_run();
    auto src = index.source(r1, "maps.zip");
    index.map(r1, src, "a.map", 1, ok_map());
    index.map(r1, src, "b.map", 2, rejected_map(Code::H5));
    index.map(r1, src, "c.map", 3, ok_map());
    index.map(r1, src, "gone.map", 4, ok_map());
    index.finish(r1);
    const auto r2 = index.begin_run();
    src = index.source(r2, "maps.zip");
    index.map(r2, src, "a.map", 5, rejected_map(Code::M10));  // changed, newly broken
    index.map(r2, src, "b.map", 6, ok_map());                 // fixed
    index.map(r2, src, "c2.map", 3, ok_map());                // moved
    index.map(r2, src, "c3.map", 3, ok_map());                // a copy: duplicate
    index.map(r2, src, "w.map", 7, warning_map());            // gained problems
    index.unreadable(r2, src, "cut.map");
    index.finish(r2);

    const auto report = index.audit();
    const Json j = parse_json(json_of(report));
    REQUIRE(j.is_object());
    CHECK(j.keys() == Strings{"accepted", "baseline_given", "baselines", "format_version",
                              "generator", "new", "run", "sources", "sources_not_read", "totals"});
    CHECK(j["accepted"].is_null());
    CHECK(j["new"].keys() == Strings{"errors", "infos", "unread_sources", "warnings"});
    CHECK(j["new"]["unread_sources"].integer() == 0);
    CHECK(j["sources_not_read"].array().empty());
    CHECK(j["format_version"].integer() == kAuditFormatVersion);
    CHECK(j["run"]["run_id"].integer() == r2);
    CHECK(j["run"]["status"].str() == "complete");
    CHECK(j["run"]["finished_at"].is_string());
    CHECK(j["run"].keys() == Strings{"command", "finished_at", "run_id", "started_at", "status"});
    CHECK(j["baseline_given"].boolean() == false);
    REQUIRE(j["baselines"].array().size() == 1);
    CHECK(j["baselines"][0]["run_id"].integer() == r1);
    CHECK(j["new"]["errors"].integer() == 2);    // a.map, cut.map
    CHECK(j["new"]["warnings"].integer() == 1);  // w.map
    const Strings totals_keys{"bytes", "distinct_maps", "entries",  "maps",       "ok",
                              "other", "oversize",      "rejected", "unreadable", "warnings"};
    CHECK(j["totals"]["now"].keys() == totals_keys);
    CHECK(j["totals"]["before"].keys() == totals_keys);
    CHECK(j["totals"]["now"]["entries"].integer() == 6);
    CHECK(j["totals"]["before"]["entries"].integer() == 4);

    REQUIRE(j["sources"].array().size() == 1);
    const Json& s = j["sources"][0];
    CHECK(s.keys() ==
          Strings{"added",          "baseline_run_id", "changed",        "duplicates",
                  "findings",       "fixed",           "gained_info",    "gained_problems",
                  "kind",           "last_entry_read", "moved",          "new_infos",
                  "new_warnings",   "newly_broken",    "not_read",       "path",
                  "problem_counts", "reading",         "reading_errors", "removed",
                  "replaced",       "source_id",       "totals",         "unchanged"});
    CHECK(s["reading"].str() == "complete");
    CHECK(s["reading_errors"].array().empty());
    CHECK(s["not_read"].array().empty());
    REQUIRE(s["new_warnings"].array().size() == 1);
    CHECK(s["new_warnings"][0].keys() == Strings{"path", "titles", "what"});
    // Every code or rule has its title beside it, from the code table.
    CHECK(s["new_warnings"][0]["what"][0].str() == "layer.ungrouped");
    CHECK(s["new_warnings"][0]["titles"][0].str() == info(Code::layer_ungrouped).title);
    CHECK(s["new_warnings"][0]["path"].str() == "w.map");
    CHECK(s["path"].str() == "maps.zip");
    CHECK(s["kind"].str() == "archive");
    CHECK(s["baseline_run_id"].integer() == r1);
    CHECK(s["unchanged"].integer() == 0);

    const Strings entry_keys{"kind", "map_id", "path", "sha256", "size", "status"};
    const auto paths = [](const Json& list) {
      Strings out;
      for (const auto& e : list.array()) out.push_back(e["path"].str());
      return out;
    };
    CHECK(paths(s["added"]) == Strings{"c3.map", "cut.map", "w.map"});
    for (const auto& e : s["added"].array()) CHECK(e.keys() == entry_keys);
    const Json& cut = s["added"][1];
    CHECK(cut["kind"].str() == "unreadable");
    CHECK(cut["status"].str() == "unreadable");
    CHECK(cut["sha256"].is_null());
    CHECK(cut["map_id"].is_null());
    CHECK(paths(s["removed"]) == Strings{"gone.map"});
    CHECK(s["removed"][0]["sha256"].str() == content_sha(4));
    CHECK(s["removed"][0]["map_id"].is_int());
    REQUIRE(s["changed"].array().size() == 2);
    CHECK(s["changed"][0].keys() == Strings{"after", "before"});
    CHECK(s["changed"][0]["before"]["status"].str() == "ok");
    CHECK(s["changed"][0]["after"]["status"].str() == "rejected");
    REQUIRE(s["moved"].array().size() == 1);
    CHECK(s["moved"][0]["before"]["path"].str() == "c.map");
    CHECK(s["moved"][0]["after"]["path"].str() == "c2.map");
    REQUIRE(s["duplicates"].array().size() == 1);
    const Json& dup = s["duplicates"][0];
    CHECK(dup.keys() == Strings{"map_id", "new", "paths", "sha256"});
    CHECK(dup["paths"].array().size() == 2);
    CHECK(dup["new"].boolean());

    const Strings health_keys{"acknowledged", "after", "before", "codes",
                              "message",      "path",  "sha256", "titles"};
    CHECK(paths(s["newly_broken"]) == Strings{"a.map", "cut.map"});
    for (const auto& h : s["newly_broken"].array()) CHECK(h.keys() == health_keys);
    CHECK(s["newly_broken"][0]["before"].str() == "ok");
    CHECK(s["newly_broken"][0]["codes"][0].str() == "M10");
    CHECK(s["newly_broken"][0]["titles"][0].str() == info(Code::M10).title);
    CHECK(s["newly_broken"][1]["before"].is_null());
    CHECK(s["newly_broken"][0]["sha256"].str() == content_sha(5));
    CHECK(s["newly_broken"][1]["sha256"].is_null());  // unreadable: not read
    CHECK_FALSE(s["newly_broken"][0]["acknowledged"].boolean());
    CHECK(paths(s["gained_problems"]) == Strings{"w.map"});
    CHECK(paths(s["fixed"]) == Strings{"b.map"});
    CHECK(s["fixed"][0]["codes"][0].str() == "H5");

    REQUIRE(!s["problem_counts"].array().empty());
    for (const auto& c : s["problem_counts"].array()) {
      CHECK(c.keys() == Strings{"before", "code", "entries", "new", "severity", "title"});
      const auto* known = find_code(c["code"].str());
      REQUIRE(known);
      CHECK(c["title"].str() == known->title);
      CHECK((c["severity"].str() == "error" || c["severity"].str() == "warning"));
    }
    REQUIRE(!s["findings"].array().empty());
    for (const auto& f : s["findings"].array()) {
      CHECK(f.keys() == Strings{"acknowledged", "map_id", "message", "new", "path", "rule",
                                "severity", "subject", "title"});
      const auto* known = find_code(f["rule"].str());
      REQUIRE(known);
      CHECK(f["title"].str() == known->title);
    }
  }

  TEST_CASE("audit text and markdown: the lines a reader looks for") {
    const auto report = small_report();
    // Every code and rule is printed with its title from the code table.
    const std::string m10 = "M10 " + std::string(info(Code::M10).title);
    const std::string rejected = "map.rejected " + std::string(info(Code::map_rejected).title);
    const auto text = text_of(report);
    CHECK(has_line(text, "mapindex audit of run 3 (complete, started 2026-01-31T02:00:00.000Z)"));
    CHECK(has_line(text, "against run 2 (complete, started 2026-01-30T02:00:00.000Z)"));
    CHECK(has_line(text, "result: 1 entry newly broken, 0 entries with new warnings"));
    CHECK(has_line(text, "== maps.zip (archive) against run 2"));
    CHECK(has_line(text, "  newly broken (1):"));
    CHECK(has_line(text, "    ! maps/new.map  (new) -> rejected  [" + m10 + "] no game layer"));
    CHECK(has_line(text, "  added (1):"));
    CHECK(has_line(text, "    + maps/new.map  rejected, 1010 B"));
    CHECK(has_line(text, "  moved (1):"));
    CHECK(has_line(text, "    > a.map -> b.map  ok, 1000 B"));
    CHECK(has_line(text, "  release checks (1 finding, 1 new), by rule:"));
    CHECK(has_line(text, "    " + rejected + ": error, 1 entry, 1 new"));
    CHECK(has_line(text, "      new maps/new.map: DDNet would refuse it (M10): no game layer"));
    CHECK(has_line(text, "  unchanged: 1 entry"));
    CHECK_FALSE(contains(text, "removed"));  // empty lists are left out

    const auto md = markdown_of(report);
    const std::string m10_md = "`M10` " + std::string(info(Code::M10).title);
    const std::string rejected_title(info(Code::map_rejected).title);
    CHECK(has_line(md, "## mapindex audit: run 3"));
    CHECK(has_line(md, "**1 entry newly broken, 0 entries with new warnings.**"));
    CHECK(has_line(md, "### maps.zip (archive)"));
    CHECK(has_line(md, "| | now | before | change |"));
    CHECK(has_line(md, "| entries | 3 | 2 | +1 |"));
    CHECK(has_line(md, "| rejected | 1 | 0 | +1 |"));
    CHECK(has_line(md, "**Newly broken (1)**"));
    CHECK(has_line(md, "- `maps/new.map`: (new) → rejected (" + m10_md + "): no game layer"));
    CHECK(has_line(md, "- `a.map` → `b.map`"));
    CHECK(has_line(
        md, "| `M10` | " + std::string(info(Code::M10).title) + " | error | 1 | 0 | **new** |"));
    CHECK(has_line(md, "| `map.rejected` | " + rejected_title + " | error | 1 | 1 |"));
    CHECK(has_line(md, "**`map.rejected` " + rejected_title + "** (error, 1 entry, 1 new)"));
    CHECK(has_line(md, "- **new** `maps/new.map`: DDNet would refuse it (M10): no game layer"));
  }

  TEST_CASE("audit text, markdown and html: release checks grouped by rule, with counts") {
    // Six findings of three rules: a rule's line comes once, with its title,
    // severity, the entries it fired on (new ones) and, when an entry has
    // several, the findings; errors first, info last; new findings first.
    auto report = small_report();
    auto& s = report.sources[0];
    const auto finding = [](Code rule, const std::string& path, const std::string& subject,
                            bool is_new) {
      return Finding{std::string(to_string(rule)),
                     severity_of(rule),
                     path,
                     1,
                     subject,
                     "about " + path + " " + subject,
                     is_new};
    };
    s.findings = {finding(Code::race_no_time_checkpoints, "r1.map", "", false),
                  finding(Code::image_duplicate, "img.map", "a", true),
                  finding(Code::race_no_time_checkpoints, "r2.map", "", true),
                  finding(Code::image_duplicate, "img.map", "b", true),
                  finding(Code::race_no_time_checkpoints, "r3.map", "", false),
                  finding(Code::map_rejected, "maps/new.map", "", true)};
    const auto title = [](Code c) {
      return std::string(to_string(c)) + " " + std::string(info(c).title);
    };
    const auto text = text_of(report);
    INFO(text);
    CHECK(has_line(text, "  release checks (6 findings, 4 new, 3 info), by rule:"));
    const auto rejected_at =
        text.find("\n    " + title(Code::map_rejected) + ": error, 1 entry, 1 new\n");
    const auto duplicate_at = text.find("\n    " + title(Code::image_duplicate) +
                                        ": warning, 1 entry, 1 new (2 findings)\n");
    const auto race_at =
        text.find("\n    " + title(Code::race_no_time_checkpoints) + ": info, 3 entries, 1 new\n");
    REQUIRE(rejected_at != std::string::npos);
    REQUIRE(duplicate_at != std::string::npos);
    REQUIRE(race_at != std::string::npos);
    CHECK(rejected_at < duplicate_at);
    CHECK(duplicate_at < race_at);
    // Under its rule, the new finding first, then the others by path.
    const auto r2 = text.find("\n      new r2.map: about r2.map \n");
    const auto r1 = text.find("\n          r1.map: about r1.map \n");
    const auto r3 = text.find("\n          r3.map: about r3.map \n");
    REQUIRE(r2 != std::string::npos);
    CHECK((race_at < r2 && r2 < r1 && r1 < r3));
    CHECK(count_of_text(text, "\n    " + title(Code::race_no_time_checkpoints) + ": ") == 1);

    const auto md = markdown_of(report);
    INFO(md);
    const auto md_title = [](Code c) {
      return "`" + std::string(to_string(c)) + "` " + std::string(info(c).title);
    };
    CHECK(has_line(md, "**Release checks** (6, 4 new, 3 info)"));
    CHECK(has_line(md, "| `image.duplicate` | " + std::string(info(Code::image_duplicate).title) +
                           " | warning | 1 | 1 |"));
    CHECK(has_line(md, "| `race.no_time_checkpoints` | " +
                           std::string(info(Code::race_no_time_checkpoints).title) +
                           " | info | 3 | 1 |"));
    CHECK(has_line(
        md, "**" + md_title(Code::race_no_time_checkpoints) + "** (info, 3 entries, 1 new)"));
    CHECK(has_line(md, "- **new** `r2.map`: about r2.map "));
    CHECK(has_line(md, "- `r1.map`: about r1.map "));

    // HTML: one <details> per rule, its summary titled and counted; open
    // when it has new findings that are not info.
    std::ostringstream html_out;
    render_html(report, html_out, {50});
    const auto html = html_out.str();
    CHECK(count_of_text(html, "<details class=\"rule\"") == 3);
    CHECK(contains(html, "<details class=\"rule\" open><summary><code>image.duplicate</code> " +
                             std::string(info(Code::image_duplicate).title) +
                             " &middot; <span class=\"sev-warning\">warning</span> &middot; "
                             "1 entry, 1 new (2 findings)</summary>"));
    CHECK(contains(html, "<details class=\"rule\"><summary><code>race.no_time_checkpoints</code> " +
                             std::string(info(Code::race_no_time_checkpoints).title) +
                             " &middot; <span class=\"sev-info\">info</span> &middot; "
                             "3 entries, 1 new</summary>"));
  }

  TEST_CASE("audit text: the totals table lines up") {
    const auto text = text_of(small_report());
    CHECK(has_line(text, "                      now    before  change"));
    CHECK(has_line(text, "  entries               3         2  +1"));
    CHECK(has_line(text, "  bytes          2.94 KiB  1.95 KiB  +1010 B"));
    CHECK(has_line(text, "  rejected              1         0  +1"));
    CHECK(has_line(text, "  ok                    2         2"));
  }

  TEST_CASE("audit text and markdown: hostile entry paths stay on their line") {
    auto report = small_report();
    report.sources[0].added[0].path = "maps/evil\nresult: nothing newly broken|`x`.map";
    const auto text = text_of(report);
    CHECK_FALSE(has_line(text, "result: nothing newly broken|`x`.map  rejected, 1010 B"));
    CHECK(contains(text, "+ maps/evil\\nresult: nothing newly broken|`x`.map  rejected, 1010 B"));
    const auto md = markdown_of(report);
    CHECK(contains(
        md, "- `` maps/evil\\nresult: nothing newly broken\\|`x`.map `` (rejected, 1010 B)"));
    const Json j = parse_json(json_of(report));
    CHECK(j["sources"][0]["added"][0]["path"].str() ==
          "maps/evil\nresult: nothing newly broken|`x`.map");
  }

  TEST_CASE("audit text and markdown: long lists are cut at --limit, JSON is not") {
    AuditIndex index;
    const auto run = index.begin_run();
    const auto src = index.source(run, "maps");
    for (int i = 0; i < 7; ++i)
      index.map(run, src, "m" + std::to_string(i) + ".map", i + 1, ok_map());
    index.finish(run);
    const auto report = index.audit();
    const auto text = text_of(report, 3);
    CHECK(has_line(text, "  added (7):"));
    CHECK(has_line(text, "    + m2.map  ok, 1000 B"));
    CHECK_FALSE(contains(text, "m3.map"));
    CHECK(has_line(text, "    ... and 4 more (--limit 0 lists all; --format json has everything)"));
    CHECK(contains(text_of(report, 0), "+ m6.map"));
    const auto md = markdown_of(report, 3);
    CHECK(has_line(md, "- ... and 4 more (see the JSON report)"));
    CHECK(parse_json(json_of(report))["sources"][0]["added"].array().size() == 7);
  }

  TEST_CASE("audit text: the first run and several sources") {
    AuditIndex index;
    const auto run = index.begin_run();
    index.map(run, index.source(run, "a.zip"), "x.map", 1, ok_map(), 100);
    index.map(run, index.source(run, "b.zip"), "y.map", 2, rejected_map(), 200);
    index.finish(run);
    const auto text = text_of(index.audit());
    CHECK(has_line(
        text,
        "no baseline: no earlier complete run read these sources, so everything counts as new"));
    CHECK(has_line(text, "result: 1 entry newly broken, 0 entries with new warnings"));
    CHECK(has_line(text, "totals over 2 sources:"));
    CHECK(has_line(text, "== a.zip (archive): no baseline run, everything counts as new"));
    CHECK(has_line(text, "== b.zip (archive): no baseline run, everything counts as new"));
    CHECK(has_line(text, "  bytes          300 B"));
  }

  TEST_CASE("audit text: the short report stays within 2000 characters on a very bad night") {
    // 12 sources, each with 40 newly broken maps under long paths, 40 added and
    // 40 removed: far more than fits; what does not fit is counted, not cut mid-line.
    AuditReport r = small_report();
    r.sources.clear();
    for (int k = 0; k < 12; ++k) {
      SourceAudit s;
      s.source_id = k + 1;
      s.path = "/srv/maps/archive-" + std::to_string(k) + ".zip";
      s.kind = index::SourceKind::archive;
      s.baseline_run = 2;
      for (int i = 0; i < 40; ++i) {
        const std::string path = "maps/" + std::string(150, 'x') + std::to_string(i) + ".map";
        s.newly_broken.push_back(
            {path, Health::ok, Health::rejected, {"H5"}, std::string(300, 'm')});
        s.added.push_back(
            {path, index::EntryKind::map, Health::rejected, 1000, std::string(64, 'c'), 9});
        s.removed.push_back(
            {"old/" + path, index::EntryKind::map, Health::ok, 1000, std::string(64, 'd'), 8});
      }
      r.sources.push_back(s);
    }
    std::ostringstream out;
    render_short(r, out);
    const auto text = out.str();
    INFO(text);
    CHECK(text.size() <= kShortReportChars);
    CHECK(contains(text, "result: 480 entries newly broken, 0 entries with new warnings"));
    CHECK(contains(text, "  newly broken (40):"));
    CHECK(contains(text, "    ... and 35 more (without --only-new: all)"));
    CHECK(contains(text, " more lines (`mapindex audit` without --only-new has everything)"));
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) CHECK(line.size() <= 120);

    // A source with nothing new is left out of the short report.
    AuditReport quiet = small_report();
    quiet.sources[0].newly_broken.clear();
    quiet.sources[0].added.clear();
    quiet.sources[0].moved.clear();
    quiet.sources[0].findings.clear();
    std::ostringstream q;
    render_short(quiet, q);
    CHECK_FALSE(contains(q.str(), "== maps.zip"));
    CHECK(contains(q.str(), "result: nothing newly broken and no new warnings"));
  }

}  // TEST_SUITE
