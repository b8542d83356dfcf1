//! Helpers shared by the integration tests, among them a checker that shares no code with the crate:
//! it reads text and tests each house with its own loops.
#![allow(dead_code)]

use std::collections::HashSet;

use assert_cmd::Command;

pub mod shapes;

/// The binary under test.
pub fn sudoku_gen() -> Command {
    Command::cargo_bin("sudoku-gen").expect("the binary is built")
}

/// The stdout of a successful run of the binary.
pub fn run_ok(args: &[&str]) -> Vec<u8> {
    let output = sudoku_gen().args(args).output().unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// The stdout of a successful run of the binary on `stdin`.
pub fn run_ok_on(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let output = sudoku_gen().args(args).write_stdin(stdin).output().unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// The grids of `-c` output in either format, as 81 digits each; panics on any layout error.
pub fn parse_grids(text: &[u8], line_format: bool) -> Vec<[u8; 81]> {
    let text = std::str::from_utf8(text).expect("ASCII output");
    let mut grids = Vec::new();
    if line_format {
        assert!(text.ends_with('\n'));
        for line in text.lines() {
            assert_eq!(line.len(), 81, "line {line:?}");
            grids.push(digits(line));
        }
    } else {
        assert!(text.ends_with('\n') && !text.ends_with("\n\n"));
        for block in text.trim_end_matches('\n').split("\n\n") {
            let lines: Vec<&str> = block.split('\n').collect();
            assert_eq!(lines.len(), 9, "block {block:?}");
            let mut all = String::new();
            for line in lines {
                assert_eq!(line.len(), 17, "line {line:?}");
                for (i, ch) in line.chars().enumerate() {
                    if i % 2 == 1 {
                        assert_eq!(ch, ' ');
                    } else {
                        all.push(ch);
                    }
                }
            }
            grids.push(digits(&all));
        }
    }
    grids
}

fn digits(text: &str) -> [u8; 81] {
    let mut grid = [0; 81];
    for (cell, ch) in grid.iter_mut().zip(text.bytes()) {
        assert!(ch.is_ascii_digit(), "byte {ch}");
        *cell = ch - b'0';
    }
    grid
}

/// Whether every row, column and box holds 1–9 exactly once.
pub fn is_valid_complete(grid: &[u8; 81]) -> bool {
    let full = |cells: &mut dyn Iterator<Item = u8>| {
        let mut seen = [false; 10];
        for v in cells {
            if v == 0 || v > 9 || seen[usize::from(v)] {
                return false;
            }
            seen[usize::from(v)] = true;
        }
        true
    };
    (0..9).all(|i| {
        full(&mut (0..9).map(|j| grid[9 * i + j]))
            && full(&mut (0..9).map(|j| grid[9 * j + i]))
            && full(&mut (0..9).map(|j| grid[9 * (3 * (i / 3) + j / 3) + 3 * (i % 3) + j % 3]))
    })
}

/// Asserts `count` grids, all valid and all distinct.
pub fn assert_valid_distinct(grids: &[[u8; 81]], count: usize) {
    assert_eq!(grids.len(), count);
    for (k, grid) in grids.iter().enumerate() {
        assert!(
            is_valid_complete(grid),
            "grid {} is not a valid complete grid",
            k + 1
        );
    }
    let distinct: HashSet<&[u8; 81]> = grids.iter().collect();
    assert_eq!(distinct.len(), count, "some grids repeat");
}

/// The records of a CSV text, its header first.
pub fn csv_records(text: &[u8]) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text)
        .records()
        .map(|record| record.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

/// The lowercase hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The 81-cell puzzles of a line-format text (`.` or `0` blank), skipping empty and `#` lines.
pub fn puzzle_lines(text: &str) -> Vec<[u8; 81]> {
    text.lines()
        .map(|l| l.trim_end())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut grid = [0; 81];
            for (cell, ch) in grid.iter_mut().zip(l.bytes()) {
                *cell = if ch == b'.' { 0 } else { ch - b'0' };
            }
            grid
        })
        .collect()
}

/// Asserts that each solution is a valid complete grid that keeps every given of its puzzle.
pub fn assert_solves(puzzles: &[[u8; 81]], solutions: &[[u8; 81]]) {
    assert_eq!(puzzles.len(), solutions.len());
    for (k, (puzzle, solution)) in puzzles.iter().zip(solutions).enumerate() {
        assert!(
            is_valid_complete(solution),
            "solution {} is not a valid grid",
            k + 1
        );
        for cell in 0..81 {
            assert!(
                puzzle[cell] == 0 || puzzle[cell] == solution[cell],
                "solution {} changes the given of cell {cell}",
                k + 1
            );
        }
    }
}

/// Solves the puzzles of `puzzles` into `solutions` (`-s PUZZLES -o SOLUTIONS`), which must work.
pub fn solve_into(puzzles: &std::path::Path, solutions: &std::path::Path) {
    sudoku_gen()
        .arg("-s")
        .arg(puzzles)
        .arg("-o")
        .arg(solutions)
        .assert()
        .success();
}

/// `--check SOLUTIONS --puzzles PUZZLES`, ready for more arguments.
pub fn check_against(solutions: &std::path::Path, puzzles: &std::path::Path) -> Command {
    let mut command = sudoku_gen();
    command
        .arg("--check")
        .arg(solutions)
        .arg("--puzzles")
        .arg(puzzles);
    command
}

/// Counts the solutions of a 9×9 puzzle (0 for blanks) up to `limit`, by backtracking on the
/// blank with the fewest candidates: plain, and quick enough for puzzles that need many guesses.
pub fn count_solutions(puzzle: &[u8; 81], limit: usize) -> usize {
    let peers = |cell: usize| {
        let (row, column) = (cell / 9, cell % 9);
        let corner = row / 3 * 27 + column / 3 * 3;
        (0..81).filter(move |&other| {
            other != cell
                && (other / 9 == row
                    || other % 9 == column
                    || (other / 27 * 27 + other % 9 / 3 * 3) == corner)
        })
    };
    fn walk(grid: &mut [u8; 81], peers: &[Vec<usize>], limit: usize) -> usize {
        let mut best: Option<(usize, u16)> = None;
        for cell in (0..81).filter(|&c| grid[c] == 0) {
            let used = peers[cell]
                .iter()
                .fold(0u16, |used, &p| used | 1 << grid[p]);
            let free = !used & 0x3fe;
            if best.is_none_or(|(_, b)| free.count_ones() < b.count_ones()) {
                best = Some((cell, free));
            }
        }
        let Some((cell, free)) = best else { return 1 };
        let mut count = 0;
        for digit in 1..=9u8 {
            if free >> digit & 1 == 1 && count < limit {
                grid[cell] = digit;
                count += walk(grid, peers, limit - count);
            }
        }
        grid[cell] = 0;
        count
    }
    let peers: Vec<Vec<usize>> = (0..81).map(|c| peers(c).collect()).collect();
    let clash = (0..81).any(|c| puzzle[c] != 0 && peers[c].iter().any(|&p| puzzle[p] == puzzle[c]));
    if clash {
        return 0;
    }
    walk(&mut puzzle.clone(), &peers, limit)
}
