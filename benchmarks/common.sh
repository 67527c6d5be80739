# shellcheck shell=bash
# Helpers that benchmarks/run.sh and benchmarks/compare.sh share (sourced, not
# run).

# usage [STATUS]: prints the calling script's header comment (from its second
# line to `set -euo`) and exits with STATUS (default 0).
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }

# kv KEY FILE: the last value of KEY in FILE's key=value pairs (what
# mapindex-bench-time and mapindex-bench-floor print).
kv() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" "$2" | tail -1; }

# cpu_of FILE: user + system seconds of a mapindex-bench-time line.
cpu_of() { awk -v u="$(kv user "$1")" -v s="$(kv sys "$1")" 'BEGIN { print u + s }'; }

# median_of: the median of the numbers on standard input, one a line (empty
# when there are none).
median_of() {
  sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print a[(NR + 1) / 2];
                                      else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# index_finished STATUS: whether `mapindex index` exited as a finished run: 0,
# or 1 when it rejected maps (the corpus has some); anything else is a failure.
index_finished() { [ "$1" -le 1 ]; }
