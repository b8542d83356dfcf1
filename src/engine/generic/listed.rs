//! `-n` on 4×4 shapes: every puzzle is listed, so that a request gets exactly what exists.
//!
//! A 4×4 shape has at most 288 complete grids and 2^16 sets of givens each, few enough to decide
//! every puzzle: digging at random would make the common puzzles over and over and the rare ones
//! seldom, and could only guess how many there are. A puzzle is the set of cells a grid gives;
//! it has one solution when no other grid agrees with its grid on all of them.
//!
//! # State
//! For each grid, one bit per set of givens (bit `m` of word `m / 64`: the givens are the cells
//! of the bits of `m`, cell `c` being bit `c`), set when the puzzle has one solution and is one
//! the request asks for:
//!
//! ```text
//! givens m:  bit 15 ... bit 1 bit 0     cell 15 ... cell 1 cell 0 (1: given)
//! listed:    words[m / 64] >> (m % 64) & 1
//! ```
//!
//! Relabelling the values of a grid changes none of its agreements with the others, so the grids
//! whose first row reads 1, 2, 3, 4 are listed and every other grid shares the list of the one it
//! relabels.
//!
//! A shard keeps the grids numbered (in the listing's order) `i - 1` modulo `k` for shard `i` of
//! `k`, and with them their puzzles: the shards of one shape share no puzzle.

use std::ops::RangeInclusive;

use rand::Rng;
use rand::seq::index;

use super::dig::ShapedPuzzle;
use crate::jobs::rate::{Level, ShapeLogic};
use crate::model::shape::Shape;
use crate::model::shard::Shard;

/// The cells of the shapes that are listed.
const CELLS: usize = 16;

/// The sets of givens of a 4×4 grid.
const MASKS: usize = 1 << CELLS;

/// Which puzzles a request asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wanted {
    /// The blank counts allowed (all when `None`).
    pub blanks: Option<RangeInclusive<usize>>,
    /// The givens are symmetric under a half turn.
    pub symmetric: bool,
    /// Dug to the end: blanking any given (with `symmetric`, any given and its partner) leaves
    /// more than one solution. Without `symmetric`, the minimal puzzles.
    pub dug_to_the_end: bool,
    /// Minimal (`--minimal`): blanking any one given leaves more than one solution, with
    /// `symmetric` too, where digging by pairs alone may leave a given that could go.
    pub minimal: bool,
    /// The level of the logical solver, or any.
    pub level: Option<Level>,
    /// The value of the solution's top-left cell, or any.
    pub first: Option<u8>,
}

/// Every puzzle of a 4×4 shape (or of a shard of its grids) that a request asks for, in a fixed
/// order: grid by grid, and for each grid by the bits of its givens.
pub struct Listing {
    /// Every complete grid (of the shard), those whose first row reads 1, 2, 3, 4 first.
    grids: Vec<[u8; CELLS]>,
    /// For each grid, the index in `lists` of the list it shares.
    list_of: Vec<usize>,
    /// One list per grid whose first row reads 1, 2, 3, 4 (see the module documentation).
    lists: Vec<Vec<u64>>,
    /// How many puzzles each list holds.
    sizes: Vec<usize>,
    /// Per list, the puzzles of its words before each word: finding a puzzle by its rank reads
    /// one word, not the thousand before it.
    ranks: Vec<Vec<u32>>,
    /// The puzzles of the grids before each grid.
    before: Vec<usize>,
}

/// Whether `shape` is small enough for its puzzles to be listed.
pub fn is_listed(shape: &Shape) -> bool {
    shape.cells() == CELLS
}

