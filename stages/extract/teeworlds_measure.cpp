#include "stages/extract/teeworlds_measure.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "stages/common/adler32.h"
#include "stages/common/sha256.h"
#include "stages/common/shared_buffer.h"
#include "stages/decode/datafile/datafile.h"
#include "stages/decode/teeworlds/item_decoders.h"
#include "stages/decode/teeworlds/teeworlds_map.h"
#include "stages/extract/teeworlds_checks.h"
#include "stages/extract/teeworlds_features.h"
#include "stages/extract/teeworlds_tile_counter.h"
#include "stages/extract/teeworlds_tile_names.h"

namespace mapindex {
namespace {

using datafile::Datafile;
using namespace teeworlds;

void add(MapStats& stats, Code code, std::string message, Location location) {
  stats.problems.push_back(Problem{code, std::move(message), location});
}

bool data_index_valid(const Datafile& df, std::int32_t index) {
  return index >= 0 && static_cast<std::size_t>(index) < df.num_data();
}

// An info string (author, version, credits, license): absent when -1 or out
// of range (D1: "no data").
std::optional<std::string> info_string(const Datafile& df, std::int32_t index, const char* field,
                                       std::size_t max_bytes, MapStats& stats) {
  if (!data_index_valid(df, index)) return std::nullopt;
  auto s = df.string_bytes(static_cast<std::size_t>(index));
  if (!s) {
    add(stats, Code::info_string,
        std::string(field) + " (data item " + std::to_string(index) + "): " + s.error().to_string(),
        Location::info());
    return std::nullopt;
  }
  if (s->size() + 1 > max_bytes) {
    add(stats, Code::info_too_long,
        std::string(field) + " is " + std::to_string(s->size() + 1) +
            " bytes with its NUL, at most " + std::to_string(max_bytes) + " allowed",
        Location::info());
  }
  return std::move(s.value());
}

void measure_info(const Datafile& df, const TeeworldsMap& map, MapStats& stats,
                  std::vector<std::uint8_t>& scratch) {
  if (!map.info) return;
  const InfoItem& info = *map.info;
  stats.author = info_string(df, info.author, "author", kInfoAuthorMax, stats);
  stats.map_version = info_string(df, info.map_version, "version", kInfoVersionMax, stats);
  stats.credits = info_string(df, info.credits, "credits", kInfoCreditsMax, stats);
  stats.license = info_string(df, info.license, "license", kInfoLicenseMax, stats);
  if (!data_index_valid(df, info.settings)) return;
  auto data = df.data(static_cast<std::size_t>(info.settings), scratch);
  if (!data) {
    add(stats, Code::info_settings,
        "settings (data item " + std::to_string(info.settings) + "): " + data.error().to_string(),
        Location::info());
    return;
  }
  const Bytes bytes = *data;
  if (bytes.empty() || bytes.back() != 0) {
    add(stats, Code::info_settings,
        "settings data of " + std::to_string(bytes.size()) + " bytes does not end with a NUL",
        Location::info());
  }
  std::size_t start = 0;
  for (std::size_t i = 0; i <= bytes.size(); ++i) {
    if (i < bytes.size() && bytes[i] != 0) continue;
    if (i > start || i < bytes.size()) {
      std::string line(reinterpret_cast<const char*>(bytes.data()) + start, i - start);
      if (i < bytes.size() || !line.empty()) stats.settings.push_back(std::move(line));
    }
    start = i + 1;
  }
}

void measure_images(const Datafile& df, const TeeworldsMap& map, MapStats& stats) {
  for (std::size_t i = 0; i < map.images.size(); ++i) {
    ImageStats img;
    img.image_index = static_cast<std::int32_t>(i);
    const Location where = Location::image(img.image_index);
    if (const auto& item = map.images[i]) {
      img.version = item->version;
      img.width = item->width;
      img.height = item->height;
      img.external = item->external;
      img.rgba = item->rgba();
      if (data_index_valid(df, item->name)) {
        auto name = df.string_bytes(static_cast<std::size_t>(item->name));
        if (name)
          img.name = std::move(name.value());
        else
          add(stats, Code::image_name, "image name: " + name.error().to_string(), where);
      } else {
        add(stats, Code::image_name,
            "image name data index " + std::to_string(item->name) + " is out of range", where);
      }
      if (img.name.size() + 1 > kImageNameMax)
        add(stats, Code::image_name,
            "image name is " + std::to_string(img.name.size() + 1) +
                " bytes with its NUL, at most " + std::to_string(kImageNameMax) + " allowed",
            where);
      img.standard_name = is_standard_external_image(img.name);
      if (!img.external) {
        if (data_index_valid(df, item->data)) {
          img.data_stored_size = df.data_stored_size(static_cast<std::size_t>(item->data));
          img.data_size = df.data_size(static_cast<std::size_t>(item->data));
        } else {
          add(stats, Code::image_no_data,
              "embedded image data index " + std::to_string(item->data) + " is outside the " +
                  std::to_string(df.num_data()) + " data items",
              where);
        }
      }
    }
    stats.images.push_back(std::move(img));
  }
}

void measure_envelopes(const TeeworldsMap& map, MapStats& stats) {
  const std::size_t num_points = map.points.size();
  stats.num_envelope_points = static_cast<std::int64_t>(num_points);
  // Envelopes' point ranges may overlap (every envelope spanning every
  // point): per envelope O(1) from prefix counts of each curve type and the
  // next point whose time goes back, not a walk over its range.
  std::vector<std::array<std::uint32_t, kNumCurveTypes>> curves_before(num_points + 1);
  std::vector<std::uint32_t> next_descent(num_points + 1);  // first p >= i with time(p) < time(p-1)
  for (std::size_t p = 0; p < num_points; ++p) {
    const std::int32_t curve = map.points.curve(p);
    const std::size_t c =
        curve >= 0 && curve <= kCurveBezier ? static_cast<std::size_t>(curve) : kNumCurveTypes - 1;
    curves_before[p + 1] = curves_before[p];
    curves_before[p + 1][c]++;
  }
  next_descent[num_points] = static_cast<std::uint32_t>(num_points);
  for (std::size_t p = num_points; p-- > 0;)
    next_descent[p] = p > 0 && map.points.time(p) < map.points.time(p - 1)
                          ? static_cast<std::uint32_t>(p)
                          : next_descent[p + 1];
  for (std::size_t i = 0; i < map.envelopes.size(); ++i) {
    EnvelopeStats env;
    env.envelope_index = static_cast<std::int32_t>(i);
    const Location where = Location::envelope(env.envelope_index);
    if (const auto& item = map.envelopes[i]) {
      env.version = item->version;
      env.channels = item->channels;
      env.kind = envelope_kind_of_channels(item->channels);
      env.name = item->name;
      env.synchronized = item->synchronized;
      env.start_point = item->start_point;
      env.num_points = item->num_points;
      if (env.kind == EnvelopeKind::unknown)
        add(stats, Code::envelope_channels,
            "envelope has " + std::to_string(item->channels) +
                " channels (expected 1 sound, 3 position or 4 color)",
            where);
      const std::int64_t start = item->start_point, count = item->num_points;
      if (start < 0 || count < 0 || start + count > static_cast<std::int64_t>(num_points)) {
        add(stats, Code::envelope_points_range,
            "envelope points " + std::to_string(start) + " + " + std::to_string(count) +
                " are outside the " + std::to_string(num_points) + " envelope points",
            where);
      } else if (count > 0) {
        const auto first = static_cast<std::size_t>(start);
        const auto end = static_cast<std::size_t>(start + count);
        for (std::size_t c = 0; c < kNumCurveTypes; ++c)
          env.curves[c] += curves_before[end][c] - curves_before[first][c];
        // The first point (after the envelope's first) whose time goes back.
        const std::size_t pi = next_descent[first + 1];
        if (pi < end)
          add(stats, Code::envelope_time_order,
              "point " + std::to_string(pi - first) + " has time " +
                  std::to_string(map.points.time(pi)) + ", before the previous point's " +
                  std::to_string(map.points.time(pi - 1)),
              where);
      }
    }
    stats.envelopes.push_back(std::move(env));
  }
}

void measure_sounds(const Datafile& df, const TeeworldsMap& map, MapStats& stats) {
  for (std::size_t i = 0; i < map.sounds.size(); ++i) {
    SoundStats snd;
    snd.sound_index = static_cast<std::int32_t>(i);
    const Location where = Location::sound(snd.sound_index);
    if (const auto& item = map.sounds[i]) {
      snd.external = item->external;
      if (data_index_valid(df, item->name)) {
        auto name = df.string_bytes(static_cast<std::size_t>(item->name));
        if (name)
          snd.name = std::move(name.value());
        else
          add(stats, Code::sound_name, "sound name: " + name.error().to_string(), where);
      }
      if (item->external) {
        // no data expected (sound.external reports it)
      } else if (data_index_valid(df, item->data)) {
        snd.data_stored_size = df.data_stored_size(static_cast<std::size_t>(item->data));
        snd.data_size = df.data_size(static_cast<std::size_t>(item->data));
      } else {
        add(stats, Code::sound_no_data,
            "sound data index " + std::to_string(item->data) + " is outside the " +
                std::to_string(df.num_data()) + " data items",
            where);
      }
    }
    stats.sounds.push_back(std::move(snd));
  }
}

void measure_groups(const TeeworldsMap& map, MapStats& stats) {
  const std::int32_t game = map.game_layer();
  const std::int32_t game_group = game >= 0 ? map.layers[static_cast<std::size_t>(game)].group : -1;
  for (std::size_t i = 0; i < map.groups.size(); ++i) {
    GroupStats g;
    g.group_index = static_cast<std::int32_t>(i);
    if (const auto& item = map.groups[i]) {
      g.version = item->version;
      g.name = item->name;
      g.offset_x = item->offset_x;
      g.offset_y = item->offset_y;
      g.parallax_x = item->parallax_x;
      g.parallax_y = item->parallax_y;
      g.start_layer = item->start_layer;
      g.num_layers = item->num_layers;
      g.clipping = item->clipping;
      g.clip_x = item->clip_x;
      g.clip_y = item->clip_y;
      g.clip_w = item->clip_w;
      g.clip_h = item->clip_h;
    }
    g.game_group = g.group_index == game_group;
    stats.groups.push_back(std::move(g));
  }
}

// Per-layer aggregation of envelope uses (role, envelope) -> count.
void add_envelope_refs(std::int32_t layer,
                       const std::map<std::pair<EnvelopeRole, std::int32_t>, std::int64_t>& uses,
                       References& refs) {
  for (const auto& [key, count] : uses)
    refs.envelopes.push_back(References::Envelope{layer, key.first, key.second, count});
}

std::vector<std::uint8_t>& thread_scratch() {
  static thread_local std::vector<std::uint8_t> buffer;
  return buffer;
}

ZeroedBuffer& thread_tile_buffer() {
  static thread_local ZeroedBuffer buffer;
  return buffer;
}

class LayerMeasurer {
 public:
  LayerMeasurer(const Datafile& df, const TeeworldsMap& map, MapStats& stats, References& refs,
                const MeasureOptions& options)
      : df_(df), map_(map), stats_(stats), refs_(refs), options_(options) {
    const std::uint64_t max_data_item_size =
        std::min<std::uint64_t>(options.max_data_item_size, kSharedBufferAbove);
    // One buffer of the largest tile layer's size for all layers: no
    // reallocation each time a larger layer comes. Layers larger than
    // kSharedBufferAbove go into the shared buffer instead.
    std::int64_t largest = 0;
    for (const auto& layer : map.layers) {
      if (!layer.tilemap || !layer.tiles_readable) continue;
      const std::int64_t size = df.data_size(static_cast<std::size_t>(layer.tilemap->tile_data()));
      if (size > largest && static_cast<std::uint64_t>(size) <= max_data_item_size) largest = size;
    }
    tiles_.take(static_cast<std::size_t>(largest));
  }
  // The thread's buffers stay at most kSharedBufferAbove between maps (quads
  // or sound data of a hostile map may have grown the scratch further).
  ~LayerMeasurer() {
    if (scratch_.capacity() > kSharedBufferAbove) std::vector<std::uint8_t>().swap(scratch_);
    if (tiles_.capacity() > kSharedBufferAbove) tiles_.release();
  }
  LayerMeasurer(const LayerMeasurer&) = delete;
  LayerMeasurer& operator=(const LayerMeasurer&) = delete;

