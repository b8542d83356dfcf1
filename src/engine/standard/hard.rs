//! The 9×9 kernel's part of the hard-puzzle search ([`crate::engine::hard`]): its grids, the band
//! solver's counts and proofs of uniqueness, digging with its givens kept by band, the 9×9
//! canonical form, and the measure of `measure.rs`.

pub mod measure;

use rand::rngs::Xoshiro256PlusPlus;

use crate::classes::canon::canonical_form;
use crate::engine::hard::{Board, Found, HardRequest};
use crate::engine::standard::dig::{Puzzle, dig, random_grid, render_puzzles};
use crate::engine::standard::solve::Solver;
use crate::jobs::rate::{Level, level_within};
use crate::model::grid::{CELLS, Grid, HOUSES, houses_of};
use crate::text::format::OutputFormat;

/// The standard 9×9 shape, as the search sees it.
pub struct Standard;

impl Board for Standard {
    type Grid = Grid;
    type Key = Grid;
    type Solver = Solver;

    fn solver(&self) -> Solver {
        Solver::new()
    }

    fn cells(&self) -> usize {
        CELLS
    }

    fn get(&self, grid: &Grid, cell: usize) -> u8 {
        grid.get(cell)
    }

    fn set(&self, grid: &mut Grid, cell: usize, value: u8) {
        grid.set(cell, value);
    }

    fn random_solution(
        &self,
        request: &HardRequest,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut Solver,
    ) -> Option<Grid> {
        Some(random_grid(rng, solver, request.shard, request.first))
    }

    fn dig(
        &self,
        request: &HardRequest,
        solution: &Grid,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut Solver,
    ) -> Grid {
        dig(solution, CELLS, request.symmetric, rng, solver)
    }

    fn count(&self, solver: &mut Solver, puzzle: &Grid) -> Option<(usize, Option<Grid>)> {
        let outcome = solver.search(puzzle, 2);
        Some((outcome.solutions, outcome.first_solution))
    }

    fn has_other_solution(
        &self,
        solver: &mut Solver,
        puzzle: &Grid,
        cell: usize,
        value: u8,
    ) -> bool {
        solver.has_other_solution(puzzle, cell, value)
    }

    fn free_values(&self, puzzle: &Grid, cell: usize) -> u32 {
        let used = houses_of(cell)
            .iter()
            .flat_map(|&house| HOUSES[house])
            .fold(0u32, |used, c| used | 1 << puzzle.get(c));
        0x3fe & !used
    }

    fn guesses_of(&self, solver: &mut Solver, puzzle: &Grid, k: usize) -> usize {
        measure::guesses_of(solver, puzzle, k)
    }

    fn has_backdoor(&self, solver: &mut Solver, puzzle: &Grid, solution: &Grid) -> bool {
        // A puzzle is easy for a solver that branches on such a cell first, however many guesses
        // ours makes.
        (0..CELLS).filter(|&c| puzzle.get(c) == 0).any(|cell| {
            let mut more = *puzzle;
            more.set(cell, solution.get(cell));
            solver.solves_without_guess(&more)
        })
    }

    fn key(&self, request: &HardRequest, puzzle: &Grid) -> Grid {
        if request.classes {
            canonical_form(puzzle)
        } else {
            *puzzle
        }
    }

    fn reads_back(&self, _puzzle: &Grid) -> bool {
        // 9×9 has one split, and a puzzle of the diagonals read without them either has many
        // solutions or the same one.
        true
    }

    fn level(&self, puzzle: &Grid) -> Level {
        level_within(puzzle, Level::Harder)
    }

    fn patience(&self) -> Option<usize> {
        // The reach of `engine::hard::reach` is measured on the standard shape, whose grids and
        // puzzles are past counting: the search never runs short of them.
        None
    }
}

/// Renders hard puzzles as [`render_puzzles`] does, the csv format with a column more:
/// `puzzle,solution,blanks,level,guesses_mean`.
pub fn render_hard(puzzles: &[Found<Grid>], format: OutputFormat) -> Vec<u8> {
    let plain: Vec<Puzzle> = puzzles
        .iter()
        .map(|p| Puzzle {
            puzzle: p.puzzle,
            solution: p.solution,
            level: p.level,
        })
        .collect();
    let totals: Vec<usize> = puzzles.iter().map(|p| p.total).collect();
    crate::engine::hard::measure::with_means(render_puzzles(&plain, format), &totals, format)
}
