//! Distinct complete grids, written straight into their text.
//!
//! # The search
//! Digits are placed one value at a time: the nine 1s (one per box, no row or column twice), then the
//! nine 2s, and so on. Each node of that tree is one choice of cell for one digit in one box, so a
//! depth-first walk reaches every complete grid exactly once: the grids are distinct by construction.
//!
//! The last digits are where the walk spends its time, so they take three shortcuts, each listing the
//! same grids as the plain walk:
//! - **6 to 9 by relabelling.** Once the 5s are placed, swapping the digits 6, 7, 8 and 9 among
//!   themselves maps the ways to finish the grid onto each other, 24 at a time. Only one of each 24 is
//!   searched (box 0 has its 6, 7 and 8 in the first cell each digit tries); `-c` writes it in all 24
//!   relabellings, which costs 36 byte writes and one record copy each (`--classes` writes one, and
//!   its neighbours: grids made from it by swapping a 1, 2 or 3 of the walk with another digit where
//!   the two can trade places, see [`crate::classes::distinct`]).
//! - **The 7s band by band.** Every box has three empty cells left; the ways to place the 7s in each
//!   band are listed, then combined across bands whose columns do not meet.
//! - **The 8s and 9s as a 2-colouring.** Every house then has two empty cells: one takes the 8, the
//!   other the 9. Per box, that is one bit (is the cell the 8 tries first a 9?). A band's rows allow a
//!   set of patterns of its three bits, and so does a stack's columns (`ALLOWED`); the grids are the
//!   512-bit intersection of those sets (`STACK_SETS`), listed in ascending order, which is the
//!   plain walk's order.
//!
//! A unit test checks the output against the plain walk, with the relabelling stated plainly.
//!
//! # State
//! A box is a 9-bit mask of its occupied cells; the rows and columns a digit already took are two
//! 9-bit masks, bit `r` for row (or column) `r`, so that a band's (or stack's) three lines are
//! three neighbouring bits:
//!
//! ```text
//!   box mask      bit:  0 1 2     row 0 of the box
//!                       3 4 5     row 1
//!                       6 7 8     row 2
//!   rows used     bit:  0 1 2 | 3 4 5 | 6 7 8
//!                       band 0  band 1  band 2   (columns used: stacks)
//! ```
//!
//! The candidates of a box are three table look-ups and two ANDs. The text of the current grid is
//! kept as one record and patched cell by cell as digits are placed; a leaf is one copy of that
//! record into the output. For `--classes`, each digit's column by row, row by column and row by
//! box are written as it is placed too (see [`crate::classes::distinct`]).
//!
//! # Seeds
//! A seed draws (1) a symmetry, folded into where each cell's character goes and which character each
//! digit becomes, and (2) for every digit, the order in which a box's cells are tried. Both keep the
//! grids valid and distinct, and the second sends the walk into a different region of the tree.
//!
//! # Threads
//! The tree is split into `PARTS` fixed parts by the placement of the 1s in the top band. Part `p`
//! contributes the first `count / PARTS` grids of its subtree (one more for the first `count % PARTS`
//! parts) to its own byte range, so the output never depends on the thread count.
//!
//! # Shards
//! With a [`Shard`], the parts start deeper: from a placement of all the 1s and all the 2s, a
//! *subtree*. The subtrees are numbered by listing the placements depth first in the plain cell
//! order (the 1 of box 0 in its top-left cell, as above): subtree `s` places the 1s of number
//! `s % ONES` and the 2s of number `s / ONES` among those the 1s leave. Shard `i` of `k` gives its
//! part `p` the subtree `i - 1 + k * p`, so two shards, or two parts, never walk the same subtree,
//! and the seed's symmetry, the same for every shard of a seed, keeps distinct grids distinct texts.

mod last_digits;
mod plan;
mod start;

use rayon::prelude::*;

