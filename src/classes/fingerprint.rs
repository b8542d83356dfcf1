//! A class invariant of complete grids: a 64-bit value that equivalent grids share and inequivalent
//! ones almost never do, in a fraction of a microsecond.
//!
//! # What it counts
//! For two digits `d` and `e`, the cell of `e` in the row of each `d` defines a permutation of the
//! columns: the column of `d` in a row goes to the column of `e` in that row. Its cycles are the
//! cycles of cells that alternate `d` and `e` along rows and columns, so its cycle type survives
//! reordering rows or columns, relabelling (which only renames the pair) and transposing (which
//! walks the same cycles the other way round). With it go two counts: the rows in which `d` and `e`
//! share a box, and the columns in which they do; transposing swaps the two counts of every pair at
//! once. The fingerprint adds up a random 64-bit value per pair for `(cycle type, row count, column
//! count)` over the 36 pairs, does the same with the counts swapped, and hashes the two sums in
//! sorted order (`BENCHMARKS.md` has how rarely inequivalent grids share one).
//!
//! # Representation
//! [`DigitLines`]: per digit, the column it takes in each row, the row it takes in each column and
//! the row it takes in each box, 16 bytes each (9 used), so that composing two is one byte shuffle
//! (`pshufb`) and a pair's cycle type is read off its second, third and fourth powers. A walk that
//! places digits one at a time keeps a `DigitLines` up to date with three byte writes a cell, so
//! its leaves are keyed without reading their text. [`Terms`] keeps the 36 pairs' values, so that a
//! grid that differs from another by a swap of two digits recomputes only the 15 pairs that hold
//! either. The same tables tell where two digits can swap and leave the grid valid
//! ([`DigitLines::swappable_off_row_0`]): the pieces of their cells joined by rows, columns and
//! boxes, found by letting each row take the lowest row among its partners, all rows at once in
//! one register.
//!
//! ```text
//!   columns[d]        byte:  0 .. 8                        9 .. 15
//!                            column of digit d+1 in row 0..8   0
//!   rows[d]                  row of d+1 in column 0..8         0
//!   rows_by_box[d]           row of d+1 in box 0..8            0
//!
//!   AVX2 register     bytes 0 .. 15: a line of one pair   bytes 16 .. 31: the same line of another
//! ```
//!
//! The padding is 0, so that a shuffle by a line reads byte 0 in its padding lanes, whose results
//! are left out.

use std::hash::BuildHasher;

use foldhash::fast::FixedState;

#[cfg(target_arch = "x86_64")]
use crate::classes::simd::Avx2;
use crate::model::grid::{CELLS, Grid};

/// Where each digit lies, line by line (see the module comment). Bytes 9 to 15 of each line are 0.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct DigitLines {
    /// Per digit (0 for the digit 1): its column in each row.
    columns: [[u8; 16]; 9],
    /// Per digit: its row in each column.
    rows: [[u8; 16]; 9],
    /// Per digit: its row in each box.
    rows_by_box: [[u8; 16]; 9],
}

impl DigitLines {
    /// The lines of a valid complete grid, given as its digits.
    pub(crate) fn of_cells(cells: &[u8; CELLS]) -> DigitLines {
        let mut lines = DigitLines::default();
        for (cell, &digit) in cells.iter().enumerate() {
            lines.place(usize::from(digit) - 1, (cell / 9, cell % 9));
        }
        lines
    }

    /// Puts digit `digit + 1` at `row` and `column`.
    #[inline(always)]
    pub(crate) fn place(&mut self, digit: usize, (row, column): (usize, usize)) {
        self.columns[digit][row] = column as u8;
        self.rows[digit][column] = row as u8;
        self.rows_by_box[digit][row / 3 * 3 + column / 3] = row as u8;
    }

