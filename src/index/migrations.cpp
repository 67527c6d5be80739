#include "index/migrations.h"

#include <cctype>
#include <optional>

#include "common/utf8.h"
#include "index/schema_files.h"
#include "sqlite/statement.h"

namespace mapindex::index {
namespace {

// The number of a migration's file name ("001_initial.sql": 1); 0 when the
// name is not NNN_*.sql.
int migration_number(std::string_view name) {
  if (name.size() < 9 || name[3] != '_' || !name.ends_with(".sql")) return 0;
  int number = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return 0;
    number = number * 10 + (name[i] - '0');
  }
  return number;
}

Migrations load_default_migrations() {
  Migrations migrations;
  for (const auto& file : schema_files()) {
    const int number = migration_number(file.name);
    if (number > 0)
      migrations.push_back({number, std::string(file.name), std::string(file.content)});
  }
  return migrations;
}

std::string with_path(const std::string& path) { return "index '" + path + "'"; }

// A schema change that could not take the write lock (or start at all):
// "index.locked" when another connection holds it.
Error cannot_start(const std::string& doing, const std::string& path, const sqlite::IndexError& e) {
  return Error{e.code() == Code::index_locked ? Code::index_locked : Code::index_migration,
               "cannot start " + doing + " " + with_path(path) + ": " + e.what()};
}

std::string_view text_of(sqlite3_value* value) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(value));
  return text ? std::string_view(text, static_cast<std::size_t>(sqlite3_value_bytes(value)))
              : std::string_view();
}

// mapindex_is_utf8(x): 0 for TEXT that is not valid UTF-8, else 1 (NULL,
// numbers and BLOBs included).
void sql_is_utf8(sqlite3_context* context, int, sqlite3_value** argv) {
  const bool valid = sqlite3_value_type(argv[0]) != SQLITE_TEXT || is_valid_utf8(text_of(argv[0]));
  sqlite3_result_int(context, valid ? 1 : 0);
}

// mapindex_utf8(x): TEXT with U+FFFD for each invalid sequence; other values
// as they are.
void sql_utf8(sqlite3_context* context, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
    sqlite3_result_value(context, argv[0]);
    return;
  }
  const std::string valid = to_valid_utf8(text_of(argv[0]));
  sqlite3_result_text64(context, valid.data(), valid.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

// The SQL functions migrations may use (002 repairs text written by version 1).
void register_migration_functions(sqlite3* db) {
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY;
  if (sqlite3_create_function_v2(db, "mapindex_is_utf8", 1, flags, nullptr, sql_is_utf8, nullptr,
                                 nullptr, nullptr) != SQLITE_OK ||
      sqlite3_create_function_v2(db, "mapindex_utf8", 1, flags, nullptr, sql_utf8, nullptr, nullptr,
                                 nullptr) != SQLITE_OK)
    throw sqlite::IndexError(
        sqlite::sqlite_message(db, "registering the migrations' SQL functions"));
}

// Creates the latest schema at once on an empty database. False when the
// database is no longer empty once the write lock is held (another process
// created it meanwhile): the migrations then go on from its version.
Result<bool> create_from_snapshot(sqlite3* db, const std::string& path,
                                  const SchemaSnapshot& fresh) {
  try {
    sqlite::exec_sql(db, "BEGIN IMMEDIATE");
  } catch (const sqlite::IndexError& e) {
    return cannot_start("creating the schema of", path, e);
  }
  try {
    sqlite::Statement version(db, "PRAGMA user_version");
    const bool numbered = version.single_int().value_or(0) != 0;
    sqlite::Statement tables(db, "SELECT count(*) FROM sqlite_schema");
    if (numbered || tables.single_int().value_or(0) != 0) {
      sqlite::exec_sql(db, "COMMIT");
      return false;
    }
    sqlite::exec_sql(db, fresh.sql);
    sqlite::exec_sql(db, "PRAGMA application_id = " + std::to_string(kApplicationId));
    sqlite::exec_sql(db, "PRAGMA user_version = " + std::to_string(fresh.version));
    sqlite::exec_sql(db, "COMMIT");
    return true;
  } catch (const sqlite::IndexError& e) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    return Error{Code::index_migration,
                 "creating the schema (version " + std::to_string(fresh.version) + ") of " +
                     with_path(path) + " failed, the file is unchanged: " + e.what()};
  }
}

// SQLite's defensive mode off while migrating, as it was afterwards: 009
// edits CHECK constraints in sqlite_schema (PRAGMA writable_schema), which a
// SQLite built defensive by default would refuse.
class DefensiveOff {
 public:
  explicit DefensiveOff(sqlite3* db) : db_(db) {
    sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, -1, &was_);
    if (sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 0, nullptr) != SQLITE_OK)
      throw sqlite::IndexError(
          sqlite::sqlite_message(db_, "turning SQLite's defensive mode off to migrate"));
  }
  ~DefensiveOff() { sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, was_, nullptr); }
  DefensiveOff(const DefensiveOff&) = delete;
  DefensiveOff& operator=(const DefensiveOff&) = delete;

 private:
  sqlite3* db_;
  int was_ = 0;
};

}  // namespace

const Migrations& default_migrations() {
  static const Migrations migrations = load_default_migrations();
  return migrations;
}

