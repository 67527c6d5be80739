#include "pipeline/measure_node.h"

#include <exception>
#include <memory>
#include <string>

#include "common/background.h"
#include "extract/measure.h"

namespace mapindex::pipeline {
namespace {

// Takes the part keys of a measured map and the bytes its statistics hold
// (before its result is shared): work the writer, the run's one serial
// stage, would otherwise do.
void take_part_keys(Measured& m) {
  if (m.failure || m.measurement.kind != ContentKind::map) return;
  m.stats_bytes = held_bytes(m.measurement.stats);
  try {
    m.keys = index::part_keys(m.measurement.stats, kExtractorVersion);
  } catch (const std::exception&) {
    m.keys.reset();  // the writer takes them (and reports what fails)
  }
}
}  // namespace

void measure_entry(WorkItem& w, const KnownMaps& known, RunContents& contents,
                   LiveCounters& counters, const IndexOptions& options, LayerDataStore* layer_store,
                   WorkspacePool<MeasureWorkspace>& workspaces, const std::atomic<bool>& failed) {
  if (w.entry.kind != read::ReadOutcome::file) return;
  if (const index::KnownMap* before = known_before(w.digest, known, options)) {
    w.known = *before;
    w.entry.bytes.reset();
    return;
  }
  auto m = std::make_shared<Measured>();  // before the claim: nothing below throws
  auto claim = contents.claim(w.digest);
  if (!claim.first) {
    w.entry.bytes.reset();
    // The claimant fulfils its claim in the thumbnail node, which a failed
    // (cancelled) graph may never run for it: then stop waiting.
    if (!wait_unless_stopped(claim.result, &failed)) {
      auto stopped = std::make_shared<Measured>();
      stopped->failure =
          Problem{Code::internal, "not measured: the run failed first", Location::file()};
      w.measured = std::move(stopped);
      return;
    }
    w.measured = claim.result.get();
    return;
  }
  try {
    MeasureContext context;
    context.max_data_item_size = options.max_data_item_size;
    context.tile_inflater = options.tile_inflater;
    context.layer_store = layer_store;
    context.digests = &w.tile_digests;
    const auto workspace = workspaces.take();
    context.workspace = &*workspace;
    ContentOptions content;
    content.thumbnail = options.thumbnails ? ThumbnailMode::drawn_only : ThumbnailMode::none;
    m->measurement = measure_content(w.entry.bytes, context, content);
    w.tile_digests = {};
    if (m->measurement.kind == ContentKind::map) counters.maps_measured++;
  } catch (const std::exception& e) {
    m->failure =
        Problem{Code::internal, std::string("measuring failed: ") + e.what(), Location::file()};
  } catch (...) {
    m->failure = Problem{Code::internal, "measuring failed", Location::file()};
  }
  // The bytes are no longer needed: their buffer goes back to the reader's
  // pool now; the budget is given back by the writer.
  w.entry.bytes.reset();
  w.measured = m;
  w.claimant = true;
  if (m->measurement.thumbnail) {
    w.unfinished = std::move(m);  // fulfilled by finish_entry
  } else {
    take_part_keys(*m);
    contents.fulfil(w.digest, std::move(m));
  }
}

void finish_entry(WorkItem& w, RunContents& contents, LayerDataStore* layer_store,
                  WorkspacePool<render::PngBlocks>& png_blocks) {
  if (!w.unfinished) return;
  std::shared_ptr<Measured> m = std::move(w.unfinished);
  try {
    const auto blocks = png_blocks.take();
    finish_thumbnail(m->measurement, layer_store, *blocks);
  } catch (const std::exception& e) {
    m->failure = Problem{Code::internal, std::string("encoding the thumbnail failed: ") + e.what(),
                         Location::file()};
  } catch (...) {
    m->failure = Problem{Code::internal, "encoding the thumbnail failed", Location::file()};
  }
  take_part_keys(*m);
  contents.fulfil(w.digest, std::move(m));
}

}  // namespace mapindex::pipeline
