// Layer-level content addressing (src/extract/layer_data.h,
// pipeline/layer_store.h, schema layer_data): a tile layer met again, in the
// same map, another map of the run or a later run, is not inflated again, and
// the index is the same as without the cache. And what a map's versions share
// stored once (schema/011_stored_once.sql): on the corpus and a synthetic map
// history, this build's index answers every query as the index the build
// before it wrote, and as that index migrated (MAPINDEX_REFERENCE_MAPINDEX).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "common/background.h"
#include "common/hex.h"
#include "common/sha256.h"
#include "decode/datafile/datafile.h"
#include "extract/measure.h"
#include "extract/teeworlds_measure.h"
#include "index/index_db.h"
#include "pipeline/index_run.h"
#include "pipeline/layer_store.h"
#include "tests/support/archive_builder.h"
#include "tests/support/corpus.h"
#include "tests/support/map_builder.h"
#include "tests/support/process.h"
#include "tests/support/sqlite_probe.h"
#include "tiledata/shared_buffer.h"

namespace fs = std::filesystem;
using namespace mapindex;
using namespace mapindex::testing;

namespace {

// A store in a plain map, recording what it was asked.
class MapStore final : public LayerDataStore {
 public:
  std::shared_ptr<const LayerData> find(const LayerDataKey& key) override {
    ++finds;
    auto it = entries.find(key);
    if (it == entries.end()) return nullptr;
    ++hits;
    return it->second;
  }
  void offer(const LayerDataKey& key, std::shared_ptr<const LayerData> data) override {
    ++offers;
    entries.emplace(key, std::move(data));
  }
  ThumbnailLookup find_thumbnail(const Sha256& key) override {
    auto it = thumbnails.find(key);
    if (it == thumbnails.end()) return {};
    ++thumbnail_hits;
    return {it->second, {}};
  }
  void offer_thumbnail(const Sha256& key,
                       std::shared_ptr<const std::vector<std::uint8_t>> png) override {
    ++thumbnail_offers;
    thumbnails.emplace(key, std::move(png));
  }
  std::unordered_map<LayerDataKey, std::shared_ptr<const LayerData>, LayerDataKeyHash> entries;
  std::map<Sha256, std::shared_ptr<const std::vector<std::uint8_t>>> thumbnails;
  int finds = 0, hits = 0, offers = 0, thumbnail_hits = 0, thumbnail_offers = 0;
};

// The pool of distinct layers the synthetic maps are made of: two game layers
// and three decoration layers, all 30x20 (D1 has a non-zero reserved byte: an
// M14 finding that must follow the layer into every map that holds it).
TileGrid pool_layer(const std::string& name) {
  constexpr int w = 30, h = 20;
  if (name == "G0") {
    TileGrid g(LayerKind::game, w, h);
    g.fill(0, h - 2, w, 2, 1).set(2, h - 3, 192);
    return g;
  }
  if (name == "G1") {
    TileGrid g(LayerKind::game, w, h);
    g.fill(0, h - 3, w, 3, 1).set(5, h - 4, 193).set(9, h - 4, 9);
    return g;
  }
  TileGrid d(LayerKind::tiles, w, h);
  if (name == "D0") d.fill(0, 0, w, 3, 1);
  if (name == "D1") d.fill(0, 0, w, 4, 2).set_byte(3, 1, 3, 7);
  if (name == "D2") d.fill(0, 0, 10, 10, 3, 1).fill(10, 0, 5, 5, 4, 8);
  return d;
}

std::vector<std::uint8_t> pool_map(const std::string& author,
                                   const std::vector<std::string>& layers) {
  MapBuilder b;
  b.info({.author = author});
  b.add_game_group();
  for (const auto& l : layers) b.add_tile_layer(pool_layer(l), {.name = l});
  return b.build();
}

ProcessResult index_into(const fs::path& db, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"index", "--db", db.string(), "--progress", "none"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), inputs.begin(), inputs.end());
  return run_process(mapindex_binary(), args);
}

// The value of "field" in a flat --stats-json object.
std::int64_t stats_field(const fs::path& path, const std::string& field) {
  const std::string text = read_text_file(path);
  const auto at = text.find("\"" + field + "\":");
  REQUIRE_MESSAGE(at != std::string::npos, field << " not in " << text);
  return std::stoll(text.substr(at + field.size() + 3));
}

// A synthetic map history (as mapindex-bench-synth --mode history and
// --mode copies build theirs, smaller): `bases` maps, each in `versions`
// versions that each change `changed` more tile layers, and a copy of each
// version with a layer renamed.
std::vector<ArchiveMember> map_history(int bases, int versions, int changed) {
  std::vector<ArchiveMember> members;
  for (int b = 0; b < bases; ++b) {
    RealisticMapOptions o;
    o.width = 120;
    o.height = 80;
    o.seed = 7 + static_cast<std::uint32_t>(b);
    o.decoration_layers = 4;
    o.with_sounds = b % 2 == 0;
    o.marks.push_back({o.seed, 0, 1 << 20});
    for (int v = 0; v < versions; ++v) {
      if (v > 0)
        o.marks.push_back({50000u + static_cast<std::uint32_t>(v), (v - 1) * changed, changed});
      const MapVariants version(make_realistic_ddnet_map(o));
      const std::string name = "m" + std::to_string(b) + "_v" + std::to_string(v);
      members.push_back({.path = "history/" + name + ".map", .bytes = version.base()});
      members.push_back({.path = "copies/" + name + ".map", .bytes = version.variant("copy")});
    }
  }
  return members;
}

void check_same_layers(const MapStats& a, const MapStats& b) {
  REQUIRE(a.layers.size() == b.layers.size());
  for (std::size_t i = 0; i < a.layers.size(); ++i) {
    CAPTURE(i);
    const auto &x = a.layers[i], &y = b.layers[i];
    CHECK(x.tile_counts == y.tile_counts);
    CHECK(x.entities == y.entities);
    CHECK(x.numbers == y.numbers);
    CHECK(x.non_empty == y.non_empty);
    CHECK(x.flip_x == y.flip_x);
    CHECK(x.flip_y == y.flip_y);
    CHECK(x.rotate == y.rotate);
    CHECK(x.data_key == y.data_key);
    CHECK(x.data_findings == y.data_findings);
  }
  REQUIRE(a.problems.size() == b.problems.size());
  for (std::size_t i = 0; i < a.problems.size(); ++i) {
    CHECK(a.problems[i].code == b.problems[i].code);
    CHECK(a.problems[i].message == b.problems[i].message);
    CHECK(to_string(a.problems[i].location) == to_string(b.problems[i].location));
  }
  CHECK(a.ddnet_features == b.ddnet_features);
  CHECK(a.status == b.status);
}

}  // namespace

