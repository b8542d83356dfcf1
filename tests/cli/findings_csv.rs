//! Regression tests of CSV findings: corpora read, refused and written back as their header
//! says, and their problems named by what they are and where they stand. Each test is named
//! after its bug and runs the real binary.

use crate::common::{run_ok, sudoku_gen};
use crate::findings::{run_data_problem, run_on_endless_stream};

#[test]
fn a_quote_left_open_in_a_streamed_csv_was_reported_as_an_empty_piece() {
    // The stream was cut after the header, the one record end before the quote, and that piece
    // of no rows was taken for a stream of empty lines.
    for shape in [&[][..], &["--size", "6"]] {
        let corpus = run_ok(&[&["-n", "2", "--seed", "1", "--format", "csv"], shape].concat());
        let header = corpus.split_inclusive(|&b| b == b'\n').next().unwrap();
        let row = corpus.split_inclusive(|&b| b == b'\n').nth(1).unwrap();
        let first = [header, b"\"open,quote\n"].concat();
        for mode in ["-s", "--rate", "--check"] {
            let (code, _, stderr, _) = run_on_endless_stream(&[mode, "-"], &first, row);
            assert_eq!(code, 1, "{mode} {shape:?}: {stderr}");
            assert!(
                stderr.contains("<stdin>:2: no CSV record ends (is a quote left open?)"),
                "{mode} {shape:?}: {stderr}"
            );
            assert!(!stderr.contains("empty"), "{mode} {shape:?}: {stderr}");
        }
    }
}

#[test]
fn a_comment_with_a_comma_was_taken_for_a_csv_header() {
    let puzzles = run_ok(&["-n", "3", "--seed", "1", "--format", "line"]);
    let text = [b"# puzzles, from somewhere\n".as_slice(), &puzzles].concat();
    for mode in ["-s", "--rate", "--canon"] {
        sudoku_gen()
            .args([mode, "-"])
            .write_stdin(text.clone())
            .assert()
            .success();
    }
    // --check holds every shape to the -c format, which has no comments: the line is named as
    // a grid's, as at 9×9, not read as a CSV header.
    let grids = run_ok(&["-c", "2", "--size", "6", "--seed", "1"]);
    let text = [b"# grids, 6x6\n".as_slice(), &grids].concat();
    let (report, _) = run_data_problem(&["--check", "-"], &text);
    assert!(
        report.starts_with("<stdin>:1: grid 1: column 1: expected a digit 1-6, found '#'"),
        "{report}"
    );
}

#[test]
fn rate_of_an_empty_file_of_another_shape_wrote_no_header() {
    // 9×9 writes the header of an empty rating; other shapes wrote nothing at all.
    for input in [&b""[..], b"# a comment only\n"] {
        for shape in [&["--size", "16"][..], &["--size", "6", "--diagonal"]] {
            let rated = sudoku_gen()
                .args([&["--rate", "-"][..], shape].concat())
                .write_stdin(input)
                .output()
                .unwrap();
            assert!(rated.status.success());
            assert!(rated.stdout.starts_with(b"puzzle,level,"));
            assert_eq!(rated.stdout, run_ok(&["--rate", "/dev/null"]));
        }
    }
}

#[test]
fn a_csv_row_of_more_fields_than_its_header_took_the_columns_a_job_wrote() {
    // -s wrote the solution under no name, after the extra field, and could not read it back.
    let puzzle = include_str!("../data/sample_17_clue.txt")
        .lines()
        .next()
        .unwrap();
    let six = run_ok(&["-n", "1", "--size", "6", "--format", "csv", "--seed", "1"]);
    let six = String::from_utf8(six).unwrap();
    for (text, row) in [
        (
            format!("puzzle,note\n{puzzle},x,extra\n"),
            "3 fields, the header 2",
        ),
        (format!("puzzle,note\n{puzzle}\n"), "1 field, the header 2"),
        (six.trim_end().to_owned() + ",x\n", "5 fields, the header 4"),
    ] {
        for mode in ["-s", "--rate", "--canon", "--check"] {
            let run = sudoku_gen()
                .args([mode, "-"])
                .write_stdin(text.clone())
                .output()
                .unwrap();
            assert_eq!(run.status.code(), Some(1), "{mode} {text}");
            let said = [run.stdout, run.stderr].concat();
            let said = String::from_utf8(said).unwrap();
            assert!(
                said.contains(&format!("2:1: the row has {row}"))
                    || said.contains(&format!("2: column 1: the row has {row}")),
                "{mode}: {said}"
            );
        }
    }
}

#[test]
fn column_on_an_input_that_is_no_csv_was_ignored() {
    let nine = run_ok(&["-c", "2", "--seed", "1"]);
    let six = run_ok(&["-c", "2", "--size", "6", "--seed", "1"]);
    for (mode, input) in [
        ("--check", &nine),
        ("--check", &six),
        ("-s", &six),
        ("--rate", &six),
    ] {
        let run = sudoku_gen()
            .args([mode, "-", "--column", "puzzle"])
            .write_stdin(input.clone())
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{mode}");
        assert!(run.stdout.is_empty(), "{mode}");
        let message = String::from_utf8(run.stderr).unwrap();
        assert!(
            message.contains("'--column' names a column of a CSV corpus"),
            "{message}"
        );
    }
}

