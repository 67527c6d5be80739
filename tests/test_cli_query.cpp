// Queries and commands people script: a mistyped command gets one
// line with a suggestion, `mapindex help COMMAND` and -V; `mapindex query`
// reads SQL from a file or stdin, binds -p parameters with their types, prints
// TSV and NDJSON, keeps CSV valid UTF-8 and cuts wide table cells only when
// asked to (on a terminal).
#include <doctest/doctest.h>

#include <sqlite3.h>

#include <fstream>
#include <set>
#include <sstream>

#include "app/cli_parse.h"
#include "query/query_runner.h"
#include "tests/support/process.h"
#include "tests/support/sqlite_probe.h"
#include "tests/test_index_helpers.h"

namespace fs = std::filesystem;
using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::sqlite;
using namespace mapindex::query;
using namespace mapindex::index::testing;
using mapindex::testing::contains;
using mapindex::testing::mapindex_binary;
using mapindex::testing::ProcessResult;
using mapindex::testing::run_mapindex;
using mapindex::testing::run_process;
using mapindex::testing::sql_int;
using mapindex::testing::sql_rows;
using mapindex::testing::sql_value;

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

// A plain SQLite database at `path` made by running `sql` (not an index:
// what a stats site would attach, e.g. ddnet.org's own data).
void make_database(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  const std::string message = error ? error : "";
  sqlite3_free(error);
  sqlite3_close(db);
  REQUIRE_MESSAGE(rc == SQLITE_OK, message);
}

// SmallIndex plus "ext.sqlite": a table mapinfo(name, points) with 3 rows,
// one of them for the index's map "a.map".
struct WithOtherDatabase : SmallIndex {
  std::string other = dir.file("ext.sqlite");
  std::string attach = "ATTACH '" + other + "' AS ext; ";
  WithOtherDatabase() {
    make_database(other,
                  "CREATE TABLE mapinfo (name TEXT PRIMARY KEY, points INTEGER);"
                  "INSERT INTO mapinfo VALUES ('a.map', 5), ('b.map', 10), ('c.map', 20)");
  }
};

// A stop function for run_query that says "stop" from its 50th poll on (the
// progress handler polls every 1000 virtual machine steps).
int g_polls = 0;
bool stop_after_polls() { return ++g_polls >= 50; }

// The words of `text` (split at whitespace), sorted.
std::vector<std::string> sorted_words(const std::string& text) {
  std::istringstream in(text);
  std::multiset<std::string> words{std::istream_iterator<std::string>(in), {}};
  return {words.begin(), words.end()};
}

// The sqlite3 shell's path, "" when it is not installed.
std::string sqlite3_shell() {
  auto p = run_process("/bin/sh", {"-c", "command -v sqlite3"});
  while (!p.out.empty() && p.out.back() == '\n') p.out.pop_back();
  return p.exit_code == 0 ? p.out : "";
}

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

  TEST_CASE("cli: shell_word quotes a word only when it must, in single or double quotes") {
    // The forms, written out by hand.
    CHECK(shell_word("maps/Gores_2.map") == "maps/Gores_2.map");
    CHECK(shell_word("a@b%c,d=e:f+g") == "a@b%c,d=e:f+g");
    CHECK(shell_word("a b") == "'a b'");
    CHECK(shell_word("") == "''");
    CHECK(shell_word("it's") == "'it'\\''s'");
    CHECK(shell_word("SELECT 'x'", true) == "\"SELECT 'x'\"");
    CHECK(shell_word("a b", true) == "\"a b\"");
    CHECK(shell_word("$HOME", true) == "'$HOME'");
  }

  TEST_CASE("cli e2e: shell_word gives each word back through /bin/sh, either way it quotes") {
    const std::vector<std::string> words = {"plain.map",
                                            "a b",
                                            "",
                                            "it's",
                                            "$HOME",
                                            "`id`",
                                            "a\\b",
                                            "say \"hi\"",
                                            "wow!",
                                            "SELECT * FROM maps WHERE name = 'x' AND n > 2",
                                            "tab\there",
                                            "*.map",
                                            "a;b|c&d",
                                            "~user",
                                            "#not a comment"};
    for (const bool double_quotes : {false, true})
      for (const auto& word : words) {
        const auto r =
            run_process("/bin/sh", {"-c", "printf %s " + shell_word(word, double_quotes)});
        CHECK(r.exit_code == 0);
        CHECK_MESSAGE(r.out == word, shell_word(word, double_quotes));
      }
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

  TEST_CASE("cli e2e: check given a FILE says check verifies an index and points to inspect") {
    SmallIndex f;
    const auto map = f.dir.file("my.map"), spaced = f.dir.file("Gores of Diamonds.map");
    auto r = run_mapindex({"check", map});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err ==
          "mapindex check: check verifies an index (--db FILE) and takes no FILE; to check a map, "
          "run: mapindex inspect " +
              map + "\n");
    // Quoted for the shell when it must be; several files are all named.
    r = run_mapindex({"check", "--db", f.path, spaced, map});
    CHECK(r.exit_code == 2);
    CHECK(r.err ==
          "mapindex check: check verifies an index (--db FILE) and takes no FILE; to check maps, "
          "run: mapindex inspect '" +
              spaced + "' " + map + "\n");
    // An index given without --db: the command with --db.
    r = run_mapindex({"check", f.path});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "mapindex check: the index to check is given with --db: mapindex check --db " +
                       f.path + "\n");
    // The help says where maps are checked.
    r = run_mapindex({"check", "--help"});
    CHECK(contains(r.out, "mapindex inspect FILE.map"));
  }

}  // TEST_SUITE

