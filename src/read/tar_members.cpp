#include "read/tar_members.h"

#include <fcntl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <new>
#include <optional>

#include "read/archive_magic.h"

namespace mapindex::read {
namespace {

// Fields of a tar header block (POSIX ustar; v7 and GNU headers put these
// three at the same places).
constexpr std::size_t kSizeAt = 124, kSizeLength = 12;
constexpr std::size_t kChecksumAt = 148, kChecksumLength = 8;
constexpr std::size_t kTypeAt = 156;

// An octal field: leading spaces, octal digits, then NUL or spaces to its
// end (at least one digit). nullopt for anything else, base-256 included.
std::optional<std::uint64_t> octal(const std::uint8_t* field, std::size_t length) {
  std::size_t i = 0;
  while (i < length && field[i] == ' ') ++i;
  std::uint64_t value = 0;
  std::size_t digits = 0;
  for (; i < length && field[i] >= '0' && field[i] <= '7'; ++i, ++digits) {
    if (value > (UINT64_MAX >> 3)) return std::nullopt;
    value = value << 3 | static_cast<std::uint64_t>(field[i] - '0');
  }
  if (digits == 0) return std::nullopt;
  for (; i < length; ++i)
    if (field[i] != ' ' && field[i] != '\0') return std::nullopt;
  return value;
}

}  // namespace

bool is_regular_file_header(const std::uint8_t* block, std::uint64_t size) {
  const std::uint8_t type = block[kTypeAt];
  if (type != '0' && type != '\0' && type != '7') return false;
  const auto stored_size = octal(block + kSizeAt, kSizeLength);
  if (!stored_size || *stored_size != size) return false;
  const auto checksum = octal(block + kChecksumAt, kChecksumLength);
  if (!checksum) return false;
  // The checksum field counts as eight spaces.
  std::uint64_t unsigned_sum = 8 * ' ';
  std::int64_t signed_sum = 8 * ' ';
  for (std::size_t i = 0; i < TarMembers::kBlock; ++i) {
    if (i >= kChecksumAt && i < kChecksumAt + kChecksumLength) continue;
    unsigned_sum += block[i];
    signed_sum += static_cast<std::int8_t>(block[i]);
  }
  return *checksum == unsigned_sum || static_cast<std::int64_t>(*checksum) == signed_sum;
}

std::unique_ptr<TarMembers> TarMembers::open(const std::filesystem::path& path,
                                             std::uint64_t size) {
  std::unique_ptr<TarMembers> tar(new (std::nothrow) TarMembers);
  if (!tar) return nullptr;
  tar->fd_.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (tar->fd_.fd < 0) return nullptr;
  tar->size_ = size;
  return tar;
}

bool TarMembers::read(std::uint64_t offset, std::uint64_t size, EntryBuffers& pool,
                      std::vector<std::uint8_t>& out) const {
  out.clear();
  // The data and the padding to its last block: libarchive's skip past
  // them then finds them all, as its reading of them would.
  if (offset < kBlock || offset % kBlock != 0 || offset > size_ ||
      size > (size_ - offset) / kBlock * kBlock)
    return false;
  // The header and the bytes an entry is sniffed by, in one read.
  const std::size_t prefix =
      static_cast<std::size_t>(std::min<std::uint64_t>(size, kArchiveMagicBytes));
  std::array<std::uint8_t, kBlock + kArchiveMagicBytes> head;
  if (!pread_all(fd_.fd, head.data(), kBlock + prefix, offset - kBlock) ||
      !is_regular_file_header(head.data(), size) ||
      sniff_archive(Bytes(head.data() + kBlock, prefix)) != ArchiveMagic::none)
    return false;
  try {
    out = pool.take_to_overwrite(static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    pool.give(out);
    return false;
  }
  std::copy_n(head.data() + kBlock, prefix, out.data());
  if (!pread_all(fd_.fd, out.data() + prefix, out.size() - prefix, offset + prefix)) {
    pool.give(out);
    return false;
  }
  return true;
}

}  // namespace mapindex::read
