//! Regression tests of a second round of reliability findings: the blank ranges each shape
//! supports, symmetric blank counts, stray whitespace, located layout errors, signals and endless
//! streams. Each test is named after its bug and runs the real binary.

use std::time::{Duration, Instant};

use crate::common::shapes::{Spec, line_records};
use crate::common::{run_ok, sudoku_gen};

/// The stderr of a run that ends with `code`, writes nothing on stdout, and takes under `limit`.
pub(crate) fn run_failing_within(
    args: &[&str],
    stdin: &[u8],
    code: i32,
    limit: Duration,
) -> String {
    let started = Instant::now();
    let output = sudoku_gen()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap();
    assert!(
        started.elapsed() < limit,
        "{args:?} took {:?}",
        started.elapsed()
    );
    assert_eq!(output.status.code(), Some(code), "{args:?}");
    assert!(output.stdout.is_empty(), "{args:?} wrote on stdout");
    String::from_utf8(output.stderr).unwrap()
}

/// The usage error of `args`, refused before any work.
pub(crate) fn refusal(args: &[&str]) -> String {
    run_failing_within(args, b"", 2, Duration::from_secs(10))
}

/// Asserts that the line-format puzzles of `text` are `count` puzzles of `spec`, each with one
/// solution and a blank count in `blanks`.
pub(crate) fn assert_puzzles(
    text: &[u8],
    spec: &Spec,
    count: usize,
    blanks: std::ops::RangeInclusive<usize>,
) {
    let records = line_records(text);
    assert_eq!(records.len(), count);
    for (_, cells) in records {
        let blank = cells.iter().filter(|&&c| c == b'.').count();
        assert!(blanks.contains(&blank), "{blank} blanks");
        assert_eq!(spec.count_solutions(&cells, 2), 1);
    }
}

#[test]
fn small_shapes_refused_their_own_default_blank_range() {
    let four = Spec::boxes(4, 2, 2);
    let text = run_ok(&[
        "-n", "50", "--size", "4", "-r", "10~12", "--seed", "1", "--format", "line",
    ]);
    assert_puzzles(&text, &four, 50, 10..=12);
    let six = Spec::boxes(6, 2, 3);
    let text = run_ok(&[
        "-n", "30", "--size", "6", "-r", "22~30", "--seed", "1", "--format", "line",
    ]);
    assert_puzzles(&text, &six, 30, 22..=30);
    let text = run_ok(&[
        "-n", "30", "--size", "6", "-r", "24~28", "--seed", "2", "--format", "line",
    ]);
    assert_puzzles(&text, &six, 30, 24..=28);
    // What cannot be had is refused, with the shape's own range stated.
    let message = refusal(&["-n", "5", "--size", "4", "-r", "13~16"]);
    assert!(message.contains("1 to 12 blanks"), "{message}");
    let message = refusal(&["-n", "5", "--size", "6", "-r", "29~30"]);
    assert!(message.contains("-r can start at 1 to "), "{message}");
    assert!(message.contains("6×6"), "{message}");
    for args in [
        &["-n", "5", "--size", "4", "-r", "0~3"][..],
        &["-n", "5", "--size", "4", "-r", "13~16"],
        &["-n", "5", "--size", "6", "-r", "29~30"],
    ] {
        let message = refusal(args);
        assert!(!message.contains("58"), "{args:?}: {message}");
    }
}

