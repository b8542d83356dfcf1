//! Every Sudoku shape: an N×N grid (N from 4 to 25) whose houses are its rows, its columns, its
//! regions (boxes of R×C cells, or the irregular regions of a jigsaw layout) and, for X-Sudoku, its
//! two main diagonals; and the alphabet of N symbols its cells are written with.
//!
//! A [`Shape`] is the table every generic job reads: for each house its cells, for each cell its
//! houses and its peers. Cells are numbered row by row from 0; a cell's *value* is 0 for a blank or
//! 1..=N, the index of its symbol in the alphabet plus one. Grids of a shape are plain `[u8]` slices
//! of N·N values, so that a file of puzzles is one flat vector.
//!
//! The standard shape (9×9, 3×3 boxes, digits) keeps its own fast kernels
//! ([`crate::engine::standard`]); every other shape is served by [`crate::engine::generic`].
//!
//! The command line names a shape by its flags, which combine: `--size N` (boxes of R×C cells by
//! [`default_box`], R the largest divisor of N not above √N, so that 12 is 3x4 and a prime N has
//! no boxes), `--box RxC` (another split, R·C = N, both at least 2), `--jigsaw` (N regions of N
//! cells, each connected through shared edges, in place of boxes), `--diagonal` and `--symbols`
//! (N distinct printable ASCII characters other than `.`, `-` and `#`; by default the first N
//! of `123456789ABCDEFGHIJKLMNOP`). What each kernel can do with a shape is the table of
//! [`crate::engine::Kernel::supports`].

use std::sync::OnceLock;

use rand::Rng;
use rand::RngExt;

use super::house::House;
use super::layout::{
    LAYOUT_NAMES, LayoutError, is_connected, neighbours, neighbours_of_region, read_named_layout,
    region_count, renumbered,
};
use super::symbols::Symbols;

/// The smallest and largest N.
pub const SIZES: std::ops::RangeInclusive<usize> = 4..=25;

/// The most cells a grid can have (25×25).
pub const MAX_CELLS: usize = 625;

/// The trades one growth of a random jigsaw layout tries, per cell (see
/// [`Shape::random_jigsaw`]).
const TRADES_PER_CELL: usize = 16;

/// What went wrong building a shape from the command line; each is a usage error.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// N is outside 4..=25.
    #[error("--size {0}: expected a size from 4 to 25")]
    Size(usize),
    /// N is prime, so no R×C boxes tile the grid.
    #[error("--size {0}: a prime size has no boxes; give its regions with --jigsaw")]
    PrimeSize(usize),
    /// The `--box` split does not tile N.
    #[error(
        "--box {rows}x{columns}: {}; expected RxC with R·C = {size}, both at least 2",
        box_problem(*.rows, *.columns, *.size)
    )]
    BoxSplit {
        /// Rows of a box.
        rows: usize,
        /// Columns of a box.
        columns: usize,
        /// N.
        size: usize,
    },
    /// `--box` is not written `RxC`.
    #[error("--box {0}: expected RxC, such as 2x3")]
    BoxSyntax(String),
    /// The symbols are not N distinct characters.
    #[error("--symbols {text}: {problem}")]
    Symbols {
        /// The alphabet as given.
        text: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A jigsaw layout that is not N regions of N connected cells.
    #[error("{}jigsaw layout: {problem}", .place.as_ref().map(|p| format!("{p}: ")).unwrap_or_default())]
    Layout {
        /// Where the problem is, `FILE:LINE:COLUMN`, when the layout came from a file.
        place: Option<String>,
        /// What is wrong with it.
        problem: String,
    },
}

/// What is wrong with boxes of `rows` × `columns` cells for a grid of `size`.
fn box_problem(rows: usize, columns: usize, size: usize) -> String {
    if rows * columns != size {
        format!("{rows}·{columns} is not {size}")
    } else {
        "a box one cell wide or high is no box".to_owned()
    }
}

