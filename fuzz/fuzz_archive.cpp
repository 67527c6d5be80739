// libFuzzer target: the archive reader (src/read/source_reader.h) over an
// in-memory input, through its public API and both of its ways in: the input
// as a regular file (a memfd named by /proc/self/fd/N, which libarchive opens
// and may seek) and as a stream (a pipe holding the whole input, read as a
// FIFO is: 7-Zip held in memory, everything else streamed). Every entry is
// drained; nested archives are followed to max_nesting, which also streams
// the inner ones from the outer entry's data. The regular file is read twice:
// with zip members inflated by mapindex (ZipMembers) and tar members' data
// read by it (TarMembers), and with libarchive reading all of it: the two
// readings must give the same entries, bytes and errors. And libarchive
// reads it through its own file reader and through mapindex's
// (read/file_client.h), reading, skipping or reading part of each entry:
// everything it says must be the same.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "read/source_reader.h"
#include "tests/support/file_client_trace.h"

using namespace mapindex;
using namespace mapindex::read;

namespace {

constexpr std::uint64_t kMaxEntrySize = 1 << 20;
constexpr std::size_t kPipeSize = 1 << 20;  // the default /proc/sys/fs/pipe-max-size

bool write_all(int fd, const std::uint8_t* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

std::vector<Entry> drain(const std::string& input, bool own_readers = true) {
  ReadOptions options;
  options.max_entry_size = kMaxEntrySize;
  options.max_nesting = 2;
  options.zip_members = own_readers;
  options.tar_members = own_readers;
  SourceReader reader({input}, options);
  std::vector<Entry> entries;
  while (auto entry = reader.next()) {
    if (entry->kind == ReadOutcome::file) {
      if (entry->bytes.size() != entry->size || entry->size > kMaxEntrySize) std::abort();
    } else if (!entry->bytes.empty()) {
      std::abort();  // only file entries carry bytes
    }
    // An error entry has a reading code (an entry's, from the table) and says why.
    if (entry->kind == ReadOutcome::error &&
        (info(entry->error.code).group != CodeGroup::entry || entry->error.message.empty()))
      std::abort();
    entries.push_back(std::move(*entry));
  }
  if (reader.progress().entries != entries.size()) std::abort();
  if (!own_readers && (reader.progress().zip_members != 0 || reader.progress().tar_members != 0))
    std::abort();
  return entries;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // As a regular file.
  const int mem = ::memfd_create("mapindex-fuzz", MFD_CLOEXEC);
  if (mem < 0) std::abort();
  if (!write_all(mem, data, size)) std::abort();
  const std::string file = "/proc/self/fd/" + std::to_string(mem);
  if (drain(file) != drain(file, false)) std::abort();
  if (!testing::file_client_difference(file, kMaxEntrySize).empty()) std::abort();
  ::close(mem);

  // As a stream: the whole input fits in the pipe, so no writer thread.
  if (size > kPipeSize) return 0;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) std::abort();
  if (size > 65536 && ::fcntl(fds[1], F_SETPIPE_SZ, static_cast<int>(kPipeSize)) < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return 0;  // pipe-max-size lowered on this machine
  }
  if (!write_all(fds[1], data, size)) std::abort();
  ::close(fds[1]);
  drain("/proc/self/fd/" + std::to_string(fds[0]));
  ::close(fds[0]);
  return 0;
}
