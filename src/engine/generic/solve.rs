//! The generic search: counts the solutions of a puzzle of any [`Shape`] up to a limit (1 finds
//! the first solution, 2 tells whether it is unique).
//!
//! # State
//! Each level of the search is one array of words: one per cell, then one per house and value.
//!
//! ```text
//! cell:          bit 31 PLACED | bits N-1..0: the values it may still take (bit v-1: value v)
//! house, value:  bits N-1..0: the places of the house (in its cell order) that may take it
//! ```
//!
//! The two halves hold the same candidates seen from both sides, as the rows and the columns of
//! the exact-cover matrix dancing links works on: every elimination updates both, so a hidden
//! single shows the moment a house's value is down to one place, with no pass over the houses. A
//! cell with one candidate left is *decided*; once its value has been removed from every peer it
//! is also PLACED.
//!
//! There is one such array: every change pushes the word's old value on a trail, and a guess
//! that fails is undone by popping the trail back to where it started. Most guesses fail within
//! a few eliminations, so undoing what they changed costs far less than a copy of the whole state
//! (several kilobytes at 16×16) per guess. Nothing before the first guess is ever undone but by a
//! restart, which builds the puzzle's state again instead: the propagation at the
//! root, all the work on an easy puzzle, keeps no trail. The solver keeps its vectors between
//! puzzles, so the search allocates nothing once they have grown.
//!
//! # Propagation
//! - **Naked singles**: placing a value removes it from the peers; a peer left with one candidate
//!   goes on a stack of cells to place.
//! - **Hidden singles**: a house's value left with one place goes on a stack of its own; its cell
//!   loses its other candidates. A value left with no place is a contradiction.
//! - **Locked candidates**, when the singles stall: a house's value that can only go where the
//!   house overlaps another (a box and a row, say) leaves the other's cells outside the overlap.
//!   Cheap against the value words, and it cuts the guesses several times on 16×16 puzzles.
//!
//! Then the search branches where the fewest choices are, as dancing links picks its column: on a
//! cell with the fewest candidates, trying its values in increasing order, unless some house has a
//! value with fewer places than that, whose places are tried in house order instead. Among cells
//! of two candidates it takes the one whose values have the fewest places in its houses. The
//! order is fixed, so the first solution found is the same on every run.
//!
//! # Restarts
//! A count up to a small limit that runs out of guesses starts again with the ties of those rules
//! and the order of the values drawn anew (see `solve/restart.rs`): each run is complete but for its
//! guesses, the solutions earlier runs found are kept so that none is counted twice, and the run
//! that ends gives the count. Which draw each run gets depends on its number alone, so a count,
//! and its first solution, are the same on every run of the program.

use rayon::prelude::*;

mod propagate;
mod restart;

use restart::Order;

use crate::jobs::solve::{BatchOutput, PuzzleProblem};
use crate::model::shape::Shape;
use crate::problems::Problems;
use crate::text::shaped::{ShapedPuzzles, render};

/// Marks a cell whose value has been removed from its peers.
const PLACED: u32 = 1 << 31;

/// The largest limit a count restarts for: its runs keep the solutions they find, which it
/// compares each new one with.
const MOST_KNOWN: usize = 16;

/// The house and peer tables of a shape, flattened for the search.
#[derive(Clone, Debug)]
pub struct Solver {
    cells: usize,
    size: usize,
    /// All candidates of a cell (N bits).
    full: u32,
    /// House `h` is `houses[h * size..(h + 1) * size]`.
    houses: Vec<u16>,
    /// The houses of cell `c`, `memberships[member_start[c]..member_start[c + 1]]`.
    member_start: Vec<u32>,
    memberships: Vec<Membership>,
    /// The values given in each house of the current puzzle.
    given: Vec<u32>,
    /// Every two houses that share two cells or more: the index of each one's first value word,
    /// and the places of the shared cells in each.
    overlaps: Vec<Overlap>,
    /// The state (see the module documentation).
    words: Vec<u32>,
    /// The old values of changed words, with their index, latest last.
    trail: Vec<(u16, u32)>,
    /// Whether changes go on the trail: from the first guess of a run on.
    trailing: bool,
    /// Cells decided but not yet placed.
    pending: Vec<u16>,
    /// Value words left with one place: their index in a level.
    hidden: Vec<u16>,
    /// The order the current run tries its choices in.
    order: Order,
    /// Solutions the current run has reached.
    reached: usize,
    /// The distinct solutions the runs of the current count have found, when it restarts: a run
    /// that ends early may have found some that a later run reaches again.
    known: Vec<Vec<u8>>,
    /// Whether the current count restarts, and so keeps `known`.
    restarting: bool,
    /// Guesses the current run may still make.
    guesses_left: usize,
    /// Guesses the runs of the current count have made.
    guesses_made: usize,
    /// The seed every run's order is drawn from, the first's too (see [`Solver::random_solution`]).
    drawn_from: Option<u64>,
}

