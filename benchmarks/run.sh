#!/usr/bin/env bash
# benchmarks/run.sh: one command for the whole benchmark suite.
#
# Builds mapindex and the benchmark programs (Release), prepares the inputs in
# a temporary folder (the map corpus packed as one zip and one tar; synthetic
# tars of realistic DDNet maps: "copies" of a few maps, ~200 MB, whose tile
# layers all repeat; "distinct", no tile layer repeats (the layer cache's
# worst case); "history", each map in several versions that change a few
# layers; and two archives of copies at archive-history scale, 1 GB and
# 4 GB, the larger one also for memory flatness), runs the floor
# (benchmarks/floor.cpp: read + SHA-256 of entries and tile layers + inflate)
# and `mapindex index` with its default options on each, and prints a
# markdown table of medians plus every performance target (the archive
# history's included) with its ratio of medians, the same ratio within each
# round (lowest-highest) and PASS/MISS, each program's spread over the
# rounds (how noisy the machine was), then the bounds on how work
# grows (mapindex-bench-bounds, on the corpus). The inputs are removed
# afterwards (unless --keep).
#
#   benchmarks/run.sh [--quick] [--runs N] [--small SIZE] [--copies SIZE|0]
#                     [--large SIZE|0] [--distinct-size SIZE] [--history-size SIZE]
#                     [--work DIR] [--keep] [--no-build] [--out FILE] [--baseline BIN]
#
# --baseline BIN: also runs BIN, the `mapindex` of an earlier build (e.g. the
# last commit before a change), beside the built one in every round on the
# corpus and the 30-200 MB inputs (fresh runs at -j 1 and 2, re-runs into an
# index of its own), and prints the existing targets' "no regression over
# 5%": the built one's wall time over BIN's in the same round (the median
# over the rounds), and peak RSS over BIN's. Build BIN with e.g.
#   git worktree add /tmp/before REV && cmake -S /tmp/before -B /tmp/before/build \
#     -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/before/build --target mapindex
#
# Settings (flags win over the environment):
#   RUNS=3            runs per figure (the table shows the median)
#   SYNTH_SMALL=200M  size of the synthetic archive of copies
#   SYNTH_DISTINCT_SIZE=30M  size of the all-distinct archive (every map built: ~0.2 s each)
#   SYNTH_HISTORY_SIZE=30M   size of the map-history archive (as costly)
#   SYNTH_COPIES=1G   size of the archive-history archive of copies (0: skip it)
#   SYNTH_LARGE=4G    size of the large archive of copies: archive history and
#                     memory flatness (0: skip both)
#   LARGE_MIN_MAPS=10000  the large archive holds at least this many maps
#   SYNTH_DISTINCT=200    distinct maps built for the copies archives
#   INDEX_OPTIONS=""  extra options for every `mapindex index` (default: none,
#                     the targets are for default options)
#   CORPUS=../shared/corpus/maps  folder of .map files
#   BUILD_DIR=build-bench  BUILD_TYPE=Release  JOBS=$(nproc)  WORK_DIR=(mktemp -d)
#   ZLIB_INPUTS=""    inputs the (slow, ~10 s on the corpus) zlib floor runs on
# --quick: RUNS=1, SYNTH_SMALL=20M, SYNTH_DISTINCT_SIZE=6M, SYNTH_HISTORY_SIZE=6M,
#          SYNTH_COPIES=0, SYNTH_LARGE=0, SYNTH_DISTINCT=16.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=benchmarks/common.sh source-path=SCRIPTDIR/..
. "$REPO/benchmarks/common.sh"
RUNS=${RUNS:-3}
SYNTH_SMALL=${SYNTH_SMALL:-200M}
SYNTH_COPIES=${SYNTH_COPIES:-1G}
SYNTH_LARGE=${SYNTH_LARGE:-4G}
LARGE_MIN_MAPS=${LARGE_MIN_MAPS:-10000}
SYNTH_DISTINCT=${SYNTH_DISTINCT:-200}
SYNTH_DISTINCT_SIZE=${SYNTH_DISTINCT_SIZE:-30M}
SYNTH_HISTORY_SIZE=${SYNTH_HISTORY_SIZE:-30M}
INDEX_OPTIONS=${INDEX_OPTIONS:-}
CORPUS=${CORPUS:-$REPO/../shared/corpus/maps}
BUILD_DIR=${BUILD_DIR:-$REPO/build-bench}
BUILD_TYPE=${BUILD_TYPE:-Release}
JOBS=${JOBS:-$(nproc)}
WORK_DIR=${WORK_DIR:-}
ZLIB_INPUTS=${ZLIB_INPUTS:-}
KEEP=0
BUILD=1
OUT=""
BASELINE=""

