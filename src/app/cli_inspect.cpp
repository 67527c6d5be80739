// `mapindex inspect [--json] FILE...`: decode maps (or every map inside archives and
// folders) and print their statistics and problems, without an index.
#include <boost/program_options.hpp>

#include <filesystem>
#include <iostream>
#include <optional>
#include <unordered_map>

#include "app/cli_parse.h"
#include "app/commands.h"
#include "app/map_report.h"
#include "audit/audit_rules.h"
#include "read/source_reader.h"

namespace mapindex {
namespace po = boost::program_options;

namespace {

struct InspectOptions {
  std::vector<std::string> inputs;
  unsigned max_map_mb = 64;
  bool json_output = false;
  Game game = Game::ddnet;
};

// Reports one entry read from an input, named `name`, as JSON (an object of
// the array) or as text; returns whether it is a finding (unreadable, or a
// map the game rejects).
bool report_entry(const read::Entry& entry, const std::string& name,
                  std::optional<JsonWriter>& json, Game game) {
  if (json) {
    json->begin_object()
        .field("input", name)
        .field("source", entry.source)
        .field("entry", entry.path);
  }
  if (entry.kind == read::ReadOutcome::error) {
    if (json)
      json->field("kind", "unreadable").field("error", entry.error.to_string()).end_object();
    else
      std::cout << name << "\n  unreadable: " << entry.error.to_string() << "\n\n";
    return true;
  }
  if (entry.kind == read::ReadOutcome::oversize) {
    if (json)
      json->field("kind", "oversize")
          .field("size", static_cast<std::int64_t>(entry.size))
          .end_object();
    else
      std::cout << name << "\n  skipped: " << entry.size << " bytes, over --max-map-size\n\n";
    return false;
  }
  const auto digest = read::digest(entry.bytes);
  const Bytes file(entry.bytes.data(), entry.bytes.size());
  const auto m = measure_content(file);
  // The audit's per-map release checks, from its own code.
  const auto checks = m.kind == ContentKind::map
                          ? audit::map_findings(audit::facts_of(m.stats, game), entry.path)
                          : std::vector<audit::Finding>{};
  if (json) {
    write_map_json(*json, digest, m, file);
    if (m.kind == ContentKind::map) write_release_checks_json(*json, checks);
    json->end_object();
  } else {
    print_map_report(std::cout, name, digest, m, file, checks);
  }
  return m.kind == ContentKind::map && status_for(m.stats, game) == MapStatus::rejected;
}

// Reads every input and reports each entry; returns the exit status.
int inspect_inputs(const InspectOptions& c) {
  read::ReadOptions ro;
  ro.max_entry_size = static_cast<std::uint64_t>(c.max_map_mb) << 20;
  read::SourceReader reader(c.inputs, ro);
  std::unordered_map<std::string, read::SourceKind> kind_of;
  for (const auto& source : reader.sources()) kind_of[source.input] = source.kind;
  int status = kExitOk;
  std::optional<JsonWriter> json;
  if (c.json_output) {
    json.emplace(std::cout);
    json->begin_array();
  }
  while (auto entry = reader.next()) {
    // A single file (or what is wrong with an input as a whole) is named by
    // its path; an entry of an archive or folder by both. Standard input read
    // as one plain file gives the entry "-".
    const read::SourceKind kind = kind_of.at(entry->source);
    const bool single_file =
        entry->path.empty() || kind == read::SourceKind::file ||
        (kind == read::SourceKind::standard_input && entry->path == entry->source);
    const std::string name = single_file ? entry->source : entry->source + ": " + entry->path;
    if (report_entry(*entry, name, json, c.game)) status = kExitFindings;
  }
  if (json) json->end_array();
  return status;
}

}  // namespace

int inspect_command(const Args& args) {
  InspectOptions c;
  po::options_description opts(
      "Usage: mapindex inspect [OPTIONS] INPUT...\n\n"
      "Decodes each map (a .map file, a SpriteTile level, or every map inside\n"
      "archives and folders) and prints its container, info, layers, entities,\n"
      "DDNet features and problems, and runs the release checks of `mapindex\n"
      "audit` that look at one map (map.rejected, race.no_time_checkpoints and the\n"
      "image checks; name.similar compares an archive's maps: only the audit runs\n"
      "it). Writes nothing.\n\n"
      "--json prints one JSON document instead: an array with one object per\n"
      "file read (\"input\", \"source\", \"entry\", \"sha256\", \"kind\": map,\n"
      "not_a_map, unreadable or oversize, and for maps what the index would\n"
      "store: info, layers with tile counts, images, envelopes, sounds, DDNet\n"
      "features, problems, release_checks), valid UTF-8, for scripts and for\n"
      "diffing two maps.\n\n"
      "A map whose container does not open (a file cut short, say) shows the\n"
      "values its header states, and \"cut short: N of M bytes\" when the file\n"
      "is shorter than the header describes.\n\nOptions");
  opts.add_options()("help,h", "show this help")("json", po::bool_switch(&c.json_output),
                                                 "print a JSON array, one object per file");
  add_number_option(opts, "max-map-size", &c.max_map_mb, 1u, 4096u,
                    "entries larger than this many MB are skipped", "MB");
  add_game_option(opts, &c.game);
  const auto vm = parse_command_args("inspect", args, opts, &c.inputs);
  if (!vm) return kExitUsage;
  if (vm->count("help")) {
    std::cout
        << opts
        << "\nExit status: 0 all maps load (in the --game), 1 some map is rejected or unreadable,\n"
        << "2 usage error.\n";
    return kExitOk;
  }
  if (c.inputs.empty()) {
    std::cerr << "mapindex inspect: no INPUT given (see mapindex inspect --help)\n";
    return kExitUsage;
  }
  return inspect_inputs(c);
}

}  // namespace mapindex
