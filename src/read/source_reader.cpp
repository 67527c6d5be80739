#include "read/source_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "read/archive_magic.h"
#include "read/archive_stack.h"
#include "read/byte_source.h"
#include "read/entry_buffers.h"
#include "read/entry_factory.h"
#include "read/folder_walker.h"
#include "read/input_opening.h"
#include "read/read_meter.h"

namespace mapindex::read {
namespace fs = std::filesystem;

// Goes through the inputs in order: each is surveyed first (what it is, its
// size), then read: a folder by its walk, a regular file as an archive (the
// ArchiveStack) or one plain file, a stream (standard input, a FIFO) as an
// archive or one plain file. Progress lives in the ReadMeter.
class SourceReader::Impl : private EntryFactory {
 public:
  Impl(std::vector<std::string> inputs, ReadOptions options)
      : inputs_(std::move(inputs)), options_(options), stack_(options_, stop_, meter_) {
    stack_.set_pool(shared_pool());
    survey_inputs();
  }

  std::optional<Entry> next();
  const std::vector<Source>& sources() {
    open_streams();
    return sources_;
  }
  ReadProgress progress() const { return meter_.snapshot(); }
  void stop() { stop_.store(true); }

 private:
  void survey_inputs();
  void open_streams();
  std::optional<Entry> open_stream_input(std::size_t i, ArchiveStack::Opened& out);
  void name_entries(const std::string& input) {
    set_source(input);
    stack_.set_source(input);
  }
  std::optional<Entry> start_input(std::size_t i);
  std::optional<Entry> step_folder();
  std::optional<Entry> open_file(const fs::path& path, const std::string& archive_path,
                                 const std::string& plain_path, std::uint64_t size);
  Entry read_plain_file(const fs::path& path, const std::string& error_path,
                        const std::string& plain_path);
  void close_all();

