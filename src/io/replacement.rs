//! The temporary twin of a regular file that `-o FILE` replaces (the contract is in
//! [`crate::io::output`]): made in FILE's folder before the work, as `.sudoku-gen-` and six random
//! characters, with FILE's permission bits and owner; written; then renamed over FILE. A
//! [`Replacement`] dropped unfinished (an error, a panic, malformed input) removes it; a run ended
//! by a signal removes it through [`abandon_replacements`], which sees every twin in one registry,
//! and a run ended by a fault in a mapped input (see [`crate::io::input`]) through a lock-free copy
//! of it.
//!
//! The twin is made, renamed and removed through a handle to the folder, never through a path: a
//! folder renamed or moved during the run still gets its FILE, as a file open under `>` would, and
//! keeps no twin behind.

use std::ffi::CString;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, AtomicPtr, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::output::folder_of;
use crate::error::Error;

/// A regular file being replaced: its temporary twin exists from the start, and is renamed over
/// the file once the whole output is written to it, or removed when the replacement is dropped.
#[derive(Debug)]
pub struct Replacement {
    /// The path as the user gave it: every message names it, never the temporary name.
    name: String,
    /// The folder of the file that is replaced (where a symbolic link leads, if the path is one).
    folder: OwnedFd,
    /// The name of that file in its folder.
    file_name: CString,
    /// The twin; `None` once renamed.
    twin: Option<Twin>,
}

#[derive(Debug)]
struct Twin {
    name: CString,
    file: File,
}

impl Replacement {
    /// Creates the twin in `target`'s folder, with the permission bits and owner of `existing`
    /// (those a new file gets otherwise).
    pub(super) fn create(
        name: String,
        target: PathBuf,
        existing: Option<&File>,
    ) -> Result<Replacement, Error> {
        let failed = |e| Error::io(&name, e);
        let folder = open_folder(folder_of(&target)).map_err(failed)?;
        let file_name = target
            .file_name()
            .and_then(|file_name| CString::new(file_name.as_bytes()).ok())
            .ok_or_else(|| failed(io::Error::from_raw_os_error(libc::EISDIR)))?;
        // A new file gets what a plain create gives, 0666 less the umask; a replacement starts
        // private and gets the old file's owner, then its mode.
        let mode: libc::c_uint = if existing.is_some() { 0o600 } else { 0o666 };
        let twin = make_twin(&folder, mode).map_err(|e| match existing {
            // The file is there: what failed is the file beside it (`/proc/version`).
            Some(_) => failed(io::Error::new(
                e.kind(),
                format!(
                    "cannot create a file beside it to replace it with ({})",
                    crate::error::system_message(&e)
                ),
            )),
            None => failed(e),
        })?;
        let replacement = Replacement {
            name,
            folder,
            file_name,
            twin: Some(twin),
        };
        if let Some(existing) = existing {
            replacement.take_attributes_of(existing)?;
        }
        Ok(replacement)
    }

    /// Gives the twin the owner, group and permission bits of `existing`; the owner and group
    /// only where the process may set them (root may; others keep their own).
    fn take_attributes_of(&self, existing: &File) -> Result<(), Error> {
        let failed = |e| Error::io(&self.name, e);
        let old = existing.metadata().map_err(failed)?;
        let file = self.twin_file().as_fd();
        let owner_kept = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid())).is_ok();
        if !owner_kept {
            let _ = std::os::unix::fs::fchown(file, None, Some(old.gid()));
        }
        // After the owner, since changing it clears the set-user-ID bit; that and its kin are
        // kept only for the same owner.
        let bits = if owner_kept { 0o7777 } else { 0o777 };
        let permissions = std::fs::Permissions::from_mode(old.mode() & bits);
        self.twin_file()
            .set_permissions(permissions)
            .map_err(failed)
    }

    fn twin_file(&self) -> &File {
        &self.twin.as_ref().expect("present until finished").file
    }

    /// Writes `bytes` to the twin.
    pub(super) fn write_part(&self, bytes: &[u8]) -> Result<(), Error> {
        let mut file = self.twin_file();
        file.write_all(bytes).map_err(|e| Error::io(&self.name, e))
    }

    /// Writes `bytes` to the twin, then renames it over the file.
    pub(super) fn finish(mut self, bytes: &[u8]) -> Result<(), Error> {
        let name = self.name.clone();
        let failed = |e| Error::io(&name, e);
        self.write_part(bytes)?;
        self.twin_file().sync_data().map_err(failed)?;
        let mut registry = registry();
        if registry.abandoned {
            // The twin is gone already, and the process is ending by a signal.
            drop(registry);
            wait_for_the_end();
        }
        let twin = self.twin.take().expect("present until finished");
        let folder = self.folder.as_raw_fd();
        registry.forget(folder, &twin.name);
        // SAFETY: both names are NUL-terminated, relative to the open folder.
        let renamed =
            unsafe { libc::renameat(folder, twin.name.as_ptr(), folder, self.file_name.as_ptr()) };
        if renamed != 0 {
            let error = io::Error::last_os_error();
            // Removed under the registry's lock, so a signal finds it either listed or gone.
            remove_twin(folder, &twin.name);
            return Err(failed(error));
        }
        Ok(())
    }
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if let Some(twin) = self.twin.take() {
            let mut registry = registry();
            let folder = self.folder.as_raw_fd();
            registry.forget(folder, &twin.name);
            // Removed while the registry is locked, so a signal finds it either listed or gone.
            remove_twin(folder, &twin.name);
        }
    }
}

