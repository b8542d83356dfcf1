//! Puzzles with exactly one solution: a random complete grid, dug out cell by cell.
//!
//! # Method
//! 1. **A random complete grid**: boxes 1, 5 and 9 (which share no row or column) get random
//!    permutations of 1–9, and the solver completes them. For a shard, the fillings of boxes 5 and
//!    9 are drawn among the shard's pairs, so two shards never dig the same grid.
//! 2. **Digging**: the cells (or, with `--symmetric`, the pairs of cells opposite through the centre)
//!    are visited in random order; each is emptied if the puzzle keeps exactly one solution. The test
//!    asks the solver for a solution in which the cell holds another digit, so the known solution is
//!    never searched again; two cheap looks come first: a cell that the givens force (a single) keeps
//!    the solution unique, and a cell whose removal leaves a swap set of the grid without a given
//!    (see `swap_sets`) does not. A pair of cells is tested the same way, one cell after the other:
//!    another solution would differ from this one in one of them. Digging stops at a blank count
//!    drawn from the asked range, or, without a range, after one pass over all cells, which leaves a
//!    minimal puzzle: a given that could not be removed earlier cannot be removed later, when the
//!    puzzle has fewer givens.
//! 3. **Levels**: a dug puzzle at or above the level asked gets givens of its solution back (how many:
//!    bisected, since more givens never make a puzzle harder) until it is at that level and within the
//!    range (`engine::give_back`, shared with the other shapes); see the comment of
//!    `attempt` for when this path is taken.
//! 4. **Acceptance**: blanks in range, minimality and level as asked; otherwise the attempt starts again
//!    from a new grid.
//!
//! Puzzle `k` of a request draws from its own random generator, seeded from the request's seed and
//! `k`, so the output does not depend on how the puzzles are spread over threads.

use std::ops::RangeInclusive;

use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use crate::classes::canon::canonical_form;
use crate::engine::distinct::distinct;
use crate::engine::give_back::to_level;
use crate::engine::standard::reach::Reach;
use crate::engine::standard::solve::{Givens, Solver};
use crate::jobs::rate::{Level, level_within, solves_within};
use crate::model::grid::{CELLS, Grid, HOUSES, box_cell};
use crate::model::shard::Shard;
use crate::text::format::{Format, OutputFormat, push_line};

/// What to generate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PuzzleRequest {
    /// How many puzzles.
    pub count: usize,
    /// Every output is a function of the seed (and the other fields).
    pub seed: u64,
    /// The number of blank cells, within [`BLANKS`](super::reach::BLANKS); `None` for minimal
    /// puzzles of any blank count.
    pub blanks: Option<RangeInclusive<usize>>,
    /// The difficulty level, or any.
    pub level: Option<Level>,
    /// Rate every puzzle (the csv format shows the level), even without a level asked for.
    pub with_levels: bool,
    /// Removing any given must leave more than one solution.
    pub minimal: bool,
    /// The givens have 180° rotational symmetry.
    pub symmetric: bool,
    /// The number of guesses the search makes to solve the puzzle and prove it unique, within
    /// [`GUESSES`](super::reach::GUESSES); any without.
    pub guesses: Option<RangeInclusive<usize>>,
    /// No two puzzles are equivalent (see [`crate::classes::canon`]), not only no two equal. With a shard,
    /// among the shard's puzzles only: two shards may hold equivalent puzzles.
    pub classes: bool,
    /// Only puzzles whose solutions belong to this shard: the shards of one seed share no puzzle.
    pub shard: Option<Shard>,
    /// The digit of every solution's top-left cell, or any.
    pub first: Option<u8>,
}

/// One generated puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The puzzle, 0 for blanks.
    pub puzzle: Grid,
    /// Its one solution.
    pub solution: Grid,
    /// Its difficulty level, if the request asked for one or for levels.
    pub level: Option<Level>,
}

impl Puzzle {
    /// How many cells are blank.
    pub fn blanks(&self) -> usize {
        CELLS - self.puzzle.given_count()
    }
}

/// Generates `request.count` distinct puzzles over the current rayon pool, calling `progress` after
/// each one.
pub fn generate_puzzles(request: &PuzzleRequest, progress: &(dyn Fn() + Sync)) -> Vec<Puzzle> {
    // Two equal (or equivalent) puzzles need two equal (or equivalent) grids dug the same way:
    // practically never. Should it happen, the later one is made again from its next attempts.
    let key = |puzzle: &Puzzle| {
        if request.classes {
            canonical_form(&puzzle.puzzle)
        } else {
            puzzle.puzzle
        }
    };
    let make = |solver: &mut Solver, index, series| {
        let puzzle = make_puzzle(request, index, series, solver);
        progress();
        Some(puzzle)
    };
    distinct(request.count, u64::MAX, Solver::new, make, key)
        .expect("every series gives a puzzle, and no index runs out of them")
}

