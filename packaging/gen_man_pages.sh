#!/usr/bin/env bash
# Writes the man pages of mapindex from its help texts with help2man: mapindex(1)
# from `mapindex --help`, and mapindex-COMMAND(1) from `mapindex COMMAND --help`
# for every command `mapindex --help` lists. Run at build time (CMakeLists.txt):
#   packaging/gen_man_pages.sh BUILD/mapindex VERSION OUTDIR
# writes OUTDIR/man1/*.1 and OUTDIR/stamp.
set -euo pipefail
binary=$1
version=$2
outdir=$3
man1=$outdir/man1
rm -rf "$man1"
mkdir -p "$man1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

commands=$("$binary" --help | awk '/^Commands:/ {on = 1; next} on && /^[^ ]/ {on = 0} on && /^  [a-z]/ {print $1}')
if [ -z "$commands" ]; then
  echo "gen_man_pages: no commands in '$binary --help'" >&2
  exit 1
fi

# help2man --include: sections added to the page.
{
  echo "[SEE ALSO]"
  for c in $commands; do echo ".BR mapindex-$c (1),"; done
  echo "and README.md of the mapindex sources (schema reference, problem codes)."
} >"$work/main.h2m"

# A wrapper per command, so help2man runs `mapindex COMMAND --help`; its
# version is given (--version-string), the commands have no --version.
help2man --no-info --version-string="$version" \
  --name="index archives of Teeworlds/DDNet maps and SpriteTile levels into SQLite" \
  --include="$work/main.h2m" --output="$man1/mapindex.1" "$binary"
for c in $commands; do
  wrapper=$work/mapindex-$c
  printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$binary" "$c" >"$wrapper"
  chmod +x "$wrapper"
  # The command's lines in the "Commands:" list: its description starts at
  # column 22 and may go on over the next lines.
  summary=$("$binary" --help | awk -v c="$c" '
    found && /^                     [^ ]/ {s = s " " substr($0, 22); next}
    found {print s; exit}
    $1 == c {s = substr($0, 22); found = 1}')
  {
    echo "[SEE ALSO]"
    echo ".BR mapindex (1)"
  } >"$work/$c.h2m"
  help2man --no-info --version-string="$version" --name="mapindex $c: ${summary:-a mapindex command}" \
    --include="$work/$c.h2m" --output="$man1/mapindex-$c.1" "$wrapper"
done
touch "$outdir/stamp"
