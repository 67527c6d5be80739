#include "index/index_stamp.h"

#include <libdeflate.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "sqlite/database.h"
#include "sqlite/statement.h"

namespace mapindex::index {
namespace {

struct FileDigest {
  std::uint64_t size = 0;
  std::uint32_t crc = 0;
};

// The stamp's text: a format version, the size, the CRC-32 in hex. Its
// start (size_prefix) tells a grown file without reading it.
std::string size_prefix(std::uint64_t size) { return "1 " + std::to_string(size) + " "; }
std::string to_text(const FileDigest& d) {
  char crc[16];
  std::snprintf(crc, sizeof crc, "%08x", static_cast<unsigned>(d.crc));
  return size_prefix(d.size) + crc;
}

// Size and CRC-32 of the main database file of `db`, read through SQLite's
// own handle (see index_stamp.h); nullopt when it cannot be read whole.
// The caller holds a read transaction (no checkpoint writes the file).
std::optional<FileDigest> digest_file(sqlite3* db) {
  sqlite3_file* file = nullptr;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK || !file ||
      !file->pMethods)
    return std::nullopt;
  sqlite3_int64 size = 0;
  if (file->pMethods->xFileSize(file, &size) != SQLITE_OK || size < 0) return std::nullopt;
  FileDigest d;
  d.size = static_cast<std::uint64_t>(size);
  // 64 KiB stays in the core's cache between the read and the CRC, and
  // glibc serves it from a heap; a buffer above its mmap threshold would be
  // mapped and faulted in afresh. One per call: a stamp is read or written
  // once per opening or closing of the index.
  std::vector<unsigned char> buffer(std::size_t{64} << 10);
  for (sqlite3_int64 at = 0; at < size;) {
    const auto n = static_cast<int>(
        std::min<sqlite3_int64>(size - at, static_cast<sqlite3_int64>(buffer.size())));
    if (file->pMethods->xRead(file, buffer.data(), n, at) != SQLITE_OK) return std::nullopt;
    d.crc = libdeflate_crc32(d.crc, buffer.data(), static_cast<std::size_t>(n));
    at += n;
  }
  return d;
}

// The write-ahead log beside `path` is absent or empty.
bool no_wal_content(const std::string& path) {
  struct stat st {};
  const std::string wal = path + "-wal";
  if (::stat(wal.c_str(), &st) != 0) return errno == ENOENT;
  return st.st_size == 0;
}

std::optional<std::string> read_stamp(const std::string& path) {
  char value[128];
  const ssize_t n = ::getxattr(path.c_str(), kStampAttribute, value, sizeof value);
  if (n <= 0) return std::nullopt;
  return std::string(value, static_cast<std::size_t>(n));
}

// The digest of `db`'s file inside a read transaction, with the log empty
// before and after it; nullopt otherwise.
std::optional<FileDigest> digest_in_read_transaction(sqlite3* db, const std::string& path) {
  if (sqlite3_get_autocommit(db) == 0) return std::nullopt;  // inside someone's transaction
  // Reading the header starts the read transaction; the schema is not
  // needed (a connection that has not read it yet would parse all of it).
  static const std::string begin = std::string("BEGIN; ") + sqlite::kReadHeaderSql;
  if (sqlite3_exec(db, begin.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    return std::nullopt;
  }
  std::optional<FileDigest> digest;
  if (no_wal_content(path)) digest = digest_file(db);
  if (digest && !no_wal_content(path)) digest.reset();
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  return digest;
}

}  // namespace

bool matches_stamp(sqlite3* db, const std::string& path) {
  const auto stamp = read_stamp(path);
  if (!stamp || !no_wal_content(path)) return false;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 ||
      !stamp->starts_with(size_prefix(static_cast<std::uint64_t>(st.st_size))))
    return false;
  const auto digest = digest_in_read_transaction(db, path);
  return digest && to_text(*digest) == *stamp;
}

bool stamp_file(sqlite3* db, const std::string& path, std::uint64_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && static_cast<std::uint64_t>(st.st_size) <= max_bytes) {
    int log = -1, checkpointed = -1;
    if (sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_TRUNCATE, &log, &checkpointed) ==
            SQLITE_OK &&
        log == 0) {
      if (const auto digest = digest_in_read_transaction(db, path)) {
        const std::string text = to_text(*digest);
        if (::setxattr(path.c_str(), kStampAttribute, text.data(), text.size(), 0) == 0)
          return true;
      }
    }
  }
  remove_stamp(path);
  return false;
}

void remove_stamp(const std::string& path) { ::removexattr(path.c_str(), kStampAttribute); }

}  // namespace mapindex::index
