//! `-n N --first SYM` on every shape through the real binary: every puzzle's one solution starts
//! with the symbol, the puzzles stay distinct and the same at any `-j`, every option of `-n` takes
//! it, shards with it share no grid and no puzzle on any shape, the 4×4 listing counts exactly the
//! puzzles it allows, and a symbol the shape has not is a usage error. Puzzles and solutions are
//! judged by `common::shapes`, which knows nothing of the engine.

use std::collections::HashSet;

use crate::common::shapes::{Spec, keeps_givens, line_records};
use crate::common::{csv_records, run_ok, sudoku_gen};

/// A shape: its flags, the checker's shape (`None` for a random layout, which its rows carry), and
/// a symbol of it.
struct Case {
    flags: &'static [&'static str],
    spec: Option<Spec>,
    first: &'static str,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            flags: &[],
            spec: Some(Spec::boxes(9, 3, 3)),
            first: "7",
        },
        Case {
            flags: &["--size", "6"],
            spec: Some(Spec::boxes(6, 2, 3)),
            first: "4",
        },
        Case {
            flags: &["--size", "12", "--box", "3x4"],
            spec: Some(Spec::boxes(12, 3, 4)),
            first: "B",
        },
        Case {
            flags: &["--size", "16"],
            spec: Some(Spec::boxes(16, 4, 4)),
            first: "G",
        },
        Case {
            flags: &["--jigsaw", "random"],
            spec: None,
            first: "5",
        },
        Case {
            flags: &["--diagonal"],
            spec: Some(Spec::boxes(9, 3, 3).with_diagonals()),
            first: "9",
        },
    ]
}

/// Runs the binary, returning (code, stdout, stderr).
fn run(args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = sudoku_gen().args(args).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap(), out.stdout, stderr)
}

/// Asserts that `args` is a usage error whose message holds `words`, writing nothing.
fn assert_usage_error(args: &[&str], words: &str) {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?} wrote on stdout");
    assert!(err.contains(words), "{args:?}: {err}");
}

/// The (puzzle, solution) pairs of a `--format csv` output, with the checker's shape of each row
/// (a jigsaw row's layout column makes it when `spec` is `None`); asserts that every puzzle is
/// distinct, has exactly one solution, the one its row gives, which starts with `first`.
fn checked_csv(text: &[u8], spec: Option<&Spec>, first: &str, what: &str) -> Vec<(String, String)> {
    let records = csv_records(text);
    let header = &records[0];
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (puzzle, solution) = (column("puzzle"), column("solution"));
    let mut seen = HashSet::new();
    let mut pairs = Vec::new();
    for row in &records[1..] {
        let spec = match spec {
            Some(spec) => spec.clone(),
            None => Spec::jigsaw(&row[column("layout")]),
        };
        let (p, s) = (row[puzzle].as_bytes(), row[solution].as_bytes());
        assert!(seen.insert(p.to_vec()), "{what}: a puzzle repeats");
        assert!(spec.is_valid_complete(s), "{what}: {}", row[solution]);
        assert!(keeps_givens(&spec, p, s), "{what}: {}", row[puzzle]);
        assert_eq!(spec.count_solutions(p, 2), 1, "{what}: {}", row[puzzle]);
        assert_eq!(s[0], first.as_bytes()[0], "{what}: {}", row[solution]);
        pairs.push((row[puzzle].clone(), row[solution].clone()));
    }
    pairs
}

