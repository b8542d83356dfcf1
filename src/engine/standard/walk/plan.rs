//! What a seed decides for a walk: the symmetry folded into the record, and the order in which each
//! digit tries a box's cells.

use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use crate::engine::standard::walk::GridRequest;
use crate::model::grid::box_cell;
use crate::text::format::{Format, MAX_RECORD_LEN};

/// Everything a seed decides, shared read-only by all parts.
pub(super) struct Plan {
    /// The record with separators, as every part starts it.
    pub(super) blank_record: [u8; MAX_RECORD_LEN],
    /// Byte offset in the record of each box cell of the search's grid, by box (the symmetry's row,
    /// column and transposition). A byte, so that indexing a 256-byte record needs no bounds check.
    pub(super) offset: [[u8; 9]; 9],
    /// Character written for each digit (the symmetry's relabelling); index 0 unused.
    pub(super) glyph: [u8; 10],
    /// Per digit: a box's candidate mask, renumbered so that bit `k` is the `k`-th cell to try.
    pub(super) ranked: Box<[[u16; 512]; 10]>,
    /// Per digit: the box cell tried `k`-th.
    pub(super) cell_at_rank: [[u8; 9]; 10],
    /// For a box with two empty cells (the mask), the one tried first for the 8, then the other.
    pub(super) eight_order: Box<[[u8; 2]; 512]>,
}

impl Plan {
    pub(super) fn new(request: &GridRequest, format: Format) -> Plan {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(request.seed);
        // The 1 of box 0 sits in the top-left cell, so the symmetry keeps row 0 and column 0 in place.
        let rows = line_permutation(&mut rng);
        let columns = line_permutation(&mut rng);
        let transpose = rng.random::<bool>();
        let mut digits: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        digits.shuffle(&mut rng);
        if let Some(first) = request.first {
            let at = digits.iter().position(|&d| d == first).expect("a digit");
            digits.swap(0, at);
        }
        let mut offset = [[0; 9]; 9];
        for (cell, slot) in offset.iter_mut().flatten().enumerate() {
            let cell = box_cell(cell / 9, cell % 9);
            let (row, column) = (rows[cell / 9], columns[cell % 9]);
            let (row, column) = if transpose {
                (column, row)
            } else {
                (row, column)
            };
            *slot = format.cell_offset(9 * row + column) as u8;
        }
        let mut glyph = [0; 10];
        for (digit, &label) in digits.iter().enumerate() {
            glyph[digit + 1] = b'0' + label;
        }
        let mut ranked = Box::new([[0; 512]; 10]);
        let mut cell_at_rank = [[0; 9]; 10];
        for digit in 1..=9 {
            let mut order: [u8; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
            order.shuffle(&mut rng);
            cell_at_rank[digit] = order;
            for (mask, slot) in ranked[digit].iter_mut().enumerate() {
                *slot = (0..9)
                    .filter(|&k| mask >> order[k] & 1 == 1)
                    .fold(0, |acc, k| acc | 1 << k);
            }
        }
        let mut eight_order = Box::new([[0; 2]; 512]);
        for (mask, slot) in eight_order.iter_mut().enumerate() {
            let mut in_order = cell_at_rank[8].iter().filter(|&&i| mask >> i & 1 == 1);
            if let (Some(&f), Some(&s)) = (in_order.next(), in_order.next()) {
                *slot = [f, s];
            }
        }
        Plan {
            blank_record: format.blank_record(b'0'),
            offset,
            glyph,
            ranked,
            cell_at_rank,
            eight_order,
        }
    }
}

/// A random map from the search's rows (or columns) to output rows that keeps a valid grid valid and
/// keeps line 0 in place: bands 1 and 2 may swap, lines 1 and 2 may swap, and the lines of bands 1
/// and 2 are shuffled.
fn line_permutation(rng: &mut Xoshiro256PlusPlus) -> [usize; 9] {
    let mut bands = [1, 2];
    bands.shuffle(rng);
    let mut map = [0; 9];
    let mut top = [1, 2];
    top.shuffle(rng);
    map[1] = top[0];
    map[2] = top[1];
    for (band, &target) in bands.iter().enumerate() {
        let mut lines = [0, 1, 2];
        lines.shuffle(rng);
        for (i, &line) in lines.iter().enumerate() {
            map[3 * (band + 1) + i] = 3 * target + line;
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_permutation_keeps_bands_and_line_zero() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..100 {
            let map = line_permutation(&mut rng);
            assert_eq!(map[0], 0);
            let mut seen = [false; 9];
            for line in 0..9 {
                seen[map[line]] = true;
                assert_eq!(
                    map[line] / 3,
                    map[3 * (line / 3)] / 3,
                    "a band stays together"
                );
            }
            assert!(seen.iter().all(|&s| s));
        }
    }
}
