//! Where puzzles and grids come from: a file, or standard input for `-`; the counterpart of
//! [`crate::io::output`].
//!
//! A regular file is mapped into memory rather than read: no copy, and no fresh buffer to fill,
//! which is most of the cost of reading a large file. The mapping is shared with the file, so what
//! another process does to the file during the run shows through it:
//! - **written to**: the run reads the new bytes, maybe half of them; its result is then about no
//!   version of the file in particular, but it ends normally. Input files must not change during a
//!   run (`--help` says so).
//! - **shortened**: touching a page past the new end raises SIGBUS, which would kill the process.
//!   A handler catches it when it falls inside one of our windows and ends the run as an I/O error
//!   that names the file, exit code 1.
//!
//! Inputs are read a piece at a time ([`PIECE`] bytes at most, whole records each), so that a run
//! needs bounded memory whatever the input's size: a regular file through windows mapped one after
//! another; standard input, pipes, devices and empty files through reads into a buffer.
//!
//! An input is never trusted to end, or to hold text at all:
//! - a piece of [`PIECE`] bytes without a record's end is an error at its first line (`FILE:1: no
//!   line ends within 32 MiB: not a puzzle or grid file`), so `/dev/zero` ends the run at once;
//!   an endless stream of records is read in bounded memory until it is stopped;
//! - the jobs that read an input whole ([`Pieces::read_whole`]: see [`WHOLE`] for which) hold
//!   at most [`WHOLE`] bytes, an error past that, and stop reading after the first piece that
//!   holds a NUL byte, which no puzzle text has, so that the parser names it at once; a stream
//!   they read is cut at whole records and not read past its first malformed piece
//!   ([`Pieces::read_whole_guarded`]).

use std::io::Read;
use std::path::Path;

use crate::error::Error;

/// How a source of text is named in messages: `-` is standard input.
pub fn source_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".into()
    } else {
        shown_path(path)
    }
}

/// `path` as messages show it: control characters escaped (`\n`, `\t`, `\u{1b}`), so that a
/// file name cannot break a `FILE:LINE: what` line in two or move the terminal's cursor.
pub fn shown_path(path: &Path) -> String {
    let mut shown = String::new();
    for c in path.display().to_string().chars() {
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

/// Bytes a piece of input holds at most: large inputs are read a piece at a time, each ending at a
/// record boundary, so that memory stays bounded whatever the input's size.
pub const PIECE: usize = 32 << 20;

/// Bytes an input read whole may hold (other shapes, `--shuffle`, `--classes`, jigsaw layouts).
pub const WHOLE: usize = 2 << 30;

/// Where a piece may end: after a line end, after an empty line (between two grids of the grid
/// format, whose records span several lines), or after a CSV record (whose quoted fields may hold
/// line ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boundary {
    /// After any line end.
    Line,
    /// After a line that is empty but for spaces, tabs and a carriage return.
    EmptyLine,
    /// After a line end outside a quoted CSV field.
    CsvRecord,
}

/// One piece of an input: whole records, the line its text starts on, and whether it is the last.
pub struct Piece {
    text: PieceText,
    /// The line of the input where the piece starts, counted from 1.
    pub first_line: usize,
    /// How many line ends it holds.
    pub line_ends: usize,
    /// Whether nothing of the input follows.
    pub last: bool,
}

impl Piece {
    /// Whether the piece is the first line alone (a CSV corpus's header): a stream is cut there
    /// when no record ends in what follows (a quote left open), which the next piece names; it is
    /// no piece of empty lines (see [`Piece::empty_stream_error`]).
    pub(crate) fn is_first_line_alone(&self) -> bool {
        self.first_line == 1 && memchr::memchr(b'\n', self).is_none_or(|at| at + 1 == self.len())
    }

    /// The error of a piece of a stream that holds no record at all: only empty or comment lines
    /// came, which an endless stream may send forever.
    pub(crate) fn empty_stream_error(&self) -> crate::text::parse::ParseError {
        crate::text::parse::ParseError {
            line: self.first_line + self.line_ends.saturating_sub(1),
            column: 1,
            message: format!(
                "no record in {} MiB of the stream: only empty or comment lines",
                PIECE >> 20
            ),
        }
    }
}

enum PieceText {
    /// A window of a mapped file and the range of it that the piece holds.
    Mapped(memmap2::Mmap, std::ops::Range<usize>),
    /// Bytes read from a stream.
    Read(Vec<u8>),
}

impl std::ops::Deref for Piece {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match &self.text {
            PieceText::Mapped(map, range) => &map[range.clone()],
            PieceText::Read(bytes) => bytes,
        }
    }
}

