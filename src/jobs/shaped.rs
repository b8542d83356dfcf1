//! The jobs of the generic kernel that read an input: `-s` and `--check` for every shape other
//! than the standard 9×9 one.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use super::Finished;
use super::stream::parse_error_lines;
use crate::check::shaped as check;
use crate::engine::generic::solve::solve_all;
use crate::error::Error;
use crate::io::input::{read_source, source_name};
use crate::io::output::Destination;
use crate::model::request::ShapeRequest;
use crate::text::format::Format;
use crate::text::shaped::{Layout, detect_size, parse_shaped};

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
        } => {
            let text = given_or_read(text, &path)?;
            let name = source_name(&path);
            let mut puzzles = match parse_shaped(&text, &request) {
                Ok(puzzles) => puzzles,
                Err(errors) => return Ok(Finished::with(1, parse_error_lines(&name, &errors))),
            };
            match format {
                Some(Format::Line) => puzzles.layout = Layout::Line,
                Some(Format::Grid) => puzzles.layout = Layout::Grid { compact: false },
                None => {}
            }
            let output = solve_all(&puzzles, unique);
            destination.write(&output.text)?;
            let lines = output.problems.lines(|problem| problem.line_in(&name));
            Ok(Finished::with(output.problems.count(), lines))
        }
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

/// `text` when the input has already been read, else the text of `path`.
fn given_or_read<'t>(text: Option<&'t [u8]>, path: &Path) -> Result<Cow<'t, [u8]>, Error> {
    Ok(match text {
        Some(text) => Cow::Borrowed(text),
        None => Cow::Owned(read_source(path)?),
    })
}