  void measure(const DecodedLayer& layer) {
    LayerStats ls;
    ls.layer_index = layer.index;
    ls.group_index = layer.group;
    ls.kind = layer.type;
    if (layer.header) {
      ls.item_type = layer.header->type;
      ls.detail = layer.header->detail();
    }
    if (layer.tilemap) measure_tilemap(layer, *layer.tilemap, ls);
    if (layer.quads) measure_quads(layer, *layer.quads, ls);
    if (layer.sounds) measure_sources(layer, *layer.sounds, ls);
    stats_.layers.push_back(std::move(ls));
  }

  KeysPresent& present() { return present_; }

  // The physics layers a thumbnail would be drawn from, with their keys;
  // with before_layers returning true, they are not inflated for drawing.
  void offer_drawn_layers() {
    if (!options_.before_layers) return;
    DrawnLayers drawn;
    std::uint32_t kinds = 0;
    for (const auto& layer : map_.layers) {
      if (!layer.tilemap || !layer.tiles_readable) continue;
      if (!((options_.inflate_always >> index_of(layer.type)) & 1u)) continue;
      if (!render::is_drawn_physics(layer.type)) continue;
      if (map_.physics_layer(layer.type) != layer.index) continue;
      drawn.layer_indices.push_back(layer.index);
      kinds |= 1u << index_of(layer.type);
      if (auto key = data_key(layer, *layer.tilemap))
        drawn.keys.push_back(*key);
      else
        drawn.all_keyed = false;
    }
    if (const std::int32_t game = map_.game_layer(); game >= 0) {
      drawn.map_width = map_.layers[static_cast<std::size_t>(game)].tilemap->width;
      drawn.map_height = map_.layers[static_cast<std::size_t>(game)].tilemap->height;
    }
    if (options_.before_layers(drawn)) inflate_always_ &= ~kinds;
  }

