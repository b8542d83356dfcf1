//! A job over a file of puzzles of any size, a piece at a time: its text written as it comes, its
//! problems told at the end.

use super::Finished;
use super::solve::{BatchEnd, BatchOutput, BatchRules, PieceInfo, run_batch};
use crate::error::Error;
use crate::io::input::Pieces;
use crate::io::output::Destination;
use crate::io::progress::InputProgress;
use crate::text::parse::{ParseErrors, Puzzles};

/// Reads the puzzles of `pieces` a piece at a time, runs `job` on each and writes its text.
/// Malformed puzzles are reported instead; the output then stays unwritten unless it had grown
/// past what is held back (see [`crate::io::output::HELD`]).
pub(super) fn run_on_puzzles(
    mut pieces: Pieces,
    destination: Destination,
    rules: &BatchRules,
    job: impl FnMut(&Puzzles, PieceInfo) -> BatchOutput,
) -> Result<Finished, Error> {
    let name = pieces.name().to_owned();
    let mut progress = InputProgress::new(pieces.file_len(), "puzzles");
    let mut output = destination.into_stream();
    let end = run_batch(
        &mut pieces,
        rules,
        job,
        |bytes| {
            output.write(bytes)?;
            Ok(!output.is_closed())
        },
        |items, bytes| progress.advance(items, bytes),
    )?;
    progress.finish();
    match end {
        BatchEnd::Done(problems) => {
            output.finish()?;
            let lines = problems.lines(|problem| problem.line_in(&name));
            Ok(Finished::with(problems.count(), lines))
        }
        BatchEnd::Malformed(errors) => {
            let mut lines = parse_error_lines(&name, &errors);
            if output.has_written() {
                lines.push(format!(
                    "sudoku-gen: the results of the puzzles before the first malformed piece of \
                     {name} were written"
                ));
            }
            Ok(Finished::with(1, lines))
        }
    }
}

/// The lines that report `errors` of the input `name`.
pub(super) fn parse_error_lines(name: &str, errors: &ParseErrors) -> Vec<String> {
    errors.lines(|error| error.line_in(name))
}
