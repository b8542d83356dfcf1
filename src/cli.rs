//! The command line: its arguments, the mode they ask for, and the library call each mode makes.

mod shaped;

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::error::ErrorKind;
use clap::{ArgGroup, CommandFactory, Parser};

use sudoku_gen::check::{self, CorpusRules, GridRules};
use sudoku_gen::classes::{distinct as classes, shuffle};
use sudoku_gen::engine::standard::dig::{self, PuzzleRequest};
use sudoku_gen::engine::standard::walk as generate;
use sudoku_gen::grade::plan::Plan;
use sudoku_gen::grade::{self, GradeJob, GradeRequest};
use sudoku_gen::io::input::{Pieces, open_pieces, read_source, source_name};
use sudoku_gen::io::output::Destination;
use sudoku_gen::io::progress::{self, InputProgress, Progress};
use sudoku_gen::jobs::rate::{self, Level, rate_file};
use sudoku_gen::jobs::solve::{BatchEnd, BatchRules, PieceInfo, run_batch};
use sudoku_gen::jobs::solve::{BatchOutput, solve_batch};
use sudoku_gen::model::shape;
use sudoku_gen::problems::Problems;
use sudoku_gen::text::corpus::{RowResult, detect_header};
use sudoku_gen::text::format::{Format, OutputFormat};
use sudoku_gen::text::parse::{ParseErrors, Puzzles};
use sudoku_gen::{Error, GridRequest, Shard};

/// Bulk Sudoku: distinct complete grids and puzzle solving, fast.
#[derive(Debug, Parser)]
#[command(name = "sudoku-gen", version, about, max_term_width = 100)]
#[command(group(ArgGroup::new("mode").required(true).args(["grid_count", "solve", "check", "puzzle_count", "rate", "canon", "shuffle", "grade", "print"])))]
pub struct Cli {
    /// Print N distinct complete grids (1 to 1000000).
    #[arg(short = 'c', value_name = "N", value_parser = parse_count)]
    grid_count: Option<usize>,

    /// Solve every puzzle of FILE (`-` for standard input), in the line or grid format.
    #[arg(short = 's', value_name = "FILE")]
    solve: Option<PathBuf>,

    /// Make N puzzles with exactly one solution (1 to 1000000).
    #[arg(short = 'n', value_name = "N", value_parser = parse_count)]
    puzzle_count: Option<usize>,

    /// With -n: the difficulty, 1 (singles suffice), 2 (locked candidates, pairs or triples needed)
    /// or 3 (harder techniques needed). Default: any.
    #[arg(short = 'm', value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(1..=3))]
    level: Option<u8>,

    /// With -n: the number of blank cells lies in LOW~HIGH (or LOW-HIGH), within 1~58. Default:
    /// minimal puzzles, whatever their blank count.
    #[arg(short = 'r', value_name = "LOW~HIGH", value_parser = parse_blanks)]
    blanks: Option<(usize, usize)>,

    /// With -n: accepted for the homework's command lines; every puzzle has one solution anyway.
    #[arg(short = 'u')]
    homework_unique: bool,

    /// With -n: removing any given leaves more than one solution.
    #[arg(long)]
    minimal: bool,

    /// With -n: the givens are symmetric under a half turn.
    #[arg(long)]
    symmetric: bool,

    /// Rate every puzzle of FILE (`-` for standard input): a CSV row
    /// `puzzle,level,singles,locked,pairs_triples,harder,guesses` each.
    #[arg(long, value_name = "FILE")]
    rate: Option<PathBuf>,

    /// Check FILE (`-` for standard input): complete grids in either -c format, every grid valid and
    /// none repeated, in all the files given together; or, with --puzzles, solutions of the
    /// puzzles of PFILE.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    check: Option<Vec<PathBuf>>,

    /// Write the canonical form of every grid or puzzle of FILE (`-` for standard input), in order,
    /// one line each: the smallest line among its equivalents, a blank read as 0 (written `.`).
    #[arg(long, value_name = "FILE")]
    canon: Option<PathBuf>,

