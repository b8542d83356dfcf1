//! Running a program that is not trusted to behave: in a folder of its own, in a process group of
//! its own, with a wall-clock limit and a cap on what it writes.
//!
//! # Representation
//! A run is one child process, the leader of a new process group, so that whatever it starts can
//! be killed with it (`killpg`). A waiting thread reaps it, then closes a pipe of its own: one
//! `poll` on that pipe and on the program's standard output, with the time left as its timeout,
//! waits for whichever comes first of the program's exit, its output, and the time limit.
//! Standard output is read into memory up to the cap; files are capped by the kernel
//! (`RLIMIT_FSIZE`: a write past the cap raises `SIGXFSZ`), so neither can fill the disk or the
//! memory.
//!
//! The run ends with its program, or at the limit, never with its standard output: a process that
//! left the group (`setsid`) can hold that pipe open as long as it lives. When the program is
//! done, its group is killed, and so is any process that left the group but still works in the
//! case's folder, holds the pipe, carries the case's mark in its environment, or descends from
//! the program (`strays.rs`); the pipe is then read for a moment longer, for what the killed left
//! in it, and let go of if something unknown still holds it.
//!
//! This is not a sandbox: the program runs as the grader's user and sees the whole file system.
//!
//! Each case runs in a fresh temporary folder (under `TMPDIR`) that holds a copy of the program and
//! the case's input, nothing else, with standard input empty and standard error discarded. The
//! program can read and write whatever the grader's user can, and can reach the network. To grade
//! programs you do not trust, run the grader in a throw-away container or as a user that owns
//! nothing else, for example:
//!
//! ```sh
//! docker run --rm --network none -v "$PWD:/g" -w /g debian:stable ./sudoku-gen --grade submissions/ -o scores.csv
//! sudo -u grader sudoku-gen --grade /home/grader/submissions -o /home/grader/scores.csv
//! ```
//!
//! The large outputs of a plan (`-c 1000000` is written once checked and three times timed for each
//! side) land in those folders: set `TMPDIR` to a tmpfs to keep them off the disk.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Read};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::grade::live::{self, Group};
use crate::grade::strays::{Claimant, adopt_orphans, mark, pipe_inode, running_in};

/// How often a running program's children are noted.
const NOTE_EVERY: Duration = Duration::from_millis(20);

/// How long the pipe is still read once everything that could hold it was killed: the dying let
/// go of it at once, so only what is out of reach keeps it open that long.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

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
    /// What it left running outside its process group.
    pub strays: Strays,
}

/// What a run left running once it was over, in its process group after the program's exit or
/// outside it: a fault of the program whatever its ending, since such a process can change the
/// output after it was read, or work on while later runs are timed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strays {
    /// Processes found (in the group after the program's exit; outside it, in the case's folder,
    /// holding the run's standard output, carrying the case's mark, or left below the program)
    /// and killed.
    pub killed: usize,
    /// Whether something not found held its standard output open even then; the grader stopped
    /// reading it.
    pub held_output: bool,
}

impl Strays {
    /// Whether it left anything.
    pub fn any(&self) -> bool {
        self.killed > 0 || self.held_output
    }
}

