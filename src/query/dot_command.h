// The sqlite3 shell's `.tables` and `.schema` for `mapindex query`, as the
// SELECT that answers them: they then run, print and check like any other
// statement (every output format, the read-only guard, Ctrl-C).
#pragma once

#include <sqlite3.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace mapindex::query {

// The SELECT for the dot-command `command` (from its '.' to the end of its
// line or a ';', which are not part of it) on a connection whose databases
// are `databases` (PRAGMA database_list order: main first), as the sqlite3
// shell builds it:
// - `.tables [PATTERN]`: one column `name`, the tables and views whose name
//   is LIKE the pattern (all when none is given), those of other databases
//   than main as "schema.name", sorted; SQLite's own (sqlite_%) left out.
// - `.schema [PATTERN]`: one column `sql`, the CREATE statement of every
//   table, view, index and trigger of a table whose name is LIKE the pattern
//   (GLOB when it holds * ? or [), database by database in the order they
//   were created; other databases' names qualified ("CREATE TABLE
//   ext.mapinfo"), a view followed by a comment naming its columns. With
//   `printed` (the table format), as the shell prints them: ending in ';',
//   a table named in quotes made CREATE TABLE IF NOT EXISTS.
// A PATTERN holding '.' is matched against "schema.name" (the shell does so
// for .schema; here .tables too). It may be quoted ('...' or "..."). Error
// "query.sql" for another dot-command or more than one PATTERN. The SELECT
// calls mapindex_schema_sql(): see register_dot_command_functions.
Result<std::string> dot_command_sql(std::string_view command,
                                    const std::vector<std::string>& databases, bool printed);

// Registers on `db` the SQL function mapindex_schema_sql(sql, schema, name,
// printed) that .schema's SELECT uses (the shell's shell_add_schema and
// printSchemaLine). Returns SQLite's result code.
int register_dot_command_functions(sqlite3* db);

// `name` as an SQL identifier: in double quotes, each inner one doubled.
std::string quoted_identifier(std::string_view name);

}  // namespace mapindex::query
