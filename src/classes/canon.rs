//! Equivalence of grids and puzzles, and the canonical form that names each equivalence class.
//!
//! # Equivalence
//! The moves that keep every rule of Sudoku are: transposing, reordering the bands, the rows inside
//! each band, the stacks and the columns inside each stack, and relabelling the digits. A
//! [`Transformation`] is one of each, 9!·2·6⁸ in all. Two grids (or puzzles) are **equivalent** when a
//! transformation maps one onto the other.
//!
//! # Canonical form
//! The canonical form of a grid is the smallest of its equivalents read as an 81-digit line, an empty
//! cell reading as 0. For a given arrangement of rows and columns the smallest relabelling is forced:
//! digits are numbered 1, 2, 3, ... in their order of first appearance in the arranged line. So the
//! search is over the 2·6⁸ arrangements only, and it builds the line from its first cell on, keeping
//! the smallest line found so far and dropping every partial arrangement whose line is already larger.
//!
//! Two searches share that frame: the general one (`puzzle`), for puzzles and anything that is not
//! a valid complete grid, which places the line cell by cell; and the one for valid complete grids
//! (`complete`), which reads the arrangements that can come first off the partner maps of the top
//! band's first two rows (`partners`) and so hardly searches at all.
//!
//! # As `--canon` writes it
//! `--canon` writes, for every grid or puzzle of its input (any `-s` input format, CSV corpora
//! included, where it appends a column `canon`), in order, its canonical form as one 81-character
//! line: a blank is read as `0` and written as `.`, so blanks come first and a complete grid starts
//! `123456789`. Equivalent inputs give the same line, inequivalent ones different lines. Any 81
//! cells have a form: a puzzle without a solution is not an error here. Input problems are as for
//! `-s` (located, exit code 1, nothing written).
//!
//! Both searches (puzzles, and valid complete grids) are checked in the tests against a brute-force
//! canonicaliser over all 2·6⁸ arrangements.

mod best;
mod complete;
mod partners;
mod puzzle;
mod transformation;

pub use transformation::Transformation;

use best::Best;
use complete::CompleteSearch;
use puzzle::PuzzleSearch;

use crate::model::grid::Grid;

/// The canonical form of `grid`: the smallest line among its equivalents (see the module comment).
pub fn canonical_form(grid: &Grid) -> Grid {
    search(grid).form()
}

/// A transformation that maps `grid` onto its canonical form.
pub fn canonical_transformation(grid: &Grid) -> Transformation {
    search(grid).transformation()
}

/// The smallest line of `grid` and an arrangement that gives it. A quick scan for blanks turns
/// puzzles away before the complete search's tables are built.
fn search(grid: &Grid) -> Best {
    // The tables are filled in place: moving them would copy them while their bytes are still
    // on their way to memory.
    let mut complete = CompleteSearch::EMPTY;
    if !grid.cells().contains(&0) && complete.read(grid) {
        complete.run()
    } else {
        PuzzleSearch::new(grid).run()
    }
}

/// How many bits are set in a mask of columns of one stack: its three bits folded onto the lowest
/// three and counted by a table, since the default target has no popcount instruction and its
/// software count costs more than this.
fn ones(mask: u16) -> u32 {
    0xe994 >> (2 * ((mask | mask >> 3 | mask >> 6) & 7)) & 3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::grid::CELLS;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    /// A grid from a line of digits, `.` for an empty cell.
    pub(super) fn grid(line: &str) -> Grid {
        let mut cells = [0; CELLS];
        for (cell, ch) in cells.iter_mut().zip(line.bytes()) {
            *cell = if ch == b'.' { 0 } else { ch - b'0' };
        }
        Grid::from_cells(cells).unwrap()
    }

    pub(super) const GRID: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    pub(super) const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn equivalent_inputs_share_their_form() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        for line in [GRID, PUZZLE] {
            let g = grid(line);
            let form = canonical_form(&g);
            for _ in 0..20 {
                let moved = Transformation::random(&mut rng).apply(&g);
                assert_eq!(canonical_form(&moved), form);
            }
        }
    }

    #[test]
    fn a_complete_form_starts_with_the_first_row_in_order() {
        let form = canonical_form(&grid(GRID));
        assert_eq!(&form.cells()[..9], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn ones_counts_the_bits_of_every_mask_of_one_stack() {
        for stack in 0..3 {
            for bits in 0..8u16 {
                let mask = bits << (3 * stack);
                assert_eq!(ones(mask), mask.count_ones(), "{mask:#b}");
            }
        }
    }

    #[test]
    fn the_empty_grid_is_its_own_form() {
        assert_eq!(canonical_form(&Grid::EMPTY), Grid::EMPTY);
    }
}
