//! Text: the formats grids and puzzles are written in, reading them, and CSV corpora.

pub mod corpus;
pub mod format;
pub mod parse;
pub mod shaped;
