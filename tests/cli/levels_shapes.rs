//! `-n -m`, `--guesses` and `--format csv` on shapes other than 9×9: every row of the CSV checked
//! by the independent checker (one solution, the solution complete and keeping the givens, the
//! blank count), its level and guesses checked by `--rate` of the same binary.

use predicates::prelude::*;

use crate::common::shapes::{SYMBOLS, Spec};
use crate::common::{run_ok, sudoku_gen};

/// A shape: its flags for `-n`, those for `--rate` of its line format, and its checker (`None`:
/// a jigsaw shape, whose checker comes from each row's layout).
struct Case {
    flags: &'static [&'static str],
    rate_flags: &'static [&'static str],
    spec: Option<Spec>,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            flags: &["--size", "6"],
            rate_flags: &[],
            spec: Some(Spec::boxes(6, 2, 3)),
        },
        Case {
            flags: &["--size", "12", "--box", "3x4"],
            rate_flags: &["--box", "3x4"],
            spec: Some(Spec::boxes(12, 3, 4)),
        },
        // Fewer blanks than the digging reaches, for the checker's search.
        Case {
            flags: &["--size", "16", "-r", "80~110"],
            rate_flags: &[],
            spec: Some(Spec::boxes(16, 4, 4)),
        },
        Case {
            flags: &["--jigsaw", "random"],
            rate_flags: &[],
            spec: None,
        },
        Case {
            flags: &["--diagonal"],
            rate_flags: &["--diagonal"],
            spec: Some(Spec::boxes(9, 3, 3).with_diagonals()),
        },
    ]
}

/// One row of `-n --format csv`.
struct Row {
    /// The puzzle as the line format writes it, its layout first for a jigsaw shape.
    line: String,
    level: u8,
}

/// Runs `-n COUNT --format csv` with `case`'s flags and `extra`, checks every row with the
/// checker, and returns the rows.
fn made(case: &Case, count: usize, extra: &[&str]) -> Vec<Row> {
    let count = count.to_string();
    let mut args = vec!["-n", &count, "--seed", "4", "--format", "csv"];
    args.extend_from_slice(case.flags);
    args.extend_from_slice(extra);
    let text = String::from_utf8(run_ok(&args)).unwrap();
    let mut lines = text.lines();
    let jigsaw = case.spec.is_none();
    let header = if jigsaw {
        "layout,puzzle,solution,blanks,level"
    } else {
        "puzzle,solution,blanks,level"
    };
    assert_eq!(lines.next(), Some(header), "{args:?}");
    let rows: Vec<Row> = lines
        .map(|row| {
            let fields: Vec<&str> = row.split(',').collect();
            let (layout, fields) = if jigsaw {
                (Some(fields[0]), &fields[1..])
            } else {
                (None, &fields[..])
            };
            assert_eq!(fields.len(), 4, "{row}");
            let spec = match layout {
                Some(layout) => Spec::jigsaw(layout),
                None => case.spec.clone().unwrap(),
            };
            let (puzzle, solution) = (fields[0].as_bytes(), fields[1].as_bytes());
            let n = spec.n;
            assert_eq!(puzzle.len(), n * n, "{row}");
            assert!(
                puzzle
                    .iter()
                    .all(|c| *c == b'.' || SYMBOLS[..n].contains(c)),
                "{row}"
            );
            assert!(spec.is_valid_complete(solution), "{row}");
            assert!(
                puzzle
                    .iter()
                    .zip(solution)
                    .all(|(p, s)| *p == b'.' || p == s),
                "{row}"
            );
            let blanks = puzzle.iter().filter(|&&c| c == b'.').count();
            assert_eq!(fields[2], blanks.to_string(), "{row}");
            assert_eq!(spec.count_solutions(puzzle, 2), 1, "{row}");
            let level: u8 = fields[3].parse().unwrap();
            let line = match layout {
                Some(layout) => format!("{layout} {}", fields[0]),
                None => fields[0].to_owned(),
            };
            Row { line, level }
        })
        .collect();
    assert_eq!(rows.len().to_string(), count, "{args:?}");
    rows
}

/// The (level, guesses) of each of `rows` as `--rate` of the binary gives them.
fn rated(case: &Case, rows: &[Row]) -> Vec<(u8, usize)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("puzzles.txt");
    let text: String = rows.iter().map(|r| format!("{}\n", r.line)).collect();
    std::fs::write(&path, text).unwrap();
    let mut args = vec!["--rate", path.to_str().unwrap()];
    args.extend_from_slice(case.rate_flags);
    let out = String::from_utf8(run_ok(&args)).unwrap();
    out.lines()
        .skip(1)
        .map(|row| {
            let fields: Vec<&str> = row.split(',').collect();
            (fields[1].parse().unwrap(), fields[6].parse().unwrap())
        })
        .collect()
}

