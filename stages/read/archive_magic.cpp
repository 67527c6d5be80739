#include "stages/read/archive_magic.h"

#include <cstring>

namespace mapindex::read {
namespace {

bool starts_with(Bytes bytes, std::size_t offset, std::string_view magic) {
  return bytes.size() >= offset + magic.size() &&
         std::memcmp(bytes.data() + offset, magic.data(), magic.size()) == 0;
}

}  // namespace

ArchiveMagic sniff_archive(Bytes prefix) {
  using namespace std::string_view_literals;
  // Local file header, empty archive (end of central directory), spanned.
  if (starts_with(prefix, 0, "PK\x03\x04"sv) || starts_with(prefix, 0, "PK\x05\x06"sv) ||
      starts_with(prefix, 0, "PK\x07\x08"sv))
    return ArchiveMagic::zip;
  if (starts_with(prefix, 0, "\x1f\x8b"sv)) return ArchiveMagic::gzip;
  if (starts_with(prefix, 0, "\xfd" "7zXZ\x00"sv)) return ArchiveMagic::xz;
  if (starts_with(prefix, 0, "\x28\xb5\x2f\xfd"sv)) return ArchiveMagic::zstd;
  if (starts_with(prefix, 0, "BZh"sv) && prefix.size() >= 4 && prefix[3] >= '1' && prefix[3] <= '9')
    return ArchiveMagic::bzip2;
  if (starts_with(prefix, 0, "7z\xbc\xaf\x27\x1c"sv)) return ArchiveMagic::seven_zip;
  if (starts_with(prefix, 0, "Rar!\x1a\x07"sv)) return ArchiveMagic::rar;
  if (starts_with(prefix, 0, "\x04\x22\x4d\x18"sv)) return ArchiveMagic::lz4;
  // POSIX "ustar\0" and GNU "ustar  \0" both start with "ustar".
  if (starts_with(prefix, 257, "ustar"sv)) return ArchiveMagic::tar;
  return ArchiveMagic::none;
}

std::string_view to_string(ArchiveMagic magic) {
  switch (magic) {
    case ArchiveMagic::none: return "none";
    case ArchiveMagic::zip: return "zip";
    case ArchiveMagic::gzip: return "gzip";
    case ArchiveMagic::xz: return "xz";
    case ArchiveMagic::zstd: return "zstd";
    case ArchiveMagic::bzip2: return "bzip2";
    case ArchiveMagic::seven_zip: return "7-Zip";
    case ArchiveMagic::tar: return "tar";
    case ArchiveMagic::rar: return "RAR";
    case ArchiveMagic::lz4: return "lz4";
  }
  return "unknown";
}

}  // namespace mapindex::read
