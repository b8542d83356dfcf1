//! Running a planned job: the output prepared before the work, the thread pool, and for an input
//! without shape flags, the kernel its text asks for.

use std::path::Path;

use super::make;
use super::route::{Planned, standard_first};
use super::shaped::{self, is_compact_rows, is_other_shape};
use super::solve::{BatchOutput, BatchRules, solve_batch};
use super::stream::{PuzzleGuard, parse_error_lines, run_on_puzzles};
use super::{Finished, Job, rate};
use crate::check::{self, Report};
use crate::classes::{distinct, shuffle};
use crate::error::Error;
use crate::grade;
use crate::io::input::{open_pieces, source_name};
use crate::io::output::Destination;
use crate::io::progress::InputProgress;
use crate::model::request::ShapeRequest;
use crate::problems::Problems;
use crate::text::corpus::{self, RowResult, detect_header};
use crate::text::format::Format;
use crate::text::parse::ParseErrors;

/// How much of an input tells its shape (the first block of a 25×25 grid is about 1.3 KB).
pub(super) const PEEK: usize = 64 << 10;

/// Runs `planned` on a pool of `threads`, writing its output where `output` names.
pub(super) fn run(
    planned: Planned,
    threads: Option<usize>,
    output: Option<&Path>,
) -> Result<Finished, Error> {
    // Before the work, so that an output that cannot be written costs no time.
    let destination = Destination::prepare(output)?;
    // This thread is one of the pool's: `-j 1` starts no other.
    let mut pool = rayon::ThreadPoolBuilder::new().use_current_thread();
    if let Some(threads) = threads {
        pool = pool.num_threads(threads);
    }
    let pool = pool
        .build()
        .map_err(|e| Error::io("thread pool", std::io::Error::other(e)))?;
    pool.install(|| match planned {
        Planned::Standard {
            job,
            seed,
            standard_shape,
            request,
        } => run_standard(job, seed, standard_shape, &request, destination),
        Planned::Make { shape, job, seed } => make::run(*shape, job, seed, destination),
        Planned::Generic(job) => shaped::run(*job, Vec::new(), destination),
        Planned::Grade { job, sheet } => {
            let grading = grade::grade(&job)?;
            Destination::Stdout.write(grading.render_text().as_bytes())?;
            if sheet {
                destination.write(&grading.render_csv())?;
            }
            Ok(Finished::with(usize::from(!grading.passed()), Vec::new()))
        }
        Planned::Print(text) => {
            destination.write(text.as_bytes())?;
            Ok(Finished::clean())
        }
    })
}

