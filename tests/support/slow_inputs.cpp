#include "tests/support/slow_inputs.h"

#include <stdexcept>
#include <string>

#include "decode/datafile/datafile.h"
#include "tests/support/datafile_writer.h"
#include "tests/support/map_builder.h"

namespace mapindex::testing {

std::vector<std::uint8_t> overlapping_envelopes_map(int envelopes, int points, int back_at) {
  MapBuilder b;
  b.add_game_group();
  b.add_tile_layer(TileGrid(LayerKind::game, 8, 8));
  EnvelopeSpec first;
  first.points.resize(static_cast<std::size_t>(points));
  for (int i = 0; i < points; ++i) {
    auto& p = first.points[static_cast<std::size_t>(i)];
    p.time = i == back_at ? 5 : i;
    p.curve = i % 3 == 0 ? 0 : (i % 3 == 1 ? 1 : 9);
  }
  b.add_envelope(first);
  for (int i = 1; i < envelopes; ++i) {
    EnvelopeSpec e;
    e.stored_start = i % 2 == 0 ? 0 : back_at;
    e.stored_num = points - (i % 2 == 0 ? 0 : back_at);
    b.add_envelope(e);
  }
  return b.build();
}

UuidTypesFile many_uuid_types_file(int types, int duplicates) {
  UuidTypesFile out;
  DatafileWriter w;
  w.add_item(0, 0, {1});
  // Index items naming type 0x8000, before the one uuid_type() writes: the
  // first of them is the one that counts (as Datafile::uuid_of reads it).
  for (int i = 0; i < duplicates; ++i) w.add_item(datafile::kUuidIndexType, 0x8000, {1, 2, 3, 4});
  for (int i = 0; i < types; ++i) {
    out.uuids.push_back(datafile::uuid_from_name("fuzz-type-" + std::to_string(i)));
    const std::uint16_t t = w.uuid_type(out.uuids.back());
    if (t != 0x8000 + i) throw std::logic_error("uuid_type() numbered a type out of order");
    w.add_item(t, 0, {1});
  }
  w.add_item(static_cast<std::uint16_t>(0x8000 + types), 0, {1});
  out.file = w.finish();
  return out;
}

}  // namespace mapindex::testing
