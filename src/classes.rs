//! Work on equivalence classes in bulk: the canonical forms of a file, complete grids that are
//! pairwise inequivalent, and finding equivalent pairs in a file.
//!
//! A class is named by its canonical form (see [`crate::canon`]), a [`Grid`]: two grids are
//! equivalent exactly when their forms are equal. A form costs tens of microseconds, though, so
//! complete grids are first compared by a fingerprint that equivalent grids share and others almost
//! never do, computed in parallel in about a microsecond; forms are computed only for grids whose
//! fingerprints meet. Puzzles are keyed by their forms at once.
//!
//! # Essentially different grids
//! Grid `k` of a request is a random complete grid drawn from its own random generator, seeded from
//! the request's seed and `k`, and written as drawn (not in its canonical form). The grids are then
//! taken in order; one whose class came earlier is drawn again from the next values of its generator
//! until its class is new. So the output depends on the seed alone, not on the thread count.

use std::hash::BuildHasher;

use foldhash::fast::FixedState;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::canon::canonical_form;
use crate::check::{Problem, Report};
use crate::format::{Format, render};
use crate::generate::GridRequest;
use crate::grid::Grid;
use crate::parse::parse_puzzles;
use crate::puzzle::random_grid;
use crate::solve::Solver;

/// The canonical form of each of `grids`, one line each (81 characters, `.` for empty cells),
/// written by the threads straight into their records of one buffer.
pub fn render_canonical_forms(grids: &[Grid]) -> Vec<u8> {
    const CHUNK: usize = 4096;
    let record_len = Format::Line.record_len();
    let mut text = vec![0; record_len * grids.len()];
    text.par_chunks_mut(record_len * CHUNK)
        .zip(grids.par_chunks(CHUNK))
        .for_each(|(records, chunk)| {
            for (record, grid) in records.chunks_exact_mut(record_len).zip(chunk) {
                Format::Line.write_record(&canonical_form(grid), b'.', record);
            }
        });
    text
}

/// A value that equivalent grids share, cheap to compute for valid complete grids (see
/// [`fingerprint`]); for anything else, the hash of the canonical form, which is then kept.
fn key_of(grid: &Grid) -> (u64, Option<Grid>) {
    match fingerprint(grid) {
        Some(fingerprint) => (fingerprint, None),
        None => {
            let form = canonical_form(grid);
            (FixedState::with_seed(0xc1a5).hash_one(form), Some(form))
        }
    }
}

/// A class invariant of a valid complete grid (`None` for anything else): equal for equivalent
/// grids, and rarely equal for others.
///
/// For two rows, the digit under each digit of the first row in the second is a permutation of the
/// digits. Reordering columns leaves it as it is, relabelling conjugates it, and reordering rows
/// only changes which pair is which: so its cycle type is invariant, and so is the multiset of the
/// cycle types of the 36 pairs of rows, each marked with whether its rows share a band. The same
/// holds for columns; transposing swaps the two multisets, so they are combined in sorted order.
pub(crate) fn fingerprint(grid: &Grid) -> Option<u64> {
    if !grid.is_filled() || grid.first_repeat().is_some() {
        return None;
    }
    let cells = grid.cells();
    let rows: [[u8; 9]; 9] = std::array::from_fn(|r| std::array::from_fn(|c| cells[9 * r + c]));
    let columns: [[u8; 9]; 9] = std::array::from_fn(|c| std::array::from_fn(|r| cells[9 * r + c]));
    let mut sides = [rows, columns].map(|lines| {
        let mut types = [0u32; 36];
        let mut pair = 0;
        for a in 0..9 {
            let mut place = [0u8; 10];
            for (i, &digit) in lines[a].iter().enumerate() {
                place[usize::from(digit)] = i as u8;
            }
            for (b, other) in lines.iter().enumerate().skip(a + 1) {
                let image = |digit: u8| other[usize::from(place[usize::from(digit)])];
                // The cycle lengths as counts, 3 bits per length 2..=9 (at most 4 of length 2).
                let mut cycle_type = u32::from(a / 3 == b / 3) << 24;
                let mut seen = 0u16;
                for start in 1..=9u8 {
                    if seen >> start & 1 == 1 {
                        continue;
                    }
                    let (mut digit, mut length) = (start, 0);
                    while seen >> digit & 1 == 0 {
                        seen |= 1 << digit;
                        digit = image(digit);
                        length += 1;
                    }
                    cycle_type += 1 << (3 * (length - 2));
                }
                types[pair] = cycle_type;
                pair += 1;
            }
        }
        types.sort_unstable();
        types
    });
    sides.sort_unstable();
    Some(FixedState::with_seed(0xf1e6).hash_one(sides))
}

