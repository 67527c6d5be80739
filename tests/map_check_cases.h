// The map checks' fixtures (tests/test_map_checks.cpp): one broken map per
// case, from a clean map with one thing broken, with the problem it must give.
// tests/test_problem_code_fixtures.cpp runs them too, to find every code of the
// code table triggered.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/problem.h"

namespace mapindex::testing {

struct MapCheckCase {
  const char* name;
  std::string code;  // the stored string
  Severity severity;
  std::string location;  // as stored
  std::function<std::vector<std::uint8_t>()> make;
};

std::vector<MapCheckCase> map_check_cases();

}  // namespace mapindex::testing
