//! Equivalence of grids and puzzles, and the canonical form that names each equivalence class.
//!
//! # Equivalence
//! The moves that keep every rule of Sudoku are: transposing, reordering the bands, the rows inside
//! each band, the stacks and the columns inside each stack, and relabelling the digits. A
//! [`Transformation`] is one of each, 9!·2·6⁸ in all. Two grids (or puzzles) are **equivalent** when a
//! transformation maps one onto the other.
//!
//! # Representation
//! A transformation keeps its row and column moves as one permutation of the nine rows and one of the
//! nine columns (output row `i` reads input row `rows[i]`), each moving whole bands or stacks, and
//! the relabelling as a table indexed by digit, with 0 (empty) kept as 0: applying it is then one
//! table read a cell.
//!
//! # Canonical form
//! The canonical form of a grid is the smallest of its equivalents read as an 81-digit line, an empty
//! cell reading as 0. For a given arrangement of rows and columns the smallest relabelling is forced:
//! digits are numbered 1, 2, 3, ... in their order of first appearance in the arranged line. So the
//! search is over the 2·6⁸ arrangements only, and it builds the line from its first cell on, keeping
//! the smallest line found so far and dropping every partial arrangement whose line is already larger.
//!
//! - **Puzzles** (and anything that is not a valid complete grid): the line is built cell by cell,
//!   each row chosen (with the transposition) at its first cell; every cell is final when it is
//!   placed, since its label is fixed by what came before it. Columns are chosen lazily: columns of
//!   one stack that read blank in every row so far are interchangeable so far, so they stay an
//!   unordered set until a row tells them apart, and a row that gives some of them places only
//!   those (after the blank ones, which stay a set). A first row with one given thus costs one
//!   branch per stack order instead of one per column order (up to 144). The first row is known in
//!   advance up to its labels: its blanks come first in each stack and its stacks in increasing
//!   number of givens, so only rows and stack orders that give the fewest are tried.
//! - **Valid complete grids** need no search. Whatever the arrangement, the first row reads
//!   `123456789`, so the top band's first two rows (36 choices with the transposition) and the
//!   column order decide the second row: the cell under column `j` is the position of the column
//!   that holds, in the first row, the digit the second row has under `j` (its *partner*, always in
//!   another stack). The counts of partners between stacks leave two shapes: every stack's partners
//!   in one stack (a *pure* pair, second row `456789` and three more) or two in one and one in the
//!   other (`457...`); purity belongs to the whole band. Either way the smallest second row fixes
//!   the stack order up to rotation and then every column but for a choice among at most six, so
//!   each pair yields at most 18 column orders to compare (see `PartnerMap::pure_orders` and
//!   `RowPair::mixed_start`). The 36 partner maps are built at once, by byte shuffles where the
//!   processor has them, with masks of the columns whose partner lies in the next stack, of the
//!   two-cycles and of the columns the cube of the map fixes. A pure pair's second row is then
//!   known per rotation from the cube alone, so only the rotations with the least build their
//!   orders, which are told apart by the third row. A mixed pair's smallest start, `457189`,
//!   comes from a two-cycle through the odd column of the second stack, and the whole order
//!   follows from it with no search; only grids where no pair has one read every pair's start.
//!   The other two bands only need sorting by their first cells, which all differ; only the
//!   arrangements that tie on what was read are finished, every row labelled at once (two
//!   shuffles a row) into keys that compare as the rows do, and the line is written out once,
//!   for the winner.

use rand::{Rng, RngExt};

use crate::model::grid::{CELLS, Grid, ORDERS_OF_THREE};

/// One move of the equivalence group: a transposition (or none), then rows and columns reordered
/// within their bands and stacks, then digits relabelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transformation {
    /// Whether the input is transposed first.
    transpose: bool,
    /// Output row `i` is (transposed) input row `rows[i]`; bands move as wholes.
    rows: [u8; 9],
    /// Output column `j` is (transposed) input column `columns[j]`; stacks move as wholes.
    columns: [u8; 9],
    /// Digit `d` becomes `digits[d]`; `digits[0]` is 0.
    digits: [u8; 10],
}

/// Whether `order` is a permutation of 0..9 that keeps every block of three (band or stack)
/// together, in order or not.
fn keeps_blocks(order: &[u8; 9]) -> bool {
    let mut seen = 0u16;
    for (i, &line) in order.iter().enumerate() {
        if line > 8 || seen >> line & 1 == 1 || line / 3 != order[i - i % 3] / 3 {
            return false;
        }
        seen |= 1 << line;
    }
    true
}

/// The inverse of a permutation of 0..N.
fn inverse_of<const N: usize>(order: &[u8; N]) -> [u8; N] {
    let mut inverse = [0; N];
    for (i, &x) in order.iter().enumerate() {
        inverse[usize::from(x)] = i as u8;
    }
    inverse
}

impl Transformation {
    /// The move that changes nothing.
    pub(crate) const IDENTITY: Transformation = Transformation {
        transpose: false,
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        columns: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    };