impl Listing {
    /// The puzzles of `shape` (a listed one) that `wanted` asks for, of the grids of `shard`
    /// only when there is one, and of those whose top-left cell holds `wanted.first` when it is
    /// given.
    pub fn new(shape: &Shape, wanted: &Wanted, shard: Option<Shard>) -> Listing {
        assert!(is_listed(shape), "only 4×4 shapes are listed");
        let mut grids = complete_grids(shape);
        let firsts = grids.iter().take_while(|g| g[..4] == [1, 2, 3, 4]).count();
        // Relabelling a grid's values changes no step of the logical solver: the level of a
        // puzzle is that of the puzzle of the grid its list is made for.
        let logic = wanted.level.map(|_| ShapeLogic::new(shape));
        let at_level = |puzzle: &[u8]| match (wanted.level, &logic) {
            (Some(level), Some(logic)) => logic.level_within(shape, puzzle, Level::Harder) == level,
            _ => true,
        };
        let lists: Vec<Vec<u64>> = (0..firsts)
            .map(|first| list(&grids, first, wanted, &at_level))
            .collect();
        let sizes: Vec<usize> = lists
            .iter()
            .map(|words| words.iter().map(|w| w.count_ones() as usize).sum())
            .collect();
        let ranks = lists
            .iter()
            .map(|words| {
                let mut before = 0;
                words
                    .iter()
                    .map(|w| {
                        before += w.count_ones();
                        before - w.count_ones()
                    })
                    .collect()
            })
            .collect();
        let mut list_of: Vec<usize> = grids
            .iter()
            .map(|grid| {
                // The grid whose first row reads 1, 2, 3, 4 that this one relabels: each value
                // becomes its place in the first row.
                let first_row = &grid[..4];
                let canonical = grid.map(|v| {
                    first_row
                        .iter()
                        .position(|&f| f == v)
                        .expect("a row holds every value") as u8
                        + 1
                });
                grids[..firsts]
                    .iter()
                    .position(|g| *g == canonical)
                    .expect("every grid relabels one whose first row reads 1, 2, 3, 4")
            })
            .collect();
        // A puzzle's one solution is the grid it is listed under: keeping the grids whose
        // top-left cell holds the first value keeps exactly the puzzles whose solution starts so.
        let kept: Vec<usize> = match shard {
            Some(shard) => (0..shard.pieces_below(grids.len() as u64))
                .map(|piece| shard.piece(piece) as usize)
                .collect(),
            None => (0..grids.len()).collect(),
        };
        let kept: Vec<usize> = kept
            .into_iter()
            .filter(|&grid| wanted.first.is_none_or(|value| grids[grid][0] == value))
            .collect();
        grids = kept.iter().map(|&grid| grids[grid]).collect();
        list_of = kept.iter().map(|&grid| list_of[grid]).collect();
        let mut before = Vec::with_capacity(grids.len());
        let mut total = 0;
        for &list in &list_of {
            before.push(total);
            total += sizes[list];
        }
        Listing {
            grids,
            list_of,
            lists,
            sizes,
            ranks,
            before,
        }
    }

    /// How many puzzles there are.
    pub fn len(&self) -> usize {
        self.list_of.iter().map(|&list| self.sizes[list]).sum()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The fewest (at least 1: a complete grid is no puzzle `-r` asks for) and the most blanks of
    /// the listed puzzles; `None` when there is none.
    pub fn blank_counts(&self) -> Option<RangeInclusive<usize>> {
        let (mut fewest, mut most) = (usize::MAX, 0);
        for words in &self.lists {
            for (at, &word) in words.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let givens = (at * 64 + word.trailing_zeros() as usize).count_ones() as usize;
                    if givens < CELLS {
                        fewest = fewest.min(CELLS - givens);
                        most = most.max(CELLS - givens);
                    }
                    word &= word - 1;
                }
            }
        }
        (fewest <= most).then_some(fewest..=most)
    }

    /// Where puzzle `index` of the listing comes from: its grid, the list that grid shares, and
    /// its givens (as in the module documentation). Puzzles of one list and givens relabel one
    /// another.
    pub fn source(&self, index: usize) -> (usize, usize, usize) {
        let grid = self.before.partition_point(|&b| b <= index) - 1;
        let rank = (index - self.before[grid]) as u32;
        let list = self.list_of[grid];
        let at = self.ranks[list].partition_point(|&r| r <= rank) - 1;
        let mut word = self.lists[list][at];
        for _ in 0..rank - self.ranks[list][at] {
            word &= word - 1;
        }
        let givens = at * 64 + word.trailing_zeros() as usize;
        (grid, self.list_of[grid], givens)
    }

    /// Puzzle `index` of the listing.
    pub fn puzzle(&self, index: usize) -> ShapedPuzzle {
        let (grid, _, givens) = self.source(index);
        let solution = self.grids[grid];
        ShapedPuzzle {
            puzzle: puzzle_of(&solution, givens).to_vec(),
            solution: solution.to_vec(),
            level: None,
        }
    }

    /// `count` distinct puzzles drawn uniformly from `rng`, in the order drawn (at most
    /// [`Listing::len`]).
    pub fn draw<R: Rng + ?Sized>(&self, count: usize, rng: &mut R) -> Vec<ShapedPuzzle> {
        self.draw_indices(count, rng)
            .map(|index| self.puzzle(index))
            .collect()
    }

    /// The indices of [`Listing::draw`]'s puzzles, in the order drawn.
    pub fn draw_indices<R: Rng + ?Sized>(
        &self,
        count: usize,
        rng: &mut R,
    ) -> impl Iterator<Item = usize> {
        index::sample(rng, self.len(), count).into_iter()
    }
}

