//! The moves of the equivalence group as values.
//!
//! A transformation keeps its row and column moves as one permutation of the nine rows and one of the
//! nine columns (output row `i` reads input row `rows[i]`), each moving whole bands or stacks, and
//! the relabelling as a table indexed by digit, with 0 (empty) kept as 0: applying it is then one
//! table read a cell.

use rand::{Rng, RngExt};

use crate::model::grid::{CELLS, Grid, ORDERS_OF_THREE};

/// One move of the equivalence group: a transposition (or none), then rows and columns reordered
/// within their bands and stacks, then digits relabelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transformation {
    /// Whether the input is transposed first.
    transpose: bool,
    /// Output row `i` is (transposed) input row `rows[i]`; bands move as wholes.
    rows: [u8; 9],
    /// Output column `j` is (transposed) input column `columns[j]`; stacks move as wholes.
    columns: [u8; 9],
    /// Digit `d` becomes `digits[d]`; `digits[0]` is 0.
    digits: [u8; 10],
}

/// Whether `order` is a permutation of 0..9 that keeps every block of three (band or stack)
/// together, in order or not.
fn keeps_blocks(order: &[u8; 9]) -> bool {
    let mut seen = 0u16;
    for (i, &line) in order.iter().enumerate() {
        if line > 8 || seen >> line & 1 == 1 || line / 3 != order[i - i % 3] / 3 {
            return false;
        }
        seen |= 1 << line;
    }
    true
}

/// The inverse of a permutation of 0..N.
fn inverse_of<const N: usize>(order: &[u8; N]) -> [u8; N] {
    let mut inverse = [0; N];
    for (i, &x) in order.iter().enumerate() {
        inverse[usize::from(x)] = i as u8;
    }
    inverse
}

impl Transformation {
    /// The move that changes nothing.
    pub(crate) const IDENTITY: Transformation = Transformation {
        transpose: false,
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        columns: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    };

    /// A transformation from its parts: whether to transpose, the input line of each output row and
    /// column (0..9, bands and stacks kept whole), and the new digit of each digit 1..=9. `None` if
    /// a part is not such a permutation.
    pub fn new(
        transpose: bool,
        rows: [u8; 9],
        columns: [u8; 9],
        digits: [u8; 9],
    ) -> Option<Transformation> {
        let mut table = [0; 10];
        let mut seen = 0u16;
        for (d, &to) in digits.iter().enumerate() {
            if !(1..=9).contains(&to) || seen >> to & 1 == 1 {
                return None;
            }
            seen |= 1 << to;
            table[d + 1] = to;
        }
        (keeps_blocks(&rows) && keeps_blocks(&columns)).then_some(Transformation {
            transpose,
            rows,
            columns,
            digits: table,
        })
    }

    /// A transformation drawn uniformly from all 9!·2·6⁸: one number below their count, read as
    /// its parts in mixed radix (one draw costs far less than a shuffle per part).
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Transformation {
        const MOVES: u64 = 2 * 6u64.pow(8) * 362_880;
        let mut code = rng.random_range(0..MOVES);
        let mut take = |radix: u64| {
            let part = code % radix;
            code /= radix;
            part as usize
        };
        let transpose = take(2) == 1;
        let mut lines = || {
            let blocks = ORDERS_OF_THREE[take(6)];
            let mut order = [0; 9];
            for (slot, block) in order.chunks_exact_mut(3).zip(blocks) {
                for (line, offset) in slot.iter_mut().zip(ORDERS_OF_THREE[take(6)]) {
                    *line = (3 * block + offset) as u8;
                }
            }
            order
        };
        let rows = lines();
        let columns = lines();
        let mut left = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        let mut digits = [0; 10];
        for (d, slot) in digits[1..].iter_mut().enumerate() {
            let k = take(9 - d as u64);
            *slot = left[k];
            left.copy_within(k + 1.., k);
        }
        Transformation {
            transpose,
            rows,
            columns,
            digits,
        }
    }

    /// The image of `grid`.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let input = grid.cells();
        let (row_step, column_step) = if self.transpose { (1, 9) } else { (9, 1) };
        let mut cells = [0; CELLS];
        for (out_row, &r) in cells.chunks_exact_mut(9).zip(&self.rows) {
            let start = row_step * usize::from(r);
            for (cell, &c) in out_row.iter_mut().zip(&self.columns) {
                *cell = self.digits[usize::from(input[start + column_step * usize::from(c)])];
            }
        }
        Grid::from_cells(cells).expect("digits map to digits")
    }

    /// The transformation that undoes this one.
    pub fn inverse(&self) -> Transformation {
        let (rows, columns) = (inverse_of(&self.rows), inverse_of(&self.columns));
        let digits = inverse_of(&self.digits);
        // Without a transposition, input (r, c) came from output (rows⁻¹[r], columns⁻¹[c]); with
        // one, input (r, c) is the transposed input's (c, r), which came from output
        // (rows⁻¹[c], columns⁻¹[r]): the output transposed, read with the roles swapped.
        let (rows, columns) = if self.transpose {
            (columns, rows)
        } else {
            (rows, columns)
        };
        Transformation {
            transpose: self.transpose,
            rows,
            columns,
            digits,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classes::canon::tests::{GRID, PUZZLE, grid};
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    #[test]
    fn inverse_undoes() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..50 {
            let t = Transformation::random(&mut rng);
            for line in [GRID, PUZZLE] {
                let g = grid(line);
                assert_eq!(t.inverse().apply(&t.apply(&g)), g);
                assert_eq!(t.apply(&t.inverse().apply(&g)), g);
            }
        }
    }

    #[test]
    fn random_moves_are_valid_and_reach_every_part() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let (mut first_rows, mut first_columns, mut labels, mut transposes) = (0u16, 0u16, 0u16, 0);
        for _ in 0..2000 {
            let t = Transformation::random(&mut rng);
            let digits: [u8; 9] = std::array::from_fn(|d| t.digits[d + 1]);
            assert_eq!(
                Transformation::new(t.transpose, t.rows, t.columns, digits),
                Some(t)
            );
            first_rows |= 1 << t.rows[0];
            first_columns |= 1 << t.columns[0];
            labels |= 1 << t.digits[1];
            transposes += usize::from(t.transpose);
        }
        assert_eq!([first_rows, first_columns], [0x1ff; 2]);
        assert_eq!(labels, 0x3fe);
        assert!((800..1200).contains(&transposes));
    }

    #[test]
    fn new_rejects_moves_that_break_blocks() {
        let id = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        let digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        assert!(Transformation::new(false, id, id, digits).is_some());
        assert!(Transformation::new(false, [3, 4, 5, 0, 2, 1, 8, 6, 7], id, digits).is_some());
        assert!(Transformation::new(false, [0, 1, 3, 2, 4, 5, 6, 7, 8], id, digits).is_none());
        assert!(
            Transformation::new(false, id, [0, 0, 2, 3, 4, 5, 6, 7, 8], id.map(|d| d + 1))
                .is_none()
        );
        assert!(Transformation::new(false, id, id, [1, 1, 3, 4, 5, 6, 7, 8, 9]).is_none());
    }
}
