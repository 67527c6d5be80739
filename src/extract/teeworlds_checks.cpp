#include "extract/teeworlds_checks.h"

#include <algorithm>
#include <array>

#include "common/hex.h"
#include "common/utf8.h"

namespace mapindex::teeworlds {
namespace {

void warn(MapStats& stats, Code code, std::string message, Location location) {
  stats.problems.push_back(Problem{code, std::move(message), location});
}

constexpr std::array<std::string_view, 32> kStandardImages = {
    "bg_cloud1", "bg_cloud2", "bg_cloud3", "desert_doodads", "desert_main", "desert_mountains2",
    "desert_mountains", "desert_sun", "generic_deathtiles", "generic_unhookable", "grass_doodads",
    "grass_main", "jungle_background", "jungle_deathtiles", "jungle_doodads", "jungle_main",
    "jungle_midground", "jungle_unhookables", "moon", "mountains", "snow", "stars", "sun",
    "winter_doodads", "winter_main", "winter_mountains2", "winter_mountains3", "winter_mountains",
    // Teeworlds 0.7 only
    "easter", "generic_lamps", "generic_shadows", "light"};

constexpr std::size_t kMaxImages = 64, kMaxSounds = 64;

}  // namespace

bool is_standard_external_image(std::string_view name) {
  return std::find(kStandardImages.begin(), kStandardImages.end(), name) != kStandardImages.end();
}

void report_text_not_utf8(MapStats& stats) {
  Problems found;
  const auto check = [&](std::string_view text, const std::string& what, Location location,
                         std::string_view column) {
    if (is_valid_utf8(text)) return;
    found.push_back(Problem{Code::text_not_utf8,
                            what + " is not valid UTF-8 (bytes: " + hex_bytes(text) +
                                "); stored as '" + to_valid_utf8(text) +
                                "' with U+FFFD for the invalid bytes, the bytes in " +
                                std::string(column),
                            std::move(location)});
  };
  const auto info = [&](const std::optional<std::string>& text, const char* field,
                        std::string_view column) {
    if (text) check(*text, std::string("info ") + field, Location::info(), column);
  };
  info(stats.author, "author", "maps.author_raw");
  info(stats.map_version, "version", "maps.map_version_raw");
  info(stats.credits, "credits", "maps.credits_raw");
  info(stats.license, "license", "maps.license_raw");
  for (std::size_t i = 0; i < stats.settings.size(); ++i)
    check(stats.settings[i], "settings line " + std::to_string(i), Location::info(),
          "settings.command_raw");
  // The name of item `index` of `kind` ("layer 3 name"), its raw bytes in `column`.
  const auto name = [&](std::string_view text, Place kind, auto index, std::string_view column) {
    const Location where = Location::at(kind, index);
    check(text, to_string(where) + " name", where, column);
  };
  for (const auto& g : stats.groups) name(g.name, Place::group, g.group_index, "groups.name_raw");
  for (const auto& l : stats.layers) name(l.name, Place::layer, l.layer_index, "layers.name_raw");
  for (const auto& i : stats.images) name(i.name, Place::image, i.image_index, "images.name_raw");
  for (const auto& e : stats.envelopes)
    name(e.name, Place::envelope, e.envelope_index, "envelopes.name_raw");
  for (const auto& s : stats.sounds) name(s.name, Place::sound, s.sound_index, "sounds.name_raw");
  for (auto& p : found) stats.problems.push_back(std::move(p));
}

void resolve_references(const References& refs, MapStats& stats) {
  const auto num_images = static_cast<std::int32_t>(stats.images.size());
  std::vector<bool> tile_image_reported(stats.images.size(), false);
  for (const auto& r : refs.images) {
    if (r.image < 0) continue;
    if (r.image >= num_images) {
      warn(stats, Code::image_missing,
           "uses image " + std::to_string(r.image) + ", but the map has " +
               std::to_string(num_images) + " images",
           Location::layer(r.layer));
      continue;
    }
    ImageStats& img = stats.images[static_cast<std::size_t>(r.image)];
    img.used_by.push_back(ImageUse{r.layer, r.tile_layer ? 0 : r.quads});
    if (r.tile_layer && !tile_image_reported[static_cast<std::size_t>(r.image)] &&
        (img.width % 16 != 0 || img.height % 16 != 0 || img.width <= 0 || img.height <= 0)) {
      tile_image_reported[static_cast<std::size_t>(r.image)] = true;
      warn(stats, Code::image_tile_size,
           "image used by tile layer " + std::to_string(r.layer) + " is " +
               std::to_string(img.width) + "x" + std::to_string(img.height) +
               ", not a multiple of 16 in both directions",
           Location::image(r.image));
    }
  }

  const auto num_envelopes = static_cast<std::int32_t>(stats.envelopes.size());
  for (const auto& r : refs.envelopes) {
    if (r.envelope < 0) continue;
    if (r.envelope >= num_envelopes) {
      warn(stats, Code::envelope_missing,
           std::string(to_string(r.role)) + " uses envelope " + std::to_string(r.envelope) +
               ", but the map has " + std::to_string(num_envelopes) + " envelopes",
           Location::layer(r.layer));
      continue;
    }
    EnvelopeStats& env = stats.envelopes[static_cast<std::size_t>(r.envelope)];
    env.used_by.push_back(EnvelopeUse{r.layer, r.role, r.count});
    const EnvelopeKind want = expected_envelope_kind(r.role);
    if (env.kind != want) {
      warn(stats, Code::envelope_kind,
           std::string(to_string(r.role)) + " uses envelope " + std::to_string(r.envelope) +
               " of kind " + std::string(to_string(env.kind)) + " (channels " +
               std::to_string(env.channels) + "), expected " + std::string(to_string(want)),
           Location::layer(r.layer));
    }
  }

  const auto num_sounds = static_cast<std::int32_t>(stats.sounds.size());
  for (const auto& r : refs.sounds) {
    if (r.sound < 0) continue;
    if (r.sound >= num_sounds) {
      warn(stats, Code::sound_missing,
           "uses sound " + std::to_string(r.sound) + ", but the map has " +
               std::to_string(num_sounds) + " sounds",
           Location::layer(r.layer));
      continue;
    }
    stats.sounds[static_cast<std::size_t>(r.sound)].used_by.push_back(SoundUse{r.layer, r.sources});
  }

  for (const auto& img : stats.images)
    if (img.used_by.empty())
      warn(stats, Code::image_unused, "image '" + img.name + "' is used by no layer",
           Location::image(img.image_index));
  for (const auto& env : stats.envelopes)
    if (env.used_by.empty())
      warn(stats, Code::envelope_unused,
           "envelope '" + env.name + "' is used by no layer, quad or sound source",
           Location::envelope(env.envelope_index));
  for (const auto& snd : stats.sounds)
    if (snd.used_by.empty())
      warn(stats, Code::sound_unused, "sound '" + snd.name + "' is used by no sounds layer",
           Location::sound(snd.sound_index));
}

void check_images_and_sounds(MapStats& stats) {
  for (const auto& img : stats.images) {
    const Location where = Location::image(img.image_index);
    if (img.width <= 0 || img.height <= 0)
      warn(stats, Code::image_size,
           "image is " + std::to_string(img.width) + "x" + std::to_string(img.height), where);
    if (img.external) {
      if (!is_standard_external_image(img.name))
        warn(stats, Code::image_external_nonstandard,
             "external image '" + img.name + "' is not one of the standard mapres images", where);
      continue;
    }
    if (!img.rgba)
      warn(stats, Code::image_rgb,
           "embedded image is RGB (version 2 variant 0); DDNet loads only RGBA", where);
    if (img.data_size < 0) continue;  // image.no_data already
    if (img.width > 0 && img.height > 0) {
      // Unsigned: up to (2^31-1)^2 * 4 bytes, more than an int64 holds.
      const std::uint64_t need = std::uint64_t{static_cast<std::uint32_t>(img.width)} *
                                 static_cast<std::uint32_t>(img.height) * (img.rgba ? 4u : 3u);
      if (static_cast<std::uint64_t>(img.data_size) < need)
        warn(stats, Code::image_data_size,
             "embedded image data holds " + std::to_string(img.data_size) + " bytes, " +
                 std::to_string(img.width) + "x" + std::to_string(img.height) + "x" +
                 (img.rgba ? "4" : "3") + " = " + std::to_string(need) + " needed",
             where);
    }
  }
  if (stats.images.size() > kMaxImages)
    warn(stats, Code::images_too_many,
         std::to_string(stats.images.size()) + " images, more than the " +
             std::to_string(kMaxImages) + " the game supports",
         Location::file());
  if (stats.sounds.size() > kMaxSounds)
    warn(stats, Code::sounds_too_many,
         std::to_string(stats.sounds.size()) + " sounds, more than the " +
             std::to_string(kMaxSounds) + " the game supports",
         Location::file());
  for (const auto& snd : stats.sounds)
    if (snd.external)
      warn(stats, Code::sound_external,
           "sound '" + snd.name + "' is marked external; no external sounds exist",
           Location::sound(snd.sound_index));
}

void check_groups_and_automappers(const TeeworldsMap& map, MapStats& stats) {
  const std::int32_t game = map.game_layer();
  const std::int32_t game_group = game >= 0 ? map.layers[static_cast<std::size_t>(game)].group : -1;
  if (game_group >= 0 && map.groups[static_cast<std::size_t>(game_group)]) {
    const GroupItem& g = *map.groups[static_cast<std::size_t>(game_group)];
    if (g.offset_x != 0 || g.offset_y != 0 || g.parallax_x != 100 || g.parallax_y != 100 ||
        g.clipping) {
      warn(stats, Code::group_game_not_standard,
           "game group has offset " + std::to_string(g.offset_x) + "," +
               std::to_string(g.offset_y) + ", parallax " + std::to_string(g.parallax_x) + "," +
               std::to_string(g.parallax_y) + ", clipping " + (g.clipping ? "on" : "off") +
               "; expected offset 0,0, parallax 100,100, no clipping",
           Location::group(game_group));
    }
  }
  for (const auto& layer : map.layers) {
    const Location where = Location::layer(layer.index);
    if (layer.group < 0) {
      warn(stats, Code::layer_ungrouped,
           std::string(layer_type_name(layer.type)) + " layer belongs to no group; it is ignored",
           where);
      continue;
    }
    if (is_physics(layer.type) && game_group >= 0 && layer.group != game_group) {
      warn(stats, Code::layer_physics_outside_game_group,
           std::string(layer_type_name(layer.type)) + " layer is in group " +
               std::to_string(layer.group) + ", not in the game group " +
               std::to_string(game_group),
           where);
    }
  }
  for (std::size_t i = 0; i < map.automappers.size(); ++i) {
    const AutomapperItem& a = map.automappers[i];
    const Location where = Location::automapper(static_cast<std::int64_t>(i));
    if (a.group < 0 || static_cast<std::size_t>(a.group) >= map.groups.size() ||
        !map.groups[static_cast<std::size_t>(a.group)]) {
      warn(stats, Code::automapper_target,
           "automapper points at group " + std::to_string(a.group) + ", but the map has " +
               std::to_string(map.groups.size()) + " groups",
           where);
      continue;
    }
    const GroupItem& g = *map.groups[static_cast<std::size_t>(a.group)];
    if (a.layer < 0 || a.layer >= g.num_layers) {
      warn(stats, Code::automapper_target,
           "automapper points at layer " + std::to_string(a.layer) + " of group " +
               std::to_string(a.group) + ", which has " + std::to_string(g.num_layers) + " layers",
           where);
    }
  }
}

}  // namespace mapindex::teeworlds
