//! Equivalence classes: canonical forms, fingerprints, random equivalents, and pairwise
//! inequivalent grids.

pub mod canon;
pub mod distinct;
pub(crate) mod fingerprint;
mod representatives;
pub mod shuffle;
mod simd;
