//! `--canon` and `--shuffle` of every shape other than the standard 9×9 one, a piece of the input
//! at a time, over the groups of [`crate::classes::shaped`].

use super::{ShapedPieces, through_pieces};
use crate::classes::shaped::{Canons, canonical_lines, shuffled};
use crate::error::Error;
use crate::io::input::Pieces;
use crate::io::output::Destination;
use crate::jobs::solve::BatchOutput;
use crate::jobs::{Finished, Mode};
use crate::model::request::ShapeRequest;
use crate::problems::Problems;
use crate::text::corpus::{RowResult, detect_header};
use crate::text::format::Format;
use crate::text::shaped::{Layout, ShapedPuzzles};

/// `--canon` for every shape, a piece of the input at a time (see [`through_pieces`]): one line
/// per record, its canonical form (see [`crate::classes::shaped`]).
pub(in crate::jobs) fn canon_pieces(
    mut pieces: Pieces,
    request: ShapeRequest,
    column: Option<&str>,
    destination: Destination,
) -> Result<Finished, Error> {
    refuse_csv(&mut pieces, Mode::Canon)?;
    if column.is_some() {
        return Err(Error::column_without_corpus(pieces.name()));
    }
    let mut canons = Canons::default();
    // CSV corpora are refused above: no row takes a result.
    let canon = |puzzles: &mut ShapedPuzzles, _: bool| {
        let text = canonical_lines(puzzles, &mut canons);
        puzzles.layout = Layout::Line;
        BatchOutput {
            text,
            problems: Problems::new(),
        }
    };
    let pieces = ShapedPieces::new(pieces, request, None);
    through_pieces(
        pieces,
        (RowResult::Column("canon"), b""),
        destination,
        canon,
    )
}

/// `--shuffle` for every shape, a piece of the input at a time (see [`through_pieces`]): every
/// record replaced by a random equivalent, drawn from `seed` and its number in the input, in
/// `format` or the input's own.
pub(in crate::jobs) fn shuffle_pieces(
    mut pieces: Pieces,
    request: ShapeRequest,
    format: Option<Format>,
    seed: u64,
    destination: Destination,
) -> Result<Finished, Error> {
    refuse_csv(&mut pieces, Mode::Shuffle)?;
    let mut canons = Canons::default();
    let mut before = 0;
    let shuffle = |puzzles: &mut ShapedPuzzles, _: bool| {
        match format {
            // A record that carries its layout stays a line, which the layout is part of.
            _ if puzzles.prefixed => puzzles.layout = Layout::Line,
            Some(Format::Line) => puzzles.layout = Layout::Line,
            Some(Format::Grid) => puzzles.layout = Layout::Grid { compact: false },
            None => {}
        }
        let text = shuffled(puzzles, &mut canons, seed, before, puzzles.layout);
        before += puzzles.len();
        BatchOutput {
            text,
            problems: Problems::new(),
        }
    };
    // CSV corpora are refused above: no row takes a result.
    let pieces = ShapedPieces::new(pieces, request, None);
    through_pieces(pieces, (RowResult::Appended, b""), destination, shuffle)
}

/// Refuses a CSV corpus of another shape than 9×9, which `mode` does not read.
fn refuse_csv(pieces: &mut Pieces, mode: Mode) -> Result<(), Error> {
    if detect_header(&pieces.peek(CSV_PEEK)?, None).is_some() {
        return Err(Error::Usage(format!(
            "{}: {} reads CSV corpora of the standard 9×9 shape only; give the puzzles of \
             other shapes one a line or as grids",
            pieces.name(),
            mode.flag()
        )));
    }
    Ok(())
}

/// How much of an input tells whether it is a CSV corpus: its first line.
const CSV_PEEK: usize = 64 << 10;
