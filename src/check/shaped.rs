//! The grader for every shape: each grid complete with every house a permutation of the symbols,
//! none repeated, the count and the top-left symbol as asked; or each solution valid and keeping
//! its puzzle's givens.
//!
//! Grids are read by the lenient reader of [`crate::text::shaped`], their text held to the `-c`
//! layout of their shape as the 9×9 grader holds its own (see `shaped_form`), then checked with
//! plain loops over the shape's houses; nothing here is shared with the solver or the generator. The
//! report is the 9×9 grader's [`Report`], with the same words for the same fault, so that both
//! print alike.

use super::GridRules;
use super::repeats::{Places, SeenGrids, add_repeats, seen_key};
use super::report::{Cell, Fault, Report, Subject, check_count, check_total};
use super::scan::noun_of;
use super::shaped_form::FormCheck;
use crate::model::request::ShapeRequest;
use crate::model::shape::Shape;
use crate::text::parse::{ParseError, ParseErrors};
use crate::text::shaped::{Layout, ShapedPuzzles, read_shaped};

/// Checks a text of complete grids of the shape `request` asks for (N from the text when it does
/// not say): every grid valid, none repeated, and the count and top-left symbol of `rules`.
pub fn check_grids(text: &[u8], request: &ShapeRequest, rules: GridRules) -> Report {
    let mut checker = GridChecker::new(SeenGrids::default(), rules.first);
    match read_shaped(text, request) {
        Ok((grids, errors)) => {
            checker.piece((text, 1, true), &grids, &errors);
        }
        Err(errors) => checker.unreadable(&errors),
    }
    checker
        .finish(last_line(text), rules.count)
        .expect("keys held in memory are read back")
}

/// The check of a text of grids read a piece at a time: each piece's grids are checked as they
/// come, and each leaves a key of 16 bytes for the search for repeats, which runs once every piece
/// is read, within the memory budget of the 9×9 checker (see `check/repeats.rs`).
pub struct GridChecker {
    report: Report,
    seen: SeenGrids,
    /// The number of the file checked, among several (see [`GridChecker::next_file`]).
    file: u32,
    /// The symbol every top-left cell must hold.
    first: Option<u8>,
    /// The form the text is held to.
    form: FormCheck,
}

impl GridChecker {
    /// A check whose keys `seen` holds, of grids that start with `first` when given.
    fn new(seen: SeenGrids, first: Option<u8>) -> GridChecker {
        GridChecker {
            report: Report::default(),
            seen,
            file: 0,
            first,
            form: FormCheck::default(),
        }
    }

    /// A check whose keys are held within the budget of `SUDOKU_GEN_CHECK_MEMORY`, of grids that
    /// start with `first` when given.
    pub fn within_budget(first: Option<u8>) -> GridChecker {
        GridChecker::new(SeenGrids::within_budget(), first)
    }

    /// Ends the check of this file, one of several: its report so far (repeats and count not
    /// checked yet), and the check of the next file, whose keys join this one's so that a grid
    /// repeated in a later file is found (see [`GridChecker::finish_files`]).
    pub fn next_file(self) -> (Report, GridChecker) {
        let next = GridChecker {
            file: self.file + 1,
            ..GridChecker::new(self.seen, self.first)
        };
        (self.report, next)
    }

    /// Checks one piece of the text (`text`, starting on line `first_line`, `last` when nothing
    /// follows it): its form, and the grids `grids` and parse errors `errors` the reader read in it,
    /// both located in the whole input. Returns whether the piece had a problem (repeats aside,
    /// which are found at the end).
    pub fn piece(
        &mut self,
        (text, first_line, last): (&[u8], usize, bool),
        grids: &ShapedPuzzles,
        errors: &ParseErrors,
    ) -> bool {
        let before = self.report.problems.count();
        let records = self.report.grids;
        let in_form = self.form.piece(
            (text, first_line, last),
            (grids, errors),
            records,
            &mut self.report,
        );
        add_parse_errors(&mut self.report, &in_form.errors);
        for &(index, ordinal) in &in_form.grids {
            check_grid(grids, index, ordinal, &mut self.report);
            check_top_left(grids, index, ordinal, self.first, &mut self.report);
        }
        let first_key = self.seen.kept();
        let keys = self.seen.open(in_form.grids.len());
        for (k, (key, &(index, _))) in keys.iter_mut().zip(&in_form.grids).enumerate() {
            *key = seen_key(grids.puzzle(index), first_key + k);
        }
        let places: Vec<(usize, usize)> = in_form
            .grids
            .iter()
            .map(|&(index, ordinal)| (ordinal, grids.lines[index]))
            .collect();
        self.seen.close(self.file, spaced(places));
        self.report.grids = in_form.records;
        self.report.problems.count() > before
    }