while [ $# -gt 0 ]; do
  case "$1" in
    --quick) RUNS=1; SYNTH_SMALL=20M; SYNTH_COPIES=0; SYNTH_LARGE=0; SYNTH_DISTINCT=16
             SYNTH_DISTINCT_SIZE=6M; SYNTH_HISTORY_SIZE=6M ;;
    --runs) RUNS=$2; shift ;;
    --small) SYNTH_SMALL=$2; shift ;;
    --distinct-size) SYNTH_DISTINCT_SIZE=$2; shift ;;
    --history-size) SYNTH_HISTORY_SIZE=$2; shift ;;
    --copies) SYNTH_COPIES=$2; shift ;;
    --large) SYNTH_LARGE=$2; shift ;;
    --work) WORK_DIR=$2; shift ;;
    --keep) KEEP=1 ;;
    --no-build) BUILD=0 ;;
    --out) OUT=$2; shift ;;
    --baseline) BASELINE=$2; shift ;;
    -h|--help) usage 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; usage 2 ;;
  esac
  shift
done

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
log() { echo "[bench $(date +%H:%M:%S)] $*" >&2; }

# --- build -------------------------------------------------------------------
# MAPINDEX_WERROR=OFF: GCC 12 at -O3 reports false -Wrestrict positives in
# std::string code (GCC bug 105329); the benchmark must not fail on them.
if [ "$BUILD" = 1 ]; then
  log "building ($BUILD_TYPE) in $BUILD_DIR"
  mkdir -p "$BUILD_DIR"
  if ! { cmake -S "$REPO" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DMAPINDEX_WERROR=OFF \
           -DBUILD_TESTING=ON &&
         cmake --build "$BUILD_DIR" -j "$JOBS" --target mapindex mapindex-bench-floor \
           mapindex-bench-synth mapindex-bench-pack mapindex-bench-time mapindex-bench-bounds; } >"$BUILD_DIR/bench-build.log" 2>&1; then
    tail -30 "$BUILD_DIR/bench-build.log" >&2
    echo "run.sh: the build failed (log: $BUILD_DIR/bench-build.log)" >&2
    exit 1
  fi
fi
MAPINDEX=$BUILD_DIR/mapindex
FLOOR=$BUILD_DIR/benchmarks/mapindex-bench-floor
SYNTH=$BUILD_DIR/benchmarks/mapindex-bench-synth
PACK=$BUILD_DIR/benchmarks/mapindex-bench-pack
TIMER=$BUILD_DIR/benchmarks/mapindex-bench-time
BOUNDS=$BUILD_DIR/benchmarks/mapindex-bench-bounds
for p in "$MAPINDEX" "$FLOOR" "$SYNTH" "$PACK" "$TIMER" "$BOUNDS"; do
  [ -x "$p" ] || { echo "run.sh: $p is missing (build first or drop --no-build)" >&2; exit 1; }
done
if [ -n "$BASELINE" ]; then
  [ -x "$BASELINE" ] || { echo "run.sh: --baseline $BASELINE is not an executable" >&2; exit 2; }
  "$BASELINE" --version >/dev/null 2>&1 ||
    { echo "run.sh: --baseline $BASELINE: \`--version\` fails: not a mapindex program?" >&2; exit 2; }
fi

# --- work folder -----------------------------------------------------------------
if [ -z "$WORK_DIR" ]; then
  WORK_DIR=$(mktemp -d "${TMPDIR:-/tmp}/mapindex-bench.XXXXXX")
else
  mkdir -p "$WORK_DIR"
fi
# shellcheck disable=SC2317 # run by the trap below
cleanup() { if [ "$KEEP" = 0 ]; then rm -rf "$WORK_DIR"; else log "kept $WORK_DIR"; fi; }
trap cleanup EXIT
RESULTS=$WORK_DIR/results.tsv
: >"$RESULTS"

to_bytes() {  # 200M -> bytes
  awk -v s="$1" 'BEGIN { n = s + 0; u = substr(s, length(s));
    if (u == "K") n *= 1024; else if (u == "M") n *= 1048576; else if (u == "G") n *= 1073741824;
    printf "%.0f\n", n }'
}
need=$(( $(to_bytes "$SYNTH_LARGE") + $(to_bytes "$SYNTH_COPIES") + $(to_bytes "$SYNTH_SMALL") \
         + $(to_bytes "$SYNTH_DISTINCT_SIZE") \
         + $(to_bytes "$SYNTH_HISTORY_SIZE") + 600 * 1048576 ))
avail=$(( $(df -Pk "$WORK_DIR" | awk 'NR == 2 { print $4 }') * 1024 ))
if [ "$avail" -lt "$need" ]; then
  echo "run.sh: $WORK_DIR has $((avail >> 20)) MB free, the inputs need about $((need >> 20)) MB" >&2
  exit 1
fi

# --- inputs --------------------------------------------------------------------
[ -d "$CORPUS" ] || { echo "run.sh: corpus folder $CORPUS not found (set CORPUS)" >&2; exit 1; }
log "packing the corpus ($CORPUS) into a zip and a tar"
"$PACK" "$WORK_DIR/corpus.zip" "$CORPUS" >/dev/null
"$PACK" "$WORK_DIR/corpus.tar" "$CORPUS" >/dev/null
log "generating the synthetic archive of $SYNTH_SMALL"
"$SYNTH" --out "$WORK_DIR/synth-small.tar" --bytes "$SYNTH_SMALL" --distinct "$SYNTH_DISTINCT" \
  >"$WORK_DIR/synth-small.txt"