/// A job of the standard kernel. Without `standard_shape`, an input of another shape goes to the
/// generic kernel instead, read as `request` says; with it, lines or a CSV corpus that carry
/// layouts still do.
fn run_standard(
    job: Job,
    seed: u64,
    standard_shape: bool,
    request: &ShapeRequest,
    destination: Destination,
) -> Result<Finished, Error> {
    let is_other_shape =
        |text: &[u8], column: Option<&str>| is_other_shape(text, column, standard_shape, request);
    // What the checker of every shape reads: other shapes, and 9×9 compact rows, which `-s`
    // answers such an input in.
    let is_checked_as_shaped =
        |text: &[u8], column: Option<&str>| is_other_shape(text, column) || is_compact_rows(text);
    match job {
        Job::Solve {
            path,
            format,
            unique,
            column,
        } => {
            let mut pieces = open_pieces(&path)?;
            let peeked = pieces.peek(PEEK)?;
            if format == Some(Format::Grid) && detect_header(&peeked, column.as_deref()).is_some() {
                return Err(Error::format_of_corpus(pieces.name()));
            }
            if is_other_shape(&peeked, column.as_deref())
                || format.is_none() && is_compact_rows(&peeked)
            {
                let job = shaped::Job::Solve {
                    path,
                    request: request.clone(),
                    format,
                    unique,
                    column,
                };
                return shaped::run(job, vec![pieces], destination);
            }
            let rules = BatchRules {
                separated: Box::new(move |input| format.unwrap_or(input) == Format::Grid),
                column,
                row_result: RowResult::Solution,
                result_header: b"",
                batched: false,
            };
            run_on_puzzles(pieces, destination, &rules, |puzzles, piece| {
                let format = match format {
                    _ if piece.csv => Format::Line,
                    Some(format) => format,
                    None => piece.format,
                };
                solve_batch(puzzles, unique, format)
            })
        }
        Job::Rate { path, column } => {
            let mut pieces = open_pieces(&path)?;
            if is_other_shape(&pieces.peek(PEEK)?, column.as_deref()) {
                let job = shaped::Job::Rate {
                    path,
                    request: request.clone(),
                    column,
                };
                return shaped::run(job, vec![pieces], destination);
            }
            let rules = BatchRules {
                separated: Box::new(|_| false),
                column,
                row_result: RowResult::Appended,
                result_header: rate::HEADER,
                batched: true,
            };
            run_on_puzzles(pieces, destination, &rules, |puzzles, piece| {
                rate::rate_file(puzzles, piece.first && !piece.csv)
            })
        }
        Job::Canon { path, column } => {
            let mut pieces = open_pieces(&path)?;
            if is_other_shape(&pieces.peek(PEEK)?, column.as_deref()) {
                let column = column.as_deref();
                return shaped::canon_pieces(pieces, request.clone(), column, destination);
            }
            let rules = BatchRules {
                separated: Box::new(|_| false),
                column,
                row_result: RowResult::Column("canon"),
                result_header: b"",
                batched: true,
            };
            run_on_puzzles(pieces, destination, &rules, |puzzles, _| BatchOutput {
                text: distinct::render_canonical_forms(&puzzles.grids),
                problems: Problems::new(),
            })
        }
        Job::Shuffle {
            path,
            format,
            column,
        } => {
            let mut pieces = open_pieces(&path)?;
            let start = pieces.peek(PEEK)?;
            match detect_header(&start, column.as_deref()) {
                None if column.is_some() => {
                    return Err(Error::column_without_corpus(pieces.name()));
                }
                Some(_) if format == Some(Format::Grid) => {
                    return Err(Error::format_of_corpus(pieces.name()));
                }
                Some(Ok(header)) if column.is_some() => {
                    if let Err(error) = corpus::unturned_grids(&start, &header) {
                        let mut errors = ParseErrors::new();
                        errors.push(error);
                        let lines = parse_error_lines(&source_name(&path), &errors);
                        return Ok(Finished::with(1, lines));
                    }
                }
                _ => {}
            }
            if is_other_shape(&start, column.as_deref()) {
                let job = shaped::Job::Shuffle {
                    path,
                    request: request.clone(),
                    format,
                    seed,
                    column,
                };
                return shaped::run(job, vec![pieces], destination);
            }
            let text = pieces.read_whole_guarded(&mut PuzzleGuard::default())?;
            match shuffle::shuffle_text(&text, seed, format, column.as_deref()) {
                Ok(text) => {
                    destination.write(&text)?;
                    Ok(Finished::clean())
                }
                Err(errors) => Ok(Finished::with(
                    1,
                    parse_error_lines(&source_name(&path), &errors),
                )),
            }
        }
        Job::Check {
            paths,
            puzzles: None,
            rules,
            corpus,
            classes,
        } => {
            let mut inputs = paths
                .iter()
                .map(|path| open_pieces(path))
                .collect::<Result<Vec<_>, Error>>()?;
            // The shapes read from the inputs: when any is of another shape, the checker of
            // every shape checks them all.
            let mut other = false;
            for input in &mut inputs {
                let start = input.peek(PEEK)?;
                other |= is_checked_as_shaped(&start, corpus.column.as_deref());
                // The classes of a corpus's puzzles are compared by the checker of every shape.
                other |= classes && detect_header(&start, corpus.column.as_deref()).is_some();
            }
            if other {
                let job = shaped::Job::Check {
                    paths,
                    puzzles: None,
                    request: request.clone(),
                    rules,
                    corpus,
                    classes,
                };
                return shaped::run(job, inputs, destination);
            }
            // Only now are the grids known to be 9×9 ones, whose symbols are the digits.
            standard_first(rules.first)?;
            if classes {
                let text = inputs
                    .remove(0)
                    .read_whole_guarded(&mut PuzzleGuard::default())?;
                let mut report = check::check_grids(&text, rules);
                distinct::check_classes(&mut report, &text, None);
                return finish_check(&report, &paths[0]);
            }
            let bytes = inputs.iter().map(|input| input.file_len()).sum();
            let mut progress = InputProgress::new(bytes, "grids");
            let reports = check::check_grid_files(inputs, rules, &corpus, |items, bytes| {
                progress.advance(items, bytes)
            })?;
            progress.finish();
            finish_checks(&reports)
        }
        Job::Check {
            paths,
            puzzles: Some(puzzles),
            rules,
            classes,
            ..
        } => {
            let path = &paths[0];
            let mut solutions = open_pieces(path)?;
            let start = solutions.peek(PEEK)?;
            // The shape is the puzzles' as much as the solutions' (X-Sudoku puzzles may have
            // plain solutions, which break the diagonals). Each input is opened once, a stream
            // too: what a peek reads stays in it for the check.
            let mut puzzle_pieces = open_pieces(&puzzles)?;
            let puzzle_start = puzzle_pieces.peek(PEEK)?;
            if detect_header(&puzzle_start, None).is_some() {
                return Err(Error::Unusable(format!(
                    "{}:1: a CSV corpus, where --puzzles reads puzzles as lines or grids; a \
                     corpus is checked alone (--check CORPUS), its solution column filled by -s",
                    source_name(&puzzles)
                )));
            }
            let other = [&start, &puzzle_start]
                .iter()
                .any(|text| is_checked_as_shaped(text, None));
            if other {
                let job = shaped::Job::Check {
                    paths: vec![path.clone()],
                    puzzles: Some(puzzles),
                    request: request.clone(),
                    rules,
                    corpus: Default::default(),
                    classes,
                };
                return shaped::run(job, vec![solutions, puzzle_pieces], destination);
            }
            standard_first(rules.first)?;
            let checked = if classes {
                // Classes compare puzzles with every other: both files are read whole.
                let text = solutions.read_whole_guarded(&mut PuzzleGuard::default())?;
                let puzzle_text = puzzle_pieces.read_whole_guarded(&mut PuzzleGuard::default())?;
                check::check_solutions(&text, &puzzle_text, rules).map(|mut report| {
                    let name = source_name(&puzzles);
                    distinct::check_classes(&mut report, &text, Some((&puzzle_text, &name)));
                    report
                })
            } else {
                let mut progress = InputProgress::new(solutions.file_len(), "solutions");
                let checked = check::check_solution_files(
                    solutions,
                    puzzle_pieces,
                    rules,
                    |items, bytes| progress.advance(items, bytes),
                )?;
                progress.finish();
                checked
            };
            match checked {
                Ok(report) => finish_check(&report, path),
                Err(errors) => unreadable_puzzles(&source_name(&puzzles), &errors),
            }
        }
        job => unreachable!("{:?} is planned apart", job.mode()),
    }
}

