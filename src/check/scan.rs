//! The slow path of the 9×9 grid check: a piece that is not in the exact `-c` layout is read line
//! by line, so that every format problem is named by its line and column, and the well-formed
//! grids among the malformed ones are still checked.

use super::layout::{Layout, Place, Spot};
use super::report::{Problem, Report};
use crate::problems::shown_character;

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
    layout: Layout,
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
    let ends_with_line_end = text.ends_with(b"\n");
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
        let eol_ok = !terminated || crlf == (layout.eol == 2);
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
                if open.rows < 9 && !layout.line_format {
                    report.add(missing_rows(number, grids, open.first_line, open.rows));
                }
                empty_run = 0;
            }
            empty_run += 1;
            let message = if layout.line_format {
                Some("expected a line of 81 digits, found an empty line".to_owned())
            } else if grids == 0 {
                Some("expected the first row of a grid, found an empty line".to_owned())
            } else if empty_run == 2 {
                Some("expected one empty line between grids, found more".to_owned())
            } else if index + 1 == last && ends_with_line_end && place.last {
                Some("expected no empty line after the last grid".to_owned())
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
        if layout.line_format {
            grids += 1;
            match row_problem(line, 81, 1) {
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
            Some(open) if open.rows < 9 => open,
            // A full grid followed by a line that is no row: a separator with something on it.
            Some(_) if row_problem(line, 17, 2).is_some() => {
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
                    message: "expected an empty line after the grid's 9th row".to_owned(),
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
        if let Some(message) = row_problem(line, 17, 2) {
            report.add(Problem {
                line: number,
                grid: Some(grids),
                message,
            });
            open.clean = false;
        }
        open.rows += 1;
        if open.rows == 9 && open.clean {
            spots.push(Spot {
                offset: open.offset,
                line: open.first_line,
                grid: grids - 1,
            });
        }
        current = Some(open);
    }
    if let Some(open) = current
        && open.rows < 9
        && !layout.line_format
    {
        report.add(missing_rows(
            place.first_line + last,
            grids,
            open.first_line,
            open.rows,
        ));
    }
    (spots, grids)
}

fn missing_rows(line: usize, grid: usize, first: usize, rows: usize) -> Problem {
    Problem {
        line,
        grid: Some(grid),
        message: format!("expected 9 rows, found {rows} (the grid starts on line {first})"),
    }
}

/// What is wrong with a row line of `width` bytes whose cells are every `step`-th byte (spaces
/// between), if anything: the first byte out of place, as expected against found.
pub(super) fn row_problem(line: &[u8], width: usize, step: usize) -> Option<String> {
    let shown = |i: usize| shown_character(line, i);
    for (i, &b) in line.iter().enumerate().take(width) {
        let cell = i % step == 0;
        if cell && !(b'1'..=b'9').contains(&b) {
            return Some(format!(
                "column {}: expected a digit 1-9, found {}",
                i + 1,
                shown(i)
            ));
        }
        if !cell && b != b' ' {
            return Some(format!(
                "column {}: expected ' ', found {}",
                i + 1,
                shown(i)
            ));
        }
    }
    if line.len() < width {
        let expected = if line.len().is_multiple_of(step) {
            "a digit 1-9"
        } else {
            "' '"
        };
        return Some(format!(
            "column {}: expected {expected}, found the end of the line (short line)",
            line.len() + 1
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
