//! Where results go: standard output, a stream written through, or a file replaced atomically.
//!
//! Jobs of bounded output build it whole in memory and hand it over with a single `write_all`, so
//! a failure before the end writes nothing. Jobs over inputs of any size write a part at a time
//! through an [`OutputStream`], which holds the output back until the job releases it (once the
//! input has shown no early problem that would want nothing written) and writes through after
//! that. `-o FILE` is made atomic: the bytes go to a temporary file in FILE's folder, named
//! `.sudoku-gen-` and six random characters, which is renamed over FILE only once everything is
//! written.
//!
//! A [`Destination`] is prepared before the work, so that whatever can be refused is refused
//! before any time is spent: a missing folder, a folder, a file the user may not write, a folder
//! the user may not write in. The temporary file is created then, with FILE's permission bits and
//! owner, and it is the one thing a run can leave behind. A [`Replacement`] that is dropped
//! unfinished (an error, a panic, malformed input) removes it; a run ended by a signal removes it
//! through [`abandon_replacements`], which sees every temporary file in one registry, and a run
//! ended by a fault in a mapped input (see [`crate::io::input`]) through a lock-free copy of it.
//!
//! # The contract of `-o FILE`
//! `sudoku-gen --help` states it for users; what the code here must keep true:
//! - **Refused before the work**, as `>` would refuse: a missing folder, a folder (`adir`,
//!   `newdir/`, `/`), an existing FILE the user may not write, a folder the user may not create
//!   files in. The message is `FILE: reason`, FILE as it was given, and nothing is computed or
//!   read first.
//! - **Either as it was or complete.** FILE is replaced whenever the output is complete, also when
//!   some puzzles have no solution (the exit code says so); never by a partial output: a usage
//!   error, a malformed or unreadable input, a write error (a full disk, a file past `ulimit -f`,
//!   which is made a write error rather than `SIGXFSZ`) or a signal leaves it untouched.
//! - **Mode and owner.** The replacement gets the old file's permission bits, and its owner and
//!   group where the process may set them (root may). A user who may not keeps their own owner,
//!   the old group where they belong to it, and loses the set-user-ID and set-group-ID bits,
//!   which only the same owner keeps. ACLs and extended attributes are not copied; another hard
//!   link to the old file keeps the old contents. A new FILE gets 0666 less the umask.
//! - **Symbolic links**: the file a link leads to is replaced, and the link stays; a link that
//!   leads nowhere is refused, naming its target, rather than replaced by a file.
//! - **Descriptors, devices and pipes** are written to, never replaced: `/dev/stdout`,
//!   `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` are the process's own descriptor, written
//!   where it stands (so `>> log` appends, and a header written before stays); another process's
//!   `/proc/PID/fd/N` is opened for appending; `/dev/null` and FIFOs are opened and written.
//! - **Signals.** SIGINT, SIGTERM, SIGHUP, SIGQUIT and the other signals that end a process
//!   (timers, user signals, CPU limit, SIGPWR, SIGSTKFLT), and SIGTRAP, SIGABRT, SIGILL, SIGFPE and
//!   SIGSYS, whether sent or raised by a fault, remove the temporary file, then end the run by the
//!   same signal. SIGKILL cannot be caught: it leaves a `.sudoku-gen-XXXXXX` behind in
//!   FILE's folder, which may be deleted once no running `sudoku-gen` writes it.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, AtomicPtr, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use tempfile::NamedTempFile;

use crate::error::Error;
use crate::io::input::shown_path;

/// Where a job's output goes.
#[derive(Debug)]
pub enum Destination {
    /// Standard output (no `-o`, or `-o -`). A closed pipe there ends the job quietly, as a success.
    Stdout,
    /// A stream the path leads to, written through and never replaced: a descriptor of the
    /// process (`/dev/stdout`, `/dev/stderr`, `/proc/self/fd/N`), a device, a pipe.
    Stream {
        /// The path as the user gave it.
        name: String,
        /// The stream, open for writing.
        file: File,
    },
    /// A regular file, replaced atomically.
    File(Replacement),
}

