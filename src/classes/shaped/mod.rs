//! Equivalence for every shape other than the standard 9×9 one: the group of each shape family,
//! canonical forms, and random equivalents.
//!
//! # The groups
//! An **arrangement** reads a grid through a permutation of its rows and one of its columns,
//! transposed or not (output cell `(i, j)` is input cell `(rows[i], columns[j])` of the grid or of
//! its transpose). With a relabelling of the symbols, it maps a grid onto an equivalent one when
//! it maps every house onto a house. Each family's arrangements:
//!
//! - **Boxes of R×C cells** (N = R·C; bands of R rows, stacks of C columns): the rows inside each
//!   band, the bands, the columns inside each stack, the stacks, and the transposition where
//!   R = C: (R!)^C·C! · (C!)^R·R! · (2 if R = C) arrangements, 2·(4!)^10 at 16×16. With R ≠ C a
//!   transposed grid has boxes of C×R cells, so there is no transposition.
//! - **Boxes with both diagonals** (X-Sudoku): the arrangements whose rows are a permutation `p`
//!   that keeps the bands and the stacks and commutes with the mirror `i → N−1−i`, whose columns
//!   are `p` or `p` mirrored, transposed or not where R = C: the dihedral turns and reflections
//!   that keep the boxes, with the mirror pairs of rows and columns moved together (at 9×9,
//!   exchanging rows 1 and 3 with rows 7 and 9 and the same columns). 96 arrangements at 9×9,
//!   18,432 at 16×16. A unit test finds the same group by trying every permutation of rows and
//!   columns on 4×4 and 6×6.
//! - **Jigsaw layouts**: the turns and reflections of the square (rows and columns kept or
//!   reversed, transposed or not) that map the layout, as a partition into regions, onto itself;
//!   most layouts have only the identity. With diagonals, the same: every turn keeps them.
//!
//! # Canonical form
//! As at 9×9 ([`crate::classes::canon`]): the smallest line among the equivalents, a blank reading
//! smallest, with the relabelling forced (symbols numbered in their order of first appearance in
//! the arranged line), so that only arrangements are searched. Boxed shapes are searched cell by
//! cell, dropping every partial arrangement whose line is already above the best one: complete
//! grids by `complete`, whose first row always reads 1..N and whose column order later rows
//! decide, the rest by `puzzle`. The other families' groups are small enough to list
//! (`listed`). Each search is checked in the tests against a brute-force canonicaliser over the
//! whole group.
//!
//! A `LAYOUT PUZZLE` record (a jigsaw line that carries its layout) turns with its layout: its
//! form is the smallest, layout first, of the 8 turned (layout, puzzle) pairs, the layout's regions
//! renamed `a`, `b`, ... in order of first appearance (see `record`).

mod best;
mod bulk;
mod complete;
mod every;
mod listed;
mod made;
mod pairs;
mod puzzle;
pub(crate) mod record;

pub use bulk::{Canons, canonical_lines, classes, shuffled, shuffled_rows};
pub use made::render_class_grids;
pub use pairs::{ClassIndex, Earlier};

#[cfg(test)]
mod brute;
#[cfg(test)]
mod tests;

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

use crate::model::shape::{Regions, Shape};

/// The most rows (columns, symbols) of a shape.
const MAX: usize = 25;

/// An arrangement (see the module documentation): output cell `(i, j)` is input cell
/// `(rows[i], columns[j])`, of the transposed grid when `transpose`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrangement {
    /// Whether the grid is read transposed.
    pub transpose: bool,
    /// The input row of each output row.
    pub rows: Vec<u8>,
    /// The input column of each output column.
    pub columns: Vec<u8>,
}

impl Arrangement {
    /// The input cell that output cell `cell` reads, of an N×N grid.
    pub fn source(&self, cell: usize) -> usize {
        let n = self.rows.len();
        let (row, column) = (
            usize::from(self.rows[cell / n]),
            usize::from(self.columns[cell % n]),
        );
        if self.transpose {
            column * n + row
        } else {
            row * n + column
        }
    }

    /// `cells` read through the arrangement.
    pub fn apply(&self, cells: &[u8]) -> Vec<u8> {
        (0..cells.len())
            .map(|cell| cells[self.source(cell)])
            .collect()
    }
}

