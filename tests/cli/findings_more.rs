//! Regression tests of a third round of findings, each named after its bug and run through the
//! real binary.

use crate::common::shapes::{Spec, line_records};
use crate::common::{run_ok, sudoku_gen};
use crate::findings::refusal;

/// The grids of `-c COUNT --classes` with `flags`, at one thread and at two (the same bytes).
fn class_grids(count: usize, flags: &[&str]) -> Vec<Vec<u8>> {
    let count = count.to_string();
    let args = [&["-c", &count, "--classes", "--format", "line"], flags].concat();
    let one = run_ok(&[&args[..], &["-j", "1"]].concat());
    assert_eq!(
        run_ok(&[&args[..], &["-j", "2"]].concat()),
        one,
        "{flags:?}"
    );
    line_records(&one)
        .into_iter()
        .map(|(_, cells)| cells)
        .collect()
}

/// Asserts that `grids` are complete grids of `spec`, no two equivalent.
fn assert_classes(spec: &Spec, grids: &[Vec<u8>]) {
    for (i, a) in grids.iter().enumerate() {
        assert!(spec.is_valid_complete(a), "grid {i}");
        for b in &grids[..i] {
            assert!(!spec.equivalent((a, a), spec, (b, b)), "grid {i}");
        }
    }
}

#[test]
fn classes_of_6x6_missed_the_rarest_of_their_49() {
    for (split, spec) in [("2x3", Spec::boxes(6, 2, 3)), ("3x2", Spec::boxes(6, 3, 2))] {
        for seed in ["1", "7"] {
            let grids = class_grids(49, &["--size", "6", "--box", split, "--seed", seed]);
            assert_eq!(grids.len(), 49);
            assert_classes(&spec, &grids);
        }
        let message = refusal(&["-c", "50", "--size", "6", "--box", split, "--classes"]);
        assert!(message.contains("has exactly 49 classes"), "{message}");
    }
}

#[test]
fn classes_beyond_a_small_shape_total_were_refused_only_after_the_draws() {
    for (flags, total) in [
        (&["--size", "4"][..], "exactly 2 classes"),
        (&["--size", "4", "--diagonal"], "exactly 1 class "),
        (&["--size", "6", "--diagonal"], "exactly 3 classes"),
    ] {
        let message = refusal(&[&["-c", "1000", "--classes", "--seed", "1"], flags].concat());
        assert!(message.contains(total), "{flags:?}: {message}");
    }
    let two = class_grids(2, &["--size", "4", "--seed", "3"]);
    assert_classes(&Spec::boxes(4, 2, 2), &two);
}

#[test]
fn classes_of_small_jigsaw_layouts_missed_some() {
    let dir = tempfile::tempdir().unwrap();
    for (layout, total) in [
        ("aaaaa\nbbbbb\ncccdd\nccddd\neeeee\n", 240),
        ("aabbbb\ncaabdb\ncaeedd\ncaeddd\ncceeef\ncfffff\n", 568),
    ] {
        let file = dir.path().join("layout.txt");
        std::fs::write(&file, layout).unwrap();
        let file = file.to_str().unwrap();
        let message = refusal(&[
            "-c",
            "100000",
            "--classes",
            "--jigsaw",
            file,
            "--format",
            "line",
        ]);
        assert!(
            message.contains(&format!("exactly {total} classes")),
            "{message}"
        );
        let grids = class_grids(total, &["--jigsaw", file, "--seed", "1"]);
        assert_eq!(grids.len(), total);
        let spec = Spec::jigsaw(layout);
        for grid in &grids {
            assert!(spec.is_valid_complete(grid));
        }
        let text: Vec<u8> = grids
            .iter()
            .flat_map(|g| [&g[..], b"\n"].concat())
            .collect();
        let forms = run_forms(&text, file);
        assert_eq!(forms, total, "{layout}");
    }
}

/// How many classes `--canon` finds among the lines of `text`, of the layout in `file`.
fn run_forms(text: &[u8], file: &str) -> usize {
    let output = sudoku_gen()
        .args(["--canon", "-", "--jigsaw", file])
        .write_stdin(text.to_vec())
        .output()
        .unwrap();
    assert!(output.status.success());
    let mut lines: Vec<&[u8]> = output
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    lines.sort();
    lines.dedup();
    lines.len()
}

