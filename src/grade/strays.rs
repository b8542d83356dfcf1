//! Processes that a run left outside its process group: found by what still ties them to the run,
//! and killed.
//!
//! A program can leave its group (`setsid`, `setpgid`), and `killpg` then misses it. On Linux,
//! `/proc` shows three ties that such a process keeps unless it takes care to cut them: its
//! working folder (inside the case's), its open files (the run's standard output pipe), and its
//! environment, which carries the mark [`MARK`] naming the case's folder from the program down to
//! every process it starts (`cd /` and closed files cut the first two; only a cleared
//! environment cuts the third). A process with any tie is a stray unless it is in the run's group
//! (killed with it), is the grader, or is one of its programs (from the list of runs, held while
//! the processes are looked at: a program between its fork and its exec holds a copy of every
//! pipe the grader has open).
//!
//! A fourth tie is descent. Each program is the subreaper of what it starts, and the grader of
//! its programs (see [`adopt_orphans`]): a process whose parent ends stays below the program while
//! it runs, however far it went from the case, and becomes the grader's child when the program
//! ends. The children of each program are noted as it runs (at 1, 2, 4, ... ms, then every 20
//! ms), and those the grader adopts are that program's strays, whichever ties they cut; they are
//! claimed when the program's end is seen, and again once its group is dead, for what the group's
//! end handed over ([`claim_adopted`]). A child not noted (born and handed over between two
//! looks) is charged to the run whose mark it carries. One that cleared its environment is
//! charged to the run that claims it while no other program has ended, unless it is in another
//! run's group or started before its program; seen while another has ended, it is charged to no
//! run: a program that clears its environment and leaves its folder may then escape its charge
//! (graded one at a time, it never does), but no program is charged for another's. What is not
//! charged is killed when the grading ends.
//!
//! Each program leads a session of its own, so that no process of another can join its group.
//! This is not a sandbox (see `limited_run.rs`): a program can still clear its subreaper
//! attribute, or work in another case's folder, and so be charged to another run.
//!
//! Elsewhere than on Linux none is found: without `/proc` there are no processes to look at.

use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The environment variable that marks a case's processes; its value is the case's folder.
const MARK: &str = "SUDOKU_GEN_GRADE_CASE";

/// The group a known process is noted with when it is of no run that can be told.
const NO_RUN: libc::pid_t = 0;

/// Makes the calling process the subreaper of its descendants: one whose parent ends becomes its
/// child, not init's. Called by the grader, and by each program between its fork and its exec
/// (the attribute outlives an exec). Async-signal-safe; on other systems than Linux, a no-op.
pub(crate) fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    // SAFETY: a plain system call that sets an attribute of this process.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
    }
}

/// A run's program, as [`claim_adopted`] tells its strays from others'.
#[derive(Clone, Debug)]
pub(crate) struct Claimant {
    /// Its process id, which is its group's.
    group: libc::pid_t,
    /// When it started, in the clock ticks of `/proc` (0 where unknown).
    started: u64,
    /// The mark of its case (see [`marked`]).
    mark: Vec<u8>,
}

impl Claimant {
    /// The program of process id `pid`, just started in the case of `folder`.
    pub(crate) fn new(pid: libc::pid_t, folder: &Path) -> Claimant {
        Claimant {
            group: pid,
            started: stat_of(pid).map_or(0, |stat| stat.started),
            mark: marked(&resolved(folder)),
        }
    }
}

