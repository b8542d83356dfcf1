//! The grader: checks a file of complete grids (every grid valid, none repeated, the count and the
//! first digit as asked, the text exactly in the `-c` format), a file of solutions against their
//! puzzles, or a CSV corpus of puzzles and solutions; [`shaped`] does the same for every shape
//! other than the 9×9 one.
//!
//! It shares no code with the generator or the solver, only the puzzle readers, so that it cannot
//! share their bugs: its house checks are plain loops over the text's symbols, and the solutions
//! that `--unique` counts are counted by a backtracking search of its own (`count`). Both checkers
//! word their problems through one [`Report`], so that one fault reads the same in both.
//!
//! The parts: `grids` (files of 9×9 grids, read a piece at a time), with `layout` (the exact `-c`
//! layout, the fast path), `scan` (the line-by-line scanner that names each format problem, of
//! every shape) and
//! `repeats` (grids repeated across pieces and files); `solutions` (solutions against their
//! puzzles); `corpus` (CSV corpora); `report` (the report and its words).
//!
//! # What `--check` reads
//! `--check FILE` without `--puzzles` reads the `-c` formats strictly: the first line decides between
//! the grid and the line format and between LF and CRLF line ends (a file of CRLF line ends is fine,
//! and the summary says so; a mix is a problem); single spaces, no trailing spaces, exactly one empty
//! line between grids, and an optional final newline. Grids of every other shape are held to the
//! same rules, by the same scanner, in the `-c` layout of their shape (see `shaped_form`): its rows
//! or lines, its alphabet, a jigsaw line's layout, and the compact rows `-s` answers in when its
//! input had them. `--check FILE --puzzles PFILE` takes `--count`
//! and `--first` too, for the solutions; FILE and PFILE cannot both be `-`.
//!
//! # The report
//! Each problem is `FILE:LINE: grid K: what is wrong` on stdout (at most
//! [`LISTED`](crate::problems::LISTED), then `... and N more`), then a summary:
//! `ok: N grids, all valid and distinct` (exit 0) or `FAIL: P problems in G grids` (exit 1). LINE is
//! where the problem stands: a repeated digit is reported on the line of its second copy, with both
//! places (`digit 6 repeats in column 1 (rows 3 and 5)`); something on the line between two grids is
//! one problem, and the grids around it still count.
//!
//! # Several files
//! `--check a.txt b.txt ...` checks each file as one (its format, every grid valid) and all of them
//! together for repeats: a grid of a later file equal to one of an earlier file is
//! `b.txt:LINE: grid K: repeats grid J of a.txt (line L)`. The verdict covers them all
//! (`ok: 4000000 grids in 4 files, all valid and distinct`); `--count` is then the total. Each key
//! (`repeats`) is one `u128`: an 88-bit hash of the grid's digits above its number among all the
//! grids read, so memory grows by 16 bytes a grid beside the pieces being read; two grids are taken as
//! equal when their hashes are, which for a billion grids has odds of a collision below 10⁻⁸. With
//! several files, a CSV corpus is checked row by row, not for repeats, and the verdict says so.
//! `--puzzles` and `--classes` take one file.
//!
//! # Solutions and corpora
//! `--check FILE --puzzles PFILE` reads both files a piece at a time, in step. A malformed solution
//! stops the pairing: the solutions before its piece are judged, every malformed record is reported,
//! and the counts are checked. `--check FILE.csv` checks every row of a CSV corpus: a solution that is
//! complete, valid and keeps its puzzle's givens (a row without one is a problem), and with
//! `--unique` a puzzle with exactly one solution; problems are `FILE:LINE: column C: what` (a
//! malformed field) or `FILE:LINE: grid K: what` (row K).
//!
//! CSV corpora of other shapes (see [`shaped_corpus`]) are checked row by row as 9×9 ones are.
//! Grids of other shapes (see [`shaped`]) are read a piece at a time too, several files against
//! each other as for 9×9, their keys kept within the same budget. Read whole rather than a piece
//! at a time, a stream not past its first malformed piece: `--check --classes` (which compares
//! every grid with every other) and `--check --puzzles` of other shapes (which pairs the two files
//! whole).
//! A stream read whole is still judged a piece at a time as it comes, and not read past its first
//! piece with a malformed record or an invalid grid: the check then reports what was read.

mod corpus;
mod count;
mod grids;
mod layout;
mod repeats;
mod report;
mod scan;
pub mod shaped;
pub mod shaped_corpus;
mod shaped_form;
mod solutions;

pub use corpus::CorpusRules;
pub use grids::{check_grid_files, check_grids};
pub use report::{Problem, Report, Subject, files_text};
pub use solutions::{check_solution_files, check_solutions};

/// What the grids of a file must satisfy beyond being valid and distinct.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridRules {
    /// Exactly this many grids.
    pub count: Option<usize>,
    /// Every grid has this symbol (its character) in its top-left cell.
    pub first: Option<u8>,
}
