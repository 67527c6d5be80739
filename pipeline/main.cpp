// mapindex: index archives of Teeworlds/DDNet maps and SpriteTile levels into
// SQLite. This file only dispatches to the subcommands in pipeline/cli_*.cpp.
#include <cstring>
#include <exception>
#include <iostream>
#include <string>

#include "pipeline/commands.h"
#include "pipeline/version.h"
#include "stages/write/sqlite_statement.h"

namespace {

constexpr const char* kUsage = R"(Usage: mapindex COMMAND [OPTIONS] [ARGS]

Index archives of Teeworlds/DDNet maps and SpriteTile levels into SQLite.

Commands:
  index   INPUT...   Stream maps out of archives, folders, files or - (stdin),
                     decode and measure them on all cores, write the index
  query   SQL        Run read-only SQL against an index (table, CSV or JSON)
  inspect FILE...    Decode map files and print their statistics and problems
  audit              Compare the latest run with the previous one: new,
                     changed, removed and broken maps
  check              Check the index for damage (integrity_check,
                     foreign_key_check, schema version)

Options:
  -h, --help         Show this help (`mapindex COMMAND --help` for a command)
  --version          Print the version

Exit status: 0 clean, 1 finished with findings (rejected maps, unreadable
inputs, a failed audit), 2 usage error (a bad option or value, a missing
input, no index at --db, bad SQL), 3 the index is damaged, locked by another
run or cannot be read or written (I/O error, disk full), 130 interrupted.
)";

}  // namespace

int main(int argc, char** argv) {
  using namespace mapindex;
  if (argc < 2) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  const std::string command = argv[1];
  Args args(argv + 2, argv + argc);
  if (command == "-h" || command == "--help" || command == "help") {
    std::cout << kUsage;
    return kExitOk;
  }
  if (command == "--version" || command == "version") {
    std::cout << "mapindex " << tool_version() << "\n";
    return kExitOk;
  }
  try {
    if (command == "index") return index_command(args);
    if (command == "query") return query_command(args);
    if (command == "inspect") return inspect_command(args);
    if (command == "audit") return audit_command(args);
    if (command == "check") return check_command(args);
  } catch (const index::IndexError& e) {
    // The index failed under a command (damage, I/O error, disk full, lock).
    std::cerr << "mapindex " << command << ": " << e.what() << "\n";
    return exit_status_for(Error{e.code() == "index.sql" ? "index.failed" : e.code(), e.what()});
  } catch (const std::exception& e) {
    std::cerr << "mapindex " << command << ": " << e.what() << "\n";
    return kExitUsage;
  }
  std::cerr << "mapindex: unknown command '" << command << "'\n\n" << kUsage;
  return kExitUsage;
}
