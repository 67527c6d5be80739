// The stamp `mapindex index` leaves on an index file it closed cleanly, so
// the next run can skip the damage check at open when the file is still byte
// for byte what that run left.
//
// Why: the check (PRAGMA quick_check, see IndexDb::open) reads and parses
// every page: on a small index, a fixed cost that a re-run over unchanged
// inputs pays in full, about as much as the rest of the re-run. The stamp
// costs one sequential read of the file (CRC-32 at memory speed) at open and
// one at close.
//
// What it is: an extended attribute of the file (kStampAttribute) holding
// the file's size and the CRC-32 of all its bytes, written by the run just
// before it closes its connection, once the write-ahead log is moved into
// the file and emptied. It lives on the inode: a copy of the file
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
// The file is read through SQLite's own handle of it, inside a read
// transaction, never through a descriptor of our own: closing any
// descriptor of a file drops every POSIX lock the process holds on it,
// SQLite's included ("How To Corrupt An SQLite Database File", 2.2), after
// which another process's connection could delete this run's WAL.
//
// What the stamp does not cover: bytes changed while a run holds the index
// open by something other than SQLite (a disk error, a program writing past
// SQLite). Commits by other connections during the run are noticed (PRAGMA
// data_version) and leave no stamp.
//
// Where the file system keeps no user extended attributes (tmpfs before
// Linux 6.6, some network file systems), nothing is stamped and every run
// checks, as before.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace mapindex::index {

inline constexpr const char* kStampAttribute = "user.mapindex.stamp";

// Whether the main database file of `db` (at `path`) is exactly the file
// its stamp describes, with no write-ahead log beside it holding anything.
// False when there is no stamp, it cannot be read, or `db` cannot take a
// read transaction.
bool matches_stamp(sqlite3* db, const std::string& path);

// Moves the write-ahead log into the file (a TRUNCATE checkpoint) and
// stamps the file with its size and CRC-32, unless the file is larger than
// `max_bytes`, the log cannot be emptied (another connection reads or
// writes) or the file system keeps no stamp; then removes any stamp. Call it
// last before closing `db`, the process's only connection to the file
// (closing an emptied log changes nothing in the file). Returns whether it
// stamped.
bool stamp_file(sqlite3* db, const std::string& path, std::uint64_t max_bytes);

// Removes the stamp (a run that did not end well leaves none).
void remove_stamp(const std::string& path);

}  // namespace mapindex::index
