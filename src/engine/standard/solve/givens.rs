//! The givens of a puzzle, kept by band digit as the search's words are, so that a search starts from
//! them in a few operations a band digit without reading the grid; digging keeps them up to date as
//! it empties and refills cells.
//!
//! Digits at this boundary are 1..=9, as in [`Grid`]; inside, a band digit `bd` is `9 * band +
//! digit - 1`, as in the search's words.

use super::{
    BAND, ROW_CELLS, State, box_cells, column_cells, columns_of, houses_in_band, value_planes,
};
use crate::model::grid::Grid;

/// The givens of a puzzle by band digit, kept up to date as cells are emptied and filled again: a
/// search starts from them in a few operations a band digit, without reading the grid.
#[derive(Clone, Copy)]
pub(crate) struct Givens {
    /// Per band digit, the cells given the digit.
    cells: [u32; 27],
    /// Per band digit, the rows and boxes of the band that hold one of those, as cells.
    houses: [u32; 27],
    /// Per digit, the columns (bits 0..9) where it is given.
    columns: [u32; 9],
    /// Per band, the cells given any digit.
    filled: [u32; 3],
}

impl Givens {
    /// The givens of `puzzle`, or `None` if two of them clash.
    #[inline(always)]
    pub(crate) fn of(puzzle: &Grid) -> Option<Givens> {
        // Arrays filled in place, not by `map` or `from_fn` (see `two_digits` in `solve.rs`).
        let planes = value_planes(puzzle);
        let (mut cells, mut filled) = ([0u32; 27], [0u32; 3]);
        for (band, &[p0, p1, p2, p3]) in planes.iter().enumerate() {
            // The band's cells by the low two and the high two bits of their value.
            let low = [!p0 & !p1, p0 & !p1, !p0 & p1, p0 & p1];
            let high = [!p2 & !p3, p2 & !p3, !p2 & p3];
            for digit in 0..9 {
                cells[9 * band + digit] = low[(digit + 1) & 3] & high[(digit + 1) >> 2];
            }
            filled[band] = p0 | p1 | p2 | p3;
        }
        let (mut houses, mut clash) = ([0u32; 27], false);
        for (houses, &band_cells) in houses.iter_mut().zip(&cells) {
            let (in_band, clashes) = houses_in_band(band_cells);
            *houses = in_band;
            clash |= clashes;
        }
        let mut columns = [0u32; 9];
        for (digit, column) in columns.iter_mut().enumerate() {
            let a = columns_of(cells[digit]);
            let b = columns_of(cells[9 + digit]);
            let c = columns_of(cells[18 + digit]);
            clash |= a & b | a & c | b & c != 0;
            *column = a | b | c;
        }
        (!clash).then_some(Givens {
            cells,
            houses,
            columns,
            filled,
        })
    }

    /// The cells given a digit, bit `cell`.
    pub(crate) fn given_cells(&self) -> u128 {
        self.filled
            .iter()
            .rev()
            .fold(0, |acc, &band| acc << 27 | u128::from(band))
    }

    /// Gives `digit` (1..=9) in the empty `cell`; the caller keeps the givens from clashing.
    pub(crate) fn fill(&mut self, cell: usize, digit: u8) {
        self.update(cell, digit, true);
    }

    /// Empties `cell`, which holds `digit` (1..=9).
    pub(crate) fn empty(&mut self, cell: usize, digit: u8) {
        self.update(cell, digit, false);
    }

    fn update(&mut self, cell: usize, digit: u8, given: bool) {
        let (band, bit, digit) = (cell / 27, 1 << (cell % 27), usize::from(digit) - 1);
        let bd = 9 * band + digit;
        let column = 1 << (cell % 9);
        if given {
            self.cells[bd] |= bit;
            self.filled[band] |= bit;
            self.columns[digit] |= column;
        } else {
            self.cells[bd] &= !bit;
            self.filled[band] &= !bit;
            self.columns[digit] &= !column;
        }
        self.houses[bd] = houses_in_band(self.cells[bd]).0;
    }

    /// For band digit `bd`, the cells the givens leave it: its givens, and the empty cells that see
    /// none of them.
    fn candidates(&self, bd: usize) -> u32 {
        let column_peers = column_cells(0) * self.columns[bd % 9];
        (BAND & !self.filled[bd / 9] & !self.houses[bd] & !column_peers) | self.cells[bd]
    }