 private:
  void error(const DecodedLayer& layer, Code code, std::string message) {
    add(stats_, code, std::move(message), Location::layer(layer.index));
  }

  void measure_tilemap(const DecodedLayer& layer, const TilemapLayer& t, LayerStats& ls) {
    ls.version = t.version;
    ls.name = t.name;
    ls.width = t.width;
    ls.height = t.height;
    ls.color = t.color;
    ls.skip_compressed = t.skip_compressed();
    if (layer.type == LayerKind::tiles) {
      ls.image = t.image;
      ls.color_envelope = t.color_envelope;
      refs_.images.push_back(References::Image{layer.index, t.image, true, 0});
      if (t.color_envelope >= 0)
        refs_.envelopes.push_back(
            References::Envelope{layer.index, EnvelopeRole::layer_color, t.color_envelope, 1});
    }
    if (!layer.tiles_readable) return;
    count_tiles(layer, t, ls);
  }

  // The key of the layer's data: v4 datafiles only (v3 stores the data as
  // is: nothing to inflate, and its bytes are no zlib stream to key by).
  // Computed once per layer (offer_drawn_layers asks before count_tiles).
  std::optional<LayerDataKey> data_key(const DecodedLayer& layer, const TilemapLayer& t) {
    if (auto it = keys_.find(layer.index); it != keys_.end()) return it->second;
    auto key = compute_data_key(layer, t);
    keys_.emplace(layer.index, key);
    return key;
  }
  std::optional<LayerDataKey> compute_data_key(const DecodedLayer& layer,
                                               const TilemapLayer& t) const {
    if (df_.version() != 4) return std::nullopt;
    const std::int32_t index = t.tile_data();
    auto stored = df_.stored_data(static_cast<std::size_t>(index));
    if (!stored) return std::nullopt;
    LayerDataKey key;
    key.sha256 = digest(static_cast<std::size_t>(index), *stored);
    key.kind = layer.type;
    key.version = t.version;
    key.width = t.width;
    key.height = t.height;
    key.data_size = df_.data_size(static_cast<std::size_t>(index));
    return key;
  }

