//! The command line: its arguments, and which library call each mode makes.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgGroup, Parser, ValueEnum};

use sudoku_gen::output::{Destination, write_output};
use sudoku_gen::{Error, Format, GridRequest, generate};

/// Bulk Sudoku: distinct complete grids, fast.
#[derive(Debug, Parser)]
#[command(name = "sudoku-gen", version, about, max_term_width = 100)]
#[command(group(ArgGroup::new("mode").required(true).args(["count"])))]
pub struct Cli {
    /// Print N distinct complete grids (1 to 1000000).
    #[arg(short = 'c', value_name = "N", value_parser = parse_count)]
    pub count: Option<usize>,

    /// Output format: `grid` (9 lines of 9 digits, grids separated by an empty line) or `line` (81
    /// digits a line).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Grid)]
    pub format: OutputFormat,

    /// Every grid has digit D in its top-left cell (1 to 9).
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
}

impl From<OutputFormat> for Format {
    fn from(format: OutputFormat) -> Format {
        match format {
            OutputFormat::Grid => Format::Grid,
            OutputFormat::Line => Format::Line,
        }
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
    /// Runs the chosen mode on a pool of the requested size.
    pub fn run(self) -> Result<ExitCode, Error> {
        let mut pool = rayon::ThreadPoolBuilder::new();
        if let Some(threads) = self.threads {
            pool = pool.num_threads(usize::from(threads));
        }
        let pool = pool
            .build()
            .map_err(|e| Error::io("thread pool", std::io::Error::other(e)))?;
        pool.install(|| self.run_mode())
    }

    fn run_mode(&self) -> Result<ExitCode, Error> {
        let destination = match &self.output {
            Some(path) => Destination::File(path.clone()),
            None => Destination::Stdout,
        };
        let count = self.count.expect("clap requires a mode");
        let request = GridRequest {
            count,
            seed: self.seed.unwrap_or_else(rand::random),
            first: self.first,
        };
        let bytes = generate::render_grids(&request, self.format.into());
        write_output(&destination, &bytes)?;
        Ok(ExitCode::SUCCESS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

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
