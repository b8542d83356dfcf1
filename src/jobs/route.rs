//! Which kernel serves a request, and every check of the request that comes before the work: the
//! shape its flags name, the features that shape's kernel has (the table of
//! [`crate::engine::Kernel::supports`]), and the reach of the job.

use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use super::shaped;
use super::{Job, Mode};
use crate::engine::generic::levels;
use crate::engine::generic::reach as generic_reach;
use crate::engine::hard::reach as hard_reach;
use crate::engine::standard::reach;
use crate::engine::{Feature, Kernel};
use crate::error::Error;
use crate::grade::GradeJob;
use crate::grade::plan::Plan;
use crate::io::input::{read_at_most, source_name};
use crate::model::layout::read_layout;
use crate::model::request::{Diagonals, LayoutSource, ShapeRequest, parse_box};
use crate::model::shape::{self, Shape, ShapeError};
use crate::model::symbols::Symbols;
use crate::text::format::{Format, OutputFormat};

/// The shape flags of a request, as given.
#[derive(Clone, Debug, Default)]
pub struct ShapeFlags {
    /// `--size N`.
    pub size: Option<usize>,
    /// `--box RxC`.
    pub split: Option<String>,
    /// `--jigsaw LAYOUT`: a file (`-` for standard input), or `random`.
    pub jigsaw: Option<PathBuf>,
    /// `--diagonal` (`Some(true)`) or `--diagonal=no` (`Some(false)`).
    pub diagonal: Option<bool>,
    /// `--symbols STR`.
    pub symbols: Option<String>,
}

/// A request whose checks have all passed, with the kernel that will serve it.
pub(super) enum Planned {
    /// A job of the standard kernel. With `standard_shape`, the shape flags named the standard 9×9
    /// shape, so that an input of another shape is malformed rather than sent to the generic
    /// kernel (but for one that carries its layouts); without, an input without shape flags is served by the kernel its text asks for,
    /// read as `request` (no flag, or `--diagonal=no`) says.
    Standard {
        job: Job,
        seed: u64,
        standard_shape: bool,
        request: ShapeRequest,
    },
    /// A job that makes grids or puzzles, for the kernel of `shape`.
    Make {
        shape: Box<Shape>,
        job: Job,
        seed: u64,
    },
    /// A job of the generic kernel.
    Generic(Box<shaped::Job>),
    /// The grader, its plan and programs found.
    Grade { job: GradeJob, sheet: bool },
    /// The text of a plan.
    Print(String),
}

/// The longest text a layout file can hold: 25 lines of 25 characters with CRLF line ends, a
/// byte-order mark, and room for blank lines and spaces around it.
const LAYOUT_BYTES: usize = 4 << 10;

/// A usage error, reported with the usage.
fn usage(message: impl Into<String>) -> Error {
    Error::Usage(message.into())
}

/// Checks `job` for the shape `flags` name, and says which kernel serves it.
pub(super) fn plan(job: Job, flags: &ShapeFlags, seed: u64) -> Result<Planned, Error> {
    let mode = job.mode();
    if mode == Mode::Grids
        && let Job::Grids {
            shard: Some(_),
            classes: true,
            ..
        } = job
    {
        return Err(usage(
            "the argument '--shard' cannot be used with '-c --classes'",
        ));
    }
    check_arguments(&job)?;
    let request = shape_request(flags, &job)?;
    let mut standard_shape = false;
    if !request.is_unspecified() {
        if let Some(LayoutSource::Text { text, name }) = &request.layout
            && let Err(error) = read_layout(text, request.size)
        {
            let error = ShapeError::Layout {
                place: Some(format!("{name}:{}:{}", error.line, error.column)),
                problem: error.problem,
            };
            return Err(usage(error.to_string()));
        }
        let undrawn = match default_size(&request, mode)? {
            Some(size) => match request.undrawn_shape(size) {
                Ok(shape) => Some(shape),
                // An input's LAYOUT PUZZLE lines give regions at a prime size; its reader
                // names the problem of one that does not.
                Err(ShapeError::PrimeSize(_))
                    if request.layout.is_none() && !matches!(mode, Mode::Grids | Mode::Puzzles) =>
                {
                    None
                }
                Err(error) => return Err(usage(request.in_words_of_flags(error).to_string())),
            },
            None => None,
        };
        // A random layout is drawn only once the job is known to be served: the draw takes a
        // second at 25×25, and the regions it grows from have the drawn layout's kernel.
        match undrawn {
            Some(shape) if Kernel::for_shape(&shape) == Kernel::Standard => standard_shape = true,
            undrawn => {
                refuse_generic(&job, &request, undrawn.as_ref())?;
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let shape = undrawn.map(|shape| request.drawn(shape, &mut rng));
                return generic(job, request, shape, seed);
            }
        }
    }
    standard(job, seed, standard_shape, request)
}

