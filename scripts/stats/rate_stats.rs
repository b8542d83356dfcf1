//! Level distribution and rating speed for a puzzle file.
//!
//!     cargo run --release --example rate_stats -- FILE

use std::time::Instant;

use sudoku_gen::jobs::rate::rate_with;
use sudoku_gen::text::parse::parse_puzzles;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: rate_stats FILE")?;
    let text = std::fs::read(&path)?;
    let puzzles = parse_puzzles(&text).map_err(|e| format!("{path}: {} problems", e.count()))?;
    let mut solver = sudoku_gen::Solver::new();
    let mut levels = [0usize; 4];
    let start = Instant::now();
    for puzzle in &puzzles.grids {
        match rate_with(&mut solver, puzzle) {
            Some(rating) => levels[usize::from(rating.level.number())] += 1,
            None => levels[0] += 1,
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let n = puzzles.grids.len().max(1) as f64;
    println!(
        "{path}: level 1: {}, level 2: {}, level 3: {}, invalid: {}; {:.1} µs/puzzle",
        levels[1],
        levels[2],
        levels[3],
        levels[0],
        1e6 * seconds / n
    );
    Ok(())
}
