//! The jobs of the generic kernel that read an input: `-s` and `--check` for every shape other
//! than the standard 9×9 one.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use super::Finished;
use super::stream::parse_error_lines;
use crate::check::shaped as check;
use crate::engine::generic::solve::solve_all;
use crate::error::Error;
use crate::io::input::{Boundary, Pieces, open_pieces, read_source, source_name};
use crate::io::output::Destination;
use crate::io::progress::InputProgress;
use crate::model::request::ShapeRequest;
use crate::problems::Problems;
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
        count: Option<usize>,
    },
}

/// Whether an input read without shape flags is of another shape than 9×9, or a jigsaw one, so
/// that the generic kernel, not the standard one, must read it.
pub(super) fn is_other_shape(text: &[u8]) -> bool {
    detect_size(text, None).is_some_and(|(size, prefixed)| size != 9 || prefixed)
}

/// Runs `job` (`text`: the input, when it has already been read).
pub(super) fn run(
    job: Job,
    text: Option<&[u8]>,
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
            count,
        } => {
            let text = given_or_read(text, &path)?;
            let report = match puzzles {
                None => check::check_grids(&text, &request, count),
                Some(puzzles) => {
                    match check::check_solutions(&text, &read_source(&puzzles)?, &request, count) {
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
        // A first record that fits no grid of the size asked is malformed: cut at lines, so that
        // its error comes at once.
        let detected = |text: &[u8]| {
            detect_layout(text, known).map(|(size, layout)| match known {
                Some(known) if known != size => Layout::Line,
                _ => layout,
            })
        };
        let boundary = |text: &[u8]| match layout.or_else(|| detected(text)) {
            Some(Layout::Grid { .. }) => Boundary::EmptyLine,
            _ => Boundary::Line,
        };
        let Some(piece) = pieces.next_piece(boundary)? else {
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

/// `text` when the input has already been read, else the text of `path`.
fn given_or_read<'t>(text: Option<&'t [u8]>, path: &Path) -> Result<Cow<'t, [u8]>, Error> {
    Ok(match text {
        Some(text) => Cow::Borrowed(text),
        None => Cow::Owned(read_source(path)?),
    })
}
