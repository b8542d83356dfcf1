//! Which blank ranges `-n` meets at a useful rate on each shape, so that the others are refused
//! up front, with a message that states the range the shape supports.
//!
//! Where digging ends depends on the shape far more than on its size (BENCHMARKS.md has the
//! shares of blank cells per shape), so no share of the cells can both take every shape's default
//! puzzles and refuse what it cannot reach. Instead:
//!
//! - **4×4** shapes are listed (see [`super::listed`]): their blank counts are known exactly.
//! - **Up to `MINIMAL_UP_TO`**, where digging to the end is the default and takes milliseconds,
//!   [`SAMPLE`] puzzles dug to the end from a fixed seed show where this shape's puzzles end. A
//!   range is supported when at least a quarter of them reach its LOW (the digging stops at a
//!   count drawn from the range, and can only stop short of where it would end), and with
//!   `--minimal`, whose puzzles are kept only where they end, when a quarter of them end inside it:
//!   either way a puzzle takes a few digs at most.
//! - **Larger shapes** take LOW up to a share of the cells (see [`reach`]), past which the
//!   uniqueness checks slow down sharply; `--minimal` is refused there.
//!
//! A half-turn symmetric puzzle blanks a cell and its partner together; on an even N no cell is
//! its own partner, so its blank count is even, and a range that holds no even count is refused.

use std::ops::RangeInclusive;

use rayon::prelude::*;

use super::dig::{ShapedPuzzleRequest, make_one};
use super::listed::{Listing, Wanted, is_listed};
use super::solve::Solver;
use crate::model::shape::{Regions, Shape};

/// The largest N of which `--minimal --symmetric` puzzles are made: a puzzle dug by pairs of givens
/// must also lose its uniqueness with any one given blanked, which few do on larger shapes.
const MINIMAL_SYMMETRIC_UP_TO: usize = 10;

/// The largest shape whose minimal puzzles the digging makes at a useful rate: past it, proving
/// that a near-minimal puzzle still has one solution is too slow for a tool run.
pub(super) const MINIMAL_UP_TO: usize = 12;

/// The share of the cells, in percent, that may be blank on shapes past `MINIMAL_UP_TO` up to
/// 16×16.
const REACH_PERCENT: usize = 60;

/// The same for larger shapes, whose uniqueness checks slow down sharply past half the cells
/// blank.
const LARGE_REACH_PERCENT: usize = 48;

/// Puzzles dug to the end to see where a shape's puzzles end: few, since they are dug before any
/// work of the request.
pub const SAMPLE: usize = 24;

/// The seed of the sample: a fixed one, so that whether a request is taken depends on the request
/// alone, not on its seed or its thread count.
pub(super) const SAMPLE_SEED: u64 = 0x5eed_b1a2_c0de_0001;

/// The same for boxes two cells thin on the largest shapes (24×24, boxes of 2×12 or 12×2), whose
/// uniqueness checks slow down sooner: at 260 blanks they made 7 puzzles a second, at 270 one,
/// where 250 made a hundred.
const THIN_REACH_PERCENT: usize = 43;

/// The most blanks a request may start its range at on a shape past `MINIMAL_UP_TO`: a share of
/// its cells, smaller past 16×16, and smaller still for thin boxes past 22×22.
pub fn reach(shape: &Shape) -> usize {
    let thin = matches!(shape.regions(), Regions::Boxes { rows, columns } if *rows.min(columns) == 2)
        && !shape.diagonal();
    let percent = match shape.size() {
        ..=16 => REACH_PERCENT,
        23.. if thin => THIN_REACH_PERCENT,
        _ => LARGE_REACH_PERCENT,
    };
    shape.cells() * percent / 100
}