TEST_SUITE("layer cache") {
  TEST_CASE(
      "layer cache: a layer result taken from the store gives the map the same stats, located here") {
    const auto first = pool_map("a", {"G0", "D0", "D1"});
    const auto second = pool_map("b", {"D1", "G0"});  // D1 now at layer 0, G0 at 1
    MapStore store;
    MeasureContext with_store;
    with_store.layer_store = &store;
    const MapStats a = measure_teeworlds(first, with_store);
    CHECK(store.offers == 3);  // three distinct layers, all new
    CHECK(store.hits == 0);
    const MapStats b_cached = measure_teeworlds(second, with_store);
    CHECK(store.hits == 2);  // both layers known: none inflated
    CHECK(store.offers == 3);
    const MapStats b_plain = measure_teeworlds(second);
    check_same_layers(b_cached, b_plain);
    // D1's finding (its reserved byte) is the second map's problem at layer 0.
    const auto m14 = std::find_if(b_cached.problems.begin(), b_cached.problems.end(),
                                  [](const Problem& p) { return p.code == Code::M14; });
    REQUIRE(m14 != b_cached.problems.end());
    CHECK(to_string(m14->location) == to_string(Location::layer(0)));
    CHECK(b_cached.layers[0].data_key == a.layers[2].data_key);
    CHECK(b_cached.layers[1].data_key == a.layers[0].data_key);
  }

  TEST_CASE("layer cache: a cached result is used as stored: the layer is not measured again") {
    const auto map = pool_map("a", {"G0", "D0"});
    MapStore store;
    MeasureContext o;
    o.layer_store = &store;
    const MapStats plain = measure_teeworlds(map, o);
    REQUIRE(plain.layers[0].data_key);
    // A result no inflating of G0's data gives: if the layer were measured,
    // its real counts would show.
    auto fake = std::make_shared<LayerData>();
    fake->tile_counts = {{9, 4}};
    fake->non_empty = 4;
    fake->findings = {{Code::tile_invalid, "planted"}};
    store.entries[*plain.layers[0].data_key] = fake;
    const MapStats cached = measure_teeworlds(map, o);
    CHECK(cached.layers[0].tile_counts == std::vector<TileCount>{{9, 4}});
    CHECK(cached.layers[0].non_empty == 4);
    CHECK(std::any_of(cached.problems.begin(), cached.problems.end(), [](const Problem& p) {
      return p.message == "planted" && to_string(p.location) == to_string(Location::layer(0));
    }));
    CHECK(cached.layers[0].tile_counts != plain.layers[0].tile_counts);
    CHECK(cached.layers[1].tile_counts == plain.layers[1].tile_counts);
  }

  TEST_CASE(
      "layer cache: the run's store keeps the first result of a key, within its memory bound") {
    const auto map = pool_map("a", {"G0", "D0"});
    const MapStats s = measure_teeworlds(map);
    const LayerDataKey k0 = *s.layers[0].data_key, k1 = *s.layers[1].data_key;
    auto first = std::make_shared<LayerData>(), second = std::make_shared<LayerData>();
    first->non_empty = 1;
    second->non_empty = 2;
    LiveCounters counters;
    RunLayerStore store("", kExtractorVersion, counters.layers);
    CHECK(store.find(k0) == nullptr);
    store.offer(k0, first);
    store.offer(k0, second);  // another thread measured it too: the first stays
    REQUIRE(store.find(k0) != nullptr);
    CHECK(store.find(k0)->non_empty == 1);
    CHECK(counters.layers.measured == 2);
    CHECK(counters.layers.reused_run == 2);
    // A store with room for one result keeps no second: that key is measured again.
    const std::uint64_t one = store.memory_bytes();
    RunLayerStore small("", kExtractorVersion, counters.layers, one);
    small.offer(k0, first);
    small.offer(k1, second);
    CHECK(small.find(k0) != nullptr);
    CHECK(small.find(k1) == nullptr);
    CHECK(small.memory_bytes() == one);
  }

  TEST_CASE("layer cache: a key being measured is waited for, not measured twice") {
    const auto map = pool_map("a", {"G0", "D0"});
    const LayerDataKey key = *measure_teeworlds(map).layers[0].data_key;
    auto result = std::make_shared<LayerData>();
    result->non_empty = 7;
    LiveCounters counters;
    RunLayerStore store("", kExtractorVersion, counters.layers);
    REQUIRE(store.find(key) == nullptr);  // this thread claims it
    CHECK(store.find(key) == nullptr);    // and, asking again, does not wait for itself
    auto other = std::async(std::launch::async, [&] { return store.find(key); });
    // The other thread waits while the claim lasts, then has this result.
    CHECK(other.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout);
    store.offer(key, result);
    REQUIRE(other.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    CHECK(other.get() == result);
    CHECK(counters.layers.measured == 1);
    CHECK(counters.layers.reused_run == 1);

    // A claim given up: the waiting thread gets nothing (it measures the
    // layer then, unclaimed), and a later claim works as the first.
    const LayerDataKey key1 = *measure_teeworlds(map).layers[1].data_key;
    REQUIRE(store.find(key1) == nullptr);
    auto waiting = std::async(std::launch::async, [&] { return store.find(key1); });
    CHECK(waiting.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout);
    store.give_up(key1);
    REQUIRE(waiting.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    CHECK(waiting.get() == nullptr);
    store.give_up(key1);  // nothing claimed: nothing happens
    store.offer(key1, result);
    CHECK(store.find(key1) == result);
  }

  TEST_CASE("layer cache: measuring gives a claimed key up when the layer data does not read") {
    struct Recording final : LayerDataStore {
      std::shared_ptr<const LayerData> find(const LayerDataKey&) override {
        ++finds;
        return nullptr;  // claimed
      }
      void offer(const LayerDataKey&, std::shared_ptr<const LayerData>) override { ++offers; }
      void give_up(const LayerDataKey&) noexcept override { ++given_up; }
      int finds = 0, offers = 0, given_up = 0;
    };
    const auto bytes = pool_map("a", {"G0", "D0"});
    Recording whole;
    MeasureContext context;
    context.layer_store = &whole;
    const MapStats read = measure_teeworlds(bytes, context);
    CHECK(whole.finds == 2);
    CHECK(whole.offers == 2);
    CHECK(whole.given_up == 0);
    // The last data item (a layer's tiles) with its zlib checksum damaged:
    // that layer does not read, and its claim is given up, not left behind
    // for a waiting thread to wait on forever.
    auto damaged = bytes;
    damaged.back() ^= 0xff;
    Recording store;
    context.layer_store = &store;
    const MapStats s = measure_teeworlds(damaged, context);
    CHECK(s.problems.size() > read.problems.size());
    CHECK(store.finds == 2);
    CHECK(store.offers == 1);
    CHECK(store.given_up == 1);
  }

  // A thumbnail key (any 32 bytes serve the store).
  Sha256 thumbnail_key_for(std::uint8_t n) {
    const std::vector<std::uint8_t> bytes{n};
    return sha256(Bytes(bytes.data(), bytes.size()));
  }

  // A run's layer store and what it reports to; `wait`: whether a thread
  // that meets another's claimed thumbnail waits for its PNG (as with two
  // or more decode threads) or not (one).
  struct ThumbnailStore {
    explicit ThumbnailStore(bool wait)
        : store("", kExtractorVersion, counters.layers, RunLayerStore::kDefaultMemoryBytes,
                &cancelled, wait) {}
    LiveCounters counters;
    std::atomic<bool> cancelled{false};
    RunLayerStore store;
  };

  TEST_CASE("layer cache: a thumbnail being drawn is waited for, or drawn again") {
    const Sha256 key = thumbnail_key_for(1);
    auto png = std::make_shared<const std::vector<std::uint8_t>>(std::vector<std::uint8_t>{1, 2});
    for (const bool wait : {true, false}) {
      CAPTURE(wait);
      ThumbnailStore s(wait);
      RunLayerStore& store = s.store;
      std::atomic<bool>& cancelled = s.cancelled;
      auto claimant = store.find_thumbnail(key);
      REQUIRE(claimant.png == nullptr);
      REQUIRE_FALSE(claimant.wait);  // the caller's claim
      auto other = store.find_thumbnail(key);
      REQUIRE(other.png == nullptr);
      REQUIRE(other.wait);
      auto got = std::async(std::launch::async, other.wait);
      if (wait) {
        CHECK(got.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout);
        store.offer_thumbnail(key, png);
        REQUIRE(got.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
        CHECK(got.get() == png);
      } else {
        // Not there yet: drawn by the caller, without waiting.
        REQUIRE(got.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
        CHECK(got.get() == nullptr);
        store.offer_thumbnail(key, png);
      }
      CHECK(store.find_thumbnail(key).png == png);

      // A claim dropped (ThumbnailClaim) or a cancelled run ends the wait.
      const Sha256 key2 = thumbnail_key_for(2);
      std::optional<ThumbnailClaim> claim;
      REQUIRE_FALSE(store.find_thumbnail(key2).png);
      claim.emplace(&store, key2);
      auto waiting = store.find_thumbnail(key2);
      REQUIRE(waiting.wait);
      auto dropped = std::async(std::launch::async, waiting.wait);
      claim.reset();
      REQUIRE(dropped.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
      CHECK(dropped.get() == nullptr);
      const Sha256 key3 = thumbnail_key_for(3);
      REQUIRE_FALSE(store.find_thumbnail(key3).png);
      auto stopped = std::async(std::launch::async, store.find_thumbnail(key3).wait);
      cancelled = true;
      REQUIRE(stopped.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
      CHECK(stopped.get() == nullptr);
      store.give_up_thumbnail(key3);
    }
  }

  TEST_CASE(
      "layer cache e2e: the store looks results up in an index that held some, or once its memory is full") {
    // m1's layers go into `filled` (index_into) before a store opens it.
    TempDir tmp;
    const auto m1 = pool_map("m1", {"G0", "D0"});
    write_archive(tmp / "m1.zip", ArchiveFormat::zip, {{.path = "m1.map", .bytes = m1}});
    const MapStats s = measure_teeworlds(m1);
    const LayerDataKey k0 = *s.layers[0].data_key, k1 = *s.layers[1].data_key;
    const auto filled = tmp / "filled.sqlite", empty = tmp / "empty.sqlite";
    REQUIRE(index_into(filled, {tmp.file("m1.zip")}).exit_code == 0);
    LiveCounters counters;
    RunLayerStore from_filled(filled.string(), kExtractorVersion, counters.layers);
    REQUIRE(from_filled.find(k0) != nullptr);
    CHECK(counters.layers.reused_index == 1);

    // An index empty when the store opens it (at its first lookup): what it
    // holds later, this run's writer wrote from results the store kept in
    // memory. Not looked up until memory refuses one.
    REQUIRE(index::IndexDb::open(empty.string(), index::OpenMode::read_write));  // the schema only
    RunLayerStore store(empty.string(), kExtractorVersion, counters.layers, 1);
    CHECK(store.find(k0) == nullptr);  // opens the index
    store.give_up(k0);
    REQUIRE(index_into(empty, {tmp.file("m1.zip")}).exit_code == 0);  // as the writer would
    CHECK(store.find(k0) == nullptr);
    store.give_up(k0);                               // not measured here
    store.offer(k1, std::make_shared<LayerData>());  // refused: no room
    CHECK(store.find(k1) != nullptr);                // from the index now
    CHECK(store.find(k0) != nullptr);
    CHECK(counters.layers.reused_index == 3);
  }

  TEST_CASE(
      "layer cache: a layer taken from the store still counts against the map's inflate budget") {
    // Layers sharing one 8 MiB data item (a hostile map): the budget holds
    // exactly 4 reads of it (tests/test_fuzz_regressions.cpp). With a store,
    // the second to fourth are hits that inflate nothing, yet the fifth and
    // later are refused as before: the map's problems are the same.
    MapBuilder b;
    const std::int32_t big = b.add_raw_data(std::vector<std::uint8_t>(8u << 20, 0));
    b.add_game_group();
    b.add_tile_layer(TileGrid(LayerKind::game, 8, 8));
    for (int i = 0; i < 10; ++i) {
      TileLayerSpec spec;
      spec.stored_width = 2048;
      spec.stored_height = 1024;
      spec.data_index_override = big;
      b.add_tile_layer(TileGrid(LayerKind::tiles, 1, 1), spec);
    }
    const auto file = b.build();
    MapStore store;
    MeasureContext o;
    o.layer_store = &store;
    const MapStats cached = measure_teeworlds(file, o);
    CHECK(store.offers == 2);  // the game layer and the first reader of the shared item
    CHECK(store.hits == 9);    // the others: known, 3 within the budget, 6 refused by it
    check_same_layers(cached, measure_teeworlds(file));
    int refused = 0;
    for (const auto& p : cached.problems)
      if (p.message.find("D.budget") != std::string::npos) ++refused;
    CHECK(refused == 6);
  }

  TEST_CASE(
      "layer cache: a known thumbnail whose game layer the inflate budget refuses here is not taken") {
    // a: a game layer on an 8 MiB data item. b: four design layers read the
    // same item first (the budget holds 4 reads of it), so b's game layer,
    // known by key with a's thumbnail, is refused: b has nothing drawn, as
    // without the store.
    const auto build = [](int design_layers) {
      MapBuilder b;
      const std::int32_t big = b.add_raw_data(std::vector<std::uint8_t>(8u << 20, 0));
      b.add_game_group();
      TileLayerSpec spec;
      spec.stored_width = 2048;
      spec.stored_height = 1024;
      spec.data_index_override = big;
      for (int i = 0; i < design_layers; ++i)
        b.add_tile_layer(TileGrid(LayerKind::tiles, 1, 1), spec);
      b.add_tile_layer(TileGrid(LayerKind::game, 1, 1), spec);
      return b.build();
    };
    const auto a = build(0), b = build(4);
    MapStore store;
    MeasureContext o;
    o.layer_store = &store;
    const ContentOptions thumbnail{.thumbnail = ThumbnailMode::encoded};
    const Measurement ma = measure_content(a, o, thumbnail);
    REQUIRE_FALSE(ma.stats.thumbnail_png.empty());
    CHECK(store.thumbnail_offers == 1);
    const Measurement mb = measure_content(b, o, thumbnail);
    CHECK(store.thumbnail_hits == 1);  // found, then not taken
    const Measurement mb_plain = measure_content(b, {}, thumbnail);
    CHECK(mb_plain.stats.thumbnail_png.empty());
    CHECK(mb.stats.thumbnail_png == mb_plain.stats.thumbnail_png);
    CHECK_FALSE(mb.stats.thumbnail_key);
    check_same_layers(mb.stats, mb_plain.stats);
  }

  TEST_CASE(
      "layer cache: the key is the data, kind, size and version: another size is another key") {
    const auto map = pool_map("a", {"G0", "D0", "D0"});
    const MapStats s = measure_teeworlds(map);
    REQUIRE(s.layers.size() == 3);
    REQUIRE(s.layers[1].data_key);
    CHECK(s.layers[1].data_key == s.layers[2].data_key);  // the same layer twice
    CHECK(s.layers[0].data_key != s.layers[1].data_key);
    CHECK(s.layers[1].data_key->kind == LayerKind::tiles);
    CHECK(s.layers[1].data_key->width == 30);
    CHECK(s.layers[1].data_key->height == 20);
    CHECK(s.layers[1].data_key->data_size == 30 * 20 * 4);
  }

  TEST_CASE(
      "layer cache: tile data digests computed ahead: the keys' digests, and taken as given") {
    // Two layers with the same data (one data item each) and one other.
    const auto map = pool_map("a", {"G0", "D0", "D1", "D0"});
    const auto digests = digest_tile_data(map);
    auto df = datafile::Datafile::open(map);
    REQUIRE(df);
    CHECK(digests.file.data() == map.data());
    // Each is the SHA-256 of its item's stored bytes, in index order.
    const auto& items = digests.items;
    for (std::size_t i = 0; i < items.size(); ++i) {
      CAPTURE(items[i].index);
      if (i > 0) CHECK(items[i - 1].index < items[i].index);
      auto stored = df->stored_data(items[i].index);
      REQUIRE(stored);
      CHECK(items[i].sha256 == sha256(*stored));
    }
    // One for every tile layer's data: the digest of each layer's key.
    const MapStats plain = measure_teeworlds(map);
    REQUIRE(plain.layers.size() == 4);
    CHECK(items.size() == 4);
    for (const auto& l : plain.layers) {
      REQUIRE(l.data_key);
      CHECK(std::any_of(items.begin(), items.end(),
                        [&](const TileDataDigest& d) { return d.sha256 == l.data_key->sha256; }));
    }
    // Measuring with them is measuring without.
    MeasureContext ahead;
    ahead.digests = &digests;
    const MapStats with = measure_teeworlds(map, ahead);
    check_same_layers(with, plain);
    // They are taken as given, not computed again: changed ones are the keys'.
    TileDataDigests changed = digests;
    for (auto& d : changed.items) d.sha256[0] ^= 0xff;
    ahead.digests = &changed;
    const MapStats taken = measure_teeworlds(map, ahead);
    for (std::size_t i = 0; i < taken.layers.size(); ++i) {
      CAPTURE(i);
      REQUIRE(taken.layers[i].data_key);
      Sha256 expected = plain.layers[i].data_key->sha256;
      expected[0] ^= 0xff;
      CHECK(taken.layers[i].data_key->sha256 == expected);
    }
    // But only for the bytes they were computed from: the same bytes
    // elsewhere, or another map, are hashed as they are.
    const std::vector<std::uint8_t> copy = map;
    check_same_layers(measure_teeworlds(copy, ahead), plain);
    const auto other = pool_map("b", {"G1", "D2"});
    const auto other_digests = digest_tile_data(other);
    ahead.digests = &other_digests;
    check_same_layers(measure_teeworlds(map, ahead), plain);
    // Version 3 datafiles store data as is: no keys, so no digests; nor for
    // what is no datafile.
    MapBuilder b3;
    b3.add_game_group();
    b3.add_tile_layer(pool_layer("D0"), {.name = "D0"});
    CHECK(digest_tile_data(b3.build({.version = 3})).items.empty());
    const std::vector<std::uint8_t> text = {'n', 'o', 't', ' ', 'a', ' ', 'm', 'a', 'p'};
    CHECK(digest_tile_data(text).items.empty());
  }

  TEST_CASE(
      "layer cache corpus: digests computed ahead cover every layer key and change no result") {
    const auto files = corpus_files("maps", ".map");
    if (files.empty()) {
      report_corpus_missing("maps", "tile data digests");
      return;
    }
    std::size_t keyed = 0;
    for (const auto& path : files) {
      CAPTURE(path.filename().string());
      const auto bytes = read_file(path);
      const auto digests = digest_tile_data(bytes);
      const MapStats plain = measure_teeworlds(bytes);
      for (const auto& l : plain.layers) {
        if (!l.data_key) continue;
        ++keyed;
        CHECK(std::any_of(digests.items.begin(), digests.items.end(),
                          [&](const TileDataDigest& d) { return d.sha256 == l.data_key->sha256; }));
      }
      MeasureContext ahead;
      ahead.digests = &digests;
      check_same_layers(measure_teeworlds(bytes, ahead), plain);
    }
    CHECK(keyed > 1000);
  }

  TEST_CASE(
      "layer cache e2e: an index run keys each layer by its own data, copies and known maps included") {
    TempDir tmp;
    const std::map<std::string, std::vector<std::uint8_t>> maps = {
        {"m1", pool_map("m1", {"G0", "D0", "D1"})},
        {"m2", pool_map("m2", {"D2", "G1"})},
        {"m3", pool_map("m3", {"G0", "D2", "D0", "D1"})},
        {"m4", pool_map("m4", {"G1", "D1"})}};
    // Each map layer's key as measured on its own (the layer's data hashed
    // where it is measured): (name, layer index, SHA-256).
    std::vector<Row> expected;
    for (const auto& [name, bytes] : maps) {
      const MapStats s = measure_teeworlds(bytes);
      for (std::size_t i = 0; i < s.layers.size(); ++i) {
        REQUIRE(s.layers[i].data_key);
        expected.push_back({name, std::to_string(i), to_hex(s.layers[i].data_key->sha256)});
      }
    }
    std::sort(expected.begin(), expected.end());
    // Run 1 at 2 threads (m1 twice: a copy in the run); run 2 at 1 thread
    // meets m1 and m3 again (known) beside m4, which is new.
    write_archive(tmp / "first.zip", ArchiveFormat::zip,
                  {{.path = "m1.map", .bytes = maps.at("m1")},
                   {.path = "copy/m1.map", .bytes = maps.at("m1")},
                   {.path = "m2.map", .bytes = maps.at("m2")},
                   {.path = "m3.map", .bytes = maps.at("m3")}});
    write_archive(tmp / "second.zip", ArchiveFormat::zip,
                  {{.path = "m3.map", .bytes = maps.at("m3")},
                   {.path = "m4.map", .bytes = maps.at("m4")},
                   {.path = "again/m1.map", .bytes = maps.at("m1")}});
    const auto db = tmp / "index.sqlite";
    REQUIRE(index_into(db, {tmp.file("first.zip")}, {"--threads", "2"}).exit_code <= 1);
    REQUIRE(index_into(db, {tmp.file("second.zip")}, {"--threads", "1"}).exit_code <= 1);
    CHECK(sql_rows(db,
                   "SELECT DISTINCT f.name, l.layer_index, d.sha256 FROM layers l "
                   "JOIN layer_data d USING (layer_data_id) JOIN files f USING (map_id) "
                   "ORDER BY 1, 2, 3") == expected);
  }

  TEST_CASE(
      "layer cache e2e: maps sharing layers: one layer_data row per distinct layer, a later run inflates none") {
    TempDir tmp;
    // Run 1: 3 maps of 9 layers made of the 5 distinct pool layers.
    write_archive(tmp / "first.zip", ArchiveFormat::zip,
                  {{.path = "m1.map", .bytes = pool_map("m1", {"G0", "D0", "D1"})},
                   {.path = "m2.map", .bytes = pool_map("m2", {"G0", "D1", "D2"})},
                   {.path = "m3.map", .bytes = pool_map("m3", {"G1", "D0", "D2"})}});
    // Run 2: new maps, every layer from the pool (5 layers, all known).
    write_archive(tmp / "second.zip", ArchiveFormat::zip,
                  {{.path = "m4.map", .bytes = pool_map("m4", {"D1", "G1"})},
                   {.path = "m5.map", .bytes = pool_map("m5", {"G0", "D2", "D0"})}});
    const auto db = tmp / "cached.sqlite";
    const auto stats1 = tmp / "stats1.json", stats2 = tmp / "stats2.json";
    auto r = index_into(db, {tmp.file("first.zip")},
                        {"--threads", "1", "--stats-json", stats1.string()});
    REQUIRE_MESSAGE(r.exit_code == 1, r.err);  // D1's reserved byte rejects m1 and m2
    CHECK(sql_int(db, "SELECT count(*) FROM layers") == 9);
    CHECK(sql_int(db, "SELECT count(*) FROM layer_data") == 5);
    CHECK(sql_int(db, "SELECT count(DISTINCT layer_data_id) FROM layers") == 5);
    CHECK(sql_int(db, "SELECT count(*) FROM layer_data WHERE sha256 IS NULL") == 0);
    CHECK(stats_field(stats1, "layers_measured") == 5);
    CHECK(stats_field(stats1, "layers_reused_run") == 4);
    CHECK(stats_field(stats1, "layers_reused_index") == 0);
    // D1's finding is each map's problem at the layer that holds D1.
    CHECK(sql_rows(db,
                   "SELECT f.name, p.location FROM problems p JOIN files f USING (map_id) "
                   "WHERE p.code = 'M14' ORDER BY f.name") ==
          std::vector<Row>{{"m1", "layer 2"}, {"m2", "layer 1"}});

    r = index_into(db, {tmp.file("second.zip")},
                   {"--threads", "1", "--stats-json", stats2.string()});
    REQUIRE_MESSAGE(r.exit_code == 1, r.err);
    CHECK(stats_field(stats2, "maps_measured") == 2);
    CHECK(stats_field(stats2, "layers_measured") == 0);
    CHECK(stats_field(stats2, "layers_reused_index") == 5);
    CHECK(sql_int(db, "SELECT count(*) FROM layer_data") == 5);
    CHECK(sql_int(db, "SELECT count(*) FROM layers") == 14);
    CHECK(sql_rows(db,
                   "SELECT f.name, p.location FROM problems p JOIN files f USING (map_id) "
                   "WHERE p.code = 'M14' AND f.name = 'm4'") ==
          std::vector<Row>{{"m4", "layer 0"}});

    // The same two runs without the cache give the same index.
    const auto plain = tmp / "plain.sqlite";
    REQUIRE(index_into(plain, {tmp.file("first.zip")}, {"--no-layer-cache"}).exit_code == 1);
    REQUIRE(index_into(plain, {tmp.file("second.zip")}, {"--no-layer-cache"}).exit_code == 1);
    CHECK(first_difference(index_tables(db), index_tables(plain)) == "");
  }

  TEST_CASE(
      "layer cache: a known thumbnail with a drawn layer unread here is drawn, the map measured once") {
    // The game and speedup layers are drawn. Under a limit between their
    // data sizes (4 and 6 bytes a tile) only the game layer reads: the stored
    // thumbnail shows the speedups, so it is not taken; the map's thumbnail
    // is that of the map without its speedup layer, and unkeyed.
    const auto build = [](bool with_speedup) {
      TileGrid speedup(LayerKind::speedup, 30, 20);
      for (int x = 3; x < 27; ++x) speedup.set_speedup(x, 10, 28, 30, 0, 90);
      MapBuilder b;
      b.add_game_group();
      b.add_tile_layer(pool_layer("G0"), {.name = "Game"});
      if (with_speedup) b.add_tile_layer(speedup, {.name = "Speedup"});
      b.add_tile_layer(pool_layer("D0"), {.name = "D0"});
      return b.build();
    };
    const auto map = build(true);
    const ContentOptions thumbnail{.thumbnail = ThumbnailMode::encoded};
    MapStore store;
    MeasureContext full;
    full.layer_store = &store;
    const Measurement first = measure_content(map, full, thumbnail);
    REQUIRE(first.stats.thumbnail_key);
    REQUIRE(store.thumbnail_offers == 1);
    REQUIRE(store.offers == 3);

    MeasureContext limited = full;
    limited.max_data_item_size = 30 * 20 * 5;
    std::vector<std::int32_t> given;
    ContentOptions watched = thumbnail;
    watched.on_tile_layer = [&](const render::TileLayerView& v) { given.push_back(v.layer_index); };
    const int finds = store.finds;
    const Measurement m = measure_content(map, limited, watched);
    CHECK(store.thumbnail_hits == 1);
    // Measured once: each tile layer asked of the store once; every one is
    // known, so none is inflated for measuring (the game layer is read again
    // for the thumbnail only).
    CHECK(store.finds - finds == 3);
    CHECK(given.empty());
    CHECK(store.thumbnail_offers == 1);
    CHECK_FALSE(m.stats.thumbnail_key);
    const Measurement without_speedup = measure_content(build(false), {}, thumbnail);
    REQUIRE_FALSE(without_speedup.stats.thumbnail_png.empty());
    CHECK(without_speedup.stats.thumbnail_png != first.stats.thumbnail_png);
    CHECK(m.stats.thumbnail_png == without_speedup.stats.thumbnail_png);
    // As without the store.
    MeasureContext plain;
    plain.max_data_item_size = limited.max_data_item_size;
    const Measurement m_plain = measure_content(map, plain, thumbnail);
    CHECK(m.stats.thumbnail_png == m_plain.stats.thumbnail_png);
    CHECK(m.stats.thumbnail_key == m_plain.stats.thumbnail_key);
    check_same_layers(m.stats, m_plain.stats);
  }

  TEST_CASE(
      "layer cache: a thumbnail taken from the store is the drawn one, a changed drawn layer misses") {
    // a and b share their game layer (b's design layers differ); c's differs.
    const auto a = pool_map("a", {"G0", "D0"});
    const auto b = pool_map("b", {"D2", "G0", "D1"});
    const auto c = pool_map("c", {"G1", "D0"});
    MapStore store;
    std::vector<LayerKind> inflated;
    MeasureContext o;
    o.layer_store = &store;
    ContentOptions watched{.thumbnail = ThumbnailMode::encoded};
    watched.on_tile_layer = [&](const render::TileLayerView& v) { inflated.push_back(v.kind); };
    const ContentOptions plain{.thumbnail = ThumbnailMode::encoded};

    const Measurement ma = measure_content(a, o, watched);
    REQUIRE_FALSE(ma.stats.thumbnail_png.empty());
    REQUIRE(ma.stats.thumbnail_key);
    CHECK(store.thumbnail_offers == 1);
    CHECK(store.thumbnail_hits == 0);
    CHECK(std::count(inflated.begin(), inflated.end(), LayerKind::game) == 1);

    inflated.clear();
    const Measurement mb = measure_content(b, o, watched);
    CHECK(store.thumbnail_hits == 1);
    CHECK(store.thumbnail_offers == 1);
    // The game layer was known by key: not inflated to draw it again.
    CHECK(std::count(inflated.begin(), inflated.end(), LayerKind::game) == 0);
    CHECK(std::count(inflated.begin(), inflated.end(), LayerKind::tiles) == 2);  // D2, D1 new
    const Measurement mb_drawn = measure_content(b, {}, plain);
    REQUIRE_FALSE(mb_drawn.stats.thumbnail_png.empty());
    CHECK(mb.stats.thumbnail_png == mb_drawn.stats.thumbnail_png);
    CHECK(mb.stats.thumbnail_key == mb_drawn.stats.thumbnail_key);
    CHECK(mb.stats.thumbnail_key == ma.stats.thumbnail_key);
    check_same_layers(mb.stats, mb_drawn.stats);

    inflated.clear();
    const Measurement mc = measure_content(c, o, watched);
    CHECK(store.thumbnail_hits == 1);  // G1 is another layer: drawn
    CHECK(store.thumbnail_offers == 2);
    CHECK(std::count(inflated.begin(), inflated.end(), LayerKind::game) == 1);
    REQUIRE(mc.stats.thumbnail_key);
    CHECK(*mc.stats.thumbnail_key != *ma.stats.thumbnail_key);
    CHECK(mc.stats.thumbnail_png != ma.stats.thumbnail_png);
    CHECK(mc.stats.thumbnail_png == measure_content(c, {}, plain).stats.thumbnail_png);
  }

  TEST_CASE(
      "layer cache: a deferred thumbnail, once finished, is the one measured at once, offered then") {
    const auto a = pool_map("a", {"G0", "D0"});
    MapStore store;
    MeasureContext with_store;
    with_store.layer_store = &store;
    const ContentOptions deferred{.thumbnail = ThumbnailMode::drawn_only};
    const Measurement at_once = measure_content(a, {}, {.thumbnail = ThumbnailMode::encoded});
    REQUIRE_FALSE(at_once.stats.thumbnail_png.empty());
    REQUIRE(at_once.stats.thumbnail_key);

    Measurement m = measure_content(a, with_store, deferred);
    REQUIRE(m.thumbnail);
    CHECK(m.stats.thumbnail_png.empty());
    CHECK_FALSE(m.stats.thumbnail_key);
    CHECK(store.thumbnail_offers == 0);
    finish_thumbnail(m, &store);
    CHECK_FALSE(m.thumbnail);
    CHECK(store.thumbnail_offers == 1);
    CHECK(m.stats.thumbnail_png == at_once.stats.thumbnail_png);
    CHECK(m.stats.thumbnail_key == at_once.stats.thumbnail_key);

    // b shows a's game layer: its thumbnail comes from the store, nothing is
    // left to encode.
    const auto b = pool_map("b", {"D2", "G0", "D1"});
    Measurement mb = measure_content(b, with_store, deferred);
    CHECK(store.thumbnail_hits == 1);
    CHECK_FALSE(mb.thumbnail);
    CHECK(mb.stats.thumbnail_png == at_once.stats.thumbnail_png);
    finish_thumbnail(mb, &store);
    CHECK(store.thumbnail_offers == 1);
    CHECK(mb.stats.thumbnail_png == at_once.stats.thumbnail_png);
  }

  TEST_CASE(
      "layer cache: a map whose thumbnail another map is encoding takes its image, not drawing") {
    // With one decode thread the store does not wait for a claimant's PNG
    // (wait_for_claims false): b, measured while a's drawn thumbnail waits to
    // be encoded, takes a's image instead of inflating and drawing G0 again.
    const auto a = pool_map("a", {"G0", "D0"});
    const auto b = pool_map("b", {"D2", "G0", "D1"});
    const ContentOptions deferred{.thumbnail = ThumbnailMode::drawn_only};
    const Measurement at_once = measure_content(a, {}, {.thumbnail = ThumbnailMode::encoded});
    REQUIRE_FALSE(at_once.stats.thumbnail_png.empty());
    REQUIRE(at_once.stats.thumbnail_key);
    const Sha256 key = *at_once.stats.thumbnail_key;
    for (const bool a_encoded_first : {true, false}) {
      CAPTURE(a_encoded_first);
      ThumbnailStore s(false);
      RunLayerStore& store = s.store;
      MeasureContext o;
      o.layer_store = &store;
      std::vector<LayerKind> inflated;
      ContentOptions watched = deferred;
      watched.on_tile_layer = [&](const render::TileLayerView& v) { inflated.push_back(v.kind); };
      Measurement ma = measure_content(a, o, deferred);
      REQUIRE(ma.thumbnail);
      Measurement mb = measure_content(b, o, watched);
      REQUIRE(mb.thumbnail);
      CHECK(mb.thumbnail->borrowed);
      CHECK(mb.thumbnail->image == ma.thumbnail->image);  // the one image, shared
      CHECK(std::count(inflated.begin(), inflated.end(), LayerKind::game) == 0);
      if (a_encoded_first) {
        finish_thumbnail(ma, &store);
        finish_thumbnail(mb, &store);  // takes a's PNG
        CHECK(s.counters.layers.thumbnails_reused == 1);
      } else {
        finish_thumbnail(mb, &store);  // a's claim still open: encodes, does not offer
        CHECK_FALSE(store.find_thumbnail(key).png);
        finish_thumbnail(ma, &store);
        CHECK(s.counters.layers.thumbnails_reused == 0);
      }
      CHECK(ma.stats.thumbnail_png == at_once.stats.thumbnail_png);
      CHECK(mb.stats.thumbnail_png == at_once.stats.thumbnail_png);
      CHECK(mb.stats.thumbnail_key == at_once.stats.thumbnail_key);
      CHECK(store.find_thumbnail(key).png);  // a's, offered under its claim
    }
    // A claim given up takes its image with it: b claims the key and draws.
    ThumbnailStore s(false);
    RunLayerStore& store = s.store;
    MeasureContext o;
    o.layer_store = &store;
    Measurement ma = measure_content(a, o, deferred);
    REQUIRE(ma.thumbnail);
    const auto image = ma.thumbnail->image;
    ma.thumbnail.reset();                          // a dropped before encoding: its claim given up
    CHECK_FALSE(store.find_thumbnail(key).drawn);  // no claim now: this call's own
    store.give_up_thumbnail(key);
    Measurement mb = measure_content(b, o, deferred);
    REQUIRE(mb.thumbnail);
    CHECK_FALSE(mb.thumbnail->borrowed);
    CHECK(mb.thumbnail->image != image);
    CHECK(mb.thumbnail->image->pixels == image->pixels);
    // The store keeps an image only while its key is claimed.
    const Sha256 other = thumbnail_key_for(9);
    store.offer_drawn_thumbnail(other, image);       // no claim yet: not kept
    REQUIRE_FALSE(store.find_thumbnail(other).png);  // claimed now
    auto second = store.find_thumbnail(other);
    REQUIRE(second.drawn);
    CHECK(second.drawn() == nullptr);
    store.offer_drawn_thumbnail(other, image);
    CHECK(second.drawn() == image);
    store.give_up_thumbnail(other);
    CHECK(second.drawn() == nullptr);
  }

  TEST_CASE(
      "layer cache: a stored thumbnail for the key of a map is what the map shows, and only for it") {
    // A planted thumbnail under a's key shows for a: the store is trusted
    // like the layer results, so what it holds under a key is what shows.
    const auto a = pool_map("a", {"G0", "D0"});
    const ContentOptions thumbnail{.thumbnail = ThumbnailMode::encoded};
    const Measurement drawn = measure_content(a, {}, thumbnail);
    REQUIRE(drawn.stats.thumbnail_key);
    MapStore store;
    const std::vector<std::uint8_t> planted = {1, 2, 3};
    store.thumbnails[*drawn.stats.thumbnail_key] =
        std::make_shared<const std::vector<std::uint8_t>>(planted);
    MeasureContext o;
    o.layer_store = &store;
    CHECK(measure_content(a, o, thumbnail).stats.thumbnail_png == planted);
    // A thumbnail under another key is not taken: the map is drawn.
    MapStore other;
    Sha256 wrong = *drawn.stats.thumbnail_key;
    wrong[0] ^= 1;
    other.thumbnails[wrong] = std::make_shared<const std::vector<std::uint8_t>>(planted);
    o.layer_store = &other;
    CHECK(measure_content(a, o, thumbnail).stats.thumbnail_png == drawn.stats.thumbnail_png);
  }

  TEST_CASE(
      "layer cache e2e: a later run takes the thumbnail of a map whose drawn layers it knows") {
    TempDir tmp;
    write_archive(tmp / "first.zip", ArchiveFormat::zip,
                  {{.path = "m1.map", .bytes = pool_map("m1", {"G0", "D0"})}});
    // m2: m1's game layer, another design layer.
    write_archive(tmp / "second.zip", ArchiveFormat::zip,
                  {{.path = "m2.map", .bytes = pool_map("m2", {"D2", "G0"})}});
    const auto db = tmp / "cached.sqlite", plain = tmp / "plain.sqlite";
    const auto stats1 = tmp / "stats1.json", stats2 = tmp / "stats2.json";
    auto r = index_into(db, {tmp.file("first.zip")}, {"--stats-json", stats1.string()});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(stats_field(stats1, "thumbnails_reused") == 0);
    r = index_into(db, {tmp.file("second.zip")}, {"--stats-json", stats2.string()});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(stats_field(stats2, "thumbnails_reused") == 1);
    CHECK(stats_field(stats2, "layers_measured") == 1);  // D2 only
    CHECK(stats_field(stats2, "layers_reused_index") == 1);
    CHECK(sql_int(db, "SELECT count(DISTINCT layers_key) FROM thumbnails") == 1);
    CHECK(sql_int(db, "SELECT count(*) FROM thumbnails WHERE length(layers_key) = 32") == 2);

    REQUIRE(index_into(plain, {tmp.file("first.zip")}, {"--no-layer-cache"}).exit_code == 0);
    const auto stats3 = tmp / "stats3.json";
    REQUIRE(index_into(plain, {tmp.file("second.zip")},
                       {"--no-layer-cache", "--stats-json", stats3.string()})
                .exit_code == 0);
    CHECK(stats_field(stats3, "thumbnails_reused") == 0);
    const std::string m2 =
        "SELECT png, layers_key FROM thumbnails JOIN files USING (map_id) "
        "WHERE files.name = 'm2'";
    REQUIRE(sql_rows(plain, m2).size() == 1);
    CHECK(sql_rows(db, m2) == sql_rows(plain, m2));
    CHECK(first_difference(index_tables(db), index_tables(plain)) == "");
  }

  TEST_CASE(
      "layer cache: a run with no thread to be had beside its graph's writes the same index") {
    // OpenSSL's warm-up, the background check and freeing the layer results
    // each take a thread of their own when one can be had; without one the
    // run does the work in place (or, for the warm-up, in its first digest).
    TempDir tmp;
    write_archive(tmp / "maps.zip", ArchiveFormat::zip,
                  {{.path = "m1.map", .bytes = pool_map("m1", {"G0", "D0", "D1"})},
                   {.path = "copy/m1.map", .bytes = pool_map("m1", {"G0", "D0", "D1"})},
                   {.path = "m2.map", .bytes = pool_map("m2", {"D2", "G1", "D0"})},
                   {.path = "m3.map", .bytes = pool_map("m3", {"G0", "D2", "D0", "D1"})}});
    // The run's summary and the maps it measured.
    const auto run = [&](const fs::path& db) {
      IndexOptions options;
      options.db_path = db.string();
      options.inputs = {tmp.file("maps.zip")};
      options.threads = 1;
      LiveCounters counters;
      auto summary = run_index(options, counters);
      REQUIRE_MESSAGE(summary.ok(), (summary.ok() ? "" : summary.error().message));
      return std::pair(*summary, counters.maps_measured.load());
    };
    const auto plain = tmp / "plain.sqlite", refused = tmp / "refused.sqlite";
    const auto [reference, measured_reference] = run(plain);
    CHECK(reference.index_check == index::IndexCheck::created);
    CHECK(measured_reference == 3);
    mapindex::testing::RefuseThreadStarts no_threads;
    const auto [first, measured] = run(refused);
    CHECK(first.index_check == index::IndexCheck::created);
    CHECK(measured == 3);
    CHECK(first_difference(index_tables(refused), index_tables(plain)) == "");
    // Again over that index: vetted at open (by its stamp where the file
    // system keeps one), every map known.
    const auto [again, measured_again] = run(refused);
    CHECK((again.index_check == index::IndexCheck::unchanged ||
           again.index_check == index::IndexCheck::quick_check));
    CHECK(measured_again == 0);
    CHECK(sql_value(refused, "SELECT status FROM runs ORDER BY run_id DESC LIMIT 1") == "complete");
  }

  TEST_CASE("layer cache e2e: --no-layer-cache is accepted but not in --help") {
    const auto help = run_process(mapindex_binary(), {"index", "--help"});
    CHECK(help.exit_code == 0);
    CHECK(help.out.find("layer-cache") == std::string::npos);
  }

  TEST_CASE(
      "layer cache corpus: the corpus indexed with and without the layer cache, at 1 and 2 threads: same index") {
    const auto maps = corpus_dir("maps");
    if (!maps) {
      report_corpus_missing("maps", "layer cache differential");
      return;
    }
    TempDir tmp;
    const auto cached1 = tmp / "cached1.sqlite", cached2 = tmp / "cached2.sqlite",
               plain = tmp / "plain.sqlite";
    const auto stats = tmp / "stats.json";
    auto r =
        index_into(cached1, {maps->string()}, {"--threads", "1", "--stats-json", stats.string()});
    REQUIRE_MESSAGE(r.exit_code <= 1, r.err);
    // The corpus repeats layers: some are reused (34% by the count).
    CHECK(stats_field(stats, "layers_reused_run") > 0);
    REQUIRE(index_into(cached2, {maps->string()}, {"--threads", "2"}).exit_code <= 1);
    REQUIRE(index_into(plain, {maps->string()}, {"--threads", "1", "--no-layer-cache"}).exit_code <=
            1);
    const auto reference = index_tables(plain);
    CHECK(reference.at("layer_data").size() > 0);
    // The thumbnails (their PNG bytes and keys) are compared too.
    CHECK(reference.at("thumbnails").size() > 0);
    CHECK(first_difference(index_tables(cached1), reference) == "");
    CHECK(first_difference(index_tables(cached2), reference) == "");
    // Release builds write without SQLite enforcing foreign keys (index_db.h,
    // kEnforceForeignKeys): every index written here must still pass the check.
    for (const auto& db : {cached1, cached2, plain}) {
      CAPTURE(db);
      CHECK(sql_rows(db, "SELECT * FROM pragma_foreign_key_check").empty());
    }
  }

  TEST_CASE(
      "layer cache e2e: an entry the index refuses rolls its batch back, the others are rewritten") {
    // The run writes without a savepoint per entry (index_run.cpp): bad.map,
    // refused after its map and new layers were written, takes the batch
    // with it, and m1 and m2 before it must be written again. m3 repeats
    // bad.map's layers: they are written anew, not taken from the writer's
    // memory of the rolled back rows.
    TempDir tmp;
    write_archive(tmp / "maps.zip", ArchiveFormat::zip,
                  {{.path = "m1.map", .bytes = pool_map("m1", {"G0", "D0"})},
                   {.path = "m2.map", .bytes = pool_map("m2", {"G0", "D1"})},
                   {.path = "bad.map", .bytes = pool_map("bad", {"G1", "D2"})},
                   {.path = "m3.map", .bytes = pool_map("m3", {"G1", "D2"})}});
    const auto db = tmp / "refusing.sqlite";
    {
      auto opened = index::IndexDb::open(db.string(), index::OpenMode::read_write);
      REQUIRE(opened);
      sqlite::exec_sql(opened->handle(),
                       "CREATE TRIGGER refuse BEFORE INSERT ON files "
                       "WHEN NEW.entry_path = 'bad.map' "
                       "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
    }
    const auto r = index_into(db, {tmp.file("maps.zip")}, {"--threads", "1"});
    CHECK(r.exit_code == 1);
    CHECK_MESSAGE(r.err.find("bad.map: its rows could not be written") != std::string::npos, r.err);
    CHECK(sql_rows(db, "SELECT entry_path FROM files ORDER BY 1") ==
          std::vector<Row>{{"m1.map"}, {"m2.map"}, {"m3.map"}});
    CHECK(sql_rows(db, "SELECT * FROM pragma_foreign_key_check").empty());
    CHECK(sql_rows(db,
                   "SELECT f.name, l.layer_index, l.name FROM layers l JOIN files f USING (map_id) "
                   "ORDER BY 1, 2") == std::vector<Row>{{"m1", "0", "G0"},
                                                        {"m1", "1", "D0"},
                                                        {"m2", "0", "G0"},
                                                        {"m2", "1", "D1"},
                                                        {"m3", "0", "G1"},
                                                        {"m3", "1", "D2"}});
    CHECK(sql_int(db,
                  "SELECT count(*) FROM tile_counts t JOIN files f USING (map_id) "
                  "WHERE f.name = 'm3'") > 0);
  }

  TEST_CASE("layer cache e2e: a synthetic map history with and without it, at 1 and 2 threads") {
    TempDir tmp;
    write_archive(tmp / "history.tar", ArchiveFormat::tar, map_history(3, 4, 2));
    const auto cached1 = tmp / "cached1.sqlite", cached2 = tmp / "cached2.sqlite",
               plain = tmp / "plain.sqlite";
    const auto input = tmp.file("history.tar");
    const auto stats1 = tmp / "stats1.json", stats2 = tmp / "stats2.json";
    REQUIRE(index_into(cached1, {input}, {"--threads", "1", "--stats-json", stats1.string()})
                .exit_code <= 1);
    REQUIRE(index_into(cached2, {input}, {"--threads", "2", "--stats-json", stats2.string()})
                .exit_code <= 1);
    REQUIRE(index_into(plain, {input}, {"--threads", "1", "--no-layer-cache"}).exit_code <= 1);
    const auto reference = index_tables(plain);
    CHECK(reference.at("maps").size() == 24);
    CHECK(first_difference(index_tables(cached1), reference) == "");
    CHECK(first_difference(index_tables(cached2), reference) == "");
    // Two decode threads measure a layer new to both once, as one thread
    // does: the second waits for the first's result (RunLayerStore claims),
    // and a thumbnail is drawn once per distinct one.
    CHECK(stats_field(stats2, "layers_measured") == stats_field(stats1, "layers_measured"));
    CHECK(stats_field(stats2, "thumbnails_reused") ==
          stats_field(stats2, "maps_measured") -
              sql_int(cached2, "SELECT count(*) FROM thumbnail_images"));
    // The versions share: fewer layer rows than layers, one body per
    // distinct set of a map's body rows as the views show them (a version
    // changes tiles, not images or envelopes), a thumbnail for a version and
    // its copy.
    for (const auto& db : {cached1, cached2, plain}) {
      CAPTURE(db);
      CHECK(sql_rows(db, "SELECT * FROM pragma_foreign_key_check").empty());
      CHECK(sql_int(db, "SELECT count(*) FROM layer_defs") * 2 <
            sql_int(db, "SELECT count(*) FROM map_layers"));
      std::set<std::vector<Row>> bodies;
      for (const auto& map : sql_rows(db, "SELECT map_id FROM maps")) {
        std::vector<Row> body;
        for (const char* view : {"settings", "groups", "images", "image_users", "envelopes",
                                 "envelope_users", "sounds", "sound_users"}) {
          auto rows = sql_rows(db, std::string("SELECT * FROM ") + view +
                                       " WHERE map_id = " + map[0] + " ORDER BY 2, 3, 4");
          for (auto& r : rows) r.front() = view;  // the map_id: which view
          body.insert(body.end(), rows.begin(), rows.end());
        }
        bodies.insert(body);
      }
      CHECK(bodies.size() < 24);
      CHECK(sql_int(db, "SELECT count(*) FROM map_bodies") ==
            static_cast<std::int64_t>(bodies.size()));
      CHECK(sql_int(db, "SELECT count(*) FROM thumbnail_images") ==
            sql_int(db, "SELECT count(DISTINCT thumbnail_id) FROM map_parts"));
      CHECK(sql_int(db, "SELECT count(*) FROM thumbnail_images") <= 12);
    }
  }

  TEST_CASE(
      "layer cache corpus: a new index and the reference build's migrated answer as its own") {
    // MAPINDEX_REFERENCE_MAPINDEX: a mapindex built from the commit before
    // the stored-once schema (schema version 10), e.g. of main then.
    const char* reference_binary = std::getenv("MAPINDEX_REFERENCE_MAPINDEX");
    if (!reference_binary || !*reference_binary) {
      report_skipped("MAPINDEX_REFERENCE_MAPINDEX is not set (a mapindex of schema version 10)");
      return;
    }
    TempDir tmp;
    write_archive(tmp / "history.tar", ArchiveFormat::tar, map_history(3, 8, 2));
    std::vector<std::vector<std::string>> inputs = {{tmp.file("history.tar")}};
    if (const auto maps = corpus_dir("maps"))
      inputs.push_back({maps->string()});
    else
      report_corpus_missing("maps", "the corpus against the reference build");
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      CAPTURE(inputs[i][0]);
      const auto old_db = tmp / ("reference" + std::to_string(i) + ".sqlite");
      const auto new_db = tmp / ("this" + std::to_string(i) + ".sqlite");
      const auto migrated = tmp / ("migrated" + std::to_string(i) + ".sqlite");
      std::vector<std::string> args = {"index", "--db", old_db.string(), "--progress", "none"};
      args.insert(args.end(), inputs[i].begin(), inputs[i].end());
      const auto r = run_process(reference_binary, args);
      REQUIRE_MESSAGE(r.exit_code <= 1, r.err);
      REQUIRE(index_into(new_db, inputs[i]).exit_code <= 1);
      REQUIRE(sql_int(old_db, "PRAGMA user_version") < sql_int(new_db, "PRAGMA user_version"));
      fs::copy_file(old_db, migrated);
      REQUIRE(index::IndexDb::open(migrated.string(), index::OpenMode::read_write));
      const auto expected = index_tables_as(old_db, old_db);
      CHECK(expected.at("layers").size() > 0);
      CHECK(expected.at("thumbnails").size() > 0);
      CHECK(first_difference(index_tables_as(new_db, old_db), expected) == "");
      CHECK(first_difference(index_tables_as(migrated, old_db), expected) == "");
      CHECK(sql_rows(migrated, "SELECT * FROM pragma_foreign_key_check").empty());
      CHECK(sql_value(migrated, "PRAGMA integrity_check") == "ok");
    }
  }

  TEST_CASE("layer cache: the shared buffer is held by one thread at a time") {
    tiledata::SharedBuffer shared;
    std::atomic<bool> other_has_it{false};
    auto lease = shared.take();
    CHECK(shared.held_by_this_thread());
    std::thread other([&] {
      auto mine = shared.take();
      CHECK(shared.held_by_this_thread());
      other_has_it = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK_FALSE(other_has_it.load());  // still waiting for this thread's lease
    lease = {};
    CHECK_FALSE(shared.held_by_this_thread());
    other.join();
    CHECK(other_has_it.load());
  }

  TEST_CASE(
      "layer cache slow: tile layers over 32 MiB: measured in the shared buffer, the same on 2 threads") {
    // The workspaces' owner (as an index run) gives both threads one shared
    // buffer; each thread has a workspace of its own.
    tiledata::SharedBuffer shared;
    // 3000x3000 tiles of 4 bytes: 36 MB, over kSharedBufferAbove.
    constexpr int n = 3000;
    static_assert(std::int64_t{n} * n * 4 >
                  static_cast<std::int64_t>(tiledata::kSharedBufferAbove));
    TileGrid game(LayerKind::game, n, n), deco(LayerKind::tiles, n, n);
    game.fill(0, n - 10, n, 10, 1);  // 30,000 solid tiles
    deco.fill(0, 0, 100, 100, 2);    // 10,000 tiles of index 2
    MapBuilder b;
    b.add_game_group();
    b.add_tile_layer(game, {.name = "Game"});
    b.add_tile_layer(deco, {.name = "Big"});
    b.add_tile_layer(pool_layer("D0"), {.name = "D0"});
    const auto map = b.build();

    const MapStats plain = measure_teeworlds(map);
    REQUIRE(plain.layers.size() == 3);
    CHECK(plain.layers[0].tile_counts == std::vector<TileCount>{{1, 30000}});
    CHECK(plain.layers[1].tile_counts == std::vector<TileCount>{{2, 10000}});
    CHECK(plain.layers[2].tile_counts == std::vector<TileCount>{{1, 90}});  // D0: 30x3

    // Two threads at once, twice each: they take the buffer in turn.
    std::vector<MapStats> results(4);
    MeasureWorkspace wa(shared), wc(shared);
    {
      MeasureContext oa, oc;
      oa.workspace = &wa;
      oc.workspace = &wc;
      std::thread a([&] {
        results[0] = measure_teeworlds(map, oa), results[1] = measure_teeworlds(map, oa);
      });
      std::thread c([&] {
        results[2] = measure_teeworlds(map, oc), results[3] = measure_teeworlds(map, oc);
      });
      a.join();
      c.join();
    }
    for (const auto& r : results) check_same_layers(r, plain);
    // The large layer went into the shared buffer, not the workspaces' own.
    CHECK(shared.take().buffer().capacity() >= std::size_t{n} * n * 4);
    CHECK(wa.tiles.capacity() <= tiledata::kSharedBufferAbove);
    CHECK(wc.tiles.capacity() <= tiledata::kSharedBufferAbove);

    // The layer cache is never asked, nor offered a result, by a thread
    // holding the shared buffer (it must not wait on anything holding it).
    struct CheckingStore final : LayerDataStore {
      std::shared_ptr<const LayerData> find(const LayerDataKey& key) override {
        if (shared->held_by_this_thread()) ++held;
        std::lock_guard lock(mutex);
        auto it = entries.find(key);
        return it == entries.end() ? nullptr : it->second;
      }
      void offer(const LayerDataKey& key, std::shared_ptr<const LayerData> data) override {
        if (shared->held_by_this_thread()) ++held;
        std::lock_guard lock(mutex);
        entries.emplace(key, std::move(data));
      }
      std::mutex mutex;
      std::unordered_map<LayerDataKey, std::shared_ptr<const LayerData>, LayerDataKeyHash> entries;
      std::atomic<int> held{0};
      tiledata::SharedBuffer* shared = nullptr;
    } store;
    store.shared = &shared;
    MeasureContext o;
    o.layer_store = &store;
    o.workspace = &wa;
    const MapStats first = measure_teeworlds(map, o);  // measures and offers all three
    CHECK(store.entries.size() == 3);
    // Known layers inflated anyway (as for a thumbnail).
    struct EveryKind final : TileLayerSink {
      std::uint32_t kinds_always_inflated() const override { return ~0u; }
      void on_tile_layer(const render::TileLayerView&) override { ++layers; }
      int layers = 0;
    } every_kind;
    const MapStats again = measure_teeworlds(map, o, &every_kind);
    CHECK(every_kind.layers == 3);
    check_same_layers(first, plain);
    check_same_layers(again, plain);
    CHECK(store.held.load() == 0);
    CHECK_FALSE(shared.held_by_this_thread());
  }
}