    /// The sets of cells of digits `d + 1` and `e + 1` that can swap digits and leave the grid
    /// valid, apart from the one that holds row 0: the pieces of their 18 cells, joined when they
    /// share a row, a column or a box. Each piece holds both digits' cells in each of its rows, so
    /// it is given as its rows (bit `r` for row `r`), in the order of their lowest rows.
    pub(crate) fn swappable_off_row_0(&self, d: usize, e: usize) -> impl Iterator<Item = u16> {
        let lowest = self.lowest_rows_of_pieces(d, e);
        (1..9)
            .filter(move |&row| usize::from(lowest[row]) == row)
            .map(move |first| {
                (0..9)
                    .filter(|&row| usize::from(lowest[row]) == first)
                    .fold(0, |rows, row| rows | 1 << row)
            })
    }

    /// Per row (bytes 0 to 8), the lowest row of its piece of digits `d + 1` and `e + 1` (see
    /// [`Self::swappable_off_row_0`]): each row takes the lowest of its own and its partners'
    /// until none changes, the partners of a row being the rows of the other digit in the column
    /// and in the box of each digit of the row.
    fn lowest_rows_of_pieces(&self, d: usize, e: usize) -> [u8; 16] {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = Avx2::detect() {
            // SAFETY: `avx2` proves that the processor has AVX2.
            return unsafe { self.lowest_rows_of_pieces_avx2(d, e, avx2) };
        }
        self.lowest_rows_of_pieces_plain(d, e)
    }

    /// [`Self::lowest_rows_of_pieces`] row by row.
    fn lowest_rows_of_pieces_plain(&self, d: usize, e: usize) -> [u8; 16] {
        let column = |digit: usize, row: usize| usize::from(self.columns[digit][row] & 15);
        let row_of = |digit: usize, column: usize| self.rows[digit][column];
        let row_in_box = |digit: usize, row: usize, column: usize| {
            self.rows_by_box[digit][(row / 3 * 3 + column / 3) % 9]
        };
        let partners: [[u8; 4]; 9] = std::array::from_fn(|row| {
            let (column_d, column_e) = (column(d, row), column(e, row));
            [
                row_of(d, column_e),
                row_of(e, column_d),
                row_in_box(d, row, column_e),
                row_in_box(e, row, column_d),
            ]
        });
        let mut lowest: [u8; 16] = std::array::from_fn(|row| row as u8);
        loop {
            let lower: [u8; 16] = std::array::from_fn(|row| {
                partners.get(row).map_or(lowest[row], |partners| {
                    partners
                        .iter()
                        .fold(lowest[row], |low, &p| low.min(lowest[usize::from(p & 15)]))
                })
            });
            if lower == lowest {
                return lowest;
            }
            lowest = lower;
        }
    }

