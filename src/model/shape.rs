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

use rand::Rng;
use rand::RngExt;

use super::house::House;

/// The smallest and largest N.
pub const SIZES: std::ops::RangeInclusive<usize> = 4..=25;

/// The most cells a grid can have (25×25).
pub const MAX_CELLS: usize = 625;

/// The default alphabet: `1`–`9`, then `A`–`P`; a shape of size N uses its first N characters.
pub const DEFAULT_SYMBOLS: &[u8; 25] = b"123456789ABCDEFGHIJKLMNOP";

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
        "--box {rows}x{columns}: {rows}·{columns} is not {size}; expected RxC with R·C = {size}, both at least 2"
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
    #[error("jigsaw layout{}: {problem}", .source_name.as_ref().map(|n| format!(" {n}")).unwrap_or_default())]
    Layout {
        /// Where the layout came from, when it was a file.
        source_name: Option<String>,
        /// What is wrong with it.
        problem: String,
    },
}

/// The symbols of a shape: N distinct ASCII characters, value `v` written as the `v-1`-th.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbols {
    glyphs: [u8; 25],
    size: usize,
    /// For each byte, its value (1..=N), 0 for a blank, [`NOT_A_CELL`] otherwise.
    value_of: [u8; 256],
}

/// What [`Symbols::value_of`] gives for a byte that is neither a symbol nor a blank.
pub const NOT_A_CELL: u8 = u8::MAX;

impl Symbols {
    /// The default alphabet of size `size`.
    pub fn default_for(size: usize) -> Symbols {
        Symbols::new(&DEFAULT_SYMBOLS[..size]).expect("the default alphabet is valid")
    }

    /// An alphabet from its characters, which must be distinct printable ASCII, and none of `.`,
    /// `-` or `#` (blanks and comments).
    pub fn new(text: &[u8]) -> Result<Symbols, String> {
        let mut glyphs = [0; 25];
        let mut value_of = [NOT_A_CELL; 256];
        for (i, &ch) in text.iter().enumerate() {
            if !ch.is_ascii_graphic() || matches!(ch, b'.' | b'-' | b'#') {
                return Err(format!(
                    "character {} cannot be a symbol (expected printable ASCII other than '.', '-' and '#')",
                    i + 1
                ));
            }
            if value_of[usize::from(ch)] != NOT_A_CELL {
                return Err(format!("'{}' repeats", ch as char));
            }
            if i < glyphs.len() {
                glyphs[i] = ch;
            }
            value_of[usize::from(ch)] = i as u8 + 1;
        }
        for blank in [b'.', b'-', b'0'] {
            if value_of[usize::from(blank)] == NOT_A_CELL {
                value_of[usize::from(blank)] = 0;
            }
        }
        Ok(Symbols {
            glyphs,
            size: text.len(),
            value_of,
        })
    }

    /// The character of value `value` (1..=N).
    pub fn glyph(&self, value: u8) -> u8 {
        self.glyphs[usize::from(value) - 1]
    }

    /// The value of a character: 1..=N for a symbol, 0 for a blank, [`NOT_A_CELL`] otherwise.
    pub fn value_of(&self, ch: u8) -> u8 {
        self.value_of[usize::from(ch)]
    }

    /// The character written for a blank cell in `format`: `.` in the line format; `0` in the
    /// grid format, unless `0` is a symbol.
    pub fn blank(&self, line_format: bool) -> u8 {
        if line_format || self.value_of(b'0') != 0 {
            b'.'
        } else {
            b'0'
        }
    }

    /// The alphabet, in value order.
    pub fn as_bytes(&self) -> &[u8] {
        &self.glyphs[..self.size]
    }

