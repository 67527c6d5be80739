// `mapindex explain`: the program's code table (src/common/problem_codes.h)
// for people. Expected text is built from the table's fields, not copied from
// the output.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "common/problem_codes.h"
#include "tests/support/process.h"

using namespace mapindex;
using namespace mapindex::testing;

namespace {}  // namespace

TEST_SUITE("explain") {
  TEST_CASE("explain e2e: a code's whole row, every code, and a suggestion on a typo") {
    const auto m14 = run_mapindex({"explain", "M14"});
    INFO(m14.err);
    CHECK(m14.exit_code == 0);
    const auto& c = info(Code::M14);
    CHECK(lines_of(m14.out).front() == "M14  " + std::string(c.title));
    for (const auto& part :
         {std::string("  severity       error"), std::string("  DDNet          refuses"),
          "  meaning        " + std::string(c.meaning), "  hint           " + std::string(c.hint)})
      CHECK(has_line(m14.out, part));

    // Case does not matter; a string of two codes prints both.
    CHECK(run_mapindex({"explain", "h5"}).out == run_mapindex({"explain", "H5"}).out);
    CHECK(count_lines_containing(run_mapindex({"explain", "V6"}).out, "  severity ") == 2);
    const auto rule = run_mapindex({"explain", "race.no_time_checkpoints"});
    CHECK(has_line(rule.out, "  scope          release check"));
    CHECK(has_line(run_mapindex({"explain", "image.unused"}).out,
                   "  scope          check; also a release check of the audit"));

    // Every code, each on a line with its title.
    const auto all = run_mapindex({"explain"});
    CHECK(all.exit_code == 0);
    for (const auto& code : code_table()) {
      INFO(code.string);
      CHECK(count_lines_containing(all.out, " " + std::string(code.string) + " ") >= 1);
      CHECK(contains(all.out, std::string(code.title) + "\n"));
    }

    // An unknown code is a usage error with a suggestion.
    const auto typo = run_mapindex({"explain", "H55"});
    CHECK(typo.exit_code == 2);
    CHECK(typo.out.empty());
    CHECK(typo.err ==
          "mapindex explain: unknown code 'H55'; did you mean 'H5'? (mapindex explain lists the "
          "codes)\n");
    const auto part = run_mapindex({"explain", "no_time_checkpoints"});
    CHECK(part.exit_code == 2);
    CHECK(contains(part.err, "did you mean 'race.no_time_checkpoints'?"));
    const auto far = run_mapindex({"explain", "M14", "zzzzzz"});
    CHECK(far.exit_code == 2);
    CHECK(far.out.empty());  // nothing printed when one CODE is unknown
    CHECK(far.err ==
          "mapindex explain: unknown code 'zzzzzz' (mapindex explain lists the codes)\n");
  }
}