log "generating the all-distinct synthetic archive of $SYNTH_DISTINCT_SIZE"
"$SYNTH" --mode distinct --out "$WORK_DIR/synth-distinct.tar" --bytes "$SYNTH_DISTINCT_SIZE" \
  >"$WORK_DIR/synth-distinct.txt"
log "generating the map-history synthetic archive of $SYNTH_HISTORY_SIZE"
"$SYNTH" --mode history --out "$WORK_DIR/synth-history.tar" --bytes "$SYNTH_HISTORY_SIZE" \
  >"$WORK_DIR/synth-history.txt"
INPUTS="corpus.zip corpus.tar synth-distinct.tar synth-history.tar synth-small.tar"
# Archive history: copies at 1 GB and 4 GB (every entry a new version of one
# of SYNTH_DISTINCT maps, whose tile layers all repeat), and the first
# SYNTH_DISTINCT entries alone (each map's first version) for the index bytes
# a repeated version adds.
HISTORY_INPUTS=""
if [ "$(to_bytes "$SYNTH_COPIES")" -gt 0 ]; then
  log "generating the synthetic archive of copies of $SYNTH_COPIES"
  "$SYNTH" --out "$WORK_DIR/synth-copies.tar" --bytes "$SYNTH_COPIES" \
    --distinct "$SYNTH_DISTINCT" >"$WORK_DIR/synth-copies.txt"
  HISTORY_INPUTS="synth-copies.tar"
fi
if [ "$(to_bytes "$SYNTH_LARGE")" -gt 0 ]; then
  log "generating the synthetic archive of $SYNTH_LARGE (>= $LARGE_MIN_MAPS maps)"
  "$SYNTH" --out "$WORK_DIR/synth-large.tar" --bytes "$SYNTH_LARGE" --min-maps "$LARGE_MIN_MAPS" \
    --distinct "$SYNTH_DISTINCT" >"$WORK_DIR/synth-large.txt"
  HISTORY_INPUTS="$HISTORY_INPUTS synth-large.tar"
fi
if [ -n "$HISTORY_INPUTS" ]; then
  "$SYNTH" --out "$WORK_DIR/synth-firsts.tar" --bytes 1 --min-maps "$SYNTH_DISTINCT" \
    --distinct "$SYNTH_DISTINCT" >"$WORK_DIR/synth-firsts.txt"
fi

# --- measuring ------------------------------------------------------------------
js() { grep -o "\"$1\":[^,}]*" "$2" | tail -1 | cut -d: -f2; }

# record INPUT LABEL THREADS ROUND TIMEFILE ENTRIES BYTES WRITER_S PEAK_INFLIGHT
#        [LAYERS_MEASURED LAYERS_REUSED [INFLATE_S]]
record() {
  local t=$5
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" \
    "$(kv wall "$t")" "$(cpu_of "$t")" \
    "$(kv maxrss_kb "$t")" "$6" "$7" "$8" "$9" "${10:-}" "${11:-}" "${12:-}" >>"$RESULTS"
}

# floor INPUT MODE ROUND [--once]: --once inflates each distinct tile layer once
# (label floor-once); its inflate_seconds is recorded in column 14.
floor() {
  local t=$WORK_DIR/time.txt o=$WORK_DIR/floor.txt label=floor-$2
  [ -n "${4:-}" ] && label=floor-once
  : >"$t"
  "$TIMER" --out "$t" -- "$FLOOR" --inflate "$2" ${4:+"$4"} "$WORK_DIR/$1" >"$o"
  [ "$label" = floor-libdeflate ] && cp "$o" "$WORK_DIR/floor-$1.txt"
  [ "$label" = floor-once ] && cp "$o" "$WORK_DIR/floor-once-$1.txt"
  record "$1" "$label" 1 "$3" "$t" "$(kv entries "$o")" "$(kv bytes "$o")" "" "" "" "" \
    "$(kv inflate_seconds "$o")"
}

# index INPUT LABEL THREADS ROUND DB [EXTRA_OPTION]: default options but -j;
# the program is INDEXER if set (--baseline's), else the built one.
index() {
  local t=$WORK_DIR/time.txt s=$WORK_DIR/stats.json status=0
  : >"$t"
  rm -f "$s"
  # shellcheck disable=SC2086 # INDEX_OPTIONS: words
  "$TIMER" --out "$t" -- "${INDEXER:-$MAPINDEX}" index --db "$5" -j "$3" --progress none -q $INDEX_OPTIONS \
    --stats-json "$s" ${6:+"$6"} "$WORK_DIR/$1" || status=$?
  index_finished "$status" || { echo "run.sh: mapindex index failed ($status) on $1" >&2; exit 1; }
  record "$1" "$2" "$3" "$4" "$t" "$(( $(js maps_indexed "$s") + $(js maps_known "$s") ))" \
    "$(js bytes "$s")" "$(js writer_seconds "$s")" "$(js peak_in_flight_bytes "$s")" \
    "$(js layers_measured "$s")" "$(( $(js layers_reused_run "$s") + $(js layers_reused_index "$s") ))"
}

