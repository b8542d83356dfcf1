//! `--canon`, `--shuffle`, `-c/-n --classes` and `--check --classes` on other shapes, through the
//! real binary: every output checked by `common::shapes`, which knows nothing of the engine.

use crate::common::shapes::{Spec, line_records};
use crate::common::{run_ok_on, sudoku_gen};
use predicates::prelude::*;

/// The checker's shape of a record, from its layout prefix when it has one.
type SpecOf = fn(Option<&str>) -> Spec;

/// The shapes tested: their flags, and the checker's shape of their records.
fn shapes() -> Vec<(Vec<&'static str>, SpecOf)> {
    vec![
        (vec!["--size", "6"], |_| Spec::boxes(6, 2, 3)),
        (vec!["--size", "12", "--box", "3x4"], |_| {
            Spec::boxes(12, 3, 4)
        }),
        (vec!["--size", "16"], |_| Spec::boxes(16, 4, 4)),
        (vec!["--jigsaw", "random"], |layout| {
            Spec::jigsaw(layout.expect("a layout prefix"))
        }),
        (vec!["--diagonal"], |_| {
            Spec::boxes(9, 3, 3).with_diagonals()
        }),
    ]
}

/// Each record of a line text with its checker shape.
fn records(text: &[u8], spec: SpecOf) -> Vec<(Spec, Vec<u8>)> {
    line_records(text)
        .into_iter()
        .map(|(layout, cells)| (spec(layout.as_deref()), cells))
        .collect()
}

#[test]
fn shuffles_are_equivalent_and_forms_are_shared_on_every_shape() {
    for (flags, spec) in shapes() {
        let made = |mode: &str| {
            let args = [&[mode, "3", "--format", "line", "--seed", "4"], &flags[..]].concat();
            run_ok_on(&args, b"")
        };
        for (text, complete) in [(made("-c"), true), (made("-n"), false)] {
            let shuffled = run_ok_on(&["--shuffle", "-", "--seed", "9"], &text);
            assert_ne!(shuffled, text, "{flags:?}");
            for (spec, cells) in records(&shuffled, spec) {
                if complete {
                    assert!(spec.is_valid_complete(&cells), "{flags:?}");
                } else {
                    assert!(spec.is_consistent(&cells), "{flags:?}");
                }
            }
            let both = [text.clone(), shuffled].concat();
            let forms = run_ok_on(&["--canon", "-"], &both);
            let lines: Vec<&[u8]> = forms
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .collect();
            assert_eq!(lines.len(), 6, "{flags:?}");
            assert_eq!(lines[..3], lines[3..], "{flags:?}");
            if complete {
                for (spec, cells) in records(&forms, spec) {
                    assert!(spec.is_valid_complete(&cells), "{flags:?}");
                }
            }
            // The same seed, the same shuffle, at any thread count.
            let again = run_ok_on(&["--shuffle", "-", "--seed", "9", "-j", "1"], &text);
            assert_eq!(
                run_ok_on(&["--shuffle", "-", "--seed", "9", "-j", "2"], &text),
                again
            );
        }
    }
}

#[test]
fn classes_hold_no_equivalent_pair_and_the_check_finds_one() {
    for (flags, spec) in shapes() {
        for mode in ["-c", "-n"] {
            let args = [
                &[mode, "3", "--classes", "--format", "line", "--seed", "2"],
                &flags[..],
            ]
            .concat();
            let text = run_ok_on(&args, b"");
            let records = records(&text, spec);
            assert_eq!(records.len(), 3);
            for (spec, cells) in &records {
                assert!(if mode == "-c" {
                    spec.is_valid_complete(cells)
                } else {
                    spec.is_consistent(cells)
                });
            }
            let forms = run_ok_on(&["--canon", "-"], &text);
            let mut lines: Vec<&[u8]> = forms
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .collect();
            lines.sort();
            lines.dedup();
            assert_eq!(lines.len(), 3, "{flags:?} {mode}");
            if mode == "-c" {
                let check = run_ok_on(&["--check", "-", "--classes"], &text);
                assert!(
                    String::from_utf8(check)
                        .unwrap()
                        .contains("pairwise inequivalent")
                );
                // A shuffled copy of the first grid after them is found.
                let first = text
                    .split_inclusive(|&b| b == b'\n')
                    .next()
                    .unwrap()
                    .to_vec();
                let copy = run_ok_on(&["--shuffle", "-", "--seed", "5"], &first);
                sudoku_gen()
                    .args(["--check", "-", "--classes"])
                    .write_stdin([text.clone(), copy].concat())
                    .assert()
                    .code(1)
                    .stdout(predicate::str::contains(
                        ":4: grid 4: equivalent to grid 1 (line 1)",
                    ));
            }
        }
    }
}

#[test]
fn a_malformed_layout_prefix_is_located() {
    let text = run_ok_on(
        &[
            "-n", "1", "--jigsaw", "random", "--format", "line", "--seed", "1",
        ],
        b"",
    );
    let mut bad = text.clone();
    bad[5] = b'x';
    for mode in ["--canon", "--shuffle"] {
        sudoku_gen()
            .args([mode, "-"])
            .write_stdin(bad.clone())
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains("<stdin>:1:6: malformed layout"));
    }
}
