//! Regression tests of outputs that did not read back as they were written: symbol sets, box
//! splits, diagonals and jigsaw layouts, each told from the text without the flags that made it.
//! Each test is named after its bug and runs the real binary.

use crate::common::shapes::{Spec, grid_records, keeps_givens, line_records};
use crate::common::{run_ok, sudoku_gen};
use crate::findings::{refusal, run_on_endless_stream};

#[test]
fn symbol_set_outputs_read_back_even_with_0_as_a_symbol() {
    for symbols in ["ABCD", "0123"] {
        for format in ["line", "grid"] {
            let shape = ["--symbols", symbols];
            let grids =
                run_ok(&[&["-c", "3", "--seed", "1", "--format", format][..], &shape].concat());
            sudoku_gen()
                .args([&["--check", "-", "--count", "3"][..], &shape].concat())
                .write_stdin(grids)
                .assert()
                .success();
            let puzzles =
                run_ok(&[&["-n", "3", "--seed", "1", "--format", format][..], &shape].concat());
            // With 0 a symbol, blanks are written '.', which no symbol can be.
            assert!(symbols != "0123" || puzzles.contains(&b'.'));
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("puzzles.txt");
            std::fs::write(&path, &puzzles).unwrap();
            let path = path.to_str().unwrap();
            let solved = run_ok(&[&["-s", path, "--unique"][..], &shape].concat());
            sudoku_gen()
                .args([&["--check", "-", "--puzzles", path][..], &shape].concat())
                .write_stdin(solved)
                .assert()
                .success();
        }
    }
    // A blank cannot be a symbol: '.' is refused, naming why.
    let message = refusal(&["-c", "1", "--symbols", "123."]);
    assert!(message.contains("cannot be a symbol"), "{message}");
}

#[test]
fn symbol_set_outputs_read_back_without_their_flag() {
    // Hexadoku's 0–F read back with 0 taken for a blank: -s solved another puzzle, silently.
    for symbols in ["0123456789ABCDEF", "ABCDEFGHI", "012345678"] {
        let shape = ["--symbols", symbols];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("puzzles.txt");
        let path = path.to_str().unwrap();
        for format in ["line", "grid"] {
            let grids =
                run_ok(&[&["-c", "3", "--seed", "4", "--format", format][..], &shape].concat());
            sudoku_gen()
                .args(["--check", "-", "--count", "3"])
                .write_stdin(grids)
                .assert()
                .success();
            let puzzles =
                run_ok(&[&["-n", "3", "--seed", "4", "--format", format][..], &shape].concat());
            std::fs::write(path, &puzzles).unwrap();
            let solved = run_ok(&["-s", path]);
            sudoku_gen()
                .args([&["--check", "-", "--puzzles", path][..], &shape].concat())
                .write_stdin(solved)
                .assert()
                .success();
        }
    }
}

