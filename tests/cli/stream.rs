//! Inputs of any size and the corpus formats people have: files larger than one work piece (32 MiB)
//! with problems in their first, middle and last pieces, CSV corpora in the Kaggle layouts, several
//! files checked together, endless inputs, and the progress bar.

use std::io::Write;
use std::path::Path;

use crate::common::{check_against, solve_into, sudoku_gen};

/// Bytes a work piece holds at most (see `input::PIECE`).
const PIECE: usize = 32 << 20;

/// The puzzles the big files repeat: easy ones, which reasoning alone solves, since these tests
/// are about pieces and records, and solving is most of their time.
fn sample_lines() -> Vec<String> {
    let text = std::fs::read_to_string("tests/data/sample_easy.txt").unwrap();
    text.lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// A puzzle file of `lines` lines in the line format, the sample repeated; the lines of `bad` (counted
/// from 1) hold an `x` instead of their first cell.
fn write_puzzles(path: &Path, lines: usize, bad: &[usize]) {
    let sample = sample_lines();
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for k in 0..lines {
        let line = &sample[k % sample.len()];
        if bad.contains(&(k + 1)) {
            writeln!(file, "x{}", &line[1..]).unwrap();
        } else {
            writeln!(file, "{line}").unwrap();
        }
    }
}

#[test]
fn problems_in_the_first_middle_and_last_pieces_are_all_located() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    // Three and a bit pieces of 82-byte lines.
    let lines = 3 * PIECE / 82 + 1000;
    let bad = [7, lines / 2, lines - 3];
    write_puzzles(&path, lines, &bad);
    for mode in ["-s", "--rate"] {
        let out = sudoku_gen().arg(mode).arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{mode}");
        assert!(out.stdout.is_empty(), "{mode}: nothing is written");
        let stderr = String::from_utf8(out.stderr).unwrap();
        let name = path.display();
        let expected: Vec<String> = bad
            .iter()
            .map(|line| format!("{name}:{line}:1: unexpected character 'x'"))
            .collect();
        assert_eq!(stderr.lines().collect::<Vec<_>>(), expected, "{mode}");
    }
}

#[test]
fn a_file_of_several_pieces_is_solved_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    let lines = 2 * PIECE / 82 + 777;
    write_puzzles(&path, lines, &[]);
    let small = dir.path().join("small.txt");
    write_puzzles(&small, sample_lines().len(), &[]);
    let one = sudoku_gen().arg("-s").arg(&small).output().unwrap();
    assert!(one.status.success());
    let solutions: Vec<&[u8]> = one.stdout.split_inclusive(|&b| b == b'\n').collect();
    let out = dir.path().join("out.txt");
    solve_into(&path, &out);
    let text = std::fs::read(&out).unwrap();
    assert_eq!(text.len(), lines * 82);
    for (k, record) in text.chunks(82).enumerate() {
        assert_eq!(record, solutions[k % solutions.len()], "line {}", k + 1);
    }
}

#[test]
fn a_malformed_last_piece_leaves_the_output_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    let lines = 2 * PIECE / 82 + 100;
    write_puzzles(&path, lines, &[lines - 1]);
    let out = dir.path().join("out.txt");
    std::fs::write(&out, "kept\n").unwrap();
    let run = sudoku_gen()
        .arg("-s")
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(std::fs::read(&out).unwrap(), b"kept\n");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no temporary file left"
    );
}

#[test]
fn grids_of_several_pieces_are_checked_with_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grids.txt");
    sudoku_gen()
        .args(["-c", "1000000", "--seed", "3", "-o"])
        .arg(&path)
        .assert()
        .success();
    sudoku_gen()
        .arg("--check")
        .arg(&path)
        .assert()
        .success()
        .stdout("ok: 1000000 grids, all valid and distinct\n");
    // Grid 600,001 (in the fourth piece) made a copy of grid 2.
    let mut text = std::fs::read(&path).unwrap();
    let record = 9 * 18 + 1;
    let (head, tail) = text.split_at_mut(600_000 * record);
    tail[..record - 1].copy_from_slice(&head[record..2 * record - 1]);
    std::fs::write(&path, &text).unwrap();
    let out = sudoku_gen().arg("--check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "{}:6000001: grid 600001: repeats grid 2 (line 11)\nFAIL: 1 problem in 1000000 grids\n",
            path.display()
        )
    );
}

