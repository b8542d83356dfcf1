//! How the kernels for every shape deal grids to shards (see [`crate::model::shard`]).
//!
//! A grid's key is a hash of the cells two of its values take, region by region: first the
//! cells of value 1, then those of value 2. Shard `i` of `k` owns the grids whose key is `i - 1`
//! modulo `k`. The key is a function of the grid, so each grid belongs to one shard: the shards
//! of one seed share no grid, and puzzles with one solution dug from grids of two shards differ.
//!
//! Neither generator makes grids only to drop most of them:
//! - `-c` places all the 1s, then all the 2s, before any other value, so the walk knows a
//!   subtree's key once it has placed the 2s, and goes below only the placements its shard owns;
//!   the values are the walk's, which the seed maps to the same symbols in every shard.
//! - `-n` relabels each random grid so that two of its values whose cells the shard owns become
//!   1 and 2: a grid has N·(N − 1) such pairs, so it seldom has none. With `--first 1` or
//!   `--first 2` the keyed values are the two smallest others (see [`keyed_values`]), since the
//!   first value must take the top-left cell; `-c` keeps its 1s and 2s off that cell instead.
//!
//! On a 4×4 shape, whose puzzles are listed, shard `i` takes the listed grids numbered `i - 1`
//! modulo `k` instead (see [`super::listed`]).

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

use crate::model::shard::Shard;

/// The number of values, from 1, whose cells make the key.
pub const KEYED_VALUES: usize = 2;

/// The key of no cell yet (FNV-1a's offset basis).
pub const EMPTY_KEY: u64 = 0xcbf2_9ce4_8422_2325;

/// `key` with one more cell: the next region's cell of the value being keyed.
pub fn fold(key: u64, cell: u16) -> u64 {
    (key ^ u64::from(cell)).wrapping_mul(0x0000_0100_0000_01b3)
}

/// Whether `shard` owns the grids of `key`. FNV leaves the low bits of a key poorly mixed, so
/// they are mixed (splitmix64's finaliser) before the modulo.
pub fn owns(shard: Shard, key: u64) -> bool {
    let mut z = key;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    z % shard.count() as u64 == shard.index() as u64 - 1
}

/// Whether the walk goes below a placement of `value` in every region whose keyed values so far
/// have `key`: always, but below the last keyed value only when the shard walked owns the key.
pub fn goes_below(shard: Option<Shard>, key: u64, value: usize) -> bool {
    value != KEYED_VALUES || shard.is_none_or(|shard| owns(shard, key))
}

/// Swaps values `a` and `b` in `grid`, which keeps it a grid.
pub fn swap_values(grid: &mut [u8], a: u8, b: u8) {
    for value in grid {
        *value = match *value {
            v if v == a => b,
            v if v == b => a,
            v => v,
        };
    }
}

/// The cells each value takes in a complete grid, region by region.
pub struct Placements {
    /// `cells[v][r]`: the cell of value `v` in region `r` (`cells[0]` is unused).
    cells: Vec<Vec<u16>>,
}

impl Placements {
    /// The placements of `grid`, a complete grid of values 1..=N whose regions are
    /// `region_cells`.
    pub fn new(grid: &[u8], region_cells: &[Vec<u16>]) -> Placements {
        let n = region_cells.len();
        let mut cells = vec![vec![0; n]; n + 1];
        for (region, members) in region_cells.iter().enumerate() {
            for &cell in members {
                cells[usize::from(grid[usize::from(cell)])][region] = cell;
            }
        }
        Placements { cells }
    }

    /// The key of the grid were values `one` and `two` relabelled 1 and 2.
    fn key(&self, one: u8, two: u8) -> u64 {
        [one, two]
            .iter()
            .flat_map(|&v| &self.cells[usize::from(v)])
            .fold(EMPTY_KEY, |key, &cell| fold(key, cell))
    }

