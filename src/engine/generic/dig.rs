//! `-n` for every shape: puzzles with exactly one solution, dug out of random complete grids.
//!
//! A random grid: a few cells get random values that their peers allow, and the solver completes
//! them (drawn again when it cannot). Digging: the cells in random order (with `symmetric`, a cell
//! and its partner under a half turn together); a cell stays blank when the puzzle keeps exactly
//! one solution. It stops at a blank count drawn from the asked range, or, with `minimal`, when
//! every cell has been tried. A puzzle that ends outside the range is dug again from a new grid.
//!
//! With a shard, each random grid is relabelled into one of the shard's grids (see
//! [`super::deal`]), so the puzzles of two shards, each with one solution, differ. With a first
//! value, each random grid has it swapped with the value of its top-left cell before it is dug: a
//! relabelling, which keeps the grid a grid, and since it comes before the puzzle is compared with
//! the others, the puzzles stay distinct. With both, one relabelling does both, keying the grid by
//! two values other than the first.
//!
//! On a 4×4 shape every puzzle is listed instead, and the puzzles are drawn from the list (see
//! [`super::listed`]).
//!
//! Puzzle `i` is made from its own generator seeded from the seed and `i`, so the output does not
//! depend on the thread count; a puzzle equal to an earlier one is replaced by the next index's.

use std::collections::HashSet;
use std::ops::RangeInclusive;

use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, RngExt, SeedableRng};

use super::deal::{relabel_into, swap_values};
use super::levels::level_floor;
use super::listed::{Listing, Wanted, is_listed};
use super::reach::{MINIMAL_UP_TO, reach};
use super::solve::Solver;
use crate::classes::shaped::Canon;
use crate::engine::distinct::distinct;
use crate::engine::give_back::to_level;
use crate::error::Error;
use crate::jobs::rate::{Level, ShapeLogic};
use crate::model::shape::Shape;
use crate::model::shard::Shard;
use crate::text::boxes::misread_elsewhere;
use crate::text::format::OutputFormat;
use crate::text::shaped::{Layout, render, write_record};

/// What to make.
#[derive(Clone, Debug)]
pub struct ShapedPuzzleRequest {
    /// The shape of the puzzles.
    pub shape: Shape,
    /// How many puzzles.
    pub count: usize,
    /// Every output is a function of the seed (and the other fields).
    pub seed: u64,
    /// The blank counts allowed; `None` for the default (see [`aimed_blanks`]).
    pub blanks: Option<RangeInclusive<usize>>,
    /// Removing any given leaves more than one solution.
    pub minimal: bool,
    /// The givens are symmetric under a half turn.
    pub symmetric: bool,
    /// Only puzzles whose solutions belong to this shard: the shards of one seed share no puzzle.
    pub shard: Option<Shard>,
    /// The level of the logical solver, or any.
    pub level: Option<Level>,
    /// Rate every puzzle (the csv format shows the level), even without a level asked for.
    pub with_levels: bool,
    /// The guesses the search makes to solve the puzzle and prove it unique (as `--rate` counts
    /// them), or any.
    pub guesses: Option<RangeInclusive<usize>>,
    /// No two puzzles equivalent (see [`crate::classes::shaped`]).
    pub classes: bool,
    /// The value (1..=N) of every solution's top-left cell, or any.
    pub first: Option<u8>,
}

/// Tries per puzzle before a request is given up.
pub(super) const TRIES: usize = 50;

/// The attempt series that gave repeats an index of `-n` may take before the shape is deemed to
/// have no more puzzles than those made (series that gave nothing count a sixteenth: see
/// [`crate::engine::distinct`]).
const MOST_SERIES: u64 = 20;

/// The guesses, per cell, the search may spend completing the random givens of one draw.
const GRID_GUESSES_PER_CELL: usize = 8;

/// The guesses, per cell, the search may spend on whether blanking a cell keeps one solution.
pub(super) const DIG_GUESSES_PER_CELL: usize = 400;

/// The checks' worth of guesses one digging may spend in all: where each check costs near its
/// budget (a 25×25 layout whose regions are its rows is a Latin square to the search), the
/// digging stops where it is, a puzzle of fewer blanks, rather than crawl on. Diggings of other
/// shapes spend far less.
const DIG_CHECKS_OF_GUESSES: usize = 4;

