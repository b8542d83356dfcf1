//! Where results go: one buffer of the output's exact size, written once.
//!
//! Every job builds its whole output in memory and hands it over with a single `write_all`, so a
//! failure before the end writes nothing, and `-o FILE` can be made atomic: the bytes go to a
//! temporary file in FILE's folder, which is renamed over FILE only once everything is written.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::error::Error;

/// Where a job's output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Standard output. A closed pipe there ends the job quietly, as a success.
    Stdout,
    /// A file, replaced atomically.
    File(PathBuf),
}

/// Writes `bytes` to `destination` with one `write_all`.
pub fn write_output(destination: &Destination, bytes: &[u8]) -> Result<(), Error> {
    match destination {
        Destination::Stdout => write_stream("standard output", io::stdout().lock(), bytes),
        Destination::File(path) => write_file_atomically(path, bytes),
    }
}

/// Writes `bytes` to a stream (standard output, a device, a pipe). A reader that has gone away
/// (`| head`) ends the job quietly, as a success.
fn write_stream(name: &str, mut stream: impl Write, bytes: &[u8]) -> Result<(), Error> {
    match stream.write_all(bytes) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Error::io(name, e)),
        _ => Ok(()),
    }
}

fn write_file_atomically(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let shown = path.display().to_string();
    let failed = |e| Error::io(&shown, e);
    let target = match std::fs::metadata(path) {
        // A device or a pipe (`-o /dev/null`) is written to: renaming a file over it would put a
        // plain file in its place.
        Ok(metadata) if !metadata.is_file() && !metadata.is_dir() => {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(failed)?;
            return write_stream(&shown, file, bytes);
        }
        // Through a symbolic link, the file it leads to is replaced, and the link stays.
        Ok(_) => std::fs::canonicalize(path).map_err(failed)?,
        Err(_) => path.to_path_buf(),
    };
    let path = target.as_path();
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".sudoku-gen-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // What a plain create gives: 0666 less the umask, not the temporary file's private 0600.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut file = builder.tempfile_in(folder).map_err(failed)?;
    file.write_all(bytes).map_err(failed)?;
    file.as_file().sync_data().map_err(failed)?;
    file.persist(path).map_err(|e| failed(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_pipe_is_written_to_not_replaced() {
        use std::io::Read;
        use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pipe");
        let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a valid, NUL-terminated path; mkfifo only creates the pipe.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        // Opened for reading first, without waiting for a writer: the write then finds a reader,
        // and a replaced pipe shows as nothing read rather than as a hang.
        let mut reader = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&path)
            .unwrap();
        write_output(&Destination::File(path.clone()), b"through the pipe").unwrap();
        let mut read = Vec::new();
        reader.read_to_end(&mut read).unwrap();
        assert_eq!(read, b"through the pipe");
        assert!(std::fs::metadata(&path).unwrap().file_type().is_fifo());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_keeps_leading_to_the_new_file() {
        let dir = tempfile::tempdir().unwrap();
        let (file, link) = (dir.path().join("out.txt"), dir.path().join("link.txt"));
        std::fs::write(&file, b"old").unwrap();
        std::os::unix::fs::symlink(&file, &link).unwrap();
        write_output(&Destination::File(link.clone()), b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
    }

    #[test]
    fn file_is_replaced_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, b"old").unwrap();
        write_output(&Destination::File(path.clone()), b"new text").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new text");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn missing_folder_names_the_file() {
        let err =
            write_output(&Destination::File("/nonexistent/dir/out.txt".into()), b"x").unwrap_err();
        assert!(
            err.to_string().starts_with("/nonexistent/dir/out.txt: "),
            "{err}"
        );
    }
}
