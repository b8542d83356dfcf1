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
//! sorted order. On a million pairwise inequivalent grids, 21 share a fingerprint with an earlier
//! one.
//!
//! # Representation
//! [`DigitLines`]: per digit, the column it takes in each row and the row it takes in each column,
//! 16 bytes each (9 used), so that composing the two is one byte shuffle (`pshufb`) and a pair's
//! cycle type is read off its second, third and fourth powers. A walk that places digits one at a
//! time keeps a `DigitLines` up to date with two byte writes a cell, so its leaves are keyed without
//! reading their text.

use std::hash::BuildHasher;

use foldhash::fast::FixedState;

use crate::grid::{CELLS, Grid};

/// Where each digit lies, line by line (see the module comment). Bytes 9 to 15 of each line are 0.
#[derive(Clone, Copy, Default)]
pub(crate) struct DigitLines {
    /// Per digit (0 for the digit 1): its column in each row.
    columns: [[u8; 16]; 9],
    /// Per digit: its row in each column.
    rows: [[u8; 16]; 9],
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
    }
}

/// The fingerprint of a valid complete grid; `None` for anything else.
pub(crate) fn of_grid(grid: &Grid) -> Option<u64> {
    (grid.is_filled() && grid.first_repeat().is_none())
        .then(|| of_lines(&DigitLines::of_cells(grid.cells())))
}

/// The fingerprint of the grid of `lines` (see the module comment).
pub(crate) fn of_lines(lines: &DigitLines) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2.
        return unsafe { fingerprint_with_avx2(lines) };
    }
    fingerprint_by(|pairs| pairs.map(|pair| pair_traits(lines, pair)))
}

/// [`of_lines`] with two pairs of digits at a time in one AVX2 register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn fingerprint_with_avx2(lines: &DigitLines) -> u64 {
    fingerprint_by(|pairs| {
        // SAFETY: this closure runs only inside `fingerprint_with_avx2`, on a processor with AVX2.
        unsafe { pair_traits_avx2(lines, pairs) }
    })
}

