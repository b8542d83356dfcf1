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
//! layout, the fast path), `scan` (the line-by-line scanner that names each format problem) and
//! `repeats` (grids repeated across pieces and files); `solutions` (solutions against their
//! puzzles); `corpus` (CSV corpora); `report` (the report and its words).

mod corpus;
mod count;
mod grids;
mod layout;
mod repeats;
mod report;
mod scan;
pub mod shaped;
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
    /// Every grid has this digit in its top-left cell.
    pub first: Option<u8>,
}