    /// Counts the problems of a piece that tells nothing of the shape: the reader's `errors` say
    /// why, and nothing of it is held to a form.
    pub fn unreadable(&mut self, errors: &ParseErrors) {
        add_parse_errors(&mut self.report, errors);
    }

    /// Whether no grid and no problem was met yet.
    pub fn is_empty(&self) -> bool {
        self.report.grids == 0 && self.report.is_clean()
    }

    /// The report, once every piece is checked: `last_line` is the input's last line, where a
    /// wrong count is reported. An error when a run of keys written out cannot be read back.
    pub fn finish(mut self, last_line: usize, count: Option<usize>) -> std::io::Result<Report> {
        if let Some(error) = self.seen.take_failure() {
            return Err(error);
        }
        add_repeats(
            self.seen,
            std::slice::from_mut(&mut self.report),
            &[String::new()],
        )?;
        check_count(&mut self.report, last_line, count);
        Ok(self.report)
    }

    /// Finishes the check of several files, `reports` (in file order) as
    /// [`GridChecker::next_file`] left them, a CSV corpus's as checked, this checker the one after
    /// the last: every grid that repeats one of its file or of an earlier file (`names` name the
    /// files), and with `count`, the grids of all the files, reported on the last file's
    /// `last_line`. An error when a run of keys written out cannot be read back.
    pub fn finish_files(
        mut self,
        reports: &mut [Report],
        names: &[String],
        last_line: usize,
        count: Option<usize>,
    ) -> std::io::Result<()> {
        if let Some(error) = self.seen.take_failure() {
            return Err(error);
        }
        add_repeats(self.seen, reports, names)?;
        check_total(reports, last_line, count);
        Ok(())
    }
}

/// The places of a run of grids, as (number, line) pairs: spaced when the numbers follow each other
/// and the lines are evenly spaced, as in a file in form, so that they take no memory a grid.
fn spaced(places: Vec<(usize, usize)>) -> Places {
    let step = match places[..] {
        [(_, first), (_, second), ..] => second - first,
        _ => 1,
    };
    let even = places
        .windows(2)
        .all(|pair| pair[1].0 == pair[0].0 + 1 && pair[1].1 == pair[0].1 + step);
    match places.first() {
        Some(&(first_grid, first_line)) if even => Places::Spaced {
            first_grid,
            first_line,
            step,
        },
        _ => Places::Listed(places),
    }
}

/// Checks a text of solutions against the puzzles of `puzzles_text`, in order: each solution
/// valid and keeping its puzzle's givens, one per puzzle (and `count` when given). Malformed
/// puzzles are returned instead.
pub fn check_solutions(
    text: &[u8],
    puzzles_text: &[u8],
    request: &ShapeRequest,
    rules: GridRules,
) -> Result<Report, ParseErrors> {
    let puzzles = crate::text::shaped::parse_shaped(puzzles_text, request)?;
    let mut checker = SolutionChecker::new(rules.first);
    match read_shaped(text, &checker.request_for(&puzzles, request)) {
        Ok((solutions, errors)) => {
            checker.errors(&errors);
            for index in 0..solutions.len().min(puzzles.len()) {
                checker.pair(&solutions, index, &puzzles, index);
            }
            checker.counted(solutions.len());
        }
        Err(errors) => {
            checker.errors(&errors);
            return Ok(checker.report);
        }
    }
    Ok(checker.finish((puzzles.len(), true), last_line(text), rules.count))
}

/// The check of solutions against their puzzles, both read a piece at a time: each solution
/// valid and keeping its puzzle's givens, one per puzzle.
pub struct SolutionChecker {
    report: Report,
    /// The solutions of the pieces before, checked, or only counted past the last puzzle.
    solutions: usize,
    /// The symbol every solution's top-left cell must hold, when one is asked for.
    first: Option<u8>,
}

impl SolutionChecker {
    /// A check with nothing checked yet, of solutions that start with `first` when given.
    pub fn new(first: Option<u8>) -> SolutionChecker {
        SolutionChecker {
            report: Report {
                subject: Subject::Solutions,
                ..Report::default()
            },
            solutions: 0,
            first,
        }
    }