/// Refuses up front, with a usage message that states what the shape supports, a request the
/// digging cannot meet in reasonable time (see the module documentation).
pub fn check_reachable(
    shape: &Shape,
    blanks: Option<&RangeInclusive<usize>>,
    minimal: bool,
    symmetric: bool,
) -> Result<(), String> {
    let n = shape.size();
    if minimal && n > MINIMAL_UP_TO {
        return Err(format!(
            "--minimal: minimal {n}×{n} puzzles take the digging a second or more each; it makes \
             them up to {MINIMAL_UP_TO}×{MINIMAL_UP_TO} (use -r up to {} blanks instead)",
            reach(shape)
        ));
    }
    if minimal && symmetric && n > MINIMAL_SYMMETRIC_UP_TO {
        return Err(format!(
            "--minimal --symmetric: from {m}×{m} up, few puzzles dug by pairs of givens are \
             minimal (19 in 1000 tries at 12×12), so the digging would crawl; it makes them up \
             to {MINIMAL_SYMMETRIC_UP_TO}×{MINIMAL_SYMMETRIC_UP_TO} (--symmetric alone digs \
             to the end)",
            m = MINIMAL_SYMMETRIC_UP_TO + 1
        ));
    }
    let Some(range) = blanks else {
        return Ok(());
    };
    let asked = format!(
        "-r {}~{}{}{}",
        range.start(),
        range.end(),
        if minimal { " --minimal" } else { "" },
        if symmetric { " --symmetric" } else { "" }
    );
    if symmetric && n.is_multiple_of(2) && range.start() == range.end() && range.start() % 2 == 1 {
        let odd = *range.start();
        let (low, high) = if odd > 1 { (odd - 1, odd + 1) } else { (2, 2) };
        return Err(format!(
            "{asked}: a half-turn symmetric {n}×{n} puzzle has an even number of blanks, since \
             a grid of even size has no centre cell and every blank has a partner; try -r \
             {low}~{high}"
        ));
    }
    let kind = match (minimal, symmetric) {
        (true, true) => "minimal symmetric puzzle",
        (true, false) => "minimal puzzle",
        (false, true) => "symmetric puzzle",
        (false, false) => "puzzle",
    };
    if is_listed(shape) {
        let wanted = Wanted {
            blanks: None,
            symmetric,
            dug_to_the_end: minimal,
            minimal,
            level: None,
            first: None,
        };
        return match Listing::new(shape, &wanted, None).blank_counts() {
            Some(counts) if overlaps(range, &counts) => Ok(()),
            Some(counts) => Err(format!(
                "{asked}: on this {n}×{n} shape, a {kind} has {} to {} blanks (every one is \
                 listed); try -r {}~{}",
                counts.start(),
                counts.end(),
                counts.start(),
                counts.end()
            )),
            None => Ok(()),
        };
    }
    if n > MINIMAL_UP_TO {
        let reach = reach(shape);
        // The digging aims at most at the reach, so a symmetric range needs an even count below.
        let even_top = range.end().min(&reach) & !1;
        if symmetric && n.is_multiple_of(2) && *range.start() <= reach && even_top < *range.start()
        {
            return Err(format!(
                "{asked}: a half-turn symmetric {n}×{n} puzzle has an even number of blanks, and \
                 this shape is dug to {reach} blanks at most; try -r {}~{}",
                even_top.saturating_sub(2).max(2),
                even_top.max(2)
            ));
        }
        return if *range.start() > reach {
            Err(format!(
                "{asked}: a {n}×{n} {kind} can have 1 to {reach} blanks here (more are too slow \
                 to dig); try -r 1~{reach}"
            ))
        } else {
            Ok(())
        };
    }
    // A layout without a grid, or one whose first grid the search cannot find within its bound,
    // has nothing to sample: the job refuses it itself, in its own words.
    if super::check_has_grid(shape, 1).is_err() {
        return Ok(());
    }
    let ends = sample_ends(shape, symmetric);
    let (Some(&fewest), Some(&most)) = (ends.first(), ends.last()) else {
        return Ok(());
    };
    let enough = ends.len().div_ceil(4);
    if minimal {
        if ends.iter().filter(|end| range.contains(end)).count() >= enough {
            return Ok(());
        }
        return Err(format!(
            "{asked}: on this {n}×{n} shape, a {kind} ends with {fewest} to {most} blanks (in \
             {SAMPLE} dug from a fixed seed), and a range must hold a quarter of them to be made \
             at a useful rate; try -r {fewest}~{most}"
        ));
    }
    let top = ends[ends.len() - enough];
    if *range.start() <= top {
        return Ok(());
    }
    Err(format!(
        "{asked}: on this {n}×{n} shape, -r can start at 1 to {top} blanks for a {kind} \
         ({SAMPLE} dug to the end from a fixed seed keep {fewest} to {most} blanks; a higher \
         start is too slow to dig); try -r {fewest}~{most}"
    ))
}

/// Whether two ranges share a count.
fn overlaps(a: &RangeInclusive<usize>, b: &RangeInclusive<usize>) -> bool {
    a.start() <= b.end() && b.start() <= a.end()
}

/// The blank counts of [`SAMPLE`] puzzles of `shape` dug to the end, in increasing order.
fn sample_ends(shape: &Shape, symmetric: bool) -> Vec<usize> {
    let request = ShapedPuzzleRequest {
        shape: shape.clone(),
        count: SAMPLE,
        seed: SAMPLE_SEED,
        blanks: None,
        minimal: true,
        symmetric,
        shard: None,
        level: None,
        with_levels: false,
        guesses: None,
        classes: false,
        first: None,
    };
    let mut ends: Vec<usize> = (0..SAMPLE as u64)
        .into_par_iter()
        .map_init(
            || Solver::new(shape),
            |solver, index| make_one(&request, None, solver, index, 0),
        )
        .flatten()
        .map(|made| made.puzzle.iter().filter(|&&v| v == 0).count())
        .collect();
    ends.sort_unstable();
    ends
}
