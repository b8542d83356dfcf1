//! The generic kernel's part of the hard-puzzle search ([`crate::engine::hard`]) for every shape
//! but the standard 9×9 one: its grids, the generic search's counts, digging, the shape's
//! canonical form and logical rating, and the measure of `measure.rs`.
//!
//! The search proves uniqueness with counts bounded as digging's are (a count that runs out
//! keeps the given, or drops the child), so that no puzzle makes a move crawl.

pub mod measure;

use rand::rngs::Xoshiro256PlusPlus;

use super::dig::{DIG_GUESSES_PER_CELL, ShapedPuzzle, TRIES, dig, drawn_solution, render_puzzles};
use super::solve::Solver;
use crate::classes::shaped::Canon;
use crate::engine::hard::measure::with_means;
use crate::engine::hard::{Board, Found, HardRequest};
use crate::jobs::rate::{Level, ShapeLogic};
use crate::model::shape::Shape;
use crate::text::boxes::misread_elsewhere;
use crate::text::format::OutputFormat;
use measure::ShapedMeasure;

/// The moves, times the cells, a lineage may make before its pool reaches the level, and a fork
/// after its last find, before the search gives up: a jigsaw layout whose puzzles climb slower
/// than its family's (one close to boxes), or a small shape with fewer puzzles at the level than
/// asked, ends in seconds with an error rather than crawl; a few times what the levels of
/// `engine::hard::reach` need at most (BENCHMARKS.md).
const PATIENCE: usize = 2_400_000;

/// A shape other than the standard one, as the search sees it.
pub struct Shaped<'a> {
    shape: &'a Shape,
    measure: ShapedMeasure,
    logic: ShapeLogic,
    canon: Canon,
    /// See [`PATIENCE`].
    patience: usize,
}

impl Shaped<'_> {
    /// The search's view of `shape`.
    pub fn new(shape: &Shape) -> Shaped<'_> {
        Shaped {
            shape,
            measure: ShapedMeasure::new(shape),
            logic: ShapeLogic::new(shape),
            canon: Canon::new(shape),
            patience: PATIENCE / shape.cells(),
        }
    }

    /// The guesses a search that settles uniqueness may make on a puzzle of the shape.
    fn guesses(&self) -> usize {
        DIG_GUESSES_PER_CELL * self.shape.cells()
    }
}

impl Board for Shaped<'_> {
    type Grid = Vec<u8>;
    type Key = Vec<u8>;
    type Solver = Solver;

    fn solver(&self) -> Solver {
        Solver::new(self.shape)
    }

    fn cells(&self) -> usize {
        self.shape.cells()
    }

    fn get(&self, grid: &Vec<u8>, cell: usize) -> u8 {
        grid[cell]
    }

    fn set(&self, grid: &mut Vec<u8>, cell: usize, value: u8) {
        grid[cell] = value;
    }

    fn random_solution(
        &self,
        request: &HardRequest,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut Solver,
    ) -> Option<Vec<u8>> {
        (0..TRIES).find_map(|_| {
            drawn_solution(self.shape, solver, request.shard, request.first, rng).flatten()
        })
    }

    fn dig(
        &self,
        request: &HardRequest,
        solution: &Vec<u8>,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut Solver,
    ) -> Vec<u8> {
        dig(
            self.shape,
            solver,
            solution,
            usize::MAX,
            request.symmetric,
            rng,
        )
    }

    fn count(&self, solver: &mut Solver, puzzle: &Vec<u8>) -> Option<(usize, Option<Vec<u8>>)> {
        let mut first = vec![0; puzzle.len()];
        let solutions = solver.count_within(puzzle, 2, &mut first, self.guesses())?;
        Some((solutions, (solutions > 0).then_some(first)))
    }

    fn has_other_solution(
        &self,
        solver: &mut Solver,
        puzzle: &Vec<u8>,
        _cell: usize,
        _value: u8,
    ) -> bool {
        // The puzzle blanked from one with one solution has that one: any other differs in a
        // blanked cell, so a second solution is another value there.
        let mut scratch = vec![0; puzzle.len()];
        solver.count_within(puzzle, 2, &mut scratch, self.guesses()) != Some(1)
    }

    fn free_values(&self, puzzle: &Vec<u8>, cell: usize) -> u32 {
        let full = (2u32 << self.shape.size()) - 2;
        let used = self
            .shape
            .peers(cell)
            .iter()
            .fold(0u32, |used, &peer| used | 1 << puzzle[usize::from(peer)]);
        full & !used
    }

    fn guesses_of(&self, solver: &mut Solver, puzzle: &Vec<u8>, k: usize) -> usize {
        self.measure.guesses_of(solver, puzzle, k)
    }

    fn has_backdoor(&self, _solver: &mut Solver, _puzzle: &Vec<u8>, _solution: &Vec<u8>) -> bool {
        // The generic search reasons with singles and locked candidates only, and one more given
        // lets it finish nearly every puzzle of the small shapes: dropping those would leave the
        // climb almost nothing to keep (BENCHMARKS.md, "Hard puzzles on every shape"). The
        // measure is its own guesses, with no faster solver's to agree with.
        false
    }

    fn key(&self, request: &HardRequest, puzzle: &Vec<u8>) -> Vec<u8> {
        if request.classes {
            self.canon.form(puzzle)
        } else {
            puzzle.clone()
        }
    }

    fn reads_back(&self, puzzle: &Vec<u8>) -> bool {
        !misread_elsewhere(self.shape, puzzle)
    }

    fn level(&self, puzzle: &Vec<u8>) -> Level {
        self.logic.level_within(self.shape, puzzle, Level::Harder)
    }

    fn patience(&self) -> Option<usize> {
        Some(self.patience)
    }
}

