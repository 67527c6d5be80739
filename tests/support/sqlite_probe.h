// Reading an index from tests: rows as strings, and a canonical dump of
// tables for comparing two indexes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace mapindex::testing {

using Row = std::vector<std::string>;  // NULL as "NULL"

// Rows of `sql` on the database at `db` (opened read-only). Throws on error.
std::vector<Row> sql_rows(const std::filesystem::path& db, const std::string& sql);
// The first column of the first row.
std::string sql_value(const std::filesystem::path& db, const std::string& sql);
std::int64_t sql_int(const std::filesystem::path& db, const std::string& sql);

// The stamp a finished run leaves on an index (index/index_stamp.h), or ""
// when it has none.
std::string index_stamp(const std::filesystem::path& db);
// Whether files in `dir` keep user extended attributes (the stamp): where
// they do not, every run checks its index and a stamp test has nothing to
// test.
bool keeps_user_xattrs(const std::filesystem::path& dir);

// Every table and view a query can see, each as sorted rows, without what
// legitimately differs between two runs over the same input: the run's
// timestamps, its command line and process id.
using IndexTables = std::map<std::string, std::vector<Row>>;
IndexTables index_tables(const std::filesystem::path& db);
// The tables and views of `reference`, with their columns there, read from
// `db` as index_tables reads them (tool_version left out too): what a query
// written for the reference index's schema sees in `db`.
IndexTables index_tables_as(const std::filesystem::path& db,
                            const std::filesystem::path& reference);
// The first table (or view) whose rows differ, with a row only one side has;
// empty when the two are the same.
std::string first_difference(const IndexTables& a, const IndexTables& b);

}  // namespace mapindex::testing
