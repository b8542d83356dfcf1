//! The column order where boxes are two rows high, so that a band has two stacks and each
//! column's partner (the column of the first row holding its symbol in the second row) lies in
//! the other stack.
//!
//! The second row's first stack reads `C+1, ..., 2C` whatever the order of its columns, their
//! partners taking the second stack's positions in turn, and its second stack reads one plus the
//! position of each column's partner's partner. That is `π²`, a permutation of the first stack,
//! read through the order: it reads least when its cycles lie in turn, fixed points first and
//! then by increasing length, each cycle in its own order from any of its columns. So the first
//! stack is a row of **slots**, grouped by length, and a layout says which cycle of a group takes
//! each slot, and from which of its columns:
//!
//! ```text
//!   π² cycles: (a) (b) (c d e)        positions  0   1   2   3   4  | 5 ... 9
//!   group of length 1: slots 0, 1     first      a|b b|a c   d   e  | partners of 0..4
//!   group of length 3: slot 2         stack          (or d e c, e c d)
//! ```
//!
//! Where the layouts are few, each is tried and the rows ordered ([`CompleteSearch::each_layout`]).
//! Where they are many (a grid with many cycles of one length, at worst the pattern grid whose
//! `π²` is the identity: C! layouts), the third row decides them: it is the smaller row of some
//! other band, so for each input row in turn the slots are laid as that row reads them, keeping
//! only the layouts that give it its smallest cells ([`CompleteSearch::read_lazily`]). Once the
//! row has read the first stack, every slot is laid.

use super::{CompleteSearch, NONE, Order};
use crate::classes::shaped::{Frame, MAX, Standing};

/// The cycles of `π²` on one input stack, sorted by length, and where each lies.
pub(super) struct Cycles {
    /// The input stack that comes first.
    input: usize,
    cycles: Vec<Vec<u8>>,
    /// Per cycle, its group: the cycles of its length.
    group_of: Vec<usize>,
    /// Per group, its first position and the length of its cycles.
    groups: Vec<(usize, usize)>,
    /// Per position of the first output stack, its group.
    group_at: [u8; MAX],
    /// Per column of the input stack, its cycle and its place in it.
    place_of: [(u8, u8); MAX],
    /// Per column of the other stack, the column of the input stack whose partner it is.
    partnered: [u8; MAX],
}

/// A layout under way: the order so far, per group its next free slot, and the cycles not laid
/// (bit per cycle).
#[derive(Clone, Copy)]
pub(super) struct Lay {
    order: Order,
    next_slot: [u8; MAX],
    open: u32,
}

impl CompleteSearch {
    /// Lays the second row out from the cycles of `π²`, from either input stack, and orders the
    /// rows of each layout, all of them or as the third row decides (see the module
    /// documentation).
    pub(super) fn lay_cycles(&mut self, used: u32) {
        let Frame { n, stack, .. } = self.frame;
        for input in 0..2 {
            let cycles = self.cycles(input);
            let mut j = 0;
            for cycle in &cycles.cycles {
                for i in 0..cycle.len() {
                    self.line[n + j + i] = (stack + j + i + 1) as u8;
                    self.line[n + stack + j + i] = (j + (i + 1) % cycle.len() + 1) as u8;
                }
                j += cycle.len();
            }
            if cycles.layouts() <= self.lazy_above {
                if let Some(standing) = self.standing_through(2 * n) {
                    let mut sorted = cycles.cycles;
                    self.each_layout(used, &mut sorted, 0, Order::OPEN, standing);
                }
                if self.unwind.is_some() {
                    return;
                }
            } else {
                let lay = Lay {
                    order: Order::OPEN,
                    next_slot: [0; MAX],
                    open: (1u32 << cycles.cycles.len()) - 1,
                };
                for row in (0..n).filter(|&r| used >> r & 1 == 0) {
                    // A line taken under an earlier row bounds this one from the start.
                    let Some(standing) = self.standing_through(2 * n) else {
                        break;
                    };
                    self.read_lazily(&cycles, used, row, 0, lay, standing);
                    if self.unwind.is_some() {
                        return;
                    }
                }
            }
        }
    }

