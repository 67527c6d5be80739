// A human-readable report of one measured file, for `mapindex inspect`.
#pragma once

#include <ostream>
#include <string>

#include "stages/extract/measure.h"
#include "stages/read/digest.h"

namespace mapindex {

void print_map_report(std::ostream& out, const std::string& name, const read::FileDigest& digest,
                      const Measurement& m);

}  // namespace mapindex
