//! Bulk Sudoku work: generating distinct complete grids, solving puzzle files, making puzzles with a
//! unique solution, and checking all of them.
//!
//! The boundary type is [`Grid`], a plain 81-cell value. Each job builds its whole output as bytes in
//! one buffer; [`output`] writes it with a single `write_all`. On Linux, `memory::HugePageAllocator`
//! backs such buffers with huge pages when a program registers it as its global allocator, as the
//! `sudoku-gen` binary does.
//!
//! ```
//! use sudoku_gen::{GridRequest, generate_grids};
//!
//! let grids = generate_grids(&GridRequest { count: 3, seed: 7, first: Some(5) });
//! assert_eq!(grids.len(), 3);
//! assert!(grids.iter().all(|g| g.is_filled() && g.get(0) == 5));
//! ```

pub mod canon;
pub mod check;
pub mod classes;
pub mod error;
pub mod format;
pub mod generate;
pub mod grid;
#[cfg(target_os = "linux")]
pub mod memory;
pub mod output;
pub mod puzzle;
pub mod rate;
pub mod shuffle;
pub mod solve;

pub use error::Error;
pub use format::Format;
pub use generate::{GridRequest, generate_grids, render_grids};
pub use grid::Grid;
pub use solve::{Failure, Outcome, Solver, count_solutions, solve, solve_batch};