use crate::classes::fingerprint::DigitLines;
use crate::error::Error;
use crate::model::grid::{CELLS, Grid, box_cell};
use crate::model::shard::Shard;
use crate::text::format::Format;
use plan::Plan;
use start::Start;

/// The largest number of grids one request may ask for.
pub const MAX_GRIDS: usize = 1_000_000;

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridRequest {
    /// How many grids, 1..=[`MAX_GRIDS`].
    pub count: usize,
    /// Every output is a function of the seed (and the other fields).
    pub seed: u64,
    /// The digit of every grid's top-left cell, or `None` for one drawn from the seed.
    pub first: Option<u8>,
    /// Only grids of this shard: the shards of one seed (and `first`) share no grid. `None` for the
    /// whole tree, which gives other grids than any shard.
    pub shard: Option<Shard>,
}

/// The number of fixed parts the tree is split into: the placements of the 1 in boxes 1 and 2 once the
/// 1 of box 0 sits in the top-left cell.
pub(crate) const PARTS: usize = 18;

/// How many of `count` grids part `part` contributes: an equal share, one more for the first
/// `count % PARTS` parts.
pub(crate) fn part_share(count: usize, part: usize) -> usize {
    count / PARTS + usize::from(part < count % PARTS)
}

/// `out`, whole records of `record_len` bytes, cut into the byte ranges of the parts in order, each
/// of its [`part_share`] of the records.
pub(crate) fn part_ranges(out: &mut [u8], record_len: usize) -> Vec<&mut [u8]> {
    let count = out.len() / record_len;
    let mut rest = out;
    (0..PARTS)
        .map(|part| {
            let (head, tail) =
                std::mem::take(&mut rest).split_at_mut(part_share(count, part) * record_len);
            rest = tail;
            head
        })
        .collect()
}

/// Writes `request.count` distinct complete grids in `format` into one buffer of exactly their size,
/// splitting the work over the current rayon pool.
///
/// # Errors
/// [`Error::ShardTooSmall`] if a subtree of the shard holds fewer grids than its part needs, which
/// no 9x9 subtree does for a count up to [`MAX_GRIDS`] as far as is known: each holds trillions of
/// grids on average.
///
/// # Panics
/// If `request.count` is 0 or above [`MAX_GRIDS`], or `first` is not a digit.
pub fn render_grids(request: &GridRequest, format: Format) -> Result<Vec<u8>, Error> {
    assert!(
        (1..=MAX_GRIDS).contains(&request.count),
        "count out of range"
    );
    assert!(
        request.first.is_none_or(|d| (1..=9).contains(&d)),
        "first must be a digit"
    );
    let record_len = format.record_len();
    let mut out = crate::io::memory::zeroed(record_len * request.count)?;
    let plan = Plan::new(request, format);
    let parts = part_ranges(&mut out, record_len);
    let full = parts.into_par_iter().enumerate().all(|(part, records)| {
        let start = match request.shard {
            None => Start::part(part),
            Some(shard) => Start::subtree(shard.piece(part as u64)),
        };
        match format {
            _ if records.is_empty() => true,
            Format::Grid => Search::new(
                &plan,
                AllRelabellings::<'_, { Format::Grid.record_len() }>::new(records),
            )
            .run(&start),
            Format::Line => Search::new(
                &plan,
                AllRelabellings::<'_, { Format::Line.record_len() }>::new(records),
            )
            .run(&start),
        }
    });
    match request.shard {
        Some(shard) if !full => Err(Error::ShardTooSmall {
            shard,
            count: request.count,
        }),
        _ => {
            out.truncate(format.output_len(request.count));
            Ok(out)
        }
    }
}

