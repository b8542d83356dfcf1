//! Rating: how hard a puzzle is for a person, by the hardest technique a logical solver needs.
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
//!
//! Every other shape is rated by the same steps over its own houses (`rate/shaped.rs`), so that a level
//! means the same on every shape.

mod shaped;

use std::fmt;

use rayon::prelude::*;

use crate::engine::hard::measure::push_mean;
use crate::engine::standard::hard::measure::total_guesses;
use crate::engine::standard::solve::Solver;
use crate::jobs::solve::{BatchOutput, PuzzleProblem};
use crate::model::grid::{CELLS, Grid, HOUSES, houses_of};
use crate::problems::Problems;
use crate::text::format::push_line;
use crate::text::parse::Puzzles;

pub(crate) use shaped::{ShapeLogic, rate_shaped};

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

    /// The refusal of `--guesses` a puzzle of level `level` cannot meet, on any shape: the
    /// solvers reason with singles and locked candidates alone, so a puzzle they solve without a
    /// guess is of level 2 at most, and one of level 1 needs none.
    pub(crate) fn refuse_guesses(
        level: Option<Level>,
        guesses: &std::ops::RangeInclusive<usize>,
    ) -> Result<(), String> {
        let asked = format!("--guesses {}~{}", guesses.start(), guesses.end());
        match level {
            Some(Level::Singles) if *guesses.start() > 0 => Err(format!(
                "{asked}: level 1 puzzles are solved without a guess: --guesses must start at 0"
            )),
            Some(Level::Harder) if *guesses.end() == 0 => Err(format!(
                "{asked}: level 3 puzzles need a guess (the search reasons with singles and \
                 locked candidates, which level 2 has): --guesses must end at 1 or more"
            )),
            _ => Ok(()),
        }
    }

    /// The level below, if any.
    pub(crate) fn easier(self) -> Option<Level> {
        match self {
            Level::Singles => None,
            Level::Intermediate => Some(Level::Singles),
            Level::Harder => Some(Level::Intermediate),
        }
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
    /// Guesses the search made to solve the puzzle and prove its solution unique: a measure of
    /// difficulty that needs no logic.
    pub guesses: u32,
    /// The guesses the search makes to find a solution over the fixed random equivalents of
    /// `-n --hard`'s measure, added up (ten times their mean), by the kernel of the puzzle's
    /// shape; `None` until the search has counted them.
    pub guesses_total: Option<usize>,
}

/// For two houses, the cells of the first (bit `i` for its `i`-th cell) that lie in the second.
const SHARED: [[u16; 27]; 27] = {
    let mut table = [[0; 27]; 27];
    let mut a = 0;
    while a < 27 {
        let mut b = 0;
        while b < 27 {
            let mut i = 0;
            while i < 9 {
                let mut j = 0;
                while j < 9 {
                    if HOUSES[a][i] == HOUSES[b][j] {
                        table[a][b] |= 1 << i;
                    }
                    j += 1;
                }
                i += 1;
            }
            b += 1;
        }
        a += 1;
    }
    table
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
    let solution = outcome.first_solution.filter(|_| outcome.solutions == 1)?;
    Some(Rating {
        guesses: u32::try_from(outcome.guesses).unwrap_or(u32::MAX),
        guesses_total: Some(total_guesses(solver, puzzle)),
        ..solve_logically(
            &mut Board::new(puzzle),
            Some(solution.cells()),
            Level::Harder,
        )
    })
}

/// The level of `puzzle` (which must have exactly one solution) when it is `ceiling` or below, else
/// [`Level::Harder`]: only the techniques up to `ceiling` are run.
pub(crate) fn level_within(puzzle: &Grid, ceiling: Level) -> Level {
    solve_logically(&mut Board::new(puzzle), None, ceiling).level
}