    /// A value that, relabelled 2 while `one` is relabelled 1, puts the grid in `shard`: the
    /// first such after `two` but `avoid`, or `None` when no value does.
    pub fn partner(&self, one: u8, two: u8, shard: Shard, avoid: Option<u8>) -> Option<u8> {
        let n = self.cells.len() as u8 - 1;
        (0..n)
            .map(|step| (two - 1 + step) % n + 1)
            .find(|&v| v != one && Some(v) != avoid && owns(shard, self.key(one, v)))
    }
}

/// The two values whose cells key a grid (see the module documentation): 1 and 2, or with a
/// value `first` asked in the top-left cell, the two smallest others, so that the relabelling
/// that puts `first` there keeps the key.
pub fn keyed_values(first: Option<u8>) -> (u8, u8) {
    match first {
        Some(1) => (2, 3),
        Some(2) => (1, 3),
        _ => (1, 2),
    }
}

/// `grid` relabelled at random into one of `shard`'s grids, or `None` when no relabelling of it
/// is: values drawn at random become the keyed values (the first pair the shard owns from a
/// random start), the value of the top-left cell `first` when it is asked, and the others a
/// random order of the rest.
pub fn relabel_into<R: Rng + ?Sized>(
    grid: &[u8],
    region_cells: &[Vec<u16>],
    shard: Shard,
    first: Option<u8>,
    rng: &mut R,
) -> Option<Vec<u8>> {
    let n = region_cells.len() as u8;
    let placements = Placements::new(grid, region_cells);
    let top_left = first.map(|_| grid[0]);
    let start = rng.random_range(0..n);
    let (one, two) = (0..n).find_map(|step| {
        let one = (start + step) % n + 1;
        if Some(one) == top_left {
            return None;
        }
        let two = rng.random_range(1..=n);
        placements
            .partner(one, two, shard, top_left)
            .map(|two| (one, two))
    })?;
    let (k1, k2) = keyed_values(first);
    let mut rest: Vec<u8> = (1..=n)
        .filter(|&l| l != k1 && l != k2 && Some(l) != first)
        .collect();
    rest.shuffle(rng);
    let mut label = vec![0; usize::from(n) + 1];
    label[usize::from(one)] = k1;
    label[usize::from(two)] = k2;
    if let (Some(value), Some(top_left)) = (first, top_left) {
        label[usize::from(top_left)] = value;
    }
    let others = (1..=n).filter(|&v| v != one && v != two && Some(v) != top_left);
    for (value, new) in others.zip(rest) {
        label[usize::from(value)] = new;
    }
    Some(grid.iter().map(|&v| label[usize::from(v)]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::generic::solve::Solver;
    use crate::model::shape::Shape;
    use crate::model::symbols::Symbols;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    #[test]
    fn every_key_has_one_owner() {
        for count in [1, 2, 3, 7, 1000] {
            for key in (0..500u64).map(|k| fold(EMPTY_KEY, k as u16)) {
                let owners = (1..=count)
                    .filter(|&i| owns(Shard::new(i, count).unwrap(), key))
                    .count();
                assert_eq!(owners, 1);
            }
        }
    }

    #[test]
    fn relabelled_grids_stay_grids_and_land_in_their_shard() {
        let shape = Shape::boxed(12, Some((3, 4)), false, Symbols::default_for(12)).unwrap();
        let cells = &shape.houses()[24..36];
        let mut grid = vec![0; shape.cells()];
        assert_eq!(Solver::new(&shape).count(&[0; 144], 1, &mut grid), 1);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for index in 1..=5 {
            let shard = Shard::new(index, 5).unwrap();
            let relabelled = relabel_into(&grid, cells, shard, None, &mut rng).unwrap();
            assert!(shape.first_repeat(&relabelled).is_none());
            assert!(owns(shard, Placements::new(&relabelled, cells).key(1, 2)));
            for first in 1..=12 {
                let relabelled = relabel_into(&grid, cells, shard, Some(first), &mut rng).unwrap();
                assert!(shape.first_repeat(&relabelled).is_none());
                assert_eq!(relabelled[0], first);
                let (k1, k2) = keyed_values(Some(first));
                assert!(owns(shard, Placements::new(&relabelled, cells).key(k1, k2)));
            }
        }
    }
}
