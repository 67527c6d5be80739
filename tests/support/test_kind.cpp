#include "tests/support/test_kind.h"

#include <array>
#include <atomic>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

namespace mapindex::testing {
namespace {

constexpr std::array<std::pair<std::string_view, TestKind>, 4> kKindWords = {{
    {"slow", TestKind::slow},
    {"e2e", TestKind::e2e},
    {"tool", TestKind::tool},
    {"corpus", TestKind::corpus},
}};

std::optional<TestKind> kind_word(std::string_view word) {
  for (const auto& [w, kind] : kKindWords)
    if (w == word) return kind;
  return std::nullopt;
}

// The part of `name` before its first ": " (none when it has no such part).
std::optional<std::string_view> prefix_of(std::string_view name) {
  const auto colon = name.find(": ");
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  return name.substr(0, colon);
}

std::string_view last_word(std::string_view text) {
  const auto space = text.rfind(' ');
  return space == std::string_view::npos ? text : text.substr(space + 1);
}

// The prefix with `kind`'s word in place of its own (unit: none).
std::string prefix_for(std::string_view name, TestKind kind) {
  std::string prefix(prefix_of(name).value_or(name));
  if (kind_word(last_word(prefix))) prefix.erase(prefix.rfind(' '));
  if (kind != TestKind::unit) prefix += " " + std::string(to_string(kind));
  return prefix;
}

std::mutex g_mutex;
std::string g_name;            // guarded by g_mutex
std::atomic<int> g_kind = -1;  // a TestKind, or -1: no test runs

std::string refusal(std::string_view what, TestKind needed) {
  std::lock_guard lock(g_mutex);
  const auto kind = static_cast<TestKind>(g_kind.load());
  return "test \"" + g_name + "\" (kind " + std::string(to_string(kind)) + ") may not " +
         std::string(what) + ": name it \"" + prefix_for(g_name, needed) +
         ": ...\" (see tests/support/test_kind.h)";
}

}  // namespace

std::string_view to_string(TestKind kind) {
  switch (kind) {
    case TestKind::unit: return "unit";
    case TestKind::slow: return "slow";
    case TestKind::e2e: return "e2e";
    case TestKind::tool: return "tool";
    case TestKind::corpus: return "corpus";
  }
  return "unit";
}

TestKind kind_of(std::string_view name) {
  const auto prefix = prefix_of(name);
  if (!prefix) return TestKind::unit;
  return kind_word(last_word(*prefix)).value_or(TestKind::unit);
}

std::string name_problem(std::string_view name, std::string_view suite) {
  const std::string quoted = "test \"" + std::string(name) + "\"";
  if (suite.empty())
    return quoted + " is in no doctest suite: put it in TEST_SUITE(\"<component>\")";
  if (kind_word(last_word(suite)))
    return "doctest suite \"" + std::string(suite) + "\" ends in a kind word";
  const auto prefix = prefix_of(name);
  const bool starts_with_suite = prefix && prefix->substr(0, suite.size()) == suite &&
                                 (prefix->size() == suite.size() || (*prefix)[suite.size()] == ' ');
  if (!starts_with_suite)
    return quoted + " does not start with its component, \"" + std::string(suite) + ": \" (or \"" +
           std::string(suite) + " <detail>: \")";
  if (prefix->size() == name.size() - 2) return quoted + " says nothing after its prefix";
  std::string_view rest = prefix->substr(suite.size());
  while (!rest.empty()) {
    rest.remove_prefix(1);  // the space
    const auto word = rest.substr(0, rest.find(' '));
    rest.remove_prefix(word.size());
    if (kind_word(word) && !rest.empty())
      return quoted + ": the kind \"" + std::string(word) +
             "\" must be the last word before the first \": \"";
  }
  return "";
}

void set_running_test(std::string_view name) {
  std::lock_guard lock(g_mutex);
  g_name = name;
  g_kind = static_cast<int>(kind_of(name));
}

void clear_running_test() {
  std::lock_guard lock(g_mutex);
  g_name.clear();
  g_kind = -1;
}

bool processes_allowed() {
  const int kind = g_kind.load();
  return kind < 0 || (static_cast<TestKind>(kind) != TestKind::unit &&
                      static_cast<TestKind>(kind) != TestKind::slow);
}

std::string processes_refusal(std::string_view what) {
  return refusal("start a process (" + std::string(what) + ")", TestKind::e2e);
}

void require_processes_allowed(std::string_view program) {
  if (!processes_allowed()) throw std::logic_error(processes_refusal(program));
}

void require_corpus_allowed(std::string_view sub) {
  const int kind = g_kind.load();
  if (kind >= 0 && static_cast<TestKind>(kind) != TestKind::corpus)
    throw std::logic_error(
        refusal("read the corpus (../shared/corpus/" + std::string(sub) + ")", TestKind::corpus));
}

}  // namespace mapindex::testing
