#include "read/folder_walker.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

namespace mapindex::read {
namespace fs = std::filesystem;
namespace {

struct DirCloser {
  void operator()(DIR* d) const { closedir(d); }
};

Error io_error(const std::string& what, const std::string& relative, int error_number) {
  return Error{Code::read_io, what + " \"" + relative + "\": " + std::strerror(error_number)};
}

// What the symbolic link at `path` points to, quoted; "" if not a link.
std::string link_target(const fs::path& path) {
  char buffer[4096];
  ssize_t n = ::readlink(path.c_str(), buffer, sizeof buffer);
  if (n < 0) return "";
  return "\"" + std::string(buffer, static_cast<std::size_t>(n)) + "\"";
}

}  // namespace

std::string special_file_name(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFIFO: return "FIFO";
    case S_IFCHR: return "character device";
    case S_IFBLK: return "block device";
    case S_IFSOCK: return "socket";
    default: return "special file";
  }
}

FolderWalker::FolderWalker(fs::path root) : root_(std::move(root)) {}

bool FolderWalker::is_being_walked(dev_t device, ino_t inode) const {
  return std::any_of(stack_.begin(), stack_.end(),
                     [&](const Folder& f) { return f.device == device && f.inode == inode; });
}

std::optional<FolderWalker::Item> FolderWalker::enter(fs::path path, std::string relative,
                                                      dev_t device, ino_t inode) {
  std::unique_ptr<DIR, DirCloser> dir(opendir(path.c_str()));
  if (!dir) {
    Item item{path, relative, 0,
              io_error("cannot list folder", relative.empty() ? "." : relative, errno),
              std::nullopt};
    return item;
  }
  Folder folder{std::move(path), std::move(relative), device, inode, {}, 0};
  errno = 0;
  while (dirent* d = readdir(dir.get())) {
    std::string name = d->d_name;
    if (name != "." && name != "..") folder.names.push_back(std::move(name));
    errno = 0;
  }
  if (errno != 0) {
    Item item{
        folder.path, folder.relative, 0,
        io_error("cannot list folder", folder.relative.empty() ? "." : folder.relative, errno),
        std::nullopt};
    return item;
  }
  std::sort(folder.names.begin(), folder.names.end());
  stack_.push_back(std::move(folder));
  return std::nullopt;
}

std::optional<FolderWalker::Item> FolderWalker::next() {
  if (!started_) {
    started_ = true;
    struct stat st {};
    if (::stat(root_.c_str(), &st) != 0)
      return Item{root_, "", 0, io_error("cannot open folder", ".", errno), std::nullopt};
    if (auto error = enter(root_, "", st.st_dev, st.st_ino)) return error;
  }
  while (!stack_.empty()) {
    Folder& top = stack_.back();
    if (top.next == top.names.size()) {
      stack_.pop_back();
      continue;
    }
    const std::string& name = top.names[top.next++];
    fs::path path = top.path / name;
    std::string relative = top.relative.empty() ? name : top.relative + "/" + name;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      int error_number = errno;
      struct stat link {};
      if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
        std::string target = link_target(path);
        return Item{path, relative, 0, std::nullopt,
                    "symbolic link to " + target + ": broken (" + std::strerror(error_number) +
                        "), not followed"};
      }
      return Item{path, relative, 0, io_error("cannot read", relative, error_number), std::nullopt};
    }
    if (S_ISDIR(st.st_mode)) {
      if (is_being_walked(st.st_dev, st.st_ino)) {
        std::string target = link_target(path);
        return Item{path, relative, 0, std::nullopt,
                    (target.empty() ? std::string("folder") : "symbolic link to " + target) +
                        ": a folder that holds it, not walked again (a loop)"};
      }
      if (auto error = enter(std::move(path), std::move(relative), st.st_dev, st.st_ino))
        return error;
      continue;
    }
    if (!S_ISREG(st.st_mode)) {
      std::string what = special_file_name(st.st_mode);
      std::string target = link_target(path);
      if (!target.empty()) what = "symbolic link to " + target + ", a " + what;
      return Item{path, relative, 0, std::nullopt, what + ": not read"};
    }
    return Item{std::move(path), std::move(relative), static_cast<std::uint64_t>(st.st_size),
                std::nullopt, std::nullopt};
  }
  return std::nullopt;
}

}  // namespace mapindex::read