#[test]
fn a_detached_process_failed_some_cases_of_a_grading_and_not_others() {
    use std::os::unix::fs::PermissionsExt;
    // The program ends at once, leaving a child that is about to leave its process group: found
    // in the group or out of it, whichever it has reached, it fails every case, on every run.
    let folder = tempfile::tempdir().unwrap();
    let program = folder.path().join("fork.sh");
    std::fs::write(&program, "#!/bin/sh\nsetsid sleep 30 &\nexit 0\n").unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let plan = "tests/data/plans/small.toml";
    let cases = std::fs::read_to_string(plan)
        .unwrap()
        .matches("[[case]]")
        .count();
    for _ in 0..3 {
        let out = sudoku_gen()
            .arg("--grade")
            .arg(&program)
            .args(["--plan", plan, "--timeout", "5"])
            .output()
            .unwrap();
        let report = String::from_utf8(out.stdout).unwrap();
        let failed = report
            .lines()
            .filter(|line| line.trim_start().starts_with("FAIL"))
            .filter(|line| line.contains("left a process running (killed)"))
            .count();
        assert_eq!(failed, cases, "{report}");
    }
}

#[test]
fn c_past_the_memory_limit_aborted_with_a_backtrace() {
    // The output's buffer was a `vec!`, whose failure aborts the program with a backtrace: 1.25 GB
    // of 25×25 grids under a 1 GB address-space limit exited 134 with "stack backtrace:".
    let bin = assert_cmd::cargo::cargo_bin("sudoku-gen");
    for args in ["-c 1000000 --size 25", "-c 1000000 --format grid"] {
        let limit = if args.contains("25") {
            1_000_000
        } else {
            60_000
        };
        let script = format!("ulimit -v {limit}; exec \"$0\" {args}");
        let output = std::process::Command::new("sh")
            .args(["-c", &script])
            .arg(&bin)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args}: {stderr}");
        assert!(output.stdout.is_empty(), "{args}");
        assert!(
            stderr.starts_with("sudoku-gen: error: not enough memory"),
            "{args}: {stderr}"
        );
        assert!(!stderr.contains("backtrace"), "{args}: {stderr}");
    }
}

#[test]
fn a_jigsaw_file_was_ignored_for_lines_that_carry_their_layout() {
    // `--check LINES --jigsaw FILE` checked each `LAYOUT PUZZLE` line under its own layout and
    // said "ok" of grids that break the file's regions; `-s` solved them the same way.
    let lines = run_ok(&[
        "-c", "2", "--jigsaw", "random", "--seed", "1", "--format", "line",
    ]);
    let dir = tempfile::tempdir().unwrap();
    let (file, boxes, own) = (
        dir.path().join("lines.txt"),
        dir.path().join("boxes.txt"),
        dir.path().join("own.txt"),
    );
    std::fs::write(&file, &lines).unwrap();
    let rows = ["aaabbbccc", "dddeeefff", "ggghhhiii"];
    let layout: String = rows.iter().flat_map(|r| [*r; 3]).collect();
    std::fs::write(&boxes, layout).unwrap();
    let prefix = lines.split(|&b| b == b' ').next().unwrap();
    std::fs::write(&own, prefix).unwrap();
    let [file, boxes, own] = [&file, &boxes, &own].map(|p| p.to_str().unwrap().to_owned());
    for mode in ["--check", "-s"] {
        let output = sudoku_gen()
            .args([mode, &file, "--jigsaw", &boxes])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{mode}");
        let said = [output.stdout, output.stderr].concat();
        let said = String::from_utf8_lossy(&said);
        assert!(said.contains(":1"), "{mode}: {said}");
        assert!(
            said.contains("not the one --jigsaw gives"),
            "{mode}: {said}"
        );
    }
    let same = run_ok(&["--check", &file, "--jigsaw", &own]);
    assert!(same.starts_with(b"ok: 2 grids"));
}

