//! Solving and counting solutions: one search serves [`solve`], [`count_solutions`] and uniqueness.
//!
//! # State: digit bands
//! For every digit and band, the cells of the band that may still take the digit are one 27-bit
//! word (`candidates[9 * band + digit]`, digit counted from 0):
//!
//! ```text
//!   bit:  0  1  2 |  3  4  5 |  6  7  8      row 0 of the band
//!         9 10 11 | 12 13 14 | 15 16 17      row 1
//!        18 19 20 | 21 22 23 | 24 25 26      row 2
//!        box 0      box 1      box 2         (boxes of the band)
//! ```
//!
//! 27 words (108 bytes) hold the whole state, so a guess copies it instead of undoing. Most reasoning is
//! one digit and one band at a time, with table look-ups:
//! - **Band closure** (locked candidates, box/line, and hidden singles in the band's rows and boxes):
//!   a digit sits once in each row and once in each box of a band, so the 3×3 pattern of which
//!   (row, box) segments still hold a candidate must contain a permutation. `SEGMENTS` and
//!   `CLOSURE` keep only the segments that lie on one; the others lose their candidates.
//!   A row left with one cell is filled; so is a box left with one cell, since the closure leaves
//!   its row with that cell alone.
//! - **Stack closure**: the same for the (band, column) pattern of each stack. A column left with
//!   one cell leaves it alone in its box, so hidden singles of columns follow too.
//! - **Placing** a digit clears its row and box in the band, its column in the other bands, and the
//!   cell in the other digits (SSE2 takes eight digits at once on x86-64).
//! - **Naked singles** are counted bit-sliced over the 9 digit words of a band at once.
//!
//! Which rows hold a single cell, which digits lose a candidate: these are data a branch predictor
//! cannot learn, so they are computed without branches.
//!
//! A guess takes a cell with two candidates (the fewest, when there is none) and tries each
//! candidate on a copy of the state: for solving and proving uniqueness, after reasoning on bands
//! and stacks, the cell whose two digits have the most candidates among its peers, those of peers
//! with two candidates counting three times (what the two branches take out, and the peers they
//! fill next: a third fewer guesses on the hardest puzzles than ranking cells by their digits alone);
//! for digging's "is there another solution", where solutions are many and any will do, the first
//! such cell after reasoning on bands only, which makes nodes cheaper.
//!
//! The search, from reading the givens to the last guess, is compiled twice on x86-64: once for
//! any processor and once with x86-64-v3's bit and vector instructions (`popcnt`, BMI, AVX2), which
//! it takes when the processor has them (checked at run time); there the band closure reads and
//! spreads segments with `pext` and `pdep` instead of tables. The functions the search calls are
//! `#[inline(always)]` so that each copy holds all of them, compiled for its own instructions.
//!
//! A search starts from the givens as band-digit words (`Givens`); digging keeps those words up to
//! date as it empties and refills cells, instead of reading the grid for every test.

use rayon::prelude::*;

use crate::format::Format;
use crate::grid::{BYTE_MASKS, CELLS, Grid, spread_to_lanes};

/// The 27 cells of one band.
const BAND: u32 = (1 << 27) - 1;

/// The cells of each row of a band.
const ROW_CELLS: [u32; 3] = [0x1ff, 0x1ff << 9, 0x1ff << 18];

/// The cells of column `c` (0..9) in a band.
const fn column_cells(c: usize) -> u32 {
    0x40201 << c
}

/// The columns (bits 0..9) that hold one of `cells` of a band.
const fn columns_of(cells: u32) -> u32 {
    (cells | cells >> 9 | cells >> 18) & 0x1ff
}

/// The cells of box `k` (0..3) in a band.
const fn box_cells(k: usize) -> u32 {
    0x1c0e07 << (3 * k)
}

/// For a 9-bit row, which of its three box segments hold a candidate (3 bits).
const SEGMENTS: [u8; 512] = {
    let mut table = [0; 512];
    let mut row = 0;
    while row < 512 {
        table[row] = ((row & 7 != 0) as u8)
            | ((row >> 3 & 7 != 0) as u8) << 1
            | ((row >> 6 & 7 != 0) as u8) << 2;
        row += 1;
    }
    table
};

/// For a 3×3 pattern of (row, box) segments (bit `3 * row + box`), the segments that lie on some
/// permutation inside the pattern: where one digit can still go in a band. 0: nowhere.
const CLOSURE: [u16; 512] = {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut p = 0;
        while p < 6 {
            let boxes = PERMUTATIONS[p];
            let bits: u16 = 1 << boxes[0] | 1 << (3 + boxes[1]) | 1 << (6 + boxes[2]);
            if pattern as u16 & bits == bits {
                table[pattern] |= bits;
            }
            p += 1;
        }
        pattern += 1;
    }
    table
};

/// The cells of the segments in a 3-bit box pattern of one row (as bits 0..9 of that row).
const SEGMENT_CELLS: [u32; 8] = {
    let mut table = [0; 8];
    let mut boxes = 0;
    while boxes < 8 {
        table[boxes] = spread_to_lanes(boxes, 3) as u32;
        boxes += 1;
    }
    table
};

/// How the band closure reads which (row, box) segments of a band digit hold a candidate, and
/// spreads the segments it keeps back to cells: by table look-ups on any processor ([`Tables`]),
/// by one `pext` and one `pdep` where BMI2 is there ([`V3`]), which measured 13% faster on easy
/// puzzles and 9% on hard ones.
trait SegmentBits: Copy {
    /// The segments of `cells` that hold one of them: bit `3 * row + box`.
    fn pattern(self, cells: u32) -> usize;
    /// The cells of the segments of `pattern`.
    fn cells(self, pattern: usize) -> u32;
}

#[derive(Clone, Copy)]
struct Tables;

