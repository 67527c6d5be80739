#include "index/layer_index.h"

#include <string>
#include <vector>

#include "index/map_rows_internal.h"

namespace mapindex::index {

bool layer_index_present(sqlite::StatementCache& st) {
  return sqlite::schema_has(st.handle(), "index", kLayerIndexName);
}

bool restore_layer_index(sqlite::StatementCache& st) {
  if (layer_index_present(st)) return false;
  {
    // The sort that makes the index keeps at most the page cache's size of
    // rows in memory and spills the rest to a temporary file, not to memory
    // as the writer's statement journals do (index_open.cpp): there it would
    // hold every row of map_layers at once. The cache is made small
    // meanwhile so that the sort takes the memory it gives up.
    struct SortSettings {
      sqlite::StatementCache& st;
      std::int64_t cache_size;
      explicit SortSettings(sqlite::StatementCache& s)
          : st(s), cache_size(s.get("PRAGMA cache_size").single_int().value_or(-2000)) {
        st.get("PRAGMA temp_store = FILE").run();
        st.get("PRAGMA cache_size = -4096").run();
      }
      ~SortSettings() {
        try {
          st.get("PRAGMA cache_size = " + std::to_string(cache_size)).run();
          st.get("PRAGMA temp_store = MEMORY").run();
        } catch (...) {  // the journals then go to files: slower, no less safe
        }
      }
    } sort(st);
    st.get(kLayerIndexSql).run();
  }
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

bool drop_layer_index_when_due(sqlite::StatementCache& st, LayerIndexDeferral& deferral) {
  if (deferral.needs_rows())
    deferral.counted(static_cast<std::uint64_t>(
        st.get("SELECT count(*) FROM map_layers").single_int().value_or(0)));
  if (!deferral.due() || !layer_index_present(st)) return false;
  st.get("DROP INDEX " + std::string(kLayerIndexName)).run();
  return true;
}

}  // namespace mapindex::index
