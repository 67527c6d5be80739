// A high-level builder of Teeworlds/DDNet maps in code, on top of
// DatafileWriter: info and settings, external and embedded images (v1/v2),
// envelopes of each kind with 6-int or 22-int points and DDNet's bezier item,
// groups, tile layers of every physics kind with given tiles (plain or
// skip-compressed), quads, sounds layers (new and deprecated), sounds and
// automapper items; plus knobs that produce each broken form the checks look
// for. Used by tests, benchmarks and the demo archive (never the product).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "decode/teeworlds/map_items.h"
#include "tests/support/datafile_writer.h"

namespace mapindex::testing {

using mapindex::LayerKind;

// The tiles of one tilemap layer in the struct layout of its kind (Tile 4
// bytes, Tele 2, Speedup 6, Switch 4, Tune 2), row-major, all air at first.
class TileGrid {
 public:
  TileGrid(LayerKind kind, std::int32_t width, std::int32_t height);

  LayerKind kind() const { return kind_; }
  std::int32_t width() const { return width_; }
  std::int32_t height() const { return height_; }
  std::size_t struct_size() const { return struct_size_; }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  std::vector<std::uint8_t>& bytes() { return bytes_; }

  // Tile structs (tiles, game, front): index and flags (1 flip X, 2 flip Y,
  // 8 rotate). On the other kinds `index` sets the type byte.
  TileGrid& set(std::int32_t x, std::int32_t y, std::uint8_t index, std::uint8_t flags = 0);
  TileGrid& fill(std::int32_t x, std::int32_t y, std::int32_t w, std::int32_t h, std::uint8_t index,
                 std::uint8_t flags = 0);
  TileGrid& set_tele(std::int32_t x, std::int32_t y, std::uint8_t type, std::uint8_t number);
  TileGrid& set_speedup(std::int32_t x, std::int32_t y, std::uint8_t type, std::uint8_t force,
                        std::uint8_t max_speed, std::int16_t angle);
  TileGrid& set_switch(std::int32_t x, std::int32_t y, std::uint8_t type, std::uint8_t number,
                       std::uint8_t flags = 0, std::uint8_t delay = 0);
  TileGrid& set_tune(std::int32_t x, std::int32_t y, std::uint8_t type, std::uint8_t number);
  // Sets byte `offset` of the struct at (x, y) (reserved bytes, padding...).
  TileGrid& set_byte(std::int32_t x, std::int32_t y, std::size_t offset, std::uint8_t value);

  // Tile data in the 0.7 skip-compressed form (Tile structs only): runs of
  // equal tiles, each stored once with skip = repeats - 1 (at most 255).
  std::vector<std::uint8_t> skip_compressed() const;