/// Every complete grid of `shape`, in the order a search by cell and value finds them, those whose
/// first row reads 1, 2, 3, 4 first.
fn complete_grids(shape: &Shape) -> Vec<[u8; CELLS]> {
    fn fill(shape: &Shape, grid: &mut [u8; CELLS], cell: usize, out: &mut Vec<[u8; CELLS]>) {
        if cell == CELLS {
            out.push(*grid);
            return;
        }
        for value in 1..=4 {
            if shape
                .peers(cell)
                .iter()
                .all(|&p| grid[usize::from(p)] != value)
            {
                grid[cell] = value;
                fill(shape, grid, cell + 1, out);
                grid[cell] = 0;
            }
        }
    }
    let mut grids = Vec::new();
    fill(shape, &mut [0; CELLS], 0, &mut grids);
    grids.sort_by_key(|grid| grid[..4] != [1, 2, 3, 4]);
    grids
}

/// The puzzle of `grid` that gives the cells of the bits of `givens`.
fn puzzle_of(grid: &[u8; CELLS], givens: usize) -> [u8; CELLS] {
    std::array::from_fn(|cell| {
        if givens >> cell & 1 == 1 {
            grid[cell]
        } else {
            0
        }
    })
}

/// The list of grid `grids[first]` (see the module documentation): the puzzles `wanted` takes,
/// of them those `at_level` takes.
fn list(
    grids: &[[u8; CELLS]],
    first: usize,
    wanted: &Wanted,
    at_level: &dyn Fn(&[u8]) -> bool,
) -> Vec<u64> {
    let grid = &grids[first];
    // ambiguous[m]: some other grid agrees with this one on every cell of m, so the puzzle that
    // gives m has another solution. Marked on the agreements, then passed down to their subsets.
    let mut ambiguous = vec![false; MASKS];
    for (other, cells) in grids.iter().enumerate() {
        if other != first {
            let agree = (0..CELLS)
                .filter(|&c| cells[c] == grid[c])
                .fold(0, |m, c| m | 1 << c);
            ambiguous[agree] = true;
        }
    }
    for bit in 0..CELLS {
        for mask in 0..MASKS {
            if mask >> bit & 1 == 1 && ambiguous[mask] {
                ambiguous[mask ^ 1 << bit] = true;
            }
        }
    }
    let mut words = vec![0u64; MASKS / 64];
    for mask in 0..MASKS {
        if !ambiguous[mask] && wanted.takes(mask, &ambiguous) && at_level(&puzzle_of(grid, mask)) {
            words[mask / 64] |= 1 << (mask % 64);
        }
    }
    words
}

