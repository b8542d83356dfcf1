//! Which levels (`-m`) and guess counts (`--guesses`) `-n` meets at a useful rate on each shape,
//! so that the others are refused up front, with a message that states what the shape supports.
//!
//! - **Levels** come from digging as far as the shape goes and giving givens back (see
//!   `engine::give_back`). Levels 2 and 3 need blanks: a range must reach
//!   [`level_floor`] (a share of the cells), below which they are too rare to find; up to
//!   `SAMPLED_UP_TO`, where puzzles are cheapest, a sample of the range asked decides instead,
//!   since on small shapes a range above the floor can still hold none. Past 16×16 the
//!   digging stops at under half the cells blank, where harder puzzles are rare: level 3 is refused
//!   there, and level 2 is made on 25×25 boxes of 5x5 only. Where digging stops at the reach
//!   (past 12×12), a range must start a little below it (`TOP_MARGIN`), for the giving back to
//!   have room. Symmetric level 2 puzzles are too rare on the smallest shapes. On 4×4 every puzzle
//!   is listed, and the listing tells how many there are of a level.
//! - **Minimal puzzles** cannot get givens back: they are at a level or not. [`SAMPLE`] of them dug
//!   from a fixed seed are rated, and a level needs an eighth of them.
//! - **Guesses** are only filtered, so [`SAMPLE`] puzzles of the kind asked (level, blanks,
//!   minimal, symmetric) made from a fixed seed are counted, and the `--guesses` range must hold
//!   the counts of an eighth of them. Level 1 puzzles, and every 4×4 puzzle, need no guess.

use std::ops::RangeInclusive;

use rayon::prelude::*;

use super::dig::{ShapedPuzzleRequest, make_one};
use super::listed::is_listed;
use super::reach::{MINIMAL_UP_TO, SAMPLE, SAMPLE_SEED, reach};
use super::solve::Solver;
use crate::jobs::rate::{Level, ShapeLogic};
use crate::model::shape::{Regions, Shape};

/// The largest N whose level 2 and 3 puzzles the digging makes at a useful rate on any shape.
const LEVELS_UP_TO: usize = 16;

/// The share of the cells, in percent, that a level 2 puzzle has blank at the fewest (at a useful
/// rate), and the same on shapes of at most `SMALL_CELLS` cells, where level 2 is rarer.
const LEVEL_2_PERCENT: usize = 30;
const SMALL_LEVEL_2_PERCENT: usize = 50;
const SMALL_CELLS: usize = 36;

/// The same for level 3.
const LEVEL_3_PERCENT: usize = 28;

/// The largest N whose ranges for levels 2 and 3 a sample judges: past it, a sample that makes
/// nothing takes seconds to say so (20 s on a 12×12 jigsaw), and the shares decide.
const SAMPLED_UP_TO: usize = 8;

/// On shapes past `MINIMAL_UP_TO`, a range for level 2 or 3 starts at most a `TOP_MARGIN`-th of
/// the cells below the reach: a puzzle is dug to the reach and gets givens back, and one that
/// must keep almost every blank is at the level only where the digging left it there.
const TOP_MARGIN: usize = 25;

/// The fewest blanks a puzzle of `level` on `shape` is made with at a useful rate.
pub fn level_floor(shape: &Shape, level: Level) -> usize {
    let percent = match level {
        Level::Singles => return 1,
        Level::Intermediate if shape.cells() <= SMALL_CELLS => SMALL_LEVEL_2_PERCENT,
        Level::Intermediate => LEVEL_2_PERCENT,
        Level::Harder => LEVEL_3_PERCENT,
    };
    shape.cells() * percent / 100
}

/// A request for `-n` of `shape` as the samples make it: the kind asked, from a fixed seed.
fn sample_request(
    shape: &Shape,
    level: Option<Level>,
    blanks: Option<&RangeInclusive<usize>>,
    minimal: bool,
    symmetric: bool,
) -> ShapedPuzzleRequest {
    ShapedPuzzleRequest {
        shape: shape.clone(),
        count: SAMPLE,
        seed: SAMPLE_SEED,
        blanks: blanks.cloned(),
        minimal,
        symmetric,
        shard: None,
        level,
        with_levels: false,
        guesses: None,
        classes: false,
        first: None,
    }
}

/// For each of [`SAMPLE`] puzzles of `request`, what `measure` says of it (with a solver of the
/// shape); fewer when some could not be made.
fn sample<T: Send>(
    request: &ShapedPuzzleRequest,
    logic: Option<&ShapeLogic>,
    measure: impl Fn(&mut Solver, &[u8]) -> T + Sync,
) -> Vec<T> {
    (0..SAMPLE as u64)
        .into_par_iter()
        .map_init(
            || Solver::new(&request.shape),
            |solver, index| {
                make_one(request, logic, solver, index, 0).map(|made| measure(solver, &made.puzzle))
            },
        )
        .flatten()
        .collect()
}