#[test]
fn symmetric_odd_blank_counts_of_even_sizes_were_dug_for_nothing() {
    for args in [
        &["-n", "5", "--size", "4", "--symmetric", "-r", "9~9"][..],
        &["-n", "5", "--size", "6", "--symmetric", "-r", "27~27"],
        &["-n", "5", "--size", "16", "--symmetric", "-r", "121~121"],
    ] {
        let message = refusal(args);
        assert!(
            message.contains("an even number of blanks"),
            "{args:?}: {message}"
        );
        assert!(message.contains("no centre cell"), "{args:?}: {message}");
    }
    // An odd size has a centre cell, its own partner: an odd count is fine.
    let spec = Spec::boxes(9, 3, 3).with_diagonals();
    let text = run_ok(&[
        "-n",
        "5",
        "--size",
        "9",
        "--diagonal",
        "--symmetric",
        "-r",
        "61~61",
        "--seed",
        "1",
        "--format",
        "line",
    ]);
    let records = line_records(&text);
    assert_eq!(records.len(), 5);
    for (_, cells) in &records {
        assert_eq!(cells.iter().filter(|&&c| c == b'.').count(), 61);
        assert!(spec.is_consistent(cells));
        assert!((0..81).all(|c| (cells[c] == b'.') == (cells[80 - c] == b'.')));
    }
    // The plain backtracking of the checker is slow on 61 blanks: the solver counts.
    sudoku_gen()
        .args(["-s", "-", "--diagonal", "--unique"])
        .write_stdin(text)
        .assert()
        .success();
}

#[test]
fn minimal_blank_ranges_out_of_reach_crawled_or_failed_after_the_work() {
    let message = refusal(&["-n", "5", "--size", "4", "--minimal", "-r", "1~9"]);
    assert!(message.contains("10 to 12 blanks"), "{message}");
    for args in [
        &["-n", "5", "--size", "6", "--minimal", "-r", "1~20"][..],
        &["-n", "5", "--size", "12", "--minimal", "-r", "110~144"],
        &["-n", "5", "--size", "12", "--minimal", "-r", "72~80"],
    ] {
        let message = refusal(args);
        assert!(message.contains("try -r "), "{args:?}: {message}");
    }
    let six = Spec::boxes(6, 2, 3);
    let text = run_ok(&[
        "-n",
        "20",
        "--size",
        "6",
        "--minimal",
        "-r",
        "24~28",
        "--seed",
        "3",
        "--format",
        "line",
    ]);
    assert_puzzles(&text, &six, 20, 24..=28);
}

/// The run's stdout and stderr, which must end with exit code 1.
pub(crate) fn run_data_problem(args: &[&str], stdin: &[u8]) -> (String, String) {
    let output = sudoku_gen()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{args:?}");
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn a_stray_space_made_a_9x9_grid_read_as_a_10x10_one() {
    let grids = String::from_utf8(run_ok(&["-c", "2", "--seed", "1"])).unwrap();
    let lines = String::from_utf8(run_ok(&["-c", "2", "--seed", "1", "--format", "line"])).unwrap();
    let double = grids.replacen(' ', "  ", 1);
    let leading = format!(" {grids}");
    let in_line = format!("{} {}", &lines[..40], &lines[40..]);
    for (text, column) in [(&double, 3), (&leading, 1), (&in_line, 41)] {
        let (report, _) = run_data_problem(&["--check", "-"], text.as_bytes());
        assert!(
            report.starts_with(&format!(
                "<stdin>:1: grid 1: column {column}: expected a digit"
            )),
            "{report}"
        );
        assert!(!report.contains("10×10"), "{report}");
        let (out, message) = run_data_problem(&["-s", "-"], text.as_bytes());
        assert!(out.is_empty());
        assert!(
            message.starts_with(&format!("<stdin>:1:{column}: unexpected character ' '")),
            "{message}"
        );
    }
    // Other shapes: the row is named, not taken for a row of another size.
    let sixteen = String::from_utf8(run_ok(&["-c", "1", "--size", "16", "--seed", "1"])).unwrap();
    let (report, _) =
        run_data_problem(&["--check", "-"], sixteen.replacen(' ', "  ", 1).as_bytes());
    assert!(
        report.starts_with("<stdin>:1: grid 1: column 3: expected a symbol 1-9 or A-G, found ' '"),
        "{report}"
    );
    assert!(!report.contains("17×17"), "{report}");
}

#[test]
fn jigsaw_layout_file_errors_named_no_line_or_column() {
    let dir = tempfile::tempdir().unwrap();
    let good = [
        "aabbbbbbb",
        "aaaabbccc",
        "daacccccc",
        "ddaefffgg",
        "hddeeefgg",
        "hdddiefgg",
        "hhdhieffg",
        "hhhhieefg",
        "iiiiiiefg",
    ];
    let with_line = |line: usize, text: &str| {
        let mut lines = good.map(str::to_owned).to_vec();
        lines[line - 1] = text.to_owned();
        lines.join("\n") + "\n"
    };
    let cases = [
        (
            with_line(4, "ddxefffgg"),
            ":4:3: jigsaw layout: it has 10 regions; expected 9",
        ),
        (
            with_line(4, "dd efffgg"),
            ":4:3: jigsaw layout: byte 0x20 cannot name a region",
        ),
        (
            with_line(4, "ddaefffgga"),
            ":4:10: jigsaw layout: a line of 10 characters",
        ),
        (
            good[..8].join("\n") + "\n",
            ":9:1: jigsaw layout: 8 lines of 9 characters",
        ),
        (
            with_line(9, "iiiiiiefa"),
            ":9:9: jigsaw layout: region 'a' has 10 cells",
        ),
        (
            "aaab\naabb\nccdd\nccdd\n".to_owned(),
            ":2:2: jigsaw layout: region 'a' has 5 cells; expected 4",
        ),
        (
            "abab\naabb\nccdd\nccdd\n".to_owned(),
            ":1:3: jigsaw layout: region 'a' is not connected",
        ),
    ];
    for (k, (text, located)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("layout-{k}.txt"));
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        let message = refusal(&["-c", "1", "--jigsaw", path, "--format", "line"]);
        assert!(message.contains(&format!("{path}{located}")), "{message}");
    }
}

