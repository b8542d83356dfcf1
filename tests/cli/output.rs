//! `-o FILE` end to end: a file is replaced only by a complete output, keeps its mode and owner,
//! and nothing is left behind, whether the run succeeds, fails, or is stopped by a signal.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::sudoku_gen;
use predicates::prelude::*;

fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("sudoku-gen")
}

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}.txt", env!("CARGO_MANIFEST_DIR"))
}

/// The standard output of a run to standard output.
fn output_of(args: &[&str]) -> Vec<u8> {
    sudoku_gen().args(args).output().unwrap().stdout
}

/// The temporary files a run left in `folder`.
pub(crate) fn leftovers(folder: &Path) -> Vec<String> {
    fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".sudoku-gen-"))
        .collect()
}

/// A shell command line that runs the binary with `args` after `setup` (`ulimit -c 0`, say):
/// `sh -c 'SETUP; exec "$0" "$@"' BINARY ARGS...`, so that the binary keeps the shell's process.
fn through_shell(setup: &str, args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("{setup}; exec \"$0\" \"$@\""))
        .arg(binary())
        .args(args);
    command
}

const SIGNALS: [(i32, &str); 5] = [
    (libc::SIGINT, "SIGINT"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGHUP, "SIGHUP"),
    (libc::SIGQUIT, "SIGQUIT"),
    (libc::SIGABRT, "SIGABRT"),
];

/// A file of `count` puzzles in the line format, long enough for a run to be stopped midway.
fn big_puzzle_file(folder: &Path, count: usize) -> PathBuf {
    let sample = fs::read_to_string(data("sample_17_clue")).unwrap();
    let lines: Vec<&str> = sample.lines().filter(|line| line.len() == 81).collect();
    let mut text = String::with_capacity(count * 82);
    for line in lines.iter().cycle().take(count) {
        text.push_str(line);
        text.push('\n');
    }
    let path = folder.join("big.txt");
    fs::write(&path, text).unwrap();
    path
}

/// Starts `args` with `-o out.txt` in `folder`, waits until its temporary file exists (or the
/// run ends), waits `delay` more, and sends `signal`. Returns whether the signal ended the run;
/// either way, `out.txt` must be its old self or complete (`complete_len` bytes), and no
/// temporary file may be left.
pub(crate) fn stop_a_run(
    folder: &Path,
    args: &[&str],
    signal: i32,
    delay: Duration,
    complete_len: u64,
) -> bool {
    let out = folder.join("out.txt");
    fs::write(&out, "old").unwrap();
    // No core file for SIGQUIT: the test looks at the folder, not at the process's memory.
    let mut child = through_shell("ulimit -c 0", args)
        .args(["-o", "out.txt"])
        .current_dir(folder)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while leftovers(folder).is_empty()
        && child.try_wait().unwrap().is_none()
        && started.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    std::thread::sleep(delay);
    // SAFETY: a signal to our own child, which has not been waited for, so its pid is its own.
    unsafe { libc::kill(child.id() as i32, signal) };
    let status = child.wait().unwrap();
    let stopped = status.signal() == Some(signal);
    assert!(stopped || status.success(), "{args:?}: {status:?}");
    assert_eq!(
        leftovers(folder),
        Vec::<String>::new(),
        "{args:?} after {delay:?}"
    );
    let len = fs::metadata(&out).unwrap().len();
    assert!(
        fs::read(&out).unwrap() == b"old" || len == complete_len,
        "{args:?}: out.txt is neither the old file nor complete ({len} bytes)"
    );
    stopped
}

#[test]
fn a_run_stopped_by_a_signal_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = 400_000;
    let big = big_puzzle_file(dir.path(), puzzles);
    let big = big.to_str().unwrap();
    let runs: [(&[&str], u64); 2] = [
        (&["-c", "1000000"], 163 * 1_000_000 - 1),
        (&["-s", big], 82 * puzzles as u64),
    ];
    for (signal, signal_name) in SIGNALS {
        for (args, complete_len) in runs {
            let mut stopped = 0;
            for delay in [0, 40] {
                let delay = Duration::from_millis(delay);
                stopped += usize::from(stop_a_run(dir.path(), args, signal, delay, complete_len));
            }
            assert!(
                stopped > 0,
                "{signal_name} {args:?}: no run was stopped midway"
            );
        }
    }
}

