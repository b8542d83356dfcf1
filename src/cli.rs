//! The command line: its arguments ([`Cli`], whose doc comments and `src/manual.txt` are the
//! help text), which modes take each option, and the [`Request`] they describe. It only parses:
//! what a request means for the shape, the input and the engine is the library's to decide.

mod args;
mod values;

pub use args::Cli;

use std::ffi::OsString;
use std::path::PathBuf;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser};

use sudoku_gen::check::{CorpusRules, GridRules};
use sudoku_gen::grade::GradeRequest;
use sudoku_gen::io::input::shown_path;
use sudoku_gen::jobs::rate::Level;
use sudoku_gen::jobs::{Job, Mode, Request, ShapeFlags};
use sudoku_gen::text::format::OutputFormat;
use sudoku_gen::{Error, io::progress};

/// The command line of the process, parsed; a word that starts with `-` and is no option is
/// refused naming the whole word and how to give a file of that name.
pub fn parse() -> Result<Cli, clap::Error> {
    let args: Vec<OsString> = std::env::args_os().collect();
    Cli::try_parse_from(&args).map_err(|error| name_the_word(error, &args))
}

/// `error`, or for an unknown short option that starts a longer word (`-dash.txt`, which clap
/// reports as `-d`, with a tip to pass `-d` after `--`) the error naming the word. After an
/// option's `--` (`-o -- -dash.txt`), which clap takes for the option's value, the word was
/// meant for the option.
fn name_the_word(error: clap::Error, args: &[OsString]) -> clap::Error {
    let Some(ContextValue::String(unknown)) = error.get(ContextKind::InvalidArg) else {
        return error;
    };
    if error.kind() != ErrorKind::UnknownArgument || unknown.len() != 2 {
        return error;
    }
    let words: Vec<&str> = args.iter().map(|w| w.to_str().unwrap_or("")).collect();
    let Some(at) = (1..words.len()).find(|&at| {
        let word = words[at];
        !word.starts_with("--") && word.len() > 2 && word.starts_with(unknown.as_str())
    }) else {
        return error;
    };
    let word = words[at];
    let message = match &words[..at] {
        [.., option, "--"] if option.starts_with('-') && *option != "--" => format!(
            "unexpected argument '{word}' found ('{unknown}' is no option): '--' cannot stand \
             between '{option}' and its value; write {option} ./{word}"
        ),
        _ => format!(
            "unexpected argument '{word}' found ('{unknown}' is no option); a file whose name \
             starts with '-' is written ./{word}, or given after '--'"
        ),
    };
    Cli::command().error(ErrorKind::UnknownArgument, message)
}

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
            &[Solve, Rate, Canon, Shuffle, Check],
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
    pub fn request(mut self) -> Result<Request, Error> {
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
        let files = self.files(mode)?;
        let shape = ShapeFlags {
            size: self.size.map(usize::from),
            split: self.box_split.clone(),
            jigsaw: self.jigsaw.clone(),
            diagonal: self.diagonal,
            symbols: self.symbols.clone(),
        };
        Ok(Request {
            // Straight from the system: a thread generator would first be seeded, and set up for
            // the processor, on every run (a fortieth of a small `-s`).
            seed: self.seed.unwrap_or_else(|| {
                use rand::TryRng;
                rand::rngs::SysRng
                    .try_next_u64()
                    .unwrap_or_else(|_| rand::random())
            }),
            threads: self.threads.map(usize::from),
            output: self.output.clone(),
            job: self.job(mode, files),
            shape,
        })
    }

    /// The files of `mode`: those given right after its flag, then the operands (after other
    /// options, or after `--`); a mode that takes no file, or one only, refuses the others.
    fn files(&mut self, mode: Mode) -> Result<Vec<PathBuf>, Error> {
        let own = match mode {
            Mode::Solve => self.solve.take().flatten().into_iter().collect(),
            Mode::Rate => self.rate.take().flatten().into_iter().collect(),
            Mode::Canon => self.canon.take().flatten().into_iter().collect(),
            Mode::Shuffle => self.shuffle.take().flatten().into_iter().collect(),
            Mode::Check => self.check.take().unwrap_or_default(),
            Mode::Grade => self.grade.take().unwrap_or_default(),
            Mode::Grids | Mode::Puzzles | Mode::Print => Vec::new(),
        };
        let files: Vec<PathBuf> = own.into_iter().chain(self.operands.drain(..)).collect();
        let flag = mode.flag();
        let message = match (mode, &files[..]) {
            (Mode::Grids | Mode::Puzzles | Mode::Print, [word, ..]) => {
                self.value_after_equals(word).unwrap_or_else(|| {
                    format!(
                        "unexpected argument '{}': '{flag}' takes no file (-s, --check, --rate, \
                         --canon, --shuffle and --grade do)",
                        shown_path(word)
                    )
                })
            }
            (Mode::Grids | Mode::Puzzles | Mode::Print, []) => return Ok(files),
            (Mode::Check, []) => {
                format!("'{flag}' needs a FILE (one or more; `-` for standard input)")
            }
            (Mode::Grade, []) => format!("'{flag}' needs a PROGRAM (one or more, or a folder)"),
            // A file that is not there but reads as the value of `--diagonal` or `--hard` was
            // meant as that value.
            (Mode::Check | Mode::Grade, _) => match files
                .iter()
                .filter(|file| !file.exists())
                .find_map(|file| self.value_after_equals(file))
            {
                Some(message) => message,
                None => return Ok(files),
            },
            (_, []) => format!("'{flag}' needs a FILE (`-` for standard input)"),
            (_, [_]) => return Ok(files),
            (_, [first, second, ..]) => self.value_after_equals(second).unwrap_or_else(|| {
                format!(
                    "'{flag}' takes one FILE, not '{}' and '{}' (--check takes several)",
                    shown_path(first),
                    shown_path(second)
                )
            }),
        };
        Err(Error::Usage(message))
    }

    /// The refusal of a word left over that reads as the value of `--diagonal` or `--hard`,
    /// given, which take theirs only after `=` (so that they never take the next word).
    fn value_after_equals(&self, word: &std::path::Path) -> Option<String> {
        let word = word.to_string_lossy();
        let option = if self.diagonal.is_some() && ["yes", "no", "true", "false"].contains(&&*word)
        {
            "--diagonal"
        } else if self.hard.is_some()
            && !word.is_empty()
            && word.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        {
            "--hard"
        } else {
            return None;
        };
        Some(format!(
            "unexpected argument '{word}': '{option}' takes its value after '=': {option}={word}"
        ))
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
    fn job(self, mode: Mode, files: Vec<PathBuf>) -> Job {
        let text_format = self.format.and_then(OutputFormat::text);
        let plan = self.plan.unwrap_or_else(|| "basic".to_owned());
        let range = |range: Option<(usize, usize)>| range.map(|(low, high)| low..=high);
        // A mode of one file has exactly one: `files` checked it.
        let file = files.first().cloned().unwrap_or_default();
        match mode {
            Mode::Grids => Job::Grids {
                count: self.grid_count.unwrap_or_default(),
                first: self.first,
                shard: self.shard,
                format: text_format,
                classes: self.classes,
            },
            Mode::Solve => Job::Solve {
                path: file,
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
                path: file,
                column: self.column,
            },
            Mode::Canon => Job::Canon {
                path: file,
                column: self.column,
            },
            Mode::Shuffle => Job::Shuffle {
                path: file,
                format: text_format,
                column: self.column,
            },
            Mode::Check => Job::Check {
                paths: files,
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
                    programs: files,
                    plan,
                    first: self.first,
                    timeout: self.timeout,
                    sheet: self.output,
                },
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
