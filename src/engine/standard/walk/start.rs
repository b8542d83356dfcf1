//! Where a part's walk starts: the fixed parts of the whole tree, and the subtrees of shards.

use crate::engine::standard::walk::{COLUMNS_TO_CELLS, ROWS_TO_CELLS};

/// The number of placements of the 1s with the 1 of box 0 in its top-left cell.
const ONES: u64 = 5184;

/// The number of placements of the 2s that any placement of the 1s leaves (all placements of the
/// 1s are alike under moves of rows inside bands and columns inside stacks).
const TWOS: u64 = 17_972;

/// Where a part's walk starts: the box cell of each digit from 1 to `last_digit` in each box, of
/// the last digit only in boxes `0..boxes`.
pub(super) struct Start {
    pub(super) cells: [[u8; 9]; 2],
    pub(super) last_digit: usize,
    pub(super) boxes: usize,
}

impl Start {
    /// Part `part` of the whole tree: a placement of the 1s in boxes 0, 1 and 2.
    pub(super) fn part(part: usize) -> Start {
        // Box 1: any cell outside row 0 (6 ways); box 2: the remaining row (3 ways).
        let in_box1 = 3 + part / 3;
        let row_left = 3 - in_box1 / 3;
        let mut cells = [[0; 9]; 2];
        cells[0][..3].copy_from_slice(&[0, in_box1 as u8, (3 * row_left + part % 3) as u8]);
        Start {
            cells,
            last_digit: 1,
            boxes: 3,
        }
    }

    /// Subtree `subtree` (below `ONES * TWOS`): a placement of all the 1s and 2s (see the module
    /// comment).
    pub(super) fn subtree(subtree: u64) -> Start {
        debug_assert!(subtree < ONES * TWOS);
        let mut anywhere_but_box0 = [0x1ff; 9];
        anywhere_but_box0[0] = 1;
        let ones = nth_placement(anywhere_but_box0, subtree % ONES).expect("a number below ONES");
        let twos = nth_placement(ones.map(|i| 0x1ff & !(1 << i)), subtree / ONES)
            .expect("a number below TWOS");
        Start {
            cells: [ones, twos],
            last_digit: 2,
            boxes: 9,
        }
    }
}

/// The `n`-th (from 0) way to place one digit in every box, no row or column twice, box `b`'s in
/// one of the cells of `allowed[b]`; listed depth first, boxes in order, cells in order.
fn nth_placement(allowed: [u16; 9], n: u64) -> Option<[u8; 9]> {
    fn walk(
        allowed: &[u16; 9],
        b: usize,
        (rows_used, columns_used): (u16, u16),
        skip: &mut u64,
        cells: &mut [u8; 9],
    ) -> bool {
        if b == 9 {
            *skip = match skip.checked_sub(1) {
                None => return true,
                Some(left) => left,
            };
            return false;
        }
        let free = allowed[b]
            & ROWS_TO_CELLS[usize::from(!(rows_used >> (3 * (b / 3))) & 7)]
            & COLUMNS_TO_CELLS[usize::from(!(columns_used >> (3 * (b % 3))) & 7)];
        (0..9).filter(|i| free >> i & 1 == 1).any(|i| {
            cells[b] = i;
            let rows = rows_used | 1 << (3 * (b / 3) + usize::from(i / 3));
            let columns = columns_used | 1 << (3 * (b % 3) + usize::from(i % 3));
            walk(allowed, b + 1, (rows, columns), skip, cells)
        })
    }
    let mut cells = [0; 9];
    let mut skip = n;
    walk(&allowed, 0, (0, 0), &mut skip, &mut cells).then_some(cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::standard::walk::PARTS;
    use crate::model::grid::box_cell;
    use crate::model::shard::Shard;

    /// The cells of a start's digits, by digit, as grid cells.
    fn start_cells(start: &Start) -> Vec<Vec<usize>> {
        (1..=start.last_digit)
            .map(|digit| {
                let boxes = if digit == start.last_digit {
                    start.boxes
                } else {
                    9
                };
                (0..boxes)
                    .map(|b| box_cell(b, usize::from(start.cells[digit - 1][b])))
                    .collect()
            })
            .collect()
    }

    /// Whether a start's digits share no cell, row or column, and the 1 of box 0 is at cell 0.
    fn is_valid_start(start: &Start) -> bool {
        let cells = start_cells(start);
        let all: std::collections::HashSet<usize> = cells.iter().flatten().copied().collect();
        let lines_apart = cells.iter().all(|digit| {
            let rows: std::collections::HashSet<usize> = digit.iter().map(|c| c / 9).collect();
            let columns: std::collections::HashSet<usize> = digit.iter().map(|c| c % 9).collect();
            rows.len() == digit.len() && columns.len() == digit.len()
        });
        cells[0][0] == 0 && lines_apart && all.len() == cells.iter().map(Vec::len).sum::<usize>()
    }

    #[test]
    fn parts_start_with_valid_ones() {
        let mut starts = std::collections::HashSet::new();
        for part in 0..PARTS {
            let start = Start::part(part);
            assert!(is_valid_start(&start));
            assert!(starts.insert(start_cells(&start)));
        }
    }

    #[test]
    fn placements_are_counted_right() {
        let mut box0_first = [0x1ff; 9];
        box0_first[0] = 1;
        assert!(nth_placement(box0_first, ONES - 1).is_some());
        assert_eq!(nth_placement(box0_first, ONES), None);
        for ones in [0, 1, 2_000, ONES - 1] {
            let ones = nth_placement(box0_first, ones).unwrap();
            let left = ones.map(|i| 0x1ff & !(1 << i));
            assert!(nth_placement(left, TWOS - 1).is_some());
            assert_eq!(nth_placement(left, TWOS), None);
        }
        // Every shard's last part still has a subtree.
        let last = Shard::new(
            crate::model::shard::MAX_SHARDS,
            crate::model::shard::MAX_SHARDS,
        )
        .unwrap();
        assert!(last.piece(PARTS as u64 - 1) < ONES * TWOS);
    }

    #[test]
    fn subtrees_are_distinct_valid_starts() {
        let mut starts = std::collections::HashSet::new();
        let spread = (0..ONES * TWOS).step_by(999_983);
        let edges = [ONES - 1, ONES, ONES + 1, ONES * TWOS - 1];
        for subtree in (1..300).chain(spread).chain(edges) {
            let start = Start::subtree(subtree);
            assert!(is_valid_start(&start), "{subtree}");
            assert!(starts.insert(start_cells(&start)), "{subtree}");
        }
    }
}
