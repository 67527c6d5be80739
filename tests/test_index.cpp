// The index: schema creation, versions and migrations, and the writer
// (content addressing, idempotence, re-measuring, runs, file history).
#include <sqlite3.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include <fstream>
#include <map>
#include <numeric>
#include <regex>
#include <sstream>
#include <tuple>

#include "common/background.h"
#include "extract/teeworlds_tile_names.h"
#include "index/index_db.h"
#include "index/migrations.h"
#include "index/tile_names.h"
#include "tests/support/codes.h"
#include "tests/test_index_helpers.h"

using namespace mapindex;
using namespace mapindex::index;
using namespace mapindex::sqlite;
using namespace mapindex::index::testing;

namespace {

// Sets PRAGMA user_version of an existing file directly.
void set_user_version(const std::string& path, int version) {
  Connection db;
  REQUIRE(db.open(path, SQLITE_OPEN_READWRITE) == SQLITE_OK);
  exec_sql(db.get(), "PRAGMA user_version = " + std::to_string(version));
}

Migrations with_test_migration(const std::string& sql) {
  Migrations migrations = default_migrations();
  migrations.push_back({latest_schema_version() + 1, "999_test.sql", sql});
  return migrations;
}

// Writes race_map(0) as "maps/a.map" of a folder source in one complete run.
std::int64_t index_one_map(IndexDb& db, int content = 1) {
  const auto run = db.begin_run("test", "0.0-test");
  const auto source = db.source_id(run, "/srv/maps", index::SourceKind::folder);
  const auto stats = race_map();
  db.write_entry(run, map_entry(source, "maps/a.map", content), &stats);
  db.finish_run(run, index::RunStatus::complete, {});
  return run;
}

// Tables of the index whose INSERT of every column opens a temporary B-tree
// (OpenEphemeral in its program): SQLite does so, once per execution, for a
// CHECK's `x IN (a, b, c)`.
std::vector<std::string> ephemeral_tables(sqlite3* db) {
  std::vector<std::string> found;
  for (const auto& table : table_names(db)) {
    std::string columns, values;
    for (const auto& c : column_names(db, table)) {
      columns += (columns.empty() ? "" : ", ") + c;
      values += values.empty() ? "NULL" : ", NULL";
    }
    Statement explain(
        db, "EXPLAIN INSERT INTO " + table + " (" + columns + ") VALUES (" + values + ")");
    bool ephemeral = false;
    while (explain.step()) ephemeral = ephemeral || explain.column_text(1) == "OpenEphemeral";
    if (ephemeral) found.push_back(table);
  }
  return found;
}

// How many tables' SQL still holds an IN list.
std::int64_t tables_with_in_lists(sqlite3* db) {
  return query_int(
      db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND sql LIKE '% IN (%'");
}

// Per column of `table`, the values its `CHECK (column IN (...))` lists, as
// SQL literals (as migrations 1-8 wrote the lists).
std::map<std::string, std::vector<std::string>> check_value_lists(sqlite3* db,
                                                                  const std::string& table) {
  static const std::regex check_list(R"(CHECK \((\w+) IN \(([^)]*)\)\))");
  const std::string sql =
      query_text(db, "SELECT sql FROM sqlite_schema WHERE name = '" + table + "'");
  std::map<std::string, std::vector<std::string>> lists;
  for (std::sregex_iterator m(sql.begin(), sql.end(), check_list), end; m != end; ++m) {
    std::stringstream items((*m)[2].str());
    for (std::string item; std::getline(items, item, ',');)
      lists[(*m)[1]].push_back(item.substr(item.find_first_not_of(" \n")));
  }
  return lists;
}

// SQL literals for the foreign key columns of `table` that point at rows
// which exist: row `n` gets the n-th combination of parent rows, so rows
// whose key is made of foreign keys stay distinct.
std::map<std::string, std::string> parent_literals(sqlite3* db, const std::string& table,
                                                   std::int64_t n) {
  std::map<std::string, std::string> literals;  // column -> SQL literal
  std::vector<std::string> from;
  std::string parent, quoted, id;
  const auto take = [&] {
    if (from.empty()) return;
    const auto count = query_int(db, "SELECT count(*) FROM " + parent);
    REQUIRE_MESSAGE(count > 0, table << " -> " << parent);
    std::stringstream values(query_text(db, "SELECT " + quoted + " FROM " + parent +
                                                " LIMIT 1 OFFSET " + std::to_string(n % count)));
    n /= count;
    for (const auto& f : from) std::getline(values, literals[f], '|');
    from.clear();
    quoted.clear();
  };
  for (const auto& fk : query_rows(db,
                                   "SELECT id, \"table\", \"from\", \"to\" FROM "
                                   "pragma_foreign_key_list('" +
                                       table + "') ORDER BY id, seq")) {
    std::stringstream fields(fk);
    std::string fk_id, fk_parent, fk_from, fk_to;
    for (auto* field : {&fk_id, &fk_parent, &fk_from, &fk_to}) std::getline(fields, *field, '|');
    if (fk_id != id) take();
    id = fk_id;
    parent = fk_parent;
    from.push_back(fk_from);
    quoted += (quoted.empty() ? "quote(" : ", quote(") + fk_to + ")";
  }
  take();
  return literals;
}

// An INSERT of row number `row` of `table` whose `column` holds `value` (an
// SQL literal): the table's other listed columns hold their first value,
// foreign keys point at existing rows, and every other column holds a number
// or hex text unique to the row. Honours the two checks across columns: a
// file has a map_id when it is a map; a problem belongs to a map or a file.
std::string probe_insert(sqlite3* db, const std::string& table, const std::string& column,
                         const std::string& value,
                         const std::map<std::string, std::vector<std::string>>& lists, int row) {
  const auto parents = parent_literals(db, table, row);
  std::string columns, literals;
  for (const auto& info :
       query_rows(db, "SELECT name, type FROM pragma_table_info('" + table + "')")) {
    const std::string name = info.substr(0, info.find('|'));
    const std::string type = info.substr(info.find('|') + 1);
    if (!columns.empty()) {
      columns += ", ";
      literals += ", ";
    }
    columns += name;
    // (The kind of a file row is `value` when kind is the probed column, else 'map'.)
    const bool no_map =
        table == "files" && name == "map_id" && column == "kind" && value != "'map'";
    if (name == column)
      literals += value;
    else if (no_map || (table == "problems" && name == "file_id"))
      literals += "NULL";
    else if (lists.count(name))
      literals += lists.at(name).front();
    else if (parents.count(name))
      literals += parents.at(name);
    else if (type == "TEXT")
      literals += "'" + sha_of(row) + "'";
    else
      literals += std::to_string(row);
  }
  return "INSERT INTO " + table + " (" + columns + ") VALUES (" + literals + ")";
}
}  // namespace

TEST_SUITE("index") {
  TEST_CASE("index: a new index has the latest schema version, WAL mode and every table") {
    TempDir dir;
    auto db = open_index(dir.file("new.sqlite"));
    // The latest version is the number of migrations in schema/ (NNN_*.sql, from 001 on).
    int migrations = 0;
    for (const auto& f :
         std::filesystem::directory_iterator(std::string(MAPINDEX_SOURCE_DIR) + "/schema"))
      if (f.path().extension() == ".sql") ++migrations;
    CHECK(migrations >= 4);
    CHECK(latest_schema_version() == migrations);
    CHECK(db.schema_version() == migrations);
    CHECK(query_int(db.handle(), "PRAGMA user_version") == migrations);
    CHECK(query_int(db.handle(), "PRAGMA application_id") == kApplicationId);
    CHECK(query_text(db.handle(), "PRAGMA journal_mode") == "wal");
    CHECK(query_int(db.handle(), "PRAGMA foreign_keys") == (kEnforceForeignKeys ? 1 : 0));
    // NORMAL (1) for writing, new or not: not the OFF (0) a new file is
    // switched to WAL at, nor the default FULL (2).
    CHECK(query_int(db.handle(), "PRAGMA synchronous") == 1);
    CHECK(query_int(open_index(dir.file("new.sqlite")).handle(), "PRAGMA synchronous") == 1);

    // The tables docs/schema.md documents, by name.
    const auto tables = table_names(db.handle());
    for (const char* required :
         {"runs", "sources", "files", "maps", "layer_data", "layer_data_tiles",
          "layer_data_entities", "layer_data_numbers", "layer_data_findings", "problems",
          "tile_names", "layer_defs", "map_layers", "map_bodies", "feature_sets",
          "thumbnail_images", "map_parts"})
      CHECK_MESSAGE(std::find(tables.begin(), tables.end(), required) != tables.end(), required);
    const auto views =
        query_rows(db.handle(), "SELECT name FROM sqlite_schema WHERE type = 'view'");
    for (const char* required :
         {"file_overview", "ddnet_mapinfo", "unused_images", "maps_with_errors", "tile_counts",
          "entities", "layer_numbers", "settings", "groups", "layers", "images", "envelopes",
          "sounds", "ddnet_features", "thumbnails"})
      CHECK_MESSAGE(std::find(views.begin(), views.end(), required) != views.end(), required);
  }

  TEST_CASE("index: a new index from the schema snapshot equals one that ran every migration") {
    TempDir dir;
    OpenOptions one_by_one;
    one_by_one.fresh_schema = nullptr;
    auto snapshot = open_index(dir.file("snapshot.sqlite"));
    auto migrated = open_index(dir.file("migrated.sqlite"), one_by_one);
    const std::string schema =
        "SELECT type || ' ' || name || ' ON ' || tbl_name || ': ' || coalesce(sql, '') "
        "FROM sqlite_schema ORDER BY type, name";
    const auto expected = query_rows(migrated.handle(), schema);
    CHECK(expected.size() > 40);  // every table, index and view of schema/
    CHECK(query_rows(snapshot.handle(), schema) == expected);
    for (const char* pragma : {"PRAGMA user_version", "PRAGMA application_id"})
      CHECK(query_int(snapshot.handle(), pragma) == query_int(migrated.handle(), pragma));
    // The migrations add columns at the end of each table, so a table that
    // ran them is listed before views created earlier; the snapshot creates
    // every table first.
    const std::string first_view = "SELECT min(rowid) FROM sqlite_schema WHERE type = 'view'";
    const std::string last_table = "SELECT max(rowid) FROM sqlite_schema WHERE type = 'table'";
    CHECK(query_int(snapshot.handle(), last_table) < query_int(snapshot.handle(), first_view));
    CHECK(query_int(migrated.handle(), last_table) > query_int(migrated.handle(), first_view));
  }

  // A run makes a new index's schema on a thread while it reads its first
  // entries (OpenOptions::create_in_background): the twin of making it at open.
  TEST_CASE("index: a new index made in the background equals one made at open") {
    TempDir dir;
    OpenOptions background;
    background.create_in_background = true;
    auto at_open = open_index(dir.file("at-open.sqlite"));
    auto made = open_index(dir.file("background.sqlite"), background);
    CHECK(made.created());
    CHECK(made.known_maps().empty());  // waits for the schema, then asks it
    CHECK_FALSE(made.await_open());
    for (const char* sql :
         {"SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema "
          "ORDER BY type, name",
          "PRAGMA user_version", "PRAGMA application_id", "PRAGMA journal_mode",
          "PRAGMA synchronous", "PRAGMA foreign_keys", "PRAGMA cache_size",
          "SELECT layer_kind || tile || name FROM tile_names ORDER BY 1",
          "SELECT code FROM problem_codes ORDER BY 1"}) {
      CAPTURE(sql);
      const auto expected = query_rows(at_open.handle(), sql);
      CHECK_FALSE(expected.empty());
      CHECK(query_rows(made.handle(), sql) == expected);
    }
    // Both take a run alike; opened again, neither is new.
    for (auto* db : {&at_open, &made}) {
      db->finish_run(db->begin_run("index test", "test"), RunStatus::complete, {});
      CHECK(query_int(db->handle(), "SELECT count(*) FROM runs WHERE status = 'complete'") == 1);
    }
    CHECK_FALSE(open_index(dir.file("background.sqlite"), background).created());

    // Closed before anything waited for it, the new index is made whole.
    { auto closed_at_once = open_index(dir.file("closed.sqlite"), background); }
    CHECK(query_int(open_index(dir.file("closed.sqlite")).handle(), "PRAGMA user_version") ==
          latest_schema_version());
    // Without a thread to be had, open makes it itself.
    {
      const mapindex::testing::RefuseThreadStarts no_threads;
      auto inline_made = open_index(dir.file("inline.sqlite"), background);
      CHECK(inline_made.created());
      CHECK_FALSE(inline_made.await_open());
      CHECK(query_int(inline_made.handle(), "PRAGMA user_version") == latest_schema_version());
    }
  }

  TEST_CASE("index: a new index that cannot be made in the background fails as open would") {
    TempDir dir;
    const auto path = dir.file("held.sqlite");
    // Another connection holds the empty file's write lock.
    Connection other;
    REQUIRE(other.open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) == SQLITE_OK);
    exec_sql(other.get(), "BEGIN IMMEDIATE");
    OpenOptions at_open;
    at_open.busy_timeout_ms = 20;
    auto refused = IndexDb::open(path, OpenMode::read_write, at_open);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == Code::index_locked);

