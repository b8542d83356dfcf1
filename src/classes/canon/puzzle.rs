//! The general search, for puzzles and anything that is not a valid complete grid.
//!
//! The line is built cell by cell, each row chosen (with the transposition) at its first cell;
//! every cell is final when it is placed, since its label is fixed by what came before it. Columns
//! are chosen lazily: columns of one stack that read blank in every row so far are interchangeable
//! so far, so they stay an unordered set until a row tells them apart, and a row that gives some of
//! them places only those (after the blank ones, which stay a set). A first row with one given thus
//! costs one branch per stack order instead of one per column order (up to 144). The first row is
//! known in advance up to its labels: its blanks come first in each stack and its stacks in
//! increasing number of givens, so only rows and stack orders that give the fewest are tried.

use crate::classes::canon::best::Best;
use crate::classes::canon::ones;
use crate::model::grid::{CELLS, Grid};

/// A grid as rows of cells, as read plainly (index 0) and transposed (index 1).
type Views = [[[u8; 9]; 9]; 2];

fn views_of(grid: &Grid) -> Views {
    let mut views = [[[0; 9]; 9]; 2];
    for (cell, &digit) in grid.cells().iter().enumerate() {
        views[0][cell / 9][cell % 9] = digit;
        views[1][cell % 9][cell / 9] = digit;
    }
    views
}

/// The lines of a block (band or stack) not yet in `used` (bit per line): all three lines of every
/// unused block when `new_block`, else the free lines of the block of `previous`.
fn free_lines(used: u16, new_block: bool, previous: u8) -> impl Iterator<Item = u8> {
    (0..9u8).filter(move |&line| {
        used >> line & 1 == 0
            && if new_block {
                used >> (line / 3 * 3) & 7 == 0
            } else {
                line / 3 == previous / 3
            }
    })
}

/// How a partial line compares with the best line's prefix of the same length.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Standing {
    /// Equal so far: later cells still decide.
    Level,
    /// Already smaller (or there is no best line yet): nothing more to compare.
    Below,
}

impl Standing {
    /// The standing after cell `at` takes `value`; `None` if the line is now above the best.
    fn after(self, best: &Best, at: usize, value: u8) -> Option<Standing> {
        match self {
            Standing::Below => Some(Standing::Below),
            Standing::Level if value < best.line[at] => Some(Standing::Below),
            Standing::Level if value == best.line[at] => Some(Standing::Level),
            Standing::Level => None,
        }
    }
}

/// The label of `digit` given the labels so far, numbering a new digit `next`; 0 stays 0.
fn label(labels: &mut [u8; 10], next: &mut u8, digit: u8) -> u8 {
    if digit == 0 {
        return 0;
    }
    let slot = &mut labels[usize::from(digit)];
    if *slot == 0 {
        *slot = *next;
        *next += 1;
    }
    *slot
}

/// How many columns of stack `stack` a row gives, its given columns being `given` (bit per column).
fn givens(given: u16, stack: u8) -> u8 {
    ones(given >> (3 * stack) & 7) as u8
}

/// How many columns of each stack a row gives, fewest first.
fn sorted_givens(given: u16) -> [u8; 3] {
    let mut counts = [0, 1, 2].map(|stack| givens(given, stack));
    counts.sort_unstable();
    counts
}

/// The general search, cell by cell in line order (puzzles, and grids that are not valid).
///
/// Columns whose cells read blank so far are interchangeable so far, so which of them goes where is
/// left open: a position of the first row that can take a blank cell takes "one of the blank columns
/// of its stack" (a **deferred** position), and a choice is made only for the columns a row gives:
/// they take the stack's last deferred positions, since blanks come first (0 is below every label),
/// and the columns still blank keep the first ones. So a stack's deferred positions are always its
/// first ones.
pub(super) struct PuzzleSearch {
    views: Views,
    /// Per view and row, the earlier rows of its band with the same cells: choosing one of two
    /// such rows or the other gives the same lines, so only the first free one is tried.
    twins: [[u16; 9]; 2],
    /// Per view and row, the columns (bit per column) whose cells are given.
    given: [[u16; 9]; 2],
    /// The smallest first row has, in each output stack, the givens counted here: its blanks come
    /// first in each stack and its givens read 1, 2, 3, ..., so the fewer givens a stack has the
    /// earlier it goes, and a row whose counts, sorted, are not the smallest of all cannot be first.
    first_row_givens: [u8; 3],
    /// Per view, the rows (bit per row) with those counts: the only ones that can come first.
    first_rows: [u16; 2],
    transpose: usize,
    rows: [u8; 9],
    line: [u8; CELLS],
    best: Best,
}

