// Makes the entries of one input: each names the input (`source`) and, for
// errors, says where in it and why.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "read/entry.h"
#include "read/entry_buffers.h"

namespace mapindex::read {

class EntryFactory {
 public:
  // The pool the entries' buffers come from and go back to (the reader's).
  void set_pool(std::shared_ptr<EntryBuffers> pool) { pool_ = std::move(pool); }
  EntryBuffers& pool() const { return *pool_; }
  const std::shared_ptr<EntryBuffers>& shared_pool() const { return pool_; }
  // An empty buffer from the pool for an entry of `want` bytes.
  EntryBuffer take_buffer(std::size_t want) const { return take_entry_buffer(*pool_, want); }

  // The input the entries made from now on belong to, as given.
  void set_source(std::string source) { source_ = std::move(source); }
  const std::string& source() const { return source_; }

  // `path` inside the input ("" for the input itself); the message names the
  // input, the entry and the reason.
  Entry error_entry(Code code, const std::string& path, const std::string& reason,
                    std::uint64_t size = 0) const;
  Entry file_entry(const std::string& path, std::vector<std::uint8_t> bytes) const;
  Entry oversize_entry(const std::string& path, std::uint64_t size) const;
  Entry not_read_entry(Code code, const std::string& path, const std::string& reason) const;

 private:
  std::string source_;
  std::shared_ptr<EntryBuffers> pool_ = std::make_shared<EntryBuffers>();
};

// `s` in double quotes, for messages.
std::string in_quotes(const std::string& s);

}  // namespace mapindex::read
