//! The general search of boxed shapes, for puzzles and anything that is not a complete grid
//! whose rows and columns each hold every symbol: the 9×9 search of
//! [`crate::classes::canon`] for any band and stack.
//!
//! The line is built cell by cell, each row chosen (with the transposition) at its first cell;
//! every cell is final when it is placed, since its label is fixed by what came before it. Columns
//! are chosen lazily: columns of one stack that read blank in every row so far are
//! interchangeable so far, so they stay an unordered set until a row tells them apart, and a row
//! that gives some of them places only those (after the blank ones, which stay a set): a stack's
//! positions blank so far are always its first ones. The first row is known in advance up to its
//! labels: its blanks come first in each stack and its stacks in increasing number of givens, so
//! only rows and stack orders that give the fewest are tried. Rows of one band with the same cells
//! (columns of one stack alike) give the same lines, so only the first free one is tried; so do
//! rows that a symmetry of the puzzle swaps with a row tried (see [`mirrors`]).
//!
//! Given columns are deferred too (see [`deferral`]): those of the first row whose symbol the
//! row holds once, and, at any later row, those left for a stack's positions blank so far when
//! each gives a symbol the row holds once and has not read. A cell that reads the symbol of such a
//! column not yet placed reads smallest with that column at the first free position it can take,
//! so it is placed there without a branch (as in `complete`). A position deferred by an earlier
//! row stays deferred, reading a blank, while its row's earlier positions can still go to columns
//! blank in this row. A symbol the first row holds twice (no valid puzzle has one) is placed in
//! the first row.
//!
//! Rows are deferred too (see [`slots`]): rows of a band whose givens all read new labels in
//! placed columns, at the same positions, read alike in any order, so an output row that one of
//! them takes is a slot of their group, and a later row that reads one of their symbols settles
//! that row in the first free slot.
//!
//! The search goes row by row: every arrangement reads row `i` before any reads row `i + 1`, and
//! only those whose row `i` reads the smallest go on. A search that went deep first would finish
//! lines that a later branch beats at an early row, many times over on a typical puzzle.

mod deferral;
mod first_row;
mod mirrors;
mod slots;
mod twins;

use super::best::Best;
use super::{Frame, Labels, MAX, Standing, free_lines};
use deferral::Columns;
use first_row::profile_of;
use twins::Twins;

const NONE: u8 = u8::MAX;

/// How many arrangements may wait for the next row: past it, the search goes deep first, in
/// bounded memory.
const WAITING: usize = 1 << 14;

/// The smallest line of `cells` (see the module documentation).
pub(super) fn search(frame: &Frame, cells: &[u8]) -> Vec<u8> {
    let search = PuzzleSearch::new(frame, cells, None);
    if !search.rows_repeat() {
        return search.run();
    }
    search
        .first_row_profiles()
        .iter()
        .map(|profile| PuzzleSearch::new(frame, cells, Some(profile)).run())
        .min()
        .expect("a row has a profile")
}

/// An arrangement of the rows so far, all of whose rows read the smallest rows found: where the
/// search goes on from at the next row.
struct Partial {
    transpose: usize,
    rows: [u8; MAX],
    used: u32,
    columns: Columns,
    labels: Labels,
}

struct PuzzleSearch {
    frame: Frame,
    views: [Vec<u8>; 2],
    /// Per view, its lines that read alike.
    twins: [Twins; 2],
    /// Per view and row, the columns (bit per column) whose cells are given.
    given: [Vec<u32>; 2],
    /// The givens of the smallest first row in each output stack, fewest first.
    first_row_givens: Vec<u8>,
    /// The positions (bit per position) where the first row reads a blank.
    blank_positions: u32,
    /// Per view and row, the columns (bit per column) whose symbol the row holds more than once.
    repeated: [Vec<u32>; 2],
    /// Per view, the rows (bit per row) with those counts: the only ones that can come first.
    first_rows: [u32; 2],
    transpose: usize,
    rows: [u8; MAX],
    line: Vec<u8>,
    /// The rows before row `level` are the smallest rows found; `best` holds them, and the
    /// smallest row `level` so far.
    best: Best,
    level: usize,
    /// The arrangements whose row `level` reads that smallest row.
    next: Vec<Partial>,
}

