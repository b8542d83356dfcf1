//! The box split and the diagonals of a text read without `--box` or `--diagonal`, told from its
//! first records.
//!
//! `-c`, `-n` and `-s` write grids of whatever split `--box` names, so that a file made with
//! `--box` must read back without the flag. Read with the default split, a grid of another split
//! is full of repeats, and a puzzle of another split is solved as another puzzle, or found to have
//! none. So every split of N is tried on the first records:
//! - a record's givens (all its cells, for a complete grid) must not repeat in a box; the first
//!   record that some splits fit and others do not leaves only those, and each later one narrows
//!   them the same way, a record that fits none of them being no sign of the split;
//! - when several splits still fit, the first puzzles are solved under each: a split under which
//!   one of them has no single solution is no reading of a file `-n` wrote. Where several
//!   readings remain that solve the puzzles differently, the default split is read when it is one
//!   of them (with the diagonals, when every reading left has them), and otherwise the text is
//!   ambiguous and `--box` must say.
//!
//! The diagonals of X-Sudoku (`--diagonal`) are told the same way, each split read with them and
//! without: puzzles of a diagonal shape have many solutions without their diagonals, and the
//! plain reading solved them as other puzzles. Grids valid either way are read plain, and are
//! said to leave the diagonals in doubt when their givens repeat on neither diagonal: a few
//! grids, or many that relabel a few (`-c` writes such files below 9×9), cannot tell X-Sudoku
//! from plain grids that hold their diagonals by chance, and the jobs whose results differ
//! between the two ask for `--diagonal` or `--diagonal=no`. A text whose regions are known
//! (`--box`, `--jigsaw`, or a layout on every record) has only its diagonals to tell, and one
//! read with `--diagonal=no` only its regions.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use crate::engine::generic::solve::Solver;
use crate::model::shape::{Regions, Shape, default_box};
use crate::text::shaped::ShapedPuzzles;

/// How many records the split is told from: enough that the givens of puzzles of another split
/// all but surely repeat under each wrong one, yet a bound on what a huge input costs.
const SAMPLE_RECORDS: usize = 64;

/// How many pairs of givens on a diagonal, per symbol, with no pair alike, show that a text was
/// written with its diagonals: a plain text shows no repeat among them about once in e^12.
const DIAGONAL_EVIDENCE: usize = 12;

/// The pairs of givens of `record` (N·N values, 0 for blank) that share a diagonal.
fn diagonal_pairs(record: &[u8], size: usize) -> usize {
    let on = |cell: &dyn Fn(usize) -> usize| (0..size).filter(|&i| record[cell(i)] != 0).count();
    let main = on(&|i| i * size + i);
    let anti = on(&|i| i * size + size - 1 - i);
    (main * main.saturating_sub(1) + anti * anti.saturating_sub(1)) / 2
}

/// `record` with its symbols numbered in order of first appearance: the same for all its
/// relabellings.
fn relabelled(record: &[u8]) -> Vec<u8> {
    let mut label = [0u8; 256];
    let mut next = 0;
    record
        .iter()
        .map(|&value| match value {
            0 => 0,
            _ => {
                if label[usize::from(value)] == 0 {
                    next += 1;
                    label[usize::from(value)] = next;
                }
                label[usize::from(value)]
            }
        })
        .collect()
}

/// How many puzzles are solved under each split when several fit.
const SOLVED_RECORDS: usize = 4;

/// The guesses per cell a solve may spend: a puzzle `-n` wrote needs few under its own split, and
/// one that needs more is no sign of a split.
const GUESSES_PER_CELL: usize = 20;

/// The guesses per cell of a second try, for the readings that ran out when none told.
const MORE_GUESSES_PER_CELL: usize = 400;

/// The splits of `size` into boxes of R×C cells, R·C = N and both at least 2, R ascending.
fn splits(size: usize) -> Vec<(usize, usize)> {
    (2..=size / 2)
        .filter(|&rows| size.is_multiple_of(rows) && size / rows >= 2)
        .map(|rows| (rows, size / rows))
        .collect()
}

/// A reading of a text: a split of N (`None`: the regions the records were read with), and
/// whether the diagonals are houses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reading {
    split: Option<(usize, usize)>,
    diagonal: bool,
}

impl Reading {
    /// The shape a record read with `base` has under this reading.
    fn apply(self, base: &Shape) -> Shape {
        match self.split {
            Some(split) => Shape::boxed(base.size(), Some(split), self.diagonal, *base.symbols())
                .expect("a split of N tiles it"),
            None => base.with_diagonal(self.diagonal),
        }
    }

