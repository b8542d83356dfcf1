//! Text: the formats grids and puzzles are written in, reading them, and CSV corpora.

pub(crate) mod alphabet;
pub(crate) mod boxes;
pub mod corpus;
pub mod format;
pub mod parse;
mod raw_fields;
pub mod shaped;
pub mod shaped_corpus;
