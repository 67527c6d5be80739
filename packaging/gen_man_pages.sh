#!/usr/bin/env bash
# Writes the man pages of mapindex from its help texts with help2man: mapindex(1)
# from `mapindex --help`, and mapindex-COMMAND(1) from `mapindex COMMAND --help`
# for every command `mapindex --help` lists. Run at build time (CMakeLists.txt):
#   packaging/gen_man_pages.sh BUILD/mapindex VERSION OUTDIR DOCDIR
# writes OUTDIR/man1/*.1 and OUTDIR/stamp; SEE ALSO names the documentation
# installed in DOCDIR.
set -euo pipefail
binary=$1
version=$2
outdir=$3
docdir=$4
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
  echo "and the documentation in"
  echo ".IR $docdir/ :"
  echo "README.md, docs/guide.md, docs/queries.md, docs/schema.md (every table and column),"
  echo "docs/audit.md, docs/audit-json.md, docs/problem-codes.md."
} >"$work/main.h2m"

# help2man takes only the first line of a usage for the SYNOPSIS and puts the
# rest under DESCRIPTION: the wrappers below join a usage's continuation
# lines to it, and give each further form of the command ("       mapindex
# ...") an "or:" line, which help2man reads as another synopsis.
cat >"$work/join_usage.awk" <<'EOF'
/^Usage: / { usage = $0; inside = 1; next }
inside && /^       mapindex / { print usage; usage = "   or: " substr($0, 8); next }
inside && /^ +[^ ]/ { sub(/^ +/, " "); usage = usage $0; next }
inside { print usage; inside = 0 }
{ print }
END { if (inside) print usage }
EOF
# A wrapper per command, so help2man runs `mapindex [COMMAND] --help` through
# that filter; its version is given (--version-string), the commands have no
# --version.
wrapper() {
  printf '#!/bin/sh\n"%s" %s "$@" | awk -f "%s"\n' "$binary" "$2" "$work/join_usage.awk" >"$1"
  chmod +x "$1"
}
# UTF-8 in, UTF-8 out (the help texts have a few non-ASCII characters).
export LC_ALL=C.UTF-8
wrapper "$work/mapindex" ""
help2man --no-info --version-string="$version" \
  --name="index archives of Teeworlds/DDNet maps and SpriteTile levels into SQLite" \
  --include="$work/main.h2m" --output="$man1/mapindex.1" "$work/mapindex"
for c in $commands; do
  wrapper "$work/mapindex-$c" "$c"
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
    --include="$work/$c.h2m" --output="$man1/mapindex-$c.1" "$work/mapindex-$c"
done
# No hyphenation: the pages name paths and options, which a hyphen would break
# for copying.
sed -i '/^\.TH /a .nh' "$man1"/*.1
touch "$outdir/stamp"
