//! The 9×9 kernels: the bit-parallel band solver, the value-by-value walk of `-c` with its
//! shortcuts, and digging.

pub mod dig;
pub mod hard;
pub mod reach;
pub mod solve;
pub mod walk;