/// The rules of `--check`'s files and options, whatever the shape: `job`, when it is a check, is
/// refused if they are broken.
fn check_arguments(job: &Job) -> Result<(), Error> {
    let Job::Check {
        paths,
        puzzles,
        corpus,
        classes,
        ..
    } = job
    else {
        return Ok(());
    };
    let stdin = Path::new("-");
    if paths.iter().filter(|p| *p == stdin).count() > 1 {
        return Err(usage("standard input ('-') can be checked once"));
    }
    if puzzles.is_some() && corpus.unique {
        return Err(usage(
            "'--unique' counts the solutions of a CSV corpus's puzzles, not of --puzzles \
             (check those with -s PFILE --unique)",
        ));
    }
    let one_file_options: Vec<&str> = [("--puzzles", puzzles.is_some()), ("--classes", *classes)]
        .iter()
        .filter_map(|&(option, given)| given.then_some(option))
        .collect();
    if paths.len() > 1 && !one_file_options.is_empty() {
        return Err(usage(format!(
            "{} {} one file at a time, not {}",
            one_file_options.join(" and "),
            if one_file_options.len() == 1 {
                "checks"
            } else {
                "check"
            },
            paths.len()
        )));
    }
    if puzzles.as_deref() == Some(stdin) && paths[0] == stdin {
        return Err(usage(
            "'--check -' and '--puzzles -' cannot both read standard input",
        ));
    }
    Ok(())
}

/// N as the flags decide it, or for the jobs that make grids and puzzles, 9 by default: every
/// shape flag alone then works at 9×9, but `--box`, which names a size of its own.
fn default_size(request: &ShapeRequest, mode: Mode) -> Result<Option<usize>, Error> {
    if let Some(size) = request.known_size() {
        return Ok(Some(size));
    }
    if !matches!(mode, Mode::Grids | Mode::Puzzles) {
        return Ok(None);
    }
    match request.split {
        // `--box` with `--jigsaw random` is refused as such when the shape is made.
        Some((rows, columns)) if request.layout.is_none() => Err(usage(format!(
            "'--box {rows}x{columns}' needs '--size {}' (the default size is 9, for boxes of 3x3)",
            rows * columns
        ))),
        _ => Ok(Some(9)),
    }
}

/// The checks of a job of the standard kernel.
fn standard(
    job: Job,
    seed: u64,
    standard_shape: bool,
    request: ShapeRequest,
) -> Result<Planned, Error> {
    let job = match job {
        Job::Puzzles {
            blanks,
            level,
            minimal,
            symmetric,
            guesses,
            hard,
            count,
            classes,
            shard,
            first,
            format,
        } => {
            standard_first(first)?;
            if let Some(asked) = hard {
                let kind = (minimal, symmetric);
                let given = (blanks.is_some(), level.is_some(), guesses.is_some());
                hard_reach::check_reachable(&Shape::standard(), asked, kind, given)
                    .map_err(usage)?;
            }
            if let Some(range) = &blanks
                && !(reach::BLANKS.contains(range.start()) && reach::BLANKS.contains(range.end()))
            {
                return Err(usage(format!(
                    "-r {}~{}: {}",
                    range.start(),
                    range.end(),
                    reach::blanks_message()
                )));
            }
            if let Some(guesses) = &guesses {
                reach::check_guesses_reachable(guesses, level, blanks.as_ref(), symmetric, minimal)
                    .map_err(usage)?;
            }
            if hard.is_none() {
                reach::check_reachable(level, minimal, symmetric, blanks.as_ref())
                    .map_err(usage)?;
            }
            let job = Job::Puzzles {
                blanks,
                level,
                minimal,
                symmetric,
                guesses,
                hard,
                count,
                classes,
                shard,
                first,
                format,
            };
            return Ok(Planned::Make {
                shape: Box::new(Shape::standard()),
                job,
                seed,
            });
        }
        job @ Job::Grids { .. } => {
            let shape = Shape::standard();
            check_first_of_made(&job, &shape)?;
            return Ok(Planned::Make {
                shape: Box::new(shape),
                job,
                seed,
            });
        }
        Job::Grade { request } => {
            standard_first(request.first)?;
            let job = request
                .prepare()
                .map_err(|e| Error::Unusable(e.to_string()))?;
            let sheet = request.sheet.is_some();
            return Ok(Planned::Grade { job, sheet });
        }
        Job::Print { plan } => {
            let (_, text) = Plan::load(&plan).map_err(|e| Error::Unusable(e.to_string()))?;
            return Ok(Planned::Print(text));
        }
        job => job,
    };
    Ok(Planned::Standard {
        job,
        seed,
        standard_shape,
        request,
    })
}

