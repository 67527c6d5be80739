// mapindex-bench-floor: the least work any indexer of these archives must do,
// single-threaded, as the physical limit mapindex is compared against:
// stream every entry out of the archive (libarchive), SHA-256 it (OpenSSL),
// and, for each of its tile layers, SHA-256 the stored (compressed) tile data
// (what mapindex keys a layer's results by, so it must hash it too) and
// inflate it (nothing else: no images, no statistics, no database).
//
//   mapindex-bench-floor [--inflate libdeflate|zlib|zeros|none] [--once] ARCHIVE...
//
// --inflate libdeflate (default: the floor the targets are stated against)
// inflates through Datafile::data with libdeflate; zlib hands the same stored
// bytes to zlib's uncompress(); zeros inflates the way mapindex inflates tile
// data (onto zeros, writing only what is not zero: src/deflate/zero_inflate.h) and checks
// the Adler-32 over every byte; none only reads and hashes the entries (the floor of a re-run over
// unchanged inputs: no layer is looked at). --once inflates each distinct
// tile data item (by the SHA-256 of its stored bytes) once: what a run that
// reuses every layer result it met before must inflate. inflate_seconds is the
// time spent inflating alone (the map history target counts it: see
// benchmarks/run.sh). Prints one line of key=value pairs.
#include <zlib.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "benchmarks/entry_stream.h"
#include "common/sha256.h"
#include "decode/datafile/datafile.h"
#include "decode/teeworlds/item_decoders.h"
#include "tiledata/adler32.h"
#include "tiledata/zeroed_buffer.h"

namespace {

using namespace mapindex;

enum class Inflater { libdeflate, zlib, zeros, none };

struct Totals {
  std::uint64_t maps = 0;           // entries that open as datafiles
  double inflate_seconds = 0;       // wall time inside the inflate calls
  std::uint64_t tile_layers = 0;    // tile data items inflated
  std::uint64_t layers_hashed = 0;  // tile data items whose stored bytes were hashed
  std::uint64_t inflated = 0;       // bytes they inflate to
  std::uint64_t failures = 0;       // data items that did not inflate
  std::uint64_t check = 0;          // folds digests and output in, so nothing is optimised away
};

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void inflate_with_zlib(const datafile::Datafile& df, std::size_t index,
                       std::vector<std::uint8_t>& scratch, Totals& t) {
  const std::int64_t declared = df.data_size(index);
  if (declared <= 0 || declared > (256ll << 20)) {
    t.failures++;
    return;
  }
  const auto stored_or = df.stored_data(index);
  if (!stored_or) {
    t.failures++;
    return;
  }
  const Bytes stored = *stored_or;
  if (df.version() == 3) {  // stored uncompressed
    t.tile_layers++;
    t.inflated += stored.size();
    t.check += stored.empty() ? 0 : stored[0];
    return;
  }
  scratch.resize(static_cast<std::size_t>(declared));
  uLongf size = static_cast<uLongf>(scratch.size());
  const int r = uncompress(scratch.data(), &size, stored.data(), static_cast<uLong>(stored.size()));
  if (r != Z_OK || size != scratch.size()) {
    t.failures++;
    return;
  }
  t.tile_layers++;
  t.inflated += size;
  t.check += scratch[size / 2];
}

void inflate_with_libdeflate(const datafile::Datafile& df, std::size_t index,
                             std::vector<std::uint8_t>& scratch, Totals& t) {
  auto data = df.data(index, scratch);
  if (!data) {
    t.failures++;
    return;
  }
  t.tile_layers++;
  t.inflated += data->size();
  t.check += (*data)[data->size() / 2];
}

void inflate_onto_zeros(const datafile::Datafile& df, std::size_t index,
                        tiledata::ZeroedBuffer& zeroed, Totals& t) {
  std::optional<std::uint32_t> checksum;
  auto data = df.data_unchecked(index, zeroed, checksum);
  if (!data || (checksum && tiledata::adler32(*data) != *checksum)) {
    t.failures++;
    return;
  }
  t.tile_layers++;
  t.inflated += data->size();
  t.check += (*data)[data->size() / 2];
}

int usage() {
  std::fprintf(stderr,
               "usage: mapindex-bench-floor [--inflate libdeflate|zlib|zeros|none] [--once] "
               "ARCHIVE...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Inflater inflater = Inflater::libdeflate;
  bool once = false;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--inflate" && i + 1 < argc) {
      const std::string v = argv[++i];
      if (v == "libdeflate")
        inflater = Inflater::libdeflate;
      else if (v == "zlib")
        inflater = Inflater::zlib;
      else if (v == "zeros")
        inflater = Inflater::zeros;
      else if (v == "none")
        inflater = Inflater::none;
      else
        return usage();
    } else if (arg == "--once") {
      once = true;
    } else if (arg.starts_with("-")) {
      return usage();
    } else {
      inputs.push_back(arg);
    }
  }
  if (inputs.empty()) return usage();

  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  Totals t;
  bench::StreamTotals read;
  std::vector<std::uint8_t> scratch;
  tiledata::ZeroedBuffer zeroed;
  std::set<Sha256> inflated_once;  // --once: the data items inflated so far
  for (const auto& input : inputs) {
    auto r = bench::for_each_entry(input, [&](const std::string&, Bytes bytes) {
      t.check += sha256(bytes)[0];
      if (inflater == Inflater::none) return;
      auto df = datafile::Datafile::open(bytes);
      if (!df) return;
      t.maps++;
      for (const std::size_t index : teeworlds::tile_data_indices(*df)) {
        // The layer's key, as mapindex computes it (v4: the compressed bytes).
        std::optional<Sha256> key;
        if (auto stored = df->stored_data(index); stored && (df->version() == 4 || once)) {
          key = sha256(*stored);
          t.check += (*key)[0];
          t.layers_hashed++;
        }
        if (once && key && !inflated_once.insert(*key).second) continue;
        const auto inflate_start = std::chrono::steady_clock::now();
        if (inflater == Inflater::zlib)
          inflate_with_zlib(*df, index, scratch, t);
        else if (inflater == Inflater::zeros)
          inflate_onto_zeros(*df, index, zeroed, t);
        else
          inflate_with_libdeflate(*df, index, scratch, t);
        t.inflate_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - inflate_start).count();
      }
    });
    if (!r) {
      std::fprintf(stderr, "mapindex-bench-floor: %s\n", r.error().message.c_str());
      return 1;
    }
    read.entries += r->entries;
    read.bytes += r->bytes;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  std::printf(
      "entries=%llu bytes=%llu maps=%llu tile_layers=%llu layers_hashed=%llu inflated=%llu "
      "failures=%llu inflate_seconds=%.3f "
      "seconds=%.3f cpu=%.3f check=%llu\n",
      static_cast<unsigned long long>(read.entries), static_cast<unsigned long long>(read.bytes),
      static_cast<unsigned long long>(t.maps), static_cast<unsigned long long>(t.tile_layers),
      static_cast<unsigned long long>(t.layers_hashed), static_cast<unsigned long long>(t.inflated),
      static_cast<unsigned long long>(t.failures), t.inflate_seconds, seconds,
      cpu_seconds() - cpu_start, static_cast<unsigned long long>(t.check));
  return 0;
}
