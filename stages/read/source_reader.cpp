#include "stages/read/source_reader.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "stages/read/archive_magic.h"
#include "stages/read/byte_source.h"
#include "stages/read/folder_walker.h"
#include "stages/read/libarchive_reader.h"
#include "stages/read/stream_feeder.h"

namespace mapindex::read {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kChunk = 64 * 1024;
constexpr std::uint64_t kMaxReserve = 1 << 20;  // never reserve more on a header's word
constexpr std::size_t kFileBlockSize = 64 * 1024;

// Appends bytes from `source` to `out` until the end or `out` holds `limit`
// bytes. Returns false if the source failed.
bool read_into(ByteSource& source, std::vector<std::uint8_t>& out, std::uint64_t limit) {
  while (out.size() < limit) {
    std::size_t old = out.size();
    // Fill the capacity already reserved (the declared size) before growing.
    const std::size_t room = out.capacity() > old ? out.capacity() - old : std::max<std::size_t>(kChunk, old);
    std::uint64_t want = std::min<std::uint64_t>(limit - old, room);
    out.resize(old + static_cast<std::size_t>(want));
    std::int64_t n = source.read(out.data() + old, static_cast<std::size_t>(want));
    if (n < 0) {
      out.resize(old);
      return false;
    }
    out.resize(old + static_cast<std::size_t>(n));
    if (n == 0) break;
  }
  return true;
}

// Reads and drops the rest of `source`, adding its length to `count`.
// Returns false if the source failed; stops early if `stop` is set.
bool count_rest(ByteSource& source, std::uint64_t& count, const std::atomic<bool>& stop) {
  std::vector<std::uint8_t> scratch(kChunk);
  while (!stop.load(std::memory_order_relaxed)) {
    std::int64_t n = source.read(scratch.data(), scratch.size());
    if (n < 0) return false;
    if (n == 0) break;
    count += static_cast<std::uint64_t>(n);
  }
  return true;
}

// A path inside an archive without a leading "/" or "./".
std::string clean_name(const char* name) {
  std::string s = name ? name : "<unnamed entry>";
  for (;;) {
    if (s.starts_with("./")) s.erase(0, 2);
    else if (s.starts_with("/")) s.erase(0, 1);
    else break;
  }
  return s;
}

// The entry's path inside its archive, as UTF-8, without a leading "/" or "./".
std::string entry_name(archive_entry* entry) {
  const char* name = archive_entry_pathname_utf8(entry);
  return clean_name(name ? name : archive_entry_pathname(entry));
}

// "zip", "tar", "gzip-compressed tar", ... for messages about an archive.
std::string format_name(archive* a) {
  std::string name;
  switch (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) {
    case ARCHIVE_FORMAT_ZIP: name = "zip"; break;
    case ARCHIVE_FORMAT_7ZIP: name = "7-Zip"; break;
    case ARCHIVE_FORMAT_RAR: name = "RAR"; break;
    case ARCHIVE_FORMAT_RAR_V5: name = "RAR5"; break;
    default: name = "tar"; break;  // tar, or not known yet (an archive that ends at once)
  }
  if (archive_filter_count(a) > 1 && archive_filter_name(a, 0))
    name = std::string(archive_filter_name(a, 0)) + "-compressed " + name;
  return name;
}

bool is_zip(archive* a) {
  return (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_ZIP;
}

// Whether the file ends with a zip end of central directory record (true
// when it cannot be read again: that is not the question asked).
bool file_has_zip_end_record(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return true;
  struct stat st {};
  std::vector<std::uint8_t> tail;
  if (::fstat(fd, &st) == 0) {
    const auto size = static_cast<std::uint64_t>(st.st_size);
    tail.resize(static_cast<std::size_t>(std::min<std::uint64_t>(size, kZipTailBytes)));
    const ssize_t n = ::pread(fd, tail.data(), tail.size(), static_cast<off_t>(size - tail.size()));
    if (n != static_cast<ssize_t>(tail.size())) tail.clear();
  }
  ::close(fd);
  return tail.empty() || has_zip_end_record(tail);
}

std::string in_quotes(const std::string& s) { return "\"" + s + "\""; }

// A file descriptor closed on scope exit.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// An archive being read: the input itself (level 0) or an archive inside the
// level below it.
struct Level {
  std::string archive_path;             // inside the source; "" for the input itself
  std::unique_ptr<ByteSource> source;   // stdin/FIFO, or the outer entry's data; null for files
  std::unique_ptr<StreamFeeder> feeder;  // when streamed from `source`
  std::vector<std::uint8_t> memory;     // a 7-Zip archive held in memory
  std::string last_entry;               // for messages about the next header
  std::optional<fs::path> file;         // read from this file (else from `source` or `memory`)
  std::uint64_t rows_before = 0;        // entries delivered before this level was opened
  std::uint64_t folders = 0;            // folder entries seen (they get no row)
  ArchiveHandle archive;                // declared last: freed before what it reads from

  std::string join(const std::string& name) const {
    return archive_path.empty() ? name : archive_path + "/" + name;
  }
};

}  // namespace

class SourceReader::Impl {
 public:
  Impl(std::vector<std::string> inputs, ReadOptions options)
      : inputs_(std::move(inputs)), options_(options) {
    total_.store(measure_inputs());
  }

