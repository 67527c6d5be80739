#include "read/zip_members.h"

#include <fcntl.h>
#include <libdeflate.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <new>

#include "common/bytes.h"
#include "read/archive_magic.h"
#include "read/entry_buffers.h"

namespace mapindex::read {
namespace {

// Record layouts (APPNOTE.TXT 4.3): signatures and fixed sizes.
constexpr std::uint32_t kLocalSignature = 0x04034b50;         // "PK\3\4"
constexpr std::uint32_t kCentralSignature = 0x02014b50;       // "PK\1\2"
constexpr std::uint32_t kEndSignature = 0x06054b50;           // "PK\5\6"
constexpr std::uint32_t kZip64LocatorSignature = 0x07064b50;  // "PK\6\7"
constexpr std::size_t kLocalSize = 30, kCentralSize = 46, kEndSize = 22;
constexpr std::size_t kSeekableTail = 16 * 1024;
// The largest central directory read (about 200 bytes per member).
constexpr std::size_t kMaxDirectory = std::size_t{16} << 20;
// A member's compressed bytes are read whole into a buffer kept for the next
// member up to this size.
constexpr std::size_t kKeptCompressed = std::size_t{4} << 20;

// General purpose bits.
constexpr std::uint16_t kEncrypted = 1u << 0, kStrongEncryption = 1u << 6;
constexpr std::uint16_t kStored = 0, kDeflated = 8;

// Extra fields after which libarchive reads sizes, names or data otherwise:
// zip64 sizes, WinZip AES, the Info-ZIP Unicode path.
constexpr std::uint16_t kZip64Extra = 0x0001, kAesExtra = 0x9901, kUnicodePathExtra = 0x7075;

// Whether the extra fields tile `extra` exactly and none is one of those
// above.
bool plain_extra(const std::uint8_t* extra, std::size_t n) {
  std::size_t at = 0;
  while (at < n) {
    if (n - at < 4) return false;
    const std::uint16_t id = load_le_u16(extra + at), size = load_le_u16(extra + at + 2);
    if (id == kZip64Extra || id == kAesExtra || id == kUnicodePathExtra) return false;
    if (n - at - 4 < size) return false;
    at += 4 + std::size_t{size};
  }
  return true;
}

}  // namespace

ZipMembers::~ZipMembers() {
  if (prefix_stream_) inflateEnd(prefix_stream_.get());
}

std::unique_ptr<ZipMembers> ZipMembers::open(const std::filesystem::path& path,
                                             std::uint64_t size) {
  try {
    return read_directory(path, size);
  } catch (const std::bad_alloc&) {
    return nullptr;  // libarchive reads it
  }
}

std::unique_ptr<ZipMembers> ZipMembers::read_directory(const std::filesystem::path& path,
                                                       std::uint64_t size) {
  if (size < kEndSize) return nullptr;
  std::unique_ptr<ZipMembers> z(new ZipMembers);
  z->fd_.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (z->fd_.fd < 0) return nullptr;
  // The file libarchive opened had `size` bytes: this one must too.
  struct stat st {};
  if (::fstat(z->fd_.fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<std::uint64_t>(st.st_size) != size)
    return nullptr;

  // The end record, found as libarchive's seekable reader finds it: the
  // last "PK\5\6" that starts in the file's last 16 KiB at least 22 bytes
  // before the end and not at the window's first byte (a zip stored inside
  // may have one further up). It must be sane for libarchive (else it reads
  // the file as a stream) and for us: its comment reaching exactly to the
  // end of the file, and no zip64 locator right before it (libarchive would
  // take the directory's offset from the zip64 record).
  std::vector<std::uint8_t> tail(
      static_cast<std::size_t>(std::min<std::uint64_t>(size, kSeekableTail)));
  const std::uint64_t tail_at = size - tail.size();
  if (!pread_all(z->fd_.fd, tail.data(), tail.size(), tail_at)) return nullptr;
  std::optional<std::size_t> end;
  for (std::size_t at = tail.size() - kEndSize; at > 0; --at) {
    if (load_le_u32(tail.data() + at) == kEndSignature) {
      end = at;
      break;
    }
  }
  if (!end) return nullptr;
  if (*end >= 20 && load_le_u32(tail.data() + *end - 20) == kZip64LocatorSignature) return nullptr;
  const std::uint8_t* e = tail.data() + *end;
  const std::uint16_t disk = load_le_u16(e + 4), directory_disk = load_le_u16(e + 6),
                      on_disk = load_le_u16(e + 8), count = load_le_u16(e + 10),
                      comment = load_le_u16(e + 20);
  const std::uint32_t directory_size = load_le_u32(e + 12), directory_offset = load_le_u32(e + 16);
  if (*end + kEndSize + comment != tail.size()) return nullptr;
  // Multi-disk and zip64 archives (whose end record holds 0xffff or
  // 0xffffffff and points to a zip64 one) are libarchive's.
  if (disk != 0 || directory_disk != 0 || on_disk != count || count == 0xffff ||
      directory_size == 0xffffffff || directory_offset == 0xffffffff)
    return nullptr;
  const std::uint64_t end_offset = tail_at + *end;
  // The directory ends right before the end record: nothing between, and no
  // data before the first member shifting every offset.
  if (std::uint64_t{directory_offset} + directory_size != end_offset) return nullptr;
  if (std::uint64_t{count} * kCentralSize > directory_size) return nullptr;
  // libarchive holds the directory too; a huge one is left to it alone.
  if (directory_size > kMaxDirectory) return nullptr;
  std::vector<std::uint8_t> directory(directory_size);
  if (!pread_all(z->fd_.fd, directory.data(), directory.size(), directory_offset)) return nullptr;

  z->directory_offset_ = directory_offset;
  z->members_.reserve(count);
  std::size_t at = 0;
  for (std::uint16_t i = 0; i < count; ++i) {
    if (directory.size() - at < kCentralSize) return nullptr;
    const std::uint8_t* c = directory.data() + at;
    if (load_le_u32(c) != kCentralSignature) return nullptr;
    ZipMember m;
    m.flags = load_le_u16(c + 8);
    m.method = load_le_u16(c + 10);
    m.crc32 = load_le_u32(c + 16);
    const std::uint32_t compressed = load_le_u32(c + 20), plain = load_le_u32(c + 24);
    const std::size_t name_size = load_le_u16(c + 28), extra_size = load_le_u16(c + 30),
                      comment_size = load_le_u16(c + 32);
    const std::uint16_t start_disk = load_le_u16(c + 34);
    const std::uint32_t offset = load_le_u32(c + 42);
    if (directory.size() - at - kCentralSize < name_size + extra_size + comment_size)
      return nullptr;
    m.name.assign(reinterpret_cast<const char*>(c + kCentralSize), name_size);
    m.compressed_size = compressed;
    m.size = plain;
    m.local_offset = offset;
    if (start_disk != 0 || offset >= directory_offset) return nullptr;
    m.taken = (m.method == kStored || m.method == kDeflated) &&
              !(m.flags & (kEncrypted | kStrongEncryption)) && compressed != 0xffffffff &&
              plain != 0xffffffff && plain_extra(c + kCentralSize + name_size, extra_size) &&
              (m.method != kStored || compressed == plain);
    z->members_.push_back(std::move(m));
    at += kCentralSize + name_size + extra_size + comment_size;
  }
  if (at != directory.size()) return nullptr;
  // libarchive's seekable reader gives members by local header offset.
  std::stable_sort(
      z->members_.begin(), z->members_.end(),
      [](const ZipMember& a, const ZipMember& b) { return a.local_offset < b.local_offset; });
  for (std::size_t i = 1; i < z->members_.size(); ++i)
    if (z->members_[i].local_offset == z->members_[i - 1].local_offset) return nullptr;
  return z;
}

const ZipMember* ZipMembers::next(std::string_view raw_name, std::optional<std::uint64_t> declared,
                                  bool regular) {
  if (!in_step_) return nullptr;
  if (next_ >= members_.size()) {
    in_step_ = false;
    return nullptr;
  }
  const ZipMember& m = members_[next_++];
  if (m.name != raw_name) {
    in_step_ = false;
    return nullptr;
  }
  // libarchive declares a link's size 0, whatever its target's length.
  if (!regular || declared != m.size) return nullptr;
  return &m;
}

bool ZipMembers::read(const ZipMember& member, std::uint64_t max_size, EntryBuffers& pool,
                      std::vector<std::uint8_t>& out) {
  out.clear();
  if (!member.taken || member.size > max_size) return false;
  bool ok = false;
  try {
    ok = read_checked(member, pool, out);
  } catch (const std::bad_alloc&) {
    ok = false;
  }
  if (!ok) pool.give(out);
  // The compressed bytes of a large member are not kept for the next.
  if (compressed_capacity_ > kKeptCompressed) {
    compressed_.reset();
    compressed_capacity_ = 0;
  }
  return ok;
}

bool ZipMembers::starts_an_archive(const ZipMember& m, const std::uint8_t* data) {
  // The bytes ArchiveStack sniffs an entry by: its first kArchiveMagicBytes.
  const std::size_t want =
      static_cast<std::size_t>(std::min<std::uint64_t>(m.size, kArchiveMagicBytes));
  if (m.method == kStored) return sniff_archive(Bytes(data, want)) != ArchiveMagic::none;
  // Deflated: the first bytes inflated with zlib, which stops there (a bad
  // stream is found by libdeflate next, and then it is libarchive's anyway).
  if (!prefix_stream_) {
    prefix_stream_ = std::make_unique<z_stream>();
    if (inflateInit2(prefix_stream_.get(), -MAX_WBITS) != Z_OK) {
      prefix_stream_.reset();
      throw std::bad_alloc();
    }
  } else if (inflateReset(prefix_stream_.get()) != Z_OK) {
    return false;
  }
  std::uint8_t prefix[kArchiveMagicBytes];
  z_stream& z = *prefix_stream_;
  z.next_in = const_cast<std::uint8_t*>(data);
  z.avail_in = static_cast<uInt>(std::min<std::uint64_t>(m.compressed_size, 1u << 30));
  z.next_out = prefix;
  z.avail_out = static_cast<uInt>(want);
  const int r = inflate(&z, Z_SYNC_FLUSH);
  if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) return false;
  return sniff_archive(Bytes(prefix, want - z.avail_out)) != ArchiveMagic::none;
}

bool ZipMembers::read_checked(const ZipMember& m, EntryBuffers& pool,
                              std::vector<std::uint8_t>& out) {
  std::uint8_t local[kLocalSize];  // the local header
  if (!pread_all(fd_.fd, local, kLocalSize, m.local_offset)) return false;
  if (load_le_u32(local) != kLocalSignature || load_le_u16(local + 6) != m.flags ||
      load_le_u16(local + 8) != m.method)
    return false;
  // libarchive takes the local header's CRC-32 and sizes where they are not
  // 0 (then the directory's): they must be the directory's. (A data
  // descriptor, bit 3, is not read by its seekable reader: nor here.)
  const auto zero_or = [](std::uint32_t here, std::uint64_t central) {
    return here == 0 || here == central;
  };
  if (!zero_or(load_le_u32(local + 14), m.crc32) ||
      !zero_or(load_le_u32(local + 18), m.compressed_size) ||
      !zero_or(load_le_u32(local + 22), m.size))
    return false;
  const std::size_t name_size = load_le_u16(local + 26), extra_size = load_le_u16(local + 28);
  // Deflate data no encoder makes this much larger than what it holds
  // (empty blocks can pad a stream without end): such members are streamed
  // by libarchive, not held here.
  if (m.compressed_size > m.size + m.size / 4 + 4096) return false;
  const std::uint64_t data_at = m.local_offset + kLocalSize + name_size + extra_size;
  if (data_at > directory_offset_ || directory_offset_ - data_at < m.compressed_size) return false;
  // The name and extra fields, then the data: one read.
  const std::uint64_t head = name_size + extra_size;
  const std::uint64_t span = head + m.compressed_size;
  if (compressed_capacity_ < span) {
    compressed_.reset(new std::uint8_t[static_cast<std::size_t>(span)]);
    compressed_capacity_ = static_cast<std::size_t>(span);
  }
  std::uint8_t* buffer = compressed_.get();
  if (!pread_all(fd_.fd, buffer, static_cast<std::size_t>(span), m.local_offset + kLocalSize))
    return false;
  // libarchive names the entry by its local header, and reads its extra
  // fields (which may give other sizes or another name).
  if (std::string_view(reinterpret_cast<const char*>(buffer), name_size) != m.name) return false;
  if (!plain_extra(buffer + name_size, extra_size)) return false;
  const std::uint8_t* data = buffer + head;

  // A member that is itself an archive is libarchive's: it streams it into
  // a level of its own. Its first bytes say so, before it is inflated whole.
  if (starts_an_archive(m, data)) return false;

  const std::size_t size = static_cast<std::size_t>(m.size);
  out = pool.take_to_overwrite(size);  // all of it written below, or given back
  if (m.method == kStored) {
    std::copy_n(data, size, out.data());
  } else {
    std::size_t used = 0, made = 0;
    const auto result = libdeflate_deflate_decompress_ex(
        decompressor_.get(), data, static_cast<std::size_t>(m.compressed_size), out.data(), size,
        &used, &made);
    if (result != LIBDEFLATE_SUCCESS || used != m.compressed_size || made != size) return false;
  }
  return static_cast<std::uint32_t>(libdeflate_crc32(0, out.data(), out.size())) == m.crc32;
}

}  // namespace mapindex::read
