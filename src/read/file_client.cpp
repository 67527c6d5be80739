#include "read/file_client.h"

#include <archive.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>

#include "read/byte_source.h"

namespace mapindex::read {
namespace {

// The client's state. Allocated by open_file_client, owned by libarchive
// from archive_read_set_callback_data on, freed (and its file closed) by
// client_close, which libarchive calls once: when the open fails, or when
// the reader closes.
struct FileClient {
  std::string path;
  Fd file;
  std::int64_t size = 0;               // at open: skips stop there
  bool use_lseek = false;              // a regular file, until a skip is refused
  bool after_skip = false;             // the next read is the first since a skip
  FileClientCounts* counts = nullptr;  // the caller's, or null
  std::unique_ptr<unsigned char[]> buffer = std::make_unique<unsigned char[]>(kFileClientBlock);
};

int client_open(archive* a, void* data) {
  auto* c = static_cast<FileClient*>(data);
  c->file.fd = ::open(c->path.c_str(), O_RDONLY | O_CLOEXEC);
  if (c->file.fd < 0) {
    archive_set_error(a, errno, "Failed to open '%s'", c->path.c_str());
    return ARCHIVE_FATAL;
  }
  struct stat st {};
  if (::fstat(c->file.fd, &st) != 0) {
    archive_set_error(a, errno, "Can't stat '%s'", c->path.c_str());
    return ARCHIVE_FATAL;
  }
  if (S_ISREG(st.st_mode)) {
    c->use_lseek = true;
    c->size = st.st_size;
  }
  return ARCHIVE_OK;
}

la_ssize_t client_read(archive* a, void* data, const void** out) {
  auto* c = static_cast<FileClient*>(data);
  std::size_t want = c->after_skip ? kFileClientAfterSkipBlock : kFileClientBlock;
  c->after_skip = false;
  *out = c->buffer.get();
  for (;;) {
    ssize_t n = ::read(c->file.fd, c->buffer.get(), want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      archive_set_error(a, errno, "Error reading '%s'", c->path.c_str());
    } else if (c->counts != nullptr) {
      ++c->counts->reads;
      c->counts->bytes += static_cast<std::uint64_t>(n);
    }
    return n;
  }
}

// As libarchive's: a skip that would end past the end of the file (as it
// was at open) is refused, and so is every later one; libarchive then reads
// and discards instead, and reports a cut archive from what it read.
la_int64_t client_skip(archive* a, void* data, la_int64_t request) {
  auto* c = static_cast<FileClient*>(data);
  if (!c->use_lseek) return 0;
  const off_t before = ::lseek(c->file.fd, 0, SEEK_CUR);
  if (before >= 0) {
    if (before >= c->size || request > c->size - before) {
      errno = ESPIPE;
    } else if (const off_t after = ::lseek(c->file.fd, request, SEEK_CUR); after >= 0) {
      c->after_skip = true;
      return after - before;
    }
  }
  c->use_lseek = false;
  if (errno == ESPIPE) return 0;
  archive_set_error(a, errno, "Error seeking in '%s'", c->path.c_str());
  return -1;
}

la_int64_t client_seek(archive* a, void* data, la_int64_t offset, int whence) {
  auto* c = static_cast<FileClient*>(data);
  c->after_skip = false;
  off_t at = ::lseek(c->file.fd, offset, whence);
  if (at >= 0) return at;
  archive_set_error(a, errno, "Error seeking in '%s'", c->path.c_str());
  return ARCHIVE_FATAL;
}

int client_close(archive*, void* data) {
  delete static_cast<FileClient*>(data);
  return ARCHIVE_OK;
}

}  // namespace

int open_file_client(archive* a, const std::filesystem::path& path, FileClientCounts* counts) {
  auto client = std::make_unique<FileClient>();
  client->path = path.string();
  client->counts = counts;
  archive_read_set_open_callback(a, client_open);
  archive_read_set_read_callback(a, client_read);
  archive_read_set_skip_callback(a, client_skip);
  archive_read_set_seek_callback(a, client_seek);
  archive_read_set_close_callback(a, client_close);
  if (archive_read_set_callback_data(a, client.get()) != ARCHIVE_OK) return ARCHIVE_FATAL;
  client.release();  // libarchive's now: client_close frees it
  return archive_read_open1(a);
}

}  // namespace mapindex::read