    fn name(self) -> String {
        let with = if self.diagonal { " with diagonals" } else { "" };
        match self.split {
            Some((rows, columns)) => format!("{rows}x{columns}{with}"),
            None if self.diagonal => "the regions with diagonals".into(),
            None => "the regions without diagonals".into(),
        }
    }
}

/// A reading still open, with the shapes the sampled records have under it, by the index of the
/// shape they were read with.
struct Candidate {
    reading: Reading,
    shapes: BTreeMap<u32, Shape>,
}

impl Candidate {
    fn shape(&self, puzzles: &ShapedPuzzles, record: usize) -> &Shape {
        &self.shapes[&puzzles.shape_of[record]]
    }
}

/// What the first records of a text told of its shapes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Told {
    /// The shapes of the records, when other than those they were read with.
    pub shapes: Option<Vec<Shape>>,
    /// Whether the records were read plain, and would read as well with their diagonals, over
    /// too few pairs of givens on them to tell.
    pub diagonals_in_doubt: bool,
}

/// The shapes of `puzzles` as their first records show them written. With `tell_split` (no
/// `--box`, no layout), a text read with the default split is tried under every split of N; with
/// `tell_diagonals` (no `--diagonal`), a text read without its diagonals is tried with them.
/// `Err` says between which readings the text leaves the choice.
pub(crate) fn written_shapes(
    puzzles: &ShapedPuzzles,
    tell_split: bool,
    tell_diagonals: bool,
) -> Result<Told, String> {
    let first = &puzzles.shapes[0];
    let size = first.size();
    let default_split = default_box(size).filter(|&(rows, columns)| {
        *first.regions() == (Regions::Boxes { rows, columns }) && tell_split
    });
    let split_readings: Vec<Option<(usize, usize)>> = match default_split {
        Some(_) => splits(size).into_iter().map(Some).collect(),
        None => vec![None],
    };
    // Diagonals asked for or refused are kept; neither, they are one more thing to tell.
    let diagonals: &[bool] = match (tell_diagonals, first.diagonal()) {
        (true, _) => &[false, true],
        (false, true) => &[true],
        (false, false) => &[false],
    };
    let default = Reading {
        split: default_split,
        diagonal: first.diagonal(),
    };
    let records = puzzles.len().min(SAMPLE_RECORDS);
    let mut fitting: Vec<Candidate> = split_readings
        .iter()
        .flat_map(|&split| {
            diagonals
                .iter()
                .map(move |&diagonal| Reading { split, diagonal })
        })
        .map(|reading| Candidate {
            reading,
            shapes: puzzles.shape_of[..records]
                .iter()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .map(|&base| (base, reading.apply(&puzzles.shapes[base as usize])))
                .collect(),
        })
        .collect();
    if fitting.len() < 2 {
        return Ok(Told {
            shapes: None,
            diagonals_in_doubt: false,
        });
    }
    for record in 0..records {
        let fits: Vec<bool> = fitting
            .iter()
            .map(|candidate| fits(candidate, puzzles, record))
            .collect();
        if fits.contains(&true) && fits.contains(&false) {
            let mut fits = fits.into_iter();
            fitting.retain(|_| fits.next() == Some(true));
        }
        if fitting.len() == 1 {
            break;
        }
    }
    // Records whose givens never repeat on a diagonal, over many pairs of givens there, were
    // written with their diagonals: two givens of a plain shape on one diagonal are the same
    // symbol about once in N pairs. With fewer pairs, the solving below tells. A record counts
    // once with its relabellings, which repeat its chance of showing no repeat there: a file of
    // one puzzle many times, or of `-c` grids, most of which relabel the one before.
    let mut pairs = 0;
    if let Some(with_diagonals) = fitting.iter().find(|c| c.reading.diagonal) {
        let mut seen = std::collections::HashSet::new();
        pairs = (0..records)
            .filter(|&record| fits(with_diagonals, puzzles, record))
            .filter(|&record| seen.insert(relabelled(puzzles.puzzle(record))))
            .map(|record| diagonal_pairs(puzzles.puzzle(record), size))
            .sum();
        if pairs >= DIAGONAL_EVIDENCE * size {
            fitting.retain(|c| c.reading.diagonal);
        }
    }
    if fitting.len() > 1 {
        keep_single_solutions(&mut fitting, puzzles, records, default)?;
    }
    let preferred = preferred(&fitting, default);
    let chosen = fitting.iter().position(|c| c.reading == preferred);
    let reading = fitting.swap_remove(chosen.unwrap_or(0)).reading;
    // Read plain, though the same records read as well with the diagonals, whose givens never
    // repeat there: too few pairs to tell, but some.
    let with_diagonals = Reading {
        diagonal: true,
        ..reading
    };
    let diagonals_in_doubt =
        !reading.diagonal && pairs > 0 && fitting.iter().any(|c| c.reading == with_diagonals);
    Ok(Told {
        shapes: (reading != default)
            .then(|| puzzles.shapes.iter().map(|s| reading.apply(s)).collect()),
        diagonals_in_doubt,
    })
}