/// Walks part `part` of the whole tree (the request's shard is not read) in the cell orders and
/// symmetry that `request` draws, handing its grids to the leaves that `leaves` makes from the
/// record offset of each cell of the walk's grid, row by row; returns those leaves, full.
pub(crate) fn walk_part<L: Leaves>(
    request: &GridRequest,
    format: Format,
    part: usize,
    leaves: impl FnOnce(&[u8; CELLS]) -> L,
) -> L {
    let plan = Plan::new(request, format);
    let mut cell_offsets = [0; CELLS];
    for (b, box_offsets) in plan.offset.iter().enumerate() {
        for (i, &offset) in box_offsets.iter().enumerate() {
            cell_offsets[box_cell(b, i)] = offset;
        }
    }
    let mut search = Search::new(&plan, leaves(&cell_offsets));
    search.run(&Start::part(part));
    search.leaves
}

/// The same grids as [`render_grids`], as values.
///
/// # Errors
/// As [`render_grids`].
pub fn generate_grids(request: &GridRequest) -> Result<Vec<Grid>, Error> {
    Ok(render_grids(request, Format::Line)?
        .chunks_exact(Format::Line.record_len())
        .map(|line| {
            let mut cells = [0; CELLS];
            for (cell, &ch) in cells.iter_mut().zip(line) {
                *cell = ch - b'0';
            }
            Grid::from_cells(cells).expect("the generator writes digits")
        })
        .collect())
}

/// For each 3-bit mask of free lines of a box (rows with `by_row`, else columns), the box cells on
/// those lines.
const fn cells_on_lines(by_row: bool) -> [u16; 8] {
    let mut table = [0; 8];
    let mut lines = 0;
    while lines < 8 {
        let mut i = 0;
        while i < 9 {
            let line = if by_row { i / 3 } else { i % 3 };
            if lines >> line & 1 == 1 {
                table[lines] |= 1 << i;
            }
            i += 1;
        }
        lines += 1;
    }
    table
}

/// Cells of a box allowed by a 3-bit mask of its free rows.
const ROWS_TO_CELLS: [u16; 8] = cells_on_lines(true);

/// Cells of a box allowed by a 3-bit mask of its free columns.
const COLUMNS_TO_CELLS: [u16; 8] = cells_on_lines(false);

/// One part's depth-first walk, handing the grids it reaches to its `leaves` until they are full.
struct Search<'a, L> {
    plan: &'a Plan,
    /// Per box, the cells already holding a digit.
    occupied: [u16; 9],
    /// The current grid's text.
    record: [u8; 256],
    /// Record offsets of the 6s, by box.
    sixes: [u8; 9],
    /// The digits placed so far, by line, for the leaves' fingerprints (only if they read them, see
    /// [`Leaves::READS_LINES`]). Entries of a placement the walk took back stay until overwritten,
    /// so these are the grid's only at a leaf: there every digit has a cell in each row, column and
    /// box, each written after any taken back (a digit is only placed where its row and column are
    /// free, and the 7s to 9s are written at every leaf).
    lines: DigitLines,
    leaves: L,
}

/// What a walk does with each way to complete its grid once the 5s are placed (see
/// [`Search::place_sevens`]): all that the walk shows of itself, to `-c` here and to `--classes`
/// through [`walk_part`].
pub(crate) trait Leaves {
    /// Whether the walk keeps to grids whose first row, in the walk's own cells, holds the 1 to 5
    /// in order in its first five cells (the leaves then order the 6 to 9 in the last four).
    const FIRST_ROW_IN_ORDER: bool = false;

    /// Whether the leaves read the walk's `lines`, which the walk then keeps up to date.
    const READS_LINES: bool = false;

    /// Takes the grid of `record` (the 1s to 5s in place) whose 6s, 7s, 8s and 9s lie at the record
    /// offsets `digit_cells` (per digit from the 6, per box), to be written with `glyph`, and whose
    /// digits lie in the walk's own cells as `lines` says; returns `true` once no more grids are
    /// wanted.
    fn take(
        &mut self,
        record: &mut [u8; 256],
        digit_cells: &[[u8; 9]; 4],
        glyph: &[u8; 10],
        lines: &DigitLines,
    ) -> bool;
}

