// The entry loop over libarchive: the archive being read (an input, or a
// file in a folder) and the archives inside it that are followed, as a
// stack of levels. step() gives the next entry of the innermost archive;
// an archive inside it is recognised by content and pushed, streamed from
// the outer one; at the end of an archive its level is checked and popped.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "read/byte_source.h"
#include "read/entry.h"
#include "read/entry_factory.h"
#include "read/libarchive_reader.h"
#include "read/read_meter.h"
#include "read/stream_feeder.h"
#include "read/tar_members.h"
#include "read/zip_members.h"

struct archive_entry;

namespace mapindex::read {

// An archive being read: the input itself (level 0) or an archive inside the
// level below it.
struct Level {
  std::string archive_path;              // inside the source; "" for the input itself
  std::unique_ptr<ByteSource> source;    // stdin/FIFO, or the outer entry's data; null for files
  std::unique_ptr<StreamFeeder> feeder;  // when streamed from `source`
  std::vector<std::uint8_t> memory;      // a 7-Zip archive held in memory
  std::string last_entry;                // for messages about the next header
  std::optional<std::filesystem::path>
      file;                                // read from this file (else from `source` or `memory`)
  std::optional<std::uint64_t> file_size;  // of `file`
  std::uint64_t rows_before = 0;           // entries delivered before this level was opened
  std::uint64_t folders = 0;               // folder entries seen (they get no row)
  // A zip file's members whose data is read without libarchive's inflater
  // (zip_members.h); null when it does not vouch for the file.
  std::unique_ptr<ZipMembers> zip;
  bool zip_opened = false;  // `zip` was looked for
  // A tar file read as it is: its members' data is read by pread
  // (tar_members.h); null when it could not be opened.
  std::unique_ptr<TarMembers> tar;
  bool tar_opened = false;  // `tar` was opened
  ArchiveHandle archive;    // declared last: freed before what it reads from

  std::string join(const std::string& name) const {
    return archive_path.empty() ? name : archive_path + "/" + name;
  }
};

// Entries come out named by EntryFactory::source(): set it for each input.
class ArchiveStack : public EntryFactory {
 public:
  ArchiveStack(const ReadOptions& options, const std::atomic<bool>& stop, ReadMeter& meter);
  ~ArchiveStack();

  bool empty() const { return levels_.empty(); }

  // A regular file of `size` bytes that libarchive opened: the level below
  // all others, at `archive_path` inside the input ("" for the input itself).
  void push_file(ArchiveHandle archive, const std::filesystem::path& path,
                 const std::string& archive_path, std::uint64_t size);

  // A stream (standard input, a FIFO, or the data of an entry of the archive
  // on top of the stack) whose first bytes are `prefix`, opened: a level
  // for `archive_path` if libarchive can read it, else one plain entry at
  // `plain_path` (plain), or an error entry.
  struct Opened {
    std::unique_ptr<Level> level;
    std::optional<Entry> entry;
    bool plain = false;  // not an archive: `entry` is its content (or why it has none)
  };
  Opened open_stream(std::unique_ptr<ByteSource> source, std::vector<std::uint8_t> prefix,
                     const std::string& archive_path, const std::string& plain_path,
                     std::optional<std::uint64_t> declared);
  // Pushes the level `opened` has, or gives its entry.
  std::optional<Entry> enter(Opened opened);

  // `source` failed while reading the entry at `path` of the archive on top
  // of the stack (an EntryDataSource), or standard input / a FIFO (no level yet).
  Entry source_failed(ByteSource& source, const std::string& path);

  // The next entry of the archive on top; nullopt when the step gave none
  // (a folder entry, a level pushed or popped).
  std::optional<Entry> step();

  // How far libarchive got in the file level 0 reads; nullopt if it reads none.
  std::optional<std::uint64_t> file_position() const;

  void close();

 private:
  std::optional<Entry> open_level(Opened& out, std::unique_ptr<ByteSource> source,
                                  std::vector<std::uint8_t> prefix, const std::string& archive_path,
                                  const std::string& plain_path,
                                  std::optional<std::uint64_t> declared);
  std::optional<Entry> end_of_level(std::size_t k);
  std::optional<Entry> not_regular(Level& level, archive_entry* header, const std::string& path);
  const ZipMember* zip_member(Level& level, archive_entry* header);
  std::optional<Entry> tar_member(std::size_t k, archive_entry* header, const std::string& path,
                                  std::optional<std::uint64_t> declared);
  std::optional<Entry> read_entry(std::size_t k, const std::string& path,
                                  std::optional<std::uint64_t> declared, const ZipMember* member);
  Entry plain_from_stream(Level& level, const std::string& path);
  Entry fail_level(std::size_t k, std::string path, int error_number, std::string reason,
                   bool fatal);
  bool input_exhausted(std::size_t k) const;

  const ReadOptions& options_;
  const std::atomic<bool>& stop_;
  ReadMeter& meter_;
  std::vector<std::unique_ptr<Level>> levels_;
};

}  // namespace mapindex::read
