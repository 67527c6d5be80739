// The problem code table (stages/common/problem_codes.h) is the one source of
// the codes: the code tables of stages/extract/README.md are rendered from it
// (this test fails when they differ, and writes the expected README next to the
// test binary), docs/guide.md's table of reading codes agrees with it, and its
// columns are consistent.
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <string>
#include <utility>

#include "stages/common/problem.h"
#include "tests/support/codes.h"
#include "tests/support/corpus.h"

using namespace mapindex;

namespace {

constexpr std::string_view kBegin =
    "<!-- problem codes: generated from stages/common/problem_codes.h by "
    "tests/test_problem_codes.cpp; edit the table there -->\n";
constexpr std::string_view kEnd = "<!-- end of problem codes -->\n";

struct Section {
  CodeGroup group;
  std::string_view title;
};
constexpr Section kSections[] = {
    {CodeGroup::container,
     "Container (`stages/decode/datafile`): a container that does not open gives a rejected map "
     "with that one problem"},
    {CodeGroup::data_item,
     "Data items: in the message of the problem of whatever needed the data (`M14`, `M15`, "
     "`quads.data`, `image.name`, ...)"},
    {CodeGroup::map_rule, "Map level (DDNet refuses the map)"},
    {CodeGroup::check,
     "Further checks (the map loads, but something is wrong: warning; or it cannot break the map "
     "in any game: info)"},
    {CodeGroup::spritetile,
     "SpriteTile levels (`stages/decode/spritetile`, `stages/extract/spritetile_stats`)"},
    {CodeGroup::entry,
     "Entries (stored with the entry, `problems.file_id`, location `\"\"`; README, \"Reading "
     "inputs\")"},
};

bool has_games(CodeGroup group) {
  for (const auto& c : code_table())
    if (c.group == group && c.ddnet != GameLoad::none) return true;
  return false;
}

std::string games_cell(GameLoad g) { return g == GameLoad::none ? "" : std::string(to_string(g)); }

// The generated part of stages/extract/README.md, markers included.
std::string render_tables() {
  std::string out(kBegin);
  for (const auto& section : kSections) {
    const bool games = has_games(section.group);
    out += "\n### " + std::string(section.title) + "\n\n";
    out += games ? "| code | severity | DDNet | Teeworlds 0.6 | Teeworlds 0.7 | meaning |\n"
                   "|---|---|---|---|---|---|\n"
                 : "| code | severity | meaning |\n|---|---|---|\n";
    for (const auto& c : code_table()) {
      if (c.group != section.group) continue;
      out += "| " + std::string(c.string) + " | " + std::string(to_string(c.severity)) + " | ";
      if (games)
        out += games_cell(c.ddnet) + " | " + games_cell(c.teeworlds06) + " | " +
               games_cell(c.teeworlds07) + " | ";
      out += std::string(c.meaning) + " |\n";
    }
  }
  out += "\n";
  out += kEnd;
  return out;
}

}  // namespace

TEST_SUITE("problem codes") {
  TEST_CASE("stages/extract/README.md's code tables are the code table") {
    const std::string path = std::string(MAPINDEX_SOURCE_DIR) + "/stages/extract/README.md";
    const std::string readme = mapindex::testing::read_text_file(path);
    const auto begin = readme.find(kBegin);
    const auto end = readme.find(kEnd);
    REQUIRE(begin != std::string::npos);
    REQUIRE(end != std::string::npos);
    const std::string documented = readme.substr(begin, end + kEnd.size() - begin);
    const std::string expected = render_tables();
    if (documented != expected) {
      // The README as it should be, to copy over stages/extract/README.md.
      std::ofstream("expected_stages_extract_README.md")
          << readme.substr(0, begin) << expected << readme.substr(end + kEnd.size());
    }
    INFO(
        "stages/extract/README.md differs from the code table; the expected file is "
        "expected_stages_extract_README.md in the test's working directory");
    CHECK(documented == expected);
  }

  TEST_CASE("docs/guide.md's table of reading codes agrees with the code table") {
    const std::string readme =
        mapindex::testing::read_text_file(std::string(MAPINDEX_SOURCE_DIR) + "/docs/guide.md");
    int rows = 0;
    for (const auto& c : code_table()) {
      if (c.group != CodeGroup::entry || c.code == Code::read_duplicate_name ||
          c.code == Code::internal)
        continue;
      const std::string row =
          "| `" + std::string(c.string) + "` | " + std::string(to_string(c.severity)) + " | ";
      INFO("docs/guide.md row starting " << row);
      CHECK(readme.find("\n" + row) != std::string::npos);
      ++rows;
    }
    CHECK(rows == 10);
  }

  TEST_CASE("the code table is consistent") {
    std::set<std::pair<std::string_view, Severity>> seen;
    for (const auto& c : code_table()) {
      INFO(c.string);
      CHECK(severity_of(c.code) == c.severity);
      CHECK(to_string(c.code) == c.string);
      CHECK_FALSE(c.meaning.empty());
      // A stored string names one code per severity (V6 and read.empty have two).
      CHECK(seen.insert({c.string, c.severity}).second);
      // Games are recorded for exactly the rules that make DDNet reject a map.
      const bool rejecting = c.severity == Severity::error &&
                             (c.group == CodeGroup::container || c.group == CodeGroup::map_rule);
      CHECK((c.ddnet == GameLoad::refuses) == rejecting);
      CHECK((c.teeworlds06 != GameLoad::none) == rejecting);
      CHECK((c.teeworlds07 != GameLoad::none) == rejecting);
    }
  }

  TEST_CASE("locations render as the text stored in problems.location") {
    CHECK(to_string(Location::file()) == "");
    CHECK(to_string(Location::info()) == "info");
    CHECK(to_string(Location::envelope_points()) == "envelope points");
    CHECK(to_string(Location::layer(3)) == "layer 3");
    CHECK(to_string(Location::group(1)) == "group 1");
    CHECK(to_string(Location::image(0)) == "image 0");
    CHECK(to_string(Location::envelope(2)) == "envelope 2");
    CHECK(to_string(Location::sound(12)) == "sound 12");
    CHECK(to_string(Location::automapper(4)) == "automapper 4");
    CHECK(to_string(Location::data_item(1)) == "data item 1");
    CHECK(to_string(Location::at(Place::layer, 7)) == "layer 7");
  }

}  // TEST_SUITE
