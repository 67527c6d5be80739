#!/usr/bin/env bash
# Sets up (Debian packages), builds and runs every test twice: an optimized
# build and an AddressSanitizer + UBSan build, then runs each libFuzzer target
# for MAPINDEX_FUZZ_SECONDS (default 60; 0 skips) with scripts/fuzz.sh. Tests
# that need the real corpus (../shared/corpus) skip with a message when it is
# absent.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for kind in release asan; do
  echo "=== $kind build"
  bash scripts/build.sh "$kind"
  dir=build; [ "$kind" = asan ] && dir=build-asan
  echo "=== $kind tests"
  ctest --test-dir "$dir" --output-on-failure -j "$(nproc)"
done
fuzz_seconds=${MAPINDEX_FUZZ_SECONDS:-60}
if [ "$fuzz_seconds" != 0 ]; then
  echo "=== fuzz targets, ${fuzz_seconds}s each"
  bash scripts/fuzz.sh "$fuzz_seconds"
fi
