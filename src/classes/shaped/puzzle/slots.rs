//! Deferred rows: rows of a band that read alike in any order, until a later row reads one of
//! their symbols.
//!
//! A row whose givens all lie in placed columns, each a symbol not yet read, held once in the row
//! and by no deferred column, reads blanks and new labels at its givens' positions. Rows of one
//! band that do so at the same positions, sharing no symbol, read the same lines in any order: in
//! a puzzle of one full row and one full column every other row is so, and each order of them was
//! tried (a 16×16 one took 6 s, a 25×25 one minutes). So they form a **group**, and an output row
//! that one of them takes is a **slot** of the group, reading the group's pattern with new labels.
//! A later cell that reads a member's symbol settles the member in the group's first free slot,
//! where the symbol reads smallest: the slot's labels number the member's symbols. A member whose
//! symbol is read while its group has no free slot leaves the group, as it now reads otherwise,
//! and is again a row like any other.
//!
//! ```text
//!   output rows   4   5   6   7    band of input rows {8, 9, 10, 11}
//!   slots         x   x   .   .    group 4: members {9, 10, 11}, pattern: positions {15}
//!   labels        5   6            first label of each slot; settled: 5 = row 10, its symbol
//!   waiting  1                     members not in a slot yet (row 6 may take one)
//! ```

use super::{NONE, PuzzleSearch};
use crate::classes::shaped::best::labelled_positions;
use crate::classes::shaped::{Labels, MAX, Standing, free_lines};

/// The row side of a partial arrangement: its groups and slots. A group is named by the output
/// row of its first slot, whose line holds its pattern.
#[derive(Clone, Copy)]
pub(super) struct Slots {
    /// The input rows (bit per row) of every group, settled or not: no other row takes them.
    pub(super) rows: u32,
    /// Per member not settled, its group.
    group_of: [u8; MAX],
    /// Per slot (output row), its group (`NONE` if the row is no slot).
    group_at: [u8; MAX],
    /// The slots (bit per output row) no member has settled in.
    free: u32,
    /// Per slot, the first label it read.
    label_at: [u8; MAX],
    /// Per group, how many of its members no slot holds yet.
    waiting: [u8; MAX],
    /// Per symbol, the member not settled that gives it (`NONE` if none).
    holder: [u8; MAX + 1],
    /// Per symbol a member gives, its rank among the member's labels.
    rank: [u8; MAX + 1],
}

impl Slots {
    /// No group.
    pub(super) const NEW: Slots = Slots {
        rows: 0,
        group_of: [NONE; MAX],
        group_at: [NONE; MAX],
        free: 0,
        label_at: [0; MAX],
        waiting: [0; MAX],
        holder: [NONE; MAX + 1],
        rank: [0; MAX + 1],
    };

    /// Whether a member not settled gives symbol `value`.
    pub(super) fn holds(&self, value: u8) -> bool {
        self.holder[usize::from(value)] != NONE
    }

    /// Whether a member not settled gives any symbol.
    pub(super) fn holding(&self) -> bool {
        self.holder.iter().any(|&h| h != NONE)
    }

    /// The first free slot of the group of member `member`, if any.
    fn first_free(&self, member: u8) -> Option<usize> {
        let group = self.group_of[usize::from(member)];
        let mut free = self.free;
        while free != 0 {
            let slot = free.trailing_zeros() as usize;
            if self.group_at[slot] == group {
                return Some(slot);
            }
            free &= free - 1;
        }
        None
    }
}

/// Rows that could form a group: one band, one pattern, no symbol in common.
#[derive(Clone, Copy)]
struct Candidates {
    band: u8,
    pattern: u32,
    members: u32,
    symbols: u32,
}

