// `mapindex query`: runs SQL read-only against an index and prints the
// results.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "stages/common/result.h"
#include "stages/write/result_printer.h"

namespace mapindex::index {

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
// damage or an I/O error. Any SQLite database can be queried; no schema
// version check.
Result<std::int64_t> run_query(const std::string& db_path, const std::string& sql, QueryFormat format,
                               std::ostream& out, bool (*stop)() = nullptr);

}  // namespace mapindex::index