  // The SHA-256 of data item `index`'s stored bytes: computed ahead when
  // MeasureOptions::digests has it, for these very bytes.
  Sha256 digest(std::size_t index, Bytes stored) const {
    const TileDataDigests* ahead = options_.digests;
    if (ahead && ahead->file.data() == df_.file().data() &&
        ahead->file.size() == df_.file().size()) {
      const auto it =
          std::lower_bound(ahead->items.begin(), ahead->items.end(), index,
                           [](const TileDataDigest& d, std::size_t i) { return d.index < i; });
      if (it != ahead->items.end() && it->index == index) return it->sha256;
    }
    return sha256(stored);
  }

  // Where tile data item `index` is inflated: the thread's buffer, or for
  // data larger than kSharedBufferAbove the shared one, taken (waiting for
  // another thread to give it back) into `lease` until the caller drops it.
  // Taken after the layer cache was asked and given back before a result is
  // offered to it, so a thread never holds it while it waits on the cache.
  ZeroedBuffer& buffer_for(std::int32_t index, SharedBuffer::Lease& lease) {
    const std::int64_t size = df_.data_size(static_cast<std::size_t>(index));
    if (size <= 0 || static_cast<std::uint64_t>(size) <= kSharedBufferAbove) return tiles_;
    lease = SharedBuffer::instance().take();
    return lease.buffer();
  }

