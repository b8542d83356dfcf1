//! The jobs of the generic kernel that read an input: `-s` and `--check` for every shape other
//! than the standard 9×9 one.

use std::path::PathBuf;

use super::Finished;
use super::route::first_value;
use super::stream::parse_error_lines;
use crate::check::shaped::{self as check, GridChecker};
use crate::check::{GridRules, Report};
use crate::engine::generic::solve::solve_all;
use crate::error::Error;
use crate::io::input::{Boundary, Piece, Pieces, StreamGuard, open_pieces, source_name};
use crate::io::output::Destination;
use crate::io::progress::InputProgress;
use crate::model::request::ShapeRequest;
use crate::problems::Problems;
use crate::text::alphabet::written_alphabet;
use crate::text::format::Format;
use crate::text::parse::{ParseError, ParseErrors};
use crate::text::shaped::{Layout, ShapedPuzzles, detect_layout, detect_size, read_shaped};

/// A job of the generic kernel.
#[derive(Debug)]
pub enum Job {
    /// `-s FILE`: N from the flags or from the input.
    Solve {
        path: PathBuf,
        request: ShapeRequest,
        format: Option<Format>,
        unique: bool,
    },
    /// `--check FILE`, with `--puzzles PFILE` when `puzzles` is given.
    Check {
        path: PathBuf,
        puzzles: Option<PathBuf>,
        request: ShapeRequest,
        rules: GridRules,
    },
}

/// Whether an input read without shape flags is of another shape than 9×9, a jigsaw one, or one
/// written in another alphabet, so that the generic kernel, not the standard one, must read it.
pub(super) fn is_other_shape(text: &[u8]) -> bool {
    detect_size(text, None).is_some_and(|(size, prefixed)| {
        size != 9 || prefixed || written_alphabet(text, size, prefixed).is_some()
    })
}

/// Runs `job` (`input`: the input of a check, when it has already been opened).
pub(super) fn run(
    job: Job,
    input: Option<Pieces>,
    destination: Destination,
) -> Result<Finished, Error> {
    match job {
        Job::Solve {
            path,
            request,
            format,
            unique,
        } => solve_pieces(open_pieces(&path)?, request, format, unique, destination),
        Job::Check {
            path,
            puzzles,
            request,
            rules,
        } => {
            let input = match input {
                Some(input) => input,
                None => open_pieces(&path)?,
            };
            let report = match puzzles {
                None => check_pieces(input, request, rules)?,
                Some(puzzles) => {
                    let text = read_for_check(input, &request, true)?;
                    // Every symbol shows in a complete grid: the first tells the alphabet.
                    if rules.first.is_some()
                        && let Ok((solutions, _)) = read_shaped(first_records(&text), &request)
                    {
                        check_first(rules.first, &solutions, &source_name(&path))?;
                    }
                    let puzzle_text = read_for_check(open_pieces(&puzzles)?, &request, false)?;
                    match check::check_solutions(&text, &puzzle_text, &request, rules) {
                        Ok(report) => report,
                        Err(errors) => {
                            let name = source_name(&puzzles);
                            return Ok(Finished::with(1, parse_error_lines(&name, &errors)));
                        }
                    }
                }
            };
            super::run::finish_check(&report, &path)
        }
    }
}

