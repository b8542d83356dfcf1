//! The generic search: counts the solutions of a puzzle of any [`Shape`] up to a limit (1 finds
//! the first solution, 2 tells whether it is unique).
//!
//! # State
//! One 32-bit word per cell:
//!
//! ```text
//!   bit 31     bits 30..N   bits N-1 .. 0
//! +--------+-------------+----------------+
//! | PLACED |     0       | candidates     |   bit v-1 set: value v may go here
//! +--------+-------------+----------------+
//! ```
//!
//! A cell with one candidate left is *decided*; once its value has been removed from every peer it
//! is also PLACED. Each level of the search is one such array of N·N words, kept in the solver and
//! reused, so the search allocates nothing once its levels exist.
//!
//! # Propagation
//! - **Naked singles**: placing a value removes it from the peers' words; a peer left with one
//!   candidate goes on a stack of cells to place.
//! - **Hidden singles**: per house, two masks over its unplaced cells, the values seen at least once
//!   and at least twice; a value seen once is placed in its cell, a value seen nowhere (and not
//!   placed) is a contradiction.
//!
//! Then the search guesses on a cell with the fewest candidates, trying its values in increasing
//! order, so the first solution found is the same on every run; when no cell has two candidates
//! and some house has a value with two places, it branches on those two places instead.

use rayon::prelude::*;

use super::Shape;
use super::text::{ShapedPuzzles, render};
use crate::batch::{BatchOutput, PuzzleProblem};
use crate::problems::Problems;

/// Marks a cell whose value has been removed from its peers.
const PLACED: u32 = 1 << 31;

/// The house and peer tables of a shape, flattened for the search.
#[derive(Clone, Debug)]
pub struct Solver {
    cells: usize,
    size: usize,
    /// All candidates of a cell (N bits).
    full: u32,
    /// The peers of cell `c` are `peers[peer_start[c]..peer_start[c + 1]]`.
    peer_start: Vec<u32>,
    peers: Vec<u16>,
    /// House `h` is `houses[h * size..(h + 1) * size]`.
    houses: Vec<u16>,
    /// Search levels, each the words of every cell.
    levels: Vec<Vec<u32>>,
    /// Cells decided but not yet placed.
    pending: Vec<u16>,
    /// Solutions found so far in the current search.
    found: usize,
    /// Guesses the current search may still make.
    guesses_left: usize,
}

