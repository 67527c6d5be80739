// The test runner: doctest's, except that a run in which a test had to skip
// (the real-map corpus is absent) exits 77, so CTest (SKIP_RETURN_CODE 77)
// reports that test as skipped instead of passed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "stages/read/libarchive_reader.h"
#include "tests/support/corpus.h"

int main(int argc, char** argv) {
  mapindex::read::use_utf8_names();  // as mapindex's main() does
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return result;
  if (result == 0 && mapindex::testing::corpus_tests_skipped()) return 77;
  return result;
}
