//! Where puzzles and grids come from: a file, or standard input for `-`; the counterpart of
//! [`crate::output`].
//!
//! A regular file is mapped into memory rather than read: no copy, and no fresh buffer to fill,
//! which is most of the cost of reading a large file. The mapping is shared with the file, so what
//! another process does to the file during the run shows through it:
//! - **written to**: the run reads the new bytes, maybe half of them; its result is then about no
//!   version of the file in particular, but it ends normally. Input files must not change during a
//!   run (README says so).
//! - **shortened**: touching a page past the new end raises SIGBUS, which would kill the process.
//!   `sigbus` catches it when it falls inside one of our mappings and ends the run as an I/O
//!   error that names the file, exit code 1.
//!
//! Standard input, pipes, devices and empty files are read whole.

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

/// The whole text of a source: a regular file mapped into memory, or the bytes read from anything
/// else.
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
    let name = source_name(path);
    let failed = |e| Error::io(&name, e);
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
    if metadata.is_file() && metadata.len() > 0 && sigbus::watch_ready() {
        // SAFETY: the mapping is read-only and shared with the file. Another process writing the
        // file changes what we read, which is undefined only as a result, not as memory: the bytes
        // are plain data. Another process shortening it makes a touch past the new end raise
        // SIGBUS, which `sigbus` turns into an error exit before the mapping is registered for
        // use below.
        if let Ok(map) = unsafe { memmap2::MmapOptions::new().populate().map(&file) } {
            sigbus::watch(&map, &name);
            return Ok(SourceText::Mapped(map));
        }
    }
    let mut text = Vec::new();
    file.read_to_end(&mut text).map_err(failed)?;
    Ok(SourceText::Read(text))
}

/// Turning SIGBUS in a mapped input into an error exit. The handler does only what is safe in a
/// signal handler: it reads atomics, writes a prepared message with `write`, and calls `_exit`.
#[cfg(unix)]
mod sigbus {
    use std::sync::Once;
    use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

    /// Mappings watched at once: a run maps at most two inputs (`--check FILE --puzzles PFILE`).
    const SLOTS: usize = 4;

    /// One watched mapping: its address range and the message that names its file.
    struct Slot {
        start: AtomicUsize,
        end: AtomicUsize,
        message: AtomicPtr<u8>,
        message_len: AtomicUsize,
    }

    #[allow(clippy::declare_interior_mutable_const)]
    const EMPTY_SLOT: Slot = Slot {
        start: AtomicUsize::new(0),
        end: AtomicUsize::new(0),
        message: AtomicPtr::new(std::ptr::null_mut()),
        message_len: AtomicUsize::new(0),
    };

    static SLOTS_IN_USE: AtomicUsize = AtomicUsize::new(0);
    static WATCHED: [Slot; SLOTS] = [EMPTY_SLOT; SLOTS];
    static INSTALL: Once = Once::new();
    static INSTALLED: AtomicUsize = AtomicUsize::new(0);

    /// Whether a new mapping can be watched: the handler is in place and a slot is free.
    pub(super) fn watch_ready() -> bool {
        INSTALL.call_once(|| {
            // SAFETY: a zeroed sigaction is valid; the handler is an `extern "C"` function of the
            // signature SA_SIGINFO asks for.
            let installed = unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_sigbus as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0
            };
            INSTALLED.store(usize::from(installed), Ordering::Release);
        });
        INSTALLED.load(Ordering::Acquire) == 1 && SLOTS_IN_USE.load(Ordering::Acquire) < SLOTS
    }

    /// Watches `map` for the rest of the run (mappings live until the run ends).
    pub(super) fn watch(map: &[u8], name: &str) {
        let index = SLOTS_IN_USE.fetch_add(1, Ordering::AcqRel);
        let Some(slot) = WATCHED.get(index) else {
            return;
        };
        let message: &'static mut [u8] = Box::leak(
            format!("sudoku-gen: error: {name}: the file was shortened while it was read\n")
                .into_bytes()
                .into_boxed_slice(),
        );
        slot.message_len.store(message.len(), Ordering::Release);
        slot.message.store(message.as_mut_ptr(), Ordering::Release);
        let start = map.as_ptr() as usize;
        // The range covers the mapping's last page whole: a fault there is ours too.
        slot.end
            .store(start + map.len().next_multiple_of(4096), Ordering::Release);
        slot.start.store(start, Ordering::Release);
    }

    extern "C" fn on_sigbus(signal: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo for a signal installed with SA_SIGINFO.
        let address = unsafe { (*info).si_addr() } as usize;
        for slot in &WATCHED {
            let start = slot.start.load(Ordering::Acquire);
            if start != 0 && (start..slot.end.load(Ordering::Acquire)).contains(&address) {
                let message = slot.message.load(Ordering::Acquire);
                let len = slot.message_len.load(Ordering::Acquire);
                // SAFETY: `message` and `len` describe a leaked, never freed buffer; write and
                // _exit are async-signal-safe.
                unsafe {
                    libc::write(libc::STDERR_FILENO, message.cast(), len);
                    libc::_exit(1);
                }
            }
        }
        // Not one of ours: die of it as the default action would.
        // SAFETY: signal and raise are async-signal-safe.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
}

#[cfg(not(unix))]
mod sigbus {
    pub(super) fn watch_ready() -> bool {
        false
    }

    pub(super) fn watch(_: &[u8], _: &str) {}
}