    /// Replace every grid or puzzle of FILE (`-` for standard input) by a random equivalent, in
    /// order; a `puzzle,solution,...` CSV (as -n writes it) row by row, one move for both.
    #[arg(long, value_name = "FILE")]
    shuffle: Option<PathBuf>,

    /// With -c or -n: no two grids (puzzles) are equivalent under relabelling, row, column, band and
    /// stack moves and transposing. With --check: no two grids (with --puzzles, puzzles) are.
    #[arg(long)]
    classes: bool,

    /// With -n: the search's guesses to solve the puzzle and prove it unique lie in LOW~HIGH
    /// (or LOW-HIGH); LOW at most 9, less with -r (see the README).
    #[arg(long, value_name = "LOW~HIGH", value_parser = parse_guesses)]
    guesses: Option<(usize, usize)>,

    /// Grade homework submissions: run each PROGRAM (a folder: every executable file in it) through
    /// the cases of --plan, with this tool as the oracle; a report per program on stdout, and with
    /// -o the score sheet (CSV).
    #[arg(long, value_name = "PROGRAM", num_args = 1..)]
    grade: Option<Vec<PathBuf>>,

    /// With --grade or --print: `basic` (the individual project), `pair` (adds the -n cases) or a
    /// TOML plan file. Default: basic.
    #[arg(long, value_name = "PLAN")]
    plan: Option<String>,

    /// Print the plan named by --plan (default basic), in the TOML format plan files use.
    #[arg(long)]
    print: bool,

    /// With --grade: the wall-clock limit of every case in seconds, instead of the plan's.
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    timeout: Option<Duration>,

    /// With --check: the file must hold exactly N grids (or, with --puzzles, N solutions).
    #[arg(long = "count", value_name = "N")]
    expected_grids: Option<usize>,

    /// With --check: FILE holds one solution per puzzle of PFILE, in order.
    #[arg(long = "puzzles", value_name = "PFILE")]
    puzzles_file: Option<PathBuf>,

    /// Output format: `grid` (9 lines of 9 digits, grids separated by an empty line), `line` (81
    /// characters a line) or, with -n, `csv`. Default: `grid` for -c and -n, the input's format for -s.
    #[arg(long, value_enum, value_name = "FORMAT")]
    format: Option<OutputFormat>,

    /// With -s: a puzzle with more than one solution is an error (one solution is still written).
    /// With --check on a CSV corpus: every puzzle must have exactly one solution.
    #[arg(long = "unique")]
    require_unique: bool,

    /// With -c, --check (with or without --puzzles) or --grade: every grid has digit D in its
    /// top-left cell (1 to 9).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(1..=9))]
    first: Option<u8>,

    /// Seed for a byte-identical output on every run and for every thread count; random without it.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,

    /// With -c or -n and --seed: shard I of K (1 <= I <= K <= 1000000); the K shards of a seed share
    /// no grid (puzzle), whatever machine or -j makes them.
    #[arg(long, value_name = "I/K")]
    shard: Option<Shard>,

    /// With -s, --rate, --canon or --check on a CSV corpus: the puzzle column, instead of the one
    /// named puzzle, quizzes or quiz.
    #[arg(long, value_name = "NAME")]
    column: Option<String>,

    /// No progress bar (one is drawn on long runs when stderr is a terminal).
    #[arg(long)]
    quiet: bool,

    /// Worker threads (default: the available cores); changes the speed, never the output.
    #[arg(short = 'j', value_name = "THREADS", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,

    /// Write FILE instead of standard output (`-` for standard output), atomically: FILE is
    /// replaced only by a complete output, and keeps its permission bits and owner.
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,

    /// Grids of N×N cells and N symbols, N from 4 to 25, with boxes of R×C cells (R the largest
    /// divisor of N not above its square root). Default: 9, or with -s and --check, the input's.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(4..=25))]
    size: Option<u8>,

    /// Boxes of R rows by C columns (R·C = N) instead of the default split.
    #[arg(long = "box", value_name = "RxC")]
    box_split: Option<String>,

