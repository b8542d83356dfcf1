//! The modes for shapes other than the standard 9×9 one: which job the shape flags ask for, and
//! how each job runs through the generic engine of [`sudoku_gen::model::shape`].

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use sudoku_gen::Error;
use sudoku_gen::check::shaped as check;
use sudoku_gen::check::{GridRules, Report};
use sudoku_gen::engine::generic::{dig as puzzle, walk as generate};
use sudoku_gen::io::input::{read_source, source_name};
use sudoku_gen::io::output::Destination;
use sudoku_gen::model::shape::{self, LayoutSource, Shape, ShapeRequest};
use sudoku_gen::text::format::{Format, OutputFormat};
use sudoku_gen::text::shaped::{Layout, parse_shaped};

use super::{Cli, Finished, report_parse_errors};

/// A mode for a shape other than the standard one.
#[derive(Debug)]
pub enum Job {
    /// `-s FILE`: N from the flags or from the input.
    Solve {
        path: PathBuf,
        request: ShapeRequest,
        format: Option<Format>,
        unique: bool,
    },
    /// `-c N`.
    Generate(generate::ShapedGrids),
    /// `-n N`.
    Puzzles(puzzle::ShapedPuzzleRequest, Format),
    /// `--check FILE`, with `--puzzles PFILE` when `puzzles` is given.
    Check {
        path: PathBuf,
        puzzles: Option<PathBuf>,
        request: ShapeRequest,
        count: Option<usize>,
    },
}

impl Job {
    /// `--check` without shape flags, on an input of another shape (`--first` is a 9×9 rule, and
    /// stays one: it was refused with the shape flags, and is not asked of other shapes here).
    pub fn check(path: PathBuf, puzzles: Option<PathBuf>, rules: GridRules) -> Job {
        Job::Check {
            path,
            puzzles,
            request: ShapeRequest::default(),
            count: rules.count,
        }
    }
}

/// What the shape flags of a command line ask for.
pub enum Route {
    /// No shape flag: the standard shape, or with -s and --check the input's own.
    Unspecified,
    /// Flags that name the standard shape, which the fast paths serve; an input of another shape
    /// is then malformed.
    Standard,
    /// Another shape: its job.
    Other(Box<Job>),
}

/// The route the command line's shape flags ask for. A layout file that cannot be read ends the
/// run here with exit code 1.
pub fn route(cli: &Cli, mode: &'static str) -> Result<Route, String> {
    let request = shape_request(cli)?;
    if request.is_unspecified() {
        return Ok(Route::Unspecified);
    }
    if let Some(LayoutSource::Text { text, name }) = &request.layout
        && let Err(problem) = shape::read_layout(text, request.size)
    {
        return Err(format!("jigsaw layout {name}: {problem}"));
    }
    let seed = cli.seed.unwrap_or_else(rand::random);
    let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(seed);
    let known = request.known_size();
    let shape = match known {
        Some(size) => Some(request.shape(size, &mut rng).map_err(|e| e.to_string())?),
        None => None,
    };
    if shape.as_ref().is_some_and(Shape::is_standard) {
        return Ok(Route::Standard);
    }
    let other = match (&shape, known) {
        (Some(shape), _) => describe(shape),
        (None, _) => "shapes other than 9×9".to_owned(),
    };
    let nine_only = [
        ("-m", cli.level.is_some()),
        ("--rate", cli.rate.is_some()),
        ("--first", cli.first.is_some()),
        ("--format csv", cli.format == Some(OutputFormat::Csv)),
        ("--canon", cli.canon.is_some()),
        ("--shuffle", cli.shuffle.is_some()),
        ("--classes", cli.classes),
        ("--guesses", cli.guesses.is_some()),
        ("--shard", cli.shard.is_some()),
        ("--column", cli.column.is_some()),
        ("--grade", cli.grade.is_some()),
        ("--print", cli.print),
    ];
    if let Some((flag, _)) = nine_only.iter().find(|(_, given)| *given) {
        return Err(format!(
            "'{flag}' is a feature of the standard 9×9 shape only, not of {other}"
        ));
    }
    let random = request.layout == Some(LayoutSource::Random);
    if random && !matches!(mode, "-c" | "-n") {
        return Err("'--jigsaw random' draws a layout for -c and -n only".into());
    }
    let format = cli.format.and_then(OutputFormat::text);
    let needs_size = || {
        shape.clone().ok_or_else(|| {
            format!("{mode} needs the size of its grids: give --size N (or --symbols, or a --jigsaw layout)")
        })
    };
    Ok(Route::Other(Box::new(
        if let Some(count) = cli.grid_count {
            Job::Generate(generate::ShapedGrids {
                shape: needs_size()?,
                count,
                seed,
                format: format.unwrap_or(Format::Grid),
            })
        } else if let Some(count) = cli.puzzle_count {
            let shape = needs_size()?;
            let blanks = cli.blanks.map(|(low, high)| low..=high);
            puzzle::check_reachable(&shape, blanks.as_ref(), cli.minimal)?;
            let request = puzzle::ShapedPuzzleRequest {
                shape,
                count,
                seed,
                blanks,
                minimal: cli.minimal,
                symmetric: cli.symmetric,
            };
            Job::Puzzles(request, format.unwrap_or(Format::Grid))
        } else if let Some(path) = &cli.solve {
            Job::Solve {
                path: path.clone(),
                request,
                format,
                unique: cli.require_unique,
            }
        } else {
            let paths = cli.check.clone().unwrap_or_default();
            if paths.len() > 1 {
                return Err(format!("--check takes one file at a time for {other}"));
            }
            let check_path = paths.into_iter().next();
            Job::Check {
                path: check_path.unwrap_or_default(),
                puzzles: cli.puzzles_file.clone(),
                request,
                count: cli.expected_grids,
            }
        },
    )))
}

