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
