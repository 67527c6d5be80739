#!/usr/bin/env bash
# Configures and builds mapindex. Usage: scripts/build.sh [release|asan]
#   release -> build/       optimized (RelWithDebInfo)
#   asan    -> build-asan/  Debug with AddressSanitizer + UndefinedBehaviorSanitizer
# Both treat warnings as errors (the CMake default does not, for packagers) and
# build the tests: BUILD_TESTING is set each time, since a build folder keeps
# the value it was configured with.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-release}
case "$kind" in
  release) dir=build; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  asan) dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=Debug -DMAPINDEX_SANITIZE=ON) ;;
  *) echo "usage: scripts/build.sh [release|asan]" >&2; exit 2 ;;
esac
cmake -S . -B "$dir" "${flags[@]}" -DMAPINDEX_WERROR=ON -DBUILD_TESTING=ON >/dev/null
cmake --build "$dir" -j "$(nproc)"
