//! `--shuffle` reads a CSV corpus with the reader of `-s`: quoted fields, CRLF line ends and the
//! `quizzes,solutions` header are accepted by both, and a shuffled row keeps its other fields.

use std::path::Path;

use crate::common::{csv_records as records, sudoku_gen};

/// The stdout of a successful run of `mode` on `file`, with the options `options`.
fn run(mode: &str, file: &Path, options: &[&str]) -> Vec<u8> {
    sudoku_gen()
        .arg(mode)
        .arg(file)
        .args(options)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

/// `--canon` of the puzzle column of a corpus: the canonical form of each row's puzzle.
fn canonical_forms(file: &Path) -> Vec<String> {
    let out = run("--canon", file, &[]);
    let rows = records(&out);
    let canon = rows[0].iter().position(|f| f == "canon").unwrap();
    rows[1..].iter().map(|row| row[canon].clone()).collect()
}

#[test]
fn shuffle_reads_quoted_csv_fields_as_solve_does() {
    let made = sudoku_gen()
        .args(["-n", "12", "--seed", "3", "--format", "csv"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let made = records(&made);
    assert_eq!(made[0], ["puzzle", "solution", "blanks", "level"]);
    let dir = tempfile::tempdir().unwrap();
    // A note with a comma in it before the puzzle, every other puzzle quoted, CRLF line ends; and
    // the same rows under the `quizzes,solutions` header, with `0` for blanks.
    let mut noted = String::from("note,puzzle,solution,level\r\n");
    let mut kaggle = String::from("quizzes,solutions\r\n");
    for (k, row) in made[1..].iter().enumerate() {
        let (puzzle, solution, level) = (&row[0], &row[1], &row[3]);
        let quoted = if k % 2 == 0 {
            format!("\"{puzzle}\"")
        } else {
            puzzle.clone()
        };
        noted += &format!("\"row {k}, level {level}\",{quoted},{solution},{level}\r\n");
        kaggle += &format!("\"{}\",{solution}\r\n", puzzle.replace('.', "0"));
    }
    for (name, text, kept) in [
        ("noted.csv", noted, &[0, 3][..]),
        ("kaggle.csv", kaggle, &[][..]),
    ] {
        let input = dir.path().join(name);
        std::fs::write(&input, &text).unwrap();
        // `-s` accepts the corpus: so must `--shuffle`.
        run("-s", &input, &[]);
        let shuffled = run("--shuffle", &input, &["--seed", "2"]);
        let output = dir.path().join(format!("shuffled-{name}"));
        std::fs::write(&output, &shuffled).unwrap();

        let before = records(text.as_bytes());
        let after = records(&shuffled);
        assert_eq!(after.len(), before.len(), "{name}");
        assert_eq!(after[0], before[0], "{name}: the header is kept");
        for (row, original) in after[1..].iter().zip(&before[1..]) {
            for &field in kept {
                assert_eq!(row[field], original[field], "{name}: other fields are kept");
            }
        }
        if name == "noted.csv" {
            // The writer quotes the notes, which hold commas, and nothing else.
            let text = String::from_utf8(shuffled.clone()).unwrap();
            assert!(text.contains("\n\"row 0, level "), "{text}");
            assert!(!text.contains('\r'));
            assert_eq!(text.matches('"').count(), 2 * made[1..].len());
        }
        // Each shuffled solution solves its shuffled puzzle, which has no other solution...
        sudoku_gen()
            .args(["--check"])
            .arg(&output)
            .arg("--unique")
            .assert()
            .success();
        // ...and is an equivalent of the puzzle of its row.
        assert_eq!(canonical_forms(&output), canonical_forms(&input), "{name}");
        assert_ne!(after[1..], before[1..], "{name}: the rows are shuffled");
    }
}