impl PuzzleSearch {
    fn new(frame: &Frame, cells: &[u8], profile: Option<&[u8]>) -> PuzzleSearch {
        let n = frame.n;
        let views = frame.views_of(cells);
        let mut counts = [0u32; MAX + 1];
        for &v in cells {
            counts[usize::from(v)] += 1;
        }
        let once = (1..=n)
            .filter(|&v| counts[v] == 1)
            .fold(0u32, |m, v| m | 1 << v);
        let twins = [0, 1].map(|t| Twins::new(frame, &views[t], once));
        let given = [0, 1].map(|t| {
            (0..n)
                .map(|r| {
                    (0..n)
                        .filter(|&c| views[t][r * n + c] != 0)
                        .fold(0u32, |m, c| m | 1 << c)
                })
                .collect::<Vec<u32>>()
        });
        let counts = [0, 1].map(|t| {
            given[t]
                .iter()
                .map(|&m| profile_of(frame, m))
                .collect::<Vec<_>>()
        });
        let first_row_givens = profile.map_or_else(
            || {
                counts[..frame.views()]
                    .iter()
                    .flatten()
                    .min()
                    .expect("N rows")
                    .clone()
            },
            <[u8]>::to_vec,
        );
        let first_rows = [0, 1].map(|t| {
            (0..n)
                .filter(|&r| counts[t][r] == first_row_givens)
                .fold(0, |m, r| m | 1 << r)
        });
        let repeated = [0, 1].map(|t| {
            (0..n)
                .map(|r| {
                    let cells = &views[t][r * n..(r + 1) * n];
                    (0..n)
                        .filter(|&c| {
                            cells[c] != 0 && cells.iter().filter(|&&v| v == cells[c]).count() > 1
                        })
                        .fold(0u32, |m, c| m | 1 << c)
                })
                .collect::<Vec<u32>>()
        });
        let width = frame.stack;
        let blank_positions = first_row_givens
            .iter()
            .enumerate()
            .fold(0u32, |m, (stack, &count)| {
                m | ((1 << (width - usize::from(count))) - 1) << (width * stack)
            });
        PuzzleSearch {
            frame: *frame,
            views,
            twins,
            given,
            first_row_givens,
            blank_positions,
            repeated,
            first_rows,
            transpose: 0,
            rows: [0; MAX],
            line: vec![0; n * n],
            best: Best::new(n),
            level: 0,
            next: Vec::new(),
        }
    }

    /// The smallest line whose first row has this search's given counts.
    fn run(mut self) -> Vec<u8> {
        let frame = self.frame;
        let columns = Columns::NEW;
        let mut frontier: Vec<Partial> = (0..frame.views())
            .map(|transpose| Partial {
                transpose,
                rows: [0; MAX],
                used: 0,
                columns,
                labels: Labels::NEW,
            })
            .collect();
        for i in 0..frame.n {
            self.level = i;
            for partial in std::mem::take(&mut frontier) {
                self.transpose = partial.transpose;
                self.rows = partial.rows;
                self.place_row(
                    i,
                    partial.used,
                    partial.columns,
                    partial.labels,
                    Standing::Level,
                );
            }
            frontier = std::mem::take(&mut self.next);
        }
        self.best.line
    }

    /// The value of input column `column` in output row `i`.
    fn value(&self, i: usize, column: u8) -> u8 {
        let n = self.frame.n;
        self.views[self.transpose][usize::from(self.rows[i]) * n + usize::from(column)]
    }

    /// The input columns (bit per column) whose cells are given in output row `i`.
    fn given_columns(&self, i: usize) -> u32 {
        self.given[self.transpose][usize::from(self.rows[i])]
    }