    /// The shape the solutions are read as: the puzzles' size and boxes, with the flags of
    /// `request`.
    pub fn request_for(&self, puzzles: &ShapedPuzzles, request: &ShapeRequest) -> ShapeRequest {
        let mut request = request.clone();
        request.settle(&puzzles.shapes[0]);
        request
    }

    /// Counts the parse errors of a piece of solutions.
    pub fn errors(&mut self, errors: &ParseErrors) {
        add_parse_errors(&mut self.report, errors);
    }

    /// Checks solution `index` of `solutions`, the next of the input, against puzzle `puzzle` of
    /// `puzzles`.
    pub fn pair(
        &mut self,
        solutions: &ShapedPuzzles,
        index: usize,
        puzzles: &ShapedPuzzles,
        puzzle: usize,
    ) {
        let ordinal = self.solutions + index;
        check_solution(
            (solutions, index),
            (puzzles, puzzle),
            ordinal,
            self.first,
            &mut self.report,
        );
    }

    /// Counts the `solutions` of a piece, once it is checked.
    pub fn counted(&mut self, solutions: usize) {
        self.solutions += solutions;
    }

    /// How many solutions were counted.
    pub fn solutions(&self) -> usize {
        self.solutions
    }

    /// Whether a problem was found so far.
    pub fn has_problems(&self) -> bool {
        !self.report.is_clean()
    }

    /// The report, once every piece is checked: `puzzles` is how many puzzles there were (`all`:
    /// all of them, else those read of a stream), and `last_line` the last line of the
    /// solutions, where a wrong count is reported.
    pub fn finish(
        mut self,
        (puzzles, all): (usize, bool),
        last_line: usize,
        count: Option<usize>,
    ) -> Report {
        self.report.grids = self.solutions;
        if self.solutions != puzzles {
            let fault = Fault::SolutionCount {
                expected: puzzles,
                found: self.solutions,
                more: !all,
            };
            self.report.add_fault(last_line, None, fault);
        }
        check_count(&mut self.report, last_line, count);
        self.report
    }
}

/// Whether every grid of `grids` is complete and valid, repeats between them aside: how a stream
/// is judged a piece at a time, so that it is not read past its first malformed piece.
pub fn all_valid(grids: &ShapedPuzzles) -> bool {
    let mut report = Report::default();
    (0..grids.len()).all(|index| {
        check_grid(grids, index, index, &mut report);
        report.is_clean()
    })
}

/// Checks solution `index` of `solutions` (solution `ordinal` of the input, from 0) against
/// puzzle `puzzle` of `puzzles`: complete, valid, `first` in its top-left cell when given, and
/// every given kept.
pub(super) fn check_solution(
    (solutions, index): (&ShapedPuzzles, usize),
    (puzzles, puzzle): (&ShapedPuzzles, usize),
    ordinal: usize,
    first: Option<u8>,
    report: &mut Report,
) {
    check_grid(solutions, index, ordinal, report);
    check_top_left(solutions, index, ordinal, first, report);
    let shape = puzzles.shape(puzzle);
    if !solutions.shape(index).same_regions(shape) {
        report.add_fault(
            solutions.lines[index],
            Some(ordinal + 1),
            Fault::OtherRegions,
        );
    }
    let solution = solutions.puzzle(index);
    let puzzle = puzzles.puzzle(puzzle);
    // A blank cell is reported as empty by `check_grid`, not as a changed given.
    let changed = (0..solution.len())
        .find(|&cell| puzzle[cell] != 0 && solution[cell] != 0 && solution[cell] != puzzle[cell]);
    if let Some(cell) = changed {
        let glyph = |value: u8| char::from(shape.symbols().glyph(value));
        let fault = Fault::ChangedGiven {
            cell: Cell::at(cell, shape.size()),
            found: glyph(solution[cell]),
            given: glyph(puzzle[cell]),
        };
        report.add_fault(solutions.lines[index], Some(ordinal + 1), fault);
    }
}

pub(super) fn add_parse_errors(report: &mut Report, errors: &ParseErrors) {
    for ParseError {
        line,
        column,
        message,
    } in errors.listed()
    {
        let fault = Fault::Unreadable {
            column: *column,
            message,
        };
        report.add_fault(*line, None, fault);
    }
    report
        .problems
        .count_unlisted(errors.count() - errors.listed().len());
}

pub(crate) fn last_line(text: &[u8]) -> usize {
    text.split(|&b| b == b'\n').count().max(1) - usize::from(text.ends_with(b"\n"))
}

