//! The last three digits at once: the 7s band by band, then the 8s and 9s as a 2-colouring (see the
//! walk's module comment).
//!
//! # Layout
//! Once the 7s are in, each box has two empty cells, its *first* (the one the walk tries first for
//! the 8) and its second; a box is *swapped* when its first cell takes the 9. A pattern of three
//! boxes (a band's, or a stack's) is three bits, first box highest, and the patterns of all nine
//! boxes are a set of 512 bits:
//!
//! ```text
//!   ALLOWED index      81·code0 + 9·code1 + code2    code: 3·(line of first cell) + line of second
//!   ALLOWED entry      bit v: pattern v fits         v: 4·swapped0 + 2·swapped1 + swapped2
//!   pattern set        [u64; 8]: word v0, bit 8·v1 + v2     vk: band k's pattern
//! ```
//!
//! Lines are rows inside a band, columns inside a stack. The set's ascending bits are the walk's
//! order.

use crate::engine::standard::walk::{Leaves, Search, box_line};
use crate::model::grid::BYTE_MASKS;

/// Which 8/9 patterns three boxes of one band (or stack) allow, given where their empty cells lie
/// (index and bits as in the module comment): those that put an 8 and a 9 on each of the three
/// lines.
const ALLOWED: [u8; 729] = {
    let mut table = [0; 729];
    let mut index = 0;
    while index < 729 {
        let codes = [index / 81, index / 9 % 9, index % 9];
        let mut pattern = 0;
        while pattern < 8 {
            // The pattern fits when it puts one 8 and one 9 on each line.
            let mut eights = [0; 3];
            let mut nines = [0; 3];
            let mut i = 0;
            while i < 3 {
                let swapped = pattern >> (2 - i) & 1 == 1;
                let (eight_line, nine_line) = if swapped {
                    (codes[i] % 3, codes[i] / 3)
                } else {
                    (codes[i] / 3, codes[i] % 3)
                };
                eights[eight_line] += 1;
                nines[nine_line] += 1;
                i += 1;
            }
            let mut line = 0;
            let mut fits = true;
            while line < 3 {
                fits &= eights[line] == 1 && nines[line] == 1;
                line += 1;
            }
            if fits {
                table[index] |= 1 << pattern;
            }
            pattern += 1;
        }
        index += 1;
    }
    table
};

/// Per stack `j` and set `allowed` of its patterns (an [`ALLOWED`] entry), the set of the nine
/// boxes' patterns (as in the module comment) whose stack `j` pattern is in `allowed`.
static STACK_SETS: [[[u64; 8]; 256]; 3] = {
    let mut table = [[[0; 8]; 256]; 3];
    let mut stack = 0;
    while stack < 3 {
        let mut allowed = 0;
        while allowed < 256 {
            let mut pattern = 0;
            while pattern < 512 {
                let bands = [pattern >> 6, pattern >> 3 & 7, pattern & 7];
                let stack_pattern = (bands[0] >> (2 - stack) & 1) << 2
                    | (bands[1] >> (2 - stack) & 1) << 1
                    | (bands[2] >> (2 - stack) & 1);
                if allowed >> stack_pattern & 1 == 1 {
                    table[stack][allowed][pattern / 64] |= 1 << (pattern % 64);
                }
                pattern += 1;
            }
            allowed += 1;
        }
        stack += 1;
    }
    table
};

/// What placing the 7 in one cell of a box leaves for the 8 and the 9.
#[derive(Clone, Copy, Default)]
struct SevenOption {
    /// Record offsets of the 7, then of the two empty cells left: the one the walk tries first for the
    /// 8, then the other.
    offsets: [u8; 3],
    /// The row and column of the same three cells.
    places: [(u8, u8); 3],
    /// The box row and box column of the 7.
    row: u8,
    column: u8,
    /// Where the two empty cells lie in the box's band and stack (see [`ALLOWED`]).
    row_code: u8,
    column_code: u8,
}

