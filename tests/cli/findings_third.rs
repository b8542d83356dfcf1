//! Regression tests of the findings of a third hostile run: outputs that did not read back, a
//! message after a failed write, the grader's output over its own inputs, level ranges that make
//! nothing, and messages that miscounted or misread. Each test is named after its bug and runs the
//! real binary.

use std::time::Duration;

use crate::common::shapes::Spec;
use crate::common::{run_ok, sudoku_gen};
use crate::findings::{assert_puzzles, refusal, run_failing_within};

const BOXES: &str = "aaabbbccc\naaabbbccc\naaabbbccc\ndddeeefff\ndddeeefff\ndddeeefff\n\
                     ggghhhiii\nggghhhiii\nggghhhiii\n";

#[test]
fn region_names_that_start_a_comment_or_split_a_csv_row_made_output_that_did_not_read_back() {
    // A line that starts with `#` is a comment to -s; a comma or quote splits a CSV row.
    for name in ['#', ',', '"'] {
        let layout = BOXES.replace('b', &name.to_string());
        let args = [
            "-n", "2", "--jigsaw", "-", "--format", "line", "--seed", "1",
        ];
        let message = run_failing_within(&args, layout.as_bytes(), 2, Duration::from_secs(10));
        assert!(
            message.contains(&format!("'{name}' cannot name a region")),
            "{message}"
        );
    }
    // Other punctuation names regions, and reads back.
    let layout = BOXES.replace('a', "!").replace('b', "=");
    let made = sudoku_gen()
        .args([
            "-n", "2", "--jigsaw", "-", "--format", "line", "--seed", "1",
        ])
        .write_stdin(layout)
        .output()
        .unwrap();
    assert_eq!(made.status.code(), Some(0));
    let solved = sudoku_gen()
        .args(["-s", "-"])
        .write_stdin(made.stdout)
        .output()
        .unwrap();
    assert_eq!(solved.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&solved.stdout).lines().count(), 2);
}

#[test]
fn solutions_of_9x9_compact_rows_did_not_pass_the_check() {
    // -s answers compact rows in kind; --check read them as spaced rows and failed every row.
    let puzzle =
        ".531.874.862.349.141.952.367.689.125.816.539.395.714.813.529.745.438.219.294.758.";
    let compact: String = puzzle
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{}\n", String::from_utf8_lossy(row).replace('.', "-")))
        .collect();
    let solved = sudoku_gen()
        .args(["-s", "-"])
        .write_stdin(compact.clone())
        .output()
        .unwrap();
    assert_eq!(solved.status.code(), Some(0));
    assert_eq!(solved.stdout.len(), 90, "nine compact rows");
    let dir = tempfile::tempdir().unwrap();
    let (solutions, puzzles) = (dir.path().join("s.txt"), dir.path().join("p.txt"));
    std::fs::write(&solutions, &solved.stdout).unwrap();
    std::fs::write(&puzzles, compact).unwrap();
    for extra in [&[][..], &["--puzzles", puzzles.to_str().unwrap()]] {
        let out = sudoku_gen()
            .arg("--check")
            .arg(&solutions)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{extra:?}");
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("ok: 1 "));
    }
}

