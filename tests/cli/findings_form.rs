//! Regression tests of the form `--check` holds grids of other shapes to: the 9×9 check refused
//! what the `-c` formats never hold (trailing spaces, mixed line ends, extra empty lines, tabs,
//! comments, a byte-order mark), naming each problem by line and column, while the check of every
//! other shape took them all. Each test is named after its bug and runs the real binary on the
//! `-c` output of a 6×6, a 16×16, a jigsaw and a diagonal shape, in both formats.

use std::path::Path;

use crate::common::{run_ok, sudoku_gen};

/// The output of a shape in one format, as `-c` writes it, and the flags that check it.
struct Case {
    name: String,
    text: Vec<u8>,
    check: Vec<String>,
    line_format: bool,
    /// N: the rows of a grid in the grid format.
    rows: usize,
}

fn args(words: &str) -> Vec<String> {
    words.split_whitespace().map(str::to_owned).collect()
}

/// Three grids of each shape in each format. A jigsaw shape's grid format comes from `-s`, which
/// writes it with `--jigsaw FILE` (`-c` keeps the layout on each line); its layout is written in
/// `dir`.
fn cases(dir: &Path) -> Vec<Case> {
    let layout = dir.join("layout.txt");
    let jigsaw = run_ok(&[
        "-c", "3", "--jigsaw", "random", "--format", "line", "--seed", "1",
    ]);
    std::fs::write(&layout, &jigsaw[..81]).unwrap();
    let layout = layout.to_str().unwrap();
    let mut cases = Vec::new();
    for (flags, rows) in [
        ("--size 6", 6),
        ("--size 16", 16),
        ("--size 16 --diagonal", 16),
    ] {
        for format in ["grid", "line"] {
            let mut make = args("-c 3 --seed 1 --format");
            make.push(format.to_owned());
            make.extend(args(flags));
            let make: Vec<&str> = make.iter().map(String::as_str).collect();
            cases.push(Case {
                name: format!("{flags} --format {format}"),
                text: run_ok(&make),
                check: args(flags),
                line_format: format == "line",
                rows,
            });
        }
    }
    let puzzles: Vec<u8> = jigsaw
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .flat_map(|line| [&line[82..], b"\n"].concat())
        .collect();
    let grids = sudoku_gen()
        .args(["-s", "-", "--format", "grid", "--jigsaw", layout])
        .write_stdin(puzzles)
        .output()
        .unwrap();
    assert!(grids.status.success());
    cases.push(Case {
        name: "--jigsaw FILE --format grid".to_owned(),
        text: grids.stdout,
        check: args(&format!("--jigsaw {layout}")),
        line_format: false,
        rows: 9,
    });
    cases.push(Case {
        name: "--jigsaw random --format line".to_owned(),
        text: jigsaw,
        check: Vec::new(),
        line_format: true,
        rows: 9,
    });
    cases
}

/// The report of `--check -` of `text` with the flags of `case`, and whether it passed.
fn check(case: &Case, text: &[u8]) -> (bool, String) {
    let out = sudoku_gen()
        .args(["--check", "-"])
        .args(&case.check)
        .write_stdin(text.to_vec())
        .output()
        .unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(if report.starts_with("ok:") { 0 } else { 1 }),
        "{}: {report}",
        case.name
    );
    (out.status.success(), report)
}

/// Asserts that `text` fails its check with `problem` as the report's first line (after
/// `<stdin>:`), and nothing else wrong.
fn assert_refused(case: &Case, text: &[u8], problem: &str) {
    let (passed, report) = check(case, text);
    assert!(!passed, "{}: {report}", case.name);
    assert_eq!(
        report,
        format!("<stdin>:{problem}\nFAIL: 1 problem in 3 grids\n"),
        "{}",
        case.name
    );
}

fn lines(text: &[u8]) -> Vec<Vec<u8>> {
    text.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

/// Line 2's grid as the report names it: `grid 1: ` in the grid format (its second row), `grid 2: `
/// in the line format.
fn second_line_grid(case: &Case) -> &'static str {
    if case.line_format {
        "grid 2: "
    } else {
        "grid 1: "
    }
}

#[test]
fn other_shapes_check_took_trailing_spaces() {
    let dir = tempfile::tempdir().unwrap();
    for case in cases(dir.path()) {
        for (end, shown) in [(" ", "' '"), ("\t", "'\\t'"), ("  ", "' '")] {
            let mut lines = lines(&case.text);
            let width = lines[1].len();
            lines[1].extend_from_slice(end.as_bytes());
            let problem = format!(
                "2: {}column {}: expected the end of the line, found {shown} (trailing space)",
                second_line_grid(&case),
                width + 1
            );
            assert_refused(&case, &lines.join(&b'\n'), &problem);
        }
    }
}

#[test]
fn other_shapes_check_took_mixed_line_ends() {
    let dir = tempfile::tempdir().unwrap();
    for case in cases(dir.path()) {
        let grid = if case.line_format { "" } else { "grid 1: " };
        let mut lf = lines(&case.text);
        lf[1].push(b'\r');
        let problem = format!("2: {grid}expected a LF line end like the first line's, found CRLF");
        assert_refused(&case, &lf.join(&b'\n'), &problem);
        let mut crlf: Vec<Vec<u8>> = lines(&case.text)
            .into_iter()
            .map(|line| [&line[..], b"\r"].concat())
            .collect();
        crlf.last_mut().unwrap().clear();
        crlf[2].pop();
        let problem = format!("3: {grid}expected a CRLF line end like the first line's, found LF");
        assert_refused(&case, &crlf.join(&b'\n'), &problem);
    }
}