impl PuzzleSearch {
    /// Tries each slot output row `i` can be: one more of a group of its band with members
    /// waiting, or the first of a new group of rows free for it. Returns the rows (bit per input
    /// row) of the new groups, which need not be tried one by one after this: a slot reads as each
    /// would, and leaves which of them it holds to the rows that read their symbols.
    pub(super) fn place_slots(
        &mut self,
        i: usize,
        used: u32,
        columns: &super::Columns,
        labels: Labels,
        standing: &mut Standing,
    ) -> u32 {
        let band = self.frame.band;
        let new_band = i.is_multiple_of(band);
        if !new_band && columns.slots.rows != 0 {
            let own = usize::from(self.rows[i - 1]) / band;
            for group in 0..i {
                if columns.slots.waiting[group] > 0 && usize::from(self.rows[group]) / band == own {
                    let mut columns = *columns;
                    columns.slots.waiting[group] -= 1;
                    columns.slots.group_at[i] = group as u8;
                    self.rows[i] = self.rows[i - 1];
                    let n = self.frame.n;
                    let pattern = labelled_positions(&self.line[group * n..(group + 1) * n]);
                    self.try_slot(i, pattern, used, columns, labels, standing);
                }
            }
        }
        if !new_band && band - i % band < 2 {
            // One row left in the band: no group to form.
            return 0;
        }
        let placed = columns.placed;
        let free = free_lines(
            self.frame.n,
            band,
            used | columns.slots.rows,
            new_band,
            self.rows[i - 1],
        );
        // Most rows have a given in a column not placed, or repeat a symbol: those that do not
        // are few, and two are needed for a group.
        let (given, repeated) = (&self.given[self.transpose], &self.repeated[self.transpose]);
        let view = &self.views[self.transpose];
        let n = self.frame.n;
        let rows = free
            .filter(|&r| {
                let r = usize::from(r);
                given[r] != 0
                    && given[r] & !placed == 0
                    && repeated[r] == 0
                    && labels.of[usize::from(view[r * n + given[r].trailing_zeros() as usize])] == 0
            })
            .fold(0u32, |m, r| m | 1 << r);
        if rows.count_ones() < 2 {
            return 0;
        }
        let mut found = [Candidates {
            band: 0,
            pattern: 0,
            members: 0,
            symbols: 0,
        }; MAX];
        let mut count = 0;
        for row in (0..self.frame.n as u8).filter(|&r| rows >> r & 1 == 1) {
            let Some((pattern, symbols)) = self.plain(row, columns, &labels) else {
                continue;
            };
            let band = row / band as u8;
            match found[..count]
                .iter_mut()
                .find(|c| c.band == band && c.pattern == pattern && c.symbols & symbols == 0)
            {
                Some(c) => {
                    c.members |= 1 << row;
                    c.symbols |= symbols;
                }
                None => {
                    found[count] = Candidates {
                        band,
                        pattern,
                        members: 1 << row,
                        symbols,
                    };
                    count += 1;
                }
            }
        }
        let mut covered = 0;
        for c in found[..count].iter().filter(|c| c.members.count_ones() > 1) {
            let mut columns = *columns;
            self.form(i, c, &mut columns);
            self.rows[i] = c.members.trailing_zeros() as u8;
            self.try_slot(i, c.pattern, used, columns, labels, standing);
            covered |= c.members;
        }
        covered
    }

    /// The pattern and symbols (bit per symbol) of input row `row`, whose givens are all in placed
    /// columns and repeat no symbol, if it could join a group: each given a symbol not read and
    /// held by nothing deferred.
    fn plain(&self, row: u8, columns: &super::Columns, labels: &Labels) -> Option<(u32, u32)> {
        let n = self.frame.n;
        let row = usize::from(row);
        let given = self.given[self.transpose][row];
        let cells = &self.views[self.transpose][row * n..(row + 1) * n];
        let mut pattern = 0;
        let mut symbols = 0;
        for j in 0..n {
            let column = columns.at[j];
            if column == NONE || given >> column & 1 == 0 {
                continue;
            }
            let value = cells[usize::from(column)];
            if labels.of[usize::from(value)] != 0
                || columns.holder[usize::from(value)] != NONE
                || columns.slots.holds(value)
            {
                return None;
            }
            pattern |= 1 << j;
            symbols |= 1 << value;
        }
        Some((pattern, symbols))
    }

    /// Makes `candidates` a group whose first slot is output row `group`.
    fn form(&self, group: usize, candidates: &Candidates, columns: &mut super::Columns) {
        let at = columns.at;
        let slots = &mut columns.slots;
        slots.rows |= candidates.members;
        slots.group_at[group] = group as u8;
        slots.waiting[group] = candidates.members.count_ones() as u8 - 1;
        for row in (0..self.frame.n).filter(|&r| candidates.members >> r & 1 == 1) {
            slots.group_of[row] = group as u8;
            for (rank, value) in self.member_symbols(row as u8, candidates.pattern, at) {
                slots.holder[usize::from(value)] = row as u8;
                slots.rank[usize::from(value)] = rank;
            }
        }
    }

