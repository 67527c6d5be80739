// What `mapindex index` reports after a run, from its counters and the index:
// the summary on standard output, the errors of whole inputs on standard
// error, and --stats-json.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/problem_codes.h"
#include "pipeline/index_run.h"

namespace mapindex {

// What the index says about a finished run, for the summary and standard
// error: the entries it saw rejected (the first kListedRejected of them), and
// the errors that concern an input as a whole (the input itself unreadable or
// empty, or its reading cut short).
inline constexpr std::size_t kListedRejected = 10;

struct RunFindings {
  struct Rejected {
    std::string where;  // where to find the entry (entry_location)
    std::string code;   // its first error's code
  };
  std::vector<Rejected> rejected;
  std::size_t rejected_total = 0;
  struct InputError {
    std::string where;
    std::string code;
    Severity severity = Severity::error;
    std::string message;
  };
  std::vector<InputError> input_errors;
};

// Read from the index after the run (through the run's own connection:
// RunReadBack); nullopt when it cannot be read (the summary then goes
// without the lists).
std::optional<RunFindings> read_run_findings(sqlite3* index, std::int64_t run_id, Game game);

// One line on standard error per error that concerns an input as a whole,
// and one when the run found no map: a cron job's log says what went wrong
// without a query.
void print_input_errors(const IndexOptions& o, const LiveCounters& c, const IndexSummary& s,
                        const std::optional<RunFindings>& found);

// The run's summary on standard output: the counts, the rejected entries by
// name, and the query that lists the entries not fine.
void print_summary(const IndexOptions& o, const LiveCounters& c, const IndexSummary& s,
                   const std::optional<RunFindings>& found);

// --stats-json: the run's figures as one flat JSON object, for
// benchmarks/run.sh and monitoring (wall and CPU seconds, time inside the
// writer node, most entry bytes held in flight against the budget). False
// when the file cannot be written.
bool write_stats_json(const std::string& path, const IndexOptions& o, const LiveCounters& c,
                      const IndexSummary& s);

}  // namespace mapindex