    /// Irregular regions instead of boxes: a file (`-` for standard input) of N lines of N
    /// characters, or one line of N·N, each naming its cell's region; or `random` (with -c and -n),
    /// a layout drawn from the seed.
    #[arg(long, value_name = "LAYOUT")]
    jigsaw: Option<PathBuf>,

    /// Both main diagonals also hold every symbol once (X-Sudoku).
    #[arg(long)]
    diagonal: bool,

    /// The N symbols, in order (default: `1`-`9`, then `A`-`P`). Blanks are `.`, `-`, and `0`
    /// unless it is a symbol.
    #[arg(long, value_name = "STR")]
    symbols: Option<String>,
}

/// What a run was asked to do, with everything its job needs.
#[derive(Debug)]
pub enum Mode {
    /// `-c N`: distinct complete grids; with `classes`, no two equivalent.
    Generate {
        request: GridRequest,
        format: Format,
        classes: bool,
    },
    /// `-s FILE`: solve every puzzle, in `format` or the input's own.
    Solve {
        path: PathBuf,
        format: Option<Format>,
        unique: bool,
        column: Option<String>,
        /// The shape flags named the standard 9×9 shape: an input of another shape is malformed,
        /// not sent to the other shapes' job.
        standard_shape: bool,
    },
    /// `-n N`: puzzles with one solution.
    Puzzles(PuzzleRequest, OutputFormat),
    /// `--rate FILE`: rate every puzzle.
    Rate {
        path: PathBuf,
        column: Option<String>,
    },
    /// `--canon FILE`: the canonical form of every grid or puzzle.
    Canon {
        path: PathBuf,
        column: Option<String>,
    },
    /// `--shuffle FILE`: every grid or puzzle replaced by a random equivalent.
    Shuffle {
        path: PathBuf,
        seed: u64,
        format: Option<Format>,
    },
    /// `--check FILE`: check complete grids; with `classes`, that no two are equivalent.
    CheckGrids {
        paths: Vec<PathBuf>,
        rules: GridRules,
        corpus: CorpusRules,
        classes: bool,
        /// The shape flags named the standard 9×9 shape: an input of another shape is malformed,
        /// not sent to the other shapes' job.
        standard_shape: bool,
    },
    /// `--check FILE --puzzles PFILE`: check solutions against their puzzles; with `classes`, that
    /// no two puzzles are equivalent.
    CheckSolutions {
        path: PathBuf,
        puzzles: PathBuf,
        rules: GridRules,
        classes: bool,
        /// The shape flags named the standard 9×9 shape: an input of another shape is malformed,
        /// not sent to the other shapes' job.
        standard_shape: bool,
    },
    /// `--grade PROGRAM...`: the programs run through a plan; with `sheet`, the score sheet goes to
    /// the output.
    Grade { job: GradeJob, sheet: bool },
    /// `--print`: the text of a plan.
    PrintPlan(String),
    /// Any of -c, -s, -n and --check for a shape other than the standard 9×9 one.
    Shaped(Box<shaped::Job>),
}

/// A command line that cannot be run.
#[derive(Debug)]
enum UsageError {
    /// Options that do not go together, reported with the usage.
    Conflict(String),
    /// A file the command line names that cannot serve, reported alone: its message locates it.
    Unusable(String),
}

impl From<String> for UsageError {
    fn from(message: String) -> UsageError {
        UsageError::Conflict(message)
    }
}

/// A run as the command line asks for it.
pub struct Invocation {
    /// What to do.
    pub mode: Mode,
    /// Worker threads; the available cores when not given.
    pub threads: Option<usize>,
    /// The file `-o` names, if any (`-` is standard output).
    pub output: Option<PathBuf>,
}

/// How a run ended, when it ran to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finished {
    /// Every item done as asked.
    Clean,
    /// The output is complete, but some items had problems, reported on stderr or in the output.
    WithProblems,
}

