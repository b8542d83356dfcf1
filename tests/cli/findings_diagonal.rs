//! Regression tests of the diagonals of X-Sudoku files below 9×9 read without `--diagonal`:
//! `--shuffle` and `--canon` read a `-c --diagonal` file of 4×4, 6×6 or 8×8 grids as plain ones
//! (its grids relabel one another, too few to tell X-Sudoku from plain grids that hold their
//! diagonals by chance), and the shuffled grids broke the diagonals. The jobs whose results
//! differ between the two readings now ask for `--diagonal` or `--diagonal=no`. Every output is
//! checked with the independent checker.

use std::path::Path;

use crate::common::shapes::{Spec, line_records};
use crate::common::{run_ok, sudoku_gen};

/// The shapes below 9×9 with boxes: N and the box split.
const SMALL: [(usize, usize, usize); 3] = [(4, 2, 2), (6, 2, 3), (8, 2, 4)];

/// Writes `-c 20 --size N --seed 2 --format line` with `flags` into `dir`, and names the file.
fn grids_file(dir: &Path, n: usize, flags: &[&str]) -> String {
    let path = dir.join(format!("grids{n}{}.txt", flags.concat()));
    let path = path.to_str().unwrap().to_owned();
    let size = n.to_string();
    let mut args = vec![
        "-c", "20", "--size", &size, "--seed", "2", "--format", "line",
    ];
    args.extend_from_slice(flags);
    args.extend_from_slice(&["-o", &path]);
    run_ok(&args);
    path
}

fn cells(text: &[u8]) -> Vec<Vec<u8>> {
    line_records(text)
        .into_iter()
        .map(|(_, cells)| cells)
        .collect()
}

#[test]
fn canon_shuffle_and_classes_of_a_small_diagonal_file_ask_for_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    for (n, _, _) in SMALL {
        let path = grids_file(dir.path(), n, &["--diagonal"]);
        for job in [
            vec!["--canon", &path],
            vec!["--shuffle", &path, "--seed", "4"],
            vec!["--check", &path, "--classes"],
        ] {
            let output = sudoku_gen().args(&job).output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{job:?}: {stderr}");
            assert!(output.stdout.is_empty(), "{job:?}");
            assert!(
                stderr.contains(&format!(
                    "{path}: its grids hold both diagonals, but too few of them differ to tell \
                     X-Sudoku from plain: give --diagonal or --diagonal=no"
                )),
                "{job:?}: {stderr}"
            );
        }
        // A check of the grids and their solving give the same result either way: read plain.
        run_ok(&["--check", &path]);
        assert_eq!(run_ok(&["-s", &path]), std::fs::read(&path).unwrap());
    }
    // A CSV corpus of such grids is told alike.
    let path = grids_file(dir.path(), 6, &["--diagonal"]);
    let corpus = dir.path().join("grids.csv");
    let mut text = String::from("puzzle,solution\n");
    for grid in cells(&std::fs::read(&path).unwrap()) {
        let grid = String::from_utf8(grid).unwrap();
        text += &format!("{grid},{grid}\n");
    }
    std::fs::write(&corpus, text).unwrap();
    let output = sudoku_gen().arg("--canon").arg(&corpus).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let canon = run_ok(&["--canon", corpus.to_str().unwrap(), "--diagonal"]);
    assert!(
        String::from_utf8(canon)
            .unwrap()
            .starts_with("puzzle,solution,canon\n")
    );
}

