#include "read/input_opening.h"

#include <archive.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <vector>

#include "read/byte_source.h"
#include "read/file_client.h"
#include "read/folder_walker.h"

namespace mapindex::read {

ArchiveMagic sniff_file(const std::filesystem::path& path) {
  std::vector<std::uint8_t> prefix;
  {
    Fd fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (fd.fd >= 0) {
      FdSource source(fd.fd, false);
      (void)read_into(source, prefix, kArchiveMagicBytes);
    }
  }
  return sniff_archive(prefix);
}

FileOpening open_regular_file(const std::filesystem::path& path, std::uint64_t size) {
  FileOpening opening;
  // libarchive calls an empty stream an empty archive; an empty file is a file.
  if (size == 0) return opening;
  ArchiveHandle archive = new_archive_reader();
  int r = open_file_client(archive.get(), path);
  if (r >= ARCHIVE_WARN) {
    opening.how = FileOpening::How::archive;
    opening.archive = std::move(archive);
    return opening;
  }
  std::string reason = archive_reason(archive.get());
  int error_number = archive_errno(archive.get());
  if (!is_unrecognized_format(reason)) {
    // Either the file can't be read at all, or it starts like an archive
    // that libarchive could not begin to read (e.g. cut short).
    Code code = classify_read_error(error_number, reason);
    if (code == Code::read_io) {
      return FileOpening{FileOpening::How::unreadable, {}, code, reason};
    }
    if (sniff_file(path) != ArchiveMagic::none) {
      return FileOpening{FileOpening::How::damaged_archive, {}, code, reason};
    }
  }
  return opening;
}

InputSurvey survey_input(const std::string& input) {
  InputSurvey survey;
  survey.source.input = input;
  if (input == "-") {
    survey.source.kind = SourceKind::standard_input;
    return survey;
  }
  struct stat st {};
  if (::stat(input.c_str(), &st) != 0) {
    survey.source.kind = SourceKind::unreadable;
    survey.bytes = 0;
    return survey;
  }
  if (S_ISDIR(st.st_mode)) {
    survey.source.kind = SourceKind::folder;
    std::uint64_t total = 0;
    FolderWalker walker(input);
    while (auto item = walker.next()) total += item->size;
    survey.bytes = total;
    return survey;
  }
  if (!S_ISREG(st.st_mode)) {
    survey.stream = true;  // a FIFO or a device: its size is unknown
    return survey;
  }
  survey.bytes = static_cast<std::uint64_t>(st.st_size);
  switch (open_regular_file(input, *survey.bytes).how) {
    case FileOpening::How::archive:
    case FileOpening::How::damaged_archive:
      survey.source.kind = SourceKind::archive;
      survey.source.format = sniff_file(input);
      break;
    case FileOpening::How::plain: survey.source.kind = SourceKind::file; break;
    case FileOpening::How::unreadable: survey.source.kind = SourceKind::unreadable; break;
  }
  return survey;
}

}  // namespace mapindex::read