/// Puzzle `index` of a request, from attempt series `series` of its random generator.
fn make_puzzle(request: &PuzzleRequest, index: u64, series: u64, solver: &mut Solver) -> Puzzle {
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(request.seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    for _ in 0..series {
        rng.random::<u64>();
    }
    loop {
        if let Some(puzzle) = attempt(request, &mut rng, solver) {
            return puzzle;
        }
    }
}

/// One try at a puzzle that meets the request, from a new grid.
///
/// Without a level, or for level 1 within a range (most puzzles dug to a blank count are level 1),
/// the grid is dug to a blank count drawn from the range and the result is kept if it fits.
/// Otherwise puzzles are made hard first and easy enough after: the grid is dug as far as it goes,
/// and a puzzle at the level asked or above gets givens of its solution back, in random order, each
/// only if the puzzle stays at that level or above, until it is at that level and within a blank
/// count drawn from the range. Either count is drawn from the part of the range that the kind of
/// puzzle reaches (see [`Reach::aim`]).
fn attempt(
    request: &PuzzleRequest,
    rng: &mut Xoshiro256PlusPlus,
    solver: &mut Solver,
) -> Option<Puzzle> {
    let solution = random_grid(rng, solver, request.shard, request.first);
    // Level 1 within a range is common among dug puzzles; otherwise dig deep and give back.
    let wanted = request
        .level
        .filter(|&level| level > Level::Singles || request.blanks.is_none());
    let aimed = request
        .blanks
        .as_ref()
        .map(|range| Reach::of(request.level, request.minimal, request.symmetric).aim(range));
    let target = match (&aimed, request.minimal || wanted.is_some()) {
        (Some(range), false) => rng.random_range(range.clone()),
        _ => CELLS,
    };
    let mut puzzle = dig(&solution, target, request.symmetric, rng, solver);
    let level = match (wanted, request.level) {
        (Some(wanted), _) => {
            puzzle = to_level(
                puzzle,
                &solution,
                wanted,
                aimed.as_ref(),
                (request.minimal, request.symmetric),
                rng,
                level_within,
            )?;
            Some(wanted)
        }
        (None, Some(Level::Singles)) => {
            solves_within(&puzzle, Level::Singles).then_some(Level::Singles)
        }
        _ => request
            .with_levels
            .then(|| level_within(&puzzle, Level::Harder)),
    };
    if request.level.is_some_and(|wanted| Some(wanted) != level)
        || request
            .blanks
            .as_ref()
            .is_some_and(|range| !range.contains(&(CELLS - puzzle.given_count())))
        || request.minimal && request.symmetric && !is_minimal(&puzzle, &solution, solver)
        || request
            .guesses
            .as_ref()
            .is_some_and(|range| !range.contains(&solver.search(&puzzle, 2).guesses))
    {
        return None;
    }
    Some(Puzzle {
        puzzle,
        solution,
        level,
    })
}

/// The number of ways to fill one box: 9!.
const BOX_FILLINGS: u64 = 362_880;

/// A random complete grid: random boxes 1, 5 and 9, completed by the solver. With a shard, boxes 5
/// and 9 are the pair numbered `BOX_FILLINGS * filling of box 5 + filling of box 9` (fillings
/// numbered in lexicographic order), drawn among the shard's pairs: the grids of two shards differ
/// in box 5 or box 9. With `top_left`, box 1's filling has that digit swapped into its first cell:
/// a grid of the shard still, since boxes 5 and 9 alone decide that, which relabelling the grid
/// afterwards would not keep.
pub(crate) fn random_grid(
    rng: &mut Xoshiro256PlusPlus,
    solver: &mut Solver,
    shard: Option<Shard>,
    top_left: Option<u8>,
) -> Grid {
    let shuffled = |rng: &mut Xoshiro256PlusPlus| {
        let mut digits: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        digits.shuffle(rng);
        digits
    };
    let mut first = shuffled(rng);
    if let Some(digit) = top_left {
        let at = first
            .iter()
            .position(|&d| d == digit)
            .expect("a digit 1 to 9");
        first.swap(0, at);
    }
    let [fifth, ninth] = match shard {
        None => [shuffled(rng), shuffled(rng)],
        Some(shard) => {
            let pairs = shard.pieces_below(BOX_FILLINGS * BOX_FILLINGS);
            let pair = shard.piece(rng.random_range(0..pairs));
            [pair / BOX_FILLINGS, pair % BOX_FILLINGS].map(nth_filling)
        }
    };
    let mut start = Grid::EMPTY;
    for (b, digits) in [(0, first), (4, fifth), (8, ninth)] {
        for (i, digit) in digits.into_iter().enumerate() {
            start.set(box_cell(b, i), digit);
        }
    }
    solver
        .solve(&start)
        .expect("any three diagonal boxes complete to a grid")
}

/// The `n`-th (from 0, below [`BOX_FILLINGS`]) ordering of the digits 1 to 9 in lexicographic
/// order.
fn nth_filling(mut n: u64) -> [u8; 9] {
    let mut left: Vec<u8> = (1..=9).collect();
    let mut digits = [0; 9];
    for (i, digit) in digits.iter_mut().enumerate() {
        let after: u64 = (1..9 - i as u64).product();
        *digit = left.remove((n / after) as usize);
        n %= after;
    }
    digits
}

/// Empties cells of `solution` in random order while it keeps one solution, up to `target` blanks.
pub(crate) fn dig(
    solution: &Grid,
    target: usize,
    symmetric: bool,
    rng: &mut Xoshiro256PlusPlus,
    solver: &mut Solver,
) -> Grid {
    let mut puzzle = *solution;
    // The same puzzle by band digit, for the solver.
    let mut givens = Givens::of(solution).expect("a solution's digits do not clash");
    let swaps = swap_sets(solution);
    let mut blanks = 0;
    let mut order: Vec<usize> = if symmetric {
        (0..=CELLS / 2).collect()
    } else {
        (0..CELLS).collect()
    };
    order.shuffle(rng);
    for cell in order {
        let mirror = CELLS - 1 - cell;
        let size = if symmetric && mirror != cell { 2 } else { 1 };
        if blanks + size > target {
            continue;
        }
        let pair = [cell, mirror];
        let cells = &pair[..size];
        for &c in cells {
            puzzle.set(c, 0);
            givens.empty(c, solution.get(c));
        }
        let given_cells = givens.given_cells();
        // A swap set left without a given lets its digits swap: no search needed to see that.
        // Otherwise another solution would differ from this one in an emptied cell (elsewhere it
        // is a solution of the puzzle before, which had one), and a cell that the givens force
        // cannot differ: no search needed for it.
        let unique = !cells
            .iter()
            .any(|&c| swaps[c].iter().any(|&set| set & given_cells == 0))
            && cells.iter().all(|&c| {
                givens.forces(c, solution.get(c))
                    || !solver.has_other_solution_from(&givens, c, solution.get(c))
            });
        if unique {
            blanks += size;
        } else {
            for &c in cells {
                puzzle.set(c, solution.get(c));
                givens.fill(c, solution.get(c));
            }
        }
    }
    puzzle
}

/// For each cell, the four swap sets of `solution` that hold it. A swap set is a set of cells of which
/// every puzzle with that one solution keeps a given: two rows of a band pair up their digits column
/// by column, and each cycle of that pairing (`1 2 4` over `2 4 1` in three columns: 1 pairs with 2,
/// 2 with 4, 4 with 1) can change places between the rows and leave another complete grid. The same
/// holds for two columns of a stack. A cell lies in one cycle with each of the other two rows of its
/// band and each of the other two columns of its stack.
fn swap_sets(solution: &Grid) -> [[u128; 4]; CELLS] {
    let mut sets = [[0; 4]; CELLS];
    for third in 0..3 {
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            // Two rows of a band, then two columns of a stack (houses 0..9 are rows, 9..18 columns).
            let lines =
                [0, 9].map(|lines| (HOUSES[lines + 3 * third + a], HOUSES[lines + 3 * third + b]));
            for (kind, (first, second)) in lines.into_iter().enumerate() {
                // Where each digit sits on the first line.
                let mut position = [0; 10];
                for (i, &cell) in first.iter().enumerate() {
                    position[usize::from(solution.get(cell))] = i;
                }
                let mut seen = 0u16;
                for start in 0..9 {
                    let (mut set, mut i) = (0u128, start);
                    while seen >> i & 1 == 0 {
                        seen |= 1 << i;
                        set |= 1 << first[i] | 1 << second[i];
                        i = position[usize::from(solution.get(second[i]))];
                    }
                    // Slots: 0 and 1 for the row partners, 2 and 3 for the column partners; a
                    // line's partner with the smaller index goes first.
                    for (&on_first, &on_second) in first.iter().zip(&second) {
                        if set >> on_first & 1 == 1 {
                            sets[on_first][2 * kind + usize::from(b == 2)] = set;
                            sets[on_second][2 * kind + usize::from(a == 1)] = set;
                        }
                    }
                }
            }
        }
    }
    sets
}