# The rows mapindex wrote, as one fingerprint: row counts and the content
# of maps, layers, tile counts and problems keyed by SHA-256 (ids and run
# numbers left out), so databases written with different thread counts compare.
fingerprint() {
  local q="$MAPINDEX query --db $1 --csv"
  {
    $q "SELECT (SELECT count(*) FROM maps), (SELECT count(*) FROM files), (SELECT count(*) FROM layers),
               (SELECT count(*) FROM tile_counts), (SELECT count(*) FROM entities),
               (SELECT count(*) FROM problems), (SELECT total(count) FROM tile_counts)"
    $q "SELECT sha256, crc32, size, status, errors, warnings, game_width, game_height, num_layers,
               num_quads, num_envelope_points FROM maps ORDER BY sha256"
    $q "SELECT m.sha256, l.layer_index, l.kind, l.name, l.non_empty, l.flip_x, l.flip_y, l.rotate
        FROM layers l JOIN maps m USING (map_id) ORDER BY 1, 2"
    $q "SELECT m.sha256, t.layer_index, t.tile, t.count FROM tile_counts t JOIN maps m USING (map_id)
        ORDER BY 1, 2, 3"
    $q "SELECT m.sha256, p.position, p.code, p.message FROM problems p JOIN maps m USING (map_id)
        ORDER BY 1, 2"
  } | sha256sum | cut -c1-16
}

# --baseline's runs: baseline_index INPUT THREADS ROUND into a fresh index of
# its own (b-jN, kept for its re-runs), baseline_reruns INPUT ROUND at -j 1
# and 2 into its -j 2 index, as the built program's re-runs go into its own.
baseline_index() {
  rm -f "$WORK_DIR/b-j$2.sqlite"*
  INDEXER=$BASELINE index "$1" base-index "$2" "$3" "$WORK_DIR/b-j$2.sqlite"
}
baseline_reruns() {
  INDEXER=$BASELINE index "$1" base-rerun 1 "$2" "$WORK_DIR/b-j2.sqlite"
  INDEXER=$BASELINE index "$1" base-rerun 2 "$2" "$WORK_DIR/b-j2.sqlite"
}

# Warm the page cache once, so no program pays for the first read from disk.
for i in $INPUTS; do cat "$WORK_DIR/$i" >/dev/null; done

IDENTICAL=$WORK_DIR/identical.tsv
: >"$IDENTICAL"
for round in $(seq 1 "$RUNS"); do
  for input in $INPUTS; do
    log "round $round/$RUNS: $input"
    floor "$input" libdeflate "$round"
    floor "$input" none "$round"
    # The map history's target counts inflating each distinct layer once.
    [ "$input" = synth-history.tar ] && floor "$input" libdeflate "$round" --once
    case " $ZLIB_INPUTS " in *" $input "*) floor "$input" zlib "$round" ;; esac
    for j in 1 2; do
      rm -f "$WORK_DIR/j$j.sqlite"*
      # With --baseline, its run beside this one, first in every other round.
      [ -n "$BASELINE" ] && [ $((round % 2)) = 0 ] && baseline_index "$input" "$j" "$round"
      index "$input" index "$j" "$round" "$WORK_DIR/j$j.sqlite"
      [ -n "$BASELINE" ] && [ $((round % 2)) = 1 ] && baseline_index "$input" "$j" "$round"
      # The thumbnails' cost: the same run without them.
      rm -f "$WORK_DIR/nothumbs.sqlite"*
      index "$input" no-thumbnails "$j" "$round" "$WORK_DIR/nothumbs.sqlite" --no-thumbnails
    done
    rm -f "$WORK_DIR/nothumbs.sqlite"*
    if [ "$(nproc)" -gt 2 ]; then
      rm -f "$WORK_DIR/jn.sqlite"*
      index "$input" index "$(nproc)" "$round" "$WORK_DIR/jn.sqlite"
    fi
    # The nightly case: the same inputs again, every map already known.
    [ -n "$BASELINE" ] && [ $((round % 2)) = 0 ] && baseline_reruns "$input" "$round"
    index "$input" rerun 1 "$round" "$WORK_DIR/j2.sqlite"
    index "$input" rerun 2 "$round" "$WORK_DIR/j2.sqlite"
    [ -n "$BASELINE" ] && [ $((round % 2)) = 1 ] && baseline_reruns "$input" "$round"
    if [ "$round" = 1 ]; then
      printf '%s\t%s\t%s\n' "$input" "$(fingerprint "$WORK_DIR/j1.sqlite")" \
        "$(fingerprint "$WORK_DIR/j2.sqlite")" >>"$IDENTICAL"
    fi
  done
done