/// Where the digging aims from, in percent of the cells, for shapes past `MINIMAL_UP_TO` and no
/// range asked: well short of the reach, so that most puzzles land in the range.
const AIM_FROM_PERCENT: usize = 45;

/// How far below the reach, in percent of the cells, the digging aims from at least: where the
/// reach is lower than most (boxes two cells thin), the default range still spans some counts.
const AIM_BELOW_REACH_PERCENT: usize = 3;

/// The blank counts the digging aims at: the asked range, up to [`reach`] on shapes past
/// `MINIMAL_UP_TO` (on smaller ones the digging ends where the shape lets it, and
/// [`super::reach`] has checked that it ends in range often enough); without one, as far as the
/// digging goes (`None`) on shapes up to `MINIMAL_UP_TO`, else from `AIM_FROM_PERCENT` of the
/// cells (or `AIM_BELOW_REACH_PERCENT` below the reach, if lower) to [`reach`].
pub fn aimed_blanks(
    shape: &Shape,
    blanks: Option<&RangeInclusive<usize>>,
    minimal: bool,
) -> Option<RangeInclusive<usize>> {
    match blanks {
        _ if minimal => None,
        Some(range) if shape.size() <= MINIMAL_UP_TO => Some(range.clone()),
        Some(range) => Some(*range.start()..=(*range.end()).min(reach(shape))),
        None if shape.size() <= MINIMAL_UP_TO => None,
        None => {
            let (cells, reach) = (shape.cells(), reach(shape));
            let from =
                (cells * AIM_FROM_PERCENT / 100).min(reach - cells * AIM_BELOW_REACH_PERCENT / 100);
            Some(from..=reach)
        }
    }
}

/// A puzzle and its solution, N·N values each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapedPuzzle {
    /// 0 for blank.
    pub puzzle: Vec<u8>,
    /// The unique solution.
    pub solution: Vec<u8>,
    /// Its level, if the request asked for one or for levels.
    pub level: Option<Level>,
}

/// Makes `request.count` distinct puzzles over the current rayon pool.
pub fn generate_puzzles(request: &ShapedPuzzleRequest) -> Result<Vec<ShapedPuzzle>, Error> {
    if is_listed(&request.shape) {
        return draw_listed(request);
    }
    super::check_has_grid(&request.shape, request.count)?;
    let logic =
        (request.level.is_some() || request.with_levels).then(|| ShapeLogic::new(&request.shape));
    let canon = request.classes.then(|| Canon::new(&request.shape));
    let made = distinct(
        request.count,
        MOST_SERIES,
        || Solver::new(&request.shape),
        |solver, index, series| make_one(request, logic.as_ref(), solver, index, series),
        |puzzle| match &canon {
            Some(canon) => canon.form(&puzzle.puzzle),
            None => puzzle.puzzle.clone(),
        },
    );
    made.map_err(
        |shortfall| match (request.blanks.as_ref(), shortfall.made()) {
            (Some(_), made) => Error::TooFewPuzzles {
                asked: request.count,
                made,
            },
            (None, made) => Error::TooFewMade {
                asked: request.count,
                made,
                of: of_the_shape(request),
                classes: request.classes,
            },
        },
    )
}

