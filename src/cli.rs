//! The command line: its arguments, and which library call each mode makes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
use sudoku_gen::output::{Destination, write_output};
use sudoku_gen::puzzle::{self, PuzzleRequest};
use sudoku_gen::rate::{Level, Rating, rate_with};
use sudoku_gen::{Error, Failure, Format, GridRequest, generate, solve_batch};
use sudoku_gen::{classes, shuffle};

/// Bulk Sudoku: distinct complete grids and puzzle solving, fast.
#[derive(Debug, Parser)]
#[command(name = "sudoku-gen", version, about, max_term_width = 100)]
#[command(group(ArgGroup::new("mode").required(true).args(["count", "solve", "check", "puzzles_count", "rate", "canon", "shuffle"])))]
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

    /// Write the canonical form of every grid or puzzle of FILE (`-` for standard input), in order,
    /// one line each: the smallest line among its equivalents, a blank read as 0 (written `.`).
    #[arg(long, value_name = "FILE")]
    pub canon: Option<PathBuf>,

    /// Replace every grid or puzzle of FILE (`-` for standard input) by a random equivalent, in
    /// order; a `puzzle,solution,...` CSV (as -n writes it) row by row, one move for both.
    #[arg(long, value_name = "FILE")]
    pub shuffle: Option<PathBuf>,

    /// With -c or -n: no two grids (puzzles) are equivalent under relabelling, row, column, band and
    /// stack moves and transposing. With --check: no two grids (with --puzzles, puzzles) are.
    #[arg(long)]
    pub classes: bool,

    /// With -n: the search's guesses to solve the puzzle and prove it unique lie in LOW~HIGH
    /// (or LOW-HIGH); LOW at most 9, less with -r (see the README).
    #[arg(long, value_name = "LOW~HIGH", value_parser = parse_guesses)]
    pub guesses: Option<(usize, usize)>,

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

    /// With -c or --check: every grid has digit D in its top-left cell (1 to 9).
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
    parse_range(text, &puzzle::BLANKS, "blank counts")
}

/// A guess range `LOW~HIGH` or `LOW-HIGH` inside the supported one.
fn parse_guesses(text: &str) -> Result<(usize, usize), String> {
    parse_range(text, &puzzle::GUESSES, "guess counts")
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
        } else if self.canon.is_some() {
            "--canon"
        } else if self.shuffle.is_some() {
            "--shuffle"
        } else {
            "--check"
        };
        let takes = |modes: &[&str]| modes.contains(&mode);
        let options = [
            ("--unique", self.unique, &["-s"][..]),
            ("--first", self.first.is_some(), &["-c", "--check"]),
            ("--seed", self.seed.is_some(), &["-c", "-n", "--shuffle"]),
            ("--classes", self.classes, &["-c", "-n", "--check"]),
            ("--guesses", self.guesses.is_some(), &["-n"]),
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
            (
                "--format",
                self.format.is_some(),
                &["-c", "-s", "-n", "--shuffle"],
            ),
            (
                "-o",
                self.output.is_some(),
                &["-c", "-s", "-n", "--rate", "--canon", "--shuffle"],
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
            if let Some((low, high)) = self.guesses {
                let level = self.level.and_then(Level::from_number);
                puzzle::check_guesses_reachable(&(low..=high), level, blanks.as_ref())?;
            }
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
        } else if let Some(path) = &self.canon {
            self.run_canon(path)
        } else if let Some(path) = &self.shuffle {
            self.run_shuffle(path)
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
        let bytes = if self.classes {
            classes::render_classes(&request, format)
        } else {
            generate::render_grids(&request, format)
        };
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
            guesses: self.guesses.map(|(low, high)| low..=high),
            classes: self.classes,
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
        let mut out = b"puzzle,level,singles,locked,pairs_triples,harder,guesses\n".to_vec();
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
                        r.guesses,
                    ] {
                        out.push(b',');
                        out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
                    }
                }
                None => out.extend_from_slice(b",invalid,,,,,"),
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

    fn run_canon(&self, path: &Path) -> Result<ExitCode, Error> {
        let Some(puzzles) = read_puzzles(path)? else {
            return Ok(ExitCode::FAILURE);
        };
        let bytes = classes::render_canonical_forms(&puzzles.grids);
        write_output(&self.destination(), &bytes)?;
        Ok(ExitCode::SUCCESS)
    }

    fn run_shuffle(&self, path: &Path) -> Result<ExitCode, Error> {
        let text = read_source(path)?;
        let format = self.format.and_then(OutputFormat::text);
        let seed = self.seed.unwrap_or_else(rand::random);
        match shuffle::shuffle_text(&text, seed, format) {
            Ok(bytes) => {
                write_output(&self.destination(), &bytes)?;
                Ok(ExitCode::SUCCESS)
            }
            Err(errors) => {
                report_parse_errors(path, &errors);
                Ok(ExitCode::FAILURE)
            }
        }
    }

    fn run_check(&self, path: &Path) -> Result<ExitCode, Error> {
        let name = source_name(path);
        let text = read_source(path)?;
        let (mut report, what) = match &self.puzzles {
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
        if self.classes {
            let puzzles = match &self.puzzles {
                Some(path) => Some((read_source(path)?, source_name(path))),
                None => None,
            };
            let puzzles = puzzles
                .as_ref()
                .map(|(text, name)| (&text[..], name.as_str()));
            classes::check_classes(&mut report, &text, puzzles);
        }
        let what = match (self.classes, &self.puzzles) {
            (false, _) => what.to_owned(),
            (true, None) => "grids, all valid and pairwise inequivalent".to_owned(),
            (true, Some(_)) => format!("{what}, the puzzles pairwise inequivalent"),
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
