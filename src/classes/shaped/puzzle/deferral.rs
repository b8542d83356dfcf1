//! Deferred columns: the givens whose column order does not matter yet to the rows read so far.
//!
//! A row that gives, in one stack's positions blank so far, only symbols it holds once and not yet
//! read reads new labels there whatever the order of those columns. So the columns stay
//! **pending**, a set per stack sharing the row's **deferred** positions, each position holding
//! the label it read; a later row that reads one of their symbols, or gives one of them, places it
//! at the first free position it can take, and the position's label numbers the symbol (settles
//! it). Placing them at once would try every order of them, and a puzzle one cell short of a
//! 25×25 grid has (5!)^4 orders per start that all read alike in the first row.
//!
//! ```text
//!   output stack s:   positions  j0  j1  j2  j3      open[s]   = columns {c1, c4, c7, c9}
//!   deferred by row r:            .   .   x   x      pending   = {c4, c9}, row_of = r
//!   labels read there:                    5   6      label_at  = [_, _, 5, 6]
//! ```

use super::slots::Slots;
use super::{NONE, PuzzleSearch};
use crate::classes::shaped::{Labels, MAX};

/// What a partial arrangement has placed and deferred: its columns, and its rows' groups.
#[derive(Clone, Copy)]
pub(super) struct Columns {
    /// Per output position, its input column: `NONE` while deferred or not reached.
    pub(super) at: [u8; MAX],
    /// The input columns (bit per column) `at` holds.
    pub(super) placed: u32,
    /// Per output stack, its input stack.
    pub(super) stack_at: [u8; MAX],
    /// Per output stack, the input columns (bit per column) its deferred positions share.
    pub(super) open: [u32; MAX],
    /// The deferred positions (bit per position) of givens: each reads a label already, its column
    /// one of the open ones deferred by the same row.
    pub(super) deferred: u32,
    /// Per deferred position of a given, its label.
    pub(super) label_at: [u8; MAX],
    /// Per deferred position of a given, the output row that deferred it.
    pub(super) row_at: [u8; MAX],
    /// Per deferred position of a given, the later output rows (bit per row) that read new labels
    /// at every position of its group, giving a symbol in each of its columns: each such symbol
    /// takes the label its row read where its column is placed.
    pub(super) layers: [u32; MAX],
    /// The open columns (bit per column) whose given is deferred; the others are blank so far.
    pub(super) pending: u32,
    /// Per pending column, the output row that deferred it (`NONE` if none).
    pub(super) row_of: [u8; MAX],
    /// Per symbol, the pending column whose given it is (`NONE` if none): placing the column
    /// numbers the symbol.
    pub(super) holder: [u8; MAX + 1],
    /// The groups of rows deferred (see [`super::slots`]).
    pub(super) slots: Slots,
}

impl Columns {
    /// Nothing placed, nothing deferred.
    pub(super) const NEW: Columns = Columns {
        at: [NONE; MAX],
        placed: 0,
        stack_at: [NONE; MAX],
        open: [0; MAX],
        deferred: 0,
        label_at: [0; MAX],
        row_at: [NONE; MAX],
        layers: [0; MAX],
        pending: 0,
        row_of: [NONE; MAX],
        holder: [NONE; MAX + 1],
        slots: Slots::NEW,
    };
}

impl PuzzleSearch {
    /// The columns (bit per column) given in output row `i` whose symbol the row holds once: those
    /// whose given may be deferred.
    pub(super) fn deferrable(&self, i: usize) -> u32 {
        let row = usize::from(self.rows[i]);
        self.given[self.transpose][row] & !self.repeated[self.transpose][row]
    }

    /// Defers the givens of `pending` (input columns of one output stack), numbered by output row
    /// `i`: their column order no longer matters to the row, whose cells read new labels in turn.
    pub(super) fn defer(&self, i: usize, pending: u32, columns: &mut Columns) {
        for column in (0..self.frame.n as u8).filter(|&c| pending >> c & 1 == 1) {
            columns.row_of[usize::from(column)] = i as u8;
            columns.holder[usize::from(self.value(i, column))] = column;
        }
        columns.pending |= pending;
    }

    /// Gives deferred position `j` of output row `i` the label `label`.
    pub(super) fn defer_position(&self, i: usize, j: usize, label: u8, columns: &mut Columns) {
        columns.deferred |= 1 << j;
        columns.label_at[j] = label;
        columns.row_at[j] = i as u8;
    }