    /// The cycles of `π²` on input stack `input`.
    fn cycles(&self, input: usize) -> Cycles {
        let stack = self.frame.stack;
        let mut cycles: Vec<Vec<u8>> = Vec::new();
        let mut seen = 0u32;
        let mut partnered = [NONE; MAX];
        for start in input * stack..(input + 1) * stack {
            partnered[usize::from(self.partner(1, start as u8))] = start as u8;
            let mut cycle = Vec::new();
            let mut c = start as u8;
            while seen >> c & 1 == 0 {
                seen |= 1 << c;
                cycle.push(c);
                c = self.partner(1, self.partner(1, c));
            }
            if !cycle.is_empty() {
                cycles.push(cycle);
            }
        }
        cycles.sort_by_key(Vec::len);
        let (mut group_of, mut groups) = (Vec::new(), Vec::<(usize, usize)>::new());
        let (mut group_at, mut place_of) = ([NONE; MAX], [(NONE, NONE); MAX]);
        let mut j = 0;
        for (index, cycle) in cycles.iter().enumerate() {
            if groups.last().is_none_or(|&(_, len)| len != cycle.len()) {
                groups.push((j, cycle.len()));
            }
            group_of.push(groups.len() - 1);
            for (i, &column) in cycle.iter().enumerate() {
                group_at[j + i] = (groups.len() - 1) as u8;
                place_of[usize::from(column)] = (index as u8, i as u8);
            }
            j += cycle.len();
        }
        Cycles {
            input,
            cycles,
            group_of,
            groups,
            group_at,
            place_of,
            partnered,
        }
    }

    /// Whether the line's first `len` cells (the third row's as far as `probe` holds them) can
    /// still start a line at most the best one: `None` if they read above it.
    fn standing_through(&self, len: usize) -> Option<Standing> {
        let two_rows = 2 * self.frame.n;
        (0..len).try_fold(self.start(Standing::Level), |standing, k| {
            let value = if k < two_rows {
                self.line[k]
            } else {
                self.probe[k - two_rows]
            };
            standing.after(&self.best.line, k, value)
        })
    }

    /// Lays out `cycles[from..]` after the positions `order` holds, each cycle taking in turn
    /// every place among those of its length and every rotation, and orders the rows of each
    /// layout.
    fn each_layout(
        &mut self,
        used: u32,
        cycles: &mut [Vec<u8>],
        from: usize,
        order: Order,
        mut standing: Standing,
    ) {
        let Some(len) = cycles.get(from).map(Vec::len) else {
            return self.order_rows(used, &order, standing);
        };
        let stack = self.frame.stack;
        let j: usize = cycles[..from].iter().map(Vec::len).sum();
        let same = from + cycles[from..].iter().take_while(|c| c.len() == len).count();
        for chosen in from..same {
            cycles.swap(from, chosen);
            for turn in 0..len {
                let mut order = order;
                for i in 0..len {
                    let column = cycles[from][(turn + i) % len];
                    order.put(&self.frame, column, j + i);
                    order.put(&self.frame, self.partner(1, column), stack + j + i);
                }
                let improvements = self.best.improvements;
                self.each_layout(used, cycles, from + 1, order, standing);
                if self.best.improvements != improvements {
                    standing = Standing::Level;
                }
                if self.unwind.is_some() {
                    cycles.swap(from, chosen);
                    return;
                }
            }
            cycles.swap(from, chosen);
        }
    }