impl SegmentBits for Tables {
    #[inline(always)]
    fn pattern(self, cells: u32) -> usize {
        SEGMENTS[(cells & 0x1ff) as usize] as usize
            | (SEGMENTS[(cells >> 9 & 0x1ff) as usize] as usize) << 3
            | (SEGMENTS[(cells >> 18 & 0x1ff) as usize] as usize) << 6
    }

    #[inline(always)]
    fn cells(self, pattern: usize) -> u32 {
        SEGMENT_CELLS[pattern & 7]
            | SEGMENT_CELLS[pattern >> 3 & 7] << 9
            | SEGMENT_CELLS[pattern >> 6 & 7] << 18
    }
}

/// Proof that the processor has the extensions of x86-64-v3 that the search's second copy is
/// compiled for (`popcnt`, BMI1, BMI2, LZCNT, AVX2): only [`V3::detect`] makes one. That copy
/// measured 6% faster on easy puzzles and 3% on hard ones before it used BMI2 for segments.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct V3(());

#[cfg(target_arch = "x86_64")]
impl V3 {
    /// A `V3` if the processor has the extensions (the answer is cached after the first call).
    fn detect() -> Option<V3> {
        let has = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt");
        has.then_some(V3(()))
    }
}

/// The first cell of each segment of a band.
#[cfg(target_arch = "x86_64")]
const SEGMENT_STARTS: u32 = 0o111_111_111;

#[cfg(target_arch = "x86_64")]
impl SegmentBits for V3 {
    #[inline(always)]
    fn pattern(self, cells: u32) -> usize {
        // SAFETY: a `V3` exists only on a processor with BMI2.
        let segments = unsafe {
            std::arch::x86_64::_pext_u32(cells | cells >> 1 | cells >> 2, SEGMENT_STARTS)
        };
        segments as usize
    }

    #[inline(always)]
    fn cells(self, pattern: usize) -> u32 {
        // SAFETY: a `V3` exists only on a processor with BMI2.
        unsafe { std::arch::x86_64::_pdep_u32(pattern as u32, SEGMENT_STARTS) * 7 }
    }
}

/// The outcome of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found, at most the limit asked for.
    pub solutions: usize,
    /// The first solution found.
    pub first: Option<Grid>,
    /// How many guesses the search made: 0 when reasoning alone solved the puzzle.
    pub guesses: usize,
}

/// The search state (see the module comment).
#[derive(Clone, Copy)]
struct State {
    /// Per band and digit (index `9 * band + digit`), the cells that may take the digit.
    candidates: [u32; 27],
    /// Per band, the cells still empty.
    empty: [u32; 3],
    /// Band digits (bit `9 * band + digit`) to revisit.
    dirty: u32,
    /// Band digits changed since the stacks were last looked at.
    stale_stacks: u32,
}

/// For each cell of a band, the cells of its row and its box (itself included); index 32, the
/// trailing zeros of no cell at all, has none.
const HOUSES_OF_CELL: [u32; 33] = {
    let mut table = [0; 33];
    let mut i = 0;
    while i < 27 {
        table[i] = ROW_CELLS[i / 9] | box_cells(i % 9 / 3);
        i += 1;
    }
    table
};

/// The rows and boxes of a band that hold one of `cells`, as cells, and whether two of `cells`
/// share one (or there are more than three, which also makes two share a row); without a branch
/// on the data.
#[inline(always)]
fn houses_in_band(cells: u32) -> (u32, bool) {
    let first = cells & cells.wrapping_neg();
    let rest = cells ^ first;
    let second = rest & rest.wrapping_neg();
    let third = rest ^ second;
    let [a, b, c] =
        [first, second, third].map(|cell| HOUSES_OF_CELL[cell.trailing_zeros() as usize]);
    let clash = a & rest | b & third | third & third.wrapping_sub(1);
    (a | b | c, clash != 0)
}

/// The two lowest digits (0..9) of a digit set (bit `digit`) that holds at least two; 8 in place
/// of a missing one, so that the caller may index with them unchecked.
#[inline(always)]
fn two_digits(digits: u32) -> [usize; 2] {
    [digits, digits & digits.wrapping_sub(1)].map(|d| (d.trailing_zeros() as usize).min(8))
}

