//! The jobs a run can be asked for, and [`run`], which decides how each one runs: on which kernel
//! of the [`crate::engine`], from which input, into which output.
//!
//! A front end (the command line) only describes the run as a [`Request`]: the [`Job`], the shape
//! flags as given ([`ShapeFlags`]), the seed, the threads and the output. Everything that needs the
//! shape or the input (which kernel serves it, whether a feature exists for it, what an input
//! without shape flags holds) is decided here.

mod batches;
mod make;
mod route;
mod run;
mod shaped;
mod stream;

pub mod rate;
pub mod solve;

use std::ops::RangeInclusive;
use std::path::PathBuf;

pub use route::ShapeFlags;

use crate::check::{CorpusRules, GridRules};
use crate::error::Error;
use crate::grade::GradeRequest;
use crate::jobs::rate::Level;
use crate::model::shard::Shard;
use crate::text::format::{Format, OutputFormat};

/// The modes of a run, one per job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `-c N`.
    Grids,
    /// `-s FILE`.
    Solve,
    /// `-n N`.
    Puzzles,
    /// `--rate FILE`.
    Rate,
    /// `--canon FILE`.
    Canon,
    /// `--shuffle FILE`.
    Shuffle,
    /// `--check FILE...`.
    Check,
    /// `--grade PROGRAM...`.
    Grade,
    /// `--print`.
    Print,
}

impl Mode {
    /// The option that asks for the mode, as messages name it.
    pub fn flag(self) -> &'static str {
        match self {
            Mode::Grids => "-c",
            Mode::Solve => "-s",
            Mode::Puzzles => "-n",
            Mode::Rate => "--rate",
            Mode::Canon => "--canon",
            Mode::Shuffle => "--shuffle",
            Mode::Check => "--check",
            Mode::Grade => "--grade",
            Mode::Print => "--print",
        }
    }
}

/// A job, with everything it needs but the shape.
#[derive(Debug)]
pub enum Job {
    /// `-c N`: distinct complete grids; with `classes`, no two equivalent.
    Grids {
        /// The grids asked for.
        count: usize,
        /// The symbol (its character) of every grid's top-left cell.
        first: Option<u8>,
        /// The shard of a corpus made by many runs.
        shard: Option<Shard>,
        /// The output format (default: grid).
        format: Option<Format>,
        /// No two grids equivalent.
        classes: bool,
    },
    /// `-s FILE`: every puzzle solved, in `format` or the input's own.
    Solve {
        /// The input (`-` for standard input).
        path: PathBuf,
        /// The output format (default: the input's).
        format: Option<Format>,
        /// A puzzle with more than one solution is a problem.
        unique: bool,
        /// The puzzle column of a CSV corpus.
        column: Option<String>,
    },
    /// `-n N`: puzzles with one solution.
    Puzzles {
        /// The puzzles asked for.
        count: usize,
        /// The blank counts allowed (default: minimal puzzles).
        blanks: Option<RangeInclusive<usize>>,
        /// The level of the logical solver.
        level: Option<Level>,
        /// Removing any given leaves more than one solution.
        minimal: bool,
        /// Givens symmetric under a half turn.
        symmetric: bool,
        /// The search's guesses allowed.
        guesses: Option<RangeInclusive<usize>>,
        /// Hard puzzles by a search: the least total of guesses over the measure's equivalents,
        /// or (`Some(None)`) the shape's default level.
        hard: Option<Option<usize>>,
        /// No two puzzles equivalent.
        classes: bool,
        /// The shard of a corpus made by many runs.
        shard: Option<Shard>,
        /// The symbol (its character) of every solution's top-left cell.
        first: Option<u8>,
        /// The output format.
        format: OutputFormat,
    },
    /// `--rate FILE`: every puzzle rated.
    Rate {
        /// The input.
        path: PathBuf,
        /// The puzzle column of a CSV corpus.
        column: Option<String>,
    },
    /// `--canon FILE`: the canonical form of every grid or puzzle.
    Canon {
        /// The input.
        path: PathBuf,
        /// The puzzle column of a CSV corpus.
        column: Option<String>,
    },
    /// `--shuffle FILE`: every grid or puzzle replaced by a random equivalent.
    Shuffle {
        /// The input.
        path: PathBuf,
        /// The output format (default: the input's).
        format: Option<Format>,
        /// The puzzle column of a CSV corpus.
        column: Option<String>,
    },
    /// `--check FILE...`: complete grids, or with `puzzles` the solutions of its puzzles.
    Check {
        /// The files checked together.
        paths: Vec<PathBuf>,
        /// The puzzles the file solves, in order.
        puzzles: Option<PathBuf>,
        /// The count and the top-left symbol asked for.
        rules: GridRules,
        /// The rules of a CSV corpus.
        corpus: CorpusRules,
        /// No two grids (puzzles) equivalent.
        classes: bool,
    },
    /// `--grade PROGRAM...`: programs run through a plan; with the request's sheet, the score
    /// sheet goes to the output.
    Grade {
        /// The programs, the plan and the sheet.
        request: GradeRequest,
    },
    /// `--print`: the text of a plan.
    Print {
        /// `basic`, `pair` or a plan file.
        plan: String,
    },
}

impl Job {
    /// The job's mode.
    pub fn mode(&self) -> Mode {
        match self {
            Job::Grids { .. } => Mode::Grids,
            Job::Solve { .. } => Mode::Solve,
            Job::Puzzles { .. } => Mode::Puzzles,
            Job::Rate { .. } => Mode::Rate,
            Job::Canon { .. } => Mode::Canon,
            Job::Shuffle { .. } => Mode::Shuffle,
            Job::Check { .. } => Mode::Check,
            Job::Grade { .. } => Mode::Grade,
            Job::Print { .. } => Mode::Print,
        }
    }
}

/// A run as a front end describes it.
#[derive(Debug)]
pub struct Request {
    /// What to do.
    pub job: Job,
    /// The shape flags, as given.
    pub shape: ShapeFlags,
    /// The seed of everything random in the run (a random jigsaw layout included).
    pub seed: u64,
    /// Worker threads; the available cores when not given.
    pub threads: Option<usize>,
    /// The file `-o` names, if any (`-` is standard output).
    pub output: Option<PathBuf>,
}

/// How a run ended, when it ran to its end.
#[derive(Debug, Default)]
pub struct Finished {
    /// Whether some items had problems (the output is complete, but the run's status is 1).
    pub with_problems: bool,
    /// What the run has to say on standard error: its problems, located, in order.
    pub messages: Vec<String>,
}

impl Finished {
    /// A run without problems.
    fn clean() -> Finished {
        Finished::default()
    }

    /// A run whose problems `messages` tells, `count` of them (some may be counted, not listed).
    fn with(count: usize, messages: Vec<String>) -> Finished {
        Finished {
            with_problems: count > 0,
            messages,
        }
    }
}

/// Runs `request`: every usage problem is found before any work or output, then the job runs on a
/// pool of the request's threads.
pub fn run(request: Request) -> Result<Finished, Error> {
    let planned = route::plan(request.job, &request.shape, request.seed)?;
    run::run(planned, request.threads, request.output.as_deref())
}
