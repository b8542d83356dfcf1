//! `-n --hard`: every puzzle unique (by the checker of `tests/common`), minimal, distinct, at the
//! level asked by `--rate`'s measure, the same bytes at any `-j`; bad requests refused up front.

use sudoku_gen::classes::canon::canonical_form;
use sudoku_gen::model::grid::Grid;

use crate::common::{count_solutions, is_valid_complete, puzzle_lines, run_ok, sudoku_gen};

/// The 81 cells of a line (`.` for blanks).
fn cells(line: &str) -> [u8; 81] {
    puzzle_lines(line)[0]
}

/// Whether taking out any one given of `puzzle` leaves more than one solution.
fn is_minimal(puzzle: &[u8; 81]) -> bool {
    (0..81).filter(|&c| puzzle[c] != 0).all(|cell| {
        let mut fewer = *puzzle;
        fewer[cell] = 0;
        count_solutions(&fewer, 2) == 2
    })
}

/// `--rate`'s guesses_mean of each puzzle of a line-format text.
fn rated_means(puzzles: &str) -> Vec<f64> {
    let rated = sudoku_gen()
        .args(["--rate", "-"])
        .write_stdin(puzzles.to_owned())
        .output()
        .unwrap();
    assert_eq!(rated.status.code(), Some(0));
    let text = String::from_utf8(rated.stdout).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(header.ends_with(",guesses,guesses_mean"), "{header}");
    lines
        .map(|l| l.rsplit(',').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn hard_puzzles_are_unique_minimal_distinct_and_as_hard_as_asked() {
    let args = ["-n", "3", "--hard=8", "--seed", "3", "--format", "csv"];
    let csv = String::from_utf8(run_ok(&[&args[..], &["-j", "2"]].concat())).unwrap();
    assert_eq!(
        csv.as_bytes(),
        run_ok(&[&args[..], &["-j", "1"]].concat()),
        "the same seed gives the same bytes at any -j"
    );
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("puzzle,solution,blanks,level,guesses_mean")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3);
    let mut puzzles = String::new();
    for row in &rows {
        let (puzzle, solution) = (cells(row[0]), cells(row[1]));
        assert_eq!(count_solutions(&puzzle, 2), 1, "{}", row[0]);
        assert!(is_valid_complete(&solution));
        assert!((0..81).all(|c| puzzle[c] == 0 || puzzle[c] == solution[c]));
        assert_eq!(
            row[2],
            (puzzle.iter().filter(|&&d| d == 0).count()).to_string()
        );
        assert!(is_minimal(&puzzle), "{}", row[0]);
        assert!(row[4].parse::<f64>().unwrap() >= 8.0, "{row:?}");
        puzzles.push_str(row[0]);
        puzzles.push('\n');
    }
    let distinct: std::collections::HashSet<&str> = rows.iter().map(|r| r[0]).collect();
    assert_eq!(distinct.len(), rows.len());
    let means = rated_means(&puzzles);
    let written: Vec<f64> = rows.iter().map(|r| r[4].parse().unwrap()).collect();
    assert_eq!(means, written, "--rate measures what -n --hard wrote");
}

#[test]
fn hard_symmetric_classes_and_shards_work() {
    let out = String::from_utf8(run_ok(&[
        "-n",
        "2",
        "--hard=6",
        "--symmetric",
        "--classes",
        "--shard",
        "1/2",
        "--seed",
        "1",
        "--format",
        "line",
    ]))
    .unwrap();
    let puzzles = puzzle_lines(&out);
    assert_eq!(puzzles.len(), 2);
    for puzzle in &puzzles {
        assert_eq!(count_solutions(puzzle, 2), 1);
        assert!((0..81).all(|c| (puzzle[c] == 0) == (puzzle[80 - c] == 0)));
    }
    assert!(rated_means(&out).iter().all(|&m| m >= 6.0));
    let classes: std::collections::HashSet<_> = puzzles
        .iter()
        .map(|p| canonical_form(&Grid::from_cells(*p).unwrap()))
        .collect();
    assert_eq!(classes.len(), puzzles.len(), "no two equivalent");
}

#[test]
fn bad_hard_requests_are_usage_errors_naming_what_works() {
    for (args, says) in [
        (&["-n", "5", "--hard=51"][..], "50 guesses at most"),
        (&["-n", "5", "--hard=1025"][..], "from 0 to 1024"),
        (
            &["-n", "5", "--hard=11", "--symmetric"],
            "10 guesses at most",
        ),
        (&["-n", "5", "--hard", "-r", "50~58"], "not -r"),
        (
            &["-n", "5", "--hard=5", "--symmetric", "--minimal"],
            "drop one",
        ),
        (&["-n", "5", "--hard", "-m", "3"], "not -m"),
        (&["-n", "5", "--hard=3x"], "such as 34 or 30.5"),
        (
            &["-n", "5", "--hard", "--size", "4"],
            "solved without a guess",
        ),
        (&["-c", "5", "--hard"], "--hard"),
    ] {
        let out = sudoku_gen().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn forks_of_the_climbed_pools_give_the_same_bytes_at_any_j() {
    // Forty puzzles are more than the two lineages find while they climb (fifteen each), so
    // forks of their pools give the rest, in parallel at -j 2.
    let args = ["-n", "40", "--hard=3", "--seed", "2", "--format", "line"];
    let out = run_ok(&[&args[..], &["-j", "2"]].concat());
    assert_eq!(out, run_ok(&[&args[..], &["-j", "1"]].concat()));
    let text = String::from_utf8(out).unwrap();
    let puzzles = puzzle_lines(&text);
    assert_eq!(puzzles.len(), 40);
    assert!(puzzles.iter().all(|p| count_solutions(p, 2) == 1));
    let distinct: std::collections::HashSet<_> = puzzles.iter().collect();
    assert_eq!(distinct.len(), 40);
    assert!(rated_means(&text).iter().all(|&m| m >= 3.0));
}
