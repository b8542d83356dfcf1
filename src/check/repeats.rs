//! Grids repeated anywhere among the files checked together. Each grid leaves a 16-byte key, a
//! hash of its digits above its ordinal, so that repeats are found across pieces and files once
//! all are read: the keys are sorted in place, and a grid's copies meet. Holding the keys rather
//! than the grids keeps the memory of a check of any size at 16 bytes a grid (and 8 more for the
//! line of each grid of a piece that was not in the exact layout).

use rayon::prelude::*;

use super::report::{Fault, Problem, Report};

/// The grids of the files checked, as the search for repeats keeps them: 16 bytes a grid, plus a
/// line number for each grid of a piece that was not in the exact layout.
#[derive(Default)]
pub(super) struct SeenGrids {
    /// A key per grid, in no particular order: the high [`HASH_BITS`] bits of a 128-bit hash of
    /// its digits, which stands for them, above its ordinal among all the grids seen. Two grids
    /// with the same hash are taken as the same grid (for a billion grids, the odds of a collision
    /// are below 10⁻⁸); the ordinal finds the grid's place in `runs`.
    keys: Vec<u128>,
    /// The places of the grids, a run for each piece, in the order read.
    runs: Vec<Run>,
}

/// Bits of a key that hold the hash; the rest hold the grid's ordinal, so up to 2⁴⁰ grids.
const HASH_BITS: u32 = 88;
const ORDINAL_MASK: u128 = (1 << (128 - HASH_BITS)) - 1;

/// The grids of one piece: their file, the number of the first, and where each one starts.
struct Run {
    /// The ordinal of its first grid among all the grids seen, and how many grids it has.
    first: usize,
    count: usize,
    file: u32,
    places: Places,
}

/// The numbers (in the file, from 0) and first lines of the grids of a run.
pub(super) enum Places {
    /// As in the exact layout: numbers in a row from the first, lines evenly spaced from the first.
    Spaced {
        first_grid: usize,
        first_line: usize,
        step: usize,
    },
    /// Each grid's own, for a piece that was scanned line by line.
    Listed(Vec<(usize, usize)>),
}

/// A grid found again: its file, its number in the file (from 0) and its first line.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct SeenPlace {
    file: u32,
    grid: usize,
    line: usize,
}

impl SeenGrids {
    /// Room for the keys of `count` more grids, to be filled and then kept by [`SeenGrids::close`]
    /// or dropped by [`SeenGrids::abandon`]; the first of them has ordinal `self.kept()`.
    pub fn open(&mut self, count: usize) -> &mut [u128] {
        let start = self.kept();
        self.keys.resize(start + count, 0);
        &mut self.keys[start..]
    }

    /// How many grids the runs hold: the ordinal of the next one.
    pub fn kept(&self) -> usize {
        self.runs.last().map_or(0, |run| run.first + run.count)
    }

    /// Keeps the keys opened last as the grids of a new run.
    pub fn close(&mut self, file: u32, places: Places) {
        let first = self.kept();
        self.runs.push(Run {
            first,
            count: self.keys.len() - first,
            file,
            places,
        });
    }

    /// Drops the keys opened last.
    pub fn abandon(&mut self) {
        self.keys.truncate(self.kept());
    }

    /// The place of the grid with ordinal `ordinal`.
    fn place(&self, ordinal: usize) -> SeenPlace {
        let run = &self.runs[self.runs.partition_point(|run| run.first <= ordinal) - 1];
        let k = ordinal - run.first;
        let (grid, line) = match &run.places {
            Places::Spaced {
                first_grid,
                first_line,
                step,
            } => (first_grid + k, first_line + k * step),
            Places::Listed(places) => places[k],
        };
        SeenPlace {
            file: run.file,
            grid,
            line,
        }
    }
}

/// The key of the grid with `digits` and ordinal `ordinal` (see [`SeenGrids::keys`]).
pub(super) fn seen_key(digits: &[u8; 81], ordinal: usize) -> u128 {
    let hash = xxhash_rust::xxh3::xxh3_128(digits);
    hash & !ORDINAL_MASK | ordinal as u128 & ORDINAL_MASK
}

/// Reports every grid of `seen` that repeats an earlier one (of its file or of a file before it)
/// in the report of its file; `names` name the files.
pub(super) fn add_repeats(mut seen: SeenGrids, reports: &mut [Report], names: &[String]) {
    // Sorted in place, the keys of one grid's copies meet, the first read first; no other memory.
    seen.keys.par_sort_unstable();
    let same_grid = |a: &u128, b: &u128| a & !ORDINAL_MASK == b & !ORDINAL_MASK;
    for group in seen
        .keys
        .chunk_by(same_grid)
        .filter(|group| group.len() > 1)
    {
        let place = |key: &u128| seen.place((key & ORDINAL_MASK) as usize);
        let first = place(&group[0]);
        for later in group[1..].iter().map(place) {
            let fault = Fault::RepeatedGrid {
                grid: first.grid + 1,
                file: (later.file != first.file).then(|| names[first.file as usize].as_str()),
                line: first.line,
            };
            reports[later.file as usize].add(Problem::of(later.line, Some(later.grid + 1), fault));
        }
    }
}
