// Live counters of an index run, updated by the pipeline's nodes and read by
// the progress display and the final summary.
#pragma once

#include <atomic>
#include <cstdint>

namespace mapindex {

// What the layer-result store (pipeline/layer_store.h) did.
struct LayerStoreCounters {
  std::atomic<std::uint64_t> measured{0};           // keyed tile layers inflated and measured
  std::atomic<std::uint64_t> reused_run{0};         // taken from results measured in this run
  std::atomic<std::uint64_t> reused_index{0};       // taken from results of earlier runs
  std::atomic<std::uint64_t> thumbnails_reused{0};  // thumbnails taken, not drawn
};

struct LiveCounters {
  std::atomic<std::uint64_t> entries{0};       // entries delivered by the reader
  std::atomic<std::uint64_t> bytes{0};         // bytes of entries read
  std::atomic<std::uint64_t> maps_indexed{0};  // maps decoded and written
  std::atomic<std::uint64_t> maps_known{0};    // maps skipped: content indexed before or
                                               // earlier in this run (not decoded again)
  std::atomic<std::uint64_t> maps_same_in_run{
      0};                                       // of maps_known: same content earlier in this run
  std::atomic<std::uint64_t> maps_measured{0};  // maps decoded and measured (content that is a map)
  std::atomic<std::uint64_t> rejected{0};       // maps with an error
  std::atomic<std::uint64_t> with_warnings{0};  // maps with warnings only
  std::atomic<std::uint64_t> not_maps{0};       // entries that are not maps
  std::atomic<std::uint64_t> oversize{0};       // entries over --max-map-size
  std::atomic<std::uint64_t> unreadable{0};     // read errors (truncated, corrupt, missing)
  std::atomic<std::uint64_t> input_bytes_total{0};  // sum of input sizes (0 if unknown)
  std::atomic<std::uint64_t> input_bytes_done{0};
  std::atomic<std::uint64_t> written{0};  // entries written by the writer node
  // Work finished: what the progress display's percentage and ETA follow.
  std::atomic<std::uint64_t> bytes_finished{0};        // bytes of entries the writer is done with
  std::atomic<std::uint64_t> input_bytes_finished{0};  // input position read up to the last
                                                       // entry the writer is done with
  std::atomic<std::uint64_t> not_written{0};           // entries whose rows the index refused
  LayerStoreCounters layers;  // tile layers measured / reused (0 with --no-layer-cache)
};

}  // namespace mapindex