/// `-n` on a 4×4 shape: `request.count` puzzles drawn from all that exist (see [`listed`]), or a
/// usage error saying how many exist when that is fewer.
///
/// [`listed`]: super::listed
fn draw_listed(request: &ShapedPuzzleRequest) -> Result<Vec<ShapedPuzzle>, Error> {
    let wanted = Wanted {
        blanks: request.blanks.clone(),
        symmetric: request.symmetric,
        dug_to_the_end: aimed_blanks(&request.shape, request.blanks.as_ref(), request.minimal)
            .is_none(),
        minimal: request.minimal,
        level: request.level,
        first: request.first,
    };
    let listing = Listing::new(&request.shape, &wanted, request.shard);
    // With --classes the count that matters is of classes, which the draw below finds.
    let short = listing.len() < request.count && (!request.classes || listing.is_empty());
    if short {
        let instead = match request.level {
            Some(_) if listing.is_empty() => "try another -m",
            _ if listing.is_empty() && request.shard.is_some() => "use fewer shards",
            _ if listing.is_empty() => "relax -r, --symmetric or --first",
            _ => "ask for at most that many",
        };
        // Without a range -n digs to the end; but with no puzzle of the level listed, that no
        // puzzle of the level exists, minimal or not, is what to say.
        let told = match request.level {
            Some(_) if listing.is_empty() && !request.minimal => Wanted {
                dug_to_the_end: false,
                ..wanted.clone()
            },
            _ => wanted.clone(),
        };
        let how_many = match listing.len() {
            0 => "no".to_owned(),
            n => format!("exactly {n}"),
        };
        return Err(Error::Usage(format!(
            "-n {}: {} has {how_many} {}; {instead}",
            request.count,
            of_the_shape(request),
            what_is_listed(&told, &request.shape),
        )));
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(request.seed);
    let mut puzzles = if request.classes {
        // Every listed puzzle in a random order, each kept when no earlier one kept is equivalent.
        // A puzzle of a list and givens already met relabels one met, so needs no form: a
        // listing of two million puzzles has under a hundred thousand lists and givens.
        let canon = Canon::new(&request.shape);
        let (mut met, mut seen) = (HashSet::new(), HashSet::new());
        let mut kept = Vec::with_capacity(request.count);
        for index in listing.draw_indices(listing.len(), &mut rng) {
            if kept.len() == request.count {
                break;
            }
            let (_, list, givens) = listing.source(index);
            if !met.insert((list, givens)) {
                continue;
            }
            let puzzle = listing.puzzle(index);
            if seen.insert(canon.form(&puzzle.puzzle)) {
                kept.push(puzzle);
            }
        }
        if kept.len() < request.count {
            return Err(Error::Usage(format!(
                "-n {} --classes: {} has exactly {} classes of {}; ask for at most that many",
                request.count,
                of_the_shape(request),
                seen.len(),
                what_is_listed(&wanted, &request.shape),
            )));
        }
        kept
    } else {
        listing.draw(request.count, &mut rng)
    };
    if request.level.is_some() || request.with_levels {
        let logic = ShapeLogic::new(&request.shape);
        for p in &mut puzzles {
            p.level = Some(logic.level_within(&request.shape, &p.puzzle, Level::Harder));
        }
    }
    Ok(puzzles)
}

/// The shape of a request, or its shard, as a message names it.
fn of_the_shape(request: &ShapedPuzzleRequest) -> String {
    shape_or_shard(&request.shape, request.shard)
}

/// `shape`, or its shard `shard`, as a message names it.
pub fn shape_or_shard(shape: &Shape, shard: Option<Shard>) -> String {
    let n = shape.size();
    match shard {
        None => format!("this {n}×{n} shape"),
        Some(shard) => format!("shard {shard} of this {n}×{n} shape"),
    }
}

/// The puzzles `wanted` asks for, of `shape`, as a count of them names them.
fn what_is_listed(wanted: &Wanted, shape: &Shape) -> String {
    let kind = match (wanted.dug_to_the_end, wanted.symmetric) {
        (_, true) if wanted.minimal => "minimal symmetric puzzles".to_owned(),
        (true, false) => "minimal puzzles".to_owned(),
        (true, true) => {
            "symmetric puzzles with one solution that blanking any pair of givens loses".to_owned()
        }
        (false, false) => "puzzles with one solution".to_owned(),
        (false, true) => "symmetric puzzles with one solution".to_owned(),
    };
    let kind = match wanted.level {
        Some(level) => format!("level {level} {kind}"),
        None => kind,
    };
    let kind = match &wanted.blanks {
        None => kind,
        Some(range) if range.start() == range.end() => format!(
            "{kind} and {} blank{}",
            range.start(),
            if *range.start() == 1 { "" } else { "s" }
        ),
        Some(range) => format!("{kind} and {} to {} blanks", range.start(), range.end()),
    };
    match wanted.first {
        None => kind,
        Some(value) => format!(
            "{kind}, their solutions starting with {}",
            char::from(shape.symbols().glyph(value))
        ),
    }
}

/// Puzzle number `index` from attempt series `series`, or `None` when [`TRIES`] grids could not
/// give one that meets the request. `logic` rates the puzzles; it is needed when the request asks
/// for a level or for levels.
pub(super) fn make_one(
    request: &ShapedPuzzleRequest,
    logic: Option<&ShapeLogic>,
    solver: &mut Solver,
    index: u64,
    series: u64,
) -> Option<ShapedPuzzle> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(
        request.seed
            ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ series.wrapping_mul(0xd1b5_4a32_d192_ed03),
    );
    let shape = &request.shape;
    let within = |puzzle: &Vec<u8>, ceiling: Level| {
        logic
            .expect("a request for levels has the logic to rate them")
            .level_within(shape, puzzle, ceiling)
    };
    // Level 1 within a range is common among dug puzzles (past `MINIMAL_UP_TO` there is always
    // one); otherwise dig deep and give back.
    let aimed = aimed_blanks(shape, request.blanks.as_ref(), request.minimal);
    let wanted = request
        .level
        .filter(|&level| level > Level::Singles || aimed.is_none());
    let mut scratch = vec![0; shape.cells()];
    for _ in 0..TRIES {
        let Some(solution) = drawn_solution(shape, solver, request.shard, request.first, &mut rng)?
        else {
            continue;
        };
        let target = match &aimed {
            _ if wanted.is_some() => deepest(shape),
            Some(range) => rng.random_range(range.clone()),
            None => usize::MAX,
        };
        let mut puzzle = dig(
            shape,
            solver,
            &solution,
            target,
            request.symmetric,
            &mut rng,
        );
        // Digging by pairs may leave a given that could go alone: such a puzzle is not minimal.
        if request.minimal && request.symmetric && !is_minimal(solver, &puzzle) {
            continue;
        }
        let level = match wanted {
            Some(wanted) => {
                let range = level_range(shape, wanted, request.blanks.as_ref());
                let modes = (request.minimal, request.symmetric);
                match to_level(
                    puzzle,
                    &solution,
                    wanted,
                    range.as_ref(),
                    modes,
                    &mut rng,
                    within,
                ) {
                    Some(leveled) => puzzle = leveled,
                    None => continue,
                }
                Some(wanted)
            }
            None if request.level.is_some() || request.with_levels => {
                Some(within(&puzzle, Level::Harder))
            }
            None => None,
        };
        let blanks = puzzle.iter().filter(|&&v| v == 0).count();
        if request.level.is_some_and(|asked| Some(asked) != level)
            || request
                .blanks
                .as_ref()
                .is_some_and(|r| !r.contains(&blanks))
        {
            continue;
        }
        if let Some(range) = &request.guesses {
            solver.count(&puzzle, 2, &mut scratch);
            if !range.contains(&solver.guesses_made()) {
                continue;
            }
        }
        if misread_elsewhere(shape, &puzzle) {
            continue;
        }
        return Some(ShapedPuzzle {
            puzzle,
            solution,
            level,
        });
    }
    None
}