#[test]
fn n_of_rare_levels_gave_up_on_some_seeds_as_if_the_shape_had_run_out() {
    // One 6×6 grid in a hundred or more digs to level 2; a puzzle index whose thousand grids gave
    // none ended the run with 'only 62 distinct puzzles could be made'.
    let spec = Spec::boxes(6, 2, 3);
    let puzzles = line_records(&run_ok(&[
        "-n", "63", "-m", "2", "--size", "6", "--seed", "3", "--format", "line",
    ]));
    assert_eq!(puzzles.len(), 63);
    for (_, puzzle) in &puzzles {
        assert_eq!(spec.count_solutions(puzzle, 2), 1);
    }
}

#[test]
fn s_and_rate_renamed_the_regions_of_a_line_that_carries_its_layout() {
    // A `LAYOUT PUZZLE` line whose regions were named z, y, x, ... came back from -s and --rate
    // with them named a, b, c, ...: its layout field no longer matched the input's.
    let lines = run_ok(&[
        "-n", "2", "-m", "1", "--jigsaw", "random", "--seed", "1", "--format", "line",
    ]);
    let rename = |b: u8| match b {
        b'a'..=b'i' => b'z' - (b - b'a'),
        other => other,
    };
    let renamed: Vec<u8> = String::from_utf8(lines.clone())
        .unwrap()
        .lines()
        .flat_map(|line| {
            let (layout, cells) = line.split_once(' ').unwrap();
            [layout.bytes().map(rename).collect(), b" ".to_vec()]
                .into_iter()
                .chain([cells.as_bytes().to_vec(), b"\n".to_vec()])
        })
        .flatten()
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let (plain, named) = (dir.path().join("plain.txt"), dir.path().join("named.txt"));
    std::fs::write(&plain, &lines).unwrap();
    std::fs::write(&named, &renamed).unwrap();
    let [plain, named] = [&plain, &named].map(|p| p.to_str().unwrap().to_owned());
    let layouts = |text: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(text)
            .lines()
            .filter_map(|line| line.split_once(' ').map(|(layout, _)| layout.to_owned()))
            .collect()
    };
    let given = layouts(&renamed);
    assert_eq!(given.len(), 2);
    assert!(given[0].starts_with('z'), "{}", given[0]);
    assert_eq!(layouts(&run_ok(&["-s", &named])), given);
    let rated = run_ok(&["--rate", &named]);
    let rated = String::from_utf8_lossy(&rated);
    assert_eq!(rated.lines().count(), 3, "{rated}");
    for (row, layout) in rated.lines().skip(1).zip(&given) {
        assert!(row.starts_with(&format!("{layout} ")), "{row}");
    }
    // Canonical forms name the regions in order of first appearance, whatever the input's names.
    assert_eq!(run_ok(&["--canon", &named]), run_ok(&["--canon", &plain]));
}

#[test]
fn check_classes_called_repeated_puzzles_pairwise_inequivalent() {
    // With --puzzles, equal puzzles were left out as plain repeats, which no other check of
    // solutions reports; a CSV corpus's puzzles were read as grids (9×9) or not compared.
    let dir = tempfile::tempdir().unwrap();
    for size in ["9", "6"] {
        let puzzles = run_ok(&[
            "-n", "2", "-m", "1", "--size", size, "--seed", "4", "--format", "line",
        ]);
        let twice = [&puzzles[..], &puzzles[..]].concat();
        let (file, solutions) = (dir.path().join("p.txt"), dir.path().join("s.txt"));
        std::fs::write(&file, &twice).unwrap();
        let file = file.to_str().unwrap().to_owned();
        std::fs::write(&solutions, run_ok(&["-s", &file])).unwrap();
        let output = sudoku_gen()
            .args(["--check", solutions.to_str().unwrap(), "--puzzles", &file])
            .arg("--classes")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{size}: {said}");
        assert!(
            said.contains(&format!(
                "grid 3: its puzzle repeats puzzle 1 ({file} line 1)"
            )),
            "{size}: {said}"
        );

        let corpus = run_ok(&[
            "-n", "2", "-m", "1", "--size", size, "--seed", "4", "--format", "csv",
        ]);
        let row = corpus.split(|&b| b == b'\n').nth(1).unwrap();
        let csv = dir.path().join("c.csv");
        std::fs::write(&csv, [&corpus[..], row, b"\n"].concat()).unwrap();
        let csv = csv.to_str().unwrap();
        let output = sudoku_gen()
            .args(["--check", csv, "--classes"])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{size}: {said}");
        assert!(
            said.contains(":4: grid 3: its puzzle repeats puzzle 1 (line 2)"),
            "{size}: {said}"
        );
        std::fs::write(dir.path().join("c.csv"), &corpus).unwrap();
        let clean = run_ok(&["--check", csv, "--classes"]);
        assert!(
            String::from_utf8_lossy(&clean).ends_with("the puzzles pairwise inequivalent\n"),
            "{size}"
        );
    }
}