impl Solver {
    /// A solver for puzzles of `shape`.
    pub fn new(shape: &Shape) -> Solver {
        let cells = shape.cells();
        let size = shape.size();
        // The place of each cell in each house, read off the houses in one pass rather than
        // searched for: the search was most of the start of a 25×25 solver.
        let mut place_in = vec![0u8; shape.houses().len() * cells];
        for (house, members) in shape.houses().iter().enumerate() {
            for (place, &cell) in members.iter().enumerate() {
                place_in[house * cells + usize::from(cell)] = place as u8;
            }
        }
        let mut member_start = Vec::with_capacity(cells + 1);
        let mut memberships = Vec::new();
        for cell in 0..cells {
            member_start.push(memberships.len() as u32);
            for &house in shape.houses_of(cell) {
                let place = place_in[usize::from(house) * cells + cell];
                memberships.push(Membership {
                    first: (cells + usize::from(house) * size) as u16,
                    place: place as u8,
                    house: house as u8,
                });
            }
        }
        member_start.push(memberships.len() as u32);
        // The shared places of every two houses, gathered from the houses of each cell.
        let count = shape.houses().len();
        let mut shared = vec![(0u32, 0u32); count * count];
        for cell in 0..cells {
            let members =
                &memberships[member_start[cell] as usize..member_start[cell + 1] as usize];
            for (i, a) in members.iter().enumerate() {
                for b in &members[i + 1..] {
                    let pair = &mut shared[usize::from(a.house) * count + usize::from(b.house)];
                    pair.0 |= 1 << a.place;
                    pair.1 |= 1 << b.place;
                }
            }
        }
        let overlaps = shared
            .iter()
            .enumerate()
            .filter(|(_, (in_first, _))| in_first.count_ones() >= 2)
            .map(|(pair, &(in_first, in_second))| Overlap {
                first: (cells + pair / count * size) as u32,
                second: (cells + pair % count * size) as u32,
                in_first,
                in_second,
            })
            .collect();
        let words = cells + shape.houses().len() * size;
        Solver {
            cells,
            size,
            full: (1u32 << size) - 1,
            houses: shape.houses().concat(),
            member_start,
            memberships,
            given: vec![0; shape.houses().len()],
            overlaps,
            words: vec![0; words],
            trail: Vec::new(),
            trailing: false,
            pending: Vec::with_capacity(cells),
            hidden: Vec::with_capacity(words - cells),
            order: Order::first(cells),
            reached: 0,
            known: Vec::new(),
            restarting: false,
            guesses_left: usize::MAX,
            guesses_made: 0,
            drawn_from: None,
        }
    }

    /// Counts the solutions of `puzzle` (N·N values, 0 for blank) up to `limit`, writing the first
    /// one found into `solution` (left as it was when there is none).
    pub fn count(&mut self, puzzle: &[u8], limit: usize, solution: &mut [u8]) -> usize {
        self.count_within(puzzle, limit, solution, usize::MAX)
            .expect("an unbounded search ends")
    }