    /// Whether the givens force `digit` (1..=9) into the empty `cell`: no other digit can go there
    /// (a naked single), or no other cell of its row, column or box can take the digit (a hidden
    /// single). Then emptying the cell keeps a puzzle's solution unique, with no search.
    pub(crate) fn forces(&self, cell: usize, digit: u8) -> bool {
        let (band, bit, digit) = (cell / 27, 1 << (cell % 27), usize::from(digit) - 1);
        let naked = (0..9).all(|d| d == digit || self.candidates(9 * band + d) & bit == 0);
        let own = self.candidates(9 * band + digit);
        let column = column_cells(cell % 9);
        let hidden_in_band = [ROW_CELLS[cell % 27 / 9], box_cells(cell % 9 / 3)]
            .iter()
            .any(|&house| own & house == bit);
        let hidden_in_column = own & column == bit
            && [1, 2]
                .iter()
                .all(|&shift| self.candidates(9 * ((band + shift) % 3) + digit) & column == 0);
        naked || hidden_in_band || hidden_in_column
    }

    /// The search state before any reasoning: each digit can go wherever its givens allow.
    #[inline(always)]
    pub(super) fn state(&self) -> State {
        let mut state = State {
            candidates: [0; 27],
            empty: [
                BAND & !self.filled[0],
                BAND & !self.filled[1],
                BAND & !self.filled[2],
            ],
            dirty: 0,
            stale_stacks: 0,
        };
        for (bd, candidates) in state.candidates.iter_mut().enumerate() {
            *candidates = self.candidates(bd);
        }
        for (bd, &cells) in self.cells.iter().enumerate() {
            // A digit given three times in a band (never more) has nothing left to reason about
            // there; with the lowest two given cells taken out, nothing is left of fewer.
            let rest = cells & cells.wrapping_sub(1);
            state.dirty |= u32::from(rest & rest.wrapping_sub(1) == 0) << bd;
        }
        state.stale_stacks = state.dirty;
        state
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::standard::solve::solve;
    use crate::engine::standard::solve::tests::emptied_one_by_one;
    use crate::model::grid::{CELLS, HOUSES, houses_of};

    #[test]
    fn givens_kept_up_to_date_match_givens_read_afresh() {
        let solution = solve(&Grid::EMPTY).unwrap();
        let mut puzzle = solution;
        let mut givens = Givens::of(&puzzle).unwrap();
        for step in 0..200 {
            let cell = step * 37 % CELLS;
            let digit = solution.get(cell);
            if puzzle.get(cell) == 0 {
                puzzle.set(cell, digit);
                givens.fill(cell, digit);
            } else {
                puzzle.set(cell, 0);
                givens.empty(cell, digit);
            }
            let given = (0..CELLS).filter(|&c| puzzle.get(c) != 0);
            assert_eq!(givens.given_cells(), given.fold(0, |acc, c| acc | 1 << c));
            let (kept, fresh) = (givens.state(), Givens::of(&puzzle).unwrap().state());
            assert_eq!(kept.candidates, fresh.candidates, "step {step}");
            assert_eq!(
                (kept.empty, kept.dirty),
                (fresh.empty, fresh.dirty),
                "step {step}"
            );
        }
    }

    /// Whether `digit` may go into the empty `cell` of `puzzle`: no peer holds it.
    fn allowed(puzzle: &Grid, cell: usize, digit: u8) -> bool {
        houses_of(cell)
            .iter()
            .flat_map(|&house| HOUSES[house])
            .all(|other| other == cell || puzzle.get(other) != digit)
    }

    #[test]
    fn givens_force_exactly_the_singles() {
        let (solution, puzzles) = emptied_one_by_one(60, 43);
        for (step, puzzle) in puzzles.into_iter().enumerate() {
            let givens = Givens::of(&puzzle).unwrap();
            for cell in (0..CELLS).filter(|&c| puzzle.get(c) == 0) {
                let digit = solution.get(cell);
                let naked = (1..=9).filter(|&d| allowed(&puzzle, cell, d)).count() == 1;
                let hidden = houses_of(cell).iter().any(|&house| {
                    HOUSES[house].iter().all(|&other| {
                        other == cell || puzzle.get(other) != 0 || !allowed(&puzzle, other, digit)
                    })
                });
                assert_eq!(
                    givens.forces(cell, digit),
                    naked || hidden,
                    "step {step} cell {cell}"
                );
            }
        }
    }
}
