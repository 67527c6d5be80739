// Queries and commands people script: a mistyped command gets one
// line with a suggestion, `mapindex help COMMAND` and -V; `mapindex query`
// reads SQL from a file or stdin, binds -p parameters with their types, prints
// TSV and NDJSON, keeps CSV valid UTF-8 and cuts wide table cells only when
// asked to (on a terminal).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "pipeline/cli_parse.h"
#include "stages/query/query_runner.h"
#include "tests/support/process.h"
#include "tests/test_index_helpers.h"

namespace fs = std::filesystem;
using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::index::testing;
using mapindex::testing::mapindex_binary;
using mapindex::testing::ProcessResult;
using mapindex::testing::run_mapindex;
using mapindex::testing::run_process;

namespace {

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// An index with one map ("a.map", race_map()).
struct SmallIndex : OneMapIndex {
  Result<std::int64_t> query(const std::string& sql, const QueryOptions& options,
                             std::string& out) {
    std::ostringstream stream;
    auto result = run_query(path, sql, options, stream);
    out = stream.str();
    return result;
  }

  std::string run(const std::string& sql, const QueryOptions& options) {
    std::string out;
    auto result = query(sql, options, out);
    if (!result) FAIL(sql << ": " << result.error().to_string());
    return out;
  }

  std::string write_sql(const std::string& name, const std::string& sql) {
    const auto file = dir.file(name);
    std::ofstream(file, std::ios::binary) << sql;
    return file;
  }
};

}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("cli: closest_match suggests a command at most two edits away") {
    const std::vector<std::string> commands = {"index", "query", "inspect", "audit", "check"};
    CHECK(edit_distance("indx", "index") == 1);
    CHECK(edit_distance("qeury", "query") == 2);
    CHECK(edit_distance("", "abc") == 3);
    CHECK(closest_match("indx", commands) == std::optional<std::string>("index"));
    CHECK(closest_match("chekc", commands) == std::optional<std::string>("check"));
    CHECK(closest_match("inspcet", commands) == std::optional<std::string>("inspect"));
    CHECK_FALSE(closest_match("frobnicate", commands));
    CHECK_FALSE(closest_match("x", commands));
  }

  TEST_CASE("cli e2e: a mistyped command prints one line with a suggestion and exits 2") {
    auto r = run_mapindex({"indx", "maps/"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(
        r.err ==
        "mapindex: unknown command 'indx'; did you mean 'index'? (mapindex --help lists the commands)\n");
    r = run_mapindex({"frobnicate"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "mapindex: unknown command 'frobnicate' (mapindex --help lists the commands)\n");
    r = run_mapindex({"--bogus"});
    CHECK(r.exit_code == 2);
    CHECK(count_lines(r.err) == 1);
  }

  TEST_CASE("cli e2e: mapindex help COMMAND is mapindex COMMAND --help, -V is --version") {
    for (const char* command : {"index", "query", "inspect", "audit", "check"}) {
      INFO(command);
      const auto help = run_mapindex({"help", command});
      const auto direct = run_mapindex({command, "--help"});
      CHECK(help.exit_code == 0);
      CHECK(help.out == direct.out);
      CHECK(help.out.find(std::string("mapindex ") + command) != std::string::npos);
    }
    auto r = run_mapindex({"help", "qurey"});
    CHECK(r.exit_code == 2);
    CHECK(
        r.err ==
        "mapindex: unknown command 'qurey'; did you mean 'query'? (mapindex --help lists the commands)\n");
    r = run_mapindex({"help"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("Commands:") != std::string::npos);

    const auto version = run_mapindex({"--version"});
    r = run_mapindex({"-V"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == version.out);
    CHECK(r.out.rfind("mapindex " MAPINDEX_VERSION, 0) == 0);
  }

}  // TEST_SUITE

TEST_SUITE("query") {
  TEST_CASE("query: TSV escapes tabs, newlines and backslashes so every row is one line") {
    SmallIndex f;
    const std::string tab = "char(9)", nl = "char(10)";
    CHECK(f.run("SELECT 'a' || " + tab + " || 'b' AS \"x y\", 'c' || " + nl +
                    " || 'd\\e' AS t, NULL AS z, 3 AS n, "
                    "x'00ff' AS b",
                {.format = QueryFormat::tsv}) ==
          "x y\tt\tz\tn\tb\n"
          "a\\tb\tc\\nd\\\\e\t\t3\t00ff\n");
    CHECK(f.run("SELECT 1 AS a WHERE 0", {.format = QueryFormat::tsv}) == "a\n");
  }

  TEST_CASE("query: NDJSON prints one object per line and nothing else") {
    SmallIndex f;
    CHECK(f.run("SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, NULL",
                {.format = QueryFormat::ndjson}) ==
          "{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":null}\n");
    CHECK(f.run("SELECT 1 AS a WHERE 0", {.format = QueryFormat::ndjson}).empty());
    // Two result sets simply continue the stream.
    CHECK(f.run("SELECT 1 AS a; SELECT 'z' AS b", {.format = QueryFormat::ndjson}) ==
          "{\"a\":1}\n{\"b\":\"z\"}\n");
  }

  TEST_CASE("query: CSV and TSV are valid UTF-8: invalid bytes become U+FFFD") {
    SmallIndex f;
    // ff is never valid; e2 82 is a truncated three-byte sequence: one U+FFFD.
    const std::string sql = "SELECT CAST(x'41ff42e28243' AS TEXT) AS s, 'Kühl' AS k";
    const std::string fffd = "\xEF\xBF\xBD";
    CHECK(f.run(sql, {.format = QueryFormat::csv}) == "s,k\nA" + fffd + "B" + fffd + "C,Kühl\n");
    CHECK(f.run(sql, {.format = QueryFormat::tsv}) == "s\tk\nA" + fffd + "B" + fffd + "C\tKühl\n");
    CHECK(f.run(sql, {.format = QueryFormat::table}) ==
          "s      k\n-----  ----\nA" + fffd + "B" + fffd + "C  Kühl\n(1 row)\n");
  }

  TEST_CASE("query: a table cell wider than the cap is cut with an ellipsis, other formats never") {
    SmallIndex f;
    // 12 characters, two of them two bytes long; the cap is 8 code points.
    const std::string sql = "SELECT 'ääbbccddeeff' AS long, 'short' AS s";
    CHECK(f.run(sql, {.format = QueryFormat::table, .max_cell_width = 8}) ==
          "long      s\n"
          "--------  -----\n"
          "ääbbccd…  short\n"
          "(1 row)\n");
    CHECK(f.run(sql, {.format = QueryFormat::table}).find("ääbbccddeeff") != std::string::npos);
    for (const auto format :
         {QueryFormat::csv, QueryFormat::tsv, QueryFormat::json, QueryFormat::ndjson})
      CHECK(f.run(sql, {.format = format, .max_cell_width = 8}).find("ääbbccddeeff") !=
            std::string::npos);
  }

  TEST_CASE("query: -p parameters bind :name, @name and $name with their types") {
    SmallIndex f;
    QueryOptions options{
        .format = QueryFormat::csv,
        .parameters = {{"i", std::int64_t{12}}, {"r", 1.5}, {"t", std::string("a.map")}}};
    CHECK(
        f.run("SELECT typeof(:i) AS a, typeof(@r) AS b, typeof($t) AS c, :i + 1 AS d, @r * 2 AS e",
              options) == "a,b,c,d,e\ninteger,real,text,13,3.0\n");
    // A parameter used twice and in two statements is bound everywhere.
    CHECK(f.run("SELECT count(*) AS n FROM files WHERE entry_path = $t AND :i = :i; SELECT :r AS r",
                options) == "n\n1\nr\n1.5\n");

    std::string out;
    auto missing = f.query("SELECT :i, :nope", options, out);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == Code::query_parameter);
    CHECK(missing.error().message == "no value for :nope (give it with -p nope=VALUE)");
    auto unused = f.query("SELECT 1; SELECT :i, @r", options, out);
    REQUIRE_FALSE(unused.ok());
    CHECK(unused.error().message == "-p t is given but the SQL has no :t");
    CHECK(out.empty());  // checked before the first statement prints
    auto nameless = f.query("SELECT ?", {}, out);
    REQUIRE_FALSE(nameless.ok());
    CHECK(nameless.error().code == Code::query_parameter);
  }

  TEST_CASE("query: a statement that would write is refused before any statement prints") {
    SmallIndex f;
    std::string out;
    auto r = f.query("SELECT 1 AS a; DELETE FROM maps", {}, out);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == Code::query_write);
    CHECK(out.empty());
  }

  TEST_CASE("query e2e: the command reads SQL from -f FILE, -f - and -, and types -p values") {
    SmallIndex f;
    const auto sql_file = f.write_sql("q.sql",
                                      "-- a comment\nSELECT typeof(:n) AS a, typeof(:r) AS b,\n"
                                      "  typeof(:t) AS c, typeof(:z) AS d, :n + 1 AS e, :t AS f\n");
    const std::vector<std::string> params = {"-p", "n=41",           "-p", "r=2.5e1",
                                             "-p", ":t=hello world", "-p", "z=007"};
    const std::string expected = "a,b,c,d,e,f\ninteger,real,text,text,42,hello world\n";
    auto with = [&](std::vector<std::string> args) {
      std::vector<std::string> all = {"query", "--db", f.path, "--csv"};
      all.insert(all.end(), params.begin(), params.end());
      all.insert(all.end(), args.begin(), args.end());
      return all;
    };
    auto r = run_mapindex(with({"-f", sql_file}));
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out == expected);
    r = run_mapindex(with({"-f", "-"}), sql_file);
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out == expected);
    r = run_mapindex(with({"-"}), sql_file);
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out == expected);

    // Usage errors: SQL twice, a missing file, -p without '=', a missing value.
    r = run_mapindex(with({"-f", sql_file, "SELECT 1"}));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("either with -f FILE or as arguments") != std::string::npos);
    r = run_mapindex({"query", "--db", f.path, "-f", f.dir.file("missing.sql")});
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(r.err == "mapindex query: cannot read SQL from " + f.dir.file("missing.sql") +
                               ": No such file or directory\n",
                  r.err);
    r = run_mapindex({"query", "--db", f.path, "-p", "novalue", "SELECT 1"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "mapindex query: -p needs NAME=VALUE, not 'novalue'\n");
    r = run_mapindex({"query", "--db", f.path, "SELECT :x"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "mapindex query: no value for :x (give it with -p x=VALUE)\n");
  }

  TEST_CASE("query e2e: the command prints TSV and NDJSON and never cuts cells off a terminal") {
    SmallIndex f;
    const std::string long_text(100, 'w');
    auto r = run_mapindex({"query", "--db", f.path, "--tsv", "SELECT 'a' AS x, 2 AS y"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "x\ty\na\t2\n");
    r = run_mapindex({"query", "--db", f.path, "--ndjson", "SELECT 'a' AS x UNION ALL SELECT 'b'"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "{\"x\":\"a\"}\n{\"x\":\"b\"}\n");
    r = run_mapindex({"query", "--db", f.path, "--tsv", "--ndjson", "SELECT 1"});
    CHECK(r.exit_code == 2);
    // Standard output is a pipe here: the table keeps the whole cell.
    r = run_mapindex({"query", "--db", f.path, "SELECT '" + long_text + "' AS w"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find(long_text) != std::string::npos);
  }

  TEST_CASE("query e2e: on a terminal the table cuts cells at 60 characters, --wide keeps them") {
    if (!fs::exists("/usr/bin/script")) {
      MESSAGE("no /usr/bin/script to give mapindex a terminal: not tested");
      return;
    }
    SmallIndex f;
    const std::string sql = "SELECT printf('%.70c', 'x') AS w, 'ok' AS s";
    // script(1) runs the command with a pseudo-terminal as its standard output.
    auto on_terminal = [&](const std::string& extra) {
      return run_process(
          "/usr/bin/script",
          {"-qec", mapindex_binary() + " query --db " + f.path + extra + " \"" + sql + "\"",
           "/dev/null"});
    };
    auto r = on_terminal("");
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK_MESSAGE(r.out.find(std::string(59, 'x') + "…  ok") != std::string::npos, r.out);
    CHECK(r.out.find(std::string(60, 'x')) == std::string::npos);
    r = on_terminal(" --wide");
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK_MESSAGE(r.out.find(std::string(70, 'x') + "  ok") != std::string::npos, r.out);
  }

}  // TEST_SUITE
