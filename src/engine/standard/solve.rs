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
//! A guess (see `guess`) takes a cell with two candidates, or the fewest, and tries each candidate
//! on a copy of the state.
//!
//! The search, from reading the givens to the last guess, is compiled twice on x86-64: once for
//! any processor and once with x86-64-v3's bit and vector instructions (`popcnt`, BMI, AVX2), which
//! it takes when the processor has them (checked at run time); there the band closure reads and
//! spreads segments with `pext` and `pdep` instead of tables. The functions the search calls are
//! `#[inline(always)]` so that each copy holds all of them, compiled for its own instructions.
//!
//! A search starts from the givens as band-digit words (`givens`).
//!
//! Digits: the search's words index digits from 0 (`digit` 0..9 below, a band digit `bd` is
//! `9 * band + digit`); at the boundary, in [`Grid`] and in [`Outcome`], digits are 1..=9.

mod configurations;
mod givens;
mod guess;
mod segments;

pub(crate) use givens::Givens;
#[cfg(target_arch = "x86_64")]
use segments::V3;
use segments::{CLOSURE, SegmentBits, Tables};

use crate::model::grid::{BYTE_MASKS, CELLS, Grid};

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

/// The outcome of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found, at most the limit asked for.
    pub solutions: usize,
    /// The first solution found.
    pub first_solution: Option<Grid>,
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
    let houses = |cell: u32| HOUSES_OF_CELL[cell.trailing_zeros() as usize];
    let (a, b, c) = (houses(first), houses(second), houses(third));
    let clash = a & rest | b & third | third & third.wrapping_sub(1);
    (a | b | c, clash != 0)
}

/// The two lowest digits (0..9) of a digit set (bit `digit`) that holds at least two; 8 in place
/// of a missing one, so that the caller may index with them unchecked.
///
/// The search's small arrays are written out rather than made by `map` or `from_fn`: those are
/// generic functions of `core`, which a build in several codegen units without link-time
/// optimisation (the test profile) may leave as calls in the search's hottest loops.
#[inline(always)]
fn two_digits(digits: u32) -> [usize; 2] {
    let lowest = |d: u32| (d.trailing_zeros() as usize).min(8);
    [lowest(digits), lowest(digits & digits.wrapping_sub(1))]
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
/// solver does, so on x86-64 it takes eight words at once (SSE2, always there); other targets take
/// the plain loop.
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
        // check on the hottest look-up of the solver.
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
            let columns_in = |band: usize| columns_of(self.candidates[9 * band + digit]);
            let columns = [columns_in(0), columns_in(1), columns_in(2)];
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
            // and one loop over the finds mispredicts less than a branch after every revisit.
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
    /// For a search on configurations, whether trying each waiting branch is a guess.
    counted: Vec<bool>,
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
    pub(crate) fn has_other_solution(&mut self, puzzle: &Grid, cell: usize, digit: u8) -> bool {
        Givens::of(puzzle).is_some_and(|givens| self.has_other_solution_from(&givens, cell, digit))
    }

    /// [`Solver::has_other_solution`] for a puzzle given as its givens.
    pub(crate) fn has_other_solution_from(
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
            first_solution: None,
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
                if outcome.first_solution.is_none() {
                    outcome.first_solution = Some(state.grid());
                }
                if outcome.solutions >= limit {
                    break;
                }
                continue;
            }
            let guess::Guess {
                band,
                cell: bit,
                lead,
            } = state.guess(reasoning);
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

    /// Whether reasoning alone, without a guess, solves `puzzle`.
    pub(crate) fn solves_without_guess(&mut self, puzzle: &Grid) -> bool {
        Givens::of(puzzle).is_some_and(|givens| {
            let mut state = givens.state();
            state.propagate(Reasoning::Full, Tables) && state.is_solved()
        })
    }

    /// The first solution of `puzzle`, if it has one.
    pub fn solve(&mut self, puzzle: &Grid) -> Option<Grid> {
        self.search(puzzle, 1).first_solution
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

#[cfg(test)]
mod tests {
    use super::*;

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
            if let Some(solution) = outcome.first_solution {
                assert!(solution.is_filled() && solution.keeps_givens_of(&p));
                assert_eq!(solution.first_repeat(), None);
            }
        }
    }

    #[test]
    fn both_compilations_of_the_search_agree() {
        let sets = [
            include_str!("../../../tests/data/sample_forum_hardest.txt"),
            include_str!("../../../tests/data/sample_serg.txt"),
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
        // On any processor the tables are checked against what a segment is; where BMI2 is, V3 too.
        let shift = |segment: usize| 9 * (segment / 3) + 3 * (segment % 3);
        let v3 = V3::detect();
        for bits in 0..512u32 {
            for row in 0..3 {
                let cells = bits << (9 * row) | 0o444_000_111 & !(0x1ff << (9 * row));
                let held = (0..9).filter(|&s| cells >> shift(s) & 7 != 0);
                assert_eq!(Tables.pattern(cells), held.fold(0, |p, s| p | 1 << s));
                if let Some(v3) = v3 {
                    assert_eq!(v3.pattern(cells), Tables.pattern(cells), "{cells:o}");
                }
            }
            let kept = (0..9).filter(|&s| bits >> s & 1 == 1);
            assert_eq!(
                Tables.cells(bits as usize),
                kept.fold(0, |c, s| c | 7 << shift(s))
            );
            if let Some(v3) = v3 {
                assert_eq!(
                    v3.cells(bits as usize),
                    Tables.cells(bits as usize),
                    "{bits:o}"
                );
            }
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

    /// A solved grid, and the puzzles made by emptying its cells one at a time, `stride` apart.
    pub(super) fn emptied_one_by_one(steps: usize, stride: usize) -> (Grid, Vec<Grid>) {
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