    /// [`Self::lowest_rows_of_pieces`] with byte shuffles, all rows at once (bytes 9 to 15 of the
    /// result are not the plain version's).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn lowest_rows_of_pieces_avx2(&self, d: usize, e: usize, _: Avx2) -> [u8; 16] {
        use std::arch::x86_64::*;
        // SAFETY: every line is 16 bytes, read unaligned.
        let load = |line: &[u8; 16]| unsafe { _mm_loadu_si128(line.as_ptr().cast()) };
        let (columns_d, columns_e) = (load(&self.columns[d]), load(&self.columns[e]));
        // SAFETY: both tables are 16 bytes, read unaligned.
        let (identity, thirds) = unsafe {
            (
                _mm_loadu_si128(IDENTITY.as_ptr().cast()),
                _mm_loadu_si128(THIRDS.as_ptr().cast()),
            )
        };
        let band_starts = _mm_setr_epi8(0, 0, 0, 3, 3, 3, 6, 6, 6, 0, 0, 0, 0, 0, 0, 0);
        let box_of = |columns| _mm_add_epi8(band_starts, _mm_shuffle_epi8(thirds, columns));
        let partners = [
            _mm_shuffle_epi8(load(&self.rows[d]), columns_e),
            _mm_shuffle_epi8(load(&self.rows[e]), columns_d),
            _mm_shuffle_epi8(load(&self.rows_by_box[d]), box_of(columns_e)),
            _mm_shuffle_epi8(load(&self.rows_by_box[e]), box_of(columns_d)),
        ];
        let mut lowest = identity;
        loop {
            let through = |p| _mm_shuffle_epi8(lowest, p);
            let lower = _mm_min_epu8(
                _mm_min_epu8(lowest, through(partners[0])),
                _mm_min_epu8(
                    through(partners[1]),
                    _mm_min_epu8(through(partners[2]), through(partners[3])),
                ),
            );
            if _mm_movemask_epi8(_mm_cmpeq_epi8(lower, lowest)) == 0xffff {
                let mut bytes = [0u8; 16];
                // SAFETY: `bytes` is 16 bytes, written unaligned.
                unsafe { _mm_storeu_si128(bytes.as_mut_ptr().cast(), lowest) };
                return bytes;
            }
            lowest = lower;
        }
    }

    /// Swaps digits `d + 1` and `e + 1` in the rows of `rows` (a set of rows that holds whole
    /// pieces of the two, see [`Self::swappable_off_row_0`]), telling `moved` each cell and the
    /// digit now in it.
    pub(crate) fn swap(
        &mut self,
        (d, e): (usize, usize),
        rows: u16,
        mut moved: impl FnMut(usize, usize, usize),
    ) {
        for row in (0..9).filter(|&row| rows >> row & 1 == 1) {
            let (column_d, column_e) = (self.columns[d][row], self.columns[e][row]);
            self.place(d, (row, usize::from(column_e)));
            self.place(e, (row, usize::from(column_d)));
            moved(row, usize::from(column_e), d);
            moved(row, usize::from(column_d), e);
        }
    }
}

/// The fingerprint of a valid complete grid; `None` for anything else.
pub(crate) fn of_grid(grid: &Grid) -> Option<u64> {
    (grid.is_filled() && grid.first_repeat().is_none())
        .then(|| of_lines(&DigitLines::of_cells(grid.cells())))
}

/// The fingerprint of the grid of `lines` (see the module comment).
fn of_lines(lines: &DigitLines) -> u64 {
    Terms::of(lines).fingerprint()
}

/// The fingerprint's terms: per pair of digits (numbered as in [`PAIRS`]), its value, and its
/// value with the two counts swapped. Kept so that a grid that differs from another in two digits
/// only recomputes the 15 pairs that hold either.
#[derive(Clone, Copy)]
pub(crate) struct Terms {
    straight: [u64; 36],
    swapped: [u64; 36],
}

impl Terms {
    /// The terms of the grid of `lines`.
    pub(crate) fn of(lines: &DigitLines) -> Terms {
        let mut terms = Terms {
            straight: [0; 36],
            swapped: [0; 36],
        };
        for_each_term(lines, &ALL_PAIRS, |k, (straight, swapped)| {
            terms.straight[k] = straight;
            terms.swapped[k] = swapped;
        });
        terms
    }

    /// The fingerprint of the grid of `lines`, which is the grid of `self` with digits `d + 1` and
    /// `e + 1` swapped in some cells.
    pub(crate) fn fingerprint_after_swap(&self, lines: &DigitLines, (d, e): (usize, usize)) -> u64 {
        debug_assert!(d < e, "pairs are numbered with the smaller digit first");
        let (mut straight, mut swapped) = self.sums();
        for_each_term(
            lines,
            &TOUCHING[pair_number(d, e)],
            |k, (new_straight, new_swapped)| {
                straight = straight.wrapping_add(new_straight.wrapping_sub(self.straight[k]));
                swapped = swapped.wrapping_add(new_swapped.wrapping_sub(self.swapped[k]));
            },
        );
        hash_sums(straight, swapped)
    }

