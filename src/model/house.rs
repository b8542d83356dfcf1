//! Houses as messages name them: the one way every shape and every report says where a fault is.

use std::fmt;

/// A house of a grid, numbered from 1 as people count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum House {
    /// Row 1..=N, from the top.
    Row(usize),
    /// Column 1..=N, from the left.
    Column(usize),
    /// Box 1..=N of a boxed shape, row by row.
    Box(usize),
    /// Region 1..=N of a jigsaw shape, in reading order of its first cell.
    Region(usize),
    /// The diagonal from the top-left corner.
    Diagonal,
    /// The diagonal from the top-right corner.
    AntiDiagonal,
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            House::Row(n) => write!(f, "row {n}"),
            House::Column(n) => write!(f, "column {n}"),
            House::Box(n) => write!(f, "box {n}"),
            House::Region(n) => write!(f, "region {n}"),
            House::Diagonal => f.write_str("the main diagonal"),
            House::AntiDiagonal => f.write_str("the anti-diagonal"),
        }
    }
}