#[test]
fn a_write_error_leaves_the_file_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("out.txt"), "old").unwrap();
    // A file size limit of 64 blocks of 512 bytes: the 163 kB of output cannot be written.
    let run = through_shell("ulimit -f 64", &["-c", "1000", "-o", "out.txt"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{:?}", run.status);
    assert_eq!(
        String::from_utf8(run.stderr).unwrap(),
        "sudoku-gen: error: out.txt: File too large\n"
    );
    assert_eq!(fs::read(dir.path().join("out.txt")).unwrap(), b"old");
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

#[test]
fn a_replaced_file_keeps_its_permission_bits() {
    let dir = tempfile::tempdir().unwrap();
    for mode in [0o640, 0o755, 0o600] {
        let path = dir.path().join(format!("out-{mode:o}.txt"));
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        sudoku_gen()
            .args(["-c", "1", "-o"])
            .arg(&path)
            .assert()
            .success();
        assert_eq!(fs::metadata(&path).unwrap().mode() & 0o7777, mode);
        assert_ne!(fs::read(&path).unwrap(), b"old");
    }
}

fn running_as_root() -> bool {
    // SAFETY: geteuid only reads the process's credentials.
    unsafe { libc::geteuid() == 0 }
}

/// The uid and gid of `nobody`, as `id` prints them.
fn nobody() -> (u32, u32) {
    let id = |flag: &str| {
        let out = Command::new("id").args([flag, "nobody"]).output().ok()?;
        String::from_utf8(out.stdout).ok()?.trim().parse().ok()
    };
    let ids = id("-u").zip(id("-g"));
    ids.expect(
        "as root, the tests give files to the user `nobody` and run as it: `id nobody` fails",
    )
}

#[test]
#[ignore = "needs root, to give a file to another user (run as root with --ignored)"]
fn a_replaced_file_keeps_its_owner_where_root_may_set_it() {
    assert!(
        running_as_root(),
        "only root may give a file to another user"
    );
    let (uid, gid) = nobody();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("theirs.txt");
    fs::write(&path, "old").unwrap();
    std::os::unix::fs::chown(&path, Some(uid), Some(gid)).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    sudoku_gen()
        .args(["-c", "1", "-o"])
        .arg(&path)
        .assert()
        .success();
    let metadata = fs::metadata(&path).unwrap();
    assert_eq!((metadata.uid(), metadata.gid()), (uid, gid));
    assert_eq!(metadata.mode() & 0o7777, 0o640);
}

/// The binary run as a user without privileges, on files of `folder` (one that anyone may enter):
/// as the current user when the tests do not run as root, else as `nobody` through `setpriv`.
/// Panics when root cannot run it so.
fn unprivileged(folder: &Path) -> Command {
    if !running_as_root() {
        return Command::new(binary());
    }
    let (uid, gid) = nobody();
    let as_nobody = |program: &Path| {
        let mut command = Command::new("setpriv");
        command
            .arg(format!("--reuid={uid}"))
            .arg(format!("--regid={gid}"))
            .arg("--clear-groups")
            .arg(program);
        command
    };
    let runs = |program: &Path| {
        let out = as_nobody(program).arg("--version").output();
        out.is_ok_and(|out| out.status.success())
    };
    if runs(&binary()) {
        return as_nobody(&binary());
    }
    // The built binary may lie in a home that `nobody` cannot enter: a copy in `folder`, then. A
    // child that another test starts while the copy is written holds it open for a moment, so that
    // running the copy may fail as busy (ETXTBSY) at first.
    let copy = folder.join("sudoku-gen");
    if !copy.exists() {
        fs::copy(binary(), &copy).unwrap();
    }
    let ran = (0..100).any(|_| {
        runs(&copy) || {
            std::thread::sleep(Duration::from_millis(20));
            false
        }
    });
    assert!(
        ran,
        "as root, the tests run the binary as `nobody` through `setpriv` (util-linux), which fails"
    );
    as_nobody(&copy)
}

/// A folder that anyone may write in, as `/tmp` (without its sticky bit).
fn shared_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
    dir
}

#[test]
fn a_file_the_user_may_not_write_is_refused() {
    let dir = shared_folder();
    let mut run = unprivileged(dir.path());
    let read_only = dir.path().join("read-only.txt");
    fs::write(&read_only, "old").unwrap();
    let mut cases = vec![read_only.clone()];
    if running_as_root() {
        // Written by root, so another user's file to the unprivileged run.
        let theirs = dir.path().join("theirs.txt");
        fs::write(&theirs, "old").unwrap();
        fs::set_permissions(&theirs, fs::Permissions::from_mode(0o644)).unwrap();
        cases.push(theirs);
        let (uid, gid) = nobody();
        std::os::unix::fs::chown(&read_only, Some(uid), Some(gid)).unwrap();
    }
    fs::set_permissions(&read_only, fs::Permissions::from_mode(0o444)).unwrap();
    for path in cases {
        let before = fs::metadata(&path).unwrap();
        let out = run.args(["-c", "1", "-o"]).arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", path.display());
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!("sudoku-gen: error: {}: Permission denied\n", path.display())
        );
        let after = fs::metadata(&path).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!((after.ino(), after.uid()), (before.ino(), before.uid()));
        run = unprivileged(dir.path());
    }
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

#[test]
fn a_folder_the_user_may_not_write_in_is_named_as_given() {
    let dir = shared_folder();
    let mut run = unprivileged(dir.path());
    let locked = dir.path().join("locked");
    fs::create_dir(&locked).unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o555)).unwrap();
    let out = run
        .args(["-c", "1", "-o", "locked/x.txt"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "sudoku-gen: error: locked/x.txt: Permission denied\n"
    );
    // Root writes in it all the same: this proves the run above was unprivileged.
    assert_eq!(fs::read_dir(&locked).unwrap().count(), 0);
}