    /// The fingerprint (see the module comment).
    pub(crate) fn fingerprint(&self) -> u64 {
        let (straight, swapped) = self.sums();
        hash_sums(straight, swapped)
    }

    fn sums(&self) -> (u64, u64) {
        let sum = |terms: &[u64; 36]| terms.iter().fold(0u64, |sum, &t| sum.wrapping_add(t));
        (sum(&self.straight), sum(&self.swapped))
    }
}

/// The fingerprint from the sums of the terms: transposing swaps the two, so they are taken in
/// sorted order.
fn hash_sums(straight: u64, swapped: u64) -> u64 {
    FixedState::with_seed(0xf1e6).hash_one((straight.min(swapped), straight.max(swapped)))
}

/// Hands `term` the number and the terms (straight, swapped) of each pair of `groups` (numbers, two
/// at a time; [`NO_PAIR`] for none) in the grid of `lines`.
fn for_each_term(lines: &DigitLines, groups: &[[u8; 2]], term: impl FnMut(usize, (u64, u64))) {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = Avx2::detect() {
        // SAFETY: `avx2` proves that the processor has AVX2.
        return unsafe { for_each_term_with_avx2(lines, groups, term, avx2) };
    }
    for_each_term_plain(lines, groups, term);
}

/// [`for_each_term`] one pair at a time.
fn for_each_term_plain(
    lines: &DigitLines,
    groups: &[[u8; 2]],
    mut term: impl FnMut(usize, (u64, u64)),
) {
    for group in groups {
        let numbers = group.map(usize::from);
        let traits = numbers.map(|k| pair_traits(lines, PAIRS[k % 36]));
        hand_terms(numbers, traits, &mut term);
    }
}

/// [`for_each_term`] with two pairs at a time in one AVX2 register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn for_each_term_with_avx2(
    lines: &DigitLines,
    groups: &[[u8; 2]],
    mut term: impl FnMut(usize, (u64, u64)),
    avx2: Avx2,
) {
    for group in groups {
        // Written out rather than mapped (see `pair_traits_avx2`).
        let numbers = [usize::from(group[0]), usize::from(group[1])];
        let pairs = [PAIRS[numbers[0] % 36], PAIRS[numbers[1] % 36]];
        let traits = pair_traits_avx2(lines, pairs, avx2);
        hand_terms(numbers, traits, &mut term);
    }
}

/// Hands `term` the terms of the pairs numbered `numbers` that have the traits `traits`, leaving
/// out [`NO_PAIR`].
#[inline(always)]
fn hand_terms(
    numbers: [usize; 2],
    traits: [PairTraits; 2],
    term: &mut impl FnMut(usize, (u64, u64)),
) {
    for (k, traits) in numbers.into_iter().zip(traits) {
        if k < 36 {
            let cycle_type = usize::from(CYCLE_TYPES[traits.cycle_code % CYCLE_CODES]);
            let (r, c) = (traits.rows_sharing_a_box, traits.columns_sharing_a_box);
            let values = &PAIR_VALUES[cycle_type % 8];
            term(k, (values[(16 * r + c) % 256], values[(16 * c + r) % 256]));
        }
    }
}

/// The 36 pairs of digits `(d, e)`, `d < e`, in order.
const PAIRS: [(usize, usize); 36] = {
    let mut pairs = [(0, 0); 36];
    let mut k = 0;
    let mut d = 0;
    while d < 9 {
        let mut e = d + 1;
        while e < 9 {
            pairs[k] = (d, e);
            k += 1;
            e += 1;
        }
        d += 1;
    }
    pairs
};

/// The number of the pair `(d, e)`, `d < e`, in [`PAIRS`].
const fn pair_number(d: usize, e: usize) -> usize {
    // The pairs before `(d, 0)` number 8 + 7 + ... down to `9 - d`.
    d * (17 - d) / 2 + e - d - 1
}