  void count_tiles(const DecodedLayer& layer, const TilemapLayer& t, LayerStats& ls) {
    const std::int32_t index = t.tile_data();
    const std::optional<LayerDataKey> key = data_key(layer, t);
    LayerDataStore* store = options_.layer_store;
    if (key && store) {
      if (auto known = store->find(*key)) {
        // Inflated anyway for a caller that needs the tiles; otherwise only
        // counted against the inflate budget, as inflating would have.
        const bool inflate = (inflate_always_ >> index_of(layer.type)) & 1u;
        bool read = false;
        if (inflate) {
          SharedBuffer::Lease lease;
          // The key holds the SHA-256 of the stored stream, checksum
          // included, and results are stored only once their data passed the
          // checksum: these bytes inflate to what passed it then.
          std::optional<std::uint32_t> passed_before;
          ZeroedBuffer& buffer = buffer_for(index, lease);
          auto data = df_.data_unchecked(static_cast<std::size_t>(index), buffer, passed_before);
          read = data.ok();
          if (read && options_.on_tile_layer)
            options_.on_tile_layer(tile_layer_view(layer, t, *data, KnownZeros(buffer)));
        } else {
          read = df_.charge(static_cast<std::size_t>(index)).ok();
        }
        // A read that fails here fails below the same way (a failing check
        // counts nothing against the budget), which reports it.
        if (read) {
          apply(layer, *known, ls);
          ls.data_key = key;
          return;
        }
      }
    }
    const auto unreadable = [&](const Error& e) {
      const bool game = layer.type == LayerKind::game;
      error(layer, game ? Code::M15 : Code::M14,
            std::string(layer_type_name(layer.type)) + " layer tile data (data item " +
                std::to_string(index) + ") cannot be read: " + e.to_string());
    };
    SharedBuffer::Lease lease;
    // The counting reads every byte: it also checks the stream's checksum,
    // summing the air it skips in one step (Adler32Scan), before anything
    // uses what it counted or the tiles are drawn.
    std::optional<std::uint32_t> checksum;
    ZeroedBuffer& buffer = buffer_for(index, lease);
    auto data = df_.data_unchecked(static_cast<std::size_t>(index), buffer, checksum);
    if (!data) return unreadable(data.error());
    const KnownZeros known(buffer);
    Adler32Scan scan(*data);
    auto measured = std::make_shared<LayerData>(
        measure_data(layer.type, t, *data, checksum ? &scan : nullptr, known));
    if (checksum && scan.finish() != *checksum)
      return unreadable(df_.invalid_stream_error(static_cast<std::size_t>(index)));
    if (options_.on_tile_layer) options_.on_tile_layer(tile_layer_view(layer, t, *data, known));
    lease = {};  // the data is no longer needed
    apply(layer, *measured, ls);
    if (key) {
      ls.data_key = key;
      if (store) store->offer(*key, std::move(measured));
    }
  }