/// An input read a piece at a time: a regular file through windows mapped one after another, or
/// standard input, a pipe or a device through reads into a buffer.
pub struct Pieces {
    name: String,
    reader: Reader,
    next_line: usize,
    done: bool,
}

enum Reader {
    File {
        file: std::fs::File,
        len: usize,
        offset: usize,
        watch: sigbus::Watch,
    },
    Stream {
        stream: Box<dyn Read>,
        /// Bytes read past the end of the last piece.
        carry: Vec<u8>,
    },
}

/// The text of `path` (`-` for standard input) when it is at most `cap` bytes long, for inputs
/// that cannot be longer: `None` as soon as it is, without reading further (an endless stream
/// ends there).
pub fn read_at_most(path: &Path, cap: usize) -> Result<Option<Vec<u8>>, Error> {
    let name = source_name(path);
    let mut text = Vec::new();
    let limit = cap as u64 + 1;
    let read = if path == Path::new("-") {
        std::io::stdin().lock().take(limit).read_to_end(&mut text)
    } else {
        std::fs::File::open(path).and_then(|file| file.take(limit).read_to_end(&mut text))
    };
    read.map_err(|e| Error::io(&name, e))?;
    Ok((text.len() <= cap).then_some(text))
}

impl Pieces {
    /// Bytes already in memory, named `name`, to be read a piece at a time like a file.
    pub(crate) fn of_bytes(name: &str, bytes: Vec<u8>) -> Pieces {
        Pieces {
            name: name.to_owned(),
            reader: Reader::Stream {
                stream: Box::new(std::io::Cursor::new(bytes)),
                carry: Vec::new(),
            },
            next_line: 1,
            done: false,
        }
    }
}

/// Opens `path` (standard input for `-`) to be read a piece at a time.
pub fn open_pieces(path: &Path) -> Result<Pieces, Error> {
    let name = source_name(path);
    let reader = if path == Path::new("-") {
        Reader::Stream {
            stream: Box::new(std::io::stdin()),
            carry: Vec::new(),
        }
    } else {
        let file = std::fs::File::open(path).map_err(|e| Error::io(&name, e))?;
        let metadata = file.metadata().map_err(|e| Error::io(&name, e))?;
        match sigbus::Watch::new(&name) {
            Some(watch) if metadata.is_file() && metadata.len() > 0 => Reader::File {
                file,
                len: usize::try_from(metadata.len()).unwrap_or(usize::MAX),
                offset: 0,
                watch,
            },
            _ => Reader::Stream {
                stream: Box::new(file),
                carry: Vec::new(),
            },
        }
    };
    Ok(Pieces {
        name,
        reader,
        next_line: 1,
        done: false,
    })
}

impl Pieces {
    /// The input's name in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The first `len` bytes of the input at most, before any piece is read, without taking them
    /// from it: what decides how the input is read.
    pub fn peek(&mut self, len: usize) -> Result<Vec<u8>, Error> {
        let failed = |e| Error::io(&self.name, e);
        match &mut self.reader {
            Reader::File {
                file, len: size, ..
            } => {
                use std::os::unix::fs::FileExt;
                let mut start = vec![0; len.min(*size)];
                file.read_exact_at(&mut start, 0).map_err(failed)?;
                Ok(start)
            }
            Reader::Stream { stream, carry } => {
                while carry.len() < len {
                    let read = stream
                        .by_ref()
                        .take((len - carry.len()) as u64)
                        .read_to_end(carry)
                        .map_err(failed)?;
                    if read == 0 {
                        break;
                    }
                }
                Ok(carry[..carry.len().min(len)].to_vec())
            }
        }
    }

    /// Whether the last piece was handed out: nothing is left to read.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The input's length in bytes, when it is a regular file.
    pub fn file_len(&self) -> Option<u64> {
        match &self.reader {
            Reader::File { len, .. } => Some(*len as u64),
            Reader::Stream { .. } => None,
        }
    }