/// The reading to take among `fitting` when several remain: the `default` split, with the
/// diagonals when every reading left has them (`-n --diagonal` at the default split writes puzzles
/// that the split across may solve too, otherwise).
fn preferred(fitting: &[Candidate], default: Reading) -> Reading {
    Reading {
        diagonal: default.diagonal || fitting.iter().all(|c| c.reading.diagonal),
        ..default
    }
}

/// Whether the givens of sampled record `record` repeat in no house of its shape under
/// `candidate`.
fn fits(candidate: &Candidate, puzzles: &ShapedPuzzles, record: usize) -> bool {
    candidate
        .shape(puzzles, record)
        .first_repeat(puzzles.puzzle(record))
        .is_none()
}

/// Keeps of `fitting` (the readings that fit every record fitting any of them) those under which
/// the first such records each have a single solution, when any reading gives them one; `Err`
/// when the `default` reading is not among those kept and they solve the records differently.
fn keep_single_solutions(
    fitting: &mut Vec<Candidate>,
    puzzles: &ShapedPuzzles,
    records: usize,
    default: Reading,
) -> Result<(), String> {
    let solved: Vec<usize> = (0..records)
        .filter(|&record| fitting.iter().all(|c| fits(c, puzzles, record)))
        .take(SOLVED_RECORDS)
        .collect();
    if solved.is_empty() {
        return Ok(());
    }
    let mut answers: Vec<Solved> = fitting
        .iter()
        .map(|candidate| single_solutions(candidate, puzzles, &solved, GUESSES_PER_CELL))
        .collect();
    // Where no reading told a single solution, those that ran out of guesses get more: puzzles
    // of some shapes (12×12 with diagonals) need more than most.
    if !answers.iter().any(|a| matches!(a, Solved::Single(_))) {
        for (answer, candidate) in answers.iter_mut().zip(fitting.iter()) {
            if matches!(answer, Solved::Unknown) {
                *answer = single_solutions(candidate, puzzles, &solved, MORE_GUESSES_PER_CELL);
            }
        }
    }
    // A reading under which a puzzle has no solution goes first; then, where some reading gives
    // every puzzle its single solution, the others go too. One under which a puzzle has many
    // solutions is no reading of a file `-n` wrote, but the first puzzles of another file may
    // have many (blank ones), where a reading they are hard under could not tell: neither goes
    // for the other.
    for drop in [
        (|a: &Solved| matches!(a, Solved::NoSolution)) as fn(&Solved) -> bool,
        |a: &Solved| !matches!(a, Solved::Single(_)),
    ] {
        if answers.iter().any(|answer| !drop(answer)) {
            let mut kept = answers.iter();
            fitting.retain(|_| kept.next().is_some_and(|answer| !drop(answer)));
            answers.retain(|answer| !drop(answer));
        }
    }
    let agree = answers.iter().all(|answer| match (answer, &answers[0]) {
        (Solved::Single(a), Solved::Single(b)) => a == b,
        _ => false,
    });
    let preferred = preferred(fitting, default);
    let default_fits = fitting.iter().any(|c| c.reading == preferred);
    if agree || fitting.len() == 1 || default_fits {
        return Ok(());
    }
    let mut names: Vec<String> = fitting.iter().map(|c| c.reading.name()).collect();
    let last = names.pop().unwrap_or_default();
    Err(format!(
        "cannot tell the boxes: the first puzzles fit boxes of {} or {last} (not the default \
         {}), which solve them differently; give --box RxC (and --diagonal for diagonals)",
        names.join(", "),
        default.name(),
    ))
}

/// Whether a text of `puzzle` alone (of `shape`) reads back under another split of its size: its
/// givens fit the split, with or without diagonals, and it has a single solution there, another
/// or its own. Such a text leaves the choice, and the reader takes the default split, whose
/// moves and classes are not the shape's: `-n` of another split writes no such puzzle, and
/// `--shuffle` draws another move.
pub(crate) fn misread_elsewhere(shape: &Shape, puzzle: &[u8]) -> bool {
    with_readings(shape, |readings| {
        let budget = GUESSES_PER_CELL * puzzle.len();
        let found = &mut readings.found;
        readings.others.iter_mut().any(|(other, solver)| {
            other.first_repeat(puzzle).is_none()
                && solver.count_within(puzzle, 2, found, budget) == Some(1)
        })
    })
    .unwrap_or(false)
}

