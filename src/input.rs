//! Where puzzles and grids come from: a file, or standard input for `-`; the counterpart of
//! [`crate::output`].

use std::io::Read;
use std::path::Path;

use crate::error::Error;

/// How a source of text is named in messages: `-` is standard input.
pub fn source_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// The whole text of a source: a regular file mapped into memory (no copy, and no zeroed buffer to
/// fill: most of the cost of reading a large file), or the bytes read from anything else.
pub enum SourceText {
    /// A regular file, mapped read-only.
    Mapped(memmap2::Mmap),
    /// Standard input, a pipe, or an empty or special file, read whole.
    Read(Vec<u8>),
}

impl std::ops::Deref for SourceText {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            SourceText::Mapped(map) => map,
            SourceText::Read(bytes) => bytes,
        }
    }
}

/// The whole text of `path`, or of standard input for `-`.
pub fn read_source(path: &Path) -> Result<SourceText, Error> {
    let failed = |e| Error::io(&source_name(path), e);
    if path == Path::new("-") {
        let mut text = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut text)
            .map_err(failed)?;
        return Ok(SourceText::Read(text));
    }
    let mut file = std::fs::File::open(path).map_err(failed)?;
    let metadata = file.metadata().map_err(failed)?;
    if metadata.is_file() && metadata.len() > 0 {
        // SAFETY: the map is read-only and private to this process; another process truncating the
        // file while it is read is the one hazard, as with any reader of a changing file.
        if let Ok(map) = unsafe { memmap2::MmapOptions::new().populate().map(&file) } {
            return Ok(SourceText::Mapped(map));
        }
    }
    let mut text = Vec::new();
    file.read_to_end(&mut text).map_err(failed)?;
    Ok(SourceText::Read(text))
}
