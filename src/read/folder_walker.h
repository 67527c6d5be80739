// Walks a folder recursively in a deterministic order: the names of each
// folder sorted bytewise, sub-folders entered where their name sorts.
// Symbolic links are followed, but never into a folder that is already being
// walked (a loop). What is not read is still an item, with a note saying
// why: a loop, a broken link, a special file (FIFO, device, socket).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace mapindex::read {

// "FIFO", "character device", "block device", "socket" or "special file"
// for a stat() mode (libarchive's AE_IF* values are the same).
std::string special_file_name(unsigned mode);

class FolderWalker {
 public:
  struct Item {
    std::filesystem::path path;  // to open
    std::string relative;        // '/'-separated, relative to the root
    std::uint64_t size = 0;      // from stat()
    std::optional<Error> error;  // an unlistable folder or unstat-able file (read.io)
    // Set when the item is not read: what it is ("FIFO", "symbolic link to
    // \"x\" (broken): not followed", ...).
    std::optional<std::string> not_read;
  };

  explicit FolderWalker(std::filesystem::path root);

  // The next regular file, error or item not read; nullopt at the end.
  std::optional<Item> next();

 private:
  struct Folder {
    std::filesystem::path path;
    std::string relative;
    dev_t device = 0;
    ino_t inode = 0;
    std::vector<std::string> names;  // sorted
    std::size_t next = 0;
  };

  // Lists a folder and pushes it; returns an error item if it can't be listed.
  std::optional<Item> enter(std::filesystem::path path, std::string relative, dev_t device,
                            ino_t inode);
  bool is_being_walked(dev_t device, ino_t inode) const;

  std::filesystem::path root_;
  bool started_ = false;
  std::vector<Folder> stack_;
};

}  // namespace mapindex::read