#[test]
fn other_shapes_check_took_extra_empty_lines() {
    let dir = tempfile::tempdir().unwrap();
    for case in cases(dir.path()) {
        let last = bytecount(&case.text) + 1;
        let after = [&case.text[..], b"\n"].concat();
        let mut before = b"\n".to_vec();
        before.extend_from_slice(&case.text);
        let mut between = lines(&case.text);
        if case.line_format {
            let empty = "expected a line of";
            between.insert(1, Vec::new());
            for (text, line) in [(&between.join(&b'\n'), 2), (&after, last), (&before, 1)] {
                let (passed, report) = check(&case, text);
                assert!(!passed, "{}: {report}", case.name);
                assert!(
                    report.starts_with(&format!("<stdin>:{line}: {empty} ")),
                    "{}: {report}",
                    case.name
                );
                assert!(report.contains(", found an empty line\n"), "{report}");
            }
        } else {
            between.insert(case.rows, Vec::new());
            let problem = format!(
                "{}: expected one empty line between grids, found more",
                case.rows + 2
            );
            assert_refused(&case, &between.join(&b'\n'), &problem);
            let problem = format!("{last}: expected no empty line after the last grid");
            assert_refused(&case, &after, &problem);
            let problem = "1: expected the first row of a grid, found an empty line";
            assert_refused(&case, &before, problem);
            let mut spaces = lines(&case.text);
            spaces[case.rows] = b" ".to_vec();
            let problem = format!(
                "{}: expected an empty line between grids, found ' '",
                case.rows + 1
            );
            assert_refused(&case, &spaces.join(&b'\n'), &problem);
        }
    }
}

fn bytecount(text: &[u8]) -> usize {
    text.iter().filter(|&&b| b == b'\n').count()
}

#[test]
fn other_shapes_check_took_tabs_comments_and_byte_order_marks() {
    let dir = tempfile::tempdir().unwrap();
    for case in cases(dir.path()) {
        let mut tab = lines(&case.text);
        // A tab in place of the space after the first cell, or of the first cell of the line.
        let (at, expected) = if case.line_format {
            (tab[1].len() - 1, "expected a")
        } else {
            (1, "expected ' '")
        };
        tab[1][at] = b'\t';
        let (passed, report) = check(&case, &tab.join(&b'\n'));
        assert!(!passed, "{}: {report}", case.name);
        let located = format!(
            "<stdin>:2: {}column {}: {expected}",
            second_line_grid(&case),
            at + 1
        );
        assert!(report.starts_with(&located), "{}: {report}", case.name);
        assert!(report.contains("found '\\t'"), "{}: {report}", case.name);

        let comment = [b"# grids\n".as_slice(), &case.text].concat();
        let (passed, report) = check(&case, &comment);
        assert!(!passed, "{}: {report}", case.name);
        assert!(
            report.starts_with("<stdin>:1: grid 1: column "),
            "{}: {report}",
            case.name
        );

        let marked = [b"\xef\xbb\xbf".as_slice(), &case.text].concat();
        let problem = "1: the file starts with a UTF-8 byte-order mark, which the -c formats do \
                       not have";
        assert_refused(&case, &marked, problem);
    }
}

#[test]
fn other_shapes_check_takes_what_9x9_takes() {
    let dir = tempfile::tempdir().unwrap();
    for case in cases(dir.path()) {
        let ok = "ok: 3 grids, all valid and distinct";
        assert_eq!(
            check(&case, &case.text).1,
            format!("{ok}\n"),
            "{}",
            case.name
        );
        let unterminated = &case.text[..case.text.len() - 1];
        assert_eq!(
            check(&case, unterminated).1,
            format!("{ok}\n"),
            "{}",
            case.name
        );
        let crlf: Vec<u8> = case
            .text
            .iter()
            .flat_map(|&b| {
                if b == b'\n' {
                    vec![b'\r', b'\n']
                } else {
                    vec![b]
                }
            })
            .collect();
        assert_eq!(
            check(&case, &crlf).1,
            format!("{ok} (CRLF line ends)\n"),
            "{}",
            case.name
        );
        // -s answers in its input's layout, compact rows included; its answers pass the check.
        let compact: Vec<u8> = case
            .text
            .iter()
            .copied()
            .filter(|&b| b != b' ' || case.line_format)
            .collect();
        if !case.line_format {
            let puzzles = String::from_utf8(compact.clone())
                .unwrap()
                .replacen('1', ".", 5);
            let mut solve = vec!["-s", "-"];
            solve.extend(case.check.iter().map(String::as_str));
            let solved = sudoku_gen()
                .args(&solve)
                .write_stdin(puzzles)
                .output()
                .unwrap();
            assert!(solved.status.success(), "{}", case.name);
            assert_eq!(solved.stdout, compact, "{}", case.name);
            assert_eq!(check(&case, &compact).1, format!("{ok}\n"), "{}", case.name);
        }
    }
}
