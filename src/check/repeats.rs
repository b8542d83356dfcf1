//! Grids repeated anywhere among the files checked together. Each grid leaves a 16-byte key, a
//! hash of its digits above its ordinal, so that repeats are found across pieces and files once
//! all are read: the keys are sorted, and a grid's copies meet. Holding the keys rather than the
//! grids keeps the memory of a check at 16 bytes a grid (and 8 more for the line of each grid of a
//! piece that was not in the exact layout).
//!
//! # Memory budget
//! An endless stream of grids would still grow without end, so the keys held in memory are kept
//! within a budget: 1 GiB, or what the environment variable `SUDOKU_GEN_CHECK_MEMORY` says (bytes,
//! or a number with a `K`, `M` or `G` suffix, binary; a value that does not read as one is
//! ignored). Past it, the keys held are sorted and written out as a run to a temporary file, and
//! the keys that follow start a new run; once every file is read, the runs and the keys still
//! held are merged, as `sort` does, so that a grid's copies in different runs meet in the same
//! order as in one sorted list: the report is the one of a check that fits.
//!
//! Disk use: 16 bytes a grid for every run written, so up to 16 bytes a grid of the whole check,
//! in the system's temporary folder (`TMPDIR`), plus one open file a run. The files are unlinked
//! as soon as they are made: nothing is left behind on any way out, a signal or a kill included,
//! so the check needs no cleanup hook.

use std::io::{BufReader, BufWriter, Read, Seek, Write};

use rayon::prelude::*;

use super::report::{Fault, Report};

/// The grids of the files checked, as the search for repeats keeps them: 16 bytes a grid, in
/// memory within the budget and in sorted runs on disk past it, plus a line number for each grid
/// of a piece that was not in the exact layout.
pub(super) struct SeenGrids {
    /// A key per grid held in memory, from ordinal `spilled` on, in no particular order: the high
    /// [`HASH_BITS`] bits of a 128-bit hash of its digits, which stands for them, above its ordinal
    /// among all the grids seen. Two grids with the same hash are taken as the same grid (for a
    /// billion grids, the odds of a collision are below 10⁻⁸); the ordinal finds the grid's place
    /// in `runs`.
    keys: Vec<u128>,
    /// How many keys were written out, all of them of ordinals below those of `keys`.
    spilled: usize,
    /// The runs written out: each a temporary file of sorted keys, and how many it holds.
    spills: Vec<(std::fs::File, usize)>,
    /// Keys held in memory before they are written out.
    budget: usize,
    /// The first failure to write a run, which ends the check.
    failed: Option<std::io::Error>,
    /// The places of the grids, a run for each piece, in the order read.
    runs: Vec<Run>,
}

/// The budget of the keys held in memory when `SUDOKU_GEN_CHECK_MEMORY` says none.
const DEFAULT_BUDGET: usize = 1 << 30;

/// Bytes a key takes in memory and on disk.
const KEY_BYTES: usize = 16;

impl Default for SeenGrids {
    /// Keys held in memory, all of them: for a text already held whole.
    fn default() -> SeenGrids {
        SeenGrids {
            keys: Vec::new(),
            spilled: 0,
            spills: Vec::new(),
            budget: usize::MAX,
            failed: None,
            runs: Vec::new(),
        }
    }
}

