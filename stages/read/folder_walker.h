// Walks a folder recursively in a deterministic order: the names of each
// folder sorted bytewise, sub-folders entered where their name sorts.
// Symbolic links are followed, but never into a folder that is already being
// walked (a loop); broken links and special files (FIFOs, devices, sockets)
// are skipped.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "stages/common/result.h"

namespace mapindex::read {

class FolderWalker {
 public:
  struct Item {
    std::filesystem::path path;  // to open
    std::string relative;        // '/'-separated, relative to the root
    std::uint64_t size = 0;      // from stat()
    std::optional<Error> error;  // an unlistable folder or unstat-able file (read.io)
  };

  explicit FolderWalker(std::filesystem::path root);

  // The next regular file or error; nullopt at the end.
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
