// The test runner: doctest's, except that
// - a run in which a test had to skip (the real-map corpus is absent) exits 77,
//   so CTest (SKIP_RETURN_CODE 77) reports that test as skipped instead of passed;
// - each test may reach only what its kind allows (tests/support/test_kind.h):
//   a unit test that starts a process or reads the corpus fails;
// - `--list-test-cases --reporters=ctest` prints the CTest script that
//   tests/discover_tests.cmake installs, and exits 1 when a name breaks the
//   naming rule.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include "read/libarchive_reader.h"
#include "tests/support/corpus.h"
#include "tests/support/test_kind.h"

namespace {

using mapindex::testing::kind_of;
using mapindex::testing::name_problem;
using mapindex::testing::to_string;

// Does nothing but tell the kind guard which test runs.
struct KindListener : doctest::IReporter {
  explicit KindListener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData& tc) override {
    mapindex::testing::set_running_test(tc.m_name);
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {
    mapindex::testing::clear_running_test();
  }
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("kind", 1, KindListener);

bool g_bad_names = false;

// A CMake bracket argument holding `text`.
std::string bracket(std::string_view text) {
  std::string eq;
  while (text.find("]" + eq + "]") != std::string_view::npos) eq += "=";
  return "[" + eq + "[" + std::string(text) + "]" + eq + "]";
}

// One line per test case for CTest: mapindex_test(NAME FILTER KIND), a function
// that tests/discover_tests.cmake defines. Commas are escaped for doctest's
// --test-case filter. Names breaking the naming rule go to standard error.
struct CtestReporter : doctest::IReporter {
  explicit CtestReporter(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData& query) override {
    for (unsigned i = 0; i < query.num_data; ++i) {
      const doctest::TestCaseData& tc = *query.data[i];
      if (tc.m_skip) continue;  // run only when asked for (--no-skip)
      const std::string name = tc.m_name;
      if (const auto problem = name_problem(name, tc.m_test_suite); !problem.empty()) {
        std::cerr << tc.m_file.c_str() << ":" << tc.m_line << ": " << problem << "\n";
        g_bad_names = true;
      }
      std::string filter;
      for (const char c : name) {
        if (c == ',') filter += '\\';
        filter += c;
      }
      std::cout << "mapindex_test(" << bracket(name) << " " << bracket(filter) << " "
                << to_string(kind_of(name)) << ")\n";
    }
  }
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_REPORTER("ctest", 1, CtestReporter);

// A test that forks by itself (not through tests/support/process.h) is held to
// its kind too: there is no exception to throw here, so it aborts.
void refuse_fork_outside_kind() {
  if (mapindex::testing::processes_allowed()) return;
  const std::string message = mapindex::testing::processes_refusal("fork()");
  std::fprintf(stderr, "%s\n", message.c_str());
  std::abort();
}

}  // namespace

int main(int argc, char** argv) {
  mapindex::read::use_utf8_names();  // as mapindex's main() does
  pthread_atfork(refuse_fork_outside_kind, nullptr, nullptr);
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return g_bad_names ? 1 : result;
  if (result == 0 && mapindex::testing::corpus_tests_skipped()) return 77;
  return result;
}