# The bytes of an index's pages (dbstat), in all or per table.
dbstat_bytes() { "$MAPINDEX" query --db "$1" --csv "SELECT sum(pgsize) FROM dbstat" | tail -1; }
dbstat_tables() {
  "$MAPINDEX" query --db "$1" --csv \
    "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC" | tail -n +2
}

# The documented questions: the ```sql blocks of docs/queries.md (of README.md's
# "Questions you can ask" until it moves there), each timed on INDEX; prints
# the total seconds of one pass.
time_questions() {
  local doc=$REPO/docs/queries.md sql start end total=0
  if [ -f "$doc" ]; then
    sql=$(awk '/^```sql/ { on = 1; next } /^```/ { if (on) print ";"; on = 0 } on' "$doc")
  else
    sql=$(awk '/^## Questions you can ask/ { s = 1 } /^## / && !/Questions you can ask/ { s = 0 }
               s && /^```sql/ { on = 1; next } /^```/ { if (on) print ";"; on = 0 } s && on' \
          "$REPO/README.md")
  fi
  while IFS= read -r -d ';' q; do
    q=$(echo "$q" | tr '\n' ' ')
    [ -n "${q// /}" ] || continue
    start=$(date +%s.%N)
    "$MAPINDEX" query --db "$1" --csv "$q" >/dev/null
    end=$(date +%s.%N)
    total=$(awk -v t="$total" -v a="$start" -v b="$end" 'BEGIN { print t + b - a }')
  done <<<"$sql"
  echo "$total"
}

# Archive history: the copies archives (default options at 1 and 2 threads
# against read + SHA-256), their index bytes per repeated version, and the
# documented questions on the largest index. The large archive's runs are the
# memory-flatness runs too (the small one's `index` runs above are the
# comparison).
FLAT_INPUTS=""
[ -f "$WORK_DIR/synth-large.tar" ] && FLAT_INPUTS="synth-large.tar"
SIZES=$WORK_DIR/sizes.tsv
: >"$SIZES"
QUESTIONS=""
if [ -n "$HISTORY_INPUTS" ]; then
  rm -f "$WORK_DIR/firsts.sqlite"*
  "$MAPINDEX" index --db "$WORK_DIR/firsts.sqlite" --progress none -q "$WORK_DIR/synth-firsts.tar" \
    || [ $? -le 1 ]
  FIRSTS_BYTES=$(dbstat_bytes "$WORK_DIR/firsts.sqlite")
  dbstat_tables "$WORK_DIR/firsts.sqlite" >"$WORK_DIR/firsts-tables.csv"
  for input in $HISTORY_INPUTS; do
    cat "$WORK_DIR/$input" >/dev/null
    for round in $(seq 1 "$RUNS"); do
      log "archive history, round $round/$RUNS: $input"
      floor "$input" none "$round"
      for j in 1 2; do
        rm -f "$WORK_DIR/hist.sqlite"*
        index "$input" index "$j" "$round" "$WORK_DIR/hist.sqlite"
      done
      if [ "$round" = 1 ]; then
        printf '%s\t%s\t%s\n' "$input" "$(dbstat_bytes "$WORK_DIR/hist.sqlite")" \
          "$(kv entries "$WORK_DIR/floor.txt")" >>"$SIZES"
        dbstat_tables "$WORK_DIR/hist.sqlite" >"$WORK_DIR/tables-$input.csv"
      fi
      if [ "$input" = synth-large.tar ]; then
        QUESTIONS="${QUESTIONS:+$QUESTIONS }$(time_questions "$WORK_DIR/hist.sqlite")"
      fi
    done
    rm -f "$WORK_DIR/hist.sqlite"*
  done
fi

# --- report ---------------------------------------------------------------------
# values INPUT LABEL THREADS COLUMN: one program's figures over the rounds, sorted
# (columns: 5 wall, 6 cpu, 7 maxrss_kb, 8 entries, 9 bytes, 10 writer_s, 11 peak in
# flight, 12 layers measured, 13 layers reused, 14 inflate_s of floor-once)
values() {
  awk -F'\t' -v i="$1" -v l="$2" -v j="$3" -v c="$4" \
    '$1 == i && $2 == l && $3 == j && $c != "" { print $c }' "$RESULTS" | sort -g
}
# median INPUT LABEL THREADS COLUMN
median() { values "$@" | median_of; }
# spread INPUT LABEL THREADS: the slowest run's CPU time over the fastest's
# (empty with fewer than two runs).
spread() {
  values "$1" "$2" "$3" 6 |
    awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR > 1 && lo > 0) print hi / lo }'
}
# Every input measured, each once, in the order run.
# shellcheck disable=SC2086 # the lists of inputs: words
all_inputs() { echo $INPUTS $HISTORY_INPUTS | tr ' ' '\n' | awk '!seen[$0]++'; }
fmt() { awk -v v="$1" -v f="$2" 'BEGIN { if (v == "") print "-"; else printf f "\n", v }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print ""; else print a / b }'; }
# round_ratios INPUT COLUMN NUM_LABEL NUM_THREADS DEN_LABEL DEN_THREADS: the ratio of the two
# programs' COLUMN (5 wall, 6 CPU) within each round, one a line. DEN_LABEL "once" is floor-none's
# wall plus floor-once's inflate time (the history's denominator).
round_ratios() {
  awk -F'\t' -v i="$1" -v c="$2" -v nl="$3" -v nj="$4" -v dl="$5" -v dj="$6" '
    $1 != i { next }
    $2 == nl && $3 == nj { num[$4] = $c }
    dl == "once" && $2 == "floor-none" { den[$4] += $5 }
    dl == "once" && $2 == "floor-once" { den[$4] += $14 }
    dl != "once" && $2 == dl && $3 == dj { den[$4] = $c }
    END { for (r in num) if (num[r] != "" && den[r] > 0) print num[r] / den[r] }' "$RESULTS"
}
# rounds ARGS (as round_ratios): lowest-highest over the rounds (empty with fewer than two). The
# targets are decided on the medians; this shows how far one round's pair of runs could land
# from them.
rounds() {
  [ "$RUNS" -ge 2 ] || return 0
  round_ratios "$@" | sort -g |
    awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR > 1) printf "%.2f-%.2f\n", lo, hi }'
}
# paired ARGS (as round_ratios): the median over the rounds (--baseline's comparisons).
paired() { round_ratios "$@" | median_of; }

