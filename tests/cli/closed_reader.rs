//! A reader that stops reading early (`| head -1`): the run ends promptly and quietly, with 0,
//! also in the middle of a piece of a slow job; and the output that is written from the first
//! piece on stays written when a later piece turns out malformed.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::sudoku_gen;

/// How long a run may take to give its first line and end once its reader has gone. The runs
/// below end in well under a second at `-j 1`; a run that does its whole piece first takes over
/// 20 s.
const BOUND: Duration = Duration::from_secs(4);

/// The records of a test data file: its lines but empty and comment ones.
fn records_of(data: &str) -> Vec<String> {
    let path = format!("{}/tests/data/{data}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// Runs `args`, reads the first line of its output and closes the pipe, as `head -1` does.
/// Returns the line and the exit code, or `None` for a run still going [`BOUND`] after it
/// started, which is killed.
fn first_line_then_close(args: &[&str]) -> (String, Option<i32>) {
    let started = Instant::now();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-gen"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    // The pipe closes when the thread ends, right after the first line.
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = send.send(line);
    });
    let line = receive.recv_timeout(BOUND).unwrap_or_default();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (line, status.code());
        }
        if started.elapsed() > BOUND {
            child.kill().unwrap();
            child.wait().unwrap();
            return (line, None);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Rates the records of `data`, `times` over (within one piece of 32 MiB), at `-j 1`, behind a
/// reader that leaves after the first line: the run ends at once, with 0.
fn rated_behind_a_closed_reader(data: &str, times: usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("puzzles.txt");
    let records: String = records_of(data).iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&path, records.repeat(times)).unwrap();
    let (line, code) = first_line_then_close(&["--rate", path.to_str().unwrap(), "-j", "1"]);
    assert!(line.starts_with("puzzle,level,"), "{data}: {line:?}");
    assert_eq!(code, Some(0), "{data}: the run ends at once, with 0");
}

#[test]
fn a_slow_job_behind_a_closed_reader_ran_its_whole_piece() {
    // 60,000 puzzles (4.9 MB), about 20 s of rating.
    rated_behind_a_closed_reader("sample_forum_hardest.txt", 1000);
}

#[test]
fn a_slow_job_of_another_shape_behind_a_closed_reader_ran_its_whole_piece() {
    // 80,000 puzzles of 16×16 (20.6 MB), about 20 s of rating.
    rated_behind_a_closed_reader("shapes/16x16.txt", 1600);
}

#[test]
fn a_malformed_record_past_the_first_piece_leaves_the_results_before_it_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("puzzles.txt");
    // One piece of 32 MiB holds this many 82-byte lines; a malformed one follows them.
    let first_piece = (32 << 20) / 82;
    let puzzle = &records_of("sample_17_clue.txt")[0];
    let mut text = format!("{puzzle}\n").repeat(first_piece + 10);
    text.push_str(&format!("x{}\n", &puzzle[1..]));
    std::fs::write(&path, text).unwrap();
    let out = sudoku_gen().arg("-s").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        out.stdout.len(),
        first_piece * 82,
        "the first piece's solutions"
    );
    let name = path.display();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        [
            format!("{name}:{}:1: unexpected character 'x'", first_piece + 11),
            format!(
                "sudoku-gen: the results of the puzzles before the first malformed piece of \
                 {name} were written"
            ),
        ]
    );
}
