#include "sqlite/database.h"
#include "common/hex.h"

#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <utility>

namespace mapindex::sqlite {

bool writable_here(const std::string& path) {
  std::string folder = std::filesystem::path(path).parent_path().string();
  if (folder.empty()) folder = ".";
  return ::access(path.c_str(), W_OK) == 0 && ::access(folder.c_str(), W_OK) == 0;
}

namespace {

// "file:PATH?immutable=1", PATH percent-encoded where a URI needs it.
std::string immutable_uri(const std::string& path) {
  std::string uri = "file:";
  for (const unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      append_hex(uri, c, HexCase::upper);
    }
  }
  return uri + "?immutable=1";
}

}  // namespace

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

std::string database_file(sqlite3* db) {
  const char* file = db ? sqlite3_db_filename(db, "main") : nullptr;
  return file ? file : "";
}

IndexError sqlite_error(sqlite3* db, std::string_view what) {
  const int code = db ? sqlite3_extended_errcode(db) : SQLITE_NOMEM;
  return IndexError(sqlite_message(db, what), index_error_code(code), database_file(db), code);
}

void exec_sql(sqlite3* db, std::string_view sql) {
  char* error = nullptr;
  const std::string text(sql);
  if (sqlite3_exec(db, text.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : sqlite3_errmsg(db);
    sqlite3_free(error);
    std::string head = text.substr(0, 60);
    const int code = sqlite3_extended_errcode(db);
    throw IndexError("SQL `" + head + (text.size() > 60 ? "...`" : "`") + " failed: " + message,
                     index_error_code(code), database_file(db), code);
  }
}

Connection::~Connection() { sqlite3_close_v2(db_); }

Connection::Connection(Connection&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}

Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
  }
  return *this;
}

int Connection::open(const std::string& name, int flags) {
  // No allocation statistics: SQLite would take a global mutex around every
  // malloc and free to keep them. Only possible before SQLite initialises
  // (the first open); later calls fail harmlessly.
  static const int memstatus_off = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  (void)memstatus_off;
  sqlite3_close_v2(db_);
  db_ = nullptr;
  // Every connection is used by one thread at a time (the writer node, or
  // the layer store behind its own mutex): SQLite's per-connection mutexes
  // are not needed.
  if (!(flags & SQLITE_OPEN_FULLMUTEX)) flags |= SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(name.c_str(), &db_, flags, nullptr);
  if (db_) sqlite3_extended_result_codes(db_, 1);
  return rc;
}

Error damaged_error(const std::string& path, const std::string& what) {
  return Error{Code::index_damaged,
               "index '" + path + "' is damaged (" + what + "): " + std::string(kRebuildAdvice)};
}

Error open_error(sqlite3* db, const std::string& path) {
  return Error{
      db ? index_error_code(sqlite3_extended_errcode(db), Code::index_open) : Code::index_io,
      "cannot open index '" + path +
          "': " + (db ? sqlite3_errmsg(db) : std::string("out of memory"))};
}

Result<Connection> open_sqlite_read_only(const std::string& path, int busy_timeout_ms,
                                         FirstRead first) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return Error{Code::index_open, "index '" + path + "' does not exist"};
  Connection db;
  const auto attempt = [&](const std::string& name, int flags) {
    int rc = db.open(name, flags);
    if (rc == SQLITE_OK) {
      sqlite3_busy_timeout(db.get(), busy_timeout_ms);
      // The first read: the header, and for a WAL database its -shm; then
      // the schema, unless only the header is asked for.
      rc = sqlite3_exec(
          db.get(),
          first == FirstRead::schema ? "SELECT count(*) FROM sqlite_schema" : kReadHeaderSql,
          nullptr, nullptr, nullptr);
    }
    return rc;
  };
  int rc = attempt(path, SQLITE_OPEN_READONLY);
  if (rc == SQLITE_OK) return db;
  const int primary = rc & 0xff;
  if ((primary == SQLITE_CANTOPEN || primary == SQLITE_READONLY) && !writable_here(path)) {
    // Read-only media: nobody can be writing the file, so read it as it is.
    rc = attempt(immutable_uri(path), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    if (rc == SQLITE_OK) return db;
  }
  if ((rc & 0xff) == SQLITE_NOTADB)
    return Error{Code::index_not_sqlite, "'" + path + "' is not a SQLite database"};
  if (index_error_code(rc) == Code::index_damaged)
    return damaged_error(path, db ? sqlite3_errmsg(db.get()) : "unreadable");
  return open_error(db.get(), path);
}

}  // namespace mapindex::sqlite