/// The grid whose value planes (see [`value_planes`]) are `planes`.
fn grid_of_planes(planes: &[[u32; 4]; 3]) -> Grid {
    let mut cells = [0; CELLS];
    for (band, band_planes) in planes.iter().enumerate() {
        let mut bytes = [0u8; 32];
        for (eighth, chunk) in bytes.chunks_exact_mut(8).enumerate() {
            let word = band_planes.iter().enumerate().fold(0, |word, (k, plane)| {
                let spread =
                    BYTE_MASKS[(plane >> (8 * eighth) & 0xff) as usize] & 0x0101_0101_0101_0101;
                word | spread << k
            });
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        cells[27 * band..27 * band + 27].copy_from_slice(&bytes[..27]);
    }
    Grid::from_cells(cells).expect("a filled cell keeps one digit")
}

/// Per band, bit plane `k` of the cell values: the cells (bit `i` = cell `i` of the band) whose
/// value has bit `k` set. Read eight cells at a time; each digit's cells follow in four steps.
fn value_planes(grid: &Grid) -> [[u32; 4]; 3] {
    std::array::from_fn(|band| {
        let mut bytes = [0u8; 32];
        bytes[..27].copy_from_slice(&grid.cells()[27 * band..27 * band + 27]);
        let mut planes = [0u32; 4];
        for (eighth, chunk) in bytes.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(chunk.try_into().expect("eight cells"));
            for (k, plane) in planes.iter_mut().enumerate() {
                // Bit k of each byte lands in the top byte, in order; no two products share a
                // bit, so nothing carries.
                let gathered =
                    ((word >> k) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56;
                *plane |= (gathered as u32) << (8 * eighth);
            }
        }
        planes
    })
}

/// Clears `cells` from the nine digit words of a band but the word of `except`; returns the
/// digits (bits 0..9) that lost a candidate. Filling a cell does this more than anything else the
/// solver does, so on x86-64 it takes eight words at once (SSE2, always there), which measured 7%
/// faster on hard puzzles than the plain loop, the one other targets use.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn clear_cells(words: &mut [u32; 9], cells: u32, except: usize) -> u32 {
    use std::arch::x86_64::*;
    let own = words[except];
    // SAFETY: SSE2 is part of x86_64, and the two loads and stores cover words 0..8 of `words`.
    let changed = unsafe {
        let lanes = words.as_mut_ptr().cast::<__m128i>();
        let cells4 = _mm_set1_epi32(cells as i32);
        let zero = _mm_setzero_si128();
        let mut changed = 0;
        for half in 0..2 {
            let old = _mm_loadu_si128(lanes.add(half));
            let missed = _mm_cmpeq_epi32(_mm_and_si128(old, cells4), zero);
            changed |= (!_mm_movemask_ps(_mm_castsi128_ps(missed)) & 0xf) << (4 * half);
            _mm_storeu_si128(lanes.add(half), _mm_andnot_si128(cells4, old));
        }
        changed as u32
    };
    let last = words[8];
    words[8] = last & !cells;
    words[except] = own;
    (changed | u32::from(last & cells != 0) << 8) & !(1 << except)
}

/// [`clear_cells`] one word at a time.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn clear_cells_one_by_one(words: &mut [u32; 9], cells: u32, except: usize) -> u32 {
    let mut changed = 0;
    for (digit, word) in words.iter_mut().enumerate() {
        let cleared = if digit == except { 0 } else { cells };
        changed |= u32::from(*word & cleared != 0) << digit;
        *word &= !cleared;
    }
    changed
}

#[cfg(not(target_arch = "x86_64"))]
use clear_cells_one_by_one as clear_cells;

impl State {
    /// Places `digit` (0..9) in the cells `cells` of `band` at once; `false` if one of them cannot take
    /// it or two of them share a row or a box.
    #[inline(always)]
    fn place(&mut self, digit: usize, band: usize, cells: u32) -> bool {
        let bd = 9 * band + digit;
        let (houses, clash) = houses_in_band(cells);
        let old = self.candidates[bd];
        if old & cells != cells || clash {
            return false;
        }
        let peers = houses & !cells;
        self.candidates[bd] = old & !peers;
        self.dirty |= u32::from(old & peers != 0) << bd;
        self.fill(digit, band, cells);
        true
    }

    /// Fills `cells` of `band` with `digit`, which has already left their rows and boxes there: the
    /// cells leave the other digits, and the digit leaves the cells' columns in the other bands.
    #[inline(always)]
    fn fill(&mut self, digit: usize, band: usize, cells: u32) {
        self.empty[band] &= !cells;
        let words: &mut [u32; 9] = (&mut self.candidates[9 * band..9 * band + 9])
            .try_into()
            .expect("nine digits");
        self.dirty |= clear_cells(words, cells, digit) << (9 * band);
        let columns = column_cells(0) * columns_of(cells);
        for other in 0..3 {
            let cleared = if other == band { 0 } else { columns };
            let od = 9 * other + digit;
            let old = self.candidates[od];
            self.candidates[od] = old & !cleared;
            self.dirty |= u32::from(old & cleared != 0) << od;
        }
    }

    /// Applies the band closure to one band digit; returns the empty cells it leaves alone in their
    /// row, to be filled (a box with a single cell leaves its row with a single cell after the
    /// closure), or `None` on a contradiction.
    #[inline(always)]
    fn revisit(&mut self, bd: usize, segments: impl SegmentBits) -> Option<u32> {
        // A band digit already placed in its three rows goes through too: the closure keeps it as
        // it is and finds no empty cell to fill, and a branch to skip it cost more than it saved.
        let cells = self.candidates[bd];
        let band = bd / 9;
        let pattern = segments.pattern(cells);
        // The mask changes nothing (three 3-bit patterns) but lets the compiler drop a bounds
        // check, which measured 6% on the whole solver.
        let closure = CLOSURE[pattern & 0x1ff] as usize;
        if closure == 0 {
            return None;
        }
        // The closure also takes the digit out of the rows and boxes of the rows it has filled.
        let kept = cells & segments.cells(closure);
        self.candidates[bd] = kept;
        let singles = ROW_CELLS.iter().fold(0, |singles, &row_cells| {
            let row = kept & row_cells;
            // Which rows are down to one cell is data, not a pattern a branch predictor can learn.
            singles | std::hint::select_unpredictable(row & row.wrapping_sub(1) == 0, row, 0)
        });
        Some(singles & self.empty[band])
    }

