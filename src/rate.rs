//! Grading: how hard a puzzle is for a person, by the hardest technique a logical solver needs.
//!
//! The solver works on candidates as people do, one technique at a time, always trying the simplest
//! first and going back to singles after every step:
//!
//! 1. **Singles**: a cell with one candidate left (naked single), or a digit with one place left in a
//!    house (hidden single).
//! 2. **Locked candidates**: a digit confined to one line inside a box leaves the rest of that line
//!    (pointing), or confined to one box inside a line leaves the rest of that box (claiming).
//! 3. **Pairs and triples**: two or three cells of a house whose candidates together are two or three
//!    digits take those digits from the house's other cells (naked); two or three digits confined to
//!    two or three cells of a house leave those cells no other candidates (hidden).
//!
//! When none applies, the puzzle needs something harder (fish, chains, trial): the solver fills one
//! cell from the solution, counts a *harder* step, and goes on.
//!
//! The level is 1 when singles suffice, 2 when the techniques of 2 and 3 are needed and suffice, and
//! 3 when something harder is needed. The counts say how many times each kind of step was taken.
//!
//! # Representation
//! 81 candidate masks (`u16`, bit `d` for digit `d`) and a table of the 27 houses' cells: plain and
//! easy to follow, which matters more here than speed; a rating takes microseconds.

use std::fmt;

use crate::grid::{CELLS, Grid, box_cell};
use crate::solve::Solver;

/// The difficulty level of a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Naked and hidden singles suffice.
    Singles = 1,
    /// Locked candidates, or naked or hidden pairs or triples, are needed, and suffice.
    Intermediate = 2,
    /// Those techniques are not enough.
    Harder = 3,
}

impl Level {
    /// The level numbered 1, 2 or 3.
    pub fn from_number(number: u8) -> Option<Level> {
        match number {
            1 => Some(Level::Singles),
            2 => Some(Level::Intermediate),
            3 => Some(Level::Harder),
            _ => None,
        }
    }

