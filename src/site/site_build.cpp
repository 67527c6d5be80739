#include "site/site_build.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>

#include <tbb/parallel_for_each.h>

#include "common/file_write.h"
#include "common/hex.h"
#include "common/sha256.h"
#include "render/png.h"
#include "site/site_data.h"
#include "site/site_images.h"

namespace mapindex::site {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kManifestHeader = "mapindex site manifest 1";

std::string digest_of(std::string_view bytes) {
  return to_hex(sha256(Bytes(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size())));
}

Error output_error(const std::string& message) { return Error{Code::site_output, message}; }

using Manifest = std::map<std::string, std::string>;  // path -> digest ("-": unknown)

// A manifest line is "DIGEST PATH"; paths are the site's own (no spaces, no "..").
Result<Manifest> read_manifest(const fs::path& file) {
  Manifest m;
  std::error_code ec;
  if (!fs::exists(file, ec)) return m;
  std::ifstream in(file);
  std::string line;
  if (!std::getline(in, line) || line != kManifestHeader)
    return output_error(file.string() + ": not a mapindex site manifest (its first line is not \"" +
                        std::string(kManifestHeader) + "\"): give --out a folder of its own");
  while (std::getline(in, line)) {
    const auto space = line.find(' ');
    const std::string path = space == std::string::npos ? "" : line.substr(space + 1);
    if (path.empty() || path.find("..") != std::string::npos || path.front() == '/')
      return output_error(file.string() + ": damaged manifest line '" + line + "'");
    m[path] = line.substr(0, space);
  }
  return m;
}

std::string manifest_text(const Manifest& m) {
  std::string out = std::string(kManifestHeader) + "\n";
  for (const auto& [path, digest] : m) out += digest + " " + path + "\n";
  return out;
}

// The site's folder and the manifest an earlier run left there (empty for a
// new site).
struct Folder {
  fs::path dir, manifest_file;
  Manifest old;

  bool on_disk(const std::string& path) const {
    std::error_code ec;
    return fs::exists(dir / path, ec);
  }
  // Whether an earlier run listed `path` with digest `digest`.
  bool listed_as(const std::string& path, const std::string& digest) const {
    const auto found = old.find(path);
    return found != old.end() && found->second == digest;
  }
};

// Makes the folder when missing and reads its manifest.
Result<Folder> open_folder(const std::string& out_dir) {
  Folder folder;
  folder.dir = out_dir;
  std::error_code ec;
  if (fs::exists(folder.dir, ec) && !fs::is_directory(folder.dir, ec))
    return output_error(folder.dir.string() + " is not a folder");
  fs::create_directories(folder.dir, ec);
  if (ec) return output_error(folder.dir.string() + ": cannot create the folder: " + ec.message());
  folder.manifest_file = folder.dir / kManifestName;
  auto old = read_manifest(folder.manifest_file);
  if (!old) return old.error();
  folder.old = std::move(*old);
  return folder;
}

// The files of the site now: `bytes` of the ones this run made, `now` the
// manifest of all (minimaps kept from an earlier run are not read again:
// only their digests are kept).
struct SiteFiles {
  std::map<std::string, std::string> bytes;
  Manifest now;

