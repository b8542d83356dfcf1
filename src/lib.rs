//! Bulk Sudoku work: generating distinct complete grids, solving puzzle files, making puzzles with a
//! unique solution, rating and checking them, and grading homework programs that do the same
//! ([`grade()`], by a [`grade::plan`]).
//!
//! The boundary type is [`Grid`], a plain 81-cell value, 0 for an empty cell and 1..=9 for a digit.
//! Each job builds its output as bytes in one buffer, or a piece at a time for inputs of any size;
//! [`io::output`] writes it with a single `write_all` or as a stream. On Linux,
//! [`io::memory::HugePageAllocator`] backs large buffers with huge pages when a program registers
//! it as its global allocator, as the `sudoku-gen` binary does.
//!
//! The jobs a command line asks for are run by [`jobs::run`], from a [`jobs::Request`]; the
//! binary's `--help` is the user's manual of them, and each module's docs hold the contract of
//! its part.
//!
//! Generate distinct complete grids:
//! ```
//! use sudoku_gen::{GridRequest, generate_grids};
//!
//! let request = GridRequest { count: 3, seed: 7, first: Some(5), shard: None };
//! let grids = generate_grids(&request).unwrap();
//! assert_eq!(grids.len(), 3);
//! assert!(grids.iter().all(|g| g.is_filled() && g.get(0) == 5));
//! ```
//!
//! Solve a puzzle, and count its solutions up to a limit (2 tells whether it is unique):
//! ```
//! use sudoku_gen::{Grid, count_solutions, solve};
//!
//! let puzzle: Grid =
//!     "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2...."
//!         .parse()
//!         .unwrap();
//! let solution = solve(&puzzle).unwrap();
//! assert!(solution.is_filled() && solution.keeps_givens_of(&puzzle));
//! assert_eq!(count_solutions(&puzzle, 2), 1);
//! ```
//!
//! Make puzzles with exactly one solution, and rate one:
//! ```
//! use sudoku_gen::engine::standard::dig::{PuzzleRequest, generate_puzzles};
//! use sudoku_gen::{count_solutions, jobs::rate::rate};
//!
//! let request = PuzzleRequest { count: 2, seed: 1, ..PuzzleRequest::default() };
//! let puzzles = generate_puzzles(&request, &|| {});
//! assert!(puzzles.iter().all(|p| count_solutions(&p.puzzle, 2) == 1));
//! assert!(rate(&puzzles[0].puzzle).is_some());
//! ```
//!
//! Every other shape (4×4 to 25×25, other boxes, jigsaw regions, diagonals) goes through
//! [`engine::generic`], one engine generic over the [`model::shape::Shape`]: here a complete
//! 16×16 grid found from an empty one.
//! ```
//! use sudoku_gen::engine::generic::solve::Solver;
//! use sudoku_gen::model::shape::Shape;
//! use sudoku_gen::model::symbols::Symbols;
//!
//! let shape = Shape::boxed(16, None, false, Symbols::default_for(16)).unwrap();
//! let mut grid = vec![0; 256];
//! assert_eq!(Solver::new(&shape).count(&[0; 256], 1, &mut grid), 1);
//! assert!(shape.first_repeat(&grid).is_none() && !grid.contains(&0));
//! ```
//!
//! Check a file of grids as the grader does:
//! ```
//! use sudoku_gen::check::{GridRules, check_grids};
//! use sudoku_gen::{Format, GridRequest, render_grids};
//!
//! let request = GridRequest { count: 10, seed: 3, first: None, shard: None };
//! let text = render_grids(&request, Format::Grid).unwrap();
//! let report = check_grids(&text, GridRules { count: Some(10), first: None });
//! assert!(report.is_clean());
//! ```
//!
//! # Modules
//!
//! A folder per concern: values (`model`), kernels (`engine`), jobs written once over them
//! (`jobs`), and the layers around them.
//!
//! - `src/model/`: the grid value and the glossary (cell, row, box, band, ...), shapes, symbols,
//!   houses, shards.
//! - `src/engine/`: the one engine interface that every job is written against, and the hard-puzzle
//!   search written once for both kernels (`hard/`: pools, moves, forks, each shape's reach).
//! - `src/engine/standard/`: the 9×9 kernels: the bit-parallel band solver, the `-c` walk, digging
//!   puzzles, the 9×9 side of the hard search and its measure (`hard/`).
//! - `src/engine/standard/solve/`: the band solver's parts: givens as band words, the guess, the
//!   segment tables and their BMI2 path, the search on configurations that the hard measure counts.
//! - `src/engine/standard/walk/`: the `-c` walk's parts: what a seed decides, where parts start,
//!   the last three digits.
//! - `src/engine/generic/`: the kernels for every other shape, and their side of the hard search
//!   and its measure (`hard/`).
//! - `src/jobs/`: each job written once over the engine: solve a file, make grids and puzzles,
//!   rate.
//! - `src/text/`: the text formats, parsing, CSV corpora, and the text of every shape.
//! - `src/io/`: input read a piece at a time, atomic output files, huge-page memory, progress bars.
//! - `src/check/`: the independent grader of outputs (`--check`), sharing no code with the makers.
//! - `src/classes/`: canonical forms, fingerprints, shuffles, and outputs without equivalent pairs.
//! - `src/classes/canon/`: the canonical form's parts: transformations, partner maps, the
//!   complete-grid and puzzle searches.
//! - `src/classes/shaped/`: equivalence on every other shape: each family's group, its searches,
//!   shuffles and classes.
//! - `src/grade/`: the homework grader, its plans, and running untrusted programs under limits.
//! - `src/grade/plans/`: the shipped grading plans (`basic`, `pair`).
//! - `src/cli.rs`, `src/cli/`: argument parsing and dispatch only.
//! - `src/main.rs`: the binary: runs the command line and maps the outcome to an exit code.
//! - `src/error.rs`: the library's errors.
//! - `src/problems.rs`: lists of located problems (the first 20, then a count).

pub mod check;
pub mod classes;
pub mod engine;
pub mod error;
pub mod grade;
pub mod io;
pub mod jobs;
pub mod model;
pub mod problems;
pub mod text;

pub use engine::standard::solve::{Outcome, Solver, count_solutions, solve};
pub use engine::standard::walk::{GridRequest, generate_grids, render_grids};
pub use error::Error;
pub use grade::{GradeJob, GradeRequest, Grading, grade};
pub use model::grid::Grid;
pub use model::shard::Shard;
pub use text::format::Format;
