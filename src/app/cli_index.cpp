// `mapindex index [--db FILE] [options] INPUT...`
#include <boost/program_options.hpp>

#include <algorithm>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include "app/cli_parse.h"
#include "app/commands.h"
#include "app/index_report.h"
#include "app/interrupt.h"
#include "app/progress.h"
#include "app/version.h"
#include "audit/audit_report.h"
#include "audit/render.h"
#include "common/problem_codes.h"
#include "pipeline/byte_budget.h"
#include "pipeline/index_run.h"

namespace mapindex {
namespace po = boost::program_options;

namespace {

constexpr unsigned kMaxThreads = 256;

// Every INPUT must exist and be readable before a run starts: a typo in a cron
// job is a usage error naming the path and the reason, not an "unreadable"
// row in a run. Regular files and folders are opened (and closed at once);
// a FIFO or device is only checked for read permission, since opening it
// could consume or block on its writer. "-" is standard input.
bool inputs_readable(const std::vector<std::string>& inputs) {
  bool ok = true;
  for (const auto& input : inputs) {
    if (input == "-") continue;
    struct stat st {};
    int error_number = 0;
    if (::stat(input.c_str(), &st) != 0) {
      error_number = errno;
    } else if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) {
      const int fd =
          ::open(input.c_str(), O_RDONLY | O_CLOEXEC | (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0));
      if (fd < 0)
        error_number = errno;
      else
        ::close(fd);
    } else if (::access(input.c_str(), R_OK) != 0) {
      error_number = errno;
    }
    if (error_number != 0) {
      std::cerr << "mapindex index: " << input << ": " << std::strerror(error_number) << "\n";
      ok = false;
    }
  }
  return ok;
}

// What the command line sets: the run's options and what the command itself
// does before and after the run (progress, summary, stats, audit).
struct IndexCommandOptions {
  IndexOptions run;
  unsigned memory_mb = ByteBudget::kDefaultMemoryMb, max_map_mb = 64;
  std::optional<std::uint64_t> max_in_flight;
  std::string progress = "auto";
  bool quiet = false;
  std::string stats_json;
  bool audit = false;
  std::string audit_format = "text", fail_on = "error";
  bool no_thumbnails = false;
  // Developer switches, not in --help (CONTRIBUTING.md).
  bool no_layer_cache = false;
  std::string inflate = std::string(deflate::to_string(run.tile_inflater));
};

// The options --help lists into `opts`, the developer switches into `hidden`;
// both store into `c`, which must outlive the parsing.
void add_index_options(po::options_description& opts, po::options_description& hidden,
                       IndexCommandOptions& c) {
  IndexOptions& o = c.run;
  opts.add_options()("help,h", "show this help")("db",
                                                 po::value(&o.db_path)->default_value(o.db_path),
                                                 "the SQLite index to create or update");
  add_number_option(opts, "threads,j", &o.threads, 0u, kMaxThreads,
                    "decode threads (0 = all cores); the results do not depend on it");
  add_number_option(opts, "memory", &c.memory_mb, 2u, 1024u * 1024u,
                    "memory budget in MB for entries in flight between reader and writer (an "
                    "entry counts its bytes + 2 KiB); at least twice --max-map-size (when not "
                    "given: 128, or twice --max-map-size if that is more)",
                    "MB");
  add_number_option(opts, "max-in-flight", &c.max_in_flight, std::uint64_t{1},
                    std::uint64_t{1} << 20,
                    "most entries in flight between reader and writer, however small (default: "
                    "64 per decode thread, at most 1024)");
  add_number_option(opts, "max-map-size", &c.max_map_mb, 1u, 4096u,
                    "entries larger than this many MB are skipped with a problem row", "MB");
  add_number_option(opts, "max-nesting", &o.max_nesting, 0, 32,
                    "how deep archives inside archives are followed");
  add_number_option(opts, "batch", &o.batch_size, 1u, 1000000u,
                    "entries per transaction (a transaction also ends at the first entry written "
                    "once it is older than a fifth of the run so far, " +
                        std::to_string(kCommitIntervalMin.count()) + " ms at least and " +
                        std::to_string(kCommitIntervalMax.count()) +
                        " ms at most, and once the "
                        "entries it keeps to write again after a rollback hold " +
                        std::to_string(kBatchMemory >> 20) + " MiB)");
  add_game_option(opts, &o.game);
  opts.add_options()("reindex", po::bool_switch(&o.reindex),
                     "decode and measure even content already indexed")(
      "no-thumbnails", po::bool_switch(&c.no_thumbnails),
      "draw no thumbnails (by default each map measured gets one in the view map_thumbnails; "
      "see mapindex render --from-index)")(
      "progress", po::value(&c.progress)->default_value(c.progress),
      "auto (a bar on a terminal, else nothing), bar, lines (a line every 5 s) or none")(
      "quiet,q", po::bool_switch(&c.quiet), "no progress and no summary")(
      "stats-json", po::value(&c.stats_json),
      "also write the run's figures to this file as one JSON object: seconds, cpu_seconds, "
      "writer_seconds (inside the SQLite writer), batches and peak_batch_bytes (its "
      "transactions, and the most bytes it kept for one), peak_in_flight_bytes (most entry bytes "
      "held against --memory), memory_budget_bytes and max_in_flight_entries (the budget "
      "used), counts (used by benchmarks/run.sh)")(
      "audit", po::bool_switch(&c.audit),
      "when the run is complete, print `mapindex audit` of it against the previous run; "
      "the exit status is then the audit's (one command for cron)")(
      "audit-format", po::value(&c.audit_format)->default_value(c.audit_format),
      "with --audit: text, json, markdown or html (json, html: standard output holds only "
      "the report, no run summary)")(
      "fail-on", po::value(&c.fail_on)->default_value(c.fail_on),
      "with --audit: exit 1 when something is newly broken (error), also on new warnings "
      "(warning), or never; info findings never fail it");
  hidden.add_options()("no-layer-cache", po::bool_switch(&c.no_layer_cache),
                       "measure every tile layer, reusing no earlier result")(
      "inflate", po::value(&c.inflate), "what inflates tile data: zeros or libdeflate");
}

void print_index_help(const po::options_description& opts) {
  std::cout << opts << "\nExit status: 0 clean, 1 finished with rejected maps or unreadable\n"
            << "entries (with --audit: the audit's status instead), 2 usage\n"
            << "error (a bad option or value, an INPUT that does not exist or cannot be\n"
            << "opened; nothing is written then), 3 the index is damaged, being written by\n"
            << "another run, or cannot be written (I/O error, disk full), 130 interrupted\n"
            << "(re-run to continue: indexed content is skipped).\n";
}

// An INPUT given twice is one source: it is read once (reading it again would
// record every entry a second time, as a duplicate name).
void drop_repeated_inputs(std::vector<std::string>& inputs) {
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto first =
        std::find(inputs.begin(), inputs.begin() + static_cast<std::ptrdiff_t>(i), inputs[i]);
    if (first == inputs.begin() + static_cast<std::ptrdiff_t>(i)) continue;
    std::cerr << "mapindex index: " << inputs[i] << " is given more than once: read once\n";
    inputs.erase(inputs.begin() + static_cast<std::ptrdiff_t>(i--));
  }
}