impl Destination {
    /// Where `-o PATH` sends the output (`None` or `-`: standard output), with every check made
    /// that can be made before the work. Errors name `path` as given.
    pub fn prepare(path: Option<&Path>) -> Result<Destination, Error> {
        let Some(path) = path.filter(|path| *path != Path::new("-")) else {
            return Ok(Destination::Stdout);
        };
        let name = shown_path(path);
        let failed = |e| Error::io(&name, e);
        if let Some(descriptor) = descriptor_link(path) {
            let file = descriptor.open().map_err(failed)?;
            return Ok(Destination::Stream { name, file });
        }
        match std::fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => Err(failed(is_a_directory())),
            Ok(metadata) if metadata.is_file() => {
                // Opened for writing only to learn, as `>` would, whether the user may write it.
                let existing = OpenOptions::new().write(true).open(path).map_err(failed)?;
                let target = std::fs::canonicalize(path).map_err(failed)?;
                if held_by_a_sticky_folder(&target, &metadata).map_err(failed)? {
                    return Err(failed(io::Error::other(
                        "another user's file in a folder with the sticky bit (such as /tmp) \
                         cannot be replaced",
                    )));
                }
                let replacement = Replacement::create(name, target, Some(&existing))?;
                Ok(Destination::File(replacement))
            }
            // A device or a pipe (`-o /dev/null`) is written to: renaming a file over it would put
            // a plain file in its place.
            Ok(_) => {
                let file = OpenOptions::new().write(true).open(path).map_err(failed)?;
                Ok(Destination::Stream { name, file })
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if let Ok(leads_to) = std::fs::read_link(path) {
                    return Err(failed(io::Error::other(format!(
                        "a symbolic link to {}, which does not exist; create that file first, \
                         or remove the link",
                        shown_path(&leads_to)
                    ))));
                }
                if names_a_folder(path) {
                    return Err(failed(is_a_directory()));
                }
                Ok(Destination::File(Replacement::create(
                    name,
                    path.to_path_buf(),
                    None,
                )?))
            }
            Err(e) => Err(failed(e)),
        }
    }

    /// Writes `bytes` with one `write_all`; a file is replaced only once they are all written.
    pub fn write(self, bytes: &[u8]) -> Result<(), Error> {
        match self {
            Destination::Stdout => {
                write_stream("standard output", io::stdout().lock(), bytes).map(drop)
            }
            Destination::Stream { name, file } => write_stream(&name, file, bytes).map(drop),
            Destination::File(replacement) => replacement.finish(bytes),
        }
    }
}

/// A destination written a part at a time. Parts are held until the job calls
/// [`OutputStream::release`], then written through: to the temporary file of `-o FILE` (which
/// replaces FILE only at [`OutputStream::finish`]), or to the stream. A stream's reader that has
/// gone away ends the writing quietly; [`OutputStream::is_closed`] tells the job it may stop.
#[derive(Debug)]
pub struct OutputStream {
    destination: Destination,
    held: Vec<u8>,
    through: bool,
    closed: bool,
    /// Whether a write failed: what was made before it may not be there.
    failed: bool,
}

impl Destination {
    /// This destination, to be written a part at a time.
    pub fn into_stream(self) -> OutputStream {
        OutputStream {
            destination: self,
            held: Vec::new(),
            through: false,
            closed: false,
            failed: false,
        }
    }
}

impl OutputStream {
    /// Adds `bytes` to the output.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
        if self.closed {
            return Ok(());
        }
        if !self.through {
            self.held.extend_from_slice(bytes);
            return Ok(());
        }
        self.write_through(bytes)
    }

    /// Writes what is held, and every later part as it comes: for a job whose input has shown
    /// that no problem found from now on would want the output left unwritten. A reader (`|
    /// head`) then gets the first results while the rest are made.
    pub fn release(&mut self) -> Result<(), Error> {
        if self.through {
            return Ok(());
        }
        self.through = true;
        let held = std::mem::take(&mut self.held);
        self.write_through(&held)
    }

    fn write_through(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let result = match &mut self.destination {
            Destination::Stdout => write_stream("standard output", io::stdout().lock(), bytes),
            Destination::Stream { name, file } => write_stream(name, &*file, bytes),
            Destination::File(replacement) => replacement.write_part(bytes),
        };
        match result {
            Ok(Written::All) => Ok(()),
            Ok(Written::ReaderGone) => {
                self.closed = true;
                Ok(())
            }
            Err(e) => {
                self.failed = true;
                Err(e)
            }
        }
    }

    /// Whether the stream's reader has gone away: nothing written from now on is read.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Whether some of the output has been written to a stream, so that a failure now leaves a
    /// part of it there (a file is never replaced by a part), and no write failed.
    pub fn has_written(&self) -> bool {
        self.through && !self.failed && !matches!(self.destination, Destination::File(_))
    }

    /// Writes what is held and ends the output: a file is replaced now.
    pub fn finish(mut self) -> Result<(), Error> {
        self.release()?;
        match self.destination {
            Destination::File(replacement) => replacement.finish(&[]),
            _ => Ok(()),
        }
    }
}

