//! `-c N --classes` for other shapes: complete grids of which no two are equivalent.
//!
//! Grid `k` is a random complete grid drawn by the solver from the seed, `k` and an attempt series
//! (see [`crate::engine::distinct`]); a grid whose canonical form an earlier grid has is drawn
//! again from the next series, so the grids are a function of the seed whatever the thread count.
//! With `--first S` each grid is relabelled so that S is its top-left symbol, which keeps its
//! class.
//!
//! The draws reach some classes far more often than others, so on a shape whose classes can be
//! listed (see [`every_class`]) a request for more than it has is refused before any draw, and
//! the grids the draws did not find, once an index runs out of series, are random equivalents of
//! the classes not drawn, taken in an order drawn from the seed. On the other shapes a shortfall
//! says how many were found.

use std::collections::HashSet;

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;

use super::Canon;
use super::every::every_class;
use crate::engine::distinct::{Shortfall, distinct};
use crate::engine::generic::check_has_grid;
use crate::engine::generic::solve::Solver;
use crate::engine::generic::walk::ShapedGrids;
use crate::error::Error;
use crate::text::format::Format;
use crate::text::shaped::{Layout, render};

/// The attempt series that gave repeats a grid may take before the draws are deemed to have found
/// what they can (draws that found no grid in their guesses count a sixteenth: see
/// [`crate::engine::distinct`]).
const MOST_SERIES: u64 = 40;

/// The guesses, per cell, the solver may spend drawing one grid.
const GUESSES_PER_CELL: usize = 64;

/// Sets the generator that orders and moves the classes left to the draws apart from theirs.
const LISTED_STREAM: u64 = 0x6c69_7374_6564_0001;

/// `request.count` pairwise inequivalent complete grids of `request.shape` (its shard is not
/// used: the routing refuses `--shard` with `--classes`).
pub fn render_class_grids(request: &ShapedGrids) -> Result<Vec<u8>, Error> {
    let shape = &request.shape;
    let n = shape.size();
    check_has_grid(shape, request.count)?;
    let canon = Canon::new(shape);
    let every = every_class(shape, &canon);
    if let Some(every) = &every
        && every.len() < request.count
    {
        return Err(Error::Usage(format!(
            "-c {} --classes: this {n}×{n} shape has exactly {} class{} of complete grids; ask \
             for at most that many",
            request.count,
            every.len(),
            if every.len() == 1 { "" } else { "es" }
        )));
    }
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
            (found == Some(true)).then(|| with_first(request, grid))
        },
        |grid| canon.form(grid),
    );
    let grids = match (made, every) {
        (Ok(grids), _) => grids,
        (Err(shortfall), Some(every)) => fill_from_list(request, &canon, shortfall, every),
        (Err(shortfall), None) => {
            return Err(Error::TooFewClasses {
                asked: request.count,
                found: shortfall.made(),
                size: n,
            });
        }
    };
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

/// The grids the draws made, with each index they left without one given a random equivalent of
/// a class of `every` (all the shape's, at least as many as asked for) that none of them is in.
fn fill_from_list(
    request: &ShapedGrids,
    canon: &Canon,
    shortfall: Shortfall<Vec<u8>>,
    every: Vec<Vec<u8>>,
) -> Vec<Vec<u8>> {
    let Shortfall(grids) = shortfall;
    let drawn: HashSet<Vec<u8>> = grids.iter().flatten().map(|g| canon.form(g)).collect();
    let mut left: Vec<Vec<u8>> = every.into_iter().filter(|f| !drawn.contains(f)).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(request.seed ^ LISTED_STREAM);
    left.shuffle(&mut rng);
    let mut left = left.into_iter();
    grids
        .into_iter()
        .map(|grid| {
            grid.unwrap_or_else(|| {
                let form = left.next().expect("the shape has the classes asked for");
                with_first(request, canon.shuffle(&form, &mut rng))
            })
        })
        .collect()
}

/// `grid` relabelled so that `--first`'s symbol, when asked for, is its top-left one.
fn with_first(request: &ShapedGrids, mut grid: Vec<u8>) -> Vec<u8> {
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
    grid
}
