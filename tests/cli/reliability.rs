//! Regression tests of reliability findings: defaults that must hold, outputs that must read back,
//! located errors for malformed CSV, and inputs that must not be read past what they can hold.
//! Each test is named after its bug and runs the real binary.

use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::shapes::{Spec, grid_records, keeps_givens, line_records};
use crate::common::{run_ok, sudoku_gen};

/// The binary, to be run with pipes of its own.
fn binary() -> std::process::Command {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-gen"))
}

/// The stderr of a run that ends with `code` and writes nothing on stdout.
fn run_failing(args: &[&str], stdin: &[u8], code: i32) -> String {
    let output = sudoku_gen()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(code), "{args:?}");
    assert!(output.stdout.is_empty(), "{args:?} wrote on stdout");
    String::from_utf8(output.stderr).unwrap()
}

#[test]
fn shape_flags_alone_default_to_9x9() {
    let x = Spec::boxes(9, 3, 3).with_diagonals();
    let grids = grid_records(
        &run_ok(&["-c", "50", "--diagonal", "--seed", "1"]),
        9,
        false,
    );
    assert_eq!(grids.len(), 50);
    assert!(grids.iter().all(|g| x.is_valid_complete(g)));
    let puzzles = run_ok(&[
        "-n", "5", "--jigsaw", "random", "--seed", "2", "--format", "line",
    ]);
    let solved = sudoku_gen()
        .args(["-s", "-", "--unique"])
        .write_stdin(puzzles.clone())
        .output()
        .unwrap();
    assert!(solved.status.success(), "every puzzle has one solution");
    let records = line_records(&puzzles);
    assert_eq!(records.len(), 5);
    for ((layout, puzzle), (_, solution)) in records.iter().zip(line_records(&solved.stdout)) {
        let spec = Spec::jigsaw(layout.as_deref().expect("a layout prefix"));
        assert!(spec.is_valid_complete(&solution) && keeps_givens(&spec, puzzle, &solution));
    }
    let letters = run_ok(&[
        "-c",
        "3",
        "--symbols",
        "ABCDEFGHI",
        "--format",
        "line",
        "--seed",
        "4",
    ]);
    let spec = Spec::boxes(9, 3, 3).with_symbols("ABCDEFGHI");
    let grids = line_records(&letters);
    assert_eq!(grids.len(), 3);
    assert!(grids.iter().all(|(_, g)| spec.is_valid_complete(g)));
}

#[test]
fn box_alone_names_the_size_it_needs() {
    let message = run_failing(&["-c", "5", "--box", "2x3"], b"", 2);
    assert!(message.contains("'--size 6'"), "{message}");
}

#[test]
fn symbols_count_characters_not_bytes() {
    let message = run_failing(&["-c", "5", "--symbols", "é123"], b"", 2);
    assert!(message.contains("ASCII"), "{message}");
    assert!(!message.contains("5 symbols"), "{message}");
}

#[test]
fn random_jigsaw_grids_carry_their_layout_or_are_refused() {
    let message = run_failing(&["-c", "5", "--jigsaw", "random"], b"", 2);
    assert!(message.contains("--format line"), "{message}");
    let message = run_failing(&["-n", "5", "--jigsaw", "random"], b"", 2);
    assert!(message.contains("--format line"), "{message}");
    let grids = run_ok(&[
        "-c", "4", "--jigsaw", "random", "--format", "line", "--seed", "9",
    ]);
    let checked = sudoku_gen()
        .args(["--check", "-"])
        .write_stdin(grids)
        .output()
        .unwrap();
    assert!(checked.status.success());
    assert_eq!(checked.stdout, b"ok: 4 grids, all valid and distinct\n");
}

