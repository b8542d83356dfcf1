//! Solver statistics for a puzzle file, measured inside one process: puzzles per second of the
//! solving loop alone, puzzles solved without guessing, and guesses per puzzle.
//!
//!     cargo run --release --example solve_stats -- FILE [LIMIT]
//!
//! LIMIT is the number of solutions to look for (1: first solution; 2: prove uniqueness).

use std::time::Instant;

use sudoku_gen::Solver;
use sudoku_gen::text::parse::parse_puzzles;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: solve_stats FILE [LIMIT]")?;
    let limit: usize = args.next().map_or(Ok(1), |s| s.parse())?;
    let text = std::fs::read(&path)?;
    let puzzles = parse_puzzles(&text).map_err(|e| format!("{path}: {} problems", e.count()))?;
    let mut solver = Solver::new();
    let (mut solved, mut unique, mut no_guess, mut guesses) = (0, 0, 0, 0);
    let start = Instant::now();
    for puzzle in &puzzles.grids {
        let outcome = solver.search(puzzle, limit);
        solved += usize::from(outcome.first_solution.is_some());
        unique += usize::from(outcome.solutions == 1);
        no_guess += usize::from(outcome.guesses == 0);
        guesses += outcome.guesses;
    }
    let seconds = start.elapsed().as_secs_f64();
    let n = puzzles.grids.len().max(1) as f64;
    println!(
        "{path}: {} puzzles, {solved} solved, {unique} with one solution found (limit {limit}), \
         {:.1}% without guessing, {:.2} guesses/puzzle, {:.1} µs/puzzle, {:.0} puzzles/s",
        puzzles.grids.len(),
        100.0 * no_guess as f64 / n,
        guesses as f64 / n,
        1e6 * seconds / n,
        n / seconds
    );
    Ok(())
}
