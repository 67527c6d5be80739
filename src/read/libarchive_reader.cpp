#include "read/libarchive_reader.h"

#include <archive.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <clocale>
#include <new>

namespace mapindex::read {

void ArchiveReadFree::operator()(archive* a) const { archive_read_free(a); }

void use_utf8_names() {
  static const bool done = [] { return std::setlocale(LC_CTYPE, "C.UTF-8") != nullptr; }();
  (void)done;
}

ArchiveHandle new_archive_reader() {
  ArchiveHandle a(archive_read_new());
  if (!a) throw std::bad_alloc();
  archive* r = a.get();
  // Only formats that hold map packs. Not mtree: libarchive takes lines of
  // words (a README, a list of map names) for an mtree manifest and holds it
  // whole in memory; not raw, cpio, iso9660, ar, cab, lha, xar, warc.
  archive_read_support_format_zip(r);  // seekable (central directory) and streamed
  archive_read_support_format_tar(r);  // ustar, pax, GNU tar, v7
  archive_read_support_format_7zip(r);
  archive_read_support_format_rar(r);
  archive_read_support_format_rar5(r);
  archive_read_support_filter_bzip2(r);
  archive_read_support_filter_compress(r);
  archive_read_support_filter_gzip(r);
  archive_read_support_filter_lz4(r);
  archive_read_support_filter_lzip(r);
  archive_read_support_filter_lzma(r);
  archive_read_support_filter_xz(r);
  archive_read_support_filter_zstd(r);
  return a;
}

bool has_reason(archive* a) {
  const char* s = a ? archive_error_string(a) : nullptr;
  return s && *s;
}

std::string archive_reason(archive* a) {
  return has_reason(a) ? std::string(archive_error_string(a))
                       : std::string("unknown libarchive error");
}

bool is_unrecognized_format(std::string_view reason) {
  return reason.find("Unrecognized archive format") != std::string_view::npos;
}

Code classify_read_error(int error_number, std::string_view reason) {
  std::string lower(reason);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // "No progress is possible" is liblzma's LZMA_BUF_ERROR: its input ran out.
  for (std::string_view needle :
       {"truncat", "premature end", "unexpected end", "unexpected eof", "no progress is possible"})
    if (lower.find(needle) != std::string::npos) return Code::read_truncated;
  switch (error_number) {
    case EIO:
    case EACCES:
    case EPERM:
    case ENOENT:
    case ENOTDIR:
    case EISDIR:
    case ENXIO:
    case ENODEV:
    case EBADF:
    case ESTALE:
    case ENOMEM: return Code::read_io;
    default: return Code::read_corrupt;
  }
}

}  // namespace mapindex::read
