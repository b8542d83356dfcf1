//! The search of boxed shapes for complete grids whose every row (and, where the grid can be
//! transposed, every column) holds each symbol once.
//!
//! The first row of every arrangement reads 1, 2, ..., N, whichever the column order: the
//! relabelling it forces numbers each symbol by the position of its column. So the first row
//! only chooses the input row, and a later cell, reading input column `c` in input row `r`, reads
//! one plus the output position of the column `m` where the first row holds the symbol of
//! `(r, c)`. Columns are placed lazily, as the cells need them: a cell whose position has no
//! column yet branches over the columns that can go there; a cell whose `m` has no position yet
//! reads smallest with `m` at the first free position it can take (the next free one of its
//! stack, or the first of the next output stack when its input stack has none), so it is placed
//! there, without a branch. Of the choices at a position, only those giving the smallest cell are
//! tried. Boxes two rows high tie at every position of the first stack, so there the second row
//! is laid out whole from the cycles it implies (see `cycles`).

mod cycles;

use std::cmp::Ordering;

use super::best::Best;
use super::{Frame, MAX, Standing};

const NONE: u8 = u8::MAX;

/// The most stacks a boxed shape has: N/C with C at least 2.
const MOST_STACKS: usize = MAX / 2;

/// The first two rows that can start the smallest line, each with the input columns that can come
/// first: `(view, first row, second row, columns)`.
///
/// The second row's first stack reads, for each of its columns, one plus the position of the
/// column of the first row that holds its symbol, in another stack (the two rows share the box).
/// Those columns fill output stacks in turn: if the partners of the first stack's columns fall
/// `a₁ ≥ a₂ ≥ ...` into their stacks, the cells read at best `C+1, ..., C+a₁`, then `2C+1, ...,
/// 2C+a₂`, and so on, so the largest counts, compared in turn, come first, and every other start
/// is above. Of those, a start whose first column is its partner's partner reads 1 at the first
/// position of the second output stack, and every other start reads more there.
fn starts(frame: &Frame, views: &[Vec<u8>; 2]) -> Vec<(usize, u8, u8, u32)> {
    let Frame { n, band, stack, .. } = *frame;
    let stacks = n / stack;
    let mut best = ([0u8; MOST_STACKS], false);
    let mut found = Vec::new();
    for (transpose, view) in views[..frame.views()].iter().enumerate() {
        for first in 0..n {
            let mut column_of = [0u8; MAX + 1];
            for c in 0..n {
                column_of[usize::from(view[first * n + c])] = c as u8;
            }
            for second in (first / band * band..(first / band + 1) * band).filter(|&r| r != first) {
                let mut counts = [[0u8; MOST_STACKS]; MOST_STACKS];
                let mut sorted = [[0u8; MOST_STACKS]; MOST_STACKS];
                for input in 0..stacks {
                    for c in input * stack..(input + 1) * stack {
                        let partner = column_of[usize::from(view[second * n + c])];
                        counts[input][frame.stack(partner)] += 1;
                    }
                    sorted[input] = counts[input];
                    sorted[input][..stacks].sort_unstable_by(|a, b| b.cmp(a));
                }
                let top = *sorted[..stacks].iter().max().expect("a stack");
                if top < best.0 {
                    continue;
                }
                // A first column whose partner's stack holds fewer partners than the most cannot
                // read the smallest cells after it either.
                let allowed = (0..n)
                    .filter(|&c| {
                        let input = c / stack;
                        let partner = column_of[usize::from(view[second * n + c])];
                        sorted[input] == top && counts[input][frame.stack(partner)] == top[0]
                    })
                    .fold(0u32, |m, c| m | 1 << c);
                // The first position of the second output stack holds the partner of the first
                // column, and reads the position of that partner's partner plus one: 1 where the
                // two columns are each other's partners.
                let paired = (0..n)
                    .filter(|&c| allowed >> c & 1 == 1)
                    .filter(|&c| {
                        let partner = usize::from(column_of[usize::from(view[second * n + c])]);
                        usize::from(column_of[usize::from(view[second * n + partner])]) == c
                    })
                    .fold(0u32, |m, c| m | 1 << c);
                let key = (top, paired != 0);
                if key > best {
                    (best, found) = (key, Vec::new());
                }
                if key == best {
                    let columns = if paired != 0 { paired } else { allowed };
                    found.push((transpose, first as u8, second as u8, columns));
                }
            }
        }
    }
    found
}