/// The default box split of `size`: R the largest divisor not above √N, or `None` for a prime.
pub fn default_box(size: usize) -> Option<(usize, usize)> {
    let rows = (2..=size)
        .take_while(|r| r * r <= size)
        .filter(|&r| size.is_multiple_of(r))
        .last()?;
    Some((rows, size / rows))
}

/// How the regions of a shape are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Regions {
    /// Boxes of `rows` × `columns` cells.
    Boxes {
        /// Rows of a box.
        rows: usize,
        /// Columns of a box.
        columns: usize,
    },
    /// Irregular regions: the region index (0..N) of each cell, numbered in order of first
    /// appearance.
    Jigsaw(Vec<u8>),
}

/// A Sudoku shape with its house tables (see the module documentation).
#[derive(Clone, Debug)]
pub struct Shape {
    size: usize,
    regions: Regions,
    diagonal: bool,
    symbols: Symbols,
    /// The region (0..N) of each cell.
    region_of: Vec<u8>,
    /// The character naming each region in the layout the shape was read from (by default, in
    /// turn from `LAYOUT_NAMES`), so that a layout a record carries is written back as it was.
    names: Vec<u8>,
    /// The cells of each house: rows, columns, regions, then the diagonals.
    houses: Vec<Vec<u16>>,
    /// For each cell, the houses it is in.
    houses_of: Vec<Vec<u16>>,
    /// For each cell, the other cells that share a house with it: built on first use, since the
    /// search and the readers never ask, and building them was most of the start of a 25×25 `-s`.
    peers: OnceLock<Vec<Vec<u16>>>,
}

/// Shapes are equal when their tables are: the peers follow from the houses, built or not.
impl PartialEq for Shape {
    fn eq(&self, other: &Shape) -> bool {
        self.size == other.size
            && self.regions == other.regions
            && self.diagonal == other.diagonal
            && self.symbols == other.symbols
            && self.region_of == other.region_of
            && self.names == other.names
            && self.houses == other.houses
            && self.houses_of == other.houses_of
    }
}

impl Eq for Shape {}

impl Shape {
    /// The shape of size `size` with boxes of `rows` × `columns` cells, or the default split when
    /// `None`.
    pub fn boxed(
        size: usize,
        split: Option<(usize, usize)>,
        diagonal: bool,
        symbols: Symbols,
    ) -> Result<Shape, ShapeError> {
        if !SIZES.contains(&size) {
            return Err(ShapeError::Size(size));
        }
        let (rows, columns) = match split {
            Some((rows, columns)) if rows * columns == size && rows >= 2 && columns >= 2 => {
                (rows, columns)
            }
            Some((rows, columns)) => {
                return Err(ShapeError::BoxSplit {
                    rows,
                    columns,
                    size,
                });
            }
            None => default_box(size).ok_or(ShapeError::PrimeSize(size))?,
        };
        let region_of = (0..size * size)
            .map(|cell| {
                let (row, column) = (cell / size, cell % size);
                (row / rows * (size / columns) + column / columns) as u8
            })
            .collect();
        Ok(Shape::with_regions(
            size,
            Regions::Boxes { rows, columns },
            region_of,
            diagonal,
            symbols,
        ))
    }

    /// The jigsaw shape whose regions `layout` names: N lines of N characters, or one line of N·N
    /// characters, each naming its cell's region. With `size`, N must be it.
    pub fn jigsaw(
        layout: &[u8],
        size: Option<usize>,
        diagonal: bool,
        symbols: Option<Symbols>,
    ) -> Result<Shape, LayoutError> {
        let (region_of, names) = read_named_layout(layout, size)?;
        let size = region_count(&region_of);
        let symbols = match symbols {
            Some(symbols) if symbols.size == size => symbols,
            Some(symbols) => {
                return Err(LayoutError {
                    line: 1,
                    column: 1,
                    problem: format!(
                        "the layout is {size}×{size} but --symbols gives {} symbols",
                        symbols.size
                    ),
                });
            }
            None => Symbols::default_for(size),
        };
        let shape = Shape::with_regions(
            size,
            Regions::Jigsaw(region_of.clone()),
            region_of,
            diagonal,
            symbols,
        );
        Ok(shape.named(names))
    }

