#include "read/archive_stack.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

#include "read/archive_magic.h"
#include "read/entry_buffers.h"
#include "read/folder_walker.h"

namespace mapindex::read {
namespace fs = std::filesystem;
namespace {

// A path inside an archive without a leading "/" or "./".
std::string clean_name(const char* name) {
  std::string s = name ? name : "<unnamed entry>";
  for (;;) {
    if (s.starts_with("./"))
      s.erase(0, 2);
    else if (s.starts_with("/"))
      s.erase(0, 1);
    else
      break;
  }
  return s;
}

// The entry's path inside its archive, as UTF-8, without a leading "/" or "./".
std::string entry_name(archive_entry* entry) {
  const char* name = archive_entry_pathname_utf8(entry);
  return clean_name(name ? name : archive_entry_pathname(entry));
}

// The size the entry's header declares, if any.
std::optional<std::uint64_t> declared_size(archive_entry* header) {
  if (archive_entry_size_is_set(header) && archive_entry_size(header) >= 0)
    return static_cast<std::uint64_t>(archive_entry_size(header));
  return std::nullopt;
}

// Read as a tar: a tar, or not known yet (an archive that ends at once).
bool is_tar(archive* a) {
  switch (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) {
    case ARCHIVE_FORMAT_ZIP:
    case ARCHIVE_FORMAT_7ZIP:
    case ARCHIVE_FORMAT_RAR:
    case ARCHIVE_FORMAT_RAR_V5: return false;
    default: return true;
  }
}

// "zip", "tar", "gzip-compressed tar", ... for messages about an archive.
std::string format_name(archive* a) {
  std::string name;
  switch (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) {
    case ARCHIVE_FORMAT_ZIP: name = "zip"; break;
    case ARCHIVE_FORMAT_7ZIP: name = "7-Zip"; break;
    case ARCHIVE_FORMAT_RAR: name = "RAR"; break;
    case ARCHIVE_FORMAT_RAR_V5: name = "RAR5"; break;
    default: name = "tar"; break;  // is_tar()
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
  Fd fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (fd.fd < 0) return true;
  struct stat st {};
  std::vector<std::uint8_t> tail;
  if (::fstat(fd.fd, &st) == 0) {
    const auto size = static_cast<std::uint64_t>(st.st_size);
    tail.resize(static_cast<std::size_t>(std::min<std::uint64_t>(size, kZipTailBytes)));
    if (!pread_all(fd.fd, tail.data(), tail.size(), size - tail.size())) tail.clear();
  }
  return tail.empty() || has_zip_end_record(tail);
}

}  // namespace

ArchiveStack::ArchiveStack(const ReadOptions& options, const std::atomic<bool>& stop,
                           ReadMeter& meter)
    : options_(options), stop_(stop), meter_(meter) {}

ArchiveStack::~ArchiveStack() { close(); }

void ArchiveStack::push_file(ArchiveHandle archive, const fs::path& path,
                             const std::string& archive_path, std::uint64_t size) {
  auto level = std::make_unique<Level>();
  level->archive_path = archive_path;
  level->archive = std::move(archive);
  level->file = path;
  level->file_size = size;
  level->rows_before = meter_.entries();
  levels_.push_back(std::move(level));
}

std::optional<std::uint64_t> ArchiveStack::file_position() const {
  if (levels_.empty() || !levels_[0]->file_size) return std::nullopt;
  const auto position = archive_filter_bytes(levels_[0]->archive.get(), -1);
  return position > 0 ? static_cast<std::uint64_t>(position) : 0;
}

void ArchiveStack::close() {
  while (!levels_.empty()) levels_.pop_back();  // the innermost first
}

// A stream (standard input, a FIFO, or the data of an entry of the archive
// on top of the stack) whose first bytes are `prefix`: a level at
// `archive_path` in `out` if libarchive can read it, else one plain entry at
// `plain_path`.
ArchiveStack::Opened ArchiveStack::open_stream(std::unique_ptr<ByteSource> source,
                                               std::vector<std::uint8_t> prefix,
                                               const std::string& archive_path,
                                               const std::string& plain_path,
                                               std::optional<std::uint64_t> declared) {
  Opened opened;
  opened.entry =
      open_level(opened, std::move(source), std::move(prefix), archive_path, plain_path, declared);
  return opened;
}

std::optional<Entry> ArchiveStack::enter(Opened opened) {
  if (!opened.level) return std::move(opened.entry);
  opened.level->rows_before = meter_.entries();
  levels_.push_back(std::move(opened.level));
  return std::nullopt;
}

std::optional<Entry> ArchiveStack::open_level(Opened& out, std::unique_ptr<ByteSource> source,
                                              std::vector<std::uint8_t> prefix,
                                              const std::string& archive_path,
                                              const std::string& plain_path,
                                              std::optional<std::uint64_t> declared) {
  const std::string& path = archive_path;
  const std::string shown = path.empty() ? EntryFactory::source() : path;
  const ArchiveMagic magic = sniff_archive(prefix);
  auto level = std::make_unique<Level>();
  level->archive_path = path;
  level->archive = new_archive_reader();
  if (magic == ArchiveMagic::seven_zip) {
    // 7-Zip keeps its directory at the end and libarchive must seek to read
    // it, which a stream can't: the archive is held in memory, capped.
    const std::uint64_t cap = options_.max_entry_size;
    std::string too_large = "a 7-Zip archive must be held in memory to be read from a stream and " +
                            shown + " is larger than the max entry size of " + std::to_string(cap) +
                            " bytes";
    if (declared && *declared > cap)
      return error_entry(Code::read_oversize_archive, path, too_large, *declared);
    level->memory = std::move(prefix);
    if (!read_into(*source, level->memory, cap + 1)) return source_failed(*source, path);
    if (level->memory.size() > cap)
      return error_entry(Code::read_oversize_archive, path, too_large);
    int r =
        archive_read_open_memory(level->archive.get(), level->memory.data(), level->memory.size());
    if (r < ARCHIVE_WARN) {
      std::string reason = archive_reason(level->archive.get());
      return error_entry(classify_read_error(archive_errno(level->archive.get()), reason), path,
                         reason);
    }
  } else {
    // A zip archive's end is checked once it is read (end_of_level).
    source->keep_tail(kZipTailBytes, prefix);
    level->feeder =
        std::make_unique<StreamFeeder>(*source, std::move(prefix), options_.max_entry_size);
    int r = level->feeder->open(level->archive.get());
    if (r < ARCHIVE_WARN) {
      if (source->failed()) return source_failed(*source, path);
      std::string reason = archive_reason(level->archive.get());
      if (is_unrecognized_format(reason)) {
        level->source = std::move(source);
        out.plain = true;
        return plain_from_stream(*level, plain_path);
      }
      return error_entry(classify_read_error(archive_errno(level->archive.get()), reason), path,
                         reason);
    }
    level->feeder->stop_recording();
  }
  level->source = std::move(source);
  out.level = std::move(level);
  return std::nullopt;
}

// A stream that is not an archive after all: what libarchive saw plus the rest.
Entry ArchiveStack::plain_from_stream(Level& level, const std::string& path) {
  ByteSource& source = *level.source;
  StreamFeeder& feeder = *level.feeder;
  if (!feeder.recorded_all()) {
    std::uint64_t count = feeder.bytes_handed();
    if (!count_rest(source, count, stop_)) return source_failed(source, path);
    return oversize_entry(path, count);
  }
  std::vector<std::uint8_t> bytes = feeder.take_recorded();
  if (!read_into(source, bytes, options_.max_entry_size + 1)) return source_failed(source, path);
  if (bytes.size() > options_.max_entry_size) {
    std::uint64_t count = bytes.size();
    bytes = {};
    if (!count_rest(source, count, stop_)) return source_failed(source, path);
    return oversize_entry(path, count);
  }
  if (levels_.empty()) {
    if (bytes.empty())
      return error_entry(Code::read_empty, "", "no entries: the input is empty (0 bytes)");
  }
  return file_entry(path, std::move(bytes));
}

// `source` failed while reading the entry at `path` of the archive on top of
// the stack (an EntryDataSource), or standard input / a FIFO (no level yet).
Entry ArchiveStack::source_failed(ByteSource& source, const std::string& path) {
  if (auto* data = dynamic_cast<EntryDataSource*>(&source); data && !levels_.empty())
    return fail_level(levels_.size() - 1, path, data->error_number(), data->error_message(),
                      data->outer_fatal());
  return error_entry(Code::read_io, path, source.error_message());
}

std::optional<Entry> ArchiveStack::step() {
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
    if (is_zip(a) && !has_reason(a) && input_exhausted(k))
      reason = "the zip archive ends where its next entry or its central directory should begin";
    return fail_level(k, level.archive_path, archive_errno(a), where + reason, true);
  }
  std::string name = entry_name(header);
  level.last_entry = name;
  std::string path = level.join(name);
  // Every header counts, whatever follows, to keep ZipMembers in step.
  const ZipMember* member = zip_member(level, header);
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
  const std::optional<std::uint64_t> declared = declared_size(header);
  if (archive_entry_is_data_encrypted(header))
    return error_entry(Code::read_encrypted, path, "the entry is encrypted", declared.value_or(0));
  if (auto entry = tar_member(k, header, path, declared)) return entry;
  return read_entry(k, path, declared, member);
}

// The current entry of level k, a regular file whose data TarMembers read
// (tar_members.h); nullopt when libarchive is to read it. Only a tar file
// libarchive reads as it is (no filter such as gzip before its tar reader):
// its position in the file is then where the entry's data starts.
std::optional<Entry> ArchiveStack::tar_member(std::size_t k, archive_entry* header,
                                              const std::string& path,
                                              std::optional<std::uint64_t> declared) {
  Level& level = *levels_[k];
  archive* a = level.archive.get();
  // A tar by libarchive's word, not by is_tar() (which also answers for an
  // archive whose format is not known yet).
  if (!options_.tar_members || !level.file || !level.file_size ||
      (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) != ARCHIVE_FORMAT_TAR ||
      archive_filter_count(a) != 1 || !declared || *declared > options_.max_entry_size ||
      archive_entry_sparse_count(header) > 0)
    return std::nullopt;
  if (!level.tar_opened) {
    level.tar_opened = true;
    level.tar = TarMembers::open(*level.file, *level.file_size);
  }
  const la_int64_t at = archive_filter_bytes(a, 0);
  std::vector<std::uint8_t> bytes;
  if (!level.tar || at < 0 ||
      !level.tar->read(static_cast<std::uint64_t>(at), *declared, pool(), bytes))
    return std::nullopt;
  // libarchive moves past the data without reading it (a seek in the file).
  if (archive_read_data_skip(a) != ARCHIVE_OK) {
    pool().give(bytes);
    return fail_level(k, path, archive_errno(a), archive_reason(a), true);
  }
  meter_.count_tar_member();
  return file_entry(path, std::move(bytes));
}

// The member of a zip file that libarchive's header `header` is, if
// ZipMembers reads its data; null when libarchive reads it.
const ZipMember* ArchiveStack::zip_member(Level& level, archive_entry* header) {
  // Only a zip file libarchive reads as it is (no filter such as gzip
  // before its zip reader), so the bytes read here are the ones it reads.
  archive* a = level.archive.get();
  if (!options_.zip_members || !level.file || !level.file_size || !is_zip(a) ||
      archive_filter_count(a) != 1)
    return nullptr;
  if (!level.zip_opened) {
    level.zip_opened = true;
    level.zip = ZipMembers::open(*level.file, *level.file_size);
  }
  if (!level.zip) return nullptr;
  const char* raw = archive_entry_pathname(header);
  const auto type = archive_entry_filetype(header);
  return level.zip->next(raw ? std::string_view(raw) : std::string_view(), declared_size(header),
                         type == AE_IFREG || type == 0);
}

// The end of the archive at level k: checked, then popped. A zip archive
// must end with its end of central directory record (libarchive's streamed
// zip reader stops at the central directory and does not notice a cut
// inside it); an archive that gave no rows gets one (read.empty).
std::optional<Entry> ArchiveStack::end_of_level(std::size_t k) {
  Level& level = *levels_[k];
  archive* a = level.archive.get();
  const bool no_rows = meter_.entries() == level.rows_before;
  const bool zip = is_zip(a);
  const bool tar = is_tar(a);
  const std::string format = format_name(a);
  const std::uint64_t folders = level.folders;
  const std::string path = level.archive_path;
  // ZipMembers found the file's end record when it vouched for it.
  const bool end_record_found = level.zip != nullptr;
  const std::optional<fs::path> file = level.file;
  // A stream is read to its end: there an outer archive checks the entry's
  // CRC (bytes the inner archive used may turn out to be damaged), and
  // there a zip archive's end record is.
  std::unique_ptr<ByteSource> source;
  if (k > 0 || zip) source = std::move(level.source);
  levels_.pop_back();
  if (source) {
    std::uint64_t rest = 0;
    if (!count_rest(*source, rest, stop_)) return source_failed(*source, path);
  }
  if (stop_.load()) return std::nullopt;
  if (zip && !end_record_found &&
      !(file ? file_has_zip_end_record(*file) : !source || has_zip_end_record(source->tail())))
    return error_entry(
        Code::read_truncated, path,
        "the zip archive has no end of central directory record: it is "
        "cut short inside or before its central directory (the entries before the cut "
        "were read)");
  if (!no_rows) return std::nullopt;
  std::string reason;
  if (folders > 0) {
    reason = "no files: only " + std::to_string(folders) + " folder entr" +
             (folders == 1 ? "y" : "ies") + " in the " + format + " archive";
  } else if (tar) {
    // libarchive reads a block of zero bytes as the end of a tar archive.
    reason = "no entries: read as an empty " + format + " archive (the " +
             (k == 0 ? "input" : "entry") +
             " starts with a block of zero bytes, as an empty tar does)";
  } else {
    reason = "no entries: an empty " + format + " archive";
  }
  if (k == 0) return error_entry(Code::read_empty, path, reason);
  return not_read_entry(Code::read_empty_inner, path, reason);
}

// A row for an entry that is not a regular file, or nullopt if it is one.
std::optional<Entry> ArchiveStack::not_regular(Level& level, archive_entry* header,
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
std::optional<Entry> ArchiveStack::read_entry(std::size_t k, const std::string& path,
                                              std::optional<std::uint64_t> declared,
                                              const ZipMember* member) {
  if (member) {
    // Inflated here, checked against the central directory (not an archive:
    // that is streamed from libarchive as any other).
    std::vector<std::uint8_t> bytes;
    if (levels_[k]->zip->read(*member, options_.max_entry_size, pool(), bytes)) {
      meter_.count_zip_member();
      return file_entry(path, std::move(bytes));
    }
  }
  auto data = std::make_unique<EntryDataSource>(levels_[k]->archive.get());
  // One byte more than the declared size: the read that finds the end fits.
  const std::size_t want = static_cast<std::size_t>(
      std::min<std::uint64_t>(declared.value_or(kReadChunk), options_.max_entry_size) + 1);
  auto [bytes, expected] = take_buffer(want);
  if (!read_into(*data, bytes, kArchiveMagicBytes)) return source_failed(*data, path);
  ArchiveMagic magic = sniff_archive(bytes);
  if (magic != ArchiveMagic::none) {
    if (levels_.size() > static_cast<std::size_t>(std::max(options_.max_nesting, 0)))
      return error_entry(Code::read_nesting, path,
                         "a " + std::string(to_string(magic)) + " archive nested more than " +
                             std::to_string(options_.max_nesting) +
                             " levels deep inside the input is not followed",
                         declared.value_or(0));
    return enter(open_stream(std::move(data), std::move(bytes), path, path, declared));
  }
  if (declared && *declared > options_.max_entry_size) return oversize_entry(path, *declared);
  if (!read_into(*data, bytes, options_.max_entry_size + 1, expected))
    return source_failed(*data, path);
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
Entry ArchiveStack::fail_level(std::size_t k, std::string path, int error_number,
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
  while (levels_.size() > keep) levels_.pop_back();  // the innermost first
  return error_entry(std::move(code), path, reason);
}

bool ArchiveStack::input_exhausted(std::size_t k) const {
  const Level& level = *levels_[k];
  const auto position = archive_filter_bytes(level.archive.get(), -1);
  const std::uint64_t consumed = position > 0 ? static_cast<std::uint64_t>(position) : 0;
  if (level.file_size) return consumed >= *level.file_size;
  if (!level.memory.empty()) return consumed >= level.memory.size();
  return level.source && level.source->at_end();
}

}  // namespace mapindex::read
