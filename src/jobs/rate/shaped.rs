//! Rating for every shape: the steps of the 9×9 rater over the houses of any [`Shape`], in the
//! same order, so that the standard shape rates the same either way and a level means the same on
//! every shape.
//!
//! Locked candidates take every two houses that share two cells or more (a box and a line, a
//! jigsaw region and a line, a diagonal and a box or a region): when a value's places in one lie
//! in the other, the value leaves the rest of the other. Two houses that share one cell need no
//! step of their own: a value with one place left is a hidden single, taken first.
//!
//! Candidates are `u32` masks, bit `v` for value `v` (N ≤ 25), and so are the cells of a house,
//! bit `i` for its `i`-th cell.

use rayon::prelude::*;

use super::{
    HEADER, Level, NOT_ONE_SOLUTION, Rating, Steps, bits, find_subset, push_columns,
    solve_logically,
};
use crate::engine::generic::hard::measure::ShapedMeasure;
use crate::engine::generic::solve::{SOLVE_GUESSES_PER_CELL, Solver, undecided_after};
use crate::jobs::solve::{BatchOutput, PuzzleProblem};
use crate::model::shape::Shape;
use crate::problems::Problems;
use crate::text::shaped::{Layout, ShapedPuzzles, write_record};

/// For each house, the houses it shares two cells or more with: `(other, here, there)`, the shared
/// cells as bits of the house's cells (`here`) and of the other's (`there`).
type Links = Vec<Vec<(usize, u32, u32)>>;

fn links(shape: &Shape) -> Links {
    let houses = shape.houses();
    let position = |house: &[u16], cell: u16| house.iter().position(|&c| c == cell);
    houses
        .iter()
        .enumerate()
        .map(|(index, house)| {
            houses
                .iter()
                .enumerate()
                .filter(|&(other, _)| other != index)
                .filter_map(|(other, cells)| {
                    let (mut here, mut there) = (0u32, 0u32);
                    for (i, &cell) in house.iter().enumerate() {
                        if let Some(j) = position(cells, cell) {
                            here |= 1 << i;
                            there |= 1 << j;
                        }
                    }
                    (here.count_ones() >= 2).then_some((other, here, there))
                })
                .collect()
        })
        .collect()
}

/// The logical solver of one shape, without the search: what `-n -m` rates its puzzles with, as
/// [`Rater`] does for `--rate`.
pub(crate) struct ShapeLogic {
    links: Links,
}

impl ShapeLogic {
    /// The logical solver of `shape`.
    pub(crate) fn new(shape: &Shape) -> ShapeLogic {
        ShapeLogic {
            links: links(shape),
        }
    }

    /// The level of `puzzle` of `shape` (which must have exactly one solution) when it is
    /// `ceiling` or below, else [`Level::Harder`]: only the techniques up to `ceiling` are run.
    pub(crate) fn level_within(&self, shape: &Shape, puzzle: &[u8], ceiling: Level) -> Level {
        solve_logically(&mut Board::new(shape, &self.links, puzzle), None, ceiling).level
    }
}

/// A rater of puzzles of one shape, kept between puzzles.
struct Rater {
    solver: Solver,
    logic: ShapeLogic,
    measure: ShapedMeasure,
}

/// Why a puzzle has no rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unrated {
    /// None, or more than one.
    NotOneSolution,
    /// The search ran out of guesses before its count was known.
    Undecided,
}

impl Rater {
    fn new(shape: &Shape) -> Rater {
        Rater {
            solver: Solver::new(shape),
            logic: ShapeLogic::new(shape),
            measure: ShapedMeasure::new(shape),
        }
    }

    /// Rates `puzzle` of `shape`, which must have exactly one solution.
    fn rate(&mut self, shape: &Shape, puzzle: &[u8]) -> Result<Rating, Unrated> {
        let mut solution = vec![0; puzzle.len()];
        let guesses = SOLVE_GUESSES_PER_CELL * puzzle.len();
        match self.solver.count_within(puzzle, 2, &mut solution, guesses) {
            Some(1) => {}
            Some(_) => return Err(Unrated::NotOneSolution),
            None => return Err(Unrated::Undecided),
        }
        let guesses = u32::try_from(self.solver.guesses_made()).unwrap_or(u32::MAX);
        let mut board = Board::new(shape, &self.logic.links, puzzle);
        Ok(Rating {
            guesses,
            guesses_total: Some(self.measure.total(&mut self.solver, puzzle)),
            ..solve_logically(&mut board, Some(&solution), Level::Harder)
        })
    }
}

