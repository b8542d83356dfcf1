//! `--canon` and `--shuffle` of CSV corpora of shapes other than 9×9, as of 9×9 ones: `--canon`
//! appends a column `canon`, `--shuffle` moves each row's puzzle and solution alike (and a jigsaw
//! row's layout with them) and keeps its other fields. Every output is checked by
//! `common::shapes`, which shares nothing with the engine.

use std::path::{Path, PathBuf};

use crate::common::shapes::{Spec, keeps_givens};
use crate::common::{csv_records as records, run_ok, sudoku_gen};

/// A shape tested: the flags that make its corpus, those that name it to a reader, and the
/// checker's shape of a row (from its layout field).
type Tested = (
    &'static [&'static str],
    &'static [&'static str],
    fn(&str) -> Spec,
);

fn shapes() -> [Tested; 5] {
    [
        (&["--size", "6"], &["--size", "6"], |_| Spec::boxes(6, 2, 3)),
        (
            &["--size", "12", "--box", "3x4"],
            &["--size", "12", "--box", "3x4"],
            |_| Spec::boxes(12, 3, 4),
        ),
        (
            &["--size", "16", "-r", "100~120"],
            &["--size", "16"],
            |_| Spec::boxes(16, 4, 4),
        ),
        (&["--jigsaw", "random"], &[], Spec::jigsaw),
        (&["--diagonal"], &["--diagonal"], |_| {
            Spec::boxes(9, 3, 3).with_diagonals()
        }),
    ]
}

/// A field of a row by its column's name in `header`; empty when there is no such column.
fn field<'r>(header: &[String], row: &'r [String], name: &str) -> &'r str {
    header
        .iter()
        .position(|f| f == name)
        .map_or("", |at| &row[at])
}

/// [`field`]'s bytes.
fn cells<'r>(header: &[String], row: &'r [String], name: &str) -> &'r [u8] {
    field(header, row, name).as_bytes()
}

