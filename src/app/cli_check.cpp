// `mapindex check [--db FILE]`: the full verdict on an index file. Given a
// FILE (a mapper checking a map), it says to use inspect instead.
#include <boost/program_options.hpp>

#include <fstream>
#include <iostream>

#include "app/cli_parse.h"
#include "app/commands.h"
#include "index/index_db.h"

namespace mapindex {
namespace po = boost::program_options;
namespace {

bool is_sqlite_file(const std::string& path) {
  char magic[16] = {};
  std::ifstream in(path, std::ios::binary);
  return in.read(magic, sizeof magic) &&
         std::string(magic, sizeof magic) == std::string("SQLite format 3\0", 16);
}

// `mapindex check FILE...`: the user meant to check maps (inspect) or gave
// the index without --db. Says which, with the command to run instead.
int explain_positional(const std::vector<std::string>& files) {
  if (files.size() == 1 && is_sqlite_file(files.front())) {
    std::cerr << "mapindex check: the index to check is given with --db: mapindex check --db "
              << shell_word(files.front()) << "\n";
    return kExitUsage;
  }
  std::string words;
  for (const auto& file : files) {
    // Appended in two steps: `" " + shell_word(file)` makes GCC 12 at -O3
    // warn of a memcpy overlap that cannot happen (-Wrestrict).
    words += ' ';
    words += shell_word(file);
  }
  std::cerr << "mapindex check: check verifies an index (--db FILE) and takes no FILE; to check "
            << (files.size() == 1 ? "a map" : "maps") << ", run: mapindex inspect" << words << "\n";
  return kExitUsage;
}

}  // namespace

int check_command(const Args& args) {
  std::string db_path = "mapindex.sqlite";
  po::options_description opts(
      "Usage: mapindex check [--db FILE]\n\n"
      "Reads the whole index and checks it: PRAGMA integrity_check (every page,\n"
      "every table and index entry), PRAGMA foreign_key_check (rows referring to\n"
      "missing rows) and the schema version. Prints a verdict; writes nothing.\n"
      "`mapindex index` runs the cheaper PRAGMA quick_check itself when it opens an\n"
      "index of up to 256 MB.\n\n"
      "To check a map file rather than an index, use mapindex inspect FILE.map.\n\nOptions");
  opts.add_options()("help,h", "show this help")("db", po::value(&db_path)->default_value(db_path),
                                                 "the SQLite index to check");
  std::vector<std::string> files;
  const auto vm = parse_command_args("check", args, opts, &files);
  if (!vm) return kExitUsage;
  if (vm->count("help")) {
    std::cout << opts
              << "\nExit status: 0 the index is sound, 2 usage error, no index at --db or not\n"
                 "a mapindex index (or of a newer schema), 3 the index is damaged or cannot\n"
                 "be read.\n";
    return kExitOk;
  }
  if (!files.empty()) return explain_positional(files);
  const auto report = index::check_index(db_path);
  if (!report) {
    std::cerr << "mapindex check: " << report.error().message << "\n";
    return exit_status_for(report.error());
  }
  const auto& migrations = index::default_migrations();
  const int latest = migrations.empty() ? 0 : migrations.back().version;
  std::cout << "index " << db_path << ": schema version " << report->schema_version;
  if (report->schema_version < latest)
    std::cout << " (older than this mapindex's " << latest
              << ": the next mapindex index migrates it)";
  std::cout << "\n";
  std::cout << "  integrity_check    " << (report->integrity.empty() ? "ok" : "FAILED") << "\n";
  for (const auto& line : report->integrity) std::cout << "    " << line << "\n";
  std::cout << "  foreign_key_check  " << (report->foreign_keys.empty() ? "ok" : "FAILED") << "\n";
  for (const auto& line : report->foreign_keys) std::cout << "    " << line << "\n";
  if (report->ok()) {
    std::cout << "verdict: sound\n";
    return kExitOk;
  }
  std::cout << "verdict: damaged: " << sqlite::kRebuildAdvice << "\n";
  std::cerr << "mapindex check: index '" << db_path << "' is damaged: " << sqlite::kRebuildAdvice
            << "\n";
  return kExitIndex;
}

}  // namespace mapindex
