//! CSV corpora (`puzzle,solution,...` rows, as `-n --format csv` writes them): every row's
//! solution against its own puzzle, and with `--unique` every puzzle's solutions counted. The rows
//! are not compared with each other, as a corpus may hold a puzzle twice.

use rayon::prelude::*;

use super::GridRules;
use super::count::count_solutions;
use super::layout::Spot;
use super::report::{Fault, Problem, Report, Subject, check_count};
use super::solutions::judge_solution;
use crate::io::input::Piece;
use crate::text::corpus::Header;

/// How CSV corpora are checked.
#[derive(Clone, Debug, Default)]
pub struct CorpusRules {
    /// The puzzle column, when not one of the usual names.
    pub column: Option<String>,
    /// Whether each puzzle must have exactly one solution (`--unique`).
    pub unique: bool,
}

/// The check of a CSV corpus: every row's solution against its puzzle.
pub(super) struct CorpusCheck {
    header: Header,
    pub report: Report,
    /// The last line read.
    last_line: usize,
}

impl CorpusCheck {
    /// The report, once every piece is checked: with `count`, the rows must be that many.
    pub fn finish(mut self, count: Option<usize>) -> Report {
        check_count(&mut self.report, self.last_line.max(1), count);
        self.report
    }

    pub fn new(header: Header) -> CorpusCheck {
        CorpusCheck {
            header,
            last_line: 1,
            report: Report {
                subject: Subject::Solutions,
                ..Report::default()
            },
        }
    }

    /// Checks the rows of `piece` (the header too, in the first).
    pub fn piece(&mut self, piece: &Piece, rules: GridRules, unique: bool) {
        let ends = memchr::memchr_iter(b'\n', piece).count();
        self.last_line = piece.first_line + ends - usize::from(piece.ends_with(b"\n"));
        let (text, first_line) = if piece.first_line == 1 {
            let body = memchr::memchr(b'\n', piece).map_or(piece.len(), |at| at + 1);
            (&piece[body..], 2)
        } else {
            (&piece[..], piece.first_line)
        };
        let rows = crate::text::corpus::read_rows(text, &self.header, first_line);
        for e in rows.errors.listed() {
            let fault = Fault::Unreadable {
                column: e.column,
                message: &e.message,
            };
            self.report.add_fault(e.line, None, fault);
        }
        let unlisted = rows.errors.count() - rows.errors.listed().len();
        self.report.problems.count_unlisted(unlisted);
        let before = self.report.grids;
        self.report.grids += rows.puzzles.grids.len() + rows.errors.count();
        let judged =
            rows.puzzles
                .grids
                .par_iter()
                .zip(&rows.solutions)
                .zip(&rows.puzzles.lines)
                .enumerate()
                .map(|(k, ((puzzle, solution), &line))| {
                    let mut report = Report::default();
                    let index = before + k;
                    let problem = |message: String| Problem {
                        line,
                        grid: Some(index + 1),
                        message,
                    };
                    match solution {
                        None => report.add(problem("the row has no solution".to_owned())),
                        Some(solution) => {
                            let spot = Spot {
                                offset: 0,
                                line,
                                grid: index,
                            };
                            judge_solution(solution, puzzle, index, spot, 0, rules, &mut report);
                        }
                    }
                    if unique {
                        match count_solutions(puzzle, 2) {
                            1 => {}
                            0 => report.add(problem("the puzzle has no solution".to_owned())),
                            _ => report
                                .add(problem("the puzzle has more than one solution".to_owned())),
                        }
                    }
                    report
                })
                .reduce(Report::default, Report::merge);
        self.report = std::mem::take(&mut self.report).merge(judged);
    }
}