/// How a write to a stream ended.
enum Written {
    All,
    /// The reader went away (a closed pipe); nothing more will be read.
    ReaderGone,
}

/// Writes `bytes` to a stream (standard output, a device, a pipe). A reader that has gone away
/// (`| head`) ends the job quietly, as a success.
fn write_stream(name: &str, mut stream: impl Write, bytes: &[u8]) -> Result<Written, Error> {
    match stream.write_all(bytes) {
        Ok(()) => Ok(Written::All),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(Written::ReaderGone),
        Err(e) => Err(Error::io(name, e)),
    }
}

fn is_a_directory() -> io::Error {
    io::Error::from_raw_os_error(libc::EISDIR)
}

/// Whether the sticky bit of `target`'s folder keeps this process from renaming over `target`
/// (`existing` describes it): in such a folder, only the owner of a file or of the folder may
/// remove or replace it.
fn held_by_a_sticky_folder(target: &Path, existing: &std::fs::Metadata) -> io::Result<bool> {
    let folder = std::fs::metadata(folder_of(target))?;
    // SAFETY: geteuid only reads the process's credentials.
    let user = unsafe { libc::geteuid() };
    let sticky = folder.mode() & libc::S_ISVTX != 0;
    Ok(sticky && user != 0 && existing.uid() != user && folder.uid() != user)
}

/// Whether `path` can only name a folder (`dir/`, `dir/.`, `..`): no file can be created there.
fn names_a_folder(path: &Path) -> bool {
    let text = path.as_os_str().as_bytes();
    path.file_name().is_none() || text.ends_with(b"/") || text.ends_with(b"/.") || text == b"."
}

/// An open descriptor that a path under `/proc/PID/fd/` names (`/dev/stdout` and `/dev/fd/N` lead
/// there through links).
enum DescriptorLink {
    /// One of this process's own: written through a duplicate, which shares its position and
    /// its append mode, as the shell's `> log` or `>> log` set them.
    Own(i32),
    /// Another process's: opened anew, for appending, so that nothing it holds is overwritten.
    Other(PathBuf),
}

impl DescriptorLink {
    fn open(&self) -> io::Result<File> {
        match self {
            DescriptorLink::Own(descriptor) => {
                // SAFETY: duplicating a descriptor touches no memory; an unopened number gives
                // EBADF.
                let copy = unsafe { libc::fcntl(*descriptor, libc::F_DUPFD_CLOEXEC, 0) };
                if copy < 0 {
                    return Err(io::Error::last_os_error());
                }
                // SAFETY: `copy` is a descriptor this process just opened and owns alone.
                let owned = unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(copy) };
                Ok(File::from(owned))
            }
            DescriptorLink::Other(path) => OpenOptions::new().append(true).open(path),
        }
    }
}

/// The descriptor that `path` names, if it leads, through any number of symbolic links, to an
/// entry of a `/proc/PID/fd/` folder. Such an entry looks like a link to the file the descriptor
/// has open, so renaming over it would replace that file, which is what `> /dev/stdout` never does.
fn descriptor_link(path: &Path) -> Option<DescriptorLink> {
    let mut path = path.to_path_buf();
    // The kernel's own limit of links followed in one lookup.
    for _ in 0..40 {
        let folder = std::fs::canonicalize(folder_of(&path)).ok()?;
        let name = path.file_name()?;
        let entry = folder.join(name);
        if let Some(pid) = descriptor_folder_owner(&folder) {
            let descriptor = name.to_str()?.parse().ok()?;
            return Some(if pid == std::process::id() {
                DescriptorLink::Own(descriptor)
            } else {
                DescriptorLink::Other(entry)
            });
        }
        if !std::fs::symlink_metadata(&entry).ok()?.is_symlink() {
            return None;
        }
        path = folder.join(std::fs::read_link(&entry).ok()?);
    }
    None
}

