//! `sudoku-gen --check`: the grader, one kind of problem at a time.

use crate::common::sudoku_gen;
use proptest::prelude::*;
use sudoku_gen::check::{GridRules, check_grids};
use sudoku_gen::{Format, GridRequest, render_grids};

const VALID: &str = include_str!("../data/c3_seed42.grid.txt");

/// Runs `--check -` with `args` on `text`: (code, stdout).
fn check(text: &str, args: &[&str]) -> (i32, String) {
    let out = sudoku_gen()
        .args(["--check", "-"])
        .args(args)
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// `VALID` with line `line` (from 1) passed through `edit`.
fn edited(line: usize, edit: impl Fn(&str) -> String) -> String {
    VALID
        .split('\n')
        .enumerate()
        .map(|(i, l)| if i + 1 == line { edit(l) } else { l.to_owned() })
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_one_problem(text: &str, args: &[&str], expected: &str, grids: usize) {
    let (code, out) = check(text, args);
    assert_eq!(code, 1, "{text:?}");
    let grids = if grids == 1 {
        "1 grid".to_owned()
    } else {
        format!("{grids} grids")
    };
    assert_eq!(
        out,
        format!("<stdin>:{expected}\nFAIL: 1 problem in {grids}\n"),
        "{text:?}"
    );
}

#[test]
fn valid_files_pass() {
    assert_eq!(
        check(VALID, &[]),
        (0, "ok: 3 grids, all valid and distinct\n".into())
    );
    assert_eq!(
        check(VALID.trim_end(), &["--count", "3"]),
        (0, "ok: 3 grids, all valid and distinct\n".into())
    );
    assert_eq!(
        check(&VALID.replace('\n', "\r\n"), &[]).1,
        "ok: 3 grids, all valid and distinct (CRLF line ends)\n"
    );
    let lines = include_str!("../data/c3_seed42.line.txt");
    assert_eq!(
        check(lines, &["--first", "9"]),
        (0, "ok: 3 grids, all valid and distinct\n".into())
    );
}

#[test]
fn repeated_digits_name_the_house() {
    assert_one_problem(
        &edited(1, |l| l.replacen('9', "4", 1)),
        &[],
        "1: grid 1: digit 4 repeats in row 1 (columns 1 and 2)",
        3,
    );
    assert_one_problem(
        &edited(12, |l| l.replacen(&l[..1], "9", 1)),
        &[],
        "12: grid 2: digit 9 repeats in row 2 (columns 1 and 6)",
        3,
    );
    // Swapping columns 3 and 4 keeps every row and column whole but breaks the boxes.
    let swapped = VALID
        .split('\n')
        .map(|l| {
            if l.len() == 17 {
                format!("{}{}{}{}{}", &l[..4], &l[6..7], &l[5..6], &l[4..5], &l[7..])
            } else {
                l.to_owned()
            }
        })
        .take(10)
        .collect::<Vec<_>>()
        .join("\n");
    let text = format!("{swapped}\n{}", VALID.split_once("\n\n").unwrap().1);
    assert_one_problem(
        &text,
        &[],
        "2: grid 1: digit 9 repeats in box 1 (row 1, column 1 and row 2, column 3)",
        3,
    );
}

#[test]
fn bad_characters() {
    assert_one_problem(
        &edited(2, |l| format!("0{}", &l[1..])),
        &[],
        "2: grid 1: column 1: expected a digit 1-9, found '0'",
        3,
    );
    assert_one_problem(
        &edited(2, |l| format!("{}x{}", &l[..4], &l[5..])),
        &[],
        "2: grid 1: column 5: expected a digit 1-9, found 'x'",
        3,
    );
    assert_one_problem(
        &edited(2, |l| format!("{}-{}", &l[..3], &l[4..])),
        &[],
        "2: grid 1: column 4: expected ' ', found '-'",
        3,
    );
}

#[test]
fn layout_problems() {
    assert_one_problem(
        &edited(3, |l| l[..15].to_owned()),
        &[],
        "3: grid 1: column 16: expected ' ', found the end of the line (short line)",
        3,
    );
    assert_one_problem(
        &edited(3, |l| format!("{l} ")),
        &[],
        "3: grid 1: column 18: expected the end of the line, found ' ' (trailing space)",
        3,
    );
    assert_one_problem(
        &edited(10, |_| "\n".into()),
        &[],
        "11: expected one empty line between grids, found more",
        3,
    );
    let missing = VALID
        .split('\n')
        .enumerate()
        .filter(|&(i, _)| i != 4)
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\n");
    assert_one_problem(
        &missing,
        &[],
        "9: grid 1: expected 9 rows, found 8 (the grid starts on line 1)",
        3,
    );
    assert_one_problem(
        &format!("{VALID}\n"),
        &[],
        "30: expected no empty line after the last grid",
        3,
    );
    let crlf = VALID.replace('\n', "\r\n");
    let second_end = crlf.match_indices("\r\n").nth(1).unwrap().0;
    let mixed = format!("{}{}", &crlf[..second_end], &crlf[second_end + 1..]);
    assert_one_problem(
        &mixed,
        &[],
        "2: grid 1: expected a CRLF line end like the first line's, found LF",
        3,
    );
}

#[test]
fn repeated_grid_names_both() {
    let first_grid = VALID.split("\n\n").next().unwrap();
    assert_one_problem(
        &format!("{first_grid}\n\n{VALID}"),
        &[],
        "11: grid 2: repeats grid 1 (line 1)",
        4,
    );
}

#[test]
fn repeated_grid_in_a_malformed_file_is_placed_by_its_own_line() {
    // The extra empty line sends the file through the line-by-line scanner.
    let first_grid = VALID.split("\n\n").next().unwrap();
    let (code, out) = check(&format!("{first_grid}\n\n\n{VALID}"), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "<stdin>:11: expected one empty line between grids, found more\n\
         <stdin>:12: grid 2: repeats grid 1 (line 1)\n\
         FAIL: 2 problems in 4 grids\n"
    );
}

#[test]
fn repeats_after_malformed_grids_keep_the_grids_numbers() {
    let request = GridRequest {
        count: 14,
        seed: 3,
        first: None,
        shard: None,
    };
    let grids = render_grids(&request, Format::Line).unwrap();
    let mut lines: Vec<String> = String::from_utf8(grids)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    lines[2].replace_range(80.., "x");
    lines[4] = "12345".to_owned();
    lines[11] = lines[6].clone();
    lines[12] = lines[1].clone();
    let (code, out) = check(&(lines.join("\n") + "\n"), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "<stdin>:3: grid 3: column 81: expected a digit 1-9, found 'x'\n\
         <stdin>:5: grid 5: column 6: expected a digit 1-9, found the end of the line (short line)\n\
         <stdin>:12: grid 12: repeats grid 7 (line 7)\n\
         <stdin>:13: grid 13: repeats grid 2 (line 2)\n\
         FAIL: 4 problems in 14 grids\n"
    );
}

#[test]
fn count_and_first_digit() {
    assert_one_problem(VALID, &["--count", "4"], "29: expected 4 grids, found 3", 3);
    let (code, out) = check(VALID, &["--first", "5"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("<stdin>:1: grid 1: top-left digit is 9, expected 5\n"));
    assert!(out.ends_with("FAIL: 3 problems in 3 grids\n"));
}

#[test]
fn solutions_against_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    std::fs::copy(
        format!(
            "{}/tests/data/sample_unbiased.txt",
            env!("CARGO_MANIFEST_DIR")
        ),
        &puzzles,
    )
    .unwrap();
    let solved = sudoku_gen()
        .arg("-s")
        .arg(&puzzles)
        .output()
        .unwrap()
        .stdout;
    let solutions = String::from_utf8(solved).unwrap();
    let run = |text: &str| {
        let out = sudoku_gen()
            .args(["--check", "-", "--puzzles"])
            .arg(&puzzles)
            .write_stdin(text.to_owned())
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
        )
    };
    assert_eq!(
        run(&solutions),
        (
            0,
            "ok: 60 solutions, all valid and keeping their puzzles' givens\n".into()
        )
    );
    // Puzzle 1 gives 3 in row 1, column 3; a solution relabelled 3 <-> 4 is valid but changes it.
    let first: String = solutions
        .lines()
        .next()
        .unwrap()
        .chars()
        .map(|c| match c {
            '3' => '4',
            '4' => '3',
            c => c,
        })
        .collect();
    let changed = solutions.replacen(solutions.lines().next().unwrap(), &first, 1);
    assert_eq!(run(&changed), (1, "<stdin>:1: grid 1: row 1, column 3 is 4, but the puzzle gives 3\nFAIL: 1 problem in 60 grids\n".into()));
    let fewer: String = solutions
        .lines()
        .take(59)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(run(&fewer), (1, "<stdin>:60: expected 60 solutions, one per puzzle, found 59\nFAIL: 1 problem in 59 grids\n".into()));
}

#[test]
fn malformed_puzzle_file_is_located_and_nothing_is_judged() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    std::fs::write(
        &puzzles,
        format!("{}\n{}?\n", ".".repeat(81), ".".repeat(80)),
    )
    .unwrap();
    let solution = "123456789".repeat(9);
    sudoku_gen()
        .args(["--check", "-", "--puzzles"])
        .arg(&puzzles)
        .write_stdin(format!("{solution}\n{solution}\n"))
        .assert()
        .code(1)
        .stdout(format!(
            "{0}:2:81: unexpected character '?'\nFAIL: 1 problem in the puzzles of {0}; no \
             solution was checked\n",
            puzzles.display()
        ))
        .stderr("");
}

