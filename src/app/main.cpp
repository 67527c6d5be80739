// mapindex: index archives of Teeworlds/DDNet maps and SpriteTile levels into
// SQLite. This file only dispatches to the subcommands in app/cli_*.cpp.
#include <algorithm>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli_parse.h"
#include "app/commands.h"
#include "app/version.h"
#include "read/libarchive_reader.h"

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
  render  MAP        Draw a minimap of a map (or an archive entry,
                     ARCHIVE::path) as a PNG; --from-index: a stored thumbnail
  explain CODE...    Say what a problem code means and what to do about it
                     (every code with its title when no CODE is given)
  site    --out DIR  Write the archive as it is now as a static web site (a
                     sortable list of the maps, a page per map, problems)

Options:
  -h, --help         Show this help (`mapindex COMMAND --help` or
                     `mapindex help COMMAND` for a command)
  -V, --version      Print the version, the index schema version it writes and
                     the versions of the libraries it was built and runs with

Exit status: 0 clean, 1 finished with findings (rejected maps, unreadable
inputs, a failed audit), 2 usage error (a bad option or value, a missing
input, no index at --db, bad SQL), 3 the index is damaged, locked by another
run or cannot be read or written (I/O error, disk full), 70 internal error
(a bug: please report it), 130 interrupted.

Documentation: )" MAPINDEX_DOC_DIR R"(/README.md and docs/
(guide.md, queries.md, schema.md, audit.md, ...); man mapindex-COMMAND.
)";

// The commands, in the order the help lists them.
int run_command(const std::string& command, const mapindex::Args& args) {
  using namespace mapindex;
  if (command == "index") return index_command(args);
  if (command == "query") return query_command(args);
  if (command == "inspect") return inspect_command(args);
  if (command == "audit") return audit_command(args);
  if (command == "check") return check_command(args);
  if (command == "render") return render_command(args);
  if (command == "explain") return explain_command(args);
  if (command == "site") return site_command(args);
  return -1;
}

const std::vector<std::string> kCommands = {"index", "query",  "inspect", "audit",
                                            "check", "render", "explain", "site"};

bool is_command(const std::string& name) {
  return std::find(kCommands.begin(), kCommands.end(), name) != kCommands.end();
}

// One line, so a typo in a script's log is not buried under the help.
int unknown_command(const std::string& command) {
  std::cerr << "mapindex: unknown command '" << command << "'";
  if (const auto match = mapindex::closest_match(command, kCommands))
    std::cerr << "; did you mean '" << *match << "'?";
  std::cerr << " (mapindex --help lists the commands)\n";
  return mapindex::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace mapindex;
  read::use_utf8_names();
  if (argc < 2) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  std::string command = argv[1];
  Args args(argv + 2, argv + argc);
  if (command == "-h" || command == "--help" || (command == "help" && args.empty())) {
    std::cout << kUsage;
    return kExitOk;
  }
  if (command == "-V" || command == "--version" || command == "version") {
    print_version(std::cout);
    return kExitOk;
  }
  if (command == "help") {
    // `mapindex help COMMAND` is `mapindex COMMAND --help`.
    if (args.size() > 1) {
      std::cerr << "mapindex help: one COMMAND at most, not " << args.size()
                << " (see mapindex --help)\n";
      return kExitUsage;
    }
    command = args.front();
    if (!is_command(command)) return unknown_command(command);
    args = {"--help"};
  }
  if (!is_command(command)) return unknown_command(command);
  return run_guarded(command, [&] { return run_command(command, args); });
}
