// `mapindex query`: runs SQL read-only against an index and prints the
// results.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "stages/common/result.h"
#include "stages/write/result_printer.h"

namespace mapindex::index {

// Opens `db_path` read-only (SQLITE_OPEN_READONLY and PRAGMA query_only, so
// any write fails), runs every statement of `sql` in order and prints each
// result set that has columns (table output separates them with a blank
// line). Returns the number of rows printed. Errors: "query.open" (missing
// or unreadable file), "query.empty" (no statement), "query.sql" (SQLite's
// message, e.g. "no such table: mapz"; the CLI exits with status 2). Any
// SQLite database can be queried; no schema version check.
Result<std::int64_t> run_query(const std::string& db_path, const std::string& sql, QueryFormat format,
                            std::ostream& out);

}  // namespace mapindex::index
