//! Jobs over a whole file of puzzles, a piece at a time ([`run_batch`]): solving, where every
//! puzzle is solved over the thread pool and written straight into its record of the output text,
//! in input order; and rating (see [`crate::jobs::rate::rate_file`]).
//!
//! Records have a fixed length in both formats (see [`Format`]), so the output is one buffer cut
//! into equal slices, one per puzzle, that threads fill independently; pieces of 256 puzzles keep
//! the threads evenly loaded, since one hard puzzle can cost as much as thousands of easy ones.

use std::fmt;

use rayon::prelude::*;

use super::batches::{in_batches, write_batch};
use crate::engine::standard::solve::Solver;
use crate::error::Error;
use crate::io::input::{Boundary, Pieces};
use crate::io::output::OutputStream;
use crate::model::house::House;
use crate::problems::Problems;
use crate::text::corpus::{self, Header, RowResult};
use crate::text::format::Format;
use crate::text::parse::{ParseErrors, ParsedText, Puzzles, detect_format, parse_piece};

/// Why a puzzle of a batch was not simply solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The puzzle has no solution; `repeat` is a digit its givens already repeat in a house.
    NoSolution {
        /// The first digit given twice in one house, if any.
        repeat: Option<(u8, House)>,
    },
    /// The puzzle has more than one solution (reported only when uniqueness was asked for).
    MoreThanOneSolution,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::NoSolution {
                repeat: Some((digit, house)),
            } => write!(f, "no solution: digit {digit} repeats in {house}"),
            Failure::NoSolution { repeat: None } => f.write_str("no solution"),
            Failure::MoreThanOneSolution => f.write_str("more than one solution"),
        }
    }
}

/// A problem with one puzzle of a file: which puzzle, on which line, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleProblem {
    /// The puzzle's number in the file, counted from 1.
    pub puzzle: usize,
    /// The line where the puzzle starts, counted from 1.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

impl PuzzleProblem {
    /// The problem of puzzle `index` (counted from 0) of `puzzles`.
    pub fn new(puzzles: &Puzzles, index: usize, what: impl fmt::Display) -> PuzzleProblem {
        PuzzleProblem {
            puzzle: index + 1,
            line: puzzles.lines[index],
            what: what.to_string(),
        }
    }

    /// The report's line for the file named `name`: `NAME: puzzle K (line L): what`.
    pub fn line_in(&self, name: &str) -> String {
        format!(
            "{name}: puzzle {} (line {}): {}",
            self.puzzle, self.line, self.what
        )
    }
}

/// What a job over a file of puzzles made: its output text, and the puzzles it could not do as
/// asked (the text still has a record for each).
pub struct BatchOutput {
    /// One record per puzzle, in input order.
    pub text: Vec<u8>,
    /// The puzzles that failed, in input order.
    pub problems: Problems<PuzzleProblem>,
}

/// What the search made of one puzzle of a batch.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Solved,
    NoSolution,
    /// More than one solution, where uniqueness was asked for.
    Several,
}

/// Solves `puzzles` over the current rayon pool and writes, in input order, one record of `format`
/// per puzzle: its first solution, or the puzzle itself (blanks as `0` in the grid format, `.` in the
/// line format) when it has none. With `unique`, each puzzle must have exactly one solution.
pub fn solve_batch(puzzles: &Puzzles, unique: bool, format: Format) -> BatchOutput {
    let grids = &puzzles.grids;
    let record_len = format.record_len();
    let blank = if format == Format::Grid { b'0' } else { b'.' };
    let mut text = vec![0; record_len * grids.len()];
    let limit = if unique { 2 } else { 1 };
    // Each puzzle's verdict, a byte each, written beside its record: a list of failures collected
    // from the threads grew a vector per piece, page by page, when every puzzle fails.
    let mut verdicts = vec![Verdict::Solved; grids.len()];
    text.par_chunks_mut(record_len)
        .zip(grids.par_iter())
        .zip(verdicts.par_iter_mut())
        .with_min_len(256)
        .with_max_len(256)
        .for_each_init(Solver::new, |solver, ((record, puzzle), verdict)| {
            let outcome = solver.search(puzzle, limit);
            let written = outcome.first_solution.as_ref().unwrap_or(puzzle);
            format.write_record(written, blank, record);
            *verdict = match (outcome.first_solution, outcome.solutions) {
                (None, _) => Verdict::NoSolution,
                (Some(_), 2..) => Verdict::Several,
                _ => Verdict::Solved,
            };
        });
    text.truncate(format.output_len(grids.len()));
    let mut problems = Problems::new();
    for (index, &verdict) in verdicts.iter().enumerate() {
        if verdict == Verdict::Solved {
            continue;
        }
        // Worded only when listed.
        problems.push_with(|| {
            let failure = if verdict == Verdict::NoSolution {
                Failure::NoSolution {
                    repeat: grids[index].first_repeat(),
                }
            } else {
                Failure::MoreThanOneSolution
            };
            PuzzleProblem::new(puzzles, index, failure)
        });
    }
    BatchOutput { text, problems }
}

