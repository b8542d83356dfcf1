//! Memory for large buffers: an allocator that backs every allocation of 1 MiB or more with huge
//! pages, for programs to register as their global allocator (the `sudoku-gen` binary does).
//!
//! # Why
//! A job's large buffers (the parsed puzzles, the whole output) are fresh memory, and most of the
//! cost of fresh memory is the kernel mapping it in and zeroing it on first touch, once for every
//! 4 KiB page; with 2 MiB pages that cost is paid once for 512 of them. The C allocator maps large buffers on their
//! own, but writes a header into the first page before anything can ask for huge pages, and its
//! mappings do not start on a 2 MiB boundary, so at best the middle of a buffer gets them.
//!
//! # How
//! An allocation of 1 MiB or more, aligned to a page at most, gets its own anonymous mapping whose
//! length is rounded up to a multiple of 2 MiB (see below for where it starts),
//! marked for huge pages before it is touched. Growing it remaps it without copying. Everything
//! smaller goes to the system allocator. The rounding costs no memory until the bytes past the end
//! are touched, which nothing does.
//!
//! # Which kernels
//! - The advice (`MADV_HUGEPAGE`) counts when transparent huge pages are `always` or `madvise` in
//!   `/sys/kernel/mm/transparent_hugepage/enabled`; with `never` every page stays 4 KiB, and only
//!   speed differs.
//! - Linux 6.7 and later place an anonymous mapping whose length is a multiple of 2 MiB on a 2 MiB
//!   boundary, so the whole buffer can be huge pages. Older kernels place it at any page boundary:
//!   then only the whole 2 MiB stretches inside it get huge pages, the ends stay 4 KiB.
//! - Without transparent huge page support at all, `madvise` fails, which is ignored.
//!
//! # When memory runs out
//! Rust's collections abort the process on a failed allocation, with a backtrace. This allocator
//! ends the run instead as any error does: a message on stderr, exit 1, and the temporary file
//! of `-o` and the grader's programs cleaned up (see [`fail_allocations_by_signal`]). Callers
//! that handle a null themselves ask for it with [`fallibly`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::Error;

/// A buffer of `len` zero bytes, or [`Error::OutOfMemory`] where the global allocator has none:
/// `vec![0; len]` would abort the program, printing a backtrace. Fresh memory reads zero without
/// a pass to write it, as `vec!` would have it.
pub fn zeroed(len: usize) -> Result<Vec<u8>, Error> {
    let Ok(layout) = Layout::array::<u8>(len) else {
        return Err(Error::OutOfMemory { bytes: len });
    };
    if len == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the layout has a size other than zero.
    let start = fallibly(|| unsafe { std::alloc::alloc_zeroed(layout) });
    if start.is_null() {
        return Err(Error::OutOfMemory { bytes: len });
    }
    // SAFETY: `start` holds `len` initialised bytes, allocated by the global allocator with the
    // layout of `len` bytes, which is what a vector of that capacity frees with.
    Ok(unsafe { Vec::from_raw_parts(start, len, len) })
}

thread_local! {
    /// Whether a failed allocation of this thread returns a null to its caller (see [`fallibly`]).
    static FALLIBLE: Cell<bool> = const { Cell::new(false) };
}

/// Whether an allocation failed and ends the run.
static FAILED: AtomicBool = AtomicBool::new(false);

/// Whether a thread of the binary waits for the ending signals, to clean up before the end.
static BY_SIGNAL: AtomicBool = AtomicBool::new(false);

/// Runs `f`, in which a failed allocation returns a null (or an error from `try_reserve`) to its
/// caller instead of ending the run.
pub fn fallibly<T>(f: impl FnOnce() -> T) -> T {
    let before = FALLIBLE.replace(true);
    let result = f();
    FALLIBLE.set(before);
    result
}

/// From now on a failed allocation ends the run through `SIGTERM`, which the caller's thread
/// for the ending signals catches: it cleans up, and ends with exit code 1 where
/// [`allocation_failed`] says so.
pub fn fail_allocations_by_signal() {
    BY_SIGNAL.store(true, Ordering::SeqCst);
}

/// Whether an allocation that failed is ending the run.
pub fn allocation_failed() -> bool {
    FAILED.load(Ordering::SeqCst)
}

/// `block`, unless it is a failed allocation of `size` bytes outside [`fallibly`]: then the run
/// ends with a message. Nothing here allocates.
fn checked(block: *mut u8, size: usize) -> *mut u8 {
    if !block.is_null() || FALLIBLE.get() {
        return block;
    }
    let mut count = itoa::Buffer::new();
    for part in [
        &b"sudoku-gen: error: not enough memory: an allocation of "[..],
        count.format(size).as_bytes(),
        b" bytes failed\n",
    ] {
        // SAFETY: a plain system call on bytes this function holds.
        unsafe { libc::write(2, part.as_ptr().cast(), part.len()) };
    }
    FAILED.store(true, Ordering::SeqCst);
    if BY_SIGNAL.load(Ordering::SeqCst) {
        // SAFETY: plain system calls; this thread waits for the end the signal's thread makes.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGTERM);
            loop {
                libc::pause();
            }
        }
    }
    // SAFETY: a plain system call; nothing was left to clean up.
    unsafe { libc::_exit(1) }
}

/// The allocator (see the module comment).
pub struct HugePageAllocator;

const HUGE_PAGE: usize = 2 << 20;

/// Allocations of this size and more get a mapping of their own.
const LARGE: usize = 1 << 20;

/// Whether an allocation of `layout` gets its own mapping: a pure function of the layout, so that
/// freeing and growing know how it was made.
fn is_large(layout: &Layout) -> bool {
    layout.size() >= LARGE && layout.align() <= 4096
}