    /// 1, 2 or 3.
    pub fn number(self) -> u8 {
        self as u8
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// How a puzzle was solved by logic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// The hardest kind of step taken.
    pub level: Level,
    /// Singles placed.
    pub singles: u32,
    /// Locked-candidate steps that removed candidates.
    pub locked: u32,
    /// Pair or triple steps that removed candidates.
    pub pairs_triples: u32,
    /// Cells that needed something harder.
    pub harder: u32,
}

/// The cells of the 27 houses: rows, then columns, then boxes.
const HOUSES: [[usize; 9]; 27] = {
    let mut houses = [[0; 9]; 27];
    let mut n = 0;
    while n < 9 {
        let mut i = 0;
        while i < 9 {
            houses[n][i] = 9 * n + i;
            houses[9 + n][i] = 9 * i + n;
            houses[18 + n][i] = box_cell(n, i);
            i += 1;
        }
        n += 1;
    }
    houses
};

/// All nine digits as candidate bits.
const ALL: u16 = 0x3fe;

/// Rates `puzzle`; `None` unless it has exactly one solution.
pub fn rate(puzzle: &Grid) -> Option<Rating> {
    rate_with(&mut Solver::new(), puzzle)
}

/// Rates `puzzle` with a solver that can be reused; `None` unless it has exactly one solution.
pub fn rate_with(solver: &mut Solver, puzzle: &Grid) -> Option<Rating> {
    let outcome = solver.search(puzzle, 2);
    let solution = outcome.first.filter(|_| outcome.solutions == 1)?;
    Some(solve_logically(puzzle, Some(&solution), Level::Harder))
}

/// The level of `puzzle`, which must have exactly one solution: the rating stops at the first step
/// that needs something harder.
pub fn level_of_unique(puzzle: &Grid) -> Level {
    solve_logically(puzzle, None, Level::Harder).level
}

/// Whether the techniques of `level` and below solve `puzzle` (which must have exactly one solution).
/// Cheaper than [`level_of_unique`]: it stops at the first step that needs more.
pub fn solves_within(puzzle: &Grid, level: Level) -> bool {
    solve_logically(puzzle, None, level).harder == 0
}

/// Solves `puzzle` by logic with the techniques up to `allowed`, counting the steps; when stuck,
/// counts a harder step and fills a cell from `solution` and goes on, or, without one, stops there.
fn solve_logically(puzzle: &Grid, solution: Option<&Grid>, allowed: Level) -> Rating {
    let mut board = Board::new(puzzle);
    let mut rating = Rating {
        level: Level::Singles,
        singles: 0,
        locked: 0,
        pairs_triples: 0,
        harder: 0,
    };
    let intermediate = allowed >= Level::Intermediate;
    while board.empty != 0 {
        if board.single() {
            rating.singles += 1;
        } else if intermediate && board.locked_candidates() {
            rating.locked += 1;
        } else if intermediate && board.subsets() {
            rating.pairs_triples += 1;
        } else {
            rating.harder += 1;
            let Some(solution) = solution else { break };
            let cell = board.fewest_candidates();
            board.place(cell, solution.get(cell));
        }
    }
    rating.level = if rating.harder > 0 {
        Level::Harder
    } else if rating.locked + rating.pairs_triples > 0 {
        Level::Intermediate
    } else {
        Level::Singles
    };
    rating
}

/// The logical solver's state: the candidates of each cell (0 once it holds a digit).
struct Board {
    candidates: [u16; CELLS],
    /// The empty cells, bit `cell`.
    empty: u128,
}

/// The house of each kind (row, column, box) that holds `cell`, as indices into [`HOUSES`].
const fn houses_of(cell: usize) -> [usize; 3] {
    [cell / 9, 9 + cell % 9, 18 + 3 * (cell / 27) + cell % 9 / 3]
}

impl Board {
    fn new(puzzle: &Grid) -> Board {
        let mut board = Board {
            candidates: [ALL; CELLS],
            empty: (1 << CELLS) - 1,
        };
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                board.place(cell, digit);
            }
        }
        board
    }

    fn place(&mut self, cell: usize, digit: u8) {
        self.candidates[cell] = 0;
        self.empty &= !(1 << cell);
        for house in houses_of(cell) {
            for &peer in &HOUSES[house] {
                self.candidates[peer] &= !(1 << digit);
            }
        }
    }

    /// The empty cell with the fewest candidates.
    fn fewest_candidates(&self) -> usize {
        (0..CELLS)
            .filter(|&c| self.empty >> c & 1 == 1)
            .min_by_key(|&c| self.candidates[c].count_ones())
            .expect("an empty cell")
    }

    /// Where `digit` may go in `house`: bit `i` for the house's `i`-th cell.
    fn places(&self, house: usize, digit: u8) -> u16 {
        HOUSES[house].iter().enumerate().fold(0, |acc, (i, &c)| {
            acc | (self.candidates[c] >> digit & 1) << i
        })
    }

    /// Places one naked or hidden single; whether there was one.
    fn single(&mut self) -> bool {
        let mut rest = self.empty;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let c = self.candidates[cell];
            if c.count_ones() == 1 {
                self.place(cell, c.trailing_zeros() as u8);
                return true;
            }
        }
        for house in &HOUSES {
            let (mut once, mut twice) = (0u16, 0u16);
            for &cell in house {
                twice |= once & self.candidates[cell];
                once |= self.candidates[cell];
            }
            let hidden = once & !twice;
            if hidden != 0 {
                let digit = hidden.trailing_zeros() as u8;
                let cell = *house
                    .iter()
                    .find(|&&c| self.candidates[c] >> digit & 1 == 1)
                    .expect("a cell");
                self.place(cell, digit);
                return true;
            }
        }
        false
    }

    /// Removes the candidates `digits` from the cells of `house` outside `keep` (bits of the house's
    /// cells); whether any went.
    fn remove_outside(&mut self, house: usize, keep: u16, digits: u16) -> bool {
        let mut removed = false;
        for (i, &cell) in HOUSES[house].iter().enumerate() {
            if keep >> i & 1 == 0 && self.candidates[cell] & digits != 0 {
                self.candidates[cell] &= !digits;
                removed = true;
            }
        }
        removed
    }

    /// The cells of `house` (bits) that also lie in `other`.
    fn shared(house: usize, other: usize) -> u16 {
        HOUSES[house].iter().enumerate().fold(0, |acc, (i, c)| {
            acc | u16::from(HOUSES[other].contains(c)) << i
        })
    }

    /// One locked-candidates step (pointing or claiming) that removes something; whether there was one.
    fn locked_candidates(&mut self) -> bool {
        for digit in 1..=9u8 {
            let bit = 1 << digit;
            // Pointing: a box's places lie on one row or column. Claiming: a line's places lie in one
            // box. Either way the places leave the other house.
            for (house, cells) in HOUSES.iter().enumerate() {
                let places = self.places(house, digit);
                if places.count_ones() < 2 {
                    continue;
                }
                let first = cells[places.trailing_zeros() as usize];
                let others: &[usize] = if house >= 18 {
                    &houses_of(first)[..2]
                } else {
                    &houses_of(first)[2..]
                };
                for &other in others {
                    let inside = Board::shared(house, other);
                    if places & !inside == 0 {
                        let keep = Board::shared(other, house);
                        if self.remove_outside(other, keep, bit) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// One naked or hidden pair or triple step that removes something; whether there was one.
    fn subsets(&mut self) -> bool {
        for size in 2..=3 {
            for (house, cells) in HOUSES.iter().enumerate() {
                let open: Vec<usize> = (0..9)
                    .filter(|&i| self.empty >> cells[i] & 1 == 1)
                    .collect();
                if open.len() <= size {
                    continue;
                }
                // Naked: `size` cells whose candidates together are `size` digits.
                for group in combinations(&open, size) {
                    let digits = group
                        .iter()
                        .fold(0, |acc, &i| acc | self.candidates[cells[i]]);
                    let keep = group.iter().fold(0u16, |acc, &i| acc | 1 << i);
                    if digits.count_ones() as usize == size
                        && self.remove_outside(house, keep, digits)
                    {
                        return true;
                    }
                }
                // Hidden: `size` digits whose places together are `size` cells.
                let places: [u16; 10] = std::array::from_fn(|d| {
                    if d == 0 {
                        0
                    } else {
                        self.places(house, d as u8)
                    }
                });
                let digits: Vec<usize> = (1..=9).filter(|&d| places[d] != 0).collect();
                for group in combinations(&digits, size) {
                    let cells_of_group = group.iter().fold(0, |acc, &d| acc | places[d]);
                    let mask = group.iter().fold(0u16, |acc, &d| acc | 1 << d);
                    if cells_of_group.count_ones() as usize == size {
                        let mut removed = false;
                        for i in (0..9).filter(|&i| cells_of_group >> i & 1 == 1) {
                            let cell = cells[i];
                            if self.candidates[cell] & !mask != 0 {
                                self.candidates[cell] &= mask;
                                removed = true;
                            }
                        }
                        if removed {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }
}

/// The subsets of `size` (2 or 3) items of `items`, in order.
fn combinations(items: &[usize], size: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for i in 0..items.len() {
        for j in i + 1..items.len() {
            if size == 2 {
                out.push(vec![items[i], items[j]]);
                continue;
            }
            for k in j + 1..items.len() {
                out.push(vec![items[i], items[j], items[k]]);
            }
        }
    }
    out
}