/// How far the digging goes for a puzzle to give givens back from: to the end on shapes up to
/// `MINIMAL_UP_TO`, else to the shape's [`reach`] (digging only to the top of a lower range leaves
/// puzzles too easy to give back from).
fn deepest(shape: &Shape) -> usize {
    if shape.size() <= MINIMAL_UP_TO {
        usize::MAX
    } else {
        reach(shape)
    }
}

/// The blank counts a puzzle of `level` is given back to: the part of the asked range where
/// the level is common (see [`level_floor`]), up to [`reach`] on shapes past `MINIMAL_UP_TO`; any
/// (`None`) without one.
fn level_range(
    shape: &Shape,
    level: Level,
    blanks: Option<&RangeInclusive<usize>>,
) -> Option<RangeInclusive<usize>> {
    let range = aimed_blanks(shape, Some(blanks?), false)?;
    let floor = level_floor(shape, level).min(*range.end());
    Some(*range.start().max(&floor)..=*range.end())
}

/// Whether blanking any one given of `puzzle` leaves more than one solution, as the search shows
/// within its guesses: a count it cannot settle does not show it.
fn is_minimal(solver: &mut Solver, puzzle: &[u8]) -> bool {
    let mut trial = puzzle.to_vec();
    let mut scratch = vec![0; puzzle.len()];
    let guesses = DIG_GUESSES_PER_CELL * puzzle.len();
    (0..puzzle.len()).filter(|&c| puzzle[c] != 0).all(|c| {
        trial[c] = 0;
        let count = solver.count_within(&trial, 2, &mut scratch, guesses);
        trial[c] = puzzle[c];
        count == Some(2)
    })
}