/// The length of the mapping that holds `size` bytes.
fn mapped_len(size: usize) -> usize {
    size.next_multiple_of(HUGE_PAGE)
}

/// Asks for huge pages over a mapping; only speed depends on the answer.
///
/// # Safety
/// `start` and `len` describe a mapping of this allocator.
unsafe fn advise_huge_pages(start: *mut libc::c_void, len: usize) {
    // SAFETY: the range is one of our mappings (caller); the advice changes how the kernel backs
    // it, never its contents.
    unsafe { libc::madvise(start, len, libc::MADV_HUGEPAGE) };
}

/// A fresh zero-filled mapping of `len` bytes marked for huge pages, or null.
fn map(len: usize) -> *mut u8 {
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing touches no
    // existing memory.
    unsafe {
        let start = libc::mmap(
            ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if start == libc::MAP_FAILED {
            return ptr::null_mut();
        }
        advise_huge_pages(start, len);
        start.cast()
    }
}

// SAFETY: large allocations are whole mappings of at least their size, page-aligned (alignments
// above a page go to the system allocator), zero-filled, and freed or grown only through the
// layout that made them; everything else is the system allocator's.
unsafe impl GlobalAlloc for HugePageAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let block = if is_large(&layout) {
            map(mapped_len(layout.size()))
        } else {
            // SAFETY: the caller's guarantees for `layout` carry over.
            unsafe { System.alloc(layout) }
        };
        checked(block, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let block = if is_large(&layout) {
            // A fresh mapping reads as zeros.
            map(mapped_len(layout.size()))
        } else {
            // SAFETY: the caller's guarantees for `layout` carry over.
            unsafe { System.alloc_zeroed(layout) }
        };
        checked(block, layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if is_large(&layout) {
            // SAFETY: `ptr` is a mapping this allocator made for `layout` (caller).
            unsafe { libc::munmap(ptr.cast(), mapped_len(layout.size())) };
        } else {
            // SAFETY: `ptr` came from the system allocator with `layout` (caller).
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's guarantees carry over.
        checked(unsafe { self.resize(ptr, layout, new_size) }, new_size)
    }
}

impl HugePageAllocator {
    /// [`GlobalAlloc::realloc`], a null where it fails.
    ///
    /// # Safety
    /// As for [`GlobalAlloc::realloc`].
    unsafe fn resize(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees that `new_size`, rounded up to the alignment, fits.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (is_large(&layout), is_large(&new_layout)) {
            // SAFETY: `ptr` came from the system allocator with `layout` (caller).
            (false, false) => unsafe { System.realloc(ptr, layout, new_size) },
            (true, true) => {
                let (old_len, new_len) = (mapped_len(layout.size()), mapped_len(new_size));
                if old_len == new_len {
                    return ptr;
                }
                // SAFETY: `ptr` is a mapping of `old_len` bytes this allocator made (caller); the
                // kernel moves its pages instead of copying them.
                unsafe {
                    let moved = libc::mremap(ptr.cast(), old_len, new_len, libc::MREMAP_MAYMOVE);
                    if moved == libc::MAP_FAILED {
                        return ptr::null_mut();
                    }
                    advise_huge_pages(moved, new_len);
                    moved.cast()
                }
            }
            _ => {
                // Between the two kinds: a new block, a copy, and the old block freed.
                // SAFETY: `new_layout` has a non-zero size (caller), `ptr` holds `layout.size()`
                // bytes, and the new block does not overlap the old one.
                unsafe {
                    let moved = fallibly(|| self.alloc(new_layout));
                    if !moved.is_null() {
                        ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                    moved
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(size: usize) -> Layout {
        Layout::from_size_align(size, 8).unwrap()
    }

    #[test]
    fn large_blocks_are_zeroed_and_keep_their_bytes_when_they_grow_or_shrink() {
        let a = HugePageAllocator;
        // Sizes that stay small, cross into large and back, and grow and shrink as large blocks.
        let steps = [
            1000,
            LARGE - 1,
            LARGE,
            3 * HUGE_PAGE + 5,
            HUGE_PAGE,
            HUGE_PAGE + 1,
            100,
            LARGE + 7,
        ];
        // SAFETY: each block is used within its size and freed with the layout that made it.
        unsafe {
            let mut size = 64;
            let mut block = a.alloc_zeroed(layout(size));
            assert!(
                std::slice::from_raw_parts(block, size)
                    .iter()
                    .all(|&b| b == 0)
            );
            std::slice::from_raw_parts_mut(block, size).fill(7);
            for new_size in steps {
                block = a.realloc(block, layout(size), new_size);
                assert!(!block.is_null());
                let kept = size.min(new_size);
                let bytes = std::slice::from_raw_parts_mut(block, new_size);
                assert!(
                    bytes[..kept].iter().all(|&b| b == 7),
                    "{size} -> {new_size}"
                );
                bytes.fill(7);
                size = new_size;
            }
            a.dealloc(block, layout(size));
            let fresh = a.alloc_zeroed(layout(5 * LARGE));
            assert!(
                std::slice::from_raw_parts(fresh, 5 * LARGE)
                    .iter()
                    .all(|&b| b == 0)
            );
            assert_eq!(fresh as usize % 4096, 0);
            a.dealloc(fresh, layout(5 * LARGE));
        }
    }

    #[test]
    fn alignments_above_a_page_go_to_the_system_allocator() {
        let a = HugePageAllocator;
        let layout = Layout::from_size_align(2 * LARGE, 1 << 16).unwrap();
        assert!(!is_large(&layout));
        // SAFETY: the block is freed with the layout that made it.
        unsafe {
            let block = a.alloc(layout);
            assert_eq!(block as usize % (1 << 16), 0);
            a.dealloc(block, layout);
        }
    }
}
