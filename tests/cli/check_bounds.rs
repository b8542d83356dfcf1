//! `--check` on inputs that never end or that are built to grow its memory: it stops reading a
//! stream at its first malformed piece, keeps the keys of an endless stream of grids within a
//! budget, and reads a CSV corpus with a long quoted field in the memory of one without it.

use std::io::Write;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A piece of input, as `src/io/input.rs` reads them.
const PIECE: usize = 32 << 20;

fn spawn_check(args: &[&str], envs: &[(&str, &std::path::Path)]) -> Child {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("sudoku-gen"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in envs {
        command.env(name, value);
    }
    command.spawn().expect("the binary runs")
}

/// Waits for `child` at most `limit`, killing it and failing past that.
fn wait_at_most(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting works") {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still reading after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Bytes that look random, the same on every run.
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// Feeds `start` then random bytes, without end, to a `--check -`; returns the bytes it took.
fn check_endless_noise(start: &[u8], seed: u64) -> usize {
    let mut child = spawn_check(&["--check", "-"], &[]);
    let mut stdin = child.stdin.take().unwrap();
    let start = start.to_vec();
    let writer = std::thread::spawn(move || {
        let mut written = 0;
        if stdin.write_all(&start).is_err() {
            return written;
        }
        written += start.len();
        let chunk = noise(seed, 1 << 20);
        while stdin.write_all(&chunk).is_ok() {
            written += chunk.len();
        }
        written
    });
    // Stdout and stderr are small: the report of one piece.
    let status = wait_at_most(&mut child, Duration::from_secs(10));
    let written = writer.join().unwrap();
    assert_eq!(status.code(), Some(1), "{status:?}");
    written
}

#[test]
fn check_of_urandom_stops_at_its_first_malformed_piece() {
    for seed in [1, 2, 3, 4, 5, 6] {
        let written = check_endless_noise(b"", seed);
        // One piece, plus what the pipe and the reader hold.
        assert!(written < 3 * PIECE, "seed {seed}: read {written} bytes");
    }
}

#[test]
fn check_of_a_header_without_a_puzzle_column_stops_at_once() {
    let written = check_endless_noise(b"a,b\n", 7);
    assert!(written < 3 * PIECE, "read {written} bytes");
}

/// `count` distinct valid grids in the grid format (no empty line after the last): one grid
/// relabelled by successive permutations of its digits, so that each has its own first row.
fn distinct_grids(count: usize) -> (Vec<u8>, Vec<String>) {
    let mut digits: Vec<u8> = (1..=9).collect();
    let mut text = Vec::new();
    let mut blocks = Vec::new();
    for k in 0..count {
        let mut block = String::new();
        for row in 0..9 {
            let cells: Vec<String> = (0..9)
                .map(|column| digits[(row * 3 + row / 3 + column) % 9].to_string())
                .collect();
            block.push_str(&cells.join(" "));
            block.push('\n');
        }
        if k > 0 {
            text.push(b'\n');
        }
        text.extend_from_slice(block.as_bytes());
        blocks.push(block);
        next_permutation(&mut digits);
    }
    (text, blocks)
}

fn next_permutation(items: &mut [u8]) {
    let Some(i) = (0..items.len() - 1)
        .rev()
        .find(|&i| items[i] < items[i + 1])
    else {
        items.reverse();
        return;
    };
    let j = (i + 1..items.len())
        .rev()
        .find(|&j| items[j] > items[i])
        .unwrap();
    items.swap(i, j);
    items[i + 1..].reverse();
}

#[test]
fn check_of_an_endless_stream_keeps_its_keys_within_the_budget() {
    // More than a piece, so that the first piece's keys are written out before the repeat is read.
    let grids = PIECE / 163 + 12_000;
    let (mut text, blocks) = distinct_grids(grids);
    text.push(b'\n');
    text.extend_from_slice(blocks[1].as_bytes());
    let tmp = tempfile::tempdir().unwrap();
    let mut child = spawn_check(
        &["--check", "-"],
        &[
            ("SUDOKU_GEN_CHECK_MEMORY", std::path::Path::new("1M")),
            ("TMPDIR", tmp.path()),
        ],
    );
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&text));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    // The report goes to standard output.
    let report = String::from_utf8_lossy(&output.stdout);
    let repeat_line = grids * 10 + 1;
    assert!(
        report.contains(&format!(
            "<stdin>:{repeat_line}: grid {}: repeats grid 2 (line 11)",
            grids + 1
        )),
        "{report}"
    );
    assert_eq!(output.status.code(), Some(1));
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

const PUZZLE: &str =
    "004300209005009001070060043006002087190007400050083000600000105003508690042910300";
const SOLUTION: &str =
    "864371259325849761971265843436192587198657432257483916689734125713528694542916378";

/// The peak resident memory of `sudoku-gen ARGS` in KiB, polled while it runs.
fn peak_kib(args: &[&str]) -> u64 {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-gen"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if let Ok(status) = std::fs::read_to_string(&status_file)
            && let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:"))
        {
            let kib = line.split_whitespace().nth(1).unwrap().parse().unwrap();
            peak = peak.max(kib);
        }
        assert!(start.elapsed() < Duration::from_secs(20), "too slow");
        std::thread::sleep(Duration::from_millis(5));
    }
    peak
}

#[test]
fn csv_note_across_a_piece_boundary_keeps_the_memory_of_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let row = format!("{PUZZLE},{SOLUTION},\n");
    let rows = (PIECE + (8 << 20)) / row.len();
    let note_at = (PIECE - 4096) / row.len();
    let note: String = (0..1000).map(|k| format!("note line {k}\n")).collect();
    let mut plain = String::from("puzzle,solution,note\n");
    let mut noted = plain.clone();
    for k in 0..rows {
        plain.push_str(&row);
        if k == note_at {
            noted.push_str(&format!("{PUZZLE},{SOLUTION},\"{note}\"\n"));
        } else {
            noted.push_str(&row);
        }
    }
    let (plain_path, noted_path) = (tmp.path().join("plain.csv"), tmp.path().join("noted.csv"));
    std::fs::write(&plain_path, plain).unwrap();
    std::fs::write(&noted_path, noted).unwrap();
    let plain = peak_kib(&["--check", plain_path.to_str().unwrap()]);
    let noted = peak_kib(&["--check", noted_path.to_str().unwrap()]);
    // The rows after the note once took its size each: hundreds of megabytes more.
    assert!(
        noted < plain + 64 * 1024,
        "peak {noted} KiB with the note, {plain} KiB without"
    );
}

#[test]
fn check_of_another_shape_streams_and_spills_its_keys_past_the_budget() {
    // --check of other shapes read its input whole (a 257 MB 16×16 file peaked at 601 MB); it now
    // reads a piece at a time, with the 9×9 checker's budget for the keys of the repeats search.
    let grids = crate::common::sudoku_gen()
        .args([
            "-c", "3000", "--size", "16", "--format", "line", "--seed", "5",
        ])
        .output()
        .unwrap()
        .stdout;
    let first = grids
        .split_inclusive(|&b| b == b'\n')
        .next()
        .unwrap()
        .to_vec();
    let text = [grids, first].concat();
    let out = crate::common::sudoku_gen()
        .args(["--check", "-"])
        .env("SUDOKU_GEN_CHECK_MEMORY", "16K")
        .write_stdin(text)
        .output()
        .unwrap();
    let printed = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{printed}");
    assert!(
        printed.contains("<stdin>:3001: grid 3001: repeats grid 1 (line 1)"),
        "{printed}"
    );
    assert!(
        printed.contains("FAIL: 1 problem in 3001 grids"),
        "{printed}"
    );
}
