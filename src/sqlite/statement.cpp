#include "sqlite/statement.h"

#include <utility>

#include "common/utf8.h"

namespace mapindex::sqlite {

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  const char* tail = nullptr;
  if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                         &stmt_, &tail) != SQLITE_OK) {
    auto error = sqlite_error(db, "preparing `" + std::string(sql.substr(0, 80)) + "`");
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
    throw error;
  }
}

Statement Statement::prepare_first(sqlite3* db, std::string_view& sql) {
  Statement statement;
  statement.db_ = db;
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &statement.stmt_, &tail) !=
      SQLITE_OK)
    throw sqlite_error(db, "preparing `" + std::string(sql.substr(0, 80)) + "`");
  sql.remove_prefix(tail ? static_cast<std::size_t>(tail - sql.data()) : sql.size());
  return statement;
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      stmt_(std::exchange(other.stmt_, nullptr)),
      names_(std::move(other.names_)),
      bound_(std::move(other.bound_)),
      last_(other.last_) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = std::exchange(other.db_, nullptr);
    stmt_ = std::exchange(other.stmt_, nullptr);
    names_ = std::move(other.names_);
    bound_ = std::move(other.bound_);
    last_ = other.last_;
  }
  return *this;
}

void Statement::check_bind(int rc, int i) {
  if (rc != SQLITE_OK)
    throw sqlite_error(db_, "binding parameter " + std::to_string(i) + " of `" +
                                std::string(sqlite3_sql(stmt_)) + "`");
}

void Statement::check_parameter_count(int given) const {
  const int expected = sqlite3_bind_parameter_count(stmt_);
  if (given != expected)
    throw IndexError("`" + std::string(sqlite3_sql(stmt_)) + "` takes " + std::to_string(expected) +
                     " parameters, given " + std::to_string(given));
}

void Statement::start_named() {
  if (names_.empty()) {
    const int count = sqlite3_bind_parameter_count(stmt_);
    names_.resize(static_cast<std::size_t>(count) + 1);
    for (int i = 1; i <= count; ++i) {
      const char* name = sqlite3_bind_parameter_name(stmt_, i);
      names_[static_cast<std::size_t>(i)] = name ? name : "";
    }
  }
  bound_.assign(names_.size(), 0);
  last_ = 0;
}

int Statement::parameter_index(std::string_view name) {
  const int count = static_cast<int>(names_.size()) - 1;
  int i = last_ + 1;
  if (i > count || names_[static_cast<std::size_t>(i)] != name) {
    i = 0;
    for (int k = 1; k <= count; ++k)
      if (names_[static_cast<std::size_t>(k)] == name) {
        i = k;
        break;
      }
  }
  if (i <= 0)
    throw IndexError("`" + std::string(sqlite3_sql(stmt_)) + "` has no parameter " +
                     std::string(name));
  if (bound_[static_cast<std::size_t>(i)])
    throw IndexError("parameter " + std::string(name) + " of `" + std::string(sqlite3_sql(stmt_)) +
                     "` is given twice");
  bound_[static_cast<std::size_t>(i)] = 1;
  last_ = i;
  return i;
}

void Statement::check_all_bound() const {
  std::string missing;
  for (std::size_t i = 1; i < bound_.size(); ++i) {
    if (bound_[i]) continue;
    const char* name = sqlite3_bind_parameter_name(stmt_, static_cast<int>(i));
    missing += (missing.empty() ? "" : ", ") + (name ? std::string(name) : "?" + std::to_string(i));
  }
  if (!missing.empty())
    throw IndexError("`" + std::string(sqlite3_sql(stmt_)) + "`: no value given for " + missing);
}

void Statement::bind(int i, std::nullopt_t) { check_bind(sqlite3_bind_null(stmt_, i), i); }

void Statement::bind(int i, double v) { check_bind(sqlite3_bind_double(stmt_, i, v), i); }