/// Whether `cells` is a complete grid of the shape, every row, column and box holding each
/// symbol once: the grids this search serves. Its reasoning leans on each of those: the labels on
/// the rows, the partners of a band's rows on its boxes. Anything else, a Latin square whose boxes
/// repeat symbols included, takes the general search.
pub(super) fn applies(frame: &Frame, cells: &[u8]) -> bool {
    let Frame { n, band, stack, .. } = *frame;
    let full = |cell: &dyn Fn(usize) -> u8| {
        (0..n)
            .try_fold(0u32, |seen, k| {
                let v = cell(k);
                (v != 0 && usize::from(v) <= n && seen >> v & 1 == 0).then_some(seen | 1 << v)
            })
            .is_some()
    };
    let stacks = n / stack;
    (0..n).all(|r| full(&|c| cells[r * n + c]))
        && (0..n).all(|c| full(&|r| cells[r * n + c]))
        && (0..n).all(|b| {
            let (top, left) = (b / stacks * band, b % stacks * stack);
            full(&|k| cells[(top + k / stack) * n + left + k % stack])
        })
}

/// The smallest line of `cells`, one of the grids [`applies`] accepts.
pub(super) fn search(frame: &Frame, cells: &[u8]) -> Vec<u8> {
    search_with(frame, cells, frame.n as u64)
}

/// [`search`], where boxes are two rows high trying each layout of the second row while there
/// are at most `lazy_above` of them, and letting the third row decide them beyond (see
/// `cycles`): both give the smallest line, the first quicker with few layouts.
fn search_with(frame: &Frame, cells: &[u8], lazy_above: u64) -> Vec<u8> {
    let n = frame.n;
    let mut search = CompleteSearch {
        frame: *frame,
        views: frame.views_of(cells),
        transpose: 0,
        rows: [0; MAX],
        column_of: [0; MAX + 1],
        first_columns: 0,
        line: vec![0; n * n],
        probe: [0; MAX],
        best: Best::new(n),
        best_arrangement: ((0, 0, 0), [NONE; MAX]),
        unwind: None,
        lazy_above,
    };
    for (j, cell) in search.line[..n].iter_mut().enumerate() {
        *cell = j as u8 + 1;
    }
    let order = Order::OPEN;
    for (transpose, first, second, columns) in starts(frame, &search.views) {
        search.transpose = transpose;
        search.rows[0] = first;
        search.rows[1] = second;
        search.first_columns = columns;
        for c in 0..n {
            let value = search.views[transpose][usize::from(first) * n + c];
            search.column_of[usize::from(value)] = c as u8;
        }
        let used = 1 << first | 1 << second;
        if frame.band == 2 {
            search.lay_cycles(used);
        } else {
            search.fill_row(n, used, order, search.start(Standing::Level));
        }
        search.unwind = None;
    }
    search.best.line
}

struct CompleteSearch {
    frame: Frame,
    views: [Vec<u8>; 2],
    transpose: usize,
    rows: [u8; MAX],
    /// The column of each symbol in the first row's input row.
    column_of: [u8; MAX + 1],
    /// The input columns (bit per column) that can come first.
    first_columns: u32,
    line: Vec<u8>,
    /// The cells the third row reads so far while it lays the second row out (see `cycles`).
    probe: [u8; MAX],
    best: Best,
    /// The start `(view, first row, second row)` and the column order of the best line.
    best_arrangement: ((usize, u8, u8), [u8; MAX]),
    /// Where the search goes back to, having met a mirror of a branch it has searched.
    unwind: Option<Unwind>,
    /// How many layouts of the second row are tried each (see [`search_with`]).
    lazy_above: u64,
}

/// A branch found to mirror one already searched, and so left: a line equal to the best one,
/// read through another arrangement, shows a symmetry of the grid (the one arrangement after the
/// other's inverse) that maps the two arrangements' common part onto itself and the branch where
/// they part onto the best line's. Whatever lies further in the branch, the best line's branch
/// read it too. A symmetric grid (the pattern grid at worst) ties a branch at every position,
/// and would read the same line through every symmetry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unwind {
    /// The whole start: another start's line was met.
    Start,
    /// The branch of the second row's position `j`.
    To(usize),
}