/// The classes met so far: grids by key (see [`key_of`]), canonical forms computed only for grids
/// whose keys meet. Members of one key are chained through `next`.
struct ClassIndex {
    heads: std::collections::HashMap<u64, usize, FixedState>,
    members: Vec<Member>,
}

struct Member {
    grid: Grid,
    form: Option<Grid>,
    index: usize,
    next: Option<usize>,
}

impl ClassIndex {
    fn with_capacity(capacity: usize) -> ClassIndex {
        ClassIndex {
            heads: std::collections::HashMap::with_capacity_and_hasher(
                capacity,
                FixedState::with_seed(0xc1a5),
            ),
            members: Vec::with_capacity(capacity),
        }
    }

    /// The index given with the earlier member of the class of `grid`, if any; else `grid` joins,
    /// with `index`.
    fn find_or_add(
        &mut self,
        grid: &Grid,
        (key, form): (u64, Option<Grid>),
        index: usize,
    ) -> Option<usize> {
        let head = self.heads.get(&key).copied();
        let mut form = form;
        let mut at = head;
        while let Some(k) = at {
            let form = *form.get_or_insert_with(|| canonical_form(grid));
            let member = &mut self.members[k];
            if *member
                .form
                .get_or_insert_with(|| canonical_form(&member.grid))
                == form
            {
                return Some(member.index);
            }
            at = member.next;
        }
        self.heads.insert(key, self.members.len());
        self.members.push(Member {
            grid: *grid,
            form,
            index,
            next: head,
        });
        None
    }
}

/// Pairs `(later, earlier)` of indices of `grids` whose grids are equivalent but not equal, each
/// later grid paired with the first grid of its class. Equal grids are left out: they are plain
/// repeats, reported as such.
pub(crate) fn equivalent_pairs(grids: &[Grid]) -> Vec<(usize, usize)> {
    let keys: Vec<(u64, Option<Grid>)> = grids.par_iter().map(key_of).collect();
    let mut classes = ClassIndex::with_capacity(grids.len());
    let mut pairs = Vec::new();
    for (index, (grid, key)) in grids.iter().zip(keys).enumerate() {
        if let Some(earlier) = classes.find_or_add(grid, key, index)
            && grids[earlier] != *grid
        {
            pairs.push((index, earlier));
        }
    }
    pairs
}

/// Adds to `report` (of a check of the grids of `text`) every grid equivalent to an earlier one but
/// not equal to it, as `grid K: equivalent to grid J (line L)`. With `puzzles` (the text and name of
/// the file of the puzzles that `text` solves), the puzzles are compared instead, and reported at
/// their solutions. A text that does not parse was reported by the check already and adds nothing.
pub fn check_classes(report: &mut Report, text: &[u8], puzzles: Option<(&[u8], &str)>) {
    report.classes = true;
    let Ok(grids) = parse_puzzles(text) else {
        return;
    };
    let parsed_puzzles;
    let (compared, puzzle_file) = match puzzles {
        Some((puzzle_text, name)) => match parse_puzzles(puzzle_text) {
            Ok(puzzles) => {
                parsed_puzzles = puzzles;
                (&parsed_puzzles, Some(name))
            }
            Err(_) => return,
        },
        None => (&grids, None),
    };
    for (later, earlier) in equivalent_pairs(&compared.grids) {
        let message = match puzzle_file {
            Some(name) => format!(
                "its puzzle is equivalent to puzzle {} ({name} line {})",
                earlier + 1,
                compared.lines[earlier]
            ),
            None => format!(
                "equivalent to grid {} (line {})",
                earlier + 1,
                grids.lines[earlier]
            ),
        };
        report.add(Problem {
            line: grids
                .lines
                .get(later)
                .copied()
                .unwrap_or(compared.lines[later]),
            grid: Some(later + 1),
            message,
        });
    }
}