/// The ratings of a file's puzzles as CSV, rated over the thread pool: [`HEADER`] if asked, then one
/// row per puzzle, `puzzle,level,singles,locked,pairs_triples,harder,guesses,guesses_mean` (the
/// puzzle in the line format). A puzzle without exactly one solution gets `invalid` and empty counts, and is a
/// problem.
pub fn rate_file(puzzles: &Puzzles, with_header: bool) -> BatchOutput {
    let ratings: Vec<Option<Rating>> = puzzles
        .grids
        .par_iter()
        .map_init(Solver::new, rate_with)
        .collect();
    let mut text = if with_header {
        HEADER.to_vec()
    } else {
        Vec::new()
    };
    let mut problems = Problems::new();
    for (index, (grid, rating)) in puzzles.grids.iter().zip(&ratings).enumerate() {
        push_line(&mut text, grid, b'.');
        push_columns(&mut text, rating.as_ref());
        if rating.is_none() {
            problems.push_with(|| PuzzleProblem::new(puzzles, index, NOT_ONE_SOLUTION));
        }
    }
    BatchOutput { text, problems }
}

/// The problem of a puzzle that cannot be rated.
const NOT_ONE_SOLUTION: &str = "not exactly one solution";

/// Ends a row of [`HEADER`]'s CSV after its puzzle: the counts of `rating`, or `invalid` and empty
/// counts without one.
fn push_columns(text: &mut Vec<u8>, rating: Option<&Rating>) {
    match rating {
        Some(r) => {
            for n in [
                u32::from(r.level.number()),
                r.singles,
                r.locked,
                r.pairs_triples,
                r.harder,
                r.guesses,
            ] {
                text.push(b',');
                text.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
            }
            text.push(b',');
            if let Some(total) = r.guesses_total {
                push_mean(text, total);
            }
        }
        None => text.extend_from_slice(b",invalid,,,,,,"),
    }
    text.push(b'\n');
}

/// The header of [`rate_file`]'s CSV.
pub const HEADER: &[u8] =
    b"puzzle,level,singles,locked,pairs_triples,harder,guesses,guesses_mean\n";

/// Whether the techniques of `level` and below solve `puzzle` (which must have exactly one solution).
/// Cheaper than [`level_within`]: it stops at the first step that needs more.
pub(crate) fn solves_within(puzzle: &Grid, level: Level) -> bool {
    solve_logically(&mut Board::new(puzzle), None, level).harder == 0
}

/// The steps of a logical solver's board, whatever the shape: each takes one step of its kind if
/// it can (singles: all that the board shows at once).
trait Steps {
    /// Whether every cell holds a value.
    fn is_solved(&self) -> bool;
    /// Places the naked singles, or else the hidden singles, the board shows; how many.
    fn singles(&mut self) -> u32;
    /// One locked-candidates step that removes something; whether there was one.
    fn locked_candidates(&mut self) -> bool;
    /// One naked or hidden pair or triple step that removes something; whether there was one.
    fn subsets(&mut self) -> bool;
    /// Fills the empty cell with the fewest candidates (the first such) with its value in
    /// `solution`.
    fn fill_from(&mut self, solution: &[u8]);
}

