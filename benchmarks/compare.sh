#!/usr/bin/env bash
# benchmarks/compare.sh: is one build of mapindex (or one set of options)
# faster than another on this machine, and by how much?
#
# Runs each variant's `mapindex index` over one input into a fresh index,
# the variants one after the other in every round (in reverse order every
# other round). With --rerun, each run is a re-run instead (every map already
# known: the nightly case) into a fresh copy of an index that variant made of
# the same input before the first round, its stamp kept and the copy synced
# to disk first, so that no run pays for the one before.
#
# It prints for each variant its median wall time, CPU time (user + system)
# and peak RSS, and its wall time over the first variant's (the baseline's)
# in the same round: the geometric mean of those ratios and a 95% interval
# for it (Student's t over the rounds' log-ratios). When the interval leaves
# out 1.00, the difference is more than the machine's noise.
#
# Why rounds: on a shared machine, other load moves every time by more than
# the differences worth measuring (benchmarks/RESULTS.md). The variants of one
# round meet about the same load, so their ratio moves far less than either
# time.
#
#   benchmarks/compare.sh [--rounds N] [--threads J] [--rerun] INPUT LABEL=COMMAND...
#
# COMMAND: a mapindex binary and its subcommand, with any other options,
# optionally behind `env NAME=VALUE`; each run is
#   COMMAND --db NEW.sqlite -j J --progress none -q INPUT
# e.g.
#   benchmarks/compare.sh corpus.tar "base=build-bench/mapindex index" \
#       "small=build-bench/mapindex index --memory 64" \
#       "other=env MALLOC_CONF=thp:always /tmp/other/mapindex index"
# or, whether a build re-runs slower than the one before it (each variant
# makes its own index: builds of different schemas compare too):
#   benchmarks/compare.sh --rerun --threads 1 synth-distinct.tar \
#       "before=/tmp/old/build/mapindex index" "now=build-bench/mapindex index"
#
# Settings: --rounds N (default 20), --threads J (default 2), TIMER= the
# mapindex-bench-time program (default build-bench's: benchmarks/run.sh
# builds it).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=benchmarks/common.sh source-path=SCRIPTDIR/..
. "$REPO/benchmarks/common.sh"
TIMER=${TIMER:-$REPO/build-bench/benchmarks/mapindex-bench-time}
ROUNDS=20
THREADS=2
RERUN=0

while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    --rerun) RERUN=1 ;;
    -h|--help) usage 0 ;;
    -*) echo "compare.sh: unknown option $1" >&2; usage 2 ;;
    *) break ;;
  esac
  shift
done
[ $# -ge 3 ] || { echo "compare.sh: give an input and at least two LABEL=COMMAND" >&2; usage 2; }
INPUT=$1
shift
[ -r "$INPUT" ] || { echo "compare.sh: cannot read the input $INPUT" >&2; exit 2; }
[ -x "$TIMER" ] || { echo "compare.sh: $TIMER is missing (run benchmarks/run.sh once, or set TIMER=)" >&2; exit 2; }
case $ROUNDS in '' | *[!0-9]* | 0 | 1) echo "compare.sh: --rounds must be 2 or more" >&2; exit 2 ;; esac
labels=() commands=()
for v in "$@"; do
  case $v in
    *=*) labels+=("${v%%=*}"); commands+=("${v#*=}") ;;
    *) echo "compare.sh: '$v' is not LABEL=COMMAND" >&2; exit 2 ;;
  esac
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mapindex-compare.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
RESULTS=$WORK/results.tsv  # round, label, wall, cpu, peak RSS KiB

# fail_run STATUS I: stops the comparison when variant I's run did not finish.
fail_run() {
  index_finished "$1" && return 0
  echo "compare.sh: ${labels[$2]} failed ($1): ${commands[$2]}" >&2
  tail -5 "$WORK/stderr.txt" >&2
  exit 1
}