#[test]
fn sigtrap_and_sigabrt_left_the_temporary_file_of_o_behind() {
    use crate::output::stop_a_run;
    let dir = tempfile::tempdir().unwrap();
    // The signals of faults, which end the process in the thread that raises them, and the two
    // other signals whose default action ends it.
    let signals = [
        (libc::SIGTRAP, "SIGTRAP"),
        (libc::SIGABRT, "SIGABRT"),
        (libc::SIGILL, "SIGILL"),
        (libc::SIGFPE, "SIGFPE"),
        (libc::SIGSYS, "SIGSYS"),
        (libc::SIGPWR, "SIGPWR"),
        (libc::SIGSTKFLT, "SIGSTKFLT"),
        // The real-time signals too (a hostile run found them leaving the file).
        (libc::SIGRTMIN(), "SIGRTMIN"),
        (libc::SIGRTMAX(), "SIGRTMAX"),
    ];
    let args: &[&str] = &["-c", "1000000"];
    for (signal, name) in signals {
        let mut stopped = 0;
        for delay in [0, 30] {
            let delay = Duration::from_millis(delay);
            stopped += usize::from(stop_a_run(dir.path(), args, signal, delay, 163_000_000 - 1));
        }
        assert!(stopped > 0, "{name}: no run was stopped midway");
    }
}

