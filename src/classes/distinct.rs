//! Work on equivalence classes in bulk: the canonical forms of a file, complete grids that are
//! pairwise inequivalent, and finding equivalent pairs in a file.
//!
//! A class is named by its canonical form (see [`crate::classes::canon`]), a [`Grid`]: two grids are
//! equivalent exactly when their forms are equal. A form costs microseconds, though, so complete
//! grids are first compared by a fingerprint that equivalent grids share and others almost never
//! do, a fraction of a microsecond with byte shuffles; forms are computed only for grids whose
//! fingerprints meet. Puzzles are keyed by their forms at once.
//!
//! # Essentially different grids
//! `-c --classes` walks the tree of `-c` (see [`crate::engine::standard::walk`]), in the same fixed parts, each
//! with its own cell orders and symmetry drawn from the seed and the part's number, but keeps to
//! grids whose first row in the walk's cells reads 1 to 9 in order, so no two grids of a part are
//! relabellings of each other. Each grid the walk reaches also gives its *neighbours*: the grids
//! made by swapping two digits in a set of cells where they can trade places and leave the grid
//! valid (off the first row, and one of the pair being a 1, 2 or 3 of the walk, the digits of
//! the first three cells of the first row, see [`crate::engine::standard::walk`]), about eight a grid. Each
//! grid is keyed by its fingerprint (a class invariant over the 36 pairs of digits) as it is
//! made. Then the parts are taken in order, each grid in turn, and a grid whose fingerprint came
//! earlier is left out, so no two grids kept share a fingerprint, and grids with different
//! fingerprints are never equivalent: no canonical form is needed. Most parts leave out a few
//! grids in a thousand, and take the places of those from spare grids made after their share; a
//! part that leaves out more is walked again with more spare grids. The output depends on the
//! seed alone, not on the thread count.
//!
//! Inequivalent is not unlike: a neighbour differs from its leaf in a few cells, and so may
//! consecutive leaves (`--shuffle` spreads them out). There are about 5.47·10⁹ classes of
//! complete grids. `--first D` puts D in the top-left cell, as for `-c`; `-c --classes` does not take
//! `--shard`.
//!
//! # Equivalent pairs in a file
//! `--check --classes`: a grid equivalent to an earlier one (and not equal: that is a plain repeat)
//! is reported as `FILE:LINE: grid K: equivalent to grid J (line L)`; with `--puzzles PFILE` the
//! puzzles are compared, equal ones too (no other check of solutions compares puzzles): `grid K:
//! its puzzle is equivalent to puzzle J (PFILE line L)`, or `its puzzle repeats puzzle J`. It
//! reads its input whole (it compares every grid with every other), one file at a time.

use std::hash::BuildHasher;

use foldhash::fast::FixedState;
use rayon::prelude::*;

use crate::check::{Problem, Report};
use crate::classes::canon::canonical_form;
use crate::classes::fingerprint;
use crate::classes::representatives::representatives;
use crate::engine::standard::walk::{GridRequest, MAX_GRIDS, PARTS, part_ranges, part_share};
use crate::model::grid::Grid;
use crate::text::format::Format;
use crate::text::parse::parse_puzzles;