/// The numbers of all 36 pairs, two at a time.
const ALL_PAIRS: [[u8; 2]; 18] = {
    let mut groups = [[0; 2]; 18];
    let mut k = 0;
    while k < 36 {
        groups[k / 2][k % 2] = k as u8;
        k += 1;
    }
    groups
};

/// A pair number that stands for no pair (see [`for_each_term`]).
const NO_PAIR: u8 = 36;

/// Per pair `(d, e)`, the numbers of the 15 pairs that hold `d` or `e`, two at a time (and
/// [`NO_PAIR`] last).
const TOUCHING: [[[u8; 2]; 8]; 36] = {
    let mut table = [[[0; 2]; 8]; 36];
    let mut p = 0;
    while p < 36 {
        let (d, e) = PAIRS[p];
        let mut found = 0;
        let mut k = 0;
        while k < 36 {
            let (a, b) = PAIRS[k];
            if a == d || a == e || b == d || b == e {
                table[p][found / 2][found % 2] = k as u8;
                found += 1;
            }
            k += 1;
        }
        table[p][7][1] = NO_PAIR;
        p += 1;
    }
    table
};

/// What one pair of digits contributes (see [`pair_traits`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct PairTraits {
    /// See [`pair_traits`].
    cycle_code: usize,
    /// The rows in which the two digits share a box.
    rows_sharing_a_box: usize,
    /// The columns in which they do.
    columns_sharing_a_box: usize,
}

/// A random value per cycle type and pair of counts `16 * r + c` (both counts are at most 9), from
/// a fixed seed (splitmix64).
static PAIR_VALUES: [[u64; 256]; 8] = {
    let mut table = [[0; 256]; 8];
    let mut state: u64 = 0x5eed_f1e6_0000_0001;
    let mut k = 0;
    while k < 8 * 256 {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        table[k / 256][k % 256] = z ^ (z >> 31);
        k += 1;
    }
    table
};

/// Byte `i` is `i`: a shuffle by it changes nothing, and a row read through it is its own number.
const IDENTITY: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// Byte `i` is `i / 3`: the stack of a column, or the band of a row.
const THIRDS: [u8; 16] = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5];

/// Cycle codes are below this (see [`pair_traits`]); a power of two, so that reducing an index
/// to it is a mask.
const CYCLE_CODES: usize = 1024;

/// The cycle types of permutations of nine things that move every one, numbered 0 to 7, by the
/// cycle code (see [`pair_traits`]); the other entries are never read.
static CYCLE_TYPES: [u8; CYCLE_CODES] = {
    // The things brought back after 2, 3 and 4 steps by the types 9, 7+2, 6+3, 5+4, 5+2+2, 4+3+2,
    // 3+3+3 and 3+2+2+2.
    let back = [
        (0, 0, 0),
        (2, 0, 2),
        (0, 3, 0),
        (0, 0, 4),
        (4, 0, 4),
        (2, 3, 6),
        (0, 9, 0),
        (6, 3, 6),
    ];
    let mut table = [0; CYCLE_CODES];
    let mut cycle_type = 0;
    while cycle_type < back.len() {
        let (two, three, four) = back[cycle_type];
        table[two + 8 * four + 64 * three] = cycle_type as u8;
        cycle_type += 1;
    }
    table
};

