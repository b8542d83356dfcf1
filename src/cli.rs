//! The command line: its arguments, the mode they ask for, and the library call each mode makes.

mod shaped;

use std::path::{Path, PathBuf};

use clap::error::ErrorKind;
use clap::{ArgGroup, CommandFactory, Parser};

use sudoku_gen::batch::{BatchOutput, solve_batch};
use sudoku_gen::check::{self, GridRules};
use sudoku_gen::format::{Format, OutputFormat};
use sudoku_gen::input::{read_source, source_name};
use sudoku_gen::output::Destination;
use sudoku_gen::parse::{ParseErrors, Puzzles, parse_puzzles};
use sudoku_gen::progress::Progress;
use sudoku_gen::puzzle::{self, PuzzleRequest};
use sudoku_gen::rate::{Level, rate_file};
use sudoku_gen::{Error, GridRequest, generate, shape};

/// Bulk Sudoku: distinct complete grids and puzzle solving, fast.
#[derive(Debug, Parser)]
#[command(name = "sudoku-gen", version, about, max_term_width = 100)]
#[command(group(ArgGroup::new("mode").required(true).args(["grid_count", "solve", "check", "puzzle_count", "rate"])))]
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
    /// `puzzle,level,singles,locked,pairs_triples,harder` each.
    #[arg(long, value_name = "FILE")]
    rate: Option<PathBuf>,

    /// Check FILE (`-` for standard input): complete grids in either -c format, every grid valid and
    /// none repeated; or, with --puzzles, solutions of the puzzles of PFILE.
    #[arg(long, value_name = "FILE")]
    check: Option<PathBuf>,

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
    #[arg(long = "unique")]
    require_unique: bool,

    /// With -c or --check (with or without --puzzles): every grid has digit D in its top-left cell
    /// (1 to 9).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(1..=9))]
    first: Option<u8>,

    /// Seed for a byte-identical output on every run and for every thread count; random without it.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,

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
    /// `-c N`: distinct complete grids.
    Generate(GridRequest, Format),
    /// `-s FILE`: solve every puzzle, in `format` or the input's own.
    Solve {
        path: PathBuf,
        format: Option<Format>,
        unique: bool,
    },
    /// `-n N`: puzzles with one solution.
    Puzzles(PuzzleRequest, OutputFormat),
    /// `--rate FILE`: rate every puzzle.
    Rate(PathBuf),
    /// `--check FILE`: check complete grids.
    CheckGrids(PathBuf, GridRules),
    /// `--check FILE --puzzles PFILE`: check solutions against their puzzles.
    CheckSolutions {
        path: PathBuf,
        puzzles: PathBuf,
        rules: GridRules,
    },
    /// Any mode for a shape other than the standard 9×9 one.
    Shaped(Box<shaped::Job>),
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

/// The blank range the standard shape supports, as a usage message.
fn supported_blanks() -> String {
    format!(
        "expected LOW~HIGH with {} <= LOW <= HIGH <= {} (the blank counts supported)",
        puzzle::BLANKS.start(),
        puzzle::BLANKS.end()
    )
}