/// The standard output and exit code of `sudoku-gen` with `args`.
fn said(args: &[&str]) -> (String, Option<i32>) {
    let output = sudoku_gen().args(args).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    (text, output.status.code())
}

#[test]
fn check_puzzles_judged_solutions_under_their_own_regions_not_their_puzzles() {
    // A solution line with another layout than its puzzle's was 'ok'; so were plain solutions of
    // X-Sudoku puzzles, which break the diagonals.
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let puzzles = include_str!("../data/shapes/jigsaw9.txt");
    let first = puzzles.lines().find(|l| !l.starts_with('#')).unwrap();
    let (layout, _) = first.split_once(' ').unwrap();
    let grid = run_ok(&[
        "-c", "1", "--jigsaw", "random", "--seed", "2", "--format", "line",
    ]);
    let grid = String::from_utf8(grid).unwrap();
    let (other, _) = grid.trim_end().split_once(' ').unwrap();
    assert_ne!(other, layout);
    std::fs::write(path("p.txt"), format!("{layout} {}\n", ".".repeat(81))).unwrap();
    std::fs::write(path("s.txt"), &grid).unwrap();
    std::fs::write(path("plain.txt"), format!("{}\n", ".".repeat(81))).unwrap();
    for puzzles in ["p.txt", "plain.txt"] {
        let (text, code) = said(&["--check", &path("s.txt"), "--puzzles", &path(puzzles)]);
        assert_eq!(code, Some(1), "{puzzles}: {text}");
        assert!(
            text.contains(":1: grid 1: its regions are not its puzzle's"),
            "{text}"
        );
    }
    std::fs::write(path("own.txt"), format!("{other} {}\n", ".".repeat(81))).unwrap();
    let (text, code) = said(&["--check", &path("s.txt"), "--puzzles", &path("own.txt")]);
    assert_eq!(
        (text.as_str(), code),
        (
            "ok: 1 solution, all valid and keeping their puzzles' givens\n",
            Some(0)
        )
    );

    let x = "tests/data/shapes/x9.txt";
    std::fs::write(path("xs.txt"), run_ok(&["-s", x, "--diagonal=no"])).unwrap();
    let (text, code) = said(&["--check", &path("xs.txt"), "--puzzles", x]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains(": grid 1: digit "), "{text}");
    assert!(
        text.contains(" repeats in the main diagonal (row "),
        "{text}"
    );
    std::fs::write(path("xs.txt"), run_ok(&["-s", x])).unwrap();
    assert_eq!(
        said(&["--check", &path("xs.txt"), "--puzzles", x]).1,
        Some(0)
    );

    // A corpus as PFILE was read as lines, a column error a row.
    let corpus = run_ok(&["-n", "2", "--seed", "1", "--format", "csv"]);
    std::fs::write(path("c.csv"), corpus).unwrap();
    let stderr = refusal(&["--check", &path("xs.txt"), "--puzzles", &path("c.csv")]);
    assert!(stderr.contains("c.csv:1: a CSV corpus"), "{stderr}");

    // A layout of the boxes is the boxes, either way round.
    let boxes: String = (0..81)
        .map(|c| char::from(b'a' + (c / 27 * 3 + c % 9 / 3) as u8))
        .collect();
    let plain = run_ok(&["-n", "1", "-m", "1", "--seed", "3", "--format", "line"]);
    let plain = String::from_utf8(plain).unwrap();
    std::fs::write(path("pp.txt"), &plain).unwrap();
    let solution = String::from_utf8(run_ok(&["-s", &path("pp.txt")])).unwrap();
    std::fs::write(path("bp.txt"), format!("{boxes} {plain}")).unwrap();
    std::fs::write(path("ps.txt"), &solution).unwrap();
    std::fs::write(path("bs.txt"), format!("{boxes} {solution}")).unwrap();
    for (solutions, puzzles) in [
        ("bs.txt", "pp.txt"),
        ("ps.txt", "bp.txt"),
        ("bs.txt", "bp.txt"),
    ] {
        let (text, code) = said(&["--check", &path(solutions), "--puzzles", &path(puzzles)]);
        assert_eq!(code, Some(0), "{solutions} {puzzles}: {text}");
    }
}