#[test]
fn an_external_sigbus_left_the_temporary_file_of_o_behind() {
    use crate::output::stop_a_run;
    // Its handler took only faults in a mapped input for its own; a `kill -BUS`, or a run with no
    // mapped input, died with the temporary file in place.
    let dir = tempfile::tempdir().unwrap();
    let sample = std::fs::read(format!(
        "{}/tests/data/sample_17_clue.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let copies = 400_000 / sample.len() + 1;
    std::fs::write(dir.path().join("puzzles.txt"), sample.repeat(copies)).unwrap();
    let solved_len = (sample.len() * copies) as u64;
    for (args, complete_len) in [
        (&["-c", "1000000"][..], 163_000_000 - 1),
        (&["-s", "puzzles.txt"][..], solved_len),
    ] {
        let stopped: usize = [0, 30]
            .into_iter()
            .map(Duration::from_millis)
            .map(|delay| {
                usize::from(stop_a_run(
                    dir.path(),
                    args,
                    libc::SIGBUS,
                    delay,
                    complete_len,
                ))
            })
            .sum();
        assert!(stopped > 0, "{args:?}: no run was stopped midway");
    }
}

/// Runs `args` on an endless stream: `first`, then `line` over and over. Returns the exit code,
/// stdout and stderr, and how many bytes the run read before it ended.
pub(crate) fn run_on_endless_stream(
    args: &[&str],
    first: &[u8],
    line: &[u8],
) -> (i32, String, String, usize) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-gen"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (first, line) = (first.to_vec(), line.repeat(4096));
    // Writes until the reader stops reading; a broken pipe is the expected end.
    let writer = std::thread::spawn(move || {
        let mut written = 0;
        if stdin.write_all(&first).is_ok() {
            written += first.len();
            while stdin.write_all(&line).is_ok() {
                written += line.len();
            }
        }
        written
    });
    let output = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
        written,
    )
}

#[test]
fn endless_malformed_streams_were_read_whole_before_their_first_error() {
    // (args, first bytes, the line repeated, where the first problem is named)
    type Case<'a> = (&'a [&'a str], &'a [u8], &'a [u8], &'a str);
    // Long rows: the contract (stop at the first malformed piece) needs no piece of millions of
    // short ones.
    let row = [b"x,".as_slice(), &[b'b'; 4000], b"\n"].concat();
    let cases: [Case; 7] = [
        (
            &["--check", "-"],
            b"",
            b"a,b\n",
            "<stdin>:1: a CSV header without",
        ),
        (
            &["--check", "-"],
            b"puzzle,b\n",
            &row,
            "<stdin>:2: column 1:",
        ),
        (
            &["--check", "-", "--size", "4"],
            b"",
            b"1234\n",
            "<stdin>:1: no empty line",
        ),
        (
            &["--check", "-", "--size", "4"],
            b"",
            b"1111111111111111\n",
            "<stdin>:1: grid 1:",
        ),
        (&["--shuffle", "-"], b"puzzle,b\n", &row, "<stdin>:2:1:"),
        // Rows of four symbols are a 4×4 text, read by the kernel of other shapes.
        (
            &["--shuffle", "-"],
            b"",
            b"1234\n",
            "<stdin>:1: no empty line",
        ),
        (
            &["--check", "-", "--classes"],
            b"",
            b"1234\n",
            "<stdin>:1: no empty line",
        ),
    ];
    for (args, first, line, located) in cases {
        let started = Instant::now();
        let (code, stdout, stderr, read) = run_on_endless_stream(args, first, line);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        let said = stdout + &stderr;
        assert!(said.contains(located), "{args:?}: {said}");
        // A piece is 32 MiB: the first malformed one, the one being read, and the pipe.
        assert!(read < 100 << 20, "{args:?} read {} MiB", read >> 20);
        assert!(started.elapsed() < Duration::from_secs(30), "{args:?}");
    }
}

#[test]
fn a_blank_range_on_a_layout_without_grids_is_refused_in_bounded_time() {
    // The sample of where puzzles end needs a grid: a layout without one is refused as the job
    // refuses it, in bounded time.
    let dir = tempfile::tempdir().unwrap();
    let layout = crate::common::shapes::layout_without_grids(dir.path());
    let args = [
        "-n",
        "1",
        "--jigsaw",
        layout.to_str().unwrap(),
        "-r",
        "30~40",
        "--format",
        "line",
    ];
    // Found by the search, not told by the flags: a data outcome.
    let message = run_failing_within(&args, b"", 1, Duration::from_secs(30));
    assert!(message.contains("no complete grid"), "{message}");
}