#[test]
fn running_out_of_memory_aborted_with_a_backtrace() {
    // Collections abort on a failed allocation (exit 134, a backtrace); a run ends as any error
    // does, and `-o` leaves nothing behind.
    let binary = assert_cmd::cargo::cargo_bin("sudoku-gen");
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.txt");
    for output in [None, Some(&target)] {
        let mut script = format!("ulimit -v 60000; exec '{}' -n 100000", binary.display());
        if let Some(path) = output {
            script += &format!(" -o '{}'", path.display());
        }
        let out = std::process::Command::new("sh")
            .args(["-c", &script])
            .output()
            .unwrap();
        let message = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{message}");
        assert!(out.stdout.is_empty());
        assert!(
            message.starts_with("sudoku-gen: error: not enough memory: an allocation of "),
            "{message}"
        );
        assert!(!message.contains("backtrace"), "{message}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_failed_write_to_standard_output_blamed_a_malformed_input() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("Linux has /dev/full");
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-gen"))
        .args(["-s", "tests/data/sample_easy.txt"])
        .stdout(full)
        .output()
        .unwrap();
    let message = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{message}");
    assert!(
        message.contains("standard output: No space left on device"),
        "{message}"
    );
    assert!(!message.contains("malformed"), "{message}");
}

#[test]
fn the_score_sheet_replaced_the_program_or_plan_it_graded() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (program, plan) = (dir.path().join("prog"), dir.path().join("plan.toml"));
    std::fs::write(&program, "#!/bin/sh\nexit 0\n").unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::copy("tests/data/plans/one-grid.toml", &plan).unwrap();
    for (sheet, what) in [(&program, "the program"), (&plan, "the plan")] {
        let before = std::fs::read(sheet).unwrap();
        let out = sudoku_gen()
            .arg("--grade")
            .arg(&program)
            .arg("--plan")
            .arg(&plan)
            .arg("-o")
            .arg(sheet)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(
            message.contains(&format!("the score sheet would replace {what}")),
            "{message}"
        );
        assert_eq!(std::fs::read(sheet).unwrap(), before);
    }
}

#[test]
fn a_level_range_that_makes_no_puzzle_was_taken_and_spun() {
    // Both ranges passed the share-of-the-cells floor; each ran for seconds and made nothing.
    let cases: [(&[&str], Spec); 2] = [
        (
            &["--size", "6", "--diagonal", "-m", "3", "-r", "10~11"],
            Spec::boxes(6, 2, 3).with_diagonals(),
        ),
        (
            &["--size", "6", "-m", "2", "-r", "5~8"],
            Spec::boxes(6, 2, 3),
        ),
    ];
    for (shape, spec) in cases {
        let mut args = vec!["-n", "10", "--seed", "1", "--format", "line"];
        args.extend_from_slice(shape);
        let message = refusal(&args);
        // The range it suggests makes puzzles of the level.
        let suggested = message
            .split("try -r ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no range suggested: {message}"));
        let (low, high) = suggested.split_once('~').unwrap();
        let range = low.parse().unwrap()..=high.parse().unwrap();
        let at = args.iter().position(|&a| a == "-r").unwrap() + 1;
        args[at] = suggested;
        let text = run_ok(&args);
        assert_puzzles(&text, &spec, 10, range);
    }
}

#[test]
fn classes_of_4x4_puzzles_were_counted_as_puzzles() {
    let message = refusal(&["-n", "100000", "--size", "4", "--classes"]);
    assert!(
        message.contains("exactly 36 classes of minimal puzzles"),
        "{message}"
    );
}

#[test]
fn a_one_column_csv_with_cr_line_ends_got_a_generic_message() {
    let csv = b"puzzle\r1.34....2.1..43.\r";
    let message = run_failing_within(&["-s", "-"], csv, 1, Duration::from_secs(10));
    assert!(
        message.contains("<stdin>:1:7: a line end of CR alone"),
        "{message}"
    );
}

#[test]
fn format_was_ignored_for_a_csv_corpus() {
    let csv = b"puzzle\n1.34....2.1..43.\n";
    for mode in ["-s", "--shuffle"] {
        let args = [mode, "-", "--format", "grid"];
        let message = run_failing_within(&args, csv, 2, Duration::from_secs(10));
        assert!(message.contains("drop '--format grid'"), "{message}");
    }
}

#[test]
fn the_verdict_of_one_grid_said_grids() {
    let grid = run_ok(&["-c", "1", "--seed", "1"]);
    let out = sudoku_gen()
        .args(["--check", "-"])
        .write_stdin(grid)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "ok: 1 grid, all valid and distinct\n"
    );
}

#[test]
fn a_stray_first_line_of_a_file_over_a_piece_lost_its_line() {
    // Puzzle lines after a first line with spaces read as grids; past 32 MiB no empty line ends
    // the first one, and the message said only that.
    let line = format!("{}\n", ".".repeat(81));
    let text = format!("hello world\n{}", line.repeat((33 << 20) / line.len()));
    let message = run_failing_within(&["-s", "-"], text.as_bytes(), 1, Duration::from_secs(30));
    assert!(
        message.contains("<stdin>:1: ") && message.contains("\"hello world\""),
        "{message}"
    );
}

#[test]
fn a_renamed_output_folder_kept_the_temporary_file() {
    use std::io::Write;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;

    use crate::output::leftovers;

    let dir = tempfile::tempdir().unwrap();
    let puzzle = ".".repeat(81) + "\n";
    for signal in [None, Some(libc::SIGTERM)] {
        let (before, after) = (dir.path().join("before"), dir.path().join("after"));
        std::fs::create_dir(&before).unwrap();
        // The twin exists from the start; the run waits on its input while the folder moves.
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-gen"))
            .args(["-s", "-", "-o"])
            .arg(before.join("out.txt"))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while leftovers(&before).is_empty() && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::fs::rename(&before, &after).unwrap();
        let mut input = child.stdin.take().unwrap();
        match signal {
            // SAFETY: a signal to our own child, not yet waited for.
            Some(signal) => assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0),
            None => input.write_all(puzzle.as_bytes()).unwrap(),
        }
        if signal.is_none() {
            drop(input);
        }
        let status = child.wait().unwrap();
        assert_eq!(leftovers(&after), Vec::<String>::new(), "{signal:?}");
        match signal {
            Some(signal) => assert_eq!(status.signal(), Some(signal)),
            // The file goes where the folder went, as with a file opened by `>`.
            None => {
                assert!(status.success());
                let written = std::fs::read(after.join("out.txt")).unwrap();
                assert_eq!(written.len(), 82);
            }
        }
        std::fs::remove_dir_all(&after).unwrap();
    }
}