/// The traits of the pair of digits `(d, e)`. Its permutation takes the column of `d` in each row
/// to the column of `e` in that row; the cycle code is `f2 + 8 * f4 + 64 * f3`, where `fk` counts
/// the columns brought back after `k` steps. Two digits of a valid grid never share a cell, so the
/// permutation moves every column, and for such permutations of nine things the three counts tell
/// the cycle type.
fn pair_traits(lines: &DigitLines, (d, e): (usize, usize)) -> PairTraits {
    let step: [u8; 16] =
        std::array::from_fn(|c| lines.columns[e][usize::from(lines.rows[d][c] & 15)]);
    let after = |f: &[u8; 16], g: &[u8; 16]| -> [u8; 16] {
        std::array::from_fn(|c| f[usize::from(g[c] & 15)])
    };
    let two = after(&step, &step);
    let three = after(&two, &step);
    let four = after(&two, &two);
    let back = |p: &[u8; 16]| (0..9).filter(|&c| usize::from(p[c]) == c).count();
    let sharing = |lines: &[[u8; 16]; 9]| {
        (0..9)
            .filter(|&k| lines[d][k] / 3 == lines[e][k] / 3)
            .count()
    };
    PairTraits {
        cycle_code: back(&two) + 8 * back(&four) + 64 * back(&three),
        rows_sharing_a_box: sharing(&lines.columns),
        columns_sharing_a_box: sharing(&lines.rows),
    }
}

