#include "decode/teeworlds/skip_runs.h"

#include <string>

namespace mapindex::teeworlds {

Error skip_runs_past_end(std::size_t num_tiles, std::size_t run, std::size_t repeat,
                         std::size_t at_tile) {
  return Error{Code::M14, "skip-compressed tiles expand past " + std::to_string(num_tiles) +
                              " tiles (run " + std::to_string(run) + " repeats " +
                              std::to_string(repeat) + " at tile " + std::to_string(at_tile) + ")"};
}

Error skip_runs_short(std::size_t covered, std::size_t num_tiles) {
  return Error{Code::M14, "skip-compressed tiles expand to " + std::to_string(covered) +
                              " tiles, expected " + std::to_string(num_tiles)};
}

Error skip_runs_left_over(std::size_t bytes, std::size_t num_tiles) {
  return Error{Code::M14, "skip-compressed tile data has " + std::to_string(bytes) +
                              " bytes left over after " + std::to_string(num_tiles) + " tiles"};
}

}  // namespace mapindex::teeworlds
