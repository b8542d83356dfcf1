//! The Sudoku grid as a value, and the words the whole crate uses for its parts.
//!
//! # Glossary
//! - **cell**: one of the 81 places of a grid, numbered 0..81 row by row (`cell = 9 * row + column`).
//! - **row**, **column**: a horizontal or vertical line of 9 cells, numbered 0..9 from the top or left.
//! - **box**: one of the nine 3×3 blocks, numbered 0..9 row by row; box `3 * (row / 3) + column / 3`.
//! - **band**, **stack**: three boxes side by side (rows 0–2, 3–5, 6–8), or one above another (columns
//!   0–2, 3–5, 6–8).
//! - **house**: a row, a column or a box; each must hold every digit 1–9 exactly once.
//! - **peers**: the 20 other cells that share a house with a cell.
//! - **digit**: 1..=9. A cell with no digit is **empty** (stored as 0).
//! - **candidate**: a digit that a cell could still take without repeating one of its peers.
//! - **given**: a digit that a puzzle fixes; the solver must keep it.
//! - **complete grid**: every cell filled and every house holds 1–9 once.
//! - **puzzle**: a grid with empty cells, meant to be completed.
//!
//! # Representation
//! [`Grid`] is 81 bytes, one per cell, `0` for empty: small enough to copy freely, and the same layout
//! the text formats use, so parsing and formatting are a byte-wise translation. The solver and the
//! generator keep their own bit-packed layouts internally and convert at their boundaries.

use std::fmt;

use super::house::House;

/// The number of cells in a grid.
pub(crate) const CELLS: usize = 81;

/// The six orders of three things: of the rows of a band, the bands, the columns of a stack, the
/// stacks, or the boxes a digit takes in a band.
pub(crate) const ORDERS_OF_THREE: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Row of a cell.
pub const fn row_of(cell: usize) -> usize {
    cell / 9
}

/// Column of a cell.
pub const fn column_of(cell: usize) -> usize {
    cell % 9
}

/// Box of a cell.
pub const fn box_of(cell: usize) -> usize {
    3 * (cell / 27) + (cell % 9) / 3
}

/// The cell at position `index` (0..9, row by row) inside box `box_index`.
pub const fn box_cell(box_index: usize, index: usize) -> usize {
    let row = 3 * (box_index / 3) + index / 3;
    let column = 3 * (box_index % 3) + index % 3;
    9 * row + column
}

/// The cells of the 27 houses: rows, then columns, then boxes.
pub(crate) const HOUSES: [[usize; 9]; 27] = {
    let mut houses = [[0; 9]; 27];
    let mut n = 0;
    while n < 9 {
        let mut i = 0;
        while i < 9 {
            houses[n][i] = 9 * n + i;
            houses[9 + n][i] = 9 * i + n;
            houses[18 + n][i] = box_cell(n, i);
            i += 1;
        }
        n += 1;
    }
    houses
};

/// The house of each kind (row, column, box) that holds `cell`, as indices into `HOUSES`.
pub const fn houses_of(cell: usize) -> [usize; 3] {
    [cell / 9, 9 + cell % 9, 18 + 3 * (cell / 27) + cell % 9 / 3]
}

/// The bits of `set` spread to lanes of `width` bits: lane `i` all ones when bit `i` is set.
pub(crate) const fn spread_to_lanes(set: usize, width: usize) -> u64 {
    let mut lanes = 0;
    let mut i = 0;
    while i < 64 / width {
        if set >> i & 1 == 1 {
            lanes |= ((1 << width) - 1) << (width * i);
        }
        i += 1;
    }
    lanes
}

/// For each byte, its eight bits spread to the eight bytes of a word: byte `i` all ones when bit
/// `i` is set. Serves sets of eight patterns (the generator) and eight cells at a time (the solver).
pub(crate) static BYTE_MASKS: [u64; 256] = {
    let mut table = [0; 256];
    let mut set = 0;
    while set < 256 {
        table[set] = spread_to_lanes(set, 8);
        set += 1;
    }
    table
};

/// A 9×9 grid: a puzzle (with empty cells) or a complete grid. Cells hold 0 (empty) or a digit 1–9.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid([u8; CELLS]);

