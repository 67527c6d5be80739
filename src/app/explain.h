// What `mapindex explain` prints, for the tests that check the docs against it.
#pragma once

#include <ostream>

namespace mapindex {

// The tables of docs/problem-codes.md (`mapindex explain --markdown`): one
// per group of the code table (src/common/problem_codes.h), every code
// with its severity, title, verdicts, meaning and hint.
void print_problem_codes_markdown(std::ostream& out);

}  // namespace mapindex
