//! Hard puzzles on demand: what the search's measure shares between the kernels ([`measure`]).

pub mod measure;
