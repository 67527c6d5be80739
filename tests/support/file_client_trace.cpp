#include "tests/support/file_client_trace.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>

#include "read/libarchive_reader.h"

namespace mapindex::testing {
namespace {

std::string error_of(archive* a) {
  const char* s = archive_error_string(a);
  return std::to_string(archive_errno(a)) + " " + (s ? s : "(none)");
}

}  // namespace

std::vector<std::string> file_client_trace(const std::filesystem::path& path, bool client,
                                           TraceData data, read::FileClientCounts* counts,
                                           std::uint64_t max_bytes) {
  std::vector<std::string> log;
  auto a = read::new_archive_reader();
  const int opened =
      client ? read::open_file_client(a.get(), path, counts)
             : archive_read_open_filename(a.get(), path.c_str(), read::kFileClientBlock);
  log.push_back("open " + std::to_string(opened));
  if (opened < ARCHIVE_WARN) {
    log.push_back(error_of(a.get()));
    return log;
  }
  const std::uint64_t most =
      data == TraceData::part ? std::min<std::uint64_t>(max_bytes, 100) : max_bytes;
  for (int n = 0; n < 10000; ++n) {
    archive_entry* header = nullptr;
    const int r = archive_read_next_header(a.get(), &header);
    log.push_back("header " + std::to_string(r));
    if (r != ARCHIVE_OK) log.push_back(error_of(a.get()));
    if (r < ARCHIVE_WARN || r == ARCHIVE_EOF) break;
    const char* name = archive_entry_pathname(header);
    log.push_back(std::string(name ? name : "(no name)") + " size " +
                  std::to_string(archive_entry_size(header)) + " type " +
                  std::to_string(archive_entry_filetype(header)) + " at " +
                  std::to_string(archive_filter_bytes(a.get(), 0)));
    std::string bytes;
    if (data != TraceData::skip) {
      char buffer[4096];
      for (;;) {
        // Odd lengths in part, so reads end inside libarchive's blocks.
        const std::uint64_t want = std::min<std::uint64_t>(
            most - bytes.size(), data == TraceData::part ? 37 : sizeof buffer);
        if (want == 0) break;
        const la_ssize_t got = archive_read_data(a.get(), buffer, want);
        if (got <= 0) {
          log.push_back("data " + std::to_string(got));
          if (got < 0) log.push_back(error_of(a.get()));
          break;
        }
        bytes.append(buffer, static_cast<std::size_t>(got));
      }
      log.push_back(bytes);
    }
    if (data == TraceData::skip || bytes.size() == most) {
      const int s = archive_read_data_skip(a.get());
      log.push_back("skip " + std::to_string(s));
      if (s != ARCHIVE_OK) log.push_back(error_of(a.get()));
    }
  }
  return log;
}

std::string file_client_difference(const std::filesystem::path& path, std::uint64_t max_bytes,
                                   std::vector<std::string>* client_read) {
  for (const TraceData data : {TraceData::read, TraceData::skip, TraceData::part}) {
    const auto theirs = file_client_trace(path, false, data, nullptr, max_bytes);
    const auto ours = file_client_trace(path, true, data, nullptr, max_bytes);
    if (client_read && data == TraceData::read) *client_read = ours;
    for (std::size_t i = 0; i < std::max(theirs.size(), ours.size()); ++i) {
      const std::string t = i < theirs.size() ? theirs[i] : "(end)";
      const std::string o = i < ours.size() ? ours[i] : "(end)";
      if (t != o)
        return "way " + std::to_string(static_cast<int>(data)) + ", line " + std::to_string(i) +
               ": libarchive '" + t.substr(0, 200) + "', client '" + o.substr(0, 200) + "'";
    }
  }
  return "";
}

}  // namespace mapindex::testing
