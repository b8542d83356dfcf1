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
//! the user may not write in. The temporary file is created then, and it is the one thing a run
//! can leave behind: [`crate::io::replacement`] keeps it, and removes it on every way out.
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
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::replacement::Replacement;
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
            Destination::File(replacement) => replacement.write_part(bytes).map(|()| Written::All),
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
pub(super) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};

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