#[test]
fn shuffle_and_canon_of_a_small_diagonal_file_read_as_the_flag_says() {
    let dir = tempfile::tempdir().unwrap();
    for (n, rows, columns) in SMALL {
        let path = grids_file(dir.path(), n, &["--diagonal"]);
        let plain = Spec::boxes(n, rows, columns);
        let diagonal = plain.clone().with_diagonals();
        let shuffle = |flag: &str| cells(&run_ok(&["--shuffle", &path, "--seed", "4", flag]));
        let kept = shuffle("--diagonal");
        assert_eq!(kept.len(), 20);
        assert!(kept.iter().all(|grid| diagonal.is_valid_complete(grid)));
        // `--diagonal=yes` is `--diagonal`.
        assert_eq!(shuffle("--diagonal=yes"), kept);
        // Read plain, the moves of plain grids break the diagonals of most.
        let moved = shuffle("--diagonal=no");
        assert_eq!(moved.len(), 20);
        assert!(moved.iter().all(|grid| plain.is_valid_complete(grid)));
        assert!(moved.iter().any(|grid| !diagonal.is_valid_complete(grid)));
        let canon = |flag: &str| cells(&run_ok(&["--canon", &path, flag]));
        let (x_sudoku, plain_forms) = (canon("--diagonal"), canon("--diagonal=no"));
        assert!(x_sudoku.iter().all(|grid| diagonal.is_valid_complete(grid)));
        assert!(plain_forms.iter().all(|grid| plain.is_valid_complete(grid)));
        assert_ne!(x_sudoku, plain_forms, "{n}×{n}");
    }
}

#[test]
fn a_small_plain_file_is_shuffled_and_canonicalised_without_a_flag() {
    let dir = tempfile::tempdir().unwrap();
    let path = grids_file(dir.path(), 6, &[]);
    let plain = Spec::boxes(6, 2, 3);
    let diagonal = plain.clone().with_diagonals();
    let grids = cells(&std::fs::read(&path).unwrap());
    assert!(grids.iter().all(|grid| !diagonal.is_valid_complete(grid)));
    let shuffled = cells(&run_ok(&["--shuffle", &path, "--seed", "4"]));
    assert_eq!(shuffled.len(), 20);
    assert!(shuffled.iter().all(|grid| plain.is_valid_complete(grid)));
    let canon = run_ok(&["--canon", &path]);
    assert_eq!(canon, run_ok(&["--canon", &path, "--diagonal=no"]));
    assert!(
        cells(&canon)
            .iter()
            .all(|grid| plain.is_valid_complete(grid))
    );
    // `--diagonal=no` makes the plain shape.
    let size = ["-c", "5", "--size", "6", "--seed", "1", "--format", "line"];
    let refused = [&size[..], &["--diagonal=no"]].concat();
    assert_eq!(run_ok(&refused), run_ok(&size));
}

#[test]
fn a_9x9_diagonal_file_needs_no_flag() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x9.txt");
    let path = path.to_str().unwrap();
    run_ok(&[
        "-c",
        "20",
        "--diagonal",
        "--seed",
        "2",
        "--format",
        "line",
        "-o",
        path,
    ]);
    let diagonal = Spec::boxes(9, 3, 3).with_diagonals();
    let shuffled = cells(&run_ok(&["--shuffle", path, "--seed", "4"]));
    assert_eq!(shuffled.len(), 20);
    assert!(shuffled.iter().all(|grid| diagonal.is_valid_complete(grid)));
    let canon = run_ok(&["--canon", path]);
    assert_eq!(canon, run_ok(&["--canon", path, "--diagonal"]));
    assert!(
        cells(&canon)
            .iter()
            .all(|grid| diagonal.is_valid_complete(grid))
    );
}

#[test]
fn diagonal_takes_yes_or_no_and_never_the_next_argument() {
    let dir = tempfile::tempdir().unwrap();
    let path = grids_file(dir.path(), 6, &["--diagonal"]);
    let output = sudoku_gen()
        .args(["--shuffle", &path, "--diagonal=maybe"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("invalid value 'maybe'") && stderr.contains("expected yes or no"));
    // A value needs its `=`: the next argument is never taken for one.
    let output = sudoku_gen()
        .args(["--shuffle", &path, "--diagonal", "no"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "unexpected argument 'no': '--diagonal' takes its value after '=': --diagonal=no"
        ),
        "{stderr}"
    );
    // So do the modes of several files, where a word that names no file reads as the value.
    let output = sudoku_gen()
        .args(["--check", &path, "--diagonal", "no"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("--diagonal=no"),
        "{:?}",
        output.stderr
    );
    let before = run_ok(&["--seed", "4", "--diagonal", "--shuffle", &path]);
    assert_eq!(
        before,
        run_ok(&["--shuffle", &path, "--seed", "4", "--diagonal"])
    );
}
