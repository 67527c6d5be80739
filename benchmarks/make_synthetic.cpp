// mapindex-bench-synth: a synthetic archive of realistic DDNet-like maps for
// the memory-flatness and throughput runs, streamed to disk:
//
//   mapindex-bench-synth --out FILE.tar|FILE.zip --bytes N [--min-maps M]
//                        [--distinct D] [--size S] [--decoration L] [--seed K]
//
// D distinct maps are built with the test fixtures' generator
// (make_realistic_ddnet_map: an SxS game layer with walls, freeze,
// start/finish, checkpoints; front, tele, speedup, switch and tune layers; L
// decoration tile layers; quads with envelopes; an embedded image; sounds),
// seeds K, K+1, ... Building and zlib-compressing a map is what costs, so
// the archive then repeats them until it holds at least N bytes and M maps,
// each copy with its first decoration layer renamed ("v<copy number>": 3
// ints in the uncompressed item block), so every entry has its own SHA-256
// and is decoded and measured in full by mapindex, while generation reuses
// the compression work. Prints one line of key=value pairs.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/archive_writer.h"
#include "stages/decode/datafile/datafile.h"
#include "stages/decode/teeworlds/i32_string.h"
#include "stages/decode/teeworlds/item_decoders.h"
#include "tests/support/map_builder.h"

namespace {

using namespace mapindex;

std::uint64_t parse_size(const std::string& s) {
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  const std::string unit = end ? end : "";
  if (unit == "K" || unit == "k")
    v *= 1024.0;
  else if (unit == "M")
    v *= 1024.0 * 1024.0;
  else if (unit == "G")
    v *= 1024.0 * 1024.0 * 1024.0;
  else if (!unit.empty())
    throw std::runtime_error("bad size '" + s + "' (a number, optionally K, M or G)");
  return static_cast<std::uint64_t>(v);
}

int usage() {
  std::fprintf(
      stderr,
      "usage: mapindex-bench-synth --out FILE.tar|FILE.zip --bytes N[K|M|G] [--min-maps M]\n"
      "       [--distinct D] [--size S] [--decoration L] [--seed K] [--store]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  std::uint64_t target_bytes = 0, min_maps = 0;
  unsigned distinct = 200, decoration = 14;
  std::int32_t size = 500;
  std::uint32_t seed = 1;
  bool store = false;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
        return argv[++i];
      };
      if (arg == "--out")
        out = value();
      else if (arg == "--bytes")
        target_bytes = parse_size(value());
      else if (arg == "--min-maps")
        min_maps = std::stoull(value());
      else if (arg == "--distinct")
        distinct = static_cast<unsigned>(std::stoul(value()));
      else if (arg == "--size")
        size = std::stoi(value());
      else if (arg == "--decoration")
        decoration = static_cast<unsigned>(std::stoul(value()));
      else if (arg == "--seed")
        seed = static_cast<std::uint32_t>(std::stoul(value()));
      else if (arg == "--store")
        store = true;
      else
        return usage();
    }
    if (out.empty() || (target_bytes == 0 && min_maps == 0) || distinct == 0 || decoration == 0)
      return usage();

    bench::ArchiveWriter writer(out, store);  // fails early on a bad name or folder
    const auto start = std::chrono::steady_clock::now();
    std::vector<testing::MapVariants> bases;
    std::uint64_t base_bytes = 0;
    for (unsigned k = 0; k < distinct; ++k) {
      testing::RealisticMapOptions o;
      o.width = size;
      o.height = size;
      o.seed = seed + k;
      o.decoration_layers = static_cast<int>(decoration);
      o.skip_compressed = k % 8 == 7;  // some 0.7-style skip-compressed maps
      o.with_sounds = k % 2 == 0;
      bases.emplace_back(testing::make_realistic_ddnet_map(o));
      base_bytes += bases.back().base().size();
    }
    const double build_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::vector<std::uint8_t> copy;
    for (std::uint64_t n = 0; writer.bytes() < target_bytes || writer.members() < min_maps; ++n) {
      const testing::MapVariants& b = bases[n % bases.size()];
      char name_text[16];  // "v" + up to 10 digits fits the 11 bytes of a layer name
      std::snprintf(name_text, sizeof name_text, "v%llu",
                    static_cast<unsigned long long>(n % 10000000000ull));
      const std::string name = name_text;
      copy = b.variant(name);
      char path[64];
      std::snprintf(path, sizeof path, "synthetic/%06llu_seed%u.map",
                    static_cast<unsigned long long>(n),
                    seed + static_cast<std::uint32_t>(n % bases.size()));
      writer.add(path, copy);
    }
    writer.close();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "entries=%llu bytes=%llu distinct=%u distinct_bytes=%llu build_seconds=%.1f seconds=%.1f\n",
        static_cast<unsigned long long>(writer.members()),
        static_cast<unsigned long long>(writer.bytes()), distinct,
        static_cast<unsigned long long>(base_bytes), build_seconds, seconds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mapindex-bench-synth: %s\n", e.what());
    return 1;
  }
  return 0;
}
