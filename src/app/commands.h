// The subcommands of the `mapindex` executable. Each takes the arguments after
// the command name and returns the process exit status:
//   0 clean, 1 finished but found rejected maps / unreadable inputs (index) or
//   failed the audit, 2 usage error or bad SQL, 3 the index is damaged,
//   locked by another run or cannot be read or written (I/O error, disk
//   full: every SQLite failure), 70 internal error (an unexpected exception:
//   a bug), 130 interrupted.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/result.h"

namespace mapindex {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitIndex = 3;
inline constexpr int kExitInternal = 70;  // EX_SOFTWARE
inline constexpr int kExitInterrupted = 130;

using Args = std::vector<std::string>;

// kExitIndex for an error that is the index's fault (codes index.damaged,
// index.locked, index.io, index.failed), kExitInterrupted for
// query.interrupted, kExitInternal for "internal", else kExitUsage.
int exit_status_for(const Error& error);

// Runs a subcommand and turns what escapes it into an exit status and one
// line on stderr ("mapindex COMMAND: ..."): a SQLite failure
// (sqlite::IndexError) is kExitIndex and names the index file; any other
// exception is a bug: kExitInternal.
int run_guarded(const std::string& command, const std::function<int()>& run);

int index_command(const Args& args);
int check_command(const Args& args);
int query_command(const Args& args);
int inspect_command(const Args& args);
int audit_command(const Args& args);
int render_command(const Args& args);
int explain_command(const Args& args);
int site_command(const Args& args);

}  // namespace mapindex