/// Opens `path`, a folder, as a handle to make, rename and remove files in.
fn open_folder(path: &Path) -> io::Result<OwnedFd> {
    let path = CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    // SAFETY: a NUL-terminated path; the descriptor returned is owned here.
    let fd = unsafe {
        libc::open(
            path.as_ptr(),
            libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` is a descriptor just opened, owned by no one else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Creates a twin of mode `mode` (less the umask) in `folder`, under a name no file has; listed
/// in the registry before it is created: a fault handler takes no lock, so a file created first
/// would be one it cannot see until listed.
fn make_twin(folder: &OwnedFd, mode: libc::c_uint) -> io::Result<Twin> {
    const CHARACTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut registry = registry();
    if registry.abandoned {
        drop(registry);
        wait_for_the_end();
    }
    let folder = folder.as_raw_fd();
    loop {
        let mut bits: u64 = rand::random();
        let suffix: String = (0..6)
            .map(|_| {
                let character = CHARACTERS[(bits % CHARACTERS.len() as u64) as usize];
                bits /= CHARACTERS.len() as u64;
                char::from(character)
            })
            .collect();
        let name = CString::new(format!(".sudoku-gen-{suffix}")).expect("no NUL");
        registry.list(folder, &name);
        let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_CLOEXEC;
        // SAFETY: a NUL-terminated name relative to the open folder; the descriptor returned is
        // owned by the file made of it.
        let fd = unsafe { libc::openat(folder, name.as_ptr(), flags, mode) };
        if fd >= 0 {
            // SAFETY: `fd` is a descriptor just opened, owned by no one else.
            let file = unsafe { File::from_raw_fd(fd) };
            return Ok(Twin { name, file });
        }
        let error = io::Error::last_os_error();
        registry.forget(folder, &name);
        if error.kind() != io::ErrorKind::AlreadyExists {
            return Err(error);
        }
    }
}

/// Waits for the end of a process whose work a signal abandoned (its replacements here, or a
/// grading's runs): an error or a result reported instead would race the signal's own end of it,
/// and end it by another code.
pub(crate) fn wait_for_the_end() -> ! {
    loop {
        std::thread::park();
    }
}

/// Removes the twin `name` of `folder`; gone already is as good.
fn remove_twin(folder: RawFd, name: &CString) {
    // SAFETY: a NUL-terminated name relative to an open folder.
    unsafe { libc::unlinkat(folder, name.as_ptr(), 0) };
}

/// The twins in the making, by folder and name, and whether the process is ending on a signal.
struct Registry {
    twins: Vec<(RawFd, CString)>,
    abandoned: bool,
}

impl Registry {
    fn list(&mut self, folder: RawFd, name: &CString) {
        self.twins.push((folder, name.clone()));
        self.mirror();
    }

    fn forget(&mut self, folder: RawFd, name: &CString) {
        self.twins
            .retain(|(listed, listed_name)| (*listed, listed_name) != (folder, name));
        self.mirror();
    }

    /// Copies the twins where a fault handler can read them without a lock (see
    /// [`remove_replacements_in_fault`]). Each copy is leaked: a handler may read it at any
    /// moment, and a run makes one or two.
    fn mirror(&self) {
        for (k, slot) in FAULT_TWINS.iter().enumerate() {
            let pointer = self
                .twins
                .get(k)
                .map_or(std::ptr::null_mut(), |(folder, name)| {
                    Box::into_raw(Box::new(FaultTwin {
                        folder: *folder,
                        name: name.clone().into_raw(),
                    }))
                });
            slot.store(pointer, Ordering::Release);
        }
    }
}

/// A twin as a fault handler reads it: a folder's descriptor and a leaked C string.
struct FaultTwin {
    folder: RawFd,
    name: *mut libc::c_char,
}

/// The registry's first twins, for a handler of a fault (SIGBUS in a mapped input), which may take
/// no lock and allocate nothing.
static FAULT_TWINS: [AtomicPtr<FaultTwin>; 4] = [const { AtomicPtr::new(std::ptr::null_mut()) }; 4];

/// Removes the twins of the replacements in the making, from a signal handler: reads only atomics
/// and calls only `unlinkat`, which is async-signal-safe. The process must end next.
pub(crate) fn remove_replacements_in_fault() {
    for slot in &FAULT_TWINS {
        let twin = slot.load(Ordering::Acquire);
        if !twin.is_null() {
            // SAFETY: a non-null slot holds a leaked, never freed twin, whose name is a leaked C
            // string.
            unsafe { libc::unlinkat((*twin).folder, (*twin).name, 0) };
        }
    }
}

/// The signals whose default is to end the process with a core dump and that a watching thread
/// cannot serve: a fault (SIGILL, SIGFPE) or `abort()` (SIGABRT) ends the process in the thread
/// that raised it, before any other thread runs, and SIGTRAP and SIGSYS come the same way from a
/// debugger's breakpoint or a filtered system call, or from `kill`. SIGBUS is among them until a
/// mapped input is watched, whose handler then serves it (see [`crate::io::input`]).
const FAULT_SIGNALS: [libc::c_int; 6] = [
    libc::SIGTRAP,
    libc::SIGABRT,
    libc::SIGILL,
    libc::SIGFPE,
    libc::SIGSYS,
    libc::SIGBUS,
];

/// Installs, for the fault signals (`FAULT_SIGNALS`), a handler that removes the temporary files of the
/// replacements in the making and then ends the process by the same signal, as its default action
/// would. SIGSEGV is left to the handler of the standard library (a stack overflow).
///
/// One of them sent by another process (`kill -ABRT`, `timeout -s ABRT`) is no fault: nothing in
/// the process is broken, so it is passed on to the thread that serves the ending signals, which
/// also stops the grader's programs and removes its folders, and then ends the process by the
/// signal sent (see [`forwarded_signal`]).
pub fn remove_replacements_on_faults() -> io::Result<()> {
    extern "C" fn on_fault(signal: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo to a handler installed with SA_SIGINFO.
        let sent = matches!(unsafe { (*info).si_code }, libc::SI_USER | libc::SI_QUEUE);
        if sent
            && FORWARDED
                .compare_exchange(0, signal, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        {
            // SAFETY: kill and getpid are async-signal-safe; SIGTERM is one of the signals the
            // watching thread serves.
            unsafe { libc::kill(libc::getpid(), libc::SIGTERM) };
            return;
        }
        remove_replacements_in_fault();
        // SAFETY: signal and raise are async-signal-safe. The signal stays blocked until this
        // handler returns, and then ends the process by its default action.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
    for signal in FAULT_SIGNALS {
        // SAFETY: a zeroed sigaction is valid; the handler is an `extern "C"` function of the
        // three-argument signature a handler with SA_SIGINFO has, and does only what is safe in a
        // signal handler.
        let installed = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_fault as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut()) == 0
        };
        if !installed {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// A fault signal that another process sent, passed on as SIGTERM; 0 while none was.
static FORWARDED: AtomicI32 = AtomicI32::new(0);

/// The fault signal that another process sent and [`remove_replacements_on_faults`] passed on
/// as SIGTERM: the signal the process is to end by, in place of that SIGTERM.
pub fn forwarded_signal() -> Option<i32> {
    Some(FORWARDED.load(Ordering::Acquire)).filter(|&signal| signal != 0)
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    twins: Vec::new(),
    abandoned: false,
});

/// The registry, whole even if a thread panicked while holding it (every change to it is one
/// call, complete or not made).
fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes the twin of every replacement in the making, and keeps any from being created or
/// completed afterwards: for a process about to end on a signal, which runs no destructors.
pub fn abandon_replacements() {
    let mut registry = registry();
    registry.abandoned = true;
    for (folder, name) in registry.twins.drain(..) {
        remove_twin(folder, &name);
    }
    registry.mirror();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_renamed_during_the_run_gets_its_file_and_keeps_no_twin() {
        let dir = tempfile::tempdir().unwrap();
        let (before, after) = (dir.path().join("before"), dir.path().join("after"));
        std::fs::create_dir(&before).unwrap();
        let replacement =
            Replacement::create("out.txt".into(), before.join("out.txt"), None).unwrap();
        std::fs::rename(&before, &after).unwrap();
        replacement.finish(b"all of it").unwrap();
        assert_eq!(std::fs::read(after.join("out.txt")).unwrap(), b"all of it");
        assert_eq!(std::fs::read_dir(&after).unwrap().count(), 1);

        let dropped = Replacement::create("out.txt".into(), after.join("new.txt"), None).unwrap();
        std::fs::rename(&after, &before).unwrap();
        drop(dropped);
        assert_eq!(std::fs::read_dir(&before).unwrap().count(), 1);
    }
}
