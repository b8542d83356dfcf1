//! The jobs of other shapes whose output is written a piece at a time (`-s`, `--rate`, `--canon`,
//! `--shuffle`), through [`through_pieces`]: a piece's records in batches when they cost much
//! (see [`crate::jobs::batches`]), so that a reader that stops reading ends the run promptly.

use std::ops::Range;

use super::layouts::lead_with_layout;
use super::{CorpusRows, ShapedPiece, ShapedPieces};
use crate::engine::generic::solve::solve_all;
use crate::error::Error;
use crate::io::output::Destination;
use crate::io::progress::InputProgress;
use crate::jobs::Finished;
use crate::jobs::batches::{Records, in_batches, write_batch};
use crate::jobs::rate::{HEADER, rate_shaped};
use crate::jobs::solve::{BatchEnd, BatchOutput};
use crate::jobs::stream::{finish_stream, parse_error_lines};
use crate::problems::Problems;
use crate::text::corpus::{RowResult, check_result_column, write_header, write_rows};
use crate::text::format::Format;
use crate::text::parse::ParseErrors;
use crate::text::shaped::{Layout, ShapedPuzzles};

/// `-s` for every shape, a piece of the input at a time (see [`through_pieces`]); a CSV corpus
/// gets its solution column filled in.
pub(super) fn solve_pieces(
    pieces: ShapedPieces,
    format: Option<Format>,
    unique: bool,
    destination: Destination,
) -> Result<Finished, Error> {
    let solve = |puzzles: &mut ShapedPuzzles, rows: Option<&CorpusRows>| {
        match format {
            _ if rows.is_some() => puzzles.layout = Layout::Line,
            Some(Format::Line) => puzzles.layout = Layout::Line,
            Some(Format::Grid) => puzzles.layout = Layout::Grid { compact: false },
            None => {}
        }
        let solved = solve_all(puzzles, unique);
        match rows {
            Some(_) => solved,
            None => BatchOutput {
                text: lead_with_layout(solved.text, puzzles),
                ..solved
            },
        }
    };
    through_pieces(pieces, (RowResult::Solution, b""), true, destination, solve)
}

/// `--rate` for every shape, a piece of the input at a time (see [`through_pieces`]): the CSV of
/// the 9×9 rating, its header first, or a CSV corpus with the rating's columns appended.
pub(super) fn rate_pieces(
    pieces: ShapedPieces,
    destination: Destination,
) -> Result<Finished, Error> {
    let mut header = true;
    let rate = |puzzles: &mut ShapedPuzzles, rows: Option<&CorpusRows>| {
        // Rows, not grids: they need no line between pieces.
        puzzles.layout = Layout::Line;
        rate_shaped(puzzles, rows.is_none() && std::mem::take(&mut header))
    };
    through_pieces(
        pieces,
        (RowResult::Appended, HEADER),
        true,
        destination,
        rate,
    )
}

/// A job over the puzzles of an input of one shape, a piece at a time (see [`ShapedPieces`]):
/// `batch` makes the output of each piece's puzzles (given their rows, of a corpus),
/// which is written in order, a grid-layout one apart from the one before by an empty line, and
/// a corpus's into its rows as `(result, result header)` say; in batches, when `batched`. The
/// output is released at the first piece of records read whole, so that a malformed record in the
/// first piece writes nothing. Once a piece is malformed, the rest of a file is only read for its
/// problems, and a stream is not read further.
pub(super) fn through_pieces(
    mut pieces: ShapedPieces,
    (result, result_header): (RowResult, &'static [u8]),
    batched: bool,
    destination: Destination,
    mut batch: impl FnMut(&mut ShapedPuzzles, Option<&CorpusRows>) -> BatchOutput,
) -> Result<Finished, Error> {
    let name = pieces.name().to_owned();
    let mut progress = InputProgress::new(pieces.pieces.file_len(), "puzzles");
    let mut output = destination.into_stream();
    let mut problems = Problems::new();
    let mut malformed: Option<ParseErrors> = None;
    let mut puzzles_before = 0;
    let mut header_written = false;
    while let Some(piece) = pieces.next()? {
        let ShapedPiece {
            puzzles,
            errors,
            rows,
            ..
        } = piece;
        if piece.unreadable && piece.first || piece.empty_stream {
            return Ok(Finished::with(1, parse_error_lines(&name, &errors)));
        }
        if let Some(header) = pieces.header().filter(|_| !header_written)
            && let Err(error) = check_result_column(header, result)
        {
            let mut errors = ParseErrors::new();
            errors.push(error);
            return Ok(Finished::with(1, parse_error_lines(&name, &errors)));
        }
        let count = puzzles.len();
        if let Some(all) = &mut malformed {
            all.append(errors);
        } else if !errors.is_empty() {
            malformed = Some(errors);
            if pieces.is_stream() {
                break;
            }
        } else if count > 0 || piece.first {
            if count > 0 {
                // A malformed record found from now on stops the work after these results.
                output.release()?;
            }
            // A first piece of no puzzles still has its output: --rate's header, a corpus's.
            let mut records = (puzzles, rows);
            let read = in_batches(&mut records, batched, |(puzzles, rows), start| {
                let made = batch(puzzles, rows.as_ref());
                let text = match (pieces.header(), &rows) {
                    (Some(header), Some(rows)) => {
                        if !std::mem::replace(&mut header_written, true) {
                            output.write(&write_header(header, result, result_header))?;
                        }
                        let written = (result, result_header);
                        write_rows(header, &rows.records, &made.text, written)
                    }
                    _ => {
                        let first = piece.first && start == 0;
                        if !first && puzzles.layout != Layout::Line {
                            output.write(b"\n")?;
                        }
                        made.text
                    }
                };
                let all = (&mut problems, puzzles_before + start);
                write_batch(&mut output, &text, &made.problems, all)
            })?;
            if !read {
                break;
            }
        }
        puzzles_before += count;
        progress.advance(count, piece.text.len());
    }
    progress.finish();
    let end = match malformed {
        None => BatchEnd::Done(problems),
        Some(errors) => BatchEnd::Malformed(errors),
    };
    finish_stream(output, &name, end)
}

/// The records of a piece: its puzzles, and its rows when the input is a CSV corpus.
impl Records for (ShapedPuzzles, Option<CorpusRows>) {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn cells_per_record(&self) -> usize {
        self.0.cells_per_puzzle()
    }

    fn part(&self, range: Range<usize>) -> Self {
        let rows = self.1.as_ref().map(|rows| CorpusRows {
            records: rows.records[range.clone()].to_vec(),
            solutions: rows.solutions.part(range.clone()),
            solved: rows.solved[range.clone()].to_vec(),
            layouts: rows.layouts,
        });
        (self.0.part(range), rows)
    }
}