/// `-c`: every grid in its 24 relabellings of 6, 7, 8 and 9, into a byte range, until it is full.
/// `RECORD` is the record length of the format, a constant so that copying a finished grid is a
/// fixed-size copy.
struct AllRelabellings<'a, const RECORD: usize> {
    out: &'a mut [u8],
    written: usize,
}

impl<'a, const RECORD: usize> AllRelabellings<'a, RECORD> {
    fn new(out: &'a mut [u8]) -> Self {
        AllRelabellings { out, written: 0 }
    }
}

impl<const RECORD: usize> Leaves for AllRelabellings<'_, RECORD> {
    fn take(
        &mut self,
        record: &mut [u8; 256],
        digit_cells: &[[u8; 9]; 4],
        glyph: &[u8; 10],
        _: &DigitLines,
    ) -> bool {
        for digits in RELABELLINGS {
            for (cells, digit) in digit_cells.iter().zip(digits) {
                for &offset in cells {
                    record[usize::from(offset)] = glyph[digit];
                }
            }
            let leaf: &mut [u8; RECORD] = (&mut self.out[self.written..self.written + RECORD])
                .try_into()
                .expect("a record");
            *leaf = *record.first_chunk().expect("a record");
            self.written += RECORD;
            if self.written == self.out.len() {
                return true;
            }
        }
        false
    }
}

/// The digits from this one to 9 are handed out to their cells in every order (see
/// [`Search::place_sevens`]).
pub(crate) const FIRST_RELABELLED: usize = 6;

/// The 24 ways to hand out the digits 6, 7, 8 and 9 to four sets of cells, in lexicographic order.
const RELABELLINGS: [[usize; 4]; 24] = {
    let mut table = [[0; 4]; 24];
    let mut count = 0;
    let mut code = 0;
    while code < 256 {
        let digits = [
            6 + code / 64,
            6 + code / 16 % 4,
            6 + code / 4 % 4,
            6 + code % 4,
        ];
        let distinct = digits[0] != digits[1]
            && digits[0] != digits[2]
            && digits[0] != digits[3]
            && digits[1] != digits[2]
            && digits[1] != digits[3]
            && digits[2] != digits[3];
        if distinct {
            table[count] = digits;
            count += 1;
        }
        code += 1;
    }
    table
};

impl<'a, L: Leaves> Search<'a, L> {
    fn new(plan: &'a Plan, leaves: L) -> Self {
        Search {
            plan,
            occupied: [0; 9],
            record: std::array::from_fn(|i| plan.blank_record.get(i).copied().unwrap_or(0)),
            sixes: [0; 9],
            lines: DigitLines::default(),
            leaves,
        }
    }

    /// Places the digits of `start`, then walks the rest of its subtree; returns `true` once the
    /// leaves are full, which they always are for a part of the whole tree.
    fn run(&mut self, start: &Start) -> bool {
        let (mut rows_used, mut columns_used) = (0, 0);
        for digit in 1..=start.last_digit {
            (rows_used, columns_used) = (0, 0);
            let boxes = if digit == start.last_digit {
                start.boxes
            } else {
                9
            };
            for (b, &index) in start.cells[digit - 1][..boxes].iter().enumerate() {
                let index = usize::from(index);
                self.put(digit, b, index);
                rows_used |= 1 << (3 * (b / 3) + index / 3);
                columns_used |= 1 << (3 * (b % 3) + index % 3);
            }
        }
        self.place(start.last_digit, start.boxes, rows_used, columns_used)
    }

    fn put(&mut self, digit: usize, b: usize, index: usize) {
        self.occupied[b] |= 1 << index;
        if L::READS_LINES {
            self.lines.place(digit - 1, box_line(b, index));
        }
        let offset = self.plan.offset[b][index];
        self.record[usize::from(offset)] = self.plan.glyph[digit];
        if digit == FIRST_RELABELLED {
            self.sixes[b] = offset;
        }
    }