    /// As [`Solver::count`], giving up (`None`) after `guesses` guesses.
    pub fn count_within(
        &mut self,
        puzzle: &[u8],
        limit: usize,
        solution: &mut [u8],
        guesses: usize,
    ) -> Option<usize> {
        debug_assert_eq!(puzzle.len(), self.cells);
        self.guesses_made = 0;
        if !self.set_up(puzzle) {
            return Some(0);
        }
        self.known.clear();
        self.restarting = limit <= MOST_KNOWN;
        for run in 0u32.. {
            let budget = if self.restarting {
                restart::budget(self.cells, limit, run).min(guesses - self.guesses_made)
            } else {
                guesses
            };
            self.order
                .draw(run, self.words.len() - self.cells, self.drawn_from);
            // The root of a run keeps no trail, so a restart builds the puzzle's state again.
            if run > 0 {
                self.set_up(puzzle);
            }
            self.trailing = false;
            self.guesses_left = budget;
            self.reached = 0;
            self.search(limit, solution);
            self.guesses_made += budget - self.guesses_left;
            let found = self.reached.max(self.known.len());
            // A run that ends with guesses left has searched its whole tree.
            self.trail.clear();
            if found >= limit || self.guesses_left > 0 {
                return Some(found);
            }
            if self.guesses_made >= guesses {
                return None;
            }
        }
        unreachable!("the runs go on until one ends")
    }

    /// A first solution of `puzzle`, written into `solution`: as [`Solver::count_within`] with a
    /// limit of 1, but trying two restart schedules.
    pub fn first_within(
        &mut self,
        puzzle: &[u8],
        solution: &mut [u8],
        guesses: usize,
    ) -> Option<usize> {
        // The runs of a first solution's schedule are short, and their lengths alone differ from
        // those of a count to two, which can find a solution where every run of the former runs
        // out (a 25×25 puzzle of many solutions: `tests/data/shapes/undecided25.txt`). The first
        // schedule, which ends nearly every search, gets a quarter of the guesses, so that the
        // other takes over soon.
        if let Some(count) = self.count_within(puzzle, 1, solution, guesses / 4) {
            return Some(count);
        }
        match self.count_within(puzzle, 2, solution, guesses - guesses / 4) {
            Some(count) => Some(count.min(1)),
            // A count that ran out before a second solution has written its first.
            None => (!self.known.is_empty()).then_some(1),
        }
    }

    /// Builds the state of `puzzle` and the propagation stacks it starts with; false when it
    /// plainly has no solution (a value out of range, twice in a house, or a cell or a house's
    /// value with no place).
    fn set_up(&mut self, puzzle: &[u8]) -> bool {
        self.pending.clear();
        self.hidden.clear();
        let (cells, size, full) = (self.cells, self.size, self.full);
        // The state is built directly rather than through eliminations, which would cost one
        // elimination for each peer of each given on every call (and -n makes thousands of calls
        // a puzzle): the givens are placed cells, a blank cell may take what none of its houses
        // was given, and each house's value goes to the given that holds it or to the blank cells
        // that may take it.
        if puzzle.iter().any(|&value| usize::from(value) > size) {
            return false;
        }
        // Without a branch on each cell's being given, which half the cells of a puzzle are.
        let bit = |value: u8| (1u32 << value) >> 1;
        for (house, members) in self.houses.chunks_exact(size).enumerate() {
            let (mut given, mut twice) = (0u32, 0u32);
            for &cell in members {
                let bit = bit(puzzle[usize::from(cell)]);
                twice |= given & bit;
                given |= bit;
            }
            if twice != 0 {
                return false;
            }
            self.given[house] = given;
        }
        for (cell, &value) in puzzle.iter().enumerate() {
            self.words[cell] = if value != 0 {
                bit(value) | PLACED
            } else {
                let members =
                    self.member_start[cell] as usize..self.member_start[cell + 1] as usize;
                let options = self.memberships[members]
                    .iter()
                    .fold(full, |options, membership| {
                        options & !self.given[usize::from(membership.house)]
                    });
                if options & options.wrapping_sub(1) == 0 {
                    if options == 0 {
                        return false;
                    }
                    self.pending.push(cell as u16);
                }
                options
            };
        }
        let (cell_words, value_words) = self.words.split_at_mut(cells);
        for (house, (members, values)) in self
            .houses
            .chunks_exact(size)
            .zip(value_words.chunks_exact_mut(size))
            .enumerate()
        {
            // The places of each value are the house's candidates read the other way: a bit
            // matrix transposed, which costs the same whatever the candidates, where a loop over
            // each cell's candidates mispredicts its end at every cell.
            let mut matrix = [0u32; 32];
            for (row, &cell) in matrix.iter_mut().zip(members) {
                *row = cell_words[usize::from(cell)] & full;
            }
            transpose(&mut matrix, size);
            values.copy_from_slice(&matrix[..size]);
            // Half the values of a house are given, each with one place: a branch per value
            // mispredicts at random, so the values of one place or none are collected as bits.
            let (single, none) =
                values
                    .iter()
                    .enumerate()
                    .fold((0u32, 0u32), |(single, none), (value, &places)| {
                        let one = u32::from(places & places.wrapping_sub(1) == 0) << value;
                        (single | one, none | u32::from(places == 0) << value)
                    });
            if none != 0 {
                return false;
            }
            let mut hidden = single & !self.given[house];
            while hidden != 0 {
                let value = hidden.trailing_zeros() as usize;
                hidden &= hidden - 1;
                self.hidden.push((cells + house * size + value) as u16);
            }
        }
        true
    }

