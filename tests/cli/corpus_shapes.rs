//! CSV corpora of shapes other than 9×9, in the layout `-n --format csv` writes them
//! (`puzzle,solution,blanks,level`, `layout` first for jigsaw shapes): solved by `-s`, rated by
//! `--rate` and checked by `--check`, with the shape told from the fields or from the flags, and
//! their problems located.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::shapes::{Spec, keeps_givens, line_records};
use crate::common::{csv_records as records, run_ok, sudoku_gen};
use crate::findings::run_on_endless_stream;

/// A corpus of `count` puzzles of `shape`, as `-n --format csv` writes it, written to `path`; the
/// puzzles' layouts (on jigsaw shapes) and cells.
fn write_corpus(path: &Path, shape: &[&str], count: &str) -> Vec<(Option<String>, Vec<u8>)> {
    let made = run_ok(&[&["-n", count, "--seed", "5", "--format", "csv"], shape].concat());
    std::fs::write(path, &made).unwrap();
    let rows = records(&made);
    let jigsaw = rows[0][0] == "layout";
    let expected = ["puzzle", "solution", "blanks", "level"];
    assert_eq!(rows[0][usize::from(jigsaw)..], expected, "{shape:?}");
    rows[1..]
        .iter()
        .map(|row| {
            let layout = jigsaw.then(|| row[0].clone());
            (layout, row[usize::from(jigsaw)].as_bytes().to_vec())
        })
        .collect()
}

/// Solves, rates and checks a corpus of `shape` (told from the fields: the flags are not given
/// again), each output checked by the checker of `common::shapes`.
fn corpus_round_trip(shape: &[&str], count: &str, spec: impl Fn(Option<&str>) -> Spec) {
    let dir = tempfile::tempdir().unwrap();
    let (corpus, solved) = (dir.path().join("corpus.csv"), dir.path().join("solved.csv"));
    let puzzles = write_corpus(&corpus, shape, count);
    let header = records(&std::fs::read(&corpus).unwrap())[0].clone();
    let at = |name: &str| header.iter().position(|field| field == name).unwrap();
    run_ok(&[
        "-s",
        corpus.to_str().unwrap(),
        "-o",
        solved.to_str().unwrap(),
    ]);
    let rows = records(&std::fs::read(&solved).unwrap());
    assert_eq!(rows[0], header, "{shape:?}: the header is kept");
    assert_eq!(rows.len(), puzzles.len() + 1, "{shape:?}");
    for (row, (layout, cells)) in rows[1..].iter().zip(&puzzles) {
        let spec = spec(layout.as_deref());
        let solution = row[at("solution")].as_bytes();
        assert_eq!(row[at("puzzle")].as_bytes(), &cells[..], "{shape:?}");
        assert!(spec.is_valid_complete(solution), "{shape:?}: {row:?}");
        assert!(keeps_givens(&spec, cells, solution), "{shape:?}: {row:?}");
        if let Some(layout) = layout {
            assert_eq!(&row[at("layout")], layout);
        }
    }
    let rated = records(&run_ok(&["--rate", corpus.to_str().unwrap()]));
    let rating = [
        "level",
        "singles",
        "locked",
        "pairs_triples",
        "harder",
        "guesses",
        "guesses_mean",
    ];
    // The level column of -n takes the level --rate finds; the others are added.
    let added = rating
        .iter()
        .filter(|name| !header.iter().any(|h| h == *name));
    let expected: Vec<String> = header
        .iter()
        .cloned()
        .chain(added.map(|n| n.to_string()))
        .collect();
    assert_eq!(rated[0], expected);
    let level_at = rated[0].iter().position(|name| name == "level").unwrap();
    for (row, (_, cells)) in rated[1..].iter().zip(&puzzles) {
        assert_eq!(row[at("puzzle")].as_bytes(), &cells[..], "{shape:?}");
        let level: u8 = row[level_at].parse().unwrap();
        assert!((1..=3).contains(&level), "{shape:?}: {row:?}");
    }
    assert_eq!(rated.len(), puzzles.len() + 1);
    let checked = run_ok(&["--check", solved.to_str().unwrap(), "--unique"]);
    let report = String::from_utf8(checked).unwrap();
    assert!(
        report.starts_with(&format!("ok: {count} solutions")),
        "{report}"
    );
}

