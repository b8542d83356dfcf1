//! The difficulty of a puzzle of any shape for the generic search, free of its branching order:
//! the mean of its guesses to a first solution over the fixed random equivalents every kernel's
//! measure takes (see [`crate::engine::hard::measure`]), here moves of the shape's own group
//! ([`Canon::random_move`]: its arrangements, with a relabelling). On a jigsaw layout with no
//! symmetry but the identity, the equivalents are relabellings, which still move the search's
//! choices: it tries a cell's values, and scans the houses' values, in their order.
//!
//! Each count is bounded, [`GUESSES_PER_CELL`] guesses a cell, so that no puzzle makes the measure
//! crawl: a count that runs out counts as the bound, and a mean at the bound means at least that.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::classes::shaped::{Canon, Move};
use crate::engine::generic::solve::Solver;
use crate::engine::hard::measure::{EQUIVALENTS, MEASURE_SEED};
use crate::model::shape::Shape;

/// The guesses, per cell, one count of the measure may make: 8100 at 9×9, 25600 at 16×16, far
/// beyond the hardest puzzle the search climbs to, and a few hundredths of a second at most.
pub const GUESSES_PER_CELL: usize = 100;

/// The measure of one shape: its equivalents' moves, drawn once.
#[derive(Clone, Debug)]
pub struct ShapedMeasure {
    moves: Vec<Move>,
    bound: usize,
}

impl ShapedMeasure {
    /// The measure of `shape`'s puzzles.
    pub fn new(shape: &Shape) -> ShapedMeasure {
        let canon = Canon::new(shape);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(MEASURE_SEED);
        ShapedMeasure {
            moves: (0..EQUIVALENTS)
                .map(|_| canon.random_move(&mut rng))
                .collect(),
            bound: GUESSES_PER_CELL * shape.cells(),
        }
    }

    /// The guesses `solver` (one for the shape) makes to find a first solution of equivalent `k`
    /// (below [`EQUIVALENTS`]) of `puzzle`, at most the bound.
    pub fn guesses_of(&self, solver: &mut Solver, puzzle: &[u8], k: usize) -> usize {
        let moved = self.moves[k].apply(puzzle);
        let mut solution = vec![0; puzzle.len()];
        // Out of guesses, the count has made exactly the bound.
        solver.count_within(&moved, 1, &mut solution, self.bound);
        solver.guesses_made()
    }

    /// The guesses over all [`EQUIVALENTS`], added up: ten times the mean, kept whole so that a
    /// level compares exactly.
    pub fn total(&self, solver: &mut Solver, puzzle: &[u8]) -> usize {
        (0..EQUIVALENTS)
            .map(|k| self.guesses_of(solver, puzzle, k))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::symbols::{Symbols, digit_values as values};

    #[test]
    fn a_puzzle_solved_by_singles_has_a_mean_of_0() {
        let shape = Shape::boxed(6, None, false, Symbols::default_for(6)).unwrap();
        let mut puzzle = values("123456456123231564564231312645645312");
        for row in 0..6 {
            puzzle[row * 6 + row] = 0;
        }
        let mut solver = Solver::new(&shape);
        assert_eq!(ShapedMeasure::new(&shape).total(&mut solver, &puzzle), 0);
    }

    #[test]
    fn the_measure_is_the_same_on_every_run_and_its_equivalents_keep_the_puzzle() {
        let shape = Shape::boxed(6, None, true, Symbols::default_for(6)).unwrap();
        // A puzzle of 6×6 X-Sudoku with one solution that needs guesses.
        let puzzle = values("...1......4..6..5................2..");
        let mut solver = Solver::new(&shape);
        let (one, two) = (ShapedMeasure::new(&shape), ShapedMeasure::new(&shape));
        let total = one.total(&mut solver, &puzzle);
        assert!(total > 0);
        assert_eq!(two.total(&mut solver, &puzzle), total);
        for moved in &one.moves {
            let mut solution = vec![0; 36];
            assert_eq!(solver.count(&moved.apply(&puzzle), 2, &mut solution), 1);
        }
    }

    #[test]
    fn a_count_past_the_bound_counts_as_the_bound() {
        let shape = Shape::boxed(6, None, true, Symbols::default_for(6)).unwrap();
        let puzzle = values("...1......4..6..5................2..");
        let mut solver = Solver::new(&shape);
        let mut measure = ShapedMeasure::new(&shape);
        let unbounded: Vec<usize> = (0..EQUIVALENTS)
            .map(|k| measure.guesses_of(&mut solver, &puzzle, k))
            .collect();
        measure.bound = 3;
        for (k, &guesses) in unbounded.iter().enumerate() {
            assert_eq!(measure.guesses_of(&mut solver, &puzzle, k), guesses.min(3));
        }
    }
}
