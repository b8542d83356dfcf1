//! `-c N --classes` for other shapes: complete grids of which no two are equivalent.
//!
//! Grid `k` is a random complete grid drawn by the solver from the seed, `k` and an attempt series
//! (see [`crate::engine::distinct`]); a grid whose canonical form an earlier grid has is drawn
//! again from the next series, so the grids are a function of the seed whatever the thread count.
//! With `--first S` each grid is relabelled so that S is its top-left symbol, which keeps its
//! class. A shape with fewer classes than asked for (a 4×4 grid has two) ends with the count of
//! those found.

use super::Canon;
use crate::engine::distinct::distinct;
use crate::engine::generic::check_has_grid;
use crate::engine::generic::solve::Solver;
use crate::engine::generic::walk::ShapedGrids;
use crate::error::Error;
use crate::text::format::Format;
use crate::text::shaped::{Layout, render};

/// The attempt series a grid may take before the shape is deemed to have no more classes.
const MOST_SERIES: u64 = 40;

/// The guesses, per cell, the solver may spend drawing one grid.
const GUESSES_PER_CELL: usize = 64;

/// `request.count` pairwise inequivalent complete grids of `request.shape` (its shard is not
/// used: the routing refuses `--shard` with `--classes`).
pub fn render_class_grids(request: &ShapedGrids) -> Result<Vec<u8>, Error> {
    let shape = &request.shape;
    check_has_grid(shape, request.count)?;
    let canon = Canon::new(shape);
    let cells = shape.cells();
    let made = distinct(
        request.count,
        MOST_SERIES,
        || Solver::new(shape),
        |solver, index, series| {
            let seed = request.seed
                ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15)
                ^ series.wrapping_mul(0xd1b5_4a32_d192_ed03);
            let mut grid = vec![0; cells];
            let found =
                solver.random_solution(&vec![0; cells], seed, &mut grid, GUESSES_PER_CELL * cells);
            if found != Some(true) {
                return None;
            }
            if let Some(first) = request.first {
                let top = grid[0];
                for v in &mut grid {
                    *v = if *v == top {
                        first
                    } else if *v == first {
                        top
                    } else {
                        *v
                    };
                }
            }
            Some(grid)
        },
        |grid| canon.form(grid),
    );
    let grids = made.map_err(|made| {
        let n = shape.size();
        Error::Usage(format!(
            "-c {} --classes: only {made} pairwise inequivalent grids of this {n}×{n} shape were \
             found; ask for fewer",
            request.count
        ))
    })?;
    let layout = match request.format {
        Format::Line => Layout::Line,
        Format::Grid => Layout::Grid { compact: false },
    };
    Ok(render(
        &grids.concat(),
        &vec![shape; grids.len()],
        layout,
        true,
    ))
}