std::optional<ProgressMode> parse_progress_mode(const std::string& progress, bool quiet) {
  if (quiet || progress == "none") return ProgressMode::none;
  if (progress == "auto") return ProgressMode::automatic;
  if (progress == "bar") return ProgressMode::bar;
  if (progress == "lines") return ProgressMode::lines;
  std::cerr << "mapindex index: --progress must be auto, bar, lines or none, not '" << progress
            << "'\n";
  return std::nullopt;
}

// Checks the parsed options after --help and completes c.run from them;
// nullopt (the message printed) is a usage error.
std::optional<ProgressMode> validate_index_options(IndexCommandOptions& c,
                                                   const po::variables_map& vm, const Args& args) {
  IndexOptions& o = c.run;
  if (o.inputs.empty()) {
    std::cerr << "mapindex index: no INPUT given (see mapindex index --help)\n";
    return std::nullopt;
  }
  if (!inputs_readable(o.inputs)) return std::nullopt;
  drop_repeated_inputs(o.inputs);
  {
    // A typo in --db's folder is a usage error too (the file itself is created).
    const auto folder = std::filesystem::path(o.db_path).parent_path();
    std::error_code ec;
    if (!folder.empty() && !std::filesystem::is_directory(folder, ec)) {
      std::cerr << "mapindex index: --db " << o.db_path << ": folder " << folder.string()
                << " does not exist\n";
      return std::nullopt;
    }
  }
  const auto mode = parse_progress_mode(c.progress, c.quiet);
  if (!mode) return std::nullopt;
  // The reader waits until one more entry of up to --max-map-size fits, so
  // the budget must hold two: one in flight, one being read. Without --memory
  // the default grows to fit a larger --max-map-size.
  if (vm.at("memory").defaulted()) c.memory_mb = std::max(c.memory_mb, 2 * c.max_map_mb);
  if (c.memory_mb < 2 * c.max_map_mb) {
    std::cerr << "mapindex index: --memory (" << c.memory_mb
              << " MB) must be at least twice --max-map-size (" << c.max_map_mb
              << " MB): give --memory " << 2 * c.max_map_mb << " or more, or leave it out\n";
    return std::nullopt;
  }
  if (!audit::parse_report_format(c.audit_format) || !audit::parse_fail_on(c.fail_on)) {
    std::cerr << "mapindex index: --audit-format must be text, json, markdown or html and "
                 "--fail-on "
                 "error, warning or never\n";
    return std::nullopt;
  }
  o.memory_budget = static_cast<std::uint64_t>(c.memory_mb) << 20;
  o.max_in_flight = c.max_in_flight.value_or(0);
  o.max_map_size = static_cast<std::uint64_t>(c.max_map_mb) << 20;
  o.command_line = "mapindex index";
  for (const auto& a : args) o.command_line += " " + a;
  o.tool_version = std::string(tool_version());
  o.stop = &interrupt_stop_request();
  return mode;
}