    /// A transformation from its parts: whether to transpose, the input line of each output row and
    /// column (0..9, bands and stacks kept whole), and the new digit of each digit 1..=9. `None` if
    /// a part is not such a permutation.
    pub fn new(
        transpose: bool,
        rows: [u8; 9],
        columns: [u8; 9],
        digits: [u8; 9],
    ) -> Option<Transformation> {
        let mut table = [0; 10];
        let mut seen = 0u16;
        for (d, &to) in digits.iter().enumerate() {
            if !(1..=9).contains(&to) || seen >> to & 1 == 1 {
                return None;
            }
            seen |= 1 << to;
            table[d + 1] = to;
        }
        (keeps_blocks(&rows) && keeps_blocks(&columns)).then_some(Transformation {
            transpose,
            rows,
            columns,
            digits: table,
        })
    }

    /// A transformation drawn uniformly from all 9!·2·6⁸: one number below their count, read as
    /// its parts in mixed radix (one draw costs far less than a shuffle per part).
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Transformation {
        const MOVES: u64 = 2 * 6u64.pow(8) * 362_880;
        let mut code = rng.random_range(0..MOVES);
        let mut take = |radix: u64| {
            let part = code % radix;
            code /= radix;
            part as usize
        };
        let transpose = take(2) == 1;
        let mut lines = || {
            let blocks = ORDERS_OF_THREE[take(6)];
            let mut order = [0; 9];
            for (slot, block) in order.chunks_exact_mut(3).zip(blocks) {
                for (line, offset) in slot.iter_mut().zip(ORDERS_OF_THREE[take(6)]) {
                    *line = (3 * block + offset) as u8;
                }
            }
            order
        };
        let rows = lines();
        let columns = lines();
        let mut left = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        let mut digits = [0; 10];
        for (d, slot) in digits[1..].iter_mut().enumerate() {
            let k = take(9 - d as u64);
            *slot = left[k];
            left.copy_within(k + 1.., k);
        }
        Transformation {
            transpose,
            rows,
            columns,
            digits,
        }
    }

    /// The image of `grid`.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let input = grid.cells();
        let (row_step, column_step) = if self.transpose { (1, 9) } else { (9, 1) };
        let mut cells = [0; CELLS];
        for (out_row, &r) in cells.chunks_exact_mut(9).zip(&self.rows) {
            let start = row_step * usize::from(r);
            for (cell, &c) in out_row.iter_mut().zip(&self.columns) {
                *cell = self.digits[usize::from(input[start + column_step * usize::from(c)])];
            }
        }
        Grid::from_cells(cells).expect("digits map to digits")
    }

    /// The transformation that undoes this one.
    pub fn inverse(&self) -> Transformation {
        let (rows, columns) = (inverse_of(&self.rows), inverse_of(&self.columns));
        let digits = inverse_of(&self.digits);
        // Without a transposition, input (r, c) came from output (rows⁻¹[r], columns⁻¹[c]); with
        // one, input (r, c) is the transposed input's (c, r), which came from output
        // (rows⁻¹[c], columns⁻¹[r]): the output transposed, read with the roles swapped.
        let (rows, columns) = if self.transpose {
            (columns, rows)
        } else {
            (rows, columns)
        };
        Transformation {
            transpose: self.transpose,
            rows,
            columns,
            digits,
        }
    }
}

/// The canonical form of `grid`: the smallest line among its equivalents (see the module comment).
pub fn canonical_form(grid: &Grid) -> Grid {
    search(grid).form()
}

/// A transformation that maps `grid` onto its canonical form.
pub fn canonical_transformation(grid: &Grid) -> Transformation {
    search(grid).transformation()
}

/// The smallest line of `grid` and an arrangement that gives it. A quick scan for blanks turns
/// puzzles away before the complete search's tables are built.
fn search(grid: &Grid) -> Best {
    // The tables are filled in place: moving them would copy them while their bytes are still
    // on their way to memory.
    let mut complete = CompleteSearch::EMPTY;
    if !grid.cells().contains(&0) && complete.read(grid) {
        complete.run()
    } else {
        PuzzleSearch::new(grid).run()
    }
}

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

/// The best line so far, the arrangement that gives it, and how many times it was improved (a
/// branch whose prefix was below the best one is level with it once a line inside it is taken).
/// The arrangement is kept as parts and made a [`Transformation`] only when asked for: the form
/// itself is the line.
struct Best {
    line: [u8; CELLS],
    found: bool,
    improvements: u32,
    transpose: bool,
    rows: [u8; 9],
    columns: [u8; 9],
    /// The label of each digit, 0 for digits that do not occur.
    labels: [u8; 10],
    /// Per row of the line, its positions (bit per position) that read a label, not a blank.
    given_positions: [u16; 9],
}

impl Best {
    fn new() -> Best {
        Best {
            line: [0; CELLS],
            found: false,
            improvements: 0,
            transpose: false,
            rows: [0; 9],
            columns: [0; 9],
            labels: [0; 10],
            given_positions: [0; 9],
        }
    }

    /// Records `line` as the best, reached by the arrangement given; `labels[d]` is the label of
    /// digit `d` (0 for digits that do not occur).
    fn take(
        &mut self,
        line: &[u8; CELLS],
        transpose: bool,
        rows: [u8; 9],
        columns: [u8; 9],
        labels: &[u8; 10],
    ) {
        self.line = *line;
        self.found = true;
        self.improvements += 1;
        self.transpose = transpose;
        self.rows = rows;
        self.columns = columns;
        self.labels = *labels;
        for (mask, cells) in self.given_positions.iter_mut().zip(line.chunks_exact(9)) {
            *mask = (0..9)
                .filter(|&j| cells[j] != 0)
                .fold(0, |mask, j| mask | 1 << j);
        }
    }