Result<bool> check_migrations(const Migrations& migrations) {
  if (migrations.empty()) return Error{Code::index_migrations, "no schema migrations are built in"};
  for (std::size_t i = 0; i < migrations.size(); ++i) {
    if (migrations[i].version != static_cast<int>(i) + 1)
      return Error{Code::index_migrations, "migration " + migrations[i].name + " has version " +
                                               std::to_string(migrations[i].version) +
                                               ", expected " + std::to_string(i + 1) +
                                               " (versions run 1, 2, ...)"};
  }
  return true;
}

Result<int> read_schema_version(sqlite3* db, const std::string& path) {
  try {
    // The first read of the header tells whether this is a SQLite file at all.
    sqlite::Statement version(db, "PRAGMA user_version");
    const int user_version = static_cast<int>(version.single_int().value_or(0));
    sqlite::Statement app(db, "PRAGMA application_id");
    const auto application_id = app.single_int().value_or(0);
    if (application_id != 0 && application_id != kApplicationId)
      return Error{Code::index_foreign, with_path(path) +
                                            " is another program's SQLite database "
                                            "(application_id " +
                                            std::to_string(application_id) +
                                            "), not a mapindex index"};
    if (user_version == 0) {
      sqlite::Statement tables(db, "SELECT count(*) FROM sqlite_schema");
      if (tables.single_int().value_or(0) != 0)
        return Error{Code::index_foreign, with_path(path) +
                                              " is a SQLite database with tables but "
                                              "not a mapindex index (user_version 0): "
                                              "choose another --db file"};
    } else if (application_id != kApplicationId) {
      return Error{Code::index_foreign, with_path(path) + " has user_version " +
                                            std::to_string(user_version) +
                                            " but is not a mapindex index (no application_id)"};
    }
    return user_version;
  } catch (const sqlite::IndexError& e) {
    if (sqlite3_errcode(db) == SQLITE_NOTADB)
      return Error{Code::index_not_sqlite, with_path(path) + " is not a SQLite database"};
    return Error{sqlite::index_error_code(sqlite3_extended_errcode(db), Code::index_open),
                 "cannot read " + with_path(path) + ": " + e.what()};
  }
}

Result<int> migrate(sqlite3* db, const std::string& path, const Migrations& migrations,
                    const SchemaSnapshot* fresh) {
  if (auto checked = check_migrations(migrations); !checked) return checked.error();
  const int latest = migrations.back().version;

  auto current = read_schema_version(db, path);
  if (!current) return current.error();
  if (*current > latest)
    return Error{Code::index_newer,
                 with_path(path) + " has schema version " + std::to_string(*current) +
                     ", newer than this mapindex understands (" + std::to_string(latest) +
                     "): use a newer mapindex, or write a new index with --db"};
  if (*current == 0 && fresh && fresh->version == latest && fresh->name == migrations.back().name) {
    auto created = create_from_snapshot(db, path, *fresh);
    if (!created) return created.error();
    if (*created) return latest;
    auto now = read_schema_version(db, path);
    if (!now) return now.error();
    *current = *now;
  }

  // Set up before the first pending migration: foreign keys off (a migration
  // may rebuild a table by SQLite's 12-step procedure, and this cannot change
  // inside a transaction; each migration checks them before it commits, and
  // the index sets them as kEnforceForeignKeys says after migrating), the
  // migrations' SQL functions, and defensive mode off until we return.
  std::optional<DefensiveOff> migrating;
  for (const auto& migration : migrations) {
    if (migration.version <= *current) continue;
    try {
      if (!migrating) {
        sqlite::exec_sql(db, "PRAGMA foreign_keys = OFF");
        register_migration_functions(db);
        migrating.emplace(db);
      }
      sqlite::exec_sql(db, "BEGIN IMMEDIATE");
    } catch (const sqlite::IndexError& e) {
      return cannot_start("migrating", path, e);
    }
    try {
      // Another process may have migrated while we waited for the lock.
      sqlite::Statement version(db, "PRAGMA user_version");
      const int now = static_cast<int>(version.single_int().value_or(0));
      if (now >= migration.version) {
        sqlite::exec_sql(db, "COMMIT");
        *current = now;
        continue;
      }
      if (now != migration.version - 1)
        throw sqlite::IndexError("found schema version " + std::to_string(now) + ", expected " +
                                 std::to_string(migration.version - 1));
      sqlite::exec_sql(db, migration.sql);
      {
        sqlite::Statement check(db, "PRAGMA foreign_key_check");
        if (check.step())
          throw sqlite::IndexError("after the migration, a row of table " + check.column_text(0) +
                                   " (rowid " + check.column_text(1) +
                                   ") refers to a missing row of " + check.column_text(2));
      }
      sqlite::exec_sql(db, "PRAGMA user_version = " + std::to_string(migration.version));
      sqlite::exec_sql(db, "COMMIT");
      *current = migration.version;
    } catch (const sqlite::IndexError& e) {
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      // A migration that edits sqlite_schema (009) turns writable_schema on.
      sqlite3_exec(db, "PRAGMA writable_schema = RESET", nullptr, nullptr, nullptr);
      return Error{Code::index_migration, "migrating " + with_path(path) + " to schema version " +
                                              std::to_string(migration.version) + " (" +
                                              migration.name +
                                              ") failed, the index is unchanged at "
                                              "version " +
                                              std::to_string(*current) + ": " + e.what()};
    }
  }
  return *current;
}

}  // namespace mapindex::index
