//! 9×9 solutions against their puzzles, both files read a piece at a time: as many solutions as
//! puzzles, each complete, keeping its puzzle's givens and valid.

use std::collections::VecDeque;

use rayon::prelude::*;

use super::GridRules;
use super::grids::judge;
use super::layout::Spot;
use super::report::{Cell, Fault, Report, Subject};
use crate::error::Error;
use crate::io::input::{Boundary, Pieces};
use crate::model::grid::Grid;
use crate::text::format::Format;
use crate::text::parse::{ParseErrors, detect_format, parse_piece};

/// Checks a file of solutions against the file of their puzzles (either in either `-s` input
/// format), held in memory: see [`check_solution_files`].
pub fn check_solutions(
    solutions: &[u8],
    puzzles: &[u8],
    rules: GridRules,
) -> Result<Report, ParseErrors> {
    let solutions = Pieces::of_bytes("solutions", solutions.to_vec());
    let puzzles = Pieces::of_bytes("puzzles", puzzles.to_vec());
    check_solution_files(solutions, puzzles, rules, |_, _| {}).expect("reading memory cannot fail")
}

/// Checks a file of solutions against the file of their puzzles (either in either `-s` input
/// format), both read a piece at a time: as many solutions as puzzles, each complete, valid and
/// keeping its puzzle's givens, and the count and first digit as `rules` ask. An unreadable
/// puzzle file is an error of its own, with its problems; malformed solutions are problems of the
/// report, and the solutions before the piece of the first one are judged (after it, solutions
/// and puzzles may no longer be paired).
pub fn check_solution_files(
    mut solutions: Pieces,
    puzzles: Pieces,
    rules: GridRules,
    mut done: impl FnMut(usize, usize),
) -> Result<Result<Report, ParseErrors>, Error> {
    let mut source = PuzzleSource {
        pieces: puzzles,
        format: None,
        queue: VecDeque::new(),
        taken: 0,
        done: false,
    };
    let mut report = Report {
        subject: Subject::Solutions,
        ..Report::default()
    };
    let mut format = None;
    let mut paired = true;
    let mut last_line = 0;
    let stream = solutions.file_len().is_none();
    while let Some(piece) = solutions.next_piece(|text| boundary_of(format, text))? {
        let parsed = parse_piece(&piece, format, piece.first_line);
        format = Some(parsed.puzzles.format);
        for e in parsed.errors.listed() {
            let fault = Fault::Unreadable {
                column: e.column,
                message: &e.message,
            };
            report.add_fault(e.line, None, fault);
        }
        report
            .problems
            .count_unlisted(parsed.errors.count() - parsed.errors.listed().len());
        last_line = last_line
            .max(parsed.puzzles.lines.last().copied().unwrap_or(0))
            .max(parsed.errors.listed().last().map_or(0, |e| e.line));
        paired &= parsed.malformed == 0;
        let before = report.grids;
        report.grids += parsed.records();
        let puzzles = match source.take(parsed.records())? {
            Ok(puzzles) => puzzles,
            Err(errors) => return Ok(Err(errors)),
        };
        if paired {
            let solutions = &parsed.puzzles;
            let row_lines = usize::from(solutions.format == Format::Grid);
            let judged = solutions
                .grids
                .par_iter()
                .zip(puzzles.par_iter())
                .enumerate()
                .map(|(k, (solution, puzzle))| {
                    let mut report = Report::default();
                    let index = before + k;
                    let spot = Spot {
                        offset: 0,
                        line: solutions.lines[k],
                        grid: index,
                    };
                    judge_solution(solution, puzzle, index, spot, row_lines, rules, &mut report);
                    report
                })
                .reduce(Report::default, Report::merge);
            report = report.merge(judged);
        }
        done(parsed.records(), piece.len());
        // A stream is not read past its first piece with a problem, more solutions than puzzles
        // included.
        let beyond = puzzles.len() < parsed.records();
        if parsed.ended || (stream && (beyond || !report.is_clean())) {
            break;
        }
    }
    let (expected, all) = match source.count_all(report.grids)? {
        Ok(counted) => counted,
        Err(errors) => return Ok(Err(errors)),
    };
    let found = report.grids;
    // The line after the last record, well-formed or not.
    let last_line = last_line + 1;
    if found != expected {
        let fault = Fault::SolutionCount {
            expected,
            found,
            more: !all,
        };
        report.add_fault(last_line, None, fault);
    }
    if let Some(count) = rules.count.filter(|&count| count != found) {
        let fault = Fault::GridCount {
            expected: count,
            found,
        };
        report.add_fault(last_line, None, fault);
    }
    Ok(Ok(report))
}