    /// The next piece, ending at the boundary that `boundary` picks for the piece's text (a piece
    /// may end anywhere before it) unless it is the last; `None` after the last.
    pub(crate) fn next_piece(
        &mut self,
        boundary: impl FnOnce(&[u8]) -> Boundary,
    ) -> Result<Option<Piece>, Error> {
        if self.done {
            return Ok(None);
        }
        let name = &self.name;
        let failed = |e| Error::io(name, e);
        let next_line = self.next_line;
        let (text, last) = match &mut self.reader {
            Reader::File {
                file,
                len,
                offset,
                watch,
            } => {
                let page = page_size();
                let start = *offset - *offset % page;
                let end = (*offset + PIECE).min(*len);
                // SAFETY: the mapping is read-only and shared with the file (see the module
                // comment); `watch` turns a fault from a shortened file into an error exit.
                let map = unsafe {
                    memmap2::MmapOptions::new()
                        .offset(start as u64)
                        .len(end - start)
                        .populate()
                        .map(&*file)
                }
                .map_err(failed)?;
                watch.cover(&map);
                let window = *offset - start..end - start;
                let last = end == *len;
                let cut = if last {
                    window.len()
                } else {
                    let text = &map[window.clone()];
                    let boundary = boundary(text);
                    cut_at(text, boundary)
                        .ok_or_else(|| too_long(name, next_line, boundary, text))?
                };
                *offset += cut;
                let range = window.start..window.start + cut;
                (PieceText::Mapped(map, range), last)
            }
            Reader::Stream { stream, carry } => {
                let mut text = std::mem::take(carry);
                text.reserve(PIECE.saturating_sub(text.len()));
                let mut eof = false;
                while text.len() < PIECE {
                    let room = PIECE - text.len();
                    let read = stream
                        .by_ref()
                        .take(room as u64)
                        .read_to_end(&mut text)
                        .map_err(failed)?;
                    if read == 0 {
                        eof = true;
                        break;
                    }
                }
                if !eof {
                    let boundary = boundary(&text);
                    let cut = cut_at(&text, boundary)
                        .ok_or_else(|| too_long(name, next_line, boundary, &text))?;
                    *carry = text.split_off(cut);
                }
                (PieceText::Read(text), eof)
            }
        };
        self.done = last;
        let mut piece = Piece {
            text,
            first_line: self.next_line,
            line_ends: 0,
            last,
        };
        piece.line_ends = count_lines(&piece);
        self.next_line += piece.line_ends;
        Ok(Some(piece))
    }

    /// The whole rest of the input as one piece, for inputs that must be read whole: at most
    /// [`WHOLE`] bytes, else an error. Reading stops after a piece that holds a NUL byte, which no
    /// text of puzzles or grids has: the parser then names it, and an endless stream of bytes
    /// (`/dev/urandom`) is not read on.
    pub fn read_whole(self) -> Result<Vec<u8>, Error> {
        self.read_whole_guarded(&mut WholeRecords)
    }

    /// The input read whole as [`Pieces::read_whole`] reads it, except that a stream, which may
    /// never end, is cut into pieces of whole records as `guard` says and not read past the first
    /// piece `guard` finds malformed: the job then names its problem from what was read, rather
    /// than read gigabytes first. A file is read to its end, so that its report names every
    /// problem.
    pub fn read_whole_guarded(mut self, guard: &mut impl StreamGuard) -> Result<Vec<u8>, Error> {
        let stream = self.file_len().is_none();
        let mut text = Vec::new();
        loop {
            let boundary = |piece: &[u8]| {
                if stream {
                    guard.boundary(piece)
                } else {
                    Boundary::Line
                }
            };
            let Some(piece) = self.next_piece(boundary)? else {
                break;
            };
            if text.len() + piece.len() > WHOLE {
                let line = piece.first_line;
                return Err(Error::io(
                    &format!("{}:{line}", self.name),
                    std::io::Error::other(format!(
                        "over {} GiB: this job reads its input whole, and holds at most that",
                        WHOLE >> 30
                    )),
                ));
            }
            text.extend_from_slice(&piece);
            if memchr::memchr(0, &piece).is_some() || (stream && guard.malformed(&piece)) {
                break;
            }
        }
        Ok(text)
    }
}