impl Finished {
    fn from_problems(count: usize) -> Finished {
        if count == 0 {
            Finished::Clean
        } else {
            Finished::WithProblems
        }
    }
}

/// A positive number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 => {
            Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())
        }
        _ => Err("expected a positive number of seconds".to_owned()),
    }
}

/// The blank range the standard shape supports, as a usage message.
fn supported_blanks() -> String {
    format!(
        "expected LOW~HIGH with {} <= LOW <= HIGH <= {} (the blank counts supported)",
        dig::BLANKS.start(),
        dig::BLANKS.end()
    )
}

/// A blank range `LOW~HIGH` or `LOW-HIGH`, 1 <= LOW <= HIGH <= the cells of the largest shape;
/// each shape then checks it against its own supported range.
fn parse_blanks(text: &str) -> Result<(usize, usize), String> {
    parse_range(text, &(1..=shape::MAX_CELLS), "blank counts").map_err(|_| supported_blanks())
}

/// A guess range `LOW~HIGH` or `LOW-HIGH` inside the supported one.
fn parse_guesses(text: &str) -> Result<(usize, usize), String> {
    parse_range(text, &dig::GUESSES, "guess counts")
}

/// A range `LOW~HIGH` or `LOW-HIGH` inside `range`, the `what` supported.
fn parse_range(
    text: &str,
    range: &std::ops::RangeInclusive<usize>,
    what: &str,
) -> Result<(usize, usize), String> {
    let supported = format!(
        "expected LOW~HIGH with {} <= LOW <= HIGH <= {} (the {what} supported)",
        range.start(),
        range.end()
    );
    let (low, high) = text.split_once(['~', '-']).ok_or(supported.clone())?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    match (number(low), number(high)) {
        (Some(low), Some(high)) if low <= high && range.contains(&low) && range.contains(&high) => {
            Ok((low, high))
        }
        _ => Err(supported),
    }
}

/// A count of 1 to 1,000,000 written in decimal digits (leading zeros allowed).
fn parse_count(text: &str) -> Result<usize, String> {
    let range = format!("expected a whole number from 1 to {}", generate::MAX_GRIDS);
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(range);
    }
    let digits = text.trim_start_matches('0');
    match digits.parse::<usize>() {
        Ok(n) if digits.len() <= 7 && (1..=generate::MAX_GRIDS).contains(&n) => Ok(n),
        _ => Err(range),
    }
}

impl Cli {
    /// Parses the command line; on a usage error, reports it and exits with code 2.
    pub fn parse_invocation() -> Invocation {
        let cli = Cli::parse();
        if cli.quiet {
            progress::silence();
        }
        match cli.mode() {
            Ok(mode) => Invocation {
                mode,
                threads: cli.threads.map(usize::from),
                output: cli.output.clone(),
            },
            Err(UsageError::Conflict(message)) => Cli::command()
                .error(ErrorKind::ArgumentConflict, message)
                .exit(),
            Err(UsageError::Unusable(message)) => {
                eprintln!("{message}");
                std::process::exit(2)
            }
        }
    }