    /// The deferred positions (bit per position) of output stack `stack` deferred by output row
    /// `row`.
    pub(super) fn group(&self, columns: &Columns, stack: usize, row: u8) -> u32 {
        let mut mask = columns.deferred & self.stack_positions(stack);
        let mut rest = mask;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            if columns.row_at[p] != row {
                mask &= !(1 << p);
            }
            rest &= rest - 1;
        }
        mask
    }

    /// The free positions (bit per position) pending column `holder` can take when cell `(i, j)`
    /// reads its symbol: those its row deferred in its stack, but `j`. Those before `j` read a
    /// blank in row `i`, so only a column blank there can take one.
    pub(super) fn free_for(&self, i: usize, j: usize, columns: &Columns, holder: u8) -> u32 {
        let stack = self.output_stack(columns, holder);
        let free = self.group(columns, stack, columns.row_of[usize::from(holder)]) & !(1 << j);
        // A row that read new labels at the group's positions reads a given at each.
        let layered = free != 0 && columns.layers[free.trailing_zeros() as usize] >> i & 1 == 1;
        if self.given_columns(i) >> holder & 1 == 1 && !layered {
            free & !((1 << j) - 1)
        } else {
            free
        }
    }

    /// The pending columns (bit per column) that can take deferred position `j`.
    pub(super) fn columns_of(&self, columns: &Columns, j: usize) -> u32 {
        let row = columns.row_at[j];
        let open = columns.open[j / self.frame.stack] & columns.pending;
        (0..self.frame.n as u8)
            .filter(|&c| open >> c & 1 == 1 && columns.row_of[usize::from(c)] == row)
            .fold(0, |m, c| m | 1 << c)
    }

    /// Settles pending column `column` at its deferred position `j`: the position's label numbers
    /// the column's deferred symbol.
    pub(super) fn settle(&self, j: usize, column: u8, columns: &mut Columns, labels: &mut Labels) {
        let n = self.frame.n;
        let mut layers = columns.layers[j];
        while layers != 0 {
            let row = layers.trailing_zeros() as usize;
            let value = usize::from(self.value(row, column));
            columns.holder[value] = NONE;
            labels.of[value] = self.line[row * n + j];
            layers &= layers - 1;
        }
        columns.layers[j] = 0;
        let row = usize::from(columns.row_of[usize::from(column)]);
        let value = self.value(row, column);
        columns.at[j] = column;
        columns.placed |= 1 << column;
        columns.open[j / self.frame.stack] &= !(1 << column);
        columns.deferred &= !(1 << j);
        columns.pending &= !(1 << column);
        columns.row_of[usize::from(column)] = NONE;
        columns.holder[usize::from(value)] = NONE;
        labels.of[usize::from(value)] = columns.label_at[j];
    }
}

impl PuzzleSearch {
    /// The label symbol `value`, held by pending column `column`, reads with the column at
    /// deferred position `j`: the deferring row's label there, or a later row's that read one.
    pub(super) fn held_label(&self, value: u8, column: u8, j: usize, columns: &Columns) -> u8 {
        let row = usize::from(columns.row_of[usize::from(column)]);
        if self.value(row, column) == value {
            return columns.label_at[j];
        }
        let mut layers = columns.layers[j];
        while layers != 0 {
            let row = layers.trailing_zeros() as usize;
            if self.value(row, column) == value {
                return self.line[row * self.frame.n + j];
            }
            layers &= layers - 1;
        }
        unreachable!("a held symbol is its column's in a row that deferred it or read new labels")
    }

    /// Whether output row `i`, at deferred position `j` that an earlier row deferred, gives every
    /// pending column of its group a symbol not read, once in the row and held by nothing: the
    /// row then reads new labels at the group's positions whatever their columns, and leaves the
    /// order to a later row. Marks the row on the group's positions if so.
    pub(super) fn layer(&self, i: usize, j: usize, columns: &mut Columns, labels: &Labels) -> bool {
        let pending = self.columns_of(columns, j);
        if pending.count_ones() < 2
            || pending & !self.deferrable(i) != 0
            || (0..self.frame.n as u8).any(|c| {
                let value = self.value(i, c);
                pending >> c & 1 == 1
                    && (labels.of[usize::from(value)] != 0
                        || columns.holder[usize::from(value)] != NONE
                        || columns.slots.holds(value))
            })
        {
            return false;
        }
        for c in (0..self.frame.n as u8).filter(|&c| pending >> c & 1 == 1) {
            columns.holder[usize::from(self.value(i, c))] = c;
        }
        let stack = j / self.frame.stack;
        let mut group = self.group(columns, stack, columns.row_at[j]);
        while group != 0 {
            columns.layers[group.trailing_zeros() as usize] |= 1 << i;
            group &= group - 1;
        }
        true
    }
}
