#include "benchmarks/entry_stream.h"

#include <archive.h>
#include <archive_entry.h>

#include <memory>

#include "read/libarchive_reader.h"

namespace mapindex::bench {
namespace {

struct ArchiveDeleter {
  void operator()(archive* a) const { archive_read_free(a); }
};

Error archive_error(archive* a, const std::string& path, const std::string& what) {
  const char* why = archive_error_string(a);
  return Error{read::classify_read_error(archive_errno(a), why ? why : ""),
               path + ": " + what + ": " + (why ? why : "unknown libarchive error")};
}

}  // namespace

Result<StreamTotals> for_each_entry(
    const std::string& archive_path,
    const std::function<void(const std::string&, Bytes)>& on_entry) {
  std::unique_ptr<archive, ArchiveDeleter> a(archive_read_new());
  archive_read_support_format_all(a.get());
  archive_read_support_filter_all(a.get());
  if (archive_read_open_filename(a.get(), archive_path.c_str(), 1 << 20) != ARCHIVE_OK)
    return archive_error(a.get(), archive_path, "cannot open");

  StreamTotals totals;
  std::vector<std::uint8_t> buffer;
  archive_entry* entry = nullptr;
  for (;;) {
    const int r = archive_read_next_header(a.get(), &entry);
    if (r == ARCHIVE_EOF) break;
    if (r < ARCHIVE_WARN)
      return archive_error(a.get(), archive_path, "cannot read the next header");
    if (archive_entry_filetype(entry) != AE_IFREG) continue;
    const std::string path = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
    // Read in whole: the declared size when the format has one, else grow.
    std::size_t used = 0;
    // The buffer only grows (no zero-filling per entry); +1 so that a
    // correct declared size ends with a read of 0 bytes, not a resize.
    std::size_t want = 64u << 10;
    if (archive_entry_size_is_set(entry) && archive_entry_size(entry) >= 0)
      want = static_cast<std::size_t>(archive_entry_size(entry)) + 1;
    if (buffer.size() < want) buffer.resize(want);
    for (;;) {
      if (used == buffer.size()) buffer.resize(buffer.size() * 2);
      const la_ssize_t n = archive_read_data(a.get(), buffer.data() + used, buffer.size() - used);
      if (n < 0) return archive_error(a.get(), archive_path, "cannot read entry " + path);
      if (n == 0) break;
      used += static_cast<std::size_t>(n);
    }
    totals.entries++;
    totals.bytes += used;
    on_entry(path, Bytes(buffer.data(), used));
  }
  return totals;
}

}  // namespace mapindex::bench
