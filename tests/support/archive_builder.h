// Builds archives in code with libarchive's writer, for tests: zip, tar,
// tar.gz, tar.xz, tar.zst, tar.bz2 and 7z from (path, bytes) members, into a
// memory buffer or a file, plus truncated copies and a scratch folder.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/bytes.h"

namespace mapindex::testing {

// tar: POSIX pax (ustar headers, a pax header where they cannot hold a
// name); tar_gnu: GNU tar (long names in 'L' headers); tar_v7: the old
// format with no magic.
enum class ArchiveFormat { zip, tar, tar_gz, tar_xz, tar_zst, tar_bz2, seven_zip, tar_gnu, tar_v7 };

std::string_view extension(ArchiveFormat format);  // ".zip", ".tar.gz", ".7z", ...

// fifo and the devices: tar only.
enum class MemberType { file, directory, symlink, hardlink, fifo, char_device, block_device };

struct ArchiveMember {
  std::string path;
  std::vector<std::uint8_t> bytes;  // only for files
  MemberType type = MemberType::file;
  std::string link_target;  // for symlink and hardlink
  // Write `path` as raw bytes (libarchive's non-UTF-8 pathname), not as
  // UTF-8: names that are not UTF-8, as old archivers wrote them.
  bool raw_path = false;
};

// Writer settings beyond the format: libarchive's option string (e.g.
// "zip:compression=store", "zip:encryption=zipcrypt") and a passphrase.
struct ArchiveSettings {
  std::string options;
  std::string passphrase;
};

std::vector<std::uint8_t> build_archive(ArchiveFormat format,
                                        const std::vector<ArchiveMember>& members,
                                        const ArchiveSettings& settings = {});
void write_archive(const std::filesystem::path& path, ArchiveFormat format,
                   const std::vector<ArchiveMember>& members, const ArchiveSettings& settings = {});

// Members read from disk one at a time (for big fixtures such as a zip of
// the whole corpus): (path in the archive, file to read).
void write_archive_from_files(
    const std::filesystem::path& path, ArchiveFormat format,
    const std::vector<std::pair<std::string, std::filesystem::path>>& files);

// A gzip stream of `bytes` (a compressed file, not an archive).
std::vector<std::uint8_t> gzip_bytes(Bytes bytes);

// The first `keep` bytes (all of them if there are fewer).
std::vector<std::uint8_t> truncated_copy(Bytes bytes, std::size_t keep);
void write_truncated_copy(const std::filesystem::path& from, const std::filesystem::path& to,
                          std::size_t keep);

std::vector<std::uint8_t> to_bytes(std::string_view text);
// Deterministic bytes that don't compress (xorshift), for entries whose
// compressed position in an archive must be predictable.
std::vector<std::uint8_t> noise_bytes(std::size_t size, std::uint32_t seed);
void write_file(const std::filesystem::path& path, Bytes bytes);

// A fresh folder under the system temp dir, removed with its contents.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  // The path of `name` inside, as a string.
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace mapindex::testing
