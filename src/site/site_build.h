// `mapindex site`: writes the static site of an index into a folder, and
// keeps it up to date incrementally. The folder's manifest (kManifestName)
// lists every file the site wrote with the SHA-256 of its bytes: a re-run
// writes only the files whose bytes changed, removes the files it wrote that
// no page needs any more, and refuses to replace a file it did not write.
// Every file is written atomically (src/common/file_write.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <sqlite3.h>

#include "common/result.h"
#include "site/site_html.h"

namespace mapindex::site {

inline constexpr const char* kManifestName = ".mapindex-site";

struct SiteOptions {
  std::string out_dir;
  std::string title = "Map archive";
  std::size_t max_page_bytes = kMaxPageBytes;
};

struct SiteStats {
  std::size_t files = 0;             // files of the site now
  std::size_t written = 0;           // of them, written by this run (new or changed)
  std::size_t removed = 0;           // files of an earlier run no page needs any more
  std::size_t entries = 0;           // current map entries listed
  std::size_t map_pages = 0;         // map pages (current contents and their versions)
  std::size_t minimaps_drawn = 0;    // maps read from their sources and drawn by this run
  std::size_t minimaps_missing = 0;  // map pages showing the stored thumbnail instead
};

// Error site.output naming the file and the reason (the folder cannot be
// made or written, a file there was not written by the site, the manifest is
// damaged). Throws sqlite::IndexError on a SQLite failure.
Result<SiteStats> build_site(sqlite3* db, const SiteOptions& options);

}  // namespace mapindex::site
