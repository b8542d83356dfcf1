//! Puzzles of a level, for both kernels: a puzzle dug as far as it goes is at the level asked or
//! above, and gets givens of its solution back (how many: bisected, since more givens never make a
//! puzzle harder) until it is at that level and within the blank count asked.
//!
//! The routines are written once over [`Cells`] (a 9×9 [`Grid`] or the values of any shape) and a
//! "rate within" closure: `within(puzzle, ceiling)` runs the logical solver's techniques up to
//! `ceiling` only, and returns the level when it is `ceiling` or below, else [`Level::Harder`].

use std::ops::RangeInclusive;

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;

use crate::jobs::rate::Level;
use crate::model::grid::{CELLS, Grid};

/// The cells of a puzzle, 0 for a blank.
pub(crate) trait Cells: Clone {
    /// How many cells.
    fn len(&self) -> usize;
    /// The value of `cell`.
    fn get(&self, cell: usize) -> u8;
    /// Sets `cell` to `value`.
    fn set(&mut self, cell: usize, value: u8);
    /// How many cells are blank.
    fn blanks(&self) -> usize;
}

impl Cells for Grid {
    fn len(&self) -> usize {
        CELLS
    }
    fn get(&self, cell: usize) -> u8 {
        Grid::get(self, cell)
    }
    fn set(&mut self, cell: usize, value: u8) {
        Grid::set(self, cell, value);
    }
    fn blanks(&self) -> usize {
        CELLS - self.given_count()
    }
}

impl Cells for Vec<u8> {
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    fn get(&self, cell: usize) -> u8 {
        self[cell]
    }
    fn set(&mut self, cell: usize, value: u8) {
        self[cell] = value;
    }
    fn blanks(&self) -> usize {
        self.iter().filter(|&&v| v == 0).count()
    }
}

/// Whether the techniques of `level` and below solve `puzzle`, as `within` rates it.
fn solves<P>(within: &mut impl FnMut(&P, Level) -> Level, puzzle: &P, level: Level) -> bool {
    within(puzzle, level) != Level::Harder
}

/// `puzzle` (dug as far as it goes, with one solution, `solution`) brought to `wanted`: `None`
/// when it is below it. A `minimal` puzzle cannot get givens back, so it is at the level or not;
/// any other gets givens back (see [`fill_back`]) down to a blank count drawn from `aimed` (all its
/// cells without).
pub(crate) fn to_level<P: Cells>(
    puzzle: P,
    solution: &P,
    wanted: Level,
    aimed: Option<&RangeInclusive<usize>>,
    (minimal, symmetric): (bool, bool),
    rng: &mut Xoshiro256PlusPlus,
    mut within: impl FnMut(&P, Level) -> Level,
) -> Option<P> {
    // Below the level asked: no giving back helps. Only the techniques up to it are run.
    if wanted
        .easier()
        .is_some_and(|easier| solves(&mut within, &puzzle, easier))
    {
        return None;
    }
    if minimal {
        return (wanted == Level::Harder || solves(&mut within, &puzzle, wanted)).then_some(puzzle);
    }
    let most_blanks = match aimed {
        Some(range) => rng.random_range(range.clone()),
        None => puzzle.len(),
    };
    fill_back(
        &puzzle,
        solution,
        wanted,
        most_blanks,
        symmetric,
        rng,
        within,
    )
}

