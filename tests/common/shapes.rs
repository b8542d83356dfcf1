//! A checker for grids of any shape that shares nothing with the crate: it builds the houses of a
//! shape from its description (rows, columns, boxes or region letters, diagonals) and tests that
//! each holds every symbol once, with its own loops.

use std::collections::HashSet;

/// A shape as the checker knows it: its side, the region of each cell, the diagonals, the symbols.
#[derive(Clone, Debug)]
pub struct Spec {
    pub n: usize,
    pub region: Vec<usize>,
    pub diagonal: bool,
    pub symbols: Vec<u8>,
}

/// The default alphabet.
pub const SYMBOLS: &[u8] = b"123456789ABCDEFGHIJKLMNOP";

impl Spec {
    /// Boxes of `rows` × `columns`.
    pub fn boxes(n: usize, rows: usize, columns: usize) -> Spec {
        let region = (0..n * n)
            .map(|c| (c / n / rows) * (n / columns) + (c % n) / columns)
            .collect();
        Spec {
            n,
            region,
            diagonal: false,
            symbols: SYMBOLS[..n].to_vec(),
        }
    }

    /// Regions named by the characters of `layout` (N·N of them, row by row).
    pub fn jigsaw(layout: &str) -> Spec {
        let chars: Vec<char> = layout.chars().filter(|c| !c.is_whitespace()).collect();
        let n = (1..=25)
            .find(|k| k * k == chars.len())
            .expect("a square layout");
        let mut names: Vec<char> = chars.clone();
        names.sort();
        names.dedup();
        let region = chars
            .iter()
            .map(|c| names.binary_search(c).unwrap())
            .collect();
        Spec {
            n,
            region,
            diagonal: false,
            symbols: SYMBOLS[..n].to_vec(),
        }
    }

    pub fn with_diagonals(mut self) -> Spec {
        self.diagonal = true;
        self
    }

    pub fn with_symbols(mut self, symbols: &str) -> Spec {
        self.symbols = symbols.as_bytes().to_vec();
        self
    }

    /// Every house as its list of cells.
    fn houses(&self) -> Vec<Vec<usize>> {
        let n = self.n;
        let mut houses = Vec::new();
        for i in 0..n {
            houses.push((0..n).map(|j| i * n + j).collect());
            houses.push((0..n).map(|j| j * n + i).collect());
            houses.push((0..n * n).filter(|&c| self.region[c] == i).collect());
        }
        if self.diagonal {
            houses.push((0..n).map(|i| i * n + i).collect());
            houses.push((0..n).map(|i| i * n + n - 1 - i).collect());
        }
        houses
    }

    /// Whether `cells` (N·N characters) is a complete grid with every house a permutation of the
    /// symbols.
    pub fn is_valid_complete(&self, cells: &[u8]) -> bool {
        cells.len() == self.n * self.n
            && self.houses().iter().all(|house| {
                let mut seen: Vec<u8> = house.iter().map(|&c| cells[c]).collect();
                seen.sort();
                let mut symbols = self.symbols.clone();
                symbols.sort();
                seen == symbols
            })
    }

    /// Whether `cells` breaks no house (blanks allowed).
    pub fn is_consistent(&self, cells: &[u8]) -> bool {
        self.houses().iter().all(|house| {
            let mut seen = HashSet::new();
            house
                .iter()
                .all(|&c| !self.symbols.contains(&cells[c]) || seen.insert(cells[c]))
        })
    }

