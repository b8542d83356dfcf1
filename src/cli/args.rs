//! The arguments, whose doc comments are the help text: `-h` shows each one's first line,
//! `--help` the whole comment and then the manual's body (`src/manual.txt`).

use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{
    EnumValueParser, NonEmptyStringValueParser, PathBufValueParser, StringValueParser,
};
use clap::{ArgGroup, Parser};

use sudoku_gen::model::shard::Shard;
use sudoku_gen::text::format::OutputFormat;

use super::values;

/// The headings the options are listed under, after the options every mode may take.
const MODES: &str = "Modes";
const PUZZLES: &str = "Making puzzles (-n)";
const CHECKING: &str = "Checking (--check)";
const GRADING: &str = "Grading";
const SHAPES: &str = "Shapes (-c, -s, -n, --check)";

/// Bulk Sudoku: distinct complete grids, and puzzles solved, made, rated and checked
///
/// Exactly one mode per run, with the options it takes; any other option is a usage error.
/// This page is the manual: the options, then formats, files and messages in detail.
#[derive(Debug, Parser)]
#[command(name = "sudoku-gen", version, about, verbatim_doc_comment)]
#[command(max_term_width = 100)]
#[command(after_help = "'sudoku-gen --help' is the manual: every rule, format and message.")]
#[command(after_long_help = include_str!("../manual.txt"))]
#[command(group(ArgGroup::new("mode").required(true).args(["grid_count", "solve", "check", "puzzle_count", "rate", "canon", "shuffle", "grade", "print"])))]
pub struct Cli {
    /// Print N distinct, valid, complete grids (N from 1 to 1000000)
    ///
    /// N is written in decimal digits; leading zeros are allowed.
    #[arg(short = 'c', value_name = "N", value_parser = values::value(values::parse_count))]
    #[arg(allow_hyphen_values = true, help_heading = MODES, verbatim_doc_comment)]
    pub(super) grid_count: Option<usize>,

    /// Solve every puzzle of FILE, answered in the input's format
    ///
    /// FILE (`-` for standard input) is in the line or grid format, or a CSV corpus, written
    /// back with its solution column filled in (see INPUT FORMATS). A puzzle without a solution
    /// is written unsolved in its place, the others are solved, and the exit code is 1.
    #[arg(short = 's', value_name = "FILE", help_heading = MODES)]
    #[arg(verbatim_doc_comment)]
    pub(super) solve: Option<Option<PathBuf>>,

    /// Make N distinct puzzles, one solution each (N from 1 to 1000000)
    ///
    /// Each is dug out of a random complete grid while its solution stays unique; without
    /// options, minimal puzzles (mostly 54 to 58 blanks). See "Making puzzles" and PUZZLES.
    #[arg(short = 'n', value_name = "N", value_parser = values::value(values::parse_count))]
    #[arg(allow_hyphen_values = true, help_heading = MODES, verbatim_doc_comment)]
    pub(super) puzzle_count: Option<usize>,

    /// Check grid files, a CSV corpus, or with --puzzles a file of solutions
    ///
    /// Grids: each FILE (`-` for standard input) in a -c format, read strictly; every grid
    /// valid, none repeated in any of the files, and --count and --first as given. A CSV
    /// corpus: every row's solution complete, valid and keeping its puzzle's givens. Each
    /// problem goes to standard output, then `ok: ...` (exit 0) or `FAIL: ...` (exit 1). See
    /// CHECKING.
    #[arg(long, value_name = "FILE", num_args = 0.., help_heading = MODES)]
    #[arg(verbatim_doc_comment)]
    pub(super) check: Option<Vec<PathBuf>>,

    /// Rate every puzzle of FILE: its level and technique counts, as CSV
    ///
    /// FILE is any -s input (`-` for standard input). Rows
    /// `puzzle,level,singles,locked,pairs_triples,harder,guesses,guesses_mean` under that header; a CSV
    /// corpus gets the columns appended to its rows. Every shape, the levels meaning the same.
    /// See OUTPUT FORMATS and SHAPES.
    #[arg(long, value_name = "FILE", help_heading = MODES)]
    #[arg(verbatim_doc_comment)]
    pub(super) rate: Option<Option<PathBuf>>,

