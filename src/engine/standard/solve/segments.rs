//! Reading and spreading the (row, box) segments of a band digit's word: the tables every
//! processor uses, and the `pext`/`pdep` path behind the [`V3`] proof token.
//!
//! ```text
//!   band digit word (27 bits)        segment pattern (9 bits, bit 3 * row + box)
//!   row 0: bits  0..9  = box0 box1 box2    ->  bits 0 1 2
//!   row 1: bits  9..18 = box0 box1 box2    ->  bits 3 4 5
//!   row 2: bits 18..27 = box0 box1 box2    ->  bits 6 7 8
//! ```
//! A segment holds a candidate when any of its three cells does.

use crate::model::grid::{ORDERS_OF_THREE, spread_to_lanes};

/// For a 9-bit row, which of its three box segments hold a candidate (3 bits).
pub(super) const SEGMENTS: [u8; 512] = {
    let mut table = [0; 512];
    let mut row = 0;
    while row < 512 {
        table[row] = ((row & 7 != 0) as u8)
            | ((row >> 3 & 7 != 0) as u8) << 1
            | ((row >> 6 & 7 != 0) as u8) << 2;
        row += 1;
    }
    table
};

/// The three segments (bit `3 * row + box`) of each order of three: row `r` in box `order[r]`.
pub(super) const ORDER_SEGMENTS: [u16; 6] = {
    let mut table = [0; 6];
    let mut p = 0;
    while p < 6 {
        let boxes = ORDERS_OF_THREE[p];
        table[p] = 1 << boxes[0] | 1 << (3 + boxes[1]) | 1 << (6 + boxes[2]);
        p += 1;
    }
    table
};

/// For a 3×3 pattern of (row, box) segments (bit `3 * row + box`), the segments that lie on some
/// permutation inside the pattern: where one digit can still go in a band. 0: nowhere.
pub(super) const CLOSURE: [u16; 512] = {
    let mut table = [0; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut p = 0;
        while p < 6 {
            let bits = ORDER_SEGMENTS[p];
            if pattern as u16 & bits == bits {
                table[pattern] |= bits;
            }
            p += 1;
        }
        pattern += 1;
    }
    table
};

/// The cells of the segments in a 3-bit box pattern of one row (as bits 0..9 of that row).
const SEGMENT_CELLS: [u32; 8] = {
    let mut table = [0; 8];
    let mut boxes = 0;
    while boxes < 8 {
        table[boxes] = spread_to_lanes(boxes, 3) as u32;
        boxes += 1;
    }
    table
};

/// How the band closure reads which (row, box) segments of a band digit hold a candidate, and
/// spreads the segments it keeps back to cells: by table look-ups on any processor ([`Tables`]),
/// by one `pext` and one `pdep` where BMI2 is there ([`V3`]), which replaces six dependent loads
/// by two instructions.
pub(super) trait SegmentBits: Copy {
    /// The segments of `cells` that hold one of them: bit `3 * row + box`.
    fn pattern(self, cells: u32) -> usize;
    /// The cells of the segments of `pattern`.
    fn cells(self, pattern: usize) -> u32;
}

#[derive(Clone, Copy)]
pub(super) struct Tables;

impl SegmentBits for Tables {
    #[inline(always)]
    fn pattern(self, cells: u32) -> usize {
        SEGMENTS[(cells & 0x1ff) as usize] as usize
            | (SEGMENTS[(cells >> 9 & 0x1ff) as usize] as usize) << 3
            | (SEGMENTS[(cells >> 18 & 0x1ff) as usize] as usize) << 6
    }

    #[inline(always)]
    fn cells(self, pattern: usize) -> u32 {
        SEGMENT_CELLS[pattern & 7]
            | SEGMENT_CELLS[pattern >> 3 & 7] << 9
            | SEGMENT_CELLS[pattern >> 6 & 7] << 18
    }
}

/// Proof that the processor has the extensions of x86-64-v3 that the search's second copy is
/// compiled for (`popcnt`, BMI1, BMI2, LZCNT, AVX2): only [`V3::detect`] makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct V3(());

#[cfg(target_arch = "x86_64")]
impl V3 {
    /// A `V3` if the processor has the extensions (the answer is cached after the first call).
    pub(super) fn detect() -> Option<V3> {
        let has = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt");
        has.then_some(V3(()))
    }
}

/// The first cell of each segment of a band.
#[cfg(target_arch = "x86_64")]
const SEGMENT_STARTS: u32 = 0o111_111_111;

#[cfg(target_arch = "x86_64")]
impl SegmentBits for V3 {
    #[inline(always)]
    fn pattern(self, cells: u32) -> usize {
        // SAFETY: a `V3` exists only on a processor with BMI2.
        let segments = unsafe {
            std::arch::x86_64::_pext_u32(cells | cells >> 1 | cells >> 2, SEGMENT_STARTS)
        };
        segments as usize
    }

    #[inline(always)]
    fn cells(self, pattern: usize) -> u32 {
        // SAFETY: a `V3` exists only on a processor with BMI2.
        unsafe { std::arch::x86_64::_pdep_u32(pattern as u32, SEGMENT_STARTS) * 7 }
    }
}
