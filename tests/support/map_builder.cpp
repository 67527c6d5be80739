#include "tests/support/map_builder.h"

#include <algorithm>
#include <optional>
#include <random>
#include <stdexcept>

#include "decode/datafile/uuid.h"
#include "decode/teeworlds/i32_string.h"
#include "decode/teeworlds/item_decoders.h"
#include "decode/teeworlds/skip_runs.h"

namespace mapindex::testing {

using namespace teeworlds;

namespace {

std::int32_t tilemap_flags(LayerKind kind) {
  switch (kind) {
    case LayerKind::game: return kTilemapGame;
    case LayerKind::tele: return kTilemapTele;
    case LayerKind::speedup: return kTilemapSpeedup;
    case LayerKind::front: return kTilemapFront;
    case LayerKind::switch_layer: return kTilemapSwitch;
    case LayerKind::tune: return kTilemapTune;
    default: return 0;
  }
}

void append_i32_string(std::vector<std::int32_t>& out, const std::string& text, std::size_t ints) {
  const std::size_t at = out.size();
  out.resize(at + ints);
  encode_i32_string(text, out.data() + at, ints);
}

std::vector<std::uint8_t> to_bytes(const std::vector<std::int32_t>& ints) {
  std::vector<std::uint8_t> out(ints.size() * 4);
  for (std::size_t i = 0; i < ints.size(); ++i)
    store_le_u32(out.data() + 4 * i, static_cast<std::uint32_t>(ints[i]));
  return out;
}

}  // namespace

// ---- TileGrid ---------------------------------------------------------------

TileGrid::TileGrid(LayerKind kind, std::int32_t width, std::int32_t height)
    : kind_(kind), width_(width), height_(height), struct_size_(tile_struct_size(kind)) {
  if (width < 0 || height < 0) throw std::invalid_argument("TileGrid: negative size");
  bytes_.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * struct_size_,
                0);
}

std::uint8_t* TileGrid::at(std::int32_t x, std::int32_t y) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) throw std::out_of_range("TileGrid: outside");
  return bytes_.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) +
                          static_cast<std::size_t>(x)) *
                             struct_size_;
}

TileGrid& TileGrid::set(std::int32_t x, std::int32_t y, std::uint8_t index, std::uint8_t flags) {
  std::uint8_t* t = at(x, y);
  switch (kind_) {
    case LayerKind::tele:
    case LayerKind::tune: t[1] = index; break;
    case LayerKind::speedup: t[2] = index; break;
    case LayerKind::switch_layer:
      t[1] = index;
      t[2] = flags;
      break;
    default:
      t[0] = index;
      t[1] = flags;
      break;
  }
  return *this;
}

TileGrid& TileGrid::fill(std::int32_t x, std::int32_t y, std::int32_t w, std::int32_t h,
                         std::uint8_t index, std::uint8_t flags) {
  for (std::int32_t yy = y; yy < y + h; ++yy)
    for (std::int32_t xx = x; xx < x + w; ++xx) set(xx, yy, index, flags);
  return *this;
}

TileGrid& TileGrid::set_tele(std::int32_t x, std::int32_t y, std::uint8_t type,
                             std::uint8_t number) {
  std::uint8_t* t = at(x, y);
  t[0] = number;
  t[1] = type;
  return *this;
}

TileGrid& TileGrid::set_speedup(std::int32_t x, std::int32_t y, std::uint8_t type,
                                std::uint8_t force, std::uint8_t max_speed, std::int16_t angle) {
  std::uint8_t* t = at(x, y);
  t[0] = force;
  t[1] = max_speed;
  t[2] = type;
  t[3] = 0;
  t[4] = static_cast<std::uint8_t>(static_cast<std::uint16_t>(angle) & 0xFF);
  t[5] = static_cast<std::uint8_t>(static_cast<std::uint16_t>(angle) >> 8);
  return *this;
}

TileGrid& TileGrid::set_switch(std::int32_t x, std::int32_t y, std::uint8_t type,
                               std::uint8_t number, std::uint8_t flags, std::uint8_t delay) {
  std::uint8_t* t = at(x, y);
  t[0] = number;
  t[1] = type;
  t[2] = flags;
  t[3] = delay;
  return *this;
}