    /// Write the canonical form of every grid or puzzle of FILE, a line each
    ///
    /// In order, the smallest 81-character line among its equivalents, a blank read as 0 and
    /// written as `.` (so blanks come first, and a complete grid starts 123456789): equivalent
    /// inputs give the same line, inequivalent ones different lines. FILE is any -s input (`-`
    /// for standard input); a CSV corpus gets a column `canon`. Any 81 cells have a form,
    /// solvable or not. Other shapes: N·N symbols of their alphabet, under the moves of their
    /// family; a LAYOUT PUZZLE line turns with its layout (see EQUIVALENT GRIDS).
    #[arg(long, value_name = "FILE", help_heading = MODES)]
    #[arg(verbatim_doc_comment)]
    pub(super) canon: Option<Option<PathBuf>>,

    /// Replace every grid or puzzle of FILE by a random equivalent
    ///
    /// FILE (`-` for standard input) is in the line or grid format; in order, each is replaced
    /// by one drawn uniformly among its equivalents (see EQUIVALENT GRIDS), in the input's
    /// format or --format grid|line. A CSV whose header starts `puzzle,solution` (as -n writes
    /// it) is shuffled row by row, one move for both grids; its other fields are kept. Every
    /// shape is shuffled under the moves of its family (a jigsaw row's layout turned with it).
    #[arg(long, value_name = "FILE", help_heading = MODES)]
    #[arg(verbatim_doc_comment)]
    pub(super) shuffle: Option<Option<PathBuf>>,

    /// Grade homework submissions: run each PROGRAM through the cases of --plan
    ///
    /// A folder stands for every executable file in it, in name order. This tool is the
    /// oracle; a report per program goes to standard output, and with -o the score sheet. It
    /// is not a sandbox: see GRADING.
    #[arg(long, value_name = "PROGRAM", num_args = 0.., help_heading = MODES)]
    #[arg(verbatim_doc_comment)]
    pub(super) grade: Option<Vec<PathBuf>>,

    /// The mode's FILE (with --grade, PROGRAM), given after other options or after `--`
    ///
    /// `sudoku-gen --check --classes out.txt` and `sudoku-gen -s --unique puzzles.txt` read as
    /// `--check out.txt --classes` and `-s puzzles.txt --unique`. After `--` every word is a
    /// FILE, one that starts with `-` too (`sudoku-gen --check -- -out.txt`); `./-out.txt` works
    /// anywhere.
    #[arg(value_name = "FILE", verbatim_doc_comment)]
    pub(super) operands: Vec<PathBuf>,

    /// Print the plan of --plan (default basic) as TOML, to edit into your own
    #[arg(long, help_heading = MODES)]
    pub(super) print: bool,

    /// Difficulty: 1, 2 or 3 (default: any)
    ///
    /// 1: naked and hidden singles suffice. 2: locked candidates or naked or hidden pairs or
    /// triples are needed, and suffice. 3: those are not enough. With --minimal, only minimal
    /// puzzles already at that level are kept. On every shape, as --rate rates it; -m 3 up to
    /// 16×16, -m 2 also on 25×25 (see SHAPES).
    #[arg(short = 'm', value_name = "LEVEL")]
    #[arg(value_parser = values::value(clap::value_parser!(u8).range(1..=3)))]
    #[arg(allow_hyphen_values = true, help_heading = PUZZLES, verbatim_doc_comment)]
    pub(super) level: Option<u8>,

    /// The number of blank cells lies in LOW..=HIGH (`LOW-HIGH` works too)
    ///
    /// 9×9: 1 to 58 (57 with --symmetric), overlapping where the kind of puzzle asked for is
    /// common; other shapes: up to their reach. A range the digging would serve at under
    /// about 50 puzzles a second is refused up front, naming one that works (see PUZZLES).
    /// Default: as far as the digging goes.
    #[arg(short = 'r', value_name = "LOW~HIGH")]
    #[arg(value_parser = values::value(values::parse_blanks), help_heading = PUZZLES)]
    #[arg(allow_hyphen_values = true, verbatim_doc_comment)]
    pub(super) blanks: Option<(usize, usize)>,

