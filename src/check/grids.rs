//! Files of complete 9×9 grids in either `-c` format: every grid valid, none repeated, the count
//! and the first digit as asked, the text exactly in the `-c` layout.
//!
//! # Speed
//! A file is read a piece at a time (whole grids, at most 32 MiB; see [`crate::io::input`]). A
//! piece in the exact `-c` layout has every grid at a fixed offset, so its grids are checked in
//! parallel straight from the text (**fast path**, see [`super::layout`]). The first byte out of
//! place sends the piece through a line-by-line scanner that names every format problem (**slow
//! path**, see [`super::scan`]). Both give the places of the well-formed grids, whose houses and
//! first digit are then checked in parallel, and whose keys find the repeats once every file is
//! read (see [`super::repeats`]). Memory: the pieces being read, plus 16 bytes a grid (and 8 bytes
//! for the line of each grid of a piece that was not in the exact layout).

use rayon::prelude::*;

use super::GridRules;
use super::corpus::{CorpusCheck, CorpusRules};
use super::layout::{Layout, Place, Spot, Template, regular_count};
use super::repeats::{Places, SeenGrids, add_repeats, seen_key};
use super::report::{Cell, Fault, Problem, Report, check_count, check_total};
use super::scan::{Form, byte_order_mark, scan};
use crate::error::Error;
use crate::io::input::{Boundary, Pieces};
use crate::model::house::House;
use crate::text::corpus::detect_header;
use crate::text::parse::utf16_encoding;

/// Checks a file of complete grids in either `-c` format, held whole in memory.
pub fn check_grids(text: &[u8], rules: GridRules) -> Report {
    let mut seen = SeenGrids::default();
    let mut check = FileCheck::default();
    let line_ends = bytecount::count(text, b'\n');
    check.piece(text, 1, line_ends, true, rules, 0, &mut seen);
    let mut reports = [check.finish(rules)];
    add_repeats(seen, &mut reports, &[String::new()])
        .expect("keys without a budget are never written out");
    let [report] = reports;
    report
}

/// The check of one file, fed a piece (whole records) at a time.
#[derive(Default)]
struct FileCheck {
    layout: Option<Layout>,
    report: Report,
    /// Line ends so far, and whether the text read so far ends without one.
    lines: usize,
    unterminated: bool,
    /// Whether the file is in an encoding the check does not read.
    unreadable: bool,
}

impl FileCheck {
    /// Where a piece of this file may end: after any line end in the line format, after an empty
    /// line in the grid format; the first piece's first line tells which.
    fn boundary(&self, text: &[u8]) -> Boundary {
        match self
            .layout
            .unwrap_or_else(|| Layout::detect(text))
            .line_format
        {
            true => Boundary::Line,
            false => Boundary::EmptyLine,
        }
    }

    /// Checks the piece `text` of the file, which starts on line `first_line` and holds
    /// `line_ends` line ends; `last` when nothing follows it. The keys of its well-formed grids go
    /// to `seen`, marked as of file `file`.
    #[allow(clippy::too_many_arguments)]
    fn piece(
        &mut self,
        text: &[u8],
        first_line: usize,
        line_ends: usize,
        last: bool,
        rules: GridRules,
        file: u32,
        seen: &mut SeenGrids,
    ) {
        if last {
            self.lines = first_line - 1 + line_ends;
            self.unterminated = !text.is_empty() && !text.ends_with(b"\n");
        }
        if self.unreadable {
            return;
        }
        let text = match text.strip_prefix(b"\xef\xbb\xbf") {
            Some(rest) if self.layout.is_none() => {
                self.report.add(byte_order_mark());
                rest
            }
            _ => text,
        };
        let layout = match self.layout {
            Some(layout) => layout,
            None => {
                if let Some(encoding) = utf16_encoding(text) {
                    self.report.add(Problem {
                        line: 1,
                        grid: None,
                        message: format!(
                            "the file is {encoding}; expected \
                             ASCII"
                        ),
                    });
                    self.unreadable = true;
                    return;
                }
                let layout = Layout::detect(text);
                self.report.crlf = layout.eol == 2;
                self.layout = Some(layout);
                layout
            }
        };
        let before = self.report.grids;
        let place = Place {
            first_line,
            grids_before: before,
            last,
        };
        let spot_at = |k: usize| Spot {
            offset: k * layout.record(),
            line: first_line + k * layout.lines_per_grid(),
            grid: before + k,
        };
        let regular = if last {
            regular_count(text, layout)
        } else {
            text.len()
                .is_multiple_of(layout.record())
                .then(|| text.len() / layout.record())
        };
        // The grids of the piece leave their keys straight in `seen`.
        let first_ordinal = seen.kept();
        let judged = regular.and_then(|count| {
            let judged = judge_all(
                text,
                layout,
                rules,
                spot_at,
                place,
                true,
                first_ordinal,
                seen.open(count),
            );
            match judged {
                Some(_) => {
                    self.report.grids += count;
                    let places = Places::Spaced {
                        first_grid: before,
                        first_line,
                        step: layout.lines_per_grid(),
                    };
                    seen.close(file, places);
                }
                None => seen.abandon(),
            }
            judged
        });
        let judged = judged.unwrap_or_else(|| {
            let mut scanned = Report::default();
            let (spots, grids) = scan(text, &Form::from(layout), &mut scanned, place);
            self.report = std::mem::take(&mut self.report).merge(scanned);
            self.report.grids = grids;
            let judged = judge_all(
                text,
                layout,
                rules,
                |k| spots[k],
                place,
                false,
                first_ordinal,
                seen.open(spots.len()),
            )
            .expect("the scanner lists only well-formed grids");
            let places = spots.iter().map(|spot| (spot.grid, spot.line)).collect();
            seen.close(file, Places::Listed(places));
            judged
        });
        self.report = std::mem::take(&mut self.report).merge(judged);
    }

