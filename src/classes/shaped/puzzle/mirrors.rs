//! Rows that mirror a row tried: at a choice of the next row, a free row that some symmetry of the
//! puzzle maps onto a free row already tried, and that leaves the arrangement so far as it is,
//! reads every line the tried one reads, so its branch is left.
//!
//! The symmetries looked for swap the two rows (of one band) and at most two columns (of one
//! stack) that no row so far has placed, deferred or left open differently, and relabel symbols
//! not read yet. They are what a sparse, regular puzzle is full of: a puzzle whose givens fill a
//! diagonal has one such swap for every two rows of a band, and without them the rows of each
//! band were tried in every order.

use super::deferral::Columns;
use super::{NONE, PuzzleSearch};
use crate::classes::shaped::{Labels, MAX};

/// The most givens a row may hold for its mirrors to be looked for.
const SPARSE: u32 = 2;

impl PuzzleSearch {
    /// Whether free row `row` mirrors one of the free rows of `tried` (bit per row), under the
    /// columns placed and labels read so far.
    pub(super) fn mirrors_tried(
        &self,
        row: u8,
        tried: u32,
        columns: &Columns,
        labels: &Labels,
    ) -> bool {
        let band = self.frame.band;
        let given = &self.given[self.transpose];
        // A check reads the whole view: it is made for sparse rows alone, which the symmetries
        // looked for move, and whose searches are short otherwise.
        if given[usize::from(row)].count_ones() > SPARSE {
            return false;
        }
        let mut rest = tried;
        while rest != 0 {
            let other = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            if usize::from(other) / band != usize::from(row) / band {
                continue;
            }
            let only_other = given[usize::from(other)] & !given[usize::from(row)];
            let only_row = given[usize::from(row)] & !given[usize::from(other)];
            let swap = match (only_other.count_ones(), only_row.count_ones()) {
                (0, 0) => None,
                (1, 1) => {
                    let (c, d) = (
                        only_other.trailing_zeros() as u8,
                        only_row.trailing_zeros() as u8,
                    );
                    if !self.unsettled_alike(c, d, columns) {
                        continue;
                    }
                    Some((c, d))
                }
                _ => continue,
            };
            if self.is_symmetry((other, row), swap, columns, labels) {
                return true;
            }
        }
        false
    }

    /// Whether input columns `c` and `d` are of one stack, and neither placed, nor deferred, nor
    /// in the columns of a stack's deferred positions unless both are.
    fn unsettled_alike(&self, c: u8, d: u8, columns: &Columns) -> bool {
        let bit = |set: u32, column: u8| set >> column & 1 == 1;
        self.frame.stack(c) == self.frame.stack(d)
            && !bit(columns.placed | columns.pending, c)
            && !bit(columns.placed | columns.pending, d)
            && columns
                .open
                .iter()
                .all(|&open| bit(open, c) == bit(open, d))
    }

    /// Whether swapping input rows `rows` and the input columns of `swap` maps the view onto
    /// itself under a relabelling that keeps every symbol read, held by a deferred column or by a
    /// group of rows.
    fn is_symmetry(
        &self,
        (r, s): (u8, u8),
        swap: Option<(u8, u8)>,
        columns: &Columns,
        labels: &Labels,
    ) -> bool {
        let n = self.frame.n;
        let view = &self.views[self.transpose];
        let moved = |x: usize, (a, b): (u8, u8)| match x {
            _ if x == usize::from(a) => usize::from(b),
            _ if x == usize::from(b) => usize::from(a),
            _ => x,
        };
        let kept = |v: u8| {
            labels.of[usize::from(v)] != 0
                || columns.holder[usize::from(v)] != NONE
                || columns.slots.holds(v)
        };
        let mut to = [0u8; MAX + 1];
        let mut from = [0u8; MAX + 1];
        for x in 0..n {
            let mirror_row = moved(x, (r, s));
            for y in 0..n {
                let mirror_column = swap.map_or(y, |pair| moved(y, pair));
                let v = view[x * n + y];
                let w = view[mirror_row * n + mirror_column];
                if (v == 0) != (w == 0) {
                    return false;
                }
                if v == 0 {
                    continue;
                }
                let (image, source) = (&mut to[usize::from(v)], &mut from[usize::from(w)]);
                if (*image != 0 && *image != w) || (*source != 0 && *source != v) {
                    return false;
                }
                (*image, *source) = (w, v);
                if v != w && (kept(v) || kept(w)) {
                    return false;
                }
            }
        }
        true
    }
}
