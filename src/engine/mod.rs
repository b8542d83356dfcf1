//! The engine: what every job asks of a solver, behind one interface with two kernels.
//!
//! - [`standard`]: the 9×9 kernels, the bit-parallel band solver, the value-by-value walk of `-c`
//!   with its shortcuts, and digging with the solver's givens kept by band.
//! - [`generic`]: the same jobs over the house tables of any [`Shape`].
//!
//! A job never chooses between them: [`Kernel::for_shape`] does, and [`Kernel::supports`] is the one
//! table of what each kernel can do, whose refusal is the usage error a command line shows.
//!
//! The interface is [`Engine`]: count the solutions of a puzzle up to a limit, with the first
//! solution and the guesses the search made (tdoku's contract: a limit of 2 tells uniqueness, and
//! the guess count doubles as a difficulty signal). Grids and puzzles are cell values row by row,
//! 0 for a blank and 1..=N for a symbol, the same for every shape.

pub mod distinct;
pub mod generic;
pub(crate) mod give_back;
pub mod hard;
pub mod standard;

use crate::model::grid::{CELLS, Grid};
use crate::model::shape::Shape;

/// What one search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Solutions found, at most the limit asked for.
    pub solutions: usize,
    /// Guesses the search made: 0 when reasoning alone decided the puzzle.
    pub guesses: usize,
}

/// A solution counter for puzzles of one shape, kept between puzzles so that its buffers are
/// reused.
pub trait Engine: Send {
    /// Counts the solutions of `puzzle` (its shape's cells, 0 for a blank) up to `limit` (at least
    /// 1), writing the first one found into `solution` (left as it was when there is none).
    fn count(&mut self, puzzle: &[u8], limit: usize, solution: &mut [u8]) -> Count;
}

/// The kernel that serves a shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// The standard 9×9 shape: 3×3 boxes, digits 1 to 9, no other house.
    Standard,
    /// Every other shape.
    Generic,
}

/// The features only some kernels have. Each names the option that asks for it, so that a refusal
/// can say what was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// `-m`: puzzles of a level of the logical solver.
    Level,
    /// `--rate`: the logical solver's rating.
    Rate,
    /// `--first`: the symbol of the top-left cell.
    First,
    /// `--format csv`.
    Csv,
    /// `--canon`: canonical forms.
    Canon,
    /// `--shuffle`: random equivalents.
    Shuffle,
    /// `--classes`: no two equivalent.
    Classes,
    /// `--guesses`: puzzles by the search's guesses.
    Guesses,
    /// `--hard`: hard puzzles by a search.
    Hard,
    /// `--shard`: a corpus made by many runs.
    Shard,
    /// `--column`: the puzzle column of a CSV corpus.
    Column,
    /// `--grade`: the homework grader.
    Grade,
    /// `--print`: the homework grader's plans.
    Print,
}

impl Feature {
    /// The option that asks for the feature.
    pub fn option(self) -> &'static str {
        match self {
            Feature::Level => "-m",
            Feature::Rate => "--rate",
            Feature::First => "--first",
            Feature::Csv => "--format csv",
            Feature::Canon => "--canon",
            Feature::Shuffle => "--shuffle",
            Feature::Classes => "--classes",
            Feature::Guesses => "--guesses",
            Feature::Hard => "--hard",
            Feature::Shard => "--shard",
            Feature::Column => "--column",
            Feature::Grade => "--grade",
            Feature::Print => "--print",
        }
    }
}

/// What each kernel supports: the one place where a job is said to be 9×9-only.
const SUPPORT: &[(Feature, [bool; 2])] = &[
    // (feature, [standard, generic])
    (Feature::Level, [true, true]),
    (Feature::Rate, [true, true]),
    (Feature::First, [true, true]),
    (Feature::Csv, [true, true]),
    (Feature::Canon, [true, true]),
    (Feature::Shuffle, [true, true]),
    (Feature::Classes, [true, true]),
    (Feature::Guesses, [true, true]),
    (Feature::Hard, [true, true]),
    (Feature::Shard, [true, true]),
    (Feature::Column, [true, true]),
    (Feature::Grade, [true, false]),
    (Feature::Print, [true, false]),
];

impl Kernel {
    /// The kernel that serves `shape`.
    pub fn for_shape(shape: &Shape) -> Kernel {
        if shape.is_standard() {
            Kernel::Standard
        } else {
            Kernel::Generic
        }
    }

    /// Whether the kernel has `feature`.
    pub fn supports(self, feature: Feature) -> bool {
        let column = match self {
            Kernel::Standard => 0,
            Kernel::Generic => 1,
        };
        SUPPORT
            .iter()
            .find(|(f, _)| *f == feature)
            .is_some_and(|(_, kernels)| kernels[column])
    }

    /// An engine of this kernel for puzzles of `shape`.
    pub fn engine(self, shape: &Shape) -> Box<dyn Engine> {
        match self {
            Kernel::Standard => Box::new(standard::solve::Solver::new()),
            Kernel::Generic => Box::new(generic::solve::Solver::new(shape)),
        }
    }
}

/// An engine for puzzles of `shape`, of the kernel that serves it.
pub fn engine_for(shape: &Shape) -> Box<dyn Engine> {
    Kernel::for_shape(shape).engine(shape)
}

impl Engine for standard::solve::Solver {
    fn count(&mut self, puzzle: &[u8], limit: usize, solution: &mut [u8]) -> Count {
        let grid = <[u8; CELLS]>::try_from(puzzle)
            .ok()
            .and_then(Grid::from_cells);
        let Some(grid) = grid else {
            return Count {
                solutions: 0,
                guesses: 0,
            };
        };
        let outcome = self.search(&grid, limit);
        if let Some(first) = outcome.first_solution {
            solution.copy_from_slice(first.cells());
        }
        Count {
            solutions: outcome.solutions,
            guesses: outcome.guesses,
        }
    }
}

impl Engine for generic::solve::Solver {
    fn count(&mut self, puzzle: &[u8], limit: usize, solution: &mut [u8]) -> Count {
        let solutions = generic::solve::Solver::count(self, puzzle, limit.max(1), solution);
        Count {
            solutions,
            guesses: self.guesses_made(),
        }
    }
}

#[cfg(test)]
mod tests;