/// Writes the report of a check of the files `reports` name on standard output, and ends with
/// its verdict.
pub(super) fn finish_checks(reports: &[(String, Report)]) -> Result<Finished, Error> {
    Destination::Stdout.write(check::files_text(reports).as_bytes())?;
    let problems = reports.iter().map(|(_, r)| r.problems.count()).sum();
    Ok(Finished::with(problems, Vec::new()))
}

/// Writes the report of a check whose puzzles (`--puzzles`, the file `name`) cannot be read: their
/// problems, and the verdict that ends every check, which a grader's script reads.
pub(super) fn unreadable_puzzles(name: &str, errors: &ParseErrors) -> Result<Finished, Error> {
    let count = errors.count();
    let mut text = parse_error_lines(name, errors).join("\n");
    text.push_str(&format!(
        "\nFAIL: {count} problem{} in the puzzles of {name}; no solution was checked\n",
        if count == 1 { "" } else { "s" }
    ));
    Destination::Stdout.write(text.as_bytes())?;
    Ok(Finished::with(count, Vec::new()))
}

/// Writes the report of a check of one file, `path`, and ends with its verdict.
pub(super) fn finish_check(report: &Report, path: &Path) -> Result<Finished, Error> {
    Destination::Stdout.write(report.text(&source_name(path)).as_bytes())?;
    Ok(Finished::with(report.problems.count(), Vec::new()))
}
