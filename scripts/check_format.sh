#!/usr/bin/env bash
# The test "format: the code follows .clang-format": every C++ file of the
# repository, checked with clang-format --dry-run --Werror. Exits 77 (CTest:
# skipped) when clang-format is not installed (scripts/install-deps.sh
# installs it). To fix a file: clang-format -i FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  echo "SKIPPED: clang-format not found"
  exit 77
fi
find src tests benchmarks fuzz -name '*.cpp' -o -name '*.h' | sort |
  xargs clang-format --dry-run --Werror
