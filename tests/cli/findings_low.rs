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
