//! The box split of a text read without `--box`, told from its first records.
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
//!   of them, and otherwise the text is ambiguous and `--box` must say.
//!
//! The diagonals of X-Sudoku (`--diagonal`) are told the same way, each split read with them and
//! without: puzzles of a diagonal shape have many solutions without their diagonals, and the
//! plain reading solved them as other puzzles. Grids valid either way are read plain.

use crate::engine::generic::solve::Solver;
use crate::model::shape::{Regions, Shape, default_box};

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

/// How many puzzles are solved under each split when several fit.
const SOLVED_RECORDS: usize = 4;

/// The guesses per cell a solve may spend: a puzzle `-n` wrote needs few under its own split, and
/// one that needs more is no sign of a split.
const GUESSES_PER_CELL: usize = 20;

/// The splits of `size` into boxes of R×C cells, R·C = N and both at least 2, R ascending.
fn splits(size: usize) -> Vec<(usize, usize)> {
    (2..=size / 2)
        .filter(|&rows| size.is_multiple_of(rows) && size / rows >= 2)
        .map(|rows| (rows, size / rows))
        .collect()
}

/// A reading of a text: the split of N, whether the diagonals are houses, and the shape they
/// make.
type Boxes = ((usize, usize), bool, Shape);

/// The shape of boxes (and diagonals) the records of `cells` (N·N values each, 0 for blank) were
/// written for, when it is another than `shape`, the default split with the symbols and diagonals
/// they were read with; `Ok(None)` when the default serves. `Err` says between which readings the
/// text leaves the choice.
pub(crate) fn written_boxes(shape: &Shape, cells: &[u8]) -> Result<Option<Shape>, String> {
    let size = shape.size();
    let Some(default) = default_box(size) else {
        return Ok(None);
    };
    let (rows, columns) = default;
    if *shape.regions() != (Regions::Boxes { rows, columns }) {
        return Ok(None);
    }
    // Diagonals asked for are kept; not asked for, they are one more thing to tell.
    let diagonals: &[bool] = if shape.diagonal() {
        &[true]
    } else {
        &[false, true]
    };
    let mut fitting: Vec<Boxes> = splits(size)
        .into_iter()
        .flat_map(|split| diagonals.iter().map(move |&diagonal| (split, diagonal)))
        .map(|(split, diagonal)| {
            let boxed = Shape::boxed(size, Some(split), diagonal, *shape.symbols());
            (split, diagonal, boxed.expect("a split of N tiles it"))
        })
        .collect();
    if fitting.len() < 2 {
        return Ok(None);
    }
    let default = (default, shape.diagonal());
    let records: Vec<&[u8]> = cells
        .chunks_exact(shape.cells())
        .take(SAMPLE_RECORDS)
        .collect();
    for record in &records {
        let fits: Vec<bool> = fitting
            .iter()
            .map(|(_, _, boxed)| fits(boxed, record))
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
    // symbol about once in N pairs. With fewer pairs, the solving below tells.
    if let Some((_, _, with_diagonals)) = fitting.iter().find(|&&(_, diagonal, _)| diagonal) {
        let pairs: usize = records
            .iter()
            .filter(|record| fits(with_diagonals, record))
            .map(|record| diagonal_pairs(record, size))
            .sum();
        if pairs >= DIAGONAL_EVIDENCE * size {
            fitting.retain(|&(_, diagonal, _)| diagonal);
        }
    }
    if fitting.len() > 1 {
        keep_single_solutions(&mut fitting, &records, default)?;
    }
    let chosen = fitting
        .iter()
        .position(|&(split, diagonal, _)| (split, diagonal) == default);
    let (split, diagonal, boxed) = fitting.swap_remove(chosen.unwrap_or(0));
    Ok(((split, diagonal) != default).then_some(boxed))
}

/// Whether the givens of `record` repeat in no house of `boxed`.
fn fits(boxed: &Shape, record: &[u8]) -> bool {
    boxed.first_repeat(record).is_none()
}

/// Keeps of `fitting` (the readings that fit every record fitting any of them) those under which
/// the first such records each have a single solution, when any reading gives them one; `Err`
/// when the `default` reading is not among those kept and they solve the records differently.
fn keep_single_solutions(
    fitting: &mut Vec<Boxes>,
    records: &[&[u8]],
    default: ((usize, usize), bool),
) -> Result<(), String> {
    let solved: Vec<&[u8]> = records
        .iter()
        .copied()
        .filter(|record| fitting.iter().all(|(_, _, boxed)| fits(boxed, record)))
        .take(SOLVED_RECORDS)
        .collect();
    if solved.is_empty() {
        return Ok(());
    }
    let mut answers: Vec<Solved> = fitting
        .iter()
        .map(|(_, _, boxed)| single_solutions(boxed, &solved))
        .collect();
    // A reading under which a puzzle surely has no single solution goes first; then, where some
    // reading gives every puzzle its single solution, those that could not tell within their
    // guesses go too.
    for drop in [
        (|a: &Solved| matches!(a, Solved::NotSingle)) as fn(&Solved) -> bool,
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
    let default_fits = fitting
        .iter()
        .any(|&(split, diagonal, _)| (split, diagonal) == default);
    if agree || fitting.len() == 1 || default_fits {
        return Ok(());
    }
    let mut names: Vec<String> = fitting
        .iter()
        .map(|((rows, columns), diagonal, _)| {
            let with = if *diagonal { " with diagonals" } else { "" };
            format!("{rows}x{columns}{with}")
        })
        .collect();
    let last = names.pop().unwrap_or_default();
    let ((rows, columns), diagonal) = default;
    let with = if diagonal { " with diagonals" } else { "" };
    Err(format!(
        "cannot tell the boxes: the first puzzles fit boxes of {} or {last} (not the default \
         {rows}x{columns}{with}), which solve them differently; give --box RxC (and --diagonal \
         for diagonals)",
        names.join(", "),
    ))
}

/// What solving the first puzzles under a reading told.
enum Solved {
    /// Each has a single solution: these, one after another.
    Single(Vec<u8>),
    /// One has none, or more than one.
    NotSingle,
    /// One needs more guesses than a puzzle of that reading would.
    Unknown,
}

/// The single solutions of `puzzles` under `boxed`, one after another, or why there are none.
fn single_solutions(boxed: &Shape, puzzles: &[&[u8]]) -> Solved {
    let mut solver = Solver::new(boxed);
    let guesses = GUESSES_PER_CELL * boxed.cells();
    let mut solutions = Vec::with_capacity(puzzles.len() * boxed.cells());
    for puzzle in puzzles {
        let mut solution = puzzle.to_vec();
        match solver.count_within(puzzle, 2, &mut solution, guesses) {
            Some(1) => solutions.extend_from_slice(&solution),
            Some(_) => return Solved::NotSingle,
            None => return Solved::Unknown,
        }
    }
    Solved::Single(solutions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::symbols::Symbols;

    fn default_shape(size: usize) -> Shape {
        Shape::boxed(size, None, false, Symbols::default_for(size)).unwrap()
    }

    /// The values of records written in digits, `.` for blank.
    fn values(records: &[&str]) -> Vec<u8> {
        let cells = records.concat();
        cells
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    fn split_read(size: usize, records: &[&str]) -> Result<Option<Regions>, String> {
        let read = written_boxes(&default_shape(size), &values(records))?;
        Ok(read.map(|shape| shape.regions().clone()))
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
        let read = written_boxes(&default_shape(6), &values(&[puzzle])).unwrap();
        assert!(read.is_some_and(|shape| shape.diagonal()));
        // `-c 1 --size 6 --diagonal --seed 1`, valid with its diagonals and without: read without.
        let grid = "536142241356652431413625365214124563";
        let diagonal = Shape::boxed(6, None, true, Symbols::default_for(6)).unwrap();
        assert!(diagonal.first_repeat(&values(&[grid])).is_none());
        assert_eq!(split_read(6, &[grid]), Ok(None));
    }

    #[test]
    fn sizes_with_one_split_are_read_as_they_are() {
        assert_eq!(splits(9), [(3, 3)]);
        assert_eq!(splits(12), [(2, 6), (3, 4), (4, 3), (6, 2)]);
        assert!(splits(7).is_empty());
        assert_eq!(split_read(9, &[&".".repeat(81)]), Ok(None));
    }
}
