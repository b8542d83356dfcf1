//! The `sudoku` crate's rate on the work sudoku-gen does, single-threaded, so that
//! `scripts/bench.sh` can print a ratio against it. The program times its own loop only (parsing
//! and solving each line, or making each puzzle), not its start-up nor reading the file: that
//! favours the crate, whose rate is compared with sudoku-gen's whole process.
//!
//! ```text
//! sudoku-crate solve-first FILE    a first solution of every puzzle (like `sudoku-gen -s`)
//! sudoku-crate solve-unique FILE   the solution and the proof that it is the only one (`-s --unique`)
//! sudoku-crate puzzles N           N minimal puzzles with one solution (like `-n N --minimal`)
//! ```
//!
//! FILE holds one 81-character puzzle per line (`.` or `0` for a blank); empty lines and lines
//! starting with `#` are skipped. The one line on stdout is what bench.sh reads:
//! `sudoku-crate MODE: COUNT items in SECONDS s = RATE/s (1 thread)`.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use sudoku::Sudoku;

const USAGE: &str = "usage: sudoku-crate solve-first FILE | solve-unique FILE | puzzles N";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match timed_run(&args) {
        Ok((count, elapsed)) => {
            let secs = elapsed.as_secs_f64();
            let rate = count as f64 / secs;
            println!(
                "sudoku-crate {}: {count} items in {secs:.3} s = {rate:.0}/s (1 thread)",
                args[0]
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("sudoku-crate: {message}");
            ExitCode::from(2)
        }
    }
}

/// Runs the mode that `args` name: how many items it made or solved, and the time its loop took.
fn timed_run(args: &[String]) -> Result<(usize, Duration), String> {
    match args {
        [mode, file] if mode == "solve-first" || mode == "solve-unique" => {
            let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim_end)
                .filter(|line| !line.is_empty() && !line.starts_with('#'))
                .collect();
            let unique = mode == "solve-unique";
            let start = Instant::now();
            let mut solved = 0;
            for line in &lines {
                let puzzle = Sudoku::from_str_line(line).map_err(|e| format!("{file}: {e:?}"))?;
                let solution = if unique {
                    puzzle.solution()
                } else {
                    puzzle.some_solution()
                };
                solved += usize::from(black_box(solution).is_some());
            }
            let elapsed = start.elapsed();
            eprintln!(
                "sudoku-crate {mode}: {solved} of {} puzzles solved",
                lines.len()
            );
            Ok((lines.len(), elapsed))
        }
        [mode, count] if mode == "puzzles" => {
            let count: usize = count
                .parse()
                .map_err(|_| format!("N is not a count: {count}"))?;
            let start = Instant::now();
            for _ in 0..count {
                black_box(Sudoku::generate());
            }
            Ok((count, start.elapsed()))
        }
        _ => Err(USAGE.to_string()),
    }
}
