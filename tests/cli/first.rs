//! `--first SYM` on every shape through the real binary: `-c` writes distinct valid grids that all
//! start with the symbol, at any `-j`; `--check` holds files to it; a symbol the shape has not is a
//! usage error; 9×9 keeps its bytes. `-n --first` has its own tests (`puzzles_first.rs`). Grids are judged by `common::shapes`, which knows nothing of
//! the engine.

use crate::common::shapes::{Spec, grid_records, line_records};
use crate::common::{run_ok, sha256_hex, sudoku_gen};

/// A shape: the flags of `-c`, those of `--check` (no random layout there: the lines carry it),
/// the checker's shape when the lines do not carry it, a symbol of the shape and another one.
struct Case {
    make: &'static [&'static str],
    check: &'static [&'static str],
    spec: Option<Spec>,
    first: &'static str,
    other: &'static str,
}

fn cases() -> Vec<Case> {
    const LETTERS: &str = "ABCDEFGHIJKLMNOP";
    vec![
        Case {
            make: &["--size", "6"],
            check: &["--size", "6"],
            spec: Some(Spec::boxes(6, 2, 3)),
            first: "4",
            other: "1",
        },
        Case {
            make: &["--size", "12", "--box", "3x4"],
            check: &["--size", "12", "--box", "3x4"],
            spec: Some(Spec::boxes(12, 3, 4)),
            first: "B",
            other: "C",
        },
        Case {
            make: &["--size", "16"],
            check: &[],
            spec: Some(Spec::boxes(16, 4, 4)),
            first: "G",
            other: "1",
        },
        Case {
            make: &["--jigsaw", "random"],
            check: &[],
            spec: None,
            first: "5",
            other: "9",
        },
        Case {
            make: &["--diagonal"],
            check: &["--diagonal"],
            spec: Some(Spec::boxes(9, 3, 3).with_diagonals()),
            first: "9",
            other: "8",
        },
        Case {
            make: &["--symbols", LETTERS],
            check: &["--symbols", LETTERS],
            spec: Some(Spec::boxes(16, 4, 4).with_symbols(LETTERS)),
            first: "A",
            other: "P",
        },
    ]
}

/// Runs the binary, returning (code, stdout, stderr).
fn run(args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = sudoku_gen().args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap(), out.stdout, stderr)
}

/// Asserts that `args` is a usage error that names the problem with `words`, writing nothing.
fn assert_usage_error(args: &[&str], words: &str) {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?} wrote on stdout");
    assert!(err.contains(words), "{args:?}: {err}");
}

/// `-c count --first` of `case` in the line format, the same at `-j 1` and `-j 2`; asserts that
/// its grids are valid, distinct and start with the symbol.
fn grids_of(case: &Case, count: usize) -> Vec<u8> {
    let count_text = count.to_string();
    let mut args = vec!["-c", &count_text, "--first", case.first, "--seed", "5"];
    args.extend(case.make);
    args.extend(["--format", "line"]);
    let one = run_ok(&[&args[..], &["-j", "1"]].concat());
    assert_eq!(one, run_ok(&[&args[..], &["-j", "2"]].concat()), "{args:?}");
    let records = line_records(&one);
    assert_eq!(records.len(), count, "{args:?}");
    let distinct: std::collections::HashSet<_> = records.iter().collect();
    assert_eq!(distinct.len(), count, "{args:?}");
    for (layout, cells) in &records {
        let spec = match (&case.spec, layout) {
            (Some(spec), _) => spec.clone(),
            (None, Some(layout)) => Spec::jigsaw(layout),
            (None, None) => panic!("{args:?}: a random layout's lines carry it"),
        };
        assert!(spec.is_valid_complete(cells), "{args:?}");
        assert_eq!(cells[0], case.first.as_bytes()[0], "{args:?}");
    }
    one
}

#[test]
fn every_shape_writes_distinct_grids_that_start_with_the_symbol() {
    for case in cases() {
        grids_of(&case, 400);
    }
}

#[test]
fn check_holds_every_shape_to_the_symbol() {
    let dir = tempfile::tempdir().unwrap();
    for case in cases() {
        let file = dir.path().join("grids.txt");
        std::fs::write(&file, grids_of(&case, 50)).unwrap();
        let file = file.to_str().unwrap();
        let check = |first: &str| run(&[&["--check", file, "--first", first], case.check].concat());
        let (code, out, err) = check(case.first);
        assert_eq!(code, 0, "{:?}: {err}", case.make);
        assert_eq!(out, b"ok: 50 grids, all valid and distinct\n");
        let (code, out, _) = check(case.other);
        let out = String::from_utf8(out).unwrap();
        assert_eq!(code, 1, "{:?}", case.make);
        let expected = format!("is {}, expected {}", case.first, case.other);
        assert!(out.contains(&expected), "{:?}: {out}", case.make);
        assert!(out.ends_with("FAIL: 50 problems in 50 grids\n"), "{out}");
    }
}

