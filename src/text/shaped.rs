//! Puzzles of any shape as text, read and written in three layouts:
//!
//! - **line**: one puzzle a line, N·N symbols row by row; a jigsaw puzzle may carry its own regions
//!   as `LAYOUT PUZZLE` (N·N region characters, one space, the N·N cells).
//! - **grid**: N lines of N symbols separated by single spaces, one empty line between grids.
//! - **compact grid**: the same without the spaces (as AcWing's "Sudoku 2" prints 16×16 puzzles).
//!
//! Blanks are `.`, `-`, and `0` unless `0` is a symbol. The puzzles of a text are one flat vector
//! of N·N values each, so that a file is one allocation and its records are fixed-size slices.
//! At N = 9 with the default symbols the layouts are exactly the standard formats.
//!
//! Blanks are written `.` in the line layout, and `0` in the grid layout (`.` when `0` is a
//! symbol). `-s` answers in the layout its input came in, compact rows included, and keeps a
//! `LAYOUT ` prefix on its answers; `-c` and `-n` write the prefix in the line layout of a jigsaw
//! shape. A 16-character first line is a 4×4 puzzle unless it starts a block of exactly 16 such
//! rows, then an empty line or the end, in which no row or column repeats a symbol (a 16×16 grid
//! in compact rows); `--size` decides when in doubt. Without `--symbols` the alphabet, and
//! without `--box` the box split, are told from the cells (see `text/alphabet.rs` and
//! `text/boxes.rs`).

use std::collections::HashMap;

use crate::model::layout::LayoutError;
use crate::model::request::{Diagonals, LayoutSource, ShapeRequest};
use crate::model::shape::{SIZES, Shape, ShapeError};
use crate::model::symbols::{DEFAULT_SYMBOLS, NOT_A_CELL, Symbols, can_be_symbol};
use crate::problems::shown_character;
use crate::text::alphabet::written_alphabet;
use crate::text::boxes::written_shapes;
use crate::text::parse::{ParseError, ParseErrors, numbered_lines, utf16_encoding};

/// The layout of a text of puzzles or grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One puzzle a line.
    Line,
    /// N lines a puzzle; `compact` when the symbols of a row are not separated.
    Grid {
        /// Rows written without spaces.
        compact: bool,
    },
}

/// Puzzles of one size read from text.
#[derive(Clone, Debug)]
pub struct ShapedPuzzles {
    /// The layout of the text.
    pub layout: Layout,
    /// The shapes the puzzles are of: the requested one first, then one per layout that `LAYOUT
    /// PUZZLE` lines carry.
    pub shapes: Vec<Shape>,
    /// The values of every puzzle, N·N each, 0 for blank.
    pub cells: Vec<u8>,
    /// For each puzzle, the line where it starts (counted from 1).
    pub lines: Vec<usize>,
    /// For each puzzle, its shape in `shapes`.
    pub shape_of: Vec<u32>,
    /// Whether the lines carried their layout.
    pub prefixed: bool,
    /// Whether the first records, read plain, would read as well as X-Sudoku, and are too few
    /// to tell (see `text/boxes.rs`).
    pub diagonals_in_doubt: bool,
}

impl ShapedPuzzles {
    /// N·N.
    pub fn cells_per_puzzle(&self) -> usize {
        self.shapes[0].cells()
    }

    /// How many puzzles there are.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Puzzle `index`'s values.
    pub fn puzzle(&self, index: usize) -> &[u8] {
        let n = self.cells_per_puzzle();
        &self.cells[index * n..(index + 1) * n]
    }

    /// No puzzles, of the shape `request` names.
    pub(crate) fn empty_like(request: &ShapeRequest) -> ShapedPuzzles {
        let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(0);
        let size = request.known_size().unwrap_or(9);
        ShapedPuzzles {
            layout: Layout::Line,
            shapes: vec![
                request
                    .shape(size, &mut rng)
                    .unwrap_or_else(|_| Shape::standard()),
            ],
            cells: Vec::new(),
            lines: Vec::new(),
            shape_of: Vec::new(),
            prefixed: false,
            diagonals_in_doubt: false,
        }
    }