/// Whether removing any single given of `puzzle` (whose one solution is `solution`) leaves more than
/// one solution.
pub(crate) fn is_minimal(puzzle: &Grid, solution: &Grid, solver: &mut Solver) -> bool {
    (0..CELLS).filter(|&c| puzzle.get(c) != 0).all(|cell| {
        let mut fewer = *puzzle;
        fewer.set(cell, 0);
        solver.has_other_solution(&fewer, cell, solution.get(cell))
    })
}

/// Renders puzzles: `grid` (the `-c` layout, `0` for blanks), `line` (81 characters, `.` for blanks),
/// or `csv`: the header `puzzle,solution,blanks,level` and one row per puzzle (the level empty if
/// the puzzles were not rated).
pub fn render_puzzles(puzzles: &[Puzzle], format: OutputFormat) -> Vec<u8> {
    let grids = |format: Format| {
        let blank = if format == Format::Grid { b'0' } else { b'.' };
        let grids: Vec<Grid> = puzzles.iter().map(|p| p.puzzle).collect();
        crate::text::format::render(&grids, format, blank)
    };
    match format {
        OutputFormat::Grid => grids(Format::Grid),
        OutputFormat::Line => grids(Format::Line),
        OutputFormat::Csv => {
            let mut out = Vec::with_capacity(32 + 170 * puzzles.len());
            out.extend_from_slice(b"puzzle,solution,blanks,level\n");
            for p in puzzles {
                push_line(&mut out, &p.puzzle, b'.');
                out.push(b',');
                push_line(&mut out, &p.solution, b'.');
                out.push(b',');
                out.extend_from_slice(itoa::Buffer::new().format(p.blanks()).as_bytes());
                out.push(b',');
                if let Some(level) = p.level {
                    out.extend_from_slice(itoa::Buffer::new().format(level.number()).as_bytes());
                }
                out.push(b'\n');
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `grid` with the digits of `set` swapped in pairs: along rows when the set lies in two rows,
    /// else along columns.
    fn swapped(grid: &Grid, set: u128) -> Grid {
        let cells: Vec<usize> = (0..CELLS).filter(|&c| set >> c & 1 == 1).collect();
        let rows: Vec<usize> = cells.iter().map(|&c| c / 9).collect();
        let in_two_rows = rows
            .iter()
            .all(|&r| r == rows[0] || r == *rows.iter().max().unwrap());
        let mut result = *grid;
        for &a in &cells {
            for &b in &cells {
                let pair = if in_two_rows {
                    a % 9 == b % 9 && a < b
                } else {
                    a / 9 == b / 9 && a < b
                };
                if pair {
                    result.set(a, grid.get(b));
                    result.set(b, grid.get(a));
                }
            }
        }
        result
    }

    #[test]
    fn swap_sets_give_other_grids() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut solver = Solver::new();
        for _ in 0..20 {
            let solution = random_grid(&mut rng, &mut solver, None, None);
            let sets = swap_sets(&solution);
            for (cell, cell_sets) in sets.iter().enumerate() {
                for &set in cell_sets {
                    assert!(set >> cell & 1 == 1, "cell {cell} in its set");
                    let other = swapped(&solution, set);
                    assert!(other.is_filled() && other.first_repeat().is_none());
                    let changed = (0..CELLS).filter(|&c| other.get(c) != solution.get(c));
                    assert_eq!(changed.fold(0u128, |acc, c| acc | 1 << c), set);
                }
            }
        }
    }

    #[test]
    fn random_grids_start_with_the_top_left_digit_asked_and_keep_their_shard() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut solver = Solver::new();
        let shard = Some(Shard::new(2, 3).unwrap());
        for digit in 1..=9 {
            let mut same = rng.clone();
            let grid = random_grid(&mut rng, &mut solver, shard, Some(digit));
            let drawn = random_grid(&mut same, &mut solver, shard, None);
            assert!(grid.is_filled() && grid.first_repeat().is_none());
            assert_eq!(grid.get(0), digit);
            // Boxes 5 and 9 make the shard: the digit asked leaves them as drawn.
            for cell in (0..9).flat_map(|i| [box_cell(4, i), box_cell(8, i)]) {
                assert_eq!(grid.get(cell), drawn.get(cell));
            }
        }
    }
}