    /// Whether this is the default alphabet for its size.
    pub fn is_default(&self) -> bool {
        self.as_bytes() == &DEFAULT_SYMBOLS[..self.size]
    }
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    size: usize,
    regions: Regions,
    diagonal: bool,
    symbols: Symbols,
    /// The region (0..N) of each cell.
    region_of: Vec<u8>,
    /// The cells of each house: rows, columns, regions, then the diagonals.
    houses: Vec<Vec<u16>>,
    /// For each cell, the houses it is in.
    houses_of: Vec<Vec<u16>>,
    /// For each cell, the other cells that share a house with it.
    peers: Vec<Vec<u16>>,
}

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
    ) -> Result<Shape, String> {
        let region_of = read_layout(layout, size)?;
        let size = region_count(&region_of);
        let symbols = match symbols {
            Some(symbols) if symbols.size == size => symbols,
            Some(symbols) => {
                return Err(format!(
                    "the layout is {size}×{size} but --symbols gives {} symbols",
                    symbols.size
                ));
            }
            None => Symbols::default_for(size),
        };
        Ok(Shape::with_regions(
            size,
            Regions::Jigsaw(region_of.clone()),
            region_of,
            diagonal,
            symbols,
        ))
    }

    /// A random jigsaw layout of size `size`: starting from the boxes (or from bands of rows when N
    /// is prime), cells are traded between neighbouring regions, each trade kept only when both
    /// regions stay connected.
    pub fn random_jigsaw<R: Rng + ?Sized>(
        size: usize,
        diagonal: bool,
        symbols: Symbols,
        rng: &mut R,
    ) -> Shape {
        let mut region_of: Vec<u8> = match default_box(size) {
            Some((rows, columns)) => (0..size * size)
                .map(|cell| (cell / size / rows * (size / columns) + cell % size / columns) as u8)
                .collect(),
            None => (0..size * size).map(|cell| (cell / size) as u8).collect(),
        };
        for _ in 0..4 * size * size {
            // A pair of neighbouring cells of different regions trade places.
            let a = rng.random_range(0..size * size);
            let neighbours = neighbours(a, size);
            let b = neighbours[rng.random_range(0..neighbours.len())];
            let (ra, rb) = (region_of[a], region_of[b]);
            if ra == rb {
                continue;
            }
            // `a` moves into `b`'s region, and some cell `c` of `b`'s region next to `a`'s moves back.
            let candidates: Vec<usize> = (0..size * size)
                .filter(|&c| {
                    region_of[c] == rb && c != b && neighbours_of_region(c, size, &region_of, ra, a)
                })
                .collect();
            if candidates.is_empty() {
                continue;
            }
            let c = candidates[rng.random_range(0..candidates.len())];
            region_of[a] = rb;
            region_of[c] = ra;
            if !is_connected(&region_of, size, ra) || !is_connected(&region_of, size, rb) {
                region_of[a] = ra;
                region_of[c] = rb;
            }
        }
        let region_of = renumbered(&region_of);
        Shape::with_regions(
            size,
            Regions::Jigsaw(region_of.clone()),
            region_of,
            diagonal,
            symbols,
        )
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
        let peers = (0..cells)
            .map(|cell| {
                let mut peers: Vec<u16> = houses_of[cell]
                    .iter()
                    .flat_map(|&h| houses[usize::from(h)].iter().copied())
                    .filter(|&p| usize::from(p) != cell)
                    .collect();
                peers.sort_unstable();
                peers.dedup();
                peers
            })
            .collect();
        Shape {
            size,
            regions,
            diagonal,
            symbols,
            region_of,
            houses,
            houses_of,
            peers,
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

    /// The cells that share a house with `cell`.
    pub fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell]
    }

    /// House number `index` of [`Shape::houses`], as people name it.
    pub fn house(&self, index: usize) -> House {
        let n = self.size;
        match index {
            _ if index < n => House::Row(index + 1),
            _ if index < 2 * n => House::Column(index - n + 1),
            _ if index < 3 * n => House::Region(index - 2 * n + 1),
            _ if index == 3 * n => House::Diagonal,
            _ => House::AntiDiagonal,
        }
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
                    .map(|&r| LAYOUT_NAMES[usize::from(r)])
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

/// The guesses spent looking for a complete grid of a random layout before another is drawn.
const LAYOUT_GUESSES: usize = 2000;

/// How many random layouts are drawn at most.
const RANDOM_LAYOUTS: usize = 200;

/// Where a jigsaw layout comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutSource {
    /// The text of a layout file, and the name it was given by.
    Text {
        /// The file's contents.
        text: Vec<u8>,
        /// The file's name as given (`<stdin>` for `-`).
        name: String,
    },
    /// A layout drawn from the seed.
    Random,
}

