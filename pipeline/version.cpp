#include "pipeline/version.h"

namespace mapindex {

std::string_view tool_version() { return MAPINDEX_VERSION; }

}  // namespace mapindex