#[test]
fn several_files_are_checked_together() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    for (path, seed) in [(&a, "1"), (&b, "2")] {
        sudoku_gen()
            .args(["-c", "500", "--format", "line", "--seed", seed, "-o"])
            .arg(path)
            .assert()
            .success();
    }
    sudoku_gen()
        .arg("--check")
        .args([&a, &b])
        .args(["--count", "1000"])
        .assert()
        .success()
        .stdout("ok: 1000 grids in 2 files, all valid and distinct\n");
    // b's third grid is a's tenth.
    let a_text = std::fs::read_to_string(&a).unwrap();
    let mut b_lines: Vec<String> = std::fs::read_to_string(&b)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    b_lines[2] = a_text.lines().nth(9).unwrap().to_owned();
    std::fs::write(&b, b_lines.join("\n") + "\n").unwrap();
    let out = sudoku_gen().arg("--check").args([&a, &b]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "{}:3: grid 3: repeats grid 10 of {} (line 10)\nFAIL: 1 problem in 1000 grids (2 files)\n",
            b.display(),
            a.display()
        )
    );
}

#[test]
fn endless_input_without_line_ends_is_a_located_error() {
    for mode in ["-s", "--check", "--rate"] {
        let out = sudoku_gen().args([mode, "/dev/zero"]).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{mode}");
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.starts_with("sudoku-gen: error: /dev/zero:1: "),
            "{mode}: {stderr}"
        );
    }
}

const PUZZLE: &str =
    "004300209005009001070060043006002087190007400050083000600000105003508690042910300";
const SOLUTION: &str =
    "864371259325849761971265843436192587198657432257483916689734125713528694542916378";

fn run_with_input(args: &[&str], input: &str) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corpus.csv");
    std::fs::write(&path, input).unwrap();
    let mut command = sudoku_gen();
    command.args(args).arg(&path);
    command.output().unwrap()
}

#[test]
fn kaggle_layout_is_solved_checked_and_rated() {
    let corpus = format!("quizzes,solutions\n{PUZZLE},{SOLUTION}\n{PUZZLE},\n");
    let solved = run_with_input(&["-s"], &corpus);
    assert!(solved.status.success());
    let text = String::from_utf8(solved.stdout).unwrap();
    assert_eq!(
        text,
        format!("quizzes,solutions\n{PUZZLE},{SOLUTION}\n{PUZZLE},{SOLUTION}\n")
    );
    let checked = run_with_input(&["--unique", "--check"], &text);
    assert!(checked.status.success());
    assert_eq!(
        String::from_utf8(checked.stdout).unwrap(),
        "ok: 2 solutions, all valid and keeping their puzzles' givens\n"
    );
    let unsolved = run_with_input(&["--check"], &corpus);
    assert_eq!(unsolved.status.code(), Some(1));
    assert!(
        String::from_utf8(unsolved.stdout)
            .unwrap()
            .contains(":3: grid 2: the row has no solution")
    );
    let rated = run_with_input(&["--rate"], &corpus);
    assert!(rated.status.success());
    let text = String::from_utf8(rated.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("quizzes,solutions,level,singles,locked,pairs_triples,harder,guesses,guesses_mean")
    );
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with(&format!("{PUZZLE},{SOLUTION},1,"))
    );
}

#[test]
fn puzzle_solution_layout_with_quotes_and_crlf() {
    let corpus = format!("id,puzzle,solution,source\r\n7,\"{PUZZLE}\",,\"a, b\"\r\n");
    let solved = run_with_input(&["-s"], &corpus);
    assert!(solved.status.success(), "{solved:?}");
    assert_eq!(
        String::from_utf8(solved.stdout).unwrap(),
        format!("id,puzzle,solution,source\n7,{PUZZLE},{SOLUTION},\"a, b\"\n")
    );
    let no_solution_column = format!("board,id\n{},1\n", PUZZLE.replace('0', "."));
    let solved = run_with_input(&["--column", "board", "-s"], &no_solution_column);
    assert_eq!(
        String::from_utf8(solved.stdout).unwrap(),
        format!(
            "board,id,solution\n{},1,{SOLUTION}\n",
            PUZZLE.replace('0', ".")
        )
    );
}

