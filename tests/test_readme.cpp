// The documentation must be true where a test can tell: every ```sql block
// of docs/queries.md, run with `mapindex query` on an index of the demo
// archive, prints exactly the ```text block that follows it.
#include <doctest/doctest.h>

#include <regex>

#include "stages/extract/teeworlds_features.h"
#include "tests/support/archive_builder.h"
#include "tests/support/corpus.h"
#include "tests/support/process.h"
#include "tests/test_index_helpers.h"

using namespace mapindex::testing;

namespace {

std::string read_doc(const char* path) {
  return read_text_file(std::filesystem::path(MAPINDEX_SOURCE_DIR) / path);
}

}  // namespace

TEST_SUITE("readme") {
  TEST_CASE("docs/queries.md: every question prints what the page shows") {
    const std::string section = read_doc("docs/queries.md");

    TempDir tmp;
    const auto archive = (tmp / "demo-maps.zip").string();
    const auto db = (tmp / "demo.sqlite").string();
    REQUIRE(run_process(make_demo_binary(), {archive}).exit_code == 0);
    const auto indexed = run_process(mapindex_binary(), {"index", "--db", db, "--quiet", archive});
    REQUIRE(indexed.exit_code == 1);  // the demo holds rejected maps on purpose

    const std::regex block("```sql\\n([\\s\\S]*?)\\n```\\n```text\\n([\\s\\S]*?)\\n```");
    int questions = 0;
    for (std::sregex_iterator it(section.begin(), section.end(), block), last; it != last; ++it) {
      const std::string sql = (*it)[1], expected = (*it)[2];
      INFO("query: " << sql);
      const auto r = run_process(mapindex_binary(), {"query", "--db", db, sql});
      CHECK(r.exit_code == 0);
      std::string out = r.out;
      while (!out.empty() && out.back() == '\n') out.pop_back();
      CHECK(out == expected);
      ++questions;
    }
    CHECK(questions >= 10);
  }

  // docs/schema.md's table of which tiles on which layers set each
  // ddnet_mapinfo flag is the code's own table (stages/extract/teeworlds_features.cpp).
  TEST_CASE("docs/schema.md documents every ddnet_mapinfo flag as the code sets it") {
    const std::string schema = read_doc("docs/schema.md");
    const auto start = schema.find("\n### `ddnet_mapinfo`");
    REQUIRE(start != std::string::npos);
    const std::string section = schema.substr(start, schema.find("\n### ", start + 5) - start);
    for (std::size_t f = 0; f < mapindex::teeworlds::kDdnetFeatureNames.size(); ++f) {
      const std::string row = mapindex::teeworlds::ddnet_feature_rule_row(f);
      INFO("expected docs/schema.md row: " << row);
      CHECK(section.find("\n" + row + "\n") != std::string::npos);
    }
  }

  // The schema is a public interface: docs/schema.md has a heading for every
  // table and view of a new index, and names each of its columns in that part.
  TEST_CASE("docs/schema.md names every table, view and column") {
    const std::string reference = read_doc("docs/schema.md");
    TempDir tmp;
    auto db = mapindex::index::testing::open_index((tmp / "new.sqlite").string());
    const auto names = mapindex::index::testing::query_rows(
        db.handle(),
        "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND "
        "name NOT LIKE 'sqlite_%' ORDER BY name");
    REQUIRE(names.size() >= 30);
    for (const auto& name : names) {
      const auto heading = reference.find("\n### `" + name + "`");
      CHECK_MESSAGE(heading != std::string::npos, "no heading for " << name);
      if (heading == std::string::npos) continue;
      const auto next = reference.find("\n#", heading + 5);
      const std::string part = reference.substr(heading, next - heading);
      for (const auto& column : mapindex::index::testing::column_names(db.handle(), name))
        CHECK_MESSAGE(part.find("`" + column + "`") != std::string::npos,
                      name << "." << column << " is not in its part of the schema reference");
    }
  }
}  // TEST_SUITE
