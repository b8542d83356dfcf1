//! The difficulty of a puzzle for a search solver, free of one solver's branching order.
//!
//! The search counted branches as the fastest solvers do, on a digit's configuration in a band or
//! stack, with the triads' rule among its reasoning (see `solve/configurations.rs`): a count of
//! guesses on cells calls puzzles hard that such a solver finds easy, and a search that climbs
//! it finds those. One count still depends on where the puzzle's givens sit (the search takes
//! the first of its best bands and digits), so a row swap or a relabelling can change it several
//! times over. The measure is therefore the mean of the guesses to find the first solution over
//! [`EQUIVALENTS`] random equivalents of the puzzle. The equivalents are the same for every
//! puzzle and every run (drawn from a fixed seed), so that `--rate` and `-n --hard` agree on
//! every puzzle.

use std::sync::LazyLock;

use crate::classes::canon::Transformation;
use crate::classes::shuffle::transformation_of;
use crate::engine::standard::solve::Solver;
use crate::model::grid::Grid;

/// How many random equivalents the measure averages over.
pub const EQUIVALENTS: usize = 10;

/// The seed of the measure's equivalents.
const MEASURE_SEED: u64 = 0x6775_6573_7365_7321;

/// The equivalents' transformations, drawn once.
static TRANSFORMATIONS: LazyLock<[Transformation; EQUIVALENTS]> =
    LazyLock::new(|| std::array::from_fn(|k| transformation_of(MEASURE_SEED, k)));

/// The guesses `solver` makes to find a first solution of equivalent `k` (below
/// [`EQUIVALENTS`]) of `puzzle`.
pub(crate) fn guesses_of(solver: &mut Solver, puzzle: &Grid, k: usize) -> usize {
    solver
        .configuration_guesses(&TRANSFORMATIONS[k].apply(puzzle))
        .unwrap_or(0)
}

/// Writes a total of guesses as their mean over [`EQUIVALENTS`], with its one decimal.
pub fn push_mean(out: &mut Vec<u8>, total: usize) {
    out.extend_from_slice(itoa::Buffer::new().format(total / EQUIVALENTS).as_bytes());
    out.push(b'.');
    out.push(b'0' + (total % EQUIVALENTS) as u8);
}

/// The guesses over all [`EQUIVALENTS`], added up: ten times the mean (see the module comment),
/// kept whole so that a level compares exactly.
pub fn total_guesses(solver: &mut Solver, puzzle: &Grid) -> usize {
    (0..EQUIVALENTS)
        .map(|k| guesses_of(solver, puzzle, k))
        .sum()
}