#[test]
fn line_format_of_4x4_reads_back() {
    let grids = run_ok(&["-c", "16", "--size", "4", "--format", "line", "--seed", "1"]);
    let checked = sudoku_gen()
        .args(["--check", "-"])
        .write_stdin(grids)
        .output()
        .unwrap();
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stdout)
    );
    assert_eq!(checked.stdout, b"ok: 16 grids, all valid and distinct\n");
    let puzzles = run_ok(&["-n", "16", "--size", "4", "--format", "line", "--seed", "1"]);
    let solved = sudoku_gen()
        .args(["-s", "-"])
        .write_stdin(puzzles.clone())
        .output()
        .unwrap();
    assert!(solved.status.success());
    let spec = Spec::boxes(4, 2, 2);
    let puzzles = line_records(&puzzles);
    let solutions = line_records(&solved.stdout);
    assert_eq!(solutions.len(), 16);
    for ((_, puzzle), (_, solution)) in puzzles.iter().zip(&solutions) {
        assert!(spec.is_valid_complete(solution) && keeps_givens(&spec, puzzle, solution));
    }
}

#[test]
fn jigsaw_layout_from_an_endless_stream_is_refused_at_once() {
    let start = Instant::now();
    let mut child = binary()
        .args(["-c", "1", "--jigsaw", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Writes until the reader stops reading; a broken pipe is the expected end.
    let writer = std::thread::spawn(move || while stdin.write_all(b"aaaa\n").is_ok() {});
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("longer than any layout"));
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn endless_stream_of_another_shape_reports_its_error_at_once() {
    let start = Instant::now();
    let mut child = binary()
        .args(["-s", "-", "--size", "16"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let lines = b"1234\n".repeat(4096);
    let writer = std::thread::spawn(move || while stdin.write_all(&lines).is_ok() {});
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let message = String::from_utf8(output.stderr).unwrap();
    assert!(message.starts_with("<stdin>:1:"), "{message}");
    assert!(start.elapsed() < Duration::from_secs(10));
}

/// A CSV corpus of `-n`, `puzzle,solution,blanks,level`.
fn corpus() -> String {
    String::from_utf8(run_ok(&["-n", "20", "--seed", "1", "--format", "csv"])).unwrap()
}

#[test]
fn duplicate_csv_columns_are_errors() {
    let text = corpus();
    let (_, rows) = text.split_once('\n').unwrap();
    let twice = format!("puzzle,puzzle,blanks,level\n{rows}");
    let message = run_failing(&["-s", "-"], twice.as_bytes(), 1);
    assert!(message.starts_with("<stdin>:1:8: "), "{message}");
    let bogus: String = text
        .lines()
        .enumerate()
        .map(|(i, line)| match i {
            0 => format!("{line},solution\n"),
            _ => format!("{line},bogus\n"),
        })
        .collect();
    let output = sudoku_gen()
        .args(["--check", "-"])
        .write_stdin(bogus)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        report.contains("two columns named like `solution`"),
        "{report}"
    );
}

#[test]
fn unterminated_quote_is_a_located_error() {
    let text = corpus();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(5, "x,\"a note that never ends");
    let text = lines.join("\n") + "\n";
    let message = run_failing(&["-s", "-"], text.as_bytes(), 1);
    assert!(
        message.starts_with("<stdin>:6:3: a quote that is never closed"),
        "{message}"
    );
}

#[test]
fn column_solution_writes_no_second_solution_column() {
    let message = run_failing(&["-s", "-", "--column", "solution"], corpus().as_bytes(), 1);
    assert!(
        message.contains("the puzzle column `solution`"),
        "{message}"
    );
}

#[test]
fn column_on_a_file_that_is_not_csv_is_a_usage_error() {
    let lines =
        "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....\n";
    let message = run_failing(&["-s", "-", "--column", "puzzle"], lines.as_bytes(), 2);
    assert!(message.contains("'--column'"), "{message}");
}

#[test]
fn utf16_csv_names_its_encoding() {
    let mut text = vec![0xff, 0xfe];
    for unit in "puzzle,solution\n".encode_utf16() {
        text.extend_from_slice(&unit.to_le_bytes());
    }
    let message = run_failing(&["-s", "-"], &text, 1);
    assert!(message.contains("UTF-16 little-endian"), "{message}");
}

#[test]
fn tab_separated_values_are_named() {
    let message = run_failing(&["-s", "-"], b"a\tb\tc\n1\t2\t3\n", 1);
    assert!(message.starts_with("<stdin>:1:2: a tab"), "{message}");
}

#[test]
fn blank_range_errors_name_no_9x9_bound_for_other_shapes() {
    let message = run_failing(&["-n", "3", "--size", "4", "-r", "0~3"], b"", 2);
    assert!(!message.contains("58"), "{message}");
}

#[test]
fn a_shortened_input_of_another_shape_leaves_no_temporary_file_behind() {
    use crate::input::run_while_shortening;
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let solved = out.join("solved.txt");
    for delay_ms in [5u64, 20, 80] {
        // Complete 16×16 grids are puzzles too: 51 MB, two pieces.
        sudoku_gen()
            .args([
                "-c", "200000", "--size", "16", "--seed", "2", "--format", "line",
            ])
            .arg("-o")
            .arg(&puzzles)
            .assert()
            .success();
        let args = [
            "-s".into(),
            puzzles.clone().into(),
            "-o".into(),
            solved.clone().into(),
        ];
        let (_, stderr) = run_while_shortening(&args, &puzzles, delay_ms);
        if stderr.contains("the file was shortened while it was read") {
            assert!(!solved.exists(), "{stderr}");
        }
        let left: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .filter(|name| name.to_string_lossy().starts_with(".sudoku-gen-"))
            .collect();
        assert!(
            left.is_empty(),
            "after {delay_ms} ms: {left:?} left; {stderr}"
        );
        let _ = std::fs::remove_file(&solved);
    }
}

#[test]
fn help_that_cannot_be_written_is_an_error() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = binary().arg("--help").stdout(full).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("No space left on device"));
}

#[test]
fn symbols_of_an_unknown_size_are_named_not_a_size_flag() {
    let message = run_failing(&["-c", "5", "--symbols", "123"], b"", 2);
    assert!(message.contains("--symbols 123: 3 symbols"), "{message}");
    assert!(!message.contains("--size"), "{message}");
}

#[test]
#[cfg(target_os = "linux")] // `ulimit -v` bounds the address space there
fn check_under_a_memory_limit_below_its_budget_aborted_with_a_backtrace() {
    // The keys of the repeats search grew by doubling up to the 1 GiB budget: under a `ulimit`
    // below it, an allocation failed and the run died by SIGABRT. It now writes its keys out as
    // runs from there on.
    let bin = assert_cmd::cargo::cargo_bin("sudoku-gen");
    let grid = String::from_utf8(run_ok(&["-c", "1", "--format", "line", "--seed", "3"])).unwrap();
    let script = format!(
        "ulimit -v 110000 && yes {} | head -n 6000000 | {} --check - -j 1",
        grid.trim(),
        bin.display()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .env("SUDOKU_GEN_CHECK_MEMORY", "64G")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        report.ends_with("FAIL: 5999999 problems in 6000000 grids\n"),
        "{report}"
    );
}

#[test]
fn a_plan_from_an_endless_stream_was_read_until_memory_ran_out() {
    // `--plan /dev/zero` and an endless pipe were read whole: 2 GiB and "out of memory" after
    // seconds under a limit, all the machine's memory without one.
    for args in [
        &["--print", "--plan", "/dev/zero"][..],
        &["--grade", "--plan", "/dev/zero", "--", "true"],
    ] {
        let message = run_failing(args, b"", 2);
        assert!(
            message.contains("/dev/zero: longer than 64 MiB"),
            "{message}"
        );
    }
}

#[test]
fn an_output_in_a_folder_that_takes_no_new_file_was_called_missing() {
    // `-o /proc/version` said "No such file or directory" of a file that is there: what cannot
    // be made is the replacement written beside it.
    assert!(
        std::path::Path::new("/proc/version").exists(),
        "a Linux /proc"
    );
    let message = run_failing(&["-c", "10", "-o", "/proc/version"], b"", 1);
    assert_eq!(
        message,
        "sudoku-gen: error: /proc/version: cannot create a file beside it to replace it with \
         (No such file or directory)\n"
    );
}