/// [`pair_traits`] of two pairs, one in each half of an AVX2 register: each step is a byte shuffle,
/// which works on each half apart.
///
/// Not a `target_feature` function itself, so that it can be inlined, always, into its caller,
/// which is one: only there do the shuffles compile to single instructions.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pair_traits_avx2(
    lines: &DigitLines,
    [low, high]: [(usize, usize); 2],
    _: Avx2,
) -> [PairTraits; 2] {
    use std::arch::x86_64::*;
    // SAFETY: an `Avx2` exists only on a processor with AVX2, and the lines are read in bounds.
    unsafe {
        // Every line is 16 bytes, read unaligned.
        let load = |lines: &[[u8; 16]; 9], low: usize, high: usize| {
            _mm256_loadu2_m128i(lines[high].as_ptr().cast(), lines[low].as_ptr().cast())
        };
        let (columns_d, columns_e) = (
            load(&lines.columns, low.0, high.0),
            load(&lines.columns, low.1, high.1),
        );
        let (rows_d, rows_e) = (
            load(&lines.rows, low.0, high.0),
            load(&lines.rows, low.1, high.1),
        );
        let both_halves =
            |table: &[u8; 16]| _mm256_loadu2_m128i(table.as_ptr().cast(), table.as_ptr().cast());
        let (identity, thirds) = (both_halves(&IDENTITY), both_halves(&THIRDS));
        let line_lanes = _mm256_setr_epi8(
            -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1,
            -1, -1, 0, 0, 0, 0, 0, 0, 0,
        );
        let step = _mm256_shuffle_epi8(columns_e, rows_d);
        let two = _mm256_shuffle_epi8(step, step);
        let three = _mm256_shuffle_epi8(two, step);
        let four = _mm256_shuffle_epi8(two, two);
        let equal =
            |a, b, weight| _mm256_and_si256(_mm256_cmpeq_epi8(a, b), _mm256_set1_epi8(weight));
        let back = _mm256_or_si256(
            _mm256_or_si256(equal(two, identity, 1), equal(four, identity, 8)),
            equal(three, identity, 64),
        );
        let third = |x| _mm256_shuffle_epi8(thirds, x);
        let sharing = _mm256_or_si256(
            equal(third(columns_d), third(columns_e), 1),
            equal(third(rows_d), third(rows_e), 16),
        );
        // Each half's two 64-bit lanes are summed apart and then added, so that each half's low
        // lane reads:
        //   bits  0 .. 15   the cycle code (`back`: 1, 8, 64 a column back after 2, 4, 3 steps)
        //   bits 16 .. 19   the rows sharing a box (`sharing`: 1 a row)
        //   bits 20 .. 23   the columns sharing a box (16 a column)
        let sum = |x| _mm256_sad_epu8(_mm256_and_si256(x, line_lanes), _mm256_setzero_si256());
        let sums = _mm256_or_si256(sum(back), _mm256_slli_epi64::<16>(sum(sharing)));
        let sums = _mm256_add_epi64(sums, _mm256_shuffle_epi32::<0b1110_1110>(sums));
        // Written out rather than mapped: a closure handed to a generic function would be compiled
        // without AVX2, and called rather than inlined.
        let traits = |lanes: i64| {
            let lanes = lanes as usize;
            PairTraits {
                cycle_code: lanes & 0xffff,
                rows_sharing_a_box: lanes >> 16 & 15,
                columns_sharing_a_box: lanes >> 20 & 15,
            }
        };
        [
            traits(_mm256_extract_epi64::<0>(sums)),
            traits(_mm256_extract_epi64::<2>(sums)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::standard::walk::{GridRequest, generate_grids};

    fn some_grids() -> Vec<Grid> {
        let request = GridRequest {
            count: 480,
            seed: 3,
            first: None,
            shard: None,
        };
        generate_grids(&request).expect("grids")
    }

    /// The digits of the grid of `lines`.
    fn cells_of(lines: &DigitLines) -> [u8; CELLS] {
        let mut cells = [0; CELLS];
        for (digit, columns) in lines.columns.iter().enumerate() {
            for (row, &column) in columns[..9].iter().enumerate() {
                cells[9 * row + usize::from(column)] = digit as u8 + 1;
            }
        }
        cells
    }

    /// The pieces of the cells of digits `d + 1` and `e + 1` off row 0 (see
    /// [`DigitLines::swappable_off_row_0`]), by a plain search over the 18 cells.
    fn pieces_by_search(cells: &[u8; CELLS], (d, e): (usize, usize)) -> Vec<u16> {
        let pair_cells: Vec<usize> = (0..CELLS)
            .filter(|&c| [d + 1, e + 1].contains(&usize::from(cells[c])))
            .collect();
        let meet = |a: usize, b: usize| {
            a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3)
        };
        let mut piece_of = vec![usize::MAX; CELLS];
        let mut pieces: Vec<u16> = Vec::new();
        for &start in &pair_cells {
            if piece_of[start] != usize::MAX {
                continue;
            }
            let (mut stack, mut rows) = (vec![start], 0u16);
            piece_of[start] = pieces.len();
            while let Some(cell) = stack.pop() {
                rows |= 1 << (cell / 9);
                for &other in &pair_cells {
                    if piece_of[other] == usize::MAX && meet(cell, other) {
                        piece_of[other] = pieces.len();
                        stack.push(other);
                    }
                }
            }
            pieces.push(rows);
        }
        pieces.retain(|rows| rows & 1 == 0);
        pieces.sort_by_key(|rows| rows.trailing_zeros());
        pieces
    }

    #[test]
    fn tables_agree() {
        let mut values: Vec<u64> = PAIR_VALUES.iter().flatten().copied().collect();
        values.sort_unstable();
        values.dedup();
        assert_eq!(values.len(), 8 * 256);
        for (k, &(d, e)) in PAIRS.iter().enumerate() {
            assert_eq!(pair_number(d, e), k);
            let mut touching: Vec<usize> = TOUCHING[k]
                .as_flattened()
                .iter()
                .map(|&t| usize::from(t))
                .collect();
            assert_eq!(touching.pop(), Some(usize::from(NO_PAIR)));
            touching.sort_unstable();
            touching.dedup();
            assert_eq!(touching.len(), 15);
            assert!(
                touching
                    .iter()
                    .all(|&t| [PAIRS[t].0, PAIRS[t].1].iter().any(|x| *x == d || *x == e))
            );
        }
    }

    #[test]
    fn plain_and_shuffled_traits_agree_and_add_up() {
        let mut cycle_types = std::collections::HashSet::new();
        for grid in some_grids() {
            let lines = DigitLines::of_cells(grid.cells());
            let traits = PAIRS.map(|pair| pair_traits(&lines, pair));
            #[cfg(target_arch = "x86_64")]
            if let Some(avx2) = Avx2::detect() {
                for group in ALL_PAIRS {
                    let numbers = group.map(usize::from);
                    let shuffled = pair_traits_avx2(&lines, numbers.map(|k| PAIRS[k]), avx2);
                    assert_eq!(shuffled, numbers.map(|k| traits[k]));
                }
            }
            // In each row a digit shares its box with two others, and so in each column.
            for d in 0..9 {
                let with_d = PAIRS
                    .iter()
                    .zip(&traits)
                    .filter(|((a, b), _)| *a == d || *b == d);
                let (rows, columns) = with_d.fold((0, 0), |(r, c), (_, t)| {
                    (r + t.rows_sharing_a_box, c + t.columns_sharing_a_box)
                });
                assert_eq!((rows, columns), (18, 18));
            }
            cycle_types.extend(
                traits
                    .iter()
                    .map(|t| CYCLE_TYPES[t.cycle_code % CYCLE_CODES]),
            );
            let mut plain = Terms {
                straight: [0; 36],
                swapped: [0; 36],
            };
            for_each_term_plain(&lines, &ALL_PAIRS, |k, (straight, swapped)| {
                plain.straight[k] = straight;
                plain.swapped[k] = swapped;
            });
            let terms = Terms::of(&lines);
            assert_eq!(
                (terms.straight, terms.swapped),
                (plain.straight, plain.swapped)
            );
            assert_eq!(of_lines(&lines), plain.fingerprint());
        }
        assert_eq!(cycle_types.len(), 8, "every cycle type met");
    }

    #[test]
    fn shuffled_and_plain_pieces_agree() {
        let mut pieces = 0;
        for grid in some_grids() {
            let lines = DigitLines::of_cells(grid.cells());
            for &(d, e) in &PAIRS {
                let found: Vec<u16> = lines.swappable_off_row_0(d, e).collect();
                #[cfg(target_arch = "x86_64")]
                if let Some(avx2) = Avx2::detect() {
                    // SAFETY: `avx2` proves that the processor has AVX2.
                    let shuffled = unsafe { lines.lowest_rows_of_pieces_avx2(d, e, avx2) };
                    let plain_lowest = lines.lowest_rows_of_pieces_plain(d, e);
                    assert_eq!(shuffled[..9], plain_lowest[..9]);
                }
                pieces += found.len();
            }
        }
        assert!(pieces > 100, "{pieces}");
    }

    #[test]
    fn swapping_a_piece_keeps_the_grid_valid_and_its_first_row() {
        let mut swaps = 0;
        for grid in some_grids().iter().step_by(24) {
            let lines = DigitLines::of_cells(grid.cells());
            assert_eq!(cells_of(&lines), *grid.cells());
            let terms = Terms::of(&lines);
            for &pair in &PAIRS {
                let pieces: Vec<u16> = lines.swappable_off_row_0(pair.0, pair.1).collect();
                assert_eq!(pieces, pieces_by_search(grid.cells(), pair));
                for rows in pieces {
                    assert_eq!(rows & 1, 0);
                    let mut swapped = lines;
                    let mut cells = *grid.cells();
                    swapped.swap(pair, rows, |row, column, digit| {
                        cells[9 * row + column] = digit as u8 + 1;
                    });
                    assert_eq!(swapped, DigitLines::of_cells(&cells));
                    let mut back = swapped;
                    back.swap(pair, rows, |_, _, _| ());
                    assert_eq!(back, lines);
                    let swapped_grid = Grid::from_cells(cells).expect("digits");
                    assert!(swapped_grid.first_repeat().is_none());
                    assert_ne!(swapped_grid, *grid);
                    assert_eq!(cells[..9], grid.cells()[..9]);
                    assert_eq!(
                        terms.fingerprint_after_swap(&swapped, pair),
                        of_lines(&swapped)
                    );
                    swaps += 1;
                }
            }
        }
        assert!(swaps > 20, "{swaps}");
    }
}