    /// The shape a random jigsaw layout of size `size` starts from: its boxes, or strips of rows
    /// when N is prime, with the diagonals when asked.
    pub fn jigsaw_start(size: usize, diagonal: bool, symbols: Symbols) -> Shape {
        let region_of: Vec<u8> = match default_box(size) {
            Some((rows, columns)) => (0..size * size)
                .map(|cell| (cell / size / rows * (size / columns) + cell % size / columns) as u8)
                .collect(),
            // Rows would be too thin to trade cells between (any trade but at a row's end cuts
            // the row in two), so prime sizes start from strips of two rows, each cut in two
            // column by column, and the last row.
            None => (0..size * size)
                .map(|cell| {
                    let (row, column) = (cell / size, cell % size);
                    if row == size - 1 {
                        row as u8
                    } else {
                        (row / 2 * 2 + usize::from(2 * column + row % 2 >= size)) as u8
                    }
                })
                .collect(),
        };
        Shape::with_regions(
            size,
            Regions::Jigsaw(region_of.clone()),
            region_of,
            diagonal,
            symbols,
        )
    }

    /// A random jigsaw layout grown from `start` (see [`Shape::jigsaw_start`]) that `grid`, a
    /// complete grid of `start`, still fills: cells of equal value are traded between neighbouring
    /// regions, each trade kept only when both regions stay connected.
    ///
    /// Trading cells of any value gives layouts most of which, from 20×20 up, have no complete
    /// grid at all, or none a search finds; trading equal values keeps every region a set of
    /// all N values, so `grid` is a witness that the layout can be filled.
    pub fn random_jigsaw<R: Rng + ?Sized>(start: &Shape, grid: &[u8], rng: &mut R) -> Shape {
        let size = start.size;
        let mut region_of = start.region_of.clone();
        // The cell of each region that holds each value.
        let mut holder = vec![0usize; size * size];
        for (cell, (&region, &value)) in region_of.iter().zip(grid).enumerate() {
            holder[usize::from(region) * size + usize::from(value) - 1] = cell;
        }
        for _ in 0..TRADES_PER_CELL * size * size {
            // `a` moves into the region of its neighbour `b`, and the cell `c` of that region that
            // holds `a`'s value moves into `a`'s region, which it must touch.
            let a = rng.random_range(0..size * size);
            let neighbours = neighbours(a, size);
            let b = neighbours[rng.random_range(0..neighbours.len())];
            let (ra, rb) = (region_of[a], region_of[b]);
            let value = usize::from(grid[a]) - 1;
            let c = holder[usize::from(rb) * size + value];
            if ra == rb || !neighbours_of_region(c, size, &region_of, ra, a) {
                continue;
            }
            region_of[a] = rb;
            region_of[c] = ra;
            if is_connected(&region_of, size, ra) && is_connected(&region_of, size, rb) {
                holder[usize::from(rb) * size + value] = a;
                holder[usize::from(ra) * size + value] = c;
            } else {
                region_of[a] = ra;
                region_of[c] = rb;
            }
        }
        let region_of = renumbered(&region_of);
        Shape::with_regions(
            size,
            Regions::Jigsaw(region_of.clone()),
            region_of,
            start.diagonal,
            start.symbols,
        )
    }

    /// This shape with the diagonals as houses, or without.
    pub fn with_diagonal(&self, diagonal: bool) -> Shape {
        let shape = Shape::with_regions(
            self.size,
            self.regions.clone(),
            self.region_of.clone(),
            diagonal,
            self.symbols,
        );
        shape.named(self.names.clone())
    }