    /// The output stack whose input stack holds input column `column`.
    fn output_stack(&self, columns: &Columns, column: u8) -> usize {
        let input = self.frame.stack(column) as u8;
        let stacks = self.frame.n / self.frame.stack;
        (0..stacks)
            .find(|&s| columns.stack_at[s] == input)
            .expect("every output stack has its input stack after the first row")
    }

    /// The positions (bit per position) of output stack `stack`.
    fn stack_positions(&self, stack: usize) -> u32 {
        let width = self.frame.stack;
        ((1 << width) - 1) << (width * stack)
    }

    /// The label cell `(i, j)` would read with input column `column` there (the labels and
    /// columns unchanged).
    fn peek(&self, i: usize, j: usize, column: u8, columns: &Columns, labels: &Labels) -> u8 {
        let value = self.value(i, column);
        let known = labels.peek(value);
        if known != labels.next {
            return known;
        }
        match columns.holder[usize::from(value)] {
            NONE if columns.slots.holds(value) => self.slot_label(value, columns).unwrap_or(known),
            NONE => known,
            holder if holder == column => self.held_label(value, holder, j, columns),
            holder => {
                let free = self.free_for(i, j, columns, holder);
                debug_assert!(free != 0, "a pending column keeps a free position");
                self.held_label(value, holder, free.trailing_zeros() as usize, columns)
            }
        }
    }

    /// Places input column `column` at position `j` of output row `i`, and returns the label the
    /// cell reads.
    fn put(
        &self,
        i: usize,
        j: usize,
        column: u8,
        columns: &mut Columns,
        labels: &mut Labels,
    ) -> u8 {
        columns.at[j] = column;
        columns.placed |= 1 << column;
        columns.open[j / self.frame.stack] &= !(1 << column);
        if i == 0 {
            return labels.take(self.value(0, column));
        }
        if columns.deferred >> j & 1 == 1 {
            self.settle(j, column, columns, labels);
        }
        self.read(i, j, column, columns, labels)
    }

    /// The label of input column `column`, placed, in output row `i`: a deferred symbol places
    /// its pending column first, at the first free position it can take.
    fn read(
        &self,
        i: usize,
        j: usize,
        column: u8,
        columns: &mut Columns,
        labels: &mut Labels,
    ) -> u8 {
        let value = self.value(i, column);
        if value != 0 && labels.of[usize::from(value)] == 0 {
            let holder = columns.holder[usize::from(value)];
            if holder != NONE {
                let at = self.free_for(i, j, columns, holder).trailing_zeros() as usize;
                self.settle(at, holder, columns, labels);
            } else if columns.slots.holds(value) {
                self.read_member(value, columns, labels);
            }
        }
        labels.take(value)
    }

    /// The standing to start row `i` with: level with the best line's row if it bounds the
    /// search.
    fn start(&self, i: usize, standing: Standing) -> Standing {
        if self.best.bounds(i) {
            standing
        } else {
            Standing::Below
        }
    }