impl Wanted {
    /// Whether the puzzle that gives `mask` (which has one solution) is asked for.
    fn takes(&self, mask: usize, ambiguous: &[bool]) -> bool {
        let blanks = CELLS - mask.count_ones() as usize;
        let half_turn = |m: usize| (m as u16).reverse_bits() as usize;
        if self.blanks.as_ref().is_some_and(|r| !r.contains(&blanks))
            || self.symmetric && half_turn(mask) != mask
        {
            return false;
        }
        let mut givens = (0..CELLS).filter(|&c| mask >> c & 1 == 1);
        if self.minimal {
            // Blanking a given and its partner blanks more than the given alone.
            return givens.all(|c| ambiguous[mask & !(1 << c)]);
        }
        !self.dug_to_the_end
            || givens.all(|c| {
                let partner = if self.symmetric { CELLS - 1 - c } else { c };
                ambiguous[mask & !(1 << c) & !(1 << partner)]
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::generic::solve::Solver;
    use crate::model::symbols::Symbols;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    fn boxed(diagonal: bool) -> Shape {
        Shape::boxed(4, None, diagonal, Symbols::default_for(4)).unwrap()
    }

    fn all(blanks: Option<RangeInclusive<usize>>) -> Wanted {
        Wanted {
            blanks,
            symmetric: false,
            dug_to_the_end: false,
            minimal: false,
            level: None,
            first: None,
        }
    }

    #[test]
    fn the_4x4_counts_are_the_known_ones() {
        let shape = boxed(false);
        // 288 grids, each of 16 cells: one blank anywhere keeps the grid's solution.
        assert_eq!(
            Listing::new(&shape, &all(Some(1..=1)), None).len(),
            288 * 16
        );
        let minimal = Wanted {
            blanks: None,
            symmetric: false,
            dug_to_the_end: true,
            minimal: false,
            level: None,
            first: None,
        };
        let listing = Listing::new(&shape, &minimal, None);
        assert_eq!(listing.len(), 85_632);
        assert_eq!(listing.blank_counts(), Some(10..=12));
        assert_eq!(
            Listing::new(&shape, &all(None), None).blank_counts(),
            Some(1..=12)
        );
        assert_eq!(Listing::new(&shape, &all(Some(13..=16)), None).len(), 0);
        assert_eq!(Listing::new(&shape, &all(None), None).len(), 13_579_680);
    }

    #[test]
    fn listed_puzzles_are_what_they_claim() {
        for diagonal in [false, true] {
            let shape = boxed(diagonal);
            let wanted = Wanted {
                blanks: Some(6..=10),
                symmetric: true,
                dug_to_the_end: false,
                minimal: false,
                level: None,
                first: None,
            };
            let listing = Listing::new(&shape, &wanted, None);
            let mut solver = Solver::new(&shape);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
            let drawn = listing.draw(listing.len().min(300), &mut rng);
            let distinct: std::collections::HashSet<_> = drawn.iter().map(|p| &p.puzzle).collect();
            assert_eq!(distinct.len(), drawn.len());
            for p in &drawn {
                let blanks = p.puzzle.iter().filter(|&&v| v == 0).count();
                assert!((6..=10).contains(&blanks));
                assert!((0..16).all(|c| (p.puzzle[c] == 0) == (p.puzzle[15 - c] == 0)));
                let mut found = [0; 16];
                assert_eq!(solver.count(&p.puzzle, 2, &mut found), 1);
                assert_eq!(found[..], p.solution[..]);
            }
        }
    }

    #[test]
    fn shards_split_the_listing_by_grid() {
        let shape = boxed(false);
        let whole = Listing::new(&shape, &all(Some(4..=4)), None);
        let mut solutions = std::collections::HashSet::new();
        let mut total = 0;
        for index in 1..=3 {
            let shard = Shard::new(index, 3).ok();
            let listing = Listing::new(&shape, &all(Some(4..=4)), shard);
            total += listing.len();
            let own: std::collections::HashSet<_> = (0..listing.len())
                .map(|i| listing.puzzle(i).solution)
                .collect();
            assert_eq!(own.len(), 96);
            assert!(own.into_iter().all(|grid| solutions.insert(grid)));
        }
        assert_eq!(total, whole.len());
    }

    #[test]
    fn a_first_value_keeps_a_quarter_of_the_puzzles_those_whose_solution_starts_with_it() {
        let shape = boxed(false);
        let whole = Listing::new(&shape, &all(Some(6..=6)), None);
        for value in 1..=4 {
            let wanted = Wanted {
                first: Some(value),
                ..all(Some(6..=6))
            };
            let listing = Listing::new(&shape, &wanted, None);
            assert_eq!(listing.len() * 4, whole.len());
            let puzzles = listing.draw(listing.len(), &mut Xoshiro256PlusPlus::seed_from_u64(1));
            assert!(puzzles.iter().all(|p| p.solution[0] == value));
        }
    }
}