impl Solver {
    /// A solver for puzzles of `shape`.
    pub fn new(shape: &Shape) -> Solver {
        let cells = shape.cells();
        let mut peer_start = Vec::with_capacity(cells + 1);
        let mut peers = Vec::new();
        for cell in 0..cells {
            peer_start.push(peers.len() as u32);
            peers.extend_from_slice(shape.peers(cell));
        }
        peer_start.push(peers.len() as u32);
        Solver {
            cells,
            size: shape.size(),
            full: (1u32 << shape.size()) - 1,
            peer_start,
            peers,
            houses: shape.houses().concat(),
            levels: vec![vec![0; cells]],
            pending: Vec::with_capacity(cells),
            found: 0,
            guesses_left: usize::MAX,
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
        self.guesses_left = guesses;
        self.found = 0;
        self.pending.clear();
        let full = self.full;
        let level = &mut self.levels[0];
        level.fill(full);
        for (cell, &value) in puzzle.iter().enumerate() {
            if value != 0 {
                let bit = 1 << (value - 1);
                if level[cell] & bit == 0 {
                    return Some(0);
                }
                level[cell] = bit;
                self.pending.push(cell as u16);
            }
        }
        self.search(0, limit, solution);
        (self.guesses_left > 0 || self.found >= limit).then_some(self.found)
    }

    fn search(&mut self, depth: usize, limit: usize, solution: &mut [u8]) {
        if !self.propagate(depth) {
            return;
        }
        let level = &self.levels[depth];
        let mut best = usize::MAX;
        let mut fewest = u32::MAX;
        for (cell, &word) in level.iter().enumerate() {
            if word & PLACED == 0 {
                let count = word.count_ones();
                if count < fewest {
                    fewest = count;
                    best = cell;
                    if count == 2 {
                        break;
                    }
                }
            }
        }
        if best == usize::MAX {
            if self.found == 0 {
                for (value, &word) in solution.iter_mut().zip(level) {
                    *value = ((word & !PLACED).trailing_zeros() + 1) as u8;
                }
            }
            self.found += 1;
            return;
        }
        if self.levels.len() == depth + 1 {
            self.levels.push(vec![0; self.cells]);
        }
        // The branches: the candidates of the cell, or, when no cell has two, the two places of
        // a value with two places in some house (as dancing links would branch on that column).
        let mut cells = [best as u16; 25];
        let mut bits = [0u32; 25];
        let mut branches = 0;
        let pair = if fewest > 2 {
            self.value_with_two_places(depth)
        } else {
            None
        };
        if let Some((first, second, bit)) = pair {
            (cells[0], cells[1], bits[0], bits[1], branches) = (first, second, bit, bit, 2);
        } else {
            let mut options = self.levels[depth][best];
            while options != 0 {
                bits[branches] = options & options.wrapping_neg();
                options &= options - 1;
                branches += 1;
            }
        }
        for (&cell, &bit) in cells.iter().zip(&bits).take(branches) {
            if self.found >= limit {
                return;
            }
            if self.guesses_left == 0 {
                return;
            }
            self.guesses_left -= 1;
            let (done, next) = self.levels.split_at_mut(depth + 1);
            next[0].copy_from_slice(&done[depth]);
            next[0][usize::from(cell)] = bit;
            self.pending.clear();
            self.pending.push(cell);
            self.search(depth + 1, limit, solution);
        }
    }

    /// A value that has exactly two places left in some house, with the two cells.
    fn value_with_two_places(&self, depth: usize) -> Option<(u16, u16, u32)> {
        let level = &self.levels[depth];
        for house in self.houses.chunks_exact(self.size) {
            let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
            for &cell in house {
                let word = level[usize::from(cell)];
                if word & PLACED == 0 {
                    thrice |= twice & word;
                    twice |= once & word;
                    once |= word;
                }
            }
            let exactly_two = twice & !thrice;
            if exactly_two != 0 {
                let bit = exactly_two & exactly_two.wrapping_neg();
                let mut places = house.iter().filter(|&&c| level[usize::from(c)] & bit != 0);
                let first = *places.next().expect("two places");
                let second = *places.next().expect("two places");
                return Some((first, second, bit));
            }
        }
        None
    }

    /// Places every decided cell and every hidden single until none is left; false on a
    /// contradiction.
    fn propagate(&mut self, depth: usize) -> bool {
        let level = &mut self.levels[depth];
        loop {
            while let Some(cell) = self.pending.pop() {
                let cell = usize::from(cell);
                let bit = level[cell];
                if bit & PLACED != 0 {
                    continue;
                }
                level[cell] = bit | PLACED;
                let peers =
                    &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize];
                for &peer in peers {
                    let word = level[usize::from(peer)];
                    if word & bit != 0 {
                        let left = word & !bit;
                        if left & !PLACED == 0 || word & PLACED != 0 {
                            return false;
                        }
                        level[usize::from(peer)] = left;
                        if left & (left - 1) == 0 {
                            self.pending.push(peer);
                        }
                    }
                }
            }
            let mut progress = false;
            for house in self.houses.chunks_exact(self.size) {
                let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
                for &cell in house {
                    let word = level[usize::from(cell)];
                    if word & PLACED != 0 {
                        placed |= word;
                    } else {
                        twice |= once & word;
                        once |= word;
                    }
                }
                if (once | placed) & self.full != self.full {
                    return false;
                }
                let mut hidden = once & !twice;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden &= hidden - 1;
                    // Two values seen once in the same cell: the second no longer finds it.
                    let Some(cell) = house
                        .iter()
                        .map(|&c| usize::from(c))
                        .find(|&c| level[c] & bit != 0)
                    else {
                        return false;
                    };
                    if level[cell] != bit {
                        level[cell] = bit;
                        self.pending.push(cell as u16);
                        progress = true;
                    }
                }
            }
            if !progress && self.pending.is_empty() {
                return true;
            }
        }
    }
}

