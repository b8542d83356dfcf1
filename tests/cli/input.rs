//! Inputs that change underfoot: whatever another process does to a file during a run, the run ends
//! with a result or a clear error, never killed by a signal.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::common::sudoku_gen;

/// Runs the binary with `args`, shortens `input` to 1000 bytes after `delay_ms`, and waits for the
/// run's end: its status and standard error. It must not have been killed by a signal.
pub(crate) fn run_while_shortening(
    args: &[std::ffi::OsString],
    input: &Path,
    delay_ms: u64,
) -> (Option<i32>, String) {
    let binary = assert_cmd::cargo::cargo_bin("sudoku-gen");
    let child = std::process::Command::new(binary)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(delay_ms));
    std::fs::OpenOptions::new()
        .write(true)
        .open(input)
        .unwrap()
        .set_len(1000)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.signal(),
        None,
        "killed by a signal after {delay_ms} ms: {stderr}"
    );
    (out.status.code(), stderr)
}

#[test]
fn a_file_shortened_while_it_is_read_gives_an_error_not_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let grids = dir.path().join("grids.txt");
    let puzzles = dir.path().join("puzzles.txt");
    let mut shortened = 0;
    for (attempt, delay_ms) in [2u64, 5, 10, 20, 40, 80].into_iter().enumerate() {
        // A fresh copy each time: the last run shortened the previous one.
        sudoku_gen()
            .args(["-c", "1000000", "--seed", "1", "-o"])
            .arg(&grids)
            .assert()
            .success();
        let mut args = vec!["--check".into(), grids.clone().into()];
        if attempt % 2 == 1 {
            std::fs::write(&puzzles, ".".repeat(81) + "\n").unwrap();
            args.extend(["--puzzles".into(), puzzles.clone().into()]);
        }
        let (code, stderr) = run_while_shortening(&args, &grids, delay_ms);
        assert!(matches!(code, Some(0 | 1)), "{stderr}");
        if stderr.contains("the file was shortened while it was read") {
            assert_eq!(code, Some(1));
            assert!(stderr.contains(&grids.display().to_string()), "{stderr}");
            shortened += 1;
        }
    }
    println!("{shortened} of 6 runs saw the file shortened");
}

#[test]
fn a_run_ended_by_a_shortened_input_leaves_no_temporary_file_behind() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let solved = out.join("solved.txt");
    let mut shortened = 0;
    for delay_ms in [5u64, 10, 20, 40, 80, 160] {
        // Complete grids are puzzles too: 41 MB, two pieces.
        sudoku_gen()
            .args(["-c", "500000", "--seed", "2", "--format", "line", "-o"])
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
            shortened += 1;
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
    println!("{shortened} of 6 runs saw the file shortened");
}
