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

    /// Counts the completions of `puzzle` up to `limit` by backtracking, filling the empty cell
    /// with the fewest symbols left first (each house keeps the set of its symbols as bits).
    pub fn count_solutions(&self, puzzle: &[u8], limit: usize) -> usize {
        let houses = self.houses();
        let mut of_cell = vec![Vec::new(); puzzle.len()];
        for (h, house) in houses.iter().enumerate() {
            for &c in house {
                of_cell[c].push(h);
            }
        }
        let mut used = vec![0u32; houses.len()];
        let mut empty = Vec::new();
        for (cell, ch) in puzzle.iter().enumerate() {
            match self.symbols.iter().position(|s| s == ch) {
                Some(value) => {
                    for &h in &of_cell[cell] {
                        if used[h] >> value & 1 == 1 {
                            return 0;
                        }
                        used[h] |= 1 << value;
                    }
                }
                None => empty.push(cell),
            }
        }
        let full = (1u32 << self.symbols.len()) - 1;
        count_from(&of_cell, &mut used, &mut empty, full, limit)
    }
}

/// The completions of the board (`used`: the symbols of each house; `empty`: its empty cells) up
/// to `limit`.
fn count_from(
    of_cell: &[Vec<usize>],
    used: &mut [u32],
    empty: &mut Vec<usize>,
    full: u32,
    limit: usize,
) -> usize {
    if empty.is_empty() {
        return 1;
    }
    let left =
        |cell: usize, used: &[u32]| !of_cell[cell].iter().fold(0, |acc, &h| acc | used[h]) & full;
    let (at, _) = empty
        .iter()
        .enumerate()
        .min_by_key(|&(_, &cell)| left(cell, used).count_ones())
        .expect("an empty cell");
    let cell = empty.swap_remove(at);
    let mut options = left(cell, used);
    let mut count = 0;
    while options != 0 && count < limit {
        let bit = options & options.wrapping_neg();
        options &= options - 1;
        for &h in &of_cell[cell] {
            used[h] |= bit;
        }
        count += count_from(of_cell, used, empty, full, limit - count);
        for &h in &of_cell[cell] {
            used[h] &= !bit;
        }
    }
    empty.push(cell);
    let last = empty.len() - 1;
    empty.swap(at, last);
    count
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
