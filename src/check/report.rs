//! The report of a check, and the one set of words for its problems.
//!
//! Both checkers, the 9×9 one and the one for every other shape, word a fault they both find
//! through [`Fault`], so that a repeated symbol, a repeated grid, a changed given or a wrong
//! top-left symbol reads the same whatever the shape; only the faults of one checker alone (the
//! exact `-c` layout, CSV rows) are worded where they are found.

use std::fmt;

use crate::model::house::House;
use crate::problems::Problems;

/// One problem, located by line (counted from 1) and, where it belongs to one, by grid number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The line of the file.
    pub line: usize,
    /// The grid it belongs to (counted from 1).
    pub grid: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl Problem {
    /// The problem `fault` at `line`, of grid `grid` (counted from 1) when it belongs to one.
    pub(super) fn of(line: usize, grid: Option<usize>, fault: Fault) -> Problem {
        Problem {
            line,
            grid,
            message: fault.to_string(),
        }
    }
}

/// What a check was about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Subject {
    /// Complete grids, which must be valid and distinct.
    #[default]
    Grids,
    /// Solutions, which must be valid and keep their puzzles' givens.
    Solutions,
}

/// The outcome of a check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// What was checked.
    pub subject: Subject,
    /// How many grids the file holds.
    pub grids: usize,
    /// The problems found, the first by line listed.
    pub problems: Problems<Problem>,
    /// Whether the file's lines end in CRLF.
    pub crlf: bool,
    /// Whether equivalence classes were compared too (`--classes`).
    pub classes: bool,
}

impl Report {
    /// Counts `problem`, and lists it if it is among the first listed by line.
    pub(crate) fn add(&mut self, problem: Problem) {
        self.problems.insert_by_key(problem, |p| p.line);
    }

    /// Counts `fault` at `line` of grid `grid`, worded only if it is among the first listed.
    pub(super) fn add_fault(&mut self, line: usize, grid: Option<usize>, fault: Fault) {
        let problem = || Problem::of(line, grid, fault);
        self.problems.insert_with(line, problem, |p| p.line);
    }

    /// The report of two parts of one file, checked apart (in parallel, or a piece at a time).
    pub(super) fn merge(mut self, other: Report) -> Report {
        self.problems.merge_by_key(other.problems, |p| p.line);
        self
    }

    /// Whether the check found no problem.
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }

    /// The listed problems as `NAME:LINE: grid K: what`, then `... and N more` if some were not
    /// listed.
    pub(crate) fn problem_lines(&self, name: &str) -> Vec<String> {
        self.problems.lines(|p| match p.grid {
            Some(k) => format!("{name}:{}: grid {k}: {}", p.line, p.message),
            None => format!("{name}:{}: {}", p.line, p.message),
        })
    }

    /// The report as the grader prints it for the file named `name`: each listed problem as
    /// `NAME:LINE: grid K: what`, then `... and N more` if some were not listed, then the verdict:
    /// `ok: N grids, ...` or `FAIL: P problems in N grids`.
    pub fn text(&self, name: &str) -> String {
        let mut text = String::new();
        for line in self.problem_lines(name) {
            text += &line;
            text.push('\n');
        }
        if self.is_clean() {
            let (subject, what) = match (self.subject, self.classes) {
                (Subject::Grids, false) => ("grid", "all valid and distinct"),
                (Subject::Grids, true) => ("grid", "all valid and pairwise inequivalent"),
                (Subject::Solutions, false) => {
                    ("solution", "all valid and keeping their puzzles' givens")
                }
                (Subject::Solutions, true) => (
                    "solution",
                    "all valid and keeping their puzzles' givens, the puzzles pairwise \
                     inequivalent",
                ),
            };
            let crlf = if self.crlf { " (CRLF line ends)" } else { "" };
            text += &format!("ok: {}, {what}{crlf}\n", plural(self.grids, subject));
        } else {
            text += &format!(
                "FAIL: {} in {}\n",
                plural(self.problems.count(), "problem"),
                plural(self.grids, "grid")
            );
        }
        text
    }
}

/// The report of a check of several files: each file's problems, then one verdict for all.
pub fn files_text(reports: &[(String, Report)]) -> String {
    if let [(name, report)] = reports {
        return report.text(name);
    }
    let mut text = String::new();
    for (name, report) in reports {
        for line in report.problem_lines(name) {
            text += &line;
            text.push('\n');
        }
    }
    let grids: usize = reports.iter().map(|(_, r)| r.grids).sum();
    let problems: usize = reports.iter().map(|(_, r)| r.problems.count()).sum();
    let files = plural(reports.len(), "file");
    let grids = plural(grids, "grid");
    if problems == 0 && reports.iter().any(|(_, r)| r.subject == Subject::Solutions) {
        // A CSV corpus is checked row by row against its own puzzles, not for repeats.
        text += &format!(
            "ok: {grids} in {files}, all valid; the grid files distinct, the CSV corpora \
             keeping their puzzles' givens\n"
        );
    } else if problems == 0 {
        text += &format!("ok: {grids} in {files}, all valid and distinct\n");
    } else {
        text += &format!(
            "FAIL: {} in {grids} ({files})\n",
            plural(problems, "problem"),
        );
    }
    text
}

/// Reports on `last_line` of `report` when its grids (a corpus's rows) are not `count`.
pub(super) fn check_count(report: &mut Report, last_line: usize, count: Option<usize>) {
    if let Some(expected) = count.filter(|&c| c != report.grids) {
        let fault = Fault::GridCount {
            expected,
            found: report.grids,
        };
        report.add_fault(last_line, None, fault);
    }
}