/// The column side of a partial arrangement: the input column of each output position (`NONE` while
/// deferred or not reached), the input stack of each output stack, and per output stack the input
/// columns its deferred positions share.
#[derive(Clone, Copy)]
struct Columns {
    at: [u8; 9],
    stack_at: [u8; 3],
    open: [u16; 3],
}

/// The labels given so far, and the next one.
#[derive(Clone, Copy)]
struct Labels {
    of: [u8; 10],
    next: u8,
}

impl Labels {
    /// The label of `digit`, numbering it if it is new; 0 stays 0.
    fn take(&mut self, digit: u8) -> u8 {
        label(&mut self.of, &mut self.next, digit)
    }

    /// The label `digit` would get, without numbering it.
    fn peek(&self, digit: u8) -> u8 {
        match (digit, self.of[usize::from(digit)]) {
            (0, _) => 0,
            (_, 0) => self.next,
            (_, known) => known,
        }
    }
}

impl PuzzleSearch {
    pub(super) fn new(grid: &Grid) -> PuzzleSearch {
        let views = views_of(grid);
        let mut twins = [[0; 9]; 2];
        for (view, view_twins) in views.iter().zip(&mut twins) {
            for (row, row_twins) in view_twins.iter_mut().enumerate() {
                for earlier in row - row % 3..row {
                    if view[earlier] == view[row] {
                        *row_twins |= 1 << earlier;
                    }
                }
            }
        }
        let given = views.map(|view| {
            view.map(|cells| {
                (0..9)
                    .filter(|&c| cells[c] != 0)
                    .fold(0u16, |mask, c| mask | 1 << c)
            })
        });
        let counts = given.map(|view| view.map(sorted_givens));
        let first_row_givens = *counts.iter().flatten().min().expect("18 rows");
        let first_rows = counts.map(|view| {
            (0..9)
                .filter(|&row| view[row] == first_row_givens)
                .fold(0, |mask, row| mask | 1 << row)
        });
        PuzzleSearch {
            views,
            twins,
            given,
            first_row_givens,
            first_rows,
            transpose: 0,
            rows: [0; 9],
            line: [0; CELLS],
            best: Best::new(),
        }
    }

    pub(super) fn run(mut self) -> Best {
        let columns = Columns {
            at: [NONE; 9],
            stack_at: [NONE; 3],
            open: [0; 3],
        };
        let labels = Labels {
            of: [0; 10],
            next: 1,
        };
        for transpose in 0..2 {
            self.transpose = transpose;
            self.place_row(0, 0, columns, labels, Standing::Level);
        }
        self.best
    }

    /// The digit of input column `column` in output row `i`.
    fn digit(&self, i: usize, column: u8) -> u8 {
        self.views[self.transpose][usize::from(self.rows[i])][usize::from(column)]
    }

    /// The input columns (bit per column) whose cells are given in output row `i`.
    fn given_columns(&self, i: usize) -> u16 {
        self.given[self.transpose][usize::from(self.rows[i])]
    }

    /// The standing to start a branch with: level with the best line if there is one.
    fn start(&self, standing: Standing) -> Standing {
        if self.best.found {
            standing
        } else {
            Standing::Below
        }
    }

    /// Chooses the input row of output row `i`, then goes on with its first cell.
    fn place_row(
        &mut self,
        i: usize,
        used: u16,
        columns: Columns,
        labels: Labels,
        standing: Standing,
    ) {
        if i == 9 {
            if self.start(standing) == Standing::Below {
                self.take(&columns, &labels);
            }
            return;
        }
        let mut standing = standing;
        let twins = self.twins[self.transpose];
        let previous = if i == 0 { 0 } else { self.rows[i - 1] };
        for row in free_lines(used, i.is_multiple_of(3), previous) {
            if twins[usize::from(row)] & !used != 0 {
                continue;
            }
            if i == 0 && self.first_rows[self.transpose] >> row & 1 == 0 {
                continue;
            }
            self.rows[i] = row;
            let start = self.start(standing);
            if i > 0 && start == Standing::Level && self.above_by_blanks(i, &columns) {
                continue;
            }
            let improvements = self.best.improvements;
            self.place_cell(9 * i, used | 1 << row, columns, labels, start);
            if self.best.improvements != improvements {
                standing = Standing::Level;
            }
        }
    }