    /// The best line as a grid.
    fn form(&self) -> Grid {
        Grid::from_cells(self.line).expect("labels are digits")
    }

    /// The transformation that gives the best line; digits that do not occur take the labels
    /// left, in order.
    fn transformation(&self) -> Transformation {
        if !self.found {
            return Transformation::IDENTITY;
        }
        let labels = &self.labels;
        let mut digits = [0; 9];
        let mut next = 1 + labels.iter().filter(|&&l| l != 0).count() as u8;
        for (d, to) in digits.iter_mut().enumerate() {
            *to = if labels[d + 1] != 0 {
                labels[d + 1]
            } else {
                next += 1;
                next - 1
            };
        }
        Transformation::new(self.transpose, self.rows, self.columns, digits)
            .expect("a valid arrangement")
    }
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
struct PuzzleSearch {
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
    fn new(grid: &Grid) -> PuzzleSearch {
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

    fn run(mut self) -> Best {
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
            // A new output stack: each input stack not yet used, its columns all open.
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
                    // Three blanks, the stack's columns all deferred.
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

/// How many bits are set in a mask of columns of one stack: its three bits folded onto the lowest
/// three and counted by a table, since the default target has no popcount instruction and its
/// software count costs more than this.
fn ones(mask: u16) -> u32 {
    0xe994 >> (2 * ((mask | mask >> 3 | mask >> 6) & 7)) & 3
}

/// The column orders whose second rows tie for the smallest so far, with the index of their row
/// pair: a few in most grids (up to hundreds in very symmetric ones), kept on the stack while they
/// fit.
struct Ties {
    smallest: u128,
    count: usize,
    first: [(u8, [u8; 9]); 32],
    more: Vec<(u8, [u8; 9])>,
}

impl Ties {
    fn new() -> Ties {
        Ties {
            smallest: u128::MAX,
            count: 0,
            first: [(0, [0; 9]); 32],
            more: Vec::new(),
        }
    }

    /// Offers the column order `columns` of pair `pair`, whose top band reads `key` as far as it
    /// was read (see [`CompleteSearch::third_row_key`] and
    /// [`CompleteSearch::offer_smallest_mixed_starts`]).
    fn offer(&mut self, key: u128, pair: usize, columns: [u8; 9]) {
        if key > self.smallest {
            return;
        }
        if key < self.smallest {
            self.smallest = key;
            self.count = 0;
            self.more.clear();
        }
        let tie = (pair as u8, columns);
        if self.count < self.first.len() {
            self.first[self.count] = tie;
            self.count += 1;
        } else {
            self.more.push(tie);
        }
    }

    fn all(&self) -> impl Iterator<Item = &(u8, [u8; 9])> {
        self.first[..self.count].iter().chain(&self.more)
    }
}

/// Per row pair `k` of 36, its view and its band's rows (first two chosen, the third left): `k / 18`
/// the view, `k / 6 % 3` the band, `k % 6` the order of its rows. Pair `k ^ 1` has the same first
/// row, its other two swapped.
const PAIR_ROWS: [(usize, [u8; 3]); 36] = {
    let mut pairs = [(0, [0; 3]); 36];
    let mut k = 0;
    while k < 36 {
        let (band, order) = ((k / 6 % 3) as u8, ORDERS_OF_THREE[k % 6]);
        pairs[k] = (
            k / 18,
            [
                3 * band + order[0] as u8,
                3 * band + order[1] as u8,
                3 * band + order[2] as u8,
            ],
        );
        k += 1;
    }
    pairs
};

/// The search for valid complete grids (see the module comment).
///
/// Rows and their tables take 16 bytes each, so that one loads as a vector (see [`PartnerMap`]).
struct CompleteSearch {
    /// Per view (plain, transposed) and row, its digits.
    views: [[[u8; 16]; 9]; 2],
    /// Per view and row, the column of each digit.
    column_of: [[[u8; 16]; 9]; 2],
}

/// A row pair's partner map (see [`RowPair`]), with masks (bit per column) of the columns whose
/// partner lies in the next stack (0 to 1, 1 to 2, 2 to 0), of those in a two-cycle of the map and
/// of those its cube leaves in place. Aligned so that the map is one aligned vector.
#[derive(Clone, Copy)]
#[repr(align(16))]
struct PartnerMap {
    partner: [u8; 16],
    forward: u16,
    two_cycles: u16,
    cube_fixed: u16,
}

impl PartnerMap {
    /// Whether the partners of each stack's columns all lie in one stack.
    fn is_pure(&self) -> bool {
        self.forward == 0 || self.forward == 0x1ff
    }

    /// In a pure pair, the second row's last three cells when output stack `a` comes first: 0 for
    /// `123`, 1 for `132`, 2 for `231`, as the cube of the map fixes all, one or none of `a`'s
    /// columns (see [`PartnerMap::pure_orders`]).
    fn pure_tail(&self, a: u8) -> u8 {
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
    fn pure_orders(&self, a: u8, mut each: impl FnMut([u8; 9])) {
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
struct RowPair {
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
struct MixedStart {
    a: u8,
    prefix: u64,
    firsts: [[u8; 2]; 2],
    count: usize,
    to_c: u8,
}

impl MixedStart {
    /// The smallest start of all, `457189` (less one a cell, as in [`RowPair::second_row_key`]).
    const SMALLEST: u64 = 0x346078;
}

impl RowPair {
    /// The pair whose partner map is `map`.
    fn new(map: &PartnerMap) -> RowPair {
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
    fn mixed_start(&self, a: u8) -> MixedStart {
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
    fn mixed_orders(&self, start: &MixedStart, mut each: impl FnMut([u8; 9])) {
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
    fn second_row_key(&self, columns: &[u8; 9]) -> u64 {
        let mut position = [0u8; 9];
        for (j, &column) in columns.iter().enumerate() {
            position[usize::from(column)] = j as u8;
        }
        columns.iter().fold(0, |key, &column| {
            key << 4 | u64::from(position[usize::from(self.partner[usize::from(column)])])
        })
    }
}

impl CompleteSearch {
    /// No grid read yet: every digit of every table without a column.
    const EMPTY: CompleteSearch = CompleteSearch {
        views: [[[0; 16]; 9]; 2],
        column_of: [[Self::NO_COLUMNS; 9]; 2],
    };

    /// A column that no digit has (see [`CompleteSearch::read`]).
    const NO_COLUMN: u8 = 0x80;

    /// A table of columns with no digit in it.
    const NO_COLUMNS: [u8; 16] = {
        let mut table = [0; 16];
        let mut digit = 1;
        while digit <= 9 {
            table[digit] = Self::NO_COLUMN;
            digit += 1;
        }
        table
    };

    /// Reads `grid` into the tables of [`CompleteSearch::EMPTY`], and tells whether it is a valid
    /// complete grid. Its rows and columns are valid when every digit has a column in the tables
    /// (a repeat or a blank leaves another digit out), its boxes when their masks of digits are
    /// full; the test has no early exit, since the common input is valid.
    fn read(&mut self, grid: &Grid) -> bool {
        let CompleteSearch { views, column_of } = self;
        let mut boxes = [0u16; 9];
        for (row, cells) in grid.cells().chunks_exact(9).enumerate() {
            for (column, &digit) in cells.iter().enumerate() {
                views[0][row][column] = digit;
                views[1][column][row] = digit;
                column_of[0][row][usize::from(digit)] = column as u8;
                column_of[1][column][usize::from(digit)] = row as u8;
                boxes[row / 3 * 3 + column / 3] |= 1 << digit;
            }
        }
        let missing = column_of
            .as_flattened()
            .iter()
            .fold(0, |missing, table| missing | u128::from_ne_bytes(*table));
        missing & u128::from_ne_bytes([Self::NO_COLUMN; 16]) == 0
            && boxes
                .iter()
                .fold(true, |valid, &mask| valid & (mask == 0x3fe))
    }

    /// The partner maps of the 36 row pairs, by byte shuffles where the processor has them.
    fn partner_maps(&self) -> [PartnerMap; 36] {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("ssse3") {
            // SAFETY: the processor has SSSE3.
            return unsafe { self.partner_maps_ssse3() };
        }
        self.partner_maps_plain()
    }

    /// [`CompleteSearch::partner_maps`] a column at a time.
    fn partner_maps_plain(&self) -> [PartnerMap; 36] {
        std::array::from_fn(|k| {
            const NEXT_STACK: [u8; 9] = [1, 1, 1, 2, 2, 2, 0, 0, 0];
            let (transpose, rows) = PAIR_ROWS[k];
            let first_row_column = &self.column_of[transpose][usize::from(rows[0])];
            let second_row = &self.views[transpose][usize::from(rows[1])];
            let partner = second_row.map(|digit| first_row_column[usize::from(digit)]);
            let (mut forward, mut two_cycles, mut cube_fixed) = (0, 0, 0);
            for (column, &p) in partner[..9].iter().enumerate() {
                let square = partner[usize::from(p)];
                forward |= u16::from(p / 3 == NEXT_STACK[column]) << column;
                two_cycles |= u16::from(usize::from(square) == column) << column;
                cube_fixed |=
                    u16::from(usize::from(partner[usize::from(square)]) == column) << column;
            }
            PartnerMap {
                partner,
                forward,
                two_cycles,
                cube_fixed,
            }
        })
    }

    /// [`CompleteSearch::partner_maps`]: a map is the first row's table of columns shuffled by
    /// the second row's digits, and its square the map shuffled by itself.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "ssse3")]
    fn partner_maps_ssse3(&self) -> [PartnerMap; 36] {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_setr_epi8,
            _mm_shuffle_epi8, _mm_storeu_si128,
        };
        let load = |bytes: &[u8; 16]| {
            // SAFETY: 16 bytes are read from an array of 16.
            unsafe { _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>()) }
        };
        let stack_of = _mm_setr_epi8(0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3);
        let next_stack = _mm_setr_epi8(1, 1, 1, 2, 2, 2, 0, 0, 0, 4, 4, 4, 4, 4, 4, 4);
        let identity = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let mut maps = [PartnerMap {
            partner: [0; 16],
            forward: 0,
            two_cycles: 0,
            cube_fixed: 0,
        }; 36];
        for (map, &(transpose, rows)) in maps.iter_mut().zip(&PAIR_ROWS) {
            let first_row_column = load(&self.column_of[transpose][usize::from(rows[0])]);
            let second_row = load(&self.views[transpose][usize::from(rows[1])]);
            // The padding digits (0) read the table's unused entry 0, which is 0.
            let partner = _mm_shuffle_epi8(first_row_column, second_row);
            let forward = _mm_cmpeq_epi8(_mm_shuffle_epi8(stack_of, partner), next_stack);
            let square = _mm_shuffle_epi8(partner, partner);
            let two_cycles = _mm_cmpeq_epi8(square, identity);
            let cube_fixed = _mm_cmpeq_epi8(_mm_shuffle_epi8(partner, square), identity);
            // SAFETY: 16 bytes are written to an array of 16.
            unsafe { _mm_storeu_si128(map.partner.as_mut_ptr().cast::<__m128i>(), partner) };
            map.forward = _mm_movemask_epi8(forward) as u16 & 0x1ff;
            map.two_cycles = _mm_movemask_epi8(two_cycles) as u16 & 0x1ff;
            map.cube_fixed = _mm_movemask_epi8(cube_fixed) as u16 & 0x1ff;
        }
        maps
    }

    /// Only pairs of pure bands when there are any (their second rows start `456`, those of mixed
    /// pairs `457`), purity being a property of the whole band, and of those only the rotations
    /// whose second row is the least (see [`PartnerMap::pure_tail`]). Without pure bands, the
    /// smallest start of a mixed pair is almost always `457189`, which a two-cycle of the partner
    /// map gives with its whole order: only when no pair has one are all starts read.
    fn run(&self) -> Best {
        let maps = self.partner_maps();
        let mut ties = Ties::new();
        if (0..6).any(|band| maps[6 * band].is_pure()) {
            let pure = (0..36).filter(|&k| maps[k].is_pure());
            let (least, _) = pure
                .clone()
                .flat_map(|k| (0..3).map(move |a| (maps[k].pure_tail(a), k)))
                .min()
                .expect("a pure pair");
            for k in pure {
                for a in (0..3).filter(|&a| maps[k].pure_tail(a) == least) {
                    maps[k].pure_orders(a, |columns| {
                        ties.offer(self.third_row_key(&maps[k ^ 1], &columns), k, columns);
                    });
                }
            }
        } else if !self.offer_smallest_mixed_starts(&maps, &mut ties) {
            self.offer_least_mixed_starts(&maps, &mut ties);
        }
        let mut best_rows = [u128::MAX; 9];
        let mut winner = None;
        for &(k, columns) in ties.all() {
            let (transpose, rows) = PAIR_ROWS[usize::from(k)];
            if let Some(rows) = self.finish(transpose, rows, &columns, &mut best_rows) {
                winner = Some((transpose, rows, columns));
            }
        }
        let (transpose, rows, columns) = winner.expect("a valid grid has an arrangement");
        let mut line = [0; CELLS];
        for (cells, key) in line.chunks_exact_mut(9).zip(best_rows) {
            cells.copy_from_slice(&key.to_be_bytes()[..9]);
        }
        let mut labels = [0; 10];
        for (j, &column) in columns.iter().enumerate() {
            labels[usize::from(self.views[transpose][usize::from(rows[0])][usize::from(column)])] =
                j as u8 + 1;
        }
        let mut best = Best::new();
        best.take(&line, transpose == 1, rows, columns, &labels);
        best
    }

    /// Offers the column orders of every pair and rotation whose second row has the least start
    /// of all, read off every pair of a grid without pure bands (see [`RowPair::mixed_start`]).
    fn offer_least_mixed_starts(&self, maps: &[PartnerMap; 36], ties: &mut Ties) {
        let pairs = maps.each_ref().map(RowPair::new);
        let least = pairs
            .iter()
            .flat_map(|pair| (0..3).map(|a| pair.mixed_start(a).prefix))
            .min()
            .expect("36 pairs");
        for (k, pair) in pairs.iter().enumerate() {
            for a in 0..3u8 {
                let start = pair.mixed_start(a);
                if start.prefix == least {
                    pair.mixed_orders(&start, |columns| {
                        ties.offer(u128::from(pair.second_row_key(&columns)) << 36, k, columns);
                    });
                }
            }
        }
    }

    /// Offers the column orders of every mixed pair and rotation whose second row starts with the
    /// smallest start, `457189`, and returns whether there was one. Such a start is a two-cycle of
    /// the partner map through the odd column `back` of the second output stack, whose partner
    /// comes first (see [`RowPair::mixed_start`]: the odd column of the second stack and its
    /// partner are each other's partners), and then the whole order follows (see
    /// [`RowPair::mixed_orders`]): the first stack reads `back`'s partner, the column left
    /// and the odd column `to_c`; the second `back`, the partners of the first two columns of the
    /// first stack and the one left; the third the partners of `to_c` and of the second stack's
    /// last two columns. The second row's last three cells are then the positions of the third
    /// stack's partners, among the first stack's last two columns and the second stack's last.
    fn offer_smallest_mixed_starts(&self, maps: &[PartnerMap; 36], ties: &mut Ties) -> bool {
        let mut found = false;
        for (k, map) in maps.iter().enumerate() {
            let p = |column: u8| map.partner[usize::from(column & 15)];
            let (forward, two_cycles) = (map.forward, map.two_cycles);
            let odd = if ones(forward & 7) >= 2 {
                !forward & 0x1ff
            } else {
                forward
            };
            let mut backs = odd & two_cycles;
            while backs != 0 {
                let back = backs.trailing_zeros() as u8;
                backs &= backs - 1;
                let (target, b) = (p(back), back / 3);
                let a = target / 3;
                let to_c = 3 * a + (odd >> (3 * a) & 7).trailing_zeros() as u8;
                let a2 = 9 * a + 3 - target - to_c;
                let b2 = p(a2);
                let b3 = 9 * b + 3 - back - b2;
                let [c1, c2, c3] = [p(to_c), p(b2), p(b3)];
                let position = |column: u8| {
                    let column = p(column);
                    if column == a2 {
                        1
                    } else if column == to_c {
                        2
                    } else {
                        5
                    }
                };
                let key = [c1, c2, c3]
                    .iter()
                    .fold(MixedStart::SMALLEST, |key, &c| key << 4 | position(c));
                ties.offer(
                    u128::from(key) << 36,
                    k,
                    [target, a2, to_c, back, b2, b3, c1, c2, c3],
                );
                found = true;
            }
        }
        found
    }

    /// The third row of a pure pair's band under `columns`, one label in each 4 bits (less one, as
    /// in [`RowPair::second_row_key`]), its partner map (the first row's against the third) being
    /// `third`. The orders of a pure pair with the least second row tie by the half dozen (all 18
    /// when the cube of the partner map fixes every column), and the third row parts most of them
    /// before they are finished.
    fn third_row_key(&self, third: &PartnerMap, columns: &[u8; 9]) -> u128 {
        let mut position = [0u8; 16];
        for (j, &column) in columns.iter().enumerate() {
            position[usize::from(column)] = j as u8;
        }
        columns.iter().fold(0, |key, &column| {
            let partner = third.partner[usize::from(column & 15)];
            key << 4 | u128::from(position[usize::from(partner & 15)])
        })
    }

    /// Finishes the arrangement of the top band `band_rows` of view `transpose` under the column
    /// order `columns`, whose second row ties with the best line's (if any): if its line is
    /// smaller, its rows (see [`CompleteSearch::labelled_rows`]) replace `best_rows` and its input
    /// rows are returned. The other two bands are only sorted, by their rows' first cells, which
    /// all differ, so by their keys.
    fn finish(
        &self,
        transpose: usize,
        band_rows: [u8; 3],
        columns: &[u8; 9],
        best_rows: &mut [u128; 9],
    ) -> Option<[u8; 9]> {
        let keys = self.labelled_rows(transpose, band_rows[0], columns);
        let key = |row: u8| keys[usize::from(row)];
        let band = band_rows[0] / 3;
        let mut bands = [(band + 1) % 3, (band + 2) % 3].map(|b| {
            let mut rows = [3 * b, 3 * b + 1, 3 * b + 2];
            rows.sort_unstable_by_key(|&row| key(row));
            rows
        });
        if key(bands[0][0]) > key(bands[1][0]) {
            bands.swap(0, 1);
        }
        let [[r3, r4, r5], [r6, r7, r8]] = bands;
        let [r0, r1, r2] = band_rows;
        let rows = [r0, r1, r2, r3, r4, r5, r6, r7, r8];
        let line = rows.map(key);
        (line < *best_rows).then(|| {
            *best_rows = line;
            rows
        })
    }

    /// Every row of view `transpose` under the column order `columns`, labelled so that the first
    /// row (`first_row`) reads 123456789: a row is a key whose bytes from the highest on are its
    /// nine labels, then zeros, so that keys compare as the rows do.
    fn labelled_rows(&self, transpose: usize, first_row: u8, columns: &[u8; 9]) -> [u128; 9] {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("ssse3") {
            // SAFETY: the processor has SSSE3.
            return unsafe { self.labelled_rows_ssse3(transpose, first_row, columns) };
        }
        self.labelled_rows_plain(transpose, first_row, columns)
    }

    /// [`CompleteSearch::labelled_rows`] a cell at a time.
    fn labelled_rows_plain(&self, transpose: usize, first_row: u8, columns: &[u8; 9]) -> [u128; 9] {
        let view = &self.views[transpose];
        let mut labels = [0; 16];
        for (j, &column) in columns.iter().enumerate() {
            labels[usize::from(view[usize::from(first_row)][usize::from(column)])] = j as u8 + 1;
        }
        view.map(|cells| {
            columns.iter().fold(0, |key, &column| {
                key << 8 | u128::from(labels[usize::from(cells[usize::from(column)])])
            }) << 56
        })
    }

    /// [`CompleteSearch::labelled_rows`] by byte shuffles: the labels of the digits are the first
    /// row's table of columns shuffled by the columns' positions, a row's labels that shuffled by
    /// its digits, and then reordered, last column first, to read as a little-endian key.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "ssse3")]
    fn labelled_rows_ssse3(&self, transpose: usize, first_row: u8, columns: &[u8; 9]) -> [u128; 9] {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_shuffle_epi8, _mm_storeu_si128};
        let load = |bytes: &[u8; 16]| {
            // SAFETY: 16 bytes are read from an array of 16.
            unsafe { _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>()) }
        };
        let mut positions = [0; 16];
        // Lanes 0 to 6 of the key are zero: a shuffle index with its high bit set reads zero.
        let mut reversed = [0x80; 16];
        for (j, &column) in columns.iter().enumerate() {
            positions[usize::from(column)] = j as u8 + 1;
            reversed[15 - j] = column;
        }
        let labels = _mm_shuffle_epi8(
            load(&positions),
            load(&self.column_of[transpose][usize::from(first_row)]),
        );
        let reversed = load(&reversed);
        let mut keys = [0; 9];
        for (key, cells) in keys.iter_mut().zip(&self.views[transpose]) {
            let row = _mm_shuffle_epi8(_mm_shuffle_epi8(labels, load(cells)), reversed);
            let mut bytes = [0u8; 16];
            // SAFETY: 16 bytes are written to an array of 16.
            unsafe { _mm_storeu_si128(bytes.as_mut_ptr().cast::<__m128i>(), row) };
            *key = u128::from_le_bytes(bytes);
        }
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    fn complete_search(grid: &Grid) -> Option<CompleteSearch> {
        let mut search = CompleteSearch::EMPTY;
        search.read(grid).then_some(search)
    }

    fn grid(line: &str) -> Grid {
        let mut cells = [0; CELLS];
        for (cell, ch) in cells.iter_mut().zip(line.bytes()) {
            *cell = if ch == b'.' { 0 } else { ch - b'0' };
        }
        Grid::from_cells(cells).unwrap()
    }

    const GRID: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn inverse_undoes() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..50 {
            let t = Transformation::random(&mut rng);
            for line in [GRID, PUZZLE] {
                let g = grid(line);
                assert_eq!(t.inverse().apply(&t.apply(&g)), g);
                assert_eq!(t.apply(&t.inverse().apply(&g)), g);
            }
        }
    }

    #[test]
    fn random_moves_are_valid_and_reach_every_part() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let (mut first_rows, mut first_columns, mut labels, mut transposes) = (0u16, 0u16, 0u16, 0);
        for _ in 0..2000 {
            let t = Transformation::random(&mut rng);
            let digits: [u8; 9] = std::array::from_fn(|d| t.digits[d + 1]);
            assert_eq!(
                Transformation::new(t.transpose, t.rows, t.columns, digits),
                Some(t)
            );
            first_rows |= 1 << t.rows[0];
            first_columns |= 1 << t.columns[0];
            labels |= 1 << t.digits[1];
            transposes += usize::from(t.transpose);
        }
        assert_eq!([first_rows, first_columns], [0x1ff; 2]);
        assert_eq!(labels, 0x3fe);
        assert!((800..1200).contains(&transposes));
    }

    #[test]
    fn new_rejects_moves_that_break_blocks() {
        let id = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        let digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        assert!(Transformation::new(false, id, id, digits).is_some());
        assert!(Transformation::new(false, [3, 4, 5, 0, 2, 1, 8, 6, 7], id, digits).is_some());
        assert!(Transformation::new(false, [0, 1, 3, 2, 4, 5, 6, 7, 8], id, digits).is_none());
        assert!(
            Transformation::new(false, id, [0, 0, 2, 3, 4, 5, 6, 7, 8], id.map(|d| d + 1))
                .is_none()
        );
        assert!(Transformation::new(false, id, id, [1, 1, 3, 4, 5, 6, 7, 8, 9]).is_none());
    }

    #[test]
    fn both_searches_agree_on_complete_grids() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for _ in 0..20 {
            let g = Transformation::random(&mut rng).apply(&grid(GRID));
            let fast = complete_search(&g).unwrap().run().form();
            let general = PuzzleSearch::new(&g).run().form();
            assert_eq!(fast, general);
        }
    }

    #[test]
    fn both_searches_agree_on_grids_with_pure_bands() {
        // Every band and stack of this grid is pure; random grids have a pure pair now and then.
        let pattern: [u8; CELLS] =
            std::array::from_fn(|cell| ((3 * (cell / 9 % 3) + cell / 27 + cell % 9) % 9 + 1) as u8);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut solver = crate::engine::standard::solve::Solver::new();
        let mut pure_grids = 0;
        for k in 0..200 {
            let g = if k < 20 {
                Transformation::random(&mut rng).apply(&Grid::from_cells(pattern).unwrap())
            } else {
                crate::engine::standard::dig::random_grid(&mut rng, &mut solver, None)
            };
            let search = complete_search(&g).unwrap();
            let pure = search.partner_maps().iter().any(PartnerMap::is_pure);
            if !pure {
                continue;
            }
            pure_grids += 1;
            let fast = search.run().form();
            let general = PuzzleSearch::new(&g).run().form();
            assert_eq!(fast, general);
        }
        assert!(pure_grids > 20, "{pure_grids} grids with a pure pair");
    }

    #[test]
    fn the_smallest_mixed_starts_are_the_least_starts_read_off_every_pair() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
        let mut solver = crate::engine::standard::solve::Solver::new();
        let (mut compared, mut none) = (0, 0);
        for _ in 0..300 {
            let search = complete_search(&crate::engine::standard::dig::random_grid(
                &mut rng,
                &mut solver,
                None,
            ))
            .unwrap();
            let maps = search.partner_maps();
            if maps.iter().any(PartnerMap::is_pure) {
                continue;
            }
            let (mut fast, mut general) = (Ties::new(), Ties::new());
            search.offer_least_mixed_starts(&maps, &mut general);
            if !search.offer_smallest_mixed_starts(&maps, &mut fast) {
                assert_ne!(
                    general.smallest >> 36 >> 12,
                    u128::from(MixedStart::SMALLEST)
                );
                none += 1;
                continue;
            }
            assert_eq!(fast.smallest, general.smallest);
            let sorted = |ties: &Ties| {
                let mut all: Vec<_> = ties.all().copied().collect();
                all.sort_unstable();
                all
            };
            assert_eq!(sorted(&fast), sorted(&general));
            compared += 1;
        }
        assert!(compared > 100, "{compared} grids compared, {none} without");
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn partner_maps_by_shuffles_are_those_read_a_column_at_a_time() {
        // Without SSSE3 the maps read a column at a time are checked alone, by their counts.
        let ssse3 = is_x86_feature_detected!("ssse3");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
        let mut solver = crate::engine::standard::solve::Solver::new();
        let (mut forward, mut two_cycles) = (0, 0);
        for _ in 0..50 {
            let search = complete_search(&crate::engine::standard::dig::random_grid(
                &mut rng,
                &mut solver,
                None,
            ))
            .unwrap();
            let shuffled = if ssse3 {
                // SAFETY: the processor has SSSE3.
                unsafe { search.partner_maps_ssse3() }
            } else {
                search.partner_maps_plain()
            };
            for (plain, shuffled) in search.partner_maps_plain().iter().zip(&shuffled) {
                assert_eq!(plain.partner, shuffled.partner);
                assert_eq!(plain.forward, shuffled.forward);
                assert_eq!(plain.two_cycles, shuffled.two_cycles);
                assert_eq!(plain.cube_fixed, shuffled.cube_fixed);
                forward += plain.forward.count_ones();
                two_cycles += plain.two_cycles.count_ones();
            }
        }
        assert!(forward > 1000 && two_cycles > 500, "{forward} {two_cycles}");
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn rows_labelled_by_shuffles_are_those_labelled_a_cell_at_a_time() {
        // Without SSSE3 the rows labelled a cell at a time are checked alone, by their first row.
        let ssse3 = is_x86_feature_detected!("ssse3");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(19);
        let mut solver = crate::engine::standard::solve::Solver::new();
        for _ in 0..50 {
            let g = crate::engine::standard::dig::random_grid(&mut rng, &mut solver, None);
            let search = complete_search(&g).unwrap();
            let t = Transformation::random(&mut rng);
            let (transpose, first_row) = (usize::from(t.transpose), t.rows[0]);
            let plain = search.labelled_rows_plain(transpose, first_row, &t.columns);
            let shuffled = if ssse3 {
                // SAFETY: the processor has SSSE3.
                unsafe { search.labelled_rows_ssse3(transpose, first_row, &t.columns) }
            } else {
                plain
            };
            assert_eq!(plain, shuffled);
            let first = plain[usize::from(first_row)].to_be_bytes();
            assert_eq!(first, [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0, 0]);
        }
    }

    #[test]
    fn equivalent_inputs_share_their_form() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        for line in [GRID, PUZZLE] {
            let g = grid(line);
            let form = canonical_form(&g);
            for _ in 0..20 {
                let moved = Transformation::random(&mut rng).apply(&g);
                assert_eq!(canonical_form(&moved), form);
            }
        }
    }

    #[test]
    fn only_valid_complete_grids_take_the_complete_search() {
        let valid = grid(GRID);
        assert!(complete_search(&valid).is_some());
        for (cell, digit) in [(0, 0), (0, 3), (40, 9), (80, 1)] {
            let mut cells = *valid.cells();
            cells[cell] = digit;
            assert!(complete_search(&Grid::from_cells(cells).unwrap()).is_none());
        }
        // Rows and columns valid, boxes not: a cyclic Latin square.
        let latin: [u8; CELLS] = std::array::from_fn(|cell| ((cell / 9 + cell % 9) % 9 + 1) as u8);
        assert!(complete_search(&Grid::from_cells(latin).unwrap()).is_none());
        assert!(complete_search(&grid(PUZZLE)).is_none());
    }

    #[test]
    fn a_complete_form_starts_with_the_first_row_in_order() {
        let form = canonical_form(&grid(GRID));
        assert_eq!(&form.cells()[..9], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn ones_counts_the_bits_of_every_mask_of_one_stack() {
        for stack in 0..3 {
            for bits in 0..8u16 {
                let mask = bits << (3 * stack);
                assert_eq!(ones(mask), mask.count_ones(), "{mask:#b}");
            }
        }
    }

    #[test]
    fn the_empty_grid_is_its_own_form() {
        assert_eq!(canonical_form(&Grid::EMPTY), Grid::EMPTY);
    }
}