/// The random generator of grid `index` of a request with `seed`.
fn grid_rng(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// `request.count` pairwise inequivalent complete grids (see the module comment), each with
/// `request.first` in its top-left cell if asked (a relabelling, which keeps the class).
///
/// # Panics
/// If `request.shard` is set: the relabelling that puts `first` in the top-left cell could make
/// grids of two shards equal.
pub(crate) fn generate_classes(request: &GridRequest) -> Vec<Grid> {
    assert!(request.shard.is_none(), "classes are not sharded");
    let mut drawn: Vec<(Grid, (u64, Option<Grid>), Xoshiro256PlusPlus)> = (0..request.count)
        .into_par_iter()
        .map_init(Solver::new, |solver, k| {
            let mut rng = grid_rng(request.seed, k as u64);
            let grid = random_grid(&mut rng, solver, None);
            (grid, key_of(&grid), rng)
        })
        .collect();
    let mut classes = ClassIndex::with_capacity(drawn.len());
    let mut solver = Solver::new();
    for (index, (grid, key, rng)) in drawn.iter_mut().enumerate() {
        while classes.find_or_add(grid, *key, index).is_some() {
            *grid = random_grid(rng, &mut solver, None);
            *key = key_of(grid);
        }
    }
    drawn
        .into_iter()
        .map(|(grid, _, _)| match request.first {
            Some(digit) => with_first_digit(&grid, digit),
            None => grid,
        })
        .collect()
}

/// `grid` with the digit of its top-left cell and `digit` swapped everywhere.
fn with_first_digit(grid: &Grid, digit: u8) -> Grid {
    let top_left = grid.get(0);
    let cells = grid.cells().map(|d| match d {
        _ if d == top_left => digit,
        _ if d == digit => top_left,
        _ => d,
    });
    Grid::from_cells(cells).expect("a relabelling keeps digits")
}

/// `generate_classes` rendered in `format`, exactly as `-c` lays out its grids.
pub fn render_classes(request: &GridRequest, format: Format) -> Vec<u8> {
    render(&generate_classes(request), format, b'0')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::Transformation;

    #[test]
    fn classes_are_distinct_valid_and_reproducible() {
        let request = GridRequest {
            count: 300,
            seed: 11,
            first: Some(4),
            shard: None,
        };
        let grids = generate_classes(&request);
        assert_eq!(grids.len(), 300);
        assert!(
            grids
                .iter()
                .all(|g| g.is_filled() && g.first_repeat().is_none() && g.get(0) == 4)
        );
        assert!(equivalent_pairs(&grids).is_empty());
        let forms: std::collections::HashSet<Grid> = grids.iter().map(canonical_form).collect();
        assert_eq!(forms.len(), 300);
        assert_eq!(generate_classes(&request), grids);
    }

    #[test]
    fn fingerprints_are_class_invariants() {
        let request = GridRequest {
            count: 200,
            seed: 4,
            first: None,
            shard: None,
        };
        let grids = generate_classes(&request);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        for grid in &grids {
            let moved = Transformation::random(&mut rng).apply(grid);
            assert_eq!(fingerprint(&moved), fingerprint(grid));
        }
        let distinct: std::collections::HashSet<u64> =
            grids.iter().filter_map(fingerprint).collect();
        assert!(distinct.len() >= 195, "{}", distinct.len());
        let mut puzzle = grids[0];
        puzzle.set(4, 0);
        assert_eq!(fingerprint(&puzzle), None);
    }

    #[test]
    fn a_moved_copy_is_paired_with_its_original() {
        let request = GridRequest {
            count: 10,
            seed: 2,
            first: None,
            shard: None,
        };
        let mut grids = generate_classes(&request);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let moved = Transformation::random(&mut rng).apply(&grids[3]);
        grids.push(moved);
        grids.push(grids[5]);
        assert_eq!(equivalent_pairs(&grids), vec![(10, 3)]);
    }
}