/// How many of a sample a kind of puzzle must hold to be made at a useful rate.
fn enough() -> usize {
    SAMPLE.div_ceil(8)
}

/// Refuses up front, with a usage message that states what the shape supports, a request for
/// puzzles of `level` the digging cannot meet in reasonable time (see the module documentation).
pub fn check_level_reachable(
    shape: &Shape,
    level: Level,
    blanks: Option<&RangeInclusive<usize>>,
    minimal: bool,
    symmetric: bool,
) -> Result<(), String> {
    let n = shape.size();
    let m = level.number();
    let five_by_five = *shape.regions()
        == Regions::Boxes {
            rows: 5,
            columns: 5,
        };
    if n > LEVELS_UP_TO && (level == Level::Harder || level == Level::Intermediate && !five_by_five)
    {
        return Err(format!(
            "-m {m}: past {LEVELS_UP_TO}×{LEVELS_UP_TO} the digging stops at under half the cells \
             blank, where level {m} puzzles are too rare; -m 2 and -m 3 are made up to \
             {LEVELS_UP_TO}×{LEVELS_UP_TO}, -m 2 also on 25×25 boxes of 5x5, and -m 1 on every \
             shape"
        ));
    }
    // The listing of a 4×4 shape says how many puzzles of the level there are.
    if is_listed(shape) {
        return Ok(());
    }
    if symmetric && level == Level::Intermediate && shape.cells() <= SMALL_CELLS {
        return Err(format!(
            "-m 2 --symmetric: symmetric level 2 puzzles of this {n}×{n} shape are too rare to find \
             at a useful rate; drop --symmetric or try another -m"
        ));
    }
    if let Some(range) = blanks
        && level > Level::Singles
        && n > MINIMAL_UP_TO
    {
        let top = reach(shape) - shape.cells() / TOP_MARGIN;
        if *range.start() > top {
            return Err(format!(
                "-m {m} -r {}~{}: a {n}×{n} level {m} puzzle is dug to {} blanks at most and \
                 given givens back, so few come with more than {top}: -r can start at {top} at \
                 most here; try -r {top}~{}",
                range.start(),
                range.end(),
                reach(shape),
                reach(shape)
            ));
        }
    }
    let floor = level_floor(shape, level);
    let sampled = level > Level::Singles && n <= SAMPLED_UP_TO;
    if let Some(range) = blanks
        && sampled
    {
        check_range_sampled(shape, level, range, minimal, symmetric)?;
    } else if let Some(range) = blanks
        && *range.end() < floor
    {
        return Err(format!(
            "-m {m} -r {}~{}: level {m} puzzles of this {n}×{n} shape need a blank range reaching \
             {floor} blanks or more (with fewer they are too rare); try -r {floor}~{}",
            range.start(),
            range.end(),
            floor.max(*range.end()) + 1
        ));
    }
    if minimal {
        let logic = ShapeLogic::new(shape);
        let request = sample_request(shape, None, None, true, symmetric);
        let levels = sample(&request, None, |_, puzzle| {
            logic.level_within(shape, puzzle, Level::Harder)
        });
        let of = |l: Level| levels.iter().filter(|&&x| x == l).count();
        if of(level) < enough() {
            let counts = [Level::Singles, Level::Intermediate, Level::Harder]
                .map(|l| format!("{} of level {}", of(l), l.number()))
                .join(", ");
            return Err(format!(
                "-m {m} --minimal: of {} minimal puzzles of this {n}×{n} shape dug from a fixed \
                 seed, {counts}; a level needs {} of them to be made at a useful rate: try \
                 another -m or drop --minimal",
                levels.len(),
                enough()
            ));
        }
    }
    Ok(())
}

/// Refuses a blank range in which too few of [`SAMPLE`] puzzles of `level` come: the shares of
/// [`level_floor`] are a rule of thumb, and on small or diagonal shapes a range above the floor can
/// still hold none. The message suggests the range of blanks that such puzzles come with when no
/// range is asked.
fn check_range_sampled(
    shape: &Shape,
    level: Level,
    range: &RangeInclusive<usize>,
    minimal: bool,
    symmetric: bool,
) -> Result<(), String> {
    let logic = ShapeLogic::new(shape);
    let asked = sample_request(shape, Some(level), Some(range), minimal, symmetric);
    let made = sample(&asked, Some(&logic), |_, _| ()).len();
    if made >= enough() {
        return Ok(());
    }
    let unranged = sample_request(shape, Some(level), None, minimal, symmetric);
    let blanks = sample(&unranged, Some(&logic), |_, puzzle| {
        puzzle.iter().filter(|&&v| v == 0).count()
    });
    let hint = match (blanks.iter().min(), blanks.iter().max()) {
        (Some(least), Some(most)) => format!("try -r {least}~{most}"),
        _ => "try another -m".to_owned(),
    };
    let (m, n) = (level.number(), shape.size());
    Err(format!(
        "-m {m} -r {}~{}: of {SAMPLE} level {m} puzzles of this {n}×{n} shape tried from a fixed \
         seed, {made} came with that many blanks; a range must give an eighth of them to be \
         made at a useful rate: {hint}",
        range.start(),
        range.end()
    ))
}