    /// Fills `puzzle` into `solution` with a complete grid drawn from `seed`, within `guesses`
    /// guesses: every run's order comes from the seed, so that different seeds find different
    /// grids. `Some(false)` when the puzzle has none, `None` when the guesses ran out first.
    pub fn random_solution(
        &mut self,
        puzzle: &[u8],
        seed: u64,
        solution: &mut [u8],
        guesses: usize,
    ) -> Option<bool> {
        self.drawn_from = Some(seed);
        let found = self.count_within(puzzle, 1, solution, guesses);
        self.drawn_from = None;
        found.map(|count| count == 1)
    }

    /// The guesses the last count made, over all its runs: the branches its searches took past
    /// their first.
    pub fn guesses_made(&self) -> usize {
        self.guesses_made
    }

    /// Sets word `index`, keeping its old value on the trail once the run has guessed.
    fn set(&mut self, index: usize, word: u32) {
        if self.trailing {
            self.trail.push((index as u16, self.words[index]));
        }
        self.words[index] = word;
    }

    /// Restores the words changed since the trail was `mark` long.
    fn undo(&mut self, mark: usize) {
        for &(index, word) in self.trail[mark..].iter().rev() {
            self.words[usize::from(index)] = word;
        }
        self.trail.truncate(mark);
    }

    fn search(&mut self, limit: usize, solution: &mut [u8]) {
        loop {
            if !self.propagate() {
                return;
            }
            // A grid the singles completed, as they do most easy puzzles, has nothing to lock: a
            // pass over every overlap cost more than all of its singles on an easy 25×25.
            if self.words[..self.cells]
                .iter()
                .all(|&word| word & PLACED != 0)
            {
                break;
            }
            match self.lock_candidates() {
                Some(true) => continue,
                Some(false) => break,
                None => return,
            }
        }
        let mut best = usize::MAX;
        let mut fewest = u32::MAX;
        let mut reach = 0;
        for (cell, &word) in self.words[..self.cells].iter().enumerate() {
            if word & PLACED == 0 {
                let count = word.count_ones();
                if count < fewest {
                    fewest = count;
                    best = cell;
                    if count == 2 {
                        reach = self.reach(cell, word);
                    }
                } else if count == 2 {
                    let other = self.reach(cell, word);
                    if other < reach || other == reach && self.order.before(cell, best) {
                        best = cell;
                        reach = other;
                    }
                } else if count == fewest && self.order.before(cell, best) {
                    best = cell;
                }
            }
        }
        if best == usize::MAX {
            self.reach_solution(solution);
            return;
        }
        // The branches: the candidates of the cell, or the places of a house's value when it has
        // fewer (as dancing links would branch on that column).
        let mut cells = [best as u16; 25];
        let mut bits = [0u32; 25];
        let mut branches = 0;
        match self.value_with_fewer_places(fewest) {
            Some((house, bit, mut places)) => {
                while places != 0 {
                    let cell = self.houses[house * self.size + places.trailing_zeros() as usize];
                    places &= places - 1;
                    let mut slot = branches;
                    while slot > 0 && self.order.before(cell.into(), cells[slot - 1].into()) {
                        cells[slot] = cells[slot - 1];
                        slot -= 1;
                    }
                    cells[slot] = cell;
                    bits[branches] = bit;
                    branches += 1;
                }
            }
            None => {
                // The value with the most places in the cell's houses is tried first: placing it
                // removes the most candidates, so its branch is decided soonest.
                let mut options = self.words[best];
                let mut scores = [0u32; 25];
                while options != 0 {
                    let bit = options & options.wrapping_neg();
                    options &= options - 1;
                    let score = match self.order.drawn {
                        false => self.reach(best, bit),
                        true => self.order.value_key(bit),
                    };
                    let mut slot = branches;
                    while slot > 0 && scores[slot - 1] < score {
                        scores[slot] = scores[slot - 1];
                        bits[slot] = bits[slot - 1];
                        slot -= 1;
                    }
                    scores[slot] = score;
                    bits[slot] = bit;
                    branches += 1;
                }
            }
        }
        self.trailing = true;
        let mark = self.trail.len();
        for (&cell, &bit) in cells.iter().zip(&bits).take(branches) {
            if self.reached.max(self.known.len()) >= limit {
                return;
            }
            if self.guesses_left == 0 {
                return;
            }
            self.guesses_left -= 1;
            self.pending.clear();
            self.hidden.clear();
            let cell = usize::from(cell);
            let others = self.words[cell] & !bit;
            if self.eliminate(cell, others) {
                self.search(limit, solution);
            }
            self.undo(mark);
        }
    }

