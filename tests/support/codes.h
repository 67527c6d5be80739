// Problem codes and locations in tests: doctest prints them as their stored
// text, and test files name codes as Code::X.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "common/problem.h"

namespace doctest {
template <>
struct StringMaker<mapindex::Code> {
  static String convert(mapindex::Code code) {
    return std::string(mapindex::to_string(code)).c_str();
  }
};
template <>
struct StringMaker<mapindex::Location> {
  static String convert(const mapindex::Location& l) {
    return ("\"" + mapindex::to_string(l) + "\"").c_str();
  }
};
}  // namespace doctest

using mapindex::Code;
using mapindex::Location;
