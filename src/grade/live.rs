//! What a grading has running at a time: the process group of every run, and every case's folder,
//! in one registry, so that a grader ending on a signal takes them with it.
//!
//! # Why
//! A run's program leads a process group of its own (see `limited_run.rs`): a Ctrl-C at the
//! terminal, sent to the grader's group, never reaches it, and a grader that ends on a signal runs
//! no destructors. So whoever handles the signal (the command line's signal thread) calls
//! [`abandon_runs`], which kills every group still registered and removes every folder, and keeps
//! new ones from being made afterwards. Starting a program and making a folder take the registry's
//! lock, so none slips past it.

use std::collections::{HashMap, HashSet};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard};

use crate::grade::strays;
use crate::io::replacement::wait_for_the_end;

#[derive(Default)]
struct Registry {
    abandoned: bool,
    groups: Vec<libc::pid_t>,
    folders: Vec<PathBuf>,
    /// The children each run's program was seen with, child to the run's group (the latest
    /// owner of a pid reused): what its end may hand to the grader (see `strays.rs`).
    known: Option<HashMap<libc::pid_t, libc::pid_t>>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    abandoned: false,
    groups: Vec::new(),
    folders: Vec::new(),
    known: None,
});

fn registry() -> MutexGuard<'static, Registry> {
    // A panic elsewhere leaves the lists as valid as before it.
    REGISTRY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Returns unless the grading was abandoned.
pub(crate) fn stop_if_abandoned() {
    let abandoned = registry().abandoned;
    if abandoned {
        wait_for_the_end();
    }
}

/// Kills the process group of every run of the grading in progress, and whatever left one but
/// still works in a case's folder, removes every case's folder, and makes the grading's threads
/// wait from then on instead of starting another run or returning: for a process about to end on
/// a signal. Only the command line calls it; a program that uses the
/// library's [`grade`](crate::grade::grade) and ends on a signal calls it from its own handler.
pub fn abandon_runs() {
    let mut registry = registry();
    registry.abandoned = true;
    for &group in &registry.groups {
        // SAFETY: a plain system call; the group is a run's, which the grader made.
        unsafe { libc::killpg(group, libc::SIGKILL) };
    }
    let mut known = registry.known.take().unwrap_or_default();
    strays::claim_adopted(&registry.groups, &mut known, None);
    for folder in &registry.folders {
        strays::kill_strays(folder, None, None, &registry.groups);
        remove_folder(folder);
    }
    registry.groups.clear();
    registry.folders.clear();
}

/// A run's process group, killed whole when the run lets go of it (panics included).
pub(crate) struct Group(libc::pid_t);

impl Group {
    /// The group's id: its leader's process id.
    pub(crate) fn id(&self) -> libc::pid_t {
        self.0
    }

    /// Kills every process of the group.
    pub(crate) fn kill(&self) {
        // SAFETY: a plain system call on the group this run created.
        unsafe { libc::killpg(self.0, libc::SIGKILL) };
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill();
        let mut registry = registry();
        registry.groups.retain(|&g| g != self.0);
        if let Some(known) = &mut registry.known {
            known.retain(|_, &mut g| g != self.0);
        }
    }
}

/// Kills, when dropped, every process the grading's programs left to the grader (see
/// [`claim_adopted`]): nothing outlives a grading, whether it ends with its results, an error or a
/// panic.
pub(crate) struct Sweep;

impl Drop for Sweep {
    fn drop(&mut self) {
        claim_adopted(None);
    }
}

/// Starts `command`, whose child leads a new process group, and registers that group.
pub(crate) fn spawn(command: &mut Command) -> io::Result<(Child, Group)> {
    static ADOPTING: std::sync::Once = std::sync::Once::new();
    ADOPTING.call_once(strays::adopt_orphans);
    let mut registry = registry();
    if registry.abandoned {
        drop(registry);
        wait_for_the_end();
    }
    let child = command.spawn()?;
    let group = child.id() as libc::pid_t;
    registry.groups.push(group);
    Ok((child, Group(group)))
}

/// Notes the children the program of run `group` has now.
pub(crate) fn note_children(group: libc::pid_t) {
    let children = strays::children_of(group);
    let mut registry = registry();
    let known = registry.known.get_or_insert_with(HashMap::new);
    for child in children {
        known.insert(child, group);
    }
}

/// Kills the processes the program of `claimant` left to the grader, or all those left without
/// it (see [`strays::claim_adopted`]), the list of runs held meanwhile so that no program is
/// started while the processes are looked at; then reaps them.
pub(crate) fn claim_adopted(claimant: Option<&strays::Claimant>) -> HashSet<libc::pid_t> {
    let mut registry = registry();
    let mut known = registry.known.take().unwrap_or_default();
    let killed = strays::claim_adopted(&registry.groups, &mut known, claimant);
    registry.known = Some(known);
    killed
}

/// Kills the strays of the run of `group` (see [`strays::kill_strays`]), the list of runs held
/// meanwhile, as for [`claim_adopted`].
pub(crate) fn kill_strays(
    folder: &Path,
    pipe: Option<u64>,
    group: libc::pid_t,
) -> HashSet<libc::pid_t> {
    strays::kill_strays(folder, pipe, Some(group), &registry().groups)
}

/// A case's temporary folder, removed when dropped, even when what ran in it took away the
/// permissions to remove it.
pub(crate) struct CaseFolder(PathBuf);

impl CaseFolder {
    /// Makes a fresh folder in the temporary folder, and registers it.
    pub(crate) fn new() -> io::Result<CaseFolder> {
        let mut registry = registry();
        if registry.abandoned {
            drop(registry);
            wait_for_the_end();
        }
        let path = tempfile::Builder::new()
            .prefix("sudoku-gen-grade.")
            .tempdir()?
            .keep();
        registry.folders.push(path.clone());
        Ok(CaseFolder(path))
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for CaseFolder {
    fn drop(&mut self) {
        // Removed before it leaves the registry, so that a signal in between still finds it; a
        // removal under way at the same time in `abandon_runs` does no harm.
        remove_folder(&self.0);
        registry().folders.retain(|f| f != &self.0);
    }
}

/// Removes `folder` and everything in it, best effort: a program can leave folders it may not
/// read or search (`chmod 0`), which the removal must open again first.
fn remove_folder(folder: &Path) {
    if std::fs::remove_dir_all(folder).is_err() {
        let _ = allow_removal(folder);
        let _ = std::fs::remove_dir_all(folder);
    }
}

/// Gives the owner back every permission on `folder` and the folders below it, links not followed.
fn allow_removal(folder: &Path) -> io::Result<()> {
    std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o700))?;
    for entry in std::fs::read_dir(folder)?.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = allow_removal(&entry.path());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Root may remove the folder without the permissions: the test then shows only that the
    // removal does no harm.
    #[test]
    fn a_folder_whose_permissions_were_taken_is_removed() {
        let folder = CaseFolder::new().unwrap();
        let path = folder.path().to_owned();
        std::fs::create_dir_all(path.join("a/b")).unwrap();
        std::fs::write(path.join("a/b/f"), "x").unwrap();
        std::fs::set_permissions(path.join("a"), std::fs::Permissions::from_mode(0o000)).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o500)).unwrap();
        drop(folder);
        assert!(!path.exists());
    }
}