#[test]
fn minimal_symmetric_puzzles_of_other_shapes_kept_a_given_that_could_go() {
    // Digging by pairs of givens stopped when no pair could go, and a single given often still
    // could (37 of 120 removals at 6×6 left one solution); such puzzles are now dug again.
    for (args, spec) in [
        (vec!["--size", "4"], Spec::boxes(4, 2, 2)),
        (vec!["--size", "6"], Spec::boxes(6, 2, 3)),
        (
            vec!["--size", "6", "--diagonal"],
            Spec::boxes(6, 2, 3).with_diagonals(),
        ),
        (vec!["--size", "8"], Spec::boxes(8, 2, 4)),
    ] {
        let text = run_ok(
            &[
                &[
                    "-n",
                    "10",
                    "--minimal",
                    "--symmetric",
                    "--seed",
                    "11",
                    "--format",
                    "line",
                ],
                &args[..],
            ]
            .concat(),
        );
        assert_puzzles(&text, &spec, 10, 0..=64);
        for (_, cells) in line_records(&text) {
            for cell in (0..cells.len()).filter(|&c| cells[c] != b'.') {
                let mut blanked = cells.clone();
                blanked[cell] = b'.';
                assert_eq!(
                    spec.count_solutions(&blanked, 2),
                    2,
                    "{args:?}: cell {cell}"
                );
            }
        }
    }
    let message = refusal(&["-n", "5", "--minimal", "--symmetric", "--size", "12"]);
    assert!(message.contains("up to 10×10"), "{message}");
}

#[test]
fn check_of_other_shapes_took_first_and_several_files_as_if_9x9() {
    // `--check c6.txt --first 9` passed grids that start with 1, and two valid 16×16 files were
    // read as 9×9 grids ("expected a digit 1-9, found 'B'").
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c6.txt");
    std::fs::write(
        &file,
        run_ok(&["-c", "3", "--size", "6", "--format", "line", "--seed", "1"]),
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let message = refusal(&["--check", file, "--first", "9"]);
    assert!(
        message.contains("'--first 9' is no symbol of the grids of"),
        "{message}"
    );
    // Several files are checked together, each against the others.
    let out = sudoku_gen().args(["--check", file, file]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("grid 1: repeats grid 1 of "), "{report}");
    assert!(
        report.ends_with("FAIL: 3 problems in 6 grids (2 files)\n"),
        "{report}"
    );
}

#[test]
fn standard_output_past_the_file_size_limit_ended_by_sigxfsz_without_a_word() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 100; exec \"$0\" -c 100000 > \"$1\"")
        .arg(assert_cmd::cargo::cargo_bin("sudoku-gen"))
        .arg(dir.path().join("big.txt"))
        .output()
        .unwrap();
    let message = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{message}");
    assert!(
        message.contains("standard output: File too large"),
        "{message}"
    );
}

#[test]
fn guess_counts_that_symmetric_digging_rarely_gives_crawled_instead_of_being_refused() {
    // `-n 20 --guesses 9~9 --symmetric --minimal` ran at about 1 puzzle a second, and
    // `--guesses 9~9 --symmetric` at about 3.
    let message = refusal(&["-n", "20", "--guesses", "9~9", "--symmetric", "--minimal"]);
    assert!(message.contains("can start at 3 at most"), "{message}");
    let message = refusal(&["-n", "20", "--guesses", "7~7", "--symmetric"]);
    assert!(message.contains("can start at 6 at most"), "{message}");
    run_ok(&[
        "-n",
        "3",
        "--guesses",
        "3~3",
        "--symmetric",
        "--minimal",
        "--seed",
        "1",
    ]);
}