#[test]
fn check_classes_of_a_jigsaw_corpus_missed_rows_whose_layout_turned() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let corpus = run_ok(&[
        "-n", "6", "--jigsaw", "random", "--seed", "2", "--format", "csv",
    ]);
    std::fs::write(path("c.csv"), &corpus).unwrap();
    let turned = run_ok(&["--shuffle", &path("c.csv"), "--seed", "7"]);
    let rows = |text: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(text)
            .lines()
            .skip(1)
            .map(str::to_owned)
            .collect()
    };
    let (plain, turned) = (rows(&corpus), rows(&turned));
    let moved: Vec<&String> = turned
        .iter()
        .zip(&plain)
        .filter(|(t, p)| t.split(',').next() != p.split(',').next())
        .map(|(t, _)| t)
        .collect();
    assert!(!moved.is_empty());
    let text = [String::from_utf8_lossy(&corpus).into_owned()]
        .into_iter()
        .chain(moved.iter().map(|row| format!("{row}\n")))
        .collect::<String>();
    std::fs::write(path("both.csv"), text).unwrap();
    let (text, code) = said(&["--check", &path("both.csv"), "--classes"]);
    assert_eq!(code, Some(1), "{text}");
    let pairs = text.matches("its puzzle is equivalent to puzzle").count();
    assert_eq!(pairs, moved.len(), "{text}");
}

#[test]
fn blanks_written_two_ways_made_a_zero_based_alphabet_of_puzzles_without_nines() {
    // The first puzzle, with . blanks, told the alphabet: 0-8, as no 9 appeared; the second,
    // with 0 blanks, then had no solution.
    let dots = ".................1.....2.3......45.6..3.......17...8.....16......8....4..6.5..2..";
    assert!(!dots.contains('9'));
    let zeros = dots.replace('.', "0");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    std::fs::write(&file, format!("{dots}\n{zeros}\n")).unwrap();
    let solved = run_ok(&["-s", file.to_str().unwrap()]);
    let solved = String::from_utf8(solved).unwrap();
    let lines: Vec<&str> = solved.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines.iter().all(|l| !l.contains('0') && l.contains('9')),
        "{solved}"
    );
}

/// The output and exit code of `sudoku-gen` with `args`, `input` on its standard input (written
/// from another thread: the program may stop reading before its end).
fn said_with_input(args: &[&str], input: Vec<u8>) -> (String, Option<i32>) {
    use std::io::Write;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-gen"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || drop(stdin.write_all(&input)));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    (text, output.status.code())
}