input_size() { du -m "$WORK_DIR/$1" | cut -f1; }
# The build type the measured binaries were built with: the build folder's own (with --no-build
# and BUILD_DIR=build that is RelWithDebInfo, not BUILD_TYPE's Release).
built_as() { sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt"; }
print_report() {
  echo "Machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)," \
    "$(awk '/MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo) RAM;" \
    "$("$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")" --version | head -1); $(built_as); $(date -u '+%Y-%m-%d %H:%M UTC');" \
    "load average before: $LOAD_BEFORE, after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "Runs per figure: $RUNS (median). Synthetic: $(cat "$WORK_DIR/synth-small.txt")"
  [ -n "$BASELINE" ] && echo "Baseline (--baseline): $BASELINE, $("$BASELINE" --version | head -1)," \
    "schema $("$BASELINE" --version | sed -n 's/^index schema version //p')"
  echo "All distinct: $(cat "$WORK_DIR/synth-distinct.txt")"
  echo "History: $(cat "$WORK_DIR/synth-history.txt")"
  [ -f "$WORK_DIR/synth-copies.txt" ] && echo "Copies: $(cat "$WORK_DIR/synth-copies.txt")"
  [ -f "$WORK_DIR/synth-large.txt" ] && echo "Large synthetic: $(cat "$WORK_DIR/synth-large.txt")"
  for input in $INPUTS; do
    f=$WORK_DIR/floor-$input.txt
    [ -f "$f" ] && echo "$input: $(kv entries "$f") entries, $(awk -v b="$(kv bytes "$f")" 'BEGIN { printf "%.1f", b / 1048576 }') MB;" \
      "$(kv tile_layers "$f") tile layers inflate to $(awk -v b="$(kv inflated "$f")" 'BEGIN { printf "%.2f", b / 1073741824 }') GB"
  done
  echo
  echo "| input | program | threads | wall s | CPU s | maps/s | MB/s | peak RSS MiB | writer % of wall | in flight MiB | layers reused |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for input in $(all_inputs); do
    awk -F'\t' -v i="$input" '$1 == i { print $2 "\t" $3 }' "$RESULTS" | awk '!seen[$0]++' |
    while IFS=$'\t' read -r label threads; do
      wall=$(median "$input" "$label" "$threads" 5)
      cpu=$(median "$input" "$label" "$threads" 6)
      rss=$(median "$input" "$label" "$threads" 7)
      maps=$(median "$input" "$label" "$threads" 8)
      bytes=$(median "$input" "$label" "$threads" 9)
      writer=$(median "$input" "$label" "$threads" 10)
      peak=$(median "$input" "$label" "$threads" 11)
      measured=$(median "$input" "$label" "$threads" 12)
      reused=$(median "$input" "$label" "$threads" 13)
      echo "| $input ($(input_size "$input") MB) | $label | $threads | $(fmt "$wall" %.3f) | $(fmt "$cpu" %.3f)" \
        "| $(fmt "$(ratio "$maps" "$wall")" %.0f) | $(fmt "$(ratio "$(ratio "$bytes" 1048576)" "$wall")" %.1f)" \
        "| $(fmt "$(ratio "$rss" 1024)" %.0f) | $(fmt "$(awk -v w="$writer" -v t="$wall" 'BEGIN { if (w != "") print 100 * w / t }')" %.1f)" \
        "| $(fmt "$(ratio "$peak" 1048576)" %.0f)" \
        "| $(fmt "$(awk -v m="$measured" -v r="$reused" 'BEGIN { if (m + r > 0) print 100 * r / (m + r) }')" %.0f%%) |"
    done
  done
  echo
  echo "Performance targets (default options; floor = read + SHA-256 + libdeflate inflate of every"
  echo "tile layer, 1 thread; floor-none = read + SHA-256; inflate-once = libdeflate inflating each"
  echo "distinct tile layer once, its inflate time alone; the archive history's targets last)."
  echo "Measured: the ratio of the medians, which decides. Each round: the same ratio within each"
  echo "round (its two programs ran in that round, close in time), lowest-highest over the rounds:"
  echo
  echo "| target | input | measured | each round | target | result |"
  echo "|---|---|---:|---:|---:|:---:|"
  check() {  # NAME INPUT VALUE OP LIMIT FORMAT [ROUNDS]
    local ok
    ok=$(awk -v v="$3" -v l="$5" -v op="$4" 'BEGIN { if (v == "") print "?";
      else if ((op == "<=" && v <= l) || (op == ">=" && v >= l) || (op == "<" && v < l)) print "PASS";
      else print "**MISS**" }')
    echo "| $1 | $2 | $(fmt "$3" "$6") | ${7:--} | $4 $5 | $ok |"
  }
  info() {  # NAME INPUT VALUE FORMAT
    echo "| (info) $1 | $2 | $(fmt "$3" "$4") | - | - | - |"
  }
  floor_ratio() {  # INPUT LABEL THREADS: index wall / floor wall
    ratio "$(median "$1" "$2" "$3" 5)" "$(median "$1" floor-libdeflate 1 5)"
  }
  for input in $INPUTS; do
    case $input in
      corpus.*)
        check "1 thread: index wall / floor" "$input" "$(floor_ratio "$input" index 1)" "<=" 0.65 %.2fx \
          "$(rounds "$input" 5 index 1 floor-libdeflate 1)"
        check "2 threads: index wall / floor" "$input" "$(floor_ratio "$input" index 2)" "<=" 0.45 %.2fx \
          "$(rounds "$input" 5 index 2 floor-libdeflate 1)" ;;
      synth-distinct.tar)
        check "1 thread, all layers distinct: index wall / floor" "$input" \
          "$(floor_ratio "$input" index 1)" "<=" 1.25 %.2fx "$(rounds "$input" 5 index 1 floor-libdeflate 1)"
        info "2 threads: index wall / floor" "$input" "$(floor_ratio "$input" index 2)" %.2fx ;;
      synth-history.tar)
        # Map history: 1.5x (read + SHA-256 + inflating each distinct layer once).
        local once
        once=$(awk -v n="$(median "$input" floor-none 1 5)" -v i="$(median "$input" floor-once 1 14)" \
          'BEGIN { if (n != "" && i != "") print n + i }')
        info "floor-none + inflate-once (s)" "$input" "$once" %.3f
        for j in 1 2; do
          check "$j thread(s): index wall / (floor-none + inflate-once)" "$input" \
            "$(ratio "$(median "$input" index $j 5)" "$once")" "<=" 1.5 %.2fx \
            "$(rounds "$input" 5 index $j once 1)"
        done ;;
      *)
        info "1 thread: index wall / floor" "$input" "$(floor_ratio "$input" index 1)" %.2fx
        info "2 threads: index wall / floor" "$input" "$(floor_ratio "$input" index 2)" %.2fx ;;
    esac
    sha=$(median "$input" floor-none 1 5)
    for j in 1 2; do
      check "re-run (-j $j) / read + SHA-256" "$input" \
        "$(ratio "$(median "$input" rerun $j 5)" "$sha")" "<=" 1.2 %.2fx \
        "$(rounds "$input" 5 rerun $j floor-none 1)"
    done
    for label in index no-thumbnails rerun; do
      for j in 1 2; do
        rss=$(median "$input" "$label" $j 7)
        [ -n "$rss" ] && check "peak RSS MiB, $label -j $j" "$input" "$(ratio "$rss" 1024)" "<=" 320 %.0f
      done
    done
    for j in 1 2; do
      check "thumbnails: index CPU / --no-thumbnails CPU (-j $j)" "$input" \
        "$(ratio "$(median "$input" index $j 6)" "$(median "$input" no-thumbnails $j 6)")" "<" 1.1 %.2fx \
        "$(rounds "$input" 6 index $j no-thumbnails $j)"
    done
    same=$(awk -F'\t' -v i="$input" '$1 == i { print ($2 == $3) ? "1" : "0" }' "$IDENTICAL")
    check "-j 2 writes the same rows as -j 1 (1 = identical)" "$input" "$same" ">=" 1 %d
    info "2 threads: speed-up over 1 thread" "$input" \
      "$(ratio "$(median "$input" index 1 5)" "$(median "$input" index 2 5)")" %.2fx
    for j in 1 2; do
      info "writer time / wall (-j $j)" "$input" \
        "$(awk -v w="$(median "$input" index $j 10)" -v t="$(median "$input" index $j 5)" \
            'BEGIN { if (w != "" && t > 0) print 100 * w / t }')" %.1f%%
    done
    zl=$(median "$input" floor-zlib 1 5)
    [ -n "$zl" ] && info "zlib floor / libdeflate floor" "$input" \
      "$(ratio "$zl" "$(median "$input" floor-libdeflate 1 5)")" %.2fx
  done
  if [ -n "$BASELINE" ]; then
    # The existing targets' "no regression over 5%" against --baseline's program.
    for input in $INPUTS; do
      case $input in
        corpus.*) threads="1 2" ;;
        synth-distinct.tar) threads=1 ;;
        *) threads="" ;;
      esac
      for j in $threads; do
        check "no regression: index wall / --baseline's, same round (-j $j)" "$input" \
          "$(paired "$input" 5 index "$j" base-index "$j")" "<=" 1.05 %.3fx \
          "$(rounds "$input" 5 index "$j" base-index "$j")"
      done
      for j in 1 2; do
        check "no regression: re-run wall / --baseline's, same round (-j $j)" "$input" \
          "$(paired "$input" 5 rerun "$j" base-rerun "$j")" "<=" 1.05 %.3fx \
          "$(rounds "$input" 5 rerun "$j" base-rerun "$j")"
      done
      for j in 1 2; do
        check "no regression: peak RSS, index / --baseline's (-j $j)" "$input" \
          "$(ratio "$(median "$input" index "$j" 7)" "$(median "$input" base-index "$j" 7)")" \
          "<=" 1.05 %.2fx
      done
    done
  fi
  for input in $HISTORY_INPUTS; do
    sha=$(median "$input" floor-none 1 5)
    check "copies, 2 threads: index wall / read + SHA-256" "$input" \
      "$(ratio "$(median "$input" index 2 5)" "$sha")" "<=" 2.0 %.2fx \
      "$(rounds "$input" 5 index 2 floor-none 1)"
    check "copies, 1 thread: index wall / read + SHA-256" "$input" \
      "$(ratio "$(median "$input" index 1 5)" "$sha")" "<=" 3.0 %.2fx \
      "$(rounds "$input" 5 index 1 floor-none 1)"
    read -r total entries < <(awk -F'\t' -v i="$input" '$1 == i { print $2, $3 }' "$SIZES")
    per=$(awk -v t="$total" -v f="$FIRSTS_BYTES" -v e="$entries" -v d="$SYNTH_DISTINCT" \
      'BEGIN { if (t != "" && e > d) print (t - f) / (e - d) }')
    check "index bytes per repeated version (dbstat)" "$input" "$per" "<=" 3072 %.0f
    info "bytes per repeated version, largest tables" "$input" \
      "$(awk -F, -v e="$entries" -v d="$SYNTH_DISTINCT" 'NR == FNR { f[$1] = $2; next }
         { b = ($2 - f[$1]) / (e - d); if (n++ < 6) printf "%s%s %.0f", (n > 1 ? ", " : ""), $1, b }' \
         "$WORK_DIR/firsts-tables.csv" "$WORK_DIR/tables-$input.csv")" %s
  done
  if [ -n "$QUESTIONS" ]; then
    info "documented questions on its index, s (median of $RUNS)" synth-large.tar \
      "$(tr ' ' '\n' <<<"$QUESTIONS" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')" %.3f
  fi
  if [ -n "$FLAT_INPUTS" ]; then
    for j in 1 2; do
      large=$(median synth-large.tar index $j 7)
      check "peak RSS MiB, index -j $j" synth-large.tar "$(ratio "$large" 1024)" "<=" 320 %.0f
      check "peak RSS large / small archive (-j $j)" "synth-large / synth-small" \
        "$(ratio "$large" "$(median synth-small.tar index $j 7)")" "<=" 1.1 %.2fx
    done
  fi
  echo
  if [ "$RUNS" -lt 2 ]; then
    echo "Noise: not measured (one round; --runs 2 or more prints each program's spread)."
    return
  fi
  echo "Noise: each program's CPU time over the $RUNS rounds, slowest / fastest. The floor does the"
  echo "same work on one thread every round, so its spread is other load on the machine; mapindex's"
  echo "also varies with how its threads met. A ratio nearer its limit than these spreads may land"
  echo "on the other side of it in another run."
  echo
  echo "| input | floor | index -j 1 | index -j 2 |"
  echo "|---|---:|---:|---:|"
  for input in $(all_inputs); do
    floor_label=floor-libdeflate
    case " $HISTORY_INPUTS " in *" $input "*) floor_label=floor-none ;; esac
    echo "| $input | $(fmt "$(spread "$input" "$floor_label" 1)" %.2fx)" \
      "| $(fmt "$(spread "$input" index 1)" %.2fx) | $(fmt "$(spread "$input" index 2)" %.2fx) |"
  done
}

report=$(print_report)
log "bounds on how work grows (mapindex-bench-bounds)"
report="$report

Bounds on how work grows (benchmarks/bounds.cpp):

$("$BOUNDS" "$CORPUS" || true)"
echo "$report"
[ -n "$OUT" ] && echo "$report" >"$OUT"
exit 0