/// The column order so far: the input column of each output position and the position of each
/// input column (`NONE` while open), the input stack of each output stack and back, and the first
/// output stack with no input stack yet.
#[derive(Clone, Copy)]
struct Order {
    at: [u8; MAX],
    position: [u8; MAX],
    stack_at: [u8; MAX],
    stack_of: [u8; MAX],
    next_stack: u8,
}

impl Order {
    const OPEN: Order = Order {
        at: [NONE; MAX],
        position: [NONE; MAX],
        stack_at: [NONE; MAX],
        stack_of: [NONE; MAX],
        next_stack: 0,
    };

    /// Puts input column `column` at output position `j`, its stack at `j`'s if it has none.
    fn put(&mut self, frame: &Frame, column: u8, j: usize) {
        let (output, input) = (j / frame.stack, frame.stack(column));
        if self.stack_at[output] == NONE {
            self.stack_at[output] = input as u8;
            self.stack_of[input] = output as u8;
            self.next_stack += 1;
        }
        self.at[j] = column;
        self.position[usize::from(column)] = j as u8;
    }

    /// The output position of `column`, putting it first where it can go when it has none.
    fn place(&mut self, frame: &Frame, column: u8) -> u8 {
        let known = self.position[usize::from(column)];
        if known != NONE {
            return known;
        }
        let output = match self.stack_of[frame.stack(column)] {
            NONE => usize::from(self.next_stack),
            output => usize::from(output),
        };
        let j = (output * frame.stack..(output + 1) * frame.stack)
            .find(|&p| self.at[p] == NONE)
            .expect("an open column of a stack has a free position");
        self.put(frame, column, j);
        j as u8
    }

    /// The position [`Order::place`] would give `partner` once `column` is put at position `j`
    /// (which has none), without putting either.
    fn position_if(&self, frame: &Frame, column: u8, j: usize, partner: u8) -> u8 {
        if partner == column {
            return j as u8;
        }
        let known = self.position[usize::from(partner)];
        if known != NONE {
            return known;
        }
        let output = j / frame.stack;
        let (input, partner_input) = (frame.stack(column), frame.stack(partner));
        let opened = self.stack_at[output] == NONE;
        let target = match self.stack_of[partner_input] {
            NONE if opened && partner_input == input => output,
            NONE => usize::from(self.next_stack) + usize::from(opened),
            target => usize::from(target),
        };
        (target * frame.stack..(target + 1) * frame.stack)
            .find(|&p| p != j && self.at[p] == NONE)
            .expect("an open column of a stack has a free position") as u8
    }

    /// The input columns that can go at output position `j`, which has none yet.
    fn candidates(self, frame: Frame, j: usize) -> impl Iterator<Item = u8> {
        let input = self.stack_at[j / frame.stack];
        (0..frame.n as u8).filter(move |&c| {
            self.position[usize::from(c)] == NONE
                && match input {
                    NONE => self.stack_of[frame.stack(c)] == NONE,
                    input => frame.stack(c) == usize::from(input),
                }
        })
    }
}

impl CompleteSearch {
    fn start(&self, standing: Standing) -> Standing {
        if self.best.bounds(0) {
            standing
        } else {
            Standing::Below
        }
    }

    /// The column of the first row that holds the symbol of input column `column` in output row
    /// `i`.
    fn partner(&self, i: usize, column: u8) -> u8 {
        let n = self.frame.n;
        let value = self.views[self.transpose][usize::from(self.rows[i]) * n + usize::from(column)];
        self.column_of[usize::from(value)]
    }