/// A random complete grid of `shape` (`solver` is one for `shape`), or `None` when it has none.
fn random_grid<R: Rng + ?Sized>(
    shape: &Shape,
    solver: &mut Solver,
    rng: &mut R,
) -> Option<Vec<u8>> {
    let n = shape.size();
    let mut grid = vec![0; shape.cells()];
    for _ in 0..TRIES {
        let mut seeds = vec![0u8; shape.cells()];
        for _ in 0..n {
            let cell = rng.random_range(0..shape.cells());
            let allowed: Vec<u8> = (1..=n as u8)
                .filter(|&v| {
                    shape
                        .peers(cell)
                        .iter()
                        .all(|&p| seeds[usize::from(p)] != v)
                })
                .collect();
            if let Some(&value) = allowed.choose(rng) {
                seeds[cell] = value;
            }
        }
        // A draw whose givens leave no grid, or one the search reaches only after long, is drawn
        // again: on diagonal shapes a few draws in a hundred take the search millions of guesses.
        if solver.count_within(&seeds, 1, &mut grid, GRID_GUESSES_PER_CELL * shape.cells())
            == Some(1)
        {
            return Some(grid);
        }
    }
    // Givens drawn at random keep failing on a layout whose grids are rare: its blank grid, with
    // its values relabelled at random, still gives the digging a grid of its own.
    if solver.count(&vec![0; shape.cells()], 1, &mut grid) == 0 {
        return None;
    }
    let mut labels: Vec<u8> = (1..=n as u8).collect();
    labels.shuffle(rng);
    Some(grid.iter().map(|&v| labels[usize::from(v) - 1]).collect())
}

/// A random complete grid of `shape`, relabelled into one of `shard`'s grids and to hold `first`
/// in its top-left cell when they are asked: `None` when the shape has no grid, `Some(None)`
/// when the grid drawn has no relabelling into the shard.
pub(super) fn drawn_solution<R: Rng + ?Sized>(
    shape: &Shape,
    solver: &mut Solver,
    shard: Option<Shard>,
    first: Option<u8>,
    rng: &mut R,
) -> Option<Option<Vec<u8>>> {
    let mut solution = random_grid(shape, solver, rng)?;
    if let Some(shard) = shard {
        let n = shape.size();
        let regions = &shape.houses()[2 * n..3 * n];
        return Some(relabel_into(&solution, regions, shard, first, rng));
    }
    if let Some(value) = first {
        let top_left = solution[0];
        swap_values(&mut solution, top_left, value);
    }
    Some(Some(solution))
}

