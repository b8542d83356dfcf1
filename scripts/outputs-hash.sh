#!/usr/bin/env bash
# Hash the outputs of a fixed list of sudoku-gen command lines, so that a refactor can show that
# every output stays byte-identical:
#
#   scripts/outputs-hash.sh [BINARY] > hashes.txt    # BINARY: default target/release/sudoku-gen
#
# One line per case, `<sha256 of stdout>  <exit code>  <command line>`, then `total <sha256 of those
# lines>`. Compare two binaries by diffing their files (or just the totals). Stderr is not hashed:
# its wording may change freely, its exit code may not. Every case is seeded and runs with -j 1,
# and inputs are tests/data/ files or earlier cases' outputs, so a run depends on nothing else.
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${1:-$root/target/release/sudoku-gen}
[[ $bin == /* ]] || bin=$PWD/$bin # the cases run in the temporary folder
if [[ ! -x $bin ]]; then
    echo "outputs-hash.sh: $bin: not an executable file" >&2
    exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
# Outputs name their files (--check reports): run inside the temporary folder, with tests/ under
# its repo-relative name, so that no path depends on where the clone or the folder lives.
ln -s "$root/tests" tests
D=tests/data
S=tests/data/shapes

# run ARGS...: one case. IN=FILE feeds FILE on stdin instead of /dev/null; KEEP=NAME keeps the
# stdout as NAME for later cases. argv[0] is always sudoku-gen, whatever BINARY's file name, in case
# an output quotes it.
run() {
    local in=${IN:-/dev/null} keep=${KEEP:-} cmd="sudoku-gen $*" rc sum
    (exec -a sudoku-gen "$bin" "$@") <"$in" >.out 2>/dev/null
    rc=$?
    [[ -n ${IN:-} ]] && cmd+=" < $in"
    [[ -n $keep ]] && { cp .out "$keep"; cmd+=" > $keep"; }
    sum=$(sha256sum <.out)
    printf '%s  %s  %s\n' "${sum%% *}" "$rc" "$cmd" | tee -a .lines
}

start=$SECONDS

# ---- 9x9 -c
run -c 100000 --seed 1 -j 1
run -c 100000 --seed 1 -j 1 --format line
run -c 3 --seed 42 -j 1
KEEP=c.txt run -c 1000 --seed 1 -j 1
run -c 20 --first 7 --seed 2 -j 1
run -c 10000 --first 1 --seed 3 -j 1 --format line
run -c 100000 --classes --seed 1 -j 1 --format line
KEEP=cls.txt run -c 10000 --classes --seed 1 -j 1
run -c 1000 --classes --first 5 --seed 2 -j 1 --format line
KEEP=shard1.txt run -c 10000 --shard 1/3 --seed 9 -j 1 --format line
KEEP=shard2.txt run -c 10000 --shard 2/3 --seed 9 -j 1 --format line
KEEP=shard3.txt run -c 10000 --shard 3/3 --seed 9 -j 1
run -c 10 --size 9 --box 3x3 --seed 1 -j 1 --format line
run -c 1000 --seed 4 -j 1 -o o.txt
run -c 5 --seed 4 -j 1 -o -

# ---- 9x9 -n
run -n 1000 --seed 1 -j 1
KEEP=n.txt run -n 1000 --seed 1 -j 1 --format line
KEEP=ng.txt run -n 300 --seed 2 -j 1 --format grid
KEEP=p.csv run -n 1000 --seed 7 -j 1 --format csv
run -n 300 -m 1 --seed 1 -j 1 --format csv
run -n 300 -m 2 --seed 1 -j 1 --format csv
run -n 300 -m 3 --seed 1 -j 1 --format csv
run -n 300 -m 2 -r 30~45 --seed 1 -j 1 --format line
run -n 1000 -r 30~45 --seed 1 -j 1 --format line
run -n 300 -r 40-40 --seed 1 -j 1 --format csv
run -n 300 --minimal --seed 1 -j 1 --format csv
run -n 300 -m 3 --minimal --seed 1 -j 1 --format csv
run -n 300 --symmetric --seed 1 -j 1
run -n 300 -m 1 --symmetric -r 40~50 --seed 1 -j 1 --format csv
run -n 300 --minimal --symmetric -r 55~57 --seed 1 -j 1 --format line
run -n 300 --guesses 3~9 --seed 1 -j 1 --format csv
run -n 300 --guesses 0~0 -r 40~50 --seed 1 -j 1 --format csv
run -n 300 -u --seed 1 -j 1 --format line
KEEP=ncls.txt run -n 300 --classes --seed 1 -j 1 --format line
run -n 300 --classes --minimal --seed 1 -j 1 --format csv
KEEP=nshard1.txt run -n 300 --shard 1/2 --seed 5 -j 1 --format line
KEEP=nshard2.txt run -n 300 --shard 2/2 --seed 5 -j 1 --format line
run -n 300 --shard 1/2 --classes --seed 5 -j 1 --format line

# ---- 9x9 -n --hard (short runs: low levels; forks past the lineages' climb at -n 40)
KEEP=h.csv run -n 3 --hard=8 --seed 3 -j 1 --format csv
run -n 40 --hard=3 --seed 2 -j 1 --format line
run -n 2 --hard=6 --symmetric --classes --shard 1/2 --seed 1 -j 1 --format line
run -n 5 --hard=12 --minimal --first 5 --seed 4 -j 1 --format csv
run -n 200 --hard=2 --classes --seed 5 -j 1 --format line
run --rate h.csv -j 1
run -n 5 --hard=51 --seed 1 -j 1
run -n 5 --hard=11 --symmetric --seed 1 -j 1

# ---- -s (line, grid, CSV and standard input)
KEEP=s17.txt run -s $D/sample_17_clue.txt -j 1
KEEP=s17g.txt run -s $D/sample_17_clue.txt -j 1 --format grid
run -s $D/sample_unbiased.txt -j 1 --unique
run -s $D/sample_forum_hardest.txt -j 1 --unique --format line
run -s $D/sample_serg.txt -j 1
run -s $D/sample_serg.txt -j 1 --unique
KEEP=ns.txt run -s n.txt -j 1
KEEP=nsg.txt run -s ng.txt -j 1
run -s ng.txt -j 1 --format line
KEEP=nscls.txt run -s ncls.txt -j 1
IN=$D/sample_17_clue.txt run -s - -j 1
run -s p.csv -j 1
run -s p.csv -j 1 --unique
run -s p.csv -j 1 --column solution

# ---- --rate
run --rate $D/sample_17_clue.txt -j 1
run --rate $D/sample_unbiased.txt -j 1
run --rate $D/sample_forum_hardest.txt -j 1
run --rate $D/sample_serg.txt -j 1
run --rate n.txt -j 1
run --rate ng.txt -j 1
run --rate p.csv -j 1
IN=n.txt run --rate - -j 1

# ---- --canon
run --canon $D/sample_17_clue.txt -j 1
run --canon $D/c3_seed42.grid.txt -j 1
run --canon cls.txt -j 1
run --canon n.txt -j 1
run --canon p.csv -j 1
IN=ng.txt run --canon - -j 1

# ---- --shuffle
run --shuffle $D/sample_17_clue.txt --seed 5 -j 1
run --shuffle $D/c3_seed42.grid.txt --seed 5 -j 1 --format line
run --shuffle cls.txt --seed 1 -j 1
run --shuffle n.txt --seed 2 -j 1 --format grid
KEEP=shuf.csv run --shuffle p.csv --seed 3 -j 1
run --shuffle p.csv --seed 3 -j 1 --format line

# ---- --check
run --check $D/c3_seed42.grid.txt -j 1
run --check $D/c3_seed42.line.txt -j 1 --count 3
run --check $D/c3_seed42.line.txt -j 1 --count 4
run --check $D/c3_seed42.line.txt $D/c3_seed42.grid.txt -j 1
run --check $D/c3_seed42.line.txt -j 1 --first 1
run --check shard1.txt shard2.txt shard3.txt -j 1 --count 30000
run --check c.txt cls.txt -j 1
run --check cls.txt -j 1 --classes --count 10000
run --check c.txt -j 1 --classes
run --check o.txt -j 1 --count 1000
IN=o.txt run --check - -j 1 --count 1000
run --check s17.txt --puzzles $D/sample_17_clue.txt -j 1
run --check s17g.txt --puzzles $D/sample_17_clue.txt -j 1 --count 60
run --check s17g.txt --puzzles $D/sample_17_clue.txt -j 1 --count 61
run --check s17.txt --puzzles $D/sample_unbiased.txt -j 1
run --check ns.txt --puzzles n.txt -j 1 --count 1000
run --check nsg.txt --puzzles ng.txt -j 1
run --check nscls.txt --puzzles ncls.txt -j 1 --classes
run --check $D/c3_seed42.grid.txt --puzzles - -j 1
run --check p.csv -j 1
run --check p.csv -j 1 --unique
run --check shuf.csv -j 1 --unique
run --check $D/sample_17_clue.txt -j 1

# ---- --print
run --print -j 1
run --print --plan pair -j 1

# ---- 4x4
KEEP=c4.txt run -c 288 --size 4 --seed 1 -j 1
run -c 100 --size 4 --seed 2 -j 1 --format line
KEEP=n4.txt run -n 100 --size 4 --seed 1 -j 1 --format line
run -n 100 --size 4 --seed 1 -j 1
run -n 100 --size 4 -r 5~9 --symmetric --seed 1 -j 1 --format line
run -n 100 --size 4 --minimal --seed 1 -j 1 --format line
KEEP=s4.txt run -s $S/4x4.txt -j 1
run -s n4.txt -j 1 --size 4 --format grid
run --check c4.txt -j 1 --count 288
run --check s4.txt --puzzles $S/4x4.txt -j 1

# ---- 6x6, and 6x6 X-Sudoku
run -c 10000 --size 6 --seed 1 -j 1 --format line
KEEP=c6.txt run -c 1000 --size 6 --seed 1 -j 1
run -n 100 --size 6 --seed 1 -j 1 --format line
run -n 100 --size 6 -r 15~20 --seed 1 -j 1 --format line
run -n 100 --size 6 --minimal --seed 1 -j 1 --format line
run -n 100 --size 6 --symmetric --seed 1 -j 1
KEEP=s6.txt run -s $S/6x6.txt -j 1
run -s $S/6x6.txt -j 1 --unique --format grid
run --check s6.txt --puzzles $S/6x6.txt -j 1
run --check c6.txt -j 1 --count 1000
KEEP=cx6.txt run -c 1000 --size 6 --diagonal --seed 1 -j 1
KEEP=nx6.txt run -n 100 --size 6 --diagonal -r 15~22 --seed 1 -j 1 --format line
KEEP=sx6.txt run -s nx6.txt --diagonal -j 1
run --check sx6.txt --puzzles nx6.txt --diagonal -j 1
run --check cx6.txt --diagonal -j 1

# ---- 12x12
KEEP=c12.txt run -c 10000 --size 12 --seed 1 -j 1 --format line
run -c 1000 --size 12 --seed 2 -j 1
run -c 1000 --size 12 --box 2x6 --seed 1 -j 1 --format line
run -c 1000 --size 12 --box 3x4 --seed 1 -j 1 --format line
KEEP=n12.txt run -n 50 --size 12 --seed 1 -j 1 --format line
run -n 50 --size 12 -r 60~80 --seed 1 -j 1 --format line
run -n 50 --size 12 --box 2x6 -r 60~80 --symmetric --seed 1 -j 1
KEEP=s12.txt run -s $S/12x12.txt -j 1
run -s n12.txt -j 1 --unique
run --check s12.txt --puzzles $S/12x12.txt -j 1
run --check c12.txt -j 1 --count 10000 --size 12
run --check c12.txt -j 1 --size 12 --box 2x6
# Outputs of another split or alphabet read back without the flag.
KEEP=n12b.txt run -n 20 --size 12 --box 2x6 --seed 3 -j 1
run -s n12b.txt -j 1
KEEP=n16h.txt run -n 20 --size 16 --symbols 0123456789ABCDEF --seed 3 -j 1
run -s n16h.txt -j 1
run -n 20 --size 6 --shard 2/3 --seed 3 -j 1 --format line

# ---- 16x16
run -c 10000 --size 16 --seed 1 -j 1 --format line
KEEP=c16.txt run -c 100 --size 16 --seed 1 -j 1
run -c 1000 --size 16 --symbols 0123456789ABCDEF --seed 1 -j 1 --format line
KEEP=n16.txt run -n 100 --size 16 --seed 1 -j 1 --format line
run -n 50 --size 16 -r 120~140 --symmetric --seed 1 -j 1 --format line
run -s $S/16x16.txt -j 1 --unique --format grid
run -s $S/acwing16.txt -j 1 --symbols ABCDEFGHIJKLMNOP
KEEP=s16.txt run -s n16.txt -j 1
run --check s16.txt --puzzles n16.txt -j 1
run --check c16.txt -j 1 --count 100

# ---- 25x25
KEEP=c25.txt run -c 200 --size 25 --seed 1 -j 1 --format line
run -c 20 --size 25 --seed 2 -j 1
KEEP=n25.txt run -n 10 --size 25 --seed 1 -j 1 --format line
run -s $S/25x25.txt -j 1
KEEP=s25.txt run -s n25.txt -j 1
run --check s25.txt --puzzles n25.txt -j 1
run --check c25.txt -j 1 --count 200

# ---- jigsaw 9x9: random layouts, and a layout of tests/data in both layout forms
# Seeds 2 and layout 3 are ones the digging handles fast; other layouts take seconds a puzzle.
sed -n 3p $S/jigsaw9_layouts.txt >layout.txt
fold -w 9 layout.txt >layout.grid.txt
KEEP=cj.txt run -c 1000 --jigsaw random --size 9 --seed 2 -j 1 --format line
run -c 100 --jigsaw random --size 9 --seed 2 -j 1
KEEP=nj.txt run -n 100 --jigsaw random --size 9 --seed 2 -j 1 --format line
run -n 100 --jigsaw random --size 9 -r 30~45 --seed 2 -j 1 --format line
run -c 1000 --jigsaw layout.txt --seed 1 -j 1 --format line
run -c 100 --jigsaw layout.grid.txt --seed 1 -j 1
IN=layout.txt run -c 10 --jigsaw - --seed 1 -j 1 --format line
KEEP=nl.txt run -n 20 --jigsaw layout.txt --seed 1 -j 1 --format line
run -n 20 --jigsaw layout.txt -r 30~45 --symmetric --seed 1 -j 1 --format line
KEEP=sj.txt run -s $S/jigsaw9.txt -j 1
run -s nj.txt -j 1 --unique
KEEP=snl.txt run -s nl.txt -j 1
run --check sj.txt --puzzles $S/jigsaw9.txt -j 1
run --check snl.txt --puzzles nl.txt -j 1
run --check cj.txt -j 1 --count 1000
run --check sj.txt -j 1

# ---- 9x9 X-Sudoku
KEEP=cx9.txt run -c 1000 --diagonal --size 9 --seed 1 -j 1 --format line
KEEP=nx9.txt run -n 100 --diagonal --size 9 --seed 1 -j 1 --format line
KEEP=sx9.txt run -s $S/x9.txt --diagonal -j 1
run -s $S/x9.txt --diagonal -j 1 --format grid
run -s $S/x9.txt -j 1
KEEP=snx9.txt run -s nx9.txt --diagonal -j 1
run --check sx9.txt --puzzles $S/x9.txt --diagonal -j 1
run --check snx9.txt --puzzles nx9.txt --diagonal -j 1
run --check cx9.txt --diagonal -j 1 --count 1000
run --check cx9.txt -j 1
run --check sx9.txt -j 1 --first 1

# ---- -n --hard on other shapes (low levels), --rate of their puzzles, and their refusals
run -n 6 --size 6 --hard=3 --seed 1 -j 1 --format csv
KEEP=h12.txt run -n 4 --size 12 --box 3x4 --hard=32 --classes --seed 1 -j 1 --format line
run --rate h12.txt -j 1
run -n 2 --size 16 --hard=8 --symmetric --seed 1 -j 1 --format line
run -n 3 --diagonal --hard=64 --seed 1 -j 1 --format csv
run -n 3 --jigsaw layout.txt --hard=32 --first 5 --shard 1/2 --seed 1 -j 1 --format csv
run -n 5 --size 6 --hard=7 --seed 1 -j 1
run -n 5 --size 4 --hard --seed 1 -j 1
run -n 5 --size 16 --diagonal --hard=1 --seed 1 -j 1

# ---- usage errors (exit 2, nothing on stdout)
run -j 1
run -c 0 -j 1
run -m 1 -j 1
run -c 10 --seed 1 -j 1 extra
run -c 10 -s $D/sample_17_clue.txt -j 1
run -c 10 --seed 1 -j 1 --format csv
run -s $D/sample_17_clue.txt -j 1 --format csv
run -s $D/sample_17_clue.txt --seed 1 -j 1
run --check $D/c3_seed42.line.txt --seed 1 -j 1
run -n 10 -m 4 --seed 1 -j 1
run -n 10 -r 50~20 --seed 1 -j 1
run -n 10 --guesses 10~12 --seed 1 -j 1
run -n 10 -m 2 --minimal --symmetric --seed 1 -j 1
run -c 10 --shard 1/2 -j 1
run -c 10 --classes --shard 1/2 --seed 1 -j 1
run -c 10 --size 7 --seed 1 -j 1
run -c 10 --box 3x4 --seed 1 -j 1
run -c 10 --diagonal --seed 1 -j 1
run -c 10 --jigsaw random --seed 1 -j 1
run -c 10 --jigsaw $S/jigsaw9_layouts.txt --seed 1 -j 1
run -s $S/jigsaw9.txt --jigsaw random -j 1
# ... and options that today are 9x9 only
run -c 100 --size 16 --first 1 --seed 1 -j 1
run -c 100 --size 16 --classes --seed 1 -j 1
run -c 100 --size 16 --shard 1/3 --seed 1 -j 1
run -n 10 --size 6 -m 1 --seed 1 -j 1
run -n 10 --size 6 --format csv --seed 1 -j 1
run -n 10 --size 6 --guesses 0~1 --seed 1 -j 1
run -n 10 --size 4 -r 10~12 --seed 1 -j 1
run -n 10 --size 16 --minimal --seed 1 -j 1
run --rate $S/6x6.txt --size 6 -j 1
run --canon $S/6x6.txt --size 6 -j 1
run --shuffle $S/6x6.txt --size 6 --seed 1 -j 1

# ---- data errors (exit 1)
run -s missing.txt -j 1
run -s $S/6x6.txt --size 4 -j 1
run --rate $S/6x6.txt -j 1
run --canon $S/12x12.txt -j 1
run -c 289 --size 4 --seed 1 -j 1
run -c 100 --size 4 --diagonal --seed 1 -j 1

sum=$(sha256sum <.lines)
echo "total ${sum%% *}"
echo "outputs-hash.sh: $(wc -l <.lines) cases in $((SECONDS - start)) s" >&2
