//! The line-by-line scanner that holds a file of grids to the exact `-c` layout of its shape and
//! names every format problem by its line and column, so that the well-formed grids among the
//! malformed ones are still checked. It is the slow path of the 9×9 grid check (a piece that is
//! not in the exact layout), and the one reading of the form of every other shape's grids (see
//! `shaped_form`): both hold their files to the same rules, in the same words.

use super::layout::{Layout, Place, Spot};
use super::report::{Problem, Report};
use crate::model::symbols::{NOT_A_CELL, Symbols};
use crate::problems::shown_character;

/// The exact form of a file's records: the `-c` layout of their shape.
#[derive(Clone, Copy)]
pub(super) struct Form {
    /// One record a line (else `rows` lines a grid, one empty line between grids).
    pub line_format: bool,
    /// Bytes of a line end: 1 (LF) or 2 (CRLF), as the first line's.
    pub eol: usize,
    /// Rows of a grid in the grid format.
    pub rows: usize,
    /// A row line of the grid format, or a record of the line format.
    pub row: RowForm,
}

impl From<Layout> for Form {
    fn from(layout: Layout) -> Form {
        let (cells, step) = if layout.line_format { (81, 1) } else { (9, 2) };
        Form {
            line_format: layout.line_format,
            eol: layout.eol,
            rows: 9,
            row: RowForm {
                prefix: 0,
                cells,
                step,
                symbols: Symbols::default_for(9),
            },
        }
    }
}

/// The bytes of one line: a layout's region characters and one space when `prefix` is not 0,
/// then `cells` symbols, one every `step` bytes (2: single spaces between them; 1: side by side).
#[derive(Clone, Copy)]
pub(super) struct RowForm {
    pub prefix: usize,
    pub cells: usize,
    pub step: usize,
    pub symbols: Symbols,
}

/// What a byte of a line must be.
enum Expected {
    Region,
    Cell,
    Space,
}

impl RowForm {
    fn width(&self) -> usize {
        self.prefix + (self.cells - 1) * self.step + 1
    }

    fn expected(&self, at: usize) -> Expected {
        match at.checked_sub(self.prefix) {
            None if at + 1 == self.prefix => Expected::Space,
            None => Expected::Region,
            Some(i) if i % self.step == 0 => Expected::Cell,
            Some(_) => Expected::Space,
        }
    }

    /// The words of what `expected` asks for: `a digit 1-9` for the 9×9 alphabet.
    fn words(&self, expected: Expected) -> String {
        let symbols = &self.symbols;
        let n = symbols.as_bytes().len();
        let last = char::from(symbols.glyph(n as u8));
        match expected {
            Expected::Region => "a region character".to_owned(),
            Expected::Space => "' '".to_owned(),
            Expected::Cell if symbols.is_default() && n <= 9 => format!("a digit 1-{last}"),
            Expected::Cell if symbols.is_default() => format!("a symbol 1-9 or A-{last}"),
            Expected::Cell => format!(
                "a {} of {}",
                noun_of(symbols),
                String::from_utf8_lossy(symbols.as_bytes())
            ),
        }
    }

    /// The words of a whole line of the line format: `81 digits` for the 9×9 one.
    fn line_words(&self) -> String {
        let layout = if self.prefix > 0 { "a layout and " } else { "" };
        format!("{layout}{} {}s", self.cells, noun_of(&self.symbols))
    }

    /// What is wrong with `line`, if anything: the first byte out of place, as expected against
    /// found.
    pub fn problem(&self, line: &[u8]) -> Option<String> {
        let width = self.width();
        let shown = |i: usize| shown_character(line, i);
        for (i, &b) in line.iter().enumerate().take(width) {
            let expected = self.expected(i);
            let fits = match expected {
                Expected::Region => b.is_ascii_graphic(),
                Expected::Cell => {
                    self.symbols.value_of(b) != 0 && self.symbols.value_of(b) != NOT_A_CELL
                }
                Expected::Space => b == b' ',
            };
            if !fits {
                return Some(format!(
                    "column {}: expected {}, found {}",
                    i + 1,
                    self.words(expected),
                    shown(i)
                ));
            }
        }
        if line.len() < width {
            return Some(format!(
                "column {}: expected {}, found the end of the line (short line)",
                line.len() + 1,
                self.words(self.expected(line.len()))
            ));
        }
        if line.len() > width {
            let trailing = line[width..].iter().all(|&b| b == b' ' || b == b'\t');
            let what = if trailing { " (trailing space)" } else { "" };
            return Some(format!(
                "column {}: expected the end of the line, found {}{what}",
                width + 1,
                shown(width)
            ));
        }
        None
    }
}

/// The word for a symbol of `symbols`: `digit` for an alphabet of digits (the 9×9 one among
/// them), else `symbol`; a letter is no digit.
pub(super) fn noun_of(symbols: &Symbols) -> &'static str {
    if symbols.as_bytes().iter().all(u8::is_ascii_digit) {
        "digit"
    } else {
        "symbol"
    }
}

/// The problem of a file that starts with a UTF-8 byte-order mark, which the `-c` formats do not
/// write.
pub(super) fn byte_order_mark() -> Problem {
    Problem {
        line: 1,
        grid: None,
        message: "the file starts with a UTF-8 byte-order mark, which the -c formats do not have"
            .to_owned(),
    }
}

