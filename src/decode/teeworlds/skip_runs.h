// Skip-compressed tile data (tilemap version 4; tiles and game layers, Tile
// structs only): a list of 4-byte runs (index, flags, skip, reserved), each
// standing for skip + 1 equal tiles. The one walk over the runs: counting
// (src/extract, the hot loop) and expanding (tests) both go through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "common/bytes.h"
#include "common/result.h"

namespace mapindex::teeworlds {

// The M14 errors of the walk (out of line: the walk itself stays small).
Error skip_runs_past_end(std::size_t num_tiles, std::size_t run, std::size_t repeat,
                         std::size_t at_tile);
Error skip_runs_short(std::size_t covered, std::size_t num_tiles);
Error skip_runs_left_over(std::size_t bytes, std::size_t num_tiles);

// Calls on_run(run, repeat) for each run in order (`run` points at its 4
// bytes, `repeat` is how many tiles it covers) until `num_tiles` tiles are
// covered. A run that would go past num_tiles is cut to fit, handed on with
// the cut count, and the walk ends with an M14 error; it also ends with M14
// when the runs cover fewer tiles or input is left over after num_tiles.
template <class OnRun>
std::optional<Error> for_each_skip_run(Bytes data, std::size_t num_tiles, OnRun&& on_run) {
  const std::size_t runs = data.size() / 4;
  const std::uint8_t* p = data.data();
  std::size_t covered = 0, r = 0;
  for (; r < runs && covered < num_tiles; ++r, p += 4) {
    const std::size_t repeat = std::size_t{p[2]} + 1;
    if (repeat > num_tiles - covered) {
      on_run(p, num_tiles - covered);
      return skip_runs_past_end(num_tiles, r, repeat, covered);
    }
    on_run(p, repeat);
    covered += repeat;
  }
  if (covered < num_tiles) return skip_runs_short(covered, num_tiles);
  if (r != runs || data.size() % 4 != 0) return skip_runs_left_over(data.size() - 4 * r, num_tiles);
  return std::nullopt;
}

}  // namespace mapindex::teeworlds
