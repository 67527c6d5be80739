#include "stages/write/migrations.h"

#include <cctype>

#include "stages/write/schema_files.h"
#include "stages/write/sqlite_statement.h"

namespace mapindex::index {
namespace {

// "001_initial.sql" -> 1; 0 when the name is not NNN_*.sql.
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

}  // namespace

const Migrations& default_migrations() {
  static const Migrations migrations = load_default_migrations();
  return migrations;
}

int latest_schema_version() {
  const auto& migrations = default_migrations();
  return migrations.empty() ? 0 : migrations.back().version;
}

Result<bool> check_migrations(const Migrations& migrations) {
  if (migrations.empty()) return Error{"index.migrations", "no schema migrations are built in"};
  for (std::size_t i = 0; i < migrations.size(); ++i) {
    if (migrations[i].version != static_cast<int>(i) + 1)
      return Error{"index.migrations", "migration " + migrations[i].name + " has version " +
                                           std::to_string(migrations[i].version) + ", expected " +
                                           std::to_string(i + 1) + " (versions run 1, 2, ...)"};
  }
  return true;
}

Result<int> read_schema_version(sqlite3* db, const std::string& path) {
  try {
    // The first read of the header tells whether this is a SQLite file at all.
    Statement version(db, "PRAGMA user_version");
    const int user_version = static_cast<int>(version.single_int().value_or(0));
    Statement app(db, "PRAGMA application_id");
    const auto application_id = app.single_int().value_or(0);
    if (application_id != 0 && application_id != kApplicationId)
      return Error{"index.foreign", with_path(path) + " is another program's SQLite database "
                                                      "(application_id " +
                                        std::to_string(application_id) + "), not a mapindex index"};
    if (user_version == 0) {
      Statement tables(db, "SELECT count(*) FROM sqlite_schema");
      if (tables.single_int().value_or(0) != 0)
        return Error{"index.foreign", with_path(path) + " is a SQLite database with tables but "
                                                        "not a mapindex index (user_version 0): "
                                                        "choose another --db file"};
    } else if (application_id != kApplicationId) {
      return Error{"index.foreign", with_path(path) + " has user_version " +
                                        std::to_string(user_version) +
                                        " but is not a mapindex index (no application_id)"};
    }
    return user_version;
  } catch (const IndexError& e) {
    if (sqlite3_errcode(db) == SQLITE_NOTADB)
      return Error{"index.not_sqlite", with_path(path) + " is not a SQLite database"};
    return Error{index_error_code(sqlite3_extended_errcode(db), "index.open"),
                 "cannot read " + with_path(path) + ": " + e.what()};
  }
}

Result<int> migrate(sqlite3* db, const std::string& path, const Migrations& migrations) {
  if (auto checked = check_migrations(migrations); !checked) return checked.error();
  const int latest = migrations.back().version;

  auto current = read_schema_version(db, path);
  if (!current) return current.error();
  if (*current > latest)
    return Error{"index.newer",
                 with_path(path) + " has schema version " + std::to_string(*current) +
                     ", newer than this mapindex understands (" + std::to_string(latest) +
                     "): use a newer mapindex, or write a new index with --db"};

  for (const auto& migration : migrations) {
    if (migration.version <= *current) continue;
    try {
      exec_sql(db, "BEGIN IMMEDIATE");
    } catch (const IndexError& e) {
      return Error{e.code() == "index.locked" ? "index.locked" : "index.migration",
                   "cannot start migrating " + with_path(path) + ": " + e.what()};
    }
    try {
      // Another process may have migrated while we waited for the lock.
      Statement version(db, "PRAGMA user_version");
      const int now = static_cast<int>(version.single_int().value_or(0));
      if (now >= migration.version) {
        exec_sql(db, "COMMIT");
        *current = now;
        continue;
      }
      if (now != migration.version - 1)
        throw IndexError("found schema version " + std::to_string(now) + ", expected " +
                         std::to_string(migration.version - 1));
      exec_sql(db, migration.sql);
      exec_sql(db, "PRAGMA user_version = " + std::to_string(migration.version));
      exec_sql(db, "COMMIT");
      *current = migration.version;
    } catch (const IndexError& e) {
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      return Error{"index.migration", "migrating " + with_path(path) + " to schema version " +
                                          std::to_string(migration.version) + " (" +
                                          migration.name + ") failed, the index is unchanged at "
                                          "version " + std::to_string(*current) + ": " + e.what()};
    }
  }
  return *current;
}

}  // namespace mapindex::index