#[test]
fn x_sudoku_and_3x2_puzzles_of_one_line_read_back_as_another_split() {
    // A puzzle that a second split also solves, otherwise, left the reader the choice: 6×6
    // X-Sudoku was refused ("cannot tell the boxes"), and 3x2 boxes were read as 2x3 and solved
    // as another puzzle.
    let cases: [(&[&str], Spec); 3] = [
        (
            &["--size", "6", "--diagonal"],
            Spec::boxes(6, 2, 3).with_diagonals(),
        ),
        (
            &["--size", "6", "--box", "3x2", "--diagonal"],
            Spec::boxes(6, 3, 2).with_diagonals(),
        ),
        (&["--size", "6", "--box", "3x2"], Spec::boxes(6, 3, 2)),
    ];
    for (shape, spec) in cases {
        for seed in 1..=30 {
            let seed = seed.to_string();
            let mut args = vec!["-n", "1", "--format", "line", "--seed", &seed];
            args.extend_from_slice(shape);
            let puzzle = run_ok(&args);
            let solved = sudoku_gen()
                .args(["-s", "-"])
                .write_stdin(puzzle.clone())
                .output()
                .unwrap();
            assert_eq!(solved.status.code(), Some(0), "{args:?}");
            let records = crate::common::shapes::line_records(&solved.stdout);
            let (_, cells) = &records[0];
            assert!(spec.is_valid_complete(cells), "{args:?}");
            let (_, givens) = &crate::common::shapes::line_records(&puzzle)[0];
            assert!(
                crate::common::shapes::keeps_givens(&spec, givens, cells),
                "{args:?}"
            );
        }
    }
}

#[test]
fn a_letter_puzzle_missing_a_letter_was_told_only_of_an_unexpected_character() {
    // Eight of the nine letters: no alphabet can be told, and the message did not name the flag.
    let puzzle =
        b"F....AE.......H..DHB...........I....E.IF...H.D.B.C......D...AC..FE..D......A..B..\n";
    let message = run_failing_within(&["-s", "-"], puzzle, 1, Duration::from_secs(10));
    assert!(message.contains("give --symbols"), "{message}");
    let solved = sudoku_gen()
        .args(["-s", "-", "--symbols", "ABCDEFGHI"])
        .write_stdin(&puzzle[..])
        .output()
        .unwrap();
    assert_eq!(solved.status.code(), Some(0));
}

#[test]
fn hard_puzzles_of_a_6x6_shard_fell_short_of_the_default_mean() {
    // A shard holds few of the 6×6 grids; the shape's reach was asked of it, and the search gave
    // up after seconds, exit 1.
    for args in [
        &[
            "-n", "1", "--size", "6", "--hard", "--seed", "11", "--shard", "1/2",
        ][..],
        &[
            "-n",
            "3",
            "--size",
            "6",
            "--hard",
            "--symmetric",
            "--seed",
            "11",
            "--shard",
            "1/2",
        ],
    ] {
        let made = sudoku_gen().args(args).output().unwrap();
        assert_eq!(made.status.code(), Some(0), "{args:?}");
    }
}

#[test]
fn the_canonical_form_of_a_puzzle_whose_givens_fill_a_diagonal_never_came() {
    // 16×16 took 6.7 s, 25×25 ran past a minute: the rows of each band were tried in every order.
    let symbols = b"123456789ABCDEFGHIJKLMNOP";
    for n in [16, 25] {
        let mut diagonal = vec![b'.'; n * n];
        for i in 0..n {
            diagonal[i * n + i] = symbols[i];
        }
        // An equivalent: its first two bands swapped, its symbols relabelled.
        let band = if n == 16 { 4 } else { 5 };
        let mut turned = vec![b'.'; n * n];
        for i in 0..n {
            let row = match i / band {
                0 => i + band,
                1 => i - band,
                _ => i,
            };
            turned[row * n + i] = symbols[n - 1 - i];
        }
        let mut forms = Vec::new();
        for cells in [diagonal, turned] {
            let mut text = cells;
            text.push(b'\n');
            let started = std::time::Instant::now();
            let out = sudoku_gen()
                .args(["--canon", "-", "--diagonal=no"])
                .write_stdin(text)
                .output()
                .unwrap();
            assert!(started.elapsed() < Duration::from_secs(10), "{n}×{n}");
            assert_eq!(out.status.code(), Some(0), "{n}×{n}");
            forms.push(out.stdout);
        }
        assert_eq!(forms[0], forms[1], "{n}×{n}");
    }
}
