// What a maintainer tells the audit, stored in the index (schema 003):
// accepting a run as it is (its audit then exits 0), and acknowledging a
// known-broken map content (its problems and findings never fail the audit).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>

#include "common/result.h"

namespace mapindex::audit {

// Accepts `run` (default: the latest complete run); returns the run accepted.
// Errors: audit.accept (no such run, no complete run).
Result<std::int64_t> accept_run(sqlite3* db, std::optional<std::int64_t> run,
                                const std::string& note);

struct Acknowledged {
  std::string sha256;
  std::string name;  // the entry path it was found by
};

// Acknowledges a map content named by its SHA-256 (64 hex digits, any case)
// or by an entry path or file name (without folder and extension) that the
// latest run saw as a map. Errors: audit.acknowledge (nothing matches, or the
// name is ambiguous: the message lists the candidates' paths and SHA-256).
Result<Acknowledged> acknowledge_map(sqlite3* db, const std::string& sha_or_name,
                                     const std::string& note);

}  // namespace mapindex::audit
