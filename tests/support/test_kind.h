// A test's kind, read from its name, and what a test of that kind may reach
// beyond its own process. A name is "<component>[ <detail>...][ <kind>]: <what
// it checks>": the component is the test's doctest suite, and the last word
// before the first ": " is its kind if it is one of e2e, corpus, tool, slow
// (none: unit). CTest labels each test with its kind (tests/discover_tests.cmake).
#pragma once

#include <string>
#include <string_view>

namespace mapindex::testing {

enum class TestKind {
  unit,    // in-process, quick: no child process, no corpus
  slow,    // as unit, but too slow for the quick loop
  e2e,     // may start processes: the mapindex binary, a forked writer, other programs
  tool,    // may start processes: external tools (a browser, clang-format, cmake --install)
  corpus,  // may read ../shared/corpus, and start processes
};

std::string_view to_string(TestKind kind);

// The kind that `name` declares (unit when its prefix ends in no kind word).
TestKind kind_of(std::string_view name);

// Why `name` breaks the naming rule for a test of doctest suite `suite`, or
// "" when it keeps it.
std::string name_problem(std::string_view name, std::string_view suite);

// The test that runs now, set by the test runner (tests/test_main.cpp) when a
// test case starts and cleared when it ends. With no test running (fixtures
// built by other programs), everything is allowed.
void set_running_test(std::string_view name);
void clear_running_test();

// Throw std::logic_error naming the test, its kind and the rename that would
// allow it, unless the running test's kind may start `program` / read the
// corpus folder `sub`.
void require_processes_allowed(std::string_view program);
void require_corpus_allowed(std::string_view sub);

// For a raw fork(): whether the running test may start processes, and the
// message when it may not.
bool processes_allowed();
std::string processes_refusal(std::string_view what);

}  // namespace mapindex::testing
