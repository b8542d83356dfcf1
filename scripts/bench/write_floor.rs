//! The floor of `sudoku-gen -c N`: one process that fills a buffer of BYTES bytes with copies of a
//! grid block and writes it with a single `write_all`, the way the generator writes its output, but
//! with no Sudoku work. `sudoku-gen -c N > f` cannot take less time than `write-floor SIZE > f`.
//!
//! The buffer is 2 MiB aligned and asks the kernel for transparent huge pages before it is touched,
//! as sudoku-gen's allocator does with its output buffer, so that the floor pays the same price per
//! byte of memory and the ratio measures the Sudoku work alone.
//!
//! Built by scripts/bench.sh with plain `rustc -O`; std only.

use std::alloc::{Layout, alloc, dealloc};
use std::io::Write;
use std::process::ExitCode;

const HUGE_PAGE: usize = 2 << 20;
const MADV_HUGEPAGE: i32 = 14;

unsafe extern "C" {
    fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
}

/// One grid of the `-c` grid format and the empty line after it: 9 lines of 18 bytes, then `\n`.
fn grid_block() -> Vec<u8> {
    let mut block = Vec::with_capacity(163);
    for row in 0..9 {
        for column in 0..9 {
            block.push(b'1' + ((row * 3 + row / 3 + column) % 9) as u8);
            block.push(if column == 8 { b'\n' } else { b' ' });
        }
    }
    block.push(b'\n');
    block
}

fn main() -> ExitCode {
    let Some(bytes) = std::env::args()
        .nth(1)
        .and_then(|arg| arg.parse::<usize>().ok())
    else {
        eprintln!("usage: write-floor BYTES");
        return ExitCode::from(2);
    };
    let layout = Layout::from_size_align(bytes.max(1), HUGE_PAGE).expect("a valid size");
    // SAFETY: the layout has a non-zero size; every byte is written before the slice over the
    // buffer is made, and the buffer is freed once, with the same layout, after the write.
    let (start, written) = unsafe {
        let start = alloc(layout);
        if start.is_null() {
            eprintln!("write-floor: out of memory");
            return ExitCode::FAILURE;
        }
        // Advice only: without huge pages the floor is slower, never wrong.
        madvise(start, bytes & !(HUGE_PAGE - 1), MADV_HUGEPAGE);
        let block = grid_block();
        for offset in (0..bytes).step_by(block.len()) {
            let length = block.len().min(bytes - offset);
            std::ptr::copy_nonoverlapping(block.as_ptr(), start.add(offset), length);
        }
        let buffer = std::slice::from_raw_parts(start, bytes);
        (start, std::io::stdout().lock().write_all(buffer))
    };
    // SAFETY: allocated above with this layout, and no longer used.
    unsafe { dealloc(start, layout) };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("write-floor: {e}");
            ExitCode::FAILURE
        }
    }
}
