#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang, ASan + UBSan) in build-fuzz/,
# writes their seed corpora with the project's own fixture writers and runs
# each target for SECONDS (default 60), one after the other.
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
#   TARGET: datafile deflate teeworlds measure spritetile archive tile_scan (default: all)
#
# The corpus each run grows is kept in build-fuzz/corpus/TARGET and reused by
# the next run. Fails (exit 1) when a target finds a crash, a sanitizer report,
# a leak, a timeout or an out-of-memory input; the reproducer is left in
# build-fuzz/artifacts/TARGET/ and can be replayed with
#   build-fuzz/fuzz/mapindex-fuzz-TARGET FILE
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(datafile deflate teeworlds measure spritetile archive tile_scan)
dir=${MAPINDEX_FUZZ_DIR:-build-fuzz}

# Warnings are not errors here: the GCC builds enforce them; a warning only
# clang gives must not stop the fuzzing.
CC=clang CXX=clang++ cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMAPINDEX_FUZZ=ON \
  -DMAPINDEX_WERROR=OFF >/dev/null
cmake --build "$dir" --target mapindex_fuzz -j "$(nproc)"
rm -rf "$dir/seeds"
"$dir/fuzz/mapindex-fuzz-seeds" "$dir/seeds"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for t in "${targets[@]}"; do
  # Inputs up to 256 KiB (maps of a few hundred KB uncompressed are common);
  # SpriteTile levels are denser, 64 KiB suffices, and so it does for a raw
  # deflate stream (up to 16 MiB of output at 1032:1).
  case "$t" in
    datafile|teeworlds|measure) max_len=262144; dict=(-dict=fuzz/datafile.dict) ;;
    deflate) max_len=65536; dict=() ;;
    tile_scan) max_len=16384; dict=() ;;
    spritetile) max_len=65536; dict=(-dict=fuzz/spritetile.dict) ;;
    archive) max_len=262144; dict=(-dict=fuzz/archive.dict) ;;
    *) echo "fuzz.sh: unknown target $t" >&2; exit 2 ;;
  esac
  corpus="$dir/corpus/$t"
  artifacts="$dir/artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  echo "=== fuzz $t for ${seconds}s"
  if ! "$dir/fuzz/mapindex-fuzz-$t" "$corpus" "$dir/seeds/$t" \
      -max_total_time="$seconds" -max_len="$max_len" "${dict[@]}" \
      -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$artifacts/" 2>"$dir/fuzz-$t.log"; then
    tail -n 60 "$dir/fuzz-$t.log" >&2
    echo "fuzz.sh: $t failed; reproducer in $artifacts/" >&2
    failed+=("$t")
  else
    grep -E '^(Done|stat::)' "$dir/fuzz-$t.log" || true
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: findings in: ${failed[*]}" >&2
  exit 1
fi