    /// This shape with its regions named by `names` (by region index) in the layouts it writes.
    fn named(self, names: Vec<u8>) -> Shape {
        Shape { names, ..self }
    }

    fn with_regions(
        size: usize,
        regions: Regions,
        region_of: Vec<u8>,
        diagonal: bool,
        symbols: Symbols,
    ) -> Shape {
        let cells = size * size;
        let mut houses: Vec<Vec<u16>> = vec![Vec::new(); 3 * size];
        for cell in 0..cells {
            houses[cell / size].push(cell as u16);
            houses[size + cell % size].push(cell as u16);
            houses[2 * size + usize::from(region_of[cell])].push(cell as u16);
        }
        if diagonal {
            houses.push((0..size).map(|i| (i * size + i) as u16).collect());
            houses.push(
                (0..size)
                    .map(|i| (i * size + size - 1 - i) as u16)
                    .collect(),
            );
        }
        let mut houses_of = vec![Vec::new(); cells];
        for (index, house) in houses.iter().enumerate() {
            for &cell in house {
                houses_of[usize::from(cell)].push(index as u16);
            }
        }
        Shape {
            size,
            regions,
            diagonal,
            symbols,
            region_of,
            names: LAYOUT_NAMES[..size].to_vec(),
            houses,
            houses_of,
            peers: OnceLock::new(),
        }
    }

    /// N: cells per side, symbols, houses of each kind.
    pub fn size(&self) -> usize {
        self.size
    }

    /// N·N.
    pub fn cells(&self) -> usize {
        self.size * self.size
    }

    /// The alphabet.
    pub fn symbols(&self) -> &Symbols {
        &self.symbols
    }

    /// How the regions are made.
    pub fn regions(&self) -> &Regions {
        &self.regions
    }

    /// Whether the two main diagonals are houses.
    pub fn diagonal(&self) -> bool {
        self.diagonal
    }

    /// Whether `other` parts the cells into the same regions, however each came to have them (a
    /// layout of the boxes is the boxes): both number their regions in order of first appearance.
    pub fn same_regions(&self, other: &Shape) -> bool {
        self.region_of == other.region_of
    }

    /// The region of each cell (0..N).
    pub fn region_of(&self, cell: usize) -> usize {
        usize::from(self.region_of[cell])
    }

    /// The cells of every house.
    pub fn houses(&self) -> &[Vec<u16>] {
        &self.houses
    }

    /// The houses of `cell`.
    pub fn houses_of(&self, cell: usize) -> &[u16] {
        &self.houses_of[cell]
    }

    /// The cells that share a house with `cell`, in increasing order.
    pub fn peers(&self, cell: usize) -> &[u16] {
        &self.peers.get_or_init(|| self.all_peers())[cell]
    }

    /// Each cell's peers in increasing order, from bit sets of the houses: sorting 72 peers of
    /// each of 625 cells was a third of the start of a 25×25 job.
    fn all_peers(&self) -> Vec<Vec<u16>> {
        let cells = self.cells();
        let words = cells.div_ceil(64);
        let mut members = vec![0u64; self.houses.len() * words];
        for (house, mask) in self.houses.iter().zip(members.chunks_exact_mut(words)) {
            for &cell in house {
                mask[usize::from(cell) / 64] |= 1 << (cell % 64);
            }
        }
        let mut union = vec![0u64; words];
        (0..cells)
            .map(|cell| {
                union.fill(0);
                for &house in &self.houses_of[cell] {
                    let mask = &members[usize::from(house) * words..][..words];
                    union.iter_mut().zip(mask).for_each(|(u, m)| *u |= m);
                }
                union[cell / 64] &= !(1 << (cell % 64));
                let mut peers =
                    Vec::with_capacity(union.iter().map(|u| u.count_ones() as usize).sum());
                for (at, &word) in union.iter().enumerate() {
                    let mut word = word;
                    while word != 0 {
                        peers.push((at * 64 + word.trailing_zeros() as usize) as u16);
                        word &= word - 1;
                    }
                }
                peers
            })
            .collect()
    }