#[test]
fn malformed_solution_file_is_located() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    std::fs::write(&puzzles, format!("{}\n", ".".repeat(81))).unwrap();
    let out = sudoku_gen()
        .args(["--check", "-", "--puzzles"])
        .arg(&puzzles)
        .write_stdin(format!("{}x\n", "1".repeat(80)))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("<stdin>:1: column 81: unexpected character 'x'\n"),
        "{stdout}"
    );
    assert!(stdout.contains("FAIL: "), "{stdout}");
}

#[test]
fn swapped_digits_are_reported_on_their_line() {
    // Two digits of row 3 of grid 2 (line 13) swapped: column 1 now holds its new digit twice,
    // in rows 3 and 5, and the problem stands on the line of the later one.
    let text = edited(13, |l| {
        let mut cells: Vec<char> = l.chars().collect();
        cells.swap(0, 2);
        cells.into_iter().collect()
    });
    assert_one_problem(
        &text,
        &[],
        "15: grid 2: digit 6 repeats in column 1 (rows 3 and 5)",
        3,
    );
}

#[test]
fn something_on_the_line_between_grids_is_one_problem() {
    for stray in [" ", "x", "\t", "1 2"] {
        assert_one_problem(
            &edited(10, |_| stray.to_owned()),
            &["--count", "3"],
            &format!(
                "10: expected an empty line between grids, found {}",
                match stray {
                    "\t" => "'\\t'".to_owned(),
                    s => format!("'{}'", &s[..1]),
                }
            ),
            3,
        );
    }
}

