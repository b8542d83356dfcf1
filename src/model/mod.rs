//! The values every job speaks of: the standard 9×9 [`grid::Grid`] with the glossary of the words
//! the crate uses, the [`shape::Shape`] of any grid, and the [`shard::Shard`] of a corpus.

pub mod grid;
pub mod house;
pub mod layout;
pub mod request;
pub mod shape;
pub mod shard;
pub mod symbols;