#[test]
fn check_puzzles_of_another_shape_read_both_files_whole() {
    // Solutions and puzzles of other shapes were read whole, up to a cap: an endless stream of
    // solutions is now stopped at its first piece with a problem, here more solutions than puzzles.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("puzzles.txt");
    std::fs::write(&path, run_ok(&["-n", "5", "--size", "16", "--seed", "3"])).unwrap();
    let path = path.to_str().unwrap();
    let mut solutions = run_ok(&["-s", path]);
    solutions.push(b'\n');
    let args = ["--check", "-", "--puzzles", path];
    let (code, stdout, stderr, read) = run_on_endless_stream(&args, b"", &solutions);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stdout.contains("expected 5 solutions, one per puzzle"),
        "{stdout}"
    );
    assert!(read < 100 << 20, "read {} MiB", read >> 20);
}

#[test]
fn an_empty_solution_file_was_checked_as_9x9_against_puzzles_of_another_shape() {
    // The route looked at the solutions only: with none, the 16×16 puzzles were read as 9×9
    // and reported as malformed.
    let dir = tempfile::tempdir().unwrap();
    let (puzzles, empty) = (dir.path().join("p.txt"), dir.path().join("e.txt"));
    std::fs::write(
        &puzzles,
        run_ok(&["-n", "2", "--size", "16", "--seed", "1"]),
    )
    .unwrap();
    std::fs::write(&empty, "").unwrap();
    let output = sudoku_gen()
        .args(["--check", empty.to_str().unwrap(), "--puzzles"])
        .arg(&puzzles)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert!(
        report.contains("expected 2 solutions, one per puzzle, found 0"),
        "{report}"
    );
}

#[test]
fn check_puzzles_of_an_endless_stream_was_read_for_ever() {
    // The 9×9 check paired solutions with puzzles piece by piece, but read a stream of either to
    // its end: past more solutions than puzzles, and past a malformed piece of puzzles.
    let dir = tempfile::tempdir().unwrap();
    let (puzzles, solved) = (dir.path().join("p.txt"), dir.path().join("s.txt"));
    let made = run_ok(&["-n", "50", "--seed", "1", "--format", "line"]);
    std::fs::write(&puzzles, &made).unwrap();
    let (puzzles, solved_path) = (puzzles.to_str().unwrap(), solved.to_str().unwrap());
    let solutions = run_ok(&["-s", puzzles]);
    std::fs::write(solved_path, &solutions).unwrap();
    let cases: [(&[&str], &[u8], &str); 3] = [
        (
            &["--check", "-", "--puzzles", puzzles],
            &solutions,
            "expected 50 solutions",
        ),
        (
            &["--check", solved_path, "--puzzles", "-"],
            &made,
            "expected",
        ),
        (
            &["--check", solved_path, "--puzzles", "-"],
            b"garbage\n",
            "unexpected character",
        ),
    ];
    for (args, line, said) in cases {
        let first = if line == b"garbage\n" { &made[..] } else { b"" };
        let (code, stdout, stderr, read) = run_on_endless_stream(args, first, line);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert!(
            (stdout.clone() + &stderr).contains(said),
            "{args:?}: {stdout}{stderr}"
        );
        assert!(read < 100 << 20, "{args:?} read {} MiB", read >> 20);
    }
}

