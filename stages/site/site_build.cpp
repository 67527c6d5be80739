#include "stages/site/site_build.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <tbb/parallel_for_each.h>

#include "stages/common/file_write.h"
#include "stages/common/hex.h"
#include "stages/common/sha256.h"
#include "stages/render/png.h"
#include "stages/site/site_data.h"
#include "stages/site/site_images.h"

namespace mapindex::site {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kManifestHeader = "mapindex site manifest 1";

std::string digest_of(std::string_view bytes) {
  const auto d = sha256(Bytes(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  return to_hex(std::span<const std::uint8_t>(d.data(), d.size()));
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

}  // namespace

Result<SiteStats> build_site(sqlite3* db, const SiteOptions& options) {
  SiteStats stats;
  const fs::path dir = options.out_dir;
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return output_error(dir.string() + " is not a folder");
  fs::create_directories(dir, ec);
  if (ec) return output_error(dir.string() + ": cannot create the folder: " + ec.message());
  const fs::path manifest_file = dir / kManifestName;
  auto old = read_manifest(manifest_file);
  if (!old) return old.error();
  const auto on_disk = [&](const std::string& path) {
    std::error_code e;
    return fs::exists(dir / path, e);
  };

  const SiteData data = load_site(db);
  stats.entries = data.entries.size();
  PageLoader loader(db, data);
  std::vector<MapPage> pages;
  pages.reserve(data.page_maps.size());
  for (const auto map_id : data.page_maps) pages.push_back(loader.load(map_id));
  stats.map_pages = pages.size();

  // The files of the site now: path -> bytes (minimaps kept from an earlier
  // run are not read again: only their digests are kept).
  std::map<std::string, std::string> files;
  Manifest now;
  const auto add = [&](const std::string& path, std::string bytes) {
    now[path] = digest_of(bytes);
    files[path] = std::move(bytes);
  };

  // Minimaps: kept when an earlier run drew them; otherwise drawn from the
  // map's bytes, read again from where the index saw it now.
  std::map<std::string, MinimapInfo> minimaps;
  std::map<std::string, std::vector<Place>> wanted;
  std::map<std::string, const MapPage*> by_sha;
  for (const auto& p : pages) by_sha[p.sha256] = &p;
  std::map<std::string, std::vector<Place>> places;
  for (const auto& e : data.entries)
    places[e.sha256].push_back({e.source, e.source_kind, e.entry_path});
  for (const auto& p : pages) {
    const std::string all = minimap_path(p.sha256, false);
    if (old->count(all) && (*old)[all] != "-" && on_disk(all)) continue;  // see below
    const auto at = places.find(p.sha256);
    if (at == places.end()) {
      minimaps[p.sha256].why_not = "this content is in none of the sources now";
      continue;
    }
    wanted[p.sha256] = at->second;
  }
  // Kept minimaps: their sizes come from the PNG's header on disk.
  for (const auto& p : pages) {
    const std::string all = minimap_path(p.sha256, false);
    if (wanted.count(p.sha256) || minimaps.count(p.sha256)) continue;
    std::ifstream in(dir / all, std::ios::binary);
    std::string header(32, '\0');
    in.read(header.data(), 32);
    const auto size = render::png_size(
        Bytes(reinterpret_cast<const std::uint8_t*>(header.data()), header.size()));
    auto& m = minimaps[p.sha256];
    if (!size) {  // not a PNG any more: draw it again
      minimaps.erase(p.sha256);
      if (const auto at = places.find(p.sha256); at != places.end()) wanted[p.sha256] = at->second;
      continue;
    }
    m.drawn = true;
    m.width = static_cast<std::int32_t>(size->first);
    m.height = static_cast<std::int32_t>(size->second);
    const std::string physics = minimap_path(p.sha256, true);
    m.has_physics = old->count(physics) > 0 && on_disk(physics);
    const std::int64_t longest = std::max(p.counts.game_width, p.counts.game_height);
    m.factor = static_cast<std::int32_t>(
        std::max<std::int64_t>(1, (longest + kMinimapSide - 1) / kMinimapSide));
    now[all] = (*old)[all];
    if (m.has_physics) now[physics] = (*old)[physics];
  }
  // Read the wanted maps (one source at a time), drawing them in parallel in
  // batches that bound the memory held.
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
      add(minimap_path(item.first, false), std::string(drawn->all.begin(), drawn->all.end()));
      if (m.has_physics)
        add(minimap_path(item.first, true),
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

  // Thumbnails and pages.
  for (const auto& p : pages) {
    if (p.thumb_width > 0) add(thumbnail_path(p.sha256), stored_thumbnail(db, p.map_id));
    const auto& m = minimaps[p.sha256];
    if (!m.drawn) ++stats.minimaps_missing;
    add(map_page_path(p.sha256), map_page(p, m, options.title));
  }
  for (auto& page : list_pages(data, options.title, options.max_page_bytes))
    add(page.path, std::move(page.bytes));
  add("problems.html", problems_page(data, options.title));
  add("maps.json", maps_json(data, options.title));

  // Never replace a file the site did not write.
  for (const auto& [path, digest] : now)
    if (!old->count(path) && on_disk(path))
      return output_error(
          (dir / path).string() + " exists and mapindex site did not write it (it is not in " +
          manifest_file.string() + "): move it away or give --out a folder of its own");

  // The manifest first names every file this run may write (digest unknown
  // while it is being written), so an interrupted run leaves nothing unlisted.
  Manifest during = *old;
  for (const auto& [path, digest] : now)
    if (!old->count(path) || (*old)[path] != digest) during[path] = "-";
  if (during != *old) {
    auto w =
        write_file_atomically(manifest_file.string(), manifest_text(during), Code::site_output);
    if (!w) return w.error();
  }
  for (const auto& [path, bytes] : files) {
    if (old->count(path) && (*old)[path] == now[path] && on_disk(path)) continue;
    const fs::path target = dir / path;
    fs::create_directories(target.parent_path(), ec);
    auto w = write_file_atomically(target.string(), bytes, Code::site_output);
    if (!w) return w.error();
    ++stats.written;
  }
  for (const auto& [path, digest] : *old) {
    if (now.count(path)) continue;
    if (fs::remove(dir / path, ec)) ++stats.removed;
  }
  if (now != *old || during != *old) {
    auto w = write_file_atomically(manifest_file.string(), manifest_text(now), Code::site_output);
    if (!w) return w.error();
  }
  stats.files = now.size();
  return stats;
}

}  // namespace mapindex::site