/// How a job that reads its input whole judges a stream a piece at a time (see
/// [`Pieces::read_whole_guarded`]).
pub trait StreamGuard {
    /// Where the piece whose text starts `text` may end: after whole records.
    fn boundary(&self, text: &[u8]) -> Boundary;

    /// Whether `piece` holds a problem, after which the stream is read no further.
    fn malformed(&mut self, piece: &Piece) -> bool;
}

/// The guard of [`Pieces::read_whole`]: pieces end at lines, and none is malformed.
struct WholeRecords;

impl StreamGuard for WholeRecords {
    fn boundary(&self, _: &[u8]) -> Boundary {
        Boundary::Line
    }

    fn malformed(&mut self, _: &Piece) -> bool {
        false
    }
}

/// The line ends in `text`, counted over the thread pool: a piece is tens of megabytes.
fn count_lines(text: &[u8]) -> usize {
    use rayon::prelude::*;
    text.par_chunks(1 << 20)
        .map(|chunk| bytecount::count(chunk, b'\n'))
        .sum()
}

/// The error of a piece that holds no `boundary`: its records are longer than any puzzle's.
fn too_long(name: &str, line: usize, boundary: Boundary, text: &[u8]) -> Error {
    let what = match boundary {
        Boundary::Line => "no line ends",
        Boundary::EmptyLine => "no empty line ends a grid",
        Boundary::CsvRecord => "no CSV record ends (is a quote left open?)",
    };
    // A stray first line can make a file of puzzle lines read as grids: show what was read so.
    let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
    let shown = match boundary {
        Boundary::EmptyLine if line == 1 && first.len() < text.len() => {
            let start = String::from_utf8_lossy(&first[..first.len().min(40)]).into_owned();
            let more = if first.len() > 40 { "..." } else { "" };
            format!(" (its first line, {start:?}{more}, was read as a row of a grid)")
        }
        _ => String::new(),
    };
    Error::io(
        &format!("{name}:{line}"),
        std::io::Error::other(format!(
            "{what} within {} MiB: not a puzzle or grid file{shown}",
            PIECE >> 20
        )),
    )
}

/// Where a text may be cut at `boundary`: just after the last one in it.
fn cut_at(text: &[u8], boundary: Boundary) -> Option<usize> {
    if boundary == Boundary::CsvRecord {
        return crate::text::corpus::record_cut(text);
    }
    let mut end = text.len();
    loop {
        let line_end = memchr::memrchr(b'\n', &text[..end])?;
        if boundary == Boundary::Line {
            return Some(line_end + 1);
        }
        let line_start = memchr::memrchr(b'\n', &text[..line_end]).map_or(0, |at| at + 1);
        let line = &text[line_start..line_end];
        if line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r')) && line_start > 0 {
            return Some(line_end + 1);
        }
        end = line_end;
    }
}

fn page_size() -> usize {
    // SAFETY: sysconf only reads a system value.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).unwrap_or(4096).max(1)
}

/// Turning SIGBUS in a mapped input into an error exit. The handler does only what is safe in a
/// signal handler: it reads atomics, writes a prepared message with `write`, and calls `_exit`.
#[cfg(unix)]
mod sigbus {
    use std::sync::Once;
    use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

    /// Inputs watched at once: a run reads at most two (`--check FILE --puzzles PFILE`), or a few
    /// files one after another.
    const SLOTS: usize = 8;

    /// One watched input: the address range of its current window and the message that names it.
    struct Slot {
        start: AtomicUsize,
        end: AtomicUsize,
        message: AtomicPtr<u8>,
        message_len: AtomicUsize,
        taken: AtomicUsize,
    }

    #[allow(clippy::declare_interior_mutable_const)]
    const EMPTY_SLOT: Slot = Slot {
        start: AtomicUsize::new(0),
        end: AtomicUsize::new(0),
        message: AtomicPtr::new(std::ptr::null_mut()),
        message_len: AtomicUsize::new(0),
        taken: AtomicUsize::new(0),
    };

    static WATCHED: [Slot; SLOTS] = [EMPTY_SLOT; SLOTS];
    static INSTALL: Once = Once::new();
    static INSTALLED: AtomicUsize = AtomicUsize::new(0);

