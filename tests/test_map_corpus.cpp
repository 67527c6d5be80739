// The real maps of ../shared/corpus/maps: no crash, internal consistency
// against an independent slow recount, MANIFEST cross-checks (an independent
// parser's counts) and the 0.6/0.7 twin maps.
#include <doctest/doctest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

#include "decode/datafile/datafile.h"
#include "decode/teeworlds/teeworlds_map.h"
#include "extract/teeworlds_measure.h"
#include "tests/support/corpus.h"
#include "tests/support/map_builder.h"

namespace mapindex::testing {
namespace {

using mapindex::LayerKind;

struct Measured {
  std::string file;
  std::vector<std::uint8_t> bytes;
  MapStats stats;
};

// Measures every corpus map once per test run.
const std::vector<Measured>& corpus() {
  static const std::vector<Measured> maps = [] {
    std::vector<Measured> out;
    for (const auto& path : corpus_files("maps", ".map")) {
      Measured m;
      m.file = path.filename().string();
      m.bytes = read_file(path);
      m.stats = measure_teeworlds(Bytes(m.bytes));
      out.push_back(std::move(m));
    }
    return out;
  }();
  return maps;
}

bool layer_has_problem(const MapStats& s, std::int32_t layer,
                       std::initializer_list<const char*> codes) {
  const std::string where = "layer " + std::to_string(layer);
  for (const auto& p : s.problems)
    for (const char* c : codes)
      if (to_string(p.location) == where && to_string(p.code) == c) return true;
  return false;
}

// Byte offset of the tile key in each struct, written out here from the
// format document (independently of the product's counter).
std::size_t key_offset(LayerKind t) {
  switch (t) {
    case LayerKind::tele: return 1;          // number, type
    case LayerKind::speedup: return 2;       // force, max_speed, type, _, angle
    case LayerKind::switch_layer: return 1;  // number, type, flags, delay
    case LayerKind::tune: return 1;          // number, type
    default: return 0;                       // index, flags, skip, reserved
  }
}
std::size_t struct_size(LayerKind t) {
  switch (t) {
    case LayerKind::tele:
    case LayerKind::tune: return 2;
    case LayerKind::speedup: return 6;
    default: return 4;
  }
}

std::int64_t num(const std::map<std::string, std::string>& row, const char* col) {
  auto it = row.find(col);
  if (it == row.end() || it->second.empty()) return -1;
  return std::stoll(it->second);
}

}  // namespace

TEST_SUITE("map") {
  TEST_CASE(
      "map corpus: every map measures, and tile layers agree with a slow independent recount") {
    if (!corpus_dir("maps")) {
      report_corpus_missing("maps", "map corpus tests");
      return;
    }
    const auto& maps = corpus();
    CHECK(maps.size() >= 200);
    std::int64_t layers_checked = 0;
    for (const Measured& m : maps) {
      CAPTURE(m.file);
      const MapStats& s = m.stats;
      auto df = datafile::Datafile::open(Bytes(m.bytes));
      if (!df) {
        CHECK(s.status == MapStatus::rejected);
        continue;
      }
      const auto map = teeworlds::decode_map(*df);
      REQUIRE(s.layers.size() == map.layers.size());
      std::vector<std::uint8_t> scratch;
      for (const auto& layer : map.layers) {
        if (!layer.tilemap || !layer.tiles_readable) continue;
        const LayerStats& ls = s.layers[static_cast<std::size_t>(layer.index)];
        CAPTURE(layer.index);
        if (layer_has_problem(s, layer.index, {"M14", "M15", "M11"})) continue;
        const auto& t = *layer.tilemap;
        auto data = df->data(static_cast<std::size_t>(t.tile_data()), scratch);
        REQUIRE(data.ok());
        std::vector<std::uint8_t> tiles;
        if (t.skip_compressed()) {
          auto expanded =
              testing::expand_skip_tiles(*data, static_cast<std::size_t>(t.width) * t.height);
          REQUIRE(expanded.ok());
          tiles = std::move(*expanded);
        } else {
          tiles.assign(data->begin(), data->end());
        }
        const std::size_t size = struct_size(layer.type), off = key_offset(layer.type);
        const std::size_t n =
            static_cast<std::size_t>(t.width) * static_cast<std::size_t>(t.height);
        REQUIRE(tiles.size() >= n * size);
        std::map<std::int32_t, std::int64_t> slow;
        std::int64_t air = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const std::uint8_t key = tiles[i * size + off];
          if (key == 0)
            ++air;
          else
            slow[key]++;
        }
        std::map<std::int32_t, std::int64_t> fast;
        std::int64_t sum = 0;
        for (const auto& tc : ls.tile_counts) {
          fast[tc.tile] = tc.count;
          sum += tc.count;
        }
        CHECK(fast == slow);
        CHECK(sum == ls.non_empty);
        CHECK(sum + air == std::int64_t{t.width} * t.height);
        ++layers_checked;
      }
    }
    MESSAGE(layers_checked << " tile layers recounted");
    CHECK(layers_checked > 1000);
  }