/// `-s` for every shape, a piece of the input at a time: the first piece tells the size and the
/// layout, which every later piece keeps. Once a piece is malformed, the rest of a file is only
/// read for its problems, and a stream is not read further.
pub(super) fn solve_pieces(
    mut pieces: Pieces,
    mut request: ShapeRequest,
    format: Option<Format>,
    unique: bool,
    destination: Destination,
) -> Result<Finished, Error> {
    let name = pieces.name().to_owned();
    let mut progress = InputProgress::new(pieces.file_len(), "puzzles");
    let mut output = destination.into_stream();
    let mut layout: Option<Layout> = None;
    let mut problems = Problems::new();
    let mut malformed: Option<ParseErrors> = None;
    let mut puzzles_before = 0;
    loop {
        let known = request.known_size();
        let Some(piece) = pieces.next_piece(|text| boundary(layout, known, text))? else {
            break;
        };
        let first = layout.is_none();
        let shift = piece.first_line - 1;
        let (mut puzzles, errors) = match read_shaped(&piece, &request) {
            Ok(read) => read,
            Err(errors) if first => {
                return Ok(Finished::with(
                    1,
                    parse_error_lines(&name, &shifted(errors, shift)),
                ));
            }
            Err(errors) => (ShapedPuzzles::empty_like(&request), errors),
        };
        let errors = shifted(errors, shift);
        if first {
            request.size = Some(puzzles.shapes[0].size());
            layout = Some(puzzles.layout);
        }
        for line in &mut puzzles.lines {
            *line += shift;
        }
        let count = puzzles.len();
        if pieces.file_len().is_none()
            && !piece.last
            && puzzles_before == 0
            && count == 0
            && errors.is_empty()
        {
            let mut errors = ParseErrors::new();
            errors.push(piece.empty_stream_error());
            return Ok(Finished::with(1, parse_error_lines(&name, &errors)));
        }
        if let Some(all) = &mut malformed {
            all.append(errors);
        } else if !errors.is_empty() {
            malformed = Some(errors);
            if pieces.file_len().is_none() {
                break;
            }
        } else if count > 0 {
            match format {
                Some(Format::Line) => puzzles.layout = Layout::Line,
                Some(Format::Grid) => puzzles.layout = Layout::Grid { compact: false },
                None => {}
            }
            let solved = solve_all(&puzzles, unique);
            if !first && puzzles.layout != Layout::Line {
                output.write(b"\n")?;
            }
            output.write(&solved.text)?;
            if output.is_closed() {
                break;
            }
            for mut problem in solved.problems.listed().iter().cloned() {
                problem.puzzle += puzzles_before;
                problems.push(problem);
            }
            problems.count_unlisted(solved.problems.count() - solved.problems.listed().len());
        }
        puzzles_before += count;
        progress.advance(count, piece.len());
    }
    progress.finish();
    match malformed {
        None => {
            output.finish()?;
            let lines = problems.lines(|problem| problem.line_in(&name));
            Ok(Finished::with(problems.count(), lines))
        }
        Some(errors) => {
            let mut lines = parse_error_lines(&name, &errors);
            if output.has_written() {
                lines.push(format!(
                    "sudoku-gen: the results of the puzzles before the first malformed piece of \
                     {name} were written"
                ));
            }
            Ok(Finished::with(1, lines))
        }
    }
}

/// `--check` of grids of every shape, a piece of the input at a time as `-s` reads it: the first
/// piece tells the size and the layout, and every grid leaves 16 bytes for the search for repeats
/// (spilled to disk past the memory budget, as the 9×9 checker's are).
/// A stream is not read past its first piece with a problem; a file is read to its end, so that
/// its report names every problem.
fn check_pieces(
    mut pieces: Pieces,
    mut request: ShapeRequest,
    rules: GridRules,
) -> Result<Report, Error> {
    let stream = pieces.file_len().is_none();
    let mut layout: Option<Layout> = None;
    let mut checker = GridChecker::within_budget(rules.first);
    let mut last_line = 0;
    loop {
        let known = request.known_size();
        let Some(piece) = pieces.next_piece(|text| boundary(layout, known, text))? else {
            break;
        };
        let shift = piece.first_line - 1;
        last_line = shift + check::last_line(&piece);
        let (mut grids, errors) = match read_shaped(&piece, &request) {
            Ok(read) => read,
            Err(errors) => {
                // Nothing tells the shape of what follows: the report names what was read.
                checker.piece(
                    &ShapedPuzzles::empty_like(&request),
                    &shifted(errors, shift),
                );
                return checker.finish(last_line, None).map_err(spill_failed);
            }
        };
        if layout.is_none() {
            check_first(rules.first, &grids, pieces.name())?;
            request.size = Some(grids.shapes[0].size());
            layout = Some(grids.layout);
        }
        for line in &mut grids.lines {
            *line += shift;
        }
        let errors = shifted(errors, shift);
        if stream && !piece.last && checker.is_empty() && grids.is_empty() && errors.is_empty() {
            let mut errors = ParseErrors::new();
            errors.push(piece.empty_stream_error());
            checker.piece(&grids, &errors);
            return checker.finish(last_line, None).map_err(spill_failed);
        }
        if checker.piece(&grids, &errors) && stream {
            break;
        }
    }
    checker.finish(last_line, rules.count).map_err(spill_failed)
}

