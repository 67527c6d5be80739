// Where each Teeworlds/DDNet map item keeps its fields: the position of each
// field among the item's int32 words (datafile::Int32View), one namespace per
// item type, and the sizes that mark what each item version added. The
// decoders in item_decoders.cpp read items only through these names. The
// facts behind them, with their sources, are in docs/formats/map-items.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace mapindex::teeworlds::layout {

// Added without a version change: present whenever the item is long enough.
inline constexpr std::int32_t kAnyVersion = std::numeric_limits<std::int32_t>::min();

// Words added to an item after its first form: an item holds them when its
// version is at least `since` and it has at least `end` words.
struct Addition {
  std::int32_t since = kAnyVersion;
  std::size_t end = 0;
  constexpr bool held_by(std::int32_t version, std::size_t words) const {
    return version >= since && words >= end;
  }
};

// Version item (type 0, id 0).
namespace version {
inline constexpr std::size_t kVersion = 0;
inline constexpr std::size_t kMinWords = 1;
inline constexpr std::int32_t kOnlyVersion = 1;
}  // namespace version

// Info item (type 1). Every field after the version is optional: a short
// item leaves the later ones unset (-1).
namespace info {
inline constexpr std::size_t kVersion = 0, kAuthor = 1, kMapVersion = 2, kCredits = 3, kLicense = 4;
inline constexpr std::size_t kSettings = 5;  // DDNet
inline constexpr std::size_t kMinWords = 1;
}  // namespace info

// Image item (type 2).
namespace image {
inline constexpr std::size_t kVersion = 0, kWidth = 1, kHeight = 2, kExternal = 3, kName = 4,
                             kData = 5;
inline constexpr std::size_t kMinWords = 6;
// Version 2 (Teeworlds 0.7): the pixel format, 0 RGB, 1 RGBA (RGBA when absent).
inline constexpr std::size_t kVariant = 6;
inline constexpr std::int32_t kVariantSince = 2;
static_assert(kData + 1 == kMinWords && kVariant == kMinWords);
}  // namespace image

// Envelope item (type 3).
namespace envelope {
inline constexpr std::size_t kVersion = 0, kChannels = 1, kStartPoint = 2, kNumPoints = 3;
inline constexpr std::size_t kMinWords = 4;
// The name (an 8-word I32String), added without a version change.
inline constexpr std::size_t kName = 4, kNameWords = 8;
inline constexpr Addition kNameAdded{kAnyVersion, kName + kNameWords};
// Version 2: synchronized with the server clock.
inline constexpr std::size_t kSynchronized = 12;
inline constexpr Addition kSynchronizedAdded{2, kSynchronized + 1};
// Version 3 (Teeworlds 0.7): the map's points carry bezier tangents.
inline constexpr std::int32_t kBezierPointsSince = 3;
static_assert(kNumPoints + 1 == kMinWords && kName == kMinWords);
static_assert(kSynchronized == kName + kNameWords);
}  // namespace envelope

// Group item (type 4).
namespace group {
inline constexpr std::size_t kVersion = 0, kOffsetX = 1, kOffsetY = 2, kParallaxX = 3,
                             kParallaxY = 4, kStartLayer = 5, kNumLayers = 6;
inline constexpr std::size_t kMinWords = 7;  // rule M2: 28 bytes
// Version 2: clipping.
inline constexpr std::size_t kClipping = 7, kClipX = 8, kClipY = 9, kClipW = 10, kClipH = 11;
inline constexpr Addition kClipAdded{2, kClipH + 1};
// Version 3: the name (a 3-word I32String).
inline constexpr std::size_t kName = 12, kNameWords = 3;
inline constexpr Addition kNameAdded{3, kName + kNameWords};
static_assert(kNumLayers + 1 == kMinWords && kClipping == kMinWords && kName == kClipH + 1);
}  // namespace group

// DDNet's group extension (UUID item "mapitemtype-group@ddnet.tw"; its id is
// the group's index).
namespace group_ex {
inline constexpr std::size_t kVersion = 0, kParallaxZoom = 1;
inline constexpr std::size_t kMinWords = 2;
}  // namespace group_ex

// The header every layer item (type 5) starts with.
namespace layer {
inline constexpr std::size_t kVersion = 0, kType = 1, kFlags = 2;
inline constexpr std::size_t kHeaderWords = 3;  // rule M4: 12 bytes
}  // namespace layer

// Tilemap layer (layer type 2), after the layer header.
namespace tilemap {
inline constexpr std::size_t kVersion = 3, kWidth = 4, kHeight = 5, kFlags = 6;
inline constexpr std::size_t kColor = 7, kColorWords = 4;  // r, g, b, a
inline constexpr std::size_t kColorEnvelope = 11, kColorEnvelopeOffset = 12, kImage = 13,
                             kData = 14;
inline constexpr std::size_t kMinWords = 15;  // rule M5: 60 bytes
// Versions 2..4 (rule M5); version 4 (Teeworlds 0.7) skip-compresses the
// tiles of tiles and game layers.
inline constexpr std::int32_t kFirstVersion = 2, kLastVersion = 4, kSkipCompressedSince = 4;
// Version 3: the name (a 3-word I32String).
inline constexpr std::size_t kName = 15, kNameWords = 3;
inline constexpr Addition kNameAdded{3, kName + kNameWords};  // rule M6: 72 bytes
// DDNet's data indices of the physics kinds (tele, speedup, front, switch,
// tune; a prefix of them may be present): after the name from version 3 on,
// right after `data` in the old version-2 DDRace layout.
inline constexpr std::size_t kDdnetDataAfterName = kName + kNameWords;
inline constexpr std::size_t kDdnetDataV2 = kMinWords;
static_assert(layer::kHeaderWords == kVersion && kColor == kFlags + 1);
static_assert(kColorEnvelope == kColor + kColorWords && kData + 1 == kMinWords &&
              kName == kMinWords);
}  // namespace tilemap

