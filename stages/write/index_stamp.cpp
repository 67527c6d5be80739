#include "stages/write/index_stamp.h"

#include <fcntl.h>
#include <libdeflate.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

namespace mapindex::index {
namespace {

struct FileDigest {
  std::uint64_t size = 0;
  std::uint32_t crc = 0;
};

// The stamp's text: a format version, the size, the CRC-32 in hex.
std::string to_text(const FileDigest& d) {
  char text[64];
  std::snprintf(text, sizeof text, "1 %llu %08x", static_cast<unsigned long long>(d.size),
                static_cast<unsigned>(d.crc));
  return text;
}

// Size and CRC-32 of the whole file; nullopt when it cannot be read whole.
std::optional<FileDigest> digest_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<FileDigest> result;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    FileDigest d;
    std::vector<unsigned char> buffer(1 << 20);
    bool failed = false;
    for (;;) {
      const ssize_t n = ::read(fd, buffer.data(), buffer.size());
      if (n < 0) {
        failed = true;
        break;
      }
      if (n == 0) break;
      d.crc = libdeflate_crc32(d.crc, buffer.data(), static_cast<std::size_t>(n));
      d.size += static_cast<std::uint64_t>(n);
    }
    if (!failed && d.size == static_cast<std::uint64_t>(st.st_size)) result = d;
  }
  ::close(fd);
  return result;
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

}  // namespace

bool matches_stamp(const std::string& path) {
  const auto stamp = read_stamp(path);
  if (!stamp || !no_wal_content(path)) return false;
  struct stat st {};
  // The size first: a grown file is told without reading it.
  if (::stat(path.c_str(), &st) != 0 ||
      stamp->find(" " + std::to_string(st.st_size) + " ") == std::string::npos)
    return false;
  const auto digest = digest_file(path);
  return digest && to_text(*digest) == *stamp && no_wal_content(path);
}

bool stamp_file(const std::string& path) {
  if (no_wal_content(path)) {
    if (const auto digest = digest_file(path)) {
      const std::string text = to_text(*digest);
      if (::setxattr(path.c_str(), kStampAttribute, text.data(), text.size(), 0) == 0) return true;
    }
  }
  remove_stamp(path);
  return false;
}

void remove_stamp(const std::string& path) { ::removexattr(path.c_str(), kStampAttribute); }

}  // namespace mapindex::index