/// One way to place the 7s in the three boxes of a band, and what it leaves for the 8s and 9s.
#[derive(Clone, Copy, Default)]
struct BandChoice {
    /// Per box, the record offsets of its 7 and of its two empty cells (see [`SevenOption`]).
    offsets: [[u8; 3]; 3],
    /// The row and column of the same cells.
    places: [[(u8, u8); 3]; 3],
    /// Per box, where its empty cells lie inside its stack (see [`ALLOWED`]).
    column_codes: [u8; 3],
    /// The 8/9 patterns the band's rows allow (see [`ALLOWED`]).
    allowed: u8,
    /// The columns the 7s take.
    columns: u16,
}

impl<L: Leaves> Search<'_, L> {
    /// The options for the 7 in box `b`, which has three empty cells, in the walk's order.
    fn seven_options(&self, b: usize) -> [SevenOption; 3] {
        let free = !self.occupied[b] & 0x1ff;
        let mut ranked = self.plan.ranked[7][usize::from(free)];
        let offsets = &self.plan.offset[b];
        [(); 3].map(|()| {
            let index = self.plan.cell_at_rank[7][ranked.trailing_zeros() as usize];
            ranked &= ranked.wrapping_sub(1);
            let [f, s] = self.plan.eight_order[usize::from(free & !(1 << index))];
            SevenOption {
                offsets: [index, f, s].map(|i| offsets[usize::from(i)]),
                places: [index, f, s].map(|i| {
                    let (row, column) = box_line(b, i);
                    (row as u8, column as u8)
                }),
                row: index / 3,
                column: index % 3,
                row_code: 3 * (f / 3) + s / 3,
                column_code: 3 * (f % 3) + s % 3,
            }
        })
    }

    /// The ways to place the 7s in `band`, in the walk's order; with `first_only`, only those with
    /// the first option of the band's first box.
    fn band_choices(&self, band: usize, first_only: bool) -> ([BandChoice; 27], usize) {
        let mut choices = [BandChoice::default(); 27];
        let mut count = 0;
        let options = [0, 1, 2].map(|i| self.seven_options(3 * band + i));
        let firsts = if first_only { 1 } else { 3 };
        for x in &options[0][..firsts] {
            for y in options[1].iter().filter(|y| y.row != x.row) {
                for z in options[2]
                    .iter()
                    .filter(|z| z.row != x.row && z.row != y.row)
                {
                    let row_index = 81 * usize::from(x.row_code)
                        + 9 * usize::from(y.row_code)
                        + usize::from(z.row_code);
                    // A band's rows and boxes alone always leave room: each cell is tied to one
                    // row partner and one box partner, so the ties form even cycles.
                    let allowed = ALLOWED[row_index];
                    debug_assert!(allowed != 0);
                    choices[count] = BandChoice {
                        offsets: [x.offsets, y.offsets, z.offsets],
                        places: [x.places, y.places, z.places],
                        column_codes: [x.column_code, y.column_code, z.column_code],
                        allowed,
                        columns: 1 << x.column | 1 << (3 + y.column) | 1 << (6 + z.column),
                    };
                    count += 1;
                }
            }
        }
        (choices, count)
    }

    /// Places the 7s band by band (the bands' columns must not meet), then the 8s and 9s; returns
    /// `true` once the leaves are full.
    ///
    /// Relabelling 6, 7, 8 and 9 maps the ways to complete a grid whose 1s to 5s are placed onto each
    /// other, 24 at a time. Only the one of each 24 whose box 0 has its 6, 7 and 8 in the first cell
    /// each digit tries is searched (`place` takes only the first option for the 6 of box 0); the
    /// other 23 are relabellings of it.
    pub(super) fn place_sevens(&mut self) -> bool {
        let (top, top_count) = self.band_choices(0, true);
        let (middle, middle_count) = self.band_choices(1, false);
        let (bottom, bottom_count) = self.band_choices(2, false);
        // The upper two bands leave the bottom one exactly one column a stack, so its choices are
        // sorted by the columns they take (a counting sort, which keeps the walk's order).
        let mut starts = [0u8; 28];
        for l in &bottom[..bottom_count] {
            starts[column_code(l.columns) + 1] += 1;
        }
        for code in 0..27 {
            starts[code + 1] += starts[code];
        }
        let mut by_columns = [0u8; 27];
        let mut next = starts;
        for (i, l) in bottom[..bottom_count].iter().enumerate() {
            let slot = &mut next[column_code(l.columns)];
            by_columns[usize::from(*slot)] = i as u8;
            *slot += 1;
        }
        for t in &top[..top_count] {
            for m in middle[..middle_count]
                .iter()
                .filter(|m| m.columns & t.columns == 0)
            {
                let code = column_code(!(t.columns | m.columns) & 0x1ff);
                let fitting = &by_columns[usize::from(starts[code])..usize::from(starts[code + 1])];
                for &l in fitting {
                    if self.place_eights_and_nines([t, m, &bottom[usize::from(l)]]) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Hands the leaves every grid that completes the current one with the 7s of `bands` and its
    /// first box unswapped (see [`ALLOWED`]), each standing for its 24 relabellings of 6, 7, 8 and
    /// 9. The 8/9 patterns are those that every band and stack allow, in the walk's order (box 0's
    /// pattern bit most significant). Returns `true` once the leaves are full.
    fn place_eights_and_nines(&mut self, bands: [&BandChoice; 3]) -> bool {
        let stacks = [0, 1, 2].map(|j| {
            let codes = bands.map(|band| usize::from(band.column_codes[j]));
            &STACK_SETS[j][usize::from(ALLOWED[81 * codes[0] + 9 * codes[1] + codes[2]])]
        });
        let at = |(row, column): (u8, u8)| (usize::from(row), usize::from(column));
        if L::READS_LINES {
            for [seven, _, _] in bands.iter().flat_map(|band| band.places) {
                self.lines.place(6, at(seven));
            }
        }
        let lower = BYTE_MASKS[usize::from(bands[1].allowed)]
            & (u64::from(bands[2].allowed) * 0x0101_0101_0101_0101);
        // Box 0 unswapped: the patterns 0 to 3 of the top band.
        for v0 in 0..4 {
            if bands[0].allowed >> v0 & 1 == 0 {
                continue;
            }
            let mut patterns = lower & stacks[0][v0] & stacks[1][v0] & stacks[2][v0];
            while patterns != 0 {
                let low = patterns.trailing_zeros() as usize;
                patterns &= patterns - 1;
                let swapped = REVERSED[v0] | REVERSED[low / 8] << 3 | REVERSED[low % 8] << 6;
                // The record offsets of the 6s, 7s, 8s and 9s.
                let mut digit_cells = [self.sixes; 4];
                for b in 0..9 {
                    let [seven, first, second] = bands[b / 3].offsets[b % 3];
                    let flip = swapped >> b & 1 == 1;
                    digit_cells[1][b] = seven;
                    digit_cells[2][b] = if flip { second } else { first };
                    digit_cells[3][b] = if flip { first } else { second };
                    if L::READS_LINES {
                        let [_, first, second] = bands[b / 3].places[b % 3];
                        let (eight, nine) = if flip {
                            (second, first)
                        } else {
                            (first, second)
                        };
                        self.lines.place(7, at(eight));
                        self.lines.place(8, at(nine));
                    }
                }
                if self.leaves.take(
                    &mut self.record,
                    &digit_cells,
                    &self.plan.glyph,
                    &self.lines,
                ) {
                    return true;
                }
            }
        }
        false
    }
}

/// A number below 27 for a set of three columns, one in each stack.
fn column_code(columns: u16) -> usize {
    let column = |stack: usize| (columns >> (3 * stack) & 7).trailing_zeros() as usize;
    9 * column(0) + 3 * column(1) + column(2)
}

/// A 3-bit pattern (position 0 the high bit) as a mask with position `i` at bit `i`.
const REVERSED: [u16; 8] = [0, 4, 2, 6, 1, 5, 3, 7];