/// Blanks cells of `solution` while the puzzle keeps one solution, up to `target` blanks.
pub(super) fn dig(
    shape: &Shape,
    solver: &mut Solver,
    solution: &[u8],
    target: usize,
    symmetric: bool,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<u8> {
    let cells = shape.cells();
    let mut order: Vec<usize> = (0..cells)
        .filter(|&c| !symmetric || c <= cells - 1 - c)
        .collect();
    order.shuffle(rng);
    let mut puzzle = solution.to_vec();
    let mut scratch = vec![0; cells];
    let mut blanks = 0;
    let guesses = DIG_GUESSES_PER_CELL * cells;
    let mut spent = 0;
    for cell in order {
        if spent >= DIG_CHECKS_OF_GUESSES * guesses {
            break;
        }
        let partner = if symmetric { cells - 1 - cell } else { cell };
        let removed = 1 + usize::from(partner != cell);
        if blanks + removed > target {
            continue;
        }
        puzzle[cell] = 0;
        puzzle[partner] = 0;
        // A check that runs out of guesses keeps the given: the puzzle keeps one solution, and
        // the digging its pace.
        let count = solver.count_within(&puzzle, 2, &mut scratch, guesses);
        spent += solver.guesses_made();
        if count == Some(1) {
            blanks += removed;
            if blanks == target {
                break;
            }
        } else {
            puzzle[cell] = solution[cell];
            puzzle[partner] = solution[partner];
        }
    }
    puzzle
}

/// The puzzles as text: in the grid format, each followed by nothing else; in the line format,
/// jigsaw lines carry their layout (`LAYOUT PUZZLE`); in the csv format, the header
/// `puzzle,solution,blanks,level` (`layout,` first for a jigsaw shape) and one row per puzzle, its
/// cells as the line format writes them (the level empty if the puzzles were not rated).
pub fn render_puzzles(shape: &Shape, puzzles: &[ShapedPuzzle], format: OutputFormat) -> Vec<u8> {
    let layout = match format {
        OutputFormat::Line => Layout::Line,
        OutputFormat::Grid => Layout::Grid { compact: false },
        OutputFormat::Csv => return render_csv(shape, puzzles),
    };
    let cells: Vec<u8> = puzzles
        .iter()
        .flat_map(|p| p.puzzle.iter().copied())
        .collect();
    render(&cells, &vec![shape; puzzles.len()], layout, true)
}

/// The csv format of [`render_puzzles`].
fn render_csv(shape: &Shape, puzzles: &[ShapedPuzzle]) -> Vec<u8> {
    let layout = shape.layout_text();
    let row_len = 3 * shape.cells() + 8;
    let mut out = Vec::with_capacity(40 + row_len * puzzles.len());
    if layout.is_some() {
        out.extend_from_slice(b"layout,");
    }
    out.extend_from_slice(b"puzzle,solution,blanks,level\n");
    for p in puzzles {
        if let Some(layout) = &layout {
            out.extend_from_slice(layout);
            out.push(b',');
        }
        for cells in [&p.puzzle, &p.solution] {
            write_record(cells, shape, Layout::Line, false, &mut out);
            // The record's line end: the row goes on.
            out.pop();
            out.push(b',');
        }
        let blanks = p.puzzle.iter().filter(|&&v| v == 0).count();
        out.extend_from_slice(itoa::Buffer::new().format(blanks).as_bytes());
        out.push(b',');
        if let Some(level) = p.level {
            out.extend_from_slice(itoa::Buffer::new().format(level.number()).as_bytes());
        }
        out.push(b'\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::symbols::Symbols;

    #[test]
    fn puzzles_have_one_solution_in_range() {
        let shape = Shape::boxed(6, None, true, Symbols::default_for(6)).unwrap();
        let request = ShapedPuzzleRequest {
            shape: shape.clone(),
            count: 20,
            seed: 4,
            blanks: Some(10..=18),
            minimal: false,
            symmetric: true,
            shard: None,
            level: None,
            with_levels: false,
            guesses: None,
            classes: false,
            first: None,
        };
        let puzzles = generate_puzzles(&request).unwrap();
        let mut solver = Solver::new(&shape);
        for p in &puzzles {
            let blanks = p.puzzle.iter().filter(|&&v| v == 0).count();
            assert!((10..=18).contains(&blanks));
            assert_eq!(solver.count(&p.puzzle, 2, &mut [0; 36]), 1);
            assert!((0..36).all(|c| (p.puzzle[c] == 0) == (p.puzzle[35 - c] == 0)));
        }
    }

    #[test]
    fn minimal_puzzles_lose_uniqueness_with_any_given_removed() {
        let shape = Shape::boxed(4, None, false, Symbols::default_for(4)).unwrap();
        let request = ShapedPuzzleRequest {
            shape: shape.clone(),
            count: 5,
            seed: 2,
            blanks: None,
            minimal: true,
            symmetric: false,
            shard: None,
            level: None,
            with_levels: false,
            guesses: None,
            classes: false,
            first: None,
        };
        let mut solver = Solver::new(&shape);
        for p in generate_puzzles(&request).unwrap() {
            for cell in (0..16).filter(|&c| p.puzzle[c] != 0) {
                let mut fewer = p.puzzle.clone();
                fewer[cell] = 0;
                assert_eq!(solver.count(&fewer, 2, &mut [0; 16]), 2);
            }
        }
    }
}