/// Refuses a `--first` symbol that is none of the alphabet `grids` are read in (the first grids
/// of the input `name`).
fn check_first(first: Option<u8>, grids: &ShapedPuzzles, name: &str) -> Result<(), Error> {
    match first {
        Some(symbol) => {
            let of = format!("the grids of {name}");
            first_value(symbol, grids.shapes[0].symbols(), &of).map(drop)
        }
        None => Ok(()),
    }
}

/// The start of a text of grids, cut after a line: long enough to hold its first record in any
/// shape and layout, a 25×25 grid of spaced rows with CRLF line ends included.
fn first_records(text: &[u8]) -> &[u8] {
    const LONGEST: usize = 4 << 10;
    if text.len() <= LONGEST {
        return text;
    }
    let start = &text[..LONGEST];
    memchr::memrchr(b'\n', start).map_or(start, |at| &start[..=at])
}

/// The error of a check whose keys written out cannot be read back.
fn spill_failed(error: std::io::Error) -> Error {
    Error::io("a temporary file of the repeats check", error)
}

/// Where a piece of a text of `layout` (`None`: as its text shows) may end. A first record that
/// fits no grid of the `known` size is malformed: cut at lines, so that its error comes at once.
fn boundary(layout: Option<Layout>, known: Option<usize>, text: &[u8]) -> Boundary {
    let detected = || {
        detect_layout(text, known).map(|(size, layout)| match known {
            Some(known) if known != size => Layout::Line,
            _ => layout,
        })
    };
    match layout.or_else(detected) {
        Some(Layout::Grid { .. }) => Boundary::EmptyLine,
        _ => Boundary::Line,
    }
}

/// A stream of grids, solutions or puzzles of a shape, judged a piece at a time as the checker
/// reads it whole: the first piece tells the size and the layout, and a piece with a malformed
/// record, or with `complete` a grid that is not complete and valid, ends the reading.
struct ShapedGuard {
    request: ShapeRequest,
    layout: Option<Layout>,
    complete: bool,
}

impl StreamGuard for ShapedGuard {
    fn boundary(&self, text: &[u8]) -> Boundary {
        boundary(self.layout, self.request.known_size(), text)
    }

    fn malformed(&mut self, piece: &Piece) -> bool {
        let Ok((puzzles, errors)) = read_shaped(piece, &self.request) else {
            return true;
        };
        if self.layout.is_none() {
            self.request.size = Some(puzzles.shapes[0].size());
            self.layout = Some(puzzles.layout);
        }
        !errors.is_empty() || (self.complete && !check::all_valid(&puzzles))
    }
}

/// The text of `input` for a check that reads it whole; a stream is not read past its first
/// malformed piece (see [`ShapedGuard`]).
fn read_for_check(input: Pieces, request: &ShapeRequest, complete: bool) -> Result<Vec<u8>, Error> {
    let mut guard = ShapedGuard {
        request: request.clone(),
        layout: None,
        complete,
    };
    input.read_whole_guarded(&mut guard)
}

/// `errors` of a piece whose first line is line `shift + 1` of its input, located in the input.
fn shifted(errors: ParseErrors, shift: usize) -> ParseErrors {
    let mut located = ParseErrors::new();
    for error in errors.listed() {
        located.push(ParseError {
            line: error.line + shift,
            ..error.clone()
        });
    }
    located.count_unlisted(errors.count() - errors.listed().len());
    located
}
