//! Reading puzzles from text, in either input format (see [`parse_puzzles`]).
//!
//! Puzzles are read into one vector of [`Grid`]s with the line each starts on. A line-format text
//! is read in pieces of about 1 MiB that threads take in parallel, each writing into its own
//! stretch of the result; a grid-format text is read block by block as it comes.
//!
//! Beyond what [`parse_puzzles`] lists: lines starting with `#` are skipped wherever they stand,
//! before, between or inside the grids of the grid format, and a text that starts with a UTF-16
//! byte-order mark is refused with a message that names its encoding rather than a problem per
//! byte. Problems are located as `NAME:LINE:COLUMN: what`.

use rayon::prelude::*;

use crate::model::grid::{CELLS, Grid};
use crate::problems::{Problems, shown_character};
use crate::text::format::Format;

/// Puzzles read from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzles {
    /// The format the text was in (line, when it holds no puzzle).
    pub format: Format,
    /// The puzzles, 0 for blanks.
    pub grids: Vec<Grid>,
    /// For each puzzle, the line of the text where it starts (counted from 1).
    pub lines: Vec<usize>,
}

/// A problem in a puzzle text, located by line and column (both counted from 1; the column counts
/// bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Line of the problem.
    pub line: usize,
    /// Column of the problem.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl ParseError {
    /// The report's line for the text named `name`: `NAME:LINE:COLUMN: what`.
    pub fn line_in(&self, name: &str) -> String {
        format!("{name}:{}:{}: {}", self.line, self.column, self.message)
    }
}

/// The problems of a puzzle text, in text order.
pub type ParseErrors = Problems<ParseError>;

/// Reads puzzles in either input format, detected from the content:
///
/// - **line**: one puzzle per line, 81 cells, `1`–`9` for givens and `.` or `0` for blanks; empty lines
///   and lines starting with `#` are skipped, and a line `end` ends the input.
/// - **grid**: 9 lines of 9 cells, separated by single spaces or not separated at all, `0` (or `.`) for
///   blanks; puzzles are separated by one or more empty lines.
///
/// The first line that is neither empty nor a `#` comment decides: 9 cells, or spaces among fewer
/// than 81, mean the grid format, anything else the line format. Everywhere a UTF-8 byte-order
/// mark, CRLF line ends, trailing spaces or tabs and a missing final newline are accepted.
///
/// The problems of the text are returned instead of any puzzle.
pub fn parse_puzzles(text: &[u8]) -> Result<Puzzles, ParseErrors> {
    let parsed = parse_text(text);
    if parsed.errors.is_empty() {
        Ok(parsed.puzzles)
    } else {
        Err(parsed.errors)
    }
}

/// What a text held: the puzzles that could be read, and the problems of those that could not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedText {
    /// The well-formed puzzles, in text order.
    pub puzzles: Puzzles,
    /// The problems of the others.
    pub errors: ParseErrors,
    /// How many records (lines, or blocks of the grid format) were malformed.
    pub malformed: usize,
    /// Whether the text holds the line `end`, after which nothing is read.
    pub ended: bool,
}

impl ParsedText {
    /// How many records the text holds, well-formed or not.
    pub(crate) fn records(&self) -> usize {
        self.puzzles.grids.len() + self.malformed
    }
}

/// Reads a text as [`parse_puzzles`] does, keeping the puzzles that could be read beside the
/// problems of the others.
pub(crate) fn parse_text(text: &[u8]) -> ParsedText {
    parse_piece(text, None, 1)
}

/// Reads one piece of a text (whole records) that starts on line `first_line`, in `format`, or in
/// the format its content shows when `None` (the first piece decides for those after it). Lines and
/// problems are numbered as in the whole text.
pub(crate) fn parse_piece(text: &[u8], format: Option<Format>, first_line: usize) -> ParsedText {
    let text = if first_line == 1 {
        if let Some(encoding) = utf16_encoding(text) {
            let mut errors = ParseErrors::new();
            errors.push(ParseError {
                line: 1,
                column: 1,
                message: format!("the text is {encoding}; expected ASCII or UTF-8"),
            });
            return ParsedText {
                puzzles: Puzzles::empty(Format::Line),
                errors,
                malformed: 0,
                ended: false,
            };
        }
        text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text)
    } else {
        text
    };
    match format.unwrap_or_else(|| detect_format(text)) {
        Format::Line => parse_lines(text, first_line),
        Format::Grid => parse_grid_blocks(text, first_line),
    }
}

