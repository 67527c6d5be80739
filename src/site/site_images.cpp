#include "site/site_images.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>

#include "common/hex.h"
#include "common/sha256.h"
#include "extract/draw_map.h"
#include "extract/teeworlds_measure.h"
#include "read/source_reader.h"
#include "render/png.h"

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

namespace {

using Entries = std::map<std::string, std::set<std::string>>;  // entry path -> contents there

// The search for the wanted contents, one source at a time: what is found,
// and for each content not found yet the latest reason.
class ContentSearch {
 public:
  using OnFile = std::function<void(const std::string&, std::vector<std::uint8_t>)>;
  explicit ContentSearch(const OnFile& on_file) : on_file_(on_file) {}

  std::map<std::string, std::string> why;  // not found yet: the latest reason

  // Gives the contents of `shas` not found yet the reason `reason`.
  void explain(const std::set<std::string>& shas, const std::string& reason) {
    for (const auto& s : shas)
      if (!found_.count(s)) why[s] = reason;
  }
  void explain_all(const Entries& entries, const std::string& reason) {
    for (const auto& [path, shas] : entries) explain(shas, reason);
  }
  bool found(const std::string& sha) const { return found_.count(sha) > 0; }
  bool still_wanted(const std::set<std::string>& shas) const {
    for (const auto& s : shas)
      if (!found_.count(s)) return true;
    return false;
  }
  // The bytes now at an entry where `shas` were seen: taken when they are
  // one of them and not found yet.
  void offer(const std::set<std::string>& shas, std::vector<std::uint8_t> bytes) {
    const auto sha = sha256_hex(bytes);
    if (shas.count(sha) && !found_.count(sha)) {
      found_.insert(sha);
      why.erase(sha);
      on_file_(sha, std::move(bytes));
    } else {
      explain(shas, "the file at its entry has changed since");
    }
  }
  // A folder's files are read directly, and their entries dropped; what is
  // not found so (an entry of an archive inside the folder) stays.
  void read_folder_files(const std::string& folder, Entries& entries) {
    std::error_code ec;
    for (auto it = entries.begin(); it != entries.end();) {
      const fs::path file = fs::path(folder) / it->first;
      if (!still_wanted(it->second)) {
        it = entries.erase(it);
        continue;
      }
      if (fs::is_regular_file(file, ec)) {
        std::ifstream in(file, std::ios::binary);
        offer(it->second, std::vector<std::uint8_t>((std::istreambuf_iterator<char>(in)),
                                                    std::istreambuf_iterator<char>()));
        it = entries.erase(it);
        continue;
      }
      ++it;
    }
  }
  // Reads the source through src/read until every entry is seen.
  void read_source(const std::string& source, const Entries& entries) {
    read::SourceReader reader({source});
    std::size_t left = entries.size();
    while (left > 0) {
      auto entry = reader.next();
      if (!entry) break;
      const auto at = entries.find(entry->path);
      if (at == entries.end()) continue;
      --left;
      if (entry->kind != read::ReadOutcome::file)
        explain(at->second, "its entry cannot be read: " + entry->error.to_string());
      else
        offer(at->second, entry->bytes.release());
    }
  }

 private:
  const OnFile& on_file_;
  std::set<std::string> found_;
};

}  // namespace

std::map<std::string, std::string> read_contents(
    const std::map<std::string, std::vector<Place>>& wanted,
    const std::function<void(const std::string&, std::vector<std::uint8_t>)>& on_file) {
  ContentSearch search(on_file);
  std::map<std::string, Entries> by_source;
  std::map<std::string, std::string> kinds;
  constexpr std::string_view kNoSource = "it is in no source that the latest runs read";
  for (const auto& [sha, places] : wanted) {
    search.why[sha] = kNoSource;
    for (const auto& place : places) {
      by_source[place.source][place.entry_path].insert(sha);
      kinds[place.source] = place.source_kind;
    }
  }
  for (auto& [source, entries] : by_source) {
    const std::string& kind = kinds[source];
    std::error_code ec;
    if (kind == "stdin" || source == "-") {
      search.explain_all(entries, "it was read from standard input");
      continue;
    }
    if (!fs::exists(source, ec)) {
      search.explain_all(entries, "its source " + source + " is not there any more");
      continue;
    }
    if (kind == "folder") search.read_folder_files(source, entries);
    bool any = false;
    for (const auto& [path, shas] : entries) any = any || search.still_wanted(shas);
    if (!any) continue;
    search.read_source(source, entries);
    for (const auto& [path, shas] : entries)
      for (const auto& s : shas)
        if (!search.found(s) && search.why[s] == kNoSource)
          search.why[s] = "its source " + source + " has no entry " + path + " any more";
  }
  return search.why;
}

}  // namespace mapindex::site
