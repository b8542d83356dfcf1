//! Which cell a search guesses on, and which of its digits it tries first.
//!
//! For solving and proving uniqueness (after reasoning on bands and stacks), the cell with two
//! candidates whose two branches take the most candidates out of its peers (row, box and column),
//! a peer that itself has two candidates counting three times, since its branch fills it next.
//! Where any solution will do (digging's "is there another solution", after reasoning on bands
//! only), the first cell with two candidates: solutions are many there, and cheaper nodes find one
//! sooner. With no such cell, a cell with the fewest candidates.
//!
//! The digit tried first is the one with more candidates left in the grid: it is the likelier to be
//! wrong, and a wrong branch is cut quickly while the other waits on the stack.

use super::{HOUSES_OF_CELL, Reasoning, State, column_cells, two_digits};

/// A guess: the cell to branch on and the digit tried first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Guess {
    /// The band of the cell (0..3).
    pub(super) band: usize,
    /// The cell, as its bit in the band's 27-bit words.
    pub(super) cell: u32,
    /// The digit index (0..9) tried first; 9 when the cell has no candidate left.
    pub(super) lead: usize,
}

impl State {
    /// The guess to make in this state (see the module comment).
    #[inline(always)]
    pub(super) fn guess(&self, reasoning: Reasoning) -> Guess {
        let lowest = |cells: u32| cells & cells.wrapping_neg();
        let pairs_in = |band: usize| {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for &cells in &self.candidates[9 * band..9 * band + 9] {
                three |= two & cells;
                two |= one & cells;
                one |= cells;
            }
            self.empty[band] & two & !three
        };
        let pairs = [pairs_in(0), pairs_in(1), pairs_in(2)];
        let first_in = |cells: [u32; 3]| {
            (0..3)
                .find(|&band| cells[band] != 0)
                .map(|band| (band, lowest(cells[band])))
        };
        if reasoning == Reasoning::Bands {
            if let Some((band, bit)) = first_in(pairs) {
                return Guess {
                    band,
                    cell: bit,
                    lead: self.smallest_digit(band, bit),
                };
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
                            & other_bands([
                                self.candidates[9 * below + digit],
                                self.candidates[9 * above + digit],
                            ]);
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
                let spread = |digit: usize| {
                    let spread = (0..3).map(|band| self.candidates[9 * band + digit]);
                    (spread.map(u32::count_ones).sum::<u32>(), digit)
                };
                let [low, high] = two_digits(digits);
                let (low, high) = (spread(low), spread(high));
                let lead = if high.0 > low.0 { high.1 } else { low.1 };
                return Guess {
                    band,
                    cell: bit,
                    lead,
                };
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
        Guess {
            band,
            cell: bit,
            lead: self.smallest_digit(band, bit),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Grid, Solver};

    fn puzzle(line: &str) -> Grid {
        line.parse().unwrap()
    }

    #[test]
    fn guess_choice_needs_few_guesses_on_the_hardest_sample() {
        // The guess choice decides how much a search costs.
        let mut solver = Solver::new();
        let mut guesses = |limit| {
            include_str!("../../../../tests/data/sample_forum_hardest.txt")
                .lines()
                .filter(|line| !line.is_empty() && !line.starts_with('#'))
                .map(|line| solver.search(&puzzle(line), limit).guesses)
                .sum::<usize>()
        };
        // Bounds a little above today's totals: a worse choice fails, a better one passes.
        let (first, unique) = (guesses(1), guesses(2));
        assert!(
            first <= 2500 && unique <= 5200,
            "{first} and {unique} guesses"
        );
    }
}