TileGrid& TileGrid::set_tune(std::int32_t x, std::int32_t y, std::uint8_t type,
                             std::uint8_t number) {
  std::uint8_t* t = at(x, y);
  t[0] = number;
  t[1] = type;
  return *this;
}

TileGrid& TileGrid::set_byte(std::int32_t x, std::int32_t y, std::size_t offset,
                             std::uint8_t value) {
  if (offset >= struct_size_) throw std::out_of_range("TileGrid: byte offset");
  at(x, y)[offset] = value;
  return *this;
}

std::vector<std::uint8_t> TileGrid::skip_compressed() const {
  if (struct_size_ != 4) throw std::logic_error("skip compression needs Tile structs");
  std::vector<std::uint8_t> out;
  const std::size_t n = bytes_.size() / 4;
  std::size_t i = 0;
  while (i < n) {
    const std::uint8_t* t = bytes_.data() + 4 * i;
    std::size_t run = 1;
    while (i + run < n && run < 256 && t[0] == t[4 * run] && t[1] == t[4 * run + 1] &&
           t[3] == t[4 * run + 3])
      ++run;
    out.insert(out.end(), {t[0], t[1], static_cast<std::uint8_t>(run - 1), t[3]});
    i += run;
  }
  return out;
}

Result<std::vector<std::uint8_t>> expand_skip_tiles(Bytes compressed, std::size_t num_tiles) {
  std::vector<std::uint8_t> out;
  out.reserve(num_tiles * 4);
  auto error = teeworlds::for_each_skip_run(compressed, num_tiles,
                                            [&](const std::uint8_t* t, std::size_t repeat) {
                                              for (std::size_t k = 0; k < repeat; ++k)
                                                out.insert(out.end(), {t[0], t[1], 0, t[3]});
                                            });
  if (error) return *error;
  return out;
}

// ---- MapBuilder -------------------------------------------------------------

MapBuilder& MapBuilder::info(InfoSpec spec) {
  info_ = std::move(spec);
  return *this;
}

std::int32_t MapBuilder::add_external_image(std::string name, std::int32_t width,
                                            std::int32_t height) {
  images_.push_back(Image{std::move(name), 1, width, height, true, true, {}});
  return static_cast<std::int32_t>(images_.size() - 1);
}

std::int32_t MapBuilder::add_embedded_image(std::string name, std::int32_t width,
                                            std::int32_t height, bool rgba, std::int32_t version,
                                            std::optional<std::vector<std::uint8_t>> pixels) {
  std::vector<std::uint8_t> px;
  if (pixels) {
    px = std::move(*pixels);
  } else {
    px.assign(static_cast<std::size_t>(std::max(width, 0)) *
                  static_cast<std::size_t>(std::max(height, 0)) * (rgba ? 4u : 3u),
              0);
  }
  images_.push_back(Image{std::move(name), version, width, height, false, rgba, std::move(px)});
  return static_cast<std::int32_t>(images_.size() - 1);
}

std::int32_t MapBuilder::add_envelope(EnvelopeSpec spec) {
  envelopes_.push_back(std::move(spec));
  return static_cast<std::int32_t>(envelopes_.size() - 1);
}

std::int32_t MapBuilder::add_group(GroupSpec spec) {
  groups_.push_back(Group{std::move(spec), num_layers(), 0});
  return static_cast<std::int32_t>(groups_.size() - 1);
}

std::int32_t MapBuilder::add_game_group() {
  GroupSpec g;
  g.name = "Game";
  return add_group(g);
}

std::int32_t MapBuilder::add_tile_layer(TileGrid grid, TileLayerSpec spec) {
  if (groups_.empty()) add_group();
  Layer l{Layer::Kind::tiles, std::move(grid), std::move(spec), {}, {}};
  layers_.push_back(std::move(l));
  groups_.back().num++;
  return num_layers() - 1;
}

std::int32_t MapBuilder::add_quads_layer(QuadsLayerSpec spec) {
  if (groups_.empty()) add_group();
  Layer l{Layer::Kind::quads, std::nullopt, {}, std::move(spec), {}};
  layers_.push_back(std::move(l));
  groups_.back().num++;
  return num_layers() - 1;
}