/// The format a text is in: the first line that is neither empty nor a `#` comment decides.
pub(crate) fn detect_format(text: &[u8]) -> Format {
    let first = numbered_lines(text, 1)
        .map(|(_, line)| line)
        .find(|line| !line.is_empty() && !line.starts_with(b"#"));
    // The cells a line holds decide, not its spaces: a stray space in a line of 81 cells must
    // not make it a row of a grid, nor a double space make a row something else.
    let cells = |line: &[u8]| line.iter().filter(|&&b| b != b' ').count();
    match first {
        Some(line) if cells(line) == 9 || (line.contains(&b' ') && cells(line) < 81) => {
            Format::Grid
        }
        _ => Format::Line,
    }
}

/// The UTF-16 encoding whose byte-order mark starts `text`, if any; without one, the encoding
/// its first characters show: ASCII with a zero byte after (little-endian) or before
/// (big-endian) each, which no text of this tool holds. Said with how it shows.
pub(crate) fn utf16_encoding(text: &[u8]) -> Option<&'static str> {
    let wide = |ascii: usize| {
        text.len() >= 16
            && text[..16]
                .chunks(2)
                .all(|pair| pair[1 - ascii] == 0 && pair[ascii] != 0 && pair[ascii].is_ascii())
    };
    match text.get(..2) {
        Some(b"\xff\xfe") => Some("UTF-16 little-endian (it starts with its byte-order mark)"),
        Some(b"\xfe\xff") => Some("UTF-16 big-endian (it starts with its byte-order mark)"),
        _ if wide(0) => Some("UTF-16 little-endian (a zero byte after each character)"),
        _ if wide(1) => Some("UTF-16 big-endian (a zero byte before each character)"),
        _ => None,
    }
}

/// The lines of `text` with their numbers (its first is `first_line`), without their line ends.
pub(crate) fn numbered_lines(
    text: &[u8],
    first_line: usize,
) -> impl Iterator<Item = (usize, &[u8])> {
    text.split(|&b| b == b'\n')
        .enumerate()
        .map(move |(i, line)| (first_line + i, trim_line_end(line)))
}

/// Reads text in the line format: one puzzle a line.
fn parse_lines(text: &[u8], first_line: usize) -> ParsedText {
    let mut puzzles = Puzzles::empty(Format::Line);
    let mut errors = ParseErrors::new();
    // Large inputs are read in parallel, in pieces that end at line ends. Each piece writes
    // its puzzles into its own stretch of the result, with room for as many as it could
    // hold; the stretches are then closed up (nothing moves unless lines were skipped) and
    // cut at a line `end`.
    let mut pieces = Vec::new();
    let mut rest = text;
    let mut first_line = first_line;
    while !rest.is_empty() {
        let cut = match rest
            .get(LINE_PIECE..)
            .and_then(|tail| memchr::memchr(b'\n', tail))
        {
            Some(at) => LINE_PIECE + at + 1,
            None => rest.len(),
        };
        let (piece, tail) = rest.split_at(cut);
        let line_count = bytecount::count(piece, b'\n') + usize::from(!piece.ends_with(b"\n"));
        // A puzzle takes a line of at least 81 bytes: a text of empty lines gets no room.
        let room = line_count.min(piece.len() / CELLS + 1);
        pieces.push((first_line, piece, room));
        first_line += line_count;
        rest = tail;
    }
    let total = pieces.iter().map(|&(_, _, room)| room).sum();
    puzzles.grids = vec![Grid::EMPTY; total];
    puzzles.lines = vec![0; total];
    let mut stretches = Vec::with_capacity(pieces.len());
    let (mut grids, mut lines) = (&mut puzzles.grids[..], &mut puzzles.lines[..]);
    for &(_, _, room) in &pieces {
        let (piece_grids, other_grids) = std::mem::take(&mut grids).split_at_mut(room);
        let (piece_lines, other_lines) = std::mem::take(&mut lines).split_at_mut(room);
        stretches.push((piece_grids, piece_lines));
        (grids, lines) = (other_grids, other_lines);
    }
    let parsed: Vec<LinePiece> = pieces
        .par_iter()
        .zip(stretches)
        .map(|(&(first_line, piece, _), (grids, lines))| {
            parse_line_piece(piece, first_line, grids, lines)
        })
        .collect();
    let (mut kept, mut start, mut ended) = (0, 0, false);
    for (piece, &(_, _, room)) in parsed.into_iter().zip(&pieces) {
        puzzles.grids.copy_within(start..start + piece.count, kept);
        puzzles.lines.copy_within(start..start + piece.count, kept);
        kept += piece.count;
        start += room;
        errors.append(piece.errors);
        if piece.ended {
            ended = true;
            break;
        }
    }
    puzzles.grids.truncate(kept);
    puzzles.lines.truncate(kept);
    // A malformed line has one problem.
    let malformed = errors.count();
    ParsedText {
        puzzles,
        errors,
        malformed,
        ended,
    }
}

