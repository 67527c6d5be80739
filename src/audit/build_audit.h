// The nightly archive audit over an open index: compares one run
// with a baseline run, per source.
//
//   auto db = index::IndexDb::open("mapindex.sqlite", index::OpenMode::read_only);
//   auto report = audit::build_audit(db->handle(), {});
//   audit::render_text(*report, std::cout);
//   return audit::exit_status(*report, audit::FailOn::error);
//
// Only reads (in one read transaction, so a run writing at the same time is
// not half seen). The run audited is `run`, else the latest complete run. The
// baseline of each source the run read is `against` (when that run read the
// source; otherwise the source has no baseline), else the latest complete run
// before it that read the source. A source without a baseline counts
// everything in it as new.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>

#include "audit/audit_report.h"
#include "common/result.h"
#include "extract/game_verdict.h"

namespace mapindex::audit {

struct AuditOptions {
  std::optional<std::int64_t> run;      // default: the latest complete run
  std::optional<std::int64_t> against;  // default: per source, the previous complete run
  Game game = Game::ddnet;              // whose verdict "rejected" means
  // Also load AuditReport::pictures (thumbnails and counts, for the HTML report).
  bool pictures = false;
};

// Errors: audit.no_runs (the index has no run), audit.no_complete_run (no
// complete run and no --run), audit.run / audit.against (no such run, or the
// same run twice), audit.game (--game teeworlds on an index without the
// Teeworlds verdicts, schema < 4); a SQLite failure keeps its index.* code (index.damaged,
// index.io, index.locked; index.failed for any other) and its message names
// the index file and the query.
Result<AuditReport> build_audit(sqlite3* db, const AuditOptions& options);

}  // namespace mapindex::audit
