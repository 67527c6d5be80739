// The stamp `mapindex index` leaves on an index file it closed cleanly, so
// the next run can skip the damage check at open when the file is still byte
// for byte what that run left.
//
// Why: the check (PRAGMA quick_check, see IndexDb::open) reads and parses
// every page. On a small index it is a fixed cost that a re-run over
// unchanged inputs pays in full: 0.03 s of a 0.06 s re-run of a 30 MB
// archive with a 7 MB index. The stamp costs one sequential read of the file
// (CRC-32 at memory speed) at open and one at close.
//
// What it is: an extended attribute of the file (kStampAttribute) holding
// the file's size and the CRC-32 of all its bytes, written after the run's
// last connection closed (SQLite then has moved the write-ahead log into
// the file and removed it). It lives on the inode: a copy of the file
// (`cp`, a backup restored) carries no stamp, or one its bytes must still
// match. The stamp vouches for a file only when
// - the write-ahead log is absent or empty (otherwise the index is more
//   than the file, and a crash or another program may have left it), and
// - the size and the CRC-32 of the whole file match.
// Any change to any byte, by any program, or damage on disk, breaks the
// match, and the full check runs as before. CRC-32 is for accidental
// change; it does not stand against someone who can write the index file
// (who could equally write a damaged index and a matching stamp).
//
// Where the file system keeps no user extended attributes (tmpfs before
// Linux 6.6, some network file systems), nothing is stamped and every run
// checks, as before.
#pragma once

#include <string>

namespace mapindex::index {

inline constexpr const char* kStampAttribute = "user.mapindex.stamp";

// Whether `path` is exactly the file its stamp describes, with no
// write-ahead log beside it holding anything. False when there is no stamp
// or it cannot be read.
bool matches_stamp(const std::string& path);

// Stamps `path` with its size and CRC-32 when no write-ahead log holds
// anything beside it; otherwise removes any stamp it has. Call it after the
// last connection to the file closed. Returns whether it stamped.
bool stamp_file(const std::string& path);

// Removes the stamp (a run that did not end well leaves none).
void remove_stamp(const std::string& path);

}  // namespace mapindex::index