    /// The file's report once every piece is checked (repeats aside: see `add_repeats`).
    fn finish(mut self, rules: GridRules) -> Report {
        let lines = self.lines + usize::from(self.unterminated);
        check_count(&mut self.report, lines.max(1), rules.count);
        self.report
    }
}

/// Checks the files of grids `inputs` together, each a piece at a time: each file as
/// [`check_grids`] checks one, and no grid repeated in any of them. `done` is told the grids and
/// bytes of each piece checked. Memory: the pieces being read, plus 16 bytes a grid within a
/// budget, and on disk past it (see the module `repeats`). With several files, `rules.count` is
/// their total.
pub fn check_grid_files(
    inputs: Vec<Pieces>,
    rules: GridRules,
    corpus_rules: &CorpusRules,
    mut done: impl FnMut(usize, usize),
) -> Result<Vec<(String, Report)>, Error> {
    let names: Vec<String> = inputs.iter().map(|input| input.name().to_owned()).collect();
    let several = inputs.len() > 1;
    let file_rules = GridRules {
        count: rules.count.filter(|_| !several),
        ..rules
    };
    let mut seen = SeenGrids::within_budget();
    let mut reports = Vec::new();
    let spill_failed = |e| Error::io("a temporary file of the repeats check", e);
    let mut last_lines = 1;
    for (file, mut input) in inputs.into_iter().enumerate() {
        let mut check = FileCheck::default();
        let file = u32::try_from(file).unwrap_or(u32::MAX);
        let mut corpus: Option<CorpusCheck> = None;
        let column = corpus_rules.column.as_deref();
        while let Some(piece) = input.next_piece(|text| {
            let csv = corpus.is_some()
                || (check.layout.is_none() && detect_header(text, column).is_some());
            if csv {
                Boundary::CsvRecord
            } else {
                check.boundary(text)
            }
        })? {
            if piece.first_line == 1 {
                match detect_header(&piece, corpus_rules.column.as_deref()) {
                    Some(Ok(header)) => {
                        corpus = Some(CorpusCheck::new(header));
                    }
                    Some(Err(error)) => {
                        check.report.add(Problem {
                            line: error.line,
                            grid: None,
                            message: error.message,
                        });
                        check.unreadable = true;
                    }
                    None if column.is_some() => {
                        return Err(Error::column_without_corpus(input.name()));
                    }
                    None if corpus_rules.unique => {
                        return Err(Error::unique_without_corpus(input.name()));
                    }
                    None => {}
                }
            }
            let checked = |check: &FileCheck, corpus: &Option<CorpusCheck>| {
                check.report.grids + corpus.as_ref().map_or(0, |c| c.report.grids)
            };
            let before = checked(&check, &corpus);
            match &mut corpus {
                Some(corpus) => corpus.piece(&piece, file_rules, corpus_rules.unique),
                None => check.piece(
                    &piece,
                    piece.first_line,
                    piece.line_ends,
                    piece.last,
                    file_rules,
                    file,
                    &mut seen,
                ),
            }
            done(checked(&check, &corpus) - before, piece.len());
            if let Some(error) = seen.take_failure() {
                return Err(spill_failed(error));
            }
            // A stream may never end (`/dev/urandom`): it is not read past its first malformed
            // piece, nor past a problem that leaves nothing to check (no puzzle column, no text).
            let malformed = check.unreadable
                || !check.report.is_clean()
                || corpus.as_ref().is_some_and(|c| !c.report.is_clean());
            if malformed && input.file_len().is_none() {
                break;
            }
        }
        if let Some(corpus) = corpus {
            reports.push(corpus.finish(file_rules.count));
            continue;
        }
        last_lines = (check.lines + usize::from(check.unterminated)).max(1);
        reports.push(check.finish(file_rules));
    }
    add_repeats(seen, &mut reports, &names).map_err(spill_failed)?;
    if several {
        check_total(&mut reports, last_lines, rules.count);
    }
    Ok(names.into_iter().zip(reports).collect())
}