/// The features of a job that only some kernels have.
fn features(job: &Job) -> Vec<Feature> {
    let mut features = Vec::new();
    let mut add = |feature, given: bool| {
        if given {
            features.push(feature);
        }
    };
    match job {
        Job::Grids {
            first,
            shard,
            classes,
            ..
        } => {
            add(Feature::First, first.is_some());
            add(Feature::Classes, *classes);
            add(Feature::Shard, shard.is_some());
        }
        Job::Solve { column, .. } => add(Feature::Column, column.is_some()),
        Job::Puzzles {
            level,
            guesses,
            hard,
            classes,
            shard,
            first,
            format,
            ..
        } => {
            add(Feature::First, first.is_some());
            add(Feature::Hard, hard.is_some());
            add(Feature::Level, level.is_some());
            add(Feature::Csv, *format == OutputFormat::Csv);
            add(Feature::Classes, *classes);
            add(Feature::Guesses, guesses.is_some());
            add(Feature::Shard, shard.is_some());
        }
        Job::Rate { column, .. } => {
            add(Feature::Rate, true);
            add(Feature::Column, column.is_some());
        }
        Job::Canon { column, .. } => {
            add(Feature::Canon, true);
            add(Feature::Column, column.is_some());
        }
        Job::Shuffle { column, .. } => {
            add(Feature::Shuffle, true);
            add(Feature::Column, column.is_some());
        }
        Job::Check {
            rules,
            corpus,
            classes,
            ..
        } => {
            add(Feature::First, rules.first.is_some());
            add(Feature::Classes, *classes);
            add(Feature::Column, corpus.column.is_some());
        }
        Job::Grade { request } => {
            add(Feature::First, request.first.is_some());
            add(Feature::Grade, true);
        }
        Job::Print { .. } => add(Feature::Print, true),
    }
    features
}

/// Every refusal of `job` on a shape other than the standard one (`None`: its size is not known
/// until the input is read) that comes before its work: the features the generic kernel lacks,
/// the layout's format, `--first` and the reach of `--hard`. They are made on the shape before
/// its random layout is drawn, if it has one (see [`ShapeRequest::undrawn_shape`]); the reach of
/// `-n`'s digging, which depends on the regions, is checked on the layout drawn
/// ([`reach_of_generic`]).
fn refuse_generic(job: &Job, request: &ShapeRequest, shape: Option<&Shape>) -> Result<(), Error> {
    let other = match shape {
        Some(shape) => describe(shape),
        None => "shapes other than 9×9".to_owned(),
    };
    let mode = job.mode();
    if let Some(feature) = features(job)
        .into_iter()
        .find(|&feature| !Kernel::Generic.supports(feature))
    {
        let kind = match feature {
            Feature::Grade | Feature::Print => "a homework feature, of the standard 9×9 shape only",
            _ => "a feature of the standard 9×9 shape only",
        };
        return Err(usage(format!(
            "'{}' is {kind}, not of {other}",
            feature.option()
        )));
    }
    if request.layout == Some(LayoutSource::Random) && !matches!(mode, Mode::Grids | Mode::Puzzles)
    {
        return Err(usage("'--jigsaw random' draws a layout for -c and -n only"));
    }
    let grid_format = match job {
        Job::Grids { format, .. } => format.is_none_or(|f| f == Format::Grid),
        Job::Puzzles { format, .. } => *format == OutputFormat::Grid,
        _ => false,
    };
    if request.layout.is_some() && grid_format {
        let lines = match mode {
            Mode::Grids => "LAYOUT GRID",
            _ => "LAYOUT PUZZLE",
        };
        return Err(usage(format!(
            "'{} --jigsaw' in the grid format would not carry the layout, so its output could \
             not be read back as it is: add '--format line' ({lines} lines)",
            mode.flag()
        )));
    }
    if !matches!(mode, Mode::Grids | Mode::Puzzles) {
        return Ok(());
    }
    let shape = shape.ok_or_else(|| {
        usage(format!(
            "{} needs the size of its grids: give --size N (or --symbols, or a --jigsaw layout)",
            mode.flag()
        ))
    })?;
    check_first_of_made(job, shape)?;
    // The search's reach depends on the size and the kind of regions alone, which the undrawn
    // shape of a random layout has: refused before the draw, which takes a second at 25×25.
    if let Job::Puzzles {
        hard: Some(asked),
        blanks,
        level,
        guesses,
        minimal,
        symmetric,
        ..
    } = job
    {
        let given = (blanks.is_some(), level.is_some(), guesses.is_some());
        hard_reach::check_reachable(shape, *asked, (*minimal, *symmetric), given).map_err(usage)?;
    }
    Ok(())
}

