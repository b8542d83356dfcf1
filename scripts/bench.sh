#!/usr/bin/env bash
# Benchmarks of sudoku-gen against references timed in the same run, as ratios of medians.
#
#   scripts/bench.sh [SECTION|all] [RUNS]
#     sections: generate solve check puzzles canon stream shard; not in `all`: shapes hard
#
# generate: `-c 1000000` into a fresh file, against the write floor (scripts/bench/write_floor.rs:
#           one buffer of the same size and one write, no sudoku work), in both formats; target
#           ratio <= 1.5.
# solve:    `-j 1 -s SET` (and `--unique`) on each puzzle set, in puzzles per second of the whole
#           process, against the Rust `sudoku` crate's own timing of its solving loop alone
#           (scripts/bench/sudoku-crate), so the comparison favours the reference; the two run in
#           turn. Ratio = our rate / its rate; targets >= 1.0 (easy sets) and >= 1.5 (hardest). Then
#           -j 2 against -j 1 on the 17-clue set (target >= 1.9). With tdoku built here from its
#           sources (TDOKU_SRC, else a clone of its repository; skipped, and said so, without them): the same runs and the serg set against tdoku's
#           whole process (`solve`; `count` for --unique), as time ratios ours / tdoku (target
#           <= 0.77).
# check:    `--check` of 1,000,000 grids made by `-c`, against making them (`-c 1000000` into a fresh
#           file) in the same run; ratio = checking / generating, target <= 2.0 (moonshot 1.0).
# puzzles:  `-n 10000 --minimal` against the `sudoku` crate's own timing of 10000 minimal puzzles
#           (target >= 5.0 on one core); `-n 1000 -m 1|2|3` against `qqwing --generate 1000
#           --difficulty easy|intermediate|expert --one-line` (Debian package qqwing; target >= 100,
#           and >= 300 for expert on one core); each with
#           -j 1 and with all cores, ratio = our rate / its rate. Then `-n 1000000 -r 30~50` on all
#           cores: wall time and puzzles per second.
# canon:    `--canon` on the 1,000,000 grids of `-c 1000000` (target >= 1,000,000 grids/s) and on the
#           17-clue set (target >= 200,000/s), all cores; `-c 1000000 --classes` against
#           `-c 1000000` (target ratio <= 3.0); `--shuffle` of the 1,000,000 grids against
#           `-c 1000000` (target ratio <= 2.0).
# stream:   `-s` on 10,000,000 puzzles (the 17-clue set repeated, about 820 MB) into /dev/null: its
#           peak memory (target <= 256 MiB), and its rate against the rate of `-s` on the set itself
#           (read in one piece; target >= 0.9). Then `--check` of four files of 1,000,000 grids
#           together (`-c 1000000 --seed 1..4`): wall time and peak memory (target: 64 bytes a grid
#           plus 256 MiB). Needs about 1.5 GB of free space in the temporary folder.
# shard:    `-c 1000000 --shard 3/8 --seed 1` against `-c 1000000 --seed 1`, both into a fresh file;
#           target ratio <= 1.1.
# shapes (not in `all`): other shapes. `-c 1000000 --size 16` and `-c 100000 --size 25` against the
#           write floor of the same bytes (targets <= 3 and <= 5); `-j 1 -s` (and `--unique`) on
#           16x16 and 25x25 puzzle sets against a textbook dancing-links solver built here
#           (scripts/bench/dlx.c, `solve` and `count`), as speed-ups (reference time / ours; target
#           >= 20 on 16x16); `-n 1000 --size 16` and `-n 100 --size 25` (-j 1): their rates, and the
#           rate of our uniqueness checks (`-s --unique -j 1` on the puzzles made) against the
#           reference's `count` on the same file; `--rate -j 1` of those puzzles: its rate;
#           `-n 1000 --size 16 -m 2 -j 2`: its rate.
#           `--canon -j 1` of 20,000 16x16 grids of `-c` (target >= 20,000 grids/s), of the
#           16x16 puzzles of the `-n` line (target >= 5,000 puzzles/s), and of those grids shuffled
#           (target >= 20,000 grids/s). Then `-j 1 -s` of 1 GB of 16x16 puzzles (the grids with
#           every fifth cell blank, repeated): peak memory (target <= 256 MiB) and rate against the
#           same puzzles read whole (target >= 0.9). Needs about 1 GB of free temporary space.
# hard (not in `all`): `-n 1000 --hard` and `-n 1000 --hard --minimal` on all cores: rate (target
#           >= 10/s), and the 10th percentile, median and 90th percentile of the puzzles' mean
#           guesses over 10 random equivalents by our measure (--rate's guesses_mean) and by
#           tdoku's count (scripts/bench/tdoku_driver.cc `guesses FILE 10`; target median >= 34).
#           Then tdoku's generator (its generate.cc, one process per core) for the same time: its
#           distinct puzzles, the same figures. Then, without a target, `-n 4 --hard=50` again
#           and again for 10 minutes: the hardest puzzle found by both measures. Without
#           tdoku's sources (TDOKU_SRC) the tdoku figures and the generator line are skipped, and
#           the script says so. HARD_COUNT and HARD_LONG (seconds) shorten a trial run.
#
# The puzzle sets are those of $SHARED/data/puzzles (SHARED defaults to ../shared) when present;
# otherwise each set is the matching sample of tests/data repeated to a similar size, and the lines
# name the sample instead of the set. The first line printed names the commit, the machine and the
# data.
#
# Commands alternate A B A B ..., each timed as a whole process; a file written by a run is removed
# before the next one, so no run pays for truncating an old file. Needs bash 5, cargo and rustc,
# crates.io (once, for the `sudoku` crate), /usr/bin/time (Debian package `time`) and, for
# `puzzles`, qqwing (Debian package `qqwing`). The references are built in target/bench.
#
# A section is a function bench_NAME plus its name in `sections` (or `extra_sections`) at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$root/../shared}
what=${1:-all}
runs=${2:-7}
[[ -n ${EPOCHREALTIME:-} ]] || { echo "bench.sh: needs bash 5 or later (EPOCHREALTIME)" >&2; exit 1; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench.sh: RUNS must be a positive count, not '$runs'" >&2; exit 2; }
refs=$root/target/bench
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

# The write floor, built from its source with plain rustc when the source is newer than the binary.
write_floor() {
  local bin=$refs/write-floor source=$root/scripts/bench/write_floor.rs
  if [[ ! -x $bin || $source -nt $bin ]]; then
    mkdir -p "$refs"
    rustc --edition 2024 -O -o "$bin" "$source" >&2
  fi
  echo "$bin"
}

# The `sudoku` crate's timing program, built from a copy of scripts/bench/sudoku-crate (its lock
# file pins the crate's version) so that nothing of it lands in the source tree.
sudoku_crate() {
  local dir=$refs/sudoku-crate
  mkdir -p "$refs"
  cp -Rp "$root/scripts/bench/sudoku-crate" "$refs/"
  cargo build --release --quiet --locked --manifest-path "$dir/Cargo.toml" >&2 || {
    echo "bench.sh: building the \`sudoku\` crate's timing program failed (it needs crates.io once)" >&2
    return 1
  }
  echo "$dir/target/release/sudoku-crate"
}

# puzzle_set NAME: "FILE LABEL" of the puzzle set NAME of $shared/data/puzzles, or of its fallback:
# the matching sample of tests/data repeated to a similar size, labelled "sample_... xREPEATS".
puzzle_set() {
  local name=$1 file=$shared/data/puzzles/$1.txt
  if [[ -f $file ]]; then
    echo "$file $name"
    return
  fi
  local sample repeats
  case $name in
    puzzles2_17_clue) sample=sample_17_clue repeats=800 ;;
    puzzles1_unbiased_first1000) sample=sample_unbiased repeats=17 ;;
    puzzles5_forum_hardest_1905_11plus) sample=sample_forum_hardest repeats=800 ;;
    puzzles7_serg_benchmark) sample=sample_serg repeats=250 ;;
    *) echo "bench.sh: no fallback for puzzle set $name" >&2; return 1 ;;
  esac
  file=$work/$sample.x$repeats.txt
  if [[ ! -f $file ]]; then
    for ((i = 0; i < repeats; i++)); do cat "$root/tests/data/$sample.txt"; done > "$file"
  fi
  echo "$file $sample x$repeats"
}