    /// The flag that names the mode asked for.
    fn mode_flag(&self) -> &'static str {
        if self.grid_count.is_some() {
            "-c"
        } else if self.solve.is_some() {
            "-s"
        } else if self.puzzle_count.is_some() {
            "-n"
        } else if self.rate.is_some() {
            "--rate"
        } else if self.canon.is_some() {
            "--canon"
        } else if self.shuffle.is_some() {
            "--shuffle"
        } else if self.grade.is_some() {
            "--grade"
        } else if self.print {
            "--print"
        } else {
            "--check"
        }
    }

    /// The mode asked for; an option that it does not take is a usage error.
    fn mode(&self) -> Result<Mode, UsageError> {
        let mode = self.mode_flag();
        let options = [
            ("--unique", self.require_unique, &["-s", "--check"][..]),
            (
                "--first",
                self.first.is_some(),
                &["-c", "--check", "--grade"],
            ),
            ("--plan", self.plan.is_some(), &["--grade", "--print"]),
            ("--timeout", self.timeout.is_some(), &["--grade"]),
            ("--seed", self.seed.is_some(), &["-c", "-n", "--shuffle"]),
            ("--classes", self.classes, &["-c", "-n", "--check"]),
            ("--shard", self.shard.is_some(), &["-c", "-n"]),
            ("--guesses", self.guesses.is_some(), &["-n"]),
            ("-m", self.level.is_some(), &["-n"]),
            ("-r", self.blanks.is_some(), &["-n"]),
            ("-u", self.homework_unique, &["-n"]),
            ("--minimal", self.minimal, &["-n"]),
            ("--symmetric", self.symmetric, &["-n"]),
            (
                "--format csv",
                self.format == Some(OutputFormat::Csv),
                &["-n"],
            ),
            ("--count", self.expected_grids.is_some(), &["--check"]),
            (
                "--column",
                self.column.is_some(),
                &["-s", "--rate", "--canon", "--check"],
            ),
            ("--puzzles", self.puzzles_file.is_some(), &["--check"]),
            (
                "--format",
                self.format.is_some(),
                &["-c", "-s", "-n", "--shuffle"],
            ),
            (
                "-o",
                self.output.is_some(),
                &[
                    "-c",
                    "-s",
                    "-n",
                    "--rate",
                    "--canon",
                    "--shuffle",
                    "--grade",
                ],
            ),
        ];
        if let Some((name, _, modes)) = options
            .iter()
            .find(|(_, given, modes)| *given && !modes.contains(&mode))
        {
            return Err(UsageError::Conflict(format!(
                "the argument '{name}' cannot be used with '{mode}' (only with {})",
                modes.join(", ")
            )));
        }
        if self.shard.is_some() && self.seed.is_none() {
            return Err(
                "'--shard' needs '--seed': only the shards of one seed share nothing"
                    .to_owned()
                    .into(),
            );
        }
        if self.shard.is_some() && self.classes && mode == "-c" {
            return Err("the argument '--shard' cannot be used with '-c --classes'"
                .to_owned()
                .into());
        }
        let standard_shape = match shaped::route(self, mode)? {
            shaped::Route::Other(job) => return Ok(Mode::Shaped(job)),
            shaped::Route::Standard => true,
            shaped::Route::Unspecified => false,
        };
        if let Some((low, high)) = self.blanks
            && !(dig::BLANKS.contains(&low) && dig::BLANKS.contains(&high))
        {
            return Err(format!("-r {low}~{high}: {}", supported_blanks()).into());
        }
        let seed = || self.seed.unwrap_or_else(rand::random);
        let text_format = || self.format.and_then(OutputFormat::text);
        Ok(if let Some(count) = self.grid_count {
            let request = GridRequest {
                count,
                seed: seed(),
                first: self.first,
                shard: self.shard,
            };
            Mode::Generate {
                request,
                format: text_format().unwrap_or(Format::Grid),
                classes: self.classes,
            }
        } else if let Some(path) = &self.solve {
            Mode::Solve {
                path: path.clone(),
                format: text_format(),
                unique: self.require_unique,
                column: self.column.clone(),
                standard_shape,
            }
        } else if let Some(count) = self.puzzle_count {
            let level = self.level.and_then(Level::from_number);
            let blanks = self.blanks.map(|(low, high)| low..=high);
            let guesses = self.guesses.map(|(low, high)| low..=high);
            if let Some(guesses) = &guesses {
                dig::check_guesses_reachable(guesses, level, blanks.as_ref())?;
            }
            dig::check_reachable(level, self.minimal, self.symmetric, blanks.as_ref())?;
            let format = self.format.unwrap_or(OutputFormat::Grid);
            let request = PuzzleRequest {
                count,
                seed: seed(),
                blanks,
                level,
                with_levels: format == OutputFormat::Csv,
                minimal: self.minimal,
                symmetric: self.symmetric,
                guesses,
                classes: self.classes,
                shard: self.shard,
            };
            Mode::Puzzles(request, format)
        } else if let Some(path) = &self.rate {
            Mode::Rate {
                path: path.clone(),
                column: self.column.clone(),
            }
        } else if let Some(path) = &self.canon {
            Mode::Canon {
                path: path.clone(),
                column: self.column.clone(),
            }
        } else if let Some(path) = &self.shuffle {
            Mode::Shuffle {
                path: path.clone(),
                seed: seed(),
                format: text_format(),
            }
        } else if let Some(programs) = &self.grade {
            let request = GradeRequest {
                programs: programs.clone(),
                plan: self.plan(),
                first: self.first,
                timeout: self.timeout,
            };
            let job = request
                .prepare()
                .map_err(|e| UsageError::Unusable(e.to_string()))?;
            Mode::Grade {
                job,
                sheet: self.output.is_some(),
            }
        } else if self.print {
            let (_, text) =
                Plan::load(&self.plan()).map_err(|e| UsageError::Unusable(e.to_string()))?;
            Mode::PrintPlan(text)
        } else {
            let paths = self.check.clone().unwrap_or_default();
            if paths.iter().filter(|p| *p == Path::new("-")).count() > 1 {
                return Err(UsageError::Conflict(
                    "standard input ('-') can be checked once".to_owned(),
                ));
            }
            if paths.len() > 1 && (self.puzzles_file.is_some() || self.classes) {
                return Err(UsageError::Conflict(
                    "--puzzles and --classes check one file at a time".to_owned(),
                ));
            }
            let rules = GridRules {
                count: self.expected_grids,
                first: self.first,
            };
            match &self.puzzles_file {
                Some(puzzles) if puzzles == Path::new("-") && paths[0] == Path::new("-") => {
                    return Err(UsageError::Conflict(
                        "'--check -' and '--puzzles -' cannot both read standard input".to_owned(),
                    ));
                }
                Some(puzzles) => Mode::CheckSolutions {
                    path: paths[0].clone(),
                    puzzles: puzzles.clone(),
                    rules,
                    classes: self.classes,
                    standard_shape,
                },
                None => Mode::CheckGrids {
                    paths,
                    rules,
                    corpus: CorpusRules {
                        column: self.column.clone(),
                        unique: self.require_unique,
                    },
                    classes: self.classes,
                    standard_shape,
                },
            }
        })
    }
}

