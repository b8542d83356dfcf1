//! Equivalence classes: `--canon` against a brute-force canonicaliser, the canonical form's laws,
//! `--shuffle`, and `-c`/`-n --classes` against `--check --classes`.

use std::path::Path;

use crate::common::{
    assert_valid_distinct, check_against, parse_grids, puzzle_lines, solve_into, sudoku_gen,
};
use predicates::prelude::*;
use proptest::prelude::*;
use sudoku_gen::Grid;
use sudoku_gen::classes::canon::{Transformation, canonical_form, canonical_transformation};

const SAMPLE_17: &str = include_str!("../data/sample_17_clue.txt");
const SAMPLE_GRIDS: &str = include_str!("../data/c3_seed42.line.txt");

/// The 1296 orders of nine lines that keep blocks of three together.
fn block_orders() -> Vec<[usize; 9]> {
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut orders = Vec::new();
    for blocks in perms {
        for a in perms {
            for b in perms {
                for c in perms {
                    let mut order = [0; 9];
                    for (k, inside) in [a, b, c].iter().enumerate() {
                        for i in 0..3 {
                            order[3 * k + i] = 3 * blocks[k] + inside[i];
                        }
                    }
                    orders.push(order);
                }
            }
        }
    }
    orders
}

/// The smallest line over all 2·6⁸ arrangements of rows and columns, each with the relabelling it
/// forces (digits numbered in order of first appearance), blanks as 0: no pruning but an early exit
/// from each comparison.
fn brute_force_canon(grid: &[u8; 81]) -> [u8; 81] {
    let orders = block_orders();
    let mut best = [10u8; 81];
    for transpose in [false, true] {
        let at = |r: usize, c: usize| {
            if transpose {
                grid[9 * c + r]
            } else {
                grid[9 * r + c]
            }
        };
        for rows in &orders {
            for columns in &orders {
                let mut labels = [0u8; 10];
                let mut next = 1;
                let mut line = [0u8; 81];
                let mut below = false;
                let mut above = false;
                for cell in 0..81 {
                    let digit = at(rows[cell / 9], columns[cell % 9]);
                    let value = if digit == 0 {
                        0
                    } else {
                        if labels[usize::from(digit)] == 0 {
                            labels[usize::from(digit)] = next;
                            next += 1;
                        }
                        labels[usize::from(digit)]
                    };
                    line[cell] = value;
                    if !below {
                        if value > best[cell] {
                            above = true;
                            break;
                        }
                        below = value < best[cell];
                    }
                }
                if !above && below {
                    best = line;
                }
            }
        }
    }
    best
}

fn line_of(cells: &[u8; 81]) -> String {
    cells
        .iter()
        .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
        .collect()
}

fn grid_of(cells: &[u8; 81]) -> Grid {
    Grid::from_cells(*cells).unwrap()
}

#[test]
fn canon_agrees_with_brute_force() {
    let mut inputs: Vec<[u8; 81]> = puzzle_lines(SAMPLE_GRIDS);
    inputs.truncate(1);
    inputs.extend(puzzle_lines(SAMPLE_17).into_iter().step_by(20));
    // A grid with every other cell emptied.
    let mut half = inputs[0];
    for cell in (0..81).step_by(2) {
        half[cell] = 0;
    }
    inputs.push(half);
    // A puzzle with twin rows and columns.
    let mut sparse = [0u8; 81];
    sparse[0] = 5;
    sparse[40] = 5;
    sparse[80] = 7;
    inputs.push(sparse);
    // Inputs with repeats have forms too: a row, a column and a box that repeat a digit, and a
    // complete grid with two cells of a row exchanged.
    let mut repeats = [0u8; 81];
    for (cell, digit) in [(0, 5), (4, 5), (9, 3), (72, 3), (10, 7), (20, 7), (40, 1)] {
        repeats[cell] = digit;
    }
    inputs.push(repeats);
    let mut swapped = inputs[0];
    swapped.swap(0, 10);
    inputs.push(swapped);
    let mut row_twice = [0u8; 81];
    row_twice[..9].copy_from_slice(&inputs[0][..9]);
    row_twice[9..18].copy_from_slice(&inputs[0][..9]);
    inputs.push(row_twice);
    let text: String = inputs.iter().map(|g| line_of(g) + "\n").collect();
    let expected: String = inputs
        .iter()
        .map(|g| line_of(&brute_force_canon(g)) + "\n")
        .collect();
    sudoku_gen()
        .arg("--canon")
        .arg("-")
        .write_stdin(text)
        .assert()
        .success()
        .stdout(expected);
}