std::int32_t MapBuilder::add_sounds_layer(SoundsLayerSpec spec) {
  if (groups_.empty()) add_group();
  Layer l{Layer::Kind::sounds, std::nullopt, {}, {}, std::move(spec)};
  layers_.push_back(std::move(l));
  groups_.back().num++;
  return num_layers() - 1;
}

std::int32_t MapBuilder::add_sound(std::string name, std::vector<std::uint8_t> opus) {
  if (opus.empty()) opus = {'O', 'g', 'g', 'S', 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4};
  Sound s;
  s.name = std::move(name);
  s.opus = std::move(opus);
  sounds_.push_back(std::move(s));
  return static_cast<std::int32_t>(sounds_.size() - 1);
}

std::int32_t MapBuilder::add_sound_raw(SoundItem item) {
  Sound s;
  s.raw = true;
  s.item = item;
  sounds_.push_back(std::move(s));
  return static_cast<std::int32_t>(sounds_.size() - 1);
}

void MapBuilder::add_automapper(std::int32_t group, std::int32_t layer, std::int32_t config,
                                std::int32_t seed, std::int32_t flags) {
  automappers_.push_back(Automapper{group, layer, config, seed, flags});
}

void MapBuilder::add_raw_item(std::uint16_t type_id, std::uint16_t id,
                              std::vector<std::int32_t> data) {
  raw_items_.push_back(RawItem{type_id, id, std::move(data)});
}

std::int32_t MapBuilder::add_raw_data(std::vector<std::uint8_t> bytes) {
  raw_data_.push_back(std::move(bytes));
  return static_cast<std::int32_t>(raw_data_.size() - 1);  // remapped in build()
}

MapBuilder& MapBuilder::omit_version_item(bool omit) {
  omit_version_ = omit;
  return *this;
}
MapBuilder& MapBuilder::version_value(std::int32_t value) {
  version_value_ = value;
  return *this;
}
MapBuilder& MapBuilder::envelope_point_form(EnvPointForm form) {
  point_form_ = form;
  return *this;
}
MapBuilder& MapBuilder::bezier_item(bool on) {
  bezier_item_ = on;
  return *this;
}
MapBuilder& MapBuilder::bezier_item_points(std::int32_t num_points) {
  bezier_item_points_ = num_points;
  bezier_item_ = true;
  return *this;
}