/// Checks the houses and the first digit of the grids at `spot_at(k)`, in parallel, one for each
/// of `keys`, where it leaves its key (its ordinal is `first_ordinal + k`); returns their problems.
/// With `exact`, each grid's bytes must also be exactly in place, else `None`.
#[allow(clippy::too_many_arguments)]
fn judge_all(
    text: &[u8],
    layout: Layout,
    rules: GridRules,
    spot_at: impl Fn(usize) -> Spot + Sync,
    place: Place,
    exact: bool,
    first_ordinal: usize,
    keys: &mut [u128],
) -> Option<Report> {
    let template = exact.then(|| Template::new(layout));
    keys.par_iter_mut()
        .enumerate()
        .try_fold(Report::default, |mut report, (k, key)| {
            let spot = spot_at(k);
            if let Some(template) = &template {
                let end = (spot.offset + layout.record()).min(text.len());
                if !template.matches(&text[spot.offset..end], end == text.len() && place.last) {
                    return None;
                }
            }
            let digits = layout.digits(text, spot.offset);
            *key = seen_key(&digits, first_ordinal + k);
            let row_lines = usize::from(!layout.line_format);
            judge(
                &digits,
                spot.grid,
                spot,
                row_lines,
                rules.first,
                &mut report,
            );
            Some(report)
        })
        .try_reduce(Report::default, |a, b| Some(a.merge(b)))
}

/// Checks the houses and the first digit of one well-formed grid, whose rows are `row_lines` lines
/// apart (1 in the grid format, 0 in the line format).
pub(super) fn judge(
    digits: &[u8; 81],
    index: usize,
    spot: Spot,
    row_lines: usize,
    first: Option<u8>,
    report: &mut Report,
) {
    if let Some((cell, fault)) = first_repeat_in_text(digits) {
        report.add_fault(spot.line + row_lines * (cell / 9), Some(index + 1), fault);
    }
    if let Some(expected) = first.filter(|&symbol| digits[0] != symbol) {
        let fault = Fault::TopLeft {
            noun: "digit",
            found: char::from(digits[0]),
            expected: char::from(expected),
        };
        report.add_fault(spot.line, Some(index + 1), fault);
    }
}

/// The first digit repeated in a row, column or box of 81 digit bytes, with the cell of its second
/// copy; `None` if every house holds 1–9 once.
fn first_repeat_in_text(digits: &[u8; 81]) -> Option<(usize, Fault<'static>)> {
    // Each digit as one bit; a house is complete when its bits cover 1..=9. The fixed-size loops
    // let the compiler run them on whole vectors.
    let bits: [u16; 81] = digits.map(|byte| 1 << (byte & 15));
    let mut columns = [0u16; 9];
    let mut rows = [0u16; 9];
    let mut boxes = [0u16; 9];
    for (row, line) in bits.chunks_exact(9).enumerate() {
        for (column, &bit) in line.iter().enumerate() {
            columns[column] |= bit;
            rows[row] |= bit;
            boxes[3 * (row / 3) + column / 3] |= bit;
        }
    }
    let complete = rows
        .iter()
        .chain(&columns)
        .chain(&boxes)
        .fold(0x3fe, |all, &m| all & m);
    if complete == 0x3fe {
        return None;
    }
    // Some house misses a digit, so some house repeats one: find the first, plainly.
    let house_cells = |kind: usize, n: usize, i: usize| match kind {
        0 => 9 * n + i,
        1 => 9 * i + n,
        _ => 9 * (3 * (n / 3) + i / 3) + 3 * (n % 3) + i % 3,
    };
    let houses: [fn(usize) -> House; 3] = [House::Row, House::Column, House::Box];
    for (kind, house) in houses.into_iter().enumerate() {
        for n in 0..9 {
            let mut seen = [None; 10];
            for i in 0..9 {
                let cell = house_cells(kind, n, i);
                let digit = usize::from(digits[cell] - b'0');
                if let Some(earlier) = seen[digit] {
                    let fault = Fault::RepeatedSymbol {
                        noun: "digit",
                        symbol: char::from(digits[cell]),
                        house: house(n + 1),
                        first: Cell::at(earlier, 9),
                        second: Cell::at(cell, 9),
                    };
                    return Some((cell, fault));
                }
                seen[digit] = Some(cell);
            }
        }
    }
    None
}
