// `mapindex query`: runs SQL read-only against an index and prints the
// results. Its own folder: it reads any SQLite file through src/sqlite and
// prints through the result printer; it is no part of writing the index.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "common/result.h"
#include "query/result_printer.h"

namespace mapindex::query {

// Opens `db_path` read-only (open_sqlite_read_only: immutable on read-only
// media; PRAGMA query_only), runs every statement of `sql` in order and
// prints each result set that has columns (table output separates them with
// a blank line). A statement that is not read-only (sqlite3_stmt_readonly:
// VACUUM INTO, PRAGMA x = y, ...) is refused before it runs, so it creates
// no file. `stop` (may be null) is polled while statements run; when it
// returns true the statement is abandoned. Returns the number of rows
// printed. Errors: "query.open" (missing file), those of
// open_sqlite_read_only ("index.io", "index.damaged", ...), "query.empty"
// (no statement), "query.write" (a statement that would write),
// "query.interrupted" (`stop` said so), "query.sql" (SQLite's message, e.g.
// "no such table: mapz"), or an index_error_code() when SQLite reports
// damage or an I/O error (the message names `db_path`). Any SQLite
// database can be queried; no schema version check.
Result<std::int64_t> run_query(const std::string& db_path, const std::string& sql,
                               QueryFormat format, std::ostream& out, bool (*stop)() = nullptr);

// A value for the SQL parameter `name` (written :name, @name or $name in the
// SQL; `name` without the prefix), bound with its type.
struct QueryParameter {
  std::string name;
  std::variant<std::int64_t, double, std::string> value;
};

struct QueryOptions {
  QueryFormat format = QueryFormat::table;
  std::vector<QueryParameter> parameters;
  std::size_t max_cell_width = 0;  // table only; 0: never cut (see make_printer)
};

// As above, binding `options.parameters`. Every statement is prepared and
// checked before the first one runs, so a statement that would write, a
// parameter without a value ("query.parameter": "no value for :name ..."), a
// nameless parameter (?, ?1) or a value no statement uses ("query.parameter")
// stops the query before it prints anything. ATTACH and DETACH run while the
// statements are checked (an ATTACH that fails is "query.sql" naming it), so
// the statements after them are prepared against the databases they will
// see, and again in order; an attached database opens read-only, as the
// index does, and query_only covers it. Where a statement may start, a '.'
// begins a dot-command, up to the end of its line or a ';': .tables and
// .schema (dot_command.h); in the table format their answers print as
// lines, as the sqlite3 shell prints them.
Result<std::int64_t> run_query(const std::string& db_path, const std::string& sql,
                               const QueryOptions& options, std::ostream& out,
                               bool (*stop)() = nullptr);

}  // namespace mapindex::query