#[test]
fn a_jigsaw_corpus_whose_first_layout_was_empty_was_read_as_plain_9x9() {
    // The first row's puzzle field read as a plain 9×9 line, so the standard kernel took the
    // corpus and solved, shuffled and rated every row against boxes, not its regions.
    let dir = tempfile::tempdir().unwrap();
    let corpus = run_ok(&[
        "-n", "3", "--jigsaw", "random", "--format", "csv", "--seed", "1",
    ]);
    let text = String::from_utf8(corpus).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let row = rest.split_once(',').unwrap().1;
    let path = dir.path().join("empty_first_layout.csv");
    std::fs::write(&path, format!("{header}\n,{row}")).unwrap();
    let path = path.to_str().unwrap();
    for mode in ["-s", "--rate", "--canon", "--shuffle", "--check"] {
        let output = sudoku_gen().args([mode, path]).output().unwrap();
        // --check reports on stdout, the other modes on stderr with nothing written.
        let (report, written) = match mode {
            "--check" => (&output.stdout, &Vec::new()),
            _ => (&output.stderr, &output.stdout),
        };
        let report = String::from_utf8_lossy(report);
        assert_eq!(output.status.code(), Some(1), "{mode}: {report}");
        assert!(
            report.contains(":2") && report.contains("the row has no layout"),
            "{mode}: {report}"
        );
        assert!(written.is_empty(), "{mode}");
    }
}

#[test]
fn jigsaw_csv_rows_of_the_wrong_field_count_were_dropped_when_none_was_right() {
    // The rows that tell a corpus's shape were read with their problems thrown away: when every
    // row was malformed none was left, the corpus was taken for an empty one, `--check` said "ok"
    // and `-s -o` wrote the header alone.
    let corpus = run_ok(&[
        "-n", "3", "--size", "12", "--jigsaw", "random", "--seed", "5", "--format", "csv",
    ]);
    let text = String::from_utf8(corpus).unwrap();
    let (header, rows) = text.split_once('\n').unwrap();
    let more: String = rows.lines().map(|row| format!("{row},extra\n")).collect();
    let fewer: String = rows
        .lines()
        .map(|row| format!("{}\n", &row[..row.rfind(',').unwrap()]))
        .collect();
    for (body, fields) in [(more, 6), (fewer, 4)] {
        let input = format!("{header}\n{body}");
        for mode in ["--check", "-s", "--rate", "--canon", "--shuffle"] {
            let (stdout, stderr) = run_data_problem(&[mode, "-"], input.as_bytes());
            // The grader reports on standard output, the other modes on standard error.
            let stderr = if mode == "--check" { stdout } else { stderr };
            for line in 2..=4 {
                let message = format!("<stdin>:{line}");
                assert!(stderr.contains(&message), "{mode}: {stderr}");
            }
            let named = format!("the row has {fields} fields, the header 5");
            assert!(stderr.contains(&named), "{mode}: {stderr}");
        }
    }
}

#[test]
fn shuffle_with_column_solution_turned_the_solutions_away_from_their_puzzles() {
    // `--column solution` made the solutions the rows' puzzles: they were turned and the real
    // puzzles kept, so no row's solution solved its puzzle any more. A column left unturned is
    // now a located problem; naming the puzzle column itself still shuffles.
    let shapes: [&[&str]; 3] = [&[], &["--size", "6"], &["--jigsaw", "random"]];
    for shape in shapes {
        let corpus = run_ok(&[&["-n", "3", "--seed", "1", "--format", "csv"], shape].concat());
        let header = String::from_utf8_lossy(&corpus)
            .lines()
            .next()
            .unwrap()
            .to_owned();
        let at = header.split(',').position(|f| f == "puzzle").unwrap();
        let column = header
            .split(',')
            .take(at)
            .map(|f| f.len() + 1)
            .sum::<usize>()
            + 1;
        let args = ["--shuffle", "-", "--column", "solution", "--seed", "2"];
        let (stdout, stderr) = run_data_problem(&args, &corpus);
        assert!(stdout.is_empty(), "{shape:?}: {stdout}");
        assert!(
            stderr.starts_with(&format!(
                "<stdin>:1:{column}: --shuffle turns each row's puzzle"
            )) && stderr.contains("the column `puzzle`"),
            "{shape:?}: {stderr}"
        );
        let named = ["--shuffle", "-", "--column", "puzzle", "--seed", "2"];
        let shuffled = sudoku_gen()
            .args(named)
            .write_stdin(corpus)
            .output()
            .unwrap();
        assert_eq!(shuffled.status.code(), Some(0), "{shape:?}");
    }
}
