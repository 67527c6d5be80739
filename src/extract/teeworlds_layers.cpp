#include "extract/teeworlds_layers.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/sha256.h"
#include "decode/teeworlds/item_decoders.h"
#include "extract/teeworlds_tile_counter.h"
#include "extract/teeworlds_tile_names.h"
#include "tiledata/checked_tiles.h"
#include "tiledata/shared_buffer.h"

namespace mapindex {
namespace {

using datafile::Datafile;
using namespace teeworlds;

// Per-layer aggregation of envelope uses (role, envelope) -> count.
void add_envelope_refs(std::int32_t layer,
                       const std::map<std::pair<EnvelopeRole, std::int32_t>, std::int64_t>& uses,
                       References& refs) {
  for (const auto& [key, count] : uses)
    refs.envelopes.push_back(References::Envelope{layer, key.first, key.second, count});
}

class LayerMeasurer {
 public:
  LayerMeasurer(const Datafile& df, const TeeworldsMap& map, MapStats& stats, References& refs,
                const MeasureContext& options, TileLayerSink* sink, MeasureWorkspace& workspace)
      : df_(df),
        map_(map),
        stats_(stats),
        refs_(refs),
        options_(options),
        sink_(sink),
        workspace_(workspace),
        scratch_(workspace.scratch),
        tiles_(workspace.tiles) {
    const std::uint64_t max_data_item_size =
        std::min<std::uint64_t>(options.max_data_item_size, tiledata::kSharedBufferAbove);
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
  // The workspace's buffers stay at most kSharedBufferAbove between maps (quads
  // or sound data of a hostile map may have grown the scratch further).
  ~LayerMeasurer() {
    if (scratch_.capacity() > tiledata::kSharedBufferAbove)
      std::vector<std::uint8_t>().swap(scratch_);
    if (tiles_.capacity() > tiledata::kSharedBufferAbove) tiles_.release();
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
  // with already_drawn true, they are not inflated for drawing.
  void offer_drawn_layers() {
    if (!sink_) return;
    DrawnLayers drawn;
    std::uint32_t kinds = 0;
    for (const auto& layer : map_.layers) {
      if (!layer.tilemap || !layer.tiles_readable) continue;
      if (!((inflate_always_ >> index_of(layer.type)) & 1u)) continue;
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
    if (sink_->already_drawn(drawn)) inflate_always_ &= ~kinds;
  }

 private:
  void error(const DecodedLayer& layer, Code code, std::string message) {
    stats_.problems.push_back(Problem{code, std::move(message), Location::layer(layer.index)});
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
  // MeasureContext::digests has it, for these very bytes.
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

  // Where tile data item `index` is inflated: the workspace's buffer, or for
  // data larger than kSharedBufferAbove the shared one, taken (waiting for
  // another thread to give it back) into `lease` until the caller drops it.
  // Taken after the layer cache was asked and given back before a result is
  // offered to it, so a thread never holds it while it waits on the cache.
  tiledata::ZeroedBuffer& buffer_for(std::int32_t index, tiledata::SharedBuffer::Lease& lease) {
    return workspace_.tile_buffer(df_.data_size(static_cast<std::size_t>(index)), lease);
  }

  void count_tiles(const DecodedLayer& layer, const TilemapLayer& t, LayerStats& ls) {
    const std::int32_t index = t.tile_data();
    const std::optional<LayerDataKey> key = data_key(layer, t);
    LayerDataStore* store = options_.layer_store;
    // A find that gave null may leave the key claimed by this thread: a
    // result is offered for it below, or (the data unreadable, or an
    // exception) given up, so that threads waiting for it measure it then.
    struct Claim {
      LayerDataStore* store = nullptr;
      const LayerDataKey* key = nullptr;
      ~Claim() {
        if (store) store->give_up(*key);
      }
    } claim;
    if (key && store) {
      auto known = store->find(*key);
      if (!known) {
        claim.store = store;
        claim.key = &*key;
      } else {
        // Inflated anyway for a caller that needs the tiles; otherwise only
        // counted against the inflate budget, as inflating would have.
        const bool inflate = (inflate_always_ >> index_of(layer.type)) & 1u;
        bool read = false;
        if (inflate) {
          tiledata::SharedBuffer::Lease lease;
          tiledata::ZeroedBuffer& buffer = buffer_for(index, lease);
          auto data = df_.tile_data(static_cast<std::size_t>(index), buffer);
          read = data.ok();
          // Results are stored only once their data passed the checksum, and
          // the key is the SHA-256 of the stored stream, checksum included.
          if (read && sink_)
            sink_->on_tile_layer(tile_layer_view(
                map_, layer, tiledata::CheckedTiles::vouched_by_key(*data, key->sha256)));
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
    tiledata::SharedBuffer::Lease lease;
    tiledata::ZeroedBuffer& buffer = buffer_for(index, lease);
    auto data = df_.tile_data(static_cast<std::size_t>(index), buffer);
    if (!data) return unreadable(data.error());
    // The counting reads every byte: it sums the stream's checksum on the
    // same pass (the air it skips in one step), and what it counted is kept,
    // and the tiles drawn, only when the sum is right.
    auto counted = tiledata::read_and_check(
        *data, [&](Bytes bytes, const tiledata::KnownZeros& known, tiledata::Adler32Scan* scan) {
          return std::make_shared<LayerData>(measure_data(layer.type, t, bytes, scan, known));
        });
    if (!counted) return unreadable(df_.invalid_stream_error(static_cast<std::size_t>(index)));
    auto& [tiles, measured] = *counted;
    if (sink_) sink_->on_tile_layer(tile_layer_view(map_, layer, tiles));
    lease = {};  // the data is no longer needed
    apply(layer, *measured, ls);
    if (key) {
      ls.data_key = key;
      if (store) store->offer(*key, std::move(measured));
      claim.store = nullptr;
    }
  }

  // What the layer's data gives (map-independent: no location, no map).
  // With `adler` (a scan of `bytes`), the counting reports the air it skips;
  // it does not read the air `known` knows of.
  LayerData measure_data(LayerKind kind, const TilemapLayer& t, Bytes bytes,
                         tiledata::Adler32Scan* adler, const tiledata::KnownZeros& known) {
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

  // Reads `count` records of `record_bytes` from data item `index` (quads,
  // sound sources) into scratch; reports a size mismatch.
  std::optional<Bytes> records(const DecodedLayer& layer, std::int32_t index, std::int64_t count,
                               std::size_t record_bytes, Code bad_data, Code bad_size,
                               const char* what) {
    if (count <= 0 && index < 0) return Bytes{};
    if (index < 0 || static_cast<std::size_t>(index) >= df_.num_data()) {
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
  const MeasureContext& options_;
  TileLayerSink* sink_;  // null: nothing drawn
  MeasureWorkspace& workspace_;
  std::vector<std::uint8_t>& scratch_;  // one layer's quads or sources at a time
  tiledata::ZeroedBuffer& tiles_;       // one layer's tile data at a time
  TileCounts counts_;
  KeysPresent present_{};
  std::uint32_t inflate_always_ = sink_ ? sink_->kinds_always_inflated() : 0;
  std::map<std::int32_t, std::optional<LayerDataKey>> keys_;  // by layer index
};

}  // namespace

KeysPresent measure_teeworlds_layers(const Datafile& df, const TeeworldsMap& map, MapStats& stats,
                                     References& refs, const MeasureContext& options,
                                     TileLayerSink* sink, MeasureWorkspace& workspace) {
  LayerMeasurer measurer(df, map, stats, refs, options, sink, workspace);
  measurer.offer_drawn_layers();
  for (const auto& layer : map.layers) measurer.measure(layer);
  return measurer.present();
}

render::TileLayerView tile_layer_view(const TeeworldsMap& map, const DecodedLayer& layer,
                                      const tiledata::CheckedTiles& tiles) {
  const TilemapLayer& t = *layer.tilemap;
  render::TileLayerView v{
      .kind = layer.type,
      .layer_index = layer.index,
      .width = t.width,
      .height = t.height,
      .tiles = tiles,
      .skip_compressed = t.skip_compressed(),
      .in_use = layer.type == LayerKind::tiles || map.physics_layer(layer.type) == layer.index};
  for (const auto& l : map.layers) {
    if (l.index == layer.index) break;
    v.design_number += l.type == LayerKind::tiles;
  }
  if (const std::int32_t game = map.game_layer(); game >= 0) {
    v.map_width = map.layers[static_cast<std::size_t>(game)].tilemap->width;
    v.map_height = map.layers[static_cast<std::size_t>(game)].tilemap->height;
  }
  return v;
}

}  // namespace mapindex
