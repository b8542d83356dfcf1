//! The kernels for every shape: a search over the shape's houses, the value-by-value walk over its
//! regions, and digging.

pub mod dig;
pub mod solve;
pub mod walk;