/// The other readings of a shape of a split other than its size's default: every other split of
/// its size with and without diagonals, each with a solver.
struct Readings {
    shape: Shape,
    others: Vec<(Shape, Solver)>,
    /// A solution found under another reading.
    found: Vec<u8>,
}

thread_local! {
    /// The readings of the shape last asked about on this thread. `-n` and `--shuffle` ask of
    /// every puzzle, one shape at a time, and building the solvers was most of the time.
    static READINGS: RefCell<Option<Readings>> = const { RefCell::new(None) };
}

/// `ask` of the readings of `shape`, or `None` when its texts have no other reading to fear (its
/// split is the default, or its regions are no boxes).
fn with_readings<T>(shape: &Shape, ask: impl FnOnce(&mut Readings) -> T) -> Option<T> {
    let Regions::Boxes { rows, columns } = *shape.regions() else {
        return None;
    };
    let size = shape.size();
    if default_box(size) == Some((rows, columns)) {
        return None;
    }
    READINGS.with_borrow_mut(|kept| {
        if kept
            .as_ref()
            .is_none_or(|readings| readings.shape != *shape)
        {
            let others = splits(size)
                .into_iter()
                .filter(|&split| split != (rows, columns))
                .flat_map(|split| [false, true].map(|diagonal| (split, diagonal)))
                .map(|(split, diagonal)| {
                    let other = Shape::boxed(size, Some(split), diagonal, *shape.symbols())
                        .expect("a split of N tiles it");
                    let solver = Solver::new(&other);
                    (other, solver)
                })
                .collect();
            *kept = Some(Readings {
                shape: shape.clone(),
                others,
                found: vec![0; shape.cells()],
            });
        }
        Some(ask(kept.as_mut().expect("kept just above")))
    })
}

/// What solving the first puzzles under a reading told.
enum Solved {
    /// Each has a single solution: these, one after another.
    Single(Vec<u8>),
    /// One has none.
    NoSolution,
    /// One has more than one.
    Many,
    /// One needs more guesses than a puzzle of that reading would.
    Unknown,
}

