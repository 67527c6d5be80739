// The pages of the static site (`mapindex site`): the list of current map
// entries (index.html, paged), one page per map content, the problems by
// code, and maps.json. Pure functions of what site_data.h reads: the same
// index gives the same bytes, so a re-run can tell which pages changed. Every
// text from a map is escaped (src/common/html.h); pages load nothing from
// outside the site's folder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "site/site_data.h"

namespace mapindex::site {

// The largest list page: rows go to further pages (index-2.html, ...) so
// that no page is over this.
inline constexpr std::size_t kMaxPageBytes = 1800 * 1024;

// The site's files, by path under the site's folder.
inline std::string map_page_path(const std::string& sha256) { return "maps/" + sha256 + ".html"; }
inline std::string thumbnail_path(const std::string& sha256) { return "thumbs/" + sha256 + ".png"; }
inline std::string minimap_path(const std::string& sha256, bool physics) {
  return "minimaps/" + sha256 + (physics ? "-physics.png" : "-all.png");
}

// What a map page shows as its minimap.
struct MinimapInfo {
  bool drawn = false;  // minimap_path() files exist (the physics one when has_physics)
  bool has_physics = false;
  std::int32_t width = 0, height = 0, factor = 1;
  std::string why_not;  // when not drawn: why the map's own bytes were not had
};

struct File {
  std::string path;  // under the site's folder
  std::string bytes;
};

// index.html, index-2.html, ...: every current entry, at most kMaxPageBytes a
// page (`max_page_bytes` for tests).
std::vector<File> list_pages(const SiteData& data, const std::string& title,
                             std::size_t max_page_bytes = kMaxPageBytes);
std::string map_page(const MapPage& page, const MinimapInfo& minimap, const std::string& title);
std::string problems_page(const SiteData& data, const std::string& title);
std::string maps_json(const SiteData& data, const std::string& title);

}  // namespace mapindex::site
