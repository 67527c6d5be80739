// Prepared statements over a connection of src/sqlite/database.h: typed
// binding (by position, checked against the statement's parameter count, or
// by :name, checked against its parameter names), typed columns, and a
// cache of statements by SQL text. Failures throw IndexError carrying
// SQLite's message.
#pragma once

#include <sqlite3.h>

#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/bytes.h"
#include "sqlite/database.h"

#include "common/problem_codes.h"

namespace mapindex::sqlite {

// Bytes bound as a BLOB (the original bytes of text that is not UTF-8).
struct Blob {
  std::string_view bytes;
};
// The bytes of a span as a Blob.
inline Blob blob_of(Bytes bytes) {
  return Blob{std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())};
}

// The bytes of `text` as a Blob when they are not valid UTF-8, else nothing
// (NULL): the value of the *_raw columns beside TEXT columns.
std::optional<Blob> bytes_if_not_utf8(std::string_view text);

// A value for the parameter `name` (":sha256") of Statement::bind_named.
// It refers to `value`: use it within the full expression that binds it.
template <class T>
struct Named {
  std::string_view name;
  const T& value;
};
template <class T>
Named<T> named(std::string_view name, const T& value) {
  return {name, value};
}

class Statement {
 public:
  Statement() = default;
  Statement(sqlite3* db, std::string_view sql);  // throws IndexError
  // The first statement of `sql`, which is advanced past it; empty (false)
  // when `sql` holds no statement, only whitespace or comments.
  static Statement prepare_first(sqlite3* db, std::string_view& sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binds parameters 1..N in order (after resetting the statement); N must
  // be the statement's number of parameters.
  template <class... Args>
  Statement& bind_all(const Args&... args) {
    rewind();
    check_parameter_count(static_cast<int>(sizeof...(Args)));
    [[maybe_unused]] int i = 1;
    (bind(i++, args), ...);
    return *this;
  }

  // Binds `rows` rows of `row_size` parameters each (after resetting the
  // statement), for a multi-row INSERT ... VALUES (...), (...): the
  // statement must have rows * row_size parameters. bind_row(r, first)
  // binds row r's, from parameter `first` on (with bind_from).
  template <class F>
  Statement& bind_rows(int rows, int row_size, F&& bind_row) {
    rewind();
    check_parameter_count(rows * row_size);
    for (int r = 0; r < rows; ++r) bind_row(r, r * row_size + 1);
    return *this;
  }
  // Binds `args` to the parameters from `first` on (see bind_rows).
  template <class... Args>
  void bind_from(int first, const Args&... args) {
    (bind(first++, args), ...);
  }

  // Binds the parameters by name (after resetting the statement): every
  // name must be a parameter of the statement and given once, and every
  // parameter of the statement must be given; else IndexError naming them.
  // The names are read once per statement; a name is looked for first at the
  // parameter after the previous one (call sites list them in order).
  template <class... Args>
  Statement& bind_named(const Named<Args>&... args) {
    rewind();
    start_named();
    (bind(parameter_index(args.name), args.value), ...);
    check_all_bound();
    return *this;
  }

  void bind(int i, std::nullopt_t);
  void bind(int i, double v);
  // Text is bound as valid UTF-8: invalid bytes become U+FFFD (see
  // src/common/utf8.h), so every TEXT value in the index is UTF-8.
  void bind(int i, std::string_view v);
  void bind(int i, Blob v);
  void bind(int i, const std::string& v) { bind(i, std::string_view(v)); }
  void bind(int i, const char* v) { bind(i, std::string_view(v)); }
  void bind(int i, bool v) { bind_int64(i, v ? 1 : 0); }
  template <std::integral T>
  void bind(int i, T v) {
    bind_int64(i, static_cast<std::int64_t>(v));
  }
  template <class T>
  void bind(int i, const std::optional<T>& v) {
    if (v)
      bind(i, *v);
    else
      bind(i, std::nullopt);
  }

  // Steps once: true when a row is available, false when done.
  bool step();
  // Steps to completion, ignoring rows, then resets.
  void run();
  // Runs a plain INSERT of one row into a rowid table and returns the rowid
  // it gave the row (sqlite3_last_insert_rowid). Cheaper than RETURNING,
  // which collects the returned rows in a temporary B-tree on every
  // execution. Throws when the statement returns rows or changes other than
  // one row (INSERT OR IGNORE that ignored, a multi-row INSERT); a WITHOUT
  // ROWID table sets no rowid, so it must not be used there.
  std::int64_t insert();
  // As insert(), for an INSERT of one row that a conflict may skip (ON
  // CONFLICT DO NOTHING): nullopt when it inserted nothing.
  std::optional<std::int64_t> insert_unless_conflict();
  // Steps once and returns column 0 of the row as an integer; nullopt if no row.
  std::optional<std::int64_t> single_int();

  std::int64_t column_int(int i) const;
  double column_double(int i) const;
  std::string column_text(int i) const;  // "" for NULL
  bool column_is_null(int i) const;
  // Column i, a TEXT value of an enum, read back with `parse` (a parse_*()
  // of the enum): IndexError (index.damaged) naming `column` and the value
  // when it is none the enum knows.
  template <class E>
  E column_enum(int i, std::optional<E> (*parse)(std::string_view), std::string_view column) const {
    const std::string text = column_text(i);
    if (const auto value = parse(text)) return *value;
    throw_unknown_value(column, text);
  }
  int column_count() const;
  int column_type(int i) const;               // SQLITE_INTEGER, ..., SQLITE_NULL
  std::string_view column_blob(int i) const;  // the bytes of a BLOB
  std::string column_name(int i) const;

  int parameter_count() const;
  std::string parameter_name(int i) const;  // ":name" ("" for ?)
  bool read_only() const;                   // sqlite3_stmt_readonly
  std::string sql() const;                  // the statement's text
  explicit operator bool() const { return stmt_ != nullptr; }

  // sqlite3_reset: ready to run again. The bindings stay until the next
  // bind_*, each of which binds every parameter again.
  void reset();
  sqlite3_stmt* get() const { return stmt_; }

 private:
  // sqlite3_reset without clearing the bindings: bind_all and bind_named
  // bind every parameter again (each checks that), so clearing them first
  // only costs (sqlite3_clear_bindings was 3.7% of the writer).
  void rewind();
  void bind_int64(int i, std::int64_t v);
  void check_parameter_count(int given) const;
  // Reads the parameter names (first use) and clears the marks of bound ones.
  void start_named();
  // The index of parameter `name`, marked as bound; throws when the
  // statement has no such parameter or it is bound twice.
  int parameter_index(std::string_view name);
  void check_all_bound() const;
  void check_bind(int rc, int i);
  [[noreturn]] void throw_unknown_value(std::string_view column, const std::string& text) const;

  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
  // For bind_named: names_[i] is parameter i's name (names_[0] unused),
  // bound_[i] whether it is given, last_ the index bound last. Copies: SQLite
  // frees its own when it prepares the statement again (schema changes).
  std::vector<std::string> names_;
  std::vector<char> bound_;
  int last_ = 0;
};

// Prepared statements by SQL text, prepared on first use.
class StatementCache {
 public:
  explicit StatementCache(sqlite3* db) : db_(db) {}
  Statement& get(std::string_view sql);
  void clear() { cache_.clear(); }
  sqlite3* handle() const { return db_; }

 private:
  // Looked up by string_view without building a std::string.
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  sqlite3* db_;
  std::unordered_map<std::string, Statement, Hash, std::equal_to<>> cache_;
};

// Whether the connection's main schema holds an object of `type` ("table",
// "index", "view", "trigger") named `name`.
bool schema_has(sqlite3* db, std::string_view type, std::string_view name);

}  // namespace mapindex::sqlite
