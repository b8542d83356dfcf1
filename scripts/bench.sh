#!/usr/bin/env bash
# Benchmarks of sudoku-gen against references timed in the same run, as ratios of medians.
#
#   scripts/bench.sh [generate|solve|check|puzzles|canon|all] [RUNS]
#
# generate: `-c 1000000` into a fresh file, against ../shared/bench/floor-write (one buffer of the
#           same size and one write, no sudoku work), in both formats; target ratio <= 1.5.
# solve:    `-j 1 -s SET` (and `--unique`) on each set of ../shared/data/puzzles, in puzzles per second
#           of the whole process, against the Rust `sudoku` crate's own timing of its solving loop
#           alone (../shared/bench/peer-sudoku-crate), so the comparison favours the reference; the
#           two run in turn.
#           Ratio = our rate / its rate; targets >= 1.0 (easy sets) and >= 1.5 (hardest). Then -j 2
#           against -j 1 on the 17-clue set (target >= 1.8).
# check:    `--check` of 1,000,000 grids made by `-c`, against making them (`-c 1000000` into a fresh
#           file) in the same run; ratio = checking / generating, target <= 2.0 (moonshot 1.0).
# puzzles:  `-n 10000 --minimal` against the `sudoku` crate's own timing of 10000 minimal puzzles
#           (target >= 2.0); `-n 1000 -m 1|2|3` against `qqwing --generate 1000 --difficulty
#           easy|intermediate|expert --one-line` (Debian package qqwing; target >= 100); each with
#           -j 1 and with all cores, ratio = our rate / its rate. Then `-n 1000000 -r 30~50` on all
#           cores: wall time and puzzles per second.
# canon:    `--canon` on the 1,000,000 grids of `-c 1000000` (target >= 1,000,000 grids/s) and on the
#           49,158 puzzles of ../shared/data/puzzles/puzzles2_17_clue.txt (target >= 200,000/s), all
#           cores; `-c 1000000 --classes` against `-c 1000000` (target ratio <= 3.0); `--shuffle` of
#           the 1,000,000 grids against `-c 1000000` (target ratio <= 2.0).
# Commands alternate A B A B ..., each timed as a whole process; a file written by a run is removed
# before the next one, so no run pays for truncating an old file. Needs bash, GNU date and
# /usr/bin/time (Debian package `time`); the references live in ../shared/bench.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$root/../shared}
what=${1:-all}
runs=${2:-7}
[[ -n ${EPOCHREALTIME:-} ]] || { echo "bench.sh: needs bash 5 or later (EPOCHREALTIME)" >&2; exit 1; }
[[ -d $shared/bench ]] || { echo "bench.sh: $shared/bench not found (the reference programs)" >&2; exit 1; }
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin=$root/target/release/sudoku-gen
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Wall time of one run of "$@" in seconds, its output into $work/out. The clock is bash's own
# (microseconds, whatever the locale's decimal point), so that no clock process is timed with it.
wall() {
  rm -f "$work/out"
  local start end
  start=${EPOCHREALTIME/[.,]/}
  "$@" > "$work/out"
  end=${EPOCHREALTIME/[.,]/}
  awk -v us="$(( end - start ))" 'BEGIN { printf "%.4f", us / 1e6 }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Peak resident memory of one run of "$@", in MiB.
peak_mib() {
  rm -f "$work/out"
  /usr/bin/time -f '%M' -o "$work/rss" "$@" > "$work/out"
  awk '{ printf "%.1f", $1 / 1024 }' "$work/rss"
}

# Rate that "$@" prints of itself ("... = RATE/s ..."): a reference timing its own loop.
printed_rate() {
  "$@" 2>/dev/null | sed -n 's/.*= \([0-9.]*\)\/s.*/\1/p'
}

# in_turn MEASURE_A MEASURE_B A... -- B...: the median of MEASURE_A (`wall` or `printed_rate`) over
# runs of A and of MEASURE_B over runs of B, $runs runs each after one warm-up each, run A B A B ...
# so that a slow spell of the machine weighs on both alike.
in_turn() {
  local measure_a=$1 measure_b=$2 a=() b=()
  shift 2
  while [[ $1 != -- ]]; do a+=("$1"); shift; done
  shift
  b=("$@")
  "$measure_a" "${a[@]}" > /dev/null; "$measure_b" "${b[@]}" > /dev/null
  local ma=() mb=()
  for ((i = 0; i < runs; i++)); do
    ma+=("$("$measure_a" "${a[@]}")")
    mb+=("$("$measure_b" "${b[@]}")")
  done
  echo "$(printf '%s\n' "${ma[@]}" | median) $(printf '%s\n' "${mb[@]}" | median)"
}

# alternate A... -- B...: the median wall times of A and of B, run in turn.
alternate() {
  in_turn wall wall "$@"
}

# compare NAME TARGET -- A... -- B...: A against B, medians of $runs alternating runs.
compare() {
  local name=$1 target=$2
  shift 3
  local ma mb
  read -r ma mb < <(alternate "$@")
  awk -v n="$name" -v a="$ma" -v b="$mb" -v t="$target" -v r="$runs" \
    'BEGIN { printf "%-22s %8.4f s  reference %8.4f s  ratio %5.2f  (target %s, median of %d)\n", n, a, b, a / b, t, r }'
}

bench_generate() {
  local grid_bytes=162999999 line_bytes=82000000
  compare "generate grid 1M" "<= 1.5" -- "$bin" -c 1000000 -- "$shared/bench/floor-write" "$grid_bytes"
  compare "generate line 1M" "<= 1.5" -- "$bin" -c 1000000 --format line -- "$shared/bench/floor-write" "$line_bytes"
  local limit=$(( grid_bytes / 1048576 + 16 ))
  echo "generate grid 1M peak memory $(peak_mib "$bin" -c 1000000) MiB (limit: output + 16 MiB = $limit MiB)"
}

# Median rate the reference prints over $runs runs of "$@".
peer_rate() {
  for ((i = 0; i < runs; i++)); do printed_rate "$@"; done | median
}

# Median wall time of $runs runs of "$@" (after one warm-up).
median_wall() {
  wall "$@" > /dev/null
  for ((i = 0; i < runs; i++)); do wall "$@"; echo; done | median
}

bench_solve() {
  local data=$shared/data/puzzles
  local sets=(puzzles2_17_clue:1.0 puzzles1_unbiased_first1000:1.0 puzzles5_forum_hardest_1905_11plus:1.5)
  for entry in "${sets[@]}"; do
    local set=${entry%%:*} target=${entry##*:} file=$data/${entry%%:*}.txt
    local count
    count=$(grep -cv '^#' "$file")
    for mode in first unique; do
      local flag=() peer_mode=solve-first
      if [[ $mode == unique ]]; then flag=(--unique); peer_mode=solve-unique; fi
      local secs ours theirs
      read -r secs theirs < <(in_turn wall printed_rate "$bin" -j 1 "${flag[@]}" -s "$file" -- \
        "$shared/bench/peer-sudoku-crate" "$peer_mode" "$file")
      ours=$(awk -v n="$count" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')
      awk -v n="solve $mode $set" -v a="$ours" -v b="$theirs" -v t="$target" -v r="$runs" \
        'BEGIN { printf "%-50s %9d/s  reference %9d/s  ratio %5.2f  (target >= %s, median of %d)\n", n, a, b, a / b, t, r }'
    done
  done
  # A run takes 0.04-0.08 s, and a second thread feels whatever else the machine runs more than a
  # first: at least 15 pairs, so that one slow spell does not move the median.
  local one two file=$data/puzzles2_17_clue.txt pairs=$(( runs > 15 ? runs : 15 ))
  read -r one two < <(runs=$pairs alternate "$bin" -j 1 -s "$file" -- "$bin" -j 2 -s "$file")
  awk -v a="$one" -v b="$two" -v r="$pairs" \
    'BEGIN { printf "%-50s %8.4f s  -j 1 %8.4f s  speed-up %5.2f  (target >= 1.8, median of %d)\n", "solve -j 2 puzzles2_17_clue", b, a, a / b, r }'
}

bench_check() {
  local grids=$work/grids.txt
  "$bin" -c 1000000 -o "$grids"
  compare "check 1M grids" "<= 2.0" -- "$bin" --check "$grids" --count 1000000 -- "$bin" -c 1000000
  local limit=$(( $(stat -c %s "$grids") / 1048576 + 64 ))
  echo "check 1M grids peak memory $(peak_mib "$bin" --check "$grids") MiB (limit: file + 64 MiB = $limit MiB)"
}

# rate_line NAME COUNT SECONDS REFERENCE_RATE TARGET: one line of a rate against a reference rate.
rate_line() {
  awk -v n="$1" -v c="$2" -v s="$3" -v b="$4" -v t="$5" -v r="$runs" \
    'BEGIN { printf "%-50s %9.0f/s  reference %9.0f/s  ratio %6.2f  (target >= %s, median of %d)\n", n, c / s, b, c / s / b, t, r }'
}

bench_puzzles() {
  local cores secs theirs
  cores=$(nproc)
  theirs=$(peer_rate "$shared/bench/peer-sudoku-crate" puzzles 10000)
  for j in 1 "$cores"; do
    secs=$(median_wall "$bin" -j "$j" -n 10000 --minimal --format line)
    rate_line "puzzles -n 10000 --minimal -j $j" 10000 "$secs" "$theirs" 2.0
  done
  command -v qqwing > /dev/null || { echo "bench.sh: qqwing not found (apt-get install qqwing)" >&2; return 1; }
  local level names=(easy intermediate expert)
  for level in 1 2 3; do
    local qq
    qq=$(median_wall qqwing --generate 1000 --difficulty "${names[level - 1]}" --one-line)
    theirs=$(awk -v s="$qq" 'BEGIN { printf "%.2f", 1000 / s }')
    for j in 1 "$cores"; do
      secs=$(median_wall "$bin" -j "$j" -n 1000 -m "$level" --format line)
      rate_line "puzzles -n 1000 -m $level -j $j vs qqwing ${names[level - 1]}" 1000 "$secs" "$theirs" 100
    done
  done
  secs=$(median_wall "$bin" -n 1000000 -r 30~50 --format line)
  awk -v s="$secs" -v r="$runs" -v c="$cores" \
    'BEGIN { printf "%-50s %9.2f s  %9.0f puzzles/s  (%d cores, median of %d)\n", "puzzles -n 1000000 -r 30~50", s, 1e6 / s, c, r }'
}

bench_canon() {
  local grids=$work/canon-grids.txt puzzles=$shared/data/puzzles/puzzles2_17_clue.txt secs count
  "$bin" -c 1000000 --format line -o "$grids"
  secs=$(median_wall "$bin" --canon "$grids")
  awk -v s="$secs" -v r="$runs" \
    'BEGIN { printf "%-34s %9.0f grids/s    %8.4f s  (target >= 1000000/s, median of %d)\n", "canon 1M grids of -c", 1e6 / s, s, r }'
  count=$(grep -cv '^#' "$puzzles")
  secs=$(median_wall "$bin" --canon "$puzzles")
  awk -v s="$secs" -v c="$count" -v r="$runs" \
    'BEGIN { printf "%-34s %9.0f puzzles/s  %8.4f s  (target >= 200000/s, median of %d)\n", "canon puzzles2_17_clue", c / s, s, r }'
  compare "classes -c 1M" "<= 3.0" -- "$bin" -c 1000000 --classes -- "$bin" -c 1000000
  compare "shuffle 1M grids" "<= 2.0" -- "$bin" --shuffle "$grids" -- "$bin" -c 1000000
}

case $what in
  generate) bench_generate ;;
  solve) bench_solve ;;
  check) bench_check ;;
  puzzles) bench_puzzles ;;
  canon) bench_canon ;;
  all) bench_generate; bench_solve; bench_check; bench_puzzles; bench_canon ;;
  *) echo "bench.sh: unknown benchmark '$what' (generate, solve, check, puzzles, canon, all)" >&2; exit 2 ;;
esac