/// Grid or puzzle `index` of the samples, with the cells of `blanks` emptied.
fn sample(index: usize, blanks: u128) -> Grid {
    let mut inputs = puzzle_lines(SAMPLE_GRIDS);
    inputs.extend(puzzle_lines(SAMPLE_17));
    let mut cells = inputs[index % inputs.len()];
    if index.is_multiple_of(2) {
        cells = *sudoku_gen::solve(&grid_of(&cells)).unwrap().cells();
    }
    for (cell, value) in cells.iter_mut().enumerate() {
        if blanks >> cell & 1 == 1 && index.is_multiple_of(3) {
            *value = 0;
        }
    }
    grid_of(&cells)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn canon_is_a_class_invariant(index in 0usize..63, blanks in any::<u128>(), seed in any::<u64>()) {
        use rand::SeedableRng;
        let x = sample(index, blanks);
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
        let moved = Transformation::random(&mut rng).apply(&x);
        let form = canonical_form(&x);
        prop_assert_eq!(canonical_form(&moved), form);
        prop_assert_eq!(canonical_form(&form), form);
        // The form is an image of x under a move of the group (Transformation::new accepts only
        // those), and that move is undone by its inverse.
        let found = canonical_transformation(&x);
        prop_assert_eq!(found.apply(&x), form);
        prop_assert_eq!(found.inverse().apply(&form), x);
        prop_assert_eq!(form.given_count(), x.given_count());
    }
}

