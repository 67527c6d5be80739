// `mapindex audit [--db FILE] [--run N] [--against M] [--format text|json|markdown]
//                 [--fail-on error|warning|never] [--limit N]`
#include <boost/program_options.hpp>

#include <cstdint>
#include <iostream>
#include <limits>
#include <optional>

#include "pipeline/cli_parse.h"
#include "pipeline/commands.h"
#include "stages/audit/build_audit.h"
#include "stages/audit/render.h"
#include "stages/write/index_db.h"

namespace mapindex {
namespace po = boost::program_options;

int audit_command(const Args& args) {
  std::string db_path = "mapindex.sqlite";
  std::string format_name = "text";
  std::string fail_on_name = "error";
  std::size_t limit = 50;
  std::optional<std::int64_t> run, against;
  po::options_description opts(
      "Usage: mapindex audit [--db FILE] [--run N] [--against M] [--format text|json|markdown]\n"
      "                      [--fail-on error|warning|never] [--limit N]\n\n"
      "Compares a run of `mapindex index` with the previous complete run over the same\n"
      "sources and reports, per source: entries added, removed, changed and moved,\n"
      "duplicate contents, maps newly rejected or with new problems, maps fixed,\n"
      "problem counts by code (new codes first), totals, and the map-release checks\n"
      "(maps DDNet would refuse, race maps without time checkpoints, duplicate or\n"
      "unused images, embedded standard images, external non-standard images, map\n"
      "names that differ only by case or punctuation). A source no earlier complete\n"
      "run read has no baseline: everything in it counts as new.\n\nOptions");
  opts.add_options()
      ("help,h", "show this help")
      ("db", po::value(&db_path)->default_value(db_path), "the SQLite index to read");
  constexpr auto kAnyRun = std::numeric_limits<std::int64_t>::max();
  add_number_option(opts, "run", &run, std::int64_t{1}, kAnyRun,
                    "the run to audit (default: the latest complete run)");
  add_number_option(opts, "against", &against, std::int64_t{1}, kAnyRun,
                    "the run to compare it with (default: per source, the latest complete run "
                    "before it that read the source)");
  add_number_option(opts, "limit", &limit, std::size_t{0}, std::size_t{1000000},
                    "text and markdown list at most this many items per list (0: all)");
  opts.add_options()
      ("format", po::value(&format_name)->default_value(format_name),
       "text, json (stable format, see the README) or markdown")
      ("fail-on", po::value(&fail_on_name)->default_value(fail_on_name),
       "exit 1 when something is newly broken (error), also on new warnings (warning), "
       "or never");

  const auto parsed = parse_command_args("audit", args, opts);  // no positional arguments
  if (!parsed) return kExitUsage;
  const po::variables_map& vm = *parsed;
  if (vm.count("help")) {
    std::cout << opts
              << "\nExit status: 0 nothing newly broken (or --fail-on never), 1 something is\n"
                 "newly broken (a map newly rejected, an entry newly unreadable) or, with\n"
                 "--fail-on warning, has new warnings; 2 usage error, missing index or no run\n"
                 "to audit; 3 the index is damaged or cannot be read.\n";
    return kExitOk;
  }
  const auto format = audit::parse_report_format(format_name);
  if (!format) {
    std::cerr << "mapindex audit: --format must be text, json or markdown, not '" << format_name
              << "'\n";
    return kExitUsage;
  }
  const auto fail_on = audit::parse_fail_on(fail_on_name);
  if (!fail_on) {
    std::cerr << "mapindex audit: --fail-on must be error, warning or never, not '"
              << fail_on_name << "'\n";
    return kExitUsage;
  }
  audit::AuditOptions options;
  if (run) options.run = *run;
  if (against) options.against = *against;

  auto db = index::IndexDb::open(db_path, index::OpenMode::read_only);
  if (!db) {
    std::cerr << "mapindex audit: " << db.error().message << "\n";
    return exit_status_for(db.error());
  }
  const auto report = audit::build_audit(db->handle(), options);
  if (!report) {
    std::cerr << "mapindex audit: " << report.error().message << "\n";
    return exit_status_for(report.error());
  }
  audit::render(*report, *format, std::cout, {limit});
  std::cout.flush();
  return audit::exit_status(*report, *fail_on) == 0 ? kExitOk : kExitFindings;
}

}  // namespace mapindex
