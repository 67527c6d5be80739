#!/usr/bin/env bash
# Packaging tests (CTest, CMakeLists.txt): installs the build into a temporary
# DESTDIR with `cmake --install`, then
#   completion: sources the installed bash completion in bash and checks what
#               it offers for `mapindex `, `mapindex index --` and the values
#               of `mapindex audit --format ` and `--fail-on `;
#   man:        checks the installed man pages: mapindex(1) and one page per
#               command, each rendered by `man -l` and naming its command and
#               options.
#   tests/packaging_test.sh completion|man BUILD_DIR MAPINDEX_BINARY [HELP2MAN_FOUND]
set -uo pipefail
mode=$1
build=$2
binary=$3
help2man_found=${4:-}
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
if ! DESTDIR=$dest cmake --install "$build" --prefix /usr >"$dest.log" 2>&1; then
  cat "$dest.log" >&2
  rm -f "$dest.log"
  fail "cmake --install failed"
  exit 1
fi
rm -f "$dest.log"
[ -x "$dest/usr/bin/mapindex" ] || fail "no usr/bin/mapindex installed"

# The commands, as the project has them (a new command must be added here and
# to the completion and man pages comes for free).
commands=(index query inspect audit check explain)

# The --options a command's --help names.
help_options() { "$binary" "$1" --help | grep -oE '(^|[[ ])--[a-z0-9][a-z0-9-]*' | sed 's/^[[ ]//' | sort -u; }

if [ "$mode" = completion ]; then
  script=$dest/usr/share/bash-completion/completions/mapindex
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
  man1=$dest/usr/share/man/man1
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
  done
else
  fail "unknown mode $mode"
fi
[ "$failures" -eq 0 ] || exit 1
echo "ok"
