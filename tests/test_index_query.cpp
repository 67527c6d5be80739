// run_query: read-only SQL with table, CSV and JSON output, errors, and
// reading while a writer has a batch open.
#include <doctest/doctest.h>

#include <sstream>

#include "common/json_writer.h"
#include "common/utf8.h"
#include "index/index_db.h"
#include "index/migrations.h"
#include "query/query_runner.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::sqlite;
using namespace mapindex::query;
using namespace mapindex::index::testing;

namespace {

struct QueryFixture : OneMapIndex {
  // Output of a successful query.
  std::string run(const std::string& sql, QueryFormat format) {
    std::ostringstream out;
    auto rows = run_query(path, sql, format, out);
    if (!rows) FAIL(sql << ": " << rows.error().to_string());
    return out.str();
  }
};

}  // namespace

TEST_SUITE("index") {
  TEST_CASE("index query: an aligned table, numbers to the right, NULL spelled out") {
    QueryFixture f;
    CHECK(f.run("SELECT 1 AS n, 'ab' AS s, NULL AS z", QueryFormat::table) ==
          "n  s   z\n"
          "-  --  ----\n"
          "1  ab  NULL\n"
          "(1 row)\n");
    CHECK(f.run("SELECT 5 AS count, 'x' AS name UNION ALL SELECT 1234, 'yyyyyy' ORDER BY 1",
                QueryFormat::table) ==
          "count  name\n"
          "-----  ------\n"
          "    5  x\n"
          " 1234  yyyyyy\n"
          "(2 rows)\n");
    // Widths count characters, not bytes; control characters are escaped.
    CHECK(f.run("SELECT 'Kühl' AS name UNION ALL SELECT 'a' || char(10) || 'b'",
                QueryFormat::table) ==
          "name\n"
          "----\n"
          "Kühl\n"
          "a\\nb\n"
          "(2 rows)\n");
    CHECK(f.run("SELECT sha256 FROM maps WHERE 0", QueryFormat::table) ==
          "sha256\n------\n(0 rows)\n");
  }

  TEST_CASE("index query: results from the index") {
    QueryFixture f;
    CHECK(f.run("SELECT Map, Width, Height, TELE_GUN FROM ddnet_mapinfo", QueryFormat::table) ==
          "Map  Width  Height  TELE_GUN\n"
          "---  -----  ------  --------\n"
          "a      100      50         1\n"
          "(1 row)\n");
    CHECK(f.run("SELECT count(*) AS maps FROM maps; SELECT count(*) AS layers FROM layers",
                QueryFormat::table) ==
          "maps\n----\n   1\n(1 row)\n\nlayers\n------\n     6\n(1 row)\n");
  }

  TEST_CASE("index query: CSV quoting") {
    QueryFixture f;
    CHECK(
        f.run(
            "SELECT 'a,b' AS x, 'say \"hi\"' AS y, NULL AS z, 3 AS n, 'two' || char(10) || 'lines' AS t",
            QueryFormat::csv) ==
        "x,y,z,n,t\n"
        "\"a,b\",\"say \"\"hi\"\"\",,3,\"two\nlines\"\n");
    CHECK(f.run("SELECT 1 AS a WHERE 0", QueryFormat::csv) == "a\n");
  }

  TEST_CASE("index query: JSON objects with typed values") {
    QueryFixture f;
    CHECK(f.run("SELECT 1 AS a, 'x\"y\\z' AS b, NULL AS c, 1.5 AS d, x'00ff' AS e",
                QueryFormat::json) ==
          "[\n{\"a\":1,\"b\":\"x\\\"y\\\\z\",\"c\":null,\"d\":1.5,\"e\":\"00ff\"}\n]\n");
    CHECK(f.run("SELECT 1 AS a WHERE 0", QueryFormat::json) == "[]\n");
    CHECK(f.run("SELECT 1 AS a UNION ALL SELECT 2", QueryFormat::json) ==
          "[\n{\"a\":1},\n{\"a\":2}\n]\n");
    // Control characters are escaped; Inf is null; invalid UTF-8 becomes U+FFFD
    // (its UTF-8 bytes), one per maximal subpart as in stored text and in CSV:
    // ff is one, e2 82 (a three-byte sequence cut short) is one too.
    const std::string fffd = "\xEF\xBF\xBD";
    CHECK(f.run("SELECT char(9) || 'é' || CAST(x'ff41e28242' AS TEXT) AS s, 1e999 AS inf",
                QueryFormat::json) ==
          "[\n{\"s\":\"\\té" + fffd + "A" + fffd + "B\",\"inf\":null}\n]\n");
  }

  TEST_CASE("index query: a text value is spelled as inspect --json and the audit spell it") {
    // One JSON writer and one control-character escape for every output: the
    // query's JSON, NDJSON and table against the writer's pretty layout (inspect,
    // audit) and the audit text report's printable(), for the same bytes:
    // a, U+0001, a quote, e2 82 (one maximal invalid subpart), ff, DEL.
    QueryFixture f;
    const std::string sql = "SELECT CAST(x'610122e282ff7f' AS TEXT) AS k";
    const std::string fffd = "\xEF\xBF\xBD";
    const std::string spelled = "\"a\\u0001\\\"" + fffd + fffd + "\x7f\"";
    CHECK(f.run(sql, QueryFormat::json) == "[\n{\"k\":" + spelled + "}\n]\n");
    CHECK(f.run(sql, QueryFormat::ndjson) == "{\"k\":" + spelled + "}\n");
    std::ostringstream pretty;
    JsonWriter(pretty)
        .begin_object()
        .field("k", std::string("a\x01\"\xE2\x82\xFF\x7f"))
        .end_object();
    CHECK(pretty.str() == "{\n  \"k\": " + spelled + "\n}\n");
    const std::string escaped = "a\\x01\"" + fffd + fffd + "\\x7f";
    CHECK(f.run(sql, QueryFormat::table) ==
          "k\n" + std::string(escaped.size() - 2 * fffd.size() + 2, '-') + "\n" + escaped +
              "\n(1 row)\n");
    CHECK(printable(to_valid_utf8("a\x01\"\xE2\x82\xFF\x7f")) == escaped);
  }

  TEST_CASE("index query: SQL errors give SQLite's message") {
    QueryFixture f;
    std::ostringstream out;
    auto missing = run_query(f.path, "SELECT * FROM mapz", QueryFormat::table, out);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == Code::query_sql);
    CHECK(missing.error().message == "no such table: mapz");
    auto syntax = run_query(f.path, "SELEC 1", QueryFormat::table, out);
    REQUIRE_FALSE(syntax.ok());
    CHECK(syntax.error().message.find("syntax error") != std::string::npos);
    auto empty = run_query(f.path, "  -- nothing\n", QueryFormat::table, out);
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().code == Code::query_empty);
    auto no_file = run_query(f.dir.file("nope.sqlite"), "SELECT 1", QueryFormat::table, out);
    REQUIRE_FALSE(no_file.ok());
    CHECK(no_file.error().code == Code::query_open);
    CHECK_FALSE(std::filesystem::exists(f.dir.file("nope.sqlite")));
    // SQLite reads SQL text up to a NUL byte: the rest is refused, not looped on.
    auto nul = run_query(f.path, std::string("SELECT 1;\0SELECT 2;", 19), QueryFormat::table, out);
    REQUIRE_FALSE(nul.ok());
    CHECK(nul.error().code == Code::query_sql);
    CHECK(nul.error().message == "the SQL holds a NUL byte (byte 9): SQL is text");
  }

  TEST_CASE("index query: writes are refused") {
    QueryFixture f;
    std::ostringstream out;
    const std::string attach = "ATTACH '" + f.dir.file("other.sqlite") + "' AS other";
    for (const std::string sql :
         {"DELETE FROM maps", "UPDATE maps SET size = 0", "DROP TABLE maps", "CREATE TABLE t (x)",
          "PRAGMA user_version = 9", attach.c_str()}) {
      auto result = run_query(f.path, sql, QueryFormat::table, out);
      CHECK_MESSAGE(!result.ok(), sql);
    }
    CHECK(f.run("SELECT count(*) AS n, sum(size) AS bytes FROM maps", QueryFormat::csv) ==
          "n,bytes\n1,1000\n");
    CHECK(f.run("PRAGMA user_version", QueryFormat::csv) ==
          "user_version\n" + std::to_string(latest_schema_version()) + "\n");
    CHECK_FALSE(std::filesystem::exists(f.dir.file("other.sqlite")));
  }

  TEST_CASE("index query: readers see committed rows while a writer holds a batch") {
    QueryFixture f;
    auto db = open_index(f.path);
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/more", index::SourceKind::folder);
    const auto stats = race_map(1);
    db.write_entry(run, map_entry(source, "b.map", 2), &stats);
    REQUIRE(db.pending_entries() == 1);
    // The batch is open (write lock held): the reader neither waits nor sees it.
    CHECK(f.run("SELECT count(*) AS n FROM files", QueryFormat::csv) == "n\n1\n");
    db.commit_batch();
    CHECK(f.run("SELECT count(*) AS n FROM files", QueryFormat::csv) == "n\n2\n");
    db.finish_run(run, index::RunStatus::complete, {});
  }

}  // TEST_SUITE
