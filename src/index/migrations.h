// Schema versions: the ordered list of migrations (schema/NNN_name.sql,
// embedded in the binary) and the runner that brings an index up to date.
#pragma once

#include <sqlite3.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace mapindex::index {

struct Migration {
  int version = 0;   // the user_version after it ran: 1, 2, ...
  std::string name;  // e.g. "001_initial.sql"
  std::string sql;
};

using Migrations = std::vector<Migration>;

// The project's migrations, from schema/NNN_*.sql in order.
const Migrations& default_migrations();

// 'MPIX': PRAGMA application_id of a mapindex index.
inline constexpr int kApplicationId = 1297107288;

// Migrations must be numbered 1, 2, ... without gaps. Error otherwise.
Result<bool> check_migrations(const Migrations& migrations);

// Reads PRAGMA user_version. Error "index.not_sqlite" when the file is not a
// SQLite database, "index.foreign" when it is another program's database.
Result<int> read_schema_version(sqlite3* db, const std::string& path);

// The schema every migration leaves on an empty database, as one script of
// CREATE statements: generated at build time by schema/snapshot.cpp, which
// runs the migrations and checks that the script rebuilds the same schema.
struct SchemaSnapshot {
  int version = 0;        // the last migration's version
  std::string_view name;  // and its name: the snapshot is of that list
  std::string_view sql;
};

// The snapshot of default_migrations() (defined in the generated file).
const SchemaSnapshot& default_schema_snapshot();

// Brings the index to the last migration's version: each pending migration
// runs in its own transaction (BEGIN IMMEDIATE) that also sets user_version,
// so a failure leaves the index at the previous version. Refuses an index
// newer than the last migration ("index.newer"). Returns the version now.
//
// An empty database (user_version 0, no tables) gets `fresh` instead, in one
// transaction, when it is a snapshot of `migrations` (same last version and
// name): every ALTER TABLE of a migration parses the whole schema again, so
// running them costs a fresh index several times what the snapshot does.
Result<int> migrate(sqlite3* db, const std::string& path, const Migrations& migrations,
                    const SchemaSnapshot* fresh = nullptr);

}  // namespace mapindex::index
