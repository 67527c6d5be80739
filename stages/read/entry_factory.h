// Makes the entries of one input: each names the input (`source`) and, for
// errors, says where in it and why.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stages/read/entry.h"

namespace mapindex::read {

class EntryFactory {
 public:
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
};

// `s` in double quotes, for messages.
std::string in_quotes(const std::string& s);

}  // namespace mapindex::read
