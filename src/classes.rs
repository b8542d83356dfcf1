//! Work on equivalence classes in bulk: the canonical forms of a file, complete grids that are
//! pairwise inequivalent, and finding equivalent pairs in a file.
//!
//! A class is named by its canonical form (see [`crate::canon`]), a [`Grid`]: two grids are
//! equivalent exactly when their forms are equal. A form costs microseconds, though, so complete
//! grids are first compared by a fingerprint that equivalent grids share and others almost never
//! do, a fraction of a microsecond with byte shuffles; forms are computed only for grids whose
//! fingerprints meet. Puzzles are keyed by their forms at once.
//!
//! # Essentially different grids
//! `-c --classes` walks the tree of `-c` (see [`crate::generate`]), in the same fixed parts, each
//! with its own cell orders and symmetry drawn from the seed and the part's number, but keeps to
//! grids whose first row in the walk's cells reads 1 to 9 in order, so no two grids of a part are
//! relabellings of each other. Each is keyed by its fingerprint as the walk reaches it. Then the parts are taken
//! in order, each grid in turn, and a grid whose fingerprint came earlier is left out, so no two
//! grids kept share a fingerprint, and grids with different fingerprints are never equivalent: no
//! canonical form is needed. Most parts leave out a handful of grids in ten thousand, and take
//! the places of those from a few spare grids drawn after their share; a few parts leave out many
//! of their first grids, and are walked again with more spare grids. The output depends on the
//! seed alone, not on the thread count.

use std::hash::BuildHasher;

use foldhash::fast::FixedState;
use rayon::prelude::*;

use crate::canon::canonical_form;
use crate::check::{Problem, Report};
use crate::format::Format;
use crate::generate::{GridRequest, MAX_GRIDS, PARTS, part_share, representatives};
use crate::grid::{CELLS, Grid};
use crate::parse::parse_puzzles;

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
pub(crate) fn fingerprint(grid: &Grid) -> Option<u64> {
    (grid.is_filled() && grid.first_repeat().is_none()).then(|| fingerprint_of_cells(grid.cells()))
}

/// The fingerprint of a valid complete grid, given as its digits.
///
/// For two rows, the digit under each digit of the first row in the second is a permutation of the
/// digits. Reordering columns leaves it as it is, relabelling conjugates it, and reordering rows
/// only changes which pair is which: so its cycle type is invariant, and so is the multiset of the
/// cycle types of the 36 pairs of rows, counted apart for the pairs that share a band. The same
/// holds for columns; transposing swaps the two multisets, so they are combined in sorted order.
fn fingerprint_of_cells(cells: &[u8; CELLS]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2.
        return unsafe { fingerprint_with_avx2(cells) };
    }
    fingerprint_by(cells, plain_cycle_codes)
}

/// [`cycle_code`] of a pair of rows and of a pair of columns, held as in [`fingerprint_by`].
fn plain_cycle_codes(digits: &[u8; 32], places: &[u8; 32]) -> [usize; 2] {
    [0, 16].map(|half| {
        let half = |bytes: &[u8; 32]| *bytes[half..].first_chunk().expect("16 bytes");
        cycle_code(&half(digits), &half(places))
    })
}

/// [`fingerprint_of_cells`] with the permutations composed by byte shuffles.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn fingerprint_with_avx2(cells: &[u8; CELLS]) -> u64 {
    fingerprint_by(cells, |digits, places| {
        // SAFETY: this closure runs only inside `fingerprint_with_avx2`, on a processor with AVX2.
        unsafe { cycle_codes_avx2(digits, places) }
    })
}

/// The fingerprint, with `cycle_codes` telling the cycle types of a pair of rows and of the pair of
/// columns of the same numbers. Line `k` is held as 32 bytes: row `k` in the first 16, column `k`
/// in the last 16 (see [`cycle_code`] for what they hold).
#[inline(always)]
fn fingerprint_by(
    cells: &[u8; CELLS],
    cycle_codes: impl Fn(&[u8; 32], &[u8; 32]) -> [usize; 2],
) -> u64 {
    let mut digits = [[0u8; 32]; 9];
    let mut places = [[0u8; 32]; 9];
    for k in 0..9 {
        for i in 0..9 {
            let (row_digit, column_digit) = (cells[9 * k + i], cells[9 * i + k]);
            digits[k][i] = row_digit;
            digits[k][16 + i] = column_digit;
            places[k][usize::from(row_digit & 15)] = i as u8;
            places[k][16 + usize::from(column_digit & 15)] = i as u8;
        }
    }
    // Per side (rows, columns) and cycle type, how many pairs of lines have it: 4 bits a type for
    // the 9 pairs that share a band (or stack), 5 bits for the 27 others.
    let mut sides = [[0u64; 2]; 2];
    for (a, places) in places.iter().enumerate() {
        for (b, digits) in digits.iter().enumerate().skip(a + 1) {
            let codes = cycle_codes(digits, places);
            for (side, code) in sides.iter_mut().zip(codes) {
                let cycle_type = CYCLE_TYPES[code % CYCLE_CODES];
                if a / 3 == b / 3 {
                    side[0] += 1 << (4 * cycle_type);
                } else {
                    side[1] += 1 << (5 * cycle_type);
                }
            }
        }
    }
    sides.sort_unstable();
    FixedState::with_seed(0xf1e6).hash_one(sides)
}