#[test]
fn check_puzzles_from_a_pipe_lost_the_text_peeked_for_their_shape() {
    // A puzzle file that is a pipe (not `-`) was peeked for its shape and opened again, which
    // found the pipe's text gone; a stream of puzzles read no further once it outnumbered the
    // solutions was reported as if it held that many.
    let dir = tempfile::tempdir().unwrap();
    let puzzles = run_ok(&["-n", "2", "-m", "1", "--seed", "1", "--format", "line"]);
    let (file, solutions) = (dir.path().join("p.txt"), dir.path().join("s.txt"));
    std::fs::write(&file, &puzzles).unwrap();
    std::fs::write(&solutions, run_ok(&["-s", file.to_str().unwrap()])).unwrap();
    let solutions = solutions.to_str().unwrap();
    let solved = std::fs::read(solutions).unwrap();
    let file = file.to_str().unwrap();
    for classes in [&[][..], &["--classes"]] {
        let args = [&["--check", solutions, "--puzzles", "/dev/stdin"], classes].concat();
        let (text, code) = said_with_input(&args, puzzles.clone());
        assert_eq!(code, Some(0), "{classes:?}: {text}");
        // The solutions from a pipe, peeked for their shape, were read again by name (none).
        let args = [&["--check", "/dev/stdin", "--puzzles", file], classes].concat();
        let (text, code) = said_with_input(&args, solved.clone());
        assert_eq!(code, Some(0), "{classes:?}: {text}");
    }
    // Of another shape, the puzzles were opened a second time, which a pipe cannot give.
    let jigsaw = "tests/data/shapes/jigsaw9.txt";
    let jigsaw_solutions = dir.path().join("js.txt");
    std::fs::write(&jigsaw_solutions, run_ok(&["-s", jigsaw])).unwrap();
    let args = [
        "--check",
        jigsaw_solutions.to_str().unwrap(),
        "--puzzles",
        "-",
    ];
    let (text, code) = said_with_input(&args, std::fs::read(jigsaw).unwrap());
    assert_eq!(code, Some(0), "{text}");
    // A stream read to its end has its count said plainly.
    let one = &solved[..solved.iter().position(|&b| b == b'\n').unwrap() + 1];
    std::fs::write(dir.path().join("one.txt"), one).unwrap();
    let one = dir.path().join("one.txt");
    let args = ["--check", one.to_str().unwrap(), "--puzzles", "-"];
    let (text, code) = said_with_input(&args, puzzles.clone());
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("expected 2 solutions, one per puzzle, found 1"),
        "{text}"
    );
    // More than a piece (32 MiB) of puzzles: the check stops reading after the first.
    let endless = puzzles.repeat(250_000);
    let (text, code) = said_with_input(&["--check", solutions, "--puzzles", "-"], endless);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(
            "solutions, one per puzzle (the puzzles are a stream, read no further), found 2"
        ),
        "{text}"
    );
}

#[test]
fn check_unique_of_grids_or_puzzles_was_accepted_and_did_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    for size in ["9", "6"] {
        std::fs::write(path("g.txt"), run_ok(&["-c", "3", "--size", size])).unwrap();
        let stderr = refusal(&["--check", &path("g.txt"), "--unique"]);
        assert!(
            stderr.contains("is not one (its first line holds no comma)"),
            "{stderr}"
        );
    }
    let puzzles = run_ok(&["-n", "2", "--seed", "1", "--format", "line"]);
    std::fs::write(path("p.txt"), puzzles).unwrap();
    std::fs::write(path("s.txt"), run_ok(&["-s", &path("p.txt")])).unwrap();
    let stderr = refusal(&[
        "--check",
        &path("s.txt"),
        "--puzzles",
        &path("p.txt"),
        "--unique",
    ]);
    assert!(stderr.contains("not of --puzzles"), "{stderr}");
}

#[test]
fn shuffle_of_a_corpus_with_another_puzzle_column_could_not_be_run() {
    // Its error asked for --column, which --shuffle refused.
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    for size in ["9", "6"] {
        let corpus = run_ok(&["-n", "3", "--size", size, "--seed", "1", "--format", "csv"]);
        let corpus = String::from_utf8(corpus)
            .unwrap()
            .replacen("puzzle,", "grid,", 1);
        std::fs::write(path("g.csv"), &corpus).unwrap();
        let shuffled = run_ok(&[
            "--shuffle",
            &path("g.csv"),
            "--column",
            "grid",
            "--seed",
            "2",
        ]);
        std::fs::write(path("s.csv"), &shuffled).unwrap();
        assert!(
            shuffled.starts_with(b"grid,solution,blanks,level\n"),
            "{size}"
        );
        let canon = |file: &str| run_ok(&["--canon", &path(file), "--column", "grid"]);
        let forms = |text: Vec<u8>| -> Vec<String> {
            let text = String::from_utf8(text).unwrap();
            text.lines()
                .map(|l| l.rsplit(',').next().unwrap().to_owned())
                .collect()
        };
        assert_eq!(forms(canon("s.csv")), forms(canon("g.csv")), "{size}");
        assert_ne!(shuffled, corpus.into_bytes(), "{size}");
    }
    std::fs::write(path("p.txt"), run_ok(&["-n", "1", "--format", "line"])).unwrap();
    let stderr = refusal(&["--shuffle", &path("p.txt"), "--column", "grid"]);
    assert!(
        stderr.contains("is not one (its first line holds no comma)"),
        "{stderr}"
    );
}

