// `mapindex explain [CODE...]`, `mapindex explain --markdown`: the code table
// (src/common/problem_codes.h) for people. No index is read: the table is
// the program's own, which is also what an index's problem_codes holds.
#include <boost/program_options.hpp>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli_parse.h"
#include "app/commands.h"
#include "app/explain.h"
#include "common/problem_codes.h"

namespace mapindex {
namespace po = boost::program_options;

namespace {

// The sections of the list and of docs/problem-codes.md, in table order.
struct Section {
  CodeGroup group;
  std::string_view heading;
};
constexpr Section kSections[] = {
    {CodeGroup::container,
     "Container (`src/decode/datafile`): a container that does not open gives a rejected map "
     "with that one problem"},
    {CodeGroup::data_item,
     "Data items: in the message of the problem of whatever needed the data (`M14`, `M15`, "
     "`quads.data`, `image.name`, ...)"},
    {CodeGroup::map_rule, "Map level (DDNet refuses the map)"},
    {CodeGroup::check,
     "Further checks (the map loads, but something is wrong: warning; or it cannot break the map "
     "in any game: info)"},
    {CodeGroup::spritetile,
     "SpriteTile levels (`src/decode/spritetile`, `src/extract/spritetile_stats`)"},
    {CodeGroup::entry,
     "Entries (stored with the entry, `problems.file_id`, location `\"\"`; see "
     "[Reading inputs](guide.md#reading-inputs))"},
    {CodeGroup::release,
     "Release checks of the audit (findings of `mapindex audit`, never stored; "
     "`image.unused` and `image.external_nonstandard` above are release checks too)"},
    {CodeGroup::tool, "Errors of commands (on standard error with the exit status; never stored)"},
};

std::string lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The codes with the string `typed`, compared without case (V6 and
// read.empty are two codes each).
std::vector<const CodeInfo*> codes_named(std::string_view typed) {
  std::vector<const CodeInfo*> found;
  for (const auto& c : code_table())
    if (lower(c.string) == lower(typed)) found.push_back(&c);
  return found;
}

// "did you mean 'H5'?" for a likely typo, or the codes that contain the text
// when they are few ("no_time_checkpoints"); "" when nothing is near.
std::string suggestion(std::string_view typed) {
  std::vector<std::string> strings;
  for (const auto& c : code_table())
    if (std::find(strings.begin(), strings.end(), lower(c.string)) == strings.end())
      strings.push_back(lower(c.string));
  std::string match;
  if (const auto close = closest_match(lower(typed), strings)) {
    match = *close;
  } else {
    std::vector<std::string> containing;
    for (const auto& s : strings)
      if (s.find(lower(typed)) != std::string::npos) containing.push_back(s);
    if (containing.empty() || containing.size() > 3) return "";
    std::string list;
    for (std::size_t i = 0; i < containing.size(); ++i)
      list += (i ? (i + 1 == containing.size() ? " or '" : ", '") : "'") +
              std::string(codes_named(containing[i]).front()->string) + "'";
    return "; did you mean " + list + "?";
  }
  return "; did you mean '" + std::string(codes_named(match).front()->string) + "'?";
}

std::string verdict(GameLoad g) { return g == GameLoad::none ? "" : std::string(to_string(g)); }

void print_code(std::ostream& out, const CodeInfo& c) {
  out << c.string << "  " << c.title << "\n";
  out << "  severity       " << to_string(c.severity) << "\n";
  out << "  scope          " << to_string(c.group);
  if (is_release_check(c.code) && c.group != CodeGroup::release)
    out << "; also a release check of the audit";
  out << "\n";
  if (c.ddnet != GameLoad::none) {
    out << "  DDNet          " << verdict(c.ddnet) << "\n";
    out << "  Teeworlds 0.6  " << verdict(c.teeworlds06) << "\n";
    out << "  Teeworlds 0.7  " << verdict(c.teeworlds07) << "\n";
  }
  out << "  meaning        " << c.meaning << "\n";
  out << "  hint           " << c.hint << "\n";
}

void print_list(std::ostream& out) {
  for (const auto& section : kSections) {
    std::size_t width = 0;
    for (const auto& c : code_table())
      if (c.group == section.group) width = std::max(width, c.string.size());
    out << (section.group == kSections[0].group ? "" : "\n") << to_string(section.group) << ":\n";
    for (const auto& c : code_table()) {
      if (c.group != section.group) continue;
      out << "  " << c.string << std::string(width - c.string.size() + 2, ' ')
          << to_string(c.severity) << std::string(9 - to_string(c.severity).size(), ' ') << c.title
          << "\n";
    }
  }
}

// A table cell: `|` would end it.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

void print_problem_codes_markdown(std::ostream& out) {
  bool first = true;
  for (const auto& section : kSections) {
    bool games = false;
    for (const auto& c : code_table())
      games = games || (c.group == section.group && c.ddnet != GameLoad::none);
    out << (first ? "" : "\n") << "### " << section.heading << "\n\n";
    first = false;
    out << (games ? "| code | severity | title | DDNet | Teeworlds 0.6 | Teeworlds 0.7 | meaning | "
                    "what to do |\n|---|---|---|---|---|---|---|---|\n"
                  : "| code | severity | title | meaning | what to do |\n|---|---|---|---|---|\n");
    for (const auto& c : code_table()) {
      if (c.group != section.group) continue;
      out << "| " << cell(c.string) << " | " << to_string(c.severity) << " | " << cell(c.title)
          << " | ";
      if (games)
        out << verdict(c.ddnet) << " | " << verdict(c.teeworlds06) << " | "
            << verdict(c.teeworlds07) << " | ";
      out << cell(c.meaning) << " | " << cell(c.hint) << " |\n";
    }
  }
}

int explain_command(const Args& args) {
  bool markdown = false;
  std::vector<std::string> codes;
  po::options_description opts(
      "Usage: mapindex explain [CODE...]\n"
      "       mapindex explain --markdown\n\n"
      "Says what a problem code means: its title, severity, scope, what DDNet and\n"
      "Teeworlds 0.6 and 0.7 do with such a map, its meaning and what to do about\n"
      "it. Without a CODE, lists every code with its title. The codes are those of\n"
      "the problems table, mapindex inspect, the index summary and the audit's\n"
      "release checks (race.no_time_checkpoints, ...); an index holds the same\n"
      "table as problem_codes. Case does not matter (h5 is H5).\n\nOptions");
  opts.add_options()("help,h", "show this help")(
      "markdown", po::bool_switch(&markdown),
      "print the tables of docs/problem-codes.md (the table as Markdown)");
  const auto vm = parse_command_args("explain", args, opts, &codes);
  if (!vm) return kExitUsage;
  if (vm->count("help")) {
    std::cout << opts << "\nExit status: 0 every CODE is known, 2 usage error (an unknown CODE).\n";
    return kExitOk;
  }
  if (markdown) {
    if (!codes.empty()) {
      std::cerr << "mapindex explain: --markdown prints every code: give no CODE with it\n";
      return kExitUsage;
    }
    print_problem_codes_markdown(std::cout);
    return kExitOk;
  }
  if (codes.empty()) {
    print_list(std::cout);
    return kExitOk;
  }
  // Every CODE is checked before anything is printed: a typo is one line.
  std::vector<const CodeInfo*> found;
  bool known = true;
  for (const auto& typed : codes) {
    const auto named = codes_named(typed);
    if (named.empty()) {
      std::cerr << "mapindex explain: unknown code '" << typed << "'" << suggestion(typed)
                << " (mapindex explain lists the codes)\n";
      known = false;
    }
    found.insert(found.end(), named.begin(), named.end());
  }
  if (!known) return kExitUsage;
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (i) std::cout << "\n";
    print_code(std::cout, *found[i]);
  }
  return kExitOk;
}

}  // namespace mapindex
