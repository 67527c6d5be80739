#!/usr/bin/env bash
# Packaging tests (CTest, CMakeLists.txt): installs the build into a temporary
# DESTDIR with `cmake --install` (at the configured prefix, which the program's
# help texts name), then
#   completion: sources the installed bash completion in bash and checks what
#               it offers for `mapindex `, `mapindex index --` and the values
#               of `mapindex audit --format ` and `--fail-on `;
#   man:        checks the installed man pages: mapindex(1) and one page per
#               command, each rendered by `man -l`, naming its command and
#               options, with the whole usage in its SYNOPSIS;
#   docs:       checks share/doc/mapindex/: README.md and every file of docs/,
#               and every installed path the help texts name exists;
#   deb:        builds the Debian package with `cpack -G DEB`, checks its name,
#               Depends and contents, extracts it and runs the packaged binary
#               on the demo archive (made by MAKE_DEMO).
#   tests/packaging_test.sh completion|man|docs|deb BUILD_DIR MAPINDEX_BINARY [HELP2MAN_FOUND|MAKE_DEMO]
set -uo pipefail
mode=$1
build=$2
binary=$3
help2man_found=${4:-}
make_demo=${4:-}
source_dir=$(cd "$(dirname "$0")/.." && pwd)
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
if [ "$mode" != deb ]; then
  if ! DESTDIR=$dest cmake --install "$build" >"$dest.log" 2>&1; then
    cat "$dest.log" >&2
    rm -f "$dest.log"
    fail "cmake --install failed"
    exit 1
  fi
  rm -f "$dest.log"
  installed=$(find "$dest" -path '*/bin/mapindex' -type f)
  [ -x "$installed" ] || {
    fail "no bin/mapindex installed"
    exit 1
  }
  prefix=${installed%/bin/mapindex}
  prefix=${prefix#"$dest"}
fi

# The commands, as the project has them, and any other `mapindex --help` lists
# (the completion and the man pages are made from the help texts).
commands=(index query inspect audit check render explain)
for c in $("$binary" --help | awk '/^Commands:/ {on = 1; next} on && /^[^ ]/ {on = 0} on && /^  [a-z]/ {print $1}'); do
  [[ " ${commands[*]} " == *" $c "* ]] || commands+=("$c")
done

# The --options a command's --help names.
help_options() { "$binary" "$1" --help | grep -oE '(^|[[ ])--[a-z0-9][a-z0-9-]*' | sed 's/^[[ ]//' | sort -u; }
# The usage paragraph of a command's --help (up to the first empty line).
help_usage() { "$binary" "$1" --help | awk '/^$/ {exit} {print}'; }
# The installed paths (under the doc folder) that the help texts name.
help_doc_paths() {
  { "$binary" --help; for c in "${commands[@]}"; do "$binary" "$c" --help; done; } |
    tr -s ' \n' '\n\n' | grep -oE '/[^ ,;:()"]*/doc/mapindex[^ ,;:()"]*' | sed 's/[.]$//' | sort -u
}

if [ "$mode" = completion ]; then
  script=$dest$prefix/share/bash-completion/completions/mapindex
  [ -f "$script" ] || {
    fail "no share/bash-completion/completions/mapindex installed"
    exit 1
  }
  # Completes the words (the last one is being typed) in a fresh bash, prints
  # COMPREPLY one per line.
  complete_words() {
    bash --norc --noprofile -c '
      source "$1" || exit 1
      shift
      COMP_WORDS=("$@")
      COMP_CWORD=$(($# - 1))
      COMP_LINE="$*"
      COMP_POINT=${#COMP_LINE}
      _mapindex mapindex "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
      printf "%s\n" "${COMPREPLY[@]}"' bash "$script" "$@" | sort
  }
  got=$(complete_words mapindex "")
  for c in "${commands[@]}"; do
    grep -qx "$c" <<<"$got" || fail "'mapindex <TAB>' does not offer $c (got: $(echo $got))"
  done
  got=$(complete_words mapindex in)
  [ "$got" = "$(printf 'index\ninspect')" ] || fail "'mapindex in<TAB>' gives '$(echo $got)', not 'index inspect'"
  for c in "${commands[@]}"; do
    got=$(complete_words mapindex "$c" --)
    want=$(help_options "$c")
    [ -n "$want" ] || fail "mapindex $c --help names no options"
    [ "$got" = "$want" ] || fail "'mapindex $c --<TAB>' gives '$(echo $got)', not the options of its --help: '$(echo $want)'"
  done
  # A few options by name, so an empty or broken --help cannot make it pass.
  got=$(complete_words mapindex index --)
  for o in --db --threads --reindex --audit --audit-format --fail-on --max-map-size; do
    grep -qx -- "$o" <<<"$got" || fail "'mapindex index --<TAB>' does not offer $o"
  done
  got=$(complete_words mapindex audit --format "")
  [ "$got" = "$(printf 'html\njson\nmarkdown\ntext')" ] || fail "'mapindex audit --format <TAB>' gives '$(echo $got)'"
  got=$(complete_words mapindex audit --fail-on w)
  [ "$got" = "warning" ] || fail "'mapindex audit --fail-on w<TAB>' gives '$(echo $got)'"
  got=$(complete_words mapindex index --game "")
  [ "$got" = "$(printf 'ddnet\nteeworlds')" ] || fail "'mapindex index --game <TAB>' gives '$(echo $got)'"
  # Every value the completion offers is one the option's help text names.
  for c in "${commands[@]}"; do
    for o in $(help_options "$c"); do
      values=$(complete_words mapindex "$c" "$o" "")
      help_line=$("$binary" "$c" --help | awk -v o="$o" 'index($0, o) {p = 1} p {print} p && /^$/ {exit}' | tr '\n' ' ')
      for v in $values; do
        # file names are offered for options without values: only check words
        [ -e "$v" ] && continue
        grep -qw -- "$v" <<<"$help_line" || fail "'mapindex $c $o <TAB>' offers $v, which its help does not name"
      done
    done
  done
elif [ "$mode" = man ]; then
  if [ "$help2man_found" != 1 ]; then
    echo "help2man was not found at configure time: no man pages to check" >&2
    exit 77
  fi
  man1=$dest$prefix/share/man/man1
  for page in mapindex "${commands[@]/#/mapindex-}"; do
    [ -f "$man1/$page.1" ] || {
      fail "no share/man/man1/$page.1 installed"
      continue
    }
    text=$(MANWIDTH=200 man -l "$man1/$page.1" 2>&1)
    grep -q "^NAME" <<<"$text" || fail "$page.1 has no NAME section"
    grep -q "^ *$page - " <<<"$text" || fail "$page.1 does not name $page in its NAME section"
  done
  text=$(MANWIDTH=200 man -l "$man1/mapindex.1" 2>&1)
  for c in "${commands[@]}"; do
    grep -qE "^ +$c " <<<"$text" || fail "mapindex.1 does not list the command $c"
    grep -q "mapindex-$c(1)" <<<"$text" || fail "mapindex.1 does not refer to mapindex-$c(1)"
  done
  for c in "${commands[@]}"; do
    text=$(MANWIDTH=200 man -l "$man1/mapindex-$c.1" 2>&1)
    for o in $(help_options "$c"); do
      grep -q -- "$o" <<<"$text" || fail "mapindex-$c.1 does not document $o"
    done
    # help2man keeps only a usage's first line unless told: every word of the
    # usage must be in the SYNOPSIS, and none of it under DESCRIPTION.
    synopsis=$(awk '/^SYNOPSIS/ {on = 1; next} /^DESCRIPTION/ {exit} on' <<<"$text" | tr -s ' \n' '  ')
    description=$(awk '/^DESCRIPTION/ {on = 1; next} on && NF {print; exit}' <<<"$text")
    for word in $(help_usage "$c" | sed 's/^Usage://'); do
      grep -qF -- "$word" <<<"$synopsis" || fail "mapindex-$c.1: '$word' of the usage is not in its SYNOPSIS"
    done
    [[ "$description" != *"["* ]] || fail "mapindex-$c.1: DESCRIPTION starts with a usage line: $description"
  done
  # SEE ALSO of mapindex(1) names the installed documentation.
  text=$(MANWIDTH=200 man -l "$man1/mapindex.1" 2>&1)
  grep -qF "$prefix/share/doc/mapindex/" <<<"$text" || fail "mapindex.1 does not name $prefix/share/doc/mapindex/"
elif [ "$mode" = docs ]; then
  doc=$dest$prefix/share/doc/mapindex
  for f in README.md CHANGELOG.md CONTRIBUTING.md; do
    cmp -s "$source_dir/$f" "$doc/$f" || fail "share/doc/mapindex/$f is not the sources' $f"
  done
  while IFS= read -r f; do
    cmp -s "$source_dir/$f" "$doc/$f" || fail "share/doc/mapindex/$f is not the sources' $f"
  done < <(cd "$source_dir" && find docs -type f)
  [ -f "$doc/docs/schema.md" ] || fail "no share/doc/mapindex/docs/schema.md installed"
  paths=$(help_doc_paths)
  [ -n "$paths" ] || fail "the help texts name no installed documentation"
  for path in $paths; do
    [ -e "$dest$path" ] || fail "the help texts name $path, which cmake --install does not install"
  done
elif [ "$mode" = deb ]; then
  for tool in dpkg-deb dpkg-shlibdeps file; do
    command -v "$tool" >/dev/null || {
      echo "SKIPPED: $tool not found (dpkg-dev, file: scripts/install-deps.sh)" >&2
      exit 77
    }
  done
  if ! cpack -G DEB --config "$build/CPackConfig.cmake" -B "$dest/out" >"$dest/cpack.log" 2>&1; then
    cat "$dest/cpack.log" >&2
    fail "cpack -G DEB failed"
    exit 1
  fi
  version=$("$binary" --version | awk 'NR == 1 {print $2}')
  deb=$dest/out/mapindex_${version}_$(dpkg --print-architecture).deb
  [ -f "$deb" ] || {
    fail "no $(basename "$deb") made (made: $(cd "$dest/out" && ls ./*.deb 2>/dev/null))"
    exit 1
  }
  depends=$(dpkg-deb -f "$deb" Depends)
  libs=(libarchive libsqlite3 libtbb libdeflate)
  # jemalloc, when the binary runs with it (CMakeLists.txt, MAPINDEX_JEMALLOC).
  "$binary" --version | grep -q '^allocator: jemalloc ' && libs+=(libjemalloc)
  for lib in "${libs[@]}"; do
    grep -qE "(^|, )$lib[^ ,]* " <<<"$depends" || fail "Depends does not name $lib: $depends"
  done
  contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
  prefix=$(grep -oE '^\./.*/bin/mapindex$' <<<"$contents" | sed 's|^\.||; s|/bin/mapindex$||')
  [ -n "$prefix" ] || fail "the package holds no bin/mapindex"
  wanted=(share/bash-completion/completions/mapindex share/doc/mapindex/README.md
    share/doc/mapindex/docs/schema.md share/doc/mapindex/docs/guide.md)
  # The man pages, when help2man was there to make them (the man test says so).
  [ -d "$build/packaging/man/man1" ] && wanted+=("${commands[@]/#/share/man/man1/mapindex-}" share/man/man1/mapindex)
  for f in "${wanted[@]}"; do
    case $f in share/man/*) f=$f.1 ;; esac
    grep -qxF "./${prefix#/}/$f" <<<"$contents" || fail "the package does not hold $prefix/$f"
  done
  dpkg-deb -x "$deb" "$dest/root"
  packaged=$dest/root$prefix/bin/mapindex
  # The packaged (stripped) binary runs on the system's libraries, and indexes
  # the demo archive as the build's binary does.
  "$make_demo" "$dest/maps.zip" >/dev/null || fail "$make_demo failed"
  "$binary" index --db "$dest/built.sqlite" --quiet "$dest/maps.zip"
  built_status=$?
  "$packaged" index --db "$dest/packaged.sqlite" --quiet "$dest/maps.zip"
  packaged_status=$?
  [ "$packaged_status" = "$built_status" ] || fail "the packaged mapindex index exits $packaged_status, the built one $built_status"
  sql="SELECT entry_path, kind, status, sha256 FROM file_overview ORDER BY entry_path"
  want=$("$binary" query --db "$dest/built.sqlite" --csv "$sql")
  got=$("$packaged" query --db "$dest/packaged.sqlite" --csv "$sql")
  [ "$(wc -l <<<"$want")" -gt 10 ] || fail "the built mapindex indexed too little of the demo: $want"
  [ "$got" = "$want" ] || fail "the packaged mapindex indexes the demo otherwise: $got"
  for path in $(help_doc_paths); do
    [ -e "$dest/root$path" ] || fail "the help texts name $path, which the package does not hold"
  done
else
  fail "unknown mode $mode"
fi
[ "$failures" -eq 0 ] || exit 1
echo "ok"
