//! Regression tests of low-severity findings: refusals that came after the work, and outcomes
//! found by a search that exited as usage errors. Each test is named after its bug and runs the
//! real binary.

use std::time::{Duration, Instant};

use crate::common::sudoku_gen;
use crate::findings::refusal;

#[test]
fn jigsaw_random_refusals_came_after_the_layout_was_drawn() {
    // Each draw of a 25×25 or 16×16 layout takes a second or so: five refusals after their draws
    // would take seconds, five before them a few milliseconds each.
    let cases: [&[&str]; 5] = [
        &["-c", "5", "--jigsaw", "random", "--size", "25"],
        &["-n", "5", "--jigsaw", "random", "--size", "25"],
        &["-n", "5", "--jigsaw", "random", "--size", "16"],
        &["-n", "5", "--jigsaw", "random", "--size", "25", "--hard"],
        &["--rate", "x", "--jigsaw", "random", "--size", "25"],
    ];
    let started = Instant::now();
    for args in cases {
        let message = refusal(args);
        assert!(
            message.contains("--format line")
                || message.contains("is not served")
                || message.contains("for -c and -n only"),
            "{args:?}: {message}"
        );
    }
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "the refusals took {:?}",
        started.elapsed()
    );
}

#[test]
fn a_layout_whose_grid_the_search_did_not_find_exited_as_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let layout = crate::common::shapes::layout_without_grids(dir.path());
    let layout = layout.to_str().unwrap();
    for args in [
        &[
            "-c",
            "2",
            "--jigsaw",
            layout,
            "--diagonal",
            "--format",
            "line",
        ][..],
        &["-n", "2", "--jigsaw", layout, "--format", "line"],
    ] {
        let output = sudoku_gen().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("no complete grid"), "{args:?}: {stderr}");
        assert!(!stderr.contains("Usage:"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_level_three_request_for_no_guesses_ran_for_ever() {
    // The solvers reason within level 2, so no level 3 puzzle is solved without a guess: the
    // digging drew puzzles for ever at 9×9, and gave up after seconds on other shapes.
    let started = Instant::now();
    for shape in [&[][..], &["--minimal"], &["--size", "16"], &["--diagonal"]] {
        let args = [&["-n", "1", "-m", "3", "--guesses", "0~0"][..], shape].concat();
        let message = refusal(&args);
        assert!(
            message.contains("level 3 puzzles need a guess") && message.contains("end at 1"),
            "{args:?}: {message}"
        );
    }
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_shard_with_no_4x4_puzzle_was_told_to_ask_for_at_most_none() {
    // "has no minimal puzzles; ask for at most that many": at most none is no request.
    let message = refusal(&[
        "-n",
        "5",
        "--shard",
        "999999/1000000",
        "--size",
        "4",
        "--seed",
        "1",
    ]);
    assert!(
        message.contains("has no minimal puzzles; use fewer shards"),
        "{message}"
    );
    // Where some exist, asking for at most that many still says what to do.
    let message = refusal(&["-n", "99999", "--size", "4", "-r", "12~12", "--symmetric"]);
    assert!(
        message.contains("exactly 2208 symmetric puzzles"),
        "{message}"
    );
    assert!(
        message.contains("blanks; ask for at most that many"),
        "{message}"
    );
}

#[test]
fn nine_by_nine_compact_rows_were_answered_spaced() {
    // Nine lines of nine digits, no spaces, `0` for blanks: `-s` answers in the input's layout,
    // as it does at every other size; `--format` still decides when given.
    let puzzle = include_str!("../data/sample_17_clue.txt")
        .lines()
        .next()
        .unwrap()
        .replace('.', "0");
    let rows: Vec<&str> = (0..9).map(|r| &puzzle[9 * r..9 * r + 9]).collect();
    let input = format!("{}\n\n{}\n", rows.join("\n"), rows.join("\n"));
    let out = sudoku_gen()
        .args(["-s", "-"])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let grids: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(grids.len(), 2, "{text}");
    for grid in grids {
        let lines: Vec<&str> = grid.lines().collect();
        assert_eq!(lines.len(), 9, "{text}");
        assert!(
            lines
                .iter()
                .all(|l| l.len() == 9 && l.bytes().all(|b| b.is_ascii_digit()))
        );
        let cells: String = lines.concat();
        let grid = crate::common::puzzle_lines(&cells)[0];
        assert!(crate::common::is_valid_complete(&grid), "{cells}");
        assert!(
            puzzle
                .bytes()
                .zip(cells.bytes())
                .all(|(p, c)| p == b'0' || p == c)
        );
    }
    let spaced = sudoku_gen()
        .args(["-s", "-", "--format", "grid"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(
        String::from_utf8(spaced.stdout)
            .unwrap()
            .starts_with("9 5 3 1")
    );
}

#[test]
fn a_malformed_puzzles_file_ended_the_check_without_its_verdict() {
    // `--check SOLUTIONS --puzzles PFILE` with a malformed PFILE wrote its problems on stderr and
    // nothing on stdout, where every other check ends with `ok:` or `FAIL:`.
    let dir = tempfile::tempdir().unwrap();
    for shape in [&[][..], &["--size", "6"]] {
        let made = crate::common::run_ok(
            &[&["-n", "2", "--seed", "1", "--format", "line"], shape].concat(),
        );
        let puzzles = dir.path().join("puzzles.txt");
        let solutions = dir.path().join("solutions.txt");
        std::fs::write(&puzzles, [&made[..], b"xx\n"].concat()).unwrap();
        let solved = sudoku_gen().arg("-s").arg(&puzzles).output().unwrap();
        std::fs::write(&solutions, &solved.stdout).unwrap();
        let out = sudoku_gen()
            .arg("--check")
            .arg(&solutions)
            .arg("--puzzles")
            .arg(&puzzles)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{shape:?}");
        let report = String::from_utf8(out.stdout).unwrap();
        let name = puzzles.display();
        assert!(
            report.starts_with(&format!("{name}:3:1: ")),
            "{shape:?}: {report}"
        );
        assert!(
            report.ends_with(&format!(
                "FAIL: 1 problem in the puzzles of {name}; no solution was checked\n"
            )),
            "{shape:?}: {report}"
        );
    }
}
