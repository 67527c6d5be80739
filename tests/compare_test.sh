#!/usr/bin/env bash
# benchmarks/compare.sh's arithmetic and order (CTest, CMakeLists.txt), with a
# stand-in for mapindex-bench-time whose times are set here: so the expected
# figures follow from those times by hand, not from the script.
#
# The stand-in's wall time for a variant in round r (it counts each variant's
# calls) is the round's "load" L(r) = 1.0, 1.5, 2.0, 1.0 s for r = 1..4
# (L(r) = 1 + 0.5 (r mod 3)) times the variant's factor:
#   base   1
#   same   1                   (ratio 1 every round)
#   double 2 e^(+0.01) in odd rounds, 2 e^(-0.01) in even rounds
#   exact  2.3, over loads of its own (below)
# Its CPU time is half the wall time, its peak RSS 100 MiB.
#
# Expected, with 4 rounds:
#   base:   walls 1.5, 2.0, 1.0, 1.5 -> median 1.500 s, CPU 0.750 s, 100 MiB
#   same:   every log-ratio 0: 1.000x [1.000-1.000], not outside the noise
#   double: log-ratios ln 2 +- 0.01, mean ln 2; their sample standard
#           deviation sqrt(4 * 0.01^2 / 3) = 0.011547; Student's t for 3
#           degrees of freedom 3.182; half-width 3.182 * 0.011547 / sqrt(4)
#           = 0.018372; 2 e^(-+0.018372) = 1.964 and 2.037: "2.000x
#           [1.964-2.037]: slower"; walls 3.030, 3.960, 2.020, 2.970 ->
#           median (2.970 + 3.030) / 2 = 3.000 s, CPU 1.500 s
#   exact (7 rounds against "base7", both over loads 0.3 + 0.1 r s):
#           walls 2.3 * 0.4 .. 2.3 * 1.0 -> median 1.610 s, CPU 0.805 s;
#           every ratio 2.3: "2.300x [2.300-2.300]: slower"
# and the order of the runs: base same double, then double same base.
#   tests/compare_test.sh
set -uo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# The stand-in timer: --out FILE -- COMMAND...; COMMAND's second word names the variant.
cat >"$work/timer" <<'EOF'
#!/usr/bin/env bash
out=$2
variant=$5
dir=$(dirname "$0")
n=$(( $(cat "$dir/calls.$variant" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$dir/calls.$variant"
echo "$variant" >>"$dir/order"
if [ "$variant" = broken ]; then
  echo "wall=0.1 user=0 sys=0 maxrss_kb=1 status=2" >>"$out"
  echo "broken: cannot do that" >&2
  exit 2
fi
awk -v r="$n" -v v="$variant" -v out="$out" 'BEGIN {
  load = v == "base7" || v == "exact" ? 0.3 + 0.1 * r : 1 + 0.5 * (r % 3)
  f = v == "double" ? 2 * exp(r % 2 ? 0.01 : -0.01) : v == "exact" ? 2.3 : 1
  printf "wall=%.9f user=%.9f sys=0 maxrss_kb=102400 status=0\n", load * f, load * f / 2 >> out
}'
EOF
chmod +x "$work/timer"
: >"$work/input.tar"

output=$(TIMER=$work/timer bash "$source_dir/benchmarks/compare.sh" --rounds 4 "$work/input.tar" \
  "base=true base" "same=true same" "double=true double" 2>"$work/stderr")
status=$?
[ "$status" = 0 ] || fail "compare.sh exited $status: $(cat "$work/stderr")"
echo "$output"
row() { echo "$output" | grep "^| $1 |" || fail "no row for $1"; }
[ "$(row base)" = "| base | 1.500 | 0.750 | 100 | (baseline) |" ] || fail "base row: $(row base)"
[ "$(row same)" = "| same | 1.500 | 0.750 | 100 | 1.000x [1.000-1.000]: within the noise |" ] ||
  fail "same row: $(row same)"
[ "$(row double)" = "| double | 3.000 | 1.500 | 100 | 2.000x [1.964-2.037]: slower |" ] ||
  fail "double row: $(row double)"
expected_order="base same double double same base base same double double same base"
[ "$(tr '\n' ' ' <"$work/order" | sed 's/ $//')" = "$expected_order" ] ||
  fail "order: $(tr '\n' ' ' <"$work/order")"

# The same ratio in every round (2.3, over loads of 0.3 + 0.1 r s that the
# baseline "base7" has too): its interval is that ratio, not NaN from a
# variance that rounding left below zero.
rm -f "$work"/calls.* "$work/order"
output=$(TIMER=$work/timer bash "$source_dir/benchmarks/compare.sh" --rounds 7 "$work/input.tar" \
  "base7=true base7" "exact=true exact" 2>/dev/null)
[ "$(row exact)" = "| exact | 1.610 | 0.805 | 100 | 2.300x [2.300-2.300]: slower |" ] ||
  fail "exact row: $(row exact)"

# A variant that fails stops the comparison, naming it and showing its error.
rm -f "$work"/calls.* "$work/order"
TIMER=$work/timer bash "$source_dir/benchmarks/compare.sh" --rounds 2 "$work/input.tar" \
  "base=true base" "bad=true broken" >/dev/null 2>"$work/stderr"
status=$?
[ "$status" = 1 ] || fail "a failing variant: exit $status, expected 1"
grep -q "bad failed (2)" "$work/stderr" || fail "a failing variant is not named: $(cat "$work/stderr")"
grep -q "broken: cannot do that" "$work/stderr" || fail "the variant's error is not shown"

# --rerun: before the rounds each variant makes its own index (a stand-in
# that writes "made by VARIANT" at --db); every timed run then starts from a
# fresh copy of its own variant's index. The stand-in timer logs what the
# copy held and writes into it, as a re-run does, so a copy reused or taken
# from the other variant shows in the log.
cat >"$work/fakeindex" <<'EOF2'
#!/usr/bin/env bash
variant=$1
shift
while [ $# -gt 0 ]; do
  [ "$1" = --db ] && { echo "made by $variant" >"$2"; exit 0; }
  shift
done
exit 2
EOF2
chmod +x "$work/fakeindex"
cat >"$work/retimer" <<'EOF2'
#!/usr/bin/env bash
out=$2
variant=$5
dir=$(dirname "$0")
db=
for ((i = 6; i <= $#; i++)); do [ "${!i}" = --db ] && { j=$((i + 1)); db=${!j}; }; done
echo "$variant: $(tr '\n' ' ' <"$db")" >>"$dir/seen"
echo "run" >>"$db"
echo "wall=1 user=0.5 sys=0 maxrss_kb=102400 status=0" >>"$out"
EOF2
chmod +x "$work/retimer"
rm -f "$work/seen"
output=$(TIMER=$work/retimer bash "$source_dir/benchmarks/compare.sh" --rerun --rounds 3 \
  "$work/input.tar" "first=$work/fakeindex first" "second=$work/fakeindex second" 2>"$work/stderr")
status=$?
[ "$status" = 0 ] || fail "--rerun exited $status: $(cat "$work/stderr")"
expected_seen="first: made by first |second: made by second |second: made by second |"
expected_seen+="first: made by first |first: made by first |second: made by second |"
[ "$(tr '\n' '|' <"$work/seen")" = "$expected_seen" ] || fail "--rerun copies: $(cat "$work/seen")"
echo "$output" | grep -q "re-runs at -j 2" || fail "--rerun does not say it timed re-runs"
# A variant whose command makes no index is refused, named.
TIMER=$work/retimer bash "$source_dir/benchmarks/compare.sh" --rerun --rounds 2 "$work/input.tar" \
  "first=$work/fakeindex first" "none=true none" >/dev/null 2>"$work/stderr"
[ $? = 1 ] || fail "--rerun with a variant that made no index: not exit 1"
grep -q "none made no index" "$work/stderr" || fail "--rerun: the variant without an index is not named"

# Wrong use is refused before anything runs.
TIMER=$work/timer bash "$source_dir/benchmarks/compare.sh" "$work/input.tar" "base=true base" \
  >/dev/null 2>&1
[ $? = 2 ] || fail "one variant only was not refused"
TIMER=$work/timer bash "$source_dir/benchmarks/compare.sh" --rounds 1 "$work/input.tar" \
  "a=true base" "b=true same" >/dev/null 2>&1
[ $? = 2 ] || fail "--rounds 1 was not refused"

[ "$failures" = 0 ] || exit 1
echo "compare.sh: all checks passed"