/// The 36 pairs of digits `(d, e)`, `d < e`, two by two.
const PAIRS: [[(usize, usize); 2]; 18] = {
    let mut pairs = [[(0, 0); 2]; 18];
    let mut k = 0;
    let mut d = 0;
    while d < 9 {
        let mut e = d + 1;
        while e < 9 {
            pairs[k / 2][k % 2] = (d, e);
            k += 1;
            e += 1;
        }
        d += 1;
    }
    pairs
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

/// The fingerprint, with `traits_of` telling the traits of two pairs of digits at a time.
#[inline(always)]
fn fingerprint_by(traits_of: impl Fn([(usize, usize); 2]) -> [PairTraits; 2]) -> u64 {
    let (mut straight, mut swapped) = (0u64, 0u64);
    for pairs in PAIRS {
        for traits in traits_of(pairs) {
            let cycle_type = usize::from(CYCLE_TYPES[traits.cycle_code % CYCLE_CODES]);
            let (r, c) = (traits.rows_sharing_a_box, traits.columns_sharing_a_box);
            let values = &PAIR_VALUES[cycle_type % 8];
            straight = straight.wrapping_add(values[(16 * r + c) % 256]);
            swapped = swapped.wrapping_add(values[(16 * c + r) % 256]);
        }
    }
    FixedState::with_seed(0xf1e6).hash_one((straight.min(swapped), straight.max(swapped)))
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
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn pair_traits_avx2(
    lines: &DigitLines,
    [low, high]: [(usize, usize); 2],
) -> [PairTraits; 2] {
    use std::arch::x86_64::*;
    // SAFETY: every line is 16 bytes, read unaligned.
    let load = |lines: &[[u8; 16]; 9], low: usize, high: usize| unsafe {
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
    let identity = _mm256_setr_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
        12, 13, 14, 15,
    );
    let thirds = _mm256_setr_epi8(
        0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4,
        4, 5,
    );
    let line_lanes = _mm256_setr_epi8(
        -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, 0, 0, 0, 0, 0, 0, 0,
    );
    let step = _mm256_shuffle_epi8(columns_e, rows_d);
    let two = _mm256_shuffle_epi8(step, step);
    let three = _mm256_shuffle_epi8(two, step);
    let four = _mm256_shuffle_epi8(two, two);
    let equal = |a, b, weight| _mm256_and_si256(_mm256_cmpeq_epi8(a, b), _mm256_set1_epi8(weight));
    let back = _mm256_or_si256(
        _mm256_or_si256(equal(two, identity, 1), equal(four, identity, 8)),
        equal(three, identity, 64),
    );
    let third = |x| _mm256_shuffle_epi8(thirds, x);
    let sharing = _mm256_or_si256(
        equal(third(columns_d), third(columns_e), 1),
        equal(third(rows_d), third(rows_e), 16),
    );
    // Each sum lands in the low 16 bits of a 64-bit lane: the cycle code's in bits 0 to 15, the
    // counts' in bits 16 to 31, and the two lanes of each half added.
    let sum = |x| _mm256_sad_epu8(_mm256_and_si256(x, line_lanes), _mm256_setzero_si256());
    let sums = _mm256_or_si256(sum(back), _mm256_slli_epi64::<16>(sum(sharing)));
    let sums = _mm256_add_epi64(sums, _mm256_shuffle_epi32::<0b1110_1110>(sums));
    [
        _mm256_extract_epi64::<0>(sums),
        _mm256_extract_epi64::<2>(sums),
    ]
    .map(|lanes| {
        let lanes = lanes as usize;
        PairTraits {
            cycle_code: lanes & 0xffff,
            rows_sharing_a_box: lanes >> 16 & 15,
            columns_sharing_a_box: lanes >> 20 & 15,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{GridRequest, generate_grids};

    #[test]
    fn pair_values_differ() {
        let mut values: Vec<u64> = PAIR_VALUES.iter().flatten().copied().collect();
        values.sort_unstable();
        values.dedup();
        assert_eq!(values.len(), 8 * 256);
    }

    #[test]
    fn plain_and_shuffled_traits_agree_and_add_up() {
        let request = GridRequest {
            count: 480,
            seed: 3,
            first: None,
            shard: None,
        };
        let mut cycle_types = std::collections::HashSet::new();
        for grid in generate_grids(&request).expect("grids") {
            let lines = DigitLines::of_cells(grid.cells());
            let traits = PAIRS.map(|pairs| pairs.map(|pair| pair_traits(&lines, pair)));
            #[cfg(target_arch = "x86_64")]
            if is_x86_feature_detected!("avx2") {
                for (pairs, plain) in PAIRS.iter().zip(&traits) {
                    // SAFETY: the processor has AVX2.
                    assert_eq!(unsafe { pair_traits_avx2(&lines, *pairs) }, *plain);
                }
            }
            // In each row a digit shares its box with two others, and so in each column.
            for d in 0..9 {
                let with_d = PAIRS
                    .iter()
                    .flatten()
                    .zip(traits.iter().flatten())
                    .filter(|((a, b), _)| *a == d || *b == d);
                let (rows, columns) = with_d.fold((0, 0), |(r, c), (_, t)| {
                    (r + t.rows_sharing_a_box, c + t.columns_sharing_a_box)
                });
                assert_eq!((rows, columns), (18, 18));
            }
            cycle_types.extend(
                traits
                    .iter()
                    .flatten()
                    .map(|t| CYCLE_TYPES[t.cycle_code % CYCLE_CODES]),
            );
            let plain = fingerprint_by(|pairs| pairs.map(|pair| pair_traits(&lines, pair)));
            assert_eq!(of_lines(&lines), plain);
        }
        assert_eq!(cycle_types.len(), 8, "every cycle type met");
    }
}