std::vector<std::uint8_t> MapBuilder::build(const WriterOptions& options) const {
  DatafileWriter w;
  // Raw data items first, so add_raw_data() indices are the data indices.
  for (const auto& d : raw_data_) w.add_data(d);

  if (!omit_version_) w.add_item(kVersionType, 0, {version_value_});

  if (info_) {
    auto str = [&](const std::optional<std::string>& s) { return s ? w.add_string(*s) : -1; };
    std::int32_t settings = -1;
    if (info_->raw_settings) {
      settings = w.add_data(*info_->raw_settings);
    } else if (!info_->settings.empty()) {
      std::vector<std::uint8_t> bytes;
      for (const auto& line : info_->settings) {
        bytes.insert(bytes.end(), line.begin(), line.end());
        bytes.push_back(0);
      }
      settings = w.add_data(bytes);
    }
    const std::int32_t author = str(info_->author), version = str(info_->version),
                       credits = str(info_->credits), license = str(info_->license);
    w.add_item(kInfoType, 0, {1, author, version, credits, license, settings});
  }

  for (std::size_t i = 0; i < images_.size(); ++i) {
    const Image& img = images_[i];
    const std::int32_t name = w.add_string(img.name);
    const std::int32_t data = img.external ? -1 : w.add_data(img.pixels);
    std::vector<std::int32_t> item{img.version,          img.width, img.height,
                                   img.external ? 1 : 0, name,      data};
    if (img.version >= 2) item.push_back(img.rgba ? 1 : 0);
    w.add_item(kImageType, static_cast<std::uint16_t>(i), std::move(item));
  }

  // Envelopes and their points.
  bool v3 = false, any_bezier = false;
  for (const auto& e : envelopes_) {
    v3 = v3 || e.version >= 3;
    for (const auto& p : e.points) any_bezier = any_bezier || p.curve == kCurveBezier;
  }
  const bool points22 = point_form_ == EnvPointForm::twenty_two_ints ||
                        (point_form_ == EnvPointForm::automatic && v3);
  std::vector<std::int32_t> points, bezier;
  std::int32_t next_point = 0;
  for (std::size_t i = 0; i < envelopes_.size(); ++i) {
    const EnvelopeSpec& e = envelopes_[i];
    const auto count = static_cast<std::int32_t>(e.points.size());
    std::vector<std::int32_t> item{e.version, e.channels, e.stored_start.value_or(next_point),
                                   e.stored_num.value_or(count)};
    append_i32_string(item, e.name, 8);
    item.push_back(e.synchronized ? 1 : 0);
    w.add_item(kEnvelopeType, static_cast<std::uint16_t>(i), std::move(item));
    next_point += count;
    for (const auto& p : e.points) {
      points.insert(points.end(),
                    {p.time, p.curve, p.values[0], p.values[1], p.values[2], p.values[3]});
      if (points22)
        points.insert(points.end(), p.bezier.begin(), p.bezier.end());
      else
        bezier.insert(bezier.end(), p.bezier.begin(), p.bezier.end());
    }
  }

  for (std::size_t i = 0; i < groups_.size(); ++i) {
    const Group& g = groups_[i];
    const GroupSpec& s = g.spec;
    std::vector<std::int32_t> item{s.version,
                                   s.offset_x,
                                   s.offset_y,
                                   s.parallax_x,
                                   s.parallax_y,
                                   s.stored_start.value_or(g.start),
                                   s.stored_num.value_or(g.num),
                                   s.clipping ? 1 : 0,
                                   s.clip_x,
                                   s.clip_y,
                                   s.clip_w,
                                   s.clip_h};
    append_i32_string(item, s.name, 3);
    w.add_item(kGroupType, static_cast<std::uint16_t>(i), std::move(item));
  }

  for (std::size_t i = 0; i < layers_.size(); ++i) {
    const Layer& l = layers_[i];
    std::vector<std::int32_t> item;
    switch (l.kind) {
      case Layer::Kind::tiles: {
        const TileGrid& grid = *l.grid;
        const TileLayerSpec& s = l.tiles;
        const LayerKind kind = grid.kind();
        const int slot = ddnet_data_slot(kind);
        std::vector<std::uint8_t> own = s.data_override                ? *s.data_override
                                        : (s.version >= 4 && slot < 0) ? grid.skip_compressed()
                                                                       : grid.bytes();
        std::int32_t data = 0;
        std::array<std::int32_t, kNumDdnetDataSlots> extra{-1, -1, -1, -1, -1};
        if (slot < 0) {
          data = w.add_data(own);
        } else {
          // DDNet keeps a zeroed vanilla Tile array in `data` for old clients.
          data = w.add_data(std::vector<std::uint8_t>(
              static_cast<std::size_t>(grid.width()) * static_cast<std::size_t>(grid.height()) * 4,
              0));
          extra[static_cast<std::size_t>(slot)] = w.add_data(own);
        }
        if (s.data_index_override) {
          if (slot < 0)
            data = *s.data_index_override;
          else
            extra[static_cast<std::size_t>(slot)] = *s.data_index_override;
        }
        item = {0,
                kLayerTilemap,
                s.detail ? kLayerFlagDetail : 0,
                s.legacy_v2_layout ? 2 : s.version,
                s.stored_width.value_or(grid.width()),
                s.stored_height.value_or(grid.height()),
                s.stored_flags.value_or(tilemap_flags(kind)),
                s.color[0],
                s.color[1],
                s.color[2],
                s.color[3],
                s.color_envelope,
                s.color_envelope_offset,
                s.image,
                data};
        if (!s.legacy_v2_layout) append_i32_string(item, s.name, 3);
        for (int k = 0; k < std::min(s.num_ddnet_slots, kNumDdnetDataSlots); ++k)
          item.push_back(extra[static_cast<std::size_t>(k)]);
        if (s.item_ints) item.resize(*s.item_ints, 0);
        break;
      }
      case Layer::Kind::quads: {
        const QuadsLayerSpec& s = l.quads;
        std::vector<std::int32_t> data;
        for (const QuadSpec& q : s.quads) {
          const std::int32_t x0 = q.x * 1024, y0 = q.y * 1024, x1 = (q.x + q.w) * 1024,
                             y1 = (q.y + q.h) * 1024;
          data.insert(data.end(), {x0, y0, x1, y0, x0, y1, x1, y1, (x0 + x1) / 2, (y0 + y1) / 2});
          for (int c = 0; c < 4; ++c) data.insert(data.end(), q.color.begin(), q.color.end());
          data.insert(data.end(), {0, 0, 1024, 0, 0, 1024, 1024, 1024});
          data.insert(data.end(), {q.position_envelope, q.position_envelope_offset,
                                   q.color_envelope, q.color_envelope_offset});
        }
        const std::int32_t index = s.data_index_override.value_or(w.add_data(to_bytes(data)));
        item = {0,
                kLayerQuads,
                s.detail ? kLayerFlagDetail : 0,
                2,
                s.stored_num_quads.value_or(static_cast<std::int32_t>(s.quads.size())),
                index,
                s.image};
        append_i32_string(item, s.name, 3);
        break;
      }
      case Layer::Kind::sounds: {
        const SoundsLayerSpec& s = l.sounds;
        std::vector<std::int32_t> data;
        for (const SoundSourceSpec& src : s.sources) {
          if (s.deprecated) {
            data.insert(data.end(), {src.x, src.y, src.looping ? 1 : 0, src.delay, src.shape_width,
                                     src.position_envelope, src.position_envelope_offset,
                                     src.sound_envelope, src.sound_envelope_offset});
          } else {
            data.insert(
                data.end(),
                {src.x, src.y, src.looping ? 1 : 0, src.panning ? 1 : 0, src.delay, src.falloff,
                 src.position_envelope, src.position_envelope_offset, src.sound_envelope,
                 src.sound_envelope_offset, src.shape_kind, src.shape_width, src.shape_height});
          }
        }
        const std::int32_t index = w.add_data(to_bytes(data));
        item = {0,
                s.deprecated ? kLayerSoundsDeprecated : kLayerSounds,
                0,
                s.deprecated ? 1 : 2,
                s.stored_num_sources.value_or(static_cast<std::int32_t>(s.sources.size())),
                index,
                s.sound};
        append_i32_string(item, s.name, 3);
        break;
      }
    }
    w.add_item(kLayerType, static_cast<std::uint16_t>(i), std::move(item));
  }

  if (!envelopes_.empty() || !points.empty()) w.add_item(kEnvPointsType, 0, points);

  for (std::size_t i = 0; i < sounds_.size(); ++i) {
    const Sound& s = sounds_[i];
    if (s.raw) {
      w.add_item(
          kSoundType, static_cast<std::uint16_t>(i),
          {s.item.version, s.item.external ? 1 : 0, s.item.name, s.item.data, s.item.data_size});
      continue;
    }
    const std::int32_t name = w.add_string(s.name);
    const std::int32_t data = w.add_data(s.opus);
    w.add_item(kSoundType, static_cast<std::uint16_t>(i),
               {1, 0, name, data, static_cast<std::int32_t>(s.opus.size())});
  }

  // DDNet's UUID items.
  const bool write_bezier = bezier_item_.value_or(any_bezier && !points22);
  if (write_bezier && !points22) {
    if (bezier_item_points_)
      bezier.resize(static_cast<std::size_t>(std::max(*bezier_item_points_, 0)) * 16, 0);
    const auto type = w.uuid_type(datafile::uuid_from_name(datafile::kEnvPointsBezierName));
    w.add_item(type, 0, bezier);
  }
  if (!automappers_.empty()) {
    const auto type = w.uuid_type(datafile::uuid_from_name(datafile::kAutomapperConfigName));
    for (std::size_t i = 0; i < automappers_.size(); ++i) {
      const Automapper& a = automappers_[i];
      w.add_item(type, static_cast<std::uint16_t>(i),
                 {1, a.group, a.layer, a.config, a.seed, a.flags});
    }
  }
  for (std::size_t i = 0; i < groups_.size(); ++i) {
    if (!groups_[i].spec.parallax_zoom) continue;
    const auto type = w.uuid_type(datafile::uuid_from_name(datafile::kGroupExName));
    w.add_item(type, static_cast<std::uint16_t>(i), {1, *groups_[i].spec.parallax_zoom});
  }

  for (const auto& r : raw_items_) w.add_item(r.type_id, r.id, r.data);
  return w.finish(options);
}

