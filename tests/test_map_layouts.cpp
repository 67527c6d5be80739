// The named layouts and kinds of the decode stage against the facts they
// stand for: item fields at the word positions docs/formats/map-items.md
// gives (what each version added), tile numbers against
// schema/tile_names.csv, layer kinds and envelope roles against the README's
// schema reference and the tilemap flag bits.
#include <doctest/doctest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "decode/kinds.h"
#include "decode/teeworlds/item_decoders.h"
#include "decode/teeworlds/tiles.h"
#include "extract/teeworlds_tile_names.h"
#include "tests/support/corpus.h"

namespace mapindex::teeworlds {
namespace {

// An item payload whose word i holds 1000 + i, with `version` in word
// `version_at`: every field read shows where it came from.
struct Payload {
  std::vector<std::uint8_t> bytes;
  Payload(std::size_t words, std::size_t version_at, std::int32_t version) {
    for (std::size_t i = 0; i < words; ++i) {
      const auto v = static_cast<std::uint32_t>(
          i == version_at ? version : 1000 + static_cast<std::int32_t>(i));
      for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
    }
  }
  datafile::Int32View view() const { return datafile::Int32View(Bytes(bytes)); }
};

std::string schema_doc_line(const std::string& starts_with) {
  const std::string doc = mapindex::testing::read_text_file(
      std::filesystem::path(MAPINDEX_SOURCE_DIR) / "docs/schema.md");
  const auto at = doc.find("\n" + starts_with);
  REQUIRE(at != std::string::npos);
  return doc.substr(at + 1, doc.find('\n', at + 1) - at - 1);
}

// The `names` after the colon of a docs/schema.md list line ("- `kind`: `a`, `b` or `c`.").
std::set<std::string> backticked(const std::string& line) {
  std::set<std::string> out;
  const std::regex word("`([a-z_]+)`");
  const std::string values = line.substr(line.find(": ") + 2);
  for (std::sregex_iterator it(values.begin(), values.end(), word), end; it != end; ++it)
    out.insert((*it)[1]);
  return out;
}

}  // namespace

TEST_SUITE_BEGIN("map");

TEST_CASE("map layout: group fields by word, clipping from version 2, the name from version 3") {
  auto g = decode_group(Payload(15, 0, 3).view());
  REQUIRE(g);
  CHECK(g->offset_x == 1001);
  CHECK(g->parallax_y == 1004);
  CHECK(g->start_layer == 1005);
  CHECK(g->num_layers == 1006);
  CHECK(g->clipping);
  CHECK(g->clip_x == 1008);
  CHECK(g->clip_h == 1011);
  auto v1 = decode_group(Payload(15, 0, 1).view());
  REQUIRE(v1);
  CHECK_FALSE(v1->clipping);
  CHECK(v1->clip_h == 0);
  auto v2_short = decode_group(Payload(11, 0, 2).view());  // clipping needs 12 words
  REQUIRE(v2_short);
  CHECK(v2_short->clip_x == 0);
  CHECK_FALSE(decode_group(Payload(6, 0, 3).view()));  // M2: 7 words
}

TEST_CASE("map layout: envelope name without a version change, synchronized from version 2") {
  auto v1 = decode_envelope(Payload(13, 0, 1).view());
  REQUIRE(v1);
  CHECK(v1->channels == 1001);
  CHECK(v1->num_points == 1003);
  CHECK_FALSE(v1->name.empty());  // words 4..11, read at version 1
  CHECK_FALSE(v1->synchronized);  // word 12 is not read before version 2
  auto v2 = decode_envelope(Payload(13, 0, 2).view());
  REQUIRE(v2);
  CHECK(v2->synchronized);
  auto v2_short = decode_envelope(Payload(12, 0, 2).view());
  REQUIRE(v2_short);
  CHECK_FALSE(v2_short->synchronized);
}

TEST_CASE("map layout: image variant only from version 2") {
  Payload p(7, 0, 1);
  p.bytes[6 * 4] = 0;  // variant 0 (RGB) in word 6
  p.bytes[6 * 4 + 1] = 0;
  auto v1 = decode_image(p.view());
  REQUIRE(v1);
  CHECK(v1->width == 1001);
  CHECK(v1->data == 1005);
  CHECK(v1->rgba());  // version 1 is RGBA whatever word 6 holds
  p.bytes[0] = 2;
  auto v2 = decode_image(p.view());
  REQUIRE(v2);
  CHECK_FALSE(v2->rgba());
}

TEST_CASE(
    "map layout: tilemap fields, the name from version 3, DDNet's indices after it (or after data in version 2)") {
  auto v3 = decode_tilemap(Payload(23, 3, 3).view());
  REQUIRE(v3);
  CHECK(v3->width == 1004);
  CHECK(v3->flags == 1006);
  CHECK(v3->color == std::array<std::int32_t, 4>{1007, 1008, 1009, 1010});
  CHECK(v3->color_envelope == 1011);
  CHECK(v3->image == 1013);
  CHECK(v3->data == 1014);
  CHECK(v3->has_name);
  CHECK(v3->num_ddnet_data == 5);
  CHECK(v3->ddnet_data[0] == 1018);
  CHECK(v3->ddnet_data[4] == 1022);
  auto v2 = decode_tilemap(Payload(17, 3, 2).view());
  REQUIRE(v2);
  CHECK_FALSE(v2->has_name);
  CHECK(v2->num_ddnet_data == 2);
  CHECK(v2->ddnet_data[0] == 1015);
  CHECK(v2->ddnet_data[1] == 1016);
  CHECK_FALSE(decode_tilemap(Payload(14, 3, 3).view()));  // M5: 15 words
}

TEST_CASE(
    "map layout: quads and sounds layers (the quads name from version 2, the sounds name at any version)") {
  auto q1 = decode_quads_layer(Payload(10, 3, 1).view());
  REQUIRE(q1);
  CHECK(q1->num_quads == 1004);
  CHECK(q1->data == 1005);
  CHECK(q1->image == 1006);
  CHECK(q1->name.empty());
  auto q2 = decode_quads_layer(Payload(10, 3, 2).view());
  REQUIRE(q2);
  CHECK_FALSE(q2->name.empty());
  auto s = decode_sounds_layer(Payload(10, 3, -5).view(), false);
  REQUIRE(s);
  CHECK(s->num_sources == 1004);
  CHECK(s->sound == 1006);
  CHECK_FALSE(s->name.empty());
}

TEST_CASE("map layout: quads and sound sources in data items") {
  const Payload quad(38, 99, 0);
  const Quad q = decode_quad(quad.bytes.data());
  CHECK(q.points[4].x == 1008);  // the pivot: the fifth point
  CHECK(q.colors[0][0] == 1010);
  CHECK(q.texture[0].x == 1026);
  CHECK(q.position_envelope == 1034);
  CHECK(q.color_envelope_offset == 1037);
  CHECK(kQuadBytes == quad.bytes.size());

  const Payload source(13, 99, 0);
  const SoundSource s = decode_sound_source(source.bytes.data(), false);
  CHECK(s.delay == 1004);
  CHECK(s.falloff == 1005);
  CHECK(s.sound_envelope == 1008);
  CHECK(s.shape_height == 1012);
  CHECK(kSoundSourceBytes == source.bytes.size());
  const Payload old(9, 99, 0);
  const SoundSource d = decode_sound_source(old.bytes.data(), true);
  CHECK(d.delay == 1003);
  CHECK(d.shape_width == 1004);  // the radius
  CHECK(d.sound_envelope == 1007);
  CHECK(d.sound_envelope_offset == 1008);
  CHECK(kSoundSourceDeprecatedBytes == old.bytes.size());
}

TEST_CASE("map layout: envelope points of 6 and 22 words, DDNet's 16-word tangents") {
  const Payload points(44, 99, 0);
  const EnvelopePoints v3(points.view(), 22, {});
  REQUIRE(v3.size() == 2);
  const EnvPoint p = v3.point(1);
  CHECK(p.time == 1022);
  CHECK(p.curve == 1023);
  CHECK(p.values[3] == 1027);
  CHECK(p.in_dx[0] == 1028);
  CHECK(p.out_dy[3] == 1043);
  const Payload six(12, 99, 0), bezier(32, 99, 0);
  const EnvelopePoints v2(six.view(), 6, bezier.view());
  REQUIRE(v2.bezier_item_used());
  const EnvPoint b = v2.point(1);
  CHECK(b.time == 1006);
  CHECK(b.in_dy[0] == 1020);
  CHECK(b.out_dx[0] == 1024);
}

TEST_CASE("map: tiles.h: every named tile number has that name in schema/tile_names.csv") {
  struct Named {
    LayerKind kind;
    int key;
    const char* name;
  };
  using namespace game_tile;
  const Named named[] = {
      {LayerKind::game, kSolid, "SOLID"},
      {LayerKind::game, kNohook, "NOHOOK"},
      {LayerKind::game, kFreeze, "FREEZE"},
      {LayerKind::game, kUnfreeze, "UNFREEZE"},
      {LayerKind::game, kStart, "START"},
      {LayerKind::game, kFinish, "FINISH"},
      {LayerKind::game, kCp, "CP"},
      {LayerKind::game, kCpF, "CP_F"},
      {LayerKind::front, kLfreeze, "LFREEZE"},
      {LayerKind::game, kSpawn, "SPAWN"},
      {LayerKind::game, kSpawnRed, "SPAWN_RED"},
      {LayerKind::game, kSpawnBlue, "SPAWN_BLUE"},
      {LayerKind::game, kDeath, "DEATH"},
      {LayerKind::game, kThroughCut, "THROUGH_CUT"},
      {LayerKind::game, kThrough, "THROUGH"},
      {LayerKind::game, kJump, "JUMP"},
      {LayerKind::game, kDfreeze, "DFREEZE"},
      {LayerKind::game, kWalljump, "WALLJUMP"},
      {LayerKind::game, kEhookEnable, "EHOOK_ENABLE"},
      {LayerKind::game, kHitDisable, "HIT_DISABLE"},
      {LayerKind::game, kSoloEnable, "SOLO_ENABLE"},
      {LayerKind::game, kTimeCheckpointFirst, "TIME_CHECKPOINT_FIRST"},
      {LayerKind::game, kTimeCheckpointLast, "TIME_CHECKPOINT_LAST"},
      {LayerKind::game, kStop, "STOP"},
      {LayerKind::game, kStopa, "STOPA"},
      {LayerKind::game, kThroughAll, "THROUGH_ALL"},
      {LayerKind::game, kThroughDir, "THROUGH_DIR"},
      {LayerKind::game, kOldlaser, "OLDLASER"},
      {LayerKind::game, kNpc, "NPC"},
      {LayerKind::game, kEhook, "EHOOK"},
      {LayerKind::game, kNohit, "NOHIT"},
      {LayerKind::game, kNph, "NPH"},
      {LayerKind::game, kAddTime, "ADD_TIME"},
      {LayerKind::game, kSubtractTime, "SUBTRACT_TIME"},
      {LayerKind::game, kTeleGunEnable, "TELE_GUN_ENABLE"},
      {LayerKind::game, kNpcEnable, "NPC_ENABLE"},
      {LayerKind::game, kUnlimitedJumpsEnable, "UNLIMITED_JUMPS_ENABLE"},
      {LayerKind::game, kJetpackEnable, "JETPACK_ENABLE"},
      {LayerKind::game, kNphEnable, "NPH_ENABLE"},
      {LayerKind::game, kTeleGrenadeEnable, "TELE_GRENADE_ENABLE"},
      {LayerKind::game, kTeleLaserEnable, "TELE_LASER_ENABLE"},
      {LayerKind::front, kWeaponShotgun, "WEAPON_SHOTGUN"},
      {LayerKind::front, kWeaponGrenade, "WEAPON_GRENADE"},
      {LayerKind::front, kPowerupNinja, "POWERUP_NINJA"},
      {LayerKind::front, kWeaponLaser, "WEAPON_LASER"},
      {LayerKind::front, kLaserFastCcw, "LASER_FAST_CCW"},
      {LayerKind::front, kLaserFastCw, "LASER_FAST_CW"},
      {LayerKind::game, kPlasmaE, "PLASMAE"},
      {LayerKind::game, kPlasmaF, "PLASMAF"},
      {LayerKind::game, kPlasma, "PLASMA"},
      {LayerKind::game, kPlasmaU, "PLASMAU"},
      {LayerKind::game, kCrazyShotgunEx, "CRAZY_SHOTGUN_EX"},
      {LayerKind::game, kCrazyShotgun, "CRAZY_SHOTGUN"},
      {LayerKind::switch_layer, kDraggerWeak, "DRAGGER_WEAK"},
      {LayerKind::switch_layer, kDraggerStrongNw, "DRAGGER_STRONG_NW"},
      {LayerKind::game, kDoor, "DOOR"},
      {LayerKind::switch_layer, switch_tile::kTimedOpen, "SWITCHTIMEDOPEN"},
      {LayerKind::switch_layer, switch_tile::kTimedClose, "SWITCHTIMEDCLOSE"},
      {LayerKind::switch_layer, switch_tile::kOpen, "SWITCHOPEN"},
      {LayerKind::switch_layer, switch_tile::kClose, "SWITCHCLOSE"},
      {LayerKind::tele, tele_tile::kInEvil, "TELEINEVIL"},
      {LayerKind::tele, tele_tile::kInWeapon, "TELEINWEAPON"},
      {LayerKind::tele, tele_tile::kInHook, "TELEINHOOK"},
      {LayerKind::tele, tele_tile::kIn, "TELEIN"},
      {LayerKind::tele, tele_tile::kCheck, "TELECHECK"},
      {LayerKind::speedup, speedup_tile::kBoostOld, "SPEED_BOOST_OLD"},
      {LayerKind::speedup, speedup_tile::kBoost, "SPEED_BOOST"},
      {LayerKind::tune, tune_tile::kTune, "TUNE"},
  };
  for (const Named& n : named) {
    INFO(to_string(n.kind) << " " << n.key << " " << n.name);
    const TileNameTable* table = tile_names(n.kind);
    REQUIRE(table != nullptr);
    CHECK(table->name[static_cast<std::size_t>(n.key)] == n.name);
  }
}

TEST_CASE("map: LayerKind: one name per kind docs/schema.md lists, tilemap kinds first") {
  std::set<std::string> names;
  for (std::size_t k = 0; k < kNumLayerKinds; ++k) {
    const auto kind = static_cast<LayerKind>(k);
    CHECK(names.insert(std::string(to_string(kind))).second);
    CHECK(is_tilemap(kind) == (k < kNumTilemapKinds));
  }
  CHECK(names == backticked(schema_doc_line("- `kind`: `tiles`")));
  CHECK(kNumTilemapKinds == 7);
  CHECK_FALSE(is_physics(LayerKind::tiles));
  CHECK_FALSE(is_physics(LayerKind::quads));
  CHECK(is_physics(LayerKind::tune));
}

TEST_CASE(
    "map: LayerKind: tilemap flag bit b is the kind at index b + 1, and DDNet's data slots follow the same order") {
  // Flag bits (docs/formats/map-items.md): 1 game, 2 tele, 4 speedup, 8 front, 16 switch, 32 tune;
  // DDNet's extra data indices: tele, speedup, front, switch, tune.
  const char* by_bit[] = {"game", "tele", "speedup", "front", "switch", "tune"};
  for (int b = 0; b < 6; ++b) {
    Payload p(23, 3, 3);
    const std::int32_t flags = 1 << b;
    for (int i = 0; i < 4; ++i) p.bytes[6 * 4 + i] = static_cast<std::uint8_t>(flags >> (8 * i));
    auto t = decode_tilemap(p.view());
    REQUIRE(t);
    CHECK(to_string(t->kind) == by_bit[b]);
    CHECK(index_of(t->kind) == static_cast<std::size_t>(b) + 1);
    CHECK(ddnet_data_slot(t->kind) == (b == 0 ? -1 : b - 1));
  }
}

TEST_CASE(
    "map: EnvelopeRole: docs/schema.md's roles, in name order, each with the envelope kind it needs") {
  std::vector<std::string> names;
  for (std::size_t r = 0; r < kNumEnvelopeRoles; ++r)
    names.emplace_back(to_string(static_cast<EnvelopeRole>(r)));
  CHECK(std::is_sorted(names.begin(), names.end()));
  CHECK(std::set<std::string>(names.begin(), names.end()) ==
        backticked(schema_doc_line("- `role`: `layer_color`")));
  CHECK(expected_envelope_kind(EnvelopeRole::layer_color) == EnvelopeKind::color);
  CHECK(expected_envelope_kind(EnvelopeRole::quad_color) == EnvelopeKind::color);
  CHECK(expected_envelope_kind(EnvelopeRole::quad_position) == EnvelopeKind::position);
  CHECK(expected_envelope_kind(EnvelopeRole::source_position) == EnvelopeKind::position);
  CHECK(expected_envelope_kind(EnvelopeRole::source_sound) == EnvelopeKind::sound);
  CHECK(envelope_kind_of_channels(1) == EnvelopeKind::sound);
  CHECK(envelope_kind_of_channels(3) == EnvelopeKind::position);
  CHECK(envelope_kind_of_channels(4) == EnvelopeKind::color);
  CHECK(envelope_kind_of_channels(2) == EnvelopeKind::unknown);
}

TEST_SUITE_END();

}  // namespace mapindex::teeworlds