/// Solves every puzzle of `puzzles` over the current rayon pool and writes, in input order, one
/// record of their layout per puzzle: its first solution, or the puzzle itself when it has none.
/// With `unique`, each puzzle must have exactly one solution.
pub fn solve_all(puzzles: &ShapedPuzzles, unique: bool) -> BatchOutput {
    let cells = puzzles.cells_per_puzzle();
    let limit = if unique { 2 } else { 1 };
    let mut solutions = puzzles.cells.clone();
    let counts: Vec<usize> = solutions
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
                solver.count(puzzles.puzzle(index), limit, solution)
            },
        )
        .collect();
    let mut problems = Problems::new();
    for (index, &count) in counts.iter().enumerate() {
        let what = match count {
            0 => match puzzles.shape(index).first_repeat(puzzles.puzzle(index)) {
                Some((value, house)) => format!(
                    "no solution: symbol {} repeats in {house}",
                    puzzles.shape(index).symbols().glyph(value) as char
                ),
                None => "no solution".to_owned(),
            },
            2.. => "more than one solution".to_owned(),
            _ => continue,
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
mod tests {
    use super::*;
    use crate::shape::Symbols;

    /// Counts solutions by trying every value in every blank, in order: the plain twin of the search.
    fn brute_force(shape: &Shape, grid: &mut Vec<u8>, limit: usize) -> usize {
        let Some(cell) = grid.iter().position(|&v| v == 0) else {
            return 1;
        };
        let mut count = 0;
        for value in 1..=shape.size() as u8 {
            if shape
                .peers(cell)
                .iter()
                .all(|&p| grid[usize::from(p)] != value)
            {
                grid[cell] = value;
                count += brute_force(shape, grid, limit - count);
                grid[cell] = 0;
                if count >= limit {
                    break;
                }
            }
        }
        count
    }

    #[test]
    fn every_4x4_grid_is_found() {
        let shape = Shape::boxed(4, None, false, Symbols::default_for(4)).unwrap();
        let mut solver = Solver::new(&shape);
        let mut solution = vec![0; 16];
        assert_eq!(solver.count(&[0; 16], usize::MAX, &mut solution), 288);
        assert!(shape.first_repeat(&solution).is_none() && !solution.contains(&0));
    }

    #[test]
    fn counts_agree_with_brute_force_on_small_shapes() {
        let shapes = [
            Shape::boxed(4, None, true, Symbols::default_for(4)).unwrap(),
            Shape::boxed(6, None, false, Symbols::default_for(6)).unwrap(),
            Shape::boxed(6, Some((3, 2)), false, Symbols::default_for(6)).unwrap(),
        ];
        for shape in &shapes {
            let mut solver = Solver::new(shape);
            let cells = shape.cells();
            // Puzzles: a solution with a growing number of cells blanked, in a fixed scattered order.
            let mut grid = vec![0; cells];
            solver.count(&vec![0; cells], 1, &mut grid);
            for blanks in [0, cells / 3, cells / 2, 2 * cells / 3, cells - 4] {
                let mut puzzle = grid.clone();
                for k in 0..blanks {
                    puzzle[k * 7 % cells] = 0;
                }
                let mut out = vec![0; cells];
                let fast = solver.count(&puzzle, 50, &mut out);
                assert_eq!(fast, brute_force(shape, &mut puzzle.clone(), 50));
                assert!(out.iter().zip(&puzzle).all(|(&o, &p)| p == 0 || o == p));
            }
        }
    }

    #[test]
    fn contradictions_have_no_solution() {
        let shape = Shape::boxed(4, None, false, Symbols::default_for(4)).unwrap();
        let mut solver = Solver::new(&shape);
        let mut out = vec![0; 16];
        let mut puzzle = vec![0; 16];
        puzzle[0] = 1;
        puzzle[3] = 1;
        assert_eq!(solver.count(&puzzle, 2, &mut out), 0);
        // A jigsaw layout that no grid fills.
        let layout = Shape::jigsaw(b"aaabcabbccbdcddd", None, false, None).unwrap();
        assert_eq!(Solver::new(&layout).count(&[0; 16], 1, &mut [0; 16]), 0);
    }
}