/// The equivalence of one shape: its arrangements, by family, with what a search needs of them.
#[derive(Clone, Debug)]
pub struct Canon {
    n: usize,
    group: Group,
}

#[derive(Clone, Debug)]
enum Group {
    /// Boxes of `rows` × `columns` cells, without diagonals.
    Boxes { rows: usize, columns: usize },
    /// Boxes with both diagonals.
    Diagonal(listed::Diagonal),
    /// The symmetries of a jigsaw layout, listed.
    Listed(Vec<Arrangement>),
}

impl Canon {
    /// The equivalence of `shape`'s grids.
    pub fn new(shape: &Shape) -> Canon {
        let n = shape.size();
        let group = match shape.regions() {
            &Regions::Boxes { rows, columns } if !shape.diagonal() => {
                Group::Boxes { rows, columns }
            }
            &Regions::Boxes { rows, columns } => {
                Group::Diagonal(listed::Diagonal::new(n, rows, columns))
            }
            Regions::Jigsaw(region_of) => Group::Listed(listed::layout_symmetries(n, region_of)),
        };
        Canon { n, group }
    }

    /// The canonical form of `cells` (N·N values, 0 for a blank): the smallest line among its
    /// equivalents (see the module documentation).
    pub fn form(&self, cells: &[u8]) -> Vec<u8> {
        match &self.group {
            &Group::Boxes { rows, columns } => {
                let frame = Frame::new(self.n, rows, columns);
                if complete::applies(&frame, cells) {
                    complete::search(&frame, cells)
                } else {
                    puzzle::search(&frame, cells)
                }
            }
            Group::Diagonal(group) => group.smallest(cells),
            Group::Listed(arrangements) => listed::smallest(arrangements, cells),
        }
    }

    /// A random arrangement of the group, every one as likely.
    pub fn random_arrangement<R: Rng + ?Sized>(&self, rng: &mut R) -> Arrangement {
        match &self.group {
            &Group::Boxes { rows, columns } => {
                let transpose = rows == columns && rng.random_bool(0.5);
                Arrangement {
                    transpose,
                    rows: blocked_permutation(self.n, rows, rng),
                    columns: blocked_permutation(self.n, columns, rng),
                }
            }
            Group::Diagonal(group) => group.arrangement(rng.random_range(0..4 * group.len())),
            Group::Listed(arrangements) => {
                arrangements[rng.random_range(0..arrangements.len())].clone()
            }
        }
    }

    /// A random move of the group: a random arrangement, then a random relabelling.
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Move {
        let arrangement = self.random_arrangement(rng);
        Move::relabelling(arrangement, self.n, rng)
    }

    /// A random equivalent of `cells` (see [`Canon::random_move`]).
    pub fn shuffle<R: Rng + ?Sized>(&self, cells: &[u8], rng: &mut R) -> Vec<u8> {
        self.random_move(rng).apply(cells)
    }
}

/// An arrangement and a relabelling of the symbols: one move, applied alike to every grid of a
/// record (a puzzle and its solution), so that they stay a puzzle and its solution.
#[derive(Clone, Debug)]
pub struct Move {
    arrangement: Arrangement,
    /// The new value of each value, 0 (a blank) staying 0.
    labels: Vec<u8>,
}

impl Move {
    /// `arrangement`, then a random permutation of the symbols 1..=N.
    pub(crate) fn relabelling<R: Rng + ?Sized>(
        arrangement: Arrangement,
        n: usize,
        rng: &mut R,
    ) -> Move {
        let mut labels: Vec<u8> = (0..=n as u8).collect();
        labels[1..].shuffle(rng);
        Move {
            arrangement,
            labels,
        }
    }

    /// `cells` moved: read through the arrangement, relabelled.
    pub fn apply(&self, cells: &[u8]) -> Vec<u8> {
        let arranged = self.arrangement.apply(cells);
        arranged
            .iter()
            .map(|&v| self.labels[usize::from(v)])
            .collect()
    }
}

