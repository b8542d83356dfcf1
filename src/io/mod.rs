//! Where bytes come from and go to: input read a piece at a time, output written whole or
//! atomically, the memory of large buffers, and the progress bar.

pub mod input;
#[cfg(target_os = "linux")]
pub mod memory;
pub mod output;
#[doc(hidden)]
pub mod progress;
pub mod replacement;
