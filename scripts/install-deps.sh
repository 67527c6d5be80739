#!/usr/bin/env bash
# Installs the Debian packages mapindex needs to build, test, fuzz and benchmark.
# Idempotent: does nothing when every package is already installed, and runs
# `apt-get update` only when something must be installed.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  dpkg-dev file          # cpack -G DEB: dpkg-shlibdeps computes the package's Depends (and needs file)
  zlib1g-dev libarchive-dev libtbb-dev libsqlite3-dev
  libboost-program-options-dev doctest-dev libssl-dev
  libdeflate-dev liblzf-dev libpng-dev
  libjemalloc-dev        # the mapindex program's allocator (CMakeLists.txt, MAPINDEX_JEMALLOC)
  sqlite3 zip libarchive-tools p7zip-full xz-utils zstd
  python3
  python3-pandas         # docs/guide.md's pandas example, run by tests/test_readme.cpp
  clang libclang-rt-dev  # the fuzz targets: clang with libFuzzer, ASan and UBSan runtimes
  clang-format           # the format test (.clang-format)
  help2man               # the man pages (cmake --install), made from the --help texts
  chromium               # the HTML audit's browser test and scripts/readme_images.sh (headless)
  pngquant               # scripts/readme_images.sh: the audit screenshot as a small palette PNG
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