    /// Places the naked singles; `None` on a contradiction (an empty cell without candidates), else
    /// whether anything was placed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Option<bool> {
        let mut progress = false;
        for band in 0..3 {
            let (mut one, mut two) = (0u32, 0u32);
            for &cells in &self.candidates[9 * band..9 * band + 9] {
                two |= one & cells;
                one |= cells;
            }
            let empty = self.empty[band];
            if empty & !one != 0 {
                return None;
            }
            let naked = empty & one & !two;
            if naked != 0 {
                for digit in 0..9 {
                    let cells = naked & self.candidates[9 * band + digit];
                    if cells != 0 && !self.place(digit, band, cells) {
                        return None;
                    }
                }
                progress = true;
            }
        }
        Some(progress)
    }

    /// Per digit, applies the closure to each stack (where in the stack's columns and boxes the digit
    /// can go); `None` on a contradiction, else whether anything changed. A column left with one
    /// cell leaves that cell alone in its box, which the band's closure then fills: hidden singles
    /// of columns need no step of their own.
    #[inline(always)]
    fn stacks(&mut self) -> Option<bool> {
        let mut progress = false;
        let stale = self.stale_stacks | self.stale_stacks >> 9 | self.stale_stacks >> 18;
        self.stale_stacks = 0;
        for digit in (0..9).filter(|&d| stale >> d & 1 == 1) {
            // Per band, the columns where the digit has a candidate.
            let columns = [0, 1, 2].map(|band| columns_of(self.candidates[9 * band + digit]));
            for stack in 0..3 {
                let pattern = (0..3).fold(0, |acc, band| {
                    acc | (columns[band] >> (3 * stack) & 7) << (3 * band)
                });
                let closure = u32::from(CLOSURE[pattern as usize]);
                if closure == 0 {
                    return None;
                }
                for band in 0..3 {
                    let lost = (pattern & !closure) >> (3 * band) & 7;
                    if lost != 0 {
                        let bd = 9 * band + digit;
                        let cleared =
                            self.candidates[bd] & !(column_cells(0) * (lost << (3 * stack)));
                        self.candidates[bd] = cleared;
                        self.dirty |= 1 << bd;
                        progress = true;
                    }
                }
            }
        }
        Some(progress)
    }

    /// Reasons until nothing more follows; `false` on a contradiction.
    #[inline(always)]
    fn propagate(&mut self, reasoning: Reasoning, segments: impl SegmentBits) -> bool {
        loop {
            // Sweeps: each band digit changed since the last sweep is revisited once per sweep, so
            // that the changes of many placements are taken in at once. The cells a sweep finds are
            // filled after it: whether a revisit finds one is data a branch predictor cannot learn,
            // and one loop over the finds mispredicts less than a branch after every revisit
            // (measured 4-6% faster, for 15% more instructions).
            while self.dirty != 0 {
                let mut sweep = self.dirty;
                self.stale_stacks |= sweep;
                self.dirty = 0;
                let mut fresh = [0u32; 27];
                let mut filling = 0u32;
                while sweep != 0 {
                    let bd = sweep.trailing_zeros() as usize;
                    sweep &= sweep - 1;
                    let Some(cells) = self.revisit(bd, segments) else {
                        return false;
                    };
                    fresh[bd] = cells;
                    filling |= u32::from(cells != 0) << bd;
                }
                while filling != 0 {
                    let bd = filling.trailing_zeros() as usize;
                    filling &= filling - 1;
                    // Another fill of this sweep may have taken one of the cells.
                    if self.candidates[bd] & fresh[bd] != fresh[bd] {
                        return false;
                    }
                    self.fill(bd % 9, bd / 9, fresh[bd]);
                }
            }
            let progress = match self.naked_singles() {
                Some(false) if reasoning == Reasoning::Full => self.stacks(),
                other => other,
            };
            match progress {
                None => return false,
                Some(true) => {}
                Some(false) => return true,
            }
        }
    }

    fn is_solved(&self) -> bool {
        self.empty == [0; 3]
    }

    /// The empty cell to guess on: among the cells with two candidates, the one whose branches take
    /// the most candidates out of its peers, a peer with two candidates, which its branch then
    /// fills, counting three times (measured on the hardest set: 36.8 guesses a puzzle for a first
    /// solution and 69.9 to prove it unique, against 56.5 and 110.2 for ranking cells by how many
    /// candidates their digits have in the grid); or with `Bands` reasoning, where any solution
    /// will do, the first such cell, which costs less to find and serves as well; with none, a
    /// cell with the fewest candidates. Returns its band, its bit and the digit to try first: the
    /// one with the most candidates left in the grid (3% fewer guesses than the smaller digit on the
    /// hardest set), or else the smallest.
    #[inline(always)]
    fn guess_cell(&self, reasoning: Reasoning) -> (usize, u32, usize) {
        let lowest = |cells: u32| cells & cells.wrapping_neg();
        let pairs: [u32; 3] = std::array::from_fn(|band| {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for &cells in &self.candidates[9 * band..9 * band + 9] {
                three |= two & cells;
                two |= one & cells;
                one |= cells;
            }
            self.empty[band] & two & !three
        });
        let first_in = |cells: [u32; 3]| {
            (0..3)
                .find(|&band| cells[band] != 0)
                .map(|band| (band, lowest(cells[band])))
        };
        if reasoning == Reasoning::Bands {
            if let Some((band, bit)) = first_in(pairs) {
                return (band, bit, self.smallest_digit(band, bit));
            }
        } else if pairs != [0; 3] {
            // The other two bands side by side, for one count over a column in both.
            let other_bands = |words: [u32; 2]| u64::from(words[0]) << 32 | u64::from(words[1]);
            // A cell's score: the candidates its two digits have among its peers, which the two
            // branches take out between them, those of peers with two candidates three times
            // over, since such a peer is filled next. The first cell with the highest score wins.
            let mut best = (0, 0, 0, 0);
            for band in 0..3 {
                let words = &self.candidates[9 * band..9 * band + 9];
                let [below, above] = [(band + 2) % 3, (band + 1) % 3];
                let pairs_in_other_bands = other_bands([pairs[below], pairs[above]]);
                let mut rest = pairs[band];
                while rest != 0 {
                    let cell = rest.trailing_zeros() as usize;
                    let bit = lowest(rest);
                    rest &= rest - 1;
                    let digits = self.digits_of(band, cell);
                    let peers = HOUSES_OF_CELL[cell] & !bit;
                    let column = other_bands([column_cells(cell % 9); 2]);
                    let score = two_digits(digits).iter().fold(0, |score, &digit| {
                        let in_band = words[digit] & peers;
                        let in_column = column
                            & other_bands([below, above].map(|b| self.candidates[9 * b + digit]));
                        score
                            + in_band.count_ones()
                            + 2 * (in_band & pairs[band]).count_ones()
                            + in_column.count_ones()
                            + 2 * (in_column & pairs_in_other_bands).count_ones()
                    });
                    if score > best.0 {
                        best = (score, band, bit, digits);
                    }
                }
            }
            let (_, band, bit, digits) = best;
            if bit != 0 {
                // The digit with more candidates left in the grid goes first (the lower on a tie).
                let [low, high] = two_digits(digits).map(|digit| {
                    let spread = (0..3).map(|band| self.candidates[9 * band + digit]);
                    (spread.map(u32::count_ones).sum::<u32>(), digit)
                });
                let lead = if high.0 > low.0 { high.1 } else { low.1 };
                return (band, bit, lead);
            }
        }
        let mut fewest = (u32::MAX, 0, 0);
        for band in 0..3 {
            let mut rest = self.empty[band];
            while rest != 0 {
                let bit = lowest(rest);
                rest &= rest - 1;
                let count = self
                    .digits_of(band, bit.trailing_zeros() as usize)
                    .count_ones();
                if count < fewest.0 {
                    fewest = (count, band, bit);
                }
            }
        }
        let (_, band, bit) = fewest;
        (band, bit, self.smallest_digit(band, bit))
    }

    /// The digits (bit `digit`, 0..9) that cell `cell` (0..27) of `band` can take, gathered
    /// without a branch.
    #[inline(always)]
    fn digits_of(&self, band: usize, cell: usize) -> u32 {
        (0..9).fold(0, |digits, digit| {
            digits | (self.candidates[9 * band + digit] >> cell & 1) << digit
        })
    }

    /// The smallest digit (0..9) that the cell `bit` of `band` can take, 9 if none.
    #[inline(always)]
    fn smallest_digit(&self, band: usize, bit: u32) -> usize {
        (self
            .digits_of(band, bit.trailing_zeros() as usize)
            .trailing_zeros() as usize)
            .min(9)
    }

    #[inline(always)]
    fn grid(&self) -> Grid {
        // A filled cell keeps only its own digit as a candidate.
        let planes = std::array::from_fn(|band| {
            let filled = BAND & !self.empty[band];
            let words = &self.candidates[9 * band..9 * band + 9];
            std::array::from_fn(|k| {
                (0..9)
                    .filter(|digit| (digit + 1) >> k & 1 == 1)
                    .fold(0, |plane, digit| plane | words[digit] & filled)
            })
        });
        grid_of_planes(&planes)
    }
}

