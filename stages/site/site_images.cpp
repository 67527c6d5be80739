#include "stages/site/site_images.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>

#include "stages/common/hex.h"
#include "stages/common/sha256.h"
#include "stages/extract/draw_map.h"
#include "stages/extract/teeworlds_measure.h"
#include "stages/read/source_reader.h"
#include "stages/render/png.h"

namespace mapindex::site {
namespace {

namespace fs = std::filesystem;

std::string sha256_hex(Bytes bytes) { return to_hex(sha256(bytes)); }

}  // namespace

Result<Minimaps> draw_minimaps(Bytes file) {
  // All layers and the physics only, in one measuring pass (a SpriteTile
  // level has one picture: it gets no physics-only minimap).
  const std::array<MapView, 2> views{
      MapView{.options = {.design_layers = true, .max_side = kMinimapSide}, .fallback = {}},
      MapView{.options = {.design_layers = false, .max_side = kMinimapSide}, .fallback = {}}};
  auto drawn = draw_map_views(file, views);
  if (!drawn) return drawn.error();
  Minimaps out;
  auto all = render::encode_png((*drawn)[0].image);
  if (!all) return all.error();
  out.all = std::move(*all);
  if (looks_like_datafile(file)) {
    auto physics = render::encode_png((*drawn)[1].image);
    if (!physics) return physics.error();
    out.physics = std::move(*physics);
  }
  out.width = (*drawn)[0].image.width;
  out.height = (*drawn)[0].image.height;
  out.factor = (*drawn)[0].tiles_per_pixel;
  return out;
}

std::map<std::string, std::string> read_contents(
    const std::map<std::string, std::vector<Place>>& wanted,
    const std::function<void(const std::string&, std::vector<std::uint8_t>)>& on_file) {
  std::map<std::string, std::string> why;  // not found yet: the latest reason
  std::set<std::string> found;
  // source -> entry path -> the contents wanted there
  std::map<std::string, std::map<std::string, std::set<std::string>>> by_source;
  std::map<std::string, std::string> kinds;
  for (const auto& [sha, places] : wanted) {
    why[sha] = "it is in no source that the latest runs read";
    for (const auto& place : places) {
      by_source[place.source][place.entry_path].insert(sha);
      kinds[place.source] = place.source_kind;
    }
  }
  const auto take = [&](const std::string& sha, std::vector<std::uint8_t> bytes) {
    found.insert(sha);
    why.erase(sha);
    on_file(sha, std::move(bytes));
  };
  for (auto& [source, entries] : by_source) {
    const std::string& kind = kinds[source];
    // Drop the entries whose contents are all found already.
    const auto still_wanted = [&](const std::set<std::string>& shas) {
      for (const auto& s : shas)
        if (!found.count(s)) return true;
      return false;
    };
    std::error_code ec;
    if (kind == "stdin" || source == "-") {
      for (const auto& [path, shas] : entries)
        for (const auto& s : shas)
          if (!found.count(s)) why[s] = "it was read from standard input";
      continue;
    }
    if (!fs::exists(source, ec)) {
      for (const auto& [path, shas] : entries)
        for (const auto& s : shas)
          if (!found.count(s)) why[s] = "its source " + source + " is not there any more";
      continue;
    }
    // A folder's files are read directly; what is not found so (an entry of
    // an archive inside the folder) is looked for by reading the folder.
    if (kind == "folder") {
      for (auto it = entries.begin(); it != entries.end();) {
        const fs::path file = fs::path(source) / it->first;
        if (!still_wanted(it->second)) {
          it = entries.erase(it);
          continue;
        }
        if (fs::is_regular_file(file, ec)) {
          std::ifstream in(file, std::ios::binary);
          std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                          std::istreambuf_iterator<char>());
          const auto sha = sha256_hex(bytes);
          if (it->second.count(sha) && !found.count(sha)) {
            take(sha, std::move(bytes));
          } else {
            for (const auto& s : it->second)
              if (!found.count(s)) why[s] = "the file at its entry has changed since";
          }
          it = entries.erase(it);
          continue;
        }
        ++it;
      }
    }
    bool any = false;
    for (const auto& [path, shas] : entries) any = any || still_wanted(shas);
    if (!any) continue;
    read::SourceReader reader({source});
    std::size_t left = entries.size();
    while (left > 0) {
      auto entry = reader.next();
      if (!entry) break;
      const auto at = entries.find(entry->path);
      if (at == entries.end()) continue;
      --left;
      if (entry->kind != read::ReadOutcome::file) {
        for (const auto& s : at->second)
          if (!found.count(s)) why[s] = "its entry cannot be read: " + entry->error.to_string();
        continue;
      }
      std::vector<std::uint8_t> bytes = entry->bytes.release();
      const auto sha = sha256_hex(bytes);
      if (at->second.count(sha) && !found.count(sha)) {
        take(sha, std::move(bytes));
      } else {
        for (const auto& s : at->second)
          if (!found.count(s)) why[s] = "the file at its entry has changed since";
      }
    }
    for (const auto& [path, shas] : entries)
      for (const auto& s : shas)
        if (!found.count(s) && why[s].rfind("it is in no source", 0) == 0)
          why[s] = "its source " + source + " has no entry " + path + " any more";
  }
  return why;
}

}  // namespace mapindex::site
