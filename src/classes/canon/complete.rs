//! The search for valid complete grids, which hardly searches.
//!
//! Whatever the arrangement, the first row reads `123456789`, so the top band's first two rows (36
//! choices with the transposition) and the column order decide the second row: the cell under
//! column `j` is the position of the column that holds, in the first row, the digit the second row
//! has under `j` (its *partner*, always in another stack, see `partners`). The counts of partners
//! between stacks leave two shapes: every stack's partners in one stack (a *pure* pair, second row
//! `456789` and three more) or two in one and one in the other (`457...`); purity belongs to the
//! whole band. Either way the smallest second row fixes the stack order up to rotation and then
//! every column but for a choice among at most six, so each pair yields at most 18 column orders to
//! compare (see `PartnerMap::pure_orders` and `RowPair::mixed_start`). The 36 partner maps are
//! built at once, by byte shuffles where the processor has them, with masks of the columns whose
//! partner lies in the next stack, of the two-cycles and of the columns the cube of the map fixes.
//! A pure pair's second row is then known per rotation from the cube alone, so only the rotations
//! with the least build their orders, which are told apart by the third row. A mixed pair's
//! smallest start, `457189`, comes from a two-cycle through the odd column of the second stack, and
//! the whole order follows from it with no search; only grids where no pair has one read every
//! pair's start. The other two bands only need sorting by their first cells, which all differ; only
//! the arrangements that tie on what was read are finished, every row labelled at once (two
//! shuffles a row) into keys that compare as the rows do, and the line is written out once, for
//! the winner.
//!
//! # Layout
//! [`CompleteSearch`] keeps, per view (plain, transposed) and row, two 16-byte tables, so that one
//! loads as a vector and indexes another by byte shuffles:
//!
//! ```text
//!   views[v][r]      byte:  0 .. 8                  9 .. 15
//!                           digit in column 0..8    0
//!   column_of[v][r]  byte:  0    1 .. 9             10 .. 15
//!                           0    column of digit    0
//! ```
//!
//! A row's padding digits (0) thus read entry 0 of a table of columns, which is 0; a digit that no
//! column holds keeps `NO_COLUMN` (bit 7), so that one OR over all the tables tells an invalid grid.
//!
//! Rows are compared as keys, first cell highest, so that comparing keys compares the rows:
//!
//! ```text
//!   row key (u64)         bits 35..32, 31..28, .., 3..0    cells 0..8, each its label less one
//!   tie key (u128)        bits 71..36                      second row's key (mixed pairs)
//!                         bits 35..0                       third row's key (pure pairs, whose
//!                                                          second rows all tie)
//!   labelled row (u128)   bytes 15, 14, .., 7              labels of cells 0..8
//!                         bytes 6..0                       0
//! ```

use crate::classes::canon::best::Best;
use crate::classes::canon::ones;
use crate::classes::canon::partners::{MixedStart, PartnerMap, RowPair};
#[cfg(target_arch = "x86_64")]
use crate::classes::simd::Ssse3;
use crate::model::grid::{CELLS, Grid, ORDERS_OF_THREE};

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

/// The search for valid complete grids, with its tables of the grid (see the module comment).
pub(super) struct CompleteSearch {
    /// Per view (plain, transposed) and row, its digits.
    views: [[[u8; 16]; 9]; 2],
    /// Per view and row, the column of each digit.
    column_of: [[[u8; 16]; 9]; 2],
}

impl CompleteSearch {
    /// No grid read yet: every digit of every table without a column.
    pub(super) const EMPTY: CompleteSearch = CompleteSearch {
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
    pub(super) fn read(&mut self, grid: &Grid) -> bool {
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
        if let Some(ssse3) = Ssse3::detect() {
            // SAFETY: `ssse3` proves that the processor has SSSE3.
            return unsafe { self.partner_maps_ssse3(ssse3) };
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
    fn partner_maps_ssse3(&self, _: Ssse3) -> [PartnerMap; 36] {
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
    pub(super) fn run(&self) -> Best {
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
        if let Some(ssse3) = Ssse3::detect() {
            // SAFETY: `ssse3` proves that the processor has SSSE3.
            return unsafe { self.labelled_rows_ssse3(transpose, first_row, columns, ssse3) };
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
    fn labelled_rows_ssse3(
        &self,
        transpose: usize,
        first_row: u8,
        columns: &[u8; 9],
        _: Ssse3,
    ) -> [u128; 9] {
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
    use crate::classes::canon::Transformation;
    use crate::classes::canon::puzzle::PuzzleSearch;
    use crate::classes::canon::tests::{GRID, PUZZLE, grid};
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};

    fn complete_search(grid: &Grid) -> Option<CompleteSearch> {
        let mut search = CompleteSearch::EMPTY;
        search.read(grid).then_some(search)
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
                crate::engine::standard::dig::random_grid(&mut rng, &mut solver, None, None)
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
        // The shuffles can only be compared where they run: a test machine without SSSE3 fails
        // here rather than passing with nothing checked.
        let ssse3 = Ssse3::detect().expect("the processor has SSSE3");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
        let mut solver = crate::engine::standard::solve::Solver::new();
        let (mut forward, mut two_cycles) = (0, 0);
        for _ in 0..50 {
            let search = complete_search(&crate::engine::standard::dig::random_grid(
                &mut rng,
                &mut solver,
                None,
                None,
            ))
            .unwrap();
            // SAFETY: `ssse3` proves that the processor has SSSE3.
            let shuffled = unsafe { search.partner_maps_ssse3(ssse3) };
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
        // The shuffles can only be compared where they run: a test machine without SSSE3 fails
        // here rather than passing with nothing checked.
        let ssse3 = Ssse3::detect().expect("the processor has SSSE3");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(19);
        let mut solver = crate::engine::standard::solve::Solver::new();
        for _ in 0..50 {
            let g = crate::engine::standard::dig::random_grid(&mut rng, &mut solver, None, None);
            let search = complete_search(&g).unwrap();
            let (transpose, first_row) = (rng.random_range(0..2), rng.random_range(0..9));
            let mut columns = [0, 1, 2, 3, 4, 5, 6, 7, 8];
            columns.shuffle(&mut rng);
            let plain = search.labelled_rows_plain(transpose, first_row, &columns);
            // SAFETY: `ssse3` proves that the processor has SSSE3.
            let shuffled =
                unsafe { search.labelled_rows_ssse3(transpose, first_row, &columns, ssse3) };
            assert_eq!(plain, shuffled);
            let first = plain[usize::from(first_row)].to_be_bytes();
            assert_eq!(first, [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0, 0]);
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
}
