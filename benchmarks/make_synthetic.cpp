// mapindex-bench-synth: a synthetic archive of realistic DDNet-like maps for
// the memory-flatness and throughput runs, streamed to disk:
//
//   mapindex-bench-synth --out FILE.tar|FILE.zip --bytes N [--min-maps M]
//                        [--mode copies|distinct|history] [--distinct D]
//                        [--versions V] [--changed C] [--size S]
//                        [--decoration L] [--seed K] [--zlib-level Z] [--store]
//
// Maps are built with the test fixtures' generator (make_realistic_ddnet_map:
// an SxS game layer with walls, freeze, start/finish, checkpoints; front,
// tele, speedup, switch and tune layers; L decoration tile layers; quads with
// envelopes; an embedded image; sounds), seeds K, K+1, ..., tile data
// compressed with zlib level Z (6, what DDNet's map writer uses). The archive
// grows until it holds at least N bytes and M maps. --mode:
//   copies (default): D distinct maps, then repeated, each copy with its first
//     decoration layer renamed ("v<copy number>": 3 ints in the uncompressed
//     item block), so every entry has its own SHA-256 and is decoded in full,
//     while its tile layers all repeat (the layer cache's best case);
//     generation reuses the compression work.
//   distinct: every map built anew (seed K + n) with every markable layer
//     marked by its seed (RealisticMapOptions::marks): no tile layer repeats,
//     the layer cache's worst case. Building costs ~0.1-0.3 s per map.
//   history: each base map (seed K + b, every layer marked by it) in V
//     versions; version v carries version v-1's changes plus one more tile in
//     each of C further layers (as a map's releases change a few layers), so
//     consecutive versions share all but C tile layers.
// Prints one line of key=value pairs.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/archive_writer.h"
#include "decode/datafile/datafile.h"
#include "decode/teeworlds/i32_string.h"
#include "decode/teeworlds/item_decoders.h"
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
      "       [--mode copies|distinct|history] [--distinct D] [--versions V] [--changed C]\n"
      "       [--size S] [--decoration L] [--seed K] [--zlib-level Z] [--store]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out;
  std::uint64_t target_bytes = 0, min_maps = 0;
  unsigned distinct = 200, decoration = 14, versions = 8, changed = 2;
  std::int32_t size = 500;
  std::uint32_t seed = 1;
  int zlib_level = 6;
  std::string mode = "copies";
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
      else if (arg == "--mode")
        mode = value();
      else if (arg == "--versions")
        versions = static_cast<unsigned>(std::stoul(value()));
      else if (arg == "--changed")
        changed = static_cast<unsigned>(std::stoul(value()));
      else if (arg == "--zlib-level")
        zlib_level = std::stoi(value());
      else if (arg == "--store")
        store = true;
      else
        return usage();
    }
    if (out.empty() || (target_bytes == 0 && min_maps == 0) || distinct == 0 || decoration == 0 ||
        versions == 0 || zlib_level < 0 || zlib_level > 9 ||
        (mode != "copies" && mode != "distinct" && mode != "history"))
      return usage();

    bench::ArchiveWriter writer(out, store);  // fails early on a bad name or folder
    const auto start = std::chrono::steady_clock::now();
    testing::WriterOptions wo;
    wo.zlib_level = zlib_level;
    const auto options = [&](std::uint32_t k) {
      testing::RealisticMapOptions o;
      o.width = size;
      o.height = size;
      o.seed = seed + k;
      o.decoration_layers = static_cast<int>(decoration);
      o.skip_compressed = k % 8 == 7;  // some 0.7-style skip-compressed maps
      o.with_sounds = k % 2 == 0;
      return o;
    };
    const auto more = [&] { return writer.bytes() < target_bytes || writer.members() < min_maps; };
    // built: maps built (compressed); the rest of the archive repeats them.
    const auto done = [&](std::uint64_t built, std::uint64_t built_bytes, double build_seconds) {
      writer.close();
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf(
          "mode=%s entries=%llu bytes=%llu distinct=%llu distinct_bytes=%llu build_seconds=%.1f "
          "seconds=%.1f\n",
          mode.c_str(), static_cast<unsigned long long>(writer.members()),
          static_cast<unsigned long long>(writer.bytes()), static_cast<unsigned long long>(built),
          static_cast<unsigned long long>(built_bytes), build_seconds, seconds);
    };
    constexpr int kAllLayers = 1 << 20;
    if (mode == "distinct" || mode == "history") {
      std::uint64_t n = 0;
      for (std::uint32_t b = 0; more(); ++b) {
        testing::RealisticMapOptions o = options(b);
        o.marks.push_back({o.seed, 0, kAllLayers});
        const unsigned count = mode == "distinct" ? 1 : versions;
        for (unsigned v = 0; v < count && more(); ++v, ++n) {
          // Version v: one more tile in `changed` further layers (marks
          // 50000 + v, places no base mark below 50000 takes).
          if (v > 0)
            o.marks.push_back(
                {50000 + v, static_cast<int>((v - 1) * changed), static_cast<int>(changed)});
          const auto map = testing::make_realistic_ddnet_map(o, wo);
          char path[80];
          std::snprintf(path, sizeof path, "synthetic/%06llu_seed%u_v%u.map",
                        static_cast<unsigned long long>(n), o.seed, v);
          writer.add(path, map);
        }
      }
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      done(n, writer.bytes(), seconds);
      return 0;
    }

    std::vector<testing::MapVariants> bases;
    std::uint64_t base_bytes = 0;
    for (unsigned k = 0; k < distinct; ++k) {
      bases.emplace_back(testing::make_realistic_ddnet_map(options(k), wo));
      base_bytes += bases.back().base().size();
    }
    const double build_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::vector<std::uint8_t> copy;
    for (std::uint64_t n = 0; more(); ++n) {
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
    done(distinct, base_bytes, build_seconds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mapindex-bench-synth: %s\n", e.what());
    return 1;
  }
  return 0;
}