#[test]
fn every_shape_makes_distinct_unique_puzzles_whose_solutions_start_with_the_symbol() {
    let dir = tempfile::tempdir().unwrap();
    for case in cases() {
        let count = if case.flags.contains(&"16") {
            "4"
        } else {
            "30"
        };
        let args = [
            &["-n", count, "--first", case.first, "--seed", "6"],
            case.flags,
        ]
        .concat();
        let csv = run_ok(&[&args[..], &["--format", "csv", "-j", "1"]].concat());
        let two = run_ok(&[&args[..], &["--format", "csv", "-j", "2"]].concat());
        assert_eq!(csv, two, "{args:?}: -j changed the output");
        let pairs = checked_csv(&csv, case.spec.as_ref(), case.first, &format!("{args:?}"));
        assert_eq!(pairs.len(), count.parse::<usize>().unwrap());
        // The line format holds the same puzzles, and -s solves each to its row's solution.
        let lines = dir.path().join("puzzles.txt");
        std::fs::write(&lines, run_ok(&[&args[..], &["--format", "line"]].concat())).unwrap();
        let made = line_records(&std::fs::read(&lines).unwrap());
        let solved = line_records(&run_ok(&["-s", lines.to_str().unwrap()]));
        assert_eq!(made.len(), pairs.len(), "{args:?}");
        for (((_, puzzle), (_, solution)), (p, s)) in made.iter().zip(&solved).zip(&pairs) {
            assert_eq!(
                (puzzle.as_slice(), solution.as_slice()),
                (p.as_bytes(), s.as_bytes())
            );
        }
    }
}

#[test]
fn the_grid_format_and_the_output_file_hold_puzzles_whose_solutions_start_with_the_symbol() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    let out = puzzles.to_str().unwrap();
    run_ok(&[
        "-n", "10", "--size", "6", "--first", "2", "--seed", "1", "-o", out,
    ]);
    let solved = run_ok(&["-s", out, "--format", "line"]);
    let spec = Spec::boxes(6, 2, 3);
    let solutions = line_records(&solved);
    assert_eq!(solutions.len(), 10);
    assert!(
        solutions
            .iter()
            .all(|(_, s)| spec.is_valid_complete(s) && s[0] == b'2')
    );
}

#[test]
fn every_option_of_n_takes_the_symbol() {
    let nine = Spec::boxes(9, 3, 3);
    let six = Spec::boxes(6, 2, 3);
    let twelve = Spec::boxes(12, 3, 4);
    let cases: [(&[&str], &Spec); 12] = [
        (&["-m", "2"], &nine),
        (&["-m", "3", "-r", "50~55"], &nine),
        (&["-r", "30~40"], &nine),
        (&["--minimal"], &nine),
        (&["--symmetric"], &nine),
        (&["--guesses", "1~3"], &nine),
        (&["--classes"], &nine),
        (&["--shard", "2/3"], &nine),
        (&["--size", "6", "-m", "2"], &six),
        (&["--size", "6", "--symmetric", "--minimal"], &six),
        (&["--size", "6", "--classes"], &six),
        (
            &["--size", "12", "--box", "3x4", "--guesses", "1~5"],
            &twelve,
        ),
    ];
    for (options, spec) in cases {
        let args = [
            &["-n", "6", "--first", "3", "--seed", "2", "--format", "csv"],
            options,
        ]
        .concat();
        let pairs = checked_csv(&run_ok(&args), Some(spec), "3", &format!("{args:?}"));
        assert_eq!(pairs.len(), 6, "{args:?}");
    }
    let args = [
        "-n",
        "1",
        "--hard=12",
        "--first",
        "8",
        "--seed",
        "4",
        "--format",
        "csv",
    ];
    assert_eq!(
        checked_csv(&run_ok(&args), Some(&nine), "8", "--hard").len(),
        1
    );
}

#[test]
fn nine_by_nine_shards_with_the_symbol_share_no_puzzle() {
    let nine = Spec::boxes(9, 3, 3);
    let shard = |i: &str| {
        let args = [
            "-n", "25", "--first", "6", "--shard", i, "--seed", "8", "--format", "csv",
        ];
        checked_csv(&run_ok(&args), Some(&nine), "6", i)
    };
    let one: HashSet<_> = shard("1/2").into_iter().map(|(_, s)| s).collect();
    let two: HashSet<_> = shard("2/2").into_iter().map(|(_, s)| s).collect();
    assert!(one.is_disjoint(&two), "two shards share a solution");
}

