#include "tests/support/archive_builder.h"

#include <archive.h>
#include <archive_entry.h>
#include <locale.h>
#include <stdlib.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cerrno>
#include <clocale>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <system_error>

namespace mapindex::testing {
namespace fs = std::filesystem;
namespace {

struct WriteFree {
  void operator()(archive* a) const { archive_write_free(a); }
};
struct EntryFree {
  void operator()(archive_entry* e) const { archive_entry_free(e); }
};

// The C locale on this thread while it lives, if `raw` (else nothing): a
// name written as raw bytes is then not taken for UTF-8 (in a UTF-8 locale,
// mapindex's, libarchive's zip writer flags every name UTF-8).
class ScopedRawNames {
 public:
  explicit ScopedRawNames(bool raw) {
    if (!raw) return;
    c_ = newlocale(LC_CTYPE_MASK, "C", static_cast<locale_t>(0));
    if (c_) before_ = uselocale(c_);
  }
  ~ScopedRawNames() {
    if (!c_) return;
    uselocale(before_);
    freelocale(c_);
  }
  ScopedRawNames(const ScopedRawNames&) = delete;
  ScopedRawNames& operator=(const ScopedRawNames&) = delete;

 private:
  locale_t c_ = static_cast<locale_t>(0);
  locale_t before_ = static_cast<locale_t>(0);
};

bool any_raw_path(const std::vector<ArchiveMember>& members) {
  for (const auto& m : members)
    if (m.raw_path) return true;
  return false;
}

void check(archive* a, int r, const char* what) {
  if (r < ARCHIVE_WARN)
    throw std::runtime_error(std::string("archive_builder: ") + what + ": " +
                             (archive_error_string(a) ? archive_error_string(a) : "?"));
}

std::unique_ptr<archive, WriteFree> new_writer(ArchiveFormat format,
                                               const ArchiveSettings& settings = {}) {
  std::unique_ptr<archive, WriteFree> a(archive_write_new());
  archive* w = a.get();
  switch (format) {
    case ArchiveFormat::zip: check(w, archive_write_set_format_zip(w), "zip"); break;
    case ArchiveFormat::seven_zip: check(w, archive_write_set_format_7zip(w), "7zip"); break;
    case ArchiveFormat::tar:
    case ArchiveFormat::tar_gz:
    case ArchiveFormat::tar_xz:
    case ArchiveFormat::tar_zst:
    case ArchiveFormat::tar_bz2: check(w, archive_write_set_format_pax_restricted(w), "tar"); break;
    case ArchiveFormat::tar_gnu: check(w, archive_write_set_format_gnutar(w), "gnutar"); break;
    case ArchiveFormat::tar_v7: check(w, archive_write_set_format_v7tar(w), "v7tar"); break;
  }
  switch (format) {
    case ArchiveFormat::tar_gz: check(w, archive_write_add_filter_gzip(w), "gzip"); break;
    case ArchiveFormat::tar_xz: check(w, archive_write_add_filter_xz(w), "xz"); break;
    case ArchiveFormat::tar_zst: check(w, archive_write_add_filter_zstd(w), "zstd"); break;
    case ArchiveFormat::tar_bz2: check(w, archive_write_add_filter_bzip2(w), "bzip2"); break;
    default: break;
  }
  if (!settings.options.empty())
    check(w, archive_write_set_options(w, settings.options.c_str()), "options");
  if (!settings.passphrase.empty())
    check(w, archive_write_set_passphrase(w, settings.passphrase.c_str()), "passphrase");
  // No padding to 10240-byte blocks: the archive ends where its data ends.
  archive_write_set_bytes_in_last_block(w, 1);
  return a;
}

void write_members(archive* w, const std::vector<ArchiveMember>& members) {
  for (const auto& m : members) {
    std::unique_ptr<archive_entry, EntryFree> e(archive_entry_new());
    if (m.raw_path)
      archive_entry_copy_pathname(e.get(), m.path.c_str());
    else
      archive_entry_set_pathname_utf8(e.get(), m.path.c_str());
    archive_entry_set_mtime(e.get(), 1700000000, 0);
    switch (m.type) {
      case MemberType::file:
        archive_entry_set_filetype(e.get(), AE_IFREG);
        archive_entry_set_perm(e.get(), 0644);
        archive_entry_set_size(e.get(), static_cast<la_int64_t>(m.bytes.size()));
        break;
      case MemberType::directory:
        archive_entry_set_filetype(e.get(), AE_IFDIR);
        archive_entry_set_perm(e.get(), 0755);
        archive_entry_set_size(e.get(), 0);
        break;
      case MemberType::symlink:
        archive_entry_set_filetype(e.get(), AE_IFLNK);
        archive_entry_set_perm(e.get(), 0777);
        archive_entry_set_symlink_utf8(e.get(), m.link_target.c_str());
        archive_entry_set_size(e.get(), 0);
        break;
      case MemberType::hardlink:
        archive_entry_set_filetype(e.get(), AE_IFREG);
        archive_entry_set_perm(e.get(), 0644);
        archive_entry_set_hardlink_utf8(e.get(), m.link_target.c_str());
        archive_entry_set_size(e.get(), 0);
        break;
      case MemberType::fifo:
      case MemberType::char_device:
      case MemberType::block_device:
        archive_entry_set_filetype(e.get(), m.type == MemberType::fifo          ? AE_IFIFO
                                            : m.type == MemberType::char_device ? AE_IFCHR
                                                                                : AE_IFBLK);
        archive_entry_set_perm(e.get(), 0644);
        if (m.type != MemberType::fifo) archive_entry_set_rdev(e.get(), makedev(1, 3));
        archive_entry_set_size(e.get(), 0);
        break;
    }
    check(w, archive_write_header(w, e.get()), m.path.c_str());
    if (m.type == MemberType::file && !m.bytes.empty()) {
      la_ssize_t n = archive_write_data(w, m.bytes.data(), m.bytes.size());
      if (n < 0 || static_cast<std::size_t>(n) != m.bytes.size())
        check(w, ARCHIVE_FATAL, m.path.c_str());
    }
  }
}

la_ssize_t append_callback(archive*, void* client, const void* buffer, size_t length) {
  auto* out = static_cast<std::vector<std::uint8_t>*>(client);
  const auto* p = static_cast<const std::uint8_t*>(buffer);
  out->insert(out->end(), p, p + length);
  return static_cast<la_ssize_t>(length);
}

}  // namespace

std::string_view extension(ArchiveFormat format) {
  switch (format) {
    case ArchiveFormat::zip: return ".zip";
    case ArchiveFormat::tar:
    case ArchiveFormat::tar_gnu:
    case ArchiveFormat::tar_v7: return ".tar";
    case ArchiveFormat::tar_gz: return ".tar.gz";
    case ArchiveFormat::tar_xz: return ".tar.xz";
    case ArchiveFormat::tar_zst: return ".tar.zst";
    case ArchiveFormat::tar_bz2: return ".tar.bz2";
    case ArchiveFormat::seven_zip: return ".7z";
  }
  return "";
}

std::vector<std::uint8_t> build_archive(ArchiveFormat format,
                                        const std::vector<ArchiveMember>& members,
                                        const ArchiveSettings& settings) {
  const ScopedRawNames raw_names(any_raw_path(members));
  std::vector<std::uint8_t> out;
  auto a = new_writer(format, settings);
  check(a.get(), archive_write_open(a.get(), &out, nullptr, append_callback, nullptr), "open");
  write_members(a.get(), members);
  check(a.get(), archive_write_close(a.get()), "close");
  return out;
}

void write_archive(const fs::path& path, ArchiveFormat format,
                   const std::vector<ArchiveMember>& members, const ArchiveSettings& settings) {
  const ScopedRawNames raw_names(any_raw_path(members));
  auto a = new_writer(format, settings);
  check(a.get(), archive_write_open_filename(a.get(), path.c_str()), path.c_str());
  write_members(a.get(), members);
  check(a.get(), archive_write_close(a.get()), "close");
}

void write_archive_from_files(const fs::path& path, ArchiveFormat format,
                              const std::vector<std::pair<std::string, fs::path>>& files) {
  auto a = new_writer(format);
  check(a.get(), archive_write_open_filename(a.get(), path.c_str()), path.c_str());
  for (const auto& [name, file] : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("archive_builder: cannot read " + file.string());
    ArchiveMember member{name, std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {}),
                         MemberType::file, ""};
    write_members(a.get(), {member});
  }
  check(a.get(), archive_write_close(a.get()), "close");
}

