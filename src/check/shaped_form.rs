//! The form of a file of grids of every shape other than the 9×9 one, held to the `-c` layout of
//! its shape by the 9×9 checker's own scanner (see `scan`): the same rules (one line end
//! throughout, as the first line's; single spaces, no trailing ones; exactly one empty line between
//! grids; an optional final newline; no byte-order mark, comment or tab) in the same words, located
//! by line and column. The lenient reader of [`crate::text::shaped`] still tells the shape (its
//! size, alphabet, boxes and diagonals, a jigsaw line's regions) and reads the cells; of what it
//! read, only the grids that are in form are judged, so that a malformed grid is named once, by
//! the scanner.

use super::layout::{Layout as Lines, Place, Spot};
use super::report::Report;
use super::scan::{Form, RowForm, byte_order_mark, scan};
use crate::text::parse::ParseErrors;
use crate::text::shaped::{Layout, ShapedPuzzles};

/// The form of one file, told by its first piece that the reader could read.
#[derive(Default)]
pub(super) struct FormCheck {
    form: Option<Form>,
}

/// What of a piece's reading is in form.
pub(super) struct InForm {
    /// The grids to judge: their index among the grids read and their number in the file (from
    /// 0, malformed grids counted).
    pub grids: Vec<(usize, usize)>,
    /// The reader's problems of the lines of grids in form: the scanner names the others.
    pub errors: ParseErrors,
    /// The records of the piece, malformed ones included.
    pub records: usize,
}

impl FormCheck {
    /// Holds `text`, a piece of the file starting on line `first_line` (`last`: nothing follows
    /// it), to the form, its problems added to `report`; `grids` and `errors` are the reader's,
    /// located in the file, and `records` the records of the pieces before.
    pub fn piece(
        &mut self,
        (text, first_line, last): (&[u8], usize, bool),
        (grids, errors): (&ShapedPuzzles, &ParseErrors),
        records: usize,
        report: &mut Report,
    ) -> InForm {
        let text = match text.strip_prefix(b"\xef\xbb\xbf") {
            Some(rest) if first_line == 1 => {
                report.add(byte_order_mark());
                rest
            }
            _ => text,
        };
        let form = *self.form.get_or_insert_with(|| {
            let form = form_of(text, grids);
            report.crlf = form.eol == 2;
            form
        });
        let place = Place {
            first_line,
            grids_before: records,
            last,
        };
        let before = report.problems.count();
        let (spots, records) = scan(text, &form, report, place);
        let errors = if report.problems.count() == before {
            errors.clone()
        } else {
            in_form_errors(errors, &spots, if form.line_format { 1 } else { form.rows })
        };
        InForm {
            grids: matched(&spots, &grids.lines),
            errors,
            records,
        }
    }
}

/// The problems of `errors` on the lines of the grids in form (`spots`, of `rows` lines each). The
/// reader lists its first problems only: past them, those in form cannot be told, and are left to
/// a check of the file once the problems the scanner names are mended.
fn in_form_errors(errors: &ParseErrors, spots: &[Spot], rows: usize) -> ParseErrors {
    let in_form = |line: usize| {
        let after = spots.partition_point(|spot| spot.line <= line);
        after > 0 && line < spots[after - 1].line + rows
    };
    let mut kept = ParseErrors::new();
    for error in errors.listed().iter().filter(|error| in_form(error.line)) {
        kept.push(error.clone());
    }
    kept
}

/// The form the grids of a file are written in by `-c`, as its first piece `text` shows it: the
/// first line's line end, and the layout, size and alphabet `grids` were read in.
fn form_of(text: &[u8], grids: &ShapedPuzzles) -> Form {
    let shape = &grids.shapes[0];
    let n = shape.size();
    let (line_format, step) = match grids.layout {
        Layout::Line => (true, 1),
        Layout::Grid { compact } => (false, if compact { 1 } else { 2 }),
    };
    Form {
        line_format,
        eol: Lines::detect(text).eol,
        rows: n,
        row: RowForm {
            prefix: if grids.prefixed { n * n + 1 } else { 0 },
            cells: if line_format { n * n } else { n },
            step,
            symbols: *shape.symbols(),
        },
    }
}

/// The grids read (starting on `lines`) that the scanner found in form (`spots`), as their index
/// among those read and their number in the file.
fn matched(spots: &[Spot], lines: &[usize]) -> Vec<(usize, usize)> {
    let mut grids = Vec::with_capacity(spots.len());
    let mut read = lines.iter().enumerate().peekable();
    for spot in spots {
        while read.next_if(|&(_, &line)| line < spot.line).is_some() {}
        if let Some((index, _)) = read.next_if(|&(_, &line)| line == spot.line) {
            grids.push((index, spot.grid));
        }
    }
    grids
}
