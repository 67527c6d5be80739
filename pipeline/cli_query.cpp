// `mapindex query [--db FILE] [--csv|--json] SQL`
#include <boost/program_options.hpp>

#include <filesystem>
#include <iostream>

#include "pipeline/cli_parse.h"
#include "pipeline/commands.h"
#include "pipeline/interrupt.h"
#include "stages/write/query_runner.h"

namespace mapindex {
namespace po = boost::program_options;

int query_command(const Args& args) {
  std::string db = "mapindex.sqlite";
  std::vector<std::string> sql_parts;
  bool csv = false, json = false;
  po::options_description opts(
      "Usage: mapindex query [--db FILE] [--csv|--json] SQL\n\n"
      "Runs read-only SQL against the index and prints an aligned table (or CSV,\n"
      "or JSON: an array of objects). The schema is documented in the README.\n\nOptions");
  opts.add_options()
      ("help,h", "show this help")
      ("db", po::value(&db)->default_value(db), "the SQLite index")
      ("csv", po::bool_switch(&csv), "print CSV (a header line, then one line per row)")
      ("json", po::bool_switch(&json), "print a JSON array of objects");
  const auto vm = parse_command_args("query", args, opts, &sql_parts);
  if (!vm) return kExitUsage;
  if (vm->count("help")) {
    std::cout << opts
              << "\nExit status: 0 success; 2 usage error, missing index, SQL error or a\n"
                 "statement that would write; 3 the index is damaged or cannot be read;\n"
                 "130 interrupted (Ctrl-C stops a running statement).\n";
    return kExitOk;
  }
  if (sql_parts.empty()) {
    std::cerr << "mapindex query: no SQL given (see mapindex query --help)\n";
    return kExitUsage;
  }
  if (csv && json) {
    std::cerr << "mapindex query: --csv and --json exclude each other\n";
    return kExitUsage;
  }
  std::string sql;
  for (const auto& part : sql_parts) sql += (sql.empty() ? "" : " ") + part;
  std::error_code ec;
  if (!std::filesystem::exists(db, ec)) {
    std::cerr << "mapindex query: no index at " << db << " (create it with mapindex index --db "
              << db << " INPUT...)\n";
    return kExitUsage;
  }
  const auto format = csv ? index::QueryFormat::csv
                          : json ? index::QueryFormat::json : index::QueryFormat::table;
  // Ctrl-C or SIGTERM stops a long statement (the progress handler polls
  // the flag); a second signal exits at once.
  install_interrupt_handlers();
  auto result = index::run_query(db, sql, format, std::cout, &interrupt_requested);
  if (!result) {
    std::cout.flush();
    std::cerr << "mapindex query: " << result.error().message << "\n";
    return exit_status_for(result.error());
  }
  return kExitOk;
}

}  // namespace mapindex