#[test]
fn box_split_outputs_read_back_without_their_flag() {
    // Read with the default boxes, a 6×6 file of 3x2 boxes had repeats in every box for --check,
    // and -s solved its puzzles as other puzzles, or found them to have none.
    let splits = [
        (6, 3, 2),
        (6, 2, 3),
        (12, 2, 6),
        (12, 6, 2),
        (12, 3, 4),
        (12, 4, 3),
        (8, 4, 2),
    ];
    for (n, rows, columns) in splits {
        let (size, split) = (n.to_string(), format!("{rows}x{columns}"));
        let shape = ["--size", &size, "--box", &split];
        let spec = Spec::boxes(n, rows, columns);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.txt");
        let path = path.to_str().unwrap();
        for format in ["line", "grid"] {
            let records = |text: &[u8]| match format {
                "line" => line_records(text)
                    .into_iter()
                    .map(|(_, cells)| cells)
                    .collect(),
                _ => grid_records(text, n, false),
            };
            let made = |mode| {
                run_ok(&[&[mode, "3", "--seed", "4", "--format", format], &shape[..]].concat())
            };
            let grids = made("-c");
            assert!(
                records(&grids)
                    .iter()
                    .all(|grid| spec.is_valid_complete(grid))
            );
            sudoku_gen()
                .args(["--check", "-", "--count", "3"])
                .write_stdin(grids.clone())
                .assert()
                .success();
            std::fs::write(path, &grids).unwrap();
            assert_eq!(run_ok(&["-s", path]), grids, "{split} {format}");

            let puzzles = made("-n");
            std::fs::write(path, &puzzles).unwrap();
            let solved = run_ok(&["-s", path]);
            for flags in [&[][..], &shape[..]] {
                sudoku_gen()
                    .args([&["--check", "-", "--puzzles", path][..], flags].concat())
                    .write_stdin(solved.clone())
                    .assert()
                    .success();
            }
            let solutions = records(&solved);
            assert_eq!(solutions.len(), 3, "{split} {format}");
            for (puzzle, solution) in records(&puzzles).iter().zip(&solutions) {
                assert!(spec.is_valid_complete(solution), "{split} {format}");
                assert!(keeps_givens(&spec, puzzle, solution), "{split} {format}");
            }
        }
    }
    // A split given wins over the text's.
    let grids = run_ok(&["-c", "3", "--seed", "4", "--size", "6", "--box", "3x2"]);
    sudoku_gen()
        .args(["--check", "-", "--box", "2x3", "--size", "6"])
        .write_stdin(grids)
        .assert()
        .code(1);
    // Two 1s in one 3x4 box and in no box of the other splits, each of which solves the rest
    // in many ways: no reading to prefer.
    let mut puzzle = vec![b'.'; 144];
    puzzle[0] = b'1';
    puzzle[2 * 12 + 3] = b'1';
    puzzle.push(b'\n');
    let output = sudoku_gen()
        .args(["-s", "-"])
        .write_stdin(puzzle)
        .output()
        .unwrap();
    let message = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(message.contains("give --box"), "{message}");
}

#[test]
fn diagonal_puzzles_read_back_without_their_flag() {
    // Read without their diagonals, X-Sudoku puzzles have many solutions: -s wrote one that
    // breaks them, and said nothing.
    for size in ["9", "6", "12", "16"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("puzzles.txt");
        let path = path.to_str().unwrap();
        for format in ["line", "grid"] {
            let shape = ["--size", size, "--diagonal"];
            let args = [&["-n", "4", "--seed", "5", "--format", format][..], &shape].concat();
            std::fs::write(path, run_ok(&args)).unwrap();
            let solved = run_ok(&["-s", path, "--unique"]);
            sudoku_gen()
                .args([&["--check", "-", "--puzzles", path][..], &shape].concat())
                .write_stdin(solved)
                .assert()
                .success();
            let grids =
                run_ok(&[&["-c", "3", "--seed", "5", "--format", format][..], &shape].concat());
            sudoku_gen()
                .args(["--check", "-", "--count", "3"])
                .write_stdin(grids)
                .assert()
                .success();
        }
    }
}

#[test]
fn a_file_of_its_own_symbols_not_all_shown_named_no_flag() {
    // Its alphabet cannot be told when a symbol never shows: the error names the flag that reads it.
    let puzzle = run_ok(&[
        "-n",
        "1",
        "--size",
        "16",
        "--symbols",
        "QWERTYUIOPASDFGH",
        "--seed",
        "2",
        "--format",
        "line",
    ]);
    let without_q: Vec<u8> = puzzle
        .iter()
        .map(|&b| if b == b'Q' { b'.' } else { b })
        .collect();
    let output = sudoku_gen()
        .args(["-s", "-"])
        .write_stdin(without_q)
        .output()
        .unwrap();
    let message = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(message.contains("give --symbols"), "{message}");
}

