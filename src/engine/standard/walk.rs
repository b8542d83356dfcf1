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
//! A box is a 9-bit mask of its occupied cells (bit `i` is the box's `i`-th cell, row by row); the rows
//! and columns a digit already took are two 9-bit masks. The candidates of a box are three table
//! look-ups and two ANDs. The text of the current grid is kept as one record and patched cell by cell as
//! digits are placed; a leaf is one copy of that record into the output. For `--classes`, each digit's
//! column by row, row by column and row by box are written as it is placed too (see
//! [`crate::classes::distinct`]).
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

use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use crate::classes::fingerprint::{DigitLines, Terms};
use crate::error::Error;
use crate::model::grid::{BYTE_MASKS, CELLS, Grid, box_cell};
use crate::model::shard::Shard;
use crate::text::format::{Format, MAX_RECORD_LEN};

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
    let mut out = vec![0; record_len * request.count];
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

/// For `--classes`: grids of part `part` of [`render_grids`]'s walk and their neighbours, all with
/// the same first row (see [`Representatives`]), in `format`: into `out` until it is full, then `spare`
/// more into a buffer of their own, which is returned with the fingerprints of all of them in order.
///
/// # Panics
/// If `request.shard` is set, or `part` is not below [`PARTS`].
pub(crate) fn representatives(
    request: &GridRequest,
    format: Format,
    part: usize,
    (out, spare): (&mut [u8], usize),
) -> (Vec<u8>, Vec<u64>) {
    assert!(request.shard.is_none(), "representatives of the whole tree");
    // Each part draws its own orders: with one plan for all, the first grids of some parts are
    // largely equivalent to the first grids of another.
    let part_request = GridRequest {
        seed: request.seed ^ (part as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        ..*request
    };
    let plan = Plan::new(&part_request, format);
    let record_len = format.record_len();
    let wanted = out.len() / record_len + spare;
    let mut search = Search::new(
        &plan,
        Representatives {
            record_len,
            first_row_ends: [(1, 2), (2, 0), (2, 1), (2, 2)].map(|(b, i)| (b, plan.offset[b][i])),
            cell_offsets: {
                let mut offsets = [0; CELLS];
                for (b, box_offsets) in plan.offset.iter().enumerate() {
                    for (i, &offset) in box_offsets.iter().enumerate() {
                        offsets[box_cell(b, i)] = offset;
                    }
                }
                offsets
            },
            out,
            spare,
            spare_records: Vec::with_capacity(spare * record_len),
            keys: Vec::with_capacity(wanted),
        },
    );
    if wanted > 0 {
        search.run(&Start::part(part));
    }
    (search.leaves.spare_records, search.leaves.keys)
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

/// Which 8/9 patterns three boxes of one band (or stack) allow, given where their empty cells lie.
///
/// Once the 7s are in, each box has two empty cells; the one the walk tries first for the 8 is its
/// *first* cell. A box is *swapped* when its first cell takes the 9. The index is `81 * code0 + 9 *
/// code1 + code2`, where box `i`'s code is `3 * line of its first cell + line of its second` (lines:
/// rows inside a band, columns inside a stack). Bit `v` of the entry is set when the pattern `v` (box 0
/// swapped: 4, box 1: 2, box 2: 1) puts an 8 and a 9 on each of the three lines.
const ALLOWED: [u8; 729] = {
    let mut table = [0; 729];
    let mut index = 0;
    while index < 729 {
        let codes = [index / 81, index / 9 % 9, index % 9];
        let mut pattern = 0;
        while pattern < 8 {
            // Per line, how many 8s and 9s the pattern puts on it.
            let mut eights = [0; 3];
            let mut nines = [0; 3];
            let mut i = 0;
            while i < 3 {
                let swapped = pattern >> (2 - i) & 1 == 1;
                let (eight_line, nine_line) = if swapped {
                    (codes[i] % 3, codes[i] / 3)
                } else {
                    (codes[i] / 3, codes[i] % 3)
                };
                eights[eight_line] += 1;
                nines[nine_line] += 1;
                i += 1;
            }
            let mut line = 0;
            let mut fits = true;
            while line < 3 {
                fits &= eights[line] == 1 && nines[line] == 1;
                line += 1;
            }
            if fits {
                table[index] |= 1 << pattern;
            }
            pattern += 1;
        }
        index += 1;
    }
    table
};

/// The 8/9 patterns of all nine boxes form a set of 512 bits: pattern `64 * v0 + 8 * v1 + v2` (band
/// `k`'s pattern `vk`, see [`ALLOWED`]) is bit `8 * v1 + v2` of word `v0`, so ascending bits are the
/// walk's order. `STACK_SETS[j][allowed]` is the set of patterns whose stack `j` pattern is in `allowed`.
static STACK_SETS: [[[u64; 8]; 256]; 3] = {
    let mut table = [[[0; 8]; 256]; 3];
    let mut stack = 0;
    while stack < 3 {
        let mut allowed = 0;
        while allowed < 256 {
            let mut pattern = 0;
            while pattern < 512 {
                let bands = [pattern >> 6, pattern >> 3 & 7, pattern & 7];
                let stack_pattern = (bands[0] >> (2 - stack) & 1) << 2
                    | (bands[1] >> (2 - stack) & 1) << 1
                    | (bands[2] >> (2 - stack) & 1);
                if allowed >> stack_pattern & 1 == 1 {
                    table[stack][allowed][pattern / 64] |= 1 << (pattern % 64);
                }
                pattern += 1;
            }
            allowed += 1;
        }
        stack += 1;
    }
    table
};

/// Everything a seed decides, shared read-only by all parts.
struct Plan {
    /// The record with separators, as every part starts it.
    blank_record: [u8; MAX_RECORD_LEN],
    /// Byte offset in the record of each box cell of the search's grid, by box (the symmetry's row,
    /// column and transposition). A byte, so that indexing a 256-byte record needs no bounds check.
    offset: [[u8; 9]; 9],
    /// Character written for each digit (the symmetry's relabelling); index 0 unused.
    glyph: [u8; 10],
    /// Per digit: a box's candidate mask, renumbered so that bit `k` is the `k`-th cell to try.
    ranked: Box<[[u16; 512]; 10]>,
    /// Per digit: the box cell tried `k`-th.
    cell_at_rank: [[u8; 9]; 10],
    /// For a box with two empty cells (the mask), the one tried first for the 8, then the other.
    eight_order: Box<[[u8; 2]; 512]>,
}

impl Plan {
    fn new(request: &GridRequest, format: Format) -> Plan {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(request.seed);
        // The 1 of box 0 sits in the top-left cell, so the symmetry keeps row 0 and column 0 in place.
        let rows = line_permutation(&mut rng);
        let columns = line_permutation(&mut rng);
        let transpose = rng.random::<bool>();
        let mut digits: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        digits.shuffle(&mut rng);
        if let Some(first) = request.first {
            let at = digits.iter().position(|&d| d == first).expect("a digit");
            digits.swap(0, at);
        }
        let mut offset = [[0; 9]; 9];
        for (cell, slot) in offset.iter_mut().flatten().enumerate() {
            let cell = box_cell(cell / 9, cell % 9);
            let (row, column) = (rows[cell / 9], columns[cell % 9]);
            let (row, column) = if transpose {
                (column, row)
            } else {
                (row, column)
            };
            *slot = format.cell_offset(9 * row + column) as u8;
        }
        let mut glyph = [0; 10];
        for (digit, &label) in digits.iter().enumerate() {
            glyph[digit + 1] = b'0' + label;
        }
        let mut ranked = Box::new([[0; 512]; 10]);
        let mut cell_at_rank = [[0; 9]; 10];
        for digit in 1..=9 {
            let mut order: [u8; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
            order.shuffle(&mut rng);
            cell_at_rank[digit] = order;
            for (mask, slot) in ranked[digit].iter_mut().enumerate() {
                *slot = (0..9)
                    .filter(|&k| mask >> order[k] & 1 == 1)
                    .fold(0, |acc, k| acc | 1 << k);
            }
        }
        let mut eight_order = Box::new([[0; 2]; 512]);
        for (mask, slot) in eight_order.iter_mut().enumerate() {
            let mut in_order = cell_at_rank[8].iter().filter(|&&i| mask >> i & 1 == 1);
            if let (Some(&f), Some(&s)) = (in_order.next(), in_order.next()) {
                *slot = [f, s];
            }
        }
        Plan {
            blank_record: format.blank_record(b'0'),
            offset,
            glyph,
            ranked,
            cell_at_rank,
            eight_order,
        }
    }
}

/// A random map from the search's rows (or columns) to output rows that keeps a valid grid valid and
/// keeps line 0 in place: bands 1 and 2 may swap, lines 1 and 2 may swap, and the lines of bands 1
/// and 2 are shuffled.
fn line_permutation(rng: &mut Xoshiro256PlusPlus) -> [usize; 9] {
    let mut bands = [1, 2];
    bands.shuffle(rng);
    let mut map = [0; 9];
    let mut top = [1, 2];
    top.shuffle(rng);
    map[1] = top[0];
    map[2] = top[1];
    for (band, &target) in bands.iter().enumerate() {
        let mut lines = [0, 1, 2];
        lines.shuffle(rng);
        for (i, &line) in lines.iter().enumerate() {
            map[3 * (band + 1) + i] = 3 * target + line;
        }
    }
    map
}

/// The number of placements of the 1s with the 1 of box 0 in its top-left cell.
const ONES: u64 = 5184;

/// The number of placements of the 2s that any placement of the 1s leaves (all placements of the
/// 1s are alike under moves of rows inside bands and columns inside stacks).
const TWOS: u64 = 17_972;

/// Where a part's walk starts: the box cell of each digit from 1 to `last_digit` in each box, of
/// the last digit only in boxes `0..boxes`.
struct Start {
    cells: [[u8; 9]; 2],
    last_digit: usize,
    boxes: usize,
}

impl Start {
    /// Part `part` of the whole tree: a placement of the 1s in boxes 0, 1 and 2.
    fn part(part: usize) -> Start {
        // Box 1: any cell outside row 0 (6 ways); box 2: the remaining row (3 ways).
        let in_box1 = 3 + part / 3;
        let row_left = 3 - in_box1 / 3;
        let mut cells = [[0; 9]; 2];
        cells[0][..3].copy_from_slice(&[0, in_box1 as u8, (3 * row_left + part % 3) as u8]);
        Start {
            cells,
            last_digit: 1,
            boxes: 3,
        }
    }

    /// Subtree `subtree` (below `ONES * TWOS`): a placement of all the 1s and 2s (see the module
    /// comment).
    fn subtree(subtree: u64) -> Start {
        debug_assert!(subtree < ONES * TWOS);
        let mut anywhere_but_box0 = [0x1ff; 9];
        anywhere_but_box0[0] = 1;
        let ones = nth_placement(anywhere_but_box0, subtree % ONES).expect("a number below ONES");
        let twos = nth_placement(ones.map(|i| 0x1ff & !(1 << i)), subtree / ONES)
            .expect("a number below TWOS");
        Start {
            cells: [ones, twos],
            last_digit: 2,
            boxes: 9,
        }
    }
}

/// The `n`-th (from 0) way to place one digit in every box, no row or column twice, box `b`'s in
/// one of the cells of `allowed[b]`; listed depth first, boxes in order, cells in order.
fn nth_placement(allowed: [u16; 9], n: u64) -> Option<[u8; 9]> {
    fn walk(
        allowed: &[u16; 9],
        b: usize,
        (rows_used, columns_used): (u16, u16),
        skip: &mut u64,
        cells: &mut [u8; 9],
    ) -> bool {
        if b == 9 {
            *skip = match skip.checked_sub(1) {
                None => return true,
                Some(left) => left,
            };
            return false;
        }
        let free = allowed[b]
            & ROWS_TO_CELLS[usize::from(!(rows_used >> (3 * (b / 3))) & 7)]
            & COLUMNS_TO_CELLS[usize::from(!(columns_used >> (3 * (b % 3))) & 7)];
        (0..9).filter(|i| free >> i & 1 == 1).any(|i| {
            cells[b] = i;
            let rows = rows_used | 1 << (3 * (b / 3) + usize::from(i / 3));
            let columns = columns_used | 1 << (3 * (b % 3) + usize::from(i % 3));
            walk(allowed, b + 1, (rows, columns), skip, cells)
        })
    }
    let mut cells = [0; 9];
    let mut skip = n;
    walk(&allowed, 0, (0, 0), &mut skip, &mut cells).then_some(cells)
}

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
    /// [`Leaves::READS_LINES`]). Entries of a placement the
    /// walk took back stay until overwritten, so these are the grid's only at a leaf: there every
    /// digit has a cell in each row, column and box, each written after any taken back (a digit is
    /// only placed where its row and column are free, and the 7s to 9s are written at every leaf).
    lines: DigitLines,
    leaves: L,
}

/// What a walk does with each way to complete its grid once the 5s are placed (see
/// [`Search::place_sevens`]).
trait Leaves {
    /// Whether the walk keeps to grids whose first row, in the walk's own cells, holds the 1 to 5
    /// in order in its first five cells (the leaves then order the 6 to 9 in the last four).
    const FIRST_ROW_IN_ORDER: bool = false;

    /// Whether the leaves read the walk's `lines`, which the walk then keeps up to date.
    const READS_LINES: bool = false;

    /// Takes the grid of `record` (the 1s to 5s in place) whose 6s, 7s, 8s and 9s lie at the record
    /// offsets `digit_cells`, written with `glyph`, and whose digits lie in the walk's own cells as
    /// `lines` says; returns `true` once no more grids are wanted.
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

/// `--classes`: each grid once, and its neighbours, each keyed by its fingerprint (see
/// [`crate::classes::fingerprint`]), until `out` is full and `spare` more are kept. The walk keeps to first
/// rows in order, and of the 24 relabellings of 6, 7, 8 and 9 each leaf stands for, only the one
/// that puts them in order in the last four cells of the first row is taken: so no two leaves are
/// relabellings of each other. The neighbours of a leaf are the grids made by swapping a pair of
/// [`NEIGHBOUR_PAIRS`] in a set of cells where the two can trade places and leave the grid valid,
/// off the first row (see [`DigitLines::swappable_off_row_0`]); they may repeat a grid or a class
/// now and then, which the fingerprints tell.
struct Representatives<'a> {
    record_len: usize,
    /// The box and record offset of the last four cells of the first row.
    first_row_ends: [(usize, u8); 4],
    /// The record offset of each cell of the walk's grid, row by row.
    cell_offsets: [u8; CELLS],
    out: &'a mut [u8],
    spare: usize,
    spare_records: Vec<u8>,
    keys: Vec<u64>,
}

impl Leaves for Representatives<'_> {
    const FIRST_ROW_IN_ORDER: bool = true;
    const READS_LINES: bool = true;

    fn take(
        &mut self,
        record: &mut [u8; 256],
        digit_cells: &[[u8; 9]; 4],
        glyph: &[u8; 10],
        lines: &DigitLines,
    ) -> bool {
        // The character of each digit of the walk (0 for the digit 1) in the record.
        let mut characters: [u8; 9] = std::array::from_fn(|digit| glyph[digit + 1]);
        for (digit, &(b, offset)) in (FIRST_RELABELLED..).zip(&self.first_row_ends) {
            let relabelled = digit_cells
                .iter()
                .position(|cells| cells[b] == offset)
                .expect("the first row holds the 6 to 9");
            characters[FIRST_RELABELLED - 1 + relabelled] = glyph[digit];
            for &offset in &digit_cells[relabelled] {
                record[usize::from(offset)] = glyph[digit];
            }
        }
        let terms = Terms::of(lines);
        if self.push(record, terms.fingerprint()) {
            return true;
        }
        // Each neighbour is swapped in, kept, and swapped back (a swap undoes itself).
        let mut neighbour = *lines;
        let cell_offsets = self.cell_offsets;
        for pair in NEIGHBOUR_PAIRS {
            for rows in lines.swappable_off_row_0(pair.0, pair.1) {
                let swap = |neighbour: &mut DigitLines, record: &mut [u8; 256]| {
                    neighbour.swap(pair, rows, |row, column, digit| {
                        record[usize::from(cell_offsets[9 * row + column])] = characters[digit];
                    });
                };
                swap(&mut neighbour, record);
                let key = terms.fingerprint_after_swap(&neighbour, pair);
                let full = self.push(record, key);
                swap(&mut neighbour, record);
                if full {
                    return true;
                }
            }
        }
        false
    }
}

/// The pairs of digits of the walk (0 for the digit 1) that `--classes` swaps to turn each leaf into
/// more grids: a 1, 2 or 3 with a 1, 2, 3, 6, 7, 8 or 9. The 1s to 3s are the digits the walk
/// changes last, so a grid that moves them mostly lies outside the part of the tree the walk
/// reaches, whereas a swap of a 4 or a 5, or of two of 6 to 9, often gives a grid that the walk
/// reaches anyway (see `BENCHMARKS.md`).
const NEIGHBOUR_PAIRS: [(usize, usize); 15] = [
    (0, 1),
    (0, 2),
    (1, 2),
    (0, 5),
    (0, 6),
    (0, 7),
    (0, 8),
    (1, 5),
    (1, 6),
    (1, 7),
    (1, 8),
    (2, 5),
    (2, 6),
    (2, 7),
    (2, 8),
];

impl Representatives<'_> {
    /// Keeps the grid of `record`, whose fingerprint is `key`; returns `true` once no more grids
    /// are wanted.
    fn push(&mut self, record: &[u8; 256], key: u64) -> bool {
        let record = &record[..self.record_len];
        let at = self.keys.len() * self.record_len;
        match self.out.get_mut(at..at + self.record_len) {
            Some(slot) => slot.copy_from_slice(record),
            None => self.spare_records.extend_from_slice(record),
        }
        self.keys.push(key);
        self.keys.len() * self.record_len == self.out.len() + self.spare * self.record_len
    }
}