/// Reads text in the grid format: blocks of nine row lines, one puzzle a block.
fn parse_grid_blocks(text: &[u8], first_line: usize) -> ParsedText {
    let mut puzzles = Puzzles::empty(Format::Grid);
    let mut errors = ParseErrors::new();
    let mut malformed = 0;
    // Blocks of consecutive non-empty lines, each one grid, read as they come: a block keeps
    // its first ten lines (nine rows, and one too many) and counts the others. An empty
    // line after the text closes the last block; a `#` comment line is skipped wherever it is.
    let mut block: Vec<(usize, &[u8])> = Vec::with_capacity(10);
    let (mut block_len, mut block_end) = (0, 0);
    let last_line =
        first_line + bytecount::count(text, b'\n') + usize::from(!text.ends_with(b"\n")) - 1;
    for (number, line) in numbered_lines(text, first_line).chain(std::iter::once((0, &b""[..]))) {
        if line.starts_with(b"#") {
            continue;
        }
        if !line.is_empty() {
            if block.len() < 10 {
                block.push((number, line));
            }
            (block_len, block_end) = (block_len + 1, number);
            continue;
        }
        if block_len == 0 {
            continue;
        }
        let start = block[0].0;
        let mut cells = [0; CELLS];
        let mut clean = block_len == 9;
        for (row, &(number, line)) in block.iter().take(9).enumerate() {
            let cells_of_row = &mut cells[9 * row..9 * row + 9];
            if let Err((column, message)) = read_cells(line, true, cells_of_row) {
                errors.push(ParseError {
                    line: number,
                    column,
                    message,
                });
                clean = false;
            }
        }
        if block_len < 9 {
            errors.push(ParseError {
                // Where the next row should have been; the grid's last line when the text ends
                // there, since no line follows it.
                line: (block_end + 1).min(last_line),
                column: 1,
                message: format!(
                    "unfinished grid: the grid starting on line {start} has {block_len} of 9 lines"
                ),
            });
        }
        if let Some(&(number, _)) = block.get(9) {
            errors.push(ParseError {
                line: number,
                column: 1,
                message: "expected an empty line after the 9 lines of a grid".into(),
            });
        } else if clean {
            puzzles.push(grid_of(cells), start);
        }
        malformed += usize::from(!clean);
        block.clear();
        block_len = 0;
    }
    ParsedText {
        puzzles,
        errors,
        malformed,
        ended: false,
    }
}

impl Puzzles {
    pub(crate) fn empty(format: Format) -> Puzzles {
        Puzzles {
            format,
            grids: Vec::new(),
            lines: Vec::new(),
        }
    }

