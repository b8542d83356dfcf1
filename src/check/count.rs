//! Counts the solutions of a 9×9 puzzle, for `--check --unique` on a CSV corpus.
//!
//! The engine has its own, much faster counter, but a checker that asked the engine whether a
//! puzzle is unique would vouch for the engine's bugs; this one is a plain backtracking search
//! instead, short enough to be read as correct. It branches where the fewest choices are left: on
//! the empty cell with the fewest candidates, or on the one place a digit has left in a house.
//! Both are choices every solution makes, so nothing is missed, and they keep the search small:
//! filling the cells in reading order, a hard 17-clue puzzle takes billions of nodes.
//!
//! The price of independence is speed: this search is some twenty times slower than the engine's,
//! tens of microseconds for a puzzle as `-n` makes them and more for the hardest known ones. A
//! check pays it only with `--unique`, spread over all cores, where it adds well under a minute to
//! a corpus of a million such rows.

use crate::model::grid::Grid;

/// The number of solutions of `puzzle`, counted up to `limit`: with `limit` 2, 1 means exactly
/// one solution. A puzzle whose givens already repeat a digit in a house has none.
pub(super) fn count_solutions(puzzle: &Grid, limit: usize) -> usize {
    let mut board = Board::new();
    for (cell, &digit) in puzzle.cells().iter().enumerate() {
        if digit != 0 && !board.place(cell, digit) {
            return 0;
        }
    }
    let mut found = 0;
    board.search(limit, &mut found);
    found
}

/// Bits 1 to 9: every digit.
const ALL: u16 = 0b11_1111_1110;

/// A partly filled grid, with the digits each house holds as bit sets (bit `d` for digit `d`).
struct Board {
    cells: [u8; 81],
    rows: [u16; 9],
    columns: [u16; 9],
    boxes: [u16; 9],
}

/// The row, column and box of `cell`.
fn houses(cell: usize) -> (usize, usize, usize) {
    (cell / 9, cell % 9, cell / 27 * 3 + cell % 9 / 3)
}

impl Board {
    fn new() -> Board {
        Board {
            cells: [0; 81],
            rows: [0; 9],
            columns: [0; 9],
            boxes: [0; 9],
        }
    }

    /// The digits that `cell` may hold: those none of its houses holds yet.
    fn candidates(&self, cell: usize) -> u16 {
        let (row, column, boxed) = houses(cell);
        ALL & !(self.rows[row] | self.columns[column] | self.boxes[boxed])
    }

    /// Puts `digit` into the empty `cell`; `false`, with nothing changed, if one of its houses
    /// holds the digit already.
    fn place(&mut self, cell: usize, digit: u8) -> bool {
        let bit = 1 << digit;
        if self.candidates(cell) & bit == 0 {
            return false;
        }
        let (row, column, boxed) = houses(cell);
        self.cells[cell] = digit;
        self.rows[row] |= bit;
        self.columns[column] |= bit;
        self.boxes[boxed] |= bit;
        true
    }

    /// Empties `cell`, which holds `digit`.
    fn clear(&mut self, cell: usize, digit: u8) {
        let bit = !(1 << digit);
        let (row, column, boxed) = houses(cell);
        self.cells[cell] = 0;
        self.rows[row] &= bit;
        self.columns[column] &= bit;
        self.boxes[boxed] &= bit;
    }

    /// Adds to `found` the solutions that complete this board, stopping once `found` reaches
    /// `limit`; the board is left as it was.
    fn search(&mut self, limit: usize, found: &mut usize) {
        if *found >= limit {
            return;
        }
        let Some((cell, digits)) = self.choice() else {
            // No empty cell is left, and every digit was placed only where its houses allowed.
            *found += 1;
            return;
        };
        for digit in 1..=9 {
            if digits & 1 << digit != 0 {
                self.place(cell, digit);
                self.search(limit, found);
                self.clear(cell, digit);
                if *found >= limit {
                    return;
                }
            }
        }
    }

    /// An empty cell and the digits to try in it, one of which every solution of this board puts
    /// there: the cell with the fewest candidates, or, when a digit has only one place left in a
    /// house, that place. No digits when the board has no solution; `None` when it is full.
    fn choice(&self) -> Option<(usize, u16)> {
        let mut candidates = [0; 81];
        let mut best: Option<(usize, u16)> = None;
        for cell in (0..81).filter(|&cell| self.cells[cell] == 0) {
            candidates[cell] = self.candidates(cell);
            if best.is_none_or(|(_, fewest)| candidates[cell].count_ones() < fewest.count_ones()) {
                best = Some((cell, candidates[cell]));
            }
        }
        let best = best?;
        if best.1.count_ones() <= 1 {
            return Some(best);
        }
        for house in 0..27 {
            let cells = house_cells(house);
            // The digits that one empty cell of the house may hold, and those that two or more may.
            let (mut once, mut twice) = (0u16, 0u16);
            for &cell in &cells {
                twice |= once & candidates[cell];
                once |= candidates[cell];
            }
            let held = cells
                .iter()
                .fold(0, |held, &cell| held | 1 << self.cells[cell])
                & ALL;
            if ALL & !held & !once != 0 {
                // A digit the house lacks has no place left in it.
                return Some((best.0, 0));
            }
            let single = once & !twice;
            if single != 0 {
                let digit = 1 << single.trailing_zeros();
                let cell = cells
                    .into_iter()
                    .find(|&cell| candidates[cell] & digit != 0)
                    .expect("one cell may hold the digit");
                return Some((cell, digit));
            }
        }
        Some(best)
    }
}

/// The cells of house `house`: rows 0–8, columns 9–17, boxes 18–26.
fn house_cells(house: usize) -> [usize; 9] {
    let n = house % 9;
    std::array::from_fn(|i| match house / 9 {
        0 => 9 * n + i,
        1 => 9 * i + n,
        _ => 27 * (n / 3) + 3 * (n % 3) + 9 * (i / 3) + i % 3,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(line: &str, limit: usize) -> usize {
        count_solutions(&line.parse().unwrap(), limit)
    }

    #[test]
    fn known_puzzles_are_counted() {
        // A unique 17-clue puzzle, and one of many solutions.
        let unique =
            "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";
        assert_eq!(count(unique, 2), 1);
        let three =
            "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
        assert_eq!(count(three, 2), 2);
        assert_eq!(count(three, 3), 3);
        assert_eq!(count(&".".repeat(81), 2), 2);
    }

    #[test]
    fn complete_grids_count_once_and_broken_ones_never() {
        let grid =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        assert_eq!(count(grid, 2), 1);
        // Two 5s in row 1.
        let repeated = format!("55{}", &grid[2..]);
        assert_eq!(count(&repeated, 2), 0);
        // Row 1 leaves r1c9 only a 9, which column 9 holds already: no repeat among the givens,
        // and still no solution.
        let stuck = format!("12345678{}9", ".".repeat(72));
        assert_eq!(count(&stuck, 2), 0);
    }
}
