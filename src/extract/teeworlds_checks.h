// The "further checks" of src/extract/README.md (not enforced by
// DDNet's loader) over a decoded map and its measured statistics, and the
// resolution of image, envelope and sound references into their users.
// Codes and severities are listed in src/extract/README.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "decode/teeworlds/teeworlds_map.h"
#include "extract/map_stats.h"

namespace mapindex::teeworlds {

// References collected while measuring layers (aggregated per layer).
struct References {
  struct Envelope {
    std::int32_t layer = 0;
    EnvelopeRole role = EnvelopeRole::layer_color;
    std::int32_t envelope = -1;
    std::int64_t count = 0;
  };
  struct Image {
    std::int32_t layer = 0;
    std::int32_t image = -1;
    bool tile_layer = false;
    std::int64_t quads = 0;
  };
  struct Sound {
    std::int32_t layer = 0;
    std::int32_t sound = -1;
    std::int64_t sources = 0;
  };
  std::vector<Envelope> envelopes;
  std::vector<Image> images;
  std::vector<Sound> sounds;
};

// Fills used_by of images, envelopes and sounds; reports references to
// missing images/envelopes/sounds, envelopes of the wrong kind, tile-layer
// images whose size is not a multiple of 16, and unused ones.
void resolve_references(const References& refs, MapStats& stats);

// Images: embedded data smaller than width*height*bpp, RGB images, external
// names outside the standard list, more than 64 images; sounds: more than 64,
// external sounds.
void check_images_and_sounds(MapStats& stats);

// The game group is the standard one; layers outside every group; physics
// layers outside the game group; automappers pointing at missing groups or
// layers.
void check_groups_and_automappers(const TeeworldsMap& map, MapStats& stats);

// The standard external image names of Teeworlds 0.6/0.7 and DDNet.
bool is_standard_external_image(std::string_view name);

// One "text.not_utf8" warning for every name, info string and settings line
// of `stats` that is not valid UTF-8, quoting its bytes in hex. The text
// itself is kept as stored; the index writes it with U+FFFD in place of the
// invalid bytes and keeps the original bytes in a *_raw column.
void report_text_not_utf8(MapStats& stats);

}  // namespace mapindex::teeworlds