  TEST_CASE(
      "map corpus: physics layers have the game layer's size unless a problem says otherwise") {
    if (!corpus_dir("maps")) {
      report_corpus_missing("maps", "map corpus tests");
      return;
    }
    for (const Measured& m : corpus()) {
      CAPTURE(m.file);
      const MapStats& s = m.stats;
      if (s.game_width == 0) continue;
      for (const auto& l : s.layers) {
        if (l.kind != LayerKind::front && l.kind != LayerKind::tele &&
            l.kind != LayerKind::speedup && l.kind != LayerKind::switch_layer &&
            l.kind != LayerKind::tune)
          continue;
        if (l.width == s.game_width && l.height == s.game_height) continue;
        CAPTURE(l.layer_index);
        CHECK(layer_has_problem(s, l.layer_index, {"M13", "layer.size_mismatch"}));
      }
    }
  }

  TEST_CASE("map corpus: counts agree with the MANIFEST's independent parser") {
    if (!corpus_dir("maps")) {
      report_corpus_missing("maps", "map corpus tests");
      return;
    }
    const auto manifest = corpus_manifest("maps");
    std::map<std::string, int> mismatches;
    for (const Measured& m : corpus()) {
      CAPTURE(m.file);
      auto it = manifest.find(m.file);
      REQUIRE(it != manifest.end());
      const auto& row = it->second;
      const MapStats& s = m.stats;
      const std::string status = row.at("parse_status");
      if (status.rfind("FAIL", 0) == 0) {
        // The independent parser fails these three on an item overflowing the
        // item area; the container rules reject them too.
        CHECK(s.status == MapStatus::rejected);
        CHECK(s.layers.empty());
        continue;
      }
      CHECK(s.num_items == num(row, "num_items"));
      CHECK(s.num_data == num(row, "num_data"));
      std::map<LayerKind, std::int64_t> kinds;
      std::int64_t quads = 0, sources = 0, skip = 0, max_version = 0, max_area = -1;
      std::string max_dims;
      for (const auto& l : s.layers) {
        kinds[l.kind]++;
        quads += l.num_quads;
        sources += l.num_sources;
        if (l.kind <= LayerKind::tune) {
          skip += l.skip_compressed;
          max_version = std::max<std::int64_t>(max_version, l.version);
          if (l.width * l.height > max_area) {
            max_area = l.width * l.height;
            max_dims = std::to_string(l.width) + "x" + std::to_string(l.height);
          }
        }
      }
      // Old writers left the v4 size table out of `size` and `swaplen`.
      CHECK(s.crude_header == (status.find("header_size_field_mismatch") != std::string::npos));
      // Maps the independent parser reads cleanly and that have a game layer
      // load in DDNet: no error.
      if (status == "ok" && num(row, "n_layers_game") >= 1) CHECK(s.status != MapStatus::rejected);
      const bool pre_05 = status.find("short_layer_items") != std::string::npos;
      const bool legacy = status.find("legacy_flagged_tilemaps") != std::string::npos;
      if (pre_05) {
        // Pre-0.5 maps: no version item (M1); their items are not the current
        // layouts. Only the item counts are comparable.
        CHECK(s.status == MapStatus::rejected);
        CHECK(static_cast<std::int64_t>(s.layers.size()) == num(row, "num_layers"));
        CHECK(static_cast<std::int64_t>(s.groups.size()) == num(row, "num_groups"));
        continue;
      }
      CHECK(static_cast<std::int64_t>(s.images.size()) == num(row, "num_images"));
      CHECK(std::count_if(s.images.begin(), s.images.end(), [](const ImageStats& i) {
              return i.external;
            }) == num(row, "num_images_external"));
      CHECK(static_cast<std::int64_t>(s.envelopes.size()) == num(row, "num_envelopes"));
      CHECK(static_cast<std::int64_t>(s.sounds.size()) == num(row, "num_sounds"));
      CHECK(static_cast<std::int64_t>(s.groups.size()) == num(row, "num_groups"));
      CHECK(static_cast<std::int64_t>(s.layers.size()) == num(row, "num_layers"));
      CHECK(kinds[LayerKind::tiles] == num(row, "n_layers_tiles"));
      CHECK(kinds[LayerKind::game] == num(row, "n_layers_game"));
      CHECK(kinds[LayerKind::quads] == num(row, "n_layers_quads"));
      CHECK(kinds[LayerKind::sounds] + kinds[LayerKind::sounds_deprecated] ==
            num(row, "n_layers_sounds"));
      if (legacy) {
        // "Legacy flagged tilemaps": old DDRace/infclass physics layers whose
        // items lack some of DDNet's five extra data indices. The independent
        // parser counts them as no kind at all; we decode their kind from the
        // tilemap flags, so our physics counts are at least theirs
        // and all kinds together make up every layer.
        for (auto [k, col] : {std::pair{LayerKind::tele, "n_layers_tele"},
                              {LayerKind::speedup, "n_layers_speedup"},
                              {LayerKind::front, "n_layers_front"},
                              {LayerKind::switch_layer, "n_layers_switch"},
                              {LayerKind::tune, "n_layers_tune"}})
          CHECK(kinds[k] >= num(row, col));
      } else {
        CHECK(kinds[LayerKind::tele] == num(row, "n_layers_tele"));
        CHECK(kinds[LayerKind::speedup] == num(row, "n_layers_speedup"));
        CHECK(kinds[LayerKind::front] == num(row, "n_layers_front"));
        CHECK(kinds[LayerKind::switch_layer] == num(row, "n_layers_switch"));
        CHECK(kinds[LayerKind::tune] == num(row, "n_layers_tune"));
      }
      CHECK(quads == num(row, "total_quads"));
      CHECK(sources == num(row, "total_sound_sources"));
      // The MANIFEST column is 0/1: whether any tilemap is skip-compressed.
      CHECK(static_cast<std::int64_t>(skip > 0) == num(row, "skip_compressed_tilemaps"));
      if (num(row, "tilemap_max_version") >= 0)
        CHECK(max_version == num(row, "tilemap_max_version"));
      if (!row.at("max_layer_dims").empty()) CHECK(max_dims == row.at("max_layer_dims"));
      std::int64_t env_max = 0;
      for (const auto& e : s.envelopes) env_max = std::max<std::int64_t>(env_max, e.version);
      if (num(row, "envelope_max_version") >= 0) CHECK(env_max == num(row, "envelope_max_version"));
      CHECK(static_cast<std::int64_t>(!s.settings.empty()) == num(row, "info_has_settings"));
      std::set<std::string> uuids;
      for (const auto& u : s.uuid_types) {
        std::string n = u;
        if (n.rfind("mapitemtype-", 0) == 0) n = n.substr(12);
        if (auto at = n.find("@ddnet.tw"); at != std::string::npos) n = n.substr(0, at);
        uuids.insert(n);
      }
      std::set<std::string> want;
      for (std::string rest = row.at("uuid_types"); !rest.empty();) {
        const auto comma = rest.find(',');
        want.insert(rest.substr(0, comma));
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
      }
      CHECK(uuids == want);
    }
  }

