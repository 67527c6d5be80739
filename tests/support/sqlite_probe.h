// Reading an index from tests: rows as strings, and a canonical dump of
// tables for comparing two indexes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace mapindex::testing {

using Row = std::vector<std::string>;  // NULL as "NULL"

// Rows of `sql` on the database at `db` (opened read-only). Throws on error.
std::vector<Row> sql_rows(const std::filesystem::path& db, const std::string& sql);
// The first column of the first row.
std::string sql_value(const std::filesystem::path& db, const std::string& sql);
std::int64_t sql_int(const std::filesystem::path& db, const std::string& sql);

}  // namespace mapindex::testing
