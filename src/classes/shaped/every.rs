//! Every class of complete grids of a shape with few grids, listed whole.
//!
//! Each grid has exactly one relabelling whose first row reads 1, 2, ..., N, and relabelling keeps
//! the class, so the classes are the canonical forms of the grids with that first row. On a shape
//! of boxes without diagonals, reordering the rows of the first band after its first, the other
//! bands, and the rows inside each of them keeps the first row too, so only the grids whose first
//! column increases down each band (after the first row) and down the first rows of the bands
//! after the first are listed: one at least of every class, and 8 to 12 times fewer at 6×6.
//!
//! A search cell by cell lists them, within bounds of nodes and grids: on the small shapes (4×4,
//! 6×6, most small jigsaw layouts) it ends within a fraction of a second, so that `-c --classes`
//! knows how many classes there are. Drawn grids alone do not find them all: the solver's random
//! grids fall into some classes hundreds of times as often as into others (a few 6×6 classes take
//! about one draw in 2,000).

use std::collections::BTreeSet;

use super::Canon;
use crate::model::shape::{Regions, Shape};

/// The nodes (cells given a value) the listing may take before the shape is deemed to have too
/// many grids to list: three times those of a 6×6 jigsaw layout of 2×3 boxes, and at 8×8 a
/// few hundredths of a second.
const MOST_NODES: usize = 1 << 21;

/// The grids the listing may keep: each costs a canonical form, some tens of microseconds on a
/// boxed shape.
const MOST_GRIDS: usize = 1 << 17;

/// The canonical forms of every complete grid of `shape`, in increasing order, or `None` when
/// the shape has too many grids to list them (see [`MOST_NODES`] and [`MOST_GRIDS`]).
pub(crate) fn every_class(shape: &Shape, canon: &Canon) -> Option<Vec<Vec<u8>>> {
    let n = shape.size();
    let band = match *shape.regions() {
        Regions::Boxes { rows, .. } if !shape.diagonal() => Some(rows),
        _ => None,
    };
    // The cell of the first column that each cell of it must exceed, as the module documentation
    // orders them.
    let above = (0..shape.cells())
        .map(|cell| {
            let (row, band) = (cell / n, band?);
            match (cell % n, row % band, row / band) {
                (0, 0, b) if b >= 2 => Some((row - band) * n),
                (0, r, _) if r > 0 => Some((row - 1) * n),
                _ => None,
            }
        })
        .collect();
    let mut listing = Listing {
        shape,
        above,
        grid: vec![0; shape.cells()],
        taken: vec![0; shape.houses().len()],
        nodes: 0,
        grids: Vec::new(),
    };
    for cell in 0..n {
        listing.toggle(cell, cell as u8 + 1);
    }
    if !listing.fill(n) {
        return None;
    }
    let forms: BTreeSet<Vec<u8>> = listing.grids.iter().map(|g| canon.form(g)).collect();
    Some(forms.into_iter().collect())
}

struct Listing<'a> {
    shape: &'a Shape,
    above: Vec<Option<usize>>,
    grid: Vec<u8>,
    /// The values each house holds, a bit per value.
    taken: Vec<u32>,
    nodes: usize,
    grids: Vec<Vec<u8>>,
}

impl Listing<'_> {
    /// The values `cell` may take: held by none of its houses, and above the cell it must exceed.
    fn open(&self, cell: usize) -> u32 {
        let full = ((1u32 << self.shape.size()) - 1) << 1;
        let floor = self
            .above
            .get(cell)
            .copied()
            .flatten()
            .map_or(0, |a| (2u32 << self.grid[a]) - 1);
        self.shape
            .houses_of(cell)
            .iter()
            .fold(full & !floor, |open, &h| open & !self.taken[usize::from(h)])
    }

    /// Puts `value` in `cell`, or, when it is there, takes it out again.
    fn toggle(&mut self, cell: usize, value: u8) {
        self.grid[cell] ^= value;
        for &h in self.shape.houses_of(cell) {
            self.taken[usize::from(h)] ^= 1 << value;
        }
    }

    /// Fills the cells from `cell` on every way they can be, keeping each complete grid; `false`
    /// when a bound ran out first.
    fn fill(&mut self, cell: usize) -> bool {
        if cell == self.grid.len() {
            self.grids.push(self.grid.clone());
            return self.grids.len() <= MOST_GRIDS;
        }
        let mut open = self.open(cell);
        while open != 0 {
            let value = open.trailing_zeros() as u8;
            open &= open - 1;
            self.nodes += 1;
            if self.nodes > MOST_NODES {
                return false;
            }
            self.toggle(cell, value);
            let done = self.fill(cell + 1);
            self.toggle(cell, value);
            if !done {
                return false;
            }
        }
        true
    }
}