 private:
  std::uint8_t* at(std::int32_t x, std::int32_t y);
  LayerKind kind_;
  std::int32_t width_, height_;
  std::size_t struct_size_;
  std::vector<std::uint8_t> bytes_;
};

// The inverse of TileGrid::skip_compressed(): skip-compressed Tile data
// expanded into exactly `num_tiles` 4-byte tiles (skip bytes 0), through the
// product's run walk (src/decode/teeworlds/skip_runs.h); its M14 error when
// the runs do not cover exactly num_tiles or input is left over.
Result<std::vector<std::uint8_t>> expand_skip_tiles(Bytes compressed, std::size_t num_tiles);

struct InfoSpec {
  std::optional<std::string> author, version, credits, license;
  std::vector<std::string> settings;                      // one command per line
  std::optional<std::vector<std::uint8_t>> raw_settings;  // stored as is (broken forms)
};

struct TileLayerSpec {
  std::string name;
  std::int32_t version = 3;  // 4: skip-compressed data (tiles and game layers)
  std::array<std::int32_t, 4> color{255, 255, 255, 255};
  std::int32_t color_envelope = -1, color_envelope_offset = 0;
  std::int32_t image = -1;
  bool detail = false;
  bool legacy_v2_layout = false;  // version 2 with DDNet's extra indices right after `data`
  int num_ddnet_slots = 5;        // how many extra data indices the item holds (a prefix)
  // Broken forms.
  std::optional<std::int32_t> stored_flags;  // tilemap flags as written
  std::optional<std::int32_t> stored_width, stored_height;
  std::optional<std::vector<std::uint8_t>> data_override;  // the layer's own tile data, as is
  std::optional<std::int32_t> data_index_override;         // written as the layer's own data index
  std::optional<std::size_t> item_ints;                    // truncate (or zero-pad) the layer item
};

struct QuadSpec {
  std::int32_t x = 0, y = 0, w = 64, h = 64;  // in world pixels
  std::array<std::int32_t, 4> color{255, 255, 255, 255};
  std::int32_t position_envelope = -1, position_envelope_offset = 0;
  std::int32_t color_envelope = -1, color_envelope_offset = 0;
};

struct QuadsLayerSpec {
  std::string name;
  std::int32_t image = -1;
  std::vector<QuadSpec> quads;
  bool detail = false;
  std::optional<std::int32_t> stored_num_quads;  // broken: differs from the data
  std::optional<std::int32_t> data_index_override;
};

struct SoundSourceSpec {
  std::int32_t x = 0, y = 0;
  bool looping = true, panning = true;
  std::int32_t delay = 0, falloff = 0;
  std::int32_t position_envelope = -1, position_envelope_offset = 0;
  std::int32_t sound_envelope = -1, sound_envelope_offset = 0;
  std::int32_t shape_kind = 1, shape_width = 1500, shape_height = 0;  // circle, radius
};

struct SoundsLayerSpec {
  std::string name;
  std::int32_t sound = -1;
  std::vector<SoundSourceSpec> sources;
  bool deprecated = false;  // layer type 9 with 36-byte sources
  std::optional<std::int32_t> stored_num_sources;
};

struct EnvPointSpec {
  std::int32_t time = 0;
  std::int32_t curve = 1;  // 0 step, 1 linear, 2 slow, 3 fast, 4 smooth, 5 bezier
  std::array<std::int32_t, 4> values{};
  // Bezier tangents: in_dx[4], in_dy[4], out_dx[4], out_dy[4].
  std::array<std::int32_t, 16> bezier{};
};

struct EnvelopeSpec {
  std::int32_t channels = teeworlds::kEnvColor;  // 1 sound, 3 position, 4 color
  std::string name;
  bool synchronized = false;
  std::int32_t version = 2;  // 3: Teeworlds 0.7 (22-int points for the whole map)
  std::vector<EnvPointSpec> points;
  std::optional<std::int32_t> stored_start, stored_num;  // broken forms
};

struct GroupSpec {
  std::string name;
  std::int32_t offset_x = 0, offset_y = 0, parallax_x = 100, parallax_y = 100;
  bool clipping = false;
  std::int32_t clip_x = 0, clip_y = 0, clip_w = 0, clip_h = 0;
  std::int32_t version = 3;
  std::optional<std::int32_t> stored_start, stored_num;  // broken forms
  std::optional<std::int32_t> parallax_zoom;             // writes DDNet's group extension item
};

enum class EnvPointForm { automatic, six_ints, twenty_two_ints };

class MapBuilder {
 public:
  MapBuilder& info(InfoSpec spec);
  std::int32_t add_external_image(std::string name, std::int32_t width = 1024,
                                  std::int32_t height = 1024);
  // Pixels default to zeros of width*height*(rgba ? 4 : 3) bytes. version 2
  // writes the variant (0 RGB, 1 RGBA).
  std::int32_t add_embedded_image(std::string name, std::int32_t width, std::int32_t height,
                                  bool rgba = true, std::int32_t version = 1,
                                  std::optional<std::vector<std::uint8_t>> pixels = std::nullopt);
  std::int32_t add_envelope(EnvelopeSpec spec);
  // Layers added after a group belong to it.
  std::int32_t add_group(GroupSpec spec = {});
  std::int32_t add_game_group();  // offset 0, parallax 100, no clipping, name "Game"
  std::int32_t add_tile_layer(TileGrid grid, TileLayerSpec spec = {});  // returns the layer index
  std::int32_t add_quads_layer(QuadsLayerSpec spec);
  std::int32_t add_sounds_layer(SoundsLayerSpec spec);
  std::int32_t add_sound(std::string name, std::vector<std::uint8_t> opus = {});
  std::int32_t add_sound_raw(teeworlds::SoundItem item);  // any field values
  void add_automapper(std::int32_t group, std::int32_t layer, std::int32_t config = -1,
                      std::int32_t seed = 0, std::int32_t flags = 1);
  // Any item, written after the map items (duplicate or unknown items).
  void add_raw_item(std::uint16_t type_id, std::uint16_t id, std::vector<std::int32_t> data);
  // A raw data item, for raw items to point at.
  std::int32_t add_raw_data(std::vector<std::uint8_t> bytes);