void Statement::bind(int i, std::string_view v) {
  if (!is_valid_utf8(v)) {
    const std::string valid = to_valid_utf8(v);
    check_bind(
        sqlite3_bind_text64(stmt_, i, valid.data(), valid.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
        i);
    return;
  }
  check_bind(sqlite3_bind_text64(stmt_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8), i);
}

void Statement::bind(int i, Blob v) {
  // A zero-length blob must not be bound from a null pointer (that binds NULL).
  static const char kEmpty = 0;
  check_bind(sqlite3_bind_blob64(stmt_, i, v.bytes.empty() ? &kEmpty : v.bytes.data(),
                                 v.bytes.size(), SQLITE_TRANSIENT),
             i);
}

std::optional<Blob> bytes_if_not_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::nullopt;
  return Blob{text};
}

void Statement::bind_int64(int i, std::int64_t v) {
  check_bind(sqlite3_bind_int64(stmt_, i, v), i);
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  auto error = sqlite_error(db_, "running `" + std::string(sqlite3_sql(stmt_)) + "`");
  sqlite3_reset(stmt_);
  throw error;
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

std::int64_t Statement::insert() {
  const bool row = step();
  const auto changes = sqlite3_changes64(db_);
  const std::int64_t rowid = sqlite3_last_insert_rowid(db_);
  reset();
  if (row) throw IndexError("`" + sql() + "` returned a row: not a plain INSERT");
  if (changes != 1)
    throw IndexError("`" + sql() + "` inserted " + std::to_string(changes) +
                     " rows, not one: no rowid to return");
  return rowid;
}

std::optional<std::int64_t> Statement::insert_unless_conflict() {
  const bool row = step();
  const auto changes = sqlite3_changes64(db_);
  const std::int64_t rowid = sqlite3_last_insert_rowid(db_);
  reset();
  if (row) throw IndexError("`" + sql() + "` returned a row: not a plain INSERT");
  if (changes > 1)
    throw IndexError("`" + sql() + "` inserted " + std::to_string(changes) + " rows, not one");
  if (changes == 0) return std::nullopt;
  return rowid;
}

std::optional<std::int64_t> Statement::single_int() {
  std::optional<std::int64_t> value;
  if (step()) value = column_int(0);
  reset();
  return value;
}

std::int64_t Statement::column_int(int i) const { return sqlite3_column_int64(stmt_, i); }

double Statement::column_double(int i) const { return sqlite3_column_double(stmt_, i); }

std::string Statement::column_text(int i) const {
  const auto* text = sqlite3_column_text(stmt_, i);
  if (!text) return {};
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i)));
}

bool Statement::column_is_null(int i) const { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }

int Statement::column_count() const { return sqlite3_column_count(stmt_); }

void Statement::throw_unknown_value(std::string_view column, const std::string& text) const {
  throw IndexError(std::string(column) + " is '" + text +
                       "', a value this mapindex does not know (read by `" + sql() + "`)",
                   Code::index_damaged, database_file(db_));
}

int Statement::column_type(int i) const { return sqlite3_column_type(stmt_, i); }

std::string_view Statement::column_blob(int i) const {
  const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt_, i));
  if (!bytes) return {};
  return {bytes, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i))};
}

std::string Statement::column_name(int i) const {
  const char* name = sqlite3_column_name(stmt_, i);
  return name ? name : "";
}

int Statement::parameter_count() const { return sqlite3_bind_parameter_count(stmt_); }

std::string Statement::parameter_name(int i) const {
  const char* name = sqlite3_bind_parameter_name(stmt_, i);
  return name ? name : "";
}

bool Statement::read_only() const { return sqlite3_stmt_readonly(stmt_) != 0; }

std::string Statement::sql() const { return sqlite3_sql(stmt_); }

void Statement::rewind() { sqlite3_reset(stmt_); }

void Statement::reset() { sqlite3_reset(stmt_); }

Statement& StatementCache::get(std::string_view sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) it = cache_.emplace(std::string(sql), Statement(db_, sql)).first;
  return it->second;
}

bool schema_has(sqlite3* db, std::string_view type, std::string_view name) {
  Statement s(db, "SELECT 1 FROM sqlite_schema WHERE type = ? AND name = ?");
  s.bind_all(type, name);
  return s.step();
}

}  // namespace mapindex::sqlite