impl fmt::Display for Strays {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let held = "holding its standard output open (not found, so not killed; no longer read)";
        match (self.killed, self.held_output) {
            (0, false) => Ok(()),
            (0, true) => write!(f, "left a process outside its process group {held}"),
            (killed, held_output) => {
                match killed {
                    1 => write!(f, "left a process")?,
                    n => write!(f, "left {n} processes")?,
                }
                write!(f, " running (killed)")?;
                if held_output {
                    write!(f, ", and another {held}")?;
                }
                Ok(())
            }
        }
    }
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
        .stderr(Stdio::null());
    mark(&mut command, folder);
    let cap = limits.output_cap;
    let file_cap = cap.saturating_add(1);
    #[cfg(target_os = "linux")]
    // SAFETY: getpid is async-signal-safe.
    let grader = unsafe { libc::getpid() };
    // SAFETY: setrlimit, signal, prctl, getppid and setsid are async-signal-safe and touch nothing of the
    // parent's.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: file_cap,
                rlim_max: file_cap,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(io::Error::last_os_error());
            }
            // An ignored signal stays ignored across exec, and the grader may ignore this one:
            // the cap must end the program, not turn into write errors it can carry on past.
            libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
            // A grader killed outright (SIGKILL) runs no clean-up: the kernel then kills the
            // program, if the grader was not gone already by this point.
            #[cfg(target_os = "linux")]
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 || libc::getppid() != grader
            {
                return Err(io::Error::other("the grader is ending"));
            }
            // A session of its own, which no process of another program can join; what the
            // program starts stays below it, however it leaves (`strays.rs`).
            if libc::setsid() < 0 {
                return Err(io::Error::last_os_error());
            }
            adopt_orphans();
            Ok(())
        });
    }
    // The program's own copy may be larger than the cap: only files that grew past it count.
    let large_before = files_over(folder, cap);
    // Both ends are closed on exec: no program holds the end that signals the exit.
    let (exit_signal, exit_sender) = io::pipe()?;
    let started = Instant::now();
    let (mut child, group) = spawn(&mut command)?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let pipe = pipe_inode(&stdout);
    let claimant = Claimant::new(group.id(), folder);
    let (sender, ended) = mpsc::channel();
    let claims = claimant.clone();
    let waiter = std::thread::spawn(move || {
        let status = child.wait();
        let finished = Instant::now();
        // At once: the program's end has just handed what it leaves to the grader.
        let adopted = live::claim_adopted(Some(&claims));
        let _ = sender.send((status, finished, adopted));
        drop(exit_sender);
    });

    let mut output = Output {
        pipe: Some(stdout),
        bytes: Vec::new(),
        cap,
    };
    let deadline = started.checked_add(limits.wall);
    let exited = output.read_until_exit(&exit_signal, deadline, &group);
    // At the limit the group is killed for its time; after the program's exit, what it left
    // running there is a fault, as a stray is.
    let mut left = match exited {
        true => running_in(group.id()),
        false => Default::default(),
    };
    group.kill();
    let (status, finished, adopted) = ended.recv().expect("the waiting thread reports");
    let _ = waiter.join();
    left.extend(adopted);
    // The group's end hands over what its processes started: claimed once they are dead.
    let dead = Instant::now() + Duration::from_secs(1);
    while !running_in(group.id()).is_empty() && Instant::now() < dead {
        std::thread::sleep(Duration::from_millis(1));
    }
    left.extend(live::claim_adopted(Some(&claimant)));
    left.extend(live::kill_strays(folder, pipe, group.id()));
    let killed = left.len();
    drop(group);
    output.drain(Instant::now() + DRAIN_GRACE);
    let strays = Strays {
        killed,
        held_output: output.pipe.is_some(),
    };
    let status = status?;
    let elapsed = finished - started;

    let mut stdout = output.bytes;
    let ending = if !exited {
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
        strays,
    })
}

/// A run's standard output, read as it comes, up to one byte past the cap.
struct Output {
    /// The pipe, until its end, the cap, or the grader lets go of it.
    pipe: Option<ChildStdout>,
    bytes: Vec<u8>,
    cap: u64,
}

impl Output {
    /// Reads until the program exits (`exit_signal` closes: true) or `deadline` passes (false).
    /// Past the cap it kills `group`, which would block on a full pipe otherwise.
    fn read_until_exit(
        &mut self,
        exit_signal: &impl AsRawFd,
        deadline: Option<Instant>,
        group: &Group,
    ) -> bool {
        // The program's children are noted as it runs, soon after its start and then now and
        // then, so that what its end hands the grader is known as its (`strays.rs`).
        let mut wait = Duration::from_millis(1);
        let mut note = Instant::now() + wait;
        loop {
            let wake = deadline.map_or(note, |deadline| deadline.min(note));
            let ready = wait_for(Some(exit_signal), self.pipe.as_ref(), Some(wake));
            if Instant::now() >= note {
                live::note_children(group.id());
                wait = (2 * wait).min(NOTE_EVERY);
                note = Instant::now() + wait;
            }
            let (exited, readable) = match ready {
                Some(ready) => ready,
                None if deadline.is_some_and(|deadline| Instant::now() >= deadline) => {
                    return false;
                }
                None => continue,
            };
            if readable {
                self.read_some();
                if self.bytes.len() as u64 > self.cap {
                    group.kill();
                }
            }
            if exited {
                return true;
            }
        }
    }