    fn push(&mut self, grid: Grid, line: usize) {
        self.grids.push(grid);
        self.lines.push(line);
    }
}

/// The problem of `line[at]`, no digit nor blank of a 9×9 puzzle. A line of several other
/// symbols and no digit is one of a file of its own alphabet that does not show it whole (one
/// letter missing, say), which only `--symbols` reads.
pub(crate) fn unexpected_cell(line: &[u8], at: usize) -> String {
    let symbol = |ch: u8| crate::model::symbols::can_be_symbol(ch);
    let others = line
        .iter()
        .filter(|&&ch| symbol(ch) && ch != line[at])
        .count();
    // `0` is a blank here, as the grid format writes the blanks of another alphabet.
    let digit = |ch: &u8| matches!(ch, b'1'..=b'9');
    let other_symbols = !line.iter().any(digit) && symbol(line[at]) && others > 0;
    let mut shown: Vec<u8> = line
        .iter()
        .copied()
        .filter(|&ch| symbol(ch) && ch != b'0')
        .collect();
    shown.sort_unstable();
    shown.dedup();
    let expected = "expected a digit 1-9 or a blank: '.', '0', '-'";
    let hint = match (other_symbols, shown.len()) {
        (false, _) => String::new(),
        // A puzzle of nine letters whose givens leave one out: the text cannot tell which.
        (true, 8) => format!(
            " ({expected}; its givens show 8 symbols, {}, one short of an alphabet of 9: give \
             --symbols with all 9)",
            String::from_utf8_lossy(&shown)
        ),
        (true, _) => format!(" ({expected}; give --symbols for a file of other symbols)"),
    };
    format!("unexpected character {}{hint}", shown_character(line, at))
}

/// Bytes of line-format text read by one task.
const LINE_PIECE: usize = 1 << 20;

/// What a piece of line-format text held.
struct LinePiece {
    /// How many puzzles it wrote.
    count: usize,
    errors: ParseErrors,
    /// Whether the piece holds the line `end`, after which nothing is read.
    ended: bool,
}

/// Reads a piece of line-format text whose first line is line `first_line` of the input, writing
/// its puzzles and their line numbers to the starts of `grids` and `lines` (room enough for them).
fn parse_line_piece(
    piece: &[u8],
    first_line: usize,
    grids: &mut [Grid],
    lines: &mut [usize],
) -> LinePiece {
    let mut parsed = LinePiece {
        count: 0,
        errors: ParseErrors::new(),
        ended: false,
    };
    let mut rest = piece;
    for number in first_line.. {
        if rest.is_empty() {
            break;
        }
        let mut cells = [0; CELLS];
        // Most lines are 81 cells and a line feed: one pass reads the cells and, as a line feed is
        // no cell, finds none before the end, with no search for the line's end.
        let plain = rest.get(CELLS) == Some(&b'\n') && read_plain_cells(&rest[..CELLS], &mut cells);
        let len = if plain {
            CELLS
        } else {
            memchr::memchr(b'\n', rest).unwrap_or(rest.len())
        };
        let line = trim_line_end(&rest[..len]);
        rest = rest.get(len + 1..).unwrap_or_default();
        let read = if plain {
            Ok(())
        } else if line.is_empty() || line.starts_with(b"#") {
            continue;
        } else if line == b"end" {
            parsed.ended = true;
            break;
        } else {
            read_cells(line, false, &mut cells)
        };
        match read {
            Ok(()) => {
                grids[parsed.count] = grid_of(cells);
                lines[parsed.count] = number;
                parsed.count += 1;
            }
            Err((column, message)) => parsed.errors.push(ParseError {
                line: number,
                column,
                message,
            }),
        }
    }
    parsed
}

fn grid_of(cells: [u8; CELLS]) -> Grid {
    Grid::from_cells(cells).expect("cells are digits")
}

/// A line without its trailing spaces, tabs and carriage return.
fn trim_line_end(line: &[u8]) -> &[u8] {
    let end = line
        .iter()
        .rposition(|&b| !matches!(b, b' ' | b'\t' | b'\r'))
        .map_or(0, |i| i + 1);
    &line[..end]
}