    /// Accepted for the homework; every puzzle has one solution anyway
    #[arg(short = 'u', help_heading = PUZZLES)]
    pub(super) homework_unique: bool,

    /// Minimal puzzles: removing any given leaves more than one solution
    #[arg(long, help_heading = PUZZLES)]
    pub(super) minimal: bool,

    /// The givens are symmetric under a half turn
    #[arg(long, help_heading = PUZZLES)]
    pub(super) symmetric: bool,

    /// Only puzzles whose guess count lies in LOW..=HIGH (`LOW-HIGH` works too)
    ///
    /// The guesses the solver's search makes to solve a puzzle and prove it unique: 0 when its
    /// reasoning alone does it all (--rate shows them). Puzzles are only filtered, so LOW is
    /// capped where they get too rare: at 9×9 at most 9, less with -r or -m (see PUZZLES);
    /// on other shapes, as a sample of such puzzles reaches (see SHAPES).
    #[arg(long, value_name = "LOW~HIGH", value_parser = values::value(values::parse_guesses))]
    #[arg(allow_hyphen_values = true, help_heading = PUZZLES, verbatim_doc_comment)]
    pub(super) guesses: Option<(usize, usize)>,

    /// Hard puzzles, by a search: each needs MEAN guesses or more (default 34 at 9×9)
    ///
    /// MEAN is the mean of the guesses a search solver makes to find a solution over 10 fixed
    /// random equivalents of the puzzle (--rate's guesses_mean), up to one decimal; the search
    /// branches on a digit's place in a band, as the fastest solvers do. It measures difficulty
    /// for a search solver, not for a person (-m). 34 is the median of the forum's hardest list
    /// (32.3 by this measure). A local search climbs to it from dug puzzles; every output is
    /// minimal. Takes --minimal or --symmetric (not both), --classes, --shard and --format; not
    /// -r, -m or --guesses. MEAN up to 50 (10 with --symmetric); higher is refused (see
    /// PUZZLES). Other shapes from 5×5 to 16×16 are measured by the generic search, and each
    /// has a reach of its own, the default there (6×6: 6, 12×12: 256, 16×16: 1024; the table
    /// is under PUZZLES).
    #[arg(long, value_name = "MEAN", num_args = 0..=1, require_equals = true)]
    #[arg(value_parser = values::parse_hard)]
    #[arg(help_heading = PUZZLES, verbatim_doc_comment)]
    pub(super) hard: Option<Option<usize>>,

    /// With --check: exactly N grids in all (with --puzzles, N solutions)
    #[arg(long = "count", value_name = "N", help_heading = CHECKING)]
    #[arg(value_parser = values::value(str::parse::<usize>), allow_hyphen_values = true)]
    pub(super) expected_grids: Option<usize>,

    /// With --check: FILE holds one solution per puzzle of PFILE, in order
    ///
    /// Each solution complete, valid and keeping its puzzle's givens; --count and --first
    /// apply to the solutions. FILE and PFILE cannot both be `-`.
    #[arg(long = "puzzles", value_name = "PFILE", help_heading = CHECKING)]
    #[arg(value_parser = values::file(PathBufValueParser::new()))]
    #[arg(allow_hyphen_values = true, verbatim_doc_comment)]
    pub(super) puzzles_file: Option<PathBuf>,

    /// With --grade or --print: basic, pair or a TOML plan file (default basic)
    ///
    /// basic: the individual project (-c and -s); pair: basic's cases and those of -n.
    #[arg(long, value_name = "PLAN", help_heading = GRADING)]
    #[arg(value_parser = values::file(StringValueParser::new()))]
    #[arg(allow_hyphen_values = true, verbatim_doc_comment)]
    pub(super) plan: Option<String>,

    /// With --grade: every case's time limit, 0.001 to 86400 s, instead of the plan's
    #[arg(long, value_name = "S", value_parser = values::value(values::parse_seconds))]
    #[arg(allow_hyphen_values = true, help_heading = GRADING)]
    pub(super) timeout: Option<Duration>,

