//! Solving a whole file of puzzles: every puzzle solved over the thread pool and written straight
//! into its record of the output text, in input order.
//!
//! Records have a fixed length in both formats (see [`Format`]), so the output is one buffer cut
//! into equal slices, one per puzzle, that threads fill independently; pieces of 256 puzzles keep
//! the threads evenly loaded, since one hard puzzle can cost as much as thousands of easy ones.

use std::fmt;

use rayon::prelude::*;

use crate::format::Format;
use crate::grid::House;
use crate::parse::Puzzles;
use crate::problems::Problems;
use crate::solve::Solver;

/// Why a puzzle of a batch was not simply solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The puzzle has no solution; `repeat` is a digit its givens already repeat in a house.
    NoSolution {
        /// The first digit given twice in one house, if any.
        repeat: Option<(u8, House)>,
    },
    /// The puzzle has more than one solution (reported only when uniqueness was asked for).
    MoreThanOneSolution,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::NoSolution {
                repeat: Some((digit, house)),
            } => write!(f, "no solution: digit {digit} repeats in {house}"),
            Failure::NoSolution { repeat: None } => f.write_str("no solution"),
            Failure::MoreThanOneSolution => f.write_str("more than one solution"),
        }
    }
}

/// A problem with one puzzle of a file: which puzzle, on which line, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleProblem {
    /// The puzzle's number in the file, counted from 1.
    pub puzzle: usize,
    /// The line where the puzzle starts, counted from 1.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

impl PuzzleProblem {
    /// The problem of puzzle `index` (counted from 0) of `puzzles`.
    pub fn new(puzzles: &Puzzles, index: usize, what: impl fmt::Display) -> PuzzleProblem {
        PuzzleProblem {
            puzzle: index + 1,
            line: puzzles.lines[index],
            what: what.to_string(),
        }
    }

    /// The report's line for the file named `name`: `NAME: puzzle K (line L): what`.
    pub fn line_in(&self, name: &str) -> String {
        format!(
            "{name}: puzzle {} (line {}): {}",
            self.puzzle, self.line, self.what
        )
    }
}

/// What a job over a file of puzzles made: its output text, and the puzzles it could not do as
/// asked (the text still has a record for each).
pub struct BatchOutput {
    /// One record per puzzle, in input order.
    pub text: Vec<u8>,
    /// The puzzles that failed, in input order.
    pub problems: Problems<PuzzleProblem>,
}

/// Solves `puzzles` over the current rayon pool and writes, in input order, one record of `format`
/// per puzzle: its first solution, or the puzzle itself (blanks as `0` in the grid format, `.` in the
/// line format) when it has none. With `unique`, each puzzle must have exactly one solution.
pub fn solve_batch(puzzles: &Puzzles, unique: bool, format: Format) -> BatchOutput {
    let grids = &puzzles.grids;
    let record_len = format.record_len();
    let blank = if format == Format::Grid { b'0' } else { b'.' };
    let mut text = vec![0; record_len * grids.len()];
    let limit = if unique { 2 } else { 1 };
    let failures: Vec<(usize, Failure)> = text
        .par_chunks_mut(record_len)
        .zip(grids.par_iter())
        .enumerate()
        .with_min_len(256)
        .with_max_len(256)
        .map_init(Solver::new, |solver, (index, (record, puzzle))| {
            let outcome = solver.search(puzzle, limit);
            let written = outcome.first_solution.as_ref().unwrap_or(puzzle);
            format.write_record(written, blank, record);
            match (outcome.first_solution, outcome.solutions) {
                (None, _) => Some((
                    index,
                    Failure::NoSolution {
                        repeat: puzzle.first_repeat(),
                    },
                )),
                (Some(_), 2..) => Some((index, Failure::MoreThanOneSolution)),
                _ => None,
            }
        })
        .flatten()
        .collect();
    text.truncate(format.output_len(grids.len()));
    let mut problems = Problems::new();
    for (index, failure) in failures {
        problems.push_with(|| PuzzleProblem::new(puzzles, index, failure));
    }
    BatchOutput { text, problems }
}