/// Reads `line`, one byte a cell (`1`-`9`, `0` or `.`), into `cells` of the same length, in a loop
/// without branches; `false` if a byte is no cell here (`-` blanks take the slower loop).
fn read_plain_cells(line: &[u8], cells: &mut [u8]) -> bool {
    let mut valid = true;
    for (cell, &byte) in cells.iter_mut().zip(line) {
        let digit = byte.wrapping_sub(b'0');
        valid &= digit <= 9 || byte == b'.';
        *cell = if byte == b'.' { 0 } else { digit };
    }
    valid
}

/// Reads the cells of one line into `cells` (which sets how many are expected). With `spaced`, a line
/// holding a space has its cells separated by single spaces. The error is a column and a message.
fn read_cells(line: &[u8], spaced: bool, cells: &mut [u8]) -> Result<(), (usize, String)> {
    let expected = cells.len();
    // The common case takes one pass; anything else the loop below, which finds the problem.
    if line.len() == expected && read_plain_cells(line, cells) {
        return Ok(());
    }
    // The first record decides whether lines carry layouts: here it did not.
    if expected == CELLS
        && line.len() == 2 * expected + 1
        && line[expected] == b' '
        && line[..expected].iter().all(u8::is_ascii_graphic)
        && line[..expected].iter().any(u8::is_ascii_alphabetic)
    {
        let message = "a LAYOUT PUZZLE line among plain lines: the first record of a file tells \
                       whether its lines carry layouts (start with one that does)";
        return Err((1, message.to_owned()));
    }
    let spaced = spaced && line.contains(&b' ');
    let mut count = 0;
    for (i, &byte) in line.iter().enumerate() {
        let column = i + 1;
        if spaced && i % 2 == 1 {
            if byte != b' ' {
                let found = shown_character(line, i);
                return Err((
                    column,
                    format!("expected a single space between cells, found {found}"),
                ));
            }
            continue;
        }
        let value = match byte {
            b'1'..=b'9' => byte - b'0',
            b'0' | b'.' | b'-' => 0,
            _ => return Err((column, unexpected_cell(line, i))),
        };
        if count == expected {
            let found = if spaced {
                line.len().div_ceil(2)
            } else {
                line.len()
            };
            return Err((column, format!("expected {expected} cells, found {found}")));
        }
        cells[count] = value;
        count += 1;
    }
    if count != expected {
        let found = count;
        return Err((
            line.len() + 1,
            format!("expected {expected} cells, found {found}"),
        ));
    }
    Ok(())
}