# The textbook dancing-links solver, built from its source with cc when the source is newer.
dlx() {
  local bin=$refs/dlx source=$root/scripts/bench/dlx.c
  if [[ ! -x $bin || $source -nt $bin ]]; then
    mkdir -p "$refs"
    cc -O2 -o "$bin" "$source" >&2
  fi
  echo "$bin"
}

# shape_set NAME REPEATS: "FILE LABEL" of the sample set NAME.txt of $shared/data/shapes (else of
# tests/data/shapes, the same file), repeated REPEATS times so that a run lasts long enough to time.
shape_set() {
  local name=$1 repeats=$2 source=$shared/data/shapes/$1.txt
  [[ -f $source ]] || source=$root/tests/data/shapes/$1.txt
  local file=$work/$name.x$repeats.txt
  for ((i = 0; i < repeats; i++)); do cat "$source"; done > "$file"
  echo "$file $name x$repeats"
}

# speedup NAME TARGET -- A... -- B...: B's median time over A's (higher is better).
speedup() {
  local name=$1 target=$2
  shift 3
  local ma mb
  read -r ma mb < <(alternate "$@")
  awk -v n="$name" -v a="$ma" -v b="$mb" -v t="$target" -v r="$runs" \
    'BEGIN { printf "%-34s %8.4f s  reference %8.4f s  speed-up %6.2f  (target %s, median of %d)\n", n, a, b, b / a, t, r }'
}