    /// Counts the completions of `puzzle` up to `limit` by backtracking. Each step branches on
    /// the choice with the fewest ways: an empty cell's symbols left, or the empty cells of a house
    /// that can take one of its missing symbols (each house keeps its symbols as bits).
    pub fn count_solutions(&self, puzzle: &[u8], limit: usize) -> usize {
        let houses = self.houses();
        let mut of_cell = vec![Vec::new(); puzzle.len()];
        for (h, house) in houses.iter().enumerate() {
            for &c in house {
                of_cell[c].push(h);
            }
        }
        let mut grid = Grid {
            houses: &houses,
            of_cell: &of_cell,
            used: vec![0u32; houses.len()],
            empty: vec![false; puzzle.len()],
            left: 0,
            full: (1u32 << self.symbols.len()) - 1,
        };
        for (cell, ch) in puzzle.iter().enumerate() {
            match self.symbols.iter().position(|s| s == ch) {
                Some(value) => {
                    if of_cell[cell]
                        .iter()
                        .any(|&h| grid.used[h] >> value & 1 == 1)
                    {
                        return 0;
                    }
                    grid.place(cell, 1 << value);
                }
                None => grid.empty[cell] = true,
            }
        }
        grid.left = grid.empty.iter().filter(|&&e| e).count();
        grid.count(limit)
    }
}

/// A move being built by [`Spec::equivalent`]: the source row of each output row, the source
/// column of each output column, and the relabelling as far as it is known.
#[derive(Clone)]
struct Witness {
    rows: Vec<Option<usize>>,
    columns: Vec<Option<usize>>,
    image: [Option<u8>; 256],
    taken: [bool; 256],
}

impl Spec {
    /// Whether `from` (a puzzle and its complete solution, of this shape) and `to` (of the shape
    /// `onto`) are equivalent: some permutation of the rows and of the columns, of the grid or of
    /// its transpose, with a relabelling of the symbols, maps both grids of `from` onto those of
    /// `to` (blanks onto blanks) and every house of this shape onto a house of `onto`. The move is
    /// searched for from the solutions: the first output row and column name their sources once
    /// the images of their symbols are known, and every cell whose source is known forces the
    /// image of its symbol.
    pub fn equivalent(&self, from: (&[u8], &[u8]), onto: &Spec, to: (&[u8], &[u8])) -> bool {
        let n = self.n;
        if onto.n != n
            || [from.0, from.1, to.0, to.1]
                .iter()
                .any(|g| g.len() != n * n)
        {
            return false;
        }
        for transpose in [false, true] {
            let source = |cell: usize| {
                if transpose {
                    cell % n * n + cell / n
                } else {
                    cell
                }
            };
            let solution: Vec<u8> = (0..n * n).map(|c| from.1[source(c)]).collect();
            for (r0, c0) in (0..n).flat_map(|r| (0..n).map(move |c| (r, c))) {
                let mut witness = Witness {
                    rows: vec![None; n],
                    columns: vec![None; n],
                    image: [None; 256],
                    taken: [false; 256],
                };
                witness.rows[0] = Some(r0);
                witness.columns[0] = Some(c0);
                let mut accept = |w: &Witness| self.is_move(w, transpose, from, onto, to);
                if self.extend(witness, (&solution, to.1), &mut accept) {
                    return true;
                }
            }
        }
        false
    }

    /// Completes `w` every way the solutions allow (`from`, read transposed or not, onto `to`),
    /// until `accept` takes a complete one.
    fn extend(
        &self,
        mut w: Witness,
        grids: (&[u8], &[u8]),
        accept: &mut dyn FnMut(&Witness) -> bool,
    ) -> bool {
        let n = self.n;
        let (from, to) = grids;
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..n {
                for j in 0..n {
                    let (Some(r), Some(c)) = (w.rows[i], w.columns[j]) else {
                        continue;
                    };
                    let (x, y) = (from[r * n + c], to[i * n + j]);
                    let known = w.image[usize::from(x)];
                    match known {
                        Some(known) if known != y => return false,
                        Some(_) => {}
                        None if !w.assign(n, grids, x, y) => return false,
                        None => changed = true,
                    }
                }
            }
        }
        let unknown = self
            .symbols
            .iter()
            .find(|&&x| w.image[usize::from(x)].is_none());
        let Some(&x) = unknown else {
            return accept(&w);
        };
        self.symbols.iter().any(|&y| {
            let mut next = w.clone();
            next.assign(n, grids, x, y) && self.extend(next, grids, accept)
        })
    }

    /// Whether the complete `w` maps the grids of `from` onto those of `to` and the houses of
    /// this shape onto those of `onto`.
    fn is_move(
        &self,
        w: &Witness,
        transpose: bool,
        from: (&[u8], &[u8]),
        onto: &Spec,
        to: (&[u8], &[u8]),
    ) -> bool {
        let n = self.n;
        let source = |cell: usize| {
            let (r, c) = (w.rows[cell / n].unwrap(), w.columns[cell % n].unwrap());
            if transpose { c * n + r } else { r * n + c }
        };
        let blank = |v: u8| !self.symbols.contains(&v);
        let image = |v: u8| {
            if blank(v) {
                None
            } else {
                w.image[usize::from(v)]
            }
        };
        let grids_move = (0..n * n).all(|cell| {
            let (given, value) = (from.0[source(cell)], from.1[source(cell)]);
            image(value) == Some(to.1[cell])
                && match image(given) {
                    None => blank(given) && blank(to.0[cell]),
                    Some(moved) => moved == to.0[cell],
                }
        });
        if !grids_move {
            return false;
        }
        let mut output_of = vec![0; n * n];
        for cell in 0..n * n {
            output_of[source(cell)] = cell;
        }
        let sorted = |mut house: Vec<usize>| {
            house.sort();
            house
        };
        let houses: HashSet<Vec<usize>> = onto.houses().into_iter().map(sorted).collect();
        self.houses().into_iter().all(|house| {
            let image = house.iter().map(|&c| output_of[c]).collect();
            houses.contains(&sorted(image))
        })
    }
}

