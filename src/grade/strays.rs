//! Processes that a run left outside its process group: found by what still ties them to the run,
//! and killed.
//!
//! A program can leave its group (`setsid`, `setpgid`), and `killpg` then misses it. On Linux,
//! `/proc` shows three ties that such a process keeps unless it takes care to cut them: its
//! working folder (inside the case's), its open files (the run's standard output pipe), and its
//! environment, which carries the mark [`MARK`] naming the case's folder from the program down to
//! every process it starts (`cd /` and closed files cut the first two; only a cleared
//! environment cuts the third). A process with any tie is a stray unless it is in the run's group
//! (killed with it), is the grader, or is a child of the grader: another run's program, between
//! its fork and its exec, holds a copy of every pipe the grader has open. Elsewhere than on Linux
//! none is found.

use std::collections::HashSet;
use std::path::Path;

/// The environment variable that marks a case's processes; its value is the case's folder.
const MARK: &str = "SUDOKU_GEN_GRADE_CASE";

/// Kills the strays of a run: the processes working in `folder`, holding the pipe whose inode is
/// `pipe`, or carrying the mark of `folder`, outside `group`. Returns those it killed.
pub(crate) fn kill_strays(
    folder: &Path,
    pipe: Option<u64>,
    group: Option<libc::pid_t>,
) -> HashSet<libc::pid_t> {
    let folder = resolved(folder);
    let mut killed = HashSet::new();
    // A stray can start another between a look and the kill: look again until no new one shows
    // (a killed one can show for a moment, dying).
    for _ in 0..8 {
        let found: Vec<_> = find(&folder, pipe, group)
            .into_iter()
            .filter(|(pid, _)| !killed.contains(pid))
            .collect();
        if found.is_empty() {
            break;
        }
        for (pid, its_group) in found {
            // SAFETY: plain system calls; the process is tied to this run, and so is a group it
            // leads, which it made by leaving the run's.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                if its_group == pid {
                    libc::killpg(pid, libc::SIGKILL);
                }
            }
            killed.insert(pid);
        }
    }
    killed
}

/// The processes of `group` still running (not dead and waiting to be reaped): what a program
/// left behind in its own group when it ended. One about to leave the group (`setsid &` and
/// exit) is still in it or already out of it, a stray, so that the two looks together find it
/// whichever came first.
#[cfg(target_os = "linux")]
pub(crate) fn running_in(group: libc::pid_t) -> HashSet<libc::pid_t> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return HashSet::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<libc::pid_t>().ok())
        .filter(|&pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let mut fields =
                stat[stat.rfind(')').map_or(stat.len(), |at| at + 1)..].split_whitespace();
            let running = fields
                .next()
                .is_some_and(|state| !matches!(state, "Z" | "X"));
            let its_group = fields.nth(1).and_then(|field| field.parse().ok());
            running && its_group == Some(group)
        })
        .collect()
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn running_in(_: libc::pid_t) -> HashSet<libc::pid_t> {
    HashSet::new()
}

/// The strays, each with its process group.
#[cfg(target_os = "linux")]
fn find(
    folder: &Path,
    pipe: Option<u64>,
    group: Option<libc::pid_t>,
) -> Vec<(libc::pid_t, libc::pid_t)> {
    let grader = std::process::id() as libc::pid_t;
    let pipe = pipe.map(|inode| format!("pipe:[{inode}]"));
    let mark = marked(folder);
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<libc::pid_t>().ok())
        .filter(|&pid| pid != grader)
        .filter_map(|pid| {
            let proc = Path::new("/proc").join(pid.to_string());
            let (parent, its_group) = parent_and_group(&proc)?;
            if parent == grader || Some(its_group) == group {
                return None;
            }
            let works_here =
                std::fs::read_link(proc.join("cwd")).is_ok_and(|cwd| cwd.starts_with(folder));
            let holds_pipe = pipe.as_ref().is_some_and(|pipe| holds(&proc, pipe));
            (works_here || holds_pipe || is_marked(&proc, &mark)).then_some((pid, its_group))
        })
        .collect()
}

#[cfg(not(target_os = "linux"))]
fn find(_: &Path, _: Option<u64>, _: Option<libc::pid_t>) -> Vec<(libc::pid_t, libc::pid_t)> {
    Vec::new()
}

/// The parent and the process group of the process of `/proc/PID`, from its `stat`:
/// `PID (NAME) STATE PARENT GROUP ...`, where the name may hold spaces and parentheses.
#[cfg(target_os = "linux")]
fn parent_and_group(proc: &Path) -> Option<(libc::pid_t, libc::pid_t)> {
    let stat = std::fs::read_to_string(proc.join("stat")).ok()?;
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let _state = fields.next()?;
    Some((fields.next()?.parse().ok()?, fields.next()?.parse().ok()?))
}

/// Whether the process of `/proc/PID` has `pipe` (as its links show it) open.
#[cfg(target_os = "linux")]
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
#[cfg(target_os = "linux")]
fn marked(folder: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    [MARK.as_bytes(), b"=", folder.as_os_str().as_bytes()].concat()
}

/// Whether the environment of the process of `/proc/PID` holds the entry `mark`.
#[cfg(target_os = "linux")]
fn is_marked(proc: &Path, mark: &[u8]) -> bool {
    std::fs::read(proc.join("environ"))
        .is_ok_and(|environ| environ.split(|&b| b == 0).any(|entry| entry == mark))
}

/// The inode of an open pipe, as `/proc` links name it.
pub(crate) fn pipe_inode(fd: &impl std::os::fd::AsRawFd) -> Option<u64> {
    // SAFETY: fstat writes only into the zeroed structure given.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    (unsafe { libc::fstat(fd.as_raw_fd(), &mut stat) } == 0).then_some(stat.st_ino)
}
