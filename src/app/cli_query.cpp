// `mapindex query [--db FILE] [FORMAT] [-p NAME=VALUE]... (SQL | -f FILE | -)`
#include <boost/program_options.hpp>

#include <unistd.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "app/cli_parse.h"
#include "app/commands.h"
#include "app/interrupt.h"
#include "query/query_runner.h"

namespace mapindex {
namespace po = boost::program_options;
namespace {

// Cells wider than this are cut in the table on a terminal (--wide: never).
constexpr std::size_t kTerminalCellWidth = 60;

// "-p name=value": the value is an integer when it is a whole decimal number
// without leading zeros ("12", "-3"; "007" stays text), a real when it is a finite decimal number
// in full ("1.5", "2e3"), else text. The name may carry the SQL's prefix (:name, @name, $name).
std::optional<query::QueryParameter> parse_parameter(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) return std::nullopt;
  std::string name = text.substr(0, equals);
  if (name.front() == ':' || name.front() == '@' || name.front() == '$') name.erase(0, 1);
  if (name.empty()) return std::nullopt;
  const std::string value = text.substr(equals + 1);
  const auto digits = value.find_first_not_of("+-");
  if (digits != std::string::npos && value.size() > digits + 1 && value[digits] == '0' &&
      std::isdigit(static_cast<unsigned char>(value[digits + 1])))
    return query::QueryParameter{name, value};  // a code like "007" is text
  if (const auto n = parse_whole_number(value)) return query::QueryParameter{name, *n};
  double real = 0;
  const char* const end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, real);
  if (!value.empty() && ec == std::errc() && ptr == end && std::isfinite(real) &&
      value.find_first_not_of("0123456789+-.eE") == std::string::npos)
    return query::QueryParameter{name, real};
  return query::QueryParameter{name, value};
}

// The whole of `path` ("-": standard input), or nullopt with a message.
std::optional<std::string> read_sql(const std::string& path) {
  if (path == "-") {
    std::ostringstream text;
    text << std::cin.rdbuf();
    return text.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "mapindex query: cannot read SQL from " << path << ": "
              << std::error_code(errno, std::generic_category()).message() << "\n";
    return std::nullopt;
  }
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct QueryCommandOptions {
  std::string db = "mapindex.sqlite";
  std::vector<std::string> sql_parts, parameter_texts;
  std::string sql_file;
  bool csv = false, tsv = false, json = false, ndjson = false, wide = false;
};

void add_query_options(po::options_description& opts, QueryCommandOptions& c) {
  opts.add_options()("help,h", "show this help")("db", po::value(&c.db)->default_value(c.db),
                                                 "the SQLite index")(
      "file,f", po::value(&c.sql_file)->value_name("FILE"),
      "read the SQL from FILE (- for standard input)")(
      "param,p", po::value(&c.parameter_texts)->value_name("NAME=VALUE"),
      "bind :NAME to VALUE (repeatable)")(
      "csv", po::bool_switch(&c.csv), "print CSV (RFC 4180: a header line, then one line per row)")(
      "tsv", po::bool_switch(&c.tsv),
      "print TSV (a header line, tab-separated; \\t \\n \\r \\\\ escaped)")(
      "json", po::bool_switch(&c.json), "print a JSON array of objects")(
      "ndjson", po::bool_switch(&c.ndjson), "print one JSON object per line")(
      "wide", po::bool_switch(&c.wide), "never cut table cells on a terminal");
}

// Checks the parsed options and gathers the SQL and how to run it; false (the
// message printed) is a usage error.
bool prepare_query(const QueryCommandOptions& c, const po::variables_map& vm, std::string& sql,
                   query::QueryOptions& options) {
  if (c.csv + c.tsv + c.json + c.ndjson > 1) {
    std::cerr << "mapindex query: --csv, --tsv, --json and --ndjson exclude each other\n";
    return false;
  }
  const bool from_stdin = c.sql_parts.size() == 1 && c.sql_parts.front() == "-";
  if (vm.count("file") && !c.sql_parts.empty()) {
    std::cerr << "mapindex query: give the SQL either with -f FILE or as arguments, not both\n";
    return false;
  }
  if (c.sql_parts.empty() && !vm.count("file")) {
    std::cerr << "mapindex query: no SQL given (see mapindex query --help)\n";
    return false;
  }
  for (const auto& text : c.parameter_texts) {
    auto parameter = parse_parameter(text);
    if (!parameter) {
      std::cerr << "mapindex query: -p needs NAME=VALUE, not '" << text << "'\n";
      return false;
    }
    options.parameters.push_back(std::move(*parameter));
  }
  std::error_code ec;
  if (!std::filesystem::exists(c.db, ec)) {
    std::cerr << "mapindex query: no index at " << c.db << " (create it with mapindex index --db "
              << c.db << " INPUT...)\n";
    return false;
  }
  if (vm.count("file") || from_stdin) {
    auto text = read_sql(from_stdin ? "-" : c.sql_file);
    if (!text) return false;
    sql = std::move(*text);
  } else {
    for (const auto& part : c.sql_parts) sql += (sql.empty() ? "" : " ") + part;
  }
  options.format = c.csv      ? query::QueryFormat::csv
                   : c.tsv    ? query::QueryFormat::tsv
                   : c.json   ? query::QueryFormat::json
                   : c.ndjson ? query::QueryFormat::ndjson
                              : query::QueryFormat::table;
  if (options.format == query::QueryFormat::table && !c.wide && isatty(STDOUT_FILENO))
    options.max_cell_width = kTerminalCellWidth;
  return true;
}

}  // namespace