    /// Counts the solution the words now hold, writing it into `solution` when it is the count's
    /// first; when the count restarts, keeps it unless an earlier run found it.
    fn reach_solution(&mut self, solution: &mut [u8]) {
        self.reached += 1;
        let value = |word: u32| ((word & !PLACED).trailing_zeros() + 1) as u8;
        let first = if self.restarting {
            let grid: Vec<u8> = self.words[..self.cells].iter().map(|&w| value(w)).collect();
            let first = self.known.is_empty();
            if !self.known.contains(&grid) {
                self.known.push(grid);
            }
            first
        } else {
            self.reached == 1
        };
        if first {
            for (cell, &word) in solution.iter_mut().zip(&self.words) {
                *cell = value(word);
            }
        }
    }

    /// How many places the candidates of `cell` have in its houses, counted once per house. Among
    /// cells of two candidates the search branches on the one with the fewest: its values are
    /// close to hidden singles, so a wrong guess there fails soonest.
    fn reach(&self, cell: usize, word: u32) -> u32 {
        let mut reach = 0;
        for member in self.member_start[cell] as usize..self.member_start[cell + 1] as usize {
            let first = usize::from(self.memberships[member].first);
            let mut values = word;
            while values != 0 {
                reach += self.words[first + values.trailing_zeros() as usize].count_ones();
                values &= values - 1;
            }
        }
        reach
    }

    /// A house's value with fewer places than `fewest` (the fewest candidates of a cell): its
    /// house, its bit and its places, the first found with the fewest places.
    fn value_with_fewer_places(&self, fewest: u32) -> Option<(usize, u32, u32)> {
        if fewest <= 2 {
            return None;
        }
        let mut best = None;
        let mut most = fewest;
        let values = &self.words[self.cells..];
        let start = self.order.first_value_word;
        let in_order = values[start..].iter().chain(&values[..start]);
        for (step, &places) in in_order.enumerate() {
            let index = (start + step) % values.len();
            let count = places.count_ones();
            if count >= 2 && count < most {
                most = count;
                best = Some((index / self.size, 1 << (index % self.size), places));
                if count == 2 {
                    break;
                }
            }
        }
        best
    }
}

/// Transposes the bit matrix of the first `size` rows and bits of `rows` (the others zero), row
/// `r` being word `r` and column `c` its bit `c`: each step swaps the off-diagonal blocks of
/// every diagonal block twice its size, from the smallest power of two that holds `size`.
fn transpose(rows: &mut [u32; 32], size: usize) {
    // A span known when compiling unrolls the steps into straight lines of whole-row operations,
    // which the compiler runs four rows at a time.
    match size.next_power_of_two() {
        32 => transpose_span::<32>(rows),
        16 => transpose_span::<16>(rows),
        8 => transpose_span::<8>(rows),
        _ => transpose_span::<4>(rows),
    }
}

