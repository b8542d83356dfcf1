//! A job over a file of puzzles of any size, a piece at a time: its text written as it comes, its
//! problems told at the end.
//!
//! Memory stays bounded whatever the input's size (about three pieces: the input window, its
//! puzzles and its output), and the output starts before the input ends: a slow job writes its
//! piece in batches (see [`super::batches`]), so that a reader that stops reading (`| head`) ends
//! it promptly. The order of the results, the located errors and the thread count's indifference
//! are those of a small file. A malformed record is the one thing that cannot wait for the end:
//! - found in the first piece of records, nothing is written, as for a small file: the output is
//!   held back until that piece has parsed without one;
//! - found later, the work stops at the piece that holds it: the results of the records before
//!   that piece stay written, a line on stderr says so, and every malformed record of the rest of
//!   a file is still reported; a stream, which may never end, is not read past that piece;
//! - with `-o FILE`, FILE is only replaced at a successful end, at any size.

use super::Finished;
use super::solve::{BatchEnd, BatchOutput, BatchRules, PieceInfo, puzzle_boundary, run_batch};
use crate::error::Error;
use crate::io::input::{Boundary, Piece, Pieces, StreamGuard};
use crate::io::output::{Destination, OutputStream};
use crate::io::progress::InputProgress;
use crate::text::corpus::{self, Header};
use crate::text::format::Format;
use crate::text::parse::{ParseErrors, Puzzles, detect_format, parse_piece};

/// Reads the puzzles of `pieces` a piece at a time, runs `job` on each and writes its text.
/// Malformed puzzles are reported instead; the output then stays unwritten unless a piece before
/// theirs was done (see the module comment).
pub(super) fn run_on_puzzles(
    mut pieces: Pieces,
    destination: Destination,
    rules: &BatchRules,
    job: impl FnMut(&Puzzles, PieceInfo) -> BatchOutput,
) -> Result<Finished, Error> {
    let name = pieces.name().to_owned();
    let mut progress = InputProgress::new(pieces.file_len(), "puzzles");
    let mut output = destination.into_stream();
    let end = run_batch(&mut pieces, rules, job, &mut output, |items, bytes| {
        progress.advance(items, bytes)
    });
    progress.finish();
    match end {
        Ok(end) => finish_stream(output, &name, end),
        // A piece that ends no record (a line longer than any puzzle's) stops the reading as a
        // malformed record does, after the results before it: say so too.
        Err(error) if output.has_written() => Ok(Finished::with(
            1,
            vec![format!("sudoku-gen: error: {error}"), written_before(&name)],
        )),
        Err(error) => Err(error),
    }
}

/// The line that says the results before the input's first malformed piece were written.
fn written_before(name: &str) -> String {
    format!(
        "sudoku-gen: the results of the puzzles before the first malformed piece of {name} were \
         written"
    )
}

/// Ends a job over the input `name` whose output went to `output` as `end` says: the output
/// finished and the problems told, or the malformed records reported, with a line that says so
/// when the results before them were written.
pub(super) fn finish_stream(
    output: OutputStream,
    name: &str,
    end: BatchEnd,
) -> Result<Finished, Error> {
    match end {
        BatchEnd::Done(problems) => {
            output.finish()?;
            let lines = problems.lines(|problem| problem.line_in(name));
            Ok(Finished::with(problems.count(), lines))
        }
        BatchEnd::Malformed(errors) => {
            let mut lines = parse_error_lines(name, &errors);
            if output.has_written() {
                lines.push(written_before(name));
            }
            Ok(Finished::with(1, lines))
        }
    }
}

/// A stream of 9×9 puzzles or grids, or a CSV corpus of them, judged a piece at a time as a job
/// that reads it whole reads it (`--shuffle`, `--classes`): the first piece tells the format, and
/// a header without a puzzle column or a piece with a malformed record ends the reading.
#[derive(Default)]
pub(super) struct PuzzleGuard {
    header: Option<Header>,
    format: Option<Format>,
}

impl StreamGuard for PuzzleGuard {
    fn boundary(&self, text: &[u8]) -> Boundary {
        puzzle_boundary(self.header.is_some(), self.format, None, text)
    }

    fn malformed(&mut self, piece: &Piece) -> bool {
        let first = piece.first_line == 1;
        if first {
            match corpus::detect_header(piece, None) {
                Some(Ok(header)) => self.header = Some(header),
                Some(Err(_)) => return true,
                None => self.format = Some(detect_format(piece)),
            }
        }
        match &self.header {
            Some(header) => {
                let (body, first_line) = if first {
                    let body = memchr::memchr(b'\n', piece).map_or(piece.len(), |at| at + 1);
                    (&piece[body..], 2)
                } else {
                    (&piece[..], piece.first_line)
                };
                !corpus::read_rows(body, header, first_line)
                    .errors
                    .is_empty()
            }
            None => !parse_piece(piece, self.format, piece.first_line)
                .errors
                .is_empty(),
        }
    }
}

/// The lines that report `errors` of the input `name`.
pub(super) fn parse_error_lines(name: &str, errors: &ParseErrors) -> Vec<String> {
    errors.lines(|error| error.line_in(name))
}