  // What the layer's data gives (map-independent: no location, no map).
  // With `adler` (a scan of `bytes`), the counting reports the air it skips;
  // it does not read the air `known` knows of.
  LayerData measure_data(LayerKind kind, const TilemapLayer& t, Bytes bytes, Adler32Scan* adler,
                         const KnownZeros& known) {
    LayerData out;
    const auto finding = [&out](Code code, std::string message) {
      out.findings.push_back(LayerFinding{code, std::move(message)});
    };
    const auto num_tiles = static_cast<std::size_t>(std::int64_t{t.width} * t.height);
    counts_ = TileCounts{};
    if (t.skip_compressed()) {
      if (auto e = count_skip_tiles(bytes, num_tiles, counts_)) finding(e->code, e->message);
    } else {
      const std::size_t size = tile_struct_size(kind);
      std::size_t n = num_tiles;
      if (bytes.size() / size < num_tiles) {
        n = bytes.size() / size;
        finding(Code::M14, std::string(layer_type_name(kind)) + " layer tile data holds " +
                               std::to_string(bytes.size()) + " bytes, " + std::to_string(t.width) +
                               "x" + std::to_string(t.height) + " tiles of " +
                               std::to_string(size) + " bytes need " +
                               std::to_string(num_tiles * size));
      }
      count_plain_tiles(bytes, kind, n, counts_, adler, known);
    }
    if (counts_.reserved_nonzero > 0)
      finding(Code::M14, std::to_string(counts_.reserved_nonzero) +
                             " tiles have a non-zero reserved byte (byte 3 of the Tile struct)");
    summarize(kind, out, finding);
    return out;
  }

  template <class Finding>
  void summarize(LayerKind kind, LayerData& out, const Finding& finding) {
    const TileNameTable* names = tile_names(kind);
    std::string invalid;
    std::int64_t invalid_kinds = 0;
    for (std::size_t k = 1; k < 256; ++k) {
      const std::int64_t c = counts_.keys[k];
      if (c == 0) continue;
      out.tile_counts.push_back(TileCount{static_cast<std::int32_t>(k), c});
      if (!names) continue;
      switch (names->category[k]) {
        case TileCategory::entity: out.entities.push_back(NamedCount{names->name[k], c}); break;
        case TileCategory::tile: break;
        case TileCategory::invalid:
          if (invalid_kinds++ < 8)
            invalid +=
                (invalid.empty() ? "" : ", ") + std::to_string(k) + " (" + std::to_string(c) + "x)";
          break;
      }
    }
    if (invalid_kinds > 0)
      finding(Code::tile_invalid, std::to_string(invalid_kinds) + " tile kinds not valid on a " +
                                      layer_type_name(kind) + " layer: " + invalid +
                                      (invalid_kinds > 8 ? ", ..." : ""));
    std::sort(out.entities.begin(), out.entities.end(),
              [](const NamedCount& a, const NamedCount& b) { return a.name < b.name; });
    out.non_empty = counts_.non_empty();
    for (std::size_t f = 0; f < 256; ++f) {
      const std::int64_t c = counts_.flags[f];
      if (c == 0) continue;
      if (f & tile_flag::kFlipX) out.flip_x += c;
      if (f & tile_flag::kFlipY) out.flip_y += c;
      if (f & tile_flag::kRotate) out.rotate += c;
    }
    if (kind == LayerKind::tele || kind == LayerKind::switch_layer || kind == LayerKind::tune) {
      for (std::size_t n = 1; n < 256; ++n)
        if (counts_.numbers[n] > 0) out.numbers.push_back(static_cast<std::int32_t>(n));
    }
  }

  // Combines a layer's data result (measured now or before) into the map:
  // the layer's fields, its findings as the map's problems at this layer,
  // and its keys for the DDNet features when the game uses this layer.
  void apply(const DecodedLayer& layer, const LayerData& d, LayerStats& ls) {
    ls.tile_counts = d.tile_counts;
    ls.entities = d.entities;
    ls.numbers = d.numbers;
    ls.non_empty = d.non_empty;
    ls.flip_x = d.flip_x;
    ls.flip_y = d.flip_y;
    ls.rotate = d.rotate;
    ls.data_findings = d.findings;
    for (const auto& f : d.findings) error(layer, f.code, f.message);
    if (map_.physics_layer(layer.type) == layer.index)
      for (const auto& t : d.tile_counts)
        present_[index_of(layer.type)].set(static_cast<std::size_t>(t.tile));
  }