/// Refuses `-n` on `shape` (the one drawn, for a random layout) asking for what the shape does
/// not reach.
fn reach_of_generic(job: &Job, shape: &Shape) -> Result<(), Error> {
    if let Job::Puzzles {
        blanks,
        level,
        minimal,
        symmetric,
        guesses,
        hard,
        ..
    } = job
    {
        let (minimal, symmetric) = (*minimal, *symmetric);
        // The search has a reach of its own, checked before the layout was drawn.
        if hard.is_some() {
            return Ok(());
        }
        generic_reach::check_reachable(shape, blanks.as_ref(), minimal, symmetric)
            .map_err(usage)?;
        if let Some(level) = *level {
            levels::check_level_reachable(shape, level, blanks.as_ref(), minimal, symmetric)
                .map_err(usage)?;
        }
        if let Some(guesses) = guesses {
            let kind = (*level, blanks.as_ref(), minimal, symmetric);
            levels::check_guesses_reachable(shape, guesses, kind).map_err(usage)?;
        }
    }
    Ok(())
}

/// The job of the generic kernel for a shape other than the standard one (`None`: its size is
/// not known until the input is read), once [`refuse_generic`] has passed it.
fn generic(
    job: Job,
    request: ShapeRequest,
    shape: Option<Shape>,
    seed: u64,
) -> Result<Planned, Error> {
    Ok(Planned::Generic(Box::new(match job {
        job @ (Job::Grids { .. } | Job::Puzzles { .. }) => {
            let shape = shape.expect("refuse_generic asks for the size of -c and -n");
            reach_of_generic(&job, &shape)?;
            return Ok(Planned::Make {
                shape: Box::new(shape),
                job,
                seed,
            });
        }
        Job::Solve {
            path,
            format,
            unique,
            column,
        } => shaped::Job::Solve {
            path,
            request,
            format,
            unique,
            column,
        },
        Job::Rate { path, column } => shaped::Job::Rate {
            path,
            request,
            column,
        },
        Job::Canon { path, column } => shaped::Job::Canon {
            path,
            request,
            column,
        },
        Job::Shuffle {
            path,
            format,
            column,
        } => shaped::Job::Shuffle {
            path,
            request,
            format,
            seed,
            column,
        },
        Job::Check {
            paths,
            puzzles,
            rules,
            corpus,
            classes,
            ..
        } => {
            let paths = if paths.is_empty() {
                vec![PathBuf::new()]
            } else {
                paths
            };
            shaped::Job::Check {
                paths,
                puzzles,
                request,
                rules,
                corpus,
                classes,
            }
        }
        // Every other job needs a feature of the standard kernel only, refused above.
        job => unreachable!("{:?} passed the feature table", job.mode()),
    })))
}

