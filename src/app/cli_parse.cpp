#include "app/cli_parse.h"

#include <algorithm>
#include <charconv>
#include <iostream>

#include "sqlite/database.h"

namespace mapindex {
namespace po = boost::program_options;

std::optional<po::variables_map> parse_command_args(const std::string& command, const Args& args,
                                                    const po::options_description& options,
                                                    std::vector<std::string>* positional,
                                                    const po::options_description* hidden) {
  po::options_description all;
  all.add(options);
  if (hidden) all.add(*hidden);
  po::positional_options_description pos;
  if (positional) {
    all.add_options()("positional-args", po::value(positional));
    pos.add("positional-args", -1);
  }
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "mapindex " << command << ": " << e.what() << " (see mapindex " << command
              << " --help)\n";
    return std::nullopt;
  }
  return vm;
}

int exit_status_for(const Error& error) {
  if (error.code == Code::index_damaged || error.code == Code::index_locked ||
      error.code == Code::index_io || error.code == Code::index_failed)
    return kExitIndex;
  if (error.code == Code::query_interrupted) return kExitInterrupted;
  if (error.code == Code::internal) return kExitInternal;
  return kExitUsage;
}

int run_guarded(const std::string& command, const std::function<int()>& run) {
  try {
    return run();
  } catch (const sqlite::IndexError& e) {
    // The index failed under a command (damage, I/O error, disk full, lock).
    std::string message = e.what();
    if (!e.file().empty() && message.find(e.file()) == std::string::npos)
      message = "index '" + e.file() + "': " + message;
    std::cerr << "mapindex " << command << ": " << message << "\n";
    return exit_status_for(
        Error{e.code() == Code::index_sql ? Code::index_failed : e.code(), message});
  } catch (const std::exception& e) {
    std::cerr << "mapindex " << command << ": internal error: " << e.what()
              << " (a bug in mapindex: please report it)\n";
    return kExitInternal;
  } catch (...) {
    std::cerr << "mapindex " << command << ": internal error: unknown exception"
              << " (a bug in mapindex: please report it)\n";
    return kExitInternal;
  }
}

std::optional<std::int64_t> parse_whole_number(std::string_view text) {
  std::int64_t value = 0;
  const char* const end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest_match(std::string_view typed,
                                         const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 3;  // at most 2 edits
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(typed, candidate);
    if (d < best_distance && d < candidate.size()) {
      best = candidate;
      best_distance = d;
    }
  }
  return best;
}

std::string shell_word(std::string_view word, bool double_quotes) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789_-./:+,=@%") == std::string_view::npos;
  if (plain) return std::string(word);
  std::string out;
  if (double_quotes && word.find_first_of("$`\\\"!") == std::string_view::npos) {
    out += '"';
    out += word;
    out += '"';
    return out;
  }
  out += '\'';
  for (const char c : word) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += '\'';
  return out;
}

std::string range_text(std::int64_t min, std::int64_t max) {
  if (max == std::numeric_limits<std::int64_t>::max()) return std::to_string(min) + " or more";
  return std::to_string(min) + ".." + std::to_string(max);
}

void add_number_option(po::options_description& options, const std::string& name, std::int64_t min,
                       std::int64_t max, std::optional<std::int64_t> default_value,
                       std::function<void(std::int64_t)> store, const std::string& help,
                       const std::string& value_name) {
  const std::string long_name = "--" + name.substr(0, name.find(','));
  const std::string range = range_text(min, max);
  auto* value = po::value<std::string>()
                    ->value_name(value_name)
                    ->notifier([long_name, range, min, max, store](const std::string& text) {
                      const auto number = parse_whole_number(text);
                      if (!number || *number < min || *number > max)
                        throw po::error(long_name + " must be a whole number in " + range +
                                        ", not '" + text + "'");
                      store(*number);
                    });
  if (default_value) value->default_value(std::to_string(*default_value));
  options.add_options()(name.c_str(), value, (help + " (range " + range + ")").c_str());
}

void add_game_option(po::options_description& options, Game* target) {
  auto* value = po::value<std::string>()->value_name("GAME")->default_value("ddnet")->notifier(
      [target](const std::string& text) {
        const auto game = parse_game(text);
        if (!game) throw po::error("--game must be ddnet or teeworlds, not '" + text + "'");
        *target = *game;
      });
  options.add_options()(
      "game", value,
      "the game the maps are for: ddnet (a map is rejected when DDNet refuses it) or teeworlds "
      "(rejected only when neither Teeworlds 0.6 nor 0.7 loads it; see docs/guide.md, \"Games\")");
}

}  // namespace mapindex