#[test]
fn shards_with_the_symbol_share_no_grid_and_no_puzzle_on_any_shape() {
    // --first with --shard was refused off the standard 9×9 shape: the relabelling that puts
    // the symbol first could have moved the cells that key a grid's shard.
    for case in cases().into_iter().skip(1) {
        // The keyed values move aside for these two.
        for first in ["1", "2"] {
            let what = format!("{:?} --first {first}", case.flags);
            let mut grids = HashSet::new();
            let mut solutions = HashSet::new();
            for shard in ["1/3", "2/3", "3/3"] {
                let base = ["--first", first, "--shard", shard, "--seed", "5"];
                let c =
                    run_ok(&[&["-c", "20", "--format", "line"], &base[..], case.flags].concat());
                for (layout, grid) in line_records(&c) {
                    let spec = case.spec.clone().unwrap_or_else(|| {
                        Spec::jigsaw(layout.as_deref().expect("a jigsaw line's layout"))
                    });
                    assert!(spec.is_valid_complete(&grid), "{what}");
                    assert_eq!(grid[0], first.as_bytes()[0], "{what}");
                    assert!(grids.insert(grid), "{what}: a grid in two shards");
                }
                let n = run_ok(&[&["-n", "8", "--format", "csv"], &base[..], case.flags].concat());
                let pairs = checked_csv(&n, case.spec.as_ref(), first, &what);
                let mine: HashSet<String> = pairs.into_iter().map(|(_, s)| s).collect();
                assert!(
                    mine.is_disjoint(&solutions),
                    "{what}: a solution in two shards"
                );
                solutions.extend(mine);
            }
            assert_eq!(grids.len(), 60, "{what}");
        }
    }
}

#[test]
fn four_by_four_lists_exactly_a_quarter_of_its_puzzles_for_each_symbol() {
    let spec = Spec::boxes(4, 2, 2);
    let refusal = |args: &[&str]| {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        err
    };
    let all = refusal(&["-n", "100000", "--size", "4"]);
    assert!(all.contains("has exactly 85632 minimal puzzles;"), "{all}");
    for first in ["1", "4"] {
        let err = refusal(&["-n", "21409", "--size", "4", "--first", first]);
        let expected =
            format!("exactly 21408 minimal puzzles, their solutions starting with {first};");
        assert!(err.contains(&expected), "{err}");
        let args = [
            "-n", "21408", "--size", "4", "--first", first, "--format", "csv",
        ];
        let pairs = checked_csv(&run_ok(&args), Some(&spec), first, first);
        assert_eq!(pairs.len(), 21408);
    }
    // A relabelling keeps a puzzle's class, so every class still has puzzles of each symbol.
    let classes = |first: &[&str]| {
        let args = [
            &["-n", "5000", "--size", "4", "--classes", "-r", "10~10"],
            first,
        ]
        .concat();
        let err = refusal(&args);
        assert!(err.contains("exactly 376 classes of puzzles"), "{err}");
    };
    classes(&[]);
    classes(&["--first", "2"]);
}

#[test]
fn a_symbol_the_shape_has_not_is_a_usage_error() {
    let cases: [&[&str]; 5] = [
        &["-n", "5", "--first", "A"],
        &["-n", "5", "--size", "6", "--first", "7"],
        &["-n", "5", "--size", "16", "--first", "H"],
        &["-n", "5", "--size", "4", "--first", "5"],
        &["-n", "5", "--symbols", "ABCDEFGHIJKLMNOP", "--first", "1"],
    ];
    for args in cases {
        assert_usage_error(args, "is no symbol of");
    }
}

#[test]
fn other_symbols_start_every_solution_with_the_symbol() {
    const LETTERS: &str = "ABCDEFGHIJKLMNOP";
    let spec = Spec::boxes(16, 4, 4).with_symbols(LETTERS);
    let args = [
        "-n",
        "3",
        "--symbols",
        LETTERS,
        "--first",
        "D",
        "--seed",
        "9",
        "--format",
        "csv",
    ];
    assert_eq!(
        checked_csv(&run_ok(&args), Some(&spec), "D", "letters").len(),
        3
    );
}