/// Renders hard puzzles of `shape` as [`render_puzzles`] does, the csv format with a column more:
/// `puzzle,solution,blanks,level,guesses_mean` (`layout` first on a jigsaw shape).
pub fn render_hard(shape: &Shape, puzzles: Vec<Found<Vec<u8>>>, format: OutputFormat) -> Vec<u8> {
    let totals: Vec<usize> = puzzles.iter().map(|p| p.total).collect();
    let plain: Vec<ShapedPuzzle> = puzzles
        .into_iter()
        .map(|p| ShapedPuzzle {
            puzzle: p.puzzle,
            solution: p.solution,
            level: p.level,
        })
        .collect();
    with_means(render_puzzles(shape, &plain, format), &totals, format)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::hard::{Shortfall, search_puzzles};
    use crate::model::symbols::Symbols;

    fn request(count: usize, total: usize) -> HardRequest {
        HardRequest {
            count,
            seed: 7,
            total,
            with_levels: true,
            ..HardRequest::default()
        }
    }

    #[test]
    fn puzzles_are_unique_minimal_and_as_hard_as_asked() {
        let shape = Shape::boxed(6, None, false, Symbols::default_for(6)).unwrap();
        let board = Shaped::new(&shape);
        let puzzles = search_puzzles(&board, &request(5, 20), &|| {}).unwrap();
        assert_eq!(puzzles.len(), 5);
        let mut solver = Solver::new(&shape);
        for found in &puzzles {
            let mut solution = vec![0; 36];
            assert_eq!(solver.count(&found.puzzle, 2, &mut solution), 1);
            assert_eq!(solution, found.solution);
            for cell in (0..36).filter(|&c| found.puzzle[c] != 0) {
                let mut fewer = found.puzzle.clone();
                fewer[cell] = 0;
                assert_eq!(solver.count(&fewer, 2, &mut solution), 2);
            }
            assert!(found.total >= 20);
            assert_eq!(found.total, board.measure.total(&mut solver, &found.puzzle));
            assert!(found.level.is_some());
        }
    }

    #[test]
    fn a_shape_without_hard_puzzles_gives_up_after_its_patience() {
        // No 4×4 puzzle needs a guess.
        let shape = Shape::boxed(4, None, false, Symbols::default_for(4)).unwrap();
        let mut board = Shaped::new(&shape);
        board.patience = 300;
        let shortfall = search_puzzles(&board, &request(3, 10), &|| {}).unwrap_err();
        assert_eq!(shortfall, Shortfall::Level { reached: 0 });
        // Every 4×4 puzzle is at level 0, but there are only so many classes of them.
        let classes = HardRequest {
            classes: true,
            ..request(5000, 0)
        };
        let Err(Shortfall::Puzzles { made }) = search_puzzles(&board, &classes, &|| {}) else {
            panic!("5000 classes of 4×4 puzzles");
        };
        assert!(made > 0 && made < 5000);
    }
}
