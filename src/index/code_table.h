// The problem_codes table: the program's code table
// (src/common/problem_codes.h) in the index, so that SQL and other tools
// can read what each stored code means.
#pragma once

#include <sqlite3.h>

#include <functional>

namespace mapindex::index {

// Makes problem_codes hold exactly one row per code of the program's table
// (in one transaction, only when it differs: a build whose table changed
// rewrites it at its first writing open; `before_writing` runs first then, and
// may throw to stop it). An index without the table (a test's older schema)
// is left alone. Throws IndexError on SQLite failures.
void sync_problem_codes(sqlite3* db, const std::function<void()>& before_writing = {});

}  // namespace mapindex::index