    /// Once every column has its position, each input row reads one fixed line, and the smallest
    /// rest of the grid is a sort: the rows left in the first band in increasing order, then the
    /// other bands, each with its rows in increasing order, in increasing order of those lines.
    fn order_rows(&mut self, used: u32, order: &Order, standing: Standing) {
        let Frame { n, band, .. } = self.frame;
        let mut label = [0u8; MAX + 1];
        for (label, &column) in label.iter_mut().zip(&self.column_of).skip(1).take(n) {
            *label = 1 + order.position[usize::from(column)];
        }
        let mut lines = [[0u8; MAX]; MAX];
        // Per band, its rows left in increasing order of their lines.
        let mut sorted = [[0u8; MAX]; MAX];
        let first = usize::from(self.rows[0]) / band;
        let left = self.sort_band(first, used, order, &label, &mut lines, &mut sorted[first]);
        let mut out = [0u8; MAX];
        out[..left].copy_from_slice(&sorted[first][..left]);
        let mut count = left;
        // How the rows so far read against the best line's: a symmetric grid ties many orders
        // through the second row that part soon after, and the first band, read before the
        // others are sorted, leaves most of them.
        let against = |rows: &[u8], lines: &[[u8; MAX]; MAX], from: usize| {
            rows.iter()
                .enumerate()
                .fold(Ordering::Equal, |relation, (t, &row)| {
                    let k = (from + t) * n;
                    relation
                        .then_with(|| lines[usize::from(row)][..n].cmp(&self.best.line[k..k + n]))
                })
        };
        let mut relation = match standing {
            Standing::Below => Ordering::Less,
            Standing::Level => against(&out[..count], &lines, 2),
        };
        if relation == Ordering::Greater {
            return;
        }
        let mut bands = [0u8; MAX];
        let mut others = 0;
        for b in (0..n / band).filter(|&b| b != first) {
            self.sort_band(b, used, order, &label, &mut lines, &mut sorted[b]);
            bands[others] = b as u8;
            others += 1;
        }
        let content = |b: u8| {
            sorted[usize::from(b)][..band]
                .iter()
                .map(|&r| lines[usize::from(r)])
        };
        bands[..others].sort_unstable_by(|&a, &b| content(a).cmp(content(b)));
        for &b in &bands[..others] {
            out[count..count + band].copy_from_slice(&sorted[usize::from(b)][..band]);
            count += band;
        }
        if relation == Ordering::Equal {
            relation = against(&out[left..count], &lines, 2 + left);
        }
        let below = relation == Ordering::Less;
        let start = (self.transpose, self.rows[0], self.rows[1]);
        if below {
            for (t, &row) in out[..count].iter().enumerate() {
                let k = (2 + t) * n;
                self.line[k..k + n].copy_from_slice(&lines[usize::from(row)][..n]);
            }
            self.best.take(&self.line);
            self.best_arrangement = (start, order.at);
        } else if relation == Ordering::Equal {
            let (best_start, best_at) = self.best_arrangement;
            self.unwind = if start != best_start {
                Some(Unwind::Start)
            } else if self.frame.band > 2 {
                // The branches of the second row are those of `fill_row`, one a position.
                (0..n).find(|&j| order.at[j] != best_at[j]).map(Unwind::To)
            } else {
                None
            };
        }
    }

    /// Reads the rows of band `b` not in `used` under `order` into `lines`, and writes them into
    /// `rows` in increasing order of those lines; returns how many.
    fn sort_band(
        &self,
        b: usize,
        used: u32,
        order: &Order,
        label: &[u8; MAX + 1],
        lines: &mut [[u8; MAX]; MAX],
        rows: &mut [u8; MAX],
    ) -> usize {
        let Frame { n, band, .. } = self.frame;
        let view = &self.views[self.transpose];
        let mut count = 0;
        for row in (b * band..(b + 1) * band).filter(|&r| used >> r & 1 == 0) {
            for (j, cell) in lines[row][..n].iter_mut().enumerate() {
                *cell = label[usize::from(view[row * n + usize::from(order.at[j])])];
            }
            rows[count] = row as u8;
            count += 1;
        }
        rows[..count].sort_unstable_by_key(|&r| lines[usize::from(r)]);
        count
    }

    /// `order` with `column` put at position `j` and its partner placed.
    fn with_column(&self, mut order: Order, column: u8, j: usize) -> Order {
        order.put(&self.frame, column, j);
        order.place(&self.frame, self.partner(1, column));
        order
    }

