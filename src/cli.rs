//! The command line: its arguments, and the [`Request`] they describe. It only parses: what a
//! request means for the shape, the input and the engine is the library's to decide.

mod values;

use std::path::PathBuf;
use std::time::Duration;

use clap::{ArgGroup, Parser};

use sudoku_gen::check::{CorpusRules, GridRules};
use sudoku_gen::grade::GradeRequest;
use sudoku_gen::jobs::rate::Level;
use sudoku_gen::jobs::{Job, Mode, Request, ShapeFlags};
use sudoku_gen::model::shard::Shard;
use sudoku_gen::text::format::OutputFormat;
use sudoku_gen::{Error, io::progress};

/// Bulk Sudoku: distinct complete grids and puzzle solving, fast.
#[derive(Debug, Parser)]
#[command(name = "sudoku-gen", version, about, max_term_width = 100)]
#[command(group(ArgGroup::new("mode").required(true).args(["grid_count", "solve", "check", "puzzle_count", "rate", "canon", "shuffle", "grade", "print"])))]
pub struct Cli {
    /// Print N distinct complete grids (1 to 1000000).
    #[arg(short = 'c', value_name = "N", value_parser = values::parse_count)]
    grid_count: Option<usize>,

    /// Solve every puzzle of FILE (`-` for standard input), in the line or grid format.
    #[arg(short = 's', value_name = "FILE")]
    solve: Option<PathBuf>,

    /// Make N puzzles with exactly one solution (1 to 1000000).
    #[arg(short = 'n', value_name = "N", value_parser = values::parse_count)]
    puzzle_count: Option<usize>,

    /// With -n: the difficulty, 1 (singles suffice), 2 (locked candidates, pairs or triples needed)
    /// or 3 (harder techniques needed). Default: any.
    #[arg(short = 'm', value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(1..=3))]
    level: Option<u8>,

    /// With -n: the number of blank cells lies in LOW~HIGH (or LOW-HIGH), within 1~58. Default:
    /// minimal puzzles, whatever their blank count.
    #[arg(short = 'r', value_name = "LOW~HIGH", value_parser = values::parse_blanks)]
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
    #[arg(long, value_name = "LOW~HIGH", value_parser = values::parse_guesses)]
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
    #[arg(long, value_name = "S", value_parser = values::parse_seconds)]
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

/// The modes that take each option, in one table: an option given to any other mode is a usage
/// error.
fn options_of(cli: &Cli) -> [(&'static str, bool, &'static [Mode]); 19] {
    use Mode::*;
    [
        ("--unique", cli.require_unique, &[Solve, Check]),
        ("--first", cli.first.is_some(), &[Grids, Check, Grade]),
        ("--plan", cli.plan.is_some(), &[Grade, Print]),
        ("--timeout", cli.timeout.is_some(), &[Grade]),
        ("--seed", cli.seed.is_some(), &[Grids, Puzzles, Shuffle]),
        ("--classes", cli.classes, &[Grids, Puzzles, Check]),
        ("--shard", cli.shard.is_some(), &[Grids, Puzzles]),
        ("--guesses", cli.guesses.is_some(), &[Puzzles]),
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
                classes: self.classes,
                shard: self.shard,
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