    /// The positions (bit per position) of output row `i`, after the first, that read a label
    /// under `columns`: those of placed columns given in the row, and in each stack the last
    /// deferred positions, as many as its open columns given in the row (blanks come first).
    fn given_positions(&self, i: usize, columns: &Columns) -> u16 {
        let given_here = self.given_columns(i);
        // A deferred position reads NONE, whose low four bits pick bit 15 of the mask: always 0.
        let placed = (0..9).fold(0, |mask, j| {
            mask | (given_here >> (columns.at[j] & 15) & 1) << j
        });
        columns
            .open
            .iter()
            .enumerate()
            .fold(placed, |mask, (stack, &open)| {
                let (deferred, given) = (ones(open), ones(open & given_here));
                mask | ((1 << given) - 1) << (3 * stack as u32 + deferred - given)
            })
    }

    /// Whether output row `i`, entered level with the best line, is above it by its blanks alone:
    /// at the first position where one of the two rows reads a blank and the other a label, the
    /// label is ours, and no earlier position reads a label in both (where ours could be smaller).
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
        used: u16,
        columns: Columns,
        labels: Labels,
        standing: Standing,
    ) {
        let (i, j) = (k / 9, k % 9);
        let stack = j / 3;
        let mut standing = standing;
        if i == 0 && j % 3 == 0 {
            // A new output stack: only an unused input stack with as many givens in the first row
            // as the smallest first row has there can keep the line smallest.
            let taken: u8 = columns
                .stack_at
                .iter()
                .filter(|&&s| s != NONE)
                .fold(0, |m, &s| m | 1 << s);
            let count = self.first_row_givens[stack];
            let given = self.given_columns(0);
            let allowed = (0..3u8)
                .filter(|&s| taken >> s & 1 == 0 && givens(given, s) == count)
                .fold(0u8, |m, s| m | 1 << s);
            for input_stack in (0..3u8).filter(|s| allowed >> s & 1 == 1) {
                let mut columns = columns;
                columns.stack_at[stack] = input_stack;
                columns.open[stack] = 7 << (3 * input_stack);
                let improvements = self.best.improvements;
                if count == 0 {
                    // No givens: the three cells read blank whichever column goes where, so all
                    // three stay deferred.
                    let three_blanks = (k..k + 3)
                        .try_fold(standing, |standing, at| standing.after(&self.best, at, 0));
                    if let Some(child) = three_blanks {
                        self.line[k..k + 3].fill(0);
                        self.next_cell(k + 2, used, columns, labels, child);
                    }
                } else {
                    self.first_row_cell(k, used, columns, labels, standing);
                }
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
        used: u16,
        columns: Columns,
        labels: Labels,
        standing: Standing,
    ) {
        if k % 9 == 8 {
            self.place_row(k / 9 + 1, used, columns, labels, standing);
        } else {
            self.place_cell(k + 1, used, columns, labels, standing);
        }
    }

    /// Fills the cells of a row after the first from cell `k` on, in one loop while each cell has
    /// a single choice: a placed column, a deferred position whose open columns all read blank, or
    /// one that only one column can take. A cell with more choices branches.
    fn fill_row(
        &mut self,
        mut k: usize,
        used: u16,
        mut columns: Columns,
        mut labels: Labels,
        mut standing: Standing,
    ) {
        let i = k / 9;
        let given_here = self.given_columns(i);
        loop {
            let (j, stack) = (k % 9, k % 9 / 3);
            let placed = columns.at[j];
            let value = if placed != NONE {
                labels.take(self.digit(i, placed))
            } else if columns.open[stack] & given_here == 0 {
                // A deferred position whose open columns read blank in every row so far.
                0
            } else if (3 * stack..j).filter(|&p| columns.at[p] == NONE).count()
                < ones(columns.open[stack] & !given_here) as usize
            {
                // Blank here too: the open columns blank in this row stay interchangeable and
                // keep the stack's first deferred positions; the given ones take the rest.
                0
            } else {
                // The open columns given here are told apart now: each choice giving the smallest
                // cell is made, one of each set of twins.
                let open = columns.open[stack];
                let given = open & given_here;
                let candidates = (0..9u8).filter(|c| given >> c & 1 == 1);
                let least = candidates
                    .clone()
                    .map(|c| labels.peek(self.digit(i, c)))
                    .min()
                    .unwrap_or(0);
                let smallest = candidates
                    .filter(|&c| labels.peek(self.digit(i, c)) == least)
                    .fold(0u16, |m, c| m | 1 << c);
                let column_twins = self.twins[1 - self.transpose];
                let chosen = (0..9u8)
                    .filter(|&c| smallest >> c & 1 == 1 && column_twins[usize::from(c)] & open == 0)
                    .fold(0u16, |m, c| m | 1 << c);
                if chosen.count_ones() == 1 {
                    let column = chosen.trailing_zeros() as u8;
                    columns.at[j] = column;
                    columns.open[stack] &= !(1 << column);
                    labels.take(self.digit(i, column))
                } else {
                    for column in (0..9u8).filter(|c| chosen >> c & 1 == 1) {
                        let mut labels = labels;
                        let value = labels.take(self.digit(i, column));
                        let Some(child) = standing.after(&self.best, k, value) else {
                            continue;
                        };
                        let mut columns = columns;
                        columns.at[j] = column;
                        columns.open[stack] &= !(1 << column);
                        self.line[k] = value;
                        let improvements = self.best.improvements;
                        self.next_cell(k, used, columns, labels, child);
                        if self.best.improvements != improvements {
                            standing = Standing::Level;
                        }
                    }
                    return;
                }
            };
            let Some(child) = standing.after(&self.best, k, value) else {
                return;
            };
            standing = child;
            self.line[k] = value;
            if j == 8 {
                return self.place_row(i + 1, used, columns, labels, standing);
            }
            k += 1;
        }
    }

    /// Fills cell `j` of the first row, whose output stack has its input stack: deferred while a
    /// blank column of the stack is left for it, else each open column.
    fn first_row_cell(
        &mut self,
        j: usize,
        used: u16,
        columns: Columns,
        labels: Labels,
        standing: Standing,
    ) {
        let stack = j / 3;
        let open = columns.open[stack];
        let deferred = (3 * stack..j).filter(|&p| columns.at[p] == NONE).count();
        let blanks = ones(open & !self.given_columns(0)) as usize;
        if blanks > deferred {
            if let Some(child) = standing.after(&self.best, j, 0) {
                self.line[j] = 0;
                self.next_cell(j, used, columns, labels, child);
            }
            return;
        }
        let mut standing = standing;
        let column_twins = self.twins[1 - self.transpose];
        let given = open & self.given_columns(0);
        for column in (0..9u8).filter(|c| given >> c & 1 == 1) {
            if column_twins[usize::from(column)] & open != 0 {
                continue;
            }
            let mut labels = labels;
            let value = labels.take(self.digit(0, column));
            let Some(child) = standing.after(&self.best, j, value) else {
                continue;
            };
            let mut columns = columns;
            columns.at[j] = column;
            columns.open[stack] &= !(1 << column);
            self.line[j] = value;
            let improvements = self.best.improvements;
            self.next_cell(j, used, columns, labels, child);
            if self.best.improvements != improvements {
                standing = Standing::Level;
            }
        }
    }

    /// Records the current line as the best; deferred positions left at the end read blank in
    /// every row and take their open columns in any order.
    fn take(&mut self, columns: &Columns, labels: &Labels) {
        let mut at = columns.at;
        for (stack, &open) in columns.open.iter().enumerate() {
            let mut open = (0..9u8).filter(|c| open >> c & 1 == 1);
            for slot in &mut at[3 * stack..3 * stack + 3] {
                if *slot == NONE {
                    *slot = open.next().expect("an open column per deferred position");
                }
            }
        }
        let transpose = self.transpose == 1;
        self.best
            .take(&self.line, transpose, self.rows, at, &labels.of);
    }
}

const NONE: u8 = u8::MAX;
