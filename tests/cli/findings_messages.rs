//! Regression tests of misleading messages: file names that start with `-`, the `--` separator,
//! flags between a mode and its file, one-column CSV corpora, grading plans, and messages that
//! named flags the user never gave. Each test is named after its bug and runs the real binary.

use std::path::Path;

use crate::common::shapes::{Spec, keeps_givens};
use crate::common::{assert_valid_distinct, csv_records, parse_grids, run_ok, sudoku_gen};
use crate::findings::{refusal, run_data_problem};

/// The stdout of a successful run of `args` in `folder`.
fn run_in(folder: &Path, args: &[&str]) -> Vec<u8> {
    let output = sudoku_gen()
        .current_dir(folder)
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// The usage error of `args` run in `folder`: exit code 2, nothing on stdout.
fn refusal_in(folder: &Path, args: &[&str]) -> String {
    let output = sudoku_gen()
        .current_dir(folder)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    assert!(output.stdout.is_empty(), "{args:?} wrote on stdout");
    String::from_utf8(output.stderr).unwrap()
}

/// Writes 2 grids (seed 1) to `-grids.txt` in `folder` and returns their text.
fn dash_grids(folder: &Path) -> Vec<u8> {
    let grids = run_ok(&["-c", "2", "--seed", "1"]);
    std::fs::write(folder.join("-grids.txt"), &grids).unwrap();
    grids
}

#[test]
fn a_file_name_that_starts_with_a_dash_was_read_as_options() {
    let folder = tempfile::tempdir().unwrap();
    let folder = folder.path();
    run_in(folder, &["-c", "3", "--seed", "1", "-o", "-dash.txt"]);
    let written = std::fs::read(folder.join("-dash.txt")).unwrap();
    assert_valid_distinct(&parse_grids(&written, false), 3);
    // Every option that takes a value takes one that starts with `-`: its own check refuses it.
    for (args, said) in [
        (
            &["-c", "-5"][..],
            "expected a whole number from 1 to 1000000",
        ),
        (&["-n", "1", "-j", "-1"], "-1 is not in 1..=1024"),
        (&["-n", "1", "-r", "-3~9"], "expected LOW~HIGH"),
        (
            &["-c", "1", "--seed", "-1"],
            "invalid value '-1' for '--seed <S>'",
        ),
        (
            &["-c", "1", "--format", "-x"],
            "possible values: grid, line, csv",
        ),
    ] {
        let message = refusal(args);
        assert!(message.contains(said), "{args:?}: {message}");
    }
    // A value forgotten before an option is said so, with the name that a file of that name has.
    for (args, said) in [
        (
            &["-c", "5", "-o", "--format", "line"][..],
            "a value is required for '-o <FILE>' but none was supplied: '--format' reads as an \
             option (for a file of that name, write ./--format)",
        ),
        (
            &["-c", "5", "-o", "-c"],
            "'-c' reads as an option (for a file of that name, write ./-c)",
        ),
        (&["-c", "5", "-o", "--"], "'--' ends the options"),
        (
            &["-s", "corpus.csv", "--column", ""],
            "a value is required for '--column <NAME>'",
        ),
        (
            &["-c", "5", "-o", "--", "-dash3.txt"],
            "unexpected argument '-dash3.txt' found ('-d' is no option): '--' cannot stand \
             between '-o' and its value; write -o ./-dash3.txt",
        ),
        (
            &["-c", "--seed", "5"],
            "a value is required for '-c <N>' but none was supplied: '--seed' reads as an option\n",
        ),
    ] {
        let message = refusal(args);
        assert!(message.contains(said), "{args:?}: {message}");
    }
    // A mode's file that starts with `-`: the whole word is named, with the two ways to give it.
    dash_grids(folder);
    for mode in ["-s", "--check", "--rate"] {
        let message = refusal_in(folder, &[mode, "-grids.txt"]);
        assert!(
            message.contains(
                "unexpected argument '-grids.txt' found ('-g' is no option); a file whose name \
                 starts with '-' is written ./-grids.txt, or given after '--'"
            ),
            "{mode}: {message}"
        );
    }
    let report = run_in(folder, &["--check", "./-grids.txt", "--count", "2"]);
    assert!(report.starts_with(b"ok: "));
}

#[test]
fn the_separator_before_a_file_was_refused() {
    let folder = tempfile::tempdir().unwrap();
    let folder = folder.path();
    let grids = dash_grids(folder);
    let report = run_in(folder, &["--check", "--", "-grids.txt"]);
    assert!(report.starts_with(b"ok: 2 grids"), "{report:?}");
    let puzzles = run_ok(&["-n", "2", "--seed", "1"]);
    std::fs::write(folder.join("-puzzles.txt"), &puzzles).unwrap();
    let solved = run_in(folder, &["-s", "--", "-puzzles.txt"]);
    assert_eq!(solved, run_in(folder, &["-s", "./-puzzles.txt"]));
    assert_valid_distinct(&parse_grids(&solved, false), 2);
    for mode in ["--rate", "--canon"] {
        let by_separator = run_in(folder, &[mode, "--", "-puzzles.txt"]);
        assert_eq!(
            by_separator,
            run_in(folder, &[mode, "./-puzzles.txt"]),
            "{mode}"
        );
    }
    let shuffled = run_in(folder, &["--shuffle", "--seed", "3", "--", "-grids.txt"]);
    assert_eq!(
        shuffled,
        run_in(folder, &["--shuffle", "./-grids.txt", "--seed", "3"])
    );
    assert_valid_distinct(&parse_grids(&shuffled, false), 2);
    assert_ne!(shuffled, grids);
    // A word left over after `--hard` or `--diagonal`, which take their values after `=`.
    let message = refusal(&["-n", "5", "--hard", "40"]);
    assert!(
        message.contains("unexpected argument '40': '--hard' takes its value after '=': --hard=40"),
        "{message}"
    );
    // A mode that takes no file says so, of a word after `--` too.
    for args in [&["-c", "5", "extra"][..], &["-c", "5", "--", "-x"]] {
        let message = refusal(args);
        let word = args.last().unwrap();
        assert!(
            message.contains(&format!(
                "unexpected argument '{word}': '-c' takes no file (-s, --check, --rate, \
                 --canon, --shuffle and --grade do)"
            )),
            "{args:?}: {message}"
        );
    }
}

#[test]
fn flags_between_a_mode_and_its_file_took_the_place_of_the_file() {
    let folder = tempfile::tempdir().unwrap();
    let folder = folder.path();
    std::fs::write(folder.join("g.txt"), run_ok(&["-c", "2", "--seed", "1"])).unwrap();
    for args in [
        &["--check", "--classes", "g.txt"][..],
        &["--check", "--count", "2", "g.txt"],
        &["--check", "--count", "2", "--", "g.txt"],
        &["--check", "g.txt", "--classes"],
    ] {
        let report = run_in(folder, args);
        assert!(report.starts_with(b"ok: 2 grids"), "{args:?}: {report:?}");
    }
    let puzzles = run_ok(&["-n", "2", "--seed", "1"]);
    std::fs::write(folder.join("p.txt"), &puzzles).unwrap();
    assert_eq!(
        run_in(folder, &["-s", "--unique", "p.txt"]),
        run_in(folder, &["-s", "p.txt", "--unique"])
    );
    for (args, said) in [
        (
            &["--check", "--classes"][..],
            "'--check' needs a FILE (one or more; `-` for standard input)",
        ),
        (
            &["-s", "--unique"],
            "'-s' needs a FILE (`-` for standard input)",
        ),
        (
            &["-s", "p.txt", "g.txt"],
            "'-s' takes one FILE, not 'p.txt' and 'g.txt' (--check takes several)",
        ),
        (
            &["--grade"],
            "'--grade' needs a PROGRAM (one or more, or a folder)",
        ),
    ] {
        let message = refusal_in(folder, args);
        assert!(message.contains(said), "{args:?}: {message}");
    }
}

/// The puzzle column of `-n 3 --format csv` with `flags`, under a header of `puzzle` alone.
fn one_column(flags: &[&str]) -> String {
    let csv = run_ok(&[&["-n", "3", "--seed", "1", "--format", "csv"], flags].concat());
    let rows = csv_records(&csv);
    assert_eq!(rows[0][0], "puzzle");
    rows.iter().map(|row| format!("{}\n", row[0])).collect()
}

#[test]
fn a_csv_of_one_column_was_read_as_a_grid_file() {
    for (flags, spec) in [
        (&["--size", "6"][..], Spec::boxes(6, 2, 3)),
        (&[], Spec::boxes(9, 3, 3)),
    ] {
        let text = one_column(flags);
        let output = sudoku_gen()
            .args(["-s", "-"])
            .write_stdin(text.clone())
            .output()
            .unwrap();
        assert!(output.status.success(), "{flags:?}: {output:?}");
        let rows = csv_records(&output.stdout);
        assert_eq!(rows[0], ["puzzle", "solution"], "{flags:?}");
        assert_eq!(rows.len(), 4);
        for row in &rows[1..] {
            let (puzzle, solution) = (row[0].as_bytes(), row[1].as_bytes());
            assert!(spec.is_valid_complete(solution), "{flags:?}: {row:?}");
            assert!(keeps_givens(&spec, puzzle, solution), "{flags:?}: {row:?}");
        }
        let rated = sudoku_gen()
            .args(["--rate", "-"])
            .write_stdin(text.clone())
            .output()
            .unwrap();
        assert!(rated.status.success(), "{flags:?}: {rated:?}");
        assert_eq!(csv_records(&rated.stdout).len(), 4);
        // `--check` reads it as the corpus it is: rows without their solutions.
        let (report, _) = run_data_problem(&["--check", "-"], text.as_bytes());
        assert!(
            report.starts_with("<stdin>:2: grid 1: the row has no solution"),
            "{report}"
        );
    }
    // A column name alone, in any case and quoted, is a header; another word is not.
    let nine = one_column(&[]);
    let body = nine.split_once('\n').unwrap().1;
    for header in ["Puzzle", "\"puzzle\"", "quizzes"] {
        let output = sudoku_gen()
            .args(["-s", "-"])
            .write_stdin(format!("{header}\r\n{body}"))
            .output()
            .unwrap();
        assert!(output.status.success(), "{header}: {output:?}");
    }
    let (_, stderr) = run_data_problem(&["-s", "-"], format!("solution\n{body}").as_bytes());
    assert!(
        stderr.contains("a CSV header without a column named puzzle, quizzes or quiz"),
        "{stderr}"
    );
    let (_, stderr) = run_data_problem(&["-s", "-"], format!("puzzles\n{body}").as_bytes());
    assert!(!stderr.contains("CSV"), "{stderr}");
}

/// The message of `--print --plan` on a plan of one case whose lines after `name` are `case`:
/// a plan that cannot be used is refused, with its line, as a usage error.
fn plan_refusal(case: &str) -> String {
    let folder = tempfile::tempdir().unwrap();
    let plan = folder.path().join("p.toml");
    std::fs::write(
        &plan,
        format!("name = \"x\"\n\n[[case]]\nname = \"a\"\n{case}\n"),
    )
    .unwrap();
    let message = refusal(&["--print", "--plan", plan.to_str().unwrap()]);
    message
        .strip_prefix(&format!("{}:", plan.display()))
        .unwrap_or_else(|| panic!("{message}"))
        .trim_end()
        .to_owned()
}

#[test]
fn a_reversed_blank_range_in_a_plan_was_not_called_reversed() {
    let puzzles = "expect = \"puzzles\"\ncount = 5\npoints = 1";
    for (blanks, said) in [
        (
            "[50, 30]",
            "3: case `a`: `blanks = [50, 30]` runs from high to low: it is [LOW, HIGH], [30, 50]",
        ),
        (
            "50~30",
            "8: string values must be quoted, expected literal string (`blanks` is [LOW, HIGH], \
             two counts such as [30, 50])",
        ),
        (
            "\"30~50\"",
            "8: invalid type: string \"30~50\", expected a sequence (`blanks` is [LOW, HIGH], \
             two counts such as [30, 50])",
        ),
        (
            "[30, 40, 50]",
            "8: `blanks` is [LOW, HIGH], two counts such as [30, 50], not a list of 3",
        ),
        (
            "[0, 30]",
            "3: case `a`: `blanks = [0, 30]`: blank counts from 1 to 58 are supported",
        ),
    ] {
        assert_eq!(plan_refusal(&format!("{puzzles}\nblanks = {blanks}")), said);
    }
    let input = "expect = \"solutions\"\npoints = 1\ninput = { file = \"p.txt\", puzzles = 3, \
                 blanks = [40, 20] }";
    assert_eq!(
        plan_refusal(input),
        "3: case `a`: input: `blanks = [40, 20]` runs from high to low: it is [LOW, HIGH], [20, 40]"
    );
    let message = plan_refusal(
        "expect = \"solutions\"\npoints = 1\ninput = { file = \"p.txt\", \
                                puzzles = 3, blanks = 20~40 }",
    );
    assert!(
        message.ends_with("(`blanks` is [LOW, HIGH], two counts such as [30, 50])"),
        "{message}"
    );
}

#[test]
fn an_empty_tier_list_in_a_plan_was_accepted_or_said_points_were_missing() {
    let grids = "expect = \"grids\"\ncount = 5";
    let empty = "`tiers = []` lists no tier: a speed case has at least one, [{ ratio = R, \
                 points = P }, ...]; a case that is not timed has no `tiers` and has `points`";
    assert_eq!(
        plan_refusal(&format!("{grids}\ntiers = []")),
        format!("7: {empty}")
    );
    assert_eq!(
        plan_refusal(&format!("{grids}\npoints = 1\ntiers = []")),
        format!("8: {empty}")
    );
}

#[test]
fn a_reversed_range_on_the_command_line_was_not_called_reversed() {
    for (flag, range, said) in [
        (
            "-r",
            "50~30",
            "50~30 runs from high to low: LOW comes first, 30~50",
        ),
        (
            "--guesses",
            "5-2",
            "5-2 runs from high to low: LOW comes first, 2~5",
        ),
    ] {
        let message = refusal(&["-n", "1", flag, range]);
        assert!(message.contains(said), "{message}");
    }
}

#[test]
fn messages_named_flags_that_were_not_given() {
    let folder = tempfile::tempdir().unwrap();
    let folder = folder.path();
    std::fs::write(folder.join("g.txt"), run_ok(&["-c", "2", "--seed", "1"])).unwrap();
    for (args, said) in [
        (
            &["--check", "g.txt", "g.txt", "--puzzles", "g.txt"][..],
            "error: --puzzles checks one file at a time, not 2\n",
        ),
        (
            &["--check", "g.txt", "g.txt", "--classes"],
            "error: --classes checks one file at a time, not 2\n",
        ),
        (
            &["-c", "1", "--symbols", "ABCDEFG"],
            "error: --symbols ABCDEFG: 7 symbols make 7×7 grids, a prime size, which has no \
             boxes; give its regions with --jigsaw\n",
        ),
        (
            &[
                "-c", "1", "--box", "2x3", "--jigsaw", "random", "--format", "line",
            ],
            "error: jigsaw layout: --box and --jigsaw cannot both give the regions\n",
        ),
    ] {
        let message = refusal_in(folder, args);
        assert!(message.starts_with(said), "{args:?}: {message}");
    }
    // Cells of a character that no alphabet holds: no alphabet told from them, no --symbols.
    let (_, stderr) = run_data_problem(&["-s", "-"], b"12#4#412214##12#\n");
    assert_eq!(
        stderr,
        "<stdin>:1:3: unexpected '#' (expected a symbol of 1234 or a blank: '.', '-', '0')\n"
    );
    let (report, _) = run_data_problem(&["--check", "-"], b"12#4#412214##12#\n");
    assert!(!report.contains("--symbols"), "{report}");
}

#[test]
fn utf16_without_a_byte_order_mark_was_reported_as_a_csv_without_a_puzzle_column() {
    // Only a byte-order mark told UTF-16: without one, a CSV corpus was "a CSV header without a
    // column named puzzle" and a line file a run of unexpected characters.
    let dir = tempfile::tempdir().unwrap();
    let csv = run_ok(&["-n", "2", "--format", "csv", "--seed", "1"]);
    let lines = run_ok(&["-n", "2", "--size", "6", "--format", "line", "--seed", "1"]);
    for (name, text) in [("corpus.csv", csv), ("six.txt", lines)] {
        for (endian, order) in [("little", 0), ("big", 1)] {
            let wide: Vec<u8> = text
                .iter()
                .flat_map(|&b| if order == 0 { [b, 0] } else { [0, b] })
                .collect();
            let file = dir.path().join(format!("{endian}-{name}"));
            std::fs::write(&file, wide).unwrap();
            let file = file.to_str().unwrap();
            let (_, message) = run_data_problem(&["-s", file], b"");
            let side = if order == 0 { "after" } else { "before" };
            let expected =
                format!("UTF-16 {endian}-endian (a zero byte {side} each character); expected");
            assert!(message.contains(&expected), "{message}");
        }
    }
}