impl Cli {
    /// The plan --plan names, `basic` by default.
    fn plan(&self) -> String {
        self.plan.clone().unwrap_or_else(|| "basic".to_owned())
    }
}

/// Whether an input that starts with `start` holds grids of another shape than 9×9 (a CSV corpus
/// is 9×9).
fn is_other_shape(start: &[u8]) -> bool {
    detect_header(start, None).is_none() && shaped::is_other_shape(start)
}

/// How much of an input tells its shape (the first block of a 25×25 grid is about 1.3 KB).
const PEEK: usize = 64 << 10;

/// Runs the invocation's mode on a pool of its threads, writing its output where it asks.
pub fn run(invocation: Invocation) -> Result<Finished, Error> {
    // Before the work, so that an output that cannot be written costs no time.
    let destination = Destination::prepare(invocation.output.as_deref())?;
    // This thread is one of the pool's: `-j 1` starts no other.
    let mut pool = rayon::ThreadPoolBuilder::new().use_current_thread();
    if let Some(threads) = invocation.threads {
        pool = pool.num_threads(threads);
    }
    let pool = pool
        .build()
        .map_err(|e| Error::io("thread pool", std::io::Error::other(e)))?;
    pool.install(|| run_mode(invocation.mode, destination))
}

fn run_mode(mode: Mode, destination: Destination) -> Result<Finished, Error> {
    match mode {
        Mode::Generate {
            request,
            format,
            classes,
        } => {
            let text = if classes {
                classes::render_classes(&request, format)
            } else {
                generate::render_grids(&request, format)?
            };
            destination.write(&text)?;
            Ok(Finished::Clean)
        }
        Mode::Solve {
            path,
            format,
            unique,
            column,
            standard_shape,
        } => {
            let rules = BatchRules {
                separated: Box::new(move |input| format.unwrap_or(input) == Format::Grid),
                column,
                row_result: RowResult::Solution,
                result_header: b"",
            };
            let mut pieces = open_pieces(&path)?;
            let start = pieces.peek(PEEK)?;
            if let Some(job) = shaped::for_input(&start, &path, format, unique)
                .filter(|_| !standard_shape && detect_header(&start, None).is_none())
            {
                return shaped::run(job, Some(&pieces.read_whole()?), destination);
            }
            run_on_puzzles(pieces, destination, &rules, |puzzles, piece| {
                let format = match format {
                    _ if piece.csv => Format::Line,
                    Some(format) => format,
                    None => piece.format,
                };
                solve_batch(puzzles, unique, format)
            })
        }
        Mode::Puzzles(request, format) => {
            let progress = Progress::new(request.count, "puzzles");
            let puzzles = dig::generate_puzzles(&request, &|| progress.advance());
            progress.finish();
            destination.write(&dig::render_puzzles(&puzzles, format))?;
            Ok(Finished::Clean)
        }
        Mode::Rate { path, column } => {
            let rules = BatchRules {
                separated: Box::new(|_| false),
                column,
                row_result: RowResult::Appended,
                result_header: rate::HEADER,
            };
            run_on_puzzles(
                open_pieces(&path)?,
                destination,
                &rules,
                |puzzles, piece| rate_file(puzzles, piece.first && !piece.csv),
            )
        }
        Mode::Canon { path, column } => {
            let rules = BatchRules {
                separated: Box::new(|_| false),
                column,
                row_result: RowResult::Column("canon"),
                result_header: b"",
            };
            run_on_puzzles(open_pieces(&path)?, destination, &rules, |puzzles, _| {
                BatchOutput {
                    text: classes::render_canonical_forms(&puzzles.grids),
                    problems: Problems::new(),
                }
            })
        }
        Mode::Shuffle { path, seed, format } => {
            match shuffle::shuffle_text(&read_source(&path)?, seed, format) {
                Ok(text) => {
                    destination.write(&text)?;
                    Ok(Finished::Clean)
                }
                Err(errors) => {
                    report_parse_errors(&source_name(&path), &errors);
                    Ok(Finished::WithProblems)
                }
            }
        }
        Mode::CheckGrids {
            paths,
            rules,
            classes: true,
            ..
        } => {
            let text = read_source(&paths[0])?;
            let mut report = check::check_grids(&text, rules);
            classes::check_classes(&mut report, &text, None);
            finish_check(&report, &paths[0])
        }
        Mode::CheckGrids {
            paths,
            rules,
            corpus,
            standard_shape,
            ..
        } => {
            let mut inputs = paths
                .iter()
                .map(|path| open_pieces(path))
                .collect::<Result<Vec<_>, Error>>()?;
            if let [input] = &mut inputs[..]
                && !standard_shape
                && is_other_shape(&input.peek(PEEK)?)
            {
                let text = inputs.remove(0).read_whole()?;
                let job = shaped::Job::check(paths[0].clone(), None, rules);
                return shaped::run(job, Some(&text), destination);
            }
            let bytes = inputs.iter().map(|input| input.file_len()).sum();
            let mut progress = InputProgress::new(bytes, "grids");
            let reports = check::check_grid_files(inputs, rules, &corpus, |items, bytes| {
                progress.advance(items, bytes)
            })?;
            progress.finish();
            Destination::Stdout.write(check::files_text(&reports).as_bytes())?;
            let problems = reports.iter().map(|(_, r)| r.problems.count()).sum();
            Ok(Finished::from_problems(problems))
        }
        Mode::CheckSolutions {
            path,
            puzzles,
            rules,
            classes,
            standard_shape,
        } => {
            let mut solutions = open_pieces(&path)?;
            if !standard_shape && is_other_shape(&solutions.peek(PEEK)?) {
                let text = solutions.read_whole()?;
                let job = shaped::Job::check(path, Some(puzzles), rules);
                return shaped::run(job, Some(&text), destination);
            }
            let checked = if classes {
                // Classes compare puzzles with every other: both files are read whole.
                let text = read_source(&path)?;
                let puzzle_text = read_source(&puzzles)?;
                check::check_solutions(&text, &puzzle_text, rules).map(|mut report| {
                    let name = source_name(&puzzles);
                    classes::check_classes(&mut report, &text, Some((&puzzle_text, &name)));
                    report
                })
            } else {
                let mut progress = InputProgress::new(solutions.file_len(), "solutions");
                let checked = check::check_solution_files(
                    solutions,
                    open_pieces(&puzzles)?,
                    rules,
                    |items, bytes| progress.advance(items, bytes),
                )?;
                progress.finish();
                checked
            };
            match checked {
                Ok(report) => finish_check(&report, &path),
                Err(errors) => {
                    report_parse_errors(&source_name(&puzzles), &errors);
                    Ok(Finished::WithProblems)
                }
            }
        }
        Mode::Grade { job, sheet } => {
            let grading = grade::grade(&job)?;
            Destination::Stdout.write(grading.render_text().as_bytes())?;
            if sheet {
                destination.write(&grading.render_csv())?;
            }
            Ok(Finished::from_problems(usize::from(!grading.passed())))
        }
        Mode::Shaped(job) => shaped::run(*job, None, destination),
        Mode::PrintPlan(text) => {
            destination.write(text.as_bytes())?;
            Ok(Finished::Clean)
        }
    }
}