    /// A watched input: a fault inside the window it covers ends the run with its message.
    pub(super) struct Watch(&'static Slot);

    impl Watch {
        /// A watch for the input named `name`, if the handler is in place and a slot is free.
        pub(super) fn new(name: &str) -> Option<Watch> {
            INSTALL.call_once(|| {
                // SAFETY: a zeroed sigaction is valid; the handler is an `extern "C"` function of
                // the signature SA_SIGINFO asks for.
                let installed = unsafe {
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_sigbus as *const () as usize;
                    action.sa_flags = libc::SA_SIGINFO;
                    libc::sigemptyset(&mut action.sa_mask);
                    libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0
                };
                INSTALLED.store(usize::from(installed), Ordering::Release);
            });
            if INSTALLED.load(Ordering::Acquire) != 1 {
                return None;
            }
            let slot = WATCHED.iter().find(|slot| {
                slot.taken
                    .compare_exchange(0, 1, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
            })?;
            // Leaked once per input: the handler may read it at any moment until the run ends.
            let message: &'static mut [u8] = Box::leak(
                format!("sudoku-gen: error: {name}: the file was shortened while it was read\n")
                    .into_bytes()
                    .into_boxed_slice(),
            );
            slot.message_len.store(message.len(), Ordering::Release);
            slot.message.store(message.as_mut_ptr(), Ordering::Release);
            Some(Watch(slot))
        }

        /// Watches `map`, the input's current window, instead of the one before.
        pub(super) fn cover(&self, map: &[u8]) {
            let start = map.as_ptr() as usize;
            self.0.start.store(0, Ordering::Release);
            // The range covers the window's last page whole: a fault there is ours too.
            self.0
                .end
                .store(start + map.len().next_multiple_of(4096), Ordering::Release);
            self.0.start.store(start, Ordering::Release);
        }
    }

    impl Drop for Watch {
        fn drop(&mut self) {
            self.0.start.store(0, Ordering::Release);
            self.0.taken.store(0, Ordering::Release);
        }
    }

    extern "C" fn on_sigbus(signal: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo for a signal installed with SA_SIGINFO.
        let address = unsafe { (*info).si_addr() } as usize;
        for slot in &WATCHED {
            let start = slot.start.load(Ordering::Acquire);
            if start != 0 && (start..slot.end.load(Ordering::Acquire)).contains(&address) {
                let message = slot.message.load(Ordering::Acquire);
                let len = slot.message_len.load(Ordering::Acquire);
                // The run ends here, its destructors unrun: `-o FILE` must leave nothing behind.
                crate::io::replacement::remove_replacements_in_fault();
                // SAFETY: `message` and `len` describe a leaked, never freed buffer; write and
                // _exit are async-signal-safe.
                unsafe {
                    libc::write(libc::STDERR_FILENO, message.cast(), len);
                    libc::_exit(1);
                }
            }
        }
        // Not one of ours (a fault elsewhere, or a `kill`): die of it as the default action would,
        // leaving no temporary file of `-o FILE` behind.
        crate::io::replacement::remove_replacements_in_fault();
        // SAFETY: signal and raise are async-signal-safe.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
}

#[cfg(not(unix))]
mod sigbus {
    pub(super) struct Watch;

    impl Watch {
        pub(super) fn new(_: &str) -> Option<Watch> {
            None
        }

        pub(super) fn cover(&self, _: &[u8]) {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_messages_keep_to_one_line() {
        assert_eq!(
            source_name(Path::new("a\nb\tc\u{1b}[2J.txt")),
            "a\\nb\\tc\\u{1b}[2J.txt"
        );
        assert_eq!(source_name(Path::new("données.txt")), "données.txt");
        assert_eq!(source_name(Path::new("-")), "<stdin>");
    }

    #[test]
    fn pieces_end_at_their_boundary() {
        assert_eq!(cut_at(b"ab\ncd\nef", Boundary::Line), Some(6));
        assert_eq!(cut_at(b"abcdef", Boundary::Line), None);
        assert_eq!(cut_at(b"1\n2\n\n3\n4\n", Boundary::EmptyLine), Some(5));
        assert_eq!(cut_at(b"1\n2\n \r\n3\n", Boundary::EmptyLine), Some(7));
        assert_eq!(cut_at(b"1\n2\n3\n", Boundary::EmptyLine), None);
    }
}