TEST_SUITE("query") {
  TEST_CASE("query: ATTACH joins another database, and the statements after it see it") {
    WithOtherDatabase f;
    // The statement after the ATTACH is prepared once the ATTACH has run.
    CHECK(f.run(f.attach + "SELECT count(*) AS n FROM ext.mapinfo", {.format = QueryFormat::csv}) ==
          "n\n3\n");
    // A join of the index with the other database.
    CHECK(f.run(f.attach + "SELECT f.entry_path, e.points FROM files f "
                           "JOIN ext.mapinfo e ON e.name = f.entry_path",
                {.format = QueryFormat::csv}) == "entry_path,points\na.map,5\n");
    // ATTACH with a parameter; DETACH; the same name attached again.
    CHECK(f.run("ATTACH :db AS ext; SELECT count(*) AS n FROM ext.mapinfo; DETACH ext; "
                "ATTACH :db AS ext; SELECT max(points) AS m FROM ext.mapinfo",
                {.format = QueryFormat::csv, .parameters = {{"db", f.other}}}) == "n\n3\nm\n20\n");
    // After a DETACH the name is gone: refused before anything prints.
    std::string out;
    auto r = f.query(f.attach + "SELECT 1 AS one; DETACH ext; SELECT count(*) FROM ext.mapinfo", {},
                     out);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == Code::query_sql);
    CHECK(r.error().message == "no such table: ext.mapinfo");
    CHECK(out.empty());
  }

  TEST_CASE("query: an attached database is read-only: writes are refused, nothing is created") {
    WithOtherDatabase f;
    std::string out;
    for (const std::string& write :
         {std::string("INSERT INTO ext.mapinfo VALUES ('d.map', 1)"),
          std::string("CREATE TABLE ext.t (x)"), std::string("DELETE FROM ext.mapinfo")}) {
      INFO(write);
      auto r = f.query(f.attach + "SELECT 1 AS one; " + write, {}, out);
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().code == Code::query_write);
      CHECK(r.error().message ==
            "`" + write + "` would write: mapindex query only reads the index");
      CHECK(out.empty());
    }
    CHECK(sql_int(f.other, "SELECT count(*) FROM mapinfo") == 3);
    // Opened read-only: attaching a file that does not exist fails and
    // creates none (a read-write open would create it).
    const auto missing = f.dir.file("missing.sqlite");
    auto r = f.query("SELECT 1 AS one; ATTACH '" + missing + "' AS m; SELECT 2", {}, out);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == Code::query_sql);
    CHECK(r.error().message ==
          "`ATTACH '" + missing + "' AS m`: unable to open database: " + missing);
    CHECK(out.empty());
    CHECK_FALSE(fs::exists(missing));
    // A file that is not a database is the query's fault, named by its statement.
    const auto notes = f.write_sql("notes.txt", std::string(4096, 'x'));
    r = f.query("ATTACH '" + notes + "' AS n", {}, out);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == Code::query_sql);
    CHECK(r.error().message == "`ATTACH '" + notes + "' AS n`: file is not a database");
  }

  TEST_CASE("query: parameters and Ctrl-C work across an ATTACH and the statements after it") {
    WithOtherDatabase f;
    std::string out;
    const std::string sql =
        f.attach + "SELECT :a AS a; SELECT count(*) FROM ext.mapinfo WHERE points > :b";
    auto r = f.query(sql, {.parameters = {{"a", std::int64_t{1}}}}, out);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "no value for :b (give it with -p b=VALUE)");
    CHECK(out.empty());
    r = f.query(
        sql,
        {.parameters = {{"a", std::int64_t{1}}, {"b", std::int64_t{6}}, {"c", std::int64_t{0}}}},
        out);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "-p c is given but the SQL has no :c");
    CHECK(out.empty());
    CHECK(f.run(sql, {.format = QueryFormat::csv,
                      .parameters = {{"a", std::int64_t{1}}, {"b", std::int64_t{6}}}}) ==
          "a\n1\ncount(*)\n2\n");

    // A statement that would never end, after an ATTACH and a first result:
    // the stop function ends it.
    g_polls = 0;
    std::ostringstream stream;
    auto stopped = run_query(f.path,
                             f.attach +
                                 "SELECT count(*) AS n FROM ext.mapinfo; "
                                 "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
                                 "FROM c) SELECT count(*) FROM c",
                             QueryOptions{.format = QueryFormat::csv}, stream, stop_after_polls);
    REQUIRE_FALSE(stopped.ok());
    CHECK(stopped.error().code == Code::query_interrupted);
    CHECK(stream.str().starts_with("n\n3\n"));
  }

  TEST_CASE("query e2e: the command joins an attached index and prints the count") {
    SmallIndex f;
    OneMapIndex other;
    auto r =
        run_mapindex({"query", "--db", f.path, "--csv",
                      "ATTACH '" + other.path + "' AS ext; SELECT count(*) AS n FROM ext.maps"});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out == "n\n" + std::to_string(sql_int(other.path, "SELECT count(*) FROM maps")) + "\n");
    r = run_mapindex({"query", "--db", f.path,
                      "ATTACH '" + other.path + "' AS ext; INSERT INTO ext.runs DEFAULT VALUES"});
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(contains(r.err, "would write: mapindex query only reads the index"), r.err);
  }

  TEST_CASE("query e2e: .tables and .schema answer as the sqlite3 shell does") {
    WithOtherDatabase f;
    const auto tables = f.run(".tables", {});
    // Every table and view of the index, one per line, no header.
    const auto names = sql_rows(f.path,
                                "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') "
                                "AND substr(name, 1, 7) <> 'sqlite_' ORDER BY name");
    std::string expected;
    for (const auto& row : names) expected += row[0] + "\n";
    REQUIRE(names.size() > 10);
    CHECK(tables == expected);
    // A pattern, and the attached database's tables after the index's.
    CHECK(f.run(".tables map\\_%", {}).find("maps\n") == std::string::npos);
    CHECK(f.run(".tables maps", {}) == "maps\n");
    CHECK(f.run(f.attach + ".tables %info", {}).ends_with("ext.mapinfo\n"));
    CHECK(f.run(f.attach + ".tables ext.%", {}) == "ext.mapinfo\n");
    // Another database's statements name it; a view's columns follow it.
    CHECK(f.run(f.attach + ".schema ext.mapinfo", {}) ==
          "CREATE TABLE ext.mapinfo (name TEXT PRIMARY KEY, points INTEGER);\n");
    CHECK(f.run(".schema map_names", {})
              .ends_with("\n/* map_names(" +
                         sql_value(f.path,
                                   "SELECT group_concat(name, ',') FROM "
                                   "pragma_table_info('map_names')") +
                         ") */;\n"));
    // Other formats print through their printer, without the ';'.
    CHECK(f.run(f.attach + ".schema ext.mapinfo", {.format = QueryFormat::ndjson}) ==
          "{\"sql\":\"CREATE TABLE ext.mapinfo (name TEXT PRIMARY KEY, points INTEGER)\"}\n");
    // Mixed with SQL, on its own line or after a ';'.
    CHECK(f.run("SELECT 1 AS one;\n.tables maps\nSELECT 2 AS two", {.format = QueryFormat::csv}) ==
          "one\n1\nname\nmaps\ntwo\n2\n");
    CHECK(f.run("/* list */ .tables maps; SELECT 2 AS two", {.format = QueryFormat::csv}) ==
          "name\nmaps\ntwo\n2\n");

    std::string out;
    auto r = f.query(".mode csv", {}, out);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == Code::query_sql);
    CHECK(
        r.error().message.starts_with("unknown dot-command '.mode': mapindex query knows .tables"));
    r = f.query(".tables a b", {}, out);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "`.tables` takes one PATTERN at most, not 2");

    const std::string sqlite3 = sqlite3_shell();
    if (sqlite3.empty()) {
      MESSAGE("no sqlite3 shell: .tables and .schema not compared with it");
      return;
    }
    // The shell's own answers: the same names (it prints them in columns)
    // and the same CREATE statements.
    const auto shell = [&](const std::string& command) {
      const auto p = run_process(sqlite3, {"-readonly", f.path, command});
      REQUIRE_MESSAGE(p.exit_code == 0, p.err);
      return p.out;
    };
    CHECK(sorted_words(shell(".tables")) == sorted_words(tables));
    for (const char* pattern : {"maps", "files", "ddnet_mapinfo", "%names", "map*", "MAP*",
                                "maps_by_status", "main.maps", "main.m%", ""}) {
      INFO(pattern);
      CHECK(f.run(std::string(".schema ") + pattern, {}) ==
            shell(std::string(".schema ") + pattern));
    }
    // With the other database attached (the shell attaches it by a command
    // of its own).
    const auto attached = [&](const std::string& command) {
      const auto p =
          run_process(sqlite3, {"-readonly", f.path, "ATTACH '" + f.other + "' AS ext", command});
      REQUIRE_MESSAGE(p.exit_code == 0, p.err);
      return p.out;
    };
    CHECK(sorted_words(attached(".tables")) == sorted_words(f.run(f.attach + ".tables", {})));
    for (const char* pattern : {"mapinfo", "ext.%", "%info", "runs"}) {
      INFO(pattern);
      CHECK(f.run(f.attach + ".schema " + pattern, {}) ==
            attached(std::string(".schema ") + pattern));
    }
  }
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
