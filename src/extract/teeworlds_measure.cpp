#include "extract/teeworlds_measure.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/sha256.h"
#include "decode/datafile/datafile.h"
#include "decode/teeworlds/item_decoders.h"
#include "decode/teeworlds/teeworlds_map.h"
#include "extract/teeworlds_checks.h"
#include "extract/teeworlds_features.h"
#include "extract/teeworlds_layers.h"
#include "tiledata/checked_tiles.h"
#include "tiledata/shared_buffer.h"

namespace mapindex {
namespace {

using datafile::Datafile;
using namespace teeworlds;

datafile::Options datafile_options(const MeasureContext& context, MeasureWorkspace& workspace) {
  datafile::Options o;
  o.max_data_item_size = context.max_data_item_size;
  o.tile_inflater = context.tile_inflater;
  o.inflate_workspace = &workspace.inflate;
  return o;
}

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

}  // namespace

void redraw_tile_layers(Bytes file, const MeasureContext& context,
                        const std::vector<std::int32_t>& layer_indices, TileLayerSink& sink) {
  std::optional<MeasureWorkspace> own_workspace;
  MeasureWorkspace& workspace = context.workspace ? *context.workspace : own_workspace.emplace();
  auto df = Datafile::open(file, datafile_options(context, workspace));
  if (!df) return;
  const TeeworldsMap map = decode_map(*df);
  for (const auto& layer : map.layers) {
    if (!layer.tilemap || !layer.tiles_readable) continue;
    if (std::find(layer_indices.begin(), layer_indices.end(), layer.index) == layer_indices.end())
      continue;
    const auto index = static_cast<std::size_t>(layer.tilemap->tile_data());
    tiledata::SharedBuffer::Lease lease;
    tiledata::ZeroedBuffer& buffer = workspace.tile_buffer(df->data_size(index), lease);
    auto data = df->tile_data(index, buffer);
    const auto tiles = data ? tiledata::check(*data) : std::nullopt;
    if (!tiles) continue;
    sink.on_tile_layer(tile_layer_view(map, layer, *tiles));
  }
}

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

MapStats measure_teeworlds(Bytes file, const MeasureContext& context, TileLayerSink* sink) {
  MapStats stats;
  stats.format = MapFormat::teeworlds;
  std::optional<MeasureWorkspace> own_workspace;
  MeasureWorkspace& workspace = context.workspace ? *context.workspace : own_workspace.emplace();
  auto opened = Datafile::open(file, datafile_options(context, workspace));
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
  stats.ddnet_features =
      ddnet_features(measure_teeworlds_layers(df, map, stats, refs, context, sink, workspace));
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
