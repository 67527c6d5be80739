#include "benchmarks/archive_writer.h"

#include <archive.h>
#include <archive_entry.h>

#include <stdexcept>

namespace mapindex::bench {
namespace {

std::runtime_error failure(archive* a, const std::string& path, const std::string& what) {
  const char* why = a ? archive_error_string(a) : nullptr;
  return std::runtime_error(path + ": " + what + ": " + (why ? why : "unknown libarchive error"));
}

}  // namespace

ArchiveWriter::ArchiveWriter(const std::string& path, bool store) : path_(path) {
  a_ = archive_write_new();
  if (!a_) throw std::runtime_error(path + ": archive_write_new failed");
  int r = ARCHIVE_FATAL;
  if (path.ends_with(".zip")) {
    r = archive_write_set_format_zip(a_);
    if (r == ARCHIVE_OK && store) r = archive_write_set_options(a_, "zip:compression=store");
  } else if (path.ends_with(".tar")) {
    r = archive_write_set_format_pax_restricted(a_);
  } else {
    archive_write_free(a_);
    a_ = nullptr;
    throw std::runtime_error(path + ": the name must end in .zip or .tar");
  }
  if (r != ARCHIVE_OK) throw failure(a_, path, "cannot set the format");
  if (archive_write_open_filename(a_, path.c_str()) != ARCHIVE_OK)
    throw failure(a_, path, "cannot create");
}

ArchiveWriter::~ArchiveWriter() {
  if (a_) archive_write_free(a_);  // also closes
}

void ArchiveWriter::add(const std::string& path, Bytes bytes) {
  archive_entry* e = archive_entry_new();
  archive_entry_set_pathname(e, path.c_str());
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_perm(e, 0644);
  archive_entry_set_size(e, static_cast<la_int64_t>(bytes.size()));
  archive_entry_set_mtime(e, 1700000000, 0);  // fixed: the archive depends only on its members
  const int r = archive_write_header(a_, e);
  archive_entry_free(e);
  if (r != ARCHIVE_OK) throw failure(a_, path_, "cannot add " + path);
  if (!bytes.empty() &&
      archive_write_data(a_, bytes.data(), bytes.size()) != static_cast<la_ssize_t>(bytes.size()))
    throw failure(a_, path_, "cannot write " + path);
  members_++;
  bytes_ += bytes.size();
}

void ArchiveWriter::close() {
  if (!a_) return;
  const int r = archive_write_close(a_);
  if (r != ARCHIVE_OK) throw failure(a_, path_, "cannot finish");
  archive_write_free(a_);
  a_ = nullptr;
}

}  // namespace mapindex::bench