  std::optional<Entry> next();
  ReadProgress progress() const {
    return ReadProgress{total_.load(), done_.load(), entries_.load()};
  }
  void stop() { stop_.store(true); }

 private:
  std::uint64_t measure_inputs() const;
  std::optional<Entry> start_input(const std::string& input);
  std::optional<Entry> step_folder();
  std::optional<Entry> open_file(const fs::path& path, const std::string& archive_path,
                                 const std::string& plain_path, std::uint64_t size);
  Entry read_plain_file(const fs::path& path, const std::string& error_path,
                        const std::string& plain_path);
  std::optional<Entry> open_stream(std::unique_ptr<ByteSource> source,
                                   std::vector<std::uint8_t> prefix, const std::string& archive_path,
                                   const std::string& plain_path,
                                   std::optional<std::uint64_t> declared);
  std::optional<Entry> step_archive();
  std::optional<Entry> end_of_level(std::size_t k);
  std::optional<Entry> not_regular(Level& level, archive_entry* header, const std::string& path);
  std::optional<Entry> read_entry(std::size_t k, const std::string& path,
                                  std::optional<std::uint64_t> declared);
  Entry plain_from_stream(Level& level, const std::string& path);
  Entry source_failed(ByteSource& source, const std::string& path);
  Entry fail_level(std::size_t k, std::string path, int error_number, std::string reason,
                   bool fatal);
  bool input_exhausted(std::size_t k) const;
  void pop_level();
  void close_all();
  void update_progress();

  Entry error_entry(Code code, const std::string& path, const std::string& reason,
                    std::uint64_t size = 0) const;
  Entry file_entry(const std::string& path, std::vector<std::uint8_t> bytes) const;
  Entry oversize_entry(const std::string& path, std::uint64_t size) const;
  Entry not_read_entry(Code code, const std::string& path, const std::string& reason) const;

  std::vector<std::string> inputs_;
  ReadOptions options_;
  std::size_t next_input_ = 0;
  std::string source_;  // the input being read, as given
  std::uint64_t input_rows_before_ = 0;  // entries delivered before this input
  std::optional<FolderWalker> walker_;
  std::vector<std::unique_ptr<Level>> levels_;
  std::optional<std::uint64_t> level0_file_size_;  // level 0 reads a file of this size
  std::uint64_t done_base_ = 0;                     // bytes of inputs (files) finished