/// A random permutation of 0..n that keeps the blocks of `block` consecutive lines: the blocks
/// shuffled, and the lines inside each.
fn blocked_permutation<R: Rng + ?Sized>(n: usize, block: usize, rng: &mut R) -> Vec<u8> {
    let mut blocks: Vec<usize> = (0..n / block).collect();
    blocks.shuffle(rng);
    let mut order = Vec::with_capacity(n);
    for b in blocks {
        let mut lines: Vec<u8> = (b * block..(b + 1) * block).map(|l| l as u8).collect();
        lines.shuffle(rng);
        order.extend(lines);
    }
    order
}

/// The block structure of a boxed shape: N, rows per band, columns per stack, and the stack of
/// each column (a table: the searches ask it in their inner loops).
#[derive(Clone, Copy, Debug)]
struct Frame {
    n: usize,
    band: usize,
    stack: usize,
    stack_of: [u8; MAX],
}

impl Frame {
    fn new(n: usize, band: usize, stack: usize) -> Frame {
        let mut stack_of = [0; MAX];
        for (column, s) in stack_of.iter_mut().enumerate().take(n) {
            *s = (column / stack) as u8;
        }
        Frame {
            n,
            band,
            stack,
            stack_of,
        }
    }

    /// The stack of column `column`.
    fn stack(&self, column: u8) -> usize {
        usize::from(self.stack_of[usize::from(column)])
    }

    /// How many transpositions the group has: 2 where boxes are square.
    fn views(&self) -> usize {
        if self.band == self.stack { 2 } else { 1 }
    }

    /// The grid as rows of cells, read plainly (index 0) and transposed (index 1).
    fn views_of(&self, cells: &[u8]) -> [Vec<u8>; 2] {
        let n = self.n;
        let transposed = (0..n * n).map(|k| cells[k % n * n + k / n]).collect();
        [cells.to_vec(), transposed]
    }
}

/// The labels given so far in a line, numbered in order of first appearance, and the next one.
#[derive(Clone, Copy)]
struct Labels {
    of: [u8; MAX + 1],
    next: u8,
}

impl Labels {
    const NEW: Labels = Labels {
        of: [0; MAX + 1],
        next: 1,
    };

    /// The label of `value`, numbering it if it is new; 0 stays 0.
    fn take(&mut self, value: u8) -> u8 {
        if value == 0 {
            return 0;
        }
        let slot = &mut self.of[usize::from(value)];
        if *slot == 0 {
            *slot = self.next;
            self.next += 1;
        }
        *slot
    }

    /// The label `value` would get, without numbering it.
    fn peek(&self, value: u8) -> u8 {
        match (value, self.of[usize::from(value)]) {
            (0, _) => 0,
            (_, 0) => self.next,
            (_, known) => known,
        }
    }
}

/// `cells` with the relabelling forced: symbols numbered in order of first appearance.
pub(crate) fn first_appearance(cells: &[u8]) -> Vec<u8> {
    let mut labels = Labels::NEW;
    cells.iter().map(|&v| labels.take(v)).collect()
}

/// How a partial line compares with the best line's prefix of the same length.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Standing {
    /// Equal so far: later cells still decide.
    Level,
    /// Already smaller (or there is no best line yet): nothing more to compare.
    Below,
}

impl Standing {
    /// The standing after cell `at` takes `value`; `None` if the line is now above `best`.
    fn after(self, best: &[u8], at: usize, value: u8) -> Option<Standing> {
        match self {
            Standing::Below => Some(Standing::Below),
            Standing::Level if value < best[at] => Some(Standing::Below),
            Standing::Level if value == best[at] => Some(Standing::Level),
            Standing::Level => None,
        }
    }
}

/// The lines of a block of `block` lines not yet in `used` (bit per line) among `n`: every line
/// of every unused block when `new_block`, else the free lines of the block of `previous`.
fn free_lines(
    n: usize,
    block: usize,
    used: u32,
    new_block: bool,
    previous: u8,
) -> impl Iterator<Item = u8> {
    let whole = (1u32 << block) - 1;
    (0..n as u8).filter(move |&line| {
        let line = usize::from(line);
        used >> line & 1 == 0
            && if new_block {
                used >> (line / block * block) & whole == 0
            } else {
                line / block == usize::from(previous) / block
            }
    })
}