#[test]
fn corpora_of_6x6_and_12x12_boxes_are_solved_rated_and_checked() {
    corpus_round_trip(&["--size", "6"], "4", |_| Spec::boxes(6, 2, 3));
    corpus_round_trip(&["--size", "12", "--box", "3x4"], "3", |_| {
        Spec::boxes(12, 3, 4)
    });
}

#[test]
fn corpora_of_16x16_are_solved_rated_and_checked() {
    corpus_round_trip(&["--size", "16", "-r", "100~120"], "3", |_| {
        Spec::boxes(16, 4, 4)
    });
}

#[test]
fn corpora_of_jigsaw_and_diagonal_9x9_are_solved_rated_and_checked() {
    corpus_round_trip(&["--jigsaw", "random"], "3", |layout| {
        Spec::jigsaw(layout.expect("a layout column"))
    });
    corpus_round_trip(&["--diagonal"], "3", |_| {
        Spec::boxes(9, 3, 3).with_diagonals()
    });
}

#[test]
fn the_flags_give_the_shape_and_column_names_the_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("boards.csv");
    let text = run_ok(&[
        "-n", "3", "--size", "16", "-r", "100~120", "--seed", "2", "--format", "line",
    ]);
    let lines = line_records(&text);
    let mut csv = String::from("id,board\n");
    for (k, (_, cells)) in lines.iter().enumerate() {
        csv += &format!("{k},\"{}\"\r\n", String::from_utf8_lossy(cells));
    }
    std::fs::write(&corpus, csv).unwrap();
    let corpus = corpus.to_str().unwrap();
    // A CSV corpus given with --size is read as one, not as a line file.
    let solved = run_ok(&["-s", corpus, "--size", "16", "--column", "board"]);
    let rows = records(&solved);
    assert_eq!(rows[0], ["id", "board", "solution"]);
    let spec = Spec::boxes(16, 4, 4);
    for (row, (_, cells)) in rows[1..].iter().zip(&lines) {
        assert!(spec.is_valid_complete(row[2].as_bytes()), "{row:?}");
        assert!(keeps_givens(&spec, cells, row[2].as_bytes()));
    }
    let dir_solved = dir.path().join("solved.csv");
    std::fs::write(&dir_solved, &solved).unwrap();
    let solved_path = dir_solved.to_str().unwrap();
    let report = run_ok(&["--check", solved_path, "--column", "board", "--size", "16"]);
    assert!(
        String::from_utf8(report)
            .unwrap()
            .starts_with("ok: 3 solutions")
    );
    let rated = records(&run_ok(&["--rate", corpus, "--column", "board"]));
    assert_eq!(rated[0][..3], ["id", "board", "level"]);
    assert_eq!(rated.len(), 4);
    // Without --column, the header names no puzzle column.
    let out = sudoku_gen().args(["-s", corpus]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(":1:1: a CSV header without"), "{stderr}");
}

