// Parsing a subcommand's arguments with Boost.Program_options, the same way
// for every command: options, then positional arguments, and a usage error
// that names the command.
#pragma once

#include <boost/program_options.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/commands.h"
#include "extract/game_verdict.h"

namespace mapindex {

// Parses `args` against `options`. Positional arguments go to `positional`
// (none are accepted when it is null). On a usage error prints
// "mapindex COMMAND: <what> (see mapindex COMMAND --help)" and returns
// nullopt: the caller exits with kExitUsage. `hidden` options are accepted
// but not in `options`, which --help prints (developer switches).
std::optional<boost::program_options::variables_map> parse_command_args(
    const std::string& command, const Args& args,
    const boost::program_options::options_description& options,
    std::vector<std::string>* positional = nullptr,
    const boost::program_options::options_description* hidden = nullptr);

// A whole decimal number ("12", "-3"; not "12x", "", "+1", " 1", "1e3"), or
// nullopt.
std::optional<std::int64_t> parse_whole_number(std::string_view text);

// The Levenshtein distance between `a` and `b` (insertions, deletions and
// substitutions of single bytes, each costing 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `typed` when it is a likely typo of it (at most 2
// edits, and fewer edits than the candidate's length), else nullopt. Ties go
// to the earlier candidate.
std::optional<std::string> closest_match(std::string_view typed,
                                         const std::vector<std::string>& candidates);

// `word` as one word of a POSIX shell command line, for commands printed for
// the user to run: as it is when it holds only characters no shell treats
// specially, else in single quotes (a single quote in it written '\''). With
// `double_quotes`, a word with none of $ ` \ " ! goes in double quotes
// instead: SQL, with its single quotes, reads better so.
std::string shell_word(std::string_view word, bool double_quotes = false);

// "0..256", or "1 or more" when `max` is the largest int64.
std::string range_text(std::int64_t min, std::int64_t max);

// Adds the numeric option `name` ("threads,j") to `options`: the one place
// numeric options are parsed and range-checked. A value that is not a whole
// number or lies outside [min, max] is a usage error naming the option, the
// value and the range ("--threads must be a whole number in 0..256, not
// '-1'"); the help text gets " (range MIN..MAX)" appended. `store` receives
// the checked value (the default too, when `default_value` is set); the help
// names the value `value_name` ("--memory MB (=1024)").
void add_number_option(boost::program_options::options_description& options,
                       const std::string& name, std::int64_t min, std::int64_t max,
                       std::optional<std::int64_t> default_value,
                       std::function<void(std::int64_t)> store, const std::string& help,
                       const std::string& value_name = "N");

// Typed front ends: the default is *target's current value.
template <class T>
void add_number_option(boost::program_options::options_description& options,
                       const std::string& name, T* target, T min, T max, const std::string& help,
                       const std::string& value_name = "N") {
  static_assert(std::numeric_limits<T>::is_integer);
  add_number_option(
      options, name, static_cast<std::int64_t>(min), static_cast<std::int64_t>(max),
      static_cast<std::int64_t>(*target), [target](std::int64_t v) { *target = static_cast<T>(v); },
      help, value_name);
}

// An optional number without a default: *target stays nullopt unless given.
template <class T>
void add_number_option(boost::program_options::options_description& options,
                       const std::string& name, std::optional<T>* target, T min, T max,
                       const std::string& help) {
  static_assert(std::numeric_limits<T>::is_integer);
  add_number_option(
      options, name, static_cast<std::int64_t>(min), static_cast<std::int64_t>(max), std::nullopt,
      [target](std::int64_t v) { *target = static_cast<T>(v); }, help);
}

// Adds `--game ddnet|teeworlds` (default ddnet): whose verdict on the maps the
// command speaks of. Another value is a usage error naming the choices.
void add_game_option(boost::program_options::options_description& options, Game* target);

}  // namespace mapindex