    /// Reads what is left in the pipe until its end, or until `deadline`, then lets go of it.
    fn drain(&mut self, deadline: Instant) {
        while self.pipe.is_some() {
            match wait_for(None::<&ChildStdout>, self.pipe.as_ref(), Some(deadline)) {
                Some((_, true)) => self.read_some(),
                Some(_) => {}
                None => return,
            }
        }
    }

    /// One read of a pipe that `poll` found ready, which therefore does not block.
    fn read_some(&mut self) {
        let Some(pipe) = &mut self.pipe else {
            return;
        };
        let mut chunk = [0; 1 << 16];
        match pipe.read(&mut chunk) {
            Ok(0) => self.pipe = None,
            Ok(n) => {
                let room = self
                    .cap
                    .saturating_add(1)
                    .saturating_sub(self.bytes.len() as u64);
                self.bytes.extend_from_slice(&chunk[..n.min(room as usize)]);
                if self.bytes.len() as u64 > self.cap {
                    // Closed, so that a writer gets EPIPE instead of blocking.
                    self.pipe = None;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => self.pipe = None,
        }
    }
}

/// Waits until `exit` or `pipe` is ready (closed, or with data), or `deadline` passes (`None`).
/// Returns whether each is ready.
fn wait_for(
    exit: Option<&impl AsRawFd>,
    pipe: Option<&impl AsRawFd>,
    deadline: Option<Instant>,
) -> Option<(bool, bool)> {
    let watch = |fd: Option<i32>| libc::pollfd {
        fd: fd.unwrap_or(-1),
        events: libc::POLLIN,
        revents: 0,
    };
    let mut fds = [
        watch(exit.map(|f| f.as_raw_fd())),
        watch(pipe.map(|f| f.as_raw_fd())),
    ];
    loop {
        let timeout = match deadline {
            None => -1,
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return None;
                }
                // Rounded up, so that the limit is not missed by a fraction of a millisecond.
                (left.as_micros().div_ceil(1000)).min(i32::MAX as u128) as i32
            }
        };
        // SAFETY: two valid pollfd structures; a negative fd is skipped by poll.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, timeout) };
        if ready > 0 {
            return Some((fds[0].revents != 0, fds[1].revents != 0));
        }
        // Interrupted by a signal, or timed out: the deadline is checked again. Anything else
        // would fail again at once, and ends the wait (the caller looks at its limit).
        if ready < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return None;
        }
    }
}

/// Starts the command. A program just copied can be briefly "busy" while another thread's child,
/// forked during the copy, still holds the file open for writing; such a start is tried again.
fn spawn(command: &mut Command) -> io::Result<(std::process::Child, Group)> {
    let mut tries = 0;
    loop {
        match live::spawn(command) {
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && tries < 50 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(10));
            }
            result => return result,
        }
    }
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
    fn a_process_that_left_the_group_does_not_hold_the_run() {
        // It holds standard output open for 30 s; the run waits for its program alone.
        let started = Instant::now();
        let run = sh(
            "setsid sh -c 'echo > ready; exec sleep 30' &\n\
             while [ ! -s ready ]; do sleep 0.05; done\n\
             echo done",
            ROOMY,
        );
        assert!(
            started.elapsed() < Duration::from_secs(8),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(run.ending, Ending::Exited(0));
        assert_eq!(run.stdout, b"done\n");
        assert_eq!(
            run.strays,
            Strays {
                killed: 1,
                held_output: false
            }
        );
        assert_eq!(run.strays.to_string(), "left a process running (killed)");
    }

    #[test]
    fn what_the_group_left_running_counts_as_a_stray() {
        let run = sh("sleep 30 & echo done", ROOMY);
        assert_eq!(run.ending, Ending::Exited(0));
        assert_eq!(run.stdout, b"done\n");
        assert_eq!(run.strays.killed, 1);
        // What it waited for is no stray.
        assert!(!sh("sleep 0.1 & wait; echo done", ROOMY).strays.any());
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
