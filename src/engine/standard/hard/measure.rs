//! The difficulty of a 9×9 puzzle for a search solver, free of one solver's branching order.
//!
//! The search counted branches as the fastest solvers do, on a digit's configuration in a band or
//! stack, with the triads' rule among its reasoning (see `solve/configurations.rs`): a count of
//! guesses on cells calls puzzles hard that such a solver finds easy, and a search that climbs
//! it finds those. The measure is the mean of its guesses to a first solution over the fixed
//! random equivalents that every kernel's measure takes (see [`crate::engine::hard::measure`]),
//! here moves of the 9×9 group drawn as `--shuffle` draws them.

use std::sync::LazyLock;

use crate::classes::canon::Transformation;
use crate::classes::shuffle::transformation_of;
use crate::engine::hard::measure::{EQUIVALENTS, MEASURE_SEED};
use crate::engine::standard::solve::Solver;
use crate::model::grid::Grid;

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

/// The guesses over all [`EQUIVALENTS`], added up: ten times the mean, kept whole so that a
/// level compares exactly.
pub fn total_guesses(solver: &mut Solver, puzzle: &Grid) -> usize {
    (0..EQUIVALENTS)
        .map(|k| guesses_of(solver, puzzle, k))
        .sum()
}