/// Solves `board` by logic with the techniques up to `allowed`, counting the steps; when stuck,
/// counts a harder step and fills a cell from `solution` and goes on, or, without one, stops there.
fn solve_logically(board: &mut impl Steps, solution: Option<&[u8]>, allowed: Level) -> Rating {
    let mut rating = Rating {
        level: Level::Singles,
        singles: 0,
        locked: 0,
        pairs_triples: 0,
        harder: 0,
        // Only the raters search, and they fill these in.
        guesses: 0,
        guesses_total: None,
    };
    let intermediate = allowed >= Level::Intermediate;
    while !board.is_solved() {
        let singles = board.singles();
        if singles > 0 {
            rating.singles += singles;
        } else if intermediate && board.locked_candidates() {
            rating.locked += 1;
        } else if intermediate && board.subsets() {
            rating.pairs_triples += 1;
        } else {
            rating.harder += 1;
            let Some(solution) = solution else { break };
            board.fill_from(solution);
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

    /// Where each digit may go in `house`: bit `i` of entry `digit` for the house's `i`-th cell.
    fn places(&self, house: usize) -> [u16; 10] {
        let mut places = [0u16; 10];
        for (i, &cell) in HOUSES[house].iter().enumerate() {
            for digit in bits(u32::from(self.candidates[cell])) {
                places[digit] |= 1 << i;
            }
        }
        places
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
        SHARED[house][other]
    }
}

impl Steps for Board {
    fn is_solved(&self) -> bool {
        self.empty == 0
    }

    fn fill_from(&mut self, solution: &[u8]) {
        let cell = (0..CELLS)
            .filter(|&c| self.empty >> c & 1 == 1)
            .min_by_key(|&c| self.candidates[c].count_ones())
            .expect("an empty cell");
        self.place(cell, solution[cell]);
    }

    /// One scan serves many singles, and their count does not depend on the order.
    fn singles(&mut self) -> u32 {
        let mut placed = 0;
        let mut rest = self.empty;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let c = self.candidates[cell];
            if c.count_ones() == 1 {
                self.place(cell, c.trailing_zeros() as u8);
                placed += 1;
            }
        }
        if placed > 0 {
            return placed;
        }
        for house in &HOUSES {
            let (mut once, mut twice) = (0u16, 0u16);
            for &cell in house {
                twice |= once & self.candidates[cell];
                once |= self.candidates[cell];
            }
            for digit in bits(u32::from(once & !twice)) {
                // Still there: an earlier single of this pass may have taken the digit's place.
                if let Some(&cell) = house
                    .iter()
                    .find(|&&c| self.candidates[c] >> digit & 1 == 1)
                {
                    self.place(cell, digit as u8);
                    placed += 1;
                }
            }
        }
        placed
    }

    fn locked_candidates(&mut self) -> bool {
        // Pointing: a box's places for a digit lie on one row or column. Claiming: a line's places lie
        // in one box. Either way the digit leaves the rest of the other house.
        for (house, cells) in HOUSES.iter().enumerate() {
            let places = self.places(house);
            for digit in 1..=9u8 {
                let here = places[usize::from(digit)];
                if here.count_ones() < 2 {
                    continue;
                }
                let first = cells[here.trailing_zeros() as usize];
                let others: &[usize] = if house >= 18 {
                    &houses_of(first)[..2]
                } else {
                    &houses_of(first)[2..]
                };
                for &other in others {
                    if here & !Board::shared(house, other) == 0
                        && self.remove_outside(other, Board::shared(other, house), 1 << digit)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn subsets(&mut self) -> bool {
        for size in 2..=3 {
            for cells in &HOUSES {
                let candidates = cells.map(|c| u32::from(self.candidates[c]));
                if let Some(subset) = find_subset(&candidates, size) {
                    for (i, &cell) in cells.iter().enumerate() {
                        self.candidates[cell] = subset.kept(i, candidates[i]) as u16;
                    }
                    return true;
                }
            }
        }
        false
    }
}

/// A naked or hidden pair or triple of a house that removes something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Subset {
    /// The cells of the house it is in (bit `i` for the house's `i`-th cell).
    cells: u32,
    /// Its values.
    values: u32,
    /// Hidden: the values fit only `cells`, which lose every other. Naked: `cells` hold only the
    /// values, which every other cell loses.
    hidden: bool,
}

impl Subset {
    /// What is left of `candidates`, those of the house's `i`-th cell, once the subset is used.
    fn kept(&self, i: usize, candidates: u32) -> u32 {
        match (self.hidden, self.cells >> i & 1 == 1) {
            (true, true) => candidates & self.values,
            (false, false) => candidates & !self.values,
            _ => candidates,
        }
    }
}

/// The first naked, else the first hidden, subset of `size` (2 or 3) values of a house that
/// removes something: `candidates` holds the candidates of its cells in order (0 for a filled
/// cell). Only cells and values with at most `size` candidates or places can be part of one,
/// which keeps the search short on large houses.
fn find_subset(candidates: &[u32], size: usize) -> Option<Subset> {
    let open = candidates.iter().filter(|&&c| c != 0).count();
    if open <= size {
        return None;
    }
    let few = |mask: u32| (1..=size as u32).contains(&mask.count_ones());
    let mut naked = 0;
    let mut places = [0u32; 32];
    for (i, &c) in candidates.iter().enumerate() {
        naked |= u32::from(few(c)) << i;
        for value in bits(c) {
            places[value] |= 1 << i;
        }
    }
    let removes = |subset: Subset| {
        (0..candidates.len()).any(|i| subset.kept(i, candidates[i]) != candidates[i])
    };
    let naked = subsets_of(naked, size).find_map(|cells| {
        let values = bits(cells).fold(0, |acc, i| acc | candidates[i]);
        let subset = Subset {
            cells,
            values,
            hidden: false,
        };
        (values.count_ones() as usize == size && removes(subset)).then_some(subset)
    });
    naked.or_else(|| {
        let values = (0..places.len()).fold(0u32, |acc, v| acc | u32::from(few(places[v])) << v);
        subsets_of(values, size).find_map(|values| {
            let cells = bits(values).fold(0, |acc, v| acc | places[v]);
            let subset = Subset {
                cells,
                values,
                hidden: true,
            };
            (cells.count_ones() as usize == size && removes(subset)).then_some(subset)
        })
    })
}

/// The set bits of `mask`, lowest first.
fn bits(mask: u32) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            bit
        })
    })
}

