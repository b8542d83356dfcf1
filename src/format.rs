//! The text forms of grids.
//!
//! Both forms give every grid a record of fixed length, so the byte offset of any cell of any grid is
//! arithmetic: the generator writes each grid straight into its place in the output, and threads can
//! fill disjoint ranges of one buffer.
//!
//! - **grid**: 9 lines of 9 digits separated by single spaces; grids are separated by one empty line
//!   and the last one has none after it. A record is `9 * 18 + 1 = 163` bytes: the grid's 162 bytes
//!   and the empty line that follows it, so `N` grids are `163 * N - 1` bytes.
//! - **line**: 81 characters and `\n`, 82 bytes a grid.

use std::io::Read;

use rayon::prelude::*;
use std::path::Path;

use crate::error::{Error, LISTED_PROBLEMS};
use crate::grid::{CELLS, Grid};

/// The text form of a grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Nine lines of nine space-separated cells, grids separated by an empty line.
    Grid,
    /// One line of 81 cells per grid.
    Line,
}

/// The longest record of any format, in bytes.
pub const MAX_RECORD_LEN: usize = 163;

impl Format {
    /// Bytes one grid takes, its separator included.
    pub const fn record_len(self) -> usize {
        match self {
            Format::Grid => 163,
            Format::Line => 82,
        }
    }

    /// Bytes `count` grids take in this format: the grid format has no empty line after its last grid.
    pub const fn output_len(self, count: usize) -> usize {
        match self {
            Format::Grid => (163 * count).saturating_sub(1),
            Format::Line => 82 * count,
        }
    }

    /// Where the character of `cell` sits inside a record.
    pub const fn cell_offset(self, cell: usize) -> usize {
        match self {
            Format::Grid => 18 * (cell / 9) + 2 * (cell % 9),
            Format::Line => cell,
        }
    }

    /// A record whose separators are in place and whose cells hold `fill`: rendering a grid is then
    /// only writing its 81 characters.
    pub fn blank_record(self, fill: u8) -> [u8; MAX_RECORD_LEN] {
        let mut record = [b'\n'; MAX_RECORD_LEN];
        if self == Format::Grid {
            for line in record[..162].chunks_exact_mut(18) {
                line[..17].fill(b' ');
            }
        }
        for cell in 0..CELLS {
            record[self.cell_offset(cell)] = fill;
        }
        record
    }

    /// Writes `grid` as one record into `record` (exactly [`Format::record_len`] bytes), empty cells as
    /// `blank`. The caller drops the final separator of the grid format (see [`Format::output_len`]).
    pub fn write_record(self, grid: &Grid, blank: u8, record: &mut [u8]) {
        let digits = grid
            .cells()
            .map(|digit| if digit == 0 { blank } else { b'0' + digit });
        match self {
            Format::Line => {
                record[..CELLS].copy_from_slice(&digits);
                record[CELLS] = b'\n';
            }
            Format::Grid => {
                for (line, row) in record.chunks_exact_mut(18).zip(digits.chunks_exact(9)) {
                    for (pair, &digit) in line.chunks_exact_mut(2).zip(row) {
                        pair[0] = digit;
                        pair[1] = b' ';
                    }
                    line[17] = b'\n';
                }
                record[162] = b'\n';
            }
        }
    }
}

/// Appends the line form of `grid` (81 characters, `.` for empty cells) to `out`, without a line
/// end: a field of a CSV row.
pub fn push_line(out: &mut Vec<u8>, grid: &Grid) {
    let mut record = [0; Format::Line.record_len()];
    Format::Line.write_record(grid, b'.', &mut record);
    out.extend_from_slice(&record[..CELLS]);
}

/// Renders grids in `format`, empty cells as `blank`, exactly as the generator lays them out.
pub fn render(grids: &[Grid], format: Format, blank: u8) -> Vec<u8> {
    let mut out = vec![0; format.record_len() * grids.len()];
    for (grid, record) in grids.iter().zip(out.chunks_exact_mut(format.record_len())) {
        format.write_record(grid, blank, record);
    }
    out.truncate(format.output_len(grids.len()));
    out
}

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

/// The problems of a puzzle text: the first [`LISTED_PROBLEMS`] of them, in text order, and how
/// many there are in all. A hostile text may hold a problem on every line: listing them all could
/// take many times the text's own size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseErrors {
    /// The first problems, in text order.
    pub listed: Vec<ParseError>,
    /// How many problems the text holds.
    pub count: usize,
}