    /// Output format (see OUTPUT FORMATS)
    ///
    /// grid or line; csv with -n only. Default: grid for -c and -n; the input's format for -s
    /// and --shuffle.
    #[arg(long, value_name = "FORMAT", verbatim_doc_comment)]
    #[arg(value_parser = values::value(EnumValueParser::<OutputFormat>::new()))]
    #[arg(allow_hyphen_values = true)]
    pub(super) format: Option<OutputFormat>,

    /// A puzzle with more than one solution is an error (-s, --check of a CSV)
    ///
    /// -s still writes one solution in its place, and the exit code is 1; --check on a CSV
    /// corpus requires every puzzle to have exactly one solution (on grids, or with --puzzles,
    /// it is a usage error: use -s PFILE --unique).
    #[arg(long = "unique", verbatim_doc_comment)]
    pub(super) require_unique: bool,

    /// Every grid has symbol SYM in its top-left cell (-c, -n, --check, --grade)
    ///
    /// One of the shape's symbols: a digit 1 to 9 at 9×9, G with --size 16, A with --symbols
    /// ABCDEFGHIJKLMNOP; another is a usage error. With -n, every puzzle's solution starts with
    /// it. --check takes the symbols the file is read in; with --grade, a digit (the homework is
    /// 9×9).
    #[arg(long, value_name = "SYM", verbatim_doc_comment)]
    #[arg(value_parser = values::value(values::parse_symbol), allow_hyphen_values = true)]
    pub(super) first: Option<u8>,

    /// The same output, byte for byte, on every run and at any -j
    ///
    /// With -c, -n or --shuffle. S is a number from 0 to 2^64 - 1. Without it a random seed is
    /// drawn, so two runs differ; different seeds give different grids.
    #[arg(long, value_name = "S", verbatim_doc_comment)]
    #[arg(value_parser = values::value(clap::value_parser!(u64)), allow_hyphen_values = true)]
    pub(super) seed: Option<u64>,

    /// Shard I of K: the K shards of one --seed share no grid (puzzle)
    ///
    /// With -c or -n, and --seed, on every shape. 1 <= I <= K <= 1000000. Each shard writes N
    /// grids (puzzles) as a plain run would, the same on every machine and at any -j, so a lost
    /// shard is made again by running its command again. Not with -c --classes. See SHARDS.
    #[arg(long, value_name = "I/K", verbatim_doc_comment)]
    #[arg(value_parser = values::value(str::parse::<Shard>), allow_hyphen_values = true)]
    pub(super) shard: Option<Shard>,

    /// No two grids (puzzles) equivalent: made so by -c and -n, checked by --check
    ///
    /// Equivalent: one becomes the other by relabelling the digits, reordering rows inside a
    /// band, the bands, columns inside a stack, the stacks, and transposing; other shapes by the
    /// moves of their family. With --check --puzzles, the puzzles are compared. See EQUIVALENT
    /// GRIDS.
    #[arg(long, verbatim_doc_comment)]
    pub(super) classes: bool,

    /// With -s, --rate, --canon, --shuffle or --check: the puzzle column of a CSV corpus
    ///
    /// Instead of the one named puzzle, quizzes or quiz (in any case); NAME is matched in any
    /// case too. Every shape that the mode takes. On an input that is not a CSV corpus, a usage
    /// error.
    #[arg(long, value_name = "NAME", verbatim_doc_comment)]
    #[arg(value_parser = values::value(NonEmptyStringValueParser::new()), allow_hyphen_values = true)]
    pub(super) column: Option<String>,

    /// No progress bar
    ///
    /// One is drawn on standard error, when it is a terminal, for -n of 2000 puzzles or more,
    /// and for -s, --rate, --canon and --check on inputs of 8 MiB or more (by the bytes read:
    /// items done, their rate, the time left; a spinner on a stream).
    #[arg(long, verbatim_doc_comment)]
    pub(super) quiet: bool,

    /// Worker threads (default: every core); changes the speed, never the output
    ///
    /// With --grade: programs graded at once; speed cases always run alone.
    #[arg(short = 'j', value_name = "THREADS")]
    #[arg(value_parser = values::value(clap::value_parser!(u16).range(1..=1024)))]
    #[arg(allow_hyphen_values = true, verbatim_doc_comment)]
    pub(super) threads: Option<u16>,