/// Bytes written as `N`, `NK`, `NM` or `NG` (binary multiples), if `text` reads as one.
fn parse_bytes(text: &str) -> Option<usize> {
    let text = text.trim();
    let (digits, shift) = match text.as_bytes().last()?.to_ascii_uppercase() {
        b'K' => (&text[..text.len() - 1], 10),
        b'M' => (&text[..text.len() - 1], 20),
        b'G' => (&text[..text.len() - 1], 30),
        _ => (text, 0),
    };
    digits.parse::<usize>().ok()?.checked_mul(1 << shift)
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
    /// Keys held in memory within the budget of `SUDOKU_GEN_CHECK_MEMORY` (1 GiB without it), the
    /// rest written out in sorted runs.
    pub fn within_budget() -> SeenGrids {
        let bytes = std::env::var("SUDOKU_GEN_CHECK_MEMORY")
            .ok()
            .and_then(|text| parse_bytes(&text))
            .unwrap_or(DEFAULT_BUDGET);
        SeenGrids {
            budget: (bytes / KEY_BYTES).max(1),
            ..SeenGrids::default()
        }
    }

    /// Room for the keys of `count` more grids, to be filled and then kept by [`SeenGrids::close`]
    /// or dropped by [`SeenGrids::abandon`]; the first of them has ordinal `self.kept()`.
    pub fn open(&mut self, count: usize) -> &mut [u128] {
        let start = self.kept() - self.spilled;
        let needed = start + count;
        if needed > self.keys.capacity() {
            // Grown by doubling as a Vec grows, but never past the budget unless one piece needs it.
            let room = needed.max(self.keys.capacity().saturating_mul(2).min(self.budget));
            let more = room - self.keys.len();
            if crate::io::memory::fallibly(|| self.keys.try_reserve_exact(more)).is_err() {
                // Less memory than the budget (a `ulimit`, a full machine): the keys held go out
                // as a run, and from now on runs are half as large as the room that failed.
                self.budget = (room / 2).max(count);
                if self.failed.is_none()
                    && !self.keys.is_empty()
                    && let Err(error) = self.spill()
                {
                    self.failed = Some(error);
                }
                self.spilled += self.keys.len();
                self.keys = Vec::new();
                self.keys.reserve_exact(count);
            }
        }
        let start = self.kept() - self.spilled;
        let needed = start + count;
        self.keys.resize(needed, 0);
        &mut self.keys[start..]
    }

    /// How many grids the runs hold: the ordinal of the next one.
    pub fn kept(&self) -> usize {
        self.runs.last().map_or(0, |run| run.first + run.count)
    }

    /// Keeps the keys opened last as the grids of a new run; writes the keys held out as a sorted
    /// run when another piece as large would not fit in the budget.
    pub fn close(&mut self, file: u32, places: Places) {
        let first = self.kept();
        let count = self.spilled + self.keys.len() - first;
        self.runs.push(Run {
            first,
            count,
            file,
            places,
        });
        if self.failed.is_none() && self.keys.len().saturating_add(count) > self.budget {
            if let Err(error) = self.spill() {
                self.failed = Some(error);
            }
            // Held or not, they are not kept past the budget: the check ends at the failure.
            self.spilled += self.keys.len();
            self.keys.clear();
        }
    }

    /// Drops the keys opened last.
    pub fn abandon(&mut self) {
        self.keys.truncate(self.kept() - self.spilled);
    }

    /// The failure to write out a run, if there was one: the check cannot go on without it.
    pub fn take_failure(&mut self) -> Option<std::io::Error> {
        self.failed.take()
    }

    /// Writes the keys held, sorted, to a new temporary file.
    fn spill(&mut self) -> std::io::Result<()> {
        self.keys.par_sort_unstable();
        let mut writer = BufWriter::with_capacity(1 << 20, tempfile::tempfile()?);
        for key in &self.keys {
            writer.write_all(&key.to_le_bytes())?;
        }
        let mut file = writer.into_inner().map_err(|e| e.into_error())?;
        file.rewind()?;
        self.spills.push((file, self.keys.len()));
        Ok(())
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
pub(super) fn seen_key(digits: &[u8], ordinal: usize) -> u128 {
    let hash = xxhash_rust::xxh3::xxh3_128(digits);
    hash & !ORDINAL_MASK | ordinal as u128 & ORDINAL_MASK
}

/// The keys of the runs written out and of the keys still held (sorted), merged in order.
struct Merge {
    /// The runs written out, each with how many keys are left to read of it.
    spills: Vec<(BufReader<std::fs::File>, usize)>,
    held: std::vec::IntoIter<u128>,
    /// The next key of each source, smallest first, with its source (`spills.len()` for `held`).
    heads: std::collections::BinaryHeap<std::cmp::Reverse<(u128, usize)>>,
}

impl Merge {
    fn new(held: Vec<u128>, spills: Vec<(std::fs::File, usize)>) -> std::io::Result<Merge> {
        let spills = spills
            .into_iter()
            .map(|(file, count)| (BufReader::with_capacity(1 << 16, file), count))
            .collect();
        let mut merge = Merge {
            spills,
            held: held.into_iter(),
            heads: std::collections::BinaryHeap::new(),
        };
        for source in 0..=merge.spills.len() {
            merge.refill(source)?;
        }
        Ok(merge)
    }

    /// Takes the next key of `source` into `heads`, if it has one.
    fn refill(&mut self, source: usize) -> std::io::Result<()> {
        let key = match self.spills.get_mut(source) {
            None => self.held.next(),
            Some((_, 0)) => None,
            Some((reader, left)) => {
                *left -= 1;
                let mut bytes = [0; KEY_BYTES];
                reader.read_exact(&mut bytes)?;
                Some(u128::from_le_bytes(bytes))
            }
        };
        if let Some(key) = key {
            self.heads.push(std::cmp::Reverse((key, source)));
        }
        Ok(())
    }

    /// The smallest key not yet taken.
    fn next(&mut self) -> std::io::Result<Option<u128>> {
        let Some(std::cmp::Reverse((key, source))) = self.heads.pop() else {
            return Ok(None);
        };
        self.refill(source)?;
        Ok(Some(key))
    }
}

/// Reports every grid of `seen` that repeats an earlier one (of its file or of a file before it)
/// in the report of its file; `names` name the files. An error when a run written out cannot be
/// read back.
pub(super) fn add_repeats(
    mut seen: SeenGrids,
    reports: &mut [Report],
    names: &[String],
) -> std::io::Result<()> {
    if let Some(error) = seen.failed.take() {
        return Err(error);
    }
    // Sorted, the keys of one grid's copies meet, the first read first; no other memory.
    seen.keys.par_sort_unstable();
    let keys = std::mem::take(&mut seen.keys);
    let mut merge = Merge::new(keys, std::mem::take(&mut seen.spills))?;
    let hash = |key: u128| key & !ORDINAL_MASK;
    let place = |key: u128| seen.place((key & ORDINAL_MASK) as usize);
    // The first copy of the grid of the last key taken, and its place once it is needed.
    let mut first: Option<(u128, Option<SeenPlace>)> = None;
    while let Some(key) = merge.next()? {
        match &mut first {
            Some((first_key, first_place)) if hash(*first_key) == hash(key) => {
                let first = *first_place.get_or_insert_with(|| place(*first_key));
                let later = place(key);
                let fault = Fault::RepeatedGrid {
                    grid: first.grid + 1,
                    file: (later.file != first.file).then(|| names[first.file as usize].as_str()),
                    line: first.line,
                };
                reports[later.file as usize].add_fault(later.line, Some(later.grid + 1), fault);
            }
            _ => first = Some((key, None)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_read_as_bytes() {
        assert_eq!(parse_bytes("64M"), Some(64 << 20));
        assert_eq!(parse_bytes("1g"), Some(1 << 30));
        assert_eq!(parse_bytes("4096"), Some(4096));
        assert_eq!(parse_bytes("lots"), None);
        assert_eq!(parse_bytes(""), None);
    }

    #[test]
    fn repeats_across_runs_written_out_are_found() {
        let mut seen = SeenGrids {
            budget: 2,
            ..SeenGrids::default()
        };
        let grids: Vec<[u8; 81]> = [1u8, 2, 3, 4, 2, 5, 1]
            .iter()
            .map(|&d| [b'0' + d; 81])
            .collect();
        for (k, digits) in grids.iter().enumerate() {
            let ordinal = seen.kept();
            seen.open(1)[0] = seen_key(digits, ordinal);
            let places = Places::Spaced {
                first_grid: k,
                first_line: k + 1,
                step: 1,
            };
            seen.close(0, places);
        }
        assert!(!seen.spills.is_empty());
        let mut reports = [Report::default()];
        add_repeats(seen, &mut reports, &[String::new()]).unwrap();
        let lines: Vec<usize> = reports[0]
            .problems
            .listed()
            .iter()
            .map(|p| p.line)
            .collect();
        assert_eq!(lines, [5, 7]);
    }
}