#[test]
fn dev_stdout_is_written_through_after_what_the_shell_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let grid = output_of(&["-c", "1", "--seed", "5"]);
    let run = Command::new("sh")
        .arg("-c")
        .arg("(echo header; \"$0\" -c 1 --seed 5 -o /dev/stdout; echo footer) > g.txt")
        .arg(binary())
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(run.success());
    let expected = [&b"header\n"[..], &grid, b"footer\n"].concat();
    assert_eq!(fs::read(dir.path().join("g.txt")).unwrap(), expected);
}

#[test]
fn dev_stdout_appended_to_keeps_what_the_file_held() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.txt");
    fs::write(&log, "kept\n").unwrap();
    let append = fs::OpenOptions::new().append(true).open(&log).unwrap();
    let status = Command::new(binary())
        .args(["-c", "1", "--seed", "5", "-o", "/dev/stdout"])
        .stdout(append)
        .status()
        .unwrap();
    assert!(status.success());
    let grid = output_of(&["-c", "1", "--seed", "5"]);
    assert_eq!(fs::read(&log).unwrap(), [&b"kept\n"[..], &grid].concat());
}

#[test]
fn dev_stderr_and_proc_self_fd_are_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let grid = output_of(&["-c", "1", "--seed", "5"]);
    let errors = dir.path().join("errors.txt");
    fs::write(&errors, "").unwrap();
    let status = Command::new(binary())
        .args(["-c", "1", "--seed", "5", "-o", "/dev/stderr"])
        .stderr(fs::File::create(&errors).unwrap())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(fs::read(&errors).unwrap(), grid);
    fs::write(dir.path().join("three.txt"), "kept\n").unwrap();
    let status = through_shell("exec 3>>three.txt", &["-c", "1", "--seed", "5"])
        .args(["-o", "/proc/self/fd/3"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(
        fs::read(dir.path().join("three.txt")).unwrap(),
        [&b"kept\n"[..], &grid].concat()
    );
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

#[test]
fn dash_means_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    sudoku_gen()
        .args(["-c", "1", "--seed", "5", "-o", "-"])
        .current_dir(dir.path())
        .assert()
        .success()
        .stdout(predicate::eq(output_of(&["-c", "1", "--seed", "5"])));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_dangling_symbolic_link_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("missing.txt", dir.path().join("link.txt")).unwrap();
    sudoku_gen()
        .args(["-c", "1", "-o", "link.txt"])
        .current_dir(dir.path())
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "sudoku-gen: error: link.txt: a symbolic link to missing.txt, which does not \
             exist; create that file first, or remove the link\n",
        );
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
    assert!(
        fs::symlink_metadata(dir.path().join("link.txt"))
            .unwrap()
            .is_symlink()
    );
}

