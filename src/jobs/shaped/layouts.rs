//! Layouts in what `-s` and `--shuffle` write of jigsaw puzzles, so that it reads back as it was
//! read (`--canon` writes a `--jigsaw` file's puzzles as puzzles that carry their layouts). Lines
//! of puzzles of a `--jigsaw` file lead with its layout (`LAYOUT CELLS`, as `-c` and `-n` write
//! the jigsaw's line format), and puzzles that carry their own layouts are not written in the
//! grid format, which has no place for them. Grids of a `--jigsaw` file are answered in grids:
//! they were read with the flag, and read back with it.

use std::path::Path;

use crate::error::Error;
use crate::io::input::{Pieces, source_name};
use crate::jobs::run::PEEK;
use crate::text::corpus::detect_header;
use crate::text::format::Format;
use crate::text::shaped::{Layout, ShapedPuzzles, detect_size};

/// A usage error where `mode` would write, with `--format grid`, puzzles of the input `path`
/// (read from `input`) that carry their layouts: the grid format has no place for them, and the
/// output would be read back in boxes, or not at all. A CSV corpus is refused the grid format as
/// on the standard path, which shape flags skip.
pub(super) fn refuse_grid(
    mode: &str,
    path: &Path,
    format: Option<Format>,
    input: &mut Pieces,
) -> Result<(), Error> {
    if format != Some(Format::Grid) {
        return Ok(());
    }
    let text = input.peek(PEEK)?;
    // A corpus's results go into its rows, whatever the flags say of its shape.
    if detect_header(&text, None).is_some() {
        return Err(Error::format_of_corpus(input.name()));
    }
    if detect_size(&text, None).is_some_and(|d| d.1) {
        return Err(Error::Usage(format!(
            "{mode} --format grid: the puzzles of {} carry their layouts (LAYOUT PUZZLE lines), \
             which the grid format would drop, so its output could not be read back: use \
             --format line, as the input's own",
            source_name(path)
        )));
    }
    Ok(())
}

/// `text`, the records written of `puzzles` in their layout, each line led by the jigsaw's layout
/// and a space where they are lines of puzzles of a `--jigsaw` file (not records that carry their
/// own layouts, nor a corpus's fields, which the caller leaves out).
pub(super) fn lead_with_layout(text: Vec<u8>, puzzles: &ShapedPuzzles) -> Vec<u8> {
    let shape = &puzzles.shapes[0];
    let layout = match shape.layout_text() {
        Some(layout) if !puzzles.prefixed && puzzles.layout == Layout::Line => layout,
        _ => return text,
    };
    let mut led = Vec::with_capacity(text.len() + puzzles.len() * (layout.len() + 1));
    for line in text.split_inclusive(|&b| b == b'\n') {
        led.extend_from_slice(&layout);
        led.push(b' ');
        led.extend_from_slice(line);
    }
    led
}