// ---- A realistic DDNet map --------------------------------------------------

std::vector<std::uint8_t> make_realistic_ddnet_map(const RealisticMapOptions& o,
                                                   const WriterOptions& writer) {
  const std::int32_t W = std::max(o.width, 40), H = std::max(o.height, 30);
  std::mt19937 rng(o.seed);
  auto rnd = [&](std::int32_t lo, std::int32_t hi) {
    return std::uniform_int_distribution<std::int32_t>(lo, hi)(rng);
  };

  MapBuilder b;
  InfoSpec info;
  info.author = "mapindex";
  info.version = "1.0";
  info.credits = "generated for tests and benchmarks";
  info.license = "CC0";
  info.settings = {"sv_hit 1", "tune_zone 1 gravity 0.25", "sv_deepfly 0"};
  b.info(info);

  const std::int32_t grass = b.add_external_image("grass_main");
  const std::int32_t doodads = b.add_external_image("grass_doodads");
  const std::int32_t sky = b.add_embedded_image("sky", 64, 64);

  EnvelopeSpec pos;
  pos.channels = kEnvPosition;
  pos.name = "sway";
  pos.points = {
      {0, 4, {0, 0, 0, 0}, {}}, {1000, 4, {4096, 0, 0, 0}, {}}, {2000, 1, {0, 0, 0, 0}, {}}};
  const std::int32_t sway = b.add_envelope(pos);
  EnvelopeSpec col;
  col.channels = kEnvColor;
  col.name = "pulse";
  col.synchronized = true;
  col.points = {{0, 1, {1024, 1024, 1024, 1024}, {}},
                {500, 2, {1024, 512, 512, 1024}, {}},
                {1500, 3, {1024, 1024, 1024, 1024}, {}}};
  const std::int32_t pulse = b.add_envelope(col);
  std::int32_t volume = -1;
  if (o.with_sounds) {
    EnvelopeSpec snd;
    snd.channels = kEnvSound;
    snd.name = "volume";
    snd.points = {{0, 0, {1024, 0, 0, 0}, {}}, {3000, 1, {0, 0, 0, 0}, {}}};
    volume = b.add_envelope(snd);
  }

  GroupSpec bg;
  bg.name = "Background";
  bg.parallax_x = 0;
  bg.parallax_y = 0;
  b.add_group(bg);
  QuadsLayerSpec quads;
  quads.name = "Sky";
  quads.image = sky;
  quads.quads.push_back(QuadSpec{-800, -600, 1600, 1200, {255, 255, 255, 255}, -1, 0, -1, 0});
  for (int i = 0; i < 12; ++i)
    quads.quads.push_back(QuadSpec{rnd(0, W * 32),
                                   rnd(0, H * 16),
                                   256,
                                   128,
                                   {255, 255, 255, 200},
                                   sway,
                                   i * 100,
                                   i % 3 == 0 ? pulse : -1,
                                   0});
  b.add_quads_layer(quads);

  // Physics.
  TileGrid game(LayerKind::game, W, H), front(LayerKind::front, W, H), tele(LayerKind::tele, W, H),
      speedup(LayerKind::speedup, W, H), sw(LayerKind::switch_layer, W, H),
      tune(LayerKind::tune, W, H);
  game.fill(0, 0, W, 2, 1).fill(0, H - 2, W, 2, 1).fill(0, 0, 2, H, 1).fill(W - 2, 0, 2, H, 1);
  for (std::int32_t x = 4; x < W - 8; x += rnd(6, 14)) {
    const std::int32_t y = rnd(H / 3, H - 6), len = rnd(3, 10);
    game.fill(x, y, std::min(len, W - 2 - x), 1, rnd(0, 4) == 0 ? 3 : 1);
    if (rnd(0, 2) == 0) game.fill(x, y - 1, std::min(len, W - 2 - x), 1, 9);  // freeze
  }
  game.fill(6, 2, 1, H - 4, 33);      // start
  game.fill(W - 7, 2, 1, H - 4, 34);  // finish
  for (int cp = 0; cp < 5; ++cp)
    game.set(10 + cp * (W - 20) / 5, H - 3, static_cast<std::uint8_t>(35 + cp));
  game.set(3, H - 3, 192).set(4, H - 3, 192);
  game.set(W / 2, H - 3, 199).set(W / 2 + 1, H - 3, 200).set(W / 2 + 2, H - 3, 201);
  game.set(W / 3, H / 2, 233).set(W / 4, H / 2, 66).set(W / 5, 4, 2);
  front.fill(W / 2, H / 2, 5, 1, 9).fill(W / 3, 3, 3, 1, 6).set(W / 2 + 6, H / 2, 16);
  tele.set_tele(W / 4, H - 3, 26, 1)
      .set_tele(3 * W / 4, 4, 27, 1)
      .set_tele(W / 2, 4, 29, 2)
      .set_tele(W / 2 + 2, 4, 30, 2);
  for (std::int32_t x = W / 3; x < W / 3 + 6; ++x) speedup.set_speedup(x, H - 3, 29, 30, 0, 90);
  sw.set_switch(W / 2, H / 3, 24, 1)
      .set_switch(W / 2 + 1, H / 3, 25, 2)
      .set_switch(W / 2 + 3, H / 3, 240 - 0, 1)
      .set_switch(W / 2 + 4, H / 3, 22, 3, 0, 5);
  tune.fill(W - 20, 2, 10, H - 4, 68);
  for (std::int32_t y = 2; y < H - 2; ++y) tune.set_tune(W - 20, y, 68, 1);

  // The marks (RealisticMapOptions::marks): markable layer `layer` gets a
  // tile at each of its marks' places, rows 6.. above the switch row (H / 3)
  // and columns 8.. left of the tune zone (W - 20), where nothing else is.
  const int markable = o.decoration_layers + 5;
  const auto for_marks = [&](int layer, const auto& put) {
    const std::int32_t cols = std::max(W - 32, 1), rows = std::max(H / 3 - 8, 1);
    for (const auto& m : o.marks)
      for (int k = 0; k < std::min(m.count, markable); ++k)
        if ((m.first + k) % markable == layer) {
          put(8 + static_cast<std::int32_t>(m.mark % static_cast<std::uint32_t>(cols)),
              6 + static_cast<std::int32_t>(m.mark / static_cast<std::uint32_t>(cols) %
                                            static_cast<std::uint32_t>(rows)));
          break;
        }
  };
  const int first_phys = o.decoration_layers;
  for_marks(first_phys, [&](std::int32_t x, std::int32_t y) { front.set(x, y, 9); });
  for_marks(first_phys + 1, [&](std::int32_t x, std::int32_t y) { tele.set_tele(x, y, 26, 1); });
  for_marks(first_phys + 2,
            [&](std::int32_t x, std::int32_t y) { speedup.set_speedup(x, y, 29, 30, 0, 90); });
  for_marks(first_phys + 3, [&](std::int32_t x, std::int32_t y) { sw.set_switch(x, y, 24, 1); });
  for_marks(first_phys + 4, [&](std::int32_t x, std::int32_t y) { tune.set_tune(x, y, 68, 1); });

  GroupSpec decoration;
  decoration.name = "Decoration";
  b.add_group(decoration);
  TileLayerSpec deco_spec;
  deco_spec.version = o.skip_compressed ? 4 : 3;
  for (int d = 0; d < o.decoration_layers; ++d) {
    TileGrid deco(LayerKind::tiles, W, H);
    const auto& src = game.bytes();
    for (std::int32_t y = 0; y < H; ++y)
      for (std::int32_t x = 0; x < W; ++x) {
        const std::uint8_t g = src[(static_cast<std::size_t>(y) * W + x) * 4];
        if (g == 1 || g == 3)
          deco.set(x, y, static_cast<std::uint8_t>(1 + (x + y + d) % 16),
                   static_cast<std::uint8_t>(rnd(0, 3) == 0 ? 1 : 0));
      }
    for_marks(d, [&](std::int32_t x, std::int32_t y) { deco.set(x, y, 20); });
    deco_spec.name = "Deco " + std::to_string(d);
    deco_spec.image = d % 2 == 0 ? grass : doodads;
    deco_spec.color_envelope = d == 0 ? pulse : -1;
    b.add_tile_layer(std::move(deco), deco_spec);
  }

  const std::int32_t game_group = b.add_game_group();
  TileLayerSpec game_spec;
  game_spec.name = "Game";
  game_spec.version = o.skip_compressed ? 4 : 3;
  const std::int32_t game_layer = b.add_tile_layer(game, game_spec);
  TileLayerSpec phys;
  b.add_tile_layer(front, (phys.name = "Front", phys));
  b.add_tile_layer(tele, (phys.name = "Tele", phys));
  b.add_tile_layer(speedup, (phys.name = "Speedup", phys));
  b.add_tile_layer(sw, (phys.name = "Switch", phys));
  b.add_tile_layer(tune, (phys.name = "Tune", phys));
  if (o.with_sounds) {
    const std::int32_t sound = b.add_sound("ambience");
    SoundsLayerSpec sl;
    sl.name = "Ambience";
    sl.sound = sound;
    sl.sources.push_back(
        SoundSourceSpec{W * 16, H * 16, true, true, 0, 0, sway, 0, volume, 0, 1, 2000, 0});
    b.add_sounds_layer(sl);
  }
  if (o.decoration_layers > 0)
    b.add_automapper(game_group - 1, 0, 0, 42, 1);  // first decoration layer
  (void)game_layer;
  return b.build(writer);
}

