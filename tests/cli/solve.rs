//! `sudoku-gen -s`: solving puzzle files end to end.

use crate::common::{assert_solves, parse_grids, puzzle_lines, sudoku_gen};
use predicates::prelude::*;

const SETS: [&str; 3] = ["sample_17_clue", "sample_unbiased", "sample_forum_hardest"];

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}.txt", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `-s` with `args` on `input` (standard input), returning (code, stdout, stderr).
fn solve_stdin(args: &[&str], input: &[u8]) -> (i32, Vec<u8>, String) {
    let out = sudoku_gen()
        .args(["-s", "-"])
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn every_sample_set_is_solved_and_checked() {
    for set in SETS {
        for unique in [false, true] {
            let mut cmd = sudoku_gen();
            cmd.args(["-s", &data(set)]);
            if unique {
                cmd.arg("--unique");
            }
            let out = cmd.output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{set}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let puzzles = puzzle_lines(&std::fs::read_to_string(data(set)).unwrap());
            let solutions = parse_grids(&out.stdout, true);
            assert_solves(&puzzles, &solutions);
        }
    }
}

#[test]
fn puzzles_with_several_solutions_are_reported_under_unique() {
    let out = sudoku_gen()
        .args(["-s", &data("sample_serg"), "--unique", "--format", "line"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let puzzles = puzzle_lines(&std::fs::read_to_string(data("sample_serg")).unwrap());
    assert_solves(&puzzles, &parse_grids(&out.stdout, true));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 21);
    assert_eq!(
        lines[0],
        format!(
            "{}: puzzle 1 (line 1): more than one solution",
            data("sample_serg")
        )
    );
    assert_eq!(lines[20], "... and 20 more");
    // Without --unique, one solution each and no complaint.
    sudoku_gen()
        .args(["-s", &data("sample_serg")])
        .assert()
        .success()
        .stderr("");
}

const SOLVABLE: &str =
    "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";
const SOLVED: &str =
    "123675948456982371789314562964157283517238496832496157271849635395761824648523719";

#[test]
fn unsolvable_puzzles_are_reported_and_written_in_place() {
    let repeat_row = format!("55{}", ".".repeat(79));
    let repeat_column = format!("4{}4{}", ".".repeat(8), ".".repeat(71));
    let repeat_box = format!("7{}7{}", ".".repeat(9), ".".repeat(70));
    // No digit repeats, but the last cell of row 1 can only be 9, which column 9 already has.
    let dead_end = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
    let input = [
        SOLVABLE,
        &repeat_row,
        &repeat_column,
        &repeat_box,
        &dead_end,
        SOLVABLE,
    ]
    .join("\n");
    let (code, stdout, stderr) = solve_stdin(&[], input.as_bytes());
    assert_eq!(code, 1);
    let expected_out = [
        SOLVED,
        &repeat_row,
        &repeat_column,
        &repeat_box,
        &dead_end,
        SOLVED,
    ]
    .join("\n")
        + "\n";
    assert_eq!(String::from_utf8(stdout).unwrap(), expected_out);
    assert_eq!(
        stderr,
        "<stdin>: puzzle 2 (line 2): no solution: digit 5 repeats in row 1\n\
         <stdin>: puzzle 3 (line 3): no solution: digit 4 repeats in column 1\n\
         <stdin>: puzzle 4 (line 4): no solution: digit 7 repeats in box 1\n\
         <stdin>: puzzle 5 (line 5): no solution\n"
    );
}

#[test]
fn grid_format_in_and_out() {
    let grid_puzzle = "0 0 3 0 7 0 0 4 0\n0 0 6 0 0 2 3 0 1\n0 8 9 0 0 0 0 0 0\n0 0 0 1 0 7 0 8 0\n5 1 7 0 0 0 0 0 6\n0 0 0 4 0 0 0 0 0\n2 7 1 0 0 9 0 0 5\n0 9 5 0 0 0 0 0 0\n0 0 0 0 2 0 0 0 0\n";
    let input = format!("{grid_puzzle}\n\n{grid_puzzle}");
    let (code, stdout, stderr) = solve_stdin(&[], input.as_bytes());
    assert_eq!((code, stderr.as_str()), (0, ""));
    let expected = sudoku_gen()
        .args(["-s", "-", "--format", "grid"])
        .write_stdin(format!("{SOLVABLE}\n{SOLVABLE}\n"))
        .output()
        .unwrap()
        .stdout;
    assert_eq!(stdout, expected);
    assert_eq!(stdout.len(), 2 * 163 - 1);
    let (_, line_out, _) = solve_stdin(&["--format", "line"], input.as_bytes());
    assert_eq!(
        String::from_utf8(line_out).unwrap(),
        format!("{SOLVED}\n{SOLVED}\n")
    );
    // Rows without spaces are grid rows too, answered in kind.
    let compact: String = grid_puzzle.replace(' ', "");
    let (code, stdout, _) = solve_stdin(&[], compact.as_bytes());
    assert_eq!(code, 0);
    let unspaced: Vec<u8> = expected[..162]
        .iter()
        .copied()
        .filter(|&b| b != b' ')
        .collect();
    assert_eq!(stdout, unspaced);
}

#[test]
fn comments_are_skipped_in_the_grid_format() {
    let grid = "0 0 3 0 2 0 6 0 0\n9 0 0 3 0 5 0 0 1\n0 0 1 8 0 6 4 0 0\n\
                0 0 8 1 0 2 9 0 0\n7 0 0 0 0 0 0 0 8\n0 0 6 7 0 8 2 0 0\n\
                0 0 2 6 0 9 5 0 0\n8 0 0 2 0 3 0 0 9\n0 0 5 0 1 0 3 0 0\n";
    let (code, plain, stderr) = solve_stdin(&[], format!("{grid}\n{grid}").as_bytes());
    assert_eq!((code, stderr.as_str()), (0, ""));
    let (rows, rest) = grid.split_at(54);
    let commented = format!("# a header\n{grid}# between grids\n\n# more\n{rows}# inside\n{rest}");
    let (code, with_comments, stderr) = solve_stdin(&[], commented.as_bytes());
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(with_comments, plain);
}

#[test]
fn tolerated_variations() {
    let variants = [
        format!("\u{feff}{SOLVABLE}\r\n"),
        format!("{SOLVABLE} \t\n"),
        SOLVABLE.to_string(),
        format!(
            "# a comment\n\n{}\n\nend\nthis is not read\n",
            SOLVABLE.replace('.', "0")
        ),
    ];
    for input in variants {
        let (code, stdout, stderr) = solve_stdin(&[], input.as_bytes());
        assert_eq!((code, stderr.as_str()), (0, ""), "{input:?}");
        assert_eq!(
            String::from_utf8(stdout).unwrap(),
            format!("{SOLVED}\n"),
            "{input:?}"
        );
    }
}

#[test]
fn malformed_input_is_located_and_nothing_is_solved() {
    let cases: &[(String, &str)] = &[
        (
            format!("{SOLVABLE}\n{}\n", &SOLVABLE[..80]),
            "<stdin>:2:81: expected 81 cells, found 80\n",
        ),
        (
            format!("{SOLVABLE}1\n"),
            "<stdin>:1:82: expected 81 cells, found 82\n",
        ),
        (
            format!("{}x{}\n", &SOLVABLE[..10], &SOLVABLE[11..]),
            "<stdin>:1:11: unexpected character 'x'\n",
        ),
        (
            "0 0 3 0 7 0 0 4 0\n0 0 6 0 0 2 3 0 1\n".into(),
            "<stdin>:2:1: unfinished grid: the grid starting on line 1 has 2 of 9 lines\n",
        ),
        (
            "0 0 3 0 7 0 0 4 0\n".repeat(3)
                + "0 0 3 0 7 0 0 4\n"
                + &"0 0 3 0 7 0 0 4 0\n".repeat(5),
            "<stdin>:4:16: expected 9 cells, found 8\n",
        ),
        (
            "0 0 3 0 7 0 0 4 0\n".repeat(9) + "0 0 0 0 0 0 0 0 0\n",
            "<stdin>:10:1: expected an empty line after the 9 lines of a grid\n",
        ),
        (
            "0 0 3 0 7 0 0 4 0\n".repeat(8) + "0  0 3 0 7 0 0 4 0\n",
            "<stdin>:9:3: unexpected character ' '\n",
        ),
    ];
    for (input, expected) in cases {
        let (code, stdout, stderr) = solve_stdin(&[], input.as_bytes());
        assert_eq!(code, 1, "{input:?}");
        assert!(stdout.is_empty());
        assert_eq!(&stderr, expected, "{input:?}");
    }
    let mut bad_utf8 = SOLVABLE.as_bytes()[..5].to_vec();
    bad_utf8.extend([0xff, 0xfe]);
    bad_utf8.extend(&SOLVABLE.as_bytes()[7..]);
    let (code, stdout, stderr) = solve_stdin(&[], &bad_utf8);
    assert_eq!((code, stdout.len()), (1, 0));
    assert_eq!(
        stderr,
        "<stdin>:1:6: unexpected character byte 0xff (not UTF-8)\n"
    );
}

#[test]
fn problems_beyond_twenty_are_counted() {
    let input = "12\n".repeat(25);
    let (code, stdout, stderr) = solve_stdin(&[], input.as_bytes());
    assert_eq!((code, stdout.len()), (1, 0));
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 21);
    assert_eq!(lines[20], "... and 5 more");
}

#[test]
fn unreadable_files_are_named() {
    sudoku_gen()
        .args(["-s", "/nonexistent/puzzles.txt"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("sudoku-gen: error: /nonexistent/puzzles.txt: No such file or directory\n");
    let dir = tempfile::tempdir().unwrap();
    sudoku_gen()
        .arg("-s")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("Is a directory"));
}

/// Puzzles enough for several work pieces (a piece is 256 puzzles), easy and hard mixed, in the line
/// format.
fn many_puzzles() -> String {
    let made = sudoku_gen()
        .args(["-n", "1200", "--seed", "11", "--format", "line"])
        .output()
        .unwrap();
    assert!(made.status.success());
    let hardest = std::fs::read_to_string(data("sample_forum_hardest")).unwrap();
    let mut text = String::from_utf8(made.stdout).unwrap();
    text.insert_str(text.len() / 2, &hardest);
    text
}

#[test]
fn thread_count_never_changes_the_output() {
    let puzzles = many_puzzles();
    let lines = puzzle_lines(&puzzles);
    assert!(
        lines.len() > 4 * 256,
        "enough puzzles for two threads to share"
    );
    let (code, one, _) = solve_stdin(&["-j", "1", "--format", "line"], puzzles.as_bytes());
    assert_eq!(code, 0);
    let (code, two, _) = solve_stdin(&["-j", "2", "--format", "line"], puzzles.as_bytes());
    assert_eq!(code, 0);
    assert_eq!(one, two);
    assert_solves(&lines, &parse_grids(&two, true));
}

#[test]
fn thread_count_never_changes_ratings_or_checks() {
    let puzzles = many_puzzles();
    let rate = |threads: &str| {
        sudoku_gen()
            .args(["--rate", "-", "-j", threads])
            .write_stdin(puzzles.as_bytes())
            .output()
            .unwrap()
    };
    let (one, two) = (rate("1"), rate("2"));
    assert!(one.status.success() && !one.stdout.is_empty());
    assert_eq!(one.stdout, two.stdout);
    let solved = sudoku_gen()
        .args(["-s", "-", "--format", "line"])
        .write_stdin(puzzles.as_bytes())
        .output()
        .unwrap()
        .stdout;
    let dir = tempfile::tempdir().unwrap();
    let (puzzles_path, solved_path) = (dir.path().join("p.txt"), dir.path().join("s.txt"));
    std::fs::write(&puzzles_path, &puzzles).unwrap();
    std::fs::write(&solved_path, &solved).unwrap();
    let check = |threads: &str| {
        sudoku_gen()
            .args(["--check", solved_path.to_str().unwrap(), "--puzzles"])
            .arg(&puzzles_path)
            .args(["-j", threads])
            .output()
            .unwrap()
    };
    let (one, two) = (check("1"), check("2"));
    assert!(
        one.status.success(),
        "{}",
        String::from_utf8_lossy(&one.stdout)
    );
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn rate_on_malformed_input_is_located_and_writes_nothing() {
    let bad = format!("{}\n{}x\n", ".".repeat(81), ".".repeat(80));
    sudoku_gen()
        .args(["--rate", "-"])
        .write_stdin(bad)
        .assert()
        .code(1)
        .stdout("")
        .stderr("<stdin>:2:81: unexpected character 'x'\n");
}

#[test]
fn usage_errors_for_solving() {
    for args in [
        &["-s"][..],
        &["-s", "x", "-c", "5"],
        &["-s", "x", "--seed", "1"],
        &["-s", "x", "--first", "3"],
        &["-c", "5", "--unique"],
    ] {
        sudoku_gen()
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("error"));
    }
}

#[test]
fn hostile_input_never_panics() {
    let inputs: Vec<Vec<u8>> = vec![
        vec![],
        b"\n\n\n".to_vec(),
        vec![0; 1000],
        b"end".to_vec(),
        "9".repeat(81).into_bytes(),
        ".".repeat(81).into_bytes(),
        b"\xef\xbb\xbf".to_vec(),
        "1 2 3 4 5 6 7 8 9\n".repeat(20).into_bytes(),
    ];
    for input in inputs {
        let (code, _, stderr) = solve_stdin(&[], &input);
        assert!(code == 0 || code == 1, "{input:?}");
        assert!(!stderr.contains("panicked"));
    }
}