#[test]
fn solutions_of_another_shape_are_held_to_the_symbol() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    let solutions = dir.path().join("solutions.txt");
    let made = run_ok(&["-n", "20", "--size", "6", "--seed", "3", "--format", "line"]);
    std::fs::write(&puzzles, made).unwrap();
    let puzzles = puzzles.to_str().unwrap();
    std::fs::write(&solutions, run_ok(&["-s", puzzles])).unwrap();
    let solutions = solutions.to_str().unwrap();
    let top_left: Vec<u8> = line_records(&std::fs::read(solutions).unwrap())
        .iter()
        .map(|(_, cells)| cells[0])
        .collect();
    let first = char::from(top_left[0]).to_string();
    let wrong = top_left.iter().filter(|&&s| s != top_left[0]).count();
    let (code, out, err) = run(&[
        "--check",
        solutions,
        "--puzzles",
        puzzles,
        "--first",
        &first,
    ]);
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, i32::from(wrong > 0), "{err}");
    assert_eq!(
        out.matches("top-left digit is").count(),
        wrong.min(20),
        "{out}"
    );
    assert_usage_error(
        &["--check", solutions, "--puzzles", puzzles, "--first", "7"],
        "'--first 7' is no symbol of the grids of",
    );
}

#[test]
fn the_grid_format_starts_every_grid_with_the_symbol() {
    let text = run_ok(&[
        "-c", "30", "--size", "12", "--box", "3x4", "--first", "C", "--seed", "1",
    ]);
    let grids = grid_records(&text, 12, false);
    assert_eq!(grids.len(), 30);
    let spec = Spec::boxes(12, 3, 4);
    assert!(
        grids
            .iter()
            .all(|g| spec.is_valid_complete(g) && g[0] == b'C')
    );
}

#[test]
fn a_symbol_the_shape_has_not_is_a_usage_error() {
    let cases: [&[&str]; 5] = [
        &["-c", "5", "--size", "6", "--first", "7"],
        &["-c", "5", "--size", "16", "--first", "H"],
        &["-c", "5", "--symbols", "ABCDEFGHIJKLMNOP", "--first", "1"],
        &["-c", "5", "--first", "A"],
        &["-c", "5", "--size", "12", "--first", "0"],
    ];
    for args in cases {
        assert_usage_error(args, "is no symbol of");
    }
    assert_usage_error(&["-c", "5", "--size", "16", "--first", "GG"], "one symbol");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c16.txt");
    std::fs::write(
        &file,
        run_ok(&["-c", "3", "--size", "16", "--format", "line"]),
    )
    .unwrap();
    let file = file.to_str().unwrap();
    assert_usage_error(
        &["--check", file, "--first", "Z"],
        "'--first Z' is no symbol of the grids of",
    );
    assert_usage_error(
        &["--check", file, "--first", "G", "--size", "12"],
        "'--first G' is no symbol of the grids of",
    );
}

#[test]
fn four_by_four_has_a_quarter_of_its_grids_for_each_symbol() {
    for first in ["1", "2", "3", "4"] {
        let text = run_ok(&[
            "-c", "72", "--size", "4", "--first", first, "--format", "line",
        ]);
        let records = line_records(&text);
        let distinct: std::collections::HashSet<_> = records.iter().collect();
        assert_eq!(distinct.len(), 72);
        let spec = Spec::boxes(4, 2, 2);
        assert!(
            records
                .iter()
                .all(|(_, g)| spec.is_valid_complete(g) && g[0] == first.as_bytes()[0])
        );
    }
    let (code, out, err) = run(&["-c", "73", "--size", "4", "--first", "3"]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("only 72 complete grids with 3 in the top-left cell (73 asked for)"),
        "{err}"
    );
}

#[test]
fn nine_by_nine_keeps_its_bytes() {
    assert_eq!(
        sha256_hex(&run_ok(&["-c", "1000", "--first", "7", "--seed", "3"])),
        "fe70daec724c326a1a36e7fea588f96c3d17b3ee3bda3c0d5fd3328e8200b347"
    );
}