/// The givens of a puzzle by band digit, kept up to date as cells are emptied and filled again: a
/// search starts from them in a few operations a band digit, without reading the grid.
#[derive(Clone, Copy)]
pub(crate) struct Givens {
    /// Per band digit, the cells given the digit.
    cells: [u32; 27],
    /// Per band digit, the rows and boxes of the band that hold one of those, as cells.
    houses: [u32; 27],
    /// Per digit, the columns (bits 0..9) where it is given.
    columns: [u32; 9],
    /// Per band, the cells given any digit.
    filled: [u32; 3],
}

impl Givens {
    /// The givens of `puzzle`, or `None` if two of them clash.
    #[inline(always)]
    pub(crate) fn of(puzzle: &Grid) -> Option<Givens> {
        let planes = value_planes(puzzle);
        // Per band, the cells by the low two and the high two bits of their value.
        let low = planes.map(|[p0, p1, _, _]| [!p0 & !p1, p0 & !p1, !p0 & p1, p0 & p1]);
        let high = planes.map(|[_, _, p2, p3]| [!p2 & !p3, p2 & !p3, !p2 & p3]);
        let by_band: [[u32; 9]; 3] = std::array::from_fn(|band| {
            std::array::from_fn(|digit| low[band][(digit + 1) & 3] & high[band][(digit + 1) >> 2])
        });
        let cells: [u32; 27] = by_band.as_flattened().try_into().expect("27 band digits");
        let houses = cells.map(houses_in_band);
        let mut clash = houses.iter().any(|&(_, clash)| clash);
        let columns = std::array::from_fn(|digit| {
            let [a, b, c] = [0, 1, 2].map(|band| columns_of(cells[9 * band + digit]));
            clash |= a & b | a & c | b & c != 0;
            a | b | c
        });
        (!clash).then(|| Givens {
            cells,
            houses: houses.map(|(houses, _)| houses),
            columns,
            filled: planes.map(|[p0, p1, p2, p3]| p0 | p1 | p2 | p3),
        })
    }

    /// The cells given a digit, bit `cell`.
    pub(crate) fn given_cells(&self) -> u128 {
        self.filled
            .iter()
            .rev()
            .fold(0, |acc, &band| acc << 27 | u128::from(band))
    }

    /// Gives `digit` (1..=9) in the empty `cell`; the caller keeps the givens from clashing.
    pub(crate) fn fill(&mut self, cell: usize, digit: u8) {
        self.update(cell, digit, true);
    }

    /// Empties `cell`, which holds `digit` (1..=9).
    pub(crate) fn empty(&mut self, cell: usize, digit: u8) {
        self.update(cell, digit, false);
    }

    fn update(&mut self, cell: usize, digit: u8, given: bool) {
        let (band, bit, digit) = (cell / 27, 1 << (cell % 27), usize::from(digit) - 1);
        let bd = 9 * band + digit;
        let column = 1 << (cell % 9);
        if given {
            self.cells[bd] |= bit;
            self.filled[band] |= bit;
            self.columns[digit] |= column;
        } else {
            self.cells[bd] &= !bit;
            self.filled[band] &= !bit;
            self.columns[digit] &= !column;
        }
        self.houses[bd] = houses_in_band(self.cells[bd]).0;
    }

