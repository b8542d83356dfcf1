//! `--canon` and `--shuffle` of every shape other than the standard 9×9 one, a piece of the input
//! at a time, over the groups of [`crate::classes::shaped`].
//!
//! A CSV corpus is read as `-s` reads it and written back as a 9×9 one is: `--canon` appends a
//! column `canon` (the line it writes for the row's puzzle), and `--shuffle` writes every row
//! over with its puzzle, its solution (an empty one stays empty) and, where the row carries its
//! own layout, its layout moved alike, the other fields kept.

use super::layouts::lead_with_layout;
use super::through::through_pieces;
use super::{CorpusRows, ShapedPieces};
use crate::classes::shaped::{Canons, canonical_lines, shuffled, shuffled_rows};
use crate::error::Error;
use crate::io::input::Pieces;
use crate::io::output::Destination;
use crate::jobs::Finished;
use crate::jobs::solve::BatchOutput;
use crate::model::request::ShapeRequest;
use crate::problems::Problems;
use crate::text::corpus::RowResult;
use crate::text::format::Format;
use crate::text::shaped::{Layout, ShapedPuzzles};

/// `--canon` for every shape, a piece of the input at a time (see [`through_pieces`]): one line
/// per record, its canonical form (see [`crate::classes::shaped`]); a corpus's rows get it in a
/// column `canon`.
pub(in crate::jobs) fn canon_pieces(
    pieces: Pieces,
    request: ShapeRequest,
    column: Option<&str>,
    destination: Destination,
) -> Result<Finished, Error> {
    let mut canons = Canons::default();
    let canon = |puzzles: &mut ShapedPuzzles, rows: Option<&CorpusRows>| {
        turns_layouts(puzzles, rows);
        // A `--jigsaw` file's puzzle (a line, or a corpus's field) is classed as one that carries
        // its layout: its form is that line's, the layout turned with it, so that a class has
        // one line however it came in.
        if puzzles.shapes[0].layout_text().is_some() {
            puzzles.prefixed = true;
        }
        let text = canonical_lines(puzzles, &mut canons);
        puzzles.layout = Layout::Line;
        BatchOutput {
            text,
            problems: Problems::new(),
        }
    };
    let pieces =
        ShapedPieces::new(pieces, request, column.map(str::to_owned)).diagonals_matter(true);
    let result = (RowResult::Column("canon"), &b""[..]);
    through_pieces(pieces, result, true, destination, canon)
}

/// `--shuffle` for every shape, a piece of the input at a time (see [`through_pieces`]): every
/// record replaced by a random equivalent, drawn from `seed` and its number in the input, in
/// `format` or the input's own; a corpus's rows (its puzzle column `column`, when not one of the
/// usual names) written over as the module comment says.
pub(in crate::jobs) fn shuffle_pieces(
    pieces: Pieces,
    request: ShapeRequest,
    (format, column): (Option<Format>, Option<&str>),
    seed: u64,
    destination: Destination,
) -> Result<Finished, Error> {
    let mut canons = Canons::default();
    let mut before = 0;
    let shuffle = |puzzles: &mut ShapedPuzzles, rows: Option<&CorpusRows>| {
        let text = match rows {
            Some(rows) => {
                turns_layouts(puzzles, Some(rows));
                let solutions = (&rows.solutions, &rows.solved[..]);
                shuffled_rows(puzzles, solutions, &mut canons, seed, before)
            }
            None => {
                match format {
                    // A record that carries its layout stays a line, which the layout is part of.
                    _ if puzzles.prefixed => puzzles.layout = Layout::Line,
                    Some(Format::Line) => puzzles.layout = Layout::Line,
                    Some(Format::Grid) => puzzles.layout = Layout::Grid { compact: false },
                    None => {}
                }
                let text = shuffled(puzzles, &mut canons, seed, before, puzzles.layout);
                lead_with_layout(text, puzzles)
            }
        };
        before += puzzles.len();
        BatchOutput {
            text,
            problems: Problems::new(),
        }
    };
    let column = column.map(str::to_owned);
    let pieces = ShapedPieces::new(pieces, request, column).diagonals_matter(true);
    // Shuffling costs little a record: a piece is done at once.
    through_pieces(
        pieces,
        (RowResult::Replaced, b""),
        false,
        destination,
        shuffle,
    )
}

/// Marks the puzzles of corpus rows that carry their own layouts as records that do: their
/// layouts turn with them, as a `LAYOUT PUZZLE` line's does.
pub(super) fn turns_layouts(puzzles: &mut ShapedPuzzles, rows: Option<&CorpusRows>) {
    if let Some(rows) = rows {
        puzzles.prefixed = rows.layouts;
    }
}
