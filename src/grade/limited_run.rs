//! Running a program that is not trusted to behave: in a folder of its own, in a process group of
//! its own, with a wall-clock limit and a cap on what it writes.
//!
//! # Representation
//! A run is one child process, the leader of a new process group, so that whatever it starts can
//! be killed with it (`killpg`). A waiting thread reaps it and reports the exit status on a
//! channel, which lets the caller wait with a time limit and no polling. Standard output is read
//! by a second thread into memory up to the cap; files are capped by the kernel (`RLIMIT_FSIZE`: a
//! write past the cap raises `SIGXFSZ`), so neither can fill the disk or the memory.
//!
//! This is not a sandbox: the program runs as the grader's user and sees the whole file system.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time, after which the whole process group is killed.
    pub wall: Duration,
    /// Bytes the program may write to standard output, and to any one file.
    pub output_cap: u64,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It exited by itself with this code.
    Exited(i32),
    /// A signal killed it (not the grader's).
    Signaled(i32),
    /// It ran past the wall-clock limit, and its process group was killed.
    TimedOut(Duration),
    /// It wrote more than the cap, on standard output or to a file, and was cut off.
    OverCap(u64),
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Ending::Exited(code) => write!(f, "exited with code {code}"),
            Ending::Signaled(signal) => write!(f, "killed by signal {}", signal_name(signal)),
            Ending::TimedOut(limit) => write!(
                f,
                "timed out after {} s (its process group was killed)",
                limit.as_secs_f64()
            ),
            Ending::OverCap(cap) => write!(f, "wrote more than {cap} bytes (cut off)"),
        }
    }
}

/// The result of a run.
#[derive(Debug)]
pub struct Run {
    /// How it ended.
    pub ending: Ending,
    /// Wall-clock time from start to end.
    pub elapsed: Duration,
    /// What it wrote on standard output, up to the cap.
    pub stdout: Vec<u8>,
}

/// The conventional name of a signal (`SIGSEGV`), or its number.
pub fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return format!("{signal}"),
    };
    name.to_owned()
}

/// Runs `program` with `args` in `folder`, within `limits`; standard input is empty and standard
/// error is discarded. An error is returned only when the program cannot be started.
pub(crate) fn run_limited(
    program: &Path,
    args: &[String],
    folder: &Path,
    limits: Limits,
) -> io::Result<Run> {
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(folder)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0);
    let cap = limits.output_cap;
    let file_cap = cap.saturating_add(1);
    // SAFETY: setrlimit is async-signal-safe and touches nothing of the parent's.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: file_cap,
                rlim_max: file_cap,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    // The program's own copy may be larger than the cap: only files that grew past it count.
    let large_before = files_over(folder, cap);
    let started = Instant::now();
    let mut child = spawn(&mut command)?;
    let group = child.id() as libc::pid_t;
    let kill_group = move || {
        // SAFETY: a plain system call on the group this run created.
        unsafe { libc::killpg(group, libc::SIGKILL) };
    };

    let mut stdout = child.stdout.take().expect("stdout is piped");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = (&mut stdout).take(cap + 1).read_to_end(&mut bytes);
        if bytes.len() as u64 > cap {
            // It would block on a full pipe until the time limit otherwise.
            kill_group();
        }
        bytes
    });
    let (sender, ended) = mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let status = child.wait();
        let _ = sender.send((status, Instant::now()));
    });

    let (status, finished, timed_out) = match ended.recv_timeout(limits.wall) {
        Ok((status, at)) => (status, at, false),
        Err(_) => {
            kill_group();
            let (status, at) = ended.recv().expect("the waiting thread reports");
            (status, at, true)
        }
    };
    // Whatever the program left running goes with it, and lets go of its standard output.
    kill_group();
    let _ = waiter.join();
    let mut stdout = reader.join().expect("the reading thread does not panic");
    let status = status?;
    let elapsed = finished - started;

    let ending = if timed_out {
        Ending::TimedOut(limits.wall)
    } else if stdout.len() as u64 > cap
        || status.signal() == Some(libc::SIGXFSZ)
        || files_over(folder, cap)
            .iter()
            .any(|file| !large_before.contains(file))
    {
        Ending::OverCap(cap)
    } else if let Some(signal) = status.signal() {
        Ending::Signaled(signal)
    } else {
        Ending::Exited(status.code().unwrap_or(-1))
    };
    stdout.truncate(cap as usize);
    Ok(Run {
        ending,
        elapsed,
        stdout,
    })
}

/// The files of `folder` larger than `cap`, with their sizes.
fn files_over(folder: &Path, cap: u64) -> Vec<(OsString, u64)> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let metadata = entry.metadata().ok()?;
            (metadata.is_file() && metadata.len() > cap)
                .then(|| (entry.file_name(), metadata.len()))
        })
        .collect()
}

/// Starts the command. A program just copied can be briefly "busy" while another thread's child,
/// forked during the copy, still holds the file open for writing; such a start is tried again.
fn spawn(command: &mut Command) -> io::Result<std::process::Child> {
    let mut tries = 0;
    loop {
        match command.spawn() {
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && tries < 50 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(10));
            }
            result => return result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, limits: Limits) -> Run {
        let folder = tempfile::tempdir().unwrap();
        run_limited(
            Path::new("/bin/sh"),
            &["-c".to_owned(), script.to_owned()],
            folder.path(),
            limits,
        )
        .unwrap()
    }

    const ROOMY: Limits = Limits {
        wall: Duration::from_secs(10),
        output_cap: 1 << 20,
    };

    #[test]
    fn exit_codes_and_output_are_kept() {
        let run = sh("echo hello; exit 3", ROOMY);
        assert_eq!(run.ending, Ending::Exited(3));
        assert_eq!(run.stdout, b"hello\n");
    }

    #[test]
    fn signals_are_named() {
        let run = sh("kill -SEGV $$", ROOMY);
        assert_eq!(run.ending, Ending::Signaled(libc::SIGSEGV));
        assert_eq!(run.ending.to_string(), "killed by signal SIGSEGV");
    }

    #[test]
    fn a_hanging_group_is_killed_at_the_limit() {
        let limits = Limits {
            wall: Duration::from_millis(300),
            ..ROOMY
        };
        // The grandchild keeps standard output open: only killing the group ends the read.
        let run = sh("sleep 30 & sleep 30; echo never", limits);
        assert_eq!(run.ending, Ending::TimedOut(limits.wall));
        assert!(run.elapsed < Duration::from_secs(5), "{:?}", run.elapsed);
        assert!(run.stdout.is_empty());
    }

    #[test]
    fn output_over_the_cap_is_cut_off() {
        let limits = Limits {
            output_cap: 1000,
            ..ROOMY
        };
        let run = sh("head -c 5000 /dev/zero", limits);
        assert_eq!(run.ending, Ending::OverCap(1000));
        assert_eq!(run.stdout.len(), 1000);
        let run = sh("head -c 5000 /dev/zero > big", limits);
        assert_eq!(run.ending, Ending::OverCap(1000));
    }

    #[test]
    fn files_larger_than_the_cap_before_the_run_do_not_count() {
        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join("program"), vec![b'x'; 5000]).unwrap();
        let limits = Limits {
            output_cap: 1000,
            ..ROOMY
        };
        let script = ["-c".to_owned(), "echo done > sudoku.txt".to_owned()];
        let run = run_limited(Path::new("/bin/sh"), &script, folder.path(), limits).unwrap();
        assert_eq!(run.ending, Ending::Exited(0));
    }
}