# --rerun: each variant's own index of the input, made once, untimed.
if [ "$RERUN" = 1 ]; then
  for i in "${!labels[@]}"; do
    status=0
    # shellcheck disable=SC2086 # COMMAND: words
    ${commands[$i]} --db "$WORK/made$i.sqlite" -j "$THREADS" --progress none -q "$INPUT" \
      >/dev/null 2>"$WORK/stderr.txt" || status=$?
    fail_run "$status" "$i"
    [ -f "$WORK/made$i.sqlite" ] ||
      { echo "compare.sh: ${labels[$i]} made no index at --db: ${commands[$i]}" >&2; exit 1; }
  done
  echo "[compare $(date +%H:%M:%S)] each variant's index made" >&2
fi

for round in $(seq 1 "$ROUNDS"); do
  order=$(seq 0 $((${#labels[@]} - 1)))
  [ $((round % 2)) = 0 ] && order=$(echo "$order" | tac)
  for i in $order; do
    rm -f "$WORK"/db.sqlite* "$WORK/time.txt"
    if [ "$RERUN" = 1 ]; then
      # -a keeps the index's stamp (an extended attribute) where the file
      # system has them: without it the re-run would check the whole index.
      cp -a "$WORK/made$i.sqlite" "$WORK/db.sqlite"
      sync "$WORK/db.sqlite"
    fi
    status=0
    # shellcheck disable=SC2086 # COMMAND: words
    "$TIMER" --out "$WORK/time.txt" -- ${commands[$i]} --db "$WORK/db.sqlite" -j "$THREADS" \
      --progress none -q "$INPUT" >/dev/null 2>"$WORK/stderr.txt" || status=$?
    fail_run "$status" "$i"
    printf '%s\t%s\t%s\t%s\t%s\n' "$round" "${labels[$i]}" "$(kv wall "$WORK/time.txt")" \
      "$(cpu_of "$WORK/time.txt")" "$(kv maxrss_kb "$WORK/time.txt")" >>"$RESULTS"
  done
  echo "[compare $(date +%H:%M:%S)] round $round/$ROUNDS" >&2
done

what="-j $THREADS"
[ "$RERUN" = 1 ] && what="re-runs at -j $THREADS, each into a fresh copy of its variant's index"
echo "Input: $INPUT; $what; $ROUNDS rounds; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| variant | median wall s | median CPU s | median peak RSS MiB | wall / ${labels[0]}'s, same round: geometric mean [95% interval] |"
echo "|---|---:|---:|---:|---|"
# column LABEL N: one variant's figures in column N of the results, one a line.
column() { awk -F'\t' -v l="$1" -v c="$2" '$2 == l { print $c }' "$RESULTS"; }
for label in "${labels[@]}"; do
  cmp=$(awk -F'\t' -v l="$label" -v base="${labels[0]}" '
    function t975(df) {  # Student t, 97.5th percentile: the 95% interval of a mean of df + 1 values
      if (df <= 30) {
        split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 " \
              "2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 " \
              "2.052 2.048 2.045 2.042", q, " ")
        return q[df] + 0
      }
      return 1.96 + 2.5 / df  # within 0.002 of the true value from 30 on
    }
    $2 == base { b[$1] = $3 }
    $2 == l { w[$1] = $3 }
    END {
      if (l == base) { print "(baseline)"; exit }
      for (r in w) { k++; x = log(w[r] / b[r]); s += x; ss += x * x }
      mean = s / k
      var = k > 1 ? (ss - k * mean * mean) / (k - 1) : 0
      sd = var > 0 ? sqrt(var) : 0  # rounding can leave equal ratios a tiny negative variance
      half = t975(k - 1) * sd / sqrt(k)
      verdict = exp(mean + half) < 1 ? "faster" : exp(mean - half) > 1 ? "slower" : "within the noise"
      printf "%.3fx [%.3f-%.3f]: %s\n", exp(mean), exp(mean - half), exp(mean + half), verdict
    }' "$RESULTS")
  printf '| %s | %.3f | %.3f | %.0f | %s |\n' "$label" "$(column "$label" 3 | median_of)" \
    "$(column "$label" 4 | median_of)" \
    "$(awk -v k="$(column "$label" 5 | median_of)" 'BEGIN { print k / 1024 }')" "$cmp"
done