    /// For band digit `bd`, the cells the givens leave it: its givens, and the empty cells that see
    /// none of them.
    fn candidates(&self, bd: usize) -> u32 {
        let column_peers = column_cells(0) * self.columns[bd % 9];
        (BAND & !self.filled[bd / 9] & !self.houses[bd] & !column_peers) | self.cells[bd]
    }

    /// Whether the givens force `digit` (1..=9) into the empty `cell`: no other digit can go there
    /// (a naked single), or no other cell of its row, column or box can take the digit (a hidden
    /// single). Then emptying the cell keeps a puzzle's solution unique, with no search.
    pub(crate) fn force(&self, cell: usize, digit: u8) -> bool {
        let (band, bit, digit) = (cell / 27, 1 << (cell % 27), usize::from(digit) - 1);
        let naked = (0..9).all(|d| d == digit || self.candidates(9 * band + d) & bit == 0);
        let own = self.candidates(9 * band + digit);
        let column = column_cells(cell % 9);
        let hidden_in_band = [ROW_CELLS[cell % 27 / 9], box_cells(cell % 9 / 3)]
            .iter()
            .any(|&house| own & house == bit);
        let hidden_in_column = own & column == bit
            && [1, 2]
                .iter()
                .all(|&shift| self.candidates(9 * ((band + shift) % 3) + digit) & column == 0);
        naked || hidden_in_band || hidden_in_column
    }

    /// The search state before any reasoning: each digit can go wherever its givens allow.
    #[inline(always)]
    fn state(&self) -> State {
        let mut state = State {
            candidates: std::array::from_fn(|bd| self.candidates(bd)),
            empty: self.filled.map(|filled| BAND & !filled),
            dirty: 0,
            stale_stacks: 0,
        };
        for (bd, &cells) in self.cells.iter().enumerate() {
            // A digit given three times in a band (never more) has nothing left to reason about
            // there; with the lowest two given cells taken out, nothing is left of fewer.
            let rest = cells & cells.wrapping_sub(1);
            state.dirty |= u32::from(rest & rest.wrapping_sub(1) == 0) << bd;
        }
        state.stale_stacks = state.dirty;
        state
    }
}

/// How much a search reasons between guesses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reasoning {
    /// Bands and stacks (columns): the fewest guesses, what hard and unique puzzles need.
    Full,
    /// Bands only: cheaper nodes, for puzzles with many solutions of which any will do.
    Bands,
}

/// Where a search starts.
enum Start<'a> {
    /// From the givens of a puzzle, read in the search so that reading them is compiled with it.
    Puzzle(&'a Grid),
    /// From a state the caller built (digging, from givens it keeps up to date).
    State(State),
}

/// A reusable solver: it keeps its guess stack between puzzles.
#[derive(Default)]
pub struct Solver {
    stack: Vec<State>,
}

impl Solver {
    /// A solver with an empty guess stack.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Searches `puzzle` until `limit` solutions are found (at least 1) or none remain.
    pub fn search(&mut self, puzzle: &Grid, limit: usize) -> Outcome {
        self.search_from(Start::Puzzle(puzzle), limit, Reasoning::Full)
    }

    /// Whether `puzzle` has a solution in which `cell` does not hold `digit`. With `digit` the
    /// solution's own, this asks whether the puzzle's solution is unique at a cost below that of
    /// counting solutions: the known solution is never searched again.
    pub fn has_solution_without(&mut self, puzzle: &Grid, cell: usize, digit: u8) -> bool {
        Givens::of(puzzle).is_some_and(|givens| self.has_solution_avoiding(&givens, cell, digit))
    }

    /// [`Solver::has_solution_without`] for a puzzle given as its givens.
    pub(crate) fn has_solution_avoiding(
        &mut self,
        givens: &Givens,
        cell: usize,
        digit: u8,
    ) -> bool {
        let mut state = givens.state();
        let bd = 9 * (cell / 27) + usize::from(digit) - 1;
        state.candidates[bd] &= !(1 << (cell % 27));
        // Another solution, when there is one, is one of many: cheaper nodes find it sooner.
        self.search_from(Start::State(state), 1, Reasoning::Bands)
            .solutions
            > 0
    }

    /// Searches from `start`, compiled for the processor's bit-manipulation and vector
    /// instructions where it has them (see [`V3`]), checked at run time so that the binary still
    /// runs on any x86-64.
    fn search_from(&mut self, start: Start, limit: usize, reasoning: Reasoning) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if let Some(v3) = V3::detect() {
            // SAFETY: `v3` proves that the processor has the extensions `search_with_v3` is
            // compiled for.
            return unsafe { self.search_with_v3(start, limit, reasoning, v3) };
        }
        self.search_here(start, limit, reasoning, Tables)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn search_with_v3(
        &mut self,
        start: Start,
        limit: usize,
        reasoning: Reasoning,
        v3: V3,
    ) -> Outcome {
        self.search_here(start, limit, reasoning, v3)
    }