    /// Places `digit` in box `b` and the boxes after it, then the digits after it; returns `true` once
    /// the leaves are full.
    fn place(&mut self, digit: usize, b: usize, rows_used: u16, columns_used: u16) -> bool {
        if b == 9 {
            return if digit == 6 {
                self.place_sevens()
            } else {
                self.place(digit + 1, 0, 0, 0)
            };
        }
        let (band, stack) = (b / 3, b % 3);
        let rows_free = !(rows_used >> (3 * band)) & 7;
        let columns_free = !(columns_used >> (3 * stack)) & 7;
        let candidates = !self.occupied[b]
            & ROWS_TO_CELLS[usize::from(rows_free)]
            & COLUMNS_TO_CELLS[usize::from(columns_free)]
            & 0x1ff;
        let mut ranked = self.plan.ranked[digit][usize::from(candidates)];
        if L::FIRST_ROW_IN_ORDER && digit < FIRST_RELABELLED && b == (digit - 1) / 3 {
            ranked &= self.plan.ranked[digit][1 << ((digit - 1) % 3)];
        }
        if digit == FIRST_RELABELLED && b == 0 {
            // Only the first option: the others are relabellings (see `place_sevens`).
            ranked &= ranked.wrapping_neg();
        }
        while ranked != 0 {
            let rank = ranked.trailing_zeros() as usize;
            ranked &= ranked - 1;
            let index = usize::from(self.plan.cell_at_rank[digit][rank]);
            self.put(digit, b, index);
            let row_bit = 1 << (3 * band + index / 3);
            let column_bit = 1 << (3 * stack + index % 3);
            if self.place(digit, b + 1, rows_used | row_bit, columns_used | column_bit) {
                return true;
            }
            self.occupied[b] &= !(1 << index);
        }
        false
    }
}