    /// Chooses the input row of output row `i`, then goes on with its first cell.
    fn place_row(
        &mut self,
        i: usize,
        used: u32,
        columns: Columns,
        labels: Labels,
        standing: Standing,
    ) {
        let Frame { n, band, .. } = self.frame;
        if i == n {
            if self.start(n - 1, standing) == Standing::Below {
                self.best.take(&self.line);
            }
            return;
        }
        if i == self.level + 1 {
            // Row `level` is read, and is the smallest so far or level with it. The search goes
            // on from here with the next row, once every arrangement has read row `level`; or at
            // once when too many wait, as a search that goes deep first.
            let below = self.start(self.level, standing) == Standing::Below;
            if below {
                self.best
                    .take_row(self.level, &self.line[self.level * n..i * n]);
                self.next.clear();
            }
            if below || self.next.len() < WAITING {
                self.next.push(Partial {
                    transpose: self.transpose,
                    rows: self.rows,
                    used,
                    columns,
                    labels,
                });
                return;
            }
        }
        let mut standing = standing;
        let previous = if i == 0 { 0 } else { self.rows[i - 1] };
        let covered = if i > 0 {
            self.place_slots(i, used, &columns, labels, &mut standing)
        } else {
            0
        };
        let taken = used | columns.slots.rows | covered;
        if i > 0 && columns.at[..n].iter().all(|&c| c != NONE) {
            return self.place_read_row(i, used, taken, &columns, labels, standing);
        }
        let free = free_lines(
            n,
            band,
            used | columns.slots.rows,
            i.is_multiple_of(band),
            previous,
        );
        let mut tried = 0;
        for row in free.filter(|&r| covered >> r & 1 == 0) {
            if self.twins[self.transpose].taken_row(&self.frame, i, row, taken)
                || self.mirrors_tried(row, tried, &columns, &labels)
            {
                continue;
            }
            if i == 0 && self.first_rows[self.transpose] >> row & 1 == 0 {
                continue;
            }
            self.rows[i] = row;
            let start = self.start(i, standing);
            if i > 0 && start == Standing::Level && self.above_by_blanks(i, &columns) {
                continue;
            }
            tried |= 1 << row;
            let improvements = self.best.improvements;
            self.place_cell(n * i, used | 1 << row, columns, labels, start);
            if self.best.improvements != improvements {
                standing = Standing::Level;
            }
        }
    }

