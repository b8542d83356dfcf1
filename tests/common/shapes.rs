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

    /// Counts the completions of `puzzle` up to `limit` by plain backtracking (small shapes only).
    pub fn count_solutions(&self, puzzle: &[u8], limit: usize) -> usize {
        let houses = self.houses();
        let mut grid = puzzle.to_vec();
        self.count_from(&houses, &mut grid, limit)
    }

    fn count_from(&self, houses: &[Vec<usize>], grid: &mut [u8], limit: usize) -> usize {
        let Some(cell) = grid.iter().position(|ch| !self.symbols.contains(ch)) else {
            return 1;
        };
        let mut count = 0;
        for &symbol in &self.symbols.clone() {
            let clash = houses
                .iter()
                .filter(|h| h.contains(&cell))
                .any(|h| h.iter().any(|&c| grid[c] == symbol));
            if !clash {
                let old = grid[cell];
                grid[cell] = symbol;
                count += self.count_from(houses, grid, limit - count);
                grid[cell] = old;
                if count >= limit {
                    break;
                }
            }
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