    /// Puzzle `index`'s shape.
    pub fn shape(&self, index: usize) -> &Shape {
        &self.shapes[self.shape_of[index] as usize]
    }
}

/// How the first record of a text looks.
struct Detected {
    size: usize,
    layout: Layout,
    prefixed: bool,
}

/// N as the first record of `text` shows it, where it can: `None` when the text holds no record
/// or its first line fits no shape. With `size`, a line that fits both a line of that size and a
/// row of it is read as that size says.
pub fn detect_size(text: &[u8], size: Option<usize>) -> Option<(usize, bool)> {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    detect(text, size).map(|d| (d.size, d.prefixed))
}

/// Where the first tab of the first record line is, as (line, column): tab-separated values are
/// no format this reads, and their columns would otherwise be taken for cells.
fn first_tab(text: &[u8]) -> Option<(usize, usize)> {
    let (line, first) = numbered_lines(text, 1)
        .filter(|(_, line)| !line.starts_with(b"#"))
        .find(|(_, line)| !line.is_empty())?;
    memchr::memchr(b'\t', first).map(|at| (line, at + 1))
}

/// N, when `len` is N·N cells of a shape.
pub(crate) fn square_root(len: usize) -> Option<usize> {
    SIZES.clone().find(|s| s * s == len)
}

/// N and the layout, as the first record of `text` shows them (see [`detect_size`]).
pub(crate) fn detect_layout(text: &[u8], size: Option<usize>) -> Option<(usize, Layout)> {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    detect(text, size).map(|d| (d.size, d.layout))
}

fn detect(text: &[u8], size: Option<usize>) -> Option<Detected> {
    let mut lines = numbered_lines(text, 1).filter(|(_, line)| !line.starts_with(b"#"));
    let (_, first) = lines.by_ref().find(|(_, line)| !line.is_empty())?;
    // Runs of spaces count as one, and spaces at the ends as none: a stray space must not make a
    // row of N cells read as a row of N + 1, whose grid then misses a line; the reader names it.
    let tokens: Vec<&[u8]> = first
        .split(|&b| b == b' ')
        .filter(|token| !token.is_empty())
        .collect();
    // A puzzle of the wrong length still follows its layout: the reader names the length.
    if let [layout, _] = tokens[..]
        && let Some(side) = square_root(layout.len())
    {
        return Some(Detected {
            size: side,
            layout: Layout::Line,
            prefixed: true,
        });
    }
    if tokens.len() > 1 && SIZES.contains(&tokens.len()) {
        return Some(Detected {
            size: tokens.len(),
            layout: Layout::Grid { compact: false },
            prefixed: false,
        });
    }
    if tokens.len() > 1 {
        // No row of any size: a line with stray spaces, read as the line its cells make.
        let cells = tokens.iter().map(|token| token.len()).sum();
        return square_root(cells).map(|size| Detected {
            size,
            layout: Layout::Line,
            prefixed: false,
        });
    }
    let first = tokens.first().copied().unwrap_or(first);
    let len = first.len();
    let as_line = square_root(len);
    let as_row = Some(len).filter(|l| SIZES.contains(l));
    let (size, layout) = match (as_line, as_row) {
        (Some(side), Some(_)) => {
            // A block of exactly `len` rows of `len` characters, then an empty line or the end,
            // unless it reads as lines of the smaller shape: every given is a symbol of the
            // smaller shape, which no grid of the larger can show alone (a complete one holds
            // all its symbols, and a puzzle that shows fewer than all but one has many
            // solutions). A block of blanks alone is a grid.
            let mut rows_follow = || {
                let mut rows = vec![first];
                rows.extend(lines.by_ref().take(len - 1).map(|(_, line)| line));
                let block = rows.len() == len && rows.iter().all(|row| row.len() == len);
                if !block || !lines.next().is_none_or(|(_, line)| line.is_empty()) {
                    return false;
                }
                let small_symbols = &DEFAULT_SYMBOLS[..side];
                let cells = || rows.iter().flat_map(|row| row.iter());
                let blank = |cell: &u8| matches!(cell, b'.' | b'-' | b'0');
                let as_lines = cells().all(|cell| small_symbols.contains(cell) || blank(cell))
                    && !cells().all(blank);
                !as_lines
            };
            if size == Some(len) || (size != Some(side) && rows_follow()) {
                (len, Layout::Grid { compact: true })
            } else {
                (side, Layout::Line)
            }
        }
        (Some(side), None) => (side, Layout::Line),
        (None, Some(len)) => (len, Layout::Grid { compact: true }),
        (None, None) => return None,
    };
    Some(Detected {
        size,
        layout,
        prefixed: false,
    })
}