/// Kills the grader's children that are none of `programs` (the runs' programs, from a list the
/// caller holds, so that none is being started), and what they lead: those of `claimant`'s run
/// that left its group (those `known` to be its children, child to group, or of no run known
/// and not another's; see the module documentation), or all without a claimant. Returns those it
/// killed, and reaps them and those that ended before (killed with their group, or on their own).
pub(crate) fn claim_adopted(
    programs: &[libc::pid_t],
    known: &mut HashMap<libc::pid_t, libc::pid_t>,
    claimant: Option<&Claimant>,
) -> HashSet<libc::pid_t> {
    let grader = std::process::id() as libc::pid_t;
    let ended: HashSet<_> = processes()
        .filter(|(pid, stat)| stat.parent == grader && stat.ended && !programs.contains(pid))
        .map(|(pid, _)| pid)
        .collect();
    reap(&ended);
    let adopted = || {
        processes()
            .filter(move |(pid, stat)| {
                stat.parent == grader && !stat.ended && !programs.contains(pid)
            })
            .map(|(pid, _)| (pid, Path::new("/proc").join(pid.to_string())))
    };
    // One caught in an exec shows neither environment nor command line for a moment: its ties
    // are read once it shows them. Without a claimant every one is killed, ties or none.
    if claimant.is_some() {
        for _ in 0..20 {
            let caught = |(_, proc): (_, std::path::PathBuf)| {
                environment(&proc).is_some_and(|environ| in_exec(&environ, &proc))
            };
            if !adopted().any(caught) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
    // An orphan comes from a program that has ended (a running one adopts its own). Without a
    // mark it is this run's, unless another program has ended too, whose claim may not have come
    // yet: then it is no run's, better missed (the grading's end kills it) than charged to another.
    let others_ended = |run: &Claimant| {
        programs
            .iter()
            .any(|&p| p != run.group && stat_of(p).is_none_or(|stat| stat.ended))
    };
    let no_run = std::cell::RefCell::new(Vec::new());
    // What stayed in the run's group is the run's to judge (`running_in`) and kill: at the time
    // limit, it is no stray.
    let is_its = |pid: libc::pid_t, stat: &Stat| {
        claimant.is_none_or(|run| {
            stat.group != run.group
                && match known.get(&pid) {
                    Some(&group) => group == run.group,
                    // The mark it carries tells, unless it cleared its environment: another
                    // program's end may have handed it over just before this one's.
                    None => {
                        let proc = Path::new("/proc").join(pid.to_string());
                        match environment(&proc) {
                            Some(environ) if in_exec(&environ, &proc) => false,
                            Some(environ) => match case_mark(&environ) {
                                Some(mark) => mark == run.mark.as_slice(),
                                None if others_ended(run) => {
                                    no_run.borrow_mut().push(pid);
                                    false
                                }
                                None => {
                                    !programs.contains(&stat.group) && stat.started >= run.started
                                }
                            },
                            None => false,
                        }
                    }
                }
        })
    };
    let killed = kill_found(|| {
        processes()
            .filter(|&(pid, ref stat)| {
                stat.parent == grader
                    && !stat.ended
                    && !programs.contains(&pid)
                    && is_its(pid, stat)
            })
            .map(|(pid, stat)| (pid, stat.group))
            .collect()
    });
    reap(&killed);
    for pid in no_run.into_inner() {
        known.entry(pid).or_insert(NO_RUN);
    }
    killed
}

/// Kills the strays of a run: the processes working in `folder`, holding the pipe whose inode is
/// `pipe`, or carrying the mark of `folder`, outside `group`, other than `programs` (the runs'
/// programs, from a list the caller holds: a program between its fork and its exec holds a copy
/// of every pipe the grader has open). Returns those it killed.
pub(crate) fn kill_strays(
    folder: &Path,
    pipe: Option<u64>,
    group: Option<libc::pid_t>,
    programs: &[libc::pid_t],
) -> HashSet<libc::pid_t> {
    let folder = resolved(folder);
    let killed = kill_found(|| find(&folder, pipe, group, programs));
    reap(&killed);
    killed
}

/// The children of process `pid` (of each of its threads), as `/proc` lists them.
pub(crate) fn children_of(pid: libc::pid_t) -> Vec<libc::pid_t> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task"));
    tasks
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|list| {
            list.split_whitespace()
                .filter_map(|child| child.parse().ok())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Kills the processes `found` gives, each with what it leads. Returns those it killed.
fn kill_found(found: impl Fn() -> Vec<(libc::pid_t, libc::pid_t)>) -> HashSet<libc::pid_t> {
    let mut killed = HashSet::new();
    // A stray can start another between a look and the kill, and a killed one hands its children
    // over as it ends: look again, once the killed are dead, until no new one shows. A chain that
    // grows as fast as it is cut is given up on after a few seconds.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while std::time::Instant::now() < until {
        let found: Vec<_> = found()
            .into_iter()
            .filter(|(pid, _)| !killed.contains(pid))
            .collect();
        if found.is_empty() {
            break;
        }
        for (pid, its_group) in found {
            // SAFETY: plain system calls; the process is tied to a run, and so is a group it
            // leads, which it made by leaving the run's.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                if its_group == pid {
                    libc::killpg(pid, libc::SIGKILL);
                }
            }
            killed.insert(pid);
        }
        for _ in 0..100 {
            if killed
                .iter()
                .all(|&pid| stat_of(pid).is_none_or(|stat| stat.ended))
            {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
    killed
}

/// Reaps those of `ended` that are the grader's children (adopted), dead: they would otherwise
/// stay as zombies until the grader ends. Others are reaped by their parents. The caller holds
/// the list of runs, so that no pid of `ended` is a program's, reused.
fn reap(ended: &HashSet<libc::pid_t>) {
    for &pid in ended {
        // SAFETY: does not wait; takes the status of a child of this process that is none of its
        // programs (whose statuses `Child::wait` takes), or fails at once.
        unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG) };
    }
}

/// The processes of `group` still running (not dead and waiting to be reaped): what a program
/// left behind in its own group when it ended. One about to leave the group (`setsid &` and
/// exit) is still in it or already out of it, a stray, so that the two looks together find it
/// whichever came first.
pub(crate) fn running_in(group: libc::pid_t) -> HashSet<libc::pid_t> {
    processes()
        .filter(|(_, stat)| !stat.ended && stat.group == group)
        .map(|(pid, _)| pid)
        .collect()
}

/// The strays, each with its process group.
fn find(
    folder: &Path,
    pipe: Option<u64>,
    group: Option<libc::pid_t>,
    programs: &[libc::pid_t],
) -> Vec<(libc::pid_t, libc::pid_t)> {
    let grader = std::process::id() as libc::pid_t;
    let pipe = pipe.map(|inode| format!("pipe:[{inode}]"));
    let mark = marked(folder);
    processes()
        .filter(|&(pid, ref stat)| {
            pid != grader
                && !stat.ended
                && !programs.contains(&pid)
                && Some(stat.group) != group
                && {
                    let proc = Path::new("/proc").join(pid.to_string());
                    std::fs::read_link(proc.join("cwd")).is_ok_and(|cwd| cwd.starts_with(folder))
                        || pipe.as_ref().is_some_and(|pipe| holds(&proc, pipe))
                        || is_marked(&proc, &mark)
                }
        })
        .map(|(pid, stat)| (pid, stat.group))
        .collect()
}

/// What `/proc/PID/stat` tells of a process.
struct Stat {
    /// Whether it has ended, and waits to be reaped.
    ended: bool,
    parent: libc::pid_t,
    group: libc::pid_t,
    /// When it started, in clock ticks since the system's start.
    started: u64,
}

/// Every process, with its [`Stat`] (on Linux; elsewhere none).
fn processes() -> impl Iterator<Item = (libc::pid_t, Stat)> {
    let entries = std::fs::read_dir("/proc").into_iter().flatten().flatten();
    entries
        .filter_map(|entry| entry.file_name().to_str()?.parse::<libc::pid_t>().ok())
        .filter_map(|pid| Some((pid, stat_of(pid)?)))
}

/// The [`Stat`] of process `pid`, from `PID (NAME) STATE PARENT GROUP ...` (the thread count is
/// the 20th field, the start time the 22nd), where the name may hold spaces and parentheses.
fn stat_of(pid: libc::pid_t) -> Option<Stat> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?;
    let parent = fields.next()?.parse().ok()?;
    let group = fields.next()?.parse().ok()?;
    let threads: u64 = fields.nth(14)?.parse().ok()?;
    Some(Stat {
        // A process whose first thread has ended shows as a zombie while its other threads run.
        ended: matches!(state, "Z" | "X") && threads <= 1,
        parent,
        group,
        started: fields.nth(1)?.parse().ok()?,
    })
}

