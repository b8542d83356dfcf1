//! `-n --hard` on shapes other than 9×9: every puzzle unique and minimal by the checker of
//! `tests/common` (never the crate's solver), distinct (not equivalent with `--classes`, by the
//! checker's own search for a move), at the mean asked by `--rate`'s measure, which agrees with
//! the column written, the same bytes at any `-j`; requests past a shape's reach refused up
//! front. Low levels and few puzzles, so that each case costs a fraction of a second.

use std::collections::HashSet;

use crate::common::shapes::{Spec, keeps_givens};
use crate::common::{csv_records, run_ok, sudoku_gen};

/// What a case asks of its puzzles.
struct Wanted {
    /// The least guesses_mean.
    mean: f64,
    /// Whether taking out any one given must leave more than one solution (with `--symmetric`,
    /// the search minimises by pairs of givens).
    minimal: bool,
    symmetric: bool,
    classes: bool,
    /// The symbol of every solution's top-left cell.
    first: Option<u8>,
}

/// One puzzle row of `-n --format csv`.
struct Row {
    layout: Option<String>,
    puzzle: Vec<u8>,
    solution: Vec<u8>,
    mean: String,
}

/// The words of `text`, as a command line's arguments.
fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// Runs `-n` with `args` at `-j 1` and `-j 2`, asserts the same bytes, and returns the rows of
/// the CSV, checking its header (`layout` first with `jigsaw`).
fn made(args: &[&str], jigsaw: bool) -> Vec<Row> {
    let csv = run_ok(&[args, &["--format", "csv", "-j", "1"]].concat());
    assert_eq!(
        csv,
        run_ok(&[args, &["--format", "csv", "-j", "2"]].concat()),
        "{args:?}: the same seed gives the same bytes at any -j"
    );
    let records = csv_records(&csv);
    let header = if jigsaw {
        "layout,puzzle,solution,blanks,level,guesses_mean"
    } else {
        "puzzle,solution,blanks,level,guesses_mean"
    };
    assert_eq!(records[0].join(","), header, "{args:?}");
    let skip = usize::from(jigsaw);
    records[1..]
        .iter()
        .map(|record| {
            let fields = &record[skip..];
            let blanks = fields[0].bytes().filter(|&b| b == b'.').count();
            assert_eq!(fields[2], blanks.to_string(), "{record:?}");
            assert!(["1", "2", "3"].contains(&fields[3].as_str()), "{record:?}");
            Row {
                layout: jigsaw.then(|| record[0].clone()),
                puzzle: fields[0].as_bytes().to_vec(),
                solution: fields[1].as_bytes().to_vec(),
                mean: fields[4].clone(),
            }
        })
        .collect()
}

/// `--rate`'s guesses_mean of each row's puzzle, rated with the shape flags `shape`.
fn rated_means(rows: &[Row], shape: &[&str]) -> Vec<String> {
    let mut lines = String::new();
    for row in rows {
        if let Some(layout) = &row.layout {
            lines.push_str(layout);
            lines.push(' ');
        }
        lines.push_str(std::str::from_utf8(&row.puzzle).unwrap());
        lines.push('\n');
    }
    let rated = sudoku_gen()
        .args([&["--rate", "-"], shape].concat())
        .write_stdin(lines)
        .output()
        .unwrap();
    assert_eq!(rated.status.code(), Some(0), "{shape:?}");
    let text = String::from_utf8(rated.stdout).unwrap();
    text.lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().to_owned())
        .collect()
}

/// Checks `rows` of puzzles of `spec` (`shape`: the flags that name it) against `wanted`.
fn check(rows: &[Row], spec: &Spec, shape: &[&str], wanted: &Wanted) {
    let cells = spec.n * spec.n;
    for row in rows {
        let (puzzle, solution) = (&row.puzzle, &row.solution);
        let what = String::from_utf8_lossy(puzzle);
        assert!(spec.is_valid_complete(solution), "{what}");
        assert!(keeps_givens(spec, puzzle, solution), "{what}");
        assert_eq!(spec.count_solutions(puzzle, 2), 1, "{what}");
        let givens: Vec<usize> = (0..cells).filter(|&c| puzzle[c] != b'.').collect();
        if wanted.minimal {
            for &cell in &givens {
                let mut fewer = puzzle.clone();
                fewer[cell] = b'.';
                assert_eq!(spec.count_solutions(&fewer, 2), 2, "{what}: {cell}");
            }
        }
        if wanted.symmetric {
            assert!(
                givens.iter().all(|&c| puzzle[cells - 1 - c] != b'.'),
                "{what}"
            );
        }
        if let Some(first) = wanted.first {
            assert_eq!(solution[0], first, "{what}");
        }
        assert!(row.mean.parse::<f64>().unwrap() >= wanted.mean, "{what}");
    }
    let written: Vec<&str> = rows.iter().map(|r| r.mean.as_str()).collect();
    assert_eq!(
        rated_means(rows, shape),
        written,
        "--rate measures what -n wrote"
    );
    let distinct: HashSet<&Vec<u8>> = rows.iter().map(|r| &r.puzzle).collect();
    assert_eq!(distinct.len(), rows.len(), "no two equal");
    if wanted.classes {
        for (i, a) in rows.iter().enumerate() {
            for b in &rows[..i] {
                let (from, to) = (
                    (&a.puzzle[..], &a.solution[..]),
                    (&b.puzzle[..], &b.solution[..]),
                );
                assert!(!spec.equivalent(from, spec, to), "two equivalent puzzles");
            }
        }
    }
}