#[test]
fn levels_are_made_on_every_shape_and_rate_as_asked() {
    for case in cases() {
        let mut rows = Vec::new();
        let mut asked = Vec::new();
        for level in ["1", "2", "3"] {
            let made = made(&case, 2, &["-m", level]);
            asked.extend(made.iter().map(|_| level.parse::<u8>().unwrap()));
            rows.extend(made);
        }
        assert!(rows.iter().zip(&asked).all(|(r, a)| r.level == *a));
        let rated: Vec<u8> = rated(&case, &rows).iter().map(|r| r.0).collect();
        assert_eq!(rated, asked, "{:?}", case.flags);
    }
}

#[test]
fn csv_without_a_level_carries_the_rated_level() {
    for case in cases() {
        let rows = made(&case, 3, &[]);
        let rated: Vec<u8> = rated(&case, &rows).iter().map(|r| r.0).collect();
        let written: Vec<u8> = rows.iter().map(|r| r.level).collect();
        assert_eq!(written, rated, "{:?}", case.flags);
    }
}

#[test]
fn guesses_lie_in_the_range() {
    for (case, (range, extra)) in cases().into_iter().zip([
        ("0~0", &[][..]),
        ("2~60", &[][..]),
        ("1~999", &["-m", "3"][..]),
        ("5~999", &[][..]),
        ("1~3", &["-m", "2"][..]),
    ]) {
        let rows = made(&case, 2, &[&["--guesses", range][..], extra].concat());
        let (low, high) = range.split_once('~').unwrap();
        let (low, high): (usize, usize) = (low.parse().unwrap(), high.parse().unwrap());
        for (_, guesses) in rated(&case, &rows) {
            assert!((low..=high).contains(&guesses), "{:?} {range}", case.flags);
        }
    }
}

#[test]
fn the_output_is_the_same_at_any_thread_count() {
    for args in [
        &["-n", "6", "--size", "12", "--box", "3x4", "-m", "2"][..],
        &[
            "-n",
            "6",
            "--jigsaw",
            "random",
            "--format",
            "csv",
            "--guesses",
            "1~99",
        ][..],
        &[
            "-n",
            "6",
            "--size",
            "6",
            "-m",
            "3",
            "--shard",
            "2/3",
            "--symmetric",
        ][..],
    ] {
        let run = |threads: &str| run_ok(&[args, &["--seed", "9", "-j", threads]].concat());
        assert_eq!(run("1"), run("2"), "{args:?}");
    }
}

#[test]
fn unreachable_levels_and_guesses_are_usage_errors() {
    for (args, message) in [
        (
            &["--size", "20", "-m", "2"][..],
            "-m 2 and -m 3 are made up to 16×16",
        ),
        (&["--size", "25", "-m", "3"][..], "-m 2 also on 25×25"),
        (
            &["--size", "4", "-m", "2"][..],
            "has no level 2 puzzles with one solution",
        ),
        (
            &["--size", "6", "-m", "2", "-r", "5~10"][..],
            "0 came with that many blanks",
        ),
        (
            &["--size", "16", "-m", "3", "-r", "150~153"][..],
            "try -r 143~153",
        ),
        (&["--diagonal", "-m", "1", "--minimal"][..], "0 of level 1"),
        (&["--size", "6", "-m", "2", "--symmetric"][..], "too rare"),
        (&["--size", "4", "--guesses", "1~2"][..], "must start at 0"),
        (
            &["--size", "16", "-m", "1", "--guesses", "1~2"][..],
            "level 1 puzzles",
        ),
        (&["--size", "12", "--guesses", "900~999"][..], "~999"),
        // No level 3 puzzle of these shapes needs fewer than two guesses.
        (
            &["--size", "8", "-m", "3", "--guesses", "0~1"][..],
            "try --guesses 0~",
        ),
        (
            &["--size", "6", "-m", "3", "--guesses", "1~1"][..],
            "try --guesses 1~",
        ),
        (
            &[
                "--size",
                "12",
                "--box",
                "2x6",
                "-m",
                "3",
                "--guesses",
                "0~1",
            ][..],
            "try --guesses 0~",
        ),
    ] {
        sudoku_gen()
            .args(["-n", "2"])
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn a_guess_range_too_narrow_for_the_shape_is_refused_with_one_that_works() {
    // Level 3 puzzles of small shapes need two guesses or more: `-m 3 --guesses 0~1` drew
    // puzzles until the draws gave up, then failed with exit 1.
    let case = Case {
        flags: &["--size", "8", "-m", "3"],
        rate_flags: &[],
        spec: Some(Spec::boxes(8, 2, 4)),
    };
    let refused = sudoku_gen()
        .args(["-n", "3", "--guesses", "0~1"])
        .args(case.flags)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8(refused.stderr).unwrap();
    let range = message
        .split("try --guesses ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no range named: {message}"));
    let rows = made(&case, 3, &["--guesses", range]);
    let (low, high) = range.split_once('~').unwrap();
    let (low, high): (usize, usize) = (low.parse().unwrap(), high.parse().unwrap());
    for (level, guesses) in rated(&case, &rows) {
        assert_eq!(level, 3);
        assert!((low..=high).contains(&guesses), "{guesses} outside {range}");
    }
}