    /// The symbols member `row` gives at the positions of `pattern`, with their ranks.
    fn member_symbols<'s>(
        &'s self,
        row: u8,
        pattern: u32,
        at: [u8; MAX],
    ) -> impl Iterator<Item = (u8, u8)> + use<'s> {
        let n = self.frame.n;
        let cells = &self.views[self.transpose][usize::from(row) * n..(usize::from(row) + 1) * n];
        (0..n)
            .filter(move |&j| pattern >> j & 1 == 1)
            .enumerate()
            .map(move |(rank, j)| (rank as u8, cells[usize::from(at[j])]))
    }

    /// Output row `i` as a slot of the group `columns` gives it, reading `pattern`, `rows[i]` a row
    /// of its band (for the rows after it to keep to the band): its line, then the rows after it.
    fn try_slot(
        &mut self,
        i: usize,
        pattern: u32,
        used: u32,
        mut columns: super::Columns,
        mut labels: Labels,
        standing: &mut Standing,
    ) {
        let n = self.frame.n;
        columns.slots.free |= 1 << i;
        columns.slots.label_at[i] = labels.next;
        let mut child = self.start(i, *standing);
        for j in 0..n {
            let value = if pattern >> j & 1 == 1 {
                labels.next += 1;
                labels.next - 1
            } else {
                0
            };
            let Some(after) = child.after(&self.best.line, i * n + j, value) else {
                return;
            };
            child = after;
            self.line[i * n + j] = value;
        }
        let improvements = self.best.improvements;
        self.place_row(i + 1, used, columns, labels, child);
        if self.best.improvements != improvements {
            *standing = Standing::Level;
        }
    }

    /// The label symbol `value`, not read, would read in a cell if a member gives it: its group's
    /// first free slot's, or `None` if the group has none (the member would leave it).
    pub(super) fn slot_label(&self, value: u8, columns: &super::Columns) -> Option<u8> {
        let slots = &columns.slots;
        let slot = slots.first_free(slots.holder[usize::from(value)])?;
        Some(slots.label_at[slot] + slots.rank[usize::from(value)])
    }

    /// Reads symbol `value` held by a member not settled: settles the member in its group's first
    /// free slot, or takes it out of the group.
    pub(super) fn read_member(&self, value: u8, columns: &mut super::Columns, labels: &mut Labels) {
        let slots = &mut columns.slots;
        let member = slots.holder[usize::from(value)];
        let slot = slots.first_free(member);
        for symbol in 1..=self.frame.n {
            if slots.holder[symbol] == member {
                slots.holder[symbol] = NONE;
                if let Some(slot) = slot {
                    labels.of[symbol] = slots.label_at[slot] + slots.rank[symbol];
                }
            }
        }
        let group = usize::from(slots.group_of[usize::from(member)]);
        slots.group_of[usize::from(member)] = NONE;
        match slot {
            Some(slot) => slots.free &= !(1 << slot),
            None => {
                slots.rows &= !(1 << member);
                slots.waiting[group] -= 1;
            }
        }
    }

    /// The label of `value`, numbering it if new, where a member may give it: the member is
    /// settled or leaves its group first (see [`Self::read_member`]).
    pub(super) fn take_held(
        &self,
        value: u8,
        columns: &mut super::Columns,
        labels: &mut Labels,
    ) -> u8 {
        if labels.of[usize::from(value)] == 0 && columns.slots.holds(value) {
            self.read_member(value, columns, labels);
        }
        labels.take(value)
    }

    /// Settles the members whose symbols input row `row` reads, every column placed, from
    /// `labels`.
    pub(super) fn read_placed(&self, row: u8, columns: &mut super::Columns, mut labels: Labels) {
        let n = self.frame.n;
        for j in 0..n {
            let value =
                self.views[self.transpose][usize::from(row) * n + usize::from(columns.at[j])];
            self.take_held(value, columns, &mut labels);
        }
    }
}
