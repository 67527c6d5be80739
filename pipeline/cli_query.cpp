// `mapindex query [--db FILE] [--csv|--json] SQL`
#include <boost/program_options.hpp>

#include <filesystem>
#include <iostream>

#include "pipeline/cli_parse.h"
#include "pipeline/commands.h"
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
    std::cout << opts << "\nExit status: 0 success, 2 usage error, missing index or SQL error.\n";
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
  auto result = index::run_query(db, sql, format, std::cout);
  if (!result) {
    std::cerr << "mapindex query: " << result.error().message << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace mapindex
