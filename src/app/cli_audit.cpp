// `mapindex audit [--db FILE] [--run N] [--against M] [--format text|json|markdown|html]
//                 [--out FILE] [--fail-on error|warning|never] [--limit N] [--only-new]`
// `mapindex audit [--db FILE] --accept [--run N] [--note TEXT]`
// `mapindex audit [--db FILE] --acknowledge SHA256|PATH|NAME [--note TEXT]`
#include <boost/program_options.hpp>

#include <cstdint>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>

#include "app/cli_parse.h"
#include "app/commands.h"
#include "audit/audit_marks.h"
#include "audit/build_audit.h"
#include "audit/render.h"
#include "common/file_write.h"
#include "index/index_db.h"

namespace mapindex {
namespace po = boost::program_options;

namespace {

struct AuditCommandOptions {
  std::string db_path = "mapindex.sqlite";
  std::string format_name = "text";
  std::string fail_on_name = "error";
  std::size_t limit = 50;
  std::optional<std::int64_t> run, against;
  bool only_new = false, accept = false;
  std::string acknowledge, note, out_path;
  Game game = Game::ddnet;
};

// The options --help lists; they store into `c`, which must outlive the parsing.
void add_audit_options(po::options_description& opts, AuditCommandOptions& c) {
  opts.add_options()("help,h", "show this help")(
      "db", po::value(&c.db_path)->default_value(c.db_path),
      "the SQLite index to read (--accept and --acknowledge write to it)");
  constexpr auto kAnyRun = std::numeric_limits<std::int64_t>::max();
  add_number_option(opts, "run", &c.run, std::int64_t{1}, kAnyRun,
                    "the run to audit (default: the latest complete run)");
  add_number_option(opts, "against", &c.against, std::int64_t{1}, kAnyRun,
                    "the run to compare it with (default: per source, the latest complete run "
                    "before it that read the source to its end)");
  add_number_option(opts, "limit", &c.limit, std::size_t{0}, std::size_t{1000000},
                    "text, markdown and html list at most this many items per list (0: all)");
  add_game_option(opts, &c.game);
  opts.add_options()("format", po::value(&c.format_name)->default_value(c.format_name),
                     "text, json (stable format: docs/audit-json.md), markdown or html (one "
                     "self-contained page with the maps' thumbnails)")(
      "out,o", po::value(&c.out_path),
      "write the report to FILE (replaced whole, atomically) instead of standard output")(
      "fail-on", po::value(&c.fail_on_name)->default_value(c.fail_on_name),
      "exit 1 when something is newly broken (error), also on new warnings (warning), "
      "or never; info findings (unused envelopes, images, sounds) never fail it")(
      "only-new", po::bool_switch(&c.only_new),
      "text and markdown: only what changed since the baseline, in at most 2000 "
      "characters (5 items a list); json always has everything")(
      "accept", po::bool_switch(&c.accept),
      "accept the run (--run, default: the latest complete run) as it is: its audit exits 0; "
      "prints nothing else")(
      "acknowledge", po::value(&c.acknowledge),
      "acknowledge a map content (by SHA-256, or by the path or name of a map the latest run "
      "saw): its problems never fail the audit")(
      "note", po::value(&c.note),
      "with --accept or --acknowledge: why (stored in the index; an accepted run's note is "
      "shown in its report)");
}

void print_audit_help(const po::options_description& opts) {
  std::cout << opts
            << "\nExit status: 0 nothing newly broken (or --fail-on never, or an accepted\n"
               "run), 1 something is newly broken (a map newly rejected, an entry newly\n"
               "unreadable), a source was read only in part (cut short) or not at all, or,\n"
               "with --fail-on warning, something has new warnings (info never counts); 2\n"
               "usage error, missing index or no run to audit; 3 the index is damaged or\n"
               "cannot be read.\n";
}

// --accept or --acknowledge: writes the mark to the index; returns the exit status.
int mark_in_index(const AuditCommandOptions& c) {
  if (c.accept && !c.acknowledge.empty()) {
    std::cerr << "mapindex audit: give --accept or --acknowledge, not both\n";
    return kExitUsage;
  }
  auto db = index::IndexDb::open(c.db_path, index::OpenMode::read_write);
  if (!db) {
    std::cerr << "mapindex audit: " << db.error().message << "\n";
    return exit_status_for(db.error());
  }
  if (c.accept) {
    const auto accepted = audit::accept_run(db->handle(), c.run, c.note);
    if (!accepted) {
      std::cerr << "mapindex audit: " << accepted.error().message << "\n";
      return kExitUsage;
    }
    std::cout << "mapindex audit: run " << *accepted
              << " accepted as it is: its audit exits 0; later runs are compared with it\n";
    return kExitOk;
  }
  const auto acknowledged = audit::acknowledge_map(db->handle(), c.acknowledge, c.note);
  if (!acknowledged) {
    std::cerr << "mapindex audit: " << acknowledged.error().message << "\n";
    return kExitUsage;
  }
  std::cout << "mapindex audit: acknowledged " << acknowledged->name << " (sha256 "
            << acknowledged->sha256 << "): its problems no longer fail the audit\n";
  return kExitOk;
}

// Builds the audit and writes it to --out or standard output; returns the
// exit status.
int write_report(const AuditCommandOptions& c, bool to_file, audit::ReportFormat format,
                 audit::FailOn fail_on) {
  audit::AuditOptions options;
  options.game = c.game;
  if (c.run) options.run = *c.run;
  if (c.against) options.against = *c.against;
  options.pictures = format == audit::ReportFormat::html;

  auto db = index::IndexDb::open(c.db_path, index::OpenMode::read_only);
  if (!db) {
    std::cerr << "mapindex audit: " << db.error().message << "\n";
    return exit_status_for(db.error());
  }
  const auto report = audit::build_audit(db->handle(), options);
  if (!report) {
    std::cerr << "mapindex audit: " << report.error().message << "\n";
    return exit_status_for(report.error());
  }
  audit::RenderOptions render_options;
  render_options.limit = c.limit;
  render_options.only_new = c.only_new;
  if (to_file) {
    std::ostringstream text;
    audit::render(*report, format, text, render_options);
    const auto written = write_file_atomically(c.out_path, text.str(), Code::audit_output);
    if (!written) {
      std::cerr << "mapindex audit: --out: " << written.error().message << "\n";
      return kExitUsage;
    }
  } else {
    audit::render(*report, format, std::cout, render_options);
    std::cout.flush();
  }
  return audit::exit_status(*report, fail_on) == 0 ? kExitOk : kExitFindings;
}

}  // namespace

int audit_command(const Args& args) {
  AuditCommandOptions c;
  po::options_description opts(
      "Usage: mapindex audit [--db FILE] [--run N] [--against M]\n"
      "                      [--format text|json|markdown|html] [--out FILE]\n"
      "                      [--fail-on error|warning|never] [--limit N] [--only-new]\n"
      "                      [--game ddnet|teeworlds]\n"
      "       mapindex audit [--db FILE] --accept [--run N] [--note TEXT]\n"
      "       mapindex audit [--db FILE] --acknowledge SHA256|PATH|NAME [--note TEXT]\n\n"
      "Compares a run of `mapindex index` with the previous complete run over the same\n"
      "sources and reports, per source: entries added, removed, changed and moved,\n"
      "maps replaced by another map under the same name (never \"fixed\"), duplicate\n"
      "contents, maps newly rejected or with new problems, maps fixed, problem counts\n"
      "by code (new codes first), totals, and the map-release checks by rule (maps\n"
      "DDNet would refuse, race maps without time checkpoints, duplicate or unused\n"
      "images, embedded standard images, external non-standard images, map names\n"
      "that differ only by case or punctuation). A source no earlier complete\n"
      "run read has no baseline: everything in it counts as new. A run that read a\n"
      "source only in part (an archive cut short, or unreadable) is never a baseline\n"
      "for it; its audit says so instead of listing the entries not read as removed.\n"
      "--format html writes one self-contained page (no JavaScript; the maps'\n"
      "thumbnails inlined, old and new side by side for a changed map).\n\n"
      "--accept accepts a run as it is (the first night on an archive: everything is\n"
      "new): its audit then exits 0. --acknowledge marks a map content as known: its\n"
      "problems and findings are listed as acknowledged and never fail the audit (a\n"
      "new upload under the same name is new content and is not acknowledged).\n\n"
      "Documentation: " MAPINDEX_DOC_DIR "/docs/audit.md\n\nOptions");
  add_audit_options(opts, c);

  const auto parsed = parse_command_args("audit", args, opts);  // no positional arguments
  if (!parsed) return kExitUsage;
  const po::variables_map& vm = *parsed;
  if (vm.count("help")) {
    print_audit_help(opts);
    return kExitOk;
  }
  const auto format = audit::parse_report_format(c.format_name);
  if (!format) {
    std::cerr << "mapindex audit: --format must be text, json, markdown or html, not '"
              << c.format_name << "'\n";
    return kExitUsage;
  }
  const auto fail_on = audit::parse_fail_on(c.fail_on_name);
  if (!fail_on) {
    std::cerr << "mapindex audit: --fail-on must be error, warning or never, not '"
              << c.fail_on_name << "'\n";
    return kExitUsage;
  }
  if (c.accept || !c.acknowledge.empty()) return mark_in_index(c);
  if (vm.count("out") && (c.accept || !c.acknowledge.empty())) {
    std::cerr << "mapindex audit: --out goes with a report, not with --accept or --acknowledge\n";
    return kExitUsage;
  }
  if (vm.count("note")) {
    std::cerr << "mapindex audit: --note goes with --accept or --acknowledge\n";
    return kExitUsage;
  }
  return write_report(c, vm.count("out") > 0, *format, *fail_on);
}

}  // namespace mapindex