/// The ratings of `puzzles` as the CSV of [`super::rate_file`], rated over the thread pool:
/// [`HEADER`] if asked, then one row per puzzle, the puzzle in its shape's line format (after its
/// layout when the input's lines carry one).
pub(crate) fn rate_shaped(puzzles: &ShapedPuzzles, with_header: bool) -> BatchOutput {
    let ratings: Vec<Result<Rating, Unrated>> = (0..puzzles.len())
        .into_par_iter()
        .with_max_len(64)
        .map_init(
            || None::<(u32, Rater)>,
            |rater, index| {
                let shape_index = puzzles.shape_of[index];
                if rater.as_ref().is_none_or(|(i, _)| *i != shape_index) {
                    *rater = Some((shape_index, Rater::new(puzzles.shape(index))));
                }
                let (_, rater) = rater.as_mut().expect("made above");
                rater.rate(puzzles.shape(index), puzzles.puzzle(index))
            },
        )
        .collect();
    let mut text = if with_header {
        HEADER.to_vec()
    } else {
        Vec::new()
    };
    let mut problems = Problems::new();
    for (index, rating) in ratings.iter().enumerate() {
        let shape = puzzles.shape(index);
        write_record(
            puzzles.puzzle(index),
            shape,
            Layout::Line,
            puzzles.prefixed,
            &mut text,
        );
        // The record's line end: the row goes on.
        text.pop();
        push_columns(&mut text, rating.as_ref().ok());
        if let Err(unrated) = rating {
            problems.push_with(|| PuzzleProblem {
                puzzle: index + 1,
                line: puzzles.lines[index],
                what: match unrated {
                    Unrated::NotOneSolution => NOT_ONE_SOLUTION.to_owned(),
                    Unrated::Undecided => undecided_after(puzzles.cells_per_puzzle()),
                },
            });
        }
    }
    BatchOutput { text, problems }
}

/// The logical solver's state on a board of any shape: the candidates of each cell (0 once it
/// holds a value).
struct Board<'a> {
    shape: &'a Shape,
    links: &'a Links,
    candidates: Vec<u32>,
    empty: Vec<bool>,
    left: usize,
}

impl<'a> Board<'a> {
    fn new(shape: &'a Shape, links: &'a Links, puzzle: &[u8]) -> Board<'a> {
        let all = (2 << shape.size()) - 2;
        let mut board = Board {
            shape,
            links,
            candidates: vec![all; puzzle.len()],
            empty: vec![true; puzzle.len()],
            left: puzzle.len(),
        };
        for (cell, &value) in puzzle.iter().enumerate() {
            if value != 0 {
                board.place(cell, value);
            }
        }
        board
    }

    fn place(&mut self, cell: usize, value: u8) {
        self.candidates[cell] = 0;
        self.empty[cell] = false;
        self.left -= 1;
        for &peer in self.shape.peers(cell) {
            self.candidates[usize::from(peer)] &= !(1 << value);
        }
    }

    fn house(&self, house: usize) -> &'a [u16] {
        &self.shape.houses()[house]
    }

    /// Where each value may go in `house`: bit `i` of entry `value` for the house's `i`-th cell.
    fn places(&self, house: usize) -> [u32; 26] {
        let mut places = [0u32; 26];
        for (i, &cell) in self.house(house).iter().enumerate() {
            for value in bits(self.candidates[usize::from(cell)]) {
                places[value] |= 1 << i;
            }
        }
        places
    }

    /// Removes the candidates `values` from the cells of `house` outside `keep` (bits of the
    /// house's cells); whether any went.
    fn remove_outside(&mut self, house: usize, keep: u32, values: u32) -> bool {
        let mut removed = false;
        for (i, &cell) in self.house(house).iter().enumerate() {
            let candidates = &mut self.candidates[usize::from(cell)];
            if keep >> i & 1 == 0 && *candidates & values != 0 {
                *candidates &= !values;
                removed = true;
            }
        }
        removed
    }
}

