//! The command line: its arguments ([`Cli`], whose doc comments and `src/manual.txt` are the
//! help text), which modes take each option, and the [`Request`] they describe. It only parses:
//! what a request means for the shape, the input and the engine is the library's to decide.

mod args;
mod values;

pub use args::Cli;

use sudoku_gen::check::{CorpusRules, GridRules};
use sudoku_gen::grade::GradeRequest;
use sudoku_gen::jobs::rate::Level;
use sudoku_gen::jobs::{Job, Mode, Request, ShapeFlags};
use sudoku_gen::text::format::OutputFormat;
use sudoku_gen::{Error, io::progress};

/// The modes that take each option, in one table: an option given to any other mode is a usage
/// error.
fn options_of(cli: &Cli) -> [(&'static str, bool, &'static [Mode]); 20] {
    use Mode::*;
    [
        ("--unique", cli.require_unique, &[Solve, Check]),
        (
            "--first",
            cli.first.is_some(),
            &[Grids, Puzzles, Check, Grade],
        ),
        ("--plan", cli.plan.is_some(), &[Grade, Print]),
        ("--timeout", cli.timeout.is_some(), &[Grade]),
        ("--seed", cli.seed.is_some(), &[Grids, Puzzles, Shuffle]),
        ("--classes", cli.classes, &[Grids, Puzzles, Check]),
        ("--shard", cli.shard.is_some(), &[Grids, Puzzles]),
        ("--guesses", cli.guesses.is_some(), &[Puzzles]),
        ("--hard", cli.hard.is_some(), &[Puzzles]),
        ("-m", cli.level.is_some(), &[Puzzles]),
        ("-r", cli.blanks.is_some(), &[Puzzles]),
        ("-u", cli.homework_unique, &[Puzzles]),
        ("--minimal", cli.minimal, &[Puzzles]),
        ("--symmetric", cli.symmetric, &[Puzzles]),
        (
            "--format csv",
            cli.format == Some(OutputFormat::Csv),
            &[Puzzles],
        ),
        ("--count", cli.expected_grids.is_some(), &[Check]),
        (
            "--column",
            cli.column.is_some(),
            &[Solve, Rate, Canon, Check],
        ),
        ("--puzzles", cli.puzzles_file.is_some(), &[Check]),
        (
            "--format",
            cli.format.is_some(),
            &[Grids, Solve, Puzzles, Shuffle],
        ),
        (
            "-o",
            cli.output.is_some(),
            &[Grids, Solve, Puzzles, Rate, Canon, Shuffle, Grade],
        ),
    ]
}

impl Cli {
    /// The request the command line describes; an option its mode does not take is a usage
    /// error.
    pub fn request(self) -> Result<Request, Error> {
        if self.quiet {
            progress::silence();
        }
        let mode = self.mode();
        if let Some((name, _, modes)) = options_of(&self)
            .iter()
            .find(|(_, given, modes)| *given && !modes.contains(&mode))
        {
            let modes: Vec<_> = modes.iter().map(|m| m.flag()).collect();
            return Err(Error::Usage(format!(
                "the argument '{name}' cannot be used with '{}' (only with {})",
                mode.flag(),
                modes.join(", ")
            )));
        }
        if self.shard.is_some() && self.seed.is_none() {
            return Err(Error::Usage(
                "'--shard' needs '--seed': only the shards of one seed share nothing".to_owned(),
            ));
        }
        let shape = ShapeFlags {
            size: self.size.map(usize::from),
            split: self.box_split.clone(),
            jigsaw: self.jigsaw.clone(),
            diagonal: self.diagonal,
            symbols: self.symbols.clone(),
        };
        Ok(Request {
            seed: self.seed.unwrap_or_else(rand::random),
            threads: self.threads.map(usize::from),
            output: self.output.clone(),
            job: self.job(mode),
            shape,
        })
    }

    /// The mode asked for: the mode group makes exactly one of them given.
    fn mode(&self) -> Mode {
        let given = [
            (self.grid_count.is_some(), Mode::Grids),
            (self.solve.is_some(), Mode::Solve),
            (self.puzzle_count.is_some(), Mode::Puzzles),
            (self.rate.is_some(), Mode::Rate),
            (self.canon.is_some(), Mode::Canon),
            (self.shuffle.is_some(), Mode::Shuffle),
            (self.grade.is_some(), Mode::Grade),
            (self.print, Mode::Print),
        ];
        given
            .iter()
            .find(|(given, _)| *given)
            .map_or(Mode::Check, |&(_, mode)| mode)
    }

    /// The job of `mode`, with the options it takes.
    fn job(self, mode: Mode) -> Job {
        let text_format = self.format.and_then(OutputFormat::text);
        let plan = self.plan.unwrap_or_else(|| "basic".to_owned());
        let range = |range: Option<(usize, usize)>| range.map(|(low, high)| low..=high);
        match mode {
            Mode::Grids => Job::Grids {
                count: self.grid_count.unwrap_or_default(),
                first: self.first,
                shard: self.shard,
                format: text_format,
                classes: self.classes,
            },
            Mode::Solve => Job::Solve {
                path: self.solve.unwrap_or_default(),
                format: text_format,
                unique: self.require_unique,
                column: self.column,
            },
            Mode::Puzzles => Job::Puzzles {
                count: self.puzzle_count.unwrap_or_default(),
                blanks: range(self.blanks),
                level: self.level.and_then(Level::from_number),
                minimal: self.minimal,
                symmetric: self.symmetric,
                guesses: range(self.guesses),
                hard: self.hard,
                classes: self.classes,
                shard: self.shard,
                first: self.first,
                format: self.format.unwrap_or(OutputFormat::Grid),
            },
            Mode::Rate => Job::Rate {
                path: self.rate.unwrap_or_default(),
                column: self.column,
            },
            Mode::Canon => Job::Canon {
                path: self.canon.unwrap_or_default(),
                column: self.column,
            },
            Mode::Shuffle => Job::Shuffle {
                path: self.shuffle.unwrap_or_default(),
                format: text_format,
            },
            Mode::Check => Job::Check {
                paths: self.check.unwrap_or_default(),
                puzzles: self.puzzles_file,
                rules: GridRules {
                    count: self.expected_grids,
                    first: self.first,
                },
                corpus: CorpusRules {
                    column: self.column,
                    unique: self.require_unique,
                },
                classes: self.classes,
            },
            Mode::Grade => Job::Grade {
                request: GradeRequest {
                    programs: self.grade.unwrap_or_default(),
                    plan,
                    first: self.first,
                    timeout: self.timeout,
                },
                sheet: self.output.is_some(),
            },
            Mode::Print => Job::Print { plan },
        }
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
}