  // The inflated tiles for MeasureOptions::on_tile_layer (thumbnails).
  render::TileLayerView tile_layer_view(const DecodedLayer& layer, const TilemapLayer& t,
                                        Bytes bytes, const KnownZeros& known) const {
    render::TileLayerView v{
        .kind = layer.type,
        .layer_index = layer.index,
        .width = t.width,
        .height = t.height,
        .data = bytes,
        .known_zeros = known,
        .skip_compressed = t.skip_compressed(),
        .in_use = layer.type == LayerKind::tiles || map_.physics_layer(layer.type) == layer.index};
    for (const auto& l : map_.layers) {
      if (l.index == layer.index) break;
      v.design_number += l.type == LayerKind::tiles;
    }
    if (const std::int32_t game = map_.game_layer(); game >= 0) {
      v.map_width = map_.layers[static_cast<std::size_t>(game)].tilemap->width;
      v.map_height = map_.layers[static_cast<std::size_t>(game)].tilemap->height;
    }
    return v;
  }

  // Reads `count` records of `record_bytes` from data item `index` (quads,
  // sound sources) into scratch; reports a size mismatch.
  std::optional<Bytes> records(const DecodedLayer& layer, std::int32_t index, std::int64_t count,
                               std::size_t record_bytes, Code bad_data, Code bad_size,
                               const char* what) {
    if (count <= 0 && index < 0) return Bytes{};
    if (!data_index_valid(df_, index)) {
      error(layer, bad_data,
            std::string(what) + " data index " + std::to_string(index) + " is outside the " +
                std::to_string(df_.num_data()) + " data items");
      return std::nullopt;
    }
    auto data = df_.data(static_cast<std::size_t>(index), scratch_);
    if (!data) {
      error(layer, bad_data,
            std::string(what) + " data (data item " + std::to_string(index) +
                ") cannot be read: " + data.error().to_string());
      return std::nullopt;
    }
    const std::int64_t want =
        std::max<std::int64_t>(count, 0) * static_cast<std::int64_t>(record_bytes);
    if (static_cast<std::int64_t>(data->size()) != want) {
      error(layer, bad_size,
            std::to_string(count) + " " + what + "s of " + std::to_string(record_bytes) +
                " bytes need " + std::to_string(want) + " bytes, the data holds " +
                std::to_string(data->size()));
    }
    const std::size_t n = std::min<std::size_t>(
        data->size() / record_bytes, static_cast<std::size_t>(std::max<std::int64_t>(count, 0)));
    return data->first(n * record_bytes);
  }

  void measure_quads(const DecodedLayer& layer, const QuadsLayer& q, LayerStats& ls) {
    ls.version = q.version;
    ls.name = q.name;
    ls.image = q.image;
    ls.num_quads = std::max(q.num_quads, 0);
    auto bytes = records(layer, q.data, q.num_quads, kQuadBytes, Code::quads_data,
                         Code::quads_data_size, "quad");
    std::int64_t read = 0;
    std::map<std::pair<EnvelopeRole, std::int32_t>, std::int64_t> uses;
    if (bytes) {
      read = static_cast<std::int64_t>(bytes->size() / kQuadBytes);
      for (std::int64_t i = 0; i < read; ++i) {
        const Quad quad = decode_quad(bytes->data() + static_cast<std::size_t>(i) * kQuadBytes);
        if (quad.position_envelope >= 0)
          uses[{EnvelopeRole::quad_position, quad.position_envelope}]++;
        if (quad.color_envelope >= 0) uses[{EnvelopeRole::quad_color, quad.color_envelope}]++;
      }
    }
    ls.non_empty = read;
    refs_.images.push_back(References::Image{layer.index, q.image, false, ls.num_quads});
    add_envelope_refs(layer.index, uses, refs_);
  }

