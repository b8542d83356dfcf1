//! `--shard I/K` with `-c` and `-n`: the shards of one seed are valid, share nothing, and do not
//! depend on the thread count.

use std::collections::HashSet;

use crate::common::shapes::{Spec, keeps_givens, line_records};
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

/// The shapes other than 9×9 that shards are tried on: their flags, and the checker's spec of
/// them (`None` for a random jigsaw, whose lines carry their layout).
fn other_shapes() -> Vec<(Vec<&'static str>, Option<Spec>)> {
    vec![
        (vec!["--size", "6"], Some(Spec::boxes(6, 2, 3))),
        (
            vec!["--size", "12", "--box", "3x4"],
            Some(Spec::boxes(12, 3, 4)),
        ),
        (vec!["--size", "16"], Some(Spec::boxes(16, 4, 4))),
        (vec!["--jigsaw", "random"], None),
        (
            vec!["--size", "9", "--diagonal"],
            Some(Spec::boxes(9, 3, 3).with_diagonals()),
        ),
    ]
}

/// Shard `index` of 3 of `args` in the line format, the same at `-j 1` and `-j 2`: its text, and
/// its records, each with the checker's spec of its shape.
fn shard_of(args: &[&str], spec: &Option<Spec>, index: usize) -> (Vec<u8>, Vec<(Spec, Vec<u8>)>) {
    let shard = format!("{index}/3");
    let args = [args, &["--shard", &shard, "--format", "line"]].concat();
    let text = run(&[&args[..], &["-j", "1"]].concat());
    assert_eq!(text, run(&[&args[..], &["-j", "2"]].concat()), "{args:?}");
    let records = line_records(&text)
        .into_iter()
        .map(|(layout, cells)| match (spec, layout) {
            (Some(spec), None) => (spec.clone(), cells),
            (None, Some(layout)) => (Spec::jigsaw(&layout), cells),
            _ => panic!("{args:?}: a layout where none belongs, or none where one does"),
        })
        .collect();
    (text, records)
}

#[test]
fn grid_shards_of_other_shapes_are_valid_and_share_no_grid() {
    for (shape, spec) in other_shapes() {
        let mut all = HashSet::new();
        for index in 1..=3 {
            let args = [&["-c", "300", "--seed", "5"][..], &shape].concat();
            let (_, records) = shard_of(&args, &spec, index);
            assert_eq!(records.len(), 300, "{shape:?}");
            for (spec, grid) in records {
                assert!(spec.is_valid_complete(&grid), "{shape:?}: {grid:?}");
                assert!(
                    all.insert(grid),
                    "{shape:?} shard {index}/3: a grid repeats"
                );
            }
        }
    }
}

#[test]
fn puzzle_shards_of_other_shapes_have_one_solution_and_share_none() {
    let four = (vec!["--size", "4"], Some(Spec::boxes(4, 2, 2)));
    for (shape, spec) in other_shapes().into_iter().chain([four]) {
        let (mut puzzles, mut solutions) = (HashSet::new(), HashSet::new());
        for index in 1..=3 {
            let args = [&["-n", "8", "--seed", "6"][..], &shape].concat();
            let (text, records) = shard_of(&args, &spec, index);
            assert_eq!(records.len(), 8, "{shape:?}");
            // A jigsaw line carries its layout; a random one is no layout to solve by.
            let solve_flags = if spec.is_some() { &shape[..] } else { &[] };
            let solve = [
                &["-s", "-", "--unique", "--format", "line"][..],
                solve_flags,
            ]
            .concat();
            let solved = sudoku_gen().args(solve).write_stdin(text).output().unwrap();
            let stderr = String::from_utf8_lossy(&solved.stderr);
            assert!(solved.status.success(), "{shape:?}: {stderr}");
            let found = line_records(&solved.stdout);
            assert_eq!(found.len(), 8, "{shape:?}");
            for ((spec, puzzle), (_, solution)) in records.into_iter().zip(found) {
                assert!(spec.is_valid_complete(&solution), "{shape:?}");
                assert!(keeps_givens(&spec, &puzzle, &solution), "{shape:?}");
                assert!(
                    puzzles.insert(puzzle),
                    "{shape:?} {index}/3: a puzzle repeats"
                );
                assert!(
                    solutions.insert(solution),
                    "{shape:?} {index}/3: a grid repeats"
                );
            }
        }
    }
}

#[test]
fn small_shapes_refuse_more_than_a_shard_holds() {
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["-c", "289", "--size", "4"],
            1,
            "shard 2/3 of this shape holds only",
        ),
        (
            &["-n", "100000", "--size", "4"],
            2,
            "shard 2/3 of this 4×4 shape has exactly",
        ),
    ];
    for (args, code, expected) in cases {
        let args = [args, &["--shard", "2/3", "--seed", "1"][..]].concat();
        let out = sudoku_gen().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {stderr}");
        assert!(
            out.stdout.is_empty() && stderr.contains(expected),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn shards_of_other_shapes_are_checked_together_as_for_9x9() {
    // `--check` of several files was refused off 9×9: the manual's way to check every shard of
    // a run stopped at the standard shape.
    let dir = tempfile::tempdir().unwrap();
    for (shape, spec) in other_shapes() {
        // A jigsaw's grid format would not carry its layout.
        let formats = if spec.is_some() {
            &["line", "grid"][..]
        } else {
            &["line"]
        };
        for &format in formats {
            let mut files = Vec::new();
            for index in 1..=3 {
                let shard = format!("{index}/3");
                let args = [
                    "-c", "40", "--seed", "5", "--shard", &shard, "--format", format,
                ];
                let file = dir.path().join(format!("part-{index}.txt"));
                std::fs::write(&file, run(&[&args[..], &shape].concat())).unwrap();
                files.push(file.to_str().unwrap().to_owned());
            }
            let files: Vec<&str> = files.iter().map(String::as_str).collect();
            let what = format!("{shape:?} {format}");
            let check = |extra: &[&str]| {
                let out = sudoku_gen().arg("--check").args(extra).output().unwrap();
                (out.status.code(), String::from_utf8(out.stdout).unwrap())
            };
            let all = [&files[..], &["--count", "120"]].concat();
            assert_eq!(
                check(&all),
                (
                    Some(0),
                    "ok: 120 grids in 3 files, all valid and distinct\n".into()
                ),
                "{what}"
            );
            let (code, report) = check(&[&files[..], &["--count", "121"]].concat());
            assert_eq!(code, Some(1), "{what}");
            assert!(
                report.contains("expected 121 grids in all the files, found 120"),
                "{what}: {report}"
            );
            // A part given twice: each of its grids repeats the first copy's, named by file.
            let (code, report) = check(&[files[0], files[1], files[0]]);
            assert_eq!(code, Some(1), "{what}");
            let repeats = format!(":1: grid 1: repeats grid 1 of {} (line 1)", files[0]);
            assert!(report.contains(&repeats), "{what}: {report}");
            assert!(
                report.ends_with("FAIL: 40 problems in 120 grids (3 files)\n"),
                "{what}: {report}"
            );
        }
    }
}