/// A grid from its line form: 81 cells, `1`–`9` for digits and `.` or `0` for empty cells.
///
/// ```
/// let grid: sudoku_gen::Grid = format!("5{}", ".".repeat(80)).parse().unwrap();
/// assert_eq!(grid.get(0), 5);
/// ```
impl std::str::FromStr for Grid {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Grid, ParseError> {
        let mut cells = [0; CELLS];
        read_cells(line.as_bytes(), false, &mut cells)
            .map(|()| grid_of(cells))
            .map_err(|(column, message)| ParseError {
                line: 1,
                column,
                message,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::LISTED;

    #[test]
    fn large_line_input_is_read_in_pieces_with_right_line_numbers() {
        let puzzle =
            "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....\n";
        let lines = 3 * LINE_PIECE / puzzle.len();
        let mut text = puzzle.repeat(lines);
        // A bad line deep in the second piece, then `end` in the third, then garbage.
        let bad_line = LINE_PIECE / puzzle.len() + 1000;
        let at = (bad_line - 1) * puzzle.len();
        text.replace_range(at..at + 1, "x");
        let end_line = 2 * LINE_PIECE / puzzle.len() + 500;
        let at = (end_line - 1) * puzzle.len();
        text.replace_range(
            at..at + puzzle.len(),
            &format!("end{}\n", " ".repeat(puzzle.len() - 4)),
        );
        let errors = parse_puzzles(text.as_bytes()).unwrap_err();
        assert_eq!(errors.count(), 1);
        assert_eq!(
            (errors.listed()[0].line, errors.listed()[0].column),
            (bad_line, 1)
        );
        text.replace_range(
            (bad_line - 1) * puzzle.len()..(bad_line - 1) * puzzle.len() + 1,
            ".",
        );
        let puzzles = parse_puzzles(text.as_bytes()).unwrap();
        assert_eq!(puzzles.grids.len(), end_line - 1);
        assert_eq!(puzzles.lines[end_line - 2], end_line - 1);
    }

    #[test]
    fn dashes_are_blanks_as_on_every_other_shape() {
        let dots =
            "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";
        let dashes = dots.replace('.', "-");
        let rows: Vec<String> = dashes
            .as_bytes()
            .chunks(9)
            .map(|row| {
                row.iter()
                    .map(|&b| char::from(b).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let plain = parse_puzzles(dots.as_bytes()).unwrap().grids;
        assert_eq!(parse_puzzles(dashes.as_bytes()).unwrap().grids, plain);
        assert_eq!(
            parse_puzzles(rows.join("\n").as_bytes()).unwrap().grids,
            plain
        );
    }

    #[test]
    fn a_layout_line_after_plain_ones_is_named() {
        let plain =
            "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";
        let layout: String = (0..81).map(|cell| char::from(b'a' + cell / 9)).collect();
        let text = format!("{plain}\n{layout} {plain}\n");
        let errors = parse_puzzles(text.as_bytes()).unwrap_err();
        let error = &errors.listed()[0];
        assert_eq!((error.line, error.column), (2, 1));
        assert!(
            error
                .message
                .starts_with("a LAYOUT PUZZLE line among plain lines")
        );
    }

    #[test]
    fn skipped_lines_in_every_piece_keep_puzzles_in_order() {
        let tail = &"..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2...."
            [1..];
        let line_count = 3 * LINE_PIECE / (tail.len() + 2);
        let mut text = String::new();
        let mut expected = Vec::new();
        for line in 1..=line_count {
            match line % 997 {
                0 => text.push_str("# a comment\n"),
                1 => text.push('\n'),
                _ => {
                    let digit = (line % 9 + 1) as u8;
                    text.push_str(&format!("{digit}{tail}\n"));
                    expected.push((line, digit));
                }
            }
        }
        let puzzles = parse_puzzles(text.as_bytes()).unwrap();
        let found: Vec<(usize, u8)> = puzzles
            .lines
            .iter()
            .zip(&puzzles.grids)
            .map(|(&line, grid)| (line, grid.get(0)))
            .collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn problems_on_every_line_are_counted_and_the_first_listed() {
        // Over several pieces, so that the pieces' lists are joined in order.
        let line_count = 3 * LINE_PIECE / 2;
        let errors = parse_puzzles("x\n".repeat(line_count).as_bytes()).unwrap_err();
        assert_eq!(errors.count(), line_count);
        let listed: Vec<usize> = errors.listed().iter().map(|e| e.line).collect();
        assert_eq!(listed, (1..=LISTED).collect::<Vec<_>>());
        // The grid format, block by block.
        let errors =
            parse_puzzles("1 2 3 4 5 6 7 8 9\n\nx\n\n".repeat(100).as_bytes()).unwrap_err();
        assert_eq!(errors.count(), 300);
        assert_eq!(errors.listed().len(), LISTED);
        assert_eq!((errors.listed()[0].line, errors.listed()[1].line), (2, 3));
    }

    #[test]
    fn room_for_puzzles_is_bounded_by_the_bytes_not_the_lines() {
        let text = "\n".repeat(3 * LINE_PIECE);
        let puzzles = parse_puzzles(text.as_bytes()).unwrap();
        assert!(puzzles.grids.is_empty());
        assert!(puzzles.grids.capacity() <= text.len() / CELLS + 4);
        assert!(puzzles.lines.capacity() <= text.len() / CELLS + 4);
    }
}
