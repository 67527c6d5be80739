#include "tests/support/browser.h"

#include <cstdlib>

namespace fs = std::filesystem;

namespace mapindex::testing {

std::string chromium() {
  for (const char* path : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (fs::exists(path)) return path;
  return "";
}

bool browser_required() {
  const char* required = std::getenv("MAPINDEX_REQUIRE_BROWSER");
  return required && *required && std::string(required) != "0";
}

ProcessResult run_chromium(const std::string& browser, const fs::path& profile,
                           const fs::path& page, const std::vector<std::string>& extra,
                           const std::string& fragment) {
  std::vector<std::string> args = {"-k",
                                   "5",
                                   "20",
                                   browser,
                                   "--headless",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--disable-dev-shm-usage",
                                   "--no-first-run",
                                   "--no-default-browser-check",
                                   "--disable-extensions",
                                   "--hide-scrollbars",
                                   "--mute-audio",
                                   "--user-data-dir=" + profile.string(),
                                   "--virtual-time-budget=5000"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("file://" + page.string() + fragment);
  return run_process("/usr/bin/timeout", args);
}

}  // namespace mapindex::testing
