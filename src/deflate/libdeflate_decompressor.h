// A libdeflate decompressor, owned: allocating one costs more than inflating
// a small data item, so its owner keeps it across streams. Used by the reader
// (zip members, one per ZipMembers) and the inflaters (one per
// deflate::InflateWorkspace). Not thread-safe: one thread at a time.
#pragma once

#include <memory>

struct libdeflate_decompressor;

namespace mapindex::deflate {

class LibdeflateDecompressor {
 public:
  LibdeflateDecompressor();  // throws std::bad_alloc if none can be made
  libdeflate_decompressor* get() const { return decompressor_.get(); }

 private:
  struct Free {
    void operator()(libdeflate_decompressor* d) const;
  };
  std::unique_ptr<libdeflate_decompressor, Free> decompressor_;
};

}  // namespace mapindex::deflate
