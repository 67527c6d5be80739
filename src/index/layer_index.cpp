#include "index/layer_index.h"

#include <string>
#include <vector>

#include "index/map_rows_internal.h"

namespace mapindex::index {

bool layer_index_present(sqlite::StatementCache& st) {
  return st.get("SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?)")
             .bind_all(kLayerIndexName)
             .single_int()
             .value_or(0) != 0;
}

bool restore_layer_index(sqlite::StatementCache& st) {
  if (layer_index_present(st)) return false;
  st.get(kLayerIndexSql).run();
  std::vector<std::int64_t> unlisted;
  {
    auto& select = st.get(
        "SELECT layer_def_id FROM layer_defs d WHERE NOT EXISTS "
        "(SELECT 1 FROM map_layers l WHERE l.layer_def_id = d.layer_def_id)");
    while (select.step()) unlisted.push_back(select.column_int(0));
    select.reset();
  }
  for (const auto def : unlisted) delete_layer_def_unless_listed(st, def);
  return true;
}

bool drop_layer_index_when_due(sqlite::StatementCache& st, const LayerIndexDeferral& deferral) {
  if (!deferral.due() || !layer_index_present(st)) return false;
  st.get("DROP INDEX " + std::string(kLayerIndexName)).run();
  return true;
}

std::uint64_t map_layers_rows(sqlite::StatementCache& st) {
  return static_cast<std::uint64_t>(
      st.get("SELECT count(*) FROM map_layers").single_int().value_or(0));
}

}  // namespace mapindex::index
