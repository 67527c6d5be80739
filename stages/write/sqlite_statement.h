// Thin RAII helpers over the SQLite C API: prepared statements with typed
// binding, a cache of them, and plain execution of SQL text. Failures throw
// IndexError carrying SQLite's message.
#pragma once

#include <sqlite3.h>

#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

#include "stages/common/problem_codes.h"

namespace mapindex::index {

// The Error code of a SQLite failure that is the index's own fault, not the
// caller's: "index.damaged" (SQLITE_CORRUPT, SQLITE_NOTADB), "index.locked"
// (SQLITE_BUSY, SQLITE_LOCKED: another process holds it), "index.io"
// (SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM,
// SQLITE_NOLFS, SQLITE_NOMEM); any other code (a constraint, bad SQL,
// misuse) gives `otherwise`.
Code index_error_code(int sqlite_code, Code otherwise = Code::index_sql);

// A failure while writing or reading the index (SQLite error, misuse). The
// message names the statement or value and includes SQLite's own message;
// code() is index_error_code() of SQLite's result code ("index.sql" for
// misuse found by the writer itself).
class IndexError : public std::runtime_error {
 public:
  explicit IndexError(const std::string& message, Code code = Code::index_sql)
      : std::runtime_error(message), code_(code) {}
  Code code() const { return code_; }

 private:
  Code code_;
};

// "<what>: <sqlite3_errmsg> (code N)".
std::string sqlite_message(sqlite3* db, std::string_view what);

// Runs SQL text of one or more statements that return no rows we need.
void exec_sql(sqlite3* db, std::string_view sql);

// Bytes bound as a BLOB (the original bytes of text that is not UTF-8).
struct Blob {
  std::string_view bytes;
};

// The bytes of `text` as a Blob when they are not valid UTF-8, else nothing
// (NULL): the value of the *_raw columns beside TEXT columns.
std::optional<Blob> bytes_if_not_utf8(std::string_view text);

class Statement {
 public:
  Statement() = default;
  Statement(sqlite3* db, std::string_view sql);  // throws IndexError
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binds parameters 1..N in order (after resetting the statement).
  // Binds parameters 1..N in order (after resetting the statement); N must
  // be the statement's number of parameters.
  template <class... Args>
  Statement& bind_all(const Args&... args) {
    reset();
    check_parameter_count(static_cast<int>(sizeof...(Args)));
    [[maybe_unused]] int i = 1;
    (bind(i++, args), ...);
    return *this;
  }

  void bind(int i, std::nullopt_t);
  void bind(int i, double v);
  // Text is bound as valid UTF-8: invalid bytes become U+FFFD (see
  // stages/common/utf8.h), so every TEXT value in the index is UTF-8.
  void bind(int i, std::string_view v);
  void bind(int i, Blob v);
  void bind(int i, const std::string& v) { bind(i, std::string_view(v)); }
  void bind(int i, const char* v) { bind(i, std::string_view(v)); }
  void bind(int i, bool v) { bind_int64(i, v ? 1 : 0); }
  template <std::integral T>
  void bind(int i, T v) { bind_int64(i, static_cast<std::int64_t>(v)); }
  template <class T>
  void bind(int i, const std::optional<T>& v) {
    if (v) bind(i, *v); else bind(i, std::nullopt);
  }

  // Steps once: true when a row is available, false when done.
  bool step();
  // Steps to completion, ignoring rows, then resets.
  void run();
  // Steps once and returns column 0 of the row as an integer; nullopt if no row.
  std::optional<std::int64_t> single_int();

  std::int64_t column_int(int i) const;
  double column_double(int i) const;
  std::string column_text(int i) const;  // "" for NULL
  bool column_is_null(int i) const;
  int column_count() const;

  void reset();
  sqlite3_stmt* get() const { return stmt_; }

 private:
  void bind_int64(int i, std::int64_t v);
  void check_parameter_count(int given) const;
  void check_bind(int rc, int i);

  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

// Prepared statements by SQL text, prepared on first use.
class StatementCache {
 public:
  explicit StatementCache(sqlite3* db) : db_(db) {}
  Statement& get(std::string_view sql);
  void clear() { cache_.clear(); }

 private:
  sqlite3* db_;
  std::unordered_map<std::string, Statement> cache_;
};

}  // namespace mapindex::index