    /// Output row `i` once every column has its position: each candidate row then reads one line
    /// under the labels so far, and only the rows that read the smallest can keep the whole line
    /// smallest, whatever follows. A row is read only until it reads above the smallest so far,
    /// or above the best line's row while level with it: most rows differ within a few cells.
    /// The rows of `taken` are used, held by groups of rows, or held by the groups a slot of this
    /// row tried.
    fn place_read_row(
        &mut self,
        i: usize,
        used: u32,
        taken: u32,
        columns: &Columns,
        labels: Labels,
        standing: Standing,
    ) {
        let Frame { n, band, .. } = self.frame;
        let start = self.start(i, standing);
        let view = &self.views[self.transpose];
        let mut least = [0u8; MAX];
        // What a row must not read above: the best line's row while level with it, then the
        // smallest row read.
        let mut bounded = start == Standing::Level;
        if bounded {
            least[..n].copy_from_slice(&self.best.line[i * n..(i + 1) * n]);
        }
        let mut found = false;
        let mut ties = [(0u8, Labels::NEW); MAX];
        let mut tied = 0;
        // Rows that read a member's symbol settle it: each reads with its own copy of the groups.
        let held = columns.slots.rows != 0 && columns.slots.holding();
        let free = free_lines(
            n,
            band,
            used | columns.slots.rows,
            i.is_multiple_of(band),
            self.rows[i - 1],
        );
        'rows: for row in free.filter(|&r| taken >> r & 1 == 0) {
            if self.twins[self.transpose].taken_row(&self.frame, i, row, taken) {
                continue;
            }
            let cells = &view[usize::from(row) * n..(usize::from(row) + 1) * n];
            let mut after = labels;
            let mut groups = if held { Some(*columns) } else { None };
            let mut below = !bounded;
            for j in 0..n {
                let value = cells[usize::from(columns.at[j])];
                let value = match groups.as_mut() {
                    Some(groups) => self.take_held(value, groups, &mut after),
                    None => after.take(value),
                };
                if !below {
                    match value.cmp(&least[j]) {
                        std::cmp::Ordering::Greater => continue 'rows,
                        std::cmp::Ordering::Less => below = true,
                        std::cmp::Ordering::Equal => {}
                    }
                }
                if below {
                    least[j] = value;
                }
            }
            if below || !found {
                tied = 0;
            }
            found = true;
            bounded = true;
            ties[tied] = (row, after);
            tied += 1;
        }
        if !found {
            return;
        }
        let Some(mut standing) =
            (0..n).try_fold(start, |s, j| s.after(&self.best.line, i * n + j, least[j]))
        else {
            return;
        };
        self.line[i * n..(i + 1) * n].copy_from_slice(&least[..n]);
        for &(row, after) in &ties[..tied] {
            self.rows[i] = row;
            let mut columns = *columns;
            if held {
                self.read_placed(row, &mut columns, labels);
            }
            let improvements = self.best.improvements;
            self.place_row(i + 1, used | 1 << row, columns, after, standing);
            if self.best.improvements != improvements {
                standing = Standing::Level;
            }
        }
    }

    /// The positions (bit per position) of output row `i`, after the first, that read a label
    /// under `columns`: those of placed columns given in the row, and in each stack the last of
    /// its positions not placed (blank so far, or deferred by a row), as many as their open
    /// columns given in the row (blanks come first). Where a deferred symbol settles its column
    /// early, those positions can read otherwise, but never with more blanks first.
    fn given_positions(&self, i: usize, columns: &Columns) -> u32 {
        let Frame {
            n, stack: width, ..
        } = self.frame;
        let given_here = self.given_columns(i);
        let placed = (0..n)
            .filter(|&j| columns.at[j] != NONE && given_here >> columns.at[j] & 1 == 1)
            .fold(0u32, |m, j| m | 1 << j);
        columns.open[..n / width]
            .iter()
            .enumerate()
            .fold(placed, |mask, (stack, &open)| {
                let blanks = open & !columns.pending;
                let (deferred, given) = (blanks.count_ones(), (blanks & given_here).count_ones());
                let mut late = columns.deferred & self.stack_positions(stack);
                while late.count_ones() > (open & columns.pending & given_here).count_ones() {
                    late &= late - 1;
                }
                mask | ((1u32 << given) - 1) << (width as u32 * stack as u32 + deferred - given)
                    | late
            })
    }

    /// Whether output row `i`, entered level with the best line, is above it by its blanks alone:
    /// at the first position where one of the two rows reads a blank and the other a label, the
    /// label is ours, and no earlier position reads a label in both.
    fn above_by_blanks(&self, i: usize, columns: &Columns) -> bool {
        let ours = self.given_positions(i, columns);
        let best = self.best.given_positions[i];
        let differ = ours ^ best;
        differ != 0
            && ours >> differ.trailing_zeros() & 1 == 1
            && differ.trailing_zeros() < (ours & best).trailing_zeros()
    }

    /// Fills cell `k` of the line.
    fn place_cell(
        &mut self,
        k: usize,
        used: u32,
        columns: Columns,
        labels: Labels,
        standing: Standing,
    ) {
        let Frame {
            n, stack: width, ..
        } = self.frame;
        let (i, j) = (k / n, k % n);
        let stack = j / width;
        if i == 0 && j % width == 0 {
            // A new output stack: only an unused input stack with as many givens in the first row
            // as the smallest first row has there can keep the line smallest.
            let mut standing = standing;
            let taken = columns.stack_at[..stack]
                .iter()
                .fold(0u32, |m, &s| m | 1 << s);
            let count = self.first_row_givens[stack];
            let given = self.given_columns(0);
            for input_stack in 0..(n / width) as u8 {
                if taken >> input_stack & 1 == 1
                    || self.twins[self.transpose].stacks[usize::from(input_stack)] & !taken != 0
                    || givens(&self.frame, given, usize::from(input_stack)) != count
                {
                    continue;
                }
                let mut columns = columns;
                columns.stack_at[stack] = input_stack;
                columns.open[stack] = ((1u32 << width) - 1) << (width * usize::from(input_stack));
                self.defer(0, columns.open[stack] & self.deferrable(0), &mut columns);
                let improvements = self.best.improvements;
                self.first_row_cell(k, used, columns, labels, standing);
                if self.best.improvements != improvements {
                    standing = Standing::Level;
                }
            }
            return;
        }
        if i == 0 {
            return self.first_row_cell(k, used, columns, labels, standing);
        }
        self.fill_row(k, used, columns, labels, standing);
    }

    /// Goes on after cell `k`: with the next cell, or the next row after a row's last cell.
    fn next_cell(
        &mut self,
        k: usize,
        used: u32,
        columns: Columns,
        labels: Labels,
        standing: Standing,
    ) {
        let n = self.frame.n;
        if k % n == n - 1 {
            self.place_row(k / n + 1, used, columns, labels, standing);
        } else {
            self.place_cell(k + 1, used, columns, labels, standing);
        }
    }

    /// The deferred positions of output stack `stack` before position `j`.
    fn deferred_before(&self, columns: &Columns, stack: usize, j: usize) -> usize {
        let width = self.frame.stack;
        (width * stack..j)
            .filter(|&p| columns.at[p] == NONE)
            .count()
    }

    /// Fills the cells of a row after the first from cell `k` on, in one loop while each cell has
    /// a single choice: a placed column, a position blank so far whose open columns all read
    /// blank, a position an earlier row deferred that stays deferred (blank) or one it deferred
    /// itself, givens this row defers, or a position only one column can take. A cell with more
    /// choices branches.
    fn fill_row(
        &mut self,
        mut k: usize,
        used: u32,
        mut columns: Columns,
        mut labels: Labels,
        mut standing: Standing,
    ) {
        let Frame {
            n, stack: width, ..
        } = self.frame;
        let i = k / n;
        let given_here = self.given_columns(i);
        loop {
            let (j, stack) = (k % n, k % n / width);
            let placed = columns.at[j];
            let blanks = columns.open[stack] & !columns.pending;
            let deferred = columns.deferred >> j & 1 == 1;
            let value = if placed != NONE {
                self.read(i, j, placed, &mut columns, &mut labels)
            } else if deferred && usize::from(columns.row_at[j]) == i {
                // Deferred by this row: the label was read when its givens were deferred.
                columns.label_at[j]
            } else if deferred
                && (columns.layers[j] >> i & 1 == 1 || self.layer(i, j, &mut columns, &labels))
            {
                // This row gives each of the group's columns a new symbol: new labels, read in turn.
                labels.next += 1;
                labels.next - 1
            } else if deferred && {
                let group = self.group(&columns, stack, columns.row_at[j]);
                (group & ((1 << j) - 1)).count_ones()
                    < (self.columns_of(&columns, j) & !given_here).count_ones()
            } {
                // Blank: the columns of the position blank in this row stay interchangeable
                // and keep its row's first deferred positions in the stack, as below.
                0
            } else if !deferred
                && (blanks & given_here == 0
                    || self.deferred_before(&columns, stack, j)
                        < (blanks & !given_here).count_ones() as usize)
            {
                // Blank: the open columns blank in this row stay interchangeable and keep the
                // stack's first deferred positions; the given ones take the rest.
                0
            } else {
                // The open columns that can go here are told apart now: each choice giving the
                // smallest cell is made, one of each set of twins. At a position blank so far
                // they are the ones given here; at a deferred given's, those its row deferred.
                let open = columns.open[stack];
                let candidates = if deferred {
                    self.columns_of(&columns, j) & given_here
                } else {
                    blanks & given_here
                };
                let cell = |c: u8| self.peek(i, j, c, &columns, &labels);
                let least = (0..n as u8)
                    .filter(|&c| candidates >> c & 1 == 1)
                    .map(cell)
                    .min()
                    .unwrap_or(0);
                if !deferred
                    && least == labels.next
                    && candidates.count_ones() > 1
                    && candidates & !self.deferrable(i) == 0
                    && (0..n as u8)
                        .all(|c| candidates >> c & 1 == 0 || !columns.slots.holds(self.value(i, c)))
                {
                    // Every column left for the stack's positions blank so far gives a symbol
                    // not yet read, once in the row: the row reads new labels there whatever
                    // their order, so the order waits for a later row, as the first row's does.
                    self.defer(i, candidates, &mut columns);
                    for p in j..j + candidates.count_ones() as usize {
                        self.defer_position(i, p, labels.next, &mut columns);
                        labels.next += 1;
                    }
                    columns.label_at[j]
                } else {
                    let twins = &self.twins[self.transpose].columns;
                    let chosen = (0..n as u8)
                        .filter(|&c| {
                            candidates >> c & 1 == 1
                                && cell(c) == least
                                && twins[usize::from(c)] & open == 0
                        })
                        .fold(0u32, |m, c| m | 1 << c);
                    if chosen.count_ones() == 1 {
                        let column = chosen.trailing_zeros() as u8;
                        self.put(i, j, column, &mut columns, &mut labels)
                    } else {
                        return self.branch(k, chosen, used, columns, labels, standing);
                    }
                }
            };
            let Some(child) = standing.after(&self.best.line, k, value) else {
                return;
            };
            standing = child;
            self.line[k] = value;
            if j == n - 1 {
                return self.place_row(i + 1, used, columns, labels, standing);
            }
            k += 1;
        }
    }

    /// Fills cell `j` of the first row, whose output stack has its input stack: a blank while a
    /// blank column of the stack is left for it, both deferred; else a new label, its column one
    /// of the stack's deferred givens, or a column whose symbol the row repeats, read as it is.
    fn first_row_cell(
        &mut self,
        j: usize,
        used: u32,
        columns: Columns,
        labels: Labels,
        standing: Standing,
    ) {
        let n = self.frame.n;
        if self.blank_positions >> j & 1 == 1 {
            if let Some(child) = standing.after(&self.best.line, j, 0) {
                self.line[j] = 0;
                self.next_cell(j, used, columns, labels, child);
            }
            return;
        }
        let stack = j / self.frame.stack;
        let open = columns.open[stack] & self.given_columns(0);
        let repeats = open & !columns.pending;
        // A new label may be read here only while a deferred given is left to take the position:
        // the stack's other positions must still hold its repeated symbols.
        let waiting = (open & !repeats).count_ones()
            > (columns.deferred & self.stack_positions(stack)).count_ones();
        let cell = |c: u8| labels.peek(self.value(0, c));
        let least = (0..n as u8)
            .filter(|&c| repeats >> c & 1 == 1)
            .map(cell)
            .chain(waiting.then_some(labels.next))
            .min()
            .expect("a column for every position");
        let twins = &self.twins[self.transpose].columns;
        let chosen = (0..n as u8)
            .filter(|&c| {
                repeats >> c & 1 == 1 && cell(c) == least && twins[usize::from(c)] & open == 0
            })
            .fold(0u32, |m, c| m | 1 << c);
        let mut standing = standing;
        if waiting
            && least == labels.next
            && let Some(child) = standing.after(&self.best.line, j, least)
        {
            let (mut columns, mut labels) = (columns, labels);
            self.defer_position(0, j, labels.next, &mut columns);
            labels.next += 1;
            self.line[j] = least;
            let improvements = self.best.improvements;
            self.next_cell(j, used, columns, labels, child);
            if self.best.improvements != improvements {
                standing = Standing::Level;
            }
        }
        self.branch(j, chosen, used, columns, labels, standing);
    }

    /// Tries each column of `chosen` (bit per input column, open in the stack of cell `k`) at
    /// cell `k`, and goes on from each.
    fn branch(
        &mut self,
        k: usize,
        chosen: u32,
        used: u32,
        columns: Columns,
        labels: Labels,
        standing: Standing,
    ) {
        let n = self.frame.n;
        let (i, j) = (k / n, k % n);
        let mut standing = standing;
        for column in (0..n as u8).filter(|c| chosen >> c & 1 == 1) {
            let (mut columns, mut labels) = (columns, labels);
            let value = self.put(i, j, column, &mut columns, &mut labels);
            let Some(child) = standing.after(&self.best.line, k, value) else {
                continue;
            };
            self.line[k] = value;
            let improvements = self.best.improvements;
            self.next_cell(k, used, columns, labels, child);
            if self.best.improvements != improvements {
                standing = Standing::Level;
            }
        }
    }
}

/// How many columns of input stack `stack` a row gives, its given columns being `given`.
fn givens(frame: &Frame, given: u32, stack: usize) -> u8 {
    (given >> (frame.stack * stack) & ((1 << frame.stack) - 1)).count_ones() as u8
}