/// Whether the process of `/proc/PID` has `pipe` (as its links show it) open.
fn holds(proc: &Path, pipe: &str) -> bool {
    let Ok(fds) = std::fs::read_dir(proc.join("fd")) else {
        return false;
    };
    fds.flatten()
        .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|link| link.as_os_str() == pipe))
}

/// `folder` with every link resolved, as `/proc` shows working folders, and as the mark names it
/// (the mark set and the mark looked for must be the same bytes).
fn resolved(folder: &Path) -> std::path::PathBuf {
    folder.canonicalize().unwrap_or_else(|_| folder.to_owned())
}

/// Marks the processes of `command`, to run in `folder`, as that case's.
pub(crate) fn mark(command: &mut std::process::Command, folder: &Path) {
    command.env(MARK, resolved(folder));
}

/// The entry `MARK=FOLDER` as it stands in an environment, for the case of `folder` (resolved).
fn marked(folder: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    [MARK.as_bytes(), b"=", folder.as_os_str().as_bytes()].concat()
}

/// Whether the environment of the process of `/proc/PID` holds the entry `mark`.
fn is_marked(proc: &Path, mark: &[u8]) -> bool {
    environment(proc).is_some_and(|environ| case_mark(&environ) == Some(mark))
}

/// The environment of the process of `/proc/PID`, its entries each ended by a NUL; none when it
/// cannot be read (it has ended, or is another user's).
fn environment(proc: &Path) -> Option<Vec<u8>> {
    std::fs::read(proc.join("environ")).ok()
}

/// Whether the process of `/proc/PID`, whose environment reads `environ`, is between the two
/// halves of an exec: it shows neither an environment nor a command line (a program started
/// with a cleared environment shows its command line).
fn in_exec(environ: &[u8], proc: &Path) -> bool {
    environ.is_empty()
        && std::fs::read(proc.join("cmdline")).is_ok_and(|cmdline| cmdline.is_empty())
}

/// The entry `MARK=FOLDER` of `environ`, if it has one.
fn case_mark(environ: &[u8]) -> Option<&[u8]> {
    let prefix = [MARK.as_bytes(), b"="].concat();
    environ
        .split(|&b| b == 0)
        .find(|entry| entry.starts_with(&prefix))
}

/// The inode of an open pipe, as `/proc` links name it.
pub(crate) fn pipe_inode(fd: &impl std::os::fd::AsRawFd) -> Option<u64> {
    // SAFETY: fstat writes only into the zeroed structure given.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    (unsafe { libc::fstat(fd.as_raw_fd(), &mut stat) } == 0).then_some(stat.st_ino)
}