impl Steps for Board<'_> {
    fn is_solved(&self) -> bool {
        self.left == 0
    }

    fn fill_from(&mut self, solution: &[u8]) {
        let cell = (0..self.candidates.len())
            .filter(|&c| self.empty[c])
            .min_by_key(|&c| self.candidates[c].count_ones())
            .expect("an empty cell");
        self.place(cell, solution[cell]);
    }

    fn singles(&mut self) -> u32 {
        let mut placed = 0;
        for cell in 0..self.candidates.len() {
            let c = self.candidates[cell];
            if self.empty[cell] && c.count_ones() == 1 {
                self.place(cell, c.trailing_zeros() as u8);
                placed += 1;
            }
        }
        if placed > 0 {
            return placed;
        }
        for house in 0..self.shape.houses().len() {
            let cells = self.house(house);
            let (mut once, mut twice) = (0u32, 0u32);
            for &cell in cells {
                let c = self.candidates[usize::from(cell)];
                twice |= once & c;
                once |= c;
            }
            for value in bits(once & !twice) {
                // Still there: an earlier single of this pass may have taken the value's place.
                if let Some(&cell) = cells
                    .iter()
                    .find(|&&c| self.candidates[usize::from(c)] >> value & 1 == 1)
                {
                    self.place(usize::from(cell), value as u8);
                    placed += 1;
                }
            }
        }
        placed
    }

    fn locked_candidates(&mut self) -> bool {
        let links = self.links;
        for (house, others) in links.iter().enumerate() {
            if others.is_empty() {
                continue;
            }
            let places = self.places(house);
            for (value, &here) in places.iter().enumerate().skip(1) {
                if here.count_ones() < 2 {
                    continue;
                }
                for &(other, shared, there) in others {
                    if here & !shared == 0 && self.remove_outside(other, there, 1 << value) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn subsets(&mut self) -> bool {
        let mut candidates = Vec::with_capacity(self.shape.size());
        for size in 2..=3 {
            for house in 0..self.shape.houses().len() {
                let cells = self.house(house);
                candidates.clear();
                candidates.extend(cells.iter().map(|&c| self.candidates[usize::from(c)]));
                if let Some(subset) = find_subset(&candidates, size) {
                    for (i, &cell) in cells.iter().enumerate() {
                        self.candidates[usize::from(cell)] = subset.kept(i, candidates[i]);
                    }
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::rate::rate;
    use crate::model::grid::Grid;
    use crate::model::symbols::{Symbols, digit_values as values};

    fn rate_on(shape: &Shape, puzzle: &[u8]) -> Option<Rating> {
        Rater::new(shape).rate(shape, puzzle).ok()
    }

    #[test]
    fn singles_rate_level_1_on_6x6() {
        let shape = Shape::boxed(6, None, false, Symbols::default_for(6)).unwrap();
        // A complete 6×6 grid (boxes of 2×3) with one cell of each row emptied.
        let mut puzzle = values("123456456123231564564231312645645312");
        for row in 0..6 {
            puzzle[row * 6 + row] = 0;
        }
        let rating = rate_on(&shape, &puzzle).unwrap();
        assert_eq!(rating.level, Level::Singles);
        assert_eq!(rating.singles, 6);
        assert_eq!(rating.guesses, 0);
        assert_eq!(rate_on(&shape, &[0; 36]), None, "not one solution");
    }

    #[test]
    fn a_diagonal_locks_candidates() {
        let shape = Shape::boxed(4, None, true, Symbols::default_for(4)).unwrap();
        let links = links(&shape);
        // The main diagonal (house 12) shares cells 0 and 5 with box 0 (house 8).
        assert!(links[12].contains(&(8, 0b0011, 0b1001)));
        assert!(links[8].contains(&(12, 0b1001, 0b0011)));
        // On an empty board but for a 1 ruled out of cells 10 and 15, the diagonal's 1 lies in box
        // 0: the rest of box 0 loses it.
        let mut board = Board::new(&shape, &links, &[0; 16]);
        board.candidates[10] &= !(1 << 1);
        board.candidates[15] &= !(1 << 1);
        assert!(board.locked_candidates());
        assert_eq!(board.candidates[1] >> 1 & 1, 0);
        assert_eq!(board.candidates[4] >> 1 & 1, 0);
        assert_eq!(board.candidates[0] >> 1 & 1, 1);
    }

    #[test]
    fn puzzles_that_need_locked_candidates_rate_level_2() {
        let diagonal = Shape::boxed(6, None, true, Symbols::default_for(6)).unwrap();
        let jigsaw = Shape::jigsaw(
            b"aabcddabbccdabbcddaabcdefffceefffeee",
            Some(6),
            false,
            None,
        )
        .unwrap();
        for (shape, puzzle) in [
            (&diagonal, ".....5...4...531............2......."),
            (&jigsaw, "...1.5..2.............6.......54...."),
        ] {
            let rating = rate_on(shape, &values(puzzle)).unwrap();
            assert_eq!(rating.level, Level::Intermediate, "{puzzle}");
            assert!(rating.locked > 0 && rating.pairs_triples == 0, "{puzzle}");
        }
    }

    #[test]
    fn the_standard_shape_rates_as_the_9x9_rater_does() {
        let shape = Shape::standard();
        let mut rater = Rater::new(&shape);
        let sample = include_str!("../../../tests/data/sample_17_clue.txt");
        let mut levels = [0; 3];
        for line in sample.lines().filter(|l| l.len() == 81) {
            let grid: Grid = line.parse().unwrap();
            let standard = rate(&grid).unwrap();
            let shaped = rater.rate(&shape, grid.cells()).unwrap();
            let steps = |r: Rating| (r.level, r.singles, r.locked, r.pairs_triples, r.harder);
            assert_eq!(steps(shaped), steps(standard), "{line}");
            levels[usize::from(standard.level.number()) - 1] += 1;
        }
        assert!(levels.iter().sum::<usize>() > 0);
    }
}