/// Refuses up front, with a usage message that states the supported range, `--guesses` the
/// digging cannot meet in reasonable time for the kind of puzzle asked (see the module
/// documentation).
pub fn check_guesses_reachable(
    shape: &Shape,
    guesses: &RangeInclusive<usize>,
    (level, blanks, minimal, symmetric): (
        Option<Level>,
        Option<&RangeInclusive<usize>>,
        bool,
        bool,
    ),
) -> Result<(), String> {
    let n = shape.size();
    let asked = format!("--guesses {}~{}", guesses.start(), guesses.end());
    Level::refuse_guesses(level, guesses)?;
    if is_listed(shape) {
        if *guesses.start() == 0 {
            return Ok(());
        }
        return Err(format!(
            "{asked}: every {n}×{n} puzzle is solved without a guess: --guesses must start at 0"
        ));
    }
    let logic = level.map(|_| ShapeLogic::new(shape));
    let request = sample_request(shape, level, blanks, minimal, symmetric);
    let mut counts = sample(&request, logic.as_ref(), |solver, puzzle| {
        solver.count(puzzle, 2, &mut vec![0; puzzle.len()]);
        solver.guesses_made()
    });
    counts.sort_unstable();
    let made = counts.len();
    let within = counts.iter().filter(|c| guesses.contains(c)).count();
    if within >= enough() {
        return Ok(());
    }
    // The narrowest widening that holds enough: up from the asked start, else down from the end.
    let from_start = counts
        .iter()
        .filter(|&c| c >= guesses.start())
        .nth(enough() - 1);
    let to_end = counts
        .iter()
        .rev()
        .filter(|&c| c <= guesses.end())
        .nth(enough() - 1);
    let counts_seen = match (counts.first(), counts.last()) {
        (Some(least), Some(most)) => format!("the sample needs {least} to {most}"),
        _ => "none could be made".to_owned(),
    };
    let hint = match (from_start, to_end) {
        (Some(&end), _) => format!("try --guesses {}~{end}", guesses.start()),
        (None, Some(&start)) => format!("try --guesses {start}~{}", guesses.end()),
        // Too few made to widen from: the kind of puzzle is the trouble, not the range.
        (None, None) => "drop --guesses".to_owned(),
    };
    Err(format!(
        "{asked}: of {made} such {n}×{n} puzzles made from a fixed seed, {within} need {}~{} \
         guesses ({counts_seen}); a range must hold an eighth of them to be made at a useful \
         rate: {hint}",
        guesses.start(),
        guesses.end()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::symbols::Symbols;

    fn boxed(n: usize) -> Shape {
        Shape::boxed(n, None, false, Symbols::default_for(n)).unwrap()
    }

    #[test]
    fn floors_are_shares_of_the_cells() {
        assert_eq!(level_floor(&boxed(16), Level::Singles), 1);
        assert_eq!(level_floor(&boxed(16), Level::Intermediate), 76);
        assert_eq!(level_floor(&boxed(16), Level::Harder), 71);
        assert_eq!(level_floor(&boxed(6), Level::Intermediate), 18);
    }

    #[test]
    fn refusals_name_what_works() {
        let sixteen = boxed(16);
        let low = check_level_reachable(&sixteen, Level::Harder, Some(&(10..=40)), false, false);
        assert!(low.unwrap_err().contains("try -r 71~"));
        let high = check_level_reachable(&sixteen, Level::Harder, Some(&(150..=153)), false, false);
        assert!(high.unwrap_err().contains("try -r 143~153"));
        for range in [71..=143, 1..=153] {
            let fits = check_level_reachable(&sixteen, Level::Harder, Some(&range), false, false);
            assert_eq!(fits, Ok(()));
        }
        let large = check_level_reachable(&boxed(20), Level::Intermediate, None, false, false);
        assert!(large.unwrap_err().contains("-m 1 on every shape"));
        assert_eq!(
            check_level_reachable(&boxed(25), Level::Intermediate, None, false, false),
            Ok(())
        );
        let kind = (Some(Level::Singles), None, false, false);
        assert!(check_guesses_reachable(&sixteen, &(1..=5), kind).is_err());
        assert_eq!(check_guesses_reachable(&sixteen, &(0..=5), kind), Ok(()));
        let harder = (Some(Level::Harder), None, false, false);
        let narrow = check_guesses_reachable(&boxed(8), &(0..=1), harder);
        assert!(narrow.unwrap_err().contains("try --guesses 0~"));
    }
}