/// Cycle codes are below this (see [`cycle_code`]).
const CYCLE_CODES: usize = 640;

/// The cycle types of permutations of nine digits that move every digit, numbered 0 to 7, by the
/// cycle code (see [`cycle_code`]); the other entries are never read.
static CYCLE_TYPES: [u8; CYCLE_CODES] = {
    // The digits brought back after 2, 3 and 4 steps by the types 9, 7+2, 6+3, 5+4, 5+2+2, 4+3+2,
    // 3+3+3 and 3+2+2+2.
    let back = [
        (0, 0, 0),
        (2, 0, 2),
        (0, 3, 0),
        (0, 0, 4),
        (4, 0, 4),
        (2, 3, 6),
        (0, 9, 0),
        (6, 3, 6),
    ];
    let mut table = [0; CYCLE_CODES];
    let mut cycle_type = 0;
    while cycle_type < back.len() {
        let (two, three, four) = back[cycle_type];
        table[two + 8 * four + 64 * three] = cycle_type as u8;
        cycle_type += 1;
    }
    table
};

/// The cycle type of the permutation that takes each digit of line `a` to the digit under it in
/// line `b`, given `b`'s digits by place and `a`'s places by digit (bytes 0 and 10 to 15 of either
/// ignored): `f2 + 8 * f4 + 64 * f3`, where `fk` counts the digits brought back after `k` steps.
/// Between lines of a valid grid the permutation moves every digit, and for such permutations of
/// nine digits the three counts tell the cycle type.
fn cycle_code(digits: &[u8; 16], places: &[u8; 16]) -> usize {
    let step: [u8; 16] = std::array::from_fn(|d| digits[usize::from(places[d] & 15)]);
    let after = |f: &[u8; 16], g: &[u8; 16]| -> [u8; 16] {
        std::array::from_fn(|d| f[usize::from(g[d] & 15)])
    };
    let two = after(&step, &step);
    let three = after(&two, &step);
    let four = after(&two, &two);
    let back = |p: &[u8; 16]| (1..=9).filter(|&d| usize::from(p[d]) == d).count();
    back(&two) + 8 * back(&four) + 64 * back(&three)
}