/// The shape the command line asks for, before N is known (`-s` and `--check` may take it from
/// their input).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShapeRequest {
    /// `--size N`.
    pub size: Option<usize>,
    /// `--box RxC`.
    pub split: Option<(usize, usize)>,
    /// `--jigsaw LAYOUT`.
    pub layout: Option<LayoutSource>,
    /// `--diagonal`.
    pub diagonal: bool,
    /// `--symbols STR`.
    pub symbols: Option<Vec<u8>>,
}

impl ShapeRequest {
    /// Whether no shape flag was given at all.
    pub fn is_unspecified(&self) -> bool {
        *self == ShapeRequest::default()
    }

    /// N, when the flags decide it: `--size`, else the length of `--symbols`, else the side of a
    /// jigsaw layout.
    pub fn known_size(&self) -> Option<usize> {
        self.size
            .or(self.symbols.as_ref().map(Vec::len))
            .or_else(|| match &self.layout {
                Some(LayoutSource::Text { text, .. }) => {
                    read_layout(text, None).ok().map(|r| region_count(&r))
                }
                _ => None,
            })
    }

    /// The shape of size `size`; a random layout is drawn from `rng` until the solver finds a
    /// complete grid for one within a few thousand guesses (a few hundred layouts at most).
    pub fn shape<R: Rng + ?Sized>(&self, size: usize, rng: &mut R) -> Result<Shape, ShapeError> {
        if !SIZES.contains(&size) {
            return Err(ShapeError::Size(size));
        }
        let symbols = match &self.symbols {
            Some(text) if text.len() != size => {
                return Err(ShapeError::Symbols {
                    text: String::from_utf8_lossy(text).into_owned(),
                    problem: format!("{} symbols; expected {size}", text.len()),
                });
            }
            Some(text) => Symbols::new(text).map_err(|problem| ShapeError::Symbols {
                text: String::from_utf8_lossy(text).into_owned(),
                problem,
            })?,
            None => Symbols::default_for(size),
        };
        match &self.layout {
            None => Shape::boxed(size, self.split, self.diagonal, symbols),
            Some(_) if self.split.is_some() => Err(ShapeError::Layout {
                source_name: None,
                problem: "--box and --jigsaw cannot both give the regions".into(),
            }),
            Some(LayoutSource::Text { text, name }) => {
                Shape::jigsaw(text, Some(size), self.diagonal, Some(symbols)).map_err(|problem| {
                    ShapeError::Layout {
                        source_name: Some(name.clone()),
                        problem,
                    }
                })
            }
            Some(LayoutSource::Random) => {
                let empty = vec![0; size * size];
                let mut grid = empty.clone();
                for _ in 0..RANDOM_LAYOUTS {
                    let shape = Shape::random_jigsaw(size, self.diagonal, symbols, rng);
                    let mut solver = crate::engine::generic::solve::Solver::new(&shape);
                    if solver.count_within(&empty, 1, &mut grid, LAYOUT_GUESSES) == Some(1) {
                        return Ok(shape);
                    }
                }
                Err(ShapeError::Layout {
                    source_name: None,
                    problem: format!(
                        "none of {RANDOM_LAYOUTS} random layouts of this size had a complete grid the solver found quickly"
                    ),
                })
            }
        }
    }
}

/// The region characters of the layouts this program writes.
const LAYOUT_NAMES: &[u8; 25] = b"abcdefghijklmnopqrstuvwxy";

/// The default box split of `size`: R the largest divisor not above √N, or `None` for a prime.
pub fn default_box(size: usize) -> Option<(usize, usize)> {
    let rows = (2..=size)
        .take_while(|r| r * r <= size)
        .filter(|&r| size.is_multiple_of(r))
        .last()?;
    Some((rows, size / rows))
}

/// The cells next to `cell` through an edge.
fn neighbours(cell: usize, size: usize) -> Vec<usize> {
    let (row, column) = (cell / size, cell % size);
    let mut next = Vec::with_capacity(4);
    if row > 0 {
        next.push(cell - size);
    }
    if row + 1 < size {
        next.push(cell + size);
    }
    if column > 0 {
        next.push(cell - 1);
    }
    if column + 1 < size {
        next.push(cell + 1);
    }
    next
}