  void measure_sources(const DecodedLayer& layer, const SoundsLayer& s, LayerStats& ls) {
    ls.version = s.version;
    ls.name = s.name;
    ls.sound = s.sound;
    ls.num_sources = std::max(s.num_sources, 0);
    auto bytes = records(layer, s.data, s.num_sources, s.source_bytes(), Code::sounds_data,
                         Code::sounds_data_size, "sound source");
    std::int64_t read = 0;
    std::map<std::pair<EnvelopeRole, std::int32_t>, std::int64_t> uses;
    if (bytes) {
      read = static_cast<std::int64_t>(bytes->size() / s.source_bytes());
      for (std::int64_t i = 0; i < read; ++i) {
        const SoundSource src = decode_sound_source(
            bytes->data() + static_cast<std::size_t>(i) * s.source_bytes(), s.deprecated);
        if (src.position_envelope >= 0)
          uses[{EnvelopeRole::source_position, src.position_envelope}]++;
        if (src.sound_envelope >= 0) uses[{EnvelopeRole::source_sound, src.sound_envelope}]++;
      }
    }
    ls.non_empty = read;
    refs_.sounds.push_back(References::Sound{layer.index, s.sound, ls.num_sources});
    add_envelope_refs(layer.index, uses, refs_);
  }

  const Datafile& df_;
  const TeeworldsMap& map_;
  MapStats& stats_;
  References& refs_;
  const MeasureOptions& options_;
  std::vector<std::uint8_t>& scratch_ =
      thread_scratch();  // one layer's quads or sources at a time, reused across maps
  ZeroedBuffer& tiles_ = thread_tile_buffer();  // one layer's tile data at a time
  TileCounts counts_;
  KeysPresent present_{};
  std::uint32_t inflate_always_ = options_.inflate_always;
  std::map<std::int32_t, std::optional<LayerDataKey>> keys_;  // by layer index
};

}  // namespace

bool looks_like_datafile(Bytes file) {
  if (file.size() < 4) return false;
  const auto m = [&](const char* s) {
    return file[0] == s[0] && file[1] == s[1] && file[2] == s[2] && file[3] == s[3];
  };
  return m("DATA") || m("ATAD");
}

TileDataDigests digest_tile_data(Bytes file, DigestMemo* memo) {
  TileDataDigests out;
  out.file = file;
  if (!looks_like_datafile(file)) return out;
  auto df = Datafile::open(file);
  if (!df || df->version() != 4) return out;
  std::vector<std::size_t> indices = teeworlds::tile_data_indices(*df);
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  out.items.reserve(indices.size());
  for (const std::size_t index : indices)
    if (auto stored = df->stored_data(index))
      out.items.push_back({index, memo ? memo->digest(*stored) : sha256(*stored)});
  return out;
}

MapStats measure_teeworlds(Bytes file, const MeasureOptions& options) {
  MapStats stats;
  stats.format = MapFormat::teeworlds;
  datafile::Options dopt;
  dopt.max_data_item_size = options.max_data_item_size;
  dopt.tile_inflater = options.tile_inflater;
  auto opened = Datafile::open(file, dopt);
  if (!opened) {
    stats.problems.push_back(
        Problem{opened.error().code, opened.error().message, Location::file()});
    finalize_status(stats);
    return stats;
  }
  const Datafile& df = *opened;
  stats.format_version = df.version();
  stats.crude_header = df.crude_header();
  stats.reversed_magic = df.reversed_magic();
  stats.num_items = static_cast<std::int32_t>(df.num_items());
  stats.num_data = static_cast<std::int32_t>(df.num_data());
  for (const auto& w : df.warnings()) stats.problems.push_back(w);

  TeeworldsMap map = decode_map(df);
  for (auto& p : map.problems) stats.problems.push_back(std::move(p));
  stats.uuid_types = map.uuid_types;
  stats.num_automappers = static_cast<std::int32_t>(map.automappers.size());

  std::vector<std::uint8_t> scratch;
  measure_info(df, map, stats, scratch);
  measure_images(df, map, stats);
  measure_envelopes(map, stats);
  measure_sounds(df, map, stats);
  measure_groups(map, stats);

  References refs;
  {
    LayerMeasurer measurer(df, map, stats, refs, options);
    measurer.offer_drawn_layers();
    for (const auto& layer : map.layers) measurer.measure(layer);
    stats.ddnet_features = ddnet_features(measurer.present());
  }
  if (const std::int32_t game = map.game_layer(); game >= 0) {
    const TilemapLayer& g = *map.layers[static_cast<std::size_t>(game)].tilemap;
    stats.game_width = g.width;
    stats.game_height = g.height;
  }

  resolve_references(refs, stats);
  check_images_and_sounds(stats);
  check_groups_and_automappers(map, stats);
  report_text_not_utf8(stats);
  finalize_status(stats);
  return stats;
}

}  // namespace mapindex
