//! The groups small enough to list: boxed shapes with both diagonals, and jigsaw layouts (see the
//! module documentation of [`super`]); and the search over a list, every arrangement's line
//! compared with the best one cell by cell.

use super::{Arrangement, Labels};
use crate::model::layout::renumbered;

/// The group of the boxed N×N shape of `band` × `stack` boxes with both diagonals: the row
/// permutations that keep the bands and the stacks and commute with the mirror (one after another
/// in one vector, N values each), each with its columns the same or mirrored, transposed or not
/// where the boxes are square. Kept as the permutations alone: at 25×25 they are 921,600.
#[derive(Clone, Debug)]
pub(super) struct Diagonal {
    n: usize,
    pub(super) permutations: Vec<u8>,
    pub(super) transposes: bool,
}

impl Diagonal {
    pub(super) fn new(n: usize, band: usize, stack: usize) -> Diagonal {
        let mut permutations = Vec::new();
        let mut rows = vec![u8::MAX; n];
        mirrored_permutations(n, band, stack, 0, &mut rows, &mut permutations);
        Diagonal {
            n,
            permutations,
            transposes: band == stack,
        }
    }

    /// How many row permutations there are.
    pub(super) fn len(&self) -> usize {
        self.permutations.len() / self.n
    }

    /// Arrangement `index` of the group: permutation `index / 4`, mirrored columns when bit 0 is
    /// set, transposed when bit 1 is (where the boxes are square).
    pub(super) fn arrangement(&self, index: usize) -> Arrangement {
        let rows = self.permutations[index / 4 * self.n..(index / 4 + 1) * self.n].to_vec();
        let columns = if index & 1 == 1 {
            rows.iter().rev().copied().collect()
        } else {
            rows.clone()
        };
        Arrangement {
            transpose: self.transposes && index & 2 == 2,
            rows,
            columns,
        }
    }

    /// The smallest line of `cells` under the group, the relabelling forced.
    pub(super) fn smallest(&self, cells: &[u8]) -> Vec<u8> {
        let mut best: Option<Vec<u8>> = None;
        let mut line = vec![0; cells.len()];
        let mut mirrored = vec![0; self.n];
        let transposes: &[bool] = if self.transposes {
            &[false, true]
        } else {
            &[false]
        };
        for rows in self.permutations.chunks_exact(self.n) {
            for (to, &from) in mirrored.iter_mut().zip(rows.iter().rev()) {
                *to = from;
            }
            for &transpose in transposes {
                for columns in [rows, &mirrored[..]] {
                    if arranged_below(
                        (transpose, rows, columns),
                        cells,
                        best.as_deref(),
                        &mut line,
                    ) {
                        best = Some(line.clone());
                    }
                }
            }
        }
        best.unwrap_or(line)
    }
}

/// Every permutation of 0..n (as the input line of each output line) that commutes with the
/// mirror `i → n−1−i` and keeps the blocks of `band` and of `stack` lines, its first `i` lines
/// (and their mirrors) as in `rows`, pushed onto `out`. Each new pair of lines is held to the
/// blocks against every line placed, mirrors included, so that no branch outlives its first
/// clash: checking the prefix alone left a 25×25 run seconds of dead branches.
fn mirrored_permutations(
    n: usize,
    band: usize,
    stack: usize,
    i: usize,
    rows: &mut Vec<u8>,
    out: &mut Vec<u8>,
) {
    if 2 * i >= n {
        out.extend_from_slice(rows);
        return;
    }
    for line in 0..n {
        let mirror = n - 1 - line;
        if rows.contains(&(line as u8)) || (2 * i + 1 == n) != (line == mirror) {
            continue;
        }
        rows[i] = line as u8;
        rows[n - 1 - i] = mirror as u8;
        if [i, n - 1 - i]
            .iter()
            .all(|&new| agrees(rows, new, band) && agrees(rows, new, stack))
        {
            mirrored_permutations(n, band, stack, i + 1, rows, out);
        }
        rows[i] = u8::MAX;
        rows[n - 1 - i] = u8::MAX;
    }
}

/// Whether output line `new` and every other line placed in `rows` (`u8::MAX`: not placed) are in
/// one block of `block` lines exactly when their input lines are.
fn agrees(rows: &[u8], new: usize, block: usize) -> bool {
    let to = usize::from(rows[new]) / block;
    rows.iter().enumerate().all(|(other, &line)| {
        line == u8::MAX || (other / block == new / block) == (usize::from(line) / block == to)
    })
}

/// The turns and reflections of the N×N square that map the layout `region_of` (regions in order
/// of first appearance) onto itself.
pub(super) fn layout_symmetries(n: usize, region_of: &[u8]) -> Vec<Arrangement> {
    turns(n)
        .into_iter()
        .filter(|turn| renumbered(&turn.apply(region_of)) == region_of)
        .collect()
}

/// The 8 turns and reflections of the N×N square, the identity first.
pub(crate) fn turns(n: usize) -> Vec<Arrangement> {
    let forward: Vec<u8> = (0..n as u8).collect();
    let backward: Vec<u8> = forward.iter().rev().copied().collect();
    let mut all = Vec::with_capacity(8);
    for transpose in [false, true] {
        for rows in [&forward, &backward] {
            for columns in [&forward, &backward] {
                all.push(Arrangement {
                    transpose,
                    rows: rows.clone(),
                    columns: columns.clone(),
                });
            }
        }
    }
    all
}

/// The smallest line of `cells` under the arrangements of `group`, the relabelling forced.
pub(super) fn smallest(group: &[Arrangement], cells: &[u8]) -> Vec<u8> {
    let mut best: Option<Vec<u8>> = None;
    let mut line = vec![0; cells.len()];
    for a in group {
        let arrangement = (a.transpose, &a.rows[..], &a.columns[..]);
        if arranged_below(arrangement, cells, best.as_deref(), &mut line) {
            best = Some(line.clone());
        }
    }
    best.unwrap_or(line)
}

/// Writes into `line` the line of `cells` under the arrangement `(transpose, rows, columns)`, the
/// relabelling forced, and says whether it is below `best` (always, without one); stops at the
/// first cell above it.
pub(super) fn arranged_below(
    (transpose, rows, columns): (bool, &[u8], &[u8]),
    cells: &[u8],
    best: Option<&[u8]>,
    line: &mut [u8],
) -> bool {
    let n = rows.len();
    let (row_step, column_step) = if transpose { (1, n) } else { (n, 1) };
    let mut labels = Labels::NEW;
    let mut level = best.is_some();
    for (cell, slot) in line.iter_mut().enumerate() {
        let source =
            usize::from(rows[cell / n]) * row_step + usize::from(columns[cell % n]) * column_step;
        let value = labels.take(cells[source]);
        *slot = value;
        if level {
            let best = best.expect("level with a best line");
            match value.cmp(&best[cell]) {
                std::cmp::Ordering::Less => level = false,
                std::cmp::Ordering::Equal => {}
                std::cmp::Ordering::Greater => return false,
            }
        }
    }
    !level
}