/// The shape flags of the command line, with a layout file read.
fn shape_request(cli: &Cli) -> Result<ShapeRequest, String> {
    let split = match &cli.box_split {
        Some(text) => Some(shape::parse_box(text).map_err(|e| e.to_string())?),
        None => None,
    };
    let layout = match &cli.jigsaw {
        None => None,
        Some(path) if path == Path::new("random") => Some(LayoutSource::Random),
        Some(path) => {
            let stdin = Path::new("-");
            if path == stdin
                && (cli.solve.as_deref() == Some(stdin)
                    || cli.puzzles_file.as_deref() == Some(stdin)
                    || cli.check.iter().flatten().any(|p| p == stdin))
            {
                return Err("'--jigsaw -' and the input cannot both read standard input".into());
            }
            match read_source(path) {
                Ok(text) => Some(LayoutSource::Text {
                    text: text.to_vec(),
                    name: source_name(path),
                }),
                Err(error) => {
                    eprintln!("sudoku-gen: error: {error}");
                    std::process::exit(1);
                }
            }
        }
    };
    Ok(ShapeRequest {
        size: cli.size.map(usize::from),
        split,
        layout,
        diagonal: cli.diagonal,
        symbols: cli.symbols.as_ref().map(|s| s.as_bytes().to_vec()),
    })
}

/// The shape as the messages name it: `--size 16`, `a jigsaw 9×9`, `X-Sudoku 6×6`.
fn describe(shape: &Shape) -> String {
    let n = shape.size();
    let kind = match shape.regions() {
        shape::Regions::Boxes { rows, columns } => format!("{n}×{n} (boxes {rows}x{columns}"),
        shape::Regions::Jigsaw(_) => format!("{n}×{n} (jigsaw regions"),
    };
    let diagonal = if shape.diagonal() { ", diagonals" } else { "" };
    let symbols = if shape.symbols().is_default() {
        ""
    } else {
        ", other symbols"
    };
    format!("the {kind}{diagonal}{symbols})")
}

/// Whether an input read without shape flags is of another shape than 9×9, or a jigsaw one, so
/// that the generic engine, not the standard path, must read it.
pub fn is_other_shape(text: &[u8]) -> bool {
    sudoku_gen::text::shaped::detect_size(text, None)
        .is_some_and(|(size, prefixed)| size != 9 || prefixed)
}

/// The job for `-s` without shape flags when [`is_other_shape`] says so.
pub fn for_input(text: &[u8], path: &Path, format: Option<Format>, unique: bool) -> Option<Job> {
    is_other_shape(text).then(|| Job::Solve {
        path: path.to_owned(),
        request: ShapeRequest::default(),
        format,
        unique,
    })
}

/// `text` when the input has already been read, else the text of `path`.
fn given_or_read<'t>(text: Option<&'t [u8]>, path: &Path) -> Result<Cow<'t, [u8]>, Error> {
    Ok(match text {
        Some(text) => Cow::Borrowed(text),
        None => Cow::Owned(read_source(path)?),
    })
}

/// Runs a job (`text`: the input, when it has already been read).
pub fn run(job: Job, text: Option<&[u8]>, destination: Destination) -> Result<Finished, Error> {
    match job {
        Job::Solve {
            path,
            request,
            format,
            unique,
        } => {
            let text = &*given_or_read(text, &path)?;
            let name = source_name(&path);
            let mut puzzles = match parse_shaped(text, &request) {
                Ok(puzzles) => puzzles,
                Err(errors) => {
                    report_parse_errors(&name, &errors);
                    return Ok(Finished::WithProblems);
                }
            };
            match format {
                Some(Format::Line) => puzzles.layout = Layout::Line,
                Some(Format::Grid) => puzzles.layout = Layout::Grid { compact: false },
                None => {}
            }
            let output = sudoku_gen::engine::generic::solve::solve_all(&puzzles, unique);
            destination.write(&output.text)?;
            for line in output.problems.lines(|problem| problem.line_in(&name)) {
                eprintln!("{line}");
            }
            Ok(Finished::from_problems(output.problems.count()))
        }
        Job::Generate(request) => match generate::render_grids(&request) {
            Ok(text) => {
                destination.write(&text)?;
                Ok(Finished::Clean)
            }
            Err(short) => {
                eprintln!("sudoku-gen: error: {short}");
                Ok(Finished::WithProblems)
            }
        },
        Job::Puzzles(request, format) => match puzzle::generate_puzzles(&request) {
            Ok(puzzles) => {
                destination.write(&puzzle::render_puzzles(&request.shape, &puzzles, format))?;
                Ok(Finished::Clean)
            }
            Err(short) => {
                eprintln!("sudoku-gen: error: {short}");
                Ok(Finished::WithProblems)
            }
        },
        Job::Check {
            path,
            puzzles,
            request,
            count,
        } => {
            let text = &*given_or_read(text, &path)?;
            let report: Report = match puzzles {
                None => check::check_grids(text, &request, count),
                Some(puzzles) => {
                    match check::check_solutions(text, &read_source(&puzzles)?, &request, count) {
                        Ok(report) => report,
                        Err(errors) => {
                            report_parse_errors(&source_name(&puzzles), &errors);
                            return Ok(Finished::WithProblems);
                        }
                    }
                }
            };
            super::finish_check(&report, &path)
        }
    }
}