/// Where a piece of a puzzle text in `format` (the text's own when `None`) may end.
fn boundary_of(format: Option<Format>, text: &[u8]) -> Boundary {
    match format.unwrap_or_else(|| detect_format(text)) {
        Format::Line => Boundary::Line,
        Format::Grid => Boundary::EmptyLine,
    }
}

/// The puzzles of a file, handed out in order as the solutions come.
struct PuzzleSource {
    pieces: Pieces,
    format: Option<Format>,
    queue: VecDeque<Grid>,
    /// Puzzles handed out so far.
    taken: usize,
    done: bool,
}

impl PuzzleSource {
    /// Reads one more piece into the queue; the problems of the whole file if it is malformed.
    fn read_piece(&mut self) -> Result<Result<(), ParseErrors>, Error> {
        let format = self.format;
        let Some(piece) = self.pieces.next_piece(|text| boundary_of(format, text))? else {
            self.done = true;
            return Ok(Ok(()));
        };
        let parsed = parse_piece(&piece, format, piece.first_line);
        self.format = Some(parsed.puzzles.format);
        self.done = parsed.ended || piece.last;
        if parsed.errors.is_empty() {
            self.queue.extend(parsed.puzzles.grids);
            return Ok(Ok(()));
        }
        let mut errors = parsed.errors;
        // A stream is not read past its first malformed piece.
        while !self.done && self.pieces.file_len().is_some() {
            let format = self.format;
            let Some(piece) = self.pieces.next_piece(|text| boundary_of(format, text))? else {
                break;
            };
            let parsed = parse_piece(&piece, format, piece.first_line);
            self.done = parsed.ended || piece.last;
            errors.append(parsed.errors);
        }
        Ok(Err(errors))
    }

    /// The next `count` puzzles, or all that are left if fewer.
    fn take(&mut self, count: usize) -> Result<Result<Vec<Grid>, ParseErrors>, Error> {
        while self.queue.len() < count && !self.done {
            if let Err(errors) = self.read_piece()? {
                return Ok(Err(errors));
            }
        }
        let count = count.min(self.queue.len());
        self.taken += count;
        Ok(Ok(self.queue.drain(..count).collect()))
    }

    /// How many puzzles the file holds, reading the rest of it, and whether that is all of
    /// them; of a stream, only until it holds more than `solutions`, which is then known to be
    /// too few.
    fn count_all(&mut self, solutions: usize) -> Result<Result<(usize, bool), ParseErrors>, Error> {
        loop {
            self.taken += self.queue.len();
            self.queue.clear();
            if self.done || (self.pieces.file_len().is_none() && self.taken > solutions) {
                return Ok(Ok((self.taken, self.done)));
            }
            if let Err(errors) = self.read_piece()? {
                return Ok(Err(errors));
            }
        }
    }
}

/// Checks one solution against its puzzle: complete, keeping the givens, valid, and with the first
/// digit `rules` ask for.
pub(super) fn judge_solution(
    solution: &Grid,
    puzzle: &Grid,
    index: usize,
    spot: Spot,
    row_lines: usize,
    rules: GridRules,
    report: &mut Report,
) {
    let cells = solution.cells();
    let mut add = |cell: usize, fault: Fault| {
        report.add_fault(spot.line + row_lines * (cell / 9), Some(index + 1), fault)
    };
    if let Some(cell) = cells.iter().position(|&v| v == 0) {
        add(cell, Fault::EmptyCell(Cell::at(cell, 9)));
        return;
    }
    if let Some(cell) = (0..81).find(|&c| puzzle.get(c) != 0 && puzzle.get(c) != cells[c]) {
        let fault = Fault::ChangedGiven {
            cell: Cell::at(cell, 9),
            found: char::from(b'0' + cells[cell]),
            given: char::from(b'0' + puzzle.get(cell)),
        };
        add(cell, fault);
        return;
    }
    judge(
        &cells.map(|v| b'0' + v),
        index,
        spot,
        row_lines,
        rules.first,
        report,
    );
}
