//! The kernels for every shape: a search over the shape's houses, the value-by-value walk over its
//! regions, and digging.

pub mod deal;
pub mod dig;
pub mod hard;
pub mod levels;
pub mod listed;
pub mod reach;
pub mod solve;
pub mod walk;

use crate::error::Error;
use crate::model::shape::Shape;

/// The guesses, per cell, the search may spend looking for a first complete grid of a shape
/// before `-c` or `-n` works on it.
const FIRST_GRID_GUESSES_PER_CELL: usize = 2000;

/// Refuses a shape without a complete grid before `-c` or `-n` (asking for `asked`) works on it:
/// both would search for grids that are not there, and on some jigsaw layouts without any, proving
/// that takes the search longer than a run can wait, so a shape whose first grid is not found
/// within a bound ends the run too, saying so. Both are data outcomes (exit code 1), not usage
/// errors: a search finds them, the flags do not tell them. Returns that first grid.
pub fn check_has_grid(shape: &Shape, asked: usize) -> Result<Vec<u8>, Error> {
    let cells = shape.cells();
    let mut grid = vec![0; cells];
    match solve::Solver::new(shape).count_within(
        &vec![0; cells],
        1,
        &mut grid,
        FIRST_GRID_GUESSES_PER_CELL * cells,
    ) {
        Some(1) => Ok(grid),
        Some(_) => Err(Error::TooFewGrids {
            asked,
            exist: 0,
            shard: None,
            first: None,
        }),
        None => Err(Error::NoGridFound {
            guesses: FIRST_GRID_GUESSES_PER_CELL * cells,
        }),
    }
}