    /// House number `index` of [`Shape::houses`], as people name it.
    pub fn house(&self, index: usize) -> House {
        let n = self.size;
        match index {
            _ if index < n => House::Row(index + 1),
            _ if index < 2 * n => House::Column(index - n + 1),
            _ if index < 3 * n => match self.regions {
                Regions::Boxes { .. } => House::Box(index - 2 * n + 1),
                Regions::Jigsaw(_) => House::Region(index - 2 * n + 1),
            },
            _ if index == 3 * n => House::Diagonal,
            _ => House::AntiDiagonal,
        }
    }

    /// The standard shape: 9×9, boxes of 3×3, digits.
    pub fn standard() -> Shape {
        Shape::boxed(9, None, false, Symbols::default_for(9)).expect("9×9 has 3×3 boxes")
    }

    /// Whether this is the 9×9 shape of 3×3 boxes and digits, which the crate's fast paths serve.
    pub fn is_standard(&self) -> bool {
        self.size == 9
            && self.regions
                == Regions::Boxes {
                    rows: 3,
                    columns: 3,
                }
            && !self.diagonal
            && self.symbols.is_default()
    }

    /// The layout of a jigsaw shape as N·N region characters (`a`, `b`, ... in order of first
    /// appearance), as the `LAYOUT PUZZLE` lines carry it.
    pub fn layout_text(&self) -> Option<Vec<u8>> {
        match &self.regions {
            Regions::Jigsaw(region_of) => Some(
                region_of
                    .iter()
                    .map(|&r| self.names[usize::from(r)])
                    .collect(),
            ),
            Regions::Boxes { .. } => None,
        }
    }