namespace {

constexpr std::size_t kNameInts = 3;       // a tilemap's name: 3 ints (11 bytes + NUL)
constexpr std::size_t kNameFirstInt = 15;  // after the layer header (3) and 12 tilemap ints

// The byte offset of the name ints of the tile layer named `name`, if the
// layer decodes with that name.
std::optional<std::size_t> layer_name_offset(const std::vector<std::uint8_t>& map,
                                             const std::string& name) {
  auto df = datafile::Datafile::open(map);
  if (!df) throw std::runtime_error("map does not open: " + df.error().to_string());
  const auto layers = df->items_of_type(teeworlds::kLayerType);
  for (std::uint32_t i = layers.start; i < layers.start + layers.num; ++i) {
    const auto item = df->item(i);
    auto t = teeworlds::decode_tilemap(item.data);
    if (!t || !t->has_name || t->name != name) continue;
    if (teeworlds::decode_i32_string(item.data.subview(kNameFirstInt, kNameInts)) != name)
      throw std::runtime_error("layer name is not where the tilemap layout puts it");
    return static_cast<std::size_t>(item.data.bytes().data() - map.data()) + 4 * kNameFirstInt;
  }
  return std::nullopt;
}

}  // namespace

MapVariants::MapVariants(std::vector<std::uint8_t> map) : map_(std::move(map)) {
  const auto offset = layer_name_offset(map_, "Deco 0");
  if (!offset)
    throw std::runtime_error("generated map has no layer named Deco 0 (decoration_layers >= 1)");
  name_offset_ = *offset;
}

std::vector<std::uint8_t> MapVariants::variant(const std::string& name) const {
  std::vector<std::uint8_t> copy = map_;
  std::int32_t ints[kNameInts];
  teeworlds::encode_i32_string(name, ints, kNameInts);
  for (std::size_t i = 0; i < kNameInts; ++i)
    store_le_u32(copy.data() + name_offset_ + 4 * i, static_cast<std::uint32_t>(ints[i]));
  if (layer_name_offset(copy, name) != name_offset_)
    throw std::runtime_error("renamed layer does not decode as '" + name + "'");
  return copy;
}

}  // namespace mapindex::testing
