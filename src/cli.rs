//! The command line: its arguments, and which library call each mode makes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use std::io::IsTerminal;

use clap::error::ErrorKind;
use clap::{ArgGroup, CommandFactory, Parser, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use sudoku_gen::Solver;
use sudoku_gen::check::{self, GridRules};
use sudoku_gen::error::LISTED_PROBLEMS;
use sudoku_gen::format::{
    ParseErrors, Puzzles, parse_puzzles, push_line, read_source, source_name,
};
use sudoku_gen::grade::{self, GradeError, GradeRequest};
use sudoku_gen::output::{Destination, write_output};
use sudoku_gen::plan::Plan;
use sudoku_gen::puzzle::{self, PuzzleRequest};
use sudoku_gen::rate::{Level, Rating, rate_with};
use sudoku_gen::{Error, Failure, Format, GridRequest, generate, solve_batch};

/// Bulk Sudoku: distinct complete grids and puzzle solving, fast.
#[derive(Debug, Parser)]
#[command(name = "sudoku-gen", version, about, max_term_width = 100)]
#[command(group(ArgGroup::new("mode").required(true).args(["count", "solve", "check", "puzzles_count", "rate", "grade", "print"])))]
pub struct Cli {
    /// Print N distinct complete grids (1 to 1000000).
    #[arg(short = 'c', value_name = "N", value_parser = parse_count)]
    pub count: Option<usize>,

    /// Solve every puzzle of FILE (`-` for standard input), in the line or grid format.
    #[arg(short = 's', value_name = "FILE")]
    pub solve: Option<PathBuf>,

    /// Make N puzzles with exactly one solution (1 to 1000000).
    #[arg(short = 'n', value_name = "N", value_parser = parse_count)]
    pub puzzles_count: Option<usize>,

    /// With -n: the difficulty, 1 (singles suffice), 2 (locked candidates, pairs or triples needed)
    /// or 3 (harder techniques needed). Default: any.
    #[arg(short = 'm', value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(1..=3))]
    pub level: Option<u8>,

    /// With -n: the number of blank cells lies in LOW~HIGH (or LOW-HIGH), within 1~58. Default:
    /// minimal puzzles, whatever their blank count.
    #[arg(short = 'r', value_name = "LOW~HIGH", value_parser = parse_blanks)]
    pub blanks: Option<(usize, usize)>,

    /// With -n: accepted for the homework's command lines; every puzzle has one solution anyway.
    #[arg(short = 'u')]
    pub unique_flag: bool,

    /// With -n: removing any given leaves more than one solution.
    #[arg(long)]
    pub minimal: bool,

    /// With -n: the givens are symmetric under a half turn.
    #[arg(long)]
    pub symmetric: bool,

    /// Rate every puzzle of FILE (`-` for standard input): a CSV row
    /// `puzzle,level,singles,locked,pairs_triples,harder` each.
    #[arg(long, value_name = "FILE")]
    pub rate: Option<PathBuf>,

    /// Check FILE (`-` for standard input): complete grids in either -c format, every grid valid and
    /// none repeated; or, with --puzzles, solutions of the puzzles of PFILE.
    #[arg(long, value_name = "FILE")]
    pub check: Option<PathBuf>,

    /// Grade homework submissions: run each PROGRAM (a folder: every executable file in it) through
    /// the cases of --plan, with this tool as the oracle; a report per program on stdout, and with
    /// -o the score sheet (CSV).
    #[arg(long, value_name = "PROGRAM", num_args = 1..)]
    pub grade: Option<Vec<PathBuf>>,

    /// With --grade or --print: `basic` (the individual project), `pair` (adds the -n cases) or a
    /// TOML plan file. Default: basic.
    #[arg(long, value_name = "PLAN")]
    pub plan: Option<String>,

    /// Print the plan named by --plan (default basic), in the TOML format plan files use.
    #[arg(long)]
    pub print: bool,

    /// With --grade: the wall-clock limit of every case in seconds, instead of the plan's.
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,

    /// With --check: the file must hold exactly N grids.
    #[arg(long = "count", value_name = "N")]
    pub expected_count: Option<usize>,

    /// With --check: FILE holds one solution per puzzle of PFILE, in order.
    #[arg(long, value_name = "PFILE")]
    pub puzzles: Option<PathBuf>,

    /// Output format: `grid` (9 lines of 9 digits, grids separated by an empty line), `line` (81
    /// characters a line) or, with -n, `csv`. Default: `grid` for -c and -n, the input's format for -s.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<OutputFormat>,

    /// With -s: a puzzle with more than one solution is an error (one solution is still written).
    #[arg(long)]
    pub unique: bool,

    /// With -c, --check or --grade: every grid has digit D in its top-left cell (1 to 9).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(1..=9))]
    pub first: Option<u8>,

    /// Seed for a byte-identical output on every run and for every thread count; random without it.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Worker threads (default: the available cores); changes the speed, never the output.
    #[arg(short = 'j', value_name = "THREADS", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,

    /// Write FILE instead of standard output, atomically: FILE is replaced only by a complete output.
    #[arg(short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The text form of the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// 9 lines of 9 space-separated digits; an empty line between grids.
    Grid,
    /// 81 characters a line.
    Line,
    /// With -n: `puzzle,solution,blanks,level` rows under that header.
    Csv,
}

impl OutputFormat {
    /// The grid text format, `None` for csv.
    fn text(self) -> Option<Format> {
        match self {
            OutputFormat::Grid => Some(Format::Grid),
            OutputFormat::Line => Some(Format::Line),
            OutputFormat::Csv => None,
        }
    }
}

/// A blank range `LOW~HIGH` or `LOW-HIGH` inside the supported one.
fn parse_blanks(text: &str) -> Result<(usize, usize), String> {
    let supported = format!(
        "expected LOW~HIGH with {} <= LOW <= HIGH <= {} (the blank counts supported)",
        puzzle::BLANKS.start(),
        puzzle::BLANKS.end()
    );
    let (low, high) = text.split_once(['~', '-']).ok_or(supported.clone())?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    match (number(low), number(high)) {
        (Some(low), Some(high))
            if low <= high && puzzle::BLANKS.contains(&low) && puzzle::BLANKS.contains(&high) =>
        {
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

/// A positive number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 => {
            Duration::try_from_secs_f64(seconds).map_err(|e| e.to_string())
        }
        _ => Err("expected a positive number of seconds".to_owned()),
    }
}

/// The puzzles of `path`; `None` once their problems are reported (`FILE:LINE:COLUMN: what`).
fn read_puzzles(path: &Path) -> Result<Option<Puzzles>, Error> {
    let text = read_source(path)?;
    match parse_puzzles(&text) {
        Ok(puzzles) => Ok(Some(puzzles)),
        Err(errors) => {
            report_parse_errors(path, &errors);
            Ok(None)
        }
    }
}

/// Prints problems of puzzles (index, what) as `FILE: puzzle K (line L): what`; exit code 1 if any.
fn report_puzzles(name: &str, lines: &[usize], problems: Vec<(usize, String)>) -> ExitCode {
    let failed = !problems.is_empty();
    let total = problems.len();
    report(
        problems
            .into_iter()
            .map(|(k, what)| format!("{name}: puzzle {} (line {}): {what}", k + 1, lines[k])),
        total,
    );
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints the problems of a puzzle file as `FILE:LINE:COLUMN: what`.
fn report_parse_errors(path: &Path, errors: &ParseErrors) {
    let name = source_name(path);
    report(
        errors
            .listed
            .iter()
            .map(|e| format!("{name}:{}:{}: {}", e.line, e.column, e.message)),
        errors.count,
    );
}

/// Prints problems on stderr, at most [`LISTED_PROBLEMS`] of them, then how many more of `total`
/// there were.
fn report(problems: impl Iterator<Item = String>, total: usize) {
    let mut listed = 0;
    for problem in problems.take(LISTED_PROBLEMS) {
        eprintln!("{problem}");
        listed += 1;
    }
    if total > listed {
        eprintln!("... and {} more", total - listed);
    }
}

impl Cli {
    /// Parses the command line; on a usage error, reports it and exits with code 2.
    pub fn parse_checked() -> Cli {
        let cli = Cli::parse();
        if let Err(message) = cli.check_options() {
            Cli::command()
                .error(ErrorKind::ArgumentConflict, message)
                .exit();
        }
        cli
    }

    /// Rejects options that the chosen mode does not take.
    fn check_options(&self) -> Result<(), String> {
        let mode = if self.count.is_some() {
            "-c"
        } else if self.solve.is_some() {
            "-s"
        } else if self.puzzles_count.is_some() {
            "-n"
        } else if self.rate.is_some() {
            "--rate"
        } else if self.grade.is_some() {
            "--grade"
        } else if self.print {
            "--print"
        } else {
            "--check"
        };
        let takes = |modes: &[&str]| modes.contains(&mode);
        let options = [
            ("--unique", self.unique, &["-s"][..]),
            (
                "--first",
                self.first.is_some(),
                &["-c", "--check", "--grade"],
            ),
            ("--plan", self.plan.is_some(), &["--grade", "--print"]),
            ("--timeout", self.timeout.is_some(), &["--grade"]),
            ("--seed", self.seed.is_some(), &["-c", "-n"]),
            ("-m", self.level.is_some(), &["-n"]),
            ("-r", self.blanks.is_some(), &["-n"]),
            ("-u", self.unique_flag, &["-n"]),
            ("--minimal", self.minimal, &["-n"]),
            ("--symmetric", self.symmetric, &["-n"]),
            (
                "--format csv",
                self.format == Some(OutputFormat::Csv),
                &["-n"],
            ),
            ("--count", self.expected_count.is_some(), &["--check"]),
            ("--puzzles", self.puzzles.is_some(), &["--check"]),
            (
                "--puzzles with --count or --first",
                self.puzzles.is_some() && (self.expected_count.is_some() || self.first.is_some()),
                &[],
            ),
            ("--format", self.format.is_some(), &["-c", "-s", "-n"]),
            (
                "-o",
                self.output.is_some(),
                &["-c", "-s", "-n", "--rate", "--grade"],
            ),
        ];
        if let Some((name, _, modes)) = options
            .iter()
            .find(|(_, given, modes)| *given && !takes(modes))
        {
            return Err(format!(
                "the argument '{name}' cannot be used with '{mode}' (only with {})",
                modes.join(", ")
            ));
        }
        if mode == "-n" {
            let blanks = self.blanks.map(|(low, high)| low..=high);
            puzzle::check_reachable(
                self.level.and_then(Level::from_number),
                self.minimal,
                self.symmetric,
                blanks.as_ref(),
            )?;
        }
        Ok(())
    }

    /// Runs the chosen mode on a pool of the requested size.
    pub fn run(self) -> Result<ExitCode, Error> {
        // This thread is one of the pool's: `-j 1` starts no other, which saves a run on a small
        // file a tenth of its time.
        let mut pool = rayon::ThreadPoolBuilder::new().use_current_thread();
        if let Some(threads) = self.threads {
            pool = pool.num_threads(usize::from(threads));
        }
        let pool = pool
            .build()
            .map_err(|e| Error::io("thread pool", std::io::Error::other(e)))?;
        pool.install(|| self.run_mode())
    }

    fn destination(&self) -> Destination {
        match &self.output {
            Some(path) => Destination::File(path.clone()),
            None => Destination::Stdout,
        }
    }

    fn run_mode(&self) -> Result<ExitCode, Error> {
        if let Some(count) = self.count {
            self.run_generate(count)
        } else if let Some(path) = &self.solve {
            self.run_solve(path)
        } else if let Some(count) = self.puzzles_count {
            self.run_puzzles(count)
        } else if let Some(path) = &self.rate {
            self.run_rate(path)
        } else if let Some(programs) = &self.grade {
            self.run_grade(programs)
        } else if self.print {
            self.run_print_plan()
        } else {
            self.run_check(self.check.as_deref().expect("clap requires a mode"))
        }
    }

    fn run_generate(&self, count: usize) -> Result<ExitCode, Error> {
        let request = GridRequest {
            count,
            seed: self.seed.unwrap_or_else(rand::random),
            first: self.first,
        };
        let format = self
            .format
            .and_then(OutputFormat::text)
            .unwrap_or(Format::Grid);
        let bytes = generate::render_grids(&request, format);
        write_output(&self.destination(), &bytes)?;
        Ok(ExitCode::SUCCESS)
    }

    fn run_solve(&self, path: &Path) -> Result<ExitCode, Error> {
        let name = source_name(path);
        let Some(puzzles) = read_puzzles(path)? else {
            return Ok(ExitCode::FAILURE);
        };
        let format = self
            .format
            .and_then(OutputFormat::text)
            .unwrap_or(puzzles.format);
        let (bytes, failures) = solve_batch(&puzzles.grids, self.unique, format);
        write_output(&self.destination(), &bytes)?;
        let problems = failures.iter().map(|&(index, failure)| {
            let what = match failure {
                Failure::NoSolution => match puzzles.grids[index].first_repeat() {
                    Some((digit, house)) => {
                        format!("no solution: digit {digit} repeats in {house}")
                    }
                    None => "no solution".to_owned(),
                },
                Failure::MoreThanOneSolution => "more than one solution".to_owned(),
            };
            (index, what)
        });
        Ok(report_puzzles(&name, &puzzles.lines, problems.collect()))
    }

    fn run_puzzles(&self, count: usize) -> Result<ExitCode, Error> {
        let request = PuzzleRequest {
            count,
            seed: self.seed.unwrap_or_else(rand::random),
            blanks: self.blanks.map(|(low, high)| low..=high),
            level: self.level.and_then(Level::from_number),
            with_levels: self.format == Some(OutputFormat::Csv),
            minimal: self.minimal,
            symmetric: self.symmetric,
        };
        // A bar only where a person watches, and only for runs long enough to want one.
        let bar = (std::io::stderr().is_terminal() && count >= 2000).then(|| {
            let bar = ProgressBar::new(count as u64);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {per_sec}, {eta} left")
                    .expect("a valid template"),
            );
            bar
        });
        let puzzles = puzzle::generate_puzzles(&request, &|| {
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        });
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let format = self.format.unwrap_or(OutputFormat::Grid).text();
        write_output(
            &self.destination(),
            &puzzle::render_puzzles(&puzzles, format),
        )?;
        Ok(ExitCode::SUCCESS)
    }

    fn run_rate(&self, path: &Path) -> Result<ExitCode, Error> {
        let name = source_name(path);
        let Some(puzzles) = read_puzzles(path)? else {
            return Ok(ExitCode::FAILURE);
        };
        let ratings: Vec<Option<Rating>> = puzzles
            .grids
            .par_iter()
            .map_init(Solver::new, rate_with)
            .collect();
        let mut out = b"puzzle,level,singles,locked,pairs_triples,harder\n".to_vec();
        for (grid, rating) in puzzles.grids.iter().zip(&ratings) {
            push_line(&mut out, grid);
            match rating {
                Some(r) => {
                    for n in [
                        u32::from(r.level.number()),
                        r.singles,
                        r.locked,
                        r.pairs_triples,
                        r.harder,
                    ] {
                        out.push(b',');
                        out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
                    }
                }
                None => out.extend_from_slice(b",invalid,,,,"),
            }
            out.push(b'\n');
        }
        write_output(&self.destination(), &out)?;
        let invalid = ratings
            .iter()
            .enumerate()
            .filter(|(_, rating)| rating.is_none())
            .map(|(k, _)| (k, "not exactly one solution".to_owned()));
        Ok(report_puzzles(&name, &puzzles.lines, invalid.collect()))
    }

    fn run_grade(&self, programs: &[PathBuf]) -> Result<ExitCode, Error> {
        let request = GradeRequest {
            programs: programs.to_vec(),
            plan: self.plan.clone().unwrap_or_else(|| "basic".to_owned()),
            first: self.first,
            timeout: self.timeout,
        };
        let grading = match grade::grade(&request) {
            Ok(grading) => grading,
            Err(GradeError::Io(error)) => return Err(error),
            Err(usage) => {
                eprintln!("{usage}");
                return Ok(ExitCode::from(2));
            }
        };
        write_output(&Destination::Stdout, grading.render_text().as_bytes())?;
        if let Some(path) = &self.output {
            write_output(&Destination::File(path.clone()), &grading.render_csv())?;
        }
        Ok(if grading.passed() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    }

    fn run_print_plan(&self) -> Result<ExitCode, Error> {
        match Plan::load(self.plan.as_deref().unwrap_or("basic")) {
            Ok((_, text)) => {
                write_output(&Destination::Stdout, text.as_bytes())?;
                Ok(ExitCode::SUCCESS)
            }
            Err(usage) => {
                eprintln!("{usage}");
                Ok(ExitCode::from(2))
            }
        }
    }

    fn run_check(&self, path: &Path) -> Result<ExitCode, Error> {
        let name = source_name(path);
        let text = read_source(path)?;
        let (report, what) = match &self.puzzles {
            Some(puzzles_path) => {
                let puzzles = read_source(puzzles_path)?;
                match check::check_solutions(&text, &puzzles) {
                    Ok(report) => (
                        report,
                        "solutions, all valid and keeping their puzzles' givens",
                    ),
                    Err(errors) => {
                        report_parse_errors(puzzles_path, &errors);
                        return Ok(ExitCode::FAILURE);
                    }
                }
            }
            None => {
                let rules = GridRules {
                    count: self.expected_count,
                    first: self.first,
                };
                (
                    check::check_grids(&text, rules),
                    "grids, all valid and distinct",
                )
            }
        };
        let mut out = report.problem_lines(&name).join("\n");
        if !out.is_empty() {
            out.push('\n');
        }
        let crlf = if report.crlf { " (CRLF line ends)" } else { "" };
        out += &if report.problems == 0 {
            format!("ok: {} {what}{crlf}\n", report.grids)
        } else {
            let plural =
                |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
            format!(
                "FAIL: {} in {}\n",
                plural(report.problems, "problem"),
                plural(report.grids, "grid")
            )
        };
        write_output(&Destination::Stdout, out.as_bytes())?;
        Ok(if report.problems == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    }
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
