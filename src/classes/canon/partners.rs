//! Partner maps: what a choice of the top band's first two rows says about the second row, whatever
//! the column order (see `complete`).
//!
//! # Layout
//! A [`PartnerMap`] is one aligned 16-byte vector, so that the map shuffles itself into its powers,
//! and three masks read off those powers, bit `j` for input column `j`:
//!
//! ```text
//!                      stack 0   stack 1   stack 2
//!   partner     byte:  0  1  2 | 3  4  5 | 6  7  8 | 9 .. 15
//!                      partner of column 0 .. 8    | 0
//!   forward     bit:   0  1  2 | 3  4  5 | 6  7  8 | 9 .. 15
//!   two_cycles         column 0 .. 8               | 0
//!   cube_fixed
//! ```
//!
//! A column is in `forward` when its partner lies in the next stack (0 to 1, 1 to 2, 2 to 0), in
//! `two_cycles` when its partner's partner is itself, and in `cube_fixed` when the map applied
//! three times brings it back. The padding bytes are 0, so that a shuffle by the map stays in
//! bounds.

use crate::classes::canon::ones;
use crate::model::grid::ORDERS_OF_THREE;

/// A row pair's partner map (see [`RowPair`]) and the masks of its columns read off its powers (see
/// the module comment). Aligned so that the map loads as one aligned vector.
#[derive(Clone, Copy)]
#[repr(align(16))]
pub(super) struct PartnerMap {
    pub(super) partner: [u8; 16],
    pub(super) forward: u16,
    pub(super) two_cycles: u16,
    pub(super) cube_fixed: u16,
}

impl PartnerMap {
    /// Whether the partners of each stack's columns all lie in one stack.
    pub(super) fn is_pure(&self) -> bool {
        self.forward == 0 || self.forward == 0x1ff
    }

    /// In a pure pair, the second row's last three cells when output stack `a` comes first: 0 for
    /// `123`, 1 for `132`, 2 for `231`, as the cube of the map fixes all, one or none of `a`'s
    /// columns (see [`PartnerMap::pure_orders`]).
    pub(super) fn pure_tail(&self, a: u8) -> u8 {
        match ones(self.cube_fixed & 7 << (3 * a)) {
            3 => 0,
            1 => 1,
            _ => 2,
        }
    }

    /// Calls `each` with every column order of a pure pair that starts with output stack `a` and
    /// gives its smallest second row. The first output stack's columns read the positions of
    /// their partners, smallest when the partners come first in the next output stack, in the same
    /// order: `456`; once the first stack's order is chosen the other columns follow. The second
    /// row then reads 456789 and, in the first stack's order, the positions of its columns'
    /// partners' partners' partners: 123, 132 or 231 by the cycles of that map, for the orders
    /// below only.
    pub(super) fn pure_orders(&self, a: u8, mut each: impl FnMut([u8; 9])) {
        let partner = |column: u8| self.partner[usize::from(column & 15)];
        let cube = |column| partner(partner(partner(column)));
        let columns = [3 * a, 3 * a + 1, 3 * a + 2];
        let mut emit = |first: [u8; 3]| {
            let second = first.map(partner);
            let third = second.map(partner);
            each([
                first[0], first[1], first[2], second[0], second[1], second[2], third[0], third[1],
                third[2],
            ]);
        };
        let fixed = columns.map(|x| self.cube_fixed >> x & 1 == 1);
        match fixed.iter().filter(|&&f| f).count() {
            3 => {
                for order in ORDERS_OF_THREE {
                    emit(order.map(|i| columns[i]));
                }
            }
            1 => {
                let f = fixed.iter().position(|&f| f).expect("one fixed column");
                let [g, h] = [(f + 1) % 3, (f + 2) % 3].map(|i| columns[i]);
                emit([columns[f], g, h]);
                emit([columns[f], h, g]);
            }
            _ => {
                for x in columns {
                    emit([x, cube(x), cube(cube(x))]);
                }
            }
        }
    }
}

/// A choice of the top band's first two rows, as the **partner** of each input column: the column
/// of the first row that holds the digit the second row has there. Partners always lie in another
/// stack. The mixed pairs' starts are read off it when no two-cycle gives the smallest.
pub(super) struct RowPair {
    partner: [u8; 9],
    /// How many columns of stack 0 have their partner in stack 1: as many as of stack 1 in stack 2
    /// and of stack 2 in stack 0, while the other columns of each stack go the other way round.
    forward: u8,
    /// In a mixed pair, the column of each stack whose partner is not in the stack most of its
    /// columns' partners lie in.
    odd: [u8; 3],
}

/// The start of a mixed pair's second row with a given first output stack: the first six cells,
/// `457` and three more, as a key (one cell in each 4 bits), and the orders of the first stack's
/// first two columns that give them (its third column, `to_c`, is the one whose partner lies in
/// the last stack).
#[derive(Clone, Copy)]
pub(super) struct MixedStart {
    a: u8,
    pub(super) prefix: u64,
    firsts: [[u8; 2]; 2],
    count: usize,
    to_c: u8,
}

