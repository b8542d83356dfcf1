//! `--shard I/K` with `-c` and `-n`: the shards of one seed are valid, share nothing, and do not
//! depend on the thread count.

use std::collections::HashSet;

use crate::common::{parse_grids, sudoku_gen};
use sudoku_gen::{Grid, count_solutions};

/// Runs the binary with `args`, expecting success and a quiet stderr; returns stdout.
fn run(args: &[&str]) -> Vec<u8> {
    let out = sudoku_gen().args(args).output().unwrap();
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn grid_shards_are_valid_and_share_no_grid() {
    let dir = tempfile::tempdir().unwrap();
    let mut all = HashSet::new();
    for index in 1..=4 {
        let shard = format!("{index}/4");
        let part = dir.path().join(format!("part-{index}.txt"));
        let part = part.to_str().unwrap();
        let args = ["-c", "100000", "--shard", &shard, "--seed", "9"];
        run(&[&args[..], &["--format", "line", "-o", part]].concat());
        let report = run(&["--check", part, "--count", "100000"]);
        assert!(
            String::from_utf8_lossy(&report).contains("100000 grids"),
            "{}",
            String::from_utf8_lossy(&report)
        );
        let grids = parse_grids(&std::fs::read(part).unwrap(), true);
        assert_eq!(grids.len(), 100_000);
        assert!(grids.into_iter().all(|g| all.insert(g)), "shard {shard}");
    }
    assert_eq!(all.len(), 400_000);
}

/// The (puzzle, solution) of each row of `-n --format csv` output.
fn puzzle_rows(text: &[u8]) -> Vec<(Grid, Grid)> {
    let text = String::from_utf8(text.to_vec()).unwrap();
    let grid = |field: &str| {
        let cells: Vec<u8> = field
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        Grid::from_cells(cells.try_into().unwrap()).unwrap()
    };
    text.lines()
        .skip(1)
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            (grid(fields[0]), grid(fields[1]))
        })
        .collect()
}

#[test]
fn puzzle_shards_are_proper_and_share_no_grid() {
    let mut puzzles = HashSet::new();
    let mut solutions = HashSet::new();
    for index in 1..=4 {
        let shard = format!("{index}/4");
        let text = run(&[
            "-n", "60", "-r", "30~50", "--shard", &shard, "--seed", "3", "--format", "csv",
        ]);
        let rows = puzzle_rows(&text);
        assert_eq!(rows.len(), 60);
        for (puzzle, solution) in rows {
            assert_eq!(count_solutions(&puzzle, 2), 1);
            assert!(solution.is_filled() && solution.first_repeat().is_none());
            assert!(solution.keeps_givens_of(&puzzle));
            assert!(puzzles.insert(puzzle), "shard {shard}: a puzzle repeats");
            assert!(solutions.insert(solution), "shard {shard}: a grid repeats");
        }
    }
}

#[test]
fn classes_hold_within_a_shard() {
    let text = run(&[
        "-n",
        "40",
        "--classes",
        "--shard",
        "2/3",
        "--seed",
        "8",
        "--format",
        "line",
    ]);
    assert_eq!(text.split(|&b| b == b'\n').count(), 41);
}

#[test]
fn shards_do_not_depend_on_threads() {
    for args in [
        &["-c", "100000", "--shard", "3/4", "--seed", "9"][..],
        &["-c", "2000", "--shard", "1000000/1000000", "--seed", "1"],
        &["-n", "40", "--minimal", "--shard", "2/3", "--seed", "4"],
    ] {
        let one = run(&[args, &["-j", "1"]].concat());
        assert_eq!(one, run(&[args, &["-j", "2"]].concat()), "{args:?}");
        assert!(!one.is_empty());
    }
}

#[test]
fn other_shards_give_other_output() {
    let of = |shard: &str| run(&["-c", "50", "--shard", shard, "--seed", "2"]);
    assert_ne!(of("1/2"), of("2/2"));
    assert_ne!(of("1/2"), run(&["-c", "50", "--seed", "2"]));
}

#[test]
fn bad_shards_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["-c", "5", "--seed", "1", "--shard", "0/4"], "'0/4'"),
        (&["-c", "5", "--seed", "1", "--shard", "5/4"], "'5/4'"),
        (&["-c", "5", "--seed", "1", "--shard", "4/0"], "'4/0'"),
        (
            &["-n", "5", "--seed", "1", "--shard", "1/1000001"],
            "1000000",
        ),
        (&["-c", "5", "--seed", "1", "--shard", "a/b"], "'a/b'"),
        (&["-c", "5", "--seed", "1", "--shard", "1/2/3"], "'1/2/3'"),
        (&["-c", "5", "--seed", "1", "--shard", ""], "I/K"),
        (&["-c", "5", "--seed", "1", "--shard", "-1/2"], "-1"),
        (&["-s", "-", "--shard", "1/2"], "'-s'"),
        (&["--check", "-", "--shard", "1/2"], "'--check'"),
        (&["--rate", "-", "--shard", "1/2"], "'--rate'"),
        (&["-c", "5", "--shard", "1/2"], "--seed"),
        (&["-n", "5", "--shard", "1/2"], "--seed"),
        (
            &["-c", "5", "--classes", "--seed", "1", "--shard", "1/2"],
            "--classes",
        ),
    ];
    for (args, expected) in cases {
        let out = sudoku_gen().args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}