#[test]
fn an_extra_cell_is_not_a_trailing_space() {
    assert_one_problem(
        &edited(3, |l| format!("{l} 1")),
        &[],
        "3: grid 1: column 18: expected the end of the line, found ' '",
        3,
    );
    assert_one_problem(
        &edited(3, |l| format!("{l}  ")),
        &[],
        "3: grid 1: column 18: expected the end of the line, found ' ' (trailing space)",
        3,
    );
}

#[test]
fn a_utf16_file_is_named_as_such() {
    let mut text = vec![0xff, 0xfe];
    for unit in VALID.encode_utf16() {
        text.extend_from_slice(&unit.to_le_bytes());
    }
    let out = sudoku_gen()
        .args(["--check", "-"])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "<stdin>:1: the file is UTF-16 little-endian (it starts with its byte-order mark); \
         expected ASCII\nFAIL: 1 problem in 0 grids\n"
    );
    sudoku_gen()
        .args(["-s", "-"])
        .write_stdin(text)
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "<stdin>:1:1: the text is UTF-16 little-endian (it starts with its byte-order mark); \
             expected ASCII or UTF-8\n",
        );
}

/// Puzzles (the first three of the unbiased sample) and their solutions, in files of a temporary
/// folder: (folder, puzzles path, solutions text).
fn three_solved() -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    let sample = include_str!("../data/sample_unbiased.txt");
    let three: String = sample.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(&puzzles, three).unwrap();
    let solved = sudoku_gen()
        .args(["-s"])
        .arg(&puzzles)
        .output()
        .unwrap()
        .stdout;
    (dir, puzzles, String::from_utf8(solved).unwrap())
}