impl ParseErrors {
    fn new() -> ParseErrors {
        ParseErrors {
            listed: Vec::new(),
            count: 0,
        }
    }

    fn push(&mut self, error: ParseError) {
        if self.listed.len() < LISTED_PROBLEMS {
            self.listed.push(error);
        }
        self.count += 1;
    }

    /// Adds the problems of text that comes after this one's.
    fn append(&mut self, later: ParseErrors) {
        let room = LISTED_PROBLEMS.saturating_sub(self.listed.len());
        self.listed.extend(later.listed.into_iter().take(room));
        self.count += later.count;
    }
}

/// Reads puzzles in either input format, detected from the content:
///
/// - **line**: one puzzle per line, 81 cells, `1`–`9` for givens and `.` or `0` for blanks; empty lines
///   and lines starting with `#` are skipped, and a line `end` ends the input.
/// - **grid**: 9 lines of 9 cells, separated by single spaces or not separated at all, `0` (or `.`) for
///   blanks; puzzles are separated by one or more empty lines.
///
/// The first line that is neither empty nor a `#` comment decides: 9 characters or a space mean the
/// grid format, anything else the line format. Everywhere a UTF-8 byte-order
/// mark, CRLF line ends, trailing spaces or tabs and a missing final newline are accepted.
///
/// The problems of the text are returned instead of any puzzle.
pub fn parse_puzzles(text: &[u8]) -> Result<Puzzles, ParseErrors> {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let lines = || {
        text.split(|&b| b == b'\n')
            .enumerate()
            .map(|(i, line)| (i + 1, trim_line_end(line)))
    };
    let first = lines()
        .map(|(_, line)| line)
        .find(|line| !line.is_empty() && !line.starts_with(b"#"));
    let format = match first {
        Some(line) if line.len() == 9 || line.contains(&b' ') => Format::Grid,
        _ => Format::Line,
    };
    let mut puzzles = Puzzles {
        format,
        grids: Vec::new(),
        lines: Vec::new(),
    };
    let mut errors = ParseErrors::new();
    match format {
        Format::Line => {
            // Large inputs are read in parallel, in pieces that end at line ends. Each piece writes
            // its puzzles into its own stretch of the result, with room for as many as it could
            // hold; the stretches are then closed up (nothing moves unless lines were skipped) and
            // cut at a line `end`.
            let mut pieces = Vec::new();
            let mut rest = text;
            let mut first_line = 1;
            while !rest.is_empty() {
                let cut = match rest
                    .get(LINE_PIECE..)
                    .and_then(|tail| memchr::memchr(b'\n', tail))
                {
                    Some(at) => LINE_PIECE + at + 1,
                    None => rest.len(),
                };
                let (piece, tail) = rest.split_at(cut);
                let line_count = memchr::memchr_iter(b'\n', piece).count()
                    + usize::from(!piece.ends_with(b"\n"));
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
            let (mut kept, mut start) = (0, 0);
            for (piece, &(_, _, room)) in parsed.into_iter().zip(&pieces) {
                puzzles.grids.copy_within(start..start + piece.count, kept);
                puzzles.lines.copy_within(start..start + piece.count, kept);
                kept += piece.count;
                start += room;
                errors.append(piece.errors);
                if piece.ended {
                    break;
                }
            }
            puzzles.grids.truncate(kept);
            puzzles.lines.truncate(kept);
        }
        Format::Grid => {
            // Blocks of consecutive non-empty lines, each one grid, read as they come: a block keeps
            // its first ten lines (nine rows, and one too many) and counts the others. An empty
            // line after the text closes the last block.
            let mut block: Vec<(usize, &[u8])> = Vec::with_capacity(10);
            let (mut block_len, mut block_end) = (0, 0);
            for (number, line) in lines().chain(std::iter::once((0, &b""[..]))) {
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
                        line: block_end + 1,
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
                block.clear();
                block_len = 0;
            }
        }
    }
    if errors.count == 0 {
        Ok(puzzles)
    } else {
        Err(errors)
    }
}

impl Puzzles {
    fn push(&mut self, grid: Grid, line: usize) {
        self.grids.push(grid);
        self.lines.push(line);
    }
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
/// without branches; `false` if a byte is no cell.
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
    let spaced = spaced && line.contains(&b' ');
    let mut count = 0;
    for (i, &byte) in line.iter().enumerate() {
        let column = i + 1;
        if spaced && i % 2 == 1 {
            if byte != b' ' {
                let found = shown(line, i);
                return Err((
                    column,
                    format!("expected a single space between cells, found {found}"),
                ));
            }
            continue;
        }
        let value = match byte {
            b'1'..=b'9' => byte - b'0',
            b'0' | b'.' => 0,
            _ => return Err((column, format!("unexpected character {}", shown(line, i)))),
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

/// The character starting at byte `i` of `line`, quoted, or a note that the bytes are not UTF-8.
fn shown(line: &[u8], i: usize) -> String {
    let rest = &line[i..line.len().min(i + 4)];
    let valid = match std::str::from_utf8(rest) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or(""),
    };
    match valid.chars().next() {
        Some(ch) if !ch.is_control() => format!("'{ch}'"),
        Some(ch) => format!("{:?}", ch),
        None => "invalid UTF-8".into(),
    }
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

/// How a source of text is named in messages: `-` is standard input.
pub fn source_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// The whole text of a source: a regular file mapped into memory (no copy, and no zeroed buffer to
/// fill: most of the cost of reading a large file), or the bytes read from anything else.
pub enum SourceText {
    /// A regular file, mapped read-only.
    Mapped(memmap2::Mmap),
    /// Standard input, a pipe, or an empty or special file, read whole.
    Read(Vec<u8>),
}

impl std::ops::Deref for SourceText {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            SourceText::Mapped(map) => map,
            SourceText::Read(bytes) => bytes,
        }
    }
}

/// The whole text of `path`, or of standard input for `-`.
pub fn read_source(path: &Path) -> Result<SourceText, Error> {
    let failed = |e| Error::io(&source_name(path), e);
    if path == Path::new("-") {
        let mut text = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut text)
            .map_err(failed)?;
        return Ok(SourceText::Read(text));
    }
    let mut file = std::fs::File::open(path).map_err(failed)?;
    let metadata = file.metadata().map_err(failed)?;
    if metadata.is_file() && metadata.len() > 0 {
        // SAFETY: the map is read-only and private to this process; another process truncating the
        // file while it is read is the one hazard, as with any reader of a changing file.
        if let Ok(map) = unsafe { memmap2::MmapOptions::new().populate().map(&file) } {
            return Ok(SourceText::Mapped(map));
        }
    }
    let mut text = Vec::new();
    file.read_to_end(&mut text).map_err(failed)?;
    Ok(SourceText::Read(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counting_grid() -> Grid {
        let mut cells = [0; CELLS];
        for (cell, v) in cells.iter_mut().enumerate() {
            *v = (cell % 9) as u8 + 1;
        }
        Grid::from_cells(cells).unwrap()
    }

    #[test]
    fn grid_format_layout() {
        let text = render(&[counting_grid(), counting_grid()], Format::Grid, b'0');
        assert_eq!(text.len(), 163 * 2 - 1);
        let first_line = "1 2 3 4 5 6 7 8 9\n";
        assert_eq!(&text[..18], first_line.as_bytes());
        assert_eq!(&text[162..164], b"\n1");
        assert!(text.ends_with(b"8 9\n"));
    }

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
        assert_eq!(errors.count, 1);
        assert_eq!(
            (errors.listed[0].line, errors.listed[0].column),
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
        assert_eq!(errors.count, line_count);
        let listed: Vec<usize> = errors.listed.iter().map(|e| e.line).collect();
        assert_eq!(listed, (1..=LISTED_PROBLEMS).collect::<Vec<_>>());
        // The grid format, block by block.
        let errors =
            parse_puzzles("1 2 3 4 5 6 7 8 9\n\nx\n\n".repeat(100).as_bytes()).unwrap_err();
        assert_eq!(errors.count, 300);
        assert_eq!(errors.listed.len(), LISTED_PROBLEMS);
        assert_eq!((errors.listed[0].line, errors.listed[1].line), (2, 3));
    }

    #[test]
    fn room_for_puzzles_is_bounded_by_the_bytes_not_the_lines() {
        let text = "\n".repeat(3 * LINE_PIECE);
        let puzzles = parse_puzzles(text.as_bytes()).unwrap();
        assert!(puzzles.grids.is_empty());
        assert!(puzzles.grids.capacity() <= text.len() / CELLS + 4);
        assert!(puzzles.lines.capacity() <= text.len() / CELLS + 4);
    }

    #[test]
    fn line_format_layout_with_blanks() {
        let mut grid = counting_grid();
        grid.set(0, 0);
        let text = render(&[grid], Format::Line, b'.');
        assert_eq!(text.len(), 82);
        assert_eq!(&text[..10], b".234567891");
        assert_eq!(text[81], b'\n');
    }
}
