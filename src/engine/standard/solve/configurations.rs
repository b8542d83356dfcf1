//! A second way to guess, for the difficulty measure: on a digit's *configuration* in a band or a
//! stack rather than on a cell.
//!
//! ```text
//!   a band:  box 0  box 1  box 2       a configuration of digit 5 in it: the row of each box
//!   row 0    . . .  . 5 .  . . .       that holds the 5, an order of three (row r holds it in
//!   row 1    . . .  . . .  5 . .       box order[r]): here row 0 in box 1, row 1 in box 2,
//!   row 2    5 . .  . . .  . . .       row 2 in box 0, the order [1, 2, 0]
//! ```
//!
//! A digit has six configurations in a band (and six in a stack, where the order names a column
//! of each box); the segment pattern of its candidates (bit `3 * row + box`, see `segments`) holds
//! some of them. Search solvers of the fastest kind branch there, not on cells: pick the band or
//! stack with the fewest configurations left over all its digits, in it a digit with two (else
//! three, else the first with more), and try one configuration against the others. One
//! configuration fixes three segments of a digit at once, so such a search guesses on what a cell
//! search would take several guesses to settle, and a puzzle hard for one branching is not always
//! hard for the other. The measure counts guesses this way so that a puzzle it calls hard is hard
//! for search solvers at large, not for our cell order alone.
//!
//! The count follows a two-way branch, one configuration against the rest: a digit with `k`
//! configurations is tried `k` ways, and the `k - 1` first of them are a guess each when tried.
//! The reasoning between guesses is the solver's own (bands, stacks, singles).

use super::segments::{ORDER_SEGMENTS, SegmentBits};
use super::{Reasoning, Solver, Start, State, column_cells, columns_of};
use crate::model::grid::{Grid, ORDERS_OF_THREE};

use super::givens::Givens;
use super::segments::Tables;
#[cfg(target_arch = "x86_64")]
use super::segments::V3;

/// For a segment pattern, the orders (bit `p` for `ORDERS_OF_THREE[p]`) it holds.
const ORDERS_IN: [u8; 512] = {
    let mut table = [0; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut p = 0;
        while p < 6 {
            if pattern as u16 & ORDER_SEGMENTS[p] == ORDER_SEGMENTS[p] {
                table[pattern] |= 1 << p;
            }
            p += 1;
        }
        pattern += 1;
    }
    table
};

/// The three segments of box `b` in a pattern (one per row).
const BOX_SEGMENTS: [u16; 3] = [0o111, 0o222, 0o444];

/// For a segment pattern, the segments its digit must take: those alone in their box.
const FORCED: [u16; 512] = {
    let mut table = [0; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut b = 0;
        while b < 3 {
            let in_box = pattern as u16 & BOX_SEGMENTS[b];
            if in_box.count_ones() == 1 {
                table[pattern] |= in_box;
            }
            b += 1;
        }
        pattern += 1;
    }
    table
};

/// A pattern with rows and boxes swapped (bit `3 * row + box` to bit `3 * box + row`): a
/// stack's pattern (bit `3 * band + column`) read with its boxes as a band's are.
const TRANSPOSED: [u16; 512] = {
    let mut table = [0; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut bit = 0;
        while bit < 9 {
            if pattern >> bit & 1 == 1 {
                table[pattern] |= 1 << (3 * (bit % 3) + bit / 3);
            }
            bit += 1;
        }
        pattern += 1;
    }
    table
};

/// A branch on configurations: the digit of a band (`stack` false) or stack, and the orders it
/// still holds there, two or more.
#[derive(Clone, Copy)]
struct Branch {
    stack: bool,
    index: usize,
    digit: usize,
    orders: u8,
}

impl State {
    /// The segment pattern of `digit` in band `band`, or with `stack` in stack `band` (bit
    /// `3 * band + column` of the stack's columns).
    #[inline(always)]
    fn pattern_in(
        &self,
        stack: bool,
        band: usize,
        digit: usize,
        segments: impl SegmentBits,
    ) -> usize {
        if stack {
            (0..3).fold(0, |acc, b| {
                acc | (columns_of(self.candidates[9 * b + digit]) as usize >> (3 * band) & 7)
                    << (3 * b)
            })
        } else {
            segments.pattern(self.candidates[9 * band + digit])
        }
    }