/// The row and column of cell `index` of box `b`.
fn box_line(b: usize, index: impl Into<usize>) -> (usize, usize) {
    let cell = box_cell(b, index.into());
    (cell / 9, cell % 9)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ways to place the digits from `digit` to `last`, box by box from box `b`, in the plan's
    /// orders (the plain walk), until `found` holds `limit` grids.
    fn plain_walk(
        plan: &Plan,
        grid: &mut [u8; CELLS],
        (digit, b): (usize, usize),
        (last, limit): (usize, usize),
        found: &mut Vec<[u8; CELLS]>,
    ) {
        if found.len() >= limit {
            return;
        }
        if b == 9 {
            if digit == last {
                found.push(*grid);
            } else {
                plain_walk(plan, grid, (digit + 1, 0), (last, limit), found);
            }
            return;
        }
        for rank in 0..9 {
            let index = usize::from(plan.cell_at_rank[digit][rank]);
            let cell = box_cell(b, index);
            let clash = (0..9).any(|i| {
                grid[9 * (cell / 9) + i] == digit as u8 || grid[9 * i + cell % 9] == digit as u8
            });
            if grid[cell] == 0 && !clash {
                grid[cell] = digit as u8;
                plain_walk(plan, grid, (digit, b + 1), (last, limit), found);
                grid[cell] = 0;
            }
        }
    }

    /// What the search must write for `part`, stated plainly: the plain walk to the 5s; for each
    /// grid it reaches, the plain walk's completions whose box 0 has its 6, 7 and 8 in the first
    /// empty cell each of these digits tries, each in the 24 relabellings of 6, 7, 8 and 9.
    fn specified_part(plan: &Plan, start: &Start, count: usize) -> Vec<[u8; CELLS]> {
        let mut grid = [0; CELLS];
        for digit in 1..=start.last_digit {
            let boxes = if digit == start.last_digit {
                start.boxes
            } else {
                9
            };
            for (b, &index) in start.cells[digit - 1][..boxes].iter().enumerate() {
                grid[box_cell(b, usize::from(index))] = digit as u8;
            }
        }
        let mut to_five = Vec::new();
        let mut found = Vec::new();
        // `count` grids with 1 to 5 placed are plenty: they average dozens of completions.
        let from = (start.last_digit, start.boxes);
        plain_walk(plan, &mut grid, from, (5, count), &mut to_five);
        for prefix in to_five {
            let mut completions = Vec::new();
            let mut start = prefix;
            plain_walk(plan, &mut start, (6, 0), (9, usize::MAX), &mut completions);
            // The first cell of box 0 that `digit` tries among those not holding a smaller digit.
            let first_cell = |digit: usize, grid: &[u8; CELLS]| {
                (0..9)
                    .map(|rank| box_cell(0, usize::from(plan.cell_at_rank[digit][rank])))
                    .find(|&cell| usize::from(grid[cell]) >= digit)
                    .expect("a cell")
            };
            for completion in completions {
                if (6..=8).any(|d| usize::from(completion[first_cell(d, &completion)]) != d) {
                    continue;
                }
                for digits in RELABELLINGS {
                    let mut relabelled = completion;
                    for cell in relabelled.iter_mut().filter(|c| **c >= 6) {
                        *cell = digits[usize::from(*cell) - 6] as u8;
                    }
                    found.push(relabelled);
                    if found.len() == count {
                        return found;
                    }
                }
            }
        }
        panic!("the walk ran out of grids");
    }

    /// Renders a grid of the search's cells through the plan's symmetry, as `Search` does.
    fn through_plan(plan: &Plan, grid: &[u8; CELLS]) -> Vec<u8> {
        let mut record = plan.blank_record[..Format::Line.record_len()].to_vec();
        for b in 0..9 {
            for index in 0..9 {
                let digit = usize::from(grid[box_cell(b, index)]);
                record[usize::from(plan.offset[b][index])] = plan.glyph[digit];
            }
        }
        record
    }

    #[test]
    fn shortcuts_match_the_plain_walk() {
        let shards = [
            None,
            Shard::new(2, 3).ok(),
            Shard::new(999_999, 1_000_000).ok(),
        ];
        for (seed, shard) in [(0, 0), (1, 1), (42, 0), (9_999, 2)] {
            let count = 2 * PARTS * 600 + 7;
            let request = GridRequest {
                count,
                seed,
                first: None,
                shard: shards[shard],
            };
            let fast = render_grids(&request, Format::Line).unwrap();
            let plan = Plan::new(&request, Format::Line);
            let mut expected = Vec::new();
            for part in 0..PARTS {
                let grids = part_share(count, part);
                let start = match request.shard {
                    None => Start::part(part),
                    Some(shard) => Start::subtree(shard.piece(part as u64)),
                };
                for grid in specified_part(&plan, &start, grids) {
                    expected.extend(through_plan(&plan, &grid));
                }
            }
            assert!(
                fast == expected,
                "seed {seed}: the fast walk differs from the plain walk"
            );
        }
    }

    #[test]
    fn shards_share_no_grid() {
        let mut seen = std::collections::HashSet::new();
        for index in 1..=3 {
            let grids = generate_grids(&GridRequest {
                count: 3_000,
                seed: 5,
                first: Some(2),
                shard: Shard::new(index, 3).ok(),
            })
            .unwrap();
            assert!(
                grids
                    .iter()
                    .all(|g| g.is_filled() && g.first_repeat().is_none())
            );
            assert!(grids.into_iter().all(|g| seen.insert(g)));
        }
        assert_eq!(seen.len(), 9_000);
    }

    #[test]
    fn first_digit_and_grid_values() {
        let grids = generate_grids(&GridRequest {
            count: 40,
            seed: 8,
            first: Some(4),
            shard: None,
        })
        .unwrap();
        assert_eq!(grids.len(), 40);
        assert!(grids.iter().all(|g| g.get(0) == 4 && g.is_filled()));
    }
}