#[test]
fn shuffled_files_keep_their_classes() {
    let text = SAMPLE_17;
    let shuffled = sudoku_gen()
        .args(["--shuffle", "-", "--seed", "4"])
        .write_stdin(text)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_ne!(shuffled, text.as_bytes());
    let canon = |input: Vec<u8>| {
        sudoku_gen()
            .args(["--canon", "-"])
            .write_stdin(input)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    assert_eq!(canon(shuffled.clone()), canon(text.as_bytes().to_vec()));
    let again = sudoku_gen()
        .args(["--shuffle", "-", "--seed", "4", "-j", "1"])
        .write_stdin(text)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(again, shuffled);
}

#[test]
fn shuffled_csv_solutions_solve_their_puzzles() {
    let made = sudoku_gen()
        .args(["-n", "20", "--seed", "3", "--format", "csv"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let shuffled = sudoku_gen()
        .args(["--shuffle", "-", "--seed", "9"])
        .write_stdin(made.clone())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(shuffled).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("puzzle,solution,blanks,level"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 20);
    let puzzles = puzzle_lines(
        &rows
            .iter()
            .map(|r| r[0].to_owned() + "\n")
            .collect::<String>(),
    );
    let solutions = puzzle_lines(
        &rows
            .iter()
            .map(|r| r[1].to_owned() + "\n")
            .collect::<String>(),
    );
    crate::common::assert_solves(&puzzles, &solutions);
    let made = String::from_utf8(made).unwrap();
    for (row, original) in rows.iter().zip(made.lines().skip(1)) {
        let original: Vec<&str> = original.split(',').collect();
        assert_eq!(row[2..], original[2..]);
        assert_ne!(row[0], original[0]);
    }
}

#[test]
fn shuffle_reports_located_errors() {
    sudoku_gen()
        .args(["--shuffle", "-"])
        .write_stdin("puzzle,solution\n123,\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::starts_with("<stdin>:2:4: "));
    sudoku_gen()
        .args(["--canon", "-"])
        .write_stdin("12x\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::starts_with("<stdin>:1:"));
}

#[test]
fn grid_classes_pass_check_and_a_planted_copy_fails() {
    let out = sudoku_gen()
        .args(["-c", "500", "--classes", "--seed", "5", "--format", "line"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let grids = parse_grids(&out, true);
    assert_valid_distinct(&grids, 500);
    let j1 = sudoku_gen()
        .args([
            "-c",
            "500",
            "--classes",
            "--seed",
            "5",
            "--format",
            "line",
            "-j",
            "1",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(j1, out);
    sudoku_gen()
        .args(["--check", "-", "--classes"])
        .write_stdin(out.clone())
        .assert()
        .success()
        .stdout("ok: 500 grids, all valid and pairwise inequivalent\n");
    // Grid 7, moved, planted as grid 301.
    let copy = sudoku_gen()
        .args(["--shuffle", "-", "--seed", "1"])
        .write_stdin(out[82 * 6..82 * 7].to_vec())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let mut planted = out[..82 * 300].to_vec();
    planted.extend_from_slice(&copy);
    planted.extend_from_slice(&out[82 * 300..]);
    sudoku_gen()
        .args(["--check", "-", "--classes"])
        .write_stdin(planted.clone())
        .assert()
        .code(1)
        .stdout(
            "<stdin>:301: grid 301: equivalent to grid 7 (line 7)\nFAIL: 1 problem in 501 grids\n",
        );
    // Without --classes the copy is just another grid.
    sudoku_gen()
        .args(["--check", "-"])
        .write_stdin(planted)
        .assert()
        .success();
}

#[test]
fn puzzle_classes_pass_check() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    let solutions = dir.path().join("solutions.txt");
    sudoku_gen()
        .args([
            "-n",
            "30",
            "--classes",
            "--seed",
            "8",
            "--format",
            "line",
            "-o",
        ])
        .arg(&puzzles)
        .assert()
        .success();
    solve_into(&puzzles, &solutions);
    check_against(&solutions, &puzzles)
        .arg("--classes")
        .assert()
        .success();
    // Puzzle 2 moved and planted at the end: its solution too, so only the class check fails.
    let text = std::fs::read_to_string(&puzzles).unwrap();
    let moved = sudoku_gen()
        .args(["--shuffle", "-", "--seed", "2"])
        .write_stdin(text.lines().nth(1).unwrap().to_owned() + "\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let mut planted = text.into_bytes();
    planted.extend_from_slice(&moved);
    std::fs::write(&puzzles, planted).unwrap();
    solve_into(&puzzles, &solutions);
    check_against(&solutions, &puzzles)
        .arg("--classes")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "grid 31: its puzzle is equivalent to puzzle 2 (",
        ));
}

#[test]
fn the_17_clue_puzzles_are_pairwise_inequivalent() {
    let full =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/puzzles/puzzles2_17_clue.txt");
    let (text, expected) = match std::fs::read(&full) {
        Ok(text) => (text, 49_158),
        Err(_) => {
            eprintln!(
                "{} not found: checking the 60 puzzles of tests/data/sample_17_clue.txt only",
                full.display()
            );
            (SAMPLE_17.as_bytes().to_vec(), 60)
        }
    };
    let forms = sudoku_gen()
        .args(["--canon", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines: std::collections::HashSet<&[u8]> = forms
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(lines.len(), expected);
}

#[test]
fn classes_and_guesses_are_refused_where_they_do_not_belong() {
    for args in [
        &["-s", "-", "--classes"][..],
        &["--rate", "-", "--guesses", "1~2"],
        &["-n", "5", "--guesses", "10~100"],
        &["-n", "5", "--guesses", "1~3", "-m", "1"],
        &["-n", "5", "--guesses", "3~5", "-r", "30~44"],
        &["-n", "5", "--guesses", "5~3"],
        &["-n", "5", "--guesses", "4~9", "-m", "2"],
        &["--canon", "-", "--seed", "1"],
        &["--canon", "-", "--format", "grid"],
    ] {
        sudoku_gen().args(args).assert().code(2).stdout("");
    }
}

#[test]
fn rate_counts_guesses_and_n_keeps_the_range() {
    let out = sudoku_gen()
        .args([
            "-n",
            "20",
            "--seed",
            "6",
            "--guesses",
            "2~5",
            "--format",
            "line",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let rated = sudoku_gen()
        .args(["--rate", "-"])
        .write_stdin(out)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(rated).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("puzzle,level,singles,locked,pairs_triples,harder,guesses,guesses_mean")
    );
    let guesses: Vec<usize> = lines
        .map(|l| l.split(',').nth(6).unwrap().parse().unwrap())
        .collect();
    assert_eq!(guesses.len(), 20);
    assert!(guesses.iter().all(|g| (2..=5).contains(g)), "{guesses:?}");
}
