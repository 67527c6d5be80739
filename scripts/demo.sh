#!/usr/bin/env bash
# The main job, from a fresh machine: installs the Debian packages, builds,
# makes a demo archive (maps written by the project's own writer: vanilla and
# DDNet features, SpriteTile levels, a broken map, a non-map entry), indexes it
# into mapindex.sqlite and prints the summary and a sample query.
#
#   scripts/demo.sh                 index demo/demo-maps.zip
#   scripts/demo.sh INPUT...        index your own archives/folders instead
set -euo pipefail
# Inputs are relative to the caller's folder: resolve them before moving to
# the project folder ("-" is standard input and stays as it is).
inputs=()
for input in "$@"; do
  if [ "$input" = - ]; then inputs+=(-); else inputs+=("$(realpath -m -- "$input")"); fi
done
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh release >/dev/null
if [ ${#inputs[@]} -eq 0 ]; then
  mkdir -p demo
  ./build/mapindex-make-demo demo/demo-maps.zip
  inputs=(demo/demo-maps.zip)
fi
status=0
./build/mapindex index --db mapindex.sqlite "${inputs[@]}" || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then exit "$status"; fi
echo
echo "Sample query: the maps of the index, with their status and game layer size"
./build/mapindex query --db mapindex.sqlite \
  "SELECT entry_path, format, status, game_width AS w, game_height AS h, layers, errors, warnings FROM file_overview ORDER BY entry_path LIMIT 20"
echo
echo "Ask your own questions: ./build/mapindex query --db mapindex.sqlite \"SELECT ...\" (see docs/queries.md)"