impl Witness {
    /// Makes `y` the image of symbol `x`, and with it names the sources of the output column
    /// whose first cell is `y` (the column of `x` in the first output row's source) and of the
    /// output row whose first cell is `y` (the row of `x` in the first output column's source);
    /// false when `y` is another's image or either source is already another.
    fn assign(&mut self, n: usize, (from, to): (&[u8], &[u8]), x: u8, y: u8) -> bool {
        if self.taken[usize::from(y)] {
            return false;
        }
        self.image[usize::from(x)] = Some(y);
        self.taken[usize::from(y)] = true;
        let (r0, c0) = (self.rows[0].unwrap(), self.columns[0].unwrap());
        let column = (0..n).find(|&c| from[r0 * n + c] == x);
        let row = (0..n).find(|&r| from[r * n + c0] == x);
        let j = (0..n).find(|&j| to[j] == y);
        let i = (0..n).find(|&i| to[i * n] == y);
        let (Some(column), Some(row), Some(i), Some(j)) = (column, row, i, j) else {
            return false;
        };
        for (slot, value) in [(&mut self.columns[j], column), (&mut self.rows[i], row)] {
            match slot {
                Some(known) if *known != value => return false,
                _ => *slot = Some(value),
            }
        }
        true
    }
}

/// A partial fill being counted by [`Spec::count_solutions`].
struct Grid<'a> {
    houses: &'a [Vec<usize>],
    of_cell: &'a [Vec<usize>],
    used: Vec<u32>,
    empty: Vec<bool>,
    left: usize,
    full: u32,
}

/// What a step branches on: one cell's symbols, or one symbol's cells in a house.
enum Choice {
    Cell(usize, u32),
    Symbol(u32, Vec<usize>),
}