/// Whether `cell` touches region `region` through a cell other than `except`.
fn neighbours_of_region(
    cell: usize,
    size: usize,
    region_of: &[u8],
    region: u8,
    except: usize,
) -> bool {
    neighbours(cell, size)
        .into_iter()
        .any(|n| n != except && region_of[n] == region)
}

/// Whether the cells of `region` are connected through shared edges.
fn is_connected(region_of: &[u8], size: usize, region: u8) -> bool {
    let Some(start) = region_of.iter().position(|&r| r == region) else {
        return true;
    };
    let mut seen = vec![false; region_of.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 0;
    while let Some(cell) = stack.pop() {
        reached += 1;
        for next in neighbours(cell, size) {
            if !seen[next] && region_of[next] == region {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    reached == region_of.iter().filter(|&&r| r == region).count()
}

/// Regions renumbered in order of first appearance.
fn renumbered(region_of: &[u8]) -> Vec<u8> {
    let mut names = [u8::MAX; 256];
    let mut next = 0;
    region_of
        .iter()
        .map(|&r| {
            if names[usize::from(r)] == u8::MAX {
                names[usize::from(r)] = next;
                next += 1;
            }
            names[usize::from(r)]
        })
        .collect()
}

fn region_count(region_of: &[u8]) -> usize {
    usize::from(region_of.iter().copied().max().unwrap_or(0)) + 1
}

/// Reads a layout (see [`Shape::jigsaw`]) into region indices, numbered in order of first
/// appearance, checking that it has N regions of N connected cells.
pub fn read_layout(text: &[u8], size: Option<usize>) -> Result<Vec<u8>, String> {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line).trim_ascii_end())
        .filter(|line| !line.is_empty())
        .collect();
    let chars: Vec<u8> = lines.concat();
    let side = match lines.as_slice() {
        [one] => (4..=25).find(|s| s * s == one.len()),
        many => Some(many.len()).filter(|&n| many.iter().all(|line| line.len() == n)),
    };
    let Some(side) = side.filter(|s| SIZES.contains(s)) else {
        return Err(
            "expected N lines of N region characters, or one line of N·N, with N from 4 to 25"
                .into(),
        );
    };
    if let Some(size) = size.filter(|&size| size != side) {
        return Err(format!("the layout is {side}×{side} but --size is {size}"));
    }
    if let Some(&bad) = chars.iter().find(|ch| !ch.is_ascii_graphic()) {
        return Err(format!("byte 0x{bad:02x} cannot name a region"));
    }
    let region_of = renumbered(&chars);
    let regions = region_count(&region_of);
    if regions != side {
        return Err(format!("it has {regions} regions; expected {side}"));
    }
    for region in 0..side as u8 {
        let first = region_of
            .iter()
            .position(|&r| r == region)
            .expect("a region");
        let name = chars[first] as char;
        let cells = region_of.iter().filter(|&&r| r == region).count();
        if cells != side {
            return Err(format!(
                "region '{name}' has {cells} cells; expected {side}"
            ));
        }
        if !is_connected(&region_of, side, region) {
            return Err(format!(
                "region '{name}' is not connected (its cells must join through shared edges)"
            ));
        }
    }
    Ok(region_of)
}

/// A `--box` argument `RxC`.
pub fn parse_box(text: &str) -> Result<(usize, usize), ShapeError> {
    let syntax = || ShapeError::BoxSyntax(text.to_owned());
    let (rows, columns) = text.split_once(['x', 'X']).ok_or_else(syntax)?;
    let number = |s: &str| {
        (!s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    Ok((
        number(rows).ok_or_else(syntax)?,
        number(columns).ok_or_else(syntax)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
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
        assert!(split.contains("region 'a' is not connected"), "{split}");
        let big = read_layout(b"aaab\naabb\nccdd\nccdd\n", None).unwrap_err();
        assert!(big.contains("region 'a' has 5 cells"), "{big}");
        assert!(
            read_layout(good, Some(9))
                .unwrap_err()
                .contains("--size is 9")
        );
    }

    #[test]
    fn random_layouts_are_valid() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for size in [5, 6, 9, 16] {
            let shape = Shape::random_jigsaw(size, false, Symbols::default_for(size), &mut rng);
            let text = shape.layout_text().unwrap();
            assert_eq!(read_layout(&text, Some(size)).unwrap().len(), size * size);
        }
    }
}
