// Headless Chromium for the tests of HTML pages (the audit's report, the
// static site): where it is, whether a test must have it, and one run of it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace mapindex::testing {

// Headless Chromium's path, or "" (the test then skips, or fails with
// MAPINDEX_REQUIRE_BROWSER=1).
std::string chromium();

// Whether MAPINDEX_REQUIRE_BROWSER is set (not empty, not 0).
bool browser_required();

// Runs Chromium headless on the file `page` (with `fragment`, e.g. "#q=x",
// after its URL) with `extra` (--dump-dom, --screenshot=...), killed after
// 20 s (timeout from coreutils).
ProcessResult run_chromium(const std::string& browser, const std::filesystem::path& profile,
                           const std::filesystem::path& page, const std::vector<std::string>& extra,
                           const std::string& fragment = "");

}  // namespace mapindex::testing
