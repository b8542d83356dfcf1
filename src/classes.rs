//! Work on equivalence classes in bulk: the canonical forms of a file, complete grids that are
//! pairwise inequivalent, and finding equivalent pairs in a file.
//!
//! A class is named by its canonical form (see [`crate::canon`]), a [`Grid`]: two grids are
//! equivalent exactly when their forms are equal, so finding equivalent pairs is finding equal forms.
//! The forms are computed in parallel and compared in a hash set of 81-byte values.
//!
//! # Essentially different grids
//! Grid `k` of a request is a random complete grid drawn from its own random generator, seeded from
//! the request's seed and `k`, and written as drawn (not in its canonical form). The grids are then
//! taken in order; one whose class came earlier is drawn again from the next values of its generator
//! until its class is new. So the output depends on the seed alone, not on the thread count.

use std::collections::HashSet;

use foldhash::fast::FixedState;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::canon::canonical_form;
use crate::check::{Problem, Report};
use crate::format::{Format, parse_puzzles, push_line, render};
use crate::generate::GridRequest;
use crate::grid::Grid;
use crate::puzzle::random_grid;
use crate::solve::Solver;

/// The canonical forms of `grids`, in order, computed over the current rayon pool.
pub fn canonical_forms(grids: &[Grid]) -> Vec<Grid> {
    grids.par_iter().map(canonical_form).collect()
}

/// The canonical form of each of `grids`, one line each (81 characters, `.` for empty cells).
pub fn render_canonical_forms(grids: &[Grid]) -> Vec<u8> {
    let lines: Vec<Vec<u8>> = grids
        .par_chunks(4096)
        .map(|chunk| {
            let mut out = Vec::with_capacity(82 * chunk.len());
            for grid in chunk {
                push_line(&mut out, &canonical_form(grid));
                out.push(b'\n');
            }
            out
        })
        .collect();
    lines.concat()
}

/// Pairs `(later, earlier)` of indices of `grids` whose grids are equivalent but not equal, each
/// later grid paired with the first grid of its class. Equal grids are left out: they are plain
/// repeats, reported as such.
pub fn equivalent_pairs(grids: &[Grid]) -> Vec<(usize, usize)> {
    let forms = canonical_forms(grids);
    let mut first_of_class = std::collections::HashMap::with_capacity_and_hasher(
        forms.len(),
        FixedState::with_seed(0xc1a5),
    );
    let mut pairs = Vec::new();
    for (index, form) in forms.iter().enumerate() {
        let &mut earlier = first_of_class.entry(*form).or_insert(index);
        if earlier != index && grids[earlier] != grids[index] {
            pairs.push((index, earlier));
        }
    }
    pairs
}

/// Adds to `report` (of a check of the grids of `text`) every grid equivalent to an earlier one but
/// not equal to it, as `grid K: equivalent to grid J (line L)`. With `puzzles` (the text and name of
/// the file of the puzzles that `text` solves), the puzzles are compared instead, and reported at
/// their solutions. A text that does not parse was reported by the check already and adds nothing.
pub fn check_classes(report: &mut Report, text: &[u8], puzzles: Option<(&[u8], &str)>) {
    let Ok(grids) = parse_puzzles(text) else {
        return;
    };
    let (compared, puzzle_file) = match puzzles {
        Some((puzzle_text, name)) => match parse_puzzles(puzzle_text) {
            Ok(puzzles) => (puzzles, Some(name)),
            Err(_) => return,
        },
        None => (grids.clone(), None),
    };
    for (later, earlier) in equivalent_pairs(&compared.grids) {
        let message = match puzzle_file {
            Some(name) => format!(
                "its puzzle is equivalent to puzzle {} ({name} line {})",
                earlier + 1,
                compared.lines[earlier]
            ),
            None => format!(
                "equivalent to grid {} (line {})",
                earlier + 1,
                grids.lines[earlier]
            ),
        };
        report.add(Problem {
            line: grids
                .lines
                .get(later)
                .copied()
                .unwrap_or(compared.lines[later]),
            grid: Some(later + 1),
            message,
        });
    }
}

/// The random generator of grid `index` of a request with `seed`.
fn grid_rng(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// `request.count` pairwise inequivalent complete grids (see the module comment), each with
/// `request.first` in its top-left cell if asked (a relabelling, which keeps the class).
pub fn generate_classes(request: &GridRequest) -> Vec<Grid> {
    let mut drawn: Vec<(Grid, Grid, Xoshiro256PlusPlus)> = (0..request.count)
        .into_par_iter()
        .map_init(Solver::new, |solver, k| {
            let mut rng = grid_rng(request.seed, k as u64);
            let grid = random_grid(&mut rng, solver);
            (grid, canonical_form(&grid), rng)
        })
        .collect();
    let mut seen = HashSet::with_capacity_and_hasher(drawn.len(), FixedState::with_seed(0xc1a5));
    let mut solver = Solver::new();
    for (grid, form, rng) in &mut drawn {
        while !seen.insert(*form) {
            *grid = random_grid(rng, &mut solver);
            *form = canonical_form(grid);
        }
    }
    drawn
        .into_iter()
        .map(|(grid, _, _)| match request.first {
            Some(digit) => with_first_digit(&grid, digit),
            None => grid,
        })
        .collect()
}

/// `grid` with the digit of its top-left cell and `digit` swapped everywhere.
fn with_first_digit(grid: &Grid, digit: u8) -> Grid {
    let top_left = grid.get(0);
    let cells = grid.cells().map(|d| match d {
        _ if d == top_left => digit,
        _ if d == digit => top_left,
        _ => d,
    });
    Grid::from_cells(cells).expect("a relabelling keeps digits")
}

/// [`generate_classes`] rendered in `format`, exactly as `-c` lays out its grids.
pub fn render_classes(request: &GridRequest, format: Format) -> Vec<u8> {
    render(&generate_classes(request), format, b'0')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::Transformation;

    #[test]
    fn classes_are_distinct_valid_and_reproducible() {
        let request = GridRequest {
            count: 300,
            seed: 11,
            first: Some(4),
        };
        let grids = generate_classes(&request);
        assert_eq!(grids.len(), 300);
        assert!(
            grids
                .iter()
                .all(|g| g.is_filled() && g.first_repeat().is_none() && g.get(0) == 4)
        );
        assert!(equivalent_pairs(&grids).is_empty());
        let forms: HashSet<Grid> = canonical_forms(&grids).into_iter().collect();
        assert_eq!(forms.len(), 300);
        assert_eq!(generate_classes(&request), grids);
    }

    #[test]
    fn a_moved_copy_is_paired_with_its_original() {
        let request = GridRequest {
            count: 10,
            seed: 2,
            first: None,
        };
        let mut grids = generate_classes(&request);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let moved = Transformation::random(&mut rng).apply(&grids[3]);
        grids.push(moved);
        grids.push(grids[5]);
        assert_eq!(equivalent_pairs(&grids), vec![(10, 3)]);
    }
}