/// The process whose descriptors `folder` lists: `/proc/PID/fd` or `/proc/PID/task/TID/fd`.
fn descriptor_folder_owner(folder: &Path) -> Option<u32> {
    let parts: Vec<_> = folder.iter().map(|part| part.to_str()).collect();
    let number = |part: Option<&str>| part?.parse::<u32>().ok();
    match parts[..] {
        [Some("/"), Some("proc"), pid, Some("fd")] => number(pid),
        [Some("/"), Some("proc"), pid, Some("task"), tid, Some("fd")] => {
            number(tid).and(number(pid))
        }
        _ => None,
    }
}

/// The folder a file at `path` would be in.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// A regular file being replaced: its temporary twin exists from the start, and is renamed over
/// the file once the whole output is written to it ([`Destination::write`]), or removed when the
/// replacement is dropped.
#[derive(Debug)]
pub struct Replacement {
    /// The path as the user gave it: every message names it, never the temporary path.
    name: String,
    /// The file that is replaced (where a symbolic link leads, if the path is one).
    target: PathBuf,
    /// The temporary file; `None` once renamed.
    temporary: Option<NamedTempFile>,
}

impl Replacement {
    /// Creates the temporary file in `target`'s folder, with the permission bits and owner of
    /// `existing` (those a new file gets otherwise).
    fn create(
        name: String,
        target: PathBuf,
        existing: Option<&File>,
    ) -> Result<Replacement, Error> {
        let failed = |e| Error::io(&name, e);
        // A new file gets what a plain create gives, 0666 less the umask; a replacement starts
        // private and gets the old file's owner, then its mode.
        let mode = if existing.is_some() { 0o600 } else { 0o666 };
        let temporary = {
            let mut registry = registry();
            if registry.abandoned {
                return Err(failed(io::Error::from(io::ErrorKind::Interrupted)));
            }
            // Opened here rather than by `tempfile_in`, whose errors name the temporary path.
            // Listed before it is created: a fault handler takes no lock, so a file created
            // first would be one it cannot see until listed.
            tempfile::Builder::new()
                .prefix(".sudoku-gen-")
                .make_in(folder_of(&target), |path| {
                    registry.paths.push(path.to_path_buf());
                    registry.mirror();
                    let opened = OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .mode(mode)
                        .open(path);
                    if opened.is_err() {
                        registry.forget(path);
                    }
                    opened
                })
                .map_err(|e| match existing {
                    // The file is there: what failed is the file beside it (`/proc/version`).
                    Some(_) => failed(io::Error::new(
                        e.kind(),
                        format!(
                            "cannot create a file beside it to replace it with ({})",
                            crate::error::system_message(&e)
                        ),
                    )),
                    None => failed(e),
                })?
        };
        let replacement = Replacement {
            name,
            target,
            temporary: Some(temporary),
        };
        if let Some(existing) = existing {
            replacement.take_attributes_of(existing)?;
        }
        Ok(replacement)
    }

