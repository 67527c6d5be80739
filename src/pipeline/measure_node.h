// The work of the index graph's measure and thumbnail nodes on one entry
// (pipeline/index_run.cpp runs them on the graph's threads).
#pragma once

#include <atomic>

#include "extract/measure_workspace.h"
#include "pipeline/index_run.h"
#include "pipeline/layer_store.h"
#include "pipeline/run_counters.h"
#include "pipeline/run_work.h"
#include "pipeline/workspace_pool.h"
#include "render/png.h"

namespace mapindex::pipeline {

// What the measure node does with one entry (runs on any worker thread):
// known content is skipped, content met earlier in the run waits for its
// claimant's result, anything else is measured (the thumbnail drawn, not yet
// encoded), with a workspace taken from `workspaces` for the time it
// measures. `failed`: a node failed, so the graph is cancelled and a wait for
// another entry's result stops.
void measure_entry(WorkItem& w, const KnownMaps& known, RunContents& contents,
                   LiveCounters& counters, const IndexOptions& options, LayerDataStore* layer_store,
                   WorkspacePool<MeasureWorkspace>& workspaces, const std::atomic<bool>& failed);

// What the thumbnail node does with one entry: a claimant's drawn thumbnail
// encoded (with blocks taken from `png_blocks` for the time it encodes, and
// offered to the layer store), then its claim fulfilled.
void finish_entry(WorkItem& w, RunContents& contents, LayerDataStore* layer_store,
                  WorkspacePool<render::PngBlocks>& png_blocks);

}  // namespace mapindex::pipeline
