// The real SpriteTile files in ../shared/corpus/spritetile: every level
// decodes without errors, the groups file is not a level. The per-layer facts
// checked below were read with an independent reader (a short Python LZF
// decoder and struct unpacking written from the format description, not
// from this code).
#include <doctest/doctest.h>

#include <cstdint>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "extract/spritetile_stats.h"
#include "tests/support/codes.h"
#include "tests/support/corpus.h"

using namespace mapindex;
namespace corpus = mapindex::testing;

namespace {

const std::string kSub = "spritetile";

MapStats measure_level(const std::string& name) {
  const auto dir = corpus::corpus_dir(kSub);
  REQUIRE(dir.has_value());
  const auto bytes = corpus::read_file(*dir / name);
  const auto m = measure_spritetile(bytes);
  REQUIRE(m.is_level);
  return m.stats;
}

}  // namespace

TEST_SUITE("spritetile") {
  TEST_CASE("spritetile corpus: every level decodes, the groups file is not a level") {
    const auto dir = corpus::corpus_dir(kSub);
    if (!dir) {
      corpus::report_corpus_missing(kSub, "SpriteTile corpus test");
      return;
    }
    const auto manifest = corpus::corpus_manifest(kSub);
    const auto files = corpus::corpus_files(kSub, ".bytes");
    CHECK(files.size() == manifest.size());
    int levels = 0, groups = 0;
    for (const auto& path : files) {
      const std::string name = path.filename().string();
      CAPTURE(name);
      const auto row = manifest.find(name);
      REQUIRE_MESSAGE(row != manifest.end(), "not in MANIFEST.tsv");
      const std::string kind = row->second.at("kind");
      const auto bytes = corpus::read_file(path);
      CHECK(bytes.size() == std::stoull(row->second.at("size")));
      CHECK(spritetile::looks_like_spritetile(bytes));
      const auto m = measure_spritetile(bytes);

      if (kind == "groups") {
        ++groups;
        CHECK_FALSE(m.is_level);
        std::cout << "  " << name << ": not a level (" << m.not_level_reason << ")\n";
        continue;
      }
      REQUIRE(kind == "level");
      ++levels;
      REQUIRE(m.is_level);
      const MapStats& s = m.stats;
      std::string problems;
      for (const Problem& p : s.problems)
        problems +=
            std::string(to_string(p.code)) + " " + to_string(p.location) + ": " + p.message + "; ";
      INFO(problems);
      CHECK_FALSE(has_errors(s.problems));
      CHECK(s.problems.empty());  // none of the real levels has out-of-spec values
      CHECK(s.format == MapFormat::spritetile);
      CHECK(s.format_version == 2);
      CHECK(s.tiles_per_set == 1024);
      CHECK_FALSE(s.layers.empty());

      std::cout << "  " << name << ": v" << s.format_version << ", " << s.layers.size()
                << " layers:";
      for (const LayerStats& l : s.layers) {
        CHECK(l.kind == LayerKind::spritetile);
        REQUIRE(l.spritetile.has_value());
        CHECK(l.spritetile->cells == l.width * l.height);
        std::int64_t counted = 0;
        for (const TileCount& c : l.tile_counts) counted += c.count;
        CHECK(counted == l.non_empty);
        std::cout << " " << l.width << "x" << l.height << " (" << l.non_empty << " non-empty)";
      }
      std::cout << "\n";
    }
    CHECK(levels == 31);
    CHECK(groups == 1);
  }

  TEST_CASE("spritetile corpus: facts read by an independent reader") {
    if (!corpus::corpus_dir(kSub)) {
      corpus::report_corpus_missing(kSub, "SpriteTile corpus facts");
      return;
    }
    SUBCASE("Town: three 150x150 layers, triggers on the middle one") {
      const MapStats s = measure_level("d3f97a3a492d_Town.bytes");
      REQUIRE(s.layers.size() == 3);
      const std::int64_t non_empty[] = {5662, 18900, 1739};
      const std::int64_t colliders[] = {0, 4898, 21};
      const float z[] = {1, 0, -1};
      for (std::size_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        CHECK(s.layers[i].width == 150);
        CHECK(s.layers[i].height == 150);
        CHECK(s.layers[i].non_empty == non_empty[i]);
        CHECK(s.layers[i].spritetile->colliders == colliders[i]);
        CHECK(s.layers[i].spritetile->z == z[i]);
      }
      CHECK(s.layers[0].spritetile->scroll_x == 1415);
      CHECK(s.layers[0].spritetile->scroll_y == 1397);
      CHECK(s.layers[1].spritetile->triggers == std::vector<std::int32_t>{1, 2, 10, 11, 20, 21});
      CHECK(s.layers[1].spritetile->order_max == 4);
      CHECK(s.layers[2].spritetile->triggers == std::vector<std::int32_t>{100, 200});
      CHECK(s.layers[2].spritetile->order_max == 3);
      CHECK(s.layers[2].tile_counts.back().tile == 4178);
    }
    SUBCASE("Acorn Antics Level02: LayerLock, flips and triggers") {
      const MapStats s = measure_level("3a11b521c93e_Level02.bytes");
      REQUIRE(s.layers.size() == 3);
      CHECK(s.layers[0].width == 1);
      CHECK(s.layers[0].spritetile->tile_size_x == 75.0f);
      CHECK(s.layers[0].spritetile->layer_lock == 3);
      CHECK(s.layers[0].spritetile->preview_size == 300);
      CHECK(s.layers[0].tile_counts == std::vector<TileCount>{{2048, 1}});
      CHECK(s.layers[1].spritetile->layer_lock == 2);
      CHECK(s.layers[1].width == 38);
      CHECK(s.layers[1].height == 11);
      CHECK(s.layers[1].non_empty == 39);
      const LayerStats& l2 = s.layers[2];
      CHECK(l2.width == 60);
      CHECK(l2.height == 15);
      CHECK(l2.non_empty == 403);
      CHECK(l2.flip_x == 3);
      CHECK(l2.flip_y == 394);
      CHECK(l2.spritetile->colliders == 73);
      CHECK(l2.spritetile->triggers == std::vector<std::int32_t>{1, 2});
      CHECK(l2.spritetile->order_min == 0);
      CHECK(l2.spritetile->order_max == 1);
      CHECK(l2.spritetile->scroll_x == 91);
    }
    SUBCASE("grassLevel: rotated cells") {
      const MapStats s = measure_level("95d5f64c0a33_grassLevel.bytes");
      REQUIRE(s.layers.size() == 2);
      CHECK(s.layers[0].rotate == 7);
      CHECK(s.layers[0].non_empty == 41);
      CHECK(s.layers[1].non_empty == 4);
      CHECK(s.layers[1].tile_counts.back().tile == 167);
    }
    SUBCASE("SpriteLevel1: addBorder 3") {
      const MapStats s = measure_level("1fd426cecc87_SpriteLevel1.bytes");
      REQUIRE(s.layers.size() == 1);
      CHECK(s.layers[0].spritetile->add_border == 3);
      CHECK(s.layers[0].non_empty == 2493);
      CHECK(s.layers[0].spritetile->colliders == 2489);
    }
  }

}  // TEST_SUITE