/// The subsets of `size` (2 or 3) bits of `mask` (bits 0 to 30), as masks, in increasing order.
fn subsets_of(mask: u32, size: usize) -> impl Iterator<Item = u32> {
    let above = move |bit: usize| mask & !((2 << bit) - 1);
    bits(mask).flat_map(move |i| {
        bits(above(i)).flat_map(move |j| {
            let pair = 1 << i | 1 << j;
            let thirds = if size == 3 { above(j) } else { 0 };
            bits(thirds)
                .map(move |k| pair | 1 << k)
                .chain((size == 2).then_some(pair))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board whose empty cells all have every candidate but those of `marks`: (cell, candidates).
    fn board(marks: &[(usize, &[u8])]) -> Board {
        let mut board = Board {
            candidates: [ALL; CELLS],
            empty: (1 << CELLS) - 1,
        };
        for &(cell, digits) in marks {
            board.candidates[cell] = digits.iter().fold(0, |acc, &d| acc | 1 << d);
        }
        board
    }

    fn has(board: &Board, cell: usize, digit: u8) -> bool {
        board.candidates[cell] >> digit & 1 == 1
    }

    #[test]
    fn naked_single() {
        let mut b = board(&[(40, &[7])]);
        assert_eq!(b.singles(), 1);
        assert_eq!(b.empty >> 40 & 1, 0);
        assert!(!has(&b, 41, 7) && !has(&b, 4, 7) && !has(&b, 30, 7));
    }

    #[test]
    fn hidden_single() {
        // Digit 5 has one place left in row 0: cell 3.
        let others: Vec<(usize, &[u8])> = (0..9)
            .filter(|&c| c != 3)
            .map(|c| (c, &[1u8, 2, 3, 4, 6, 7, 8, 9][..]))
            .collect();
        let mut b = board(&others);
        assert!(b.singles() >= 1);
        assert_eq!(b.empty >> 3 & 1, 0, "cell 3 takes the 5");
        assert!(!has(&b, 12, 5), "its box loses the 5");
    }

    #[test]
    fn pointing() {
        // In box 0, digit 4 lies only in row 0 (cells 0 and 1): row 0 outside box 0 loses the 4.
        let box_cells: Vec<(usize, &[u8])> = [9, 10, 11, 18, 19, 20, 2]
            .iter()
            .map(|&c| (c, &[1u8, 2, 3][..]))
            .collect();
        let mut b = board(&box_cells);
        assert!(b.locked_candidates());
        while b.locked_candidates() {}
        assert!(has(&b, 0, 4) && has(&b, 1, 4));
        assert!((3..9).all(|c| !has(&b, c, 4)));
        assert!(has(&b, 27, 4), "column 0 is untouched");
    }

    #[test]
    fn claiming() {
        // In row 0, digit 6 lies only in box 0 (cells 0 and 1): box 0's other rows lose the 6. Every
        // digit but 1 and 2 is claimed the same way; take all the steps.
        let row: Vec<(usize, &[u8])> = (2..9).map(|c| (c, &[1u8, 2][..])).collect();
        let mut b = board(&row);
        assert!(b.locked_candidates());
        while b.locked_candidates() {}
        assert!(has(&b, 0, 6) && has(&b, 1, 6));
        assert!([9, 10, 11, 18, 19, 20].iter().all(|&c| !has(&b, c, 6)));
    }

    #[test]
    fn naked_pair() {
        // Cells 0 and 1 hold only {2, 3}: the rest of row 0 loses 2 and 3.
        let mut b = board(&[(0, &[2, 3]), (1, &[2, 3])]);
        assert!(b.subsets());
        assert!((2..9).all(|c| !has(&b, c, 2) && !has(&b, c, 3)));
        assert!(has(&b, 0, 2) && has(&b, 1, 3));
    }

    #[test]
    fn hidden_pair() {
        // In row 0, digits 8 and 9 fit only cells 4 and 5: those cells keep only 8 and 9.
        let others: Vec<(usize, &[u8])> = (0..9)
            .filter(|&c| c != 4 && c != 5)
            .map(|c| (c, &[1u8, 2, 3, 4, 5, 6, 7][..]))
            .collect();
        let mut b = board(&others);
        assert!(b.subsets());
        assert_eq!(b.candidates[4], 1 << 8 | 1 << 9);
        assert_eq!(b.candidates[5], 1 << 8 | 1 << 9);
    }

    #[test]
    fn naked_triple() {
        // Cells 0, 1 and 2 hold only digits of {4, 5, 6}: the rest of row 0 loses them.
        let mut b = board(&[(0, &[4, 5]), (1, &[5, 6]), (2, &[4, 6])]);
        assert!(b.subsets());
        assert!((3..9).all(|c| b.candidates[c] & (1 << 4 | 1 << 5 | 1 << 6) == 0));
    }

    fn grid(line: &str) -> Grid {
        line.parse().unwrap()
    }

    #[test]
    fn levels_of_known_puzzles() {
        // A complete grid with five cells emptied (five naked singles).
        let mut easy = grid(
            "123675948456982371789314562964157283517238496832496157271849635395761824648523719",
        );
        for cell in [0, 20, 40, 60, 80] {
            easy.set(cell, 0);
        }
        let easy_rating = rate(&easy).unwrap();
        assert_eq!(easy_rating.level, Level::Singles);
        assert_eq!(easy_rating.singles, 5);
        // From the forum's hardest list.
        let hard = grid(
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
        );
        let hard_rating = rate(&hard).unwrap();
        assert_eq!(hard_rating.level, Level::Harder);
        assert!(hard_rating.harder > 0);
        assert_eq!(level_within(&hard, Level::Harder), Level::Harder);
        assert!(solves_within(&easy, Level::Singles) && !solves_within(&hard, Level::Intermediate));
        // QQWing rates this one Expert with 51 givens: pairs, locked candidates, then a guess.
        let expert = grid(
            "...8.63.9..83.27.1..3.475.8.86.241.5..468.9.2.5...3486.3.469.57...278613867531294",
        );
        let expert_rating = rate(&expert).unwrap();
        assert_eq!(expert_rating.level, Level::Harder);
        assert!(expert_rating.locked > 0 && expert_rating.pairs_triples > 0);
        // Rated up to a ceiling: the level when it is at most the ceiling, else Harder.
        assert_eq!(level_within(&easy, Level::Singles), Level::Singles);
        assert_eq!(level_within(&easy, Level::Harder), Level::Singles);
        assert_eq!(level_within(&expert, Level::Singles), Level::Harder);
        assert_eq!(level_within(&hard, Level::Intermediate), Level::Harder);
        assert_eq!(rate(&Grid::EMPTY), None, "not one solution");
    }

    #[test]
    fn subsets_of_masks() {
        assert_eq!(
            subsets_of(0b1011, 2).collect::<Vec<_>>(),
            vec![0b0011, 0b1001, 0b1010]
        );
        assert_eq!(subsets_of(0b1111, 3).count(), 4);
    }
}