    /// The search itself, inlined into each of its two compilations.
    #[inline(always)]
    fn search_here(
        &mut self,
        start: Start,
        limit: usize,
        reasoning: Reasoning,
        segments: impl SegmentBits,
    ) -> Outcome {
        let limit = limit.max(1);
        let mut outcome = Outcome {
            solutions: 0,
            first: None,
            guesses: 0,
        };
        let start = match start {
            Start::Puzzle(puzzle) => Givens::of(puzzle).map(|givens| givens.state()),
            Start::State(state) => Some(state),
        };
        let Some(state) = start else {
            return outcome;
        };
        self.stack.clear();
        // The state being worked on; the other branches of each guess wait on the stack.
        let mut current = Some(state);
        while let Some(mut state) = current.take().or_else(|| self.stack.pop()) {
            if !state.propagate(reasoning, segments) {
                continue;
            }
            if state.is_solved() {
                outcome.solutions += 1;
                if outcome.first.is_none() {
                    outcome.first = Some(state.grid());
                }
                if outcome.solutions >= limit {
                    break;
                }
                continue;
            }
            let (band, bit, lead) = state.guess_cell(reasoning);
            outcome.guesses += 1;
            // The lead digit goes on at once; the others wait, largest deepest.
            let mut others = state.digits_of(band, bit.trailing_zeros() as usize) & !(1 << lead);
            while others != 0 {
                let digit = 31 - others.leading_zeros() as usize;
                others &= !(1 << digit);
                let mut branch = state;
                branch.place(digit, band, bit);
                self.stack.push(branch);
            }
            if lead < 9 {
                state.place(lead, band, bit);
                current = Some(state);
            }
        }
        outcome
    }

    /// The first solution of `puzzle`, if it has one.
    pub fn solve(&mut self, puzzle: &Grid) -> Option<Grid> {
        self.search(puzzle, 1).first
    }

    /// The number of solutions of `puzzle`, counted up to `limit`.
    pub fn count_solutions(&mut self, puzzle: &Grid, limit: usize) -> usize {
        self.search(puzzle, limit).solutions
    }
}

/// The first solution of `puzzle`, if it has one. Use a [`Solver`] to solve many puzzles.
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    Solver::new().solve(puzzle)
}

/// The number of solutions of `puzzle`, counted up to `limit`: `count_solutions(p, 2) == 1` means `p`
/// has exactly one solution.
pub fn count_solutions(puzzle: &Grid, limit: usize) -> usize {
    Solver::new().count_solutions(puzzle, limit)
}

/// Why a puzzle of a batch was not simply solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The puzzle has no solution.
    NoSolution,
    /// The puzzle has more than one solution (reported only when uniqueness was asked for).
    MoreThanOneSolution,
}