/// [`cycle_code`] of a pair of rows and of a pair of columns (held as in [`fingerprint_by`]) in
/// one register: each step is a byte shuffle, which works on each half apart.
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn cycle_codes_avx2(digits: &[u8; 32], places: &[u8; 32]) -> [usize; 2] {
    use std::arch::x86_64::*;
    // SAFETY: both arrays are 32 bytes, read unaligned.
    let (digits, places) = unsafe {
        (
            _mm256_loadu_si256(digits.as_ptr().cast()),
            _mm256_loadu_si256(places.as_ptr().cast()),
        )
    };
    let identity = _mm256_setr_epi8(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
        12, 13, 14, 15,
    );
    let digit_lanes = _mm256_setr_epi8(
        0, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, 0, 0, 0, 0, 0, 0,
    );
    let step = _mm256_shuffle_epi8(digits, places);
    let two = _mm256_shuffle_epi8(step, step);
    let three = _mm256_shuffle_epi8(two, step);
    let four = _mm256_shuffle_epi8(two, two);
    let back =
        |p, weight| _mm256_and_si256(_mm256_cmpeq_epi8(p, identity), _mm256_set1_epi8(weight));
    let weighted = _mm256_or_si256(
        _mm256_or_si256(back(two, 1), back(four, 8)),
        back(three, 64),
    );
    let sums = _mm256_sad_epu8(
        _mm256_and_si256(weighted, digit_lanes),
        _mm256_setzero_si256(),
    );
    [
        _mm256_extract_epi64::<0>(sums) + _mm256_extract_epi64::<1>(sums),
        _mm256_extract_epi64::<2>(sums) + _mm256_extract_epi64::<3>(sums),
    ]
    .map(|sum| sum as usize)
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

/// `request.count` pairwise inequivalent complete grids in `format`, laid out as `-c` lays out its
/// grids (see the module comment).
///
/// # Panics
/// If `request.shard` is set (the parts are those of the whole tree, and the grids of two shards
/// could not be kept apart by class), or `request.count` is 0 or above [`MAX_GRIDS`].
pub fn render_classes(request: &GridRequest, format: Format) -> Vec<u8> {
    assert!(request.shard.is_none(), "classes are not sharded");
    assert!(
        (1..=MAX_GRIDS).contains(&request.count),
        "count out of range"
    );
    let record_len = format.record_len();
    let offsets: [usize; CELLS] = std::array::from_fn(|cell| format.cell_offset(cell));
    // A record's characters are the digits' glyphs, `b'1'` to `b'9'`.
    let key = |record: &[u8]| fingerprint_of_cells(&offsets.map(|at| record[at] & 15));
    let shares: Vec<usize> = (0..PARTS)
        .map(|part| part_share(request.count, part))
        .collect();
    // Most parts meet an earlier key a handful of times in ten thousand grids, but a few meet
    // many among their first grids: such a part is walked again with four times the spares. A
    // part's walk depends on its spare count alone, so the other parts keep what they drew.
    let mut spares: Vec<usize> = shares.iter().copied().map(first_spares).collect();
    let mut out = vec![0; record_len * request.count];
    let mut drawn: Vec<(Vec<u8>, Vec<u64>)> = vec![(Vec::new(), Vec::new()); PARTS];
    let mut to_walk = [true; PARTS];
    loop {
        let mut walks = Vec::with_capacity(PARTS);
        let mut rest = out.as_mut_slice();
        for (part, (&share, drawn)) in shares.iter().zip(&mut drawn).enumerate() {
            let (head, tail) = rest.split_at_mut(share * record_len);
            if to_walk[part] {
                walks.push((part, head, drawn));
            }
            rest = tail;
        }
        walks.into_par_iter().for_each(|(part, range, drawn)| {
            *drawn = representatives(request, format, part, (range, spares[part]), &key);
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
                spares[part] *= 4;
            }
        }
        if to_walk.contains(&true) {
            continue;
        }
        let mut ranges = Vec::with_capacity(PARTS);
        let mut rest = out.as_mut_slice();
        for ((&share, (spare_records, _)), part_met) in shares.iter().zip(&drawn).zip(part_mets) {
            let (head, tail) = rest.split_at_mut(share * record_len);
            ranges.push((head, spare_records, part_met));
            rest = tail;
        }
        ranges
            .into_par_iter()
            .for_each(|(range, spare_records, part_met)| {
                keep_unmet(range, spare_records, part_met, record_len);
            });
        out.truncate(format.output_len(request.count));
        return out;
    }
}

/// The spare grids a part of `share` grids draws at first.
fn first_spares(share: usize) -> usize {
    share / 256 + 64
}

/// For each key of the parts, in order, whether it meets an earlier key. Keys are compared by
/// their high 40 bits (fewer past 16M keys): a few more may meet than need to, which only leaves
/// out a few more grids.
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
    use crate::canon::Transformation;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    /// [`render_classes`] as values.
    fn generate_classes(request: &GridRequest) -> Vec<Grid> {
        render_classes(request, Format::Line)
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
    fn shuffled_and_plain_cycle_codes_agree() {
        let request = GridRequest {
            count: 500,
            seed: 3,
            first: None,
            shard: None,
        };
        let grids = generate_classes(&request);
        let cycle_types = std::cell::RefCell::new(std::collections::HashSet::new());
        for grid in &grids {
            let plain = fingerprint_by(grid.cells(), |digits, places| {
                let codes = plain_cycle_codes(digits, places);
                cycle_types.borrow_mut().extend(codes);
                codes
            });
            assert_eq!(fingerprint_of_cells(grid.cells()), plain);
        }
        assert_eq!(cycle_types.borrow().len(), 8, "every cycle type met");
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
        // Part 0 of this seed meets its own earlier keys more often than its first spares make up
        // for (part 0 meets no other part's keys).
        let record_len = Format::Line.record_len();
        let key = |record: &[u8]| fingerprint_of_cells(&std::array::from_fn(|c| record[c] & 15));
        let mut out = vec![0; 1000 * record_len];
        let buffers = (&mut out[..], first_spares(1000));
        let (_, keys) = representatives(&request, Format::Line, 0, buffers, &key);
        let met = met_earlier(std::iter::once(keys.as_slice()));
        assert!(met.iter().filter(|&&m| !m).count() < 1000);
        let grids = generate_classes(&request);
        let forms: std::collections::HashSet<Grid> = grids.iter().map(canonical_form).collect();
        assert_eq!(forms.len(), request.count);
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool");
        assert_eq!(one_thread.install(|| generate_classes(&request)), grids);
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
