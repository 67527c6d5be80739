#include "common/file_write.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace mapindex {

Result<bool> write_file_atomically(const std::string& path, std::string_view bytes, Code code) {
  const auto fail = [&](std::string_view what, int error) {
    return Error{code, "cannot " + std::string(what) + " '" + path + "': " + std::strerror(error)};
  };
  if (path.empty()) return Error{code, "no file name given"};
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return fail("write", EISDIR);
  // The temporary file sits next to `path` (same file system: rename is atomic).
  const std::string temp = path + ".tmp-" + std::to_string(::getpid());
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f) return fail("create", errno);
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const int write_error = errno;
  const bool closed = std::fclose(f) == 0;
  const int close_error = errno;
  if (!written || !closed) {
    std::remove(temp.c_str());
    return fail("write", written ? close_error : write_error);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    return fail("replace", error);
  }
  return true;
}

}  // namespace mapindex
