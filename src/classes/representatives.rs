//! The leaves `--classes` hangs on the walk of `-c`: each grid once, in the one relabelling of its
//! 6 to 9 that orders its first row, with its neighbours, every grid keyed by its fingerprint as it
//! is written (see [`crate::classes::distinct`] for what the keys are for).
//!
//! A part's symmetry may transpose, and then its grids share their first *column* instead of their
//! first row; the neighbours' swaps are then made off that column, which they keep.
//!
//! The output is a grid of the `-c` walk each, not its canonical form: `-c --classes` never computes
//! a canonical form. Its time goes to keying each grid (less for a neighbour, which recomputes only
//! the 15 pairs of digits its swap touches), finding the swaps, and walking the `-c` tree for the
//! leaves.

use crate::classes::fingerprint::{DigitLines, Terms};
use crate::engine::standard::walk::{FIRST_RELABELLED, GridRequest, Leaves, walk_part};
use crate::model::grid::CELLS;
use crate::text::format::Format;

/// For `--classes`: grids of part `part` of the `-c` walk and their neighbours, all with the same
/// first row (see [`Representatives`]), in `format`: into `out` until it is full, then `spare` more
/// into a buffer of their own, which is returned with the fingerprints of all of them in order.
///
/// # Panics
/// If `request.shard` is set, or `part` is not below
/// [`PARTS`](crate::engine::standard::walk::PARTS).
pub(crate) fn representatives(
    request: &GridRequest,
    format: Format,
    part: usize,
    (out, spare): (&mut [u8], usize),
) -> (Vec<u8>, Vec<u64>) {
    assert!(request.shard.is_none(), "representatives of the whole tree");
    let record_len = format.record_len();
    let wanted = out.len() / record_len + spare;
    if wanted == 0 {
        return (Vec::new(), Vec::new());
    }
    // Each part draws its own orders: with one plan for all, the first grids of some parts are
    // largely equivalent to the first grids of another.
    let part_request = GridRequest {
        seed: request.seed ^ (part as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        ..*request
    };
    let leaves = walk_part(&part_request, format, part, |&cell_offsets| {
        Representatives {
            record_len,
            first_row_ends: [5, 6, 7, 8].map(|cell| (cell / 3, cell_offsets[cell])),
            cell_offsets,
            out,
            spare,
            spare_records: Vec::with_capacity(spare * record_len),
            keys: Vec::with_capacity(wanted),
        }
    });
    (leaves.spare_records, leaves.keys)
}

/// `--classes`: each grid once, and its neighbours, each keyed by its fingerprint (see
/// [`crate::classes::fingerprint`]), until `out` is full and `spare` more are kept. The walk keeps to first
/// rows in order, and of the 24 relabellings of 6, 7, 8 and 9 each leaf stands for, only the one
/// that puts them in order in the last four cells of the first row is taken: so no two leaves are
/// relabellings of each other. The neighbours of a leaf are the grids made by swapping a pair of
/// [`NEIGHBOUR_PAIRS`] in a set of cells where the two can trade places and leave the grid valid,
/// off the first row (see [`DigitLines::swappable_off_row_0`]); they may repeat a grid or a class
/// now and then, which the fingerprints tell.
struct Representatives<'a> {
    record_len: usize,
    /// The box and record offset of the last four cells of the first row (its first five hold the 1
    /// to 5).
    first_row_ends: [(usize, u8); 4],
    /// The record offset of each cell of the walk's grid, row by row.
    cell_offsets: [u8; CELLS],
    out: &'a mut [u8],
    spare: usize,
    spare_records: Vec<u8>,
    keys: Vec<u64>,
}

impl Leaves for Representatives<'_> {
    const FIRST_ROW_IN_ORDER: bool = true;
    const READS_LINES: bool = true;

    fn take(
        &mut self,
        record: &mut [u8; 256],
        digit_cells: &[[u8; 9]; 4],
        glyph: &[u8; 10],
        lines: &DigitLines,
    ) -> bool {
        // Neighbours rewrite cells by the walk's digits (0 for the digit 1), in this leaf's
        // relabelling.
        let mut characters: [u8; 9] = std::array::from_fn(|digit| glyph[digit + 1]);
        for (digit, &(b, offset)) in (FIRST_RELABELLED..).zip(&self.first_row_ends) {
            let relabelled = digit_cells
                .iter()
                .position(|cells| cells[b] == offset)
                .expect("the first row holds the 6 to 9");
            characters[FIRST_RELABELLED - 1 + relabelled] = glyph[digit];
            for &offset in &digit_cells[relabelled] {
                record[usize::from(offset)] = glyph[digit];
            }
        }
        let terms = Terms::of(lines);
        if self.push(record, terms.fingerprint()) {
            return true;
        }
        // A swap undoes itself: each neighbour is swapped into one copy of the leaf and back out,
        // so that the leaf is copied once, not once per neighbour.
        let mut neighbour = *lines;
        let cell_offsets = self.cell_offsets;
        for pair in NEIGHBOUR_PAIRS {
            for rows in lines.swappable_off_row_0(pair.0, pair.1) {
                let swap = |neighbour: &mut DigitLines, record: &mut [u8; 256]| {
                    neighbour.swap(pair, rows, |row, column, digit| {
                        record[usize::from(cell_offsets[9 * row + column])] = characters[digit];
                    });
                };
                swap(&mut neighbour, record);
                let key = terms.fingerprint_after_swap(&neighbour, pair);
                let full = self.push(record, key);
                swap(&mut neighbour, record);
                if full {
                    return true;
                }
            }
        }
        false
    }
}

/// The pairs of digits of the walk (0 for the digit 1) that `--classes` swaps to turn each leaf into
/// more grids: a 1, 2 or 3 with a 1, 2, 3, 6, 7, 8 or 9. The 1s to 3s are the digits the walk
/// changes last, so a grid that moves them mostly lies outside the part of the tree the walk
/// reaches, whereas a swap of a 4 or a 5, or of two of 6 to 9, often gives a grid that the walk
/// reaches anyway (see `BENCHMARKS.md`).
const NEIGHBOUR_PAIRS: [(usize, usize); 15] = [
    (0, 1),
    (0, 2),
    (1, 2),
    (0, 5),
    (0, 6),
    (0, 7),
    (0, 8),
    (1, 5),
    (1, 6),
    (1, 7),
    (1, 8),
    (2, 5),
    (2, 6),
    (2, 7),
    (2, 8),
];

impl Representatives<'_> {
    /// Keeps the grid of `record`, whose fingerprint is `key`; returns `true` once no more grids
    /// are wanted.
    fn push(&mut self, record: &[u8; 256], key: u64) -> bool {
        let record = &record[..self.record_len];
        let at = self.keys.len() * self.record_len;
        match self.out.get_mut(at..at + self.record_len) {
            Some(slot) => slot.copy_from_slice(record),
            None => self.spare_records.extend_from_slice(record),
        }
        self.keys.push(key);
        self.keys.len() * self.record_len == self.out.len() + self.spare * self.record_len
    }
}