#[test]
fn boxed_shapes_make_hard_puzzles() {
    let six = ["--size", "6"];
    let rows = made(
        &[
            &six[..],
            &["-n", "6", "--hard=3", "--minimal", "--seed", "3"],
        ]
        .concat(),
        false,
    );
    assert_eq!(rows.len(), 6);
    let minimal = Wanted {
        mean: 3.0,
        minimal: true,
        symmetric: false,
        classes: false,
        first: None,
    };
    check(&rows, &Spec::boxes(6, 2, 3), &six, &minimal);
    let args = [
        &six[..],
        &[
            "-n",
            "4",
            "--hard=2",
            "--symmetric",
            "--classes",
            "--seed",
            "4",
        ],
    ];
    let rows = made(&args.concat(), false);
    let symmetric = Wanted {
        mean: 2.0,
        minimal: false,
        symmetric: true,
        classes: true,
        first: None,
    };
    check(&rows, &Spec::boxes(6, 2, 3), &six, &symmetric);
    let twelve = ["--size", "12", "--box", "3x4"];
    let rows = made(
        &[
            &twelve[..],
            &["-n", "3", "--hard=32", "--classes", "--seed", "5"],
        ]
        .concat(),
        false,
    );
    assert_eq!(rows.len(), 3);
    let classes = Wanted {
        mean: 32.0,
        minimal: true,
        symmetric: false,
        classes: true,
        first: None,
    };
    check(&rows, &Spec::boxes(12, 3, 4), &twelve, &classes);
}

#[test]
fn sixteen_by_sixteen_makes_symmetric_classes() {
    // Minimal 16×16 puzzles are slow to dig; symmetric ones, minimal by pairs, are not.
    let sixteen = ["--size", "16"];
    let args = [
        &sixteen[..],
        &[
            "-n",
            "2",
            "--hard=8",
            "--symmetric",
            "--classes",
            "--seed",
            "1",
        ],
    ];
    let rows = made(&args.concat(), false);
    assert_eq!(rows.len(), 2);
    let wanted = Wanted {
        mean: 8.0,
        minimal: false,
        symmetric: true,
        classes: true,
        first: None,
    };
    check(&rows, &Spec::boxes(16, 4, 4), &sixteen, &wanted);
}

#[test]
fn jigsaw_and_diagonal_shapes_make_hard_puzzles() {
    let layouts = std::fs::read_to_string(format!(
        "{}/tests/data/shapes/jigsaw9_layouts.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let layout = layouts.lines().nth(2).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("layout.txt");
    std::fs::write(&file, layout).unwrap();
    let jigsaw = ["--jigsaw", file.to_str().unwrap()];
    let spec = Spec::jigsaw(layout);
    let mut shards = Vec::new();
    for shard in ["1/2", "2/2"] {
        let args = format!("-n 2 --hard=32 --first 5 --shard {shard} --seed 6");
        let rows = made(&[&jigsaw[..], &words(&args)].concat(), true);
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|r| r.layout.as_deref() == Some(layout)));
        // Minimal on one shard: the checker's counts take a tenth of a second a puzzle here.
        let wanted = Wanted {
            mean: 32.0,
            minimal: shard == "1/2",
            symmetric: false,
            classes: false,
            first: Some(b'5'),
        };
        check(&rows, &spec, &jigsaw, &wanted);
        shards.extend(rows.into_iter().map(|r| r.puzzle));
    }
    let distinct: HashSet<&Vec<u8>> = shards.iter().collect();
    assert_eq!(distinct.len(), 4, "the shards share no puzzle");
    let diagonal = ["--diagonal"];
    let rows = made(
        &words("--diagonal -n 3 --hard=64 --classes --seed 2"),
        false,
    );
    assert_eq!(rows.len(), 3);
    let wanted = Wanted {
        mean: 64.0,
        minimal: true,
        symmetric: false,
        classes: true,
        first: None,
    };
    check(
        &rows,
        &Spec::boxes(9, 3, 3).with_diagonals(),
        &diagonal,
        &wanted,
    );
}

#[test]
fn requests_past_a_shapes_reach_are_usage_errors_naming_it() {
    for (args, says) in [
        (
            &["--size", "6", "--hard=6.1"][..],
            "6 guesses at most, 3 with --symmetric",
        ),
        (
            &["--size", "6", "--hard=4", "--symmetric"],
            "3 guesses at most, 6 without",
        ),
        (
            &["--size", "12", "--box", "3x4", "--hard=257"],
            "256 guesses at most",
        ),
        (
            &["--size", "16", "--hard=257", "--symmetric"],
            "256 guesses at most",
        ),
        (&["--diagonal", "--hard=257"], "256 guesses at most"),
        (
            &["--jigsaw", "random", "--hard=257", "--format", "line"],
            "256 guesses at most",
        ),
        (
            &["--size", "4", "--diagonal", "--hard"],
            "solved without a guess",
        ),
        (&["--size", "16", "--diagonal", "--hard=1"], "up to 12×12"),
        (&["--size", "25", "--hard"], "up to 12×12"),
        (&["--size", "6", "--hard", "-m", "3"], "not -m"),
        (
            &["--size", "6", "--hard", "--minimal", "--symmetric"],
            "drop one",
        ),
    ] {
        let out = sudoku_gen()
            .args([&["-n", "5", "--seed", "1"], args].concat())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}
