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
//! tried.

use super::best::Best;
use super::{Frame, MAX, Standing, free_lines};

const NONE: u8 = u8::MAX;

/// Whether `cells` is a complete grid whose rows (and columns, where boxes are square) each hold
/// every symbol once: the grids this search serves.
pub(super) fn applies(frame: &Frame, cells: &[u8]) -> bool {
    let n = frame.n;
    let full = |cell: &dyn Fn(usize) -> u8| {
        (0..n)
            .try_fold(0u32, |seen, k| {
                let v = cell(k);
                (v != 0 && usize::from(v) <= n && seen >> v & 1 == 0).then_some(seen | 1 << v)
            })
            .is_some()
    };
    (0..n).all(|r| full(&|c| cells[r * n + c]))
        && (frame.views() == 1 || (0..n).all(|c| full(&|r| cells[r * n + c])))
}

/// The smallest line of `cells`, one of the grids [`applies`] accepts.
pub(super) fn search(frame: &Frame, cells: &[u8]) -> Vec<u8> {
    let n = frame.n;
    let mut search = CompleteSearch {
        frame: *frame,
        views: frame.views_of(cells),
        transpose: 0,
        rows: [0; MAX],
        column_of: [0; MAX + 1],
        line: vec![0; n * n],
        best: Best::new(n),
    };
    for (j, cell) in search.line[..n].iter_mut().enumerate() {
        *cell = j as u8 + 1;
    }
    let order = Order {
        at: [NONE; MAX],
        position: [NONE; MAX],
        stack_at: [NONE; MAX],
        stack_of: [NONE; MAX],
        next_stack: 0,
    };
    for transpose in 0..frame.views() {
        search.transpose = transpose;
        for row in 0..n as u8 {
            search.rows[0] = row;
            for c in 0..n {
                let value = search.views[transpose][usize::from(row) * n + c];
                search.column_of[usize::from(value)] = c as u8;
            }
            let standing = search.start(Standing::Level);
            search.place_row(1, 1 << row, order, standing);
        }
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
    line: Vec<u8>,
    best: Best,
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
    /// Puts input column `column` at output position `j`, its stack at `j`'s if it has none.
    fn put(&mut self, frame: &Frame, column: u8, j: usize) {
        let (output, input) = (j / frame.stack, usize::from(column) / frame.stack);
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
        let output = match self.stack_of[usize::from(column) / frame.stack] {
            NONE => usize::from(self.next_stack),
            output => usize::from(output),
        };
        let j = (output * frame.stack..(output + 1) * frame.stack)
            .find(|&p| self.at[p] == NONE)
            .expect("an open column of a stack has a free position");
        self.put(frame, column, j);
        j as u8
    }

    /// The input columns that can go at output position `j`, which has none yet.
    fn candidates(self, frame: Frame, j: usize) -> impl Iterator<Item = u8> {
        let input = self.stack_at[j / frame.stack];
        (0..frame.n as u8).filter(move |&c| {
            self.position[usize::from(c)] == NONE
                && match input {
                    NONE => self.stack_of[usize::from(c) / frame.stack] == NONE,
                    input => usize::from(c) / frame.stack == usize::from(input),
                }
        })
    }
}

impl CompleteSearch {
    fn start(&self, standing: Standing) -> Standing {
        if self.best.found {
            standing
        } else {
            Standing::Below
        }
    }

    /// The column of the first row that holds the symbol of input column `column` in output row `i`.
    fn partner(&self, i: usize, column: u8) -> u8 {
        let n = self.frame.n;
        let value = self.views[self.transpose][usize::from(self.rows[i]) * n + usize::from(column)];
        self.column_of[usize::from(value)]
    }

    /// Chooses the input row of output row `i`, then fills the row.
    fn place_row(&mut self, i: usize, used: u32, order: Order, standing: Standing) {
        let Frame { n, band, .. } = self.frame;
        if i == n {
            if standing == Standing::Below {
                self.best.take(&self.line);
            }
            return;
        }
        let mut standing = standing;
        for row in free_lines(n, band, used, i.is_multiple_of(band), self.rows[i - 1]) {
            self.rows[i] = row;
            let improvements = self.best.improvements;
            let start = self.start(standing);
            self.fill_row(n * i, used | 1 << row, order, start);
            if self.best.improvements != improvements {
                standing = Standing::Level;
            }
        }
    }

    /// Fills the cells of row `k / N` from cell `k` on, in one loop while each position has its
    /// column; a position without one branches over the columns that give the smallest cell.
    fn fill_row(&mut self, mut k: usize, used: u32, mut order: Order, mut standing: Standing) {
        let n = self.frame.n;
        let i = k / n;
        loop {
            let j = k % n;
            let value = if order.at[j] != NONE {
                1 + order.place(&self.frame, self.partner(i, order.at[j]))
            } else {
                let frame = self.frame;
                let value_with = |column: u8| {
                    let mut order = order;
                    order.put(&frame, column, j);
                    let value = 1 + order.place(&frame, self.partner(i, column));
                    (value, order)
                };
                let least = order.candidates(frame, j).map(|c| value_with(c).0).min();
                let least = least.expect("a free position has a free column");
                let chosen: Vec<Order> = order
                    .candidates(frame, j)
                    .map(value_with)
                    .filter(|&(value, _)| value == least)
                    .map(|(_, order)| order)
                    .collect();
                let Some(child) = standing.after(&self.best.line, k, least) else {
                    return;
                };
                self.line[k] = least;
                if chosen.len() > 1 {
                    let mut child = child;
                    for order in chosen {
                        let improvements = self.best.improvements;
                        self.next_cell(k, used, order, child);
                        if self.best.improvements != improvements {
                            // The line taken shares this prefix.
                            child = Standing::Level;
                        }
                    }
                    return;
                }
                order = chosen[0];
                standing = child;
                if j == n - 1 {
                    return self.place_row(i + 1, used, order, standing);
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
                return self.place_row(i + 1, used, order, standing);
            }
            k += 1;
        }
    }

    /// Goes on after cell `k`: with the next cell, or the next row after a row's last cell.
    fn next_cell(&mut self, k: usize, used: u32, order: Order, standing: Standing) {
        let n = self.frame.n;
        if k % n == n - 1 {
            self.place_row(k / n + 1, used, order, standing);
        } else {
            self.fill_row(k + 1, used, order, standing);
        }
    }
}