/// Reads the puzzles of `text` for the shape `request` asks for; N comes from the request when it
/// gives one, else from the text. Every problem is returned, located, instead of any puzzle.
pub fn parse_shaped(text: &[u8], request: &ShapeRequest) -> Result<ShapedPuzzles, ParseErrors> {
    let (puzzles, errors) = read_shaped(text, request)?;
    if errors.is_empty() {
        Ok(puzzles)
    } else {
        Err(errors)
    }
}

/// Reads `text` as [`parse_shaped`] does, keeping the puzzles that could be read beside the
/// problems of the others; `Err` when no puzzle can be read at all (its size is unknown, or the
/// flags give no valid shape for it).
pub fn read_shaped(
    text: &[u8],
    request: &ShapeRequest,
) -> Result<(ShapedPuzzles, ParseErrors), ParseErrors> {
    let fail = |line: usize, message: String| {
        let mut errors = ParseErrors::new();
        errors.push(ParseError {
            line,
            column: 1,
            message,
        });
        Err(errors)
    };
    if let Some(encoding) = utf16_encoding(text) {
        return fail(
            1,
            format!("the text is {encoding}; expected ASCII or UTF-8"),
        );
    }
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    if let Some((line, column)) = first_tab(text) {
        let mut errors = ParseErrors::new();
        errors.push(ParseError {
            line,
            column,
            message: "a tab: expected N·N cells a line, rows of N cells (spaces between them or \
                      none), or a CSV corpus (commas between its fields)"
                .to_owned(),
        });
        return Err(errors);
    }
    let known = request.known_size();
    let found = detect(text, known);
    if let (Some(known), Some(found)) = (known, &found)
        && found.prefixed
        && found.size != known
    {
        let side = found.size;
        return fail(
            1,
            format!(
                "the first line carries a {side}×{side} layout (LAYOUT PUZZLE), where the flags \
                 ask for {known}×{known}: give the size of the layouts, or none"
            ),
        );
    }
    // A first record of another size than the one asked is malformed, not a sign of the layout:
    // read line by line, each line is told what it lacks.
    let detected = found.map(|d| match known {
        Some(known) if known != d.size => Detected {
            size: known,
            layout: Layout::Line,
            prefixed: false,
        },
        _ => d,
    });
    let size = match known.or(detected.as_ref().map(|d| d.size)) {
        Some(size) => size,
        // An empty input holds no record of any size: none is read, as at 9×9.
        None if text.iter().all(u8::is_ascii_whitespace) => 9,
        None => {
            return fail(
                1,
                "cannot tell the size: expected N·N cells a line, or rows of N cells, N from 4 to 25"
                    .into(),
            );
        }
    };
    // The seed of a random layout does not matter here: -s and --check take no random layout.
    let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(0);
    let prefixed = detected.as_ref().is_some_and(|d| d.prefixed);
    let written = request
        .symbols
        .is_none()
        .then(|| written_alphabet(text, size, prefixed))
        .flatten();
    let inferred;
    let request = match written {
        Some(symbols) => {
            inferred = ShapeRequest {
                symbols: Some(symbols),
                ..request.clone()
            };
            &inferred
        }
        None => request,
    };
    let shape = match request.shape(size, &mut rng) {
        Ok(shape) => shape,
        // Records that carry their layouts need no boxes, at a prime size too: the first one's
        // layout stands for the shape until each record gives its own.
        Err(ShapeError::PrimeSize(_))
            if request.layout.is_none() && detected.as_ref().is_some_and(|d| d.prefixed) =>
        {
            let first = numbered_lines(text, 1)
                .map(|(_, line)| line)
                .find(|line| !line.is_empty() && !line.starts_with(b"#"))
                .and_then(|line| line.split(|&b| b == b' ').next())
                .unwrap_or_default();
            let with_layout = ShapeRequest {
                layout: Some(LayoutSource::Text {
                    text: first.to_vec(),
                    name: String::new(),
                }),
                ..request.clone()
            };
            match with_layout.shape(size, &mut rng) {
                Ok(shape) => shape,
                Err(error) => return fail(1, error.to_string()),
            }
        }
        // A size read from the text is no flag of the user's: the message says what was read.
        Err(error @ (ShapeError::Size(_) | ShapeError::PrimeSize(_))) if known.is_none() => {
            let flag = match error {
                ShapeError::PrimeSize(_) => "give its regions with --jigsaw, or --size for another",
                _ => "or give --size",
            };
            return fail(
                1,
                format!(
                    "cannot tell the size: the first record reads as {size}×{size}, a shape \
                     without boxes; expected N·N cells a line, or rows of N cells, N from 4 to 25 \
                     ({flag})"
                ),
            );
        }
        // A prime size the flags gave, of records that carry no layouts to stand for boxes.
        Err(error @ ShapeError::PrimeSize(_)) => {
            let error = request.in_words_of_flags(error);
            return fail(1, format!("{error}, or lines that carry their layouts"));
        }
        Err(error) => return fail(1, error.to_string()),
    };
    let Some(detected) = detected else {
        // The size was given, and the first record fits no shape of it: a malformed record, not
        // an empty input.
        let mut records =
            numbered_lines(text, 1).filter(|(_, line)| !line.starts_with(b"#") && !line.is_empty());
        if let Some((line, record)) = records.next() {
            return fail(
                line,
                format!(
                    "expected a line of {} cells or a row of {size} cells (a {size}×{size} grid), \
                     found {} characters",
                    size * size,
                    record.len()
                ),
            );
        }
        let empty = ShapedPuzzles {
            layout: Layout::Line,
            shapes: vec![shape],
            cells: Vec::new(),
            lines: Vec::new(),
            shape_of: Vec::new(),
            prefixed: false,
            diagonals_in_doubt: false,
        };
        return Ok((empty, ParseErrors::new()));
    };
    let mut reader = Reader {
        shape_of_layout: HashMap::new(),
        puzzles: ShapedPuzzles {
            layout: detected.layout,
            shapes: vec![shape],
            cells: Vec::new(),
            lines: Vec::new(),
            shape_of: Vec::new(),
            prefixed: detected.prefixed,
            diagonals_in_doubt: false,
        },
        errors: ParseErrors::new(),
        request,
    };
    match detected.layout {
        Layout::Line => reader.lines(text),
        Layout::Grid { .. } => reader.blocks(text),
    }
    // Records that carry their layouts have no boxes to tell, only their diagonals; nor has the
    // rest of an input whose first records told them.
    if !request.settled {
        let tell_split = request.split.is_none() && request.layout.is_none() && !detected.prefixed;
        let tell_diagonals = request.diagonal == Diagonals::Told;
        let puzzles = &mut reader.puzzles;
        match written_shapes(puzzles, tell_split, tell_diagonals) {
            Ok(told) => {
                if let Some(shapes) = told.shapes {
                    puzzles.shapes = shapes;
                }
                puzzles.diagonals_in_doubt = told.diagonals_in_doubt;
            }
            Err(message) => return fail(puzzles.lines.first().copied().unwrap_or(1), message),
        }
    }
    Ok((reader.puzzles, reader.errors))
}