/// How a job over a file of puzzles ended, when no I/O failed.
pub enum BatchEnd {
    /// Every piece was done; these puzzles had problems (no solution, not rated, ...).
    Done(Problems<PuzzleProblem>),
    /// Some records were malformed: their problems, in the whole input. Nothing from the piece of
    /// the first one on was done or written; the pieces before it were.
    Malformed(ParseErrors),
}

/// What the job is told of the piece it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceInfo {
    /// Whether it is the first piece (the one that writes a header, if any).
    pub first: bool,
    /// The input's format (the line format for a CSV corpus).
    pub format: Format,
    /// Whether the input is a CSV corpus: the job writes one result line per puzzle and no header,
    /// and the results go into the rows as [`BatchRules::row_result`] says.
    pub csv: bool,
}

/// How a job's output is put together from its pieces.
pub struct BatchRules {
    /// Whether the output of an input in this format separates records by an empty line (the grid
    /// format, whose last record has none after it): a piece after the first is then written after
    /// one.
    pub separated: Box<dyn Fn(Format) -> bool>,
    /// The puzzle column of a CSV corpus, when not one of the usual names.
    pub column: Option<String>,
    /// How the job's results go into the rows of a CSV corpus.
    pub row_result: RowResult,
    /// The header line of the job's results (for [`RowResult::Appended`]).
    pub result_header: &'static [u8],
    /// Whether the job's records cost enough that a piece is done in batches of a few hundred
    /// puzzles, each written before the next is begun, so that a reader that goes away ends the
    /// run within a batch or two.
    pub batched: bool,
}

/// Where a piece of a text of 9×9 puzzles may end: after a CSV record in a corpus (`csv`, or
/// before the first piece a header with `column`), else after a line in the line format and an
/// empty line in the grid format (`format`, or before the first piece as `text` shows it).
pub(super) fn puzzle_boundary(
    csv: bool,
    format: Option<Format>,
    column: Option<&str>,
    text: &[u8],
) -> Boundary {
    if csv || (format.is_none() && corpus::detect_header(text, column).is_some()) {
        return Boundary::CsvRecord;
    }
    match format.unwrap_or_else(|| detect_format(text)) {
        Format::Line => Boundary::Line,
        Format::Grid => Boundary::EmptyLine,
    }
}

