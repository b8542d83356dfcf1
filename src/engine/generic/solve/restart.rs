//! Restarts: the order a run of the search tries its choices in, and the guesses each run may make.
//!
//! A depth-first search's time varies wildly with the order it tries its choices in: a guess that
//! is wrong near the root can cost millions of guesses below it, where another order finds a
//! solution (or proves there is none) in a few hundred. So a count that runs out of guesses starts
//! again from the puzzle with another order and twice the guesses, until a run ends. Every run is
//! a complete search that stops early only when its guesses run out, so the run that ends gives an
//! exact count (see [`super::Solver::count_within`] for the solutions found by runs that did not).
//!
//! The first run keeps the fixed order of the search, so that a puzzle that needs few guesses is
//! solved as it always was; run `k` draws its order from `k` alone, so that a count gives the same
//! answer and the same first solution on every run of the program.

use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

/// The guesses of the first run that looks for one solution, per cell of the shape.
const FIRST_RUN_PER_CELL: usize = 1;

/// The same for a run that counts up to a limit of 2 or more, which has to search its whole tree
/// to prove there is no other solution: a restart throws that work away, so it comes later.
const COUNTING_RUN_PER_CELL: usize = 4;

/// The fewest guesses of a first run, for the smallest shapes.
const FIRST_RUN_LEAST: usize = 64;

/// The guesses run `run` of a count up to `limit` may make on a shape of `cells` cells: a first
/// budget doubled with every restart, so that the guesses of all the runs that ran out add up to
/// less than those of the run that ends.
pub(super) fn budget(cells: usize, limit: usize, run: u32) -> usize {
    let per_cell = if limit >= 2 {
        COUNTING_RUN_PER_CELL
    } else {
        FIRST_RUN_PER_CELL
    };
    let first = (cells * per_cell).max(FIRST_RUN_LEAST);
    first.saturating_mul(1usize.checked_shl(run).unwrap_or(usize::MAX))
}

/// How a run breaks the ties of the search's rules (see the module documentation of
/// [`super`]), and in which order it tries a cell's values.
#[derive(Clone, Debug)]
pub(super) struct Order {
    /// The key of each cell: among cells the rules rank equal, the search branches on the lowest,
    /// and tries a value's places from the lowest.
    pub(super) rank: Vec<u16>,
    /// The key of each value, when `drawn`: the values of a cell are tried from the highest.
    value_rank: [u32; 25],
    /// Whether this is a restart's order: a cell's values are tried in the order of their keys
    /// rather than from the one with the most places.
    pub(super) drawn: bool,
    /// Where the search starts looking for a house's value with few places, as an index into the
    /// value words.
    pub(super) first_value_word: usize,
}

impl Order {
    /// The first run's order: cells in reading order, the first value word first.
    pub(super) fn first(cells: usize) -> Order {
        Order {
            rank: (0..cells as u16).collect(),
            value_rank: [0; 25],
            drawn: false,
            first_value_word: 0,
        }
    }

    /// Sets the order of run `run` of a count, over `value_words` value words; with `seed`, every
    /// run's order is drawn, the first's too, from the seed and the run's number.
    pub(super) fn draw(&mut self, run: u32, value_words: usize, seed: Option<u64>) {
        if run == 0 && seed.is_none() {
            if self.drawn {
                *self = Order::first(self.rank.len());
            }
            return;
        }
        let mixed = seed.unwrap_or(0) ^ u64::from(run).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(mixed);
        for (cell, rank) in self.rank.iter_mut().enumerate() {
            *rank = cell as u16;
        }
        self.rank.shuffle(&mut rng);
        for (value, rank) in self.value_rank.iter_mut().enumerate() {
            *rank = value as u32;
        }
        self.value_rank.shuffle(&mut rng);
        self.first_value_word = rng.random_range(0..value_words);
        self.drawn = true;
    }

    /// Whether cell `a` comes before cell `b` among cells the rules rank equal.
    #[inline(always)]
    pub(super) fn before(&self, a: usize, b: usize) -> bool {
        self.rank[a] < self.rank[b]
    }

    /// The key of the value of `bit` (a single candidate bit).
    pub(super) fn value_key(&self, bit: u32) -> u32 {
        self.value_rank[bit.trailing_zeros() as usize]
    }
}
