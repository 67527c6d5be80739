#include "stages/extract/measure.h"

#include "stages/decode/spritetile/level.h"
#include "stages/extract/spritetile_stats.h"

namespace mapindex {

Measurement measure_content(Bytes file, const MeasureOptions& options) {
  Measurement m;
  if (looks_like_datafile(file)) {
    m.kind = ContentKind::map;
    m.stats = measure_teeworlds(file, options);
    return m;
  }
  if (spritetile::looks_like_spritetile(file)) {
    auto st = measure_spritetile(file);
    if (st.is_level) {
      m.kind = ContentKind::map;
      m.stats = std::move(st.stats);
    } else {
      m.not_map_reason = st.not_level_reason;
    }
    return m;
  }
  m.not_map_reason = "neither a Teeworlds datafile (DATA/ATAD magic) nor a SpriteTile level";
  return m;
}

}  // namespace mapindex
