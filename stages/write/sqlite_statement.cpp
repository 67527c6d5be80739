#include "stages/write/sqlite_statement.h"

#include <utility>

#include "stages/common/utf8.h"

namespace mapindex::index {

Code index_error_code(int sqlite_code, Code otherwise) {
  switch (sqlite_code & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB: return Code::index_damaged;
    case SQLITE_BUSY:
    case SQLITE_LOCKED: return Code::index_locked;
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_NOLFS:
    case SQLITE_NOMEM: return Code::index_io;
    default: return otherwise;
  }
}

std::string sqlite_message(sqlite3* db, std::string_view what) {
  std::string message(what);
  message += ": ";
  message += db ? sqlite3_errmsg(db) : "out of memory";
  if (db) message += " (code " + std::to_string(sqlite3_extended_errcode(db)) + ")";
  return message;
}

void exec_sql(sqlite3* db, std::string_view sql) {
  char* error = nullptr;
  const std::string text(sql);
  if (sqlite3_exec(db, text.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : sqlite3_errmsg(db);
    sqlite3_free(error);
    std::string head = text.substr(0, 60);
    throw IndexError("SQL `" + head + (text.size() > 60 ? "...`" : "`") + " failed: " + message,
                     index_error_code(sqlite3_extended_errcode(db)));
  }
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  const char* tail = nullptr;
  if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                         &stmt_, &tail) != SQLITE_OK) {
    std::string message = sqlite_message(db, "preparing `" + std::string(sql.substr(0, 80)) + "`");
    const int code = sqlite3_extended_errcode(db);
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
    throw IndexError(message, index_error_code(code));
  }
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = std::exchange(other.db_, nullptr);
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

void Statement::check_bind(int rc, int i) {
  if (rc != SQLITE_OK)
    throw IndexError(sqlite_message(db_, "binding parameter " + std::to_string(i) + " of `" +
                                             std::string(sqlite3_sql(stmt_)) + "`"));
}

void Statement::check_parameter_count(int given) const {
  const int expected = sqlite3_bind_parameter_count(stmt_);
  if (given != expected)
    throw IndexError("`" + std::string(sqlite3_sql(stmt_)) + "` takes " + std::to_string(expected) +
                     " parameters, given " + std::to_string(given));
}

void Statement::bind(int i, std::nullopt_t) { check_bind(sqlite3_bind_null(stmt_, i), i); }

void Statement::bind(int i, double v) { check_bind(sqlite3_bind_double(stmt_, i, v), i); }

void Statement::bind(int i, std::string_view v) {
  if (!is_valid_utf8(v)) {
    const std::string valid = to_valid_utf8(v);
    check_bind(sqlite3_bind_text64(stmt_, i, valid.data(), valid.size(), SQLITE_TRANSIENT,
                                   SQLITE_UTF8),
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
  std::string message = sqlite_message(db_, "running `" + std::string(sqlite3_sql(stmt_)) + "`");
  const int code = sqlite3_extended_errcode(db_);
  sqlite3_reset(stmt_);
  throw IndexError(message, index_error_code(code));
}

void Statement::run() {
  while (step()) {
  }
  reset();
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

bool Statement::column_is_null(int i) const {
  return sqlite3_column_type(stmt_, i) == SQLITE_NULL;
}

int Statement::column_count() const { return sqlite3_column_count(stmt_); }

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

Statement& StatementCache::get(std::string_view sql) {
  auto it = cache_.find(std::string(sql));
  if (it == cache_.end()) it = cache_.emplace(std::string(sql), Statement(db_, sql)).first;
  return it->second;
}

}  // namespace mapindex::index