#[test]
fn a_quote_inside_an_unquoted_csv_field_was_taken_for_one_never_closed() {
    // `6"5 tall` is a note any CSV reader takes as it stands; the count of its quotes, odd,
    // refused the row.
    let dir = tempfile::tempdir().unwrap();
    for size in ["9", "6"] {
        let corpus = run_ok(&["-n", "2", "--size", size, "--seed", "1", "--format", "csv"]);
        let corpus = String::from_utf8(corpus).unwrap();
        let mut lines = corpus.lines();
        let header = lines.next().unwrap();
        let rows: String = lines.map(|row| format!("{row},6\"5 tall\n")).collect();
        let file = dir.path().join("q.csv");
        std::fs::write(&file, format!("{header},note\n{rows}")).unwrap();
        let file = file.to_str().unwrap();
        let checked = run_ok(&["--check", file]);
        assert!(checked.starts_with(b"ok: 2 solutions"), "{size}");
        let solved = String::from_utf8(run_ok(&["-s", file])).unwrap();
        assert_eq!(
            solved.matches(",\"6\"\"5 tall\"").count(),
            2,
            "{size}: {solved}"
        );
    }
}

#[test]
fn check_rules_held_only_without_a_shape_flag() {
    // Under --size, the checks of --check's files and options were skipped: --unique with
    // --puzzles ran, two '-' were read, --classes took two files.
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    std::fs::write(
        path("p.txt"),
        run_ok(&["-n", "2", "--size", "6", "--format", "line"]),
    )
    .unwrap();
    std::fs::write(path("s.txt"), run_ok(&["-s", &path("p.txt")])).unwrap();
    let (p, s) = (path("p.txt"), path("s.txt"));
    for args in [
        &["--size", "6", "--check", &s, "--puzzles", &p, "--unique"][..],
        &["--size", "6", "--check", "-", "-"],
        &["--size", "6", "--check", &s, &s, "--classes"],
    ] {
        refusal(args);
    }
    // A corpus whose header is wrong is reported as such, not as no corpus.
    let corpus = run_ok(&["-n", "2", "--size", "6", "--format", "csv"]);
    let corpus = String::from_utf8(corpus)
        .unwrap()
        .replacen("puzzle,", "grid,", 1);
    std::fs::write(path("k.csv"), corpus).unwrap();
    let (text, code) = said(&["--size", "6", "--check", &path("k.csv"), "--unique"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("a CSV header without a column named puzzle"),
        "{text}"
    );
}

#[test]
fn a_speed_case_this_tool_cannot_run_failed_every_student() {
    // The tool's own timing run of a speed case whose command line it cannot run, or whose output
    // fails the case, was reported as each program's failure; it is the plan's, found before any
    // program runs: PLAN:LINE of the case, exit 2.
    let dir = tempfile::tempdir().unwrap();
    let program = crate::grade::write_script(dir.path(), "submission", "exit 0\n");
    for (args, says) in [
        ("\"-c\", \"abc\"", "exited with code 2"),
        ("\"-c\", \"400\"", "expected 500 grids, found 400"),
    ] {
        let plan = dir.path().join("plan.toml");
        std::fs::write(
            &plan,
            format!(
                "name = \"t\"\n\n[[case]]\nname = \"c-1\"\nargs = [\"-c\", \"1\"]\nexpect = \
                 \"grids\"\ncount = 1\npoints = 1\n\n[[case]]\nname = \"speed\"\nargs = \
                 [{args}]\nexpect = \"grids\"\ncount = 500\ntiers = [{{ ratio = 5, points = 4 \
                 }}]\n"
            ),
        )
        .unwrap();
        let out = sudoku_gen()
            .arg("--grade")
            .arg(&program)
            .arg("--plan")
            .arg(&plan)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args}");
        assert!(out.stdout.is_empty(), "{args}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.starts_with(&format!("{}:10: speed case `speed`: ", plan.display()))
                && stderr.contains(says),
            "{args}: {stderr}"
        );
    }
}
