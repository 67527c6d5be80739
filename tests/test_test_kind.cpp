// The test kinds (tests/support/test_kind.h): what a name declares, the naming
// rule, and that a test cannot do what its kind does not allow.
#include <doctest/doctest.h>

#include <unistd.h>

#include <csignal>

#include <stdexcept>
#include <string>

#include "tests/support/corpus.h"
#include "tests/support/process.h"
#include "tests/support/test_kind.h"

using namespace mapindex::testing;

TEST_SUITE("tests") {
  TEST_CASE("tests: a name's kind is the last word before its first colon") {
    CHECK(kind_of("read: archives inside archives") == TestKind::unit);
    CHECK(kind_of("read zip members: the same entries") == TestKind::unit);
    CHECK(kind_of("read zip members slow: damaged at every byte") == TestKind::slow);
    CHECK(kind_of("cli e2e: usage errors exit 2") == TestKind::e2e);
    CHECK(kind_of("audit html tool: headless Chromium") == TestKind::tool);
    CHECK(kind_of("map corpus: every map: measured") == TestKind::corpus);
    CHECK(kind_of("map: corpus: after the first colon") == TestKind::unit);
    CHECK(kind_of("no prefix at all e2e") == TestKind::unit);
    CHECK(to_string(TestKind::corpus) == "corpus");
  }

  TEST_CASE("tests: a name starts with its suite, its kind last") {
    CHECK(name_problem("read: x", "read") == "");
    CHECK(name_problem("read zip members slow: x", "read") == "");
    CHECK(name_problem("zero inflate corpus: x", "zero inflate") == "");
    CHECK(name_problem("reader: x", "read").find("does not start with its component") !=
          std::string::npos);
    CHECK(name_problem("archives are read", "read").find("does not start with its component") !=
          std::string::npos);
    CHECK(name_problem("zip members: x", "read").find("does not start with its component") !=
          std::string::npos);
    CHECK(name_problem("read: x", "").find("is in no doctest suite") != std::string::npos);
    CHECK(name_problem("read e2e zip: x", "read").find("must be the last word") !=
          std::string::npos);
    CHECK(name_problem("read: ", "read").find("says nothing") != std::string::npos);
    CHECK(name_problem("x corpus: y", "x corpus").find("ends in a kind word") != std::string::npos);
  }

  TEST_CASE("tests: a unit test that starts a process or reads the corpus fails") {
    CHECK_THROWS_WITH_AS(run_process("/bin/true", {}),
                         "test \"tests: a unit test that starts a process or reads the corpus "
                         "fails\" (kind unit) may not start a process (/bin/true): name it "
                         "\"tests e2e: ...\" (see tests/support/test_kind.h)",
                         std::logic_error);
    CHECK_THROWS_WITH_AS(corpus_files("maps", ".map"),
                         doctest::Contains("may not read the corpus (../shared/corpus/maps): name "
                                           "it \"tests corpus: ...\""),
                         std::logic_error);
  }

  TEST_CASE("tests e2e: an e2e test starts processes but does not read the corpus") {
    CHECK(run_process("/bin/true", {}).exit_code == 0);
    CHECK_THROWS_WITH_AS(corpus_dir("spritetile"),
                         doctest::Contains("(kind e2e) may not read the corpus"), std::logic_error);
  }

  TEST_CASE("tests corpus: a corpus test reads the corpus and starts processes") {
    CHECK_NOTHROW(corpus_dir("maps"));
    CHECK(run_process("/bin/true", {}).exit_code == 0);
  }

  // Run only by the next test, which expects it to be stopped.
  TEST_CASE("tests: a unit test that forks by itself is stopped" * doctest::skip()) {
    if (::fork() == 0) ::_exit(0);
  }

  TEST_CASE("tests e2e: a unit test that forks by itself is stopped, naming the rename") {
    const auto r = run_process("/proc/self/exe", {"--no-skip",
                                                  "--test-case=tests: a unit test "
                                                  "that forks by itself is stopped"});
    CHECK(r.exit_code == 128 + SIGABRT);
    CHECK_MESSAGE(contains(r.err,
                           "(kind unit) may not start a process (fork()): name it \"tests "
                           "e2e: ...\""),
                  r.err);
  }

}  // TEST_SUITE