#[test]
fn grader_plans_took_a_nul_argument_and_programs_named_like_a_file_of_their_case() {
    use std::os::unix::fs::PermissionsExt;
    let folder = tempfile::tempdir().unwrap();
    let plan = folder.path().join("plan.toml");
    std::fs::write(
        &plan,
        "name = \"x\"\n\n[[case]]\nname = \"c\"\nexpect = \"grids\"\ncount = 1\npoints = 1\nargs = [\"-c\", \"1\\u0000\"]\n",
    )
    .unwrap();
    let grade = |program: &std::path::Path, plan: &std::path::Path| {
        let out = sudoku_gen()
            .arg("--grade")
            .arg(program)
            .arg("--plan")
            .arg(plan)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        String::from_utf8(out.stderr).unwrap()
    };
    let program = folder.path().join("submission");
    std::fs::write(&program, "#!/bin/sh\nexit 0\n").unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(
        grade(&program, &plan),
        format!(
            "{}:3: case `c`: `args` cannot hold a NUL character\n",
            plan.display()
        )
    );
    // An input no program could solve was taken, and every correct program failed the case.
    // The first row leaves 9 for its last cell, whose column holds a 9 below.
    let unsolvable = format!("12345678.........9{}", ".".repeat(63));
    let other = "1".to_string() + &".".repeat(80);
    std::fs::write(
        &plan,
        format!(
            "name = \"x\"\n\n[[case]]\nname = \"c\"\nexpect = \"solutions\"\npoints = 1\nargs = [\"-s\", \"in.txt\"]\ninput = {{ file = \"in.txt\", text = \"{other}\\n{unsolvable}\\n\" }}\n"
        ),
    )
    .unwrap();
    let message = grade(&program, &plan);
    assert!(
        message
            .contains(":3: case `c`: puzzle 2 of the input's `text` (its line 2) has no solution"),
        "{message}"
    );
    // A copy of the program named like the case's input or output was overwritten by it, or
    // taken for it.
    for name in ["puzzles.txt", "sudoku.txt"] {
        let named = folder.path().join(name);
        std::fs::copy(&program, &named).unwrap();
        let message = grade(&named, std::path::Path::new("basic"));
        assert!(
            message.contains("has a file of this name in the program's folder")
                && message.contains("rename the program"),
            "{message}"
        );
    }
}

#[test]
fn a_blank_puzzle_on_a_layout_without_grids_was_searched_for_ever() {
    let layouts = include_str!("../data/shapes/hard_layouts.txt");
    let blank = ".".repeat(81);
    let records = |kind: &str| -> String {
        layouts
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once(' '))
            .filter(|(_, what)| *what == kind)
            .map(|(layout, _)| format!("{layout} {blank}\n"))
            .collect()
    };
    // No grid fills it: the search gives up within its guesses, and says so.
    let none = records("none");
    let first = none.lines().next().unwrap().to_owned() + "\n";
    for mode in ["-s", "--rate"] {
        let started = Instant::now();
        let run = sudoku_gen()
            .args([mode, "-"])
            .write_stdin(first.clone())
            .output()
            .unwrap();
        assert!(started.elapsed() < Duration::from_secs(60));
        assert_eq!(run.status.code(), Some(1));
        let message = String::from_utf8(run.stderr).unwrap();
        assert!(
            message.contains("puzzle 1 (line 1): undecided: the search gave up after"),
            "{message}"
        );
    }
    // Blank puzzles on layouts that grids fill, hard for the search, are read plain and solved
    // (the first of them read with diagonals had none).
    let fillable = records("grid");
    let solved = sudoku_gen()
        .args(["-s", "-"])
        .write_stdin(fillable.clone())
        .output()
        .unwrap();
    assert!(
        solved.status.success(),
        "{}",
        String::from_utf8_lossy(&solved.stderr)
    );
    let solutions = line_records(&solved.stdout);
    assert_eq!(solutions.len(), fillable.lines().count());
    for (layout, solution) in solutions {
        assert!(Spec::jigsaw(&layout.unwrap()).is_valid_complete(&solution));
    }
}

#[test]
fn a_symmetric_range_whose_even_counts_lie_past_the_reach_was_dug_for_nothing() {
    // 154, the only even count of 153~154, is past the 16×16 reach: the digging aimed at 153,
    // which a half turn cannot give, and ran on.
    let message = refusal(&["-n", "10", "--size", "16", "-r", "153~154", "--symmetric"]);
    assert!(
        message.contains("even number of blanks") && message.contains("try -r 150~152"),
        "{message}"
    );
    let made = run_ok(&[
        "-n",
        "2",
        "--size",
        "16",
        "-r",
        "150~152",
        "--symmetric",
        "--seed",
        "4",
        "--format",
        "line",
    ]);
    assert_eq!(line_records(&made).len(), 2);
}