/// Reads the puzzles of `path` a piece at a time, runs `job` on each, writes its text and reports
/// the problems on stderr. Malformed puzzles are reported instead; the output then stays
/// unwritten unless it had grown past what is held back (see [`sudoku_gen::io::output::HELD`]).
fn run_on_puzzles(
    mut pieces: Pieces,
    destination: Destination,
    rules: &BatchRules,
    job: impl FnMut(&Puzzles, PieceInfo) -> BatchOutput,
) -> Result<Finished, Error> {
    let name = pieces.name().to_owned();
    let mut progress = InputProgress::new(pieces.file_len(), "puzzles");
    let mut output = destination.into_stream();
    let end = run_batch(
        &mut pieces,
        rules,
        job,
        |bytes| {
            output.write(bytes)?;
            Ok(!output.is_closed())
        },
        |items, bytes| progress.advance(items, bytes),
    )?;
    progress.finish();
    match end {
        BatchEnd::Done(problems) => {
            output.finish()?;
            for line in problems.lines(|problem| problem.line_in(&name)) {
                eprintln!("{line}");
            }
            Ok(Finished::from_problems(problems.count()))
        }
        BatchEnd::Malformed(errors) => {
            report_parse_errors(&name, &errors);
            if output.has_written() {
                eprintln!(
                    "sudoku-gen: the results of the puzzles before the first malformed piece of \
                     {name} were written"
                );
            }
            Ok(Finished::WithProblems)
        }
    }
}

fn report_parse_errors(name: &str, errors: &ParseErrors) {
    for line in errors.lines(|error| error.line_in(name)) {
        eprintln!("{line}");
    }
}

/// Writes the report of a check of `path` on standard output.
fn finish_check(report: &check::Report, path: &Path) -> Result<Finished, Error> {
    Destination::Stdout.write(report.text(&source_name(path)).as_bytes())?;
    Ok(Finished::from_problems(report.problems.count()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn count_accepts_only_plain_decimal_in_range() {
        assert_eq!(parse_count("1"), Ok(1));
        assert_eq!(parse_count("0001000000"), Ok(1_000_000));
        for bad in [
            "",
            "0",
            "000",
            "1000001",
            "+5",
            "-5",
            "abc",
            "1.5",
            "1e3",
            " 5",
            "5 ",
            "99999999999999999999999",
        ] {
            assert!(parse_count(bad).is_err(), "{bad:?}");
        }
    }
}