  void add(const std::string& path, std::string file) {
    now[path] = digest_of(file);
    bytes[path] = std::move(file);
  }
};

using Wanted = std::map<std::string, std::vector<Place>>;  // SHA-256 -> where it is now
using PageMinimaps = std::map<std::string, MinimapInfo>;   // SHA-256 -> what its page shows

// A minimap an earlier run drew, kept: its size from the PNG's header on
// disk. nullopt when the file is no PNG any more.
std::optional<MinimapInfo> kept_minimap(const Folder& folder, const MapPage& p, SiteFiles& files) {
  const std::string all = minimap_path(p.sha256, false);
  std::ifstream in(folder.dir / all, std::ios::binary);
  std::string header(32, '\0');
  in.read(header.data(), 32);
  const auto size =
      render::png_size(Bytes(reinterpret_cast<const std::uint8_t*>(header.data()), header.size()));
  if (!size) return std::nullopt;
  MinimapInfo m;
  m.drawn = true;
  m.width = static_cast<std::int32_t>(size->first);
  m.height = static_cast<std::int32_t>(size->second);
  const std::string physics = minimap_path(p.sha256, true);
  m.has_physics = folder.old.count(physics) > 0 && folder.on_disk(physics);
  const std::int64_t longest = std::max(p.counts.game_width, p.counts.game_height);
  m.factor = static_cast<std::int32_t>(
      std::max<std::int64_t>(1, (longest + kMinimapSide - 1) / kMinimapSide));
  files.now[all] = folder.old.at(all);
  if (m.has_physics) files.now[physics] = folder.old.at(physics);
  return m;
}

// Which minimaps to draw: a page's minimap is kept when an earlier run drew
// it and it is still a PNG; otherwise it is drawn from the map's bytes, read
// again from where the index sees it now. Fills `minimaps` with the kept
// ones and the ones that cannot be drawn; returns the ones to read.
Wanted plan_minimaps(const Folder& folder, const SiteData& data, const std::vector<MapPage>& pages,
                     PageMinimaps& minimaps, SiteFiles& files) {
  Wanted places, wanted;
  for (const auto& e : data.entries)
    places[e.sha256].push_back({e.source, e.source_kind, e.entry_path});
  std::vector<const MapPage*> drawn_before;
  for (const auto& p : pages) {
    const std::string all = minimap_path(p.sha256, false);
    if (folder.old.count(all) && !folder.listed_as(all, "-") && folder.on_disk(all)) {
      drawn_before.push_back(&p);
      continue;
    }
    const auto at = places.find(p.sha256);
    if (at == places.end()) {
      minimaps[p.sha256].why_not = "this content is in none of the sources now";
      continue;
    }
    wanted[p.sha256] = at->second;
  }
  for (const MapPage* p : drawn_before) {
    if (auto kept = kept_minimap(folder, *p, files)) {
      minimaps[p->sha256] = std::move(*kept);
    } else if (const auto at = places.find(p->sha256); at != places.end()) {
      wanted[p->sha256] = at->second;  // not a PNG any more: draw it again
    }
  }
  return wanted;
}

// Reads the wanted maps (one source at a time) and draws them in parallel,
// in batches that bound the memory held.
void draw_wanted(const Wanted& wanted, PageMinimaps& minimaps, SiteFiles& files, SiteStats& stats) {
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> batch;
  std::size_t batch_bytes = 0;
  std::mutex mutex;
  const auto draw_batch = [&] {
    tbb::parallel_for_each(batch.begin(), batch.end(), [&](auto& item) {
      auto drawn = draw_minimaps(item.second);
      std::lock_guard lock(mutex);
      auto& m = minimaps[item.first];
      if (!drawn) {
        m.why_not = drawn.error().message;
        return;
      }
      m.drawn = true;
      m.has_physics = !drawn->physics.empty();
      m.width = drawn->width;
      m.height = drawn->height;
      m.factor = drawn->factor;
      files.add(minimap_path(item.first, false), std::string(drawn->all.begin(), drawn->all.end()));
      if (m.has_physics)
        files.add(minimap_path(item.first, true),
                  std::string(drawn->physics.begin(), drawn->physics.end()));
      ++stats.minimaps_drawn;
    });
    batch.clear();
    batch_bytes = 0;
  };
  const auto not_read =
      read_contents(wanted, [&](const std::string& sha, std::vector<std::uint8_t> bytes) {
        batch_bytes += bytes.size();
        batch.emplace_back(sha, std::move(bytes));
        if (batch_bytes > (256u << 20) || batch.size() >= 64) draw_batch();
      });
  draw_batch();
  for (const auto& [sha, why] : not_read) minimaps[sha].why_not = why;
}

// The thumbnails, the map pages, the list pages, the problems page and maps.json.
void add_pages(sqlite3* db, const SiteData& data, const std::vector<MapPage>& pages,
               PageMinimaps& minimaps, const SiteOptions& options, SiteFiles& files,
               SiteStats& stats) {
  for (const auto& p : pages) {
    if (p.thumb_width > 0) files.add(thumbnail_path(p.sha256), stored_thumbnail(db, p.map_id));
    const auto& m = minimaps[p.sha256];
    if (!m.drawn) ++stats.minimaps_missing;
    files.add(map_page_path(p.sha256), map_page(p, m, options.title));
  }
  for (auto& page : list_pages(data, options.title, options.max_page_bytes))
    files.add(page.path, std::move(page.bytes));
  files.add("problems.html", problems_page(data, options.title));
  files.add("maps.json", maps_json(data, options.title));
}

// Writes the files whose bytes changed and removes the ones no page needs,
// never replacing a file the site did not write. The manifest first names
// every file this run may write (digest unknown while it is being written),
// so an interrupted run leaves nothing unlisted.
Result<bool> write_changes(const Folder& folder, const SiteFiles& files, SiteStats& stats) {
  const Manifest& old = folder.old;
  const Manifest& now = files.now;
  for (const auto& [path, digest] : now)
    if (!old.count(path) && folder.on_disk(path))
      return output_error((folder.dir / path).string() +
                          " exists and mapindex site did not write it (it is not in " +
                          folder.manifest_file.string() +
                          "): move it away or give --out a folder of its own");
  Manifest during = old;
  for (const auto& [path, digest] : now)
    if (!folder.listed_as(path, digest)) during[path] = "-";
  const std::string manifest = folder.manifest_file.string();
  if (during != old) {
    auto w = write_file_atomically(manifest, manifest_text(during), Code::site_output);
    if (!w) return w.error();
  }
  std::error_code ec;
  for (const auto& [path, bytes] : files.bytes) {
    if (folder.listed_as(path, now.at(path)) && folder.on_disk(path)) continue;
    const fs::path target = folder.dir / path;
    fs::create_directories(target.parent_path(), ec);
    auto w = write_file_atomically(target.string(), bytes, Code::site_output);
    if (!w) return w.error();
    ++stats.written;
  }
  for (const auto& [path, digest] : old) {
    if (now.count(path)) continue;
    if (fs::remove(folder.dir / path, ec)) ++stats.removed;
  }
  if (now != old || during != old) {
    auto w = write_file_atomically(manifest, manifest_text(now), Code::site_output);
    if (!w) return w.error();
  }
  return true;
}

}  // namespace

Result<SiteStats> build_site(sqlite3* db, const SiteOptions& options) {
  auto folder = open_folder(options.out_dir);
  if (!folder) return folder.error();
  SiteStats stats;
  const SiteData data = load_site(db);
  stats.entries = data.entries.size();
  PageLoader loader(db, data);
  std::vector<MapPage> pages;
  pages.reserve(data.page_maps.size());
  for (const auto map_id : data.page_maps) pages.push_back(loader.load(map_id));
  stats.map_pages = pages.size();

  SiteFiles files;
  PageMinimaps minimaps;
  const Wanted wanted = plan_minimaps(*folder, data, pages, minimaps, files);
  draw_wanted(wanted, minimaps, files, stats);
  add_pages(db, data, pages, minimaps, options, files, stats);
  auto written = write_changes(*folder, files, stats);
  if (!written) return written.error();
  stats.files = files.now.size();
  return stats;
}

}  // namespace mapindex::site
