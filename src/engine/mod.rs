//! The engine: counting solutions, walking complete grids and digging puzzles, with one kernel for
//! the standard 9×9 shape and one for every other shape.

pub mod generic;
pub mod standard;
