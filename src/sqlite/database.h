// The one SQLite layer under the writer (src/index), `mapindex query`
// (src/query) and the audit (src/audit): an owned connection, the
// error every SQLite failure becomes, and opening a file read-only. Prepared
// statements are in src/sqlite/statement.h. Nothing here knows the
// index's schema.
#pragma once

#include <sqlite3.h>

#include <stdexcept>
#include <string>
#include <string_view>

#include "common/result.h"

namespace mapindex::sqlite {

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
// misuse found by the wrapper itself); file() is the database file the
// failing connection has open ("" when not known or in memory);
// sqlite_code() is SQLite's extended result code (0 for misuse).
class IndexError : public std::runtime_error {
 public:
  explicit IndexError(const std::string& message, Code code = Code::index_sql,
                      std::string file = {}, int sqlite_code = 0)
      : std::runtime_error(message),
        code_(code),
        file_(std::move(file)),
        sqlite_code_(sqlite_code) {}
  Code code() const { return code_; }
  const std::string& file() const { return file_; }
  int sqlite_code() const { return sqlite_code_; }

 private:
  Code code_;
  std::string file_;
  int sqlite_code_ = 0;
};

// The IndexError of the failure SQLite reports on `db` (its extended result
// code and file): "<what>: <sqlite3_errmsg> (code N)".
IndexError sqlite_error(sqlite3* db, std::string_view what);

// "<what>: <sqlite3_errmsg> (code N)".
std::string sqlite_message(sqlite3* db, std::string_view what);

// The file of the connection's main database ("" for none or in memory).
std::string database_file(sqlite3* db);

// Runs SQL text of one or more statements that return no rows we need.
// Throws IndexError.
void exec_sql(sqlite3* db, std::string_view sql);

// An open connection, closed (sqlite3_close_v2) when destroyed. Statements
// prepared on it may outlive it: SQLite closes it after the last one is
// finalized.
class Connection {
 public:
  Connection() = default;
  explicit Connection(sqlite3* db) noexcept : db_(db) {}
  ~Connection();
  Connection(Connection&& other) noexcept;
  Connection& operator=(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // sqlite3_open_v2 (closing the handle held before) with extended result
  // codes on, SQLITE_OPEN_NOMUTEX unless `flags` ask for FULLMUTEX (so the
  // connection must be used by one thread at a time) and SQLite's memory
  // statistics off (process-wide, set before the first open); returns
  // SQLite's result code. After a failure get() may hold a
  // handle whose sqlite3_errmsg says why (null when out of memory).
  int open(const std::string& name, int flags);

  sqlite3* get() const { return db_; }
  explicit operator bool() const { return db_ != nullptr; }

 private:
  sqlite3* db_ = nullptr;
};

// How long a connection waits for a lock another connection holds (a batch
// being committed, a sqlite3 shell) before giving up with index.locked. A
// run of another live `mapindex index` is not waited for.
inline constexpr int kBusyTimeoutMs = 10000;

// What to tell the user about a damaged index.
inline constexpr std::string_view kRebuildAdvice =
    "rebuild it: move it away and run mapindex index again over your archives";

// "index 'PATH' is damaged (WHAT): rebuild it ..." (code index.damaged).
Error damaged_error(const std::string& path, const std::string& what);

// Opening `path` failed on `db` (null: out of memory): "cannot open index
// 'PATH': <sqlite3_errmsg>" with index_error_code() or "index.open".
Error open_error(sqlite3* db, const std::string& path);

// Whether `path` and its folder are writable here: SQLite needs to create and
// write `path`-shm next to a WAL database even to read it.
bool writable_here(const std::string& path);

// SQL whose only read is the database header (and for a WAL database its
// -shm): it starts a read transaction, or tells an SQLite file from another,
// without the schema, which a new connection would otherwise parse whole.
inline constexpr const char* kReadHeaderSql = "PRAGMA schema_version";

// What open_sqlite_read_only reads first, to find out what the file is.
enum class FirstRead {
  schema,  // the whole schema (what any query needs first): damage there shows at once
  header,  // the header only: a connection that may need no schema (a new
           // connection parses all of it, a few milliseconds of CPU)
};

// Opens an SQLite file for reading only (any database, no schema check) and
// reads its schema once, or only its header (`first`). A file on read-only
// media (the file or its folder not writable, so SQLite cannot create the
// WAL's -shm next to it) is opened immutable instead (file:...?immutable=1):
// nothing can be writing it there. Errors: index.open (no such file),
// index.not_sqlite, index.damaged, index.io, index.locked.
Result<Connection> open_sqlite_read_only(const std::string& path,
                                         int busy_timeout_ms = kBusyTimeoutMs,
                                         FirstRead first = FirstRead::schema);

}  // namespace mapindex::sqlite