  // Knobs.
  MapBuilder& omit_version_item(bool omit = true);
  MapBuilder& version_value(std::int32_t value);
  MapBuilder& envelope_point_form(EnvPointForm form);
  // DDNet's bezier UUID item beside 6-int points (default: on when any point
  // has curve 5 and the points have 6 ints).
  MapBuilder& bezier_item(bool on);
  MapBuilder& bezier_item_points(std::int32_t num_points);  // broken: another point count

  std::int32_t num_layers() const { return static_cast<std::int32_t>(layers_.size()); }
  std::vector<std::uint8_t> build(const WriterOptions& options = {}) const;

 private:
  struct Image {
    std::string name;
    std::int32_t version, width, height;
    bool external, rgba;
    std::vector<std::uint8_t> pixels;
  };
  struct Layer {
    enum class Kind { tiles, quads, sounds } kind;
    std::optional<TileGrid> grid;
    TileLayerSpec tiles;
    QuadsLayerSpec quads;
    SoundsLayerSpec sounds;
  };
  struct Group {
    GroupSpec spec;
    std::int32_t start = 0, num = 0;
  };
  struct Automapper {
    std::int32_t group, layer, config, seed, flags;
  };
  struct RawItem {
    std::uint16_t type_id, id;
    std::vector<std::int32_t> data;
  };
  std::optional<InfoSpec> info_;
  std::vector<Image> images_;
  std::vector<EnvelopeSpec> envelopes_;
  std::vector<Group> groups_;
  std::vector<Layer> layers_;
  struct Sound {
    bool raw = false;
    teeworlds::SoundItem item;  // raw
    std::string name;
    std::vector<std::uint8_t> opus;
  };
  std::vector<Sound> sounds_;
  std::vector<Automapper> automappers_;
  std::vector<RawItem> raw_items_;
  std::vector<std::vector<std::uint8_t>> raw_data_;
  bool omit_version_ = false;
  std::int32_t version_value_ = 1;
  EnvPointForm point_form_ = EnvPointForm::automatic;
  std::optional<bool> bezier_item_;
  std::optional<std::int32_t> bezier_item_points_;
};

// A realistic DDNet race map: a game layer with walls, floors, freeze,
// start/finish, spawns, checkpoints and weapons; front, tele, speedup, switch
// and tune layers; decoration tile layers with external images; a quads
// background with position and color envelopes; optionally a sounds layer.
struct RealisticMapOptions {
  std::int32_t width = 300, height = 150;
  std::uint32_t seed = 1;
  int decoration_layers = 3;
  bool skip_compressed = false;  // 0.7-style version-4 tiles and game layers
  bool with_sounds = true;
  // For the benchmarks' synthetic archives: one extra tile per mark in each
  // of `count` markable layers from `first` on (markable: Deco 0, Deco 1, ...,
  // then Front, Tele, Speedup, Switch, Tune; indices wrap around), at a place
  // given by `mark` alone (it uses no random numbers, so the rest of the map
  // stays as without marks). On a 500x500 map marks below 73,944 have
  // distinct places, so maps with different marks share no marked layer.
  struct LayerMark {
    std::uint32_t mark = 0;
    int first = 0;
    int count = 0;
  };
  std::vector<LayerMark> marks;
};
std::vector<std::uint8_t> make_realistic_ddnet_map(const RealisticMapOptions& options = {},
                                                   const WriterOptions& writer = {});

// Copies of one generated map that differ only in the name of its layer
// "Deco 0" (make_realistic_ddnet_map with decoration_layers >= 1): the name is
// 3 ints in the uncompressed item block, so every copy has its own SHA-256 and
// is decoded in full by mapindex, while nothing is compressed again.
class MapVariants {
 public:
  explicit MapVariants(std::vector<std::uint8_t> map);  // throws if no layer is named "Deco 0"
  // The map with that layer named `name` (at most 11 bytes); checked to decode so.
  std::vector<std::uint8_t> variant(const std::string& name) const;
  const std::vector<std::uint8_t>& base() const { return map_; }

 private:
  std::vector<std::uint8_t> map_;
  std::size_t name_offset_ = 0;  // byte offset of the layer's name ints
};

}  // namespace mapindex::testing