    /// The first value given twice in one house of `grid`, if any.
    pub fn first_repeat(&self, grid: &[u8]) -> Option<(u8, House)> {
        for (index, house) in self.houses.iter().enumerate() {
            let mut seen = 0u32;
            for &cell in house {
                let value = grid[usize::from(cell)];
                if value != 0 {
                    if seen >> value & 1 == 1 {
                        return Some((value, self.house(index)));
                    }
                    seen |= 1 << value;
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::layout::read_layout;
    use crate::model::request::parse_box;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    #[test]
    fn default_boxes_are_the_squarest_split() {
        let splits: Vec<_> = [4, 6, 8, 9, 10, 12, 16, 20, 25]
            .iter()
            .map(|&n| default_box(n).unwrap())
            .collect();
        assert_eq!(
            splits,
            [
                (2, 2),
                (2, 3),
                (2, 4),
                (3, 3),
                (2, 5),
                (3, 4),
                (4, 4),
                (4, 5),
                (5, 5)
            ]
        );
        assert_eq!(default_box(7), None);
        assert_eq!(default_box(23), None);
    }

    #[test]
    fn houses_and_peers_follow_the_shape() {
        let shape = Shape::boxed(6, None, true, Symbols::default_for(6)).unwrap();
        assert_eq!(shape.houses().len(), 20);
        assert!(shape.houses().iter().all(|h| h.len() == 6));
        // Cell 0: its row (5), column (5), box (2 more) and diagonal (5 more, one shared with the box).
        assert_eq!(shape.peers(0).len(), 5 + 5 + 2 + 4);
        assert_eq!(shape.region_of(3), 1);
        assert_eq!(shape.house(19), House::AntiDiagonal);
        assert!(
            Shape::boxed(9, None, false, Symbols::default_for(9))
                .unwrap()
                .is_standard()
        );
    }

    #[test]
    fn bad_shapes_are_named() {
        let symbols = Symbols::default_for(12);
        assert_eq!(
            Shape::boxed(12, Some((2, 5)), false, symbols),
            Err(ShapeError::BoxSplit {
                rows: 2,
                columns: 5,
                size: 12
            })
        );
        assert_eq!(
            Shape::boxed(7, None, false, Symbols::default_for(7)),
            Err(ShapeError::PrimeSize(7))
        );
        assert!(Symbols::new(b"AABC").unwrap_err().contains("'A' repeats"));
        assert!(Symbols::new(b"12.4").is_err());
        assert!(parse_box("2*3").is_err());
    }

    #[test]
    fn layouts_are_checked_region_by_region() {
        let good = b"aabb\naabb\nccdd\nccdd\n";
        assert_eq!(read_layout(good, None).unwrap()[..4], [0, 0, 1, 1]);
        assert!(read_layout(b"aabbaabbccddccdd", Some(4)).is_ok());
        let split = read_layout(b"abab\naabb\nccdd\nccdd\n", None).unwrap_err();
        assert!(
            split.problem.contains("region 'a' is not connected"),
            "{split}"
        );
        assert_eq!((split.line, split.column), (1, 3));
        // The stray cell is located, though the region's first cell is the stray one here.
        let first = read_layout(b"abaa\nbbba\nccdd\nccdd\n", None).unwrap_err();
        assert!(
            first.problem.contains("region 'a' is not connected"),
            "{first}"
        );
        assert_eq!((first.line, first.column), (1, 1));
        let later = read_layout(b"aaba\nabbb\nccdd\nccdd\n", None).unwrap_err();
        assert_eq!((later.line, later.column), (1, 4));
        let tie = read_layout(b"aabb\nbbaa\nccdd\nccdd\n", None).unwrap_err();
        assert_eq!((tie.line, tie.column), (2, 3));
        let big = read_layout(b"aaab\naabb\nccdd\nccdd\n", None).unwrap_err();
        assert!(big.problem.contains("region 'a' has 5 cells"), "{big}");
        assert_eq!((big.line, big.column), (2, 2));
        assert!(
            read_layout(good, Some(9))
                .unwrap_err()
                .problem
                .contains("the flags ask for 9×9")
        );
        let wide = read_layout("aabb\naabé\nccdd\nccdd\n".as_bytes(), None).unwrap_err();
        assert!(
            wide.problem.starts_with("'é' cannot name a region"),
            "{wide}"
        );
        assert_eq!((wide.line, wide.column), (2, 4));
        let latin1 = read_layout(b"aabb\naab\xe9\nccdd\nccdd\n", None).unwrap_err();
        assert!(latin1.problem.starts_with("byte 0xe9 cannot"), "{latin1}");
        let nbsp = read_layout("aabb\naab\u{a0}\nccdd\nccdd\n".as_bytes(), None).unwrap_err();
        assert!(nbsp.problem.starts_with("byte 0xc2 cannot"), "{nbsp}");
    }

    #[test]
    fn random_layouts_are_valid_and_filled_by_the_grid_they_grew_around() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for (size, diagonal) in [(5, false), (6, true), (9, false), (16, false), (25, true)] {
            let start = Shape::jigsaw_start(size, diagonal, Symbols::default_for(size));
            let mut grid = vec![0; size * size];
            let mut solver = crate::engine::generic::solve::Solver::new(&start);
            let found = solver.random_solution(&vec![0; size * size], 7, &mut grid, usize::MAX);
            assert_eq!(found, Some(true));
            let shape = Shape::random_jigsaw(&start, &grid, &mut rng);
            let text = shape.layout_text().unwrap();
            let region_of = read_layout(&text, Some(size)).unwrap();
            assert_ne!(region_of, renumbered(&start.region_of), "{size}");
            for house in shape.houses() {
                let mut seen = 0u32;
                for &cell in house {
                    seen |= 1 << grid[usize::from(cell)];
                }
                assert_eq!(seen.count_ones() as usize, size, "{size}: {house:?}");
            }
        }
    }
}