  TEST_CASE("map corpus: the 0.6 and 0.7 versions of a map have equal game-layer histograms") {
    if (!corpus_dir("maps")) {
      report_corpus_missing("maps", "map corpus tests");
      return;
    }
    const auto manifest = corpus_manifest("maps");
    // Maps by repository and path; a path may hold several versions (commits).
    // A 0.7 map pairs with the 0.6 map at the same path under maps/ instead of
    // maps7/: the only one, or the one selected as "ddnet-current" like it.
    std::map<std::string, std::vector<const Measured*>> by_source;
    for (const Measured& m : corpus()) {
      const auto& row = manifest.at(m.file);
      by_source[row.at("source_repo") + ":" + row.at("source_path")].push_back(&m);
    }
    auto current = [&](const Measured* m) {
      return manifest.at(m->file).at("selected_for").rfind("ddnet-current:", 0) == 0;
    };
    int twins = 0;
    for (const auto& [source, sevens] : by_source) {
      const auto at = source.find("maps7/");
      if (at == std::string::npos || sevens.size() != 1) continue;
      const Measured* m7 = sevens.front();
      std::string six = source;
      six.replace(at, 6, "maps/");
      auto it = by_source.find(six);
      if (it == by_source.end()) continue;
      std::vector<const Measured*> candidates = it->second;
      if (candidates.size() > 1)
        std::erase_if(candidates, [&](const Measured* m) { return current(m) != current(m7); });
      if (candidates.size() != 1) continue;
      const Measured* m6 = candidates.front();
      CAPTURE(m6->file);
      CAPTURE(m7->file);
      auto game = [](const MapStats& s) -> const LayerStats* {
        const LayerStats* g = nullptr;
        for (const auto& l : s.layers)
          if (l.kind == LayerKind::game) g = &l;
        return g;
      };
      const LayerStats* g6 = game(m6->stats);
      const LayerStats* g7 = game(m7->stats);
      REQUIRE(g6);
      REQUIRE(g7);
      CHECK(g6->width == g7->width);
      CHECK(g6->height == g7->height);
      CHECK(g6->tile_counts == g7->tile_counts);
      CHECK(g6->tile_counts.size() > 0);
      ++twins;
    }
    MESSAGE(twins << " twin maps compared");
    CHECK(twins >= 5);
  }

}  // TEST_SUITE

}  // namespace mapindex::testing