    /// Gives the temporary file the owner, group and permission bits of `existing`; the owner
    /// and group only where the process may set them (root may; others keep their own).
    fn take_attributes_of(&self, existing: &File) -> Result<(), Error> {
        let failed = |e| Error::io(&self.name, e);
        let old = existing.metadata().map_err(failed)?;
        let file = self.temporary_file().as_fd();
        let owner_kept = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid())).is_ok();
        if !owner_kept {
            let _ = std::os::unix::fs::fchown(file, None, Some(old.gid()));
        }
        // After the owner, since changing it clears the set-user-ID bit; that and its kin are
        // kept only for the same owner.
        let bits = if owner_kept { 0o7777 } else { 0o777 };
        let permissions = std::fs::Permissions::from_mode(old.mode() & bits);
        self.temporary_file()
            .set_permissions(permissions)
            .map_err(failed)
    }

    fn temporary_file(&self) -> &File {
        self.temporary
            .as_ref()
            .expect("present until finished")
            .as_file()
    }

    /// Writes `bytes` to the temporary file.
    fn write_part(&self, bytes: &[u8]) -> Result<Written, Error> {
        let mut file = self.temporary_file();
        file.write_all(bytes)
            .map_err(|e| Error::io(&self.name, e))?;
        Ok(Written::All)
    }

    /// Writes `bytes` to the temporary file, then renames it over the target.
    fn finish(mut self, bytes: &[u8]) -> Result<(), Error> {
        let name = self.name.clone();
        let failed = |e| Error::io(&name, e);
        self.write_part(bytes)?;
        let file = self.temporary_file();
        file.sync_data().map_err(failed)?;
        let mut registry = registry();
        if registry.abandoned {
            // The file is gone already, and the process is ending.
            return Err(failed(io::Error::from(io::ErrorKind::Interrupted)));
        }
        let temporary = self.temporary.take().expect("present until finished");
        registry.forget(temporary.path());
        // On failure the temporary file is dropped, and removed, under the registry's lock too.
        temporary
            .persist(&self.target)
            .map_err(|e| failed(e.error))?;
        Ok(())
    }
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if let Some(temporary) = self.temporary.take() {
            let mut registry = registry();
            registry.forget(temporary.path());
            // Removed while the registry is locked, so a signal finds it either listed or gone.
            drop(temporary);
        }
    }
}

/// The temporary files in the making, and whether the process is ending on a signal.
struct Registry {
    paths: Vec<PathBuf>,
    abandoned: bool,
}

impl Registry {
    fn forget(&mut self, path: &Path) {
        self.paths.retain(|listed| listed != path);
        self.mirror();
    }

    /// Copies the paths where a fault handler can read them without a lock (see
    /// [`remove_replacements_in_fault`]). Each copy is leaked: a handler may read it at any
    /// moment, and a run makes one or two.
    fn mirror(&self) {
        for (k, slot) in FAULT_PATHS.iter().enumerate() {
            let path = self
                .paths
                .get(k)
                .and_then(|path| std::ffi::CString::new(path.as_os_str().as_bytes()).ok());
            let pointer = path.map_or(std::ptr::null_mut(), |path| path.into_raw());
            slot.store(pointer, Ordering::Release);
        }
    }
}

/// The registry's first paths as C strings, for a handler of a fault (SIGBUS in a mapped input),
/// which may take no lock and allocate nothing.
static FAULT_PATHS: [AtomicPtr<libc::c_char>; 4] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; 4];