int query_command(const Args& args) {
  QueryCommandOptions c;
  po::options_description opts(
      "Usage: mapindex query [--db FILE] [--csv|--tsv|--json|--ndjson] [--wide]\n"
      "                      [-p NAME=VALUE]... (SQL | -f FILE | -)\n\n"
      "Runs read-only SQL against the index and prints an aligned table (or CSV,\n"
      "TSV, a JSON array of objects, or NDJSON: one JSON object per line). SQL\n"
      "comes from the arguments, from FILE with -f, or from standard input with\n"
      "`-f -` or `-`. The tables: " MAPINDEX_DOC_DIR
      "/docs/schema.md\n\n"
      "Parameters: -p NAME=VALUE gives :NAME (also @NAME, $NAME) in the SQL its\n"
      "value, bound as an integer when VALUE is a whole decimal number (12, -3),\n"
      "a real when it is a decimal number (1.5, 2e3), else as text (also with\n"
      "leading zeros: 007); every parameter needs a value, every value a\n"
      "parameter.\n\n"
      "Other databases: ATTACH 'other.db' AS x opens another SQLite file\n"
      "read-only for the statements after it (joins with x.table); DETACH x.\n"
      "Browsing: .tables [PATTERN] lists the tables and views, .schema [PATTERN]\n"
      "prints their CREATE statements, as in the sqlite3 shell (each up to the\n"
      "end of its line or a ';').\n\n"
      "Output is valid UTF-8 (invalid bytes become U+FFFD); BLOBs print as hex.\n"
      "On a terminal, table cells longer than 60 characters are cut with '…'\n"
      "(--wide: never); other formats are never cut.\n\nOptions");
  add_query_options(opts, c);
  const auto vm = parse_command_args("query", args, opts, &c.sql_parts);
  if (!vm) return kExitUsage;
  if (vm->count("help")) {
    std::cout << opts
              << "\nExit status: 0 success; 2 usage error, missing index, SQL error, a\n"
                 "parameter without a value (or a value without a parameter) or a\n"
                 "statement that would write; 3 the index is damaged or cannot be read;\n"
                 "130 interrupted (Ctrl-C stops a running statement).\n";
    return kExitOk;
  }
  std::string sql;
  query::QueryOptions options;
  if (!prepare_query(c, *vm, sql, options)) return kExitUsage;
  // Ctrl-C or SIGTERM stops a long statement (the progress handler polls
  // the flag); a second signal exits at once.
  install_interrupt_handlers();
  auto result = query::run_query(c.db, sql, options, std::cout, &interrupt_requested);
  if (!result) {
    std::cout.flush();
    std::cerr << "mapindex query: " << result.error().message << "\n";
    return exit_status_for(result.error());
  }
  return kExitOk;
}

}  // namespace mapindex