/// Solves `puzzles` over the current rayon pool and writes, in input order, one record of `format`
/// per puzzle: its first solution, or the puzzle itself (blanks as `0` in the grid format, `.` in the
/// line format) when it has none. With `unique`, each puzzle must have exactly one solution. Returns
/// the text and the failures with the index of their puzzle.
pub fn solve_batch(
    puzzles: &[Grid],
    unique: bool,
    format: Format,
) -> (Vec<u8>, Vec<(usize, Failure)>) {
    let record_len = format.record_len();
    let blank = if format == Format::Grid { b'0' } else { b'.' };
    let mut out = vec![0; record_len * puzzles.len()];
    let limit = if unique { 2 } else { 1 };
    let failures = out
        .par_chunks_mut(record_len)
        .zip(puzzles.par_iter())
        .enumerate()
        // Pieces of 256 puzzles: rayon would otherwise leave a thread finishing a long piece alone.
        .with_min_len(256)
        .with_max_len(256)
        .map_init(Solver::new, |solver, (index, (record, puzzle))| {
            let outcome = solver.search(puzzle, limit);
            format.write_record(outcome.first.as_ref().unwrap_or(puzzle), blank, record);
            match (outcome.first, outcome.solutions) {
                (None, _) => Some((index, Failure::NoSolution)),
                (Some(_), 2..) => Some((index, Failure::MoreThanOneSolution)),
                _ => None,
            }
        })
        .flatten()
        .collect();
    out.truncate(format.output_len(puzzles.len()));
    (out, failures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{HOUSES, houses_of};

    fn puzzle(line: &str) -> Grid {
        line.parse().unwrap()
    }

    #[test]
    fn known_puzzles_and_counts() {
        // puzzle, solutions counted up to 3
        let cases = [
            (
                "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....",
                1,
            ),
            (
                "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
                1,
            ),
            (
                ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
                1,
            ),
            (
                "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
                3,
            ),
            (
                "12345678.........9...............................................................",
                0,
            ),
        ];
        let mut solver = Solver::new();
        for (line, count) in cases {
            let p = puzzle(line);
            let outcome = solver.search(&p, 3);
            assert_eq!(outcome.solutions, count, "{line}");
            if let Some(solution) = outcome.first {
                assert!(solution.is_filled() && solution.keeps_givens_of(&p));
                assert_eq!(solution.first_repeat(), None);
            }
        }
    }

    #[test]
    fn guess_choice_keeps_its_count_on_the_hardest_sample() {
        // The guess choice decides how much a search costs; these totals change only with it.
        let mut solver = Solver::new();
        let mut guesses = |limit| {
            include_str!("../tests/data/sample_forum_hardest.txt")
                .lines()
                .filter(|line| !line.is_empty() && !line.starts_with('#'))
                .map(|line| solver.search(&puzzle(line), limit).guesses)
                .sum::<usize>()
        };
        assert_eq!((guesses(1), guesses(2)), (2304, 4795));
    }

    #[test]
    fn both_compilations_of_the_search_agree() {
        let sets = [
            include_str!("../tests/data/sample_forum_hardest.txt"),
            include_str!("../tests/data/sample_serg.txt"),
        ];
        let mut solver = Solver::new();
        for line in sets.iter().flat_map(|set| set.lines()) {
            let p = puzzle(line);
            let plain = solver.search_here(Start::Puzzle(&p), 2, Reasoning::Full, Tables);
            assert_eq!(solver.search(&p, 2), plain, "{line}");
        }
    }

    #[test]
    fn the_empty_grid_has_many_solutions() {
        assert_eq!(count_solutions(&Grid::EMPTY, 100), 100);
        let first = solve(&Grid::EMPTY).unwrap();
        assert!(first.is_filled() && first.first_repeat().is_none());
    }

    #[test]
    fn a_zero_limit_counts_to_one() {
        assert_eq!(count_solutions(&Grid::EMPTY, 0), 1);
    }

    #[test]
    fn givens_kept_up_to_date_match_givens_read_afresh() {
        let solution = solve(&Grid::EMPTY).unwrap();
        let mut puzzle = solution;
        let mut givens = Givens::of(&puzzle).unwrap();
        for step in 0..200 {
            let cell = step * 37 % CELLS;
            let digit = solution.get(cell);
            if puzzle.get(cell) == 0 {
                puzzle.set(cell, digit);
                givens.fill(cell, digit);
            } else {
                puzzle.set(cell, 0);
                givens.empty(cell, digit);
            }
            let given = (0..CELLS).filter(|&c| puzzle.get(c) != 0);
            assert_eq!(givens.given_cells(), given.fold(0, |acc, c| acc | 1 << c));
            let (kept, fresh) = (givens.state(), Givens::of(&puzzle).unwrap().state());
            assert_eq!(kept.candidates, fresh.candidates, "step {step}");
            assert_eq!(
                (kept.empty, kept.dirty),
                (fresh.empty, fresh.dirty),
                "step {step}"
            );
        }
    }

    /// Whether `digit` may go into the empty `cell` of `puzzle`: no peer holds it.
    fn allowed(puzzle: &Grid, cell: usize, digit: u8) -> bool {
        houses_of(cell)
            .iter()
            .flat_map(|&house| HOUSES[house])
            .all(|other| other == cell || puzzle.get(other) != digit)
    }

    /// A solved grid, and the puzzles made by emptying its cells one at a time, `stride` apart.
    fn emptied_one_by_one(steps: usize, stride: usize) -> (Grid, Vec<Grid>) {
        let solution = solve(&Grid::EMPTY).unwrap();
        let mut puzzle = solution;
        let puzzles = (0..steps)
            .map(|step| {
                puzzle.set(step * stride % CELLS, 0);
                puzzle
            })
            .collect();
        (solution, puzzles)
    }

    #[test]
    fn givens_force_exactly_the_singles() {
        let (solution, puzzles) = emptied_one_by_one(60, 43);
        for (step, puzzle) in puzzles.into_iter().enumerate() {
            let givens = Givens::of(&puzzle).unwrap();
            for cell in (0..CELLS).filter(|&c| puzzle.get(c) == 0) {
                let digit = solution.get(cell);
                let naked = (1..=9).filter(|&d| allowed(&puzzle, cell, d)).count() == 1;
                let hidden = houses_of(cell).iter().any(|&house| {
                    HOUSES[house].iter().all(|&other| {
                        other == cell || puzzle.get(other) != 0 || !allowed(&puzzle, other, digit)
                    })
                });
                assert_eq!(
                    givens.force(cell, digit),
                    naked || hidden,
                    "step {step} cell {cell}"
                );
            }
        }
    }

    #[test]
    fn clearing_cells_eight_at_a_time_matches_one_by_one() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u32 & BAND
        };
        for round in 0..10_000 {
            let words: [u32; 9] = std::array::from_fn(|_| next());
            let cells = next() & next();
            let except = round % 9;
            let (mut fast, mut plain) = (words, words);
            assert_eq!(
                clear_cells(&mut fast, cells, except),
                clear_cells_one_by_one(&mut plain, cells, except)
            );
            assert_eq!(fast, plain);
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn segment_bits_by_bmi2_match_the_tables() {
        let Some(v3) = V3::detect() else {
            return;
        };
        for bits in 0..512u32 {
            for row in 0..3 {
                let cells = bits << (9 * row) | 0o444_000_111 & !(0x1ff << (9 * row));
                assert_eq!(v3.pattern(cells), Tables.pattern(cells), "{cells:o}");
            }
            assert_eq!(
                v3.cells(bits as usize),
                Tables.cells(bits as usize),
                "{bits:o}"
            );
        }
    }

    #[test]
    fn houses_in_band_match_their_definition() {
        let house_of = |i: usize| [ROW_CELLS[i / 9], box_cells(i % 9 / 3)];
        for first in 0..27 {
            for second in first..27 {
                for third in [first, second, (first * 7 + second) % 27, 26 - second] {
                    let cells: u32 = 1 << first | 1 << second | 1 << third;
                    let bits: Vec<usize> = (0..27).filter(|&i| cells >> i & 1 == 1).collect();
                    let covered = bits.iter().flat_map(|&i| house_of(i)).fold(0, |a, h| a | h);
                    let clash = bits.iter().any(|&i| {
                        bits.iter()
                            .any(|&j| j != i && house_of(i).iter().any(|h| h >> j & 1 == 1))
                    });
                    assert_eq!(houses_in_band(cells), (covered, clash), "{cells:#x}");
                }
            }
        }
        assert!(houses_in_band(0b1001001001).1, "four cells are a clash");
        assert_eq!(houses_in_band(0), (0, false));
    }

    #[test]
    fn value_planes_give_back_their_grid() {
        for puzzle in emptied_one_by_one(81, 29).1 {
            assert_eq!(grid_of_planes(&value_planes(&puzzle)), puzzle);
        }
    }

    #[test]
    fn closure_keeps_only_segments_on_a_permutation() {
        assert_eq!(CLOSURE[0x1ff], 0x1ff);
        assert_eq!(CLOSURE[0b001_010_100], 0b001_010_100);
        // Row 0 can only use box 0, so rows 1 and 2 lose box 0.
        assert_eq!(CLOSURE[0b111_111_001], 0b110_110_001);
        assert_eq!(CLOSURE[0b001_001_001], 0);
    }
}