std::vector<std::uint8_t> gzip_bytes(Bytes bytes) {
  std::vector<std::uint8_t> out;
  std::unique_ptr<archive, WriteFree> a(archive_write_new());
  check(a.get(), archive_write_set_format_raw(a.get()), "raw");
  check(a.get(), archive_write_add_filter_gzip(a.get()), "gzip");
  archive_write_set_bytes_in_last_block(a.get(), 1);
  check(a.get(), archive_write_open(a.get(), &out, nullptr, append_callback, nullptr), "open");
  std::unique_ptr<archive_entry, EntryFree> e(archive_entry_new());
  archive_entry_set_pathname(e.get(), "data");
  archive_entry_set_filetype(e.get(), AE_IFREG);
  archive_entry_set_size(e.get(), static_cast<la_int64_t>(bytes.size()));
  check(a.get(), archive_write_header(a.get(), e.get()), "header");
  if (!bytes.empty() && archive_write_data(a.get(), bytes.data(), bytes.size()) < 0)
    check(a.get(), ARCHIVE_FATAL, "data");
  check(a.get(), archive_write_close(a.get()), "close");
  return out;
}

std::vector<std::uint8_t> truncated_copy(Bytes bytes, std::size_t keep) {
  return std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + std::min(keep, bytes.size()));
}

void write_truncated_copy(const fs::path& from, const fs::path& to, std::size_t keep) {
  std::ifstream in(from, std::ios::binary);
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  write_file(to, truncated_copy(bytes, keep));
}

std::vector<std::uint8_t> to_bytes(std::string_view text) {
  return std::vector<std::uint8_t>(text.begin(), text.end());
}

std::vector<std::uint8_t> noise_bytes(std::size_t size, std::uint32_t seed) {
  std::vector<std::uint8_t> out(size);
  std::uint32_t x = seed ? seed : 0x9e3779b9u;
  for (auto& b : out) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = static_cast<std::uint8_t>(x >> 24);
  }
  return out;
}

void write_file(const fs::path& path, Bytes bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

TempDir::TempDir() {
  std::string pattern = (fs::temp_directory_path() / "mapindex-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::system_error(errno, std::generic_category(), "mkdtemp");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
  fs::remove_all(path_, ec);
}

}  // namespace mapindex::testing