    /// Fills the cells of the second row from cell `k` on, in one loop while each position has
    /// its column; a position without one branches over the columns that give the smallest cell
    /// (at the first position, only columns of the stacks that can come first).
    fn fill_row(&mut self, mut k: usize, used: u32, mut order: Order, mut standing: Standing) {
        let n = self.frame.n;
        loop {
            let j = k % n;
            let value = if order.at[j] != NONE {
                1 + order.place(&self.frame, self.partner(1, order.at[j]))
            } else {
                let frame = self.frame;
                let (mut chosen, mut least) = (0u32, u8::MAX);
                for column in order.candidates(frame, j) {
                    if j == 0 && self.first_columns >> column & 1 == 0 {
                        continue;
                    }
                    let value = 1 + order.position_if(&frame, column, j, self.partner(1, column));
                    if value < least {
                        (least, chosen) = (value, 0);
                    }
                    if value == least {
                        chosen |= 1 << column;
                    }
                }
                let Some(child) = standing.after(&self.best.line, k, least) else {
                    return;
                };
                self.line[k] = least;
                if chosen.count_ones() > 1 {
                    let mut child = child;
                    for column in (0..n as u8).filter(|c| chosen >> c & 1 == 1) {
                        let order = self.with_column(order, column, j);
                        let improvements = self.best.improvements;
                        if j == n - 1 {
                            self.order_rows(used, &order, child);
                        } else {
                            self.fill_row(k + 1, used, order, child);
                        }
                        if self.best.improvements != improvements {
                            // The line taken shares this prefix.
                            child = Standing::Level;
                        }
                        match self.unwind {
                            Some(Unwind::To(at)) if at == j => self.unwind = None,
                            Some(_) => return,
                            None => {}
                        }
                    }
                    return;
                }
                order = self.with_column(order, chosen.trailing_zeros() as u8, j);
                standing = child;
                if j == n - 1 {
                    return self.order_rows(used, &order, standing);
                }
                k += 1;
                continue;
            };
            let Some(child) = standing.after(&self.best.line, k, value) else {
                return;
            };
            standing = child;
            self.line[k] = value;
            if j == n - 1 {
                return self.order_rows(used, &order, standing);
            }
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern grid of boxes two rows high: `π²` is the identity, every layout ties.
    fn pattern(n: usize, stack: usize) -> Vec<u8> {
        crate::classes::shaped::tests::pattern(n / stack, stack)
    }

    #[test]
    fn the_third_row_lays_out_what_every_layout_would() {
        use crate::engine::generic::solve::Solver;
        use crate::model::shape::Shape;
        use crate::model::symbols::Symbols;
        for (n, stack) in [(6, 3), (8, 4), (10, 5), (12, 6)] {
            let frame = Frame::new(n, 2, stack);
            let shape = Shape::boxed(n, Some((2, stack)), false, Symbols::default_for(n)).unwrap();
            let mut solver = Solver::new(&shape);
            for seed in 0..12 {
                // Random grids under the pattern grid's first band, whose every column is a
                // fixed point of `π²`, and under a first band with one cycle of two: many cycles
                // of one length, and layouts that tie far into the rows.
                let mut start = pattern(n, stack);
                start[2 * n..].fill(0);
                if seed % 2 == 1 {
                    start.swap(n, n + 1);
                    start.swap(n + stack, n + stack + 1);
                }
                let mut cells = vec![0; n * n];
                assert_eq!(
                    solver.random_solution(&start, seed, &mut cells, usize::MAX),
                    Some(true)
                );
                assert!(applies(&frame, &cells));
                assert_eq!(
                    search_with(&frame, &cells, 0),
                    search_with(&frame, &cells, u64::MAX),
                    "{n}: {cells:?}"
                );
            }
            let cells = pattern(n, stack);
            assert_eq!(
                search_with(&frame, &cells, 0),
                search_with(&frame, &cells, u64::MAX)
            );
        }
    }

    #[test]
    fn a_20x20_pattern_grid_of_boxes_two_rows_high_has_its_form() {
        let frame = Frame::new(20, 2, 10);
        let form = search(&frame, &pattern(20, 10));
        // The pattern grid is its own form: its first row reads 1..20, its second 11..20 1..10.
        assert_eq!(form, pattern(20, 10));
    }
}