#[test]
fn csv_problems_are_located() {
    let corpus = format!(
        "quizzes,solutions\n{PUZZLE},{SOLUTION}\n{}x,\n",
        &PUZZLE[..80]
    );
    let out = run_with_input(&["-s"], &corpus);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.ends_with(":3:81: unexpected character 'x'\n"),
        "{stderr}"
    );
    // The same rows with CRLF line ends: the same line and column.
    let out = run_with_input(&["-s"], &corpus.replace('\n', "\r\n"));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.ends_with(":3:81: unexpected character 'x'\n"),
        "{stderr}"
    );
    let out = run_with_input(&["-s"], "a,b\n1,2\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains(":1:1: a CSV header without")
    );
    // CR alone would leave every row inside the header line: an error, not an empty corpus.
    for mode in ["-s", "--check"] {
        let out = run_with_input(&[mode], &corpus.replace('\n', "\r"));
        assert_eq!(out.status.code(), Some(1), "{mode}");
        let text = String::from_utf8_lossy(&out.stderr) + String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("a line end of CR alone"), "{mode}: {text}");
    }
}

#[test]
fn progress_shows_on_a_terminal_and_never_on_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    write_puzzles(&path, PIECE / 82 * 2, &[]);
    let binary = assert_cmd::cargo::cargo_bin("sudoku-gen");
    let command = format!("{} -s {} -o /dev/null", binary.display(), path.display());
    // `script` runs the command under a pseudo-terminal and copies what it wrote there.
    let on_terminal = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("this test runs the binary on a pseudo-terminal through `script` (util-linux)");
    assert!(on_terminal.status.success());
    let shown = String::from_utf8_lossy(&on_terminal.stdout);
    assert!(shown.contains("puzzles"), "{shown}");
    let quiet = std::process::Command::new("script")
        .args(["-qec", &format!("{command} --quiet"), "/dev/null"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&quiet.stdout).contains("puzzles"));
    let piped = sudoku_gen()
        .arg("-s")
        .arg(&path)
        .args(["-o", "/dev/null"])
        .output()
        .unwrap();
    assert!(piped.stderr.is_empty());
}

#[test]
fn solutions_of_several_pieces_are_checked_against_their_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    let lines = 2 * PIECE / 82 + 500;
    write_puzzles(&puzzles, lines, &[]);
    let solutions = dir.path().join("solutions.txt");
    solve_into(&puzzles, &solutions);
    check_against(&solutions, &puzzles)
        .assert()
        .success()
        .stdout(format!(
            "ok: {lines} solutions, all valid and keeping their puzzles' givens\n"
        ));
    // The first two cells of the solution on the next-to-last line swapped: a repeat in columns
    // 1 and 2, or a given changed.
    let mut text = std::fs::read(&solutions).unwrap();
    let at = (lines - 2) * 82;
    text.swap(at, at + 1);
    std::fs::write(&solutions, &text).unwrap();
    let out = check_against(&solutions, &puzzles).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let expected = format!(
        "{}:{}: grid {}: ",
        solutions.display(),
        lines - 1,
        lines - 1
    );
    assert!(stdout.starts_with(&expected), "{stdout}");
    assert!(
        stdout.ends_with(&format!("FAIL: 1 problem in {lines} grids\n")),
        "{stdout}"
    );
}

#[test]
fn records_stay_whole_across_pieces_in_either_output_format() {
    let dir = tempfile::tempdir().unwrap();
    // 250,000 grids: 40.7 MB in the grid format, 20.5 MB in the line format.
    let grids = |format: &str| {
        sudoku_gen()
            .args(["-c", "250000", "--seed", "8", "--format", format])
            .output()
            .unwrap()
            .stdout
    };
    let (grid_text, line_text) = (grids("grid"), grids("line"));
    let grid_file = dir.path().join("grids.txt");
    std::fs::write(&grid_file, &grid_text).unwrap();
    // A complete grid is its own solution: -s writes the input again, in the format asked for.
    let solved = sudoku_gen()
        .arg("-s")
        .arg(&grid_file)
        .args(["--format", "line"])
        .output()
        .unwrap();
    assert!(solved.status.success());
    assert!(solved.stdout == line_text, "grid input, line output");
    // Line input over two pieces: 420,000 lines of the line format.
    let line_file = dir.path().join("lines.txt");
    let mut lines = line_text.clone();
    lines.extend_from_slice(&line_text[..170_000 * 82]);
    std::fs::write(&line_file, &lines).unwrap();
    let solved = sudoku_gen()
        .arg("-s")
        .arg(&line_file)
        .args(["--format", "grid"])
        .output()
        .unwrap();
    assert!(solved.status.success());
    assert_eq!(solved.stdout.len(), 420_000 * 163 - 1);
    assert!(
        solved.stdout.starts_with(&grid_text),
        "line input, grid output"
    );
}

