//! The errors of the library, each naming what it is about. The command line reports a request
//! that cannot be run as a usage error (exit code 2), and prints the others as
//! `sudoku-gen: error: ...` (exit code 1).

use std::fmt;
use std::io;

use crate::model::shard::Shard;

/// A problem that ends a run: a request that cannot be run, or a data or I/O problem.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A request that cannot be run as given, reported with the usage.
    #[error("{0}")]
    Usage(String),
    /// A file the request names that cannot serve, reported alone: its message locates it.
    #[error("{0}")]
    Unusable(String),
    /// Reading or writing `what` (a file name, or "standard output") failed.
    #[error("{what}: {}", OsMessage(source))]
    Io {
        /// The file or stream.
        what: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// The output's buffer of `bytes` bytes could not be had: the request asks for more than the
    /// memory the system gives.
    #[error(
        "not enough memory for the {bytes} bytes of output: ask for fewer at a time, with a \
         smaller count or --shard"
    )]
    OutOfMemory {
        /// The bytes asked for.
        bytes: usize,
    },
    /// A shape (or a shard of its grids) with fewer complete grids than asked for.
    #[error("{}", too_few_grids(*asked, *exist, *shard, *first))]
    TooFewGrids {
        /// How many were asked for.
        asked: usize,
        /// How many the shape (the shard) has.
        exist: usize,
        /// The shard asked for, if any.
        shard: Option<Shard>,
        /// The symbol of every grid's top-left cell, when `--first` asked for one.
        first: Option<char>,
    },
    /// Fewer distinct puzzles than asked for could be made.
    #[error(
        "only {made} distinct puzzles of {asked} could be made in the blank range asked; nothing written"
    )]
    TooFewPuzzles {
        /// How many were asked for.
        asked: usize,
        /// How many distinct puzzles were made.
        made: usize,
    },
    /// Fewer distinct puzzles (pairwise inequivalent ones, with `classes`) than asked for were
    /// made without a blank range: the draws gave up, which is known only after them.
    #[error(
        "-n {asked}: only {made} {} puzzles of {of} could be made before the draws gave up; ask \
         for fewer; nothing written",
        if *classes { "pairwise inequivalent" } else { "distinct" }
    )]
    TooFewMade {
        /// How many were asked for.
        asked: usize,
        /// How many were made.
        made: usize,
        /// The shape, or its shard, as the message names it.
        of: String,
        /// Whether no two were to be equivalent (`--classes`).
        classes: bool,
    },
    /// The hard-puzzle search gave up short of the mean asked for: a shape (a jigsaw layout)
    /// whose puzzles climb slower than its family's, known only after the search.
    #[error(
        "-n --hard={asked}: the search gave up short of that mean on this shape, its pools \
         reaching {reached} at best; ask for less; nothing written"
    )]
    HardOutOfReach {
        /// The mean asked for.
        asked: String,
        /// The highest mean of a pool's easiest puzzle.
        reached: String,
    },
    /// A shape whose first complete grid the search did not find within its guesses: a layout
    /// that may have none, known only after the search.
    #[error(
        "the search found no complete grid of this layout within {guesses} guesses: it may have \
         none; try another layout; nothing written"
    )]
    NoGridFound {
        /// The guesses the search made.
        guesses: usize,
    },
    /// Fewer pairwise inequivalent complete grids than asked for were found, on a shape with too
    /// many grids to list its classes.
    #[error(
        "-c {asked} --classes: only {found} pairwise inequivalent grids of this {size}×{size} shape \
         were found before the search gave up; the shape has too many grids to list its classes, \
         and may have more; nothing written"
    )]
    TooFewClasses {
        /// How many were asked for.
        asked: usize,
        /// How many were found.
        found: usize,
        /// N, of the N×N shape.
        size: usize,
    },
    /// A subtree of `shard`'s search holds fewer grids than its part of `count` needs.
    #[error("shard {shard} cannot hold {count} grids")]
    ShardTooSmall {
        /// The shard asked for.
        shard: Shard,
        /// The grids asked for.
        count: usize,
    },
}

impl Error {
    /// The usage error of `--column` on `input`, which is no CSV corpus.
    pub(crate) fn column_without_corpus(input: &str) -> Error {
        Error::Usage(format!(
            "'--column' names a column of a CSV corpus, but {input} is not one (its first line \
             holds no comma)"
        ))
    }

    /// The usage error of `--format grid` on `input`, a CSV corpus, whose rows hold lines.
    pub(crate) fn format_of_corpus(input: &str) -> Error {
        Error::Usage(format!(
            "'--format grid' writes grids, but {input} is a CSV corpus, whose results go into its \
             rows in the line format: drop '--format grid'"
        ))
    }

    /// The usage error of `--check --unique` on `input`, which is no CSV corpus: the grids of a
    /// file are complete, and have no solutions to count.
    pub(crate) fn unique_without_corpus(input: &str) -> Error {
        Error::Usage(format!(
            "'--check --unique' counts the solutions of a CSV corpus's puzzles, but {input} is \
             not one (its first line holds no comma); grids have none to count"
        ))
    }

    /// The usage error of a job whose results differ between X-Sudoku and plain records, on
    /// `input`, whose first records leave its diagonals in doubt (see `text/boxes.rs`).
    pub(crate) fn diagonals_in_doubt(input: &str) -> Error {
        Error::Usage(format!(
            "{input}: its grids hold both diagonals, but too few of them differ to tell X-Sudoku \
             from plain: give --diagonal or --diagonal=no"
        ))
    }

    /// An I/O error about `what`.
    pub fn io(what: &str, source: io::Error) -> Error {
        Error::Io {
            what: what.to_owned(),
            source,
        }
    }
}

fn too_few_grids(asked: usize, exist: usize, shard: Option<Shard>, first: Option<char>) -> String {
    let starting = first.map_or(String::new(), |s| format!(" with {s} in the top-left cell"));
    match (exist, shard) {
        (0, None) => format!("this shape has no complete grid{starting} at all; nothing written"),
        (exist, None) => format!(
            "this shape has only {exist} complete grids{starting} ({asked} asked for); nothing \
             written"
        ),
        (exist, Some(shard)) => format!(
            "shard {shard} of this shape holds only {exist} complete grids{starting} ({asked} asked \
             for); nothing written"
        ),
    }
}

/// An I/O error as the system words it ("No such file or directory"), for messages that name the
/// file themselves.
pub(crate) fn system_message(error: &io::Error) -> String {
    OsMessage(error).to_string()
}

/// An I/O error as the system words it ("No space left on device"), without Rust's " (os error 28)".
struct OsMessage<'a>(&'a io::Error);

impl fmt::Display for OsMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0.to_string();
        match text.rfind(" (os error ") {
            Some(at) if text.ends_with(')') => f.write_str(&text[..at]),
            _ => f.write_str(&text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_read_like_the_system() {
        let error = Error::io("out.txt", io::Error::from_raw_os_error(28));
        assert_eq!(error.to_string(), "out.txt: No space left on device");
        let custom = Error::io("x", io::Error::other("odd (thing)"));
        assert_eq!(custom.to_string(), "x: odd (thing)");
    }
}