    /// Write FILE instead of standard output (`-` is standard output), atomically
    ///
    /// FILE is checked before any work, then replaced only by a complete output, keeping its
    /// permission bits and owner; a run that stops early leaves it as it was. /dev/stdout,
    /// /dev/fd/N, devices and pipes are written through, never replaced. With --grade, the
    /// score sheet (CSV). See OUTPUT FILES.
    #[arg(short = 'o', value_name = "FILE", verbatim_doc_comment)]
    #[arg(value_parser = values::file(PathBufValueParser::new()), allow_hyphen_values = true)]
    pub(super) output: Option<PathBuf>,

    /// N×N cells and N symbols, N from 4 to 25 (default 9)
    ///
    /// Boxes of R×C cells, R the largest divisor of N not above its square root: 4: 2x2,
    /// 6: 2x3, 8: 2x4, 9: 3x3, 10: 2x5, 12: 3x4, 16: 4x4, 20: 4x5, 25: 5x5. A prime N has no
    /// boxes: give its regions with --jigsaw. Without --size, -s, --rate and --check find N in
    /// their input (a line of N·N cells, or a block of N rows). See SHAPES.
    #[arg(long, value_name = "N")]
    #[arg(value_parser = values::value(clap::value_parser!(u8).range(4..=25)))]
    #[arg(allow_hyphen_values = true, help_heading = SHAPES, verbatim_doc_comment)]
    pub(super) size: Option<u8>,

    /// Boxes of R rows by C columns, R·C = N, both ≥ 2 (--size 12 --box 2x6)
    #[arg(long = "box", value_name = "RxC", help_heading = SHAPES)]
    #[arg(value_parser = values::value(StringValueParser::new()), allow_hyphen_values = true)]
    pub(super) box_split: Option<String>,

    /// Irregular regions, from a LAYOUT file (`-` for standard input), or `random`
    ///
    /// N lines of N characters, or one line of N·N, each naming its cell's region (any printable
    /// ASCII but `#`, `,` and `"`, which the lines and CSV rows that carry a layout could not
    /// hold): N regions of N cells, each connected through shared edges. `random` (with -c and
    /// -n, in the line format): a layout drawn from the seed, at any size from 4 to 25, grown
    /// from the boxes (or, at a prime size, from strips of two rows) by trading cells of equal
    /// value in a complete grid, so that it always has grids, and kept only when the solver fills
    /// it quickly. From 20×20 up its regions stay closer to the boxes than at 9×9.
    #[arg(long, value_name = "LAYOUT", help_heading = SHAPES)]
    #[arg(value_parser = values::file(PathBufValueParser::new()))]
    #[arg(allow_hyphen_values = true, verbatim_doc_comment)]
    pub(super) jigsaw: Option<PathBuf>,

    /// Both main diagonals also hold every symbol once (X-Sudoku); =no: they need not
    ///
    /// An input read without the flag tells its diagonals from its first records. A few
    /// grids that hold both diagonals may be X-Sudoku or plain: --canon, --shuffle and
    /// --classes then ask which, and --diagonal=no reads the input plain. See SHAPES.
    #[arg(long, value_name = "yes|no", num_args = 0..=1, require_equals = true)]
    #[arg(default_missing_value = "yes", value_parser = values::parse_yes_no)]
    #[arg(help_heading = SHAPES, verbatim_doc_comment)]
    pub(super) diagonal: Option<bool>,

    /// The N symbols in value order (default: 1-9, then A-P)
    ///
    /// Distinct printable ASCII other than `.`, `-`, `#`, `,` and `"`; by default the first N of
    /// 123456789ABCDEFGHIJKLMNOP. ABCDEFGHIJKLMNOP reads AcWing's and POJ's "Sudoku 2",
    /// 0123456789ABCDEF hexadoku. Blanks are `.`, `-`, and `0` unless it is a symbol.
    #[arg(long, value_name = "STR", help_heading = SHAPES)]
    #[arg(value_parser = values::value(StringValueParser::new()))]
    #[arg(allow_hyphen_values = true, verbatim_doc_comment)]
    pub(super) symbols: Option<String>,
}
