// The site's larger minimaps: drawn from a map's own bytes, read again from
// the entry of its source (an archive, a folder or a file) where the index
// saw it, streaming through src/read. A map whose bytes cannot be had (its
// source is gone, moved or changed) keeps its stored thumbnail instead.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"

namespace mapindex::site {

// The longest side of a minimap in pixels: one pixel per tile up to this,
// several tiles a pixel beyond.
inline constexpr std::int32_t kMinimapSide = 1024;

struct Minimaps {
  std::vector<std::uint8_t> all;      // PNG: design and physics layers
  std::vector<std::uint8_t> physics;  // PNG: the physics layers only (empty for a SpriteTile level)
  std::int32_t width = 0, height = 0;  // of both images, in pixels
  std::int32_t factor = 1;             // tiles per pixel side
};

// Draws the minimaps of a map file (a Teeworlds datafile or a SpriteTile
// level) with draw_map_views (src/extract). Error render.nothing when
// there is nothing to draw or the bytes are no map (the message says which).
Result<Minimaps> draw_minimaps(Bytes file);

// Where a map content was seen: an entry of a source.
struct Place {
  std::string source;       // sources.path, as given to `mapindex index`
  std::string source_kind;  // sources.kind
  std::string entry_path;
};

// Reads the bytes of each wanted content (by SHA-256) from the first of its
// places that still holds it, each source read once, streaming; `on_file`
// gets each content found. Returns why each content not found was not: its
// source cannot be read, has no such entry any more, or holds other bytes
// there now.
std::map<std::string, std::string> read_contents(
    const std::map<std::string, std::vector<Place>>& wanted,
    const std::function<void(const std::string& sha256, std::vector<std::uint8_t> bytes)>& on_file);

}  // namespace mapindex::site