impl Grid<'_> {
    fn options(&self, cell: usize) -> u32 {
        !self.of_cell[cell]
            .iter()
            .fold(0, |acc, &h| acc | self.used[h])
            & self.full
    }

    fn place(&mut self, cell: usize, bit: u32) {
        for &h in &self.of_cell[cell] {
            self.used[h] |= bit;
        }
    }

    fn unplace(&mut self, cell: usize, bit: u32) {
        for &h in &self.of_cell[cell] {
            self.used[h] &= !bit;
        }
    }

    /// The choice with the fewest ways (`None`: a cell or a house's symbol has none).
    fn choice(&self) -> Option<Choice> {
        let mut best = (u32::MAX, Choice::Cell(0, 0));
        for cell in (0..self.empty.len()).filter(|&c| self.empty[c]) {
            let options = self.options(cell);
            if options.count_ones() < best.0 {
                best = (options.count_ones(), Choice::Cell(cell, options));
            }
        }
        if best.0 <= 1 {
            return (best.0 == 1).then_some(best.1);
        }
        for (h, house) in self.houses.iter().enumerate() {
            let mut missing = self.full & !self.used[h];
            while missing != 0 {
                let bit = missing & missing.wrapping_neg();
                missing &= missing - 1;
                let cells: Vec<usize> = house
                    .iter()
                    .copied()
                    .filter(|&c| self.empty[c] && self.options(c) & bit != 0)
                    .collect();
                if cells.is_empty() {
                    return None;
                }
                if (cells.len() as u32) < best.0 {
                    best = (cells.len() as u32, Choice::Symbol(bit, cells));
                }
            }
        }
        Some(best.1)
    }

    fn count(&mut self, limit: usize) -> usize {
        if self.left == 0 {
            return 1;
        }
        let ways: Vec<(usize, u32)> = match self.choice() {
            None => return 0,
            Some(Choice::Cell(cell, options)) => (0..32)
                .filter(|b| options >> b & 1 == 1)
                .map(|b| (cell, 1 << b))
                .collect(),
            Some(Choice::Symbol(bit, cells)) => cells.into_iter().map(|c| (c, bit)).collect(),
        };
        let mut count = 0;
        for (cell, bit) in ways {
            if count >= limit {
                break;
            }
            self.place(cell, bit);
            self.empty[cell] = false;
            self.left -= 1;
            count += self.count(limit - count);
            self.left += 1;
            self.empty[cell] = true;
            self.unplace(cell, bit);
        }
        count
    }
}

/// Whether `solution` keeps every given of `puzzle` (a given is any symbol of the alphabet).
pub fn keeps_givens(spec: &Spec, puzzle: &[u8], solution: &[u8]) -> bool {
    puzzle.len() == solution.len()
        && puzzle
            .iter()
            .zip(solution)
            .all(|(p, s)| !spec.symbols.contains(p) || p == s)
}

/// The records of a line-format text: (layout prefix if any, cells).
pub fn line_records(text: &[u8]) -> Vec<(Option<String>, Vec<u8>)> {
    let text = std::str::from_utf8(text).expect("ASCII");
    assert!(text.is_empty() || text.ends_with('\n'));
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| match l.split_once(' ') {
            Some((layout, cells)) => (Some(layout.to_owned()), cells.as_bytes().to_vec()),
            None => (None, l.as_bytes().to_vec()),
        })
        .collect()
}

/// The grids of a grid-format text of side `n` (single spaces, or compact rows with `compact`),
/// asserting its exact layout: `n` lines a grid, one empty line between grids, a final newline.
pub fn grid_records(text: &[u8], n: usize, compact: bool) -> Vec<Vec<u8>> {
    let text = std::str::from_utf8(text).expect("ASCII");
    assert!(text.ends_with('\n') && !text.ends_with("\n\n"));
    text.trim_end_matches('\n')
        .split("\n\n")
        .map(|block| {
            let lines: Vec<&str> = block.split('\n').collect();
            assert_eq!(lines.len(), n, "block {block:?}");
            let mut cells = Vec::new();
            for line in lines {
                if compact {
                    assert_eq!(line.len(), n);
                    cells.extend_from_slice(line.as_bytes());
                } else {
                    assert_eq!(line.len(), 2 * n - 1, "line {line:?}");
                    for (i, ch) in line.bytes().enumerate() {
                        if i % 2 == 1 {
                            assert_eq!(ch, b' ');
                        } else {
                            cells.push(ch);
                        }
                    }
                }
            }
            cells
        })
        .collect()
}

/// Writes into `dir` the first layout of `tests/data/shapes/hard_layouts.txt` that no grid fills
/// (marked `none` there), and returns its path.
pub fn layout_without_grids(dir: &std::path::Path) -> std::path::PathBuf {
    let hard = std::fs::read_to_string(format!(
        "{}/tests/data/shapes/hard_layouts.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let none = hard
        .lines()
        .find_map(|line| line.strip_suffix(" none"))
        .unwrap();
    let layout = dir.join("layout.txt");
    std::fs::write(&layout, none).unwrap();
    layout
}