    OpenOptions background = at_open;
    background.create_in_background = true;
    auto opened = IndexDb::open(path, OpenMode::read_write, background);
    REQUIRE(opened.ok());  // the refusal comes with the first use
    const auto error = opened->await_open();
    REQUIRE(error);
    CHECK(error->code == refused.error().code);
    CHECK(error->message == refused.error().message);
    for (int attempt = 0; attempt < 2; ++attempt) {  // every write is refused alike
      try {
        (void)opened->begin_run("index test", "test");
        FAIL("a run must not start on an index whose schema was not made");
      } catch (const IndexError& e) {
        CHECK(e.code() == Code::index_locked);
        CHECK(std::string(e.what()) == refused.error().message);
      }
    }
    exec_sql(other.get(), "ROLLBACK");
    CHECK(query_int(other.get(), "SELECT count(*) FROM sqlite_schema") == 0);
  }

  TEST_CASE("index: an empty file gets a snapshot only when it is the snapshot of the migrations") {
    TempDir dir;
    const Migrations migrations = {{1, "001_a.sql",
                                    "PRAGMA application_id = " + std::to_string(kApplicationId) +
                                        "; CREATE TABLE from_migration (x);"}};
    const SchemaSnapshot same{1, "001_a.sql", "CREATE TABLE from_snapshot (x);"};
    const SchemaSnapshot other_name{1, "001_b.sql", "CREATE TABLE from_snapshot (x);"};
    const SchemaSnapshot other_version{2, "001_a.sql", "CREATE TABLE from_snapshot (x);"};
    for (const auto* fresh : {&same, &other_name, &other_version}) {
      CAPTURE(fresh->name);
      CAPTURE(fresh->version);
      const std::string path = dir.file(std::to_string(fresh->version) + std::string(fresh->name));
      Connection db;
      REQUIRE(db.open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) == SQLITE_OK);
      auto version = migrate(db.get(), path, migrations, fresh);
      REQUIRE(version);
      CHECK(*version == 1);
      CHECK(query_int(db.get(), "PRAGMA user_version") == 1);
      CHECK(query_int(db.get(), "PRAGMA application_id") == kApplicationId);
      const auto tables = table_names(db.get());
      const bool snapshot_used = fresh == &same;
      CHECK((std::find(tables.begin(), tables.end(), "from_snapshot") != tables.end()) ==
            snapshot_used);
      CHECK((std::find(tables.begin(), tables.end(), "from_migration") != tables.end()) ==
            !snapshot_used);
    }
  }

  TEST_CASE("index: tile_names is filled from the built-in CSV") {
    TempDir dir;
    auto db = open_index(dir.file("names.sqlite"));
    // One row per data line of schema/tile_names.csv (read from the source tree).
    std::ifstream csv(std::string(MAPINDEX_SOURCE_DIR) + "/schema/tile_names.csv");
    std::int64_t lines = -1;  // the header
    for (std::string line; std::getline(csv, line);) lines += !line.empty() && line.front() != '#';
    REQUIRE(lines > 300);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM tile_names") == lines);
    // Facts from DDNet's src/game/mapitems.h.
    CHECK(query_text(db.handle(),
                     "SELECT name FROM tile_names WHERE layer_kind = 'game' AND tile = 9") ==
          "FREEZE");
    CHECK(query_text(db.handle(),
                     "SELECT name FROM tile_names WHERE layer_kind = 'tele' AND tile = 26") ==
          "TELEIN");
    CHECK(
        query_text(
            db.handle(),
            "SELECT name || ',' || category FROM tile_names WHERE layer_kind = 'game' AND tile = 192") ==
        "SPAWN,entity");
    // Time checkpoints 35..59 are numbered from 0 (DDNet: index - TILE_TIME_CHECKPOINT_FIRST).
    CHECK(query_text(db.handle(),
                     "SELECT name FROM tile_names WHERE layer_kind = 'front' AND tile = 40") ==
          "TIME_CHECKPOINT_5");

    // A tampered table is repaired on the next writing open; an intact one is left alone.
    REQUIRE(sqlite3_exec(db.handle(), "DELETE FROM tile_names WHERE tile = 9", nullptr, nullptr,
                         nullptr) == SQLITE_OK);
    auto reopened = open_index(dir.file("names.sqlite"));
    CHECK(query_int(reopened.handle(), "SELECT count(*) FROM tile_names") == lines);
  }

  TEST_CASE("index: the tile names CSV parser names bad lines") {
    CHECK(parse_tile_names_csv("layer_kind,tile,name,category\ngame,9,FREEZE,tile\n").ok());
    auto bad_header = parse_tile_names_csv("kind,tile,name\n");
    REQUIRE_FALSE(bad_header.ok());
    CHECK(bad_header.error().message.find("line 1") != std::string::npos);
    auto bad_number = parse_tile_names_csv("layer_kind,tile,name,category\ngame,x9,FREEZE,tile\n");
    REQUIRE_FALSE(bad_number.ok());
    CHECK(bad_number.error().message.find("line 2: tile 'x9'") != std::string::npos);
    auto duplicate = parse_tile_names_csv(
        "layer_kind,tile,name,category\ngame,9,FREEZE,tile\ngame,9,OTHER,tile\n");
    REQUIRE_FALSE(duplicate.ok());
    CHECK(duplicate.error().code == Code::tile_names_duplicate);
    auto short_line = parse_tile_names_csv("layer_kind,tile,name,category\ngame,9,FREEZE\n");
    REQUIRE_FALSE(short_line.ok());
    CHECK(short_line.error().message.find("3 fields, expected 4") != std::string::npos);
    CHECK(parse_tile_names_csv("layer_kind,tile,name,category\ngame,256,X,tile\n").error().code ==
          Code::tile_names_tile);
    CHECK(parse_tile_names_csv("layer_kind,tile,name,category\ntiles,1,X,tile\n").error().code ==
          Code::tile_names_kind);
    CHECK(parse_tile_names_csv("layer_kind,tile,name,category\ngame,1,X,wall\n").error().code ==
          Code::tile_names_category);
    CHECK(parse_tile_names_csv("layer_kind,tile,name,category\ngame,1,\"X,tile\n").error().code ==
          Code::tile_names_quote);
    CHECK(parse_tile_names_csv("layer_kind,tile,name,category\ngame,1,X\"Y,tile\n").error().code ==
          Code::tile_names_quote);
    CHECK(parse_tile_names_csv("# only a comment\n").error().code == Code::tile_names_header);
  }

  TEST_CASE(
      "index tile names: comments, blank lines, quotes and CRLF reach the index and the measuring alike") {
    // One parser for both users: the rows the writer puts in tile_names and
    // the tables tile.invalid and the entities counts use.
    const std::string csv =
        "# DDNet's tile names\r\n"
        "\r\n"
        "layer_kind,tile,name,category\r\n"
        "# game layer\n"
        "game,9,\"FREEZE\",tile\n"
        "\n"
        "\"tele\",26,\"TELE\"\"IN\",entity\n"
        "#game,10,NOT_A_ROW,tile\n";
    auto rows = parse_tile_names_csv(csv);
    REQUIRE_MESSAGE(rows.ok(), (rows.ok() ? "" : rows.error().to_string()));
    CHECK(*rows ==
          std::vector<TileName>{{"game", 9, "FREEZE", "tile"}, {"tele", 26, "TELE\"IN", "entity"}});

    TempDir dir;
    auto db = open_index(dir.file("names.sqlite"));
    sync_tile_names(db.handle(), *rows);
    CHECK(
        query_text(
            db.handle(),
            "SELECT group_concat(layer_kind || ':' || tile || ':' || name || ':' || category, ' ') "
            "FROM (SELECT * FROM tile_names ORDER BY layer_kind, tile)") ==
        "game:9:FREEZE:tile tele:26:TELE\"IN:entity");

    const auto tables = teeworlds::tile_name_tables(*rows);
    const auto& game = tables[static_cast<std::size_t>(LayerKind::game)];
    const auto& tele = tables[static_cast<std::size_t>(LayerKind::tele)];
    CHECK(game.name[9] == "FREEZE");
    CHECK(game.category[9] == teeworlds::TileCategory::tile);
    CHECK(game.category[10] == teeworlds::TileCategory::invalid);  // the commented-out row
    CHECK(tele.name[26] == "TELE\"IN");
    CHECK(tele.category[26] == teeworlds::TileCategory::entity);
    std::size_t defined = 0;
    for (const auto& table : tables)
      for (const auto c : table.category) defined += c != teeworlds::TileCategory::invalid;
    CHECK(defined == rows->size());
  }

  TEST_CASE("index tile names: every key of the builtin tables has its own row") {
    // Ranges such as TIME_CHECKPOINT_FIRST..TIME_CHECKPOINT_LAST (35..59) are
    // spelled out key by key in the CSV; the tables hold exactly its rows.
    const auto& rows = teeworlds::builtin_tile_names();
    std::size_t defined = 0;
    for (const auto kind : {LayerKind::game, LayerKind::front, LayerKind::tele, LayerKind::speedup,
                            LayerKind::switch_layer, LayerKind::tune}) {
      const auto* table = teeworlds::tile_names(kind);
      REQUIRE(table != nullptr);
      for (const auto c : table->category) defined += c != teeworlds::TileCategory::invalid;
    }
    CHECK(defined == rows.size());
    for (int k = 35; k <= 59; ++k) {
      CAPTURE(k);
      CHECK(teeworlds::tile_names(LayerKind::game)->category[static_cast<std::size_t>(k)] ==
            teeworlds::TileCategory::tile);
    }
    CHECK(teeworlds::tile_names(LayerKind::tiles) == nullptr);
  }

  TEST_CASE("index: an index from a newer mapindex is refused, unchanged") {
    TempDir dir;
    const auto path = dir.file("newer.sqlite");
    {
      auto db = open_index(path);
      index_one_map(db);
    }
    set_user_version(path, latest_schema_version() + 1);

    auto rw = IndexDb::open(path, OpenMode::read_write);
    REQUIRE_FALSE(rw.ok());
    CHECK(rw.error().code == Code::index_newer);
    const auto latest = std::to_string(latest_schema_version());
    CHECK(rw.error().message.find("schema version " + std::to_string(latest_schema_version() + 1) +
                                  ", newer than this mapindex understands (" + latest + ")") !=
          std::string::npos);
    auto ro = IndexDb::open(path, OpenMode::read_only);
    REQUIRE_FALSE(ro.ok());
    CHECK(ro.error().code == Code::index_newer);

    set_user_version(path, latest_schema_version());
    auto again = open_index(path);
    CHECK(query_int(again.handle(), "SELECT count(*) FROM maps") == 1);
  }

  TEST_CASE("index: an older index is migrated in place, keeping its rows") {
    TempDir dir;
    const auto path = dir.file("older.sqlite");
    {
      auto db = open_index(path);
      index_one_map(db);
    }
    const int next = latest_schema_version() + 1;

    // Pretend the next version exists: it adds a column with a default and a table.
    OpenOptions later;
    later.migrations = with_test_migration(
        "ALTER TABLE maps ADD COLUMN note TEXT NOT NULL DEFAULT 'migrated';"
        "CREATE TABLE extra (x INTEGER);");

    // A read-only open does not migrate; it says what to do.
    auto ro = IndexDb::open(path, OpenMode::read_only, later);
    REQUIRE_FALSE(ro.ok());
    CHECK(ro.error().code == Code::index_older);
    CHECK(ro.error().message.find("migrate it in place") != std::string::npos);

    {
      auto db = open_index(path, later);
      CHECK(db.schema_version() == next);
      CHECK(query_int(db.handle(), "PRAGMA user_version") == next);
      CHECK(query_text(db.handle(), "SELECT note FROM maps") == "migrated");
      CHECK(query_int(db.handle(), "SELECT count(*) FROM layers") == 6);
      CHECK(query_int(db.handle(), "SELECT count(*) FROM extra") == 0);
      // Writing goes on at the new version.
      index_one_map(db, 2);
      CHECK(query_int(db.handle(), "SELECT count(*) FROM maps") == 2);
    }
    // Reopening runs nothing again; a build that does not know the version refuses it.
    {
      auto db = open_index(path, later);
      CHECK(db.schema_version() == next);
    }
    auto old_build = IndexDb::open(path, OpenMode::read_write);
    REQUIRE_FALSE(old_build.ok());
    CHECK(old_build.error().code == Code::index_newer);
  }

  // Schema 8 -> 9 (schema/009_check_lists.sql): CHECK value lists as OR.
  TEST_CASE("index: no INSERT into a table of the index builds a temporary B-tree for its CHECKs") {
    TempDir dir;
    OpenOptions before;
    before.migrations = migrations_before(migration_named("_check_lists.sql"));
    OpenOptions one_by_one;
    one_by_one.fresh_schema = nullptr;
    auto old_db = open_index(dir.file("before.sqlite"), before);
    auto snapshot = open_index(dir.file("snapshot.sqlite"));
    auto migrated = open_index(dir.file("migrated.sqlite"), one_by_one);
    // Before the migration the per-map tables did (the test can fail).
    const auto old_tables = ephemeral_tables(old_db.handle());
    for (const char* table : {"maps", "files", "layers", "envelopes", "envelope_users", "problems"})
      CHECK_MESSAGE(std::find(old_tables.begin(), old_tables.end(), table) != old_tables.end(),
                    table);
    CHECK(ephemeral_tables(snapshot.handle()).empty());
    CHECK(ephemeral_tables(migrated.handle()).empty());
    CHECK(tables_with_in_lists(migrated.handle()) == 0);
  }

  TEST_CASE(
      "index: the CHECK lists migration keeps every row and accepts and refuses the same values") {
    TempDir dir;
    const auto path = dir.file("v8.sqlite");
    const Migration& migration = migration_named("_check_lists.sql");
    OpenOptions before;
    before.migrations = migrations_before(migration);
    before.quick_check_max_bytes = 0;
    // Rows written by the writer, in the tables of the previous version
    // (the parents of the rows below).
    {
      const auto current = dir.file("current.sqlite");
      {
        auto db = open_index(current);
        index_one_map(db);
      }
      copy_into_older_index(path, before, current);
    }
    // One row per value of every CHECK value list, and per value outside it,
    // written past the constraints (probe_insert). The lists are read from
    // the schema the earlier migrations left.
    std::map<std::string, int> outside;  // rows per table with a value outside its list
    const auto dump = [&](sqlite3* db) {
      std::vector<std::string> rows;
      for (const auto& table : table_names(db))
        for (auto& r : table_rows(db, table)) rows.push_back(table + ": " + r);
      return rows;
    };
    const auto refused = [](sqlite3* db) {
      return query_rows(db, "SELECT * FROM pragma_quick_check(1000)");
    };
    std::vector<std::string> rows_before, refused_before;
    {
      Connection raw;
      REQUIRE(raw.open(path, SQLITE_OPEN_READWRITE) == SQLITE_OK);
      exec_sql(raw.get(), "PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON");
      int row = 1000;
      // Parent tables first (by creation), so foreign keys find their rows.
      for (const auto& table : query_rows(raw.get(),
                                          "SELECT name FROM sqlite_schema WHERE "
                                          "type = 'table' ORDER BY rowid")) {
        const auto lists = check_value_lists(raw.get(), table);
        for (const auto& [column, listed] : lists) {
          // Values outside the list, and two that an INTEGER column stores as
          // the integer 1 ('1' and 1.0: outside a TEXT column's list).
          const std::string column_type =
              query_text(raw.get(), "SELECT type FROM pragma_table_info('" + table +
                                        "') WHERE name = '" + column + "'");
          auto values = listed;
          for (const std::string other : {"'bogus'", "''", "2", "'OK'", "'1'", "1.0"}) {
            values.push_back(other);
            const std::string stored =
                column_type == "INTEGER" && (other == "'1'" || other == "1.0") ? "1" : other;
            if (std::find(listed.begin(), listed.end(), stored) == listed.end()) ++outside[table];
          }
          for (const auto& value : values)
            exec_sql(raw.get(), probe_insert(raw.get(), table, column, value, lists, ++row));
        }
      }
      exec_sql(raw.get(), "PRAGMA ignore_check_constraints = OFF");
      rows_before = dump(raw.get());
      refused_before = refused(raw.get());
      REQUIRE(query_rows(raw.get(), "SELECT * FROM pragma_foreign_key_check").empty());
    }
    // Every table with a list, and per table as many refused rows as values
    // outside its lists (quick_check names the table of each).
    for (const char* table : {"runs", "sources", "run_sources", "maps", "file_versions", "layers",
                              "envelopes", "envelope_users", "files", "problems"})
      CHECK_MESSAGE(outside.count(table) == 1, table);
    for (const auto& [table, count] : outside)
      CHECK_MESSAGE(std::count(refused_before.begin(), refused_before.end(),
                               "CHECK constraint failed in " + table) == count,
                    table);
    CHECK(refused_before.size() == static_cast<std::size_t>(std::accumulate(
                                       outside.begin(), outside.end(), 0,
                                       [](int n, const auto& t) { return n + t.second; })));

    // Up to this migration: the rows outside the lists would stop a later
    // one that copies them into a table with the same CHECK.
    OpenOptions through;
    through.migrations = migrations_before(migration);
    through.migrations.push_back(migration);
    through.quick_check_max_bytes = 0;
    {
      auto db = open_index(path, through);
      CHECK(db.schema_version() == migration.version);
    }
    Connection raw;
    REQUIRE(raw.open(path, SQLITE_OPEN_READWRITE) == SQLITE_OK);
    CHECK(query_int(raw.get(), "PRAGMA user_version") == migration.version);
    CHECK(tables_with_in_lists(raw.get()) == 0);
    CHECK(dump(raw.get()) == rows_before);
    CHECK(refused(raw.get()) == refused_before);
    // And a new row outside a list is refused, one inside accepted.
    exec_sql(raw.get(), "PRAGMA foreign_keys = OFF");
    CHECK_THROWS_WITH_AS(exec_sql(raw.get(), "UPDATE layers SET kind = 'bogus'"),
                         doctest::Contains("CHECK constraint failed"), IndexError);
    CHECK_NOTHROW(exec_sql(raw.get(), "UPDATE layers SET kind = 'unknown'"));
  }

  // Schema 1 -> 2 (schema/002_text_and_occurrences.sql) on an index written by
  // schema 1: rows written by hand in the version 1 layout, since the writer
  // writes version 2 columns.
  TEST_CASE(
      "index: an index of schema version 1 migrates to version 2 with its rows, views and keys") {
    TempDir dir;
    const auto path = dir.file("v1.sqlite");
    OpenOptions v1;
    v1.migrations = {default_migrations().front()};
    {
      auto db = open_index(path, v1);
      CHECK(db.schema_version() == 1);
    }
    {
      Connection raw;
      REQUIRE(raw.open(path, SQLITE_OPEN_READWRITE) == SQLITE_OK);
      const std::string sha = sha_of(1);
      const std::string sql =
          "INSERT INTO runs (run_id, started_at, status, tool_version, extractor_version, command) "
          "VALUES (1, '2026-01-01T00:00:00Z', 'complete', 'old', 1, 'index');"
          "INSERT INTO sources VALUES (1, '/srv/maps', 'folder', 1, 1);"
          "INSERT INTO run_sources VALUES (1, 1);"
          "INSERT INTO maps (map_id, sha256, crc32, size, extractor_version, first_run_id, "
          "measured_run_id, format, format_version, status, errors, warnings, game_width, "
          "game_height, author, crude_header, reversed_magic, num_items, num_data, uuid_types, "
          "tiles_per_set, num_groups, num_layers, num_images, num_envelopes, num_envelope_points, "
          "num_sounds, num_settings, num_automappers, num_quads, num_sound_sources) VALUES "
          "(7, '" +
          sha +
          "', 1, 100, 1, 1, 1, 'teeworlds', 4, 'ok', 0, 0, 10, 10, 'me', 0, 0, "
          "1, 1, '', 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);"
          "INSERT INTO layers (map_id, layer_index, group_index, kind, item_type, version, name, "
          "width, height, detail, color_r, color_g, color_b, color_a, skip_compressed, non_empty, "
          "flip_x, flip_y, rotate, num_quads, num_sources) VALUES "
          "(7, 0, 0, 'game', 2, 3, 'Game', 10, 10, 0, 255, 255, 255, 255, 0, 5, 0, 0, 0, 0, 0),"
          "(7, 1, 0, 'tiles', 2, 3, CAST(x'4CE979' AS TEXT), 10, 10, 0, 255, 255, 255, 255, 0, 5, "
          "0, 0, 0, 0, 0);"
          "INSERT INTO settings VALUES (7, 0, CAST(x'7376FF' AS TEXT));"
          "INSERT INTO files VALUES (42, 1, 'maps/a.map', 'a', 'map', 100, '" +
          sha +
          "', 1, 7, "
          "1, 1, 1);"
          "INSERT INTO file_versions VALUES (5, 42, 'map', 100, '" +
          sha +
          "', 1, 7, 1);"
          "INSERT INTO file_sightings VALUES (1, 42, 5);"
          "INSERT INTO problems VALUES (1, NULL, 42, 0, 'warning', 'read.x', 'note', '');"
          // Version 1 stored text that is not UTF-8 as is; two such paths differ
          // only in their invalid byte (E9, E8).
          "INSERT INTO files VALUES (43, 1, CAST(x'636166E92E747874' AS TEXT), "
          "CAST(x'636166E9' AS TEXT), 'other', 1, NULL, NULL, NULL, 1, 1, 1);"
          "INSERT INTO files VALUES (44, 1, CAST(x'636166E82E747874' AS TEXT), 'b', 'other', 1, "
          "NULL, NULL, NULL, 1, 1, 1);"
          "UPDATE maps SET author = CAST(x'61FF' AS TEXT);"
          "INSERT INTO problems VALUES (1, 7, NULL, 0, 'warning', 'envelope.unused', "
          "CAST(x'656E76FF' AS TEXT), 'envelope 0');";
      exec_sql(raw.get(), sql);
    }

    auto db = open_index(path);
    auto* h = db.handle();
    CHECK(db.schema_version() == latest_schema_version());  // 1 -> 2 -> 3
    CHECK(query_int(h, "PRAGMA user_version") == latest_schema_version());
    CHECK(query_int(h, "PRAGMA foreign_keys") == (kEnforceForeignKeys ? 1 : 0));
    CHECK(query_rows(h, "PRAGMA foreign_key_check").empty());
    CHECK(query_text(h, "PRAGMA integrity_check") == "ok");
    // The file keeps its id and columns; it is the first occurrence of its path.
    CHECK(query_text(h,
                     "SELECT file_id || ',' || source_id || ',' || entry_path || ',' || "
                     "occurrence || ',' || ifnull(entry_path_raw, 'NULL') || ',' || name || ',' "
                     "|| kind || ',' || map_id FROM files WHERE file_id = 42") ==
          "42,1,maps/a.map,1,NULL,a,map,7");
    // Text that is not UTF-8 is repaired, its bytes kept; paths that became
    // equal are occurrences 1 and 2 in file_id order.
    const std::string fffd = "\xEF\xBF\xBD";
    CHECK(query_rows(h,
                     "SELECT file_id || ',' || entry_path || ',' || occurrence || ',' || "
                     "hex(entry_path_raw) || ',' || name FROM files WHERE file_id > 42 "
                     "ORDER BY file_id") ==
          std::vector<std::string>{"43,caf" + fffd + ".txt,1,636166E92E747874,caf" + fffd,
                                   "44,caf" + fffd + ".txt,2,636166E82E747874,b"});
    CHECK(query_text(h, "SELECT name || ',' || hex(name_raw) FROM layers WHERE layer_index = 1") ==
          "L" + fffd + "y,4CE979");
    CHECK(query_text(h, "SELECT command || ',' || hex(command_raw) FROM settings") ==
          "sv" + fffd + ",7376FF");
    CHECK(query_text(h, "SELECT author || ',' || hex(author_raw) FROM maps") ==
          "a" + fffd + ",61FF");
    CHECK(query_text(h, "SELECT message FROM problems WHERE map_id = 7") == "env" + fffd);
    CHECK(query_int(h, "SELECT count(*) FROM files WHERE NOT mapindex_is_utf8(entry_path)") == 0);
    CHECK(query_text(h,
                     "SELECT entry_path || ',' || occurrence || ',' || status FROM file_overview "
                     "WHERE file_id = 42") == "maps/a.map,1,ok");
    CHECK(query_text(h, "SELECT name FROM map_names") == "a");
    CHECK(query_text(h, "SELECT entry_path || ',' || occurrence FROM file_history") ==
          "maps/a.map,1");
    CHECK(query_text(h, "SELECT code || ',' || entry_path FROM problem_list WHERE file_id = 42") ==
          "read.x,maps/a.map");
    CHECK(query_int(h, "SELECT count(*) FROM ddnet_mapinfo") == 1);
    CHECK(query_text(h, "SELECT ifnull(name_raw, 'NULL') FROM layers WHERE layer_index = 0") ==
          "NULL");
    // The old UNIQUE (source_id, entry_path) is gone, the new one holds.
    CHECK(sqlite3_exec(h,
                       "INSERT INTO files (source_id, entry_path, occurrence, name, kind, size, "
                       "first_run_id, last_run_id, changed_run_id) "
                       "VALUES (1, 'maps/a.map', 2, 'a', 'other', 1, 1, 1, 1)",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
    CHECK(sqlite3_exec(h,
                       "INSERT INTO files (source_id, entry_path, occurrence, name, kind, size, "
                       "first_run_id, last_run_id, changed_run_id) "
                       "VALUES (1, 'maps/a.map', 2, 'a', 'other', 1, 1, 1, 1)",
                       nullptr, nullptr, nullptr) == SQLITE_CONSTRAINT_UNIQUE);
    REQUIRE(sqlite3_exec(h, "DELETE FROM files WHERE entry_path = 'maps/a.map' AND occurrence = 2",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    // Foreign keys refer to the rebuilt table (enforced here whether or not
    // this build's writer enforces them, kEnforceForeignKeys).
    exec_sql(h, "PRAGMA foreign_keys = ON");
    CHECK(sqlite3_exec(h, "INSERT INTO file_sightings VALUES (1, 999, 5)", nullptr, nullptr,
                       nullptr) != SQLITE_OK);
    exec_sql(h, kEnforceForeignKeys ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF");

    // The next run writes the same entry into the same row; the map measured by
    // extractor version 1 is measured again.
    CHECK(db.known_maps().empty());
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", index::SourceKind::folder);
    CHECK(source == 1);
    const auto stats = race_map();
    CHECK(db.write_entry(run, map_entry(source, "maps/a.map", 1), &stats) == 42);
    db.finish_run(run, index::RunStatus::complete, {});
    CHECK(query_int(h, "SELECT count(*) FROM files") == 3);
    CHECK(query_int(h, "SELECT extractor_version FROM maps WHERE map_id = 7") == kExtractorVersion);
  }

  // The info severity (schema/NNN_info_severity.sql; the number is whatever
  // the migration list gives it): an index written before it stores
  // envelope.unused, image.unused, sound.unused and automapper.target as
  // warnings; migrated, they are info, and a map whose only warnings they
  // were becomes ok, for DDNet and for Teeworlds.
  TEST_CASE(
      "index: the info severity migration turns stored harmless warnings into info, and maps ok") {
    TempDir dir;
    const auto path = dir.file("before_info.sqlite");
    const Migration* info_migration = &migration_named("_info_severity.sql");
    OpenOptions before;
    before.migrations = migrations_before(*info_migration);
    REQUIRE(before.migrations.size() >= 4);  // the Teeworlds verdicts (4) are there
    {
      auto db = open_index(path, before);
      CHECK(db.schema_version() == info_migration->version - 1);
    }
    {
      Connection raw;
      REQUIRE(raw.open(path, SQLITE_OPEN_READWRITE) == SQLITE_OK);
      std::string sql =
          "INSERT INTO runs (run_id, started_at, status, tool_version, extractor_version, command) "
          "VALUES (1, '2026-01-01T00:00:00Z', 'complete', 'old', 4, 'index');";
      // map_id, status, errors, warnings, teeworlds_status
      const std::vector<std::tuple<int, std::string, int, int, std::string>> maps = {
          {1, "warnings", 0, 3, "warnings"},  // only harmless warnings: becomes ok
          {2, "warnings", 0, 2, "warnings"},  // an unused image and a real warning: stays
          {3, "rejected", 1, 1, "rejected"},  // an error and an unused sound: stays rejected
          {4, "rejected", 1, 1, "warnings"},  // rejected by DDNet, loads in Teeworlds: stays
          {5, "warnings", 0, 1, ""}};         // no Teeworlds verdict yet (NULL): stays NULL
      for (const auto& [id, status, errors, warnings, tw] : maps)
        sql +=
            "INSERT INTO maps (map_id, sha256, crc32, size, extractor_version, first_run_id, "
            "measured_run_id, format, format_version, status, errors, warnings, game_width, "
            "game_height, crude_header, reversed_magic, num_items, num_data, uuid_types, "
            "tiles_per_set, num_groups, num_layers, num_images, num_envelopes, "
            "num_envelope_points, num_sounds, num_settings, num_automappers, num_quads, "
            "num_sound_sources, teeworlds_status) VALUES (" +
            std::to_string(id) + ", '" + sha_of(id) + "', 1, 100, 4, 1, 1, 'teeworlds', 4, '" +
            status + "', " + std::to_string(errors) + ", " + std::to_string(warnings) +
            ", 10, 10, 0, 0, 1, 1, '', 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, " +
            (tw.empty() ? "NULL" : "'" + tw + "'") + ");";
      const auto problem = [](int map, int position, const std::string& severity,
                              const std::string& code) {
        return "INSERT INTO problems (run_id, map_id, position, severity, code, message, "
               "location) VALUES (1, " +
               std::to_string(map) + ", " + std::to_string(position) + ", '" + severity + "', '" +
               code + "', 'm', '');";
      };
      sql +=
          problem(1, 0, "warning", "envelope.unused") + problem(1, 1, "warning", "image.unused") +
          problem(1, 2, "warning", "automapper.target") + problem(2, 0, "warning", "image.unused") +
          problem(2, 1, "warning", "layer.ungrouped") + problem(3, 0, "error", "M10") +
          problem(3, 1, "warning", "sound.unused") + problem(4, 0, "error", "M13") +
          problem(4, 1, "warning", "envelope.kind") + problem(5, 0, "warning", "sound.unused");
      exec_sql(raw.get(), sql);
    }

    auto db = open_index(path);
    auto* h = db.handle();
    CHECK(db.schema_version() == latest_schema_version());
    CHECK(query_rows(h, "PRAGMA foreign_key_check").empty());
    CHECK(query_text(h, "PRAGMA integrity_check") == "ok");
    CHECK(
        query_rows(h,
                   "SELECT map_id || ',' || status || ',' || errors || ',' || warnings || ',' || "
                   "infos || ',' || ifnull(teeworlds_status, 'NULL') FROM maps ORDER BY map_id") ==
        std::vector<std::string>{"1,ok,0,0,3,ok", "2,warnings,0,1,1,warnings",
                                 "3,rejected,1,0,1,rejected", "4,rejected,1,1,0,warnings",
                                 "5,ok,0,0,1,NULL"});
    CHECK(query_rows(h,
                     "SELECT map_id || ',' || position || ',' || severity || ',' || code "
                     "FROM problems ORDER BY map_id, position") ==
          std::vector<std::string>{"1,0,info,envelope.unused", "1,1,info,image.unused",
                                   "1,2,info,automapper.target", "2,0,info,image.unused",
                                   "2,1,warning,layer.ungrouped", "3,0,error,M10",
                                   "3,1,info,sound.unused", "4,0,error,M13",
                                   "4,1,warning,envelope.kind", "5,0,info,sound.unused"});
    // The views that read problems are back, with info in them.
    CHECK(query_int(h, "SELECT count(*) FROM problem_list WHERE severity = 'info'") == 6);
    CHECK(query_int(h, "SELECT count(*) FROM maps_with_errors") == 2);
    // The rebuilt CHECK takes info and nothing else.
    CHECK(sqlite3_exec(h,
                       "INSERT INTO problems (run_id, map_id, position, severity, code, message, "
                       "location) VALUES (1, 5, 1, 'notice', 'x', '', '')",
                       nullptr, nullptr, nullptr) == SQLITE_CONSTRAINT_CHECK);
    // And the index is written on: a map with only an unused envelope is ok.
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", index::SourceKind::folder);
    auto stats = race_map();
    stats.problems = {{Code::envelope_unused, "envelope 0 is not used", Location::envelope(0)}};
    finalize_status(stats);
    db.write_entry(run, map_entry(source, "maps/new.map", 99), &stats);
    db.finish_run(run, index::RunStatus::complete, {});
    CHECK(query_text(h,
                     "SELECT status || ',' || warnings || ',' || infos || ',' || "
                     "teeworlds_status FROM maps WHERE sha256 = '" +
                         sha_of(99) + "'") == "ok,0,1,ok");
  }

  TEST_CASE("index: a failing migration leaves the index at its previous version") {
    TempDir dir;
    const auto path = dir.file("failing.sqlite");
    {
      auto db = open_index(path);
      index_one_map(db);
    }
    OpenOptions broken;
    broken.migrations = with_test_migration(
        "CREATE TABLE extra (x INTEGER); INSERT INTO no_such_table VALUES (1);");
    auto db = IndexDb::open(path, OpenMode::read_write, broken);
    REQUIRE_FALSE(db.ok());
    CHECK(db.error().code == Code::index_migration);
    CHECK(db.error().message.find("999_test.sql") != std::string::npos);
    CHECK(db.error().message.find("no such table: no_such_table") != std::string::npos);

    auto intact = open_index(path);
    CHECK(intact.schema_version() == latest_schema_version());
    CHECK(query_int(intact.handle(), "SELECT count(*) FROM sqlite_schema WHERE name = 'extra'") ==
          0);
    CHECK(query_int(intact.handle(), "SELECT count(*) FROM maps") == 1);
  }

  TEST_CASE(
      "index: migrating leaves the connection's writable_schema off and defensive mode as it was") {
    TempDir dir;
    const auto path = dir.file("modes.sqlite");
    {
      OpenOptions before;
      before.migrations = migrations_before(migration_named("_check_lists.sql"));
      auto db = open_index(path, before);
      db.finish_run(db.begin_run("test", "0.0-test"), index::RunStatus::complete, {});
    }
    const auto defensive = [](sqlite3* db) {
      int on = -1;
      sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, -1, &on);
      return on;
    };
    Connection db;
    REQUIRE(db.open(path, SQLITE_OPEN_READWRITE) == SQLITE_OK);
    REQUIRE(sqlite3_db_config(db.get(), SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr) == SQLITE_OK);
    REQUIRE(defensive(db.get()) == 1);
    // Defensive mode refuses the edit of sqlite_schema that 009 makes ...
    CHECK_THROWS_AS(exec_sql(db.get(),
                             "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET "
                             "sql = sql WHERE name = 'runs'"),
                    IndexError);
    exec_sql(db.get(), "PRAGMA writable_schema = OFF");
    // ... so migrating turns it off, and back on after 009 and after a
    // migration that fails with writable_schema on.
    Migrations failing = default_migrations();
    failing.push_back({latest_schema_version() + 1, "999_test.sql",
                       "PRAGMA writable_schema = ON; SELECT no_such_column FROM maps;"});
    const auto failed = migrate(db.get(), path, failing);
    REQUIRE_FALSE(failed);
    CHECK(failed.error().message.find("no such column: no_such_column") != std::string::npos);
    CHECK(query_int(db.get(), "PRAGMA user_version") == latest_schema_version());
    CHECK(query_int(db.get(), "PRAGMA writable_schema") == 0);
    CHECK(defensive(db.get()) == 1);
    CHECK(query_int(db.get(), "SELECT count(*) FROM runs") == 1);
  }

  TEST_CASE("index: migrations are numbered 1, 2, ... without gaps") {
    CHECK(check_migrations(default_migrations()).ok());
    CHECK(default_migrations().front().name == "001_initial.sql");
    CHECK(default_migrations().at(1).name == "002_text_and_occurrences.sql");
    Migrations gap = default_migrations();
    const int skipped = latest_schema_version() + 1;
    gap.push_back({skipped + 1, "00" + std::to_string(skipped + 1) + "_gap.sql", "SELECT 1;"});
    auto checked = check_migrations(gap);
    REQUIRE_FALSE(checked.ok());
    CHECK(checked.error().message.find("expected " + std::to_string(skipped)) != std::string::npos);
  }

  TEST_CASE("index: files that are not mapindex indexes are refused") {
    TempDir dir;
    const auto text = dir.file("notes.txt");
    std::ofstream(text) << "these are not the maps you are looking for, not a database at all\n";
    auto not_db = IndexDb::open(text, OpenMode::read_write);
    REQUIRE_FALSE(not_db.ok());
    CHECK(not_db.error().code == Code::index_not_sqlite);

    const auto other = dir.file("other.sqlite");
    {
      Connection raw;
      REQUIRE(raw.open(other, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) == SQLITE_OK);
      exec_sql(raw.get(), "CREATE TABLE mine (x)");
    }
    auto foreign = IndexDb::open(other, OpenMode::read_write);
    REQUIRE_FALSE(foreign.ok());
    CHECK(foreign.error().code == Code::index_foreign);

    auto missing = IndexDb::open(dir.file("missing.sqlite"), OpenMode::read_only);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == Code::index_open);
    CHECK_FALSE(std::filesystem::exists(dir.file("missing.sqlite")));
  }

  // An archive may hold the same path twice: each occurrence is an entry of its
  // own (files.occurrence), so writing the entries twice in one run adds a second
  // occurrence of each, leaves the first ones as they were, and warns on each
  // second one.
  TEST_CASE("index: writing the same entries twice in a run gives each a second occurrence") {
    TempDir dir;
    auto db = open_index(dir.file("idem.sqlite"));
    const auto run = db.begin_run("test", "0.0-test");
    const auto folder = db.source_id(run, "/srv/maps", index::SourceKind::folder);
    const auto stats = race_map();
    const auto broken = broken_map();
    const auto level = spritetile_level();
    EntryRecord junk;
    junk.source_id = folder;
    junk.entry_path = "readme.txt";
    junk.size = 12;
    junk.sha256 = digest_of(99);
    EntryRecord lost;
    lost.source_id = folder;
    lost.entry_path = "lost.map";
    lost.kind = EntryKind::unreadable;
    lost.size = 4000;
    lost.problems = {{Code::read_truncated, "archive ends inside 'lost.map'", Location::file()}};

    auto write_all = [&] {
      db.write_entry(run, map_entry(folder, "a.map", 1), &stats);
      db.write_entry(run, map_entry(folder, "b.map", 2), &broken);
      db.write_entry(run, map_entry(folder, "levels/c.bytes", 3), &level);
      db.write_entry(run, junk, nullptr);
      db.write_entry(run, lost, nullptr);
      db.commit_batch();
    };

    write_all();
    const auto maps_before = table_rows(db.handle(), "maps");
    const auto files_before = query_rows(db.handle(), "SELECT * FROM files ORDER BY file_id");
    const auto problems_before = query_rows(db.handle(), "SELECT * FROM problems ORDER BY rowid");
    CHECK(query_int(db.handle(), "SELECT count(*) FROM maps") == 3);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM files") == 5);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM files WHERE occurrence = 1") == 5);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM problems") == 5);
    write_all();
    CHECK(table_rows(db.handle(), "maps") == maps_before);
    CHECK(query_rows(db.handle(), "SELECT * FROM files WHERE occurrence = 1 ORDER BY file_id") ==
          files_before);
    CHECK(query_rows(
              db.handle(),
              "SELECT * FROM problems WHERE file_id IS NULL "
              "OR file_id IN (SELECT file_id FROM files WHERE occurrence = 1) ORDER BY rowid") ==
          problems_before);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM files") == 10);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM files WHERE occurrence = 2") == 5);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM file_sightings WHERE run_id = " +
                                     std::to_string(run)) == 10);
    // Each second occurrence: its own problems (lost.map's read.truncated) and the warning.
    CHECK(query_int(db.handle(),
                    "SELECT count(*) FROM problems p JOIN files f USING (file_id) "
                    "WHERE f.occurrence = 2 AND p.code = 'read.duplicate_name' "
                    "AND p.severity = 'warning' AND p.message LIKE '%this is occurrence 2'") == 5);
    CHECK(query_text(db.handle(),
                     "SELECT p.message FROM problems p JOIN files f USING (file_id) "
                     "WHERE f.entry_path = 'a.map' AND p.code = 'read.duplicate_name'") ==
          "entry 'a.map' occurs more than once in its archive; this is occurrence 2");
    CHECK(query_int(db.handle(),
                    "SELECT count(*) FROM problems p JOIN files f USING (file_id) "
                    "WHERE f.occurrence = 1 AND p.code = 'read.duplicate_name'") == 0);
  }

  TEST_CASE("index: a second run over the same entries changes only run bookkeeping") {
    TempDir dir;
    auto db = open_index(dir.file("rerun.sqlite"));
    const auto stats = race_map();
    EntryRecord lost;
    lost.entry_path = "lost.map";
    lost.kind = EntryKind::unreadable;
    lost.problems = {{Code::read_corrupt, "bad zip entry", Location::file()}};

    auto run_once = [&] {
      const auto run = db.begin_run("test", "0.0-test");
      const auto source = db.source_id(run, "/srv/maps.zip", index::SourceKind::archive);
      db.write_entry(run, map_entry(source, "a.map", 1), &stats);
      lost.source_id = source;
      db.write_entry(run, lost, nullptr);
      db.finish_run(run, index::RunStatus::complete, {});
      return run;
    };
    const auto first_run = run_once();
    std::vector<std::vector<std::string>> before;
    const std::vector<std::string> bookkeeping = {"last_run_id", "run_id"};
    for (const auto& table : table_names(db.handle()))
      if (table != "runs" && table != "file_sightings" && table != "run_sources")
        before.push_back(table_rows(db.handle(), table, bookkeeping));

    const auto second_run = run_once();
    std::vector<std::vector<std::string>> after;
    for (const auto& table : table_names(db.handle()))
      if (table != "runs" && table != "file_sightings" && table != "run_sources")
        after.push_back(table_rows(db.handle(), table, bookkeeping));
    CHECK(after == before);

    CHECK(query_text(db.handle(),
                     "SELECT first_run_id || ',' || last_run_id || ',' || changed_run_id "
                     "FROM files WHERE entry_path = 'a.map'") ==
          std::to_string(first_run) + "," + std::to_string(second_run) + "," +
              std::to_string(first_run));
    CHECK(query_int(db.handle(), "SELECT count(*) FROM file_sightings") == 4);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM file_versions") == 2);
    CHECK(query_int(db.handle(), "SELECT measured_run_id FROM maps") == first_run);
    // The entry problem is that of the latest sighting.
    CHECK(query_int(db.handle(), "SELECT run_id FROM problems WHERE file_id IS NOT NULL") ==
          second_run);
  }

  TEST_CASE("index: the same content in two sources is one map and two files") {
    TempDir dir;
    auto db = open_index(dir.file("content.sqlite"));
    const auto run = db.begin_run("test", "0.0-test");
    const auto zip = db.source_id(run, "/srv/a.zip", index::SourceKind::archive);
    const auto folder = db.source_id(run, "/srv/maps", index::SourceKind::folder);
    const auto stats = race_map();
    db.write_entry(run, map_entry(zip, "maps/Kobra.map", 7), &stats);
    db.commit_batch();
    const auto known = db.known_maps();
    REQUIRE(known.count(digest_of(7)) == 1);
    // The pipeline skips decoding known content and passes no statistics.
    db.write_entry(run, map_entry(folder, "Kobra copy.map", 7), nullptr);
    db.finish_run(run, index::RunStatus::complete, {});

    CHECK(query_int(db.handle(), "SELECT count(*) FROM maps") == 1);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM files") == 2);
    CHECK(query_int(db.handle(), "SELECT count(DISTINCT map_id) FROM files") == 1);
    CHECK(query_int(db.handle(), "SELECT map_id FROM files WHERE entry_path = 'Kobra copy.map'") ==
          known.at(digest_of(7)).map_id);
    CHECK(query_rows(db.handle(), "SELECT name FROM files ORDER BY name") ==
          std::vector<std::string>{"Kobra", "Kobra copy"});
    CHECK(query_int(db.handle(), "SELECT count(*) FROM layers") == 6);
  }

  TEST_CASE("index: a known map's id from known_maps writes what a lookup by sha256 writes") {
    TempDir dir;
    auto db = open_index(dir.file("known_id.sqlite"));
    index_one_map(db, 7);
    const auto known = db.known_maps();
    REQUIRE(known.count(digest_of(7)) == 1);
    const auto map_id = known.at(digest_of(7)).map_id;

    const auto run = db.begin_run("test", "0.0-test");
    const auto looked_up = db.source_id(run, "/srv/looked-up", index::SourceKind::folder);
    const auto given = db.source_id(run, "/srv/given", index::SourceKind::folder);
    db.write_entry(run, map_entry(looked_up, "k.map", 7), nullptr);
    auto with_id = map_entry(given, "k.map", 7);
    with_id.known_map_id = map_id;
    db.write_entry(run, with_id, nullptr);
    // A path the index already holds, unchanged: written as a file seen as it is.
    auto again =
        map_entry(db.source_id(run, "/srv/maps", index::SourceKind::folder), "maps/a.map", 7);
    again.known_map_id = map_id;
    db.write_entry(run, again, nullptr);

    // An id with statistics, or for an entry that is not a map, is refused
    // before anything is written.
    const auto stats = race_map();
    auto with_stats = map_entry(given, "s.map", 8);
    with_stats.known_map_id = map_id;
    CHECK_THROWS_AS(db.write_entry(run, with_stats, &stats), IndexError);
    EntryRecord text;
    text.source_id = given;
    text.entry_path = "x.txt";
    text.known_map_id = map_id;
    CHECK_THROWS_AS(db.write_entry(run, text, nullptr), IndexError);
    db.finish_run(run, index::RunStatus::complete, {});

    CHECK(query_int(db.handle(), "SELECT count(*) FROM maps") == 1);
    CHECK(query_rows(db.handle(),
                     "SELECT s.path || ':' || f.entry_path || ':' || (f.map_id = " +
                         std::to_string(map_id) +
                         ") || ':' || (v.map_id = " + std::to_string(map_id) +
                         ") || ':' || f.last_run_id FROM files f "
                         "JOIN sources s USING (source_id) "
                         "JOIN file_versions v ON v.file_id = f.file_id ORDER BY s.path") ==
          std::vector<std::string>{"/srv/given:k.map:1:1:" + std::to_string(run),
                                   "/srv/looked-up:k.map:1:1:" + std::to_string(run),
                                   "/srv/maps:maps/a.map:1:1:" + std::to_string(run)});
    CHECK(query_int(db.handle(), "SELECT count(*) FROM file_sightings WHERE run_id = " +
                                     std::to_string(run)) == 3);
    CHECK(query_int(db.handle(),
                    "SELECT count(*) FROM files WHERE entry_path IN ('s.map', 'x.txt')") == 0);
  }

  TEST_CASE("index: a map with an unknown sha256 and no statistics is refused, leaving no rows") {
    TempDir dir;
    auto db = open_index(dir.file("unknown.sqlite"));
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", index::SourceKind::folder);
    CHECK_THROWS_AS(db.write_entry(run, map_entry(source, "ghost.map", 5), nullptr), IndexError);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM files") == 0);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM file_versions") == 0);

    // Bad input is refused before anything is written.
    auto no_sha = map_entry(source, "bad.map", 5);
    no_sha.sha256.reset();  // a map needs its content's
    CHECK_THROWS_AS(db.write_entry(run, no_sha, nullptr), IndexError);
    EntryRecord text;
    text.source_id = source;
    text.entry_path = "x.txt";
    const auto stats = race_map();
    CHECK_THROWS_AS(db.write_entry(run, text, &stats), IndexError);

    // The batch is still usable.
    db.write_entry(run, map_entry(source, "real.map", 6), &stats);
    db.finish_run(run, index::RunStatus::complete, {});
    CHECK(query_int(db.handle(), "SELECT count(*) FROM files") == 1);
    CHECK(query_int(db.handle(), "SELECT count(*) FROM maps") == 1);
  }

  TEST_CASE(
      "index: a map measured by an older extractor version is measured again, its rows replaced") {
    TempDir dir;
    const auto path = dir.file("extractor.sqlite");
    OpenOptions v1, v2;
    v1.extractor_version = 1;
    v2.extractor_version = 2;
    std::int64_t map_id = 0;
    {
      auto db = open_index(path, v1);
      index_one_map(db, 3);
      REQUIRE(db.known_maps().count(digest_of(3)) == 1);
      map_id = db.known_maps().at(digest_of(3)).map_id;
    }
    auto db = open_index(path, v2);
    CHECK(db.known_maps().empty());

    // The new extractor finds something else: fewer layers, other problems.
    MapStats remeasured = broken_map();
    remeasured.layers = {layer(0, 0, LayerKind::game, "Game")};
    remeasured.layers[0].tile_counts = {{2, 3}};
    remeasured.ddnet_features = {"DEATH"};
    const auto run = db.begin_run("test", "0.0-test");
    const auto source = db.source_id(run, "/srv/maps", index::SourceKind::folder);
    db.write_entry(run, map_entry(source, "maps/a.map", 3), &remeasured);
    db.finish_run(run, index::RunStatus::complete, {});

    sqlite3* h = db.handle();
    CHECK(query_int(h, "SELECT count(*) FROM maps") == 1);
    CHECK(query_int(h, "SELECT map_id FROM maps") == map_id);
    CHECK(
        query_text(
            h,
            "SELECT extractor_version || ',' || measured_run_id || ',' || first_run_id || ',' || status FROM maps") ==
        "2," + std::to_string(run) + ",1,rejected");
    CHECK(query_int(h, "SELECT count(*) FROM layers") == 1);
    CHECK(query_rows(h, "SELECT tile || ':' || count FROM tile_counts") ==
          std::vector<std::string>{"2:3"});
    CHECK(query_int(h, "SELECT count(*) FROM images") == 0);
    CHECK(query_int(h, "SELECT count(*) FROM image_users") == 0);
    CHECK(query_int(h, "SELECT count(*) FROM envelopes") == 0);
    CHECK(query_int(h, "SELECT count(*) FROM envelope_users") == 0);
    CHECK(query_int(h, "SELECT count(*) FROM sounds") == 0);
    CHECK(query_int(h, "SELECT count(*) FROM settings") == 0);
    CHECK(query_int(h, "SELECT count(*) FROM groups") == 0);
    CHECK(query_int(h, "SELECT count(*) FROM entities") == 0);
    CHECK(query_int(h, "SELECT count(*) FROM layer_numbers") == 0);
    // The replaced layers' own layer_data rows (no key) went with them.
    CHECK(query_int(h, "SELECT count(*) FROM layer_data") == 1);
    CHECK(query_int(h, "SELECT count(*) FROM layer_data_tiles") == 1);
    CHECK(query_rows(h, "SELECT feature FROM ddnet_features") == std::vector<std::string>{"DEATH"});
    CHECK(query_rows(h, "SELECT code || ':' || run_id FROM problems ORDER BY position") ==
          std::vector<std::string>{"M10:" + std::to_string(run),
                                   "envelope.unused:" + std::to_string(run),
                                   "H5:" + std::to_string(run)});
    CHECK(db.known_maps().count(digest_of(3)) == 1);
    // Nothing left behind refers to a deleted row (release builds write
    // without SQLite enforcing foreign keys: index_db.h).
    CHECK(query_rows(h, "PRAGMA foreign_key_check").empty());

    // An older mapindex (extractor 1) does not overwrite the newer measurement.
    {
      auto old = open_index(path, v1);
      CHECK(old.known_maps().count(digest_of(3)) == 1);
      const auto old_run = old.begin_run("test", "0.0-old");
      const auto old_source = old.source_id(old_run, "/srv/maps", index::SourceKind::folder);
      const auto stats = race_map();
      old.write_entry(old_run, map_entry(old_source, "maps/a.map", 3), &stats);
      old.finish_run(old_run, index::RunStatus::complete, {});
    }
    CHECK(query_int(h, "SELECT extractor_version FROM maps") == 2);
    CHECK(query_int(h, "SELECT count(*) FROM layers") == 1);
  }

  TEST_CASE("index: an entry whose content changes keeps its history") {
    TempDir dir;
    auto db = open_index(dir.file("history.sqlite"));
    const auto stats = race_map();
    const auto run1 = db.begin_run("test", "0.0-test");
    auto source = db.source_id(run1, "/srv/maps.zip", index::SourceKind::archive);
    db.write_entry(run1, map_entry(source, "a.map", 1), &stats);
    db.finish_run(run1, index::RunStatus::complete, {});
    const auto run2 = db.begin_run("test", "0.0-test");
    source = db.source_id(run2, "/srv/maps.zip", index::SourceKind::archive);
    const auto fixed = race_map(1);
    db.write_entry(run2, map_entry(source, "a.map", 2, 1200), &fixed);
    db.finish_run(run2, index::RunStatus::complete, {});

    sqlite3* h = db.handle();
    CHECK(query_int(h, "SELECT count(*) FROM files") == 1);
    CHECK(query_int(h, "SELECT count(*) FROM maps") == 2);  // the old content stays indexed
    CHECK(query_text(h, "SELECT sha256 || ',' || size || ',' || changed_run_id FROM files") ==
          sha_of(2) + ",1200," + std::to_string(run2));
    CHECK(query_rows(h, "SELECT run_id || ':' || sha256 FROM file_history ORDER BY run_id") ==
          std::vector<std::string>{std::to_string(run1) + ":" + sha_of(1),
                                   std::to_string(run2) + ":" + sha_of(2)});
  }

  TEST_CASE("index: entry problems belong to the file and follow its latest sighting") {
    TempDir dir;
    auto db = open_index(dir.file("entry.sqlite"));
    EntryRecord big;
    big.entry_path = "huge.map";
    big.kind = EntryKind::oversize;
    big.size = 100ull << 20;
    big.problems = {
        {Code::entry_oversize, "100 MiB is over --max-map-size 64 MiB", Location::file()}};
    const auto run1 = db.begin_run("test", "0.0-test");
    big.source_id = db.source_id(run1, "/srv/maps", index::SourceKind::folder);
    db.write_entry(run1, big, nullptr);
    db.finish_run(run1, index::RunStatus::complete, {});
    sqlite3* h = db.handle();
    CHECK(
        query_text(
            h,
            "SELECT kind || ',' || ifnull(sha256, 'NULL') || ',' || ifnull(crc32, 'NULL') FROM files") ==
        "oversize,NULL,NULL");
    CHECK(query_text(
              h, "SELECT code || ',' || run_id || ',' || ifnull(map_id, 'NULL') FROM problems") ==
          "entry.oversize," + std::to_string(run1) + ",NULL");

    // Next run the entry is smaller and readable (not a map): its problem is gone.
    const auto run2 = db.begin_run("test", "0.0-test");
    EntryRecord small = big;
    small.source_id = db.source_id(run2, "/srv/maps", index::SourceKind::folder);
    small.kind = EntryKind::other;
    small.size = 10;
    small.sha256 = digest_of(10);
    small.problems.clear();
    db.write_entry(run2, small, nullptr);
    db.finish_run(run2, index::RunStatus::complete, {});
    CHECK(query_int(h, "SELECT count(*) FROM problems") == 0);
    CHECK(query_rows(h, "SELECT kind FROM file_history ORDER BY run_id") ==
          std::vector<std::string>{"oversize", "other"});
  }

  TEST_CASE("index runs: counters, status, and runs left running by a dead process") {
    TempDir dir;
    const auto path = dir.file("runs.sqlite");
    std::int64_t abandoned = 0;
    {
      auto db = open_index(path);
      abandoned = db.begin_run("mapindex index a.zip", "0.1.0");
      // Destroyed without finish_run: like a process that died.
    }
    auto db = open_index(path);
    sqlite3* h = db.handle();
    CHECK(query_text(h, "SELECT status FROM runs WHERE run_id = " + std::to_string(abandoned)) ==
          "running");
    // A run of another live process on this host stays running.
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    REQUIRE(
        sqlite3_exec(
            h,
            ("INSERT INTO runs (started_at, tool_version, extractor_version, command, host, pid) "
             "VALUES ('2026-01-01T00:00:00.000Z', 'x', 1, 'other', '" +
             std::string(host) + "', " + std::to_string(getppid()) + ")")
                .c_str(),
            nullptr, nullptr, nullptr) == SQLITE_OK);
    const auto live = query_int(h, "SELECT max(run_id) FROM runs");
    // ... and no new run starts beside it: the refusal names the run.
    try {
      (void)db.begin_run("mapindex index b.zip", "0.1.0");
      FAIL("begin_run beside a live run must throw");
    } catch (const IndexError& e) {
      CHECK(e.code() == Code::index_locked);
      CHECK_MESSAGE(
          std::string(e.what()).find("is being written by run " + std::to_string(live) + " (pid " +
                                     std::to_string(getppid()) + " on host " + host +
                                     ", started 2026-01-01 00:00:00 UTC)") != std::string::npos,
          e.what());
    }
    CHECK(query_text(h, "SELECT status FROM runs WHERE run_id = " + std::to_string(live)) ==
          "running");
    CHECK(query_int(h, "SELECT count(*) FROM runs") == 2);
    REQUIRE(
        sqlite3_exec(
            h,
            ("UPDATE runs SET status = 'complete' WHERE run_id = " + std::to_string(live)).c_str(),
            nullptr, nullptr, nullptr) == SQLITE_OK);

    const auto run = db.begin_run("mapindex index b.zip", "0.1.0");
    CHECK(query_text(h, "SELECT status FROM runs WHERE run_id = " + std::to_string(abandoned)) ==
          "interrupted");
    CHECK(
        query_text(
            h,
            "SELECT status || ',' || command || ',' || tool_version || ',' || pid FROM runs WHERE run_id = " +
                std::to_string(run)) ==
        "running,mapindex index b.zip,0.1.0," + std::to_string(getpid()));

    RunCounters counters;
    counters.entries = 10;
    counters.maps_indexed = 6;
    counters.maps_known = 1;
    counters.rejected = 2;
    counters.with_warnings = 3;
    counters.not_maps = 1;
    counters.unreadable = 1;
    counters.oversize = 1;
    counters.bytes = 123456;
    db.update_run(run, counters);
    db.commit_batch();
    CHECK(query_int(h, "SELECT bytes FROM runs WHERE run_id = " + std::to_string(run)) == 123456);
    counters.bytes = 200000;
    db.finish_run(run, index::RunStatus::interrupted, counters);
    CHECK(
        query_text(
            h,
            "SELECT status || ',' || entries || ',' || maps_indexed || ',' || maps_known || ',' || "
            "rejected || ',' || with_warnings || ',' || not_maps || ',' || unreadable || ',' || "
            "oversize || ',' || bytes || ',' || (finished_at >= started_at) FROM runs WHERE run_id = " +
                std::to_string(run)) == "interrupted,10,6,1,2,3,1,1,1,200000,1");
    CHECK_THROWS_AS(db.finish_run(run, RunStatus::running, counters), IndexError);
  }

  TEST_CASE(
      "index: the enumerated TEXT columns are read back through the to_string of their enum") {
    // Each value's text parses back to it; any other text is none.
    for (const auto kind :
         {EntryKind::map, EntryKind::other, EntryKind::oversize, EntryKind::unreadable})
      CHECK(parse_entry_kind(to_string(kind)) == kind);
    for (const auto kind :
         {SourceKind::archive, SourceKind::folder, SourceKind::file, SourceKind::standard_input})
      CHECK(parse_source_kind(to_string(kind)) == kind);
    for (const auto reading :
         {SourceReading::complete, SourceReading::partial, SourceReading::unreadable})
      CHECK(parse_source_reading(to_string(reading)) == reading);
    for (const auto status :
         {RunStatus::running, RunStatus::complete, RunStatus::interrupted, RunStatus::failed})
      CHECK(parse_run_status(to_string(status)) == status);
    for (const auto status : {MapStatus::ok, MapStatus::warnings, MapStatus::rejected})
      CHECK(parse_map_status(to_string(status)) == status);
    CHECK(to_string(SourceKind::standard_input) == "stdin");
    CHECK_FALSE(parse_source_kind("tarball"));
    CHECK_FALSE(parse_run_status("done"));
    CHECK_FALSE(parse_map_status("OK"));
    CHECK_FALSE(parse_entry_kind(""));
    CHECK_FALSE(parse_source_reading("partly"));

    // A value the schema's CHECK does not allow, read by the writer: an error
    // naming the column and the value, not a silent default.
    TempDir dir;
    const auto path = dir.file("odd.sqlite");
    {
      auto db = open_index(path);
      index_one_map(db);
    }
    {
      Connection raw;
      REQUIRE(raw.open(path, SQLITE_OPEN_READWRITE) == SQLITE_OK);
      exec_sql(raw.get(), "PRAGMA ignore_check_constraints = ON; UPDATE maps SET status = 'great'");
    }
    // (PRAGMA quick_check on opening finds it too: skipped here.)
    OpenOptions unchecked;
    unchecked.quick_check_max_bytes = 0;
    auto db = open_index(path, unchecked);
    try {
      (void)db.known_maps();
      FAIL("an unknown maps.status must throw");
    } catch (const IndexError& e) {
      CHECK(e.code() == Code::index_damaged);
      CHECK_MESSAGE(std::string(e.what()).find("maps.status is 'great'") != std::string::npos,
                    e.what());
    }
  }

  TEST_CASE("index: a read-only index refuses to write") {
    TempDir dir;
    const auto path = dir.file("ro.sqlite");
    {
      auto db = open_index(path);
      index_one_map(db);
    }
    auto ro = IndexDb::open(path, OpenMode::read_only);
    REQUIRE(ro.ok());
    CHECK(ro->known_maps().size() == 1);
    CHECK_THROWS_AS(ro->begin_run("x", "y"), IndexError);
    CHECK(sqlite3_exec(ro->handle(), "DELETE FROM maps", nullptr, nullptr, nullptr) != SQLITE_OK);
    CHECK(query_int(ro->handle(), "SELECT count(*) FROM maps") == 1);
  }

  TEST_CASE("index: entry names are file names without folder and extension") {
    CHECK(entry_name("maps/Kobra 4.map") == "Kobra 4");
    CHECK(entry_name("Kobra.map") == "Kobra");
    CHECK(entry_name("packs/inner.zip/maps/a.b.map") == "a.b");
    CHECK(entry_name("win\\style\\x.map") == "x");
    CHECK(entry_name(".hidden") == ".hidden");
    CHECK(entry_name("noext") == "noext");
    CHECK(entry_name("-") == "-");
  }

}  // TEST_SUITE