/// `9th` for 9: how the scanner names a grid's last row.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The grid the scanner is reading, in the grid format.
#[derive(Clone, Copy)]
struct OpenGrid {
    /// The line of its first row.
    first_line: usize,
    /// The offset of its first row.
    offset: usize,
    /// How many rows it has so far.
    rows: usize,
    /// Whether they are all well-formed.
    clean: bool,
}

/// Reads the file line by line, reporting every format problem; returns the well-formed grids.
pub(super) fn scan(
    text: &[u8],
    form: &Form,
    report: &mut Report,
    place: Place,
) -> (Vec<Spot>, usize) {
    let mut spots = Vec::new();
    let mut grids = place.grids_before;
    let mut current: Option<OpenGrid> = None;
    // A piece after the first starts after an empty line (see `FileCheck::boundary`).
    let mut empty_run = usize::from(place.first_line > 1);
    let mut offset = 0;
    // Pieces between line ends, read as they come: a list of them would cost 16 bytes a line.
    let last = bytecount::count(text, b'\n');
    for (index, piece) in text.split(|&b| b == b'\n').enumerate() {
        let number = place.first_line + index;
        let start = offset;
        offset += piece.len() + 1;
        if index == last && piece.is_empty() {
            break;
        }
        let terminated = index < last;
        let (line, crlf) = match piece.strip_suffix(b"\r") {
            Some(line) if terminated => (line, true),
            _ => (piece, false),
        };
        // A grid with a line end unlike the file's is not read: its rows are not where they should be.
        let eol_ok = !terminated || crlf == (form.eol == 2);
        if !eol_ok {
            let (expected, found) = if crlf { ("LF", "CRLF") } else { ("CRLF", "LF") };
            report.add(Problem {
                line: number,
                grid: current.map(|_| grids),
                message: format!(
                    "expected a {expected} line end like the first line's, found {found}"
                ),
            });
        }
        if line.is_empty() {
            if let Some(open) = current.take() {
                if open.rows < form.rows && !form.line_format {
                    let found = (open.first_line, open.rows);
                    report.add(missing_rows(number, grids, found, form.rows));
                }
                empty_run = 0;
            }
            empty_run += 1;
            let message = if form.line_format {
                Some(format!(
                    "expected a line of {}, found an empty line",
                    form.row.line_words()
                ))
            } else if grids == 0 {
                Some("expected the first row of a grid, found an empty line".to_owned())
            } else if place.last
                && text[offset.min(text.len())..]
                    .iter()
                    .all(|&b| b == b'\n' || b == b'\r')
            {
                // Only empty lines are left: told once, at the first of them.
                (empty_run == 1).then(|| "expected no empty line after the last grid".to_owned())
            } else if empty_run == 2 {
                Some("expected one empty line between grids, found more".to_owned())
            } else {
                None
            };
            if let Some(message) = message {
                report.add(Problem {
                    line: number,
                    grid: None,
                    message,
                });
            }
            continue;
        }
        if form.line_format {
            grids += 1;
            match form.row.problem(line) {
                Some(message) => report.add(Problem {
                    line: number,
                    grid: Some(grids),
                    message,
                }),
                None if eol_ok => spots.push(Spot {
                    offset: start,
                    line: number,
                    grid: grids - 1,
                }),
                None => {}
            }
            continue;
        }
        let fresh = OpenGrid {
            first_line: number,
            offset: start,
            rows: 0,
            clean: true,
        };
        let mut open = match current {
            Some(open) if open.rows < form.rows => open,
            // A full grid followed by a line that is no row: a separator with something on it.
            Some(_) if form.row.problem(line).is_some() => {
                report.add(Problem {
                    line: number,
                    grid: None,
                    message: format!(
                        "expected an empty line between grids, found {}",
                        shown_character(line, 0)
                    ),
                });
                current = None;
                empty_run = 1;
                continue;
            }
            Some(_) => {
                report.add(Problem {
                    line: number,
                    grid: Some(grids),
                    message: format!(
                        "expected an empty line after the grid's {} row",
                        ordinal(form.rows)
                    ),
                });
                grids += 1;
                fresh
            }
            None => {
                grids += 1;
                fresh
            }
        };
        empty_run = 0;
        open.clean &= eol_ok;
        if let Some(message) = form.row.problem(line) {
            report.add(Problem {
                line: number,
                grid: Some(grids),
                message,
            });
            open.clean = false;
        }
        open.rows += 1;
        if open.rows == form.rows && open.clean {
            spots.push(Spot {
                offset: open.offset,
                line: open.first_line,
                grid: grids - 1,
            });
        }
        current = Some(open);
    }
    if let Some(open) = current
        && open.rows < form.rows
        && !form.line_format
    {
        // On the text's last line: the line after it, where the next row should be, is not in
        // the file when the text ends with a line end.
        report.add(missing_rows(
            place.first_line + last - usize::from(text.ends_with(b"\n")),
            grids,
            (open.first_line, open.rows),
            form.rows,
        ));
    }
    (spots, grids)
}

/// The problem of grid `grid`, which starts on line `first` and has `rows` rows of the
/// `expected`, reported at `line`.
fn missing_rows(
    line: usize,
    grid: usize,
    (first, rows): (usize, usize),
    expected: usize,
) -> Problem {
    Problem {
        line,
        grid: Some(grid),
        message: format!(
            "expected {expected} rows, found {rows} (the grid starts on line {first})"
        ),
    }
}
