//! `sudoku-gen --grade` and the processes of a submission: grandchildren that leave the group,
//! the case's folder or its output, and gradings stopped by a signal or a parent's `timeout`.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::grade::{ONE_GRID, correct_run, grade_with, lines_of, names, write_script};

/// Whether process `pid` runs: a zombie, dead but not yet reaped, does not.
fn is_running(pid: i32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rfind(')')
        .and_then(|at| stat[at + 1..].split_whitespace().next());
    state.is_some_and(|state| !["Z", "X"].contains(&state))
}

/// Whether `done` comes true within `limit`, asked every 50 ms.
fn within(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while !done() {
        if started.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}

/// The process ids written in `file`, one a line.
fn pids_in(file: &Path) -> Vec<i32> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    text.lines()
        .filter_map(|line| line.trim().parse().ok())
        .collect()
}

/// Asserts that the one process id in `mark` ends within 5 s.
fn assert_ends(mark: &Path) {
    let pids = pids_in(mark);
    assert_eq!(pids.len(), 1, "{}", mark.display());
    assert!(within(Duration::from_secs(5), || !is_running(pids[0])));
}

/// Lines of script that start a process which leaves the process group (`setsid`), writes its id
/// to `mark`, then sleeps 30 s; the script goes on once the mark is written. The process drops
/// the variable that marks the case's processes, so that it is found by the ties a test leaves it
/// (its working folder, its standard output) alone.
fn detach(mark: &Path, redirect: &str) -> String {
    let mark = mark.display();
    format!(
        "env -u SUDOKU_GEN_GRADE_CASE setsid sh -c 'echo $$ > \"{mark}\"; exec sleep 30' {redirect} &\nwhile [ ! -s \"{mark}\" ]; do sleep 0.05; done\n"
    )
}

const KILLED: &str = "left a process running (killed)";

#[test]
fn grade_does_not_wait_on_a_detached_grandchild() {
    let folder = tempfile::tempdir().unwrap();
    let mark = folder.path().join("detached");
    let body = detach(&mark, "") + &correct_run().replace(") \"", ") exec \"");
    let program = write_script(folder.path(), "submission", &body);
    let started = Instant::now();
    let graded = grade_with(
        &[&program],
        &["--plan", ONE_GRID, "--timeout", "2", "--first", "5"],
    );
    // The grandchild holds the grader's end of standard output for 30 s.
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(graded.failed(1), names(&["c-1"]), "{}", graded.report);
    let line = graded.line_of("c-1");
    assert!(line.ends_with(&format!("exited, but {KILLED}")), "{line}");
    assert_ends(&mark);
}

#[test]
fn detached_grandchildren_are_killed_at_the_time_limit_and_without_the_output() {
    let folder = tempfile::tempdir().unwrap();
    let programs = folder.path().join("programs");
    std::fs::create_dir(&programs).unwrap();
    let hanging = folder.path().join("hanging");
    write_script(&programs, "a-hangs", &(detach(&hanging, "") + "sleep 60\n"));
    // Its standard output elsewhere, this one is found by its working folder.
    let quiet = folder.path().join("quiet");
    let body = detach(&quiet, ">/dev/null 2>&1") + &correct_run();
    write_script(&programs, "b-quiet", &body);
    let started = Instant::now();
    let graded = grade_with(
        &[&programs],
        &["--plan", ONE_GRID, "--timeout", "2", "--first", "5"],
    );
    assert!(
        started.elapsed() < Duration::from_secs(12),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(graded.failed(1), names(&["c-1"]), "{}", graded.report);
    assert_eq!(graded.failed(2), names(&["c-1"]), "{}", graded.report);
    let lines = lines_of(&graded, "c-1");
    let timed_out = "timed out after 2 s (its process group was killed)";
    assert!(
        lines[0].ends_with(&format!("{timed_out}, and {KILLED}")),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].ends_with(&format!("exited, but {KILLED}")),
        "{}",
        lines[1]
    );
    assert_ends(&hanging);
    assert_ends(&quiet);
}

#[test]
fn a_grandchild_that_left_the_case_folder_and_closed_its_output_ran_on() {
    // Out of the group, working in `/`, its files closed: only the environment it inherited
    // still ties it to the case.
    let folder = tempfile::tempdir().unwrap();
    let mark = folder.path().join("gone");
    let shown = mark.display();
    let body = format!(
        "setsid sh -c 'cd /; echo $$ > \"{shown}\"; exec sleep 30' </dev/null >/dev/null 2>&1 &\n\
         while [ ! -s \"{shown}\" ]; do sleep 0.05; done\n"
    ) + &correct_run();
    let program = write_script(folder.path(), "submission", &body);
    let graded = grade_with(
        &[&program],
        &["--plan", ONE_GRID, "--timeout", "2", "--first", "5"],
    );
    let line = graded.line_of("c-1");
    assert!(line.ends_with(&format!("exited, but {KILLED}")), "{line}");
    assert_ends(&mark);
}