/// The problem of `line[at]`, which is neither a symbol of `symbols` nor a blank; `told`: the
/// alphabet was told from the text, not given by `--symbols`.
pub(crate) fn unexpected_cell(symbols: &Symbols, line: &[u8], at: usize, told: bool) -> String {
    // A file of its own symbols that does not show them all is read in the default alphabet
    // (see `text/alphabet.rs`): the flag that reads it is named, unless no alphabet holds the
    // character.
    let hint = if told && line.get(at).is_some_and(|&ch| can_be_symbol(ch)) {
        "; give --symbols for a file of other symbols"
    } else {
        ""
    };
    format!(
        "unexpected {} (expected a symbol of {} or a blank: '.', '-'{}{hint})",
        shown_character(line, at),
        String::from_utf8_lossy(symbols.as_bytes()),
        if symbols.value_of(b'0') == 0 {
            ", '0'"
        } else {
            ""
        }
    )
}

struct Reader<'a> {
    shape_of_layout: HashMap<Vec<u8>, u32>,
    puzzles: ShapedPuzzles,
    errors: ParseErrors,
    request: &'a ShapeRequest,
}

impl Reader<'_> {
    fn size(&self) -> usize {
        self.puzzles.shapes[0].size()
    }

    fn symbols(&self) -> Symbols {
        *self.puzzles.shapes[0].symbols()
    }

    fn error(&mut self, line: usize, column: usize, message: String) {
        self.errors.push(ParseError {
            line,
            column,
            message,
        });
    }

    /// Reads the `count` symbols at bytes `first`, `first + step`, ... of `line` into `out`;
    /// false after reporting the first unknown character.
    fn read_cells(
        &mut self,
        number: usize,
        line: &[u8],
        (first, step, count): (usize, usize, usize),
        out: &mut Vec<u8>,
    ) -> bool {
        let symbols = self.symbols();
        for at in (first..).step_by(step).take(count) {
            let value = symbols.value_of(line[at]);
            if value == NOT_A_CELL {
                let message = unexpected_cell(&symbols, line, at, self.request.symbols.is_none());
                self.error(number, at + 1, message);
                return false;
            }
            out.push(value);
        }
        true
    }

    fn lines(&mut self, text: &[u8]) {
        let n = self.size();
        for (number, line) in numbered_lines(text, 1) {
            if line.is_empty() || line.starts_with(b"#") {
                continue;
            }
            if line == b"end" {
                break;
            }
            let (layout, column) = match line.iter().position(|&b| b == b' ') {
                Some(at) => (Some(&line[..at]), at + 1),
                None => (None, 0),
            };
            let cells = &line[column..];
            if cells.len() != n * n {
                self.error(
                    number,
                    column + 1,
                    format!(
                        "expected {} cells for a {n}×{n} puzzle, found {}",
                        n * n,
                        cells.len()
                    ),
                );
                continue;
            }
            let shape = match layout {
                Some(layout) => match self.shape_of(layout) {
                    Ok(index) if self.request.layout.is_some() && !self.same_regions(index) => {
                        let message = "the layout is not the one --jigsaw gives (drop the layouts \
                                       before the puzzles, or give the same regions)";
                        self.error(number, 1, message.to_owned());
                        continue;
                    }
                    Ok(index) => index,
                    Err(error) => {
                        // A layout prefix is one line: its column is the place in the line.
                        let message = format!("malformed layout: {}", error.problem);
                        self.error(number, error.column, message);
                        continue;
                    }
                },
                None => 0,
            };
            let mut values = Vec::with_capacity(n * n);
            if self.read_cells(number, line, (column, 1, n * n), &mut values) {
                self.push(&values, number, shape);
            }
        }
    }

    /// Whether shape `index` has the regions of the first shape, the one the flags give.
    fn same_regions(&self, index: u32) -> bool {
        let shapes = &self.puzzles.shapes;
        shapes[index as usize].same_regions(&shapes[0])
    }

    /// The shape of a `LAYOUT PUZZLE` line's layout, made once per layout.
    fn shape_of(&mut self, layout: &[u8]) -> Result<u32, LayoutError> {
        if let Some(&index) = self.shape_of_layout.get(layout) {
            return Ok(index);
        }
        let shape = Shape::jigsaw(
            layout,
            Some(self.size()),
            self.request.diagonal_houses(),
            Some(self.symbols()),
        )?;
        let index = self.puzzles.shapes.len() as u32;
        self.puzzles.shapes.push(shape);
        self.shape_of_layout.insert(layout.to_vec(), index);
        Ok(index)
    }

    fn blocks(&mut self, text: &[u8]) {
        let n = self.size();
        let mut block: Vec<(usize, &[u8])> = Vec::new();
        let lines = numbered_lines(text, 1).chain(std::iter::once((0, &b""[..])));
        for (number, line) in lines {
            if line.starts_with(b"#") {
                continue;
            }
            if !line.is_empty() {
                block.push((number, line));
                continue;
            }
            if block.is_empty() {
                continue;
            }
            let start = block[0].0;
            if block.len() != n {
                let at = block.get(n).map_or(block[block.len() - 1].0, |&(l, _)| l);
                self.error(
                    at,
                    1,
                    format!(
                        "the grid starting on line {start} has {} lines; expected {n} (a {n}×{n} grid)",
                        block.len()
                    ),
                );
                block.clear();
                continue;
            }
            let mut values = Vec::with_capacity(n * n);
            let mut clean = true;
            for &(number, row) in &block {
                clean &= self.read_row(number, row, &mut values);
            }
            if clean {
                self.push(&values, start, 0);
            }
            block.clear();
        }
    }

    /// Reads one row of a grid, spaced or compact.
    fn read_row(&mut self, number: usize, row: &[u8], out: &mut Vec<u8>) -> bool {
        let n = self.size();
        if row.len() == n {
            return self.read_cells(number, row, (0, 1, n), out);
        }
        let spaced = row.len() == 2 * n - 1 && row.iter().skip(1).step_by(2).all(|&b| b == b' ');
        if spaced {
            return self.read_cells(number, row, (0, 2, n), out);
        }
        self.error(
            number,
            1,
            format!(
                "expected a row of {n} cells ({n} symbols, separated by single spaces or not at all), found {} characters",
                row.len()
            ),
        );
        false
    }

    fn push(&mut self, values: &[u8], line: usize, shape: u32) {
        self.puzzles.cells.extend_from_slice(values);
        self.puzzles.lines.push(line);
        self.puzzles.shape_of.push(shape);
    }
}