fn check_solutions(solutions: &str, puzzles: &std::path::Path, args: &[&str]) -> (i32, String) {
    let out = sudoku_gen()
        .args(["--check", "-", "--puzzles"])
        .arg(puzzles)
        .args(args)
        .write_stdin(solutions.to_owned())
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn a_malformed_solution_still_counts_against_the_puzzles() {
    let (_dir, puzzles, solutions) = three_solved();
    let lines: Vec<&str> = solutions.lines().collect();
    let broken = format!("{}\n{}x\n", lines[0], &lines[1][..80]);
    let (code, out) = check_solutions(&broken, &puzzles, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "<stdin>:2: column 81: unexpected character 'x'\n\
         <stdin>:3: expected 3 solutions, one per puzzle, found 2\n\
         FAIL: 2 problems in 2 grids\n"
    );
}

#[test]
fn solutions_take_count_and_first_digit() {
    let (_dir, puzzles, solutions) = three_solved();
    assert_eq!(
        check_solutions(&solutions, &puzzles, &["--count", "3"]).0,
        0
    );
    let (code, out) = check_solutions(&solutions, &puzzles, &["--count", "4"]);
    assert_eq!(code, 1);
    assert!(out.contains(": expected 4 grids, found 3\n"), "{out}");
    let first = solutions.as_bytes()[0] - b'0';
    let other = first % 9 + 1;
    assert_eq!(
        check_solutions(&solutions, &puzzles, &["--first", &first.to_string()]).0,
        0
    );
    let (code, out) = check_solutions(&solutions, &puzzles, &["--first", &other.to_string()]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with(&format!(
            "<stdin>:1: grid 1: top-left digit is {first}, expected {other}\n"
        )),
        "{out}"
    );
}

#[test]
fn both_files_from_standard_input_is_a_usage_error() {
    sudoku_gen()
        .args(["--check", "-", "--puzzles", "-"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("cannot both read standard input"));
}

#[test]
fn unreadable_file_is_named() {
    sudoku_gen()
        .args(["--check", "/nonexistent/grids.txt"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("sudoku-gen: error: /nonexistent/grids.txt: No such file or directory\n");
}

#[test]
fn usage_errors_for_checking() {
    for args in [
        &["--check"][..],
        &["--check", "x", "--seed", "1"],
        &["--check", "x", "y", "--classes"],
        &["--check", "-", "-"],
        &["--check", "x", "-o", "y"],
        &["-c", "3", "--count", "3"],
        &["--check", "-", "--puzzles", "-"],
    ] {
        sudoku_gen().args(args).assert().code(2).stdout("");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn every_generated_file_passes(count in 1usize..2000, seed in any::<u64>(), line in any::<bool>()) {
        let format = if line { Format::Line } else { Format::Grid };
        let text = render_grids(&GridRequest { count, seed, first: Some(7), shard: None }, format).unwrap();
        let report = check_grids(&text, GridRules { count: Some(count), first: Some(b'7') });
        prop_assert!(report.is_clean(), "{:?}", report.problems);
        prop_assert_eq!(report.grids, count);
    }

    #[test]
    fn any_single_corrupted_byte_is_detected(seed in any::<u64>(), line in any::<bool>(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let format = if line { Format::Line } else { Format::Grid };
        let mut text = render_grids(&GridRequest { count: 100, seed, first: None, shard: None }, format).unwrap();
        let i = at.index(text.len());
        prop_assume!(text[i] != byte);
        text[i] = byte;
        let report = check_grids(&text, GridRules { count: Some(100), first: None });
        prop_assert!(!report.is_clean(), "byte {} set to {:?} went unnoticed", i, byte as char);
    }
}

#[test]
fn a_byte_order_mark_is_one_problem_and_the_grids_are_still_read() {
    let grids = sudoku_gen()
        .args(["-c", "3", "--seed", "4"])
        .output()
        .unwrap()
        .stdout;
    let mut text = b"\xef\xbb\xbf".to_vec();
    text.extend_from_slice(&grids);
    sudoku_gen()
        .args(["--check", "-"])
        .write_stdin(text)
        .assert()
        .code(1)
        .stdout(
            "<stdin>:1: the file starts with a UTF-8 byte-order mark, which the -c formats do not \
             have\nFAIL: 1 problem in 3 grids\n",
        );
}