# The line that says what produced the lines after it.
describe_run() {
  local commit cpu data
  commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
  [[ -z $(git -C "$root" status --porcelain 2>/dev/null) ]] || commit+=" (uncommitted changes)"
  cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
  data="tests/data samples (no ${SHARED:-../shared}/data/puzzles)"
  [[ -d $shared/data/puzzles ]] && data=${SHARED:-../shared}/data/puzzles
  echo "# commit $commit; ${cpu:-unknown cpu}, $(nproc) cores, Linux $(uname -r); $(rustc --version | cut -d' ' -f1,2); data: $data; $runs runs"
}

bench_generate() {
  local grid_bytes=162999999 line_bytes=82000000
  local floor
  floor=$(write_floor)
  compare "generate grid 1M" "<= 1.5" -- "$bin" -c 1000000 -- "$floor" "$grid_bytes"
  compare "generate line 1M" "<= 1.5" -- "$bin" -c 1000000 --format line -- "$floor" "$line_bytes"
  local limit=$(( grid_bytes / 1048576 + 16 ))
  echo "generate grid 1M peak memory $(peak_mib "$bin" -c 1000000) MiB (limit: output + 16 MiB = $limit MiB)"
}

# Median rate the reference prints over $runs runs of "$@".
reference_rate() {
  for ((i = 0; i < runs; i++)); do printed_rate "$@"; done | median
}

# Median wall time of $runs runs of "$@" (after one warm-up).
median_wall() {
  wall "$@" > /dev/null
  for ((i = 0; i < runs; i++)); do wall "$@"; echo; done | median
}