    /// Reads input row `row` as the third row from position `from` of the first stack on,
    /// laying each open slot it meets with every cycle and rotation that gives the smallest cell
    /// there, then orders the rows of each layout.
    fn read_lazily(
        &mut self,
        cycles: &Cycles,
        used: u32,
        row: usize,
        from: usize,
        mut lay: Lay,
        mut standing: Standing,
    ) {
        let Frame { n, stack, .. } = self.frame;
        for j in from..stack {
            let value = if lay.order.at[j] != NONE {
                self.read(cycles, &mut lay, row, j)
            } else {
                let group = usize::from(cycles.group_at[j]);
                let (start, len) = cycles.groups[group];
                debug_assert_eq!(j, start + usize::from(lay.next_slot[group]) * len);
                let mut least = u8::MAX;
                let mut chosen: Vec<Lay> = Vec::new();
                for cycle in (0..cycles.cycles.len())
                    .filter(|&c| lay.open >> c & 1 == 1 && cycles.group_of[c] == group)
                {
                    for first in 0..cycles.cycles[cycle].len() {
                        let mut child = lay;
                        self.lay(cycles, &mut child, cycle, first);
                        let value = self.read(cycles, &mut child, row, j);
                        if value < least {
                            (least, chosen) = (value, Vec::new());
                        }
                        if value == least {
                            chosen.push(child);
                        }
                    }
                }
                let Some(mut child) = standing.after(&self.best.line, 2 * n + j, least) else {
                    return;
                };
                self.probe[j] = least;
                for lay in chosen {
                    let improvements = self.best.improvements;
                    self.read_lazily(cycles, used, row, j + 1, lay, child);
                    if self.unwind.is_some() {
                        return;
                    }
                    if self.best.improvements != improvements {
                        // The line taken has the first two rows, but its third may read below
                        // this one.
                        match self.standing_through(2 * n + j + 1) {
                            Some(standing) => child = standing,
                            None => return,
                        }
                    }
                }
                return;
            };
            let Some(child) = standing.after(&self.best.line, 2 * n + j, value) else {
                return;
            };
            self.probe[j] = value;
            standing = child;
        }
        self.order_rows(used, &lay.order, standing);
    }

    /// The cell input row `row` reads at position `j`, which has its column: one plus the
    /// position of the column of the first row holding its symbol, that column's cycle laid at
    /// the next free slot of its group, from it, where it has no position yet.
    fn read(&self, cycles: &Cycles, lay: &mut Lay, row: usize, j: usize) -> u8 {
        let n = self.frame.n;
        let view = &self.views[self.transpose];
        let value = view[row * n + usize::from(lay.order.at[j])];
        let column = self.column_of[usize::from(value)];
        if lay.order.position[usize::from(column)] == NONE {
            let first = if self.frame.stack(column) == cycles.input {
                column
            } else {
                cycles.partnered[usize::from(column)]
            };
            let (cycle, place) = cycles.place_of[usize::from(first)];
            self.lay(cycles, lay, usize::from(cycle), usize::from(place));
        }
        1 + lay.order.position[usize::from(column)]
    }

    /// Lays `cycle` at the next free slot of its group, from its column at `first`, with the
    /// partners of its columns at the same positions of the second stack.
    fn lay(&self, cycles: &Cycles, lay: &mut Lay, cycle: usize, first: usize) {
        let group = cycles.group_of[cycle];
        let (start, len) = cycles.groups[group];
        let j = start + usize::from(lay.next_slot[group]) * len;
        let columns = &cycles.cycles[cycle];
        for i in 0..len {
            let column = columns[(first + i) % len];
            lay.order.put(&self.frame, column, j + i);
            lay.order.put(
                &self.frame,
                self.partner(1, column),
                self.frame.stack + j + i,
            );
        }
        lay.next_slot[group] += 1;
        lay.open &= !(1 << cycle);
    }
}

impl Cycles {
    /// How many layouts there are: per group of `k` cycles of length `L`, `k!·L^k`, saturating.
    fn layouts(&self) -> u64 {
        let mut count = 1u64;
        for (group, &(_, len)) in self.groups.iter().enumerate() {
            let k = self.group_of.iter().filter(|&&g| g == group).count() as u64;
            for i in 1..=k {
                count = count.saturating_mul(i * len as u64);
            }
        }
        count
    }
}