  std::vector<std::string> inputs_;
  ReadOptions options_;
  std::vector<Source> sources_;  // what each input is
  std::vector<bool> is_stream_;  // a FIFO or a device: told by open_streams()
  // The stream inputs, opened by open_streams(): a level to push or an
  // entry, when their turn comes.
  std::vector<std::optional<ArchiveStack::Opened>> streams_;
  bool streams_opened_ = false;
  std::size_t next_input_ = 0;
  std::uint64_t input_rows_before_ = 0;  // entries delivered before this input
  std::optional<FolderWalker> walker_;
  std::atomic<bool> stop_{false};
  ReadMeter meter_;
  ArchiveStack stack_;
};

void SourceReader::Impl::survey_inputs() {
  std::uint64_t total = 0;
  bool total_known = true;
  streams_.resize(inputs_.size());
  for (const auto& input : inputs_) {
    InputSurvey survey = survey_input(input);
    sources_.push_back(survey.source);
    is_stream_.push_back(survey.stream);
    if (survey.bytes)
      total += *survey.bytes;
    else
      total_known = false;  // standard input, a FIFO or a device: size unknown
  }
  meter_.set_total(total_known ? total : 0);
}

// A stream input can be told only by reading it, and read only once: it is
// opened here, before any input is read, and what was found (a level or an
// entry) waits for its turn.
void SourceReader::Impl::open_streams() {
  if (streams_opened_) return;
  streams_opened_ = true;
  for (std::size_t i = 0; i < inputs_.size() && !stop_.load(); ++i) {
    if (!is_stream_[i]) continue;
    name_entries(inputs_[i]);
    ArchiveStack::Opened opened;
    if (auto error = open_stream_input(i, opened)) opened.entry = std::move(error);
    streams_[i] = std::move(opened);
  }
}

// A FIFO (e.g. a shell's process substitution) or a device: a stream, an
// archive or one plain file. Says in sources_[i] which.
std::optional<Entry> SourceReader::Impl::open_stream_input(std::size_t i,
                                                           ArchiveStack::Opened& out) {
  const std::string& input = inputs_[i];
  std::string name = fs::path(input).filename().string();
  sources_[i].kind = SourceKind::unreadable;
  int fd = ::open(input.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return error_entry(Code::read_io, "", std::string("cannot open: ") + std::strerror(errno));
  auto source = std::make_unique<FdSource>(fd, true, &stop_);
  source->count_into(meter_.stream_counter());
  std::vector<std::uint8_t> prefix;
  if (!read_into(*source, prefix, kArchiveMagicBytes)) return stack_.source_failed(*source, "");
  sources_[i].format = sniff_archive(prefix);
  out = stack_.open_stream(std::move(source), std::move(prefix), "", name, std::nullopt);
  sources_[i].kind = out.plain ? SourceKind::file : SourceKind::archive;
  if (out.plain) sources_[i].format = ArchiveMagic::none;
  return std::nullopt;
}

std::optional<Entry> SourceReader::Impl::next() {
  open_streams();
  while (!stop_.load()) {
    std::optional<Entry> entry;
    if (!stack_.empty()) {
      entry = stack_.step();
    } else if (walker_) {
      entry = step_folder();
    } else if (next_input_ < inputs_.size()) {
      entry = start_input(next_input_++);
    } else {
      return std::nullopt;
    }
    meter_.update(stack_.file_position());
    if (stop_.load()) break;  // what was read while stopping may be cut short
    if (entry) {
      meter_.count_entry();
      return entry;
    }
  }
  close_all();
  return std::nullopt;
}

std::optional<Entry> SourceReader::Impl::start_input(std::size_t i) {
  const std::string& input = inputs_[i];
  name_entries(input);
  input_rows_before_ = meter_.entries();
  if (streams_[i]) {
    ArchiveStack::Opened opened = std::move(*streams_[i]);
    streams_[i].reset();
    return stack_.enter(std::move(opened));
  }
  if (sources_[i].kind == SourceKind::standard_input) {
    auto source = std::make_unique<FdSource>(STDIN_FILENO, false, &stop_);
    source->count_into(meter_.stream_counter());
    std::vector<std::uint8_t> prefix;
    if (!read_into(*source, prefix, kArchiveMagicBytes)) return stack_.source_failed(*source, "");
    return stack_.enter(
        stack_.open_stream(std::move(source), std::move(prefix), "", "-", std::nullopt));
  }
  struct stat st {};
  if (::stat(input.c_str(), &st) != 0)
    return error_entry(Code::read_io, "", std::string("cannot open: ") + std::strerror(errno));
  std::string name = fs::path(input).filename().string();
  if (S_ISDIR(st.st_mode)) {
    walker_.emplace(input);
    return std::nullopt;
  }
  if (S_ISREG(st.st_mode)) {
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (sources_[i].kind != SourceKind::file) return open_file(input, "", name, size);
    // Surveyed as one plain file: not given to libarchive again.
    meter_.begin_file(size);
    return read_plain_file(input, "", name);
  }
  // A stream that was something else when the inputs were surveyed.
  ArchiveStack::Opened opened;
  if (auto error = open_stream_input(i, opened)) return error;
  return stack_.enter(std::move(opened));
}

std::optional<Entry> SourceReader::Impl::step_folder() {
  auto item = walker_->next();
  if (!item) {
    walker_.reset();
    // Every input gets a row: a folder with nothing in it is likely a mistake.
    if (meter_.entries() == input_rows_before_ && !stop_.load())
      return error_entry(Code::read_empty, "",
                         "no entries: the folder holds no files (nor do its subfolders)");
    return std::nullopt;
  }
  if (item->error) return error_entry(item->error->code, item->relative, item->error->message);
  if (item->not_read)
    return not_read_entry(Code::read_not_regular, item->relative, *item->not_read);
  return open_file(item->path, item->relative, item->relative, item->size);
}

// A regular file: an archive if libarchive can open it, else one plain entry.
std::optional<Entry> SourceReader::Impl::open_file(const fs::path& path,
                                                   const std::string& archive_path,
                                                   const std::string& plain_path,
                                                   std::uint64_t size) {
  meter_.begin_file(size);
  FileOpening opening = open_regular_file(path, size);
  switch (opening.how) {
    case FileOpening::How::archive:
      stack_.push_file(std::move(opening.archive), path, archive_path, size);
      return std::nullopt;
    case FileOpening::How::unreadable:
    case FileOpening::How::damaged_archive:
      return error_entry(opening.code, archive_path, opening.reason);
    case FileOpening::How::plain: break;
  }
  return read_plain_file(path, archive_path, plain_path);
}

Entry SourceReader::Impl::read_plain_file(const fs::path& path, const std::string& error_path,
                                          const std::string& plain_path) {
  Fd fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (fd.fd < 0)
    return error_entry(Code::read_io, error_path,
                       std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0)
    return error_entry(Code::read_io, error_path,
                       std::string("cannot stat: ") + std::strerror(errno));
  auto size = static_cast<std::uint64_t>(st.st_size);
  // An input (not a file in a folder) of 0 bytes gives nothing to index.
  if (size == 0 && error_path.empty())
    return error_entry(Code::read_empty, "", "no entries: the input is empty (0 bytes)");
  if (size > options_.max_entry_size) return oversize_entry(plain_path, size);
  FdSource source(fd.fd, false);
  // One byte more than the size: the read that finds the end fits, instead
  // of growing a tiny file's buffer to 64 KiB.
  const std::size_t want = static_cast<std::size_t>(size + 1);  // at most --max-map-size + 1
  auto [bytes, expected] = take_buffer(want);
  if (!read_into(source, bytes, options_.max_entry_size + 1, expected))
    return error_entry(Code::read_io, error_path, source.error_message());
  if (bytes.size() > options_.max_entry_size)
    return oversize_entry(plain_path, bytes.size());  // grew
  return file_entry(plain_path, std::move(bytes));
}

void SourceReader::Impl::close_all() {
  stack_.close();
  walker_.reset();
  streams_.clear();
  next_input_ = inputs_.size();
}

SourceReader::SourceReader(std::vector<std::string> inputs, ReadOptions options)
    : impl_(std::make_unique<Impl>(std::move(inputs), options)) {}
SourceReader::~SourceReader() = default;
SourceReader::SourceReader(SourceReader&&) noexcept = default;
SourceReader& SourceReader::operator=(SourceReader&&) noexcept = default;

std::optional<Entry> SourceReader::next() { return impl_->next(); }
const std::vector<Source>& SourceReader::sources() { return impl_->sources(); }
ReadProgress SourceReader::progress() const { return impl_->progress(); }
void SourceReader::stop() { impl_->stop(); }

}  // namespace mapindex::read
