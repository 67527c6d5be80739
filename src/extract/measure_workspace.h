// What measuring keeps from map to map: the inflaters' state and the buffers
// a map's data items are inflated into. Its owner decides how long it lives
// and who shares its large buffer: an index run keeps one per concurrent
// measure task (pipeline/measure_node.h) and one SharedBuffer for them all;
// any other caller makes its own, or leaves MeasureContext::workspace null
// and measuring makes one for the call. One measure at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "deflate/inflate_workspace.h"
#include "render/png.h"
#include "tiledata/shared_buffer.h"
#include "tiledata/zeroed_buffer.h"

namespace mapindex {

class MeasureWorkspace {
 public:
  // Tile data over kSharedBufferAbove goes into `large`, which other
  // workspaces share (taken in turn) and which outlives this one.
  explicit MeasureWorkspace(tiledata::SharedBuffer& large) : large_(&large) {}
  // With a large buffer of its own.
  MeasureWorkspace()
      : own_large_(std::make_unique<tiledata::SharedBuffer>()), large_(own_large_.get()) {}
  MeasureWorkspace(const MeasureWorkspace&) = delete;
  MeasureWorkspace& operator=(const MeasureWorkspace&) = delete;

  // libdeflate's decompressor and zero_inflate's tables (the Datafile's).
  deflate::InflateWorkspace inflate;
  // One layer's quads or sound sources at a time. At most
  // kSharedBufferAbove is kept between maps.
  std::vector<std::uint8_t> scratch;
  // One layer's tile data at a time, up to kSharedBufferAbove (mapped from
  // the system: pages no layer writes are never faulted in).
  tiledata::ZeroedBuffer tiles;
  // libpng's memory when measure_content encodes a thumbnail itself (not
  // ThumbnailMode::drawn_only).
  render::PngBlocks png;
  tiledata::SharedBuffer& large() const { return *large_; }
  // Where tile data of `size` bytes is inflated: `tiles`, or over
  // kSharedBufferAbove the shared buffer, taken into `lease` (waiting for
  // another workspace to give it back) until the caller drops the lease.
  tiledata::ZeroedBuffer& tile_buffer(std::int64_t size, tiledata::SharedBuffer::Lease& lease) {
    if (size <= 0 || static_cast<std::uint64_t>(size) <= tiledata::kSharedBufferAbove) return tiles;
    lease = large().take();
    return lease.buffer();
  }

 private:
  std::unique_ptr<tiledata::SharedBuffer> own_large_;
  tiledata::SharedBuffer* large_;
};

}  // namespace mapindex