// The run with its progress reporter, and what follows it: the summary, the
// input errors, --stats-json and --audit; returns the exit status.
int run_index_command(const IndexCommandOptions& c, ProgressMode mode) {
  const IndexOptions& o = c.run;
  install_interrupt_handlers();
  LiveCounters counters;
  std::optional<RunFindings> found;
  Result<IndexSummary> result = [&] {
    ProgressReporter reporter(counters, mode, stderr);
    set_interrupt_counters(&counters);
    struct ClearCounters {
      ~ClearCounters() { set_interrupt_counters(nullptr); }
    } clear_counters;
    return run_index(o, counters, [&](sqlite3* index, std::int64_t run_id) {
      found = read_run_findings(index, run_id, o.game);
    });
  }();
  if (!result) {
    std::cerr << "mapindex index: " << result.error().message << "\n";
    return exit_status_for(result.error());
  }
  // With --audit-format json or html, standard output holds only the report.
  const bool json_only = c.audit && (c.audit_format == "json" || c.audit_format == "html");
  if (!c.quiet && !json_only) print_summary(o, counters, *result, found);
  std::fflush(stdout);
  print_input_errors(o, counters, *result, found);
  if (!c.stats_json.empty() && !write_stats_json(c.stats_json, o, counters, *result))
    std::cerr << "mapindex index: cannot write --stats-json " << c.stats_json << "\n";
  if (result->interrupted) return kExitInterrupted;
  if (c.audit) {
    std::cout.flush();
    if (!c.quiet && !json_only) std::cout << "\n";
    return audit_command({"--db", o.db_path, "--run", std::to_string(result->run_id), "--format",
                          c.audit_format, "--fail-on", c.fail_on, "--game",
                          std::string(to_string(o.game))});
  }
  if (counters.rejected.load() || counters.unreadable.load() || counters.not_written.load())
    return kExitFindings;
  return kExitOk;
}

}  // namespace

int index_command(const Args& args) {
  IndexCommandOptions c;
  po::options_description opts(
      "Usage: mapindex index [--db FILE] [OPTIONS] INPUT...\n\n"
      "Streams every map out of the INPUTs (archives libarchive reads: zip, tar,\n"
      "tar.gz/xz/zst/bz2, 7z, ...; folders, recursively; single files; - for an\n"
      "archive on standard input; archives inside archives are followed), decodes\n"
      "and measures them on all cores and writes the SQLite index. Content already\n"
      "indexed (same SHA-256) is not decoded again.\n\nOptions");
  po::options_description hidden;
  add_index_options(opts, hidden, c);
  const auto vm = parse_command_args("index", args, opts, &c.run.inputs, &hidden);
  if (!vm) return kExitUsage;
  c.run.layer_cache = !c.no_layer_cache;
  if (const auto inflater = deflate::parse_inflater(c.inflate)) {
    c.run.tile_inflater = *inflater;
  } else {
    std::cerr << "mapindex index: --inflate must be zeros or libdeflate, not '" << c.inflate
              << "'\n";
    return kExitUsage;
  }
  c.run.thumbnails = !c.no_thumbnails;
  if (vm->count("help")) {
    print_index_help(opts);
    return kExitOk;
  }
  const auto mode = validate_index_options(c, *vm, args);
  if (!mode) return kExitUsage;
  return run_index_command(c, *mode);
}

}  // namespace mapindex