/// The canonical form of each of `grids`, one line each (81 characters, `.` for empty cells),
/// written by the threads straight into their records of one buffer.
pub fn render_canonical_forms(grids: &[Grid]) -> Vec<u8> {
    // Small enough that a batch of --canon (a few hundred grids) still spreads over every thread.
    const CHUNK: usize = 64;
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
    match fingerprint::of_grid(grid) {
        Some(fingerprint) => (fingerprint, None),
        None => {
            let form = canonical_form(grid);
            (FixedState::with_seed(0xc1a5).hash_one(form), Some(form))
        }
    }
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

/// Pairs `(later, earlier, equal)` of indices of `grids` whose grids are equivalent, each later
/// grid paired with the first grid of its class. Equal grids are paired only with `repeats` (for
/// puzzles, which no other check compares): grids of a file are plain repeats, reported as such.
pub(crate) fn equivalent_pairs(grids: &[Grid], repeats: bool) -> Vec<(usize, usize, bool)> {
    let keys: Vec<(u64, Option<Grid>)> = grids.par_iter().map(key_of).collect();
    let mut classes = ClassIndex::with_capacity(grids.len());
    let mut pairs = Vec::new();
    for (index, (grid, key)) in grids.iter().zip(keys).enumerate() {
        if let Some(earlier) = classes.find_or_add(grid, key, index) {
            let equal = grids[earlier] == *grid;
            if repeats || !equal {
                pairs.push((index, earlier, equal));
            }
        }
    }
    pairs
}

/// Adds to `report` (of a check of the grids of `text`) every grid equivalent to an earlier one but
/// not equal to it, as `grid K: equivalent to grid J (line L)`. With `puzzles` (the text and name of
/// the file of the puzzles that `text` solves), the puzzles are compared instead, equal ones too,
/// and reported at their solutions. A text that does not parse was reported by the check already
/// and adds nothing.
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
    for (later, earlier, equal) in equivalent_pairs(&compared.grids, puzzle_file.is_some()) {
        let message = match puzzle_file {
            Some(name) => puzzle_pair(equal, earlier + 1, Some(name), compared.lines[earlier]),
            None => grid_pair(earlier + 1, grids.lines[earlier]),
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

/// What a grid's problem says of the earlier grid `earlier` (from 1), at line `line`, it is
/// equivalent to.
pub(crate) fn grid_pair(earlier: usize, line: usize) -> String {
    format!("equivalent to grid {earlier} (line {line})")
}

/// What a solution's problem says of its puzzle, equal (`equal`) or equivalent to puzzle
/// `earlier` (from 1) at line `line` of the puzzle file `name` (`None`: of the same file).
pub(crate) fn puzzle_pair(equal: bool, earlier: usize, name: Option<&str>, line: usize) -> String {
    let how = if equal { "repeats" } else { "is equivalent to" };
    let file = name.map_or(String::new(), |name| format!("{name} "));
    format!("its puzzle {how} puzzle {earlier} ({file}line {line})")
}

/// `request.count` pairwise inequivalent complete grids in `format`, laid out as `-c` lays out its
/// grids (see the module comment).
///
/// # Panics
/// If `request.shard` is set (the parts are those of the whole tree, and the grids of two shards
/// could not be kept apart by class), or `request.count` is 0 or above [`MAX_GRIDS`].
pub fn render_classes(request: &GridRequest, format: Format) -> Vec<u8> {
    render_classes_spared(request, format, first_spares)
}

/// [`render_classes`], each part of `share` grids drawing `first_spares(share)` spare grids at
/// first.
fn render_classes_spared(
    request: &GridRequest,
    format: Format,
    first_spares: fn(usize) -> usize,
) -> Vec<u8> {
    assert!(request.shard.is_none(), "classes are not sharded");
    assert!(
        (1..=MAX_GRIDS).contains(&request.count),
        "count out of range"
    );
    let record_len = format.record_len();
    let shares: Vec<usize> = (0..PARTS)
        .map(|part| part_share(request.count, part))
        .collect();
    // Most parts meet an earlier key a few times in a thousand grids, fewer than their spares, but
    // a few meet more: such a part is walked again with four times the spares. A part's walk
    // depends on its spare count alone, so the other parts keep what they drew.
    let mut spares: Vec<usize> = shares.iter().copied().map(first_spares).collect();
    let mut out = vec![0; record_len * request.count];
    let mut drawn: Vec<(Vec<u8>, Vec<u64>)> = vec![(Vec::new(), Vec::new()); PARTS];
    let mut to_walk = [true; PARTS];
    loop {
        let walks: Vec<_> = part_ranges(&mut out, record_len)
            .into_iter()
            .zip(&mut drawn)
            .enumerate()
            .filter(|&(part, _)| to_walk[part])
            .collect();
        walks.into_par_iter().for_each(|(part, (range, drawn))| {
            *drawn = representatives(request, format, part, (range, spares[part]));
        });
        let met = met_earlier(drawn.iter().map(|(_, keys)| keys.as_slice()));
        let mut rest = met.as_slice();
        let part_mets: Vec<&[bool]> = drawn
            .iter()
            .map(|(_, keys)| {
                let (head, tail) = rest.split_at(keys.len());
                rest = tail;
                head
            })
            .collect();
        for (part, part_met) in part_mets.iter().enumerate() {
            to_walk[part] = part_met.iter().filter(|&&m| !m).count() < shares[part];
            if to_walk[part] {
                spares[part] = 4 * spares[part].max(16);
            }
        }
        if to_walk.contains(&true) {
            continue;
        }
        part_ranges(&mut out, record_len)
            .into_par_iter()
            .zip(&drawn)
            .zip(part_mets)
            .for_each(|((range, (spare_records, _)), part_met)| {
                keep_unmet(range, spare_records, part_met, record_len);
            });
        out.truncate(format.output_len(request.count));
        return out;
    }
}

/// The spare grids a part of `share` grids draws at first.
fn first_spares(share: usize) -> usize {
    share / 64 + 64
}

/// For each key of the parts, in order, whether it meets an earlier key. Keys are compared by
/// their high 40 bits (fewer past 16M keys): a few more may meet than need to, which only leaves
/// out a few more grids. Each key is sorted as one word with its ordinal, so that equal keys sort
/// in order of appearance:
///
/// ```text
///   entry (u64)   bits 63 .. b    the key's high bits
///                 bits b-1 .. 0   its ordinal among the keys of all parts   (b = ordinal_bits)
/// ```
fn met_earlier<'a>(parts: impl Iterator<Item = &'a [u64]> + Clone) -> Vec<bool> {
    let count: usize = parts.clone().map(<[u64]>::len).sum();
    // 24 bits of ordinal hold every grid of a run unless its parts had to draw many spares; then
    // the keys give up a few more bits.
    let ordinal_bits = (usize::BITS - count.leading_zeros()).max(24);
    let mut entries: Vec<u64> = Vec::with_capacity(count);
    for keys in parts {
        let first = entries.len() as u64;
        entries.extend(
            keys.iter()
                .zip(first..)
                .map(|(&key, ordinal)| key >> ordinal_bits << ordinal_bits | ordinal),
        );
    }
    let mut met = vec![false; entries.len()];
    entries.par_sort_unstable();
    for pair in entries.windows(2) {
        if pair[0] >> ordinal_bits == pair[1] >> ordinal_bits {
            met[(pair[1] & ((1 << ordinal_bits) - 1)) as usize] = true;
        }
    }
    met
}

/// Moves the records of `range` whose keys met no earlier key (`met`, by record) forward over
/// those that did, and fills the rest of the range from `spare_records` (whose `met` follow).
fn keep_unmet(range: &mut [u8], spare_records: &[u8], met: &[bool], record_len: usize) {
    let records = range.len() / record_len;
    let mut kept = 0;
    for (k, _) in met[..records].iter().enumerate().filter(|(_, m)| !**m) {
        if k != kept {
            range.copy_within(k * record_len..(k + 1) * record_len, kept * record_len);
        }
        kept += 1;
    }
    let spares = spare_records.chunks_exact(record_len).zip(&met[records..]);
    for (record, _) in spares.filter(|(_, m)| !**m).take(records - kept) {
        range[kept * record_len..(kept + 1) * record_len].copy_from_slice(record);
        kept += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classes::canon::Transformation;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    /// [`render_classes`] as values.
    fn generate_classes(request: &GridRequest) -> Vec<Grid> {
        generate_classes_spared(request, first_spares)
    }

    /// [`render_classes_spared`] as values.
    fn generate_classes_spared(request: &GridRequest, spares: fn(usize) -> usize) -> Vec<Grid> {
        render_classes_spared(request, Format::Line, spares)
            .chunks_exact(Format::Line.record_len())
            .map(|line| {
                Grid::from_cells(std::array::from_fn(|cell| line[cell] & 15)).expect("digits")
            })
            .collect()
    }

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
        assert!(equivalent_pairs(&grids, false).is_empty());
        let forms: std::collections::HashSet<Grid> = grids.iter().map(canonical_form).collect();
        assert_eq!(forms.len(), 300);
        assert_eq!(generate_classes(&request), grids);
    }

    #[test]
    fn fingerprints_are_class_invariants() {
        // One grid of each 24 relabellings of `-c`: not made to differ in their fingerprints.
        let request = GridRequest {
            count: 24 * 200,
            seed: 4,
            first: None,
            shard: None,
        };
        let grids: Vec<Grid> = crate::engine::standard::walk::generate_grids(&request)
            .expect("grids")
            .into_iter()
            .step_by(24)
            .collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        for grid in &grids {
            let moved = Transformation::random(&mut rng).apply(grid);
            assert_eq!(fingerprint::of_grid(&moved), fingerprint::of_grid(grid));
        }
        let distinct: std::collections::HashSet<u64> =
            grids.iter().filter_map(fingerprint::of_grid).collect();
        assert!(distinct.len() >= 195, "{}", distinct.len());
        let mut puzzle = grids[0];
        puzzle.set(4, 0);
        assert_eq!(fingerprint::of_grid(&puzzle), None);
    }

    #[test]
    fn the_walk_keys_each_grid_it_writes_by_its_fingerprint() {
        for (seed, format) in [(1, Format::Line), (7, Format::Grid)] {
            let request = GridRequest {
                count: PARTS * 300,
                seed,
                first: None,
                shard: None,
            };
            let record_len = format.record_len();
            for part in [0, 5, PARTS - 1] {
                let mut out = vec![0; 300 * record_len];
                let (spare_records, keys) =
                    representatives(&request, format, part, (&mut out[..], 20));
                assert_eq!(keys.len(), 320);
                let records = out.chunks_exact(record_len);
                for (record, &key) in records
                    .chain(spare_records.chunks_exact(record_len))
                    .zip(&keys)
                {
                    let cells = std::array::from_fn(|cell| record[format.cell_offset(cell)] & 15);
                    let grid = Grid::from_cells(cells).expect("digits");
                    assert_eq!(fingerprint::of_grid(&grid), Some(key));
                }
            }
        }
    }

    #[test]
    fn keys_meeting_an_earlier_part_are_marked_and_their_records_replaced() {
        let key = |k: u64| k << 40;
        let parts = [
            vec![key(5), key(9)],
            vec![key(7), key(9), key(5) + 1, key(8)],
        ];
        let met = met_earlier(parts.iter().map(Vec::as_slice));
        // Keys are compared by their high bits: `key(5) + 1` meets `key(5)`.
        assert_eq!(met, [false, false, false, true, true, false]);
        let mut range = *b"7a9b";
        keep_unmet(&mut range, b"5c8d", &met[2..], 2);
        assert_eq!(&range, b"7a8d");
        let mut range = *b"7a9b";
        let none_met = [false; 4];
        keep_unmet(&mut range, b"5c8d", &none_met, 2);
        assert_eq!(&range, b"7a9b");
    }

    #[test]
    fn a_part_short_of_new_keys_is_walked_again() {
        let request = GridRequest {
            count: PARTS * 1000,
            seed: 3,
            first: None,
            shard: None,
        };
        // With no spare grids, some part of this seed meets earlier keys (13 of the 18,000).
        let record_len = Format::Line.record_len();
        let keys: Vec<Vec<u64>> = (0..PARTS)
            .map(|part| {
                let mut out = vec![0; 1000 * record_len];
                representatives(&request, Format::Line, part, (&mut out[..], 0)).1
            })
            .collect();
        assert!(met_earlier(keys.iter().map(Vec::as_slice)).contains(&true));
        let no_spares = |_| 0;
        let grids = generate_classes_spared(&request, no_spares);
        let forms: std::collections::HashSet<Grid> = grids.iter().map(canonical_form).collect();
        assert_eq!(forms.len(), request.count);
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool");
        let on_one_thread = one_thread.install(|| generate_classes_spared(&request, no_spares));
        assert_eq!(on_one_thread, grids);
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
        assert_eq!(equivalent_pairs(&grids, false), vec![(10, 3, false)]);
    }
}