/// [`transpose`] of the first `SPAN` rows and bits.
#[inline(always)]
fn transpose_span<const SPAN: usize>(rows: &mut [u32; 32]) {
    for (step, mask) in [
        (16, 0x0000_FFFF_u32),
        (8, 0x00FF_00FF),
        (4, 0x0F0F_0F0F),
        (2, 0x3333_3333),
        (1, 0x5555_5555),
    ] {
        if step >= SPAN {
            continue;
        }
        for base in (0..SPAN).step_by(2 * step) {
            for r in base..base + step {
                let swapped = ((rows[r] >> step) ^ rows[r + step]) & mask;
                rows[r + step] ^= swapped;
                rows[r] ^= swapped << step;
            }
        }
    }
}

/// A house of a cell.
#[derive(Clone, Copy, Debug)]
struct Membership {
    /// The index of the house's first value word: the cells' count plus the house's start in
    /// `houses`.
    first: u16,
    /// The cell's place in the house.
    place: u8,
    /// The house's index in the shape.
    house: u8,
}

/// Two houses that share two cells or more (see [`Solver::lock_candidates`]).
#[derive(Clone, Copy, Debug)]
struct Overlap {
    first: u32,
    second: u32,
    in_first: u32,
    in_second: u32,
}

/// The guesses, per cell, `-s` and `--rate` spend on a puzzle before it reports it undecided: far more than
/// any puzzle with a solution has needed, while a layout that no grid fills can take a search
/// longer than anyone waits to prove it empty.
pub(crate) const SOLVE_GUESSES_PER_CELL: usize = 20_000;

/// What a job says of a puzzle of `cells` cells whose search ran out of guesses.
pub(crate) fn undecided_after(cells: usize) -> String {
    format!(
        "undecided: the search gave up after {} guesses",
        SOLVE_GUESSES_PER_CELL * cells
    )
}

/// Solves every puzzle of `puzzles` over the current rayon pool and writes, in input order, one
/// record of their layout per puzzle: its first solution, or the puzzle itself when it has none.
/// With `unique`, each puzzle must have exactly one solution.
pub fn solve_all(puzzles: &ShapedPuzzles, unique: bool) -> BatchOutput {
    let cells = puzzles.cells_per_puzzle();
    let mut solutions = puzzles.cells.clone();
    let counts: Vec<Option<usize>> = solutions
        .par_chunks_mut(cells)
        .enumerate()
        .with_max_len(64)
        .map_init(
            || None::<(u32, Solver)>,
            |solver, (index, solution)| {
                let shape_index = puzzles.shape_of[index];
                if solver.as_ref().is_none_or(|(i, _)| *i != shape_index) {
                    *solver = Some((shape_index, Solver::new(puzzles.shape(index))));
                }
                let (_, solver) = solver.as_mut().expect("made above");
                let guesses = SOLVE_GUESSES_PER_CELL * cells;
                let puzzle = puzzles.puzzle(index);
                if unique {
                    solver.count_within(puzzle, 2, solution, guesses)
                } else {
                    solver.first_within(puzzle, solution, guesses)
                }
            },
        )
        .collect();
    let mut problems = Problems::new();
    for (index, &count) in counts.iter().enumerate() {
        let what = match count {
            None => undecided_after(cells),
            Some(0) => match puzzles.shape(index).first_repeat(puzzles.puzzle(index)) {
                Some((value, house)) => format!(
                    "no solution: symbol {} repeats in {house}",
                    puzzles.shape(index).symbols().glyph(value) as char
                ),
                None => "no solution".to_owned(),
            },
            Some(2..) => "more than one solution".to_owned(),
            Some(_) => continue,
        };
        problems.push(PuzzleProblem {
            puzzle: index + 1,
            line: puzzles.lines[index],
            what,
        });
    }
    let shapes: Vec<&Shape> = (0..puzzles.len()).map(|i| puzzles.shape(i)).collect();
    let text = render(&solutions, &shapes, puzzles.layout, puzzles.prefixed);
    BatchOutput { text, problems }
}

#[cfg(test)]
mod tests;