/// A CSV corpus of `count` grids of `-c` with `seed`, each a puzzle with no blank and its own
/// solution: `header`, then a row `GRID,GRID` + `tail` for each grid.
fn corpus_of_grids(count: usize, seed: u64, header: &str, tail: &str) -> Vec<u8> {
    let grids = sudoku_gen()
        .args(["-c", &count.to_string(), "--seed", &seed.to_string()])
        .args(["--format", "line"])
        .output()
        .unwrap()
        .stdout;
    let mut corpus = header.as_bytes().to_vec();
    for line in grids.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        corpus.extend_from_slice(line);
        corpus.push(b',');
        corpus.extend_from_slice(line);
        corpus.extend_from_slice(tail.as_bytes());
    }
    corpus
}

#[test]
fn a_csv_corpus_of_several_pieces_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    // 41 MB of rows.
    let corpus = corpus_of_grids(250_000, 9, "puzzle,solution\n", "\n");
    let path = dir.path().join("corpus.csv");
    std::fs::write(&path, &corpus).unwrap();
    sudoku_gen()
        .arg("--check")
        .arg(&path)
        .assert()
        .success()
        .stdout("ok: 250000 solutions, all valid and keeping their puzzles' givens\n");
}

#[test]
fn quoted_fields_with_line_ends_stay_whole_across_pieces() {
    let dir = tempfile::tempdir().unwrap();
    // Each row ends with a quoted note of 20 lines: 41 MB, so a piece cut at a line end that is
    // not a record's would split a note, and its rest would be read as malformed rows.
    let note: String = (0..20)
        .map(|k| format!("note line {k:02}, as typed\n"))
        .collect();
    let corpus = corpus_of_grids(
        60_000,
        4,
        "puzzle,solution,note\n",
        &format!(",\"{note}\"\n"),
    );
    assert!(corpus.len() > PIECE);
    let path = dir.path().join("notes.csv");
    std::fs::write(&path, &corpus).unwrap();
    sudoku_gen()
        .arg("--check")
        .arg(&path)
        .assert()
        .success()
        .stdout("ok: 60000 solutions, all valid and keeping their puzzles' givens\n");
    let solved = dir.path().join("solved.csv");
    sudoku_gen()
        .arg("-s")
        .arg(&path)
        .arg("-o")
        .arg(&solved)
        .assert()
        .success();
    assert_eq!(std::fs::read(&solved).unwrap(), corpus);
}

#[test]
fn an_endless_stream_of_malformed_records_ends_at_its_first_malformed_piece() {
    // Some modes read their input whole (other shapes, --shuffle): they stop at the first piece
    // holding a NUL byte. A run that read on would never end.
    let modes: [&[&str]; 5] = [
        &["-s"],
        &["--rate"],
        &["--canon"],
        &["--shuffle"],
        &["--size", "16", "-s"],
    ];
    for _ in 0..4 {
        for mode in modes {
            let out = sudoku_gen()
                .args(mode)
                .arg("/dev/urandom")
                .timeout(std::time::Duration::from_secs(120))
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(1), "{mode:?}");
            assert!(out.stdout.is_empty(), "{mode:?}");
            let stderr = String::from_utf8_lossy(&out.stderr);
            // Located: the first malformed line is line 1 unless the bytes start with line ends.
            let line = stderr.strip_prefix("/dev/urandom:").unwrap_or_default();
            assert!(
                line.starts_with(|c: char| c.is_ascii_digit()),
                "{mode:?}: {stderr}"
            );
        }
    }
}