impl MixedStart {
    /// The smallest start of all, `457189` (less one a cell, as in [`RowPair::second_row_key`]).
    pub(super) const SMALLEST: u64 = 0x346078;
}

impl RowPair {
    /// The pair whose partner map is `map`.
    pub(super) fn new(map: &PartnerMap) -> RowPair {
        let partner: [u8; 9] = *map.partner.first_chunk().expect("16 bytes");
        let forward = partner[..3].iter().filter(|&&p| p / 3 == 1).count() as u8;
        let mut pair = RowPair {
            partner,
            forward,
            odd: [0; 3],
        };
        for (column, &p) in partner.iter().enumerate() {
            let column = column as u8;
            // One column a stack is odd: summing avoids an unpredictable branch.
            let odd = u8::from(p / 3 != pair.next_stack(column / 3));
            pair.odd[usize::from(column / 3)] += odd * column;
        }
        pair
    }

    /// The stack that most partners of `stack`'s columns lie in.
    fn next_stack(&self, stack: u8) -> u8 {
        if self.forward >= 2 {
            (stack + 1) % 3
        } else {
            (stack + 2) % 3
        }
    }

    /// The output stacks in order when `a` comes first: each next one is `next_stack` of the one
    /// before, so that the first stack's columns read their partners' positions `456` (pure) or
    /// `457` (mixed).
    fn rotation(&self, a: u8) -> [u8; 3] {
        let b = self.next_stack(a);
        [a, b, self.next_stack(b)]
    }

    /// How a mixed pair's second row can start when output stack `a` comes first (see
    /// [`MixedStart`]). Two columns of `a` have their partners in the next output stack `b`: they
    /// come first (457...), with their partners first in `b` in the same order; the third column's
    /// partner comes first in the last stack `c`. The one column of `b` whose partner lies in `a`
    /// reads its partner's position in `a`: of the two orders of the first two columns, only the
    /// one that puts that cell earliest and makes it smallest is kept (both if they tie).
    pub(super) fn mixed_start(&self, a: u8) -> MixedStart {
        let [a, b, _] = self.rotation(a);
        let to_c = self.odd[usize::from(a)];
        let back = self.odd[usize::from(b)];
        let target = self.partner[usize::from(back)];
        let from = self
            .partner
            .iter()
            .position(|&p| p == back)
            .expect("a permutation") as u8;
        // The column of `a` that is neither `x` nor `to_c`.
        let third = |x: u8| 9 * a + 3 - x - to_c;
        let (firsts, count, middle) = if from / 3 == a {
            let (a1, a2) = (from, third(from));
            let reads = if target == a1 {
                0
            } else if target == a2 {
                1
            } else {
                2
            };
            ([[a1, a2]; 2], 1, [reads, 7, 8u8])
        } else if target != to_c {
            ([[target, third(target)]; 2], 1, [7, 8, 0])
        } else {
            let u = if to_c == 3 * a { 3 * a + 1 } else { 3 * a };
            let v = third(u);
            ([[u, v], [v, u]], 2, [7, 8, 2])
        };
        MixedStart {
            a,
            prefix: middle
                .iter()
                .fold(0x346, |key, &cell| key << 4 | u64::from(cell)),
            firsts,
            count,
            to_c,
        }
    }

    /// Calls `each` with the column orders of `start`: once the first stack's order is chosen the
    /// other columns follow. The partners of `b`'s columns that lie in `c` take the rest of `c` in
    /// their order of appearance (8 before 9).
    pub(super) fn mixed_orders(&self, start: &MixedStart, mut each: impl FnMut([u8; 9])) {
        let partner = |column: u8| self.partner[usize::from(column)];
        let [_, b, c] = self.rotation(start.a);
        for &[a1, a2] in &start.firsts[..start.count] {
            let (b1, b2) = (partner(a1), partner(a2));
            let b3 = 9 * b + 3 - b1 - b2;
            let mut order = [a1, a2, start.to_c, b1, b2, b3, partner(start.to_c), 0, 0];
            let mut next = 7;
            for x in [b1, b2, b3] {
                if partner(x) / 3 == c {
                    order[next] = partner(x);
                    next += 1;
                }
            }
            each(order);
        }
    }

    /// The second row under the column order `columns`, one digit in each 4 bits, first digit
    /// highest: the cell under position `j` is the position (from 0) of its column's partner.
    pub(super) fn second_row_key(&self, columns: &[u8; 9]) -> u64 {
        let mut position = [0u8; 9];
        for (j, &column) in columns.iter().enumerate() {
            position[usize::from(column)] = j as u8;
        }
        columns.iter().fold(0, |key, &column| {
            key << 4 | u64::from(position[usize::from(self.partner[usize::from(column)])])
        })
    }
}
