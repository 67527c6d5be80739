// The SQLite layer (src/sqlite): named binding and its checks, the error a
// SQLite failure becomes, and the exit status that error gives the CLI.
#include <sqlite3.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "app/cli_parse.h"
#include "app/commands.h"
#include "sqlite/database.h"
#include "sqlite/statement.h"
#include "tests/support/archive_builder.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::sqlite;
using namespace mapindex::index::testing;

namespace {

// An in-memory database with one table t(a, b, c).
Connection memory_db() {
  Connection db;
  REQUIRE(db.open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) == SQLITE_OK);
  exec_sql(db.get(), "CREATE TABLE t (a INTEGER, b TEXT, c REAL)");
  return db;
}

// The message of the IndexError `f` throws ("" when it throws none).
template <class F>
std::string index_error_of(F&& f) {
  try {
    f();
  } catch (const IndexError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs `run` under run_guarded, returning its exit status and what it wrote
// to stderr.
std::pair<int, std::string> guarded(const std::function<int()>& run) {
  std::ostringstream err;
  auto* old = std::cerr.rdbuf(err.rdbuf());
  const int status = run_guarded("test", run);
  std::cerr.rdbuf(old);
  return {status, err.str()};
}

}  // namespace

TEST_SUITE("sqlite") {
  TEST_CASE("sqlite: bind_named binds each value to the parameter of its name, in any order") {
    auto db = memory_db();
    Statement insert(db.get(), "INSERT INTO t (a, b, c) VALUES (:a, :b, :c)");
    insert.bind_named(named(":c", 2.5), named(":a", 7), named(":b", std::string("x"))).run();
    Statement select(db.get(), "SELECT a, b, c FROM t");
    REQUIRE(select.step());
    CHECK(select.column_int(0) == 7);
    CHECK(select.column_text(1) == "x");
    CHECK(select.column_double(2) == 2.5);
  }

  TEST_CASE(
      "sqlite: bind_named refuses a name the statement lacks, a parameter left unbound or bound twice") {
    auto db = memory_db();
    Statement insert(db.get(), "INSERT INTO t (a, b, c) VALUES (:a, :b, :c)");
    const auto no_such = index_error_of(
        [&] { insert.bind_named(named(":a", 1), named(":b", "x"), named(":d", 2.0)); });
    CHECK_MESSAGE(contains(no_such, "has no parameter :d"), no_such);
    const auto unbound =
        index_error_of([&] { insert.bind_named(named(":a", 1), named(":c", 2.0)); });
    CHECK_MESSAGE(contains(unbound, "no value given for :b"), unbound);
    const auto twice = index_error_of(
        [&] { insert.bind_named(named(":a", 1), named(":b", "x"), named(":a", 2)); });
    CHECK_MESSAGE(contains(twice, "parameter :a of"), twice);
    CHECK_MESSAGE(contains(twice, "is given twice"), twice);
    // None of the refused bindings ran.
    CHECK(query_int(db.get(), "SELECT count(*) FROM t") == 0);
    // Positional binding keeps its count check.
    const auto count = index_error_of([&] { insert.bind_all(1, "x"); });
    CHECK_MESSAGE(contains(count, "takes 3 parameters, given 2"), count);
  }

  TEST_CASE(
      "sqlite: insert() returns the rowid of the row it inserted, and refuses a statement with rows") {
    auto db = memory_db();
    exec_sql(db.get(), "INSERT INTO t (rowid, a) VALUES (41, 0)");
    Statement insert(db.get(), "INSERT INTO t (a, b, c) VALUES (?, ?, ?)");
    std::vector<std::int64_t> ids;
    for (int a = 1; a <= 3; ++a) ids.push_back(insert.bind_all(a, "x", 1.0).insert());
    for (int a = 1; a <= 3; ++a)
      CHECK(ids[static_cast<std::size_t>(a - 1)] ==
            query_int(db.get(), "SELECT rowid FROM t WHERE a = " + std::to_string(a)));
    CHECK(ids == std::vector<std::int64_t>{42, 43, 44});
    Statement returning(db.get(), "INSERT INTO t (a) VALUES (9) RETURNING a");
    const auto refused = index_error_of([&] { returning.insert(); });
    CHECK_MESSAGE(contains(refused, "returned a row: not a plain INSERT"), refused);
    CHECK_FALSE(sqlite3_stmt_busy(returning.get()));  // reset, not left mid-statement
    // An insert that inserted nothing has no rowid of its own to give.
    exec_sql(db.get(), "CREATE TABLE u (k INTEGER PRIMARY KEY, v TEXT UNIQUE)");
    Statement ignoring(db.get(), "INSERT OR IGNORE INTO u (v) VALUES (?)");
    CHECK(ignoring.bind_all("x").insert() == 1);
    const auto ignored = index_error_of([&] { ignoring.bind_all("x").insert(); });
    CHECK_MESSAGE(contains(ignored, "inserted 0 rows, not one"), ignored);
    CHECK(ignoring.bind_all("y").insert() == 2);
  }

  TEST_CASE("sqlite: bind_named keeps working when SQLite prepares the statement again") {
    // A schema change makes SQLite prepare a statement again on its next
    // step, freeing what it held (its parameter names among it); bind_named
    // must not rely on them.
    auto db = memory_db();
    Statement insert(db.get(), "INSERT INTO t (a, b, c) VALUES (:a, :b, :c)");
    insert.bind_named(named(":a", 1), named(":b", "x"), named(":c", 1.0)).run();
    for (int i = 0; i < 3; ++i) {
      Statement alter(db.get(), "ALTER TABLE t ADD COLUMN extra" + std::to_string(i) + " INTEGER");
      alter.run();
      insert.bind_named(named(":a", 2 + i), named(":b", "y"), named(":c", 2.0)).run();
      // Names are still checked after the statement was prepared again.
      const auto no_such =
          index_error_of([&] { insert.bind_named(named(":a", 1), named(":zz", "x")); });
      CHECK_MESSAGE(contains(no_such, "has no parameter :zz"), no_such);
    }
    CHECK(query_int(db.get(), "SELECT sum(a) FROM t") == 1 + 2 + 3 + 4);
  }

  TEST_CASE("sqlite: prepare_first walks a script statement by statement, skipping comments") {
    auto db = memory_db();
    std::string_view sql = "SELECT 1; -- a comment\n SELECT 2 ;  ";
    auto first = Statement::prepare_first(db.get(), sql);
    REQUIRE(first);
    CHECK(first.sql() == "SELECT 1;");
    auto second = Statement::prepare_first(db.get(), sql);
    REQUIRE(second);
    CHECK(second.single_int() == 2);
    auto none = Statement::prepare_first(db.get(), sql);
    CHECK_FALSE(none);
    CHECK(sql.empty());
  }

  TEST_CASE(
      "sqlite: a full disk under the writer is index.io naming the index file, and exit status 3") {
    TempDir dir;
    const std::string path = dir.file("full.sqlite");
    auto db = open_index(path);
    // SQLite's own limit on the file's size: the next pages it needs fail
    // with SQLITE_FULL, as on a full disk.
    const auto pages = query_int(db.handle(), "PRAGMA page_count");
    REQUIRE(query_int(db.handle(), "PRAGMA max_page_count = " + std::to_string(pages + 2)) ==
            pages + 2);
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", index::SourceKind::folder);
    const auto stats = race_map();
    std::optional<IndexError> failure;
    for (int i = 1; i <= 200 && !failure; ++i) {
      try {
        db.write_entry(run, map_entry(source, "m" + std::to_string(i) + ".map", i), &stats);
        db.commit_batch();
      } catch (const IndexError& e) {
        failure = e;
      }
    }
    REQUIRE_MESSAGE(failure, "200 maps fit in 2 pages");
    CHECK((failure->sqlite_code() & 0xff) == SQLITE_FULL);
    CHECK(failure->code() == Code::index_io);
    CHECK(failure->file() == std::filesystem::canonical(path).string());
    CHECK_MESSAGE(contains(failure->what(), "database or disk is full"), failure->what());

    // What the CLI makes of it: exit status 3 and the file named.
    const auto [status, err] = guarded([&]() -> int { throw *failure; });
    CHECK(status == kExitIndex);
    CHECK_MESSAGE(contains(err, "mapindex test: index '" + failure->file() + "': "), err);
    CHECK_MESSAGE(contains(err, "database or disk is full"), err);
  }

  TEST_CASE("sqlite: open_sqlite_read_only reads the schema first, or only the header when asked") {
    mapindex::testing::TempDir tmp;
    const std::string path = tmp.file("db.sqlite");
    {
      Connection db;
      REQUIRE(db.open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) == SQLITE_OK);
      exec_sql(db.get(), "PRAGMA page_size = 4096; CREATE TABLE t (a); INSERT INTO t VALUES (1)");
    }
    // A whole file opens either way.
    CHECK(open_sqlite_read_only(path).ok());
    CHECK(open_sqlite_read_only(path, kBusyTimeoutMs, FirstRead::header).ok());
    // Page 1 past its 100-byte header is the schema's table: overwritten,
    // the schema cannot be read, but the header still can.
    {
      std::FILE* f = std::fopen(path.c_str(), "r+b");
      REQUIRE(f);
      const std::vector<unsigned char> junk(4096 - 100, 0xA5);
      REQUIRE(std::fseek(f, 100, SEEK_SET) == 0);
      REQUIRE(std::fwrite(junk.data(), 1, junk.size(), f) == junk.size());
      std::fclose(f);
    }
    const auto schema = open_sqlite_read_only(path);
    REQUIRE_FALSE(schema.ok());
    CHECK(schema.error().code == Code::index_damaged);
    CHECK(open_sqlite_read_only(path, kBusyTimeoutMs, FirstRead::header).ok());
    // Not SQLite at all: refused either way, with the same code.
    const std::string text = tmp.file("notes.txt");
    mapindex::testing::write_file(text, std::vector<std::uint8_t>(4096, 'x'));
    for (const auto first : {FirstRead::schema, FirstRead::header}) {
      const auto opened = open_sqlite_read_only(text, kBusyTimeoutMs, first);
      REQUIRE_FALSE(opened.ok());
      CHECK(opened.error().code == Code::index_not_sqlite);
    }
  }

  TEST_CASE(
      "sqlite: run_guarded: an unexpected exception is an internal error (70), not a usage error") {
    const auto [status, err] = guarded([]() -> int { throw std::logic_error("no such state"); });
    CHECK(status == kExitInternal);
    CHECK(status != kExitUsage);
    CHECK_MESSAGE(contains(err, "mapindex test: internal error: no such state"), err);
    CHECK(guarded([] { return 5; }).first == 5);
    // A misuse found by the wrapper (code index.sql) is still the index's: 3.
    CHECK(guarded([]() -> int { throw IndexError("bad", Code::index_sql); }).first == kExitIndex);
    CHECK(exit_status_for(Error{Code::internal, "x"}) == kExitInternal);
  }

}  // TEST_SUITE