/// Checks that grid `index` (grid `ordinal` of the input, from 0) holds `first`, when given, in
/// its top-left cell; a blank there is the empty cell [`check_grid`] reports.
fn check_top_left(
    grids: &ShapedPuzzles,
    index: usize,
    ordinal: usize,
    first: Option<u8>,
    report: &mut Report,
) {
    let shape = grids.shape(index);
    let found = grids.puzzle(index)[0];
    if let Some(expected) =
        first.filter(|&symbol| found != 0 && shape.symbols().glyph(found) != symbol)
    {
        let fault = Fault::TopLeft {
            noun: noun_of(shape.symbols()),
            found: char::from(shape.symbols().glyph(found)),
            expected: char::from(expected),
        };
        report.add_fault(grids.lines[index], Some(ordinal + 1), fault);
    }
}

/// Checks grid `index` (grid `ordinal` of the input, from 0): no blank, every house a
/// permutation of the symbols. The problem's line is
/// the row of the second copy, in the grid layout.
fn check_grid(grids: &ShapedPuzzles, index: usize, ordinal: usize, report: &mut Report) {
    let shape: &Shape = grids.shape(index);
    let cells = grids.puzzle(index);
    let n = shape.size();
    let line_of = |cell: usize| match grids.layout {
        Layout::Line => grids.lines[index],
        Layout::Grid { .. } => grids.lines[index] + cell / n,
    };
    if let Some(cell) = cells.iter().position(|&v| v == 0) {
        let fault = Fault::EmptyCell(Cell::at(cell, n));
        report.add_fault(line_of(cell), Some(ordinal + 1), fault);
        return;
    }
    let symbols = shape.symbols();
    let noun = noun_of(shape.symbols());
    for (house_index, house) in shape.houses().iter().enumerate() {
        let mut seen_at = [usize::MAX; 26];
        for &cell in house {
            let cell = usize::from(cell);
            let value = usize::from(cells[cell]);
            if seen_at[value] != usize::MAX {
                let fault = Fault::RepeatedSymbol {
                    noun,
                    symbol: char::from(symbols.glyph(value as u8)),
                    house: shape.house(house_index),
                    first: Cell::at(seen_at[value], n),
                    second: Cell::at(cell, n),
                };
                report.add_fault(line_of(cell), Some(ordinal + 1), fault);
                break;
            }
            seen_at[value] = cell;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> ShapeRequest {
        ShapeRequest {
            size: Some(4),
            ..ShapeRequest::default()
        }
    }

    #[test]
    fn valid_distinct_grids_pass() {
        let text = b"1234341221434321\n2143341212344321\n";
        let report = check_grids(
            text,
            &request(),
            GridRules {
                count: Some(2),
                first: None,
            },
        );
        assert!(report.is_clean(), "{}", report.text("f"));
    }

    #[test]
    fn repeats_and_counts_are_reported() {
        let text = b"1234341221434321\n1234341221434321\n1234123412341234\n";
        let report = check_grids(
            text,
            &request(),
            GridRules {
                count: Some(2),
                first: None,
            },
        );
        let printed = report.text("f");
        assert!(
            printed.contains("f:2: grid 2: repeats grid 1 (line 1)"),
            "{printed}"
        );
        assert!(
            printed.contains("f:3: grid 3: digit 1 repeats in column 1 (rows 1 and 2)"),
            "{printed}"
        );
        assert!(printed.contains("expected 2 grids, found 3"), "{printed}");
    }

    #[test]
    fn a_top_left_symbol_other_than_the_one_asked_is_reported() {
        let text = b"1234341221434321\n2143341212344321\n";
        let rules = GridRules {
            count: None,
            first: Some(b'1'),
        };
        let printed = check_grids(text, &request(), rules).text("f");
        assert!(
            printed.contains("f:2: grid 2: top-left digit is 2, expected 1"),
            "{printed}"
        );
        assert_eq!(check_grids(text, &request(), rules).problems.count(), 1);
    }

    #[test]
    fn solutions_keep_their_givens() {
        let puzzles = b"1...............\n";
        let rules = GridRules::default();
        let report = check_solutions(b"2143341212344321\n", puzzles, &request(), rules).unwrap();
        let printed = report.text("f");
        assert!(
            printed.contains("f:1: grid 1: row 1, column 1 is 2, but the puzzle gives 1"),
            "{printed}"
        );
    }
}
