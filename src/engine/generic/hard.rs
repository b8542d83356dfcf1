//! The generic kernel's part of hard puzzles for every shape but the standard 9×9 one: the
//! measure of `measure.rs`.

pub mod measure;