#[test]
fn messages_name_the_path_as_given() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("adir")).unwrap();
    std::os::unix::fs::symlink("/dev/full", dir.path().join("full.txt")).unwrap();
    for (path, message) in [
        ("nodir/x.txt", "No such file or directory"),
        ("newdir/", "Is a directory"),
        ("/", "Is a directory"),
        ("adir", "Is a directory"),
        ("full.txt", "No space left on device"),
    ] {
        sudoku_gen()
            .args(["-c", "10", "-o", path])
            .current_dir(dir.path())
            .assert()
            .code(1)
            .stdout("")
            .stderr(format!("sudoku-gen: error: {path}: {message}\n"));
    }
    assert_eq!(fs::read_dir(dir.path().join("adir")).unwrap().count(), 0);
    assert!(!dir.path().join("newdir").exists());
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

#[test]
fn an_unwritable_output_is_refused_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("adir")).unwrap();
    // The input is never read: the output is checked first.
    sudoku_gen()
        .args(["-s", "no-such-input.txt", "-o", "adir"])
        .current_dir(dir.path())
        .assert()
        .code(1)
        .stderr("sudoku-gen: error: adir: Is a directory\n");
    // Runs that would take minutes end at once.
    for args in [["-c", "1000000"], ["-n", "1000000"]] {
        sudoku_gen()
            .args(args)
            .args(["-o", "adir"])
            .current_dir(dir.path())
            .timeout(Duration::from_secs(60))
            .assert()
            .code(1)
            .stdout("")
            .stderr("sudoku-gen: error: adir: Is a directory\n");
    }
    assert_eq!(fs::read_dir(dir.path().join("adir")).unwrap().count(), 0);
}

/// One puzzle that no grid solves (two 1s in the first row), as a line.
const UNSOLVABLE: &str =
    "11...............................................................................\n";

#[test]
fn the_file_is_replaced_by_every_complete_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let unsolvable = dir.path().join("unsolvable.txt");
    let sample = data("sample_17_clue");
    fs::write(&unsolvable, [sample_text(), UNSOLVABLE.to_owned()].concat()).unwrap();
    let unsolvable = unsolvable.to_str().unwrap();
    for (args, code) in [
        (&["-c", "20", "--seed", "4"][..], 0),
        (&["-n", "5", "--seed", "4"], 0),
        (&["-s", &sample], 0),
        (&["--rate", &sample], 0),
        // A puzzle without a solution is written unsolved (rated `invalid`) among the others.
        (&["-s", unsolvable], 1),
        (&["--rate", unsolvable], 1),
    ] {
        fs::write(&out, "old").unwrap();
        sudoku_gen()
            .args(args)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(code)
            .stdout("");
        let expected = sudoku_gen().args(args).output().unwrap().stdout;
        assert_eq!(fs::read(&out).unwrap(), expected, "{args:?}");
    }
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

fn sample_text() -> String {
    fs::read_to_string(data("sample_17_clue")).unwrap()
}

#[test]
fn the_file_is_untouched_by_a_run_that_stops_before_a_complete_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let malformed = dir.path().join("malformed.txt");
    fs::write(&malformed, [sample_text(), "12x\n".to_owned()].concat()).unwrap();
    let malformed = malformed.to_str().unwrap();
    for (args, code) in [
        (&["-s", malformed][..], 1),
        (&["--rate", malformed], 1),
        (&["-s", "no-such-input.txt"], 1),
        (&["-n", "5", "-r", "0~3"], 2),
        (&["-c", "0"], 2),
    ] {
        fs::write(&out, "old").unwrap();
        sudoku_gen()
            .args(args)
            .arg("-o")
            .arg(&out)
            .current_dir(dir.path())
            .assert()
            .code(code)
            .stdout("");
        assert_eq!(fs::read(&out).unwrap(), b"old", "{args:?}");
    }
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

#[test]
#[ignore = "needs root, to make another user's file (run as root with --ignored)"]
fn another_users_file_in_a_sticky_folder_is_refused_before_the_work() {
    assert!(running_as_root(), "only root may make another user's file");
    let dir = shared_folder();
    let run = unprivileged(dir.path());
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o1777)).unwrap();
    // Anyone may write it, but the sticky bit lets only root, its owner, replace it.
    let theirs = dir.path().join("theirs.txt");
    fs::write(&theirs, "old").unwrap();
    fs::set_permissions(&theirs, fs::Permissions::from_mode(0o666)).unwrap();
    let out = assert_cmd::Command::from_std(run)
        .args(["-n", "1000000", "-o"])
        .arg(&theirs)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "sudoku-gen: error: {}: another user's file in a folder with the sticky bit (such \
             as /tmp) cannot be replaced\n",
            theirs.display()
        )
    );
    assert_eq!(fs::read(&theirs).unwrap(), b"old");
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}