/// Reports on `last_line` of the last of several files' `reports` when their grids do not total
/// `count`.
pub(super) fn check_total(reports: &mut [Report], last_line: usize, count: Option<usize>) {
    let total: usize = reports.iter().map(|r| r.grids).sum();
    if let Some(count) = count.filter(|&c| c != total)
        && let Some(last) = reports.last_mut()
    {
        last.add(Problem {
            line: last_line,
            grid: None,
            message: format!("expected {count} grids in all the files, found {total}"),
        });
    }
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// A cell, by row and column counted from 1.
#[derive(Clone, Copy)]
pub(super) struct Cell {
    pub row: usize,
    pub column: usize,
}

impl Cell {
    /// Cell `index` of a grid `n` cells wide, in reading order from 0.
    pub fn at(index: usize, n: usize) -> Cell {
        Cell {
            row: index / n + 1,
            column: index % n + 1,
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row, self.column)
    }
}

/// A fault that both checkers find, worded once for both.
pub(super) enum Fault<'a> {
    /// `symbol` is in `house` at both `first` and `second`. The noun is `digit` for an alphabet of
    /// digits (the 9×9 one among them), else `symbol`.
    RepeatedSymbol {
        noun: &'static str,
        symbol: char,
        house: House,
        first: Cell,
        second: Cell,
    },
    /// The grid repeats grid `grid` (counted from 1) at `line`, of the file `file` when that is
    /// another one.
    RepeatedGrid {
        grid: usize,
        file: Option<&'a str>,
        line: usize,
    },
    /// A solution leaves the cell blank.
    EmptyCell(Cell),
    /// The top-left cell holds `found` where `--first` asked for `expected` (the noun as for
    /// [`Fault::RepeatedSymbol`]).
    TopLeft {
        noun: &'static str,
        found: char,
        expected: char,
    },
    /// A solution has `found` at `cell`, where its puzzle gives `given`.
    ChangedGiven {
        cell: Cell,
        found: char,
        given: char,
    },
    /// A solution's regions (its layout, or boxes) are not its puzzle's.
    OtherRegions,
    /// The file holds `found` grids where `expected` were asked for.
    GridCount { expected: usize, found: usize },
    /// The file holds `found` solutions for `expected` puzzles (`more`: at least that many, of
    /// a stream of puzzles not read further once it held more than `found`).
    SolutionCount {
        expected: usize,
        found: usize,
        more: bool,
    },
    /// A reader's message about the text at `column`.
    Unreadable { column: usize, message: &'a str },
}

impl fmt::Display for Fault<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Fault::RepeatedSymbol {
                noun,
                symbol,
                house,
                first,
                second,
            } => {
                write!(f, "{noun} {symbol} repeats in {house} (")?;
                // Within a line the other coordinate says it all.
                match house {
                    House::Row(_) => write!(f, "columns {} and {}", first.column, second.column)?,
                    House::Column(_) => write!(f, "rows {} and {}", first.row, second.row)?,
                    _ => write!(f, "{first} and {second}")?,
                }
                f.write_str(")")
            }
            Fault::RepeatedGrid { grid, file, line } => {
                write!(f, "repeats grid {grid}")?;
                if let Some(file) = file {
                    write!(f, " of {file}")?;
                }
                write!(f, " (line {line})")
            }
            Fault::EmptyCell(cell) => write!(f, "{cell} is empty"),
            Fault::TopLeft {
                noun,
                found,
                expected,
            } => write!(f, "top-left {noun} is {found}, expected {expected}"),
            Fault::ChangedGiven { cell, found, given } => {
                write!(f, "{cell} is {found}, but the puzzle gives {given}")
            }
            Fault::OtherRegions => write!(f, "its regions are not its puzzle's"),
            Fault::GridCount { expected, found } => {
                write!(f, "expected {}, found {found}", plural(expected, "grid"))
            }
            Fault::SolutionCount {
                expected,
                found,
                more: false,
            } => write!(
                f,
                "expected {}, one per puzzle, found {found}",
                plural(expected, "solution")
            ),
            Fault::SolutionCount {
                expected,
                found,
                more: true,
            } => write!(
                f,
                "expected at least {expected} solutions, one per puzzle (the puzzles are a \
                 stream, read no further), found {found}"
            ),
            Fault::Unreadable { column, message } => write!(f, "column {column}: {message}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_name_the_cells_their_house_leaves_open() {
        let repeat = |house| {
            Fault::RepeatedSymbol {
                noun: "digit",
                symbol: '4',
                house,
                first: Cell::at(10, 9),
                second: Cell::at(40, 9),
            }
            .to_string()
        };
        assert_eq!(
            repeat(House::Row(2)),
            "digit 4 repeats in row 2 (columns 2 and 5)"
        );
        assert_eq!(
            repeat(House::Column(2)),
            "digit 4 repeats in column 2 (rows 2 and 5)"
        );
        assert_eq!(
            repeat(House::Box(1)),
            "digit 4 repeats in box 1 (row 2, column 2 and row 5, column 5)"
        );
        assert_eq!(
            repeat(House::Diagonal),
            "digit 4 repeats in the main diagonal (row 2, column 2 and row 5, column 5)"
        );
    }

    #[test]
    fn grid_repeats_name_another_file_only() {
        let repeat = |file| Fault::RepeatedGrid {
            grid: 3,
            file,
            line: 21,
        };
        assert_eq!(repeat(None).to_string(), "repeats grid 3 (line 21)");
        assert_eq!(
            repeat(Some("a.txt")).to_string(),
            "repeats grid 3 of a.txt (line 21)"
        );
    }
}
