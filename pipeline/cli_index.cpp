// `mapindex index [--db FILE] [options] INPUT...`
#include <boost/program_options.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>

#include "pipeline/cli_parse.h"
#include "pipeline/commands.h"
#include "pipeline/index_run.h"
#include "pipeline/interrupt.h"
#include "pipeline/progress.h"
#include "stages/audit/audit_report.h"
#include "stages/audit/render.h"

namespace mapindex {
namespace po = boost::program_options;

namespace {

void print_summary(const IndexOptions& o, const LiveCounters& c, const IndexSummary& s) {
  const double mb = static_cast<double>(c.bytes.load()) / (1024.0 * 1024.0);
  const auto maps = c.maps_indexed.load() + c.maps_known.load();
  std::printf("mapindex: %s run %lld into %s\n", s.interrupted ? "interrupted" : "finished",
              static_cast<long long>(s.run_id), o.db_path.c_str());
  std::printf("  entries read      %10llu  (%.1f MB)\n",
              static_cast<unsigned long long>(c.entries.load()), mb);
  std::printf("  maps indexed      %10llu  (decoded and measured)\n",
              static_cast<unsigned long long>(c.maps_indexed.load()));
  std::printf("  already known     %10llu  (same content indexed before: not decoded)\n",
              static_cast<unsigned long long>(c.maps_known.load()));
  std::printf("  rejected          %10llu  (DDNet would refuse them)\n",
              static_cast<unsigned long long>(c.rejected.load()));
  std::printf("  with warnings     %10llu\n", static_cast<unsigned long long>(c.with_warnings.load()));
  std::printf("  not maps          %10llu\n", static_cast<unsigned long long>(c.not_maps.load()));
  std::printf("  oversize          %10llu  (over --max-map-size, not read)\n",
              static_cast<unsigned long long>(c.oversize.load()));
  std::printf("  unreadable        %10llu\n", static_cast<unsigned long long>(c.unreadable.load()));
  if (c.not_written.load())
    std::printf("  not written       %10llu  (the index refused their rows: see the messages above)\n",
                static_cast<unsigned long long>(c.not_written.load()));
  std::printf("  time              %10.2f s  (%.1f maps/s, %.1f MB/s, CPU %.2f s)\n", s.seconds,
              s.seconds > 0 ? static_cast<double>(maps) / s.seconds : 0.0,
              s.seconds > 0 ? mb / s.seconds : 0.0, s.cpu_seconds);
  if (c.rejected.load() || c.unreadable.load() || c.oversize.load())
    std::printf("  problems: mapindex query --db %s \"SELECT * FROM problems WHERE run_id = %lld\"\n",
                o.db_path.c_str(), static_cast<long long>(s.run_id));
}

// --stats-json: the run's figures as one flat JSON object, for
// benchmarks/run.sh and monitoring (wall and CPU seconds, time inside the
// writer node, most entry bytes held in flight against the budget).
bool write_stats_json(const std::string& path, const IndexOptions& o, const LiveCounters& c,
                      const IndexSummary& s) {
  std::ofstream out(path);
  out << "{\"run_id\":" << s.run_id << ",\"interrupted\":" << (s.interrupted ? "true" : "false")
      << ",\"seconds\":" << s.seconds << ",\"cpu_seconds\":" << s.cpu_seconds
      << ",\"writer_seconds\":" << s.writer_seconds << ",\"peak_in_flight_bytes\":" << s.peak_in_flight
      << ",\"memory_budget_bytes\":" << o.memory_budget << ",\"entries\":" << c.entries.load()
      << ",\"bytes\":" << c.bytes.load() << ",\"maps_indexed\":" << c.maps_indexed.load()
      << ",\"maps_known\":" << c.maps_known.load() << ",\"rejected\":" << c.rejected.load()
      << ",\"not_maps\":" << c.not_maps.load() << ",\"unreadable\":" << c.unreadable.load()
      << "}\n";
  return static_cast<bool>(out.flush());
}

}  // namespace

int index_command(const Args& args) {
  IndexOptions o;
  unsigned memory_mb = 1024, max_map_mb = 64;
  std::string progress = "auto";
  bool quiet = false;
  std::string stats_json;
  bool audit = false;
  std::string audit_format = "text", fail_on = "error";
  po::options_description opts(
      "Usage: mapindex index [--db FILE] [OPTIONS] INPUT...\n\n"
      "Streams every map out of the INPUTs (archives libarchive reads: zip, tar,\n"
      "tar.gz/xz/zst/bz2, 7z, ...; folders, recursively; single files; - for an\n"
      "archive on standard input; archives inside archives are followed), decodes\n"
      "and measures them on all cores and writes the SQLite index. Content already\n"
      "indexed (same SHA-256) is not decoded again.\n\nOptions");
  opts.add_options()
      ("help,h", "show this help")
      ("db", po::value(&o.db_path)->default_value(o.db_path), "the SQLite index to create or update")
      ("threads,j", po::value(&o.threads)->default_value(0),
       "decode threads (0 = all cores); the results do not depend on it")
      ("memory", po::value(&memory_mb)->default_value(memory_mb),
       "memory budget in MB for entries in flight (backpressure on the reader)")
      ("max-map-size", po::value(&max_map_mb)->default_value(max_map_mb),
       "entries larger than this many MB are skipped with a problem row")
      ("max-nesting", po::value(&o.max_nesting)->default_value(o.max_nesting),
       "how deep archives inside archives are followed")
      ("batch", po::value(&o.batch_size)->default_value(o.batch_size),
       "entries per transaction (a transaction also ends every second)")
      ("reindex", po::bool_switch(&o.reindex), "decode and measure even content already indexed")
      ("progress", po::value(&progress)->default_value(progress),
       "auto (a bar on a terminal, else nothing), bar, lines (a line every 5 s) or none")
      ("quiet,q", po::bool_switch(&quiet), "no progress and no summary")
      ("stats-json", po::value(&stats_json),
       "also write the run's figures to this file as one JSON object: seconds, cpu_seconds, "
       "writer_seconds (inside the SQLite writer), peak_in_flight_bytes (most entry bytes "
       "held against --memory), counts (used by benchmarks/run.sh)")
      ("audit", po::bool_switch(&audit),
       "when the run is complete, print `mapindex audit` of it against the previous run; "
       "the exit status is then the audit's (one command for cron)")
      ("audit-format", po::value(&audit_format)->default_value(audit_format),
       "with --audit: text, json or markdown (json: standard output holds only the JSON, "
       "no run summary)")
      ("fail-on", po::value(&fail_on)->default_value(fail_on),
       "with --audit: exit 1 when something is newly broken (error), also on new warnings "
       "(warning), or never");
  const auto vm = parse_command_args("index", args, opts, &o.inputs);
  if (!vm) return kExitUsage;
  if (vm->count("help")) {
    std::cout << opts << "\nExit status: 0 clean, 1 finished with rejected maps or unreadable\n"
              << "inputs (with --audit: the audit found something newly broken), 2 usage\n"
              << "error, 130 interrupted (re-run to continue: indexed content is skipped).\n";
    return kExitOk;
  }
  if (o.inputs.empty()) {
    std::cerr << "mapindex index: no INPUT given (see mapindex index --help)\n";
    return kExitUsage;
  }
  ProgressMode mode;
  if (quiet || progress == "none") mode = ProgressMode::none;
  else if (progress == "auto") mode = ProgressMode::automatic;
  else if (progress == "bar") mode = ProgressMode::bar;
  else if (progress == "lines") mode = ProgressMode::lines;
  else {
    std::cerr << "mapindex index: --progress must be auto, bar, lines or none, not '" << progress
              << "'\n";
    return kExitUsage;
  }
  if (max_map_mb == 0 || memory_mb < 2 * max_map_mb) {
    std::cerr << "mapindex index: --memory (" << memory_mb
              << " MB) must be at least twice --max-map-size (" << max_map_mb << " MB)\n";
    return kExitUsage;
  }
  if (!audit::parse_report_format(audit_format) || !audit::parse_fail_on(fail_on)) {
    std::cerr << "mapindex index: --audit-format must be text, json or markdown and --fail-on "
                 "error, warning or never\n";
    return kExitUsage;
  }
  if (o.batch_size == 0) o.batch_size = 1;
  o.memory_budget = static_cast<std::uint64_t>(memory_mb) << 20;
  o.max_map_size = static_cast<std::uint64_t>(max_map_mb) << 20;
  o.command_line = "mapindex index";
  for (const auto& a : args) o.command_line += " " + a;

  install_interrupt_handlers();
  LiveCounters counters;
  Result<IndexSummary> result = [&] {
    ProgressReporter reporter(counters, mode, stderr);
    return run_index(o, counters);
  }();
  if (!result) {
    std::cerr << "mapindex index: " << result.error().message << "\n";
    return kExitUsage;
  }
  // With --audit-format json, standard output holds only the JSON report.
  const bool json_only = audit && audit_format == "json";
  if (!quiet && !json_only) print_summary(o, counters, *result);
  if (!stats_json.empty() && !write_stats_json(stats_json, o, counters, *result))
    std::cerr << "mapindex index: cannot write --stats-json " << stats_json << "\n";
  if (result->interrupted) return kExitInterrupted;
  if (audit) {
    std::cout.flush();
    if (!quiet && !json_only) std::cout << "\n";
    return audit_command({"--db", o.db_path, "--run", std::to_string(result->run_id), "--format",
                          audit_format, "--fail-on", fail_on});
  }
  if (counters.rejected.load() || counters.unreadable.load() || counters.not_written.load())
    return kExitFindings;
  return kExitOk;
}

}  // namespace mapindex