// Quads layer (layer type 3), after the layer header.
namespace quads {
inline constexpr std::size_t kVersion = 3, kNumQuads = 4, kData = 5, kImage = 6;
inline constexpr std::size_t kMinWords = 7;
// Version 2: the name (a 3-word I32String).
inline constexpr std::size_t kName = 7, kNameWords = 3;
inline constexpr Addition kNameAdded{2, kName + kNameWords};
static_assert(layer::kHeaderWords == kVersion && kImage + 1 == kMinWords && kName == kMinWords);
}  // namespace quads

// Sounds layer (DDNet; layer type 10, or 9 for the deprecated sources),
// after the layer header.
namespace sounds {
inline constexpr std::size_t kVersion = 3, kNumSources = 4, kData = 5, kSound = 6;
inline constexpr std::size_t kMinWords = 7;
// The name (a 3-word I32String), read whenever the item holds it.
inline constexpr std::size_t kName = 7, kNameWords = 3;
inline constexpr Addition kNameAdded{kAnyVersion, kName + kNameWords};
static_assert(layer::kHeaderWords == kVersion && kSound + 1 == kMinWords && kName == kMinWords);
}  // namespace sounds

// Sound item (type 7, DDNet).
namespace sound {
inline constexpr std::size_t kVersion = 0, kExternal = 1, kName = 2, kData = 3;
inline constexpr std::size_t kMinWords = 4;
inline constexpr std::size_t kDataSize = 4;  // deprecated, optional
}  // namespace sound

// DDNet's automapper config (UUID item): group and layer (index within the
// group) it applies to; config, seed and flags are optional.
namespace automapper {
inline constexpr std::size_t kVersion = 0, kGroup = 1, kLayer = 2;
inline constexpr std::size_t kMinWords = 3;
inline constexpr std::size_t kConfig = 3, kSeed = 4, kFlags = 5;
}  // namespace automapper

// One envelope point in the envelope points item (type 6): 6 words, or 22
// when any envelope has version 3 (bezier tangents follow, 4 per channel).
namespace env_point {
inline constexpr std::size_t kTime = 0, kCurve = 1, kValues = 2, kChannels = 4;
inline constexpr std::size_t kWords = 6;
inline constexpr std::size_t kInDx = 6, kInDy = 10, kOutDx = 14, kOutDy = 18;
inline constexpr std::size_t kBezierWords = 22;
static_assert(kValues + kChannels == kWords && kInDx == kWords);
static_assert(kOutDy + kChannels == kBezierWords);
}  // namespace env_point

// One point's tangents in DDNet's bezier item (UUID item
// "mapitemtype-envpoint-bezier@ddnet.tw"), beside 6-word points.
namespace env_point_bezier {
inline constexpr std::size_t kInDx = 0, kInDy = 4, kOutDx = 8, kOutDy = 12;
inline constexpr std::size_t kWords = 16;
static_assert(kOutDy + env_point::kChannels == kWords);
}  // namespace env_point_bezier

// One quad in a quads layer's data item (38 words, 152 bytes).
namespace quad {
inline constexpr std::size_t kPoints = 0, kNumPoints = 5;   // x, y each: 4 corners, then the pivot
inline constexpr std::size_t kColors = 10, kNumColors = 4;  // r, g, b, a each, per corner
inline constexpr std::size_t kTexture = 26, kNumTexture = 4;  // u, v each, per corner
inline constexpr std::size_t kPositionEnvelope = 34, kPositionEnvelopeOffset = 35,
                             kColorEnvelope = 36, kColorEnvelopeOffset = 37;
inline constexpr std::size_t kWords = 38;
static_assert(kColors == kPoints + 2 * kNumPoints && kTexture == kColors + 4 * kNumColors);
static_assert(kPositionEnvelope == kTexture + 2 * kNumTexture &&
              kColorEnvelopeOffset + 1 == kWords);
}  // namespace quad

// One sound source in a sounds layer's data item: 13 words (52 bytes), or 9
// (36 bytes) in the deprecated layer type 9.
namespace sound_source {
inline constexpr std::size_t kX = 0, kY = 1, kLooping = 2, kPanning = 3, kDelay = 4, kFalloff = 5,
                             kPositionEnvelope = 6, kPositionEnvelopeOffset = 7, kSoundEnvelope = 8,
                             kSoundEnvelopeOffset = 9;
inline constexpr std::size_t kShapeKind = 10, kShapeWidth = 11,
                             kShapeHeight = 12;  // radius in width for circles
inline constexpr std::size_t kWords = 13;
static_assert(kShapeHeight + 1 == kWords);
}  // namespace sound_source

namespace sound_source_deprecated {
inline constexpr std::size_t kX = 0, kY = 1, kLooping = 2, kDelay = 3, kRadius = 4,
                             kPositionEnvelope = 5, kPositionEnvelopeOffset = 6, kSoundEnvelope = 7,
                             kSoundEnvelopeOffset = 8;
inline constexpr std::size_t kWords = 9;
static_assert(kSoundEnvelopeOffset + 1 == kWords);
}  // namespace sound_source_deprecated

}  // namespace mapindex::teeworlds::layout