/// The stderr of a run of `args` that must fail with exit code 1 and write nothing.
fn located_failure(args: &[&str]) -> String {
    let out = sudoku_gen().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn malformed_fields_and_layouts_are_located() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let puzzle = ".".repeat(36);
    let short = path(
        "short.csv",
        &format!("id,puzzle,solution\n1,{puzzle},\n2,{},\n", &puzzle[..35]),
    );
    for mode in ["-s", "--rate"] {
        let stderr = located_failure(&[mode, &short]);
        let expected = format!("{short}:3:38: expected 36 cells for a 6×6 puzzle, found 35");
        assert!(stderr.starts_with(&expected), "{mode}: {stderr}");
    }
    let out = sudoku_gen().args(["--check", &short]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        report.contains(&format!("{short}:3: column 38: expected 36 cells")),
        "{report}"
    );
    let layout =
        "aaabbbbbcaaabbbbccaaaccccccdddeeffffdgdehhfffdgdeehffidggehhiiidggehhhiigggeehiii";
    let blank = ".".repeat(81);
    let no_layout = path(
        "no_layout.csv",
        &format!("layout,puzzle,solution\n{layout},{blank},\n,{blank},\n"),
    );
    let stderr = located_failure(&["-s", &no_layout]);
    assert!(
        stderr.starts_with(&format!("{no_layout}:3:1: the row has no layout")),
        "{stderr}"
    );
    // A shape without boxes is a jigsaw one, whose rows need a layout column.
    let no_column = path(
        "no_column.csv",
        &format!("puzzle,solution\n{},\n", ".".repeat(49)),
    );
    let stderr = located_failure(&["-s", &no_column]);
    assert!(
        stderr.starts_with(&format!("{no_column}:2:1: a 7×7 puzzle has no boxes")),
        "{stderr}"
    );
    let stray = layout.replacen('i', "j", 1);
    let bad_layout = path(
        "bad_layout.csv",
        &format!("layout,puzzle,solution\n{layout},{blank},\n{stray},{blank},\n"),
    );
    let stderr = located_failure(&["--rate", &bad_layout]);
    assert!(stderr.starts_with(&format!("{bad_layout}:3:")), "{stderr}");
    assert!(
        stderr.contains("malformed layout: it has 10 regions"),
        "{stderr}"
    );
    // With --jigsaw FILE the column may be left out or empty, and a layout given must match.
    let layout_file = path("layout.txt", layout);
    let boxes: String = ["aaabbbccc", "dddeeefff", "ggghhhiii"]
        .map(|band| band.repeat(3))
        .concat();
    let given = path(
        "given.csv",
        &format!("layout,puzzle\n,{blank}\n{layout},{blank}\n{boxes},{blank}\n"),
    );
    let stderr = located_failure(&["-s", &given, "--jigsaw", &layout_file]);
    assert!(
        stderr.starts_with(&format!(
            "{given}:4:1: the layout is not the one --jigsaw gives"
        )),
        "{stderr}"
    );
}

#[test]
fn a_jigsaw_corpus_without_a_layout_column_takes_the_layout_flag() {
    let dir = tempfile::tempdir().unwrap();
    let layout_file = dir.path().join("layout.txt");
    let layout =
        "aaabbbbbcaaabbbbccaaaccccccdddeeffffdgdehhfffdgdeehffidggehhiiidggehhhiigggeehiii";
    std::fs::write(&layout_file, layout).unwrap();
    let layout_file = layout_file.to_str().unwrap();
    let made = run_ok(&[
        "-n",
        "2",
        "--jigsaw",
        layout_file,
        "--seed",
        "1",
        "--format",
        "line",
    ]);
    let puzzles = line_records(&made);
    let mut csv = String::from("quizzes,solutions\n");
    for (_, cells) in &puzzles {
        csv += &format!("{},\n", String::from_utf8_lossy(cells));
    }
    let corpus = dir.path().join("plain.csv");
    std::fs::write(&corpus, csv).unwrap();
    let solved = records(&run_ok(&[
        "-s",
        corpus.to_str().unwrap(),
        "--jigsaw",
        layout_file,
    ]));
    let spec = Spec::jigsaw(layout);
    for (row, (_, cells)) in solved[1..].iter().zip(&puzzles) {
        assert!(spec.is_valid_complete(row[1].as_bytes()), "{row:?}");
        assert!(keeps_givens(&spec, cells, row[1].as_bytes()));
    }
    // Rows that carry their layout are read with it even when the flags name the 9×9 shape.
    let mut csv = String::from("layout,puzzle\n");
    for (_, cells) in &puzzles {
        csv += &format!("{layout},{}\n", String::from_utf8_lossy(cells));
    }
    std::fs::write(&corpus, csv).unwrap();
    let solved = records(&run_ok(&["-s", corpus.to_str().unwrap(), "--size", "9"]));
    for (row, (_, cells)) in solved[1..].iter().zip(&puzzles) {
        assert!(spec.is_valid_complete(row[2].as_bytes()), "{row:?}");
        assert!(keeps_givens(&spec, cells, row[2].as_bytes()));
    }
}

#[test]
fn an_endless_corpus_with_a_malformed_row_reports_it_at_once() {
    let start = Instant::now();
    let args = ["-s", "-", "--size", "16"];
    let (code, stdout, stderr, _) = run_on_endless_stream(&args, b"puzzle,note\n", b"1234,x\n");
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(
        stderr.starts_with("<stdin>:2:5: expected 256 cells for a 16×16 puzzle, found 4"),
        "{stderr}"
    );
    assert!(start.elapsed() < Duration::from_secs(10));
}