bench_solve() {
  local crate
  crate=$(sudoku_crate)
  local sets=(puzzles2_17_clue:1.0 puzzles1_unbiased_first1000:1.0 puzzles5_forum_hardest_1905_11plus:1.5)
  for entry in "${sets[@]}"; do
    local target=${entry##*:} file label
    read -r file label < <(puzzle_set "${entry%%:*}")
    local count
    count=$(grep -cv '^#' "$file")
    for mode in first unique; do
      local flag=() crate_mode=solve-first
      if [[ $mode == unique ]]; then flag=(--unique); crate_mode=solve-unique; fi
      local secs ours theirs
      read -r secs theirs < <(in_turn wall printed_rate "$bin" -j 1 "${flag[@]}" -s "$file" -- \
        "$crate" "$crate_mode" "$file")
      ours=$(awk -v n="$count" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')
      awk -v n="solve $mode $label" -v a="$ours" -v b="$theirs" -v t="$target" -v r="$runs" \
        'BEGIN { printf "%-50s %9d/s  reference %9d/s  ratio %5.2f  (target >= %s, median of %d)\n", n, a, b, a / b, t, r }'
    done
  done
  against_tdoku
  # A run takes 0.04-0.08 s, and a second thread feels whatever else the machine runs more than a
  # first: at least 15 pairs, so that one slow spell does not move the median.
  local one two file label pairs=$(( runs > 15 ? runs : 15 ))
  read -r file label < <(puzzle_set puzzles2_17_clue)
  read -r one two < <(runs=$pairs alternate "$bin" -j 1 -s "$file" -- "$bin" -j 2 -s "$file")
  awk -v n="solve -j 2 $label" -v a="$one" -v b="$two" -v r="$pairs" \
    'BEGIN { printf "%-50s %8.4f s  -j 1 %8.4f s  speed-up %5.2f  (target >= 1.9, median of %d)\n", n, b, a, a / b, r }'
}

# tdoku (https://github.com/t-dillon/tdoku, the fastest published 9x9 solver, and its hard-puzzle
# generator), built here with g++ from a checkout of its sources: $TDOKU_SRC when given, else a
# shallow clone of its repository into the references' folder. Sets tdoku (our driver over its solver, scripts/bench/tdoku_driver.cc) and
# tdoku_generate, both empty when the sources cannot be had or there is no g++, and says so once.
tdoku=
tdoku_generate=
tdoku_tools() {
  local src=${TDOKU_SRC:-$refs/tdoku-src} driver=$root/scripts/bench/tdoku_driver.cc
  [[ -n $tdoku ]] && return
  if [[ -z ${TDOKU_SRC:-} && ! -f $src/src/solver_dpll_triad_simd.cc ]]; then
    rm -rf "$src"
    mkdir -p "$refs"
    git clone --quiet --depth 1 https://github.com/t-dillon/tdoku "$src" > /dev/null 2>&1 || true
  fi
  if [[ ! -f $src/src/solver_dpll_triad_simd.cc ]] || ! command -v g++ > /dev/null; then
    echo "bench.sh: no tdoku sources (TDOKU_SRC, or a clone of github.com/t-dillon/tdoku) or no g++: the tdoku lines are skipped" >&2
    return
  fi
  mkdir -p "$refs"
  local newest
  newest=$(ls -t "$driver" "$src"/src/* "$src"/include/* | head -1)
  if [[ ! -x $refs/tdoku-driver || $newest -nt $refs/tdoku-driver ]]; then
    g++ -O3 -march=native -std=c++17 -I"$src/include" -o "$refs/tdoku-driver" "$driver" \
      "$src/src/solver_dpll_triad_simd.cc" "$src/src/util.cc" >&2
    g++ -O3 -march=native -std=c++17 -I"$src/src" -I"$src/include" -o "$refs/tdoku-generate" \
      "$src/src/generate.cc" "$src/src/solver_dpll_triad_simd.cc" "$src/src/util.cc" >&2
  fi
  tdoku=$refs/tdoku-driver
  tdoku_generate=$refs/tdoku-generate
}

# Exit code 1 is a result here (`-s --unique` of puzzles with two solutions), not a failure; what
# either program says of each puzzle or of its own timing is no line of the benchmark.
results() { "$@" 2>/dev/null || [[ $? == 1 ]]; }

# `-j 1 -s SET` (and `--unique`) against tdoku's whole process (`tdoku-driver solve`, and `count`,
# its limit of 2), on every public set, when tdoku could be built: time ratio ours / tdoku.
against_tdoku() {
  tdoku_tools
  if [[ -z $tdoku ]]; then
    echo "solve vs tdoku: skipped (no tdoku sources: set TDOKU_SRC to a checkout of tdoku)"
    return
  fi
  local set file label mode ours theirs
  for set in puzzles2_17_clue puzzles1_unbiased_first1000 puzzles5_forum_hardest_1905_11plus \
    puzzles7_serg_benchmark; do
    read -r file label < <(puzzle_set "$set")
    for mode in first unique; do
      local flag=() tdoku_mode=solve
      if [[ $mode == unique ]]; then flag=(--unique); tdoku_mode=count; fi
      read -r ours theirs < <(alternate results "$bin" -j 1 "${flag[@]}" -s "$file" -- \
        results "$tdoku" "$tdoku_mode" "$file")
      awk -v n="solve $mode $label vs tdoku" -v a="$ours" -v b="$theirs" -v r="$runs" \
        'BEGIN { printf "%-50s %8.4f s  tdoku %8.4f s  time ratio %5.2f  (target <= 0.77, median of %d)\n", n, a, b, a / b, r }'
    done
  done
}

bench_check() {
  local grids=$work/grids.txt
  "$bin" -c 1000000 -o "$grids"
  compare "check 1M grids" "<= 2.0" -- "$bin" --check "$grids" --count 1000000 -- "$bin" -c 1000000
  echo "check 1M grids peak memory $(peak_mib "$bin" --check "$grids") MiB (limit: 64 bytes a grid + 256 MiB = 317 MiB)"
}

# rate_line NAME COUNT SECONDS REFERENCE_RATE TARGET: one line of a rate against a reference rate.
rate_line() {
  awk -v n="$1" -v c="$2" -v s="$3" -v b="$4" -v t="$5" -v r="$runs" \
    'BEGIN { printf "%-50s %9.0f/s  reference %9.0f/s  ratio %6.2f  (target >= %s, median of %d)\n", n, c / s, b, c / s / b, t, r }'
}

# puzzles_against_qqwing CORES: `-n 1000 -m LEVEL` on one core and on CORES against qqwing's rate.
puzzles_against_qqwing() {
  local level secs theirs names=(easy intermediate expert)
  for level in 1 2 3; do
    theirs=$(median_wall qqwing --generate 1000 --difficulty "${names[level - 1]}" --one-line |
      awk '{ printf "%.2f", 1000 / $1 }')
    for j in 1 "$1"; do
      secs=$(median_wall "$bin" -j "$j" -n 1000 -m "$level" --format line)
      # Expert puzzles: 300x on one core; the other levels keep their earlier 100x.
      rate_line "puzzles -n 1000 -m $level -j $j vs qqwing ${names[level - 1]}" 1000 "$secs" "$theirs" \
        "$(if ((level == 3)); then echo 300; else echo 100; fi)"
    done
  done
}

bench_puzzles() {
  local cores secs theirs crate
  cores=$(nproc)
  crate=$(sudoku_crate)
  theirs=$(reference_rate "$crate" puzzles 10000)
  for j in 1 "$cores"; do
    secs=$(median_wall "$bin" -j "$j" -n 10000 --minimal --format line)
    rate_line "puzzles -n 10000 --minimal -j $j" 10000 "$secs" "$theirs" 5.0
  done
  if command -v qqwing > /dev/null; then
    puzzles_against_qqwing "$cores"
  else
    echo "bench.sh: qqwing not found, no -m lines: install Debian's package (sudo apt-get install qqwing)" >&2
  fi
  secs=$(median_wall "$bin" -n 1000000 -r 30~50 --format line)
  awk -v s="$secs" -v r="$runs" -v c="$cores" \
    'BEGIN { printf "%-50s %9.2f s  %9.0f puzzles/s  (%d cores, median of %d)\n", "puzzles -n 1000000 -r 30~50", s, 1e6 / s, c, r }'
}

bench_canon() {
  local grids=$work/canon-grids.txt puzzles label secs count
  read -r puzzles label < <(puzzle_set puzzles2_17_clue)
  "$bin" -c 1000000 --format line -o "$grids"
  secs=$(median_wall "$bin" --canon "$grids")
  awk -v s="$secs" -v r="$runs" \
    'BEGIN { printf "%-34s %9.0f grids/s    %8.4f s  (target >= 1000000/s, median of %d)\n", "canon 1M grids of -c", 1e6 / s, s, r }'
  count=$(grep -cv '^#' "$puzzles")
  secs=$(median_wall "$bin" --canon "$puzzles")
  awk -v s="$secs" -v c="$count" -v r="$runs" -v l="$label" \
    'BEGIN { printf "%-34s %9.0f puzzles/s  %8.4f s  (target >= 200000/s, median of %d)\n", "canon " l, c / s, s, r }'
  compare "classes -c 1M" "<= 3.0" -- "$bin" -c 1000000 --classes -- "$bin" -c 1000000
  compare "shuffle 1M grids" "<= 2.0" -- "$bin" --shuffle "$grids" -- "$bin" -c 1000000
}

bench_stream() {
  local set label big=$work/stream-10M.txt one=$work/stream-one.txt count secs_big secs_one
  read -r set label < <(puzzle_set puzzles2_17_clue)
  grep -v '^#' "$set" | grep -v '^$' > "$one"
  count=$(wc -l < "$one")
  {
    for ((i = 0; i < 10000000 / count; i++)); do cat "$one"; done
    head -n $(( 10000000 % count )) "$one"
  } > "$big"
  echo "stream -s 10M puzzles ($label repeated) peak memory $(peak_mib "$bin" -s "$big" -o /dev/null) MiB (target <= 256 MiB)"
  read -r secs_big secs_one < <(alternate "$bin" -s "$big" -o /dev/null -- "$bin" -s "$one" -o /dev/null)
  awk -v a="$secs_big" -v b="$secs_one" -v c="$count" -v r="$runs" -v l="$label" \
    'BEGIN { printf "stream -s 10M puzzles %9.0f/s  %s whole %9.0f/s  ratio %5.2f  (target >= 0.9, median of %d)\n", 1e7 / a, l, c / b, (1e7 / a) / (c / b), r }'
  rm -f "$big" "$one"
  local parts=()
  for seed in 1 2 3 4; do
    "$bin" -c 1000000 --seed "$seed" -o "$work/part-$seed.txt"
    parts+=("$work/part-$seed.txt")
  done
  secs_big=$(median_wall "$bin" --check "${parts[@]}")
  echo "stream --check 4 files of 1M grids $secs_big s, peak memory $(peak_mib "$bin" --check "${parts[@]}") MiB (limit: 64 bytes a grid + 256 MiB = 500 MiB)"
  rm -f "${parts[@]}"
}

bench_shard() {
  compare "shard -c 1M 3/8" "<= 1.1" -- "$bin" -c 1000000 --shard 3/8 --seed 1 -- "$bin" -c 1000000 --seed 1
}

bench_shapes() {
  local floor ref file label
  floor=$(write_floor)
  ref=$(dlx)
  compare "generate 16x16 1M" "<= 3" -- "$bin" -c 1000000 --size 16 -- "$floor" 512999999
  compare "generate 25x25 100k" "<= 5" -- "$bin" -c 100000 --size 25 -- "$floor" 125099999
  for set in "16x16 20" "25x25 20"; do
    read -r file label < <(shape_set $set)
    speedup "solve $label" ">= 20" -- "$bin" -j 1 -s "$file" -- "$ref" solve "$file"
    speedup "solve --unique $label" ">= 20" -- "$bin" -j 1 -s "$file" --unique -- "$ref" count "$file"
  done
  local size count time made
  for job in "16 1000" "25 100"; do
    read -r size count <<< "$job"
    time=$(for ((i = 0; i < runs; i++)); do wall "$bin" -j 1 -n "$count" --size "$size" --format line; done | median)
    made=$work/made$size.txt
    "$bin" -j 1 -n "$count" --size "$size" --format line --seed 1 > "$made"
    awk -v n="-n $count --size $size" -v t="$time" -v c="$count" -v r="$runs" \
      'BEGIN { printf "%-34s %8.4f s  %9.1f puzzles/s  (median of %d)\n", n, t, c / t, r }'
    speedup "uniqueness checks of those $size" "none" -- "$bin" -j 1 -s "$made" --unique -- "$ref" count "$made"
    time=$(for ((i = 0; i < runs; i++)); do wall "$bin" -j 1 --rate "$made"; done | median)
    awk -v n="--rate of those $size" -v t="$time" -v c="$count" -v r="$runs" \
      'BEGIN { printf "%-34s %8.4f s  %9.1f puzzles/s  (median of %d)\n", n, t, c / t, r }'
  done
  count=1000
  time=$(for ((i = 0; i < runs; i++)); do wall "$bin" -j 2 -n "$count" --size 16 -m 2 --format line; done | median)
  awk -v n="-n $count --size 16 -m 2 -j 2" -v t="$time" -v c="$count" -v r="$runs" \
    'BEGIN { printf "%-34s %8.4f s  %9.1f puzzles/s  (median of %d)\n", n, t, c / t, r }'
  # --canon on one core: 16x16 complete grids of -c, then the puzzles of the -n line above.
  local grids=$work/grids16.txt
  "$bin" -c 20000 --size 16 --format line --seed 1 > "$grids"
  time=$(for ((i = 0; i < runs; i++)); do wall "$bin" -j 1 --canon "$grids"; done | median)
  awk -v t="$time" -v r="$runs" \
    'BEGIN { printf "%-34s %9.0f grids/s    %8.4f s  (target >= 20000/s, median of %d)\n", "canon 16x16 grids of -c", 20000 / t, t, r }'
  time=$(for ((i = 0; i < runs; i++)); do wall "$bin" -j 1 --canon "$work/made16.txt"; done | median)
  awk -v t="$time" -v r="$runs" \
    'BEGIN { printf "%-34s %9.0f puzzles/s  %8.4f s  (target >= 5000/s, median of %d)\n", "canon 16x16 puzzles of -n", 1000 / t, t, r }'
  # The same grids in random arrangements and relabellings, whose first rows -c does not share.
  "$bin" --shuffle "$grids" --seed 1 > "$work/shuffled16.txt"
  time=$(for ((i = 0; i < runs; i++)); do wall "$bin" -j 1 --canon "$work/shuffled16.txt"; done | median)
  awk -v t="$time" -v r="$runs" \
    'BEGIN { printf "%-34s %9.0f grids/s    %8.4f s  (target >= 20000/s, median of %d)\n", "canon 16x16 grids shuffled", 20000 / t, t, r }'
  rm -f "$work/shuffled16.txt"
  bench_stream16 "$grids"
}

# `-s` of 1 GB of 16x16 puzzles, streamed, against the same puzzles read whole: the grids of file
# $1 with every fifth cell blank, which reasoning alone solves, so that reading weighs the most.
bench_stream16() {
  local one=$work/stream16-one.txt big=$work/stream16-1G.txt count total secs_big secs_one
  awk '{ s = $0; for (i = 1; i <= length(s); i += 5) s = substr(s, 1, i - 1) "." substr(s, i + 1); print s }' "$1" > "$one"
  count=$(wc -l < "$one")
  total=$(( (1000000000 / $(stat -c %s "$one") + 1) * count ))
  for ((i = 0; i < total / count; i++)); do cat "$one"; done > "$big"
  echo "stream -s 1 GB of 16x16 ($total puzzles) peak memory $(peak_mib "$bin" -j 1 -s "$big" -o /dev/null) MiB (target <= 256 MiB)"
  read -r secs_big secs_one < <(alternate "$bin" -j 1 -s "$big" -o /dev/null -- "$bin" -j 1 -s "$one" -o /dev/null)
  awk -v a="$secs_big" -v b="$secs_one" -v t="$total" -v c="$count" -v r="$runs" \
    'BEGIN { printf "stream -s 1 GB of 16x16 %9.0f/s  read whole %9.0f/s  ratio %5.2f  (target >= 0.9, median of %d)\n", t / a, c / b, (t / a) / (c / b), r }'
  rm -f "$big" "$one"
}

# The 10th percentile, median and 90th percentile of the numbers on standard input.
percentiles() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "none"; exit }
    printf "p10 %.1f median %.1f p90 %.1f", v[int(NR * 0.1) + 1], v[int((NR + 1) / 2)], v[int(NR * 0.9) + 1] }'
}

# "ours: ... tdoku: ..." for the puzzles of file $1 (one a line).
hard_measures() {
  local ours theirs="skipped (no tdoku)"
  ours=$("$bin" --rate "$1" | tail -n +2 | awk -F, '{ print $NF }' | percentiles)
  [[ -n $tdoku ]] && theirs=$("$tdoku" guesses "$1" 10 2> /dev/null | awk '{ print $2 }' | percentiles)
  echo "ours $ours; tdoku $theirs"
}

bench_hard() {
  local count=${HARD_COUNT:-1000} long=${HARD_LONG:-600} cores secs made
  cores=$(nproc)
  tdoku_tools
  for extra in "" "--minimal"; do
    made=$work/hard.txt
    # shellcheck disable=SC2086
    secs=$(wall "$bin" -n "$count" --hard $extra --format line --seed 1)
    mv "$work/out" "$made"
    awk -v n="-n $count --hard $extra" -v s="$secs" -v c="$count" -v j="$cores" \
      'BEGIN { printf "%-28s %8.1f s %7.2f puzzles/s (target >= 10, %d cores); ", n, s, c / s, j }'
    echo "$(hard_measures "$made") (target tdoku median >= 34)"
    hard_secs=$secs
  done
  if [[ -n $tdoku ]]; then
    for ((i = 0; i < cores; i++)); do
      timeout "$hard_secs" "$tdoku_generate" -p 0 -s 0 -c 0 -g 1 -e 10 -n 200 -m 1 > "$work/tdoku$i.txt" &
    done
    wait || true
    cat "$work"/tdoku*.txt | awk 'length($1) == 81 { print $1 }' | sort -u > "$work/tdoku.txt"
    awk -v s="$hard_secs" -v c="$(wc -l < "$work/tdoku.txt")" -v j="$cores" \
      'BEGIN { printf "%-28s %8.1f s %7.2f puzzles/s (%d processes, every pool entry); ", "tdoku generate", s, c / s, j }'
    echo "$(hard_measures "$work/tdoku.txt")"
  fi
  : > "$work/harder.txt"
  local start=$EPOCHREALTIME seed=1
  while awk -v a="$start" -v b="$EPOCHREALTIME" -v l="$long" 'BEGIN { exit !(b - a < l) }'; do
    "$bin" -n 4 --hard=50 --format line --seed "$seed" --quiet >> "$work/harder.txt"
    seed=$((seed + 1))
  done
  local ours theirs="skipped (no tdoku)"
  ours=$("$bin" --rate "$work/harder.txt" | tail -n +2 | awk -F, '{ print $NF }' | sort -g | tail -1)
  [[ -n $tdoku ]] && theirs=$("$tdoku" guesses "$work/harder.txt" 10 2> /dev/null | awk '{ print $2 }' | sort -g | tail -1)
  echo "hard --hard=50 for ${long} s: $(wc -l < "$work/harder.txt") puzzles; hardest: ours $ours, tdoku $theirs (no target)"
}

sections=(generate solve check puzzles canon stream shard)
extra_sections=(shapes hard)
if [[ $what == all ]]; then
  chosen=("${sections[@]}")
elif [[ " ${sections[*]} ${extra_sections[*]} " == *" $what "* ]]; then
  chosen=("$what")
else
  echo "bench.sh: unknown section '$what' (${sections[*]} ${extra_sections[*]} all)" >&2
  exit 2
fi
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin=$root/target/release/sudoku-gen
describe_run
for section in "${chosen[@]}"; do "bench_$section"; done
