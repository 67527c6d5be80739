#!/usr/bin/env bash
# Sets up (Debian packages), builds and runs the tests.
#
#   scripts/test.sh          every test twice: an optimized build and an
#                            AddressSanitizer + UBSan build, then each libFuzzer
#                            target for MAPINDEX_FUZZ_SECONDS (default 60; 0
#                            skips) with scripts/fuzz.sh. This is what CI runs.
#   scripts/test.sh --quick  the unit tests (CTest label unit) of the optimized
#                            build only: the loop to run while working.
#
# Tests that need the real corpus (../shared/corpus) skip with a message when
# it is absent. A build whose CTest finds no test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac
bash scripts/install-deps.sh
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if [ "$quick" = 1 ]; then
  echo "=== release build"
  bash scripts/build.sh release
  echo "=== release unit tests"
  ctest --test-dir build --output-on-failure --no-tests=error -j "$(nproc)" -L '^unit$'
  exit 0
fi
for kind in release asan; do
  echo "=== $kind build"
  bash scripts/build.sh "$kind"
  dir=build; [ "$kind" = asan ] && dir=build-asan
  echo "=== $kind tests"
  ctest --test-dir "$dir" --output-on-failure --no-tests=error -j "$(nproc)"
done
fuzz_seconds=${MAPINDEX_FUZZ_SECONDS:-60}
if [ "$fuzz_seconds" != 0 ]; then
  echo "=== fuzz targets, ${fuzz_seconds}s each"
  bash scripts/fuzz.sh "$fuzz_seconds"
fi