/// Puts givens of `solution` back into `puzzle` (level `level` or above), in random order, each only
/// if the puzzle stays at `level` or above, until it is at `level` with at most `most_blanks` blanks;
/// `None` if it cannot get there. More givens never make a puzzle harder, so the level only falls.
/// With `symmetric`, a cell goes back with its partner under a half turn.
fn fill_back<P: Cells, W: FnMut(&P, Level) -> Level>(
    puzzle: &P,
    solution: &P,
    level: Level,
    most_blanks: usize,
    symmetric: bool,
    rng: &mut Xoshiro256PlusPlus,
    mut within: W,
) -> Option<P> {
    let cells = puzzle.len();
    let blanks_fit = |p: &P| p.blanks() <= most_blanks;
    // Few enough blanks, and no harder than `level`: true of the solution itself.
    let done = |p: &P, within: &mut W| {
        blanks_fit(p) && (level == Level::Harder || within(p, level) != Level::Harder)
    };
    // Rated with the techniques up to `level` only: `Harder` then means "above `level`" too.
    if blanks_fit(puzzle) && within(puzzle, level) == level {
        return Some(puzzle.clone());
    }
    let mut order: Vec<usize> = (0..cells)
        .filter(|&c| puzzle.get(c) == 0 && (!symmetric || c <= cells - 1 - c))
        .collect();
    let give_back = |puzzle: &mut P, cell: usize| {
        puzzle.set(cell, solution.get(cell));
        if symmetric {
            puzzle.set(cells - 1 - cell, solution.get(cells - 1 - cell));
        }
    };
    // For a random order of the blanks, "few enough blanks and solved within the level" holds
    // from some number of cells given back on (all of them give back the solution itself): a
    // bisection finds the fewest, which usually keep the level. When they do not (the last cell
    // made the puzzle too easy at once), another order is tried, and after a few orders, cells are
    // given back one at a time, skipping those that would make the puzzle too easy: slower, but it
    // finds the rare puzzles at a hard level with few blanks.
    for _ in 0..FILL_BACK_ORDERS {
        order.shuffle(rng);
        let with_first = |count: usize| {
            let mut puzzle = puzzle.clone();
            order[..count]
                .iter()
                .for_each(|&cell| give_back(&mut puzzle, cell));
            puzzle
        };
        let (mut not_done, mut is_done) = (0, order.len());
        while not_done + 1 < is_done {
            let middle = (not_done + is_done) / 2;
            if done(&with_first(middle), &mut within) {
                is_done = middle;
            } else {
                not_done = middle;
            }
        }
        let bisected = with_first(is_done);
        if within(&bisected, level) == level {
            return Some(bisected);
        }
        // Where the blank count, not the level, set the point, other orders fare no better.
        if is_done == 0 || !blanks_fit(&with_first(is_done - 1)) {
            break;
        }
    }
    let easier = level.easier();
    let mut filled = puzzle.clone();
    for &cell in &order {
        let mut trial = filled.clone();
        give_back(&mut trial, cell);
        if easier.is_some_and(|easier| solves(&mut within, &trial, easier)) {
            continue;
        }
        filled = trial;
        if done(&filled, &mut within) {
            return Some(filled);
        }
    }
    None
}

/// How many random orders of giving back `fill_back` bisects before it gives back one cell at a time.
const FILL_BACK_ORDERS: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::rate::level_within;
    use rand::SeedableRng;

    /// A 9×9 puzzle of level 3 (from the forum's hardest list) and its solution.
    fn expert() -> (Grid, Grid) {
        let puzzle: Grid =
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6"
                .parse()
                .unwrap();
        let solution = crate::engine::standard::solve::Solver::new()
            .solve(&puzzle)
            .unwrap();
        (puzzle, solution)
    }

    #[test]
    fn giving_back_reaches_each_level_at_or_below_the_dug_one() {
        let (puzzle, solution) = expert();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        for wanted in [Level::Singles, Level::Intermediate, Level::Harder] {
            let made = to_level(
                puzzle,
                &solution,
                wanted,
                None,
                (false, false),
                &mut rng,
                level_within,
            )
            .unwrap();
            assert_eq!(level_within(&made, Level::Harder), wanted);
            assert!(made.keeps_givens_of(&puzzle) && solution.keeps_givens_of(&made));
        }
        // Minimal puzzles get nothing back: at the level or refused.
        let mut kept = |wanted| {
            to_level(
                puzzle,
                &solution,
                wanted,
                None,
                (true, false),
                &mut rng,
                level_within,
            )
        };
        assert_eq!(kept(Level::Harder), Some(puzzle));
        assert_eq!(kept(Level::Intermediate), None);
    }

    #[test]
    fn the_cells_of_any_shape_give_back_alike() {
        let (puzzle, solution) = expert();
        let as_vec = |g: &Grid| g.cells().to_vec();
        let within = |p: &Vec<u8>, ceiling| {
            level_within(
                &Grid::from_cells(p[..].try_into().unwrap()).unwrap(),
                ceiling,
            )
        };
        let grids = to_level(
            puzzle,
            &solution,
            Level::Intermediate,
            Some(&(30..=50)),
            (false, false),
            &mut Xoshiro256PlusPlus::seed_from_u64(2),
            level_within,
        );
        let values = to_level(
            as_vec(&puzzle),
            &as_vec(&solution),
            Level::Intermediate,
            Some(&(30..=50)),
            (false, false),
            &mut Xoshiro256PlusPlus::seed_from_u64(2),
            within,
        );
        assert!(values.is_some());
        assert_eq!(grids.map(|g| as_vec(&g)), values);
    }
}