/// Refuses `-c --first` or `-n --first` with a symbol that is none of `shape`'s. A check
/// compares the symbol with the alphabet its input is read in instead, which without `--symbols`
/// comes from the text.
fn check_first_of_made(job: &Job, shape: &Shape) -> Result<(), Error> {
    match job {
        Job::Grids {
            first: Some(symbol),
            ..
        }
        | Job::Puzzles {
            first: Some(symbol),
            ..
        } => first_value(*symbol, shape.symbols(), &describe(shape)).map(drop),
        _ => Ok(()),
    }
}

/// The value of `symbol`, the one `--first` gives, among `symbols`, the alphabet of `of` (the
/// grids as the message names them); a symbol of no value there is a usage error.
pub(super) fn first_value(symbol: u8, symbols: &Symbols, of: &str) -> Result<u8, Error> {
    match symbols.value_of(symbol) {
        value if (1..=symbols.size as u8).contains(&value) => Ok(value),
        _ => Err(usage(format!(
            "'--first {}' is no symbol of {of}: it takes one of {}",
            char::from(symbol),
            String::from_utf8_lossy(symbols.as_bytes())
        ))),
    }
}

/// Refuses a `--first` symbol that is no digit of the standard 9×9 shape.
pub(super) fn standard_first(first: Option<u8>) -> Result<(), Error> {
    let shape = Shape::standard();
    match first {
        Some(symbol) => first_value(symbol, shape.symbols(), &describe(&shape)).map(drop),
        None => Ok(()),
    }
}

/// The shape flags of a request, with a layout file read.
fn shape_request(flags: &ShapeFlags, job: &Job) -> Result<ShapeRequest, Error> {
    let split = match &flags.split {
        Some(text) => Some(parse_box(text).map_err(|e| usage(e.to_string()))?),
        None => None,
    };
    let layout = match &flags.jigsaw {
        None => None,
        Some(path) if path == Path::new("random") => Some(LayoutSource::Random),
        Some(path) => {
            let stdin = Path::new("-");
            let reads_stdin = match job {
                Job::Solve { path, .. } => path == stdin,
                Job::Check { paths, puzzles, .. } => {
                    puzzles.as_deref() == Some(stdin) || paths.iter().any(|p| p == stdin)
                }
                _ => false,
            };
            if path == stdin && reads_stdin {
                return Err(usage(
                    "'--jigsaw -' and the input cannot both read standard input",
                ));
            }
            let name = source_name(path);
            let Some(text) = read_at_most(path, LAYOUT_BYTES)? else {
                return Err(usage(format!(
                    "jigsaw layout {name}: longer than any layout (at most 25 lines of 25 \
                     region characters)"
                )));
            };
            Some(LayoutSource::Text { text, name })
        }
    };
    Ok(ShapeRequest {
        size: flags.size,
        split,
        layout,
        diagonal: match flags.diagonal {
            None => Diagonals::Told,
            Some(true) => Diagonals::Houses,
            Some(false) => Diagonals::Refused,
        },
        symbols: match &flags.symbols {
            Some(text) if !text.is_ascii() => {
                return Err(usage(format!(
                    "--symbols {text}: each symbol is one ASCII character"
                )));
            }
            text => text.as_ref().map(|s| s.as_bytes().to_vec()),
        },
        settled: false,
    })
}

/// The shape as the messages name it: `the 16×16 (boxes 4x4)`, `the 9×9 (jigsaw regions)`.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_takes_only_a_symbol_of_the_alphabet() {
        let symbols = Symbols::default_for(16);
        assert_eq!(first_value(b'G', &symbols, "x").ok(), Some(16));
        assert_eq!(first_value(b'1', &symbols, "x").ok(), Some(1));
        // A blank character is no symbol, nor a symbol of a larger alphabet.
        for symbol in [b'0', b'.', b'H', b'g'] {
            let Err(Error::Usage(message)) = first_value(symbol, &symbols, "the 16×16") else {
                panic!("'{}' was taken", char::from(symbol));
            };
            assert!(message.contains("no symbol of the 16×16"), "{message}");
        }
        let zero_based = Symbols::new(b"0123456789ABCDEF").unwrap();
        assert_eq!(first_value(b'0', &zero_based, "x").ok(), Some(1));
        assert!(standard_first(Some(b'9')).is_ok() && standard_first(Some(b'A')).is_err());
    }
}
