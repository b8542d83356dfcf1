//! `sudoku-gen -c`: the command line end to end.

use std::io::Read;
use std::process::{Command as StdCommand, Stdio};

use crate::common::{assert_valid_distinct, parse_grids, sha256_hex, sudoku_gen};
use predicates::prelude::*;

fn output_of(args: &[&str]) -> Vec<u8> {
    let out = sudoku_gen().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    out.stdout
}

#[test]
fn bad_arguments_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["-c"], "-c"),
        (&["-c", ""], "1 to 1000000"),
        (&["-c", "0"], "'0'"),
        (&["-c", "1000001"], "'1000001'"),
        (&["-c", "+5"], "'+5'"),
        (&["-c", "-5"], "-5"),
        (&["-c", "abc"], "'abc'"),
        (&["-c", "1.5"], "'1.5'"),
        (&["-c", "1e3"], "'1e3'"),
        (&["-c", " 5"], "' 5'"),
        (&["-c", "5 "], "'5 '"),
        (
            &["-c", "99999999999999999999999"],
            "'99999999999999999999999'",
        ),
        (&["-c", "5", "-c", "6"], "-c"),
        (&["-c", "5", "--bogus"], "--bogus"),
        (&["-c", "5", "stray"], "stray"),
        (&["-c", "5", "--first", "0"], "'--first 0' is no symbol"),
        (&["-c", "5", "--first", "10"], "'10'"),
        (&["-c", "5", "--seed", "-1"], "-1"),
        (
            &["-c", "5", "--seed", "18446744073709551616"],
            "18446744073709551616",
        ),
        (&["-c", "5", "-j", "0"], "'0'"),
        (&["-c", "5", "--format", "csv"], "csv"),
        (&[], "required"),
    ];
    for (args, named) in cases {
        sudoku_gen()
            .args(*args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(*named).and(predicate::str::contains("error")));
    }
}

#[test]
fn count_errors_name_the_accepted_range() {
    sudoku_gen()
        .args(["-c", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("from 1 to 1000000"));
}

#[test]
fn help_and_version() {
    sudoku_gen()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("-c <N>"));
    sudoku_gen()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("sudoku-gen "));
}

#[test]
fn grid_format_is_exact() {
    for n in [1usize, 2, 17, 18, 19, 500] {
        let out = output_of(&["-c", &n.to_string(), "--seed", "1"]);
        assert_eq!(out.len(), 163 * n - 1, "n = {n}");
        assert_valid_distinct(&parse_grids(&out, false), n);
    }
}

#[test]
fn line_format_is_exact() {
    for n in [1usize, 3, 100] {
        let out = output_of(&["-c", &n.to_string(), "--format", "line", "--seed", "2"]);
        assert_eq!(out.len(), 82 * n);
        assert_valid_distinct(&parse_grids(&out, true), n);
    }
}

#[test]
fn leading_zeros_are_fine() {
    assert_eq!(output_of(&["-c", "0003", "--seed", "4"]).len(), 163 * 3 - 1);
}

#[test]
fn golden_small_outputs() {
    assert_eq!(
        output_of(&["-c", "3", "--seed", "42"]),
        include_bytes!("../data/c3_seed42.grid.txt")
    );
    assert_eq!(
        output_of(&["-c", "3", "--seed", "42", "--format", "line"]),
        include_bytes!("../data/c3_seed42.line.txt")
    );
}

#[test]
fn golden_sha256_of_a_thousand() {
    assert_eq!(
        sha256_hex(&output_of(&["-c", "1000", "--seed", "42"])),
        "1a9fa1dcd6eb68e678c9dd959e68df0efa01eaf05d2aceea0bfa411df5dd1eaa"
    );
    assert_eq!(
        sha256_hex(&output_of(&[
            "-c", "1000", "--seed", "42", "--format", "line"
        ])),
        "a6a0984ca615c85ab6ba2e35a4d08ce407eb99509983a1d8e7872e54b9904f11"
    );
}

#[test]
fn first_digit_is_in_every_top_left_cell() {
    for d in 1..=9u8 {
        let out = output_of(&["-c", "200", "--format", "line", "--first", &d.to_string()]);
        let grids = parse_grids(&out, true);
        assert_valid_distinct(&grids, 200);
        assert!(grids.iter().all(|g| g[0] == d));
    }
}

#[test]
fn seed_reproduces_and_seeds_differ() {
    let a = output_of(&["-c", "300", "--seed", "7"]);
    assert_eq!(a, output_of(&["-c", "300", "--seed", "7"]));
    let b = output_of(&["-c", "300", "--seed", "8"]);
    assert_ne!(a, b);
    let (ga, gb) = (parse_grids(&a, false), parse_grids(&b, false));
    assert!(ga.iter().all(|g| !gb.contains(g)), "two seeds share a grid");
}

#[test]
fn runs_without_seed_differ() {
    assert_ne!(output_of(&["-c", "5"]), output_of(&["-c", "5"]));
}

#[test]
fn thread_count_never_changes_the_output() {
    for format in ["grid", "line"] {
        let one = output_of(&["-c", "5000", "--seed", "11", "-j", "1", "--format", format]);
        let two = output_of(&["-c", "5000", "--seed", "11", "-j", "2", "--format", format]);
        let five = output_of(&["-c", "5000", "--seed", "11", "-j", "5", "--format", format]);
        assert!(one == two && two == five);
    }
}

#[test]
fn output_file_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sudoku.txt");
    sudoku_gen()
        .args(["-c", "10", "--seed", "3", "-o"])
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        output_of(&["-c", "10", "--seed", "3"])
    );
}

#[test]
fn output_file_survives_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sudoku.txt");
    std::fs::write(&path, "keep me").unwrap();
    sudoku_gen()
        .args(["-c", "0", "-o"])
        .arg(&path)
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep me");
    let fresh = dir.path().join("fresh.txt");
    sudoku_gen()
        .args(["-c", "abc", "-o"])
        .arg(&fresh)
        .assert()
        .code(2);
    assert!(!fresh.exists());
}

#[test]
fn output_file_that_cannot_be_replaced_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("a-folder");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("inside"), "keep").unwrap();
    sudoku_gen()
        .args(["-c", "10", "-o"])
        .arg(&target)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::starts_with(format!(
            "sudoku-gen: error: {}: ",
            target.display()
        )));
    assert_eq!(
        std::fs::read_to_string(target.join("inside")).unwrap(),
        "keep"
    );
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary file is left behind");
}

#[test]
fn broken_pipe_ends_quietly() {
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("sudoku-gen"))
        .args(["-c", "1000000", "--format", "line"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 82];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn full_device_is_an_error() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = StdCommand::new(assert_cmd::cargo::cargo_bin("sudoku-gen"))
        .args(["-c", "100"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "sudoku-gen: error: standard output: No space left on device\n"
    );
}

#[test]
fn one_million_grids_are_valid_and_distinct() {
    let out = output_of(&["-c", "1000000"]);
    assert_eq!(out.len(), 163 * 1_000_000 - 1);
    assert_valid_distinct(&parse_grids(&out, false), 1_000_000);
}