#[test]
fn read_backs_broken_by_end_lines_jigsaw_alphabets_sparse_diagonals_and_streams() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    // Solved without flags, then checked with them: the answers must keep the shape's rules.
    let solved_right = |puzzles: &str, flags: &[&str]| {
        let solved = run_ok(&["-s", puzzles]);
        sudoku_gen()
            .args([&["--check", "-", "--puzzles", puzzles][..], flags].concat())
            .write_stdin(solved)
            .assert()
            .success();
    };
    // An `end` line hid the 0–F alphabet: 0 was read as a blank.
    let hex = ["--symbols", "0123456789ABCDEF"];
    let made = run_ok(&[&["-n", "3", "--seed", "11", "--format", "line"][..], &hex].concat());
    solved_right(&file("end.txt", &[&made[..], b"end\n"].concat()), &hex);
    // A jigsaw line's layout was counted among the rows that tell the alphabet.
    let jigsaw = [
        "--size",
        "10",
        "--jigsaw",
        "random",
        "--symbols",
        "0123456789",
    ];
    let made = run_ok(&[&["-n", "3", "--seed", "1", "--format", "line"][..], &jigsaw].concat());
    solved_right(&file("jigsaw.txt", &made), &["--symbols", "0123456789"]);
    // First puzzles of few blanks solve alike with their diagonals and without.
    let x = ["--size", "8", "--diagonal"];
    let args = [
        &["-n", "50", "-r", "1~20", "--seed", "2", "--format", "line"][..],
        &x,
    ]
    .concat();
    solved_right(&file("x.txt", &run_ok(&args)), &x);
    // An endless stream of puzzles against a file of solutions of another shape.
    let puzzles = file(
        "p16.txt",
        &run_ok(&["-n", "3", "--size", "16", "--seed", "3"]),
    );
    let solutions = file("s16.txt", &run_ok(&["-s", &puzzles]));
    let one = run_ok(&["-n", "1", "--size", "16", "--seed", "3", "--format", "line"]);
    let args = ["--check", &solutions, "--puzzles", "-"];
    let (code, _, stderr, read) = run_on_endless_stream(&args, b"", &one);
    assert_eq!(code, 1, "{stderr}");
    assert!(read < 100 << 20, "read {} MiB", read >> 20);
    // A comma would split the puzzle field of --rate's CSV.
    let message = refusal(&["-c", "1", "--symbols", ",ABC"]);
    assert!(message.contains("cannot be a symbol"), "{message}");
}

#[test]
fn jigsaw_and_boxed_diagonal_puzzles_read_back_as_plain_ones() {
    // Records with their layouts, a --jigsaw file or a --box told no diagonals: -s found many
    // solutions, or wrote one that broke them.
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let made = run_ok(&[
        "-n",
        "3",
        "--jigsaw",
        "random",
        "--diagonal",
        "--format",
        "line",
        "--seed",
        "4",
    ]);
    std::fs::write(path("prefixed.txt"), &made).unwrap();
    let records = line_records(&made);
    let layout = records[0].0.clone().unwrap();
    std::fs::write(path("layout.txt"), &layout).unwrap();
    let spec = Spec::jigsaw(&layout).with_diagonals();
    let solved = run_ok(&["-s", &path("prefixed.txt"), "--unique"]);
    for ((_, puzzle), (_, solution)) in records.iter().zip(line_records(&solved)) {
        assert!(spec.is_valid_complete(&solution) && keeps_givens(&spec, puzzle, &solution));
    }
    let bare: Vec<u8> = made
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .flat_map(|line| [&line[layout.len() + 1..], b"\n"].concat())
        .collect();
    std::fs::write(path("bare.txt"), &bare).unwrap();
    let solved = run_ok(&[
        "-s",
        &path("bare.txt"),
        "--jigsaw",
        &path("layout.txt"),
        "--unique",
    ]);
    for ((_, puzzle), (_, solution)) in records.iter().zip(line_records(&solved)) {
        assert!(spec.is_valid_complete(&solution) && keeps_givens(&spec, puzzle, &solution));
    }
    let boxed = ["--size", "6", "--box", "3x2"];
    let made = run_ok(
        &[
            &boxed[..],
            &["-n", "3", "--diagonal", "--format", "line", "--seed", "4"],
        ]
        .concat(),
    );
    std::fs::write(path("boxed.txt"), &made).unwrap();
    let solved = run_ok(&[&boxed[..], &["-s", &path("boxed.txt"), "--unique"]].concat());
    let spec = Spec::boxes(6, 3, 2).with_diagonals();
    for ((_, puzzle), (_, solution)) in line_records(&made).iter().zip(line_records(&solved)) {
        assert!(spec.is_valid_complete(&solution) && keeps_givens(&spec, puzzle, &solution));
    }
}

