#include "read/archive_magic.h"

#include <cstdint>
#include <cstring>

namespace mapindex::read {
namespace {

bool starts_with(Bytes bytes, std::size_t offset, std::string_view magic) {
  return bytes.size() >= offset + magic.size() &&
         std::memcmp(bytes.data() + offset, magic.data(), magic.size()) == 0;
}

std::uint64_t le(Bytes bytes, std::size_t offset, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = n; i-- > 0;) v = v << 8 | bytes[offset + i];
  return v;
}

// A bare .lzma stream (LZMA_Alone), as libarchive's lzma filter bids on it:
// the usual properties byte, a dictionary size of 2^n or 2^n + 2^(n-1), an
// unknown or plausible uncompressed size, and a range coder starting at 0.
bool is_lzma_alone(Bytes bytes) {
  if (bytes.size() < 14 || bytes[0] != 0x5d || bytes[13] != 0) return false;
  const std::uint64_t dict = le(bytes, 1, 4);
  bool dict_ok = false;
  for (int n = 12; n <= 30 && !dict_ok; ++n)
    dict_ok = dict == (1ull << n) || dict == (1ull << n) + (1ull << (n - 1));
  const std::uint64_t size = le(bytes, 5, 8);
  return dict_ok && (size == ~0ull || size < (1ull << 40));
}

// A tar header block without the "ustar" magic (v7, old GNU): a name and a
// checksum field that matches the block (summed with the field as spaces).
bool is_v7_tar(Bytes bytes) {
  if (bytes.size() < 512 || bytes[0] == 0) return false;
  std::uint64_t stored = 0;
  int digits = 0;
  std::size_t i = 148;
  while (i < 156 && bytes[i] == ' ') ++i;
  for (; i < 156 && bytes[i] >= '0' && bytes[i] <= '7'; ++i, ++digits)
    stored = stored * 8 + (bytes[i] - '0');
  if (digits == 0 || (i < 156 && bytes[i] != 0 && bytes[i] != ' ')) return false;
  std::uint64_t sum = 0;
  for (std::size_t k = 0; k < 512; ++k) sum += (k >= 148 && k < 156) ? ' ' : bytes[k];
  return sum == stored;
}

}  // namespace

ArchiveMagic sniff_archive(Bytes prefix) {
  using namespace std::string_view_literals;
  // Local file header, empty archive (end of central directory), spanned.
  if (starts_with(prefix, 0, "PK\x03\x04"sv) || starts_with(prefix, 0, "PK\x05\x06"sv) ||
      starts_with(prefix, 0, "PK\x07\x08"sv))
    return ArchiveMagic::zip;
  if (starts_with(prefix, 0, "\x1f\x8b"sv)) return ArchiveMagic::gzip;
  if (starts_with(prefix, 0,
                  "\xfd"
                  "7zXZ\x00"sv))
    return ArchiveMagic::xz;
  if (starts_with(prefix, 0, "\x28\xb5\x2f\xfd"sv)) return ArchiveMagic::zstd;
  if (starts_with(prefix, 0, "BZh"sv) && prefix.size() >= 4 && prefix[3] >= '1' && prefix[3] <= '9')
    return ArchiveMagic::bzip2;
  if (starts_with(prefix, 0, "7z\xbc\xaf\x27\x1c"sv)) return ArchiveMagic::seven_zip;
  if (starts_with(prefix, 0, "Rar!\x1a\x07"sv)) return ArchiveMagic::rar;
  if (starts_with(prefix, 0, "\x04\x22\x4d\x18"sv)) return ArchiveMagic::lz4;
  // POSIX "ustar\0" and GNU "ustar  \0" both start with "ustar".
  if (starts_with(prefix, 257, "ustar"sv) || is_v7_tar(prefix)) return ArchiveMagic::tar;
  if (starts_with(prefix, 0, "LZIP"sv)) return ArchiveMagic::lzip;
  if (starts_with(prefix, 0, "\x1f\x9d"sv)) return ArchiveMagic::compress;
  if (is_lzma_alone(prefix)) return ArchiveMagic::lzma;
  return ArchiveMagic::none;
}

bool has_zip_end_record(Bytes tail) {
  if (tail.size() < 22) return false;
  for (std::size_t at = tail.size() - 22;; --at) {
    if (tail[at] == 'P' && tail[at + 1] == 'K' && tail[at + 2] == 5 && tail[at + 3] == 6 &&
        at + 22 + le(tail, at + 20, 2) <= tail.size())
      return true;
    if (at == 0 || tail.size() - at >= kZipTailBytes) return false;
  }
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
    case ArchiveMagic::lzip: return "lzip";
    case ArchiveMagic::lzma: return "lzma";
    case ArchiveMagic::compress: return "compress (.Z)";
  }
  return "unknown";
}

}  // namespace mapindex::read