  std::atomic<std::uint64_t> total_{0};
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::uint64_t> entries_{0};
  std::atomic<bool> stop_{false};
};

std::uint64_t SourceReader::Impl::measure_inputs() const {
  std::uint64_t total = 0;
  for (const auto& input : inputs_) {
    if (input == "-") return 0;
    struct stat st {};
    if (::stat(input.c_str(), &st) != 0) continue;
    if (S_ISREG(st.st_mode)) {
      total += static_cast<std::uint64_t>(st.st_size);
    } else if (S_ISDIR(st.st_mode)) {
      FolderWalker walker(input);
      while (auto item = walker.next()) total += item->size;
    } else {
      return 0;  // a FIFO or device: size unknown
    }
  }
  return total;
}

std::optional<Entry> SourceReader::Impl::next() {
  while (!stop_.load()) {
    std::optional<Entry> entry;
    if (!levels_.empty()) {
      entry = step_archive();
    } else if (walker_) {
      entry = step_folder();
    } else if (next_input_ < inputs_.size()) {
      entry = start_input(inputs_[next_input_++]);
    } else {
      return std::nullopt;
    }
    update_progress();
    if (stop_.load()) break;  // what was read while stopping may be cut short
    if (entry) {
      entries_.fetch_add(1);
      return entry;
    }
  }
  close_all();
  return std::nullopt;
}

void SourceReader::Impl::update_progress() {
  std::uint64_t current = 0;
  if (!levels_.empty()) {
    if (level0_file_size_) {
      auto position = archive_filter_bytes(levels_[0]->archive.get(), -1);
      current = std::min<std::uint64_t>(position > 0 ? static_cast<std::uint64_t>(position) : 0,
                                        *level0_file_size_);
    } else if (levels_[0]->source) {
      current = levels_[0]->source->bytes_read();
    }
  }
  done_.store(done_base_ + current);
}

std::optional<Entry> SourceReader::Impl::start_input(const std::string& input) {
  source_ = input;
  input_rows_before_ = entries_.load();
  if (input == "-") {
    auto source = std::make_unique<FdSource>(STDIN_FILENO, false, &stop_);
    std::vector<std::uint8_t> prefix;
    if (!read_into(*source, prefix, kArchiveMagicBytes)) return source_failed(*source, "");
    return open_stream(std::move(source), std::move(prefix), "", "-", std::nullopt);
  }
  struct stat st {};
  if (::stat(input.c_str(), &st) != 0)
    return error_entry(Code::read_io, "", std::string("cannot open: ") + std::strerror(errno));
  std::string name = fs::path(input).filename().string();
  if (S_ISDIR(st.st_mode)) {
    walker_.emplace(input);
    return std::nullopt;
  }
  if (S_ISREG(st.st_mode)) return open_file(input, "", name, static_cast<std::uint64_t>(st.st_size));
  // A FIFO (e.g. a shell's process substitution) or a device: a stream.
  int fd = ::open(input.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return error_entry(Code::read_io, "", std::string("cannot open: ") + std::strerror(errno));
  auto source = std::make_unique<FdSource>(fd, true, &stop_);
  std::vector<std::uint8_t> prefix;
  if (!read_into(*source, prefix, kArchiveMagicBytes)) return source_failed(*source, "");
  return open_stream(std::move(source), std::move(prefix), "", name, std::nullopt);
}

std::optional<Entry> SourceReader::Impl::step_folder() {
  auto item = walker_->next();
  if (!item) {
    walker_.reset();
    // Every input gets a row: a folder with nothing in it is likely a mistake.
    if (entries_.load() == input_rows_before_ && !stop_.load())
      return error_entry(Code::read_empty, "", "no entries: the folder holds no files (nor do its subfolders)");
    return std::nullopt;
  }
  if (item->error) return error_entry(item->error->code, item->relative, item->error->message);
  if (item->not_read) return not_read_entry(Code::read_not_regular, item->relative, *item->not_read);
  return open_file(item->path, item->relative, item->relative, item->size);
}

// A regular file: an archive if libarchive can open it, else one plain entry.
std::optional<Entry> SourceReader::Impl::open_file(const fs::path& path,
                                                   const std::string& archive_path,
                                                   const std::string& plain_path,
                                                   std::uint64_t size) {
  // libarchive calls an empty stream an empty archive; an empty file is a file.
  if (size == 0) return read_plain_file(path, archive_path, plain_path);
  ArchiveHandle archive = new_archive_reader();
  int r = archive_read_open_filename(archive.get(), path.c_str(), kFileBlockSize);
  if (r >= ARCHIVE_WARN) {
    auto level = std::make_unique<Level>();
    level->archive_path = archive_path;
    level->archive = std::move(archive);
    level->file = path;
    level->rows_before = entries_.load();
    levels_.push_back(std::move(level));
    level0_file_size_ = size;
    return std::nullopt;
  }
  std::string reason = archive_reason(archive.get());
  int error_number = archive_errno(archive.get());
  if (!is_unrecognized_format(reason)) {
    // Either the file can't be read at all, or it starts like an archive
    // that libarchive could not begin to read (e.g. cut short).
    Code code = classify_read_error(error_number, reason);
    if (code == Code::read_io) {
      done_base_ += size;
      return error_entry(code, archive_path, reason);
    }
    std::vector<std::uint8_t> prefix;
    {
      Fd fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
      if (fd.fd >= 0) {
        FdSource source(fd.fd, false);
        (void)read_into(source, prefix, kArchiveMagicBytes);
      }
    }
    if (sniff_archive(prefix) != ArchiveMagic::none) {
      done_base_ += size;
      return error_entry(code, archive_path, reason);
    }
  }
  return read_plain_file(path, archive_path, plain_path);
}

Entry SourceReader::Impl::read_plain_file(const fs::path& path, const std::string& error_path,
                                          const std::string& plain_path) {
  Fd fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (fd.fd < 0)
    return error_entry(Code::read_io, error_path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0)
    return error_entry(Code::read_io, error_path, std::string("cannot stat: ") + std::strerror(errno));
  auto size = static_cast<std::uint64_t>(st.st_size);
  done_base_ += size;
  // An input (not a file in a folder) of 0 bytes gives nothing to index.
  if (size == 0 && error_path.empty())
    return error_entry(Code::read_empty, "", "no entries: the input is empty (0 bytes)");
  if (size > options_.max_entry_size) return oversize_entry(plain_path, size);
  FdSource source(fd.fd, false);
  std::vector<std::uint8_t> bytes;
  // One byte more than the size: the read that finds the end fits, instead
  // of growing a tiny file's buffer to 64 KiB.
  bytes.reserve(static_cast<std::size_t>(std::min(size, kMaxReserve) + 1));
  if (!read_into(source, bytes, options_.max_entry_size + 1))
    return error_entry(Code::read_io, error_path, source.error_message());
  if (bytes.size() > options_.max_entry_size) return oversize_entry(plain_path, bytes.size());  // grew
  return file_entry(plain_path, std::move(bytes));
}

// A stream (standard input, a FIFO, or the data of an entry of the archive
// on top of the stack) whose first bytes are `prefix`: pushed as an archive
// level at `archive_path` if libarchive can read it, else delivered as one
// plain entry at `plain_path`.
std::optional<Entry> SourceReader::Impl::open_stream(std::unique_ptr<ByteSource> source,
                                                     std::vector<std::uint8_t> prefix,
                                                     const std::string& archive_path,
                                                     const std::string& plain_path,
                                                     std::optional<std::uint64_t> declared) {
  const std::string& path = archive_path;
  const std::string shown = path.empty() ? source_ : path;
  const ArchiveMagic magic = sniff_archive(prefix);
  auto level = std::make_unique<Level>();
  level->archive_path = path;
  level->archive = new_archive_reader();
  level->rows_before = entries_.load();
  if (magic == ArchiveMagic::seven_zip) {
    // 7-Zip keeps its directory at the end and libarchive must seek to read
    // it, which a stream can't: the archive is held in memory, capped.
    const std::uint64_t cap = options_.max_entry_size;
    std::string too_large = "a 7-Zip archive must be held in memory to be read from a stream and " +
                            shown + " is larger than the max entry size of " +
                            std::to_string(cap) + " bytes";
    if (declared && *declared > cap) return error_entry(Code::read_oversize_archive, path, too_large, *declared);
    level->memory = std::move(prefix);
    if (!read_into(*source, level->memory, cap + 1)) return source_failed(*source, path);
    if (level->memory.size() > cap) return error_entry(Code::read_oversize_archive, path, too_large);
    int r = archive_read_open_memory(level->archive.get(), level->memory.data(), level->memory.size());
    if (r < ARCHIVE_WARN) {
      std::string reason = archive_reason(level->archive.get());
      return error_entry(classify_read_error(archive_errno(level->archive.get()), reason), path, reason);
    }
  } else {
    // A zip archive's end is checked once it is read (end_of_level).
    source->keep_tail(kZipTailBytes, prefix);
    level->feeder = std::make_unique<StreamFeeder>(*source, std::move(prefix), options_.max_entry_size);
    int r = level->feeder->open(level->archive.get());
    if (r < ARCHIVE_WARN) {
      if (source->failed()) return source_failed(*source, path);
      std::string reason = archive_reason(level->archive.get());
      if (is_unrecognized_format(reason)) {
        level->source = std::move(source);
        return plain_from_stream(*level, plain_path);
      }
      return error_entry(classify_read_error(archive_errno(level->archive.get()), reason), path, reason);
    }
    level->feeder->stop_recording();
  }
  level->source = std::move(source);
  if (levels_.empty()) level0_file_size_.reset();
  levels_.push_back(std::move(level));
  return std::nullopt;
}

// A stream that is not an archive after all: what libarchive saw plus the rest.
Entry SourceReader::Impl::plain_from_stream(Level& level, const std::string& path) {
  ByteSource& source = *level.source;
  StreamFeeder& feeder = *level.feeder;
  if (!feeder.recorded_all()) {
    std::uint64_t count = feeder.bytes_handed();
    if (!count_rest(source, count, stop_)) return source_failed(source, path);
    if (levels_.empty()) done_base_ += source.bytes_read();
    return oversize_entry(path, count);
  }
  std::vector<std::uint8_t> bytes = feeder.take_recorded();
  if (!read_into(source, bytes, options_.max_entry_size + 1)) return source_failed(source, path);
  if (bytes.size() > options_.max_entry_size) {
    std::uint64_t count = bytes.size();
    bytes = {};
    if (!count_rest(source, count, stop_)) return source_failed(source, path);
    if (levels_.empty()) done_base_ += source.bytes_read();
    return oversize_entry(path, count);
  }
  if (levels_.empty()) {
    done_base_ += source.bytes_read();
    if (bytes.empty()) return error_entry(Code::read_empty, "", "no entries: the input is empty (0 bytes)");
  }
  return file_entry(path, std::move(bytes));
}

// `source` failed while reading the entry at `path` of the archive on top of
// the stack (an EntryDataSource), or standard input / a FIFO (no level yet).
Entry SourceReader::Impl::source_failed(ByteSource& source, const std::string& path) {
  if (auto* data = dynamic_cast<EntryDataSource*>(&source); data && !levels_.empty())
    return fail_level(levels_.size() - 1, path, data->error_number(), data->error_message(),
                      data->outer_fatal());
  if (levels_.empty()) done_base_ += source.bytes_read();
  return error_entry(Code::read_io, path, source.error_message());
}

std::optional<Entry> SourceReader::Impl::step_archive() {
  const std::size_t k = levels_.size() - 1;
  Level& level = *levels_[k];
  archive* a = level.archive.get();
  archive_entry* header = nullptr;
  int r = archive_read_next_header(a, &header);
  if (r == ARCHIVE_EOF) return end_of_level(k);
  if (r < ARCHIVE_FAILED || r == ARCHIVE_RETRY) {
    std::string where = level.last_entry.empty()
                            ? std::string("reading the first entry: ")
                            : "reading the entry after " + in_quotes(level.last_entry) + ": ";
    std::string reason = archive_reason(a);
    // libarchive's streamed zip reader fails without a word when the input
    // ends where the next local header or the central directory should be.
    if (is_zip(a) && reason == archive_reason(nullptr) && input_exhausted(k))
      reason = "the zip archive ends where its next entry or its central directory should begin";
    return fail_level(k, level.archive_path, archive_errno(a), where + reason, true);
  }
  std::string name = entry_name(header);
  level.last_entry = name;
  std::string path = level.join(name);
  if (r == ARCHIVE_FAILED) {
    std::string reason = archive_reason(a);
    return error_entry(classify_read_error(archive_errno(a), reason), path, reason);
  }
  // Folders get no row (their files do); links and special files get one.
  if (archive_entry_filetype(header) == AE_IFDIR) {
    ++level.folders;
    return std::nullopt;
  }
  if (auto entry = not_regular(level, header, path)) return entry;
  std::optional<std::uint64_t> declared;
  if (archive_entry_size_is_set(header) && archive_entry_size(header) >= 0)
    declared = static_cast<std::uint64_t>(archive_entry_size(header));
  if (archive_entry_is_data_encrypted(header))
    return error_entry(Code::read_encrypted, path, "the entry is encrypted", declared.value_or(0));
  return read_entry(k, path, declared);
}

// The end of the archive at level k: checked, then popped. A zip archive
// must end with its end of central directory record (libarchive's streamed
// zip reader stops at the central directory and does not notice a cut
// inside it); an archive that gave no rows gets one (read.empty).
std::optional<Entry> SourceReader::Impl::end_of_level(std::size_t k) {
  Level& level = *levels_[k];
  archive* a = level.archive.get();
  const bool no_rows = entries_.load() == level.rows_before;
  const bool zip = is_zip(a);
  const std::string format = format_name(a);
  const std::uint64_t folders = level.folders;
  const std::string path = level.archive_path;
  const std::optional<fs::path> file = level.file;
  // A stream is read to its end: there an outer archive checks the entry's
  // CRC (bytes the inner archive used may turn out to be damaged), and
  // there a zip archive's end record is.
  std::unique_ptr<ByteSource> source;
  if (k > 0 || zip) source = std::move(level.source);
  pop_level();
  if (source) {
    std::uint64_t rest = 0;
    if (!count_rest(*source, rest, stop_)) return source_failed(*source, path);
    if (k == 0) done_base_ += source->bytes_read();
  }
  if (stop_.load()) return std::nullopt;
  if (zip && !(file ? file_has_zip_end_record(*file)
                    : !source || has_zip_end_record(source->tail())))
    return error_entry(Code::read_truncated, path,
                       "the zip archive has no end of central directory record: it is "
                       "cut short inside or before its central directory (the entries before the cut "
                       "were read)");
  if (!no_rows) return std::nullopt;
  std::string reason;
  if (folders > 0) {
    reason = "no files: only " + std::to_string(folders) + " folder entr" +
             (folders == 1 ? "y" : "ies") + " in the " + format + " archive";
  } else if (format.ends_with("tar")) {
    // libarchive reads a block of zero bytes as the end of a tar archive.
    reason = "no entries: read as an empty " + format + " archive (the " +
             (k == 0 ? "input" : "entry") + " starts with a block of zero bytes, as an empty tar does)";
  } else {
    reason = "no entries: an empty " + format + " archive";
  }
  if (k == 0) return error_entry(Code::read_empty, path, reason);
  return not_read_entry(Code::read_empty_inner, path, reason);
}

// A row for an entry that is not a regular file, or nullopt if it is one.
std::optional<Entry> SourceReader::Impl::not_regular(Level& level, archive_entry* header,
                                                     const std::string& path) {
  if (const char* target = archive_entry_hardlink_utf8(header) ? archive_entry_hardlink_utf8(header)
                                                               : archive_entry_hardlink(header))
    return not_read_entry(Code::read_not_regular, path,
                          "hard link to " + in_quotes(level.join(clean_name(target))) +
                              ": its content is in that entry's row");
  const auto type = archive_entry_filetype(header);
  if (type == AE_IFREG || type == 0) return std::nullopt;  // 0: no type recorded, read as a file
  if (type == AE_IFLNK) {
    const char* target = archive_entry_symlink_utf8(header);
    if (!target) target = archive_entry_symlink(header);
    return not_read_entry(Code::read_not_regular, path,
                          "symbolic link to " + in_quotes(target ? target : "") + ": not followed");
  }
  return not_read_entry(Code::read_not_regular, path, special_file_name(type) + ": not read");
}

// The data of the current entry of level k: an archive to follow, or bytes.
std::optional<Entry> SourceReader::Impl::read_entry(std::size_t k, const std::string& path,
                                                    std::optional<std::uint64_t> declared) {
  auto data = std::make_unique<EntryDataSource>(levels_[k]->archive.get());
  std::vector<std::uint8_t> bytes;
  bytes.reserve(static_cast<std::size_t>(
      std::min<std::uint64_t>({declared.value_or(kChunk), kMaxReserve, options_.max_entry_size}) + 1));
  if (!read_into(*data, bytes, kArchiveMagicBytes)) return source_failed(*data, path);
  ArchiveMagic magic = sniff_archive(bytes);
  if (magic != ArchiveMagic::none) {
    if (levels_.size() > static_cast<std::size_t>(std::max(options_.max_nesting, 0)))
      return error_entry(Code::read_nesting, path,
                         "a " + std::string(to_string(magic)) + " archive nested more than " +
                             std::to_string(options_.max_nesting) +
                             " levels deep inside the input is not followed",
                         declared.value_or(0));
    return open_stream(std::move(data), std::move(bytes), path, path, declared);
  }
  if (declared && *declared > options_.max_entry_size) return oversize_entry(path, *declared);
  if (!read_into(*data, bytes, options_.max_entry_size + 1)) return source_failed(*data, path);
  if (bytes.size() > options_.max_entry_size) {
    std::uint64_t count = bytes.size();
    bytes = {};
    if (!count_rest(*data, count, stop_)) return source_failed(*data, path);
    return oversize_entry(path, count);
  }
  return file_entry(path, std::move(bytes));
}

// A failure surfaced in level k at `path`. If level k failed because the
// entry of an outer archive it streams from failed, the failure belongs to
// that outer archive: one error entry for the outermost broken archive, and
// the archives inside it are abandoned. Levels below go on.
Entry SourceReader::Impl::fail_level(std::size_t k, std::string path, int error_number,
                                     std::string reason, bool fatal) {
  std::size_t m = k;
  while (m > 0 && levels_[m]->source && levels_[m]->source->failed()) {
    auto* data = dynamic_cast<EntryDataSource*>(levels_[m]->source.get());
    if (!data) break;
    path = levels_[m]->archive_path;
    error_number = data->error_number();
    reason = data->error_message();
    fatal = data->outer_fatal();
    --m;
  }
  Code code = classify_read_error(error_number, reason);
  // libarchive words a stream that ends early in many ways ("ZIP
  // decompression failed (-5)", "Lzma library error: No progress is
  // possible", ...); a fatal failure once all input was consumed is a cut.
  if (fatal && code == Code::read_corrupt && input_exhausted(m)) code = Code::read_truncated;
  const std::size_t keep = fatal ? m : m + 1;
  while (levels_.size() > keep) pop_level();
  return error_entry(std::move(code), path, reason);
}

bool SourceReader::Impl::input_exhausted(std::size_t k) const {
  const Level& level = *levels_[k];
  const auto position = archive_filter_bytes(level.archive.get(), -1);
  const std::uint64_t consumed = position > 0 ? static_cast<std::uint64_t>(position) : 0;
  if (k == 0 && level0_file_size_) return consumed >= *level0_file_size_;
  if (!level.memory.empty()) return consumed >= level.memory.size();
  return level.source && level.source->at_end();
}

void SourceReader::Impl::pop_level() {
  if (levels_.size() == 1) {
    if (level0_file_size_) {
      done_base_ += *level0_file_size_;
    } else if (levels_[0]->source) {
      done_base_ += levels_[0]->source->bytes_read();
    }
    level0_file_size_.reset();
  }
  levels_.pop_back();
}

void SourceReader::Impl::close_all() {
  while (!levels_.empty()) pop_level();
  walker_.reset();
  next_input_ = inputs_.size();
}

Entry SourceReader::Impl::error_entry(Code code, const std::string& path,
                                      const std::string& reason, std::uint64_t size) const {
  Entry e;
  e.source = source_;
  e.path = path;
  e.size = size;
  e.kind = EntryKind::error;
  std::string where = in_quotes(source_);
  if (!path.empty()) where += ", entry " + in_quotes(path);
  e.error = Error{std::move(code), where + ": " + reason};
  return e;
}

Entry SourceReader::Impl::file_entry(const std::string& path, std::vector<std::uint8_t> bytes) const {
  Entry e;
  e.source = source_;
  e.path = path;
  e.size = bytes.size();
  e.kind = EntryKind::file;
  e.bytes = std::move(bytes);
  return e;
}

Entry SourceReader::Impl::oversize_entry(const std::string& path, std::uint64_t size) const {
  Entry e;
  e.source = source_;
  e.path = path;
  e.size = size;
  e.kind = EntryKind::oversize;
  return e;
}

Entry SourceReader::Impl::not_read_entry(Code code, const std::string& path,
                                         const std::string& reason) const {
  Entry e = error_entry(std::move(code), path, reason);
  e.kind = EntryKind::not_read;
  return e;
}

SourceReader::SourceReader(std::vector<std::string> inputs, ReadOptions options)
    : impl_(std::make_unique<Impl>(std::move(inputs), options)) {}
SourceReader::~SourceReader() = default;
SourceReader::SourceReader(SourceReader&&) noexcept = default;
SourceReader& SourceReader::operator=(SourceReader&&) noexcept = default;

std::optional<Entry> SourceReader::next() { return impl_->next(); }
ReadProgress SourceReader::progress() const { return impl_->progress(); }
void SourceReader::stop() { impl_->stop(); }

}  // namespace mapindex::read