/// Removes the temporary files of the replacements in the making, from a signal handler: reads
/// only atomics and calls only `unlink`, which is async-signal-safe. The process must end next.
pub(crate) fn remove_replacements_in_fault() {
    for slot in &FAULT_PATHS {
        let path = slot.load(Ordering::Acquire);
        if !path.is_null() {
            // SAFETY: a non-null slot holds a leaked, never freed C string.
            unsafe { libc::unlink(path) };
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
    paths: Vec::new(),
    abandoned: false,
});

/// The registry, whole even if a thread panicked while holding it (every change to it is one
/// call, complete or not made).
fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes the temporary file of every replacement in the making, and keeps any from being
/// created or completed afterwards: for a process about to end on a signal, which runs no
/// destructors.
pub fn abandon_replacements() {
    let mut registry = registry();
    registry.abandoned = true;
    for path in registry.paths.drain(..) {
        // Gone already is as good.
        let _ = std::fs::remove_file(path);
    }
    registry.mirror();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prepare(path: &Path) -> Result<Destination, Error> {
        Destination::prepare(Some(path))
    }

    /// The names in `folder`, sorted.
    fn names_in(folder: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_pipe_is_written_to_not_replaced() {
        use std::io::Read;
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pipe");
        let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a valid, NUL-terminated path; mkfifo only creates the pipe.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        // Opened for reading first, without waiting for a writer: the write then finds a reader,
        // and a replaced pipe shows as nothing read rather than as a hang.
        let mut reader = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&path)
            .unwrap();
        prepare(&path).unwrap().write(b"through the pipe").unwrap();
        let mut read = Vec::new();
        reader.read_to_end(&mut read).unwrap();
        assert_eq!(read, b"through the pipe");
        assert!(std::fs::metadata(&path).unwrap().file_type().is_fifo());
    }

    #[test]
    fn a_link_keeps_leading_to_the_new_file() {
        let dir = tempfile::tempdir().unwrap();
        let (file, link) = (dir.path().join("out.txt"), dir.path().join("link.txt"));
        std::fs::write(&file, b"old").unwrap();
        std::os::unix::fs::symlink(&file, &link).unwrap();
        prepare(&link).unwrap().write(b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
    }

    #[test]
    fn file_is_replaced_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, b"old").unwrap();
        prepare(&path).unwrap().write(b"new text").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new text");
        assert_eq!(names_in(dir.path()), ["out.txt"]);
    }

    #[test]
    fn the_temporary_file_exists_from_the_start_and_goes_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let destination = prepare(&path).unwrap();
        let names = names_in(dir.path());
        assert_eq!(names.len(), 1);
        assert!(names[0].starts_with(".sudoku-gen-"), "{names:?}");
        drop(destination);
        assert!(names_in(dir.path()).is_empty());
    }

    #[test]
    fn a_panic_during_the_work_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, b"old").unwrap();
        let unwound = std::panic::catch_unwind(|| {
            let _destination = prepare(&path).unwrap();
            panic!("the work fails");
        });
        assert!(unwound.is_err());
        assert_eq!(names_in(dir.path()), ["out.txt"]);
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
    }

    #[test]
    fn a_replacement_keeps_the_permission_bits() {
        let dir = tempfile::tempdir().unwrap();
        for mode in [0o640, 0o755, 0o600, 0o444] {
            let path = dir.path().join(format!("out-{mode:o}.txt"));
            std::fs::write(&path, b"old").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            // A file of mode 444 may be written by root only, as with `>`.
            let Ok(destination) = prepare(&path) else {
                continue;
            };
            destination.write(b"new").unwrap();
            let metadata = std::fs::metadata(&path).unwrap();
            assert_eq!(metadata.mode() & 0o7777, mode, "{}", path.display());
        }
    }

    #[test]
    fn messages_name_the_path_as_given() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().display();
        for (path, message) in [
            (
                format!("{folder}/nodir/out.txt"),
                "No such file or directory",
            ),
            (format!("{folder}/newdir/"), "Is a directory"),
            (format!("{folder}"), "Is a directory"),
            ("/".to_owned(), "Is a directory"),
        ] {
            let error = prepare(Path::new(&path)).unwrap_err();
            assert_eq!(error.to_string(), format!("{path}: {message}"));
        }
        assert!(names_in(dir.path()).is_empty());
    }

    #[test]
    fn only_a_folder_can_be_named_with_a_final_slash_or_dot() {
        for path in ["a/", "a/.", ".", "..", "a/..", "/"] {
            assert!(names_a_folder(Path::new(path)), "{path}");
        }
        for path in ["a", "a/b", ".a", "a/.b", "a/b."] {
            assert!(!names_a_folder(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn descriptor_folders_are_recognised() {
        let owner = |path: &str| descriptor_folder_owner(Path::new(path));
        assert_eq!(owner("/proc/12/fd"), Some(12));
        assert_eq!(owner("/proc/12/task/13/fd"), Some(12));
        for other in [
            "/proc/self/fd",
            "/proc/12",
            "/proc/12/fdinfo",
            "/dev/fd",
            "/tmp/12/fd",
        ] {
            assert_eq!(owner(other), None, "{other}");
        }
    }

    #[test]
    fn standard_descriptors_are_written_through() {
        for path in ["/dev/stdout", "/dev/stderr", "/dev/fd/1", "/proc/self/fd/2"] {
            let expected = path.rsplit('/').next().unwrap();
            let descriptor = match descriptor_link(Path::new(path)) {
                Some(DescriptorLink::Own(descriptor)) => descriptor,
                _ => panic!("{path} is not seen as a descriptor"),
            };
            let expected = match expected {
                "stdout" => 1,
                "stderr" => 2,
                number => number.parse().unwrap(),
            };
            assert_eq!(descriptor, expected, "{path}");
        }
        assert!(descriptor_link(Path::new("/dev/null")).is_none());
    }
}