    /// The triads' rule, once over every band and stack: the three cells of a box's row (or
    /// column) hold three digits. A segment only three digits can take holds those three, which
    /// leave the box's other rows; a segment three digits must take (each has nowhere else in the
    /// box) holds no other. `None` on a contradiction (fewer than three digits can, more than
    /// three must), else whether a candidate went.
    #[inline(always)]
    fn triads(&mut self, segments: impl SegmentBits) -> Option<bool> {
        let mut progress = false;
        for stack in [false, true] {
            for index in 0..3 {
                // Filled in place, not by `from_fn` (see `two_digits` in `solve.rs`).
                let mut patterns = [0u16; 9];
                for (digit, slot) in patterns.iter_mut().enumerate() {
                    let pattern = self.pattern_in(stack, index, digit, segments) & 0x1ff;
                    *slot = if stack {
                        TRANSPOSED[pattern]
                    } else {
                        pattern as u16
                    };
                }
                // Per segment, whether at least k digits can take it, and must.
                let (mut can, mut must) = ([0x1ffu16, 0, 0, 0, 0], [0x1ffu16, 0, 0, 0, 0]);
                for &pattern in &patterns {
                    let forced = FORCED[pattern as usize];
                    for k in (1..5).rev() {
                        can[k] |= can[k - 1] & pattern;
                        must[k] |= must[k - 1] & forced;
                    }
                }
                if can[3] != 0x1ff || must[4] != 0 {
                    return None;
                }
                let (only_three, three_must) = (!can[4] & 0x1ff, must[3]);
                if only_three | three_must == 0 {
                    continue;
                }
                let mut changed = false;
                for pattern in &mut patterns {
                    let mut kept = *pattern & !(three_must & !FORCED[*pattern as usize]);
                    for in_box in BOX_SEGMENTS {
                        let ours = kept & only_three & in_box;
                        if ours != 0 {
                            kept &= !in_box | ours;
                        }
                    }
                    changed |= kept != *pattern;
                    *pattern = kept;
                }
                if changed {
                    progress = true;
                    for (digit, &pattern) in patterns.iter().enumerate() {
                        self.keep_pattern(stack, index, digit, pattern, segments);
                    }
                }
            }
        }
        Some(progress)
    }

    /// Keeps `digit` to the segments of `pattern` (read as `triads` reads it) in band or stack
    /// `index`.
    #[inline(always)]
    fn keep_pattern(
        &mut self,
        stack: bool,
        index: usize,
        digit: usize,
        pattern: u16,
        segments: impl SegmentBits,
    ) {
        if stack {
            let pattern = TRANSPOSED[pattern as usize] as u32;
            let stack_cells = column_cells(0) * (7 << (3 * index));
            for band in 0..3 {
                let columns = (pattern >> (3 * band) & 7) << (3 * index);
                let bd = 9 * band + digit;
                let kept = self.candidates[bd] & (!stack_cells | (column_cells(0) * columns));
                self.dirty |= u32::from(kept != self.candidates[bd]) << bd;
                self.candidates[bd] = kept;
            }
        } else {
            let bd = 9 * index + digit;
            let kept = self.candidates[bd] & segments.cells(pattern as usize);
            self.dirty |= u32::from(kept != self.candidates[bd]) << bd;
            self.candidates[bd] = kept;
        }
    }

    /// The solver's reasoning and the triads' rule until nothing more follows; `false` on a
    /// contradiction.
    #[inline(always)]
    fn reason_on_triads(&mut self, segments: impl SegmentBits) -> bool {
        loop {
            if !self.propagate(Reasoning::Full, segments) {
                return false;
            }
            match self.triads(segments) {
                None => return false,
                Some(false) => return true,
                Some(true) => {}
            }
        }
    }

    /// Where to branch (see the module comment); `None` when every digit has one configuration
    /// in every band and stack.
    #[inline(always)]
    fn configuration_branch(&self, segments: impl SegmentBits) -> Option<Branch> {
        let mut best: Option<(u32, Branch)> = None;
        for stack in [false, true] {
            for index in 0..3 {
                let mut orders = [0u8; 9];
                for (digit, slot) in orders.iter_mut().enumerate() {
                    *slot = ORDERS_IN[self.pattern_in(stack, index, digit, segments) & 0x1ff];
                }
                let count: u32 = orders.iter().map(|o| o.count_ones()).sum();
                if count <= 9 || best.is_some_and(|(least, _)| count >= least) {
                    continue;
                }
                let digit = [2, 3]
                    .iter()
                    .find_map(|&k| orders.iter().position(|o| o.count_ones() == k))
                    .or_else(|| orders.iter().position(|o| o.count_ones() > 3))
                    .expect("a band with more configurations than digits has a digit with two");
                let branch = Branch {
                    stack,
                    index,
                    digit,
                    orders: orders[digit],
                };
                best = Some((count, branch));
            }
        }
        best.map(|(_, branch)| branch)
    }

    /// Keeps `digit` to the segments of order `p` in band or stack `index`.
    #[inline(always)]
    fn keep_order(&mut self, branch: Branch, p: usize, segments: impl SegmentBits) {
        let digit = branch.digit;
        if branch.stack {
            let order = ORDERS_OF_THREE[p];
            for (band, &column) in order.iter().enumerate() {
                let stack_cells = column_cells(0) * (7 << (3 * branch.index));
                let kept = column_cells(3 * branch.index + column);
                let bd = 9 * band + digit;
                self.candidates[bd] &= !stack_cells | kept;
                self.dirty |= 1 << bd;
            }
        } else {
            let bd = 9 * branch.index + digit;
            self.candidates[bd] &= segments.cells(ORDER_SEGMENTS[p] as usize);
            self.dirty |= 1 << bd;
        }
    }
}