/// Writes grids (N·N values each, 0 for blank) in `layout`, one record after another; grid-layout
/// records are separated by one empty line. `prefixes` gives each line-layout record's `LAYOUT `.
pub fn render(grids: &[u8], shapes: &[&Shape], layout: Layout, with_layouts: bool) -> Vec<u8> {
    let Some(first) = shapes.first() else {
        return Vec::new();
    };
    let n = first.size();
    let record_len = record_len(n, layout, with_layouts);
    let mut out = Vec::with_capacity(record_len * shapes.len());
    for (grid, shape) in grids.chunks_exact(n * n).zip(shapes) {
        write_record(grid, shape, layout, with_layouts, &mut out);
    }
    if matches!(layout, Layout::Grid { .. }) {
        out.pop();
    }
    out
}

/// The bytes of one record, its separator included (the last grid of a file has none).
pub fn record_len(n: usize, layout: Layout, with_layout: bool) -> usize {
    match layout {
        Layout::Line => n * n + 1 + if with_layout { n * n + 1 } else { 0 },
        Layout::Grid { compact: true } => n * (n + 1) + 1,
        Layout::Grid { compact: false } => n * 2 * n + 1,
    }
}

/// Appends one record of `grid` to `out`.
pub fn write_record(
    grid: &[u8],
    shape: &Shape,
    layout: Layout,
    with_layout: bool,
    out: &mut Vec<u8>,
) {
    let n = shape.size();
    let symbols = shape.symbols();
    let blank = symbols.blank(layout == Layout::Line);
    let glyph = |v: u8| if v == 0 { blank } else { symbols.glyph(v) };
    match layout {
        Layout::Line => {
            if with_layout && let Some(text) = shape.layout_text() {
                out.extend_from_slice(&text);
                out.push(b' ');
            }
            out.extend(grid.iter().map(|&v| glyph(v)));
            out.push(b'\n');
        }
        Layout::Grid { compact } => {
            for row in grid.chunks_exact(n) {
                for (i, &v) in row.iter().enumerate() {
                    if i > 0 && !compact {
                        out.push(b' ');
                    }
                    out.push(glyph(v));
                }
                out.push(b'\n');
            }
            out.push(b'\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::shape::Regions;

    fn request(size: Option<usize>) -> ShapeRequest {
        ShapeRequest {
            size,
            ..ShapeRequest::default()
        }
    }

    #[test]
    fn the_size_comes_from_the_text() {
        assert_eq!(detect_size(&[b'.'; 256], None), Some((16, false)));
        let rows = "ABCD\n".repeat(16).replace("ABCD", "ABCDEFGHIJKLMNOP");
        assert_eq!(detect_size(rows.as_bytes(), None), Some((16, false)));
        assert_eq!(detect_size(b"1 2 . 4\n", None), Some((4, false)));
        assert_eq!(detect_size(b"1234\n", None), Some((4, false)));
        assert_eq!(detect_size(b"xx\n", None), None);
        let jigsaw = format!("{} {}\n", "a".repeat(81), ".".repeat(81));
        assert_eq!(detect_size(jigsaw.as_bytes(), None), Some((9, true)));
    }

    #[test]
    fn every_layout_reads_back_what_it_writes() {
        let shape = Shape::boxed(4, None, false, Symbols::default_for(4)).unwrap();
        let grid = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0];
        for layout in [
            Layout::Line,
            Layout::Grid { compact: true },
            Layout::Grid { compact: false },
        ] {
            let text = render(&[grid, grid].concat(), &[&shape, &shape], layout, false);
            let read = parse_shaped(&text, &request(Some(4))).unwrap();
            assert_eq!(read.layout, layout);
            assert_eq!(read.cells, [grid, grid].concat());
        }
    }

    #[test]
    fn the_box_split_comes_from_the_text_unless_given() {
        // Valid in 3x2 boxes, not in the default 2x3 ones.
        let grid = b"265134543216314625452361631452126543\n";
        let read = parse_shaped(grid, &request(None)).unwrap();
        let three_by_two = Regions::Boxes {
            rows: 3,
            columns: 2,
        };
        assert_eq!(*read.shapes[0].regions(), three_by_two);
        let mut settled = request(None);
        settled.settle(&read.shapes[0]);
        assert_eq!((settled.size, settled.split), (Some(6), Some((3, 2))));
        let given = ShapeRequest {
            split: Some((2, 3)),
            ..request(None)
        };
        let (read, _) = read_shaped(grid, &given).unwrap();
        assert_ne!(*read.shapes[0].regions(), three_by_two);
    }

    #[test]
    fn problems_are_located() {
        let errors =
            parse_shaped(b"1234123412341234\n12x4123412341234\n123\n", &request(None)).unwrap_err();
        let lines: Vec<String> = errors.lines(|e| e.line_in("f"));
        assert!(lines[0].starts_with("f:2:3: unexpected 'x'"), "{lines:?}");
        assert!(
            lines[1].starts_with("f:3:1: expected 16 cells"),
            "{lines:?}"
        );
        let wrong = parse_shaped(&[b'.'; 81], &request(Some(16))).unwrap_err();
        assert!(wrong.lines(|e| e.line_in("f"))[0].contains("expected 256 cells for a 16×16"));
    }
}