/// A blank range `LOW~HIGH` or `LOW-HIGH`, 1 <= LOW <= HIGH <= the cells of the largest shape;
/// each shape then checks it against its own supported range.
fn parse_blanks(text: &str) -> Result<(usize, usize), String> {
    let (low, high) = text.split_once(['~', '-']).ok_or_else(supported_blanks)?;
    let number = |s: &str| {
        (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    match (number(low), number(high)) {
        (Some(low), Some(high)) if 1 <= low && low <= high && high <= shape::MAX_CELLS => {
            Ok((low, high))
        }
        _ => Err(supported_blanks()),
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
        match cli.mode() {
            Ok(mode) => Invocation {
                mode,
                threads: cli.threads.map(usize::from),
                output: cli.output.clone(),
            },
            Err(message) => Cli::command()
                .error(ErrorKind::ArgumentConflict, message)
                .exit(),
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
        } else {
            "--check"
        }
    }

    /// The mode asked for; an option that it does not take is a usage error.
    fn mode(&self) -> Result<Mode, String> {
        let mode = self.mode_flag();
        let options = [
            ("--unique", self.require_unique, &["-s"][..]),
            ("--first", self.first.is_some(), &["-c", "--check"]),
            ("--seed", self.seed.is_some(), &["-c", "-n"]),
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
            ("--puzzles", self.puzzles_file.is_some(), &["--check"]),
            ("--format", self.format.is_some(), &["-c", "-s", "-n"]),
            ("-o", self.output.is_some(), &["-c", "-s", "-n", "--rate"]),
        ];
        if let Some((name, _, modes)) = options
            .iter()
            .find(|(_, given, modes)| *given && !modes.contains(&mode))
        {
            return Err(format!(
                "the argument '{name}' cannot be used with '{mode}' (only with {})",
                modes.join(", ")
            ));
        }
        if let Some(job) = shaped::job(self, mode)? {
            return Ok(Mode::Shaped(Box::new(job)));
        }
        if let Some((low, high)) = self.blanks
            && !(puzzle::BLANKS.contains(&low) && puzzle::BLANKS.contains(&high))
        {
            return Err(format!("-r {low}~{high}: {}", supported_blanks()));
        }
        let seed = || self.seed.unwrap_or_else(rand::random);
        let text_format = || self.format.and_then(OutputFormat::text);
        Ok(if let Some(count) = self.grid_count {
            let request = GridRequest {
                count,
                seed: seed(),
                first: self.first,
            };
            Mode::Generate(request, text_format().unwrap_or(Format::Grid))
        } else if let Some(path) = &self.solve {
            Mode::Solve {
                path: path.clone(),
                format: text_format(),
                unique: self.require_unique,
            }
        } else if let Some(count) = self.puzzle_count {
            let level = self.level.and_then(Level::from_number);
            let blanks = self.blanks.map(|(low, high)| low..=high);
            puzzle::check_reachable(level, self.minimal, self.symmetric, blanks.as_ref())?;
            let format = self.format.unwrap_or(OutputFormat::Grid);
            let request = PuzzleRequest {
                count,
                seed: seed(),
                blanks,
                level,
                with_levels: format == OutputFormat::Csv,
                minimal: self.minimal,
                symmetric: self.symmetric,
            };
            Mode::Puzzles(request, format)
        } else if let Some(path) = &self.rate {
            Mode::Rate(path.clone())
        } else {
            let path = self.check.clone().unwrap_or_default();
            let rules = GridRules {
                count: self.expected_grids,
                first: self.first,
            };
            match &self.puzzles_file {
                Some(puzzles) if puzzles == Path::new("-") && path == Path::new("-") => {
                    return Err(
                        "'--check -' and '--puzzles -' cannot both read standard input".to_owned(),
                    );
                }
                Some(puzzles) => Mode::CheckSolutions {
                    path,
                    puzzles: puzzles.clone(),
                    rules,
                },
                None => Mode::CheckGrids(path, rules),
            }
        })
    }
}

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
        Mode::Generate(request, format) => {
            destination.write(&generate::render_grids(&request, format))?;
            Ok(Finished::Clean)
        }
        Mode::Solve {
            path,
            format,
            unique,
        } => {
            let text = read_source(&path)?;
            if let Some(job) = shaped::for_input(&text, &path, format, unique) {
                return shaped::run(job, Some(&text), destination);
            }
            run_on_puzzles(&path, &text, destination, |puzzles| {
                solve_batch(puzzles, unique, format.unwrap_or(puzzles.format))
            })
        }
        Mode::Puzzles(request, format) => {
            let progress = Progress::new(request.count, "puzzles");
            let puzzles = puzzle::generate_puzzles(&request, &|| progress.advance());
            progress.finish();
            destination.write(&puzzle::render_puzzles(&puzzles, format))?;
            Ok(Finished::Clean)
        }
        Mode::Rate(path) => run_on_puzzles(&path, &read_source(&path)?, destination, rate_file),
        Mode::Shaped(job) => shaped::run(*job, None, destination),
        Mode::CheckGrids(path, rules) => {
            let text = read_source(&path)?;
            if shaped::is_other_shape(&text) {
                return shaped::run(
                    shaped::Job::check(path, None, rules),
                    Some(&text),
                    destination,
                );
            }
            finish_check(&check::check_grids(&text, rules), &path)
        }
        Mode::CheckSolutions {
            path,
            puzzles,
            rules,
        } => {
            let text = read_source(&path)?;
            if shaped::is_other_shape(&text) {
                let job = shaped::Job::check(path, Some(puzzles), rules);
                return shaped::run(job, Some(&text), destination);
            }
            match check::check_solutions(&text, &read_source(&puzzles)?, rules) {
                Ok(report) => finish_check(&report, &path),
                Err(errors) => {
                    report_parse_errors(&source_name(&puzzles), &errors);
                    Ok(Finished::WithProblems)
                }
            }
        }
    }
}

/// Reads the puzzles of `text` (read from `path`), runs `job` on them, writes its text and reports
/// its problems on stderr; malformed puzzles are reported instead, and nothing is written.
fn run_on_puzzles(
    path: &Path,
    text: &[u8],
    destination: Destination,
    job: impl FnOnce(&Puzzles) -> BatchOutput,
) -> Result<Finished, Error> {
    let name = source_name(path);
    let puzzles = match parse_puzzles(text) {
        Ok(puzzles) => puzzles,
        Err(errors) => {
            report_parse_errors(&name, &errors);
            return Ok(Finished::WithProblems);
        }
    };
    let output = job(&puzzles);
    destination.write(&output.text)?;
    for line in output.problems.lines(|problem| problem.line_in(&name)) {
        eprintln!("{line}");
    }
    Ok(Finished::from_problems(output.problems.count()))
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