#[test]
fn a_grandchild_that_cut_every_tie_escaped_the_grader() {
    // Out of the group and the case's folder, its files closed, its environment cleared: only
    // its descent ties it to its program. A correct program graded beside it, at the same time,
    // is not charged with it.
    let folder = tempfile::tempdir().unwrap();
    let mark = folder.path().join("gone");
    let shown = mark.display();
    let body = format!(
        "setsid sh -c 'cd /; echo $$ > \"{shown}\"; exec env -i sleep 30' </dev/null >/dev/null 2>&1 &\n\
         while [ ! -s \"{shown}\" ]; do sleep 0.05; done\n"
    ) + &correct_run();
    let programs = folder.path().join("programs");
    std::fs::create_dir(&programs).unwrap();
    write_script(&programs, "a-escapes", &body);
    write_script(&programs, "b-correct", &correct_run());
    let graded = grade_with(
        &[&programs],
        &[
            "--plan",
            ONE_GRID,
            "--timeout",
            "2",
            "--first",
            "5",
            "-j",
            "2",
        ],
    );
    assert_eq!(graded.failed(1), names(&["c-1"]), "{}", graded.report);
    assert!(graded.failed(2).is_empty(), "{}", graded.report);
    let lines = lines_of(&graded, "c-1");
    assert!(
        lines[0].ends_with(&format!("exited, but {KILLED}")),
        "{}",
        lines[0]
    );
    assert_ends(&mark);
}

/// A grader of a submission that writes its id and its child's to `pids` and waits 30 s for the
/// child, with its temporary folders in `tmp`.
fn grader_of_a_sleeper(folder: &Path, pids: &Path, tmp: &Path) -> std::process::Command {
    let pids = pids.display();
    let body = format!("echo $$ >> \"{pids}\"\nsleep 30 &\necho $! >> \"{pids}\"\nwait\n");
    let program = write_script(folder, "submission", &body);
    std::fs::create_dir(tmp).unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-gen"));
    command
        .arg("--grade")
        .arg(program)
        .args(["--plan", ONE_GRID])
        .env("TMPDIR", tmp);
    command.stdout(Stdio::null()).stderr(Stdio::null());
    command
}

/// What a stopped grading must leave: neither the submission nor its child running, and no case
/// folder in `tmp`.
fn assert_nothing_left(pids: &Path, tmp: &Path) {
    let pids = pids_in(pids);
    assert_eq!(pids.len(), 2, "the submission had not started");
    for pid in pids {
        assert!(
            within(Duration::from_secs(5), || !is_running(pid)),
            "{pid} runs on"
        );
    }
    let left: Vec<_> = std::fs::read_dir(tmp).unwrap().flatten().collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn an_interrupted_grading_kills_its_programs_and_removes_its_folders() {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    for (signal, sheet) in [
        (libc::SIGINT, false),
        (libc::SIGTERM, true),
        (libc::SIGHUP, false),
        (libc::SIGABRT, false),
        (libc::SIGABRT, true),
    ] {
        let folder = tempfile::tempdir().unwrap();
        let (pids, tmp) = (folder.path().join("pids"), folder.path().join("tmp"));
        let mut command = grader_of_a_sleeper(folder.path(), &pids, &tmp);
        // No core file for SIGABRT: the test looks at the folders, not at the grader's memory.
        // SAFETY: setrlimit is async-signal-safe, as a hook between fork and exec must be.
        unsafe {
            command.pre_exec(|| {
                let none = libc::rlimit {
                    rlim_cur: 0,
                    rlim_max: 0,
                };
                libc::setrlimit(libc::RLIMIT_CORE, &none);
                Ok(())
            });
        }
        if sheet {
            command.arg("-o").arg(folder.path().join("sheet.csv"));
        }
        let mut grader = command.spawn().unwrap();
        let started = within(Duration::from_secs(10), || pids_in(&pids).len() == 2);
        // SAFETY: a plain system call on the grader, a child of this test.
        unsafe { libc::kill(grader.id() as i32, signal) };
        assert!(started, "signal {signal}: the submission did not start");
        let ended = within(Duration::from_secs(10), || {
            grader.try_wait().unwrap().is_some()
        });
        if !ended {
            let _ = grader.kill();
        }
        let status = grader.wait().unwrap();
        assert!(ended, "signal {signal}: the grader runs on");
        assert_eq!(status.signal(), Some(signal), "{status:?}");
        assert_nothing_left(&pids, &tmp);
    }
}

#[test]
fn a_grading_stopped_by_timeout_leaves_nothing_running() {
    let folder = tempfile::tempdir().unwrap();
    let (pids, tmp) = (folder.path().join("pids"), folder.path().join("tmp"));
    let grader = grader_of_a_sleeper(folder.path(), &pids, &tmp);
    let mut command = std::process::Command::new("timeout");
    command
        .arg("5")
        .arg(grader.get_program())
        .args(grader.get_args())
        .env("TMPDIR", &tmp);
    let status = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(124), "{status:?}");
    assert_nothing_left(&pids, &tmp);
}