/// The single solutions of the sampled records `solved` under `candidate`, one after another, or
/// why there are none.
fn single_solutions(
    candidate: &Candidate,
    puzzles: &ShapedPuzzles,
    solved: &[usize],
    guesses_per_cell: usize,
) -> Solved {
    let mut solutions = Vec::with_capacity(solved.len() * puzzles.cells_per_puzzle());
    for &record in solved {
        let shape = candidate.shape(puzzles, record);
        let puzzle = puzzles.puzzle(record);
        let mut solution = puzzle.to_vec();
        let guesses = guesses_per_cell * shape.cells();
        match Solver::new(shape).count_within(puzzle, 2, &mut solution, guesses) {
            Some(1) => solutions.extend_from_slice(&solution),
            Some(0) => return Solved::NoSolution,
            Some(_) => return Solved::Many,
            None => return Solved::Unknown,
        }
    }
    Solved::Single(solutions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::symbols::Symbols;
    use crate::text::shaped::Layout;

    fn default_shape(size: usize) -> Shape {
        Shape::boxed(size, None, false, Symbols::default_for(size)).unwrap()
    }

    /// The values of records written in digits, `.` for blank.
    fn values(records: &[&str]) -> Vec<u8> {
        crate::model::symbols::digit_values(&records.concat())
    }

    /// The records, read as `shape` with nothing told yet.
    fn read_as(shape: Shape, records: &[&str]) -> ShapedPuzzles {
        ShapedPuzzles {
            layout: Layout::Line,
            shapes: vec![shape],
            cells: values(records),
            lines: (1..=records.len()).collect(),
            shape_of: vec![0; records.len()],
            prefixed: false,
            diagonals_in_doubt: false,
        }
    }

    fn told(size: usize, records: &[&str]) -> Result<Told, String> {
        written_shapes(&read_as(default_shape(size), records), true, true)
    }

    fn written(size: usize, records: &[&str]) -> Result<Option<Shape>, String> {
        Ok(told(size, records)?.shapes.map(|shapes| shapes[0].clone()))
    }

    fn split_read(size: usize, records: &[&str]) -> Result<Option<Regions>, String> {
        Ok(written(size, records)?.map(|shape| shape.regions().clone()))
    }

    const THREE_BY_TWO: Regions = Regions::Boxes {
        rows: 3,
        columns: 2,
    };

    #[test]
    fn a_grid_reads_under_the_split_it_is_valid_under() {
        let three_by_two = "265134543216314625452361631452126543";
        assert_eq!(split_read(6, &[three_by_two]), Ok(Some(THREE_BY_TWO)));
        // Valid under both splits: the default serves.
        let both = "365214214356541632623541132465456123";
        assert_eq!(split_read(6, &[both]), Ok(None));
        // A later record settles what the first leaves open; one valid under no split (its
        // first row repeats a symbol) is no sign of either.
        let broken = "115214214356541632623541132465456123";
        assert_eq!(
            split_read(6, &[broken, both, three_by_two]),
            Ok(Some(THREE_BY_TWO))
        );
        assert_eq!(split_read(6, &[broken]), Ok(None));
    }

    #[test]
    fn puzzles_whose_givens_fit_several_splits_read_under_the_one_they_solve_under() {
        // Its givens repeat in no 2x3 box either, but it has many solutions there.
        let puzzle = "6..1.....25.....1.5.....3......2.4.3";
        assert_eq!(split_read(6, &[puzzle]), Ok(Some(THREE_BY_TWO)));
        // A single solution under each split, not the same one: the default reads it.
        let both = "36......5....4.......51.......2.6.53";
        assert_eq!(split_read(6, &[both]), Ok(None));
    }

    #[test]
    fn a_choice_between_other_splits_names_the_flag() {
        // Two 1s in one 3x4 box, and in none of 2x6, 4x3 or 6x2, each of which solves the rest
        // in many ways.
        let mut puzzle = vec![b'.'; 144];
        puzzle[0] = b'1';
        puzzle[2 * 12 + 3] = b'1';
        let puzzle = String::from_utf8(puzzle).unwrap();
        let message = split_read(12, &[&puzzle]).unwrap_err();
        assert!(
            message.contains(
                "2x6, 2x6 with diagonals, 4x3, 4x3 with diagonals, 6x2 or 6x2 with \
                              diagonals (not the default 3x4)"
            ),
            "{message}"
        );
        assert!(message.contains("--box"), "{message}");
    }

    #[test]
    fn diagonal_puzzles_read_with_their_diagonals() {
        // `-n 1 --size 6 --diagonal --seed 1`: five givens, a single solution only with the
        // diagonals.
        let puzzle = "............2.....3.....5.......4.1.";
        let read = written(6, &[puzzle]).unwrap();
        assert!(read.is_some_and(|shape| shape.diagonal()));
        // `-c 1 --size 6 --diagonal --seed 1`, valid with its diagonals and without: read without.
        let grid = "536142241356652431413625365214124563";
        let diagonal = Shape::boxed(6, None, true, Symbols::default_for(6)).unwrap();
        assert!(diagonal.first_repeat(&values(&[grid])).is_none());
        assert_eq!(split_read(6, &[grid]), Ok(None));
    }

    #[test]
    fn grids_that_hold_their_diagonals_leave_them_in_doubt_until_enough_differ() {
        // `-c 1 --size 6 --diagonal --seed 1`, and the same grid relabelled (1 and 2 traded):
        // one grid's pairs, too few.
        let grid = "536142241356652431413625365214124563";
        let relabelled = "536241142356651432423615365124214563";
        let doubt = told(6, &[grid, relabelled]).unwrap();
        assert!(doubt.diagonals_in_doubt && doubt.shapes.is_none());
        // The first row repeats on neither diagonal under either reading but breaks its own
        // row: no record holds pairs that fit, and nothing is in doubt.
        assert!(
            !told(6, &["115214214356541632623541132465456123"])
                .unwrap()
                .diagonals_in_doubt
        );
        // A grid whose main diagonal repeats a symbol is plain beyond doubt.
        let plain = "365214214356541632623541132465456123";
        assert!(!told(6, &[grid, plain]).unwrap().diagonals_in_doubt);
        // Refused or asked for, the diagonals are not told.
        let read = read_as(default_shape(6), &[grid]);
        assert!(
            !written_shapes(&read, true, false)
                .unwrap()
                .diagonals_in_doubt
        );
    }

    #[test]
    fn sizes_with_one_split_are_read_as_they_are() {
        assert_eq!(splits(9), [(3, 3)]);
        assert_eq!(splits(12), [(2, 6), (3, 4), (4, 3), (6, 2)]);
        assert!(splits(7).is_empty());
        assert_eq!(split_read(9, &[&".".repeat(81)]), Ok(None));
    }
}