impl Grid {
    /// The grid with every cell empty.
    pub(crate) const EMPTY: Grid = Grid([0; CELLS]);

    /// A grid from 81 cell values, row by row; `None` if a value is above 9.
    pub fn from_cells(cells: [u8; CELLS]) -> Option<Grid> {
        // Not `all`, whose early exit keeps the check from being vectorized.
        let valid = cells.iter().fold(true, |valid, &v| valid & (v <= 9));
        valid.then_some(Grid(cells))
    }

    /// The 81 cell values, row by row, 0 for empty.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.0
    }

    /// The digit in `cell`, or 0 if it is empty.
    pub fn get(&self, cell: usize) -> u8 {
        self.0[cell]
    }

    /// Puts `digit` (0 to empty the cell) into `cell`.
    ///
    /// # Panics
    /// If `digit` is above 9 or `cell` is not below 81.
    pub fn set(&mut self, cell: usize, digit: u8) {
        assert!(digit <= 9, "a cell holds 0..=9, not {digit}");
        self.0[cell] = digit;
    }

    /// How many cells hold a digit.
    pub fn given_count(&self) -> usize {
        self.0.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell holds a digit.
    pub fn is_filled(&self) -> bool {
        self.0.iter().all(|&v| v != 0)
    }

    /// Whether `self` keeps every given of `puzzle`: each cell filled in `puzzle` holds the same
    /// digit here.
    pub fn keeps_givens_of(&self, puzzle: &Grid) -> bool {
        self.0
            .iter()
            .zip(puzzle.0.iter())
            .all(|(&s, &p)| p == 0 || s == p)
    }
}

impl Grid {
    /// The first digit found twice in one house (rows first, then columns, then boxes), if any.
    pub fn first_repeat(&self) -> Option<(u8, House)> {
        for (index, cells) in HOUSES.iter().enumerate() {
            let mut seen = 0u16;
            for &cell in cells {
                let digit = self.0[cell];
                if digit != 0 {
                    if seen >> digit & 1 == 1 {
                        let house = match index {
                            0..9 => House::Row(index + 1),
                            9..18 => House::Column(index - 8),
                            _ => House::Box(index - 17),
                        };
                        return Some((digit, house));
                    }
                    seen |= 1 << digit;
                }
            }
        }
        None
    }
}

impl fmt::Debug for Grid {
    /// The 81-character line form, `.` for empty cells.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line: String = self
            .0
            .iter()
            .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
            .collect();
        write!(f, "Grid({line})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_agrees() {
        for b in 0..9 {
            for i in 0..9 {
                assert_eq!(box_of(box_cell(b, i)), b);
            }
        }
        assert_eq!(box_of(80), 8);
        assert_eq!(box_of(30), 4);
        assert_eq!((row_of(40), column_of(40)), (4, 4));
    }

    #[test]
    fn from_cells_rejects_values_above_nine() {
        let mut cells = [0; CELLS];
        assert!(Grid::from_cells(cells).is_some());
        cells[3] = 10;
        assert!(Grid::from_cells(cells).is_none());
    }

    #[test]
    fn first_repeat_names_the_house() {
        let mut grid = Grid::EMPTY;
        assert_eq!(grid.first_repeat(), None);
        grid.set(0, 5);
        grid.set(80, 5);
        assert_eq!(grid.first_repeat(), None);
        grid.set(8, 5);
        assert_eq!(grid.first_repeat(), Some((5, House::Row(1))));
        let mut grid = Grid::EMPTY;
        grid.set(4, 3);
        grid.set(76, 3);
        assert_eq!(grid.first_repeat(), Some((3, House::Column(5))));
        let mut grid = Grid::EMPTY;
        grid.set(30, 7);
        grid.set(50, 7);
        assert_eq!(
            grid.first_repeat().map(|(d, h)| format!("{d} {h}")),
            Some("7 box 5".into())
        );
    }

    #[test]
    fn keeps_givens() {
        let mut puzzle = Grid::EMPTY;
        puzzle.set(4, 7);
        let mut solution = Grid::EMPTY;
        assert!(!solution.keeps_givens_of(&puzzle));
        solution.set(4, 7);
        assert!(solution.keeps_givens_of(&puzzle));
        assert_eq!(solution.given_count(), 1);
    }
}