/// Runs `job` on every piece of `pieces` in turn (in batches, if `rules` say so), writing its
/// text to `output` (the run stops once its reader has gone), and passes `done` the number of
/// puzzles and input bytes of each piece. The output is released at the first piece of records
/// parsed whole, so that a malformed record in the first piece writes nothing. Problems are
/// numbered as in the whole input. Once a record is malformed, the rest of a file is only read
/// for its problems, and a stream is not read further.
pub fn run_batch(
    pieces: &mut Pieces,
    rules: &BatchRules,
    mut job: impl FnMut(&Puzzles, PieceInfo) -> BatchOutput,
    output: &mut OutputStream,
    mut done: impl FnMut(usize, usize),
) -> Result<BatchEnd, Error> {
    let mut format = None;
    let mut corpus: Option<Header> = None;
    let mut problems = Problems::new();
    let mut malformed: Option<ParseErrors> = None;
    let mut puzzles_before = 0;
    loop {
        let column = rules.column.as_deref();
        let boundary = |text: &[u8]| puzzle_boundary(corpus.is_some(), format, column, text);
        let Some(piece) = pieces.next_piece(boundary)? else {
            break;
        };
        let first = format.is_none();
        let mut header_line = Vec::new();
        if first {
            match corpus::detect_header(&piece, rules.column.as_deref()) {
                Some(Ok(header)) => {
                    header_line =
                        corpus::write_header(&header, rules.row_result, rules.result_header);
                    corpus = Some(header);
                }
                Some(Err(error)) => {
                    let mut errors = ParseErrors::new();
                    errors.push(error);
                    return Ok(BatchEnd::Malformed(errors));
                }
                None if rules.column.is_some() => {
                    return Err(Error::column_without_corpus(pieces.name()));
                }
                None => {}
            }
            if let Some(header) = &corpus
                && let Err(error) = corpus::check_result_column(header, rules.row_result)
            {
                let mut errors = ParseErrors::new();
                errors.push(error);
                return Ok(BatchEnd::Malformed(errors));
            }
        }
        let (mut parsed, records) = match &corpus {
            Some(header) => {
                let (text, first_line) = if first {
                    let body = memchr::memchr(b'\n', &piece).map_or(piece.len(), |at| at + 1);
                    (&piece[body..], 2)
                } else {
                    (&piece[..], piece.first_line)
                };
                let rows = corpus::read_rows(text, header, first_line);
                let parsed = ParsedText {
                    puzzles: rows.puzzles,
                    malformed: rows.errors.count(),
                    errors: rows.errors,
                    ended: false,
                };
                (parsed, Some(rows.records))
            }
            None => (parse_piece(&piece, format, piece.first_line), None),
        };
        if pieces.file_len().is_none()
            && !piece.last
            && !(corpus.is_some() && piece.is_first_line_alone())
            && puzzles_before == 0
            && parsed.puzzles.grids.is_empty()
            && parsed.errors.is_empty()
        {
            let mut errors = ParseErrors::new();
            errors.push(piece.empty_stream_error());
            return Ok(BatchEnd::Malformed(errors));
        }
        let info = PieceInfo {
            first,
            format: parsed.puzzles.format,
            csv: corpus.is_some(),
        };
        format = Some(parsed.puzzles.format);
        let count = parsed.puzzles.grids.len();
        if let Some(errors) = &mut malformed {
            errors.append(parsed.errors);
        } else if !parsed.errors.is_empty() {
            malformed = Some(parsed.errors);
            if pieces.file_len().is_none() {
                // A stream may never end: the problems of its first malformed piece are reported
                // alone.
                break;
            }
        } else if count > 0 || first {
            if count > 0 {
                // A malformed record found from now on stops the work after these results.
                output.release()?;
            }
            let read = in_batches(&mut parsed.puzzles, rules.batched, |puzzles, start| {
                let info = PieceInfo {
                    first: first && start == 0,
                    ..info
                };
                let mut made = job(puzzles, info);
                if let (Some(header), Some(records)) = (&corpus, &records) {
                    let records = &records[start..start + puzzles.grids.len()];
                    let result = (rules.row_result, rules.result_header);
                    let rows = corpus::write_rows(header, records, &made.text, result);
                    let mut text = std::mem::take(&mut header_line);
                    text.extend_from_slice(&rows);
                    made.text = text;
                } else if (rules.separated)(info.format) && !info.first && !made.text.is_empty() {
                    output.write(b"\n")?;
                }
                let all = (&mut problems, puzzles_before + start);
                write_batch(output, &made.text, &made.problems, all)
            })?;
            if !read {
                break;
            }
        }
        puzzles_before += count;
        done(count, piece.len());
        if parsed.ended {
            break;
        }
    }
    Ok(match malformed {
        Some(errors) => BatchEnd::Malformed(errors),
        None => BatchEnd::Done(problems),
    })
}