/// What placing the 7 in one cell of a box leaves for the 8 and the 9.
#[derive(Clone, Copy, Default)]
struct SevenOption {
    /// Record offsets of the 7, then of the two empty cells left: the one the walk tries first for the
    /// 8, then the other.
    offsets: [u8; 3],
    /// The row and column of the same three cells.
    places: [(u8, u8); 3],
    /// The box row and box column of the 7.
    row: u8,
    column: u8,
    /// Where the two empty cells lie in the box's band and stack (see [`ALLOWED`]).
    row_code: u8,
    column_code: u8,
}

/// One way to place the 7s in the three boxes of a band, and what it leaves for the 8s and 9s.
#[derive(Clone, Copy, Default)]
struct BandChoice {
    /// Per box, the record offsets of its 7 and of its two empty cells (see [`SevenOption`]).
    offsets: [[u8; 3]; 3],
    /// The row and column of the same cells.
    places: [[(u8, u8); 3]; 3],
    /// Per box, where its empty cells lie inside its stack (see [`ALLOWED`]).
    column_codes: [u8; 3],
    /// The 8/9 patterns the band's rows allow (see [`ALLOWED`]).
    allowed: u8,
    /// The columns the 7s take.
    columns: u16,
}

/// The digits from this one to 9 are handed out to their cells in every order (see
/// [`Search::place_sevens`]).
const FIRST_RELABELLED: usize = 6;

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

    /// The options for the 7 in box `b`, which has three empty cells, in the walk's order.
    fn seven_options(&self, b: usize) -> [SevenOption; 3] {
        let free = !self.occupied[b] & 0x1ff;
        let mut ranked = self.plan.ranked[7][usize::from(free)];
        let offsets = &self.plan.offset[b];
        [(); 3].map(|()| {
            let index = self.plan.cell_at_rank[7][ranked.trailing_zeros() as usize];
            ranked &= ranked.wrapping_sub(1);
            let [f, s] = self.plan.eight_order[usize::from(free & !(1 << index))];
            SevenOption {
                offsets: [index, f, s].map(|i| offsets[usize::from(i)]),
                places: [index, f, s].map(|i| {
                    let (row, column) = box_line(b, i);
                    (row as u8, column as u8)
                }),
                row: index / 3,
                column: index % 3,
                row_code: 3 * (f / 3) + s / 3,
                column_code: 3 * (f % 3) + s % 3,
            }
        })
    }

    /// The ways to place the 7s in `band`, in the walk's order; with `first_only`, only those with
    /// the first option of the band's first box.
    fn band_choices(&self, band: usize, first_only: bool) -> ([BandChoice; 27], usize) {
        let mut choices = [BandChoice::default(); 27];
        let mut count = 0;
        let options = [0, 1, 2].map(|i| self.seven_options(3 * band + i));
        let firsts = if first_only { 1 } else { 3 };
        for x in &options[0][..firsts] {
            for y in options[1].iter().filter(|y| y.row != x.row) {
                for z in options[2]
                    .iter()
                    .filter(|z| z.row != x.row && z.row != y.row)
                {
                    let row_index = 81 * usize::from(x.row_code)
                        + 9 * usize::from(y.row_code)
                        + usize::from(z.row_code);
                    // A band's rows and boxes alone always leave room: each cell is tied to one
                    // row partner and one box partner, so the ties form even cycles.
                    let allowed = ALLOWED[row_index];
                    debug_assert!(allowed != 0);
                    choices[count] = BandChoice {
                        offsets: [x.offsets, y.offsets, z.offsets],
                        places: [x.places, y.places, z.places],
                        column_codes: [x.column_code, y.column_code, z.column_code],
                        allowed,
                        columns: 1 << x.column | 1 << (3 + y.column) | 1 << (6 + z.column),
                    };
                    count += 1;
                }
            }
        }
        (choices, count)
    }

    /// Places the 7s band by band (the bands' columns must not meet), then the 8s and 9s; returns
    /// `true` once the leaves are full.
    ///
    /// Relabelling 6, 7, 8 and 9 maps the ways to complete a grid whose 1s to 5s are placed onto each
    /// other, 24 at a time. Only the one of each 24 whose box 0 has its 6, 7 and 8 in the first cell
    /// each digit tries is searched (`place` takes only the first option for the 6 of box 0); the
    /// other 23 are relabellings of it.
    fn place_sevens(&mut self) -> bool {
        let (top, top_count) = self.band_choices(0, true);
        let (middle, middle_count) = self.band_choices(1, false);
        let (bottom, bottom_count) = self.band_choices(2, false);
        // The upper two bands leave the bottom one exactly one column a stack, so its choices are
        // sorted by the columns they take (a counting sort, which keeps the walk's order).
        let mut starts = [0u8; 28];
        for l in &bottom[..bottom_count] {
            starts[column_code(l.columns) + 1] += 1;
        }
        for code in 0..27 {
            starts[code + 1] += starts[code];
        }
        let mut by_columns = [0u8; 27];
        let mut next = starts;
        for (i, l) in bottom[..bottom_count].iter().enumerate() {
            let slot = &mut next[column_code(l.columns)];
            by_columns[usize::from(*slot)] = i as u8;
            *slot += 1;
        }
        for t in &top[..top_count] {
            for m in middle[..middle_count]
                .iter()
                .filter(|m| m.columns & t.columns == 0)
            {
                let code = column_code(!(t.columns | m.columns) & 0x1ff);
                let fitting = &by_columns[usize::from(starts[code])..usize::from(starts[code + 1])];
                for &l in fitting {
                    if self.place_eights_and_nines([t, m, &bottom[usize::from(l)]]) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Hands the leaves every grid that completes the current one with the 7s of `bands` and its
    /// first box unswapped (see [`ALLOWED`]), each standing for its 24 relabellings of 6, 7, 8 and
    /// 9. The 8/9 patterns are those that every band and stack allow, in the walk's order (box 0's
    /// pattern bit most significant). Returns `true` once the leaves are full.
    fn place_eights_and_nines(&mut self, bands: [&BandChoice; 3]) -> bool {
        let stacks = [0, 1, 2].map(|j| {
            let codes = bands.map(|band| usize::from(band.column_codes[j]));
            &STACK_SETS[j][usize::from(ALLOWED[81 * codes[0] + 9 * codes[1] + codes[2]])]
        });
        let at = |(row, column): (u8, u8)| (usize::from(row), usize::from(column));
        if L::READS_LINES {
            for [seven, _, _] in bands.iter().flat_map(|band| band.places) {
                self.lines.place(6, at(seven));
            }
        }
        let lower = BYTE_MASKS[usize::from(bands[1].allowed)]
            & (u64::from(bands[2].allowed) * 0x0101_0101_0101_0101);
        // Box 0 unswapped: the patterns 0 to 3 of the top band.
        for v0 in 0..4 {
            if bands[0].allowed >> v0 & 1 == 0 {
                continue;
            }
            let mut patterns = lower & stacks[0][v0] & stacks[1][v0] & stacks[2][v0];
            while patterns != 0 {
                let low = patterns.trailing_zeros() as usize;
                patterns &= patterns - 1;
                let swapped = REVERSED[v0] | REVERSED[low / 8] << 3 | REVERSED[low % 8] << 6;
                // The record offsets of the 6s, 7s, 8s and 9s.
                let mut digit_cells = [self.sixes; 4];
                for b in 0..9 {
                    let [seven, first, second] = bands[b / 3].offsets[b % 3];
                    let flip = swapped >> b & 1 == 1;
                    digit_cells[1][b] = seven;
                    digit_cells[2][b] = if flip { second } else { first };
                    digit_cells[3][b] = if flip { first } else { second };
                    if L::READS_LINES {
                        let [_, first, second] = bands[b / 3].places[b % 3];
                        let (eight, nine) = if flip {
                            (second, first)
                        } else {
                            (first, second)
                        };
                        self.lines.place(7, at(eight));
                        self.lines.place(8, at(nine));
                    }
                }
                if self.leaves.take(
                    &mut self.record,
                    &digit_cells,
                    &self.plan.glyph,
                    &self.lines,
                ) {
                    return true;
                }
            }
        }
        false
    }
}

/// The row and column of cell `index` of box `b`.
fn box_line(b: usize, index: impl Into<usize>) -> (usize, usize) {
    let cell = box_cell(b, index.into());
    (cell / 9, cell % 9)
}

/// A number below 27 for a set of three columns, one in each stack.
fn column_code(columns: u16) -> usize {
    let column = |stack: usize| (columns >> (3 * stack) & 7).trailing_zeros() as usize;
    9 * column(0) + 3 * column(1) + column(2)
}

/// A 3-bit pattern (position 0 the high bit) as a mask with position `i` at bit `i`.
const REVERSED: [u16; 8] = [0, 4, 2, 6, 1, 5, 3, 7];

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
    fn line_permutation_keeps_bands_and_line_zero() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..100 {
            let map = line_permutation(&mut rng);
            assert_eq!(map[0], 0);
            let mut seen = [false; 9];
            for line in 0..9 {
                seen[map[line]] = true;
                assert_eq!(
                    map[line] / 3,
                    map[3 * (line / 3)] / 3,
                    "a band stays together"
                );
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    /// The cells of a start's digits, by digit, as grid cells.
    fn start_cells(start: &Start) -> Vec<Vec<usize>> {
        (1..=start.last_digit)
            .map(|digit| {
                let boxes = if digit == start.last_digit {
                    start.boxes
                } else {
                    9
                };
                (0..boxes)
                    .map(|b| box_cell(b, usize::from(start.cells[digit - 1][b])))
                    .collect()
            })
            .collect()
    }

    /// Whether a start's digits share no cell, row or column, and the 1 of box 0 is at cell 0.
    fn is_valid_start(start: &Start) -> bool {
        let cells = start_cells(start);
        let all: std::collections::HashSet<usize> = cells.iter().flatten().copied().collect();
        let lines_apart = cells.iter().all(|digit| {
            let rows: std::collections::HashSet<usize> = digit.iter().map(|c| c / 9).collect();
            let columns: std::collections::HashSet<usize> = digit.iter().map(|c| c % 9).collect();
            rows.len() == digit.len() && columns.len() == digit.len()
        });
        cells[0][0] == 0 && lines_apart && all.len() == cells.iter().map(Vec::len).sum::<usize>()
    }

    #[test]
    fn parts_start_with_valid_ones() {
        let mut starts = std::collections::HashSet::new();
        for part in 0..PARTS {
            let start = Start::part(part);
            assert!(is_valid_start(&start));
            assert!(starts.insert(start_cells(&start)));
        }
    }

    #[test]
    fn placements_are_counted_right() {
        let mut box0_first = [0x1ff; 9];
        box0_first[0] = 1;
        assert!(nth_placement(box0_first, ONES - 1).is_some());
        assert_eq!(nth_placement(box0_first, ONES), None);
        for ones in [0, 1, 2_000, ONES - 1] {
            let ones = nth_placement(box0_first, ones).unwrap();
            let left = ones.map(|i| 0x1ff & !(1 << i));
            assert!(nth_placement(left, TWOS - 1).is_some());
            assert_eq!(nth_placement(left, TWOS), None);
        }
        // Every shard's last part still has a subtree.
        let last = Shard::new(
            crate::model::shard::MAX_SHARDS,
            crate::model::shard::MAX_SHARDS,
        )
        .unwrap();
        assert!(last.piece(PARTS as u64 - 1) < ONES * TWOS);
    }

    #[test]
    fn subtrees_are_distinct_valid_starts() {
        let mut starts = std::collections::HashSet::new();
        let spread = (0..ONES * TWOS).step_by(999_983);
        let edges = [ONES - 1, ONES, ONES + 1, ONES * TWOS - 1];
        for subtree in (1..300).chain(spread).chain(edges) {
            let start = Start::subtree(subtree);
            assert!(is_valid_start(&start), "{subtree}");
            assert!(starts.insert(start_cells(&start)), "{subtree}");
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