fn write(dir: &Path, name: &str, text: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The `canon` column of `--canon FILE` (with `options`), the other columns checked kept.
fn canon_column(file: &Path, options: &[&str]) -> Vec<String> {
    let input = records(&std::fs::read(file).unwrap());
    let out = records(&run_ok(
        &[&["--canon", file.to_str().unwrap()], options].concat(),
    ));
    assert_eq!(out[0], [&input[0][..], &["canon".to_owned()]].concat());
    assert_eq!(out.len(), input.len());
    for (row, original) in out[1..].iter().zip(&input[1..]) {
        assert_eq!(row[..row.len() - 1], original[..], "the row is kept");
    }
    out[1..]
        .iter()
        .map(|row| row.last().unwrap().clone())
        .collect()
}

#[test]
fn csv_corpora_of_every_shape_are_shuffled_and_canonicalised_as_9x9_ones() {
    let dir = tempfile::tempdir().unwrap();
    for (flags, read_flags, spec_of) in shapes() {
        // No two rows equivalent: the checker must tell each shuffled row from the others'.
        let making = ["-n", "3", "--classes", "--seed", "5", "--format", "csv"];
        let made = run_ok(&[&making[..], flags].concat());
        let corpus = write(dir.path(), "corpus.csv", &made);
        let shuffle = |jobs: &str| {
            let path = corpus.to_str().unwrap();
            run_ok(&["--shuffle", path, "--seed", "7", "-j", jobs])
        };
        let shuffled = shuffle("1");
        assert_eq!(
            shuffle("2"),
            shuffled,
            "{flags:?}: the same bytes at any -j"
        );
        assert_ne!(shuffled, made, "{flags:?}");
        let (before, after) = (records(&made), records(&shuffled));
        let header = &before[0];
        assert_eq!(after[0], *header, "{flags:?}: the header is kept");
        assert_eq!(after.len(), 4, "{flags:?}");
        for (k, (row, original)) in after[1..].iter().zip(&before[1..]).enumerate() {
            let from = spec_of(field(header, original, "layout"));
            let onto = spec_of(field(header, row, "layout"));
            let (puzzle, solution) = (cells(header, row, "puzzle"), cells(header, row, "solution"));
            assert!(onto.is_valid_complete(solution), "{flags:?}: {row:?}");
            assert!(keeps_givens(&onto, puzzle, solution), "{flags:?}: {row:?}");
            let original_grids = (
                cells(header, original, "puzzle"),
                cells(header, original, "solution"),
            );
            assert!(
                from.equivalent(original_grids, &onto, (puzzle, solution)),
                "{flags:?}: {original:?} and {row:?}"
            );
            let other = &after[1 + (k + 1) % 3];
            let (other_puzzle, other_solution) = (
                cells(header, other, "puzzle"),
                cells(header, other, "solution"),
            );
            let onto_other = spec_of(field(header, other, "layout"));
            assert!(
                !from.equivalent(original_grids, &onto_other, (other_puzzle, other_solution)),
                "{flags:?}: {original:?} and {other:?}"
            );
            for kept in ["blanks", "level"] {
                assert_eq!(field(header, row, kept), field(header, original, kept));
            }
        }
        // Equivalent rows share their form, and a form is its own.
        let forms = canon_column(&corpus, &[]);
        let moved = write(dir.path(), "shuffled.csv", &shuffled);
        assert_eq!(canon_column(&moved, &[]), forms, "{flags:?}");
        let jigsaw = header[0] == "layout";
        let mut again = String::from(if jigsaw {
            "layout,puzzle\n"
        } else {
            "puzzle,id\n"
        });
        for (k, form) in forms.iter().enumerate() {
            again += &match form.split_once(' ') {
                Some((layout, form)) if jigsaw => format!("{layout},{form}\n"),
                _ => format!("{form},{k}\n"),
            };
        }
        let again = write(dir.path(), "forms.csv", again.as_bytes());
        assert_eq!(
            canon_column(&again, read_flags),
            forms,
            "{flags:?}: idempotent"
        );
        for (form, original) in forms.iter().zip(&before[1..]) {
            let (layout, form_cells) = form.split_once(' ').unwrap_or(("", form));
            let spec = spec_of(if jigsaw { layout } else { "" });
            assert!(
                spec.is_consistent(form_cells.as_bytes()),
                "{flags:?}: {form}"
            );
            let blanks = form_cells.bytes().filter(|&b| b == b'.').count();
            assert_eq!(blanks.to_string(), field(header, original, "blanks"));
        }
        // --column names the puzzle column, as at 9×9.
        let renamed = String::from_utf8(made.clone())
            .unwrap()
            .replacen("puzzle", "board", 1);
        let renamed = write(dir.path(), "renamed.csv", renamed.as_bytes());
        assert_eq!(canon_column(&renamed, &["--column", "board"]), forms);
    }
}

#[test]
fn a_shuffled_row_without_a_solution_keeps_its_solution_field_empty() {
    let made = run_ok(&["-n", "2", "--size", "6", "--seed", "3", "--format", "csv"]);
    let mut rows = records(&made);
    rows[2][1].clear();
    let text: String = rows.iter().map(|row| row.join(",") + "\n").collect();
    let dir = tempfile::tempdir().unwrap();
    let corpus = write(dir.path(), "corpus.csv", text.as_bytes());
    let text = run_ok(&["--shuffle", corpus.to_str().unwrap(), "--seed", "1"]);
    let shuffled = records(&text);
    assert_eq!(shuffled[2][1], "");
    let spec = Spec::boxes(6, 2, 3);
    assert!(spec.is_valid_complete(shuffled[1][1].as_bytes()));
    assert!(spec.is_consistent(shuffled[2][0].as_bytes()));
    let moved = write(dir.path(), "shuffled.csv", &text);
    assert_eq!(canon_column(&moved, &[]), canon_column(&corpus, &[]));
}

#[test]
fn malformed_fields_and_layouts_of_a_corpus_are_located_by_canon_and_shuffle() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = ".".repeat(36);
    let layout =
        "aaabbbbbcaaabbbbccaaaccccccdddeeffffdgdehhfffdgdeehffidggehhiiidggehhhiigggeehiii";
    let blank = ".".repeat(81);
    let stray = layout.replacen('i', "j", 1);
    let cases = [
        (
            format!("id,puzzle,solution\n1,{puzzle},\n2,{},\n", &puzzle[..35]),
            ":3:38: expected 36 cells for a 6×6 puzzle, found 35",
        ),
        (
            format!("layout,puzzle,solution\n{layout},{blank},\n,{blank},\n"),
            ":3:1: the row has no layout",
        ),
        (
            format!("layout,puzzle,solution\n{layout},{blank},\n{stray},{blank},\n"),
            ":3:54: malformed layout: it has 10 regions",
        ),
    ];
    for (k, (text, problem)) in cases.iter().enumerate() {
        let path = write(dir.path(), &format!("bad-{k}.csv"), text.as_bytes());
        let path = path.to_str().unwrap();
        for mode in ["--canon", "--shuffle"] {
            let out = sudoku_gen().args([mode, path]).output().unwrap();
            assert_eq!(out.status.code(), Some(1), "{mode} {text}");
            assert!(out.stdout.is_empty(), "{mode}");
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert!(
                stderr.starts_with(&format!("{path}{problem}")),
                "{mode}: {stderr}"
            );
        }
    }
}
