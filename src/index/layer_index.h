// map_layers_by_def, the index from a layer_defs row to the maps that list
// it, away while a large run writes.
//
// Why: every question that starts from a layer's kind, tile or entity goes
// through it, but the writer pays for it most of all its indexes. A new
// version of a map lists about twenty layers, most of them rows the index
// has held for a long time, so each entry lands on a page of its own, where
// making the index again from the whole table (one sort) costs a fraction of
// that per row.
//
// So a run that has written at least kDeferAfterRows rows to map_layers and
// at least a quarter of what the table held when it began drops the index
// (in the transaction of a batch) and makes it again at its end
// (IndexDb::finish_run, in its last transaction), whatever the run's
// status: a quarter bounds the cost of making it again to what the run's
// own rows cost with the index, and a nightly run that adds a few maps to a
// large index never drops it. A run killed meanwhile leaves the index
// without it: the next run makes it again when it begins
// (IndexDb::begin_run). Until then queries answer the same, more slowly.
//
// While the index is away, delete_parts (a map written again by a newer
// extractor) leaves the layer_defs rows it no longer lists: they are removed
// when the index is made again (restore_layer_index).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "sqlite/statement.h"

namespace mapindex::index {

// The schema version that has it.
inline constexpr int kLayerIndexSince = 11;
// As schema/011_stored_once.sql creates it (a test compares the two).
inline constexpr std::string_view kLayerIndexName = "map_layers_by_def";
inline constexpr std::string_view kLayerIndexSql =
    "CREATE INDEX map_layers_by_def ON map_layers (layer_def_id)";

// Whether the index holds map_layers_by_def.
bool layer_index_present(sqlite::StatementCache& st);

// Makes map_layers_by_def again when it is missing and removes the
// layer_defs rows no map lists (with the layer_data rows they own); in the
// caller's transaction. True when it was missing.
bool restore_layer_index(sqlite::StatementCache& st);

// When a run drops map_layers_by_def: kept by the IndexDb, one per run. The
// table is counted once per run, and only by a run that wrote the least: a
// run that adds a few maps to a large index never counts it.
class LayerIndexDeferral {
 public:
  static constexpr std::uint64_t kDeferAfterRows = 20000;

  explicit LayerIndexDeferral(std::uint64_t defer_after_rows = kDeferAfterRows)
      : defer_after_rows_(defer_after_rows) {}

  // A run begins: it has written nothing.
  void run_began() {
    written_ = 0;
    rows_at_start_.reset();
  }
  // The run wrote `rows` more map_layers rows.
  void wrote(std::uint64_t rows) { written_ += rows; }
  // Whether due() needs to know how many rows map_layers holds (counted).
  bool needs_rows() const { return written_ >= defer_after_rows_ && !rows_at_start_; }
  // map_layers holds `rows` now, this run's rows among them.
  void counted(std::uint64_t rows) { rows_at_start_ = rows > written_ ? rows - written_ : 0; }
  // The index is to be dropped now (when it is there).
  bool due() const {
    return written_ >= defer_after_rows_ && rows_at_start_ && written_ >= *rows_at_start_ / 4;
  }

 private:
  std::uint64_t defer_after_rows_;
  std::optional<std::uint64_t> rows_at_start_;  // set by counted()
  std::uint64_t written_ = 0;
};

// In the caller's transaction: drops map_layers_by_def when `deferral` says
// it is due and the index has it, counting the table first when the
// deferral needs it. True when it dropped it.
bool drop_layer_index_when_due(sqlite::StatementCache& st, LayerIndexDeferral& deferral);

}  // namespace mapindex::index
