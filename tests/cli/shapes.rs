//! Every shape in every mode through the real binary, checked by `common::shapes`, which knows
//! nothing of the engine.

use crate::common::shapes::{Spec, grid_records, keeps_givens, line_records};
use crate::common::sudoku_gen;
use predicates::prelude::*;

fn data(name: &str) -> String {
    format!("{}/tests/data/shapes/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(data(name)).unwrap()
}

/// Runs the binary, returning (code, stdout, stderr).
fn run(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let out = sudoku_gen().args(args).write_stdin(stdin).output().unwrap();
    (
        out.status.code().unwrap(),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The sample sets of the line format with the flags they need and the checker's shape.
fn sample_sets() -> Vec<(&'static str, Vec<&'static str>, Spec)> {
    vec![
        ("4x4.txt", vec![], Spec::boxes(4, 2, 2)),
        ("6x6.txt", vec![], Spec::boxes(6, 2, 3)),
        ("12x12.txt", vec![], Spec::boxes(12, 3, 4)),
        ("16x16.txt", vec![], Spec::boxes(16, 4, 4)),
        ("25x25.txt", vec![], Spec::boxes(25, 5, 5)),
        (
            "x9.txt",
            vec!["--diagonal"],
            Spec::boxes(9, 3, 3).with_diagonals(),
        ),
    ]
}

#[test]
fn every_sample_set_is_solved_uniquely_and_checked() {
    for (file, flags, spec) in sample_sets() {
        let mut args = vec!["-s", "-", "--unique"];
        args.extend(&flags);
        let input = read(file);
        let (code, out, err) = run(&args, &input);
        assert_eq!(code, 0, "{file}: {err}");
        let puzzles = line_records(&input);
        let solutions = line_records(&out);
        assert_eq!(puzzles.len(), solutions.len(), "{file}");
        for ((_, puzzle), (_, solution)) in puzzles.iter().zip(&solutions) {
            assert!(spec.is_valid_complete(solution), "{file}");
            assert!(keeps_givens(&spec, puzzle, solution), "{file}");
        }
    }
}

#[test]
fn jigsaw_lines_keep_their_layout_on_the_answer() {
    let input = read("jigsaw9.txt");
    let (code, out, err) = run(&["-s", "-", "--unique"], &input);
    assert_eq!(code, 0, "{err}");
    for ((layout, puzzle), (answer_layout, solution)) in
        line_records(&input).iter().zip(line_records(&out))
    {
        assert_eq!(layout, &answer_layout);
        let spec = Spec::jigsaw(layout.as_ref().unwrap());
        assert!(spec.is_valid_complete(&solution) && keeps_givens(&spec, puzzle, &solution));
    }
}

#[test]
fn a_layout_file_gives_the_regions() {
    let layout = std::str::from_utf8(&read("jigsaw9_layouts.txt"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_owned();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("layout.txt");
    std::fs::write(&path, &layout).unwrap();
    let path = path.to_str().unwrap();
    let (code, out, err) = run(
        &[
            "-c", "50", "--jigsaw", path, "--seed", "3", "--format", "line",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let spec = Spec::jigsaw(&layout);
    let records = line_records(&out);
    assert_eq!(records.len(), 50);
    for (prefix, grid) in &records {
        assert!(prefix.is_some() && spec.is_valid_complete(grid));
    }
    // The grids' own layout lines solve back to themselves, and the checker takes them.
    let (code, report, _) = run(&["--check", "-", "--count", "50"], &out);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&report));
}

#[test]
fn the_acwing_sample_comes_out_as_acwing_expects() {
    let (code, out, err) = run(
        &["-s", &data("acwing16.txt"), "--symbols", "ABCDEFGHIJKLMNOP"],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        String::from_utf8(out).unwrap(),
        String::from_utf8(read("acwing16.expected.txt")).unwrap()
    );
    let spec = Spec::boxes(16, 4, 4).with_symbols("ABCDEFGHIJKLMNOP");
    let puzzles = grid_records(&read("acwing16.txt"), 16, true);
    for (puzzle, solution) in
        puzzles
            .iter()
            .zip(grid_records(&read("acwing16.expected.txt"), 16, true))
    {
        assert!(spec.is_valid_complete(&solution) && keeps_givens(&spec, puzzle, &solution));
    }
}

/// Shapes for -c and -n: flags and the checker's shape.
fn shapes() -> Vec<(Vec<&'static str>, Spec)> {
    vec![
        (vec!["--size", "4"], Spec::boxes(4, 2, 2)),
        (
            vec!["--size", "6", "--diagonal"],
            Spec::boxes(6, 2, 3).with_diagonals(),
        ),
        (vec!["--size", "8"], Spec::boxes(8, 2, 4)),
        (
            vec!["--size", "9", "--diagonal"],
            Spec::boxes(9, 3, 3).with_diagonals(),
        ),
        (vec!["--size", "10"], Spec::boxes(10, 2, 5)),
        (vec!["--size", "12", "--box", "2x6"], Spec::boxes(12, 2, 6)),
        (
            vec!["--size", "16", "--symbols", "0123456789ABCDEF"],
            Spec::boxes(16, 4, 4).with_symbols("0123456789ABCDEF"),
        ),
        (vec!["--size", "20"], Spec::boxes(20, 4, 5)),
        (vec!["--size", "25"], Spec::boxes(25, 5, 5)),
    ]
}

#[test]
fn grids_of_every_shape_are_valid_distinct_and_the_same_at_any_thread_count() {
    for (flags, spec) in shapes() {
        for format in ["grid", "line"] {
            let mut args = vec!["-c", "40", "--seed", "11", "--format", format];
            args.extend(&flags);
            let (code, out, err) = run(&[&args[..], &["-j", "1"]].concat(), b"");
            assert_eq!(code, 0, "{flags:?}: {err}");
            let (_, again, _) = run(&[&args[..], &["-j", "2"]].concat(), b"");
            assert_eq!(out, again, "{flags:?}");
            let grids: Vec<Vec<u8>> = if format == "line" {
                line_records(&out).into_iter().map(|(_, g)| g).collect()
            } else {
                grid_records(&out, spec.n, false)
            };
            assert_eq!(grids.len(), 40);
            assert!(grids.iter().all(|g| spec.is_valid_complete(g)), "{flags:?}");
            let distinct: std::collections::HashSet<_> = grids.iter().collect();
            assert_eq!(distinct.len(), 40);
            let mut check = vec!["--check", "-", "--count", "40"];
            check.extend(&flags);
            let (code, report, _) = run(&check, &out);
            assert_eq!(code, 0, "{flags:?}: {}", String::from_utf8_lossy(&report));
        }
    }
}

#[test]
fn a_shape_with_fewer_grids_than_asked_writes_nothing_and_says_how_many() {
    let (code, out, _) = run(&["-c", "288", "--size", "4", "--format", "line"], b"");
    assert_eq!(code, 0);
    assert_eq!(line_records(&out).len(), 288);
    sudoku_gen()
        .args(["-c", "289", "--size", "4"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("only 288 complete grids"));
    // A jigsaw layout that no grid fills.
    sudoku_gen()
        .args(["-c", "1", "--jigsaw", "-", "--format", "line"])
        .write_stdin("aaab\ncabb\nccbd\ncddd\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("no complete grid"));
}

#[test]
fn puzzles_of_every_shape_have_one_solution() {
    let small = [
        (vec!["--size", "4"], Spec::boxes(4, 2, 2)),
        (
            vec!["--size", "6", "--diagonal", "--symmetric"],
            Spec::boxes(6, 2, 3).with_diagonals(),
        ),
        (vec!["--size", "6", "--minimal"], Spec::boxes(6, 2, 3)),
        (vec!["--size", "8", "-r", "20~30"], Spec::boxes(8, 2, 4)),
    ];
    for (flags, spec) in small {
        let mut args = vec!["-n", "5", "--seed", "2", "--format", "line"];
        args.extend(&flags);
        let (code, out, err) = run(&args, b"");
        assert_eq!(code, 0, "{flags:?}: {err}");
        let puzzles = line_records(&out);
        assert_eq!(puzzles.len(), 5);
        for (_, puzzle) in &puzzles {
            assert_eq!(spec.count_solutions(puzzle, 2), 1, "{flags:?}");
            if flags.contains(&"-r") {
                let blanks = puzzle.iter().filter(|&&c| c == b'.').count();
                assert!((20..=30).contains(&blanks));
            }
        }
    }
    // Larger shapes: the solver answers each puzzle with --unique, and the checker checks the answer.
    for (flags, spec) in [
        (vec!["--size", "16"], Spec::boxes(16, 4, 4)),
        (
            vec!["--size", "12", "--diagonal"],
            Spec::boxes(12, 3, 4).with_diagonals(),
        ),
    ] {
        let mut args = vec!["-n", "2", "--seed", "5"];
        args.extend(&flags);
        let (code, out, err) = run(&args, b"");
        assert_eq!(code, 0, "{err}");
        let mut solve = vec!["-s", "-", "--unique"];
        solve.extend(&flags);
        let (code, solved, err) = run(&solve, &out);
        assert_eq!(code, 0, "{err}");
        for (puzzle, solution) in grid_records(&out, spec.n, false)
            .iter()
            .zip(grid_records(&solved, spec.n, false))
        {
            assert!(
                spec.is_consistent(puzzle)
                    && spec.is_valid_complete(&solution)
                    && keeps_givens(&spec, puzzle, &solution)
            );
        }
    }
}

#[test]
fn random_jigsaw_puzzles_carry_their_layout() {
    let (code, out, err) = run(
        &[
            "-n", "4", "--jigsaw", "random", "--size", "9", "--seed", "8", "--format", "line",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let records = line_records(&out);
    assert_eq!(records.len(), 4);
    let (code, solved, err) = run(&["-s", "-", "--unique"], &out);
    assert_eq!(code, 0, "{err}");
    for ((layout, puzzle), (_, solution)) in records.iter().zip(line_records(&solved)) {
        let spec = Spec::jigsaw(layout.as_ref().expect("a layout prefix"));
        assert!(spec.is_consistent(puzzle) && spec.is_valid_complete(&solution));
        assert!(keeps_givens(&spec, puzzle, &solution));
    }
}

#[test]
fn check_reports_bad_grids_of_other_shapes() {
    let text = "1234341221434321\n1234341221434321\n1234123412341234\n";
    sudoku_gen()
        .args(["--check", "-", "--size", "4"])
        .write_stdin(text)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "<stdin>:2: grid 2: repeats grid 1 (line 1)",
        ))
        .stdout(predicate::str::contains(
            "<stdin>:3: grid 3: digit 1 repeats in column 1 (rows 1 and 2)",
        ))
        .stdout(predicate::str::contains("FAIL: 9 problems in 3 grids"));
    let puzzles = read("6x6.txt");
    let (_, solved, _) = run(&["-s", "-"], &puzzles);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.txt");
    std::fs::write(&path, &puzzles).unwrap();
    let (code, report, _) = run(
        &[
            "--check",
            "-",
            "--puzzles",
            path.to_str().unwrap(),
            "--count",
            "50",
        ],
        &solved,
    );
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&report));
}

#[test]
fn bad_input_is_named_with_the_right_exit_code() {
    let usage = [
        (
            vec!["-c", "1", "--jigsaw", "-"],
            "aaab\naabb\nccdd\nccdd\n",
            "region 'a' has 5 cells",
        ),
        (
            vec!["-c", "1", "--jigsaw", "-"],
            "abab\naabb\nccdd\nccdd\n",
            "region 'a' is not connected",
        ),
        (
            vec!["-c", "1", "--size", "4", "--symbols", "ABCA"],
            "",
            "'A' repeats",
        ),
        (
            vec!["-c", "1", "--size", "4", "--symbols", "ABC"],
            "",
            "3 symbols; expected 4",
        ),
        (
            vec!["-c", "1", "--size", "12", "--box", "2x5"],
            "",
            "is not 12",
        ),
        (
            vec!["-c", "1", "--size", "7"],
            "",
            "prime size has no boxes",
        ),
        (
            vec!["--print", "--size", "16"],
            "",
            "a homework feature, of the standard 9×9 shape only",
        ),
        (
            vec!["--canon", "-", "--size", "16", "--column", "quizzes"],
            "",
            "'--column' names a column of a CSV corpus",
        ),
        (
            vec!["-n", "1", "--size", "4", "-r", "14~16"],
            "",
            "1 to 12 blanks",
        ),
    ];
    for (args, stdin, message) in usage {
        sudoku_gen()
            .args(&args)
            .write_stdin(stdin)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message));
    }
    let data_problems = [
        (
            vec!["-s", "-", "--size", "16"],
            ".".repeat(81) + "\n",
            "<stdin>:1:1: expected 256 cells for a 16×16 puzzle, found 81",
        ),
        (
            vec!["-s", "-", "--size", "9"],
            ".".repeat(256) + "\n",
            "<stdin>:1:82: expected 81 cells, found 256",
        ),
        (
            vec!["-s", "-", "--size", "16"],
            "# notes\n\n".to_owned() + &".".repeat(30) + "\n",
            "<stdin>:3:1: expected a line of 256 cells or a row of 16 cells (a 16×16 grid), found \
             30 characters",
        ),
        (
            vec!["-s", "-"],
            "12x4123412341234\n".to_owned(),
            "<stdin>:1:3: unexpected 'x'",
        ),
        (
            vec!["-s", "-"],
            format!("{} {}\n", "a".repeat(80) + "b", ".".repeat(81)),
            "<stdin>:1:1: malformed layout: it has 2 regions; expected 9",
        ),
    ];
    for (args, stdin, message) in data_problems {
        sudoku_gen()
            .args(&args)
            .write_stdin(stdin)
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains(message));
    }
}