#[test]
fn a_puzzle_repeated_many_times_was_read_as_x_sudoku() {
    // Each copy counted anew as evidence of diagonals that one puzzle shows by chance: from 18
    // copies on, every puzzle had "no solution".
    let sample = include_str!("../data/sample_17_clue.txt");
    let mut lines = sample.lines().filter(|l| !l.starts_with('#'));
    let (a, b) = (lines.next().unwrap(), lines.next().unwrap());
    let six = include_str!("../data/shapes/6x6.txt")
        .lines()
        .next()
        .unwrap();
    for (text, spec) in [
        (format!("{a}\n").repeat(18), Spec::boxes(9, 3, 3)),
        (format!("{a}\n{b}\n").repeat(10), Spec::boxes(9, 3, 3)),
        (format!("{six}\n").repeat(18), Spec::boxes(6, 2, 3)),
    ] {
        let solved = sudoku_gen()
            .args(["-s", "-", "--unique"])
            .write_stdin(text.clone())
            .output()
            .unwrap();
        assert!(
            solved.status.success(),
            "{}",
            String::from_utf8_lossy(&solved.stderr)
        );
        let puzzles = line_records(text.as_bytes());
        let solutions = line_records(&solved.stdout);
        assert_eq!(puzzles.len(), solutions.len());
        for ((_, puzzle), (_, solution)) in puzzles.iter().zip(&solutions) {
            assert!(spec.is_valid_complete(solution) && keeps_givens(&spec, puzzle, solution));
        }
    }
}

#[test]
fn a_quote_among_the_symbols_broke_the_csv_of_n() {
    // The CSV writes fields unquoted, so a quote among the symbols would open a quoted field
    // there and the corpus would not read back: a quote, like a comma, is no symbol.
    for symbols in ["a\"bcdefgh", "a,bcdefgh"] {
        let message = refusal(&["-n", "3", "--symbols", symbols, "--format", "csv"]);
        assert!(message.contains("cannot be a symbol"), "{message}");
    }
}

#[test]
fn rating_a_corpus_of_n_wrote_a_second_level_column() {
    for shape in [&[][..], &["--size", "6"][..]] {
        let made = run_ok(&[&["-n", "4", "--seed", "1", "--format", "csv"][..], shape].concat());
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path().join("corpus.csv");
        std::fs::write(&corpus, &made).unwrap();
        let corpus = corpus.to_str().unwrap();
        let rated = run_ok(&["--rate", corpus]);
        let rated = String::from_utf8(rated).unwrap();
        let header = rated.lines().next().unwrap();
        assert_eq!(
            header,
            "puzzle,solution,blanks,level,singles,locked,pairs_triples,harder,guesses,guesses_mean"
        );
        // The level -n wrote is the level --rate finds, in the same column.
        let made = String::from_utf8(made).unwrap();
        for (made, rated) in made.lines().zip(rated.lines()).skip(1) {
            assert!(rated.starts_with(made), "{rated} after {made}");
        }
        // What --rate and --canon write is read back by them, and rated again in place.
        let again = dir.path().join("rated.csv");
        std::fs::write(&again, &rated).unwrap();
        let again = again.to_str().unwrap();
        assert_eq!(
            String::from_utf8(run_ok(&["--rate", again])).unwrap(),
            rated
        );
        let canon = run_ok(&["--canon", corpus]);
        let canon_path = dir.path().join("canon.csv");
        std::fs::write(&canon_path, &canon).unwrap();
        assert_eq!(run_ok(&["--canon", canon_path.to_str().unwrap()]), canon);
    }
}