impl Solver {
    /// The guesses a search that branches on configurations (see the module comment) makes to
    /// find a first solution of `puzzle` (0 when reasoning alone solves it), or `None` if it
    /// has none.
    pub(crate) fn configuration_guesses(&mut self, puzzle: &Grid) -> Option<usize> {
        let givens = Givens::of(puzzle)?;
        #[cfg(target_arch = "x86_64")]
        if let Some(v3) = V3::detect() {
            // SAFETY: `v3` proves that the processor has the extensions `configurations_with_v3`
            // is compiled for.
            return unsafe { self.configurations_with_v3(givens.state(), v3) };
        }
        self.configurations_here(givens.state(), Tables)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn configurations_with_v3(&mut self, state: State, v3: V3) -> Option<usize> {
        self.configurations_here(state, v3)
    }

    /// The search itself; each waiting branch on the stack says whether trying it is a guess.
    #[inline(always)]
    fn configurations_here(&mut self, state: State, segments: impl SegmentBits) -> Option<usize> {
        let mut guesses = 0;
        self.stack.clear();
        self.counted.clear();
        let mut current = Some(state);
        loop {
            let mut state = match current.take() {
                Some(state) => state,
                None => match self.stack.pop() {
                    Some(state) => {
                        guesses += usize::from(self.counted.pop().unwrap_or(false));
                        state
                    }
                    None => return None,
                },
            };
            if !state.reason_on_triads(segments) {
                continue;
            }
            if state.is_solved() {
                return Some(guesses);
            }
            let Some(branch) = state.configuration_branch(segments) else {
                // Every configuration fixed leaves every digit one cell a box: reasoning placed
                // them all, so this is not reached; a cell guess keeps the search whole if it is.
                let outcome = self.search_from(Start::State(state), 1, Reasoning::Full);
                return (outcome.solutions > 0).then_some(guesses + outcome.guesses);
            };
            guesses += 1;
            // The lowest order goes on at once; the others wait, the last of them (the rest once
            // all before it failed) without a guess of its own.
            let others = branch.orders & (branch.orders - 1);
            let mut rest = others;
            let mut rank = others.count_ones();
            while rest != 0 {
                let p = 7 - rest.leading_zeros() as usize;
                rest &= !(1 << p);
                rank -= 1;
                let mut alternative = state;
                alternative.keep_order(branch, p, segments);
                self.stack.push(alternative);
                self.counted.push(rank + 1 < others.count_ones());
            }
            state.keep_order(branch, branch.orders.trailing_zeros() as usize, segments);
            current = Some(state);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Grid, Solver};

    fn puzzles(text: &str) -> Vec<Grid> {
        text.lines()
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .map(|line| line.parse().unwrap())
            .collect()
    }

    #[test]
    fn the_search_on_configurations_solves_what_has_a_solution() {
        // The triads' rule and the branches keep every solution: a wrong cut would leave a
        // puzzle with a solution unsolved.
        let mut solver = Solver::new();
        for text in [
            include_str!("../../../../tests/data/sample_forum_hardest.txt"),
            include_str!("../../../../tests/data/sample_17_clue.txt"),
        ] {
            for puzzle in puzzles(text) {
                assert!(
                    solver.configuration_guesses(&puzzle).is_some(),
                    "{puzzle:?}"
                );
            }
        }
        let mut clash = Grid::EMPTY;
        clash.set(0, 1);
        clash.set(1, 1);
        assert_eq!(solver.configuration_guesses(&clash), None);
        // Givens that leave the last cell of the first row no digit.
        let mut stuck = Grid::EMPTY;
        for cell in 0..8 {
            stuck.set(cell, cell as u8 + 1);
        }
        stuck.set(17, 9);
        assert_eq!(solver.configuration_guesses(&stuck), None);
    }

    #[test]
    fn hard_puzzles_take_configuration_guesses_and_easy_ones_none() {
        let mut solver = Solver::new();
        let forum = puzzles(include_str!(
            "../../../../tests/data/sample_forum_hardest.txt"
        ));
        let guesses: usize = forum
            .iter()
            .map(|p| solver.configuration_guesses(p).unwrap())
            .sum();
        // The forum's hardest need tens of guesses each by this branching, as by tdoku's.
        assert!(
            guesses >= 10 * forum.len(),
            "{guesses} over {}",
            forum.len()
        );
        let solved =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let mut easy: Grid = solved.parse().unwrap();
        for cell in (0..81).step_by(5) {
            easy.set(cell, 0);
        }
        assert_eq!(solver.configuration_guesses(&easy), Some(0));
    }
}
