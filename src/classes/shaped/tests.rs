use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use super::*;
use crate::engine::generic::solve::Solver;
use crate::model::symbols::Symbols;

fn boxed(n: usize, split: (usize, usize), diagonal: bool) -> Shape {
    Shape::boxed(n, Some(split), diagonal, Symbols::default_for(n)).unwrap()
}

fn jigsaw(layout: &str) -> Shape {
    Shape::jigsaw(layout.as_bytes(), None, false, None).unwrap()
}

/// A random complete grid of `shape`.
fn grid(shape: &Shape, seed: u64) -> Vec<u8> {
    let mut solver = Solver::new(shape);
    let mut grid = vec![0; shape.cells()];
    let empty = vec![0; shape.cells()];
    assert_eq!(
        solver.random_solution(&empty, seed, &mut grid, usize::MAX),
        Some(true)
    );
    grid
}

/// `cells` with each cell blanked with probability `blank`.
fn holes(cells: &[u8], blank: f64, rng: &mut Xoshiro256PlusPlus) -> Vec<u8> {
    cells
        .iter()
        .map(|&v| if rng.random_bool(blank) { 0 } else { v })
        .collect()
}

/// Grids, puzzles of several densities, and cells of no grid, of `shape`.
fn samples(shape: &Shape, count: u64) -> Vec<Vec<u8>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(count);
    let n = shape.size();
    let mut all = Vec::new();
    for seed in 0..count {
        let g = grid(shape, seed);
        for blank in [0.2, 0.5, 0.8, 0.95] {
            all.push(holes(&g, blank, &mut rng));
        }
        let garbage: Vec<u8> = (0..shape.cells())
            .map(|_| rng.random_range(0..=n as u8))
            .collect();
        all.push(garbage);
        all.push(g);
    }
    all.push(vec![0; shape.cells()]);
    all
}

/// Every search agrees with the brute force over `group`, and equivalents share their form.
fn agrees(shape: &Shape, group: &[Arrangement], count: u64) {
    let canon = Canon::new(shape);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for cells in samples(shape, count) {
        let form = canon.form(&cells);
        assert_eq!(form, brute::smallest(group, &cells), "{cells:?}");
        let moved = canon.shuffle(&cells, &mut rng);
        assert_eq!(canon.form(&moved), form, "{cells:?} moved to {moved:?}");
    }
}

fn sorted(mut group: Vec<Arrangement>) -> Vec<(bool, Vec<u8>, Vec<u8>)> {
    let mut all: Vec<_> = group
        .drain(..)
        .map(|a| (a.transpose, a.rows, a.columns))
        .collect();
    all.sort();
    all
}

#[test]
fn the_boxed_groups_are_every_arrangement_that_keeps_the_houses() {
    for (n, split, size) in [(4, (2, 2), 2 * 8 * 8), (6, (2, 3), 48 * 72)] {
        let group = brute::group(&boxed(n, split, false));
        assert_eq!(group.len(), size, "{n}");
    }
}

#[test]
fn the_diagonal_groups_are_every_arrangement_that_keeps_the_houses() {
    for (n, split) in [(4, (2, 2)), (6, (2, 3)), (6, (3, 2))] {
        let shape = boxed(n, split, true);
        let group = listed::Diagonal::new(n, split.0, split.1);
        let transposes = if split.0 == split.1 { 4 } else { 2 };
        let listed: Vec<Arrangement> = (0..4 * group.len())
            .filter(|i| transposes == 4 || i & 2 == 0)
            .map(|i| group.arrangement(i))
            .collect();
        assert_eq!(
            sorted(listed),
            sorted(brute::group(&shape)),
            "{n} {split:?}"
        );
    }
    assert_eq!(listed::Diagonal::new(9, 3, 3).len() * 4, 96);
    assert_eq!(listed::Diagonal::new(16, 4, 4).len() * 4, 18_432);
}

#[test]
fn every_4x4_blank_pattern_takes_the_smallest_line() {
    let shape = boxed(4, (2, 2), false);
    let group = brute::group(&shape);
    let canon = Canon::new(&shape);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    for pattern in 0..1u32 << 16 {
        // Every pattern of givens, of a grid drawn from the pattern.
        let g = grid(&shape, u64::from(pattern % 61));
        let puzzle: Vec<u8> = (0..16).map(|k| (pattern >> k & 1) as u8 * g[k]).collect();
        if pattern % 7 == 0 {
            assert_eq!(
                canon.form(&puzzle),
                brute::smallest(&group, &puzzle),
                "{puzzle:?}"
            );
            let moved = canon.shuffle(&puzzle, &mut rng);
            assert_eq!(canon.form(&moved), canon.form(&puzzle));
        }
    }
    // Shidoku has two classes of grids.
    let forms: std::collections::HashSet<Vec<u8>> = (0..200)
        .map(|seed| canon.form(&grid(&shape, seed)))
        .collect();
    assert_eq!(forms.len(), 2);
}

#[test]
fn boxed_searches_take_the_smallest_line() {
    agrees(
        &boxed(6, (2, 3), false),
        &brute::group(&boxed(6, (2, 3), false)),
        12,
    );
    agrees(
        &boxed(6, (3, 2), false),
        &brute::group(&boxed(6, (3, 2), false)),
        6,
    );
}

#[test]
fn diagonal_searches_take_the_smallest_line() {
    for (n, split) in [(4, (2, 2)), (6, (2, 3))] {
        let shape = boxed(n, split, true);
        agrees(&shape, &brute::group(&shape), 8);
    }
}

/// Layouts with symmetries (boxes written as regions, and a layout kept by a half turn), and
/// random ones, which mostly have none.
fn layouts() -> Vec<Shape> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let mut shapes = vec![
        jigsaw("aabb\naabb\nccdd\nccdd\n"),
        jigsaw("aaabbb\naaabbb\ncccddd\ncccddd\neeefff\neeefff\n"),
        jigsaw("aaab\ncabb\nccdb\ncddd\n"),
    ];
    for n in [4, 5, 6] {
        let start = Shape::jigsaw_start(n, false, Symbols::default_for(n));
        shapes.push(Shape::random_jigsaw(
            &start,
            &grid(&start, n as u64),
            &mut rng,
        ));
    }
    shapes
}

#[test]
fn jigsaw_searches_take_the_smallest_line() {
    for shape in layouts() {
        let group = brute::turns_kept(&shape);
        agrees(&shape, &group, 6);
    }
}

#[test]
fn grids_of_boxes_two_rows_high_take_the_smallest_line() {
    // The second row is laid out by the cycles of its partners' partners: the pattern grid, whose
    // every column is a fixed point, ties every layout; a random grid has cycles of all lengths.
    let shape = boxed(6, (2, 3), false);
    let canon = Canon::new(&shape);
    let group = brute::group(&shape);
    let pattern: Vec<u8> = (0..36)
        .map(|k| ((3 * (k / 6 % 2) + k / 12 + k % 6) % 6 + 1) as u8)
        .collect();
    assert_eq!(canon.form(&pattern), brute::smallest(&group, &pattern));
    for seed in 0..40 {
        let cells = grid(&shape, seed);
        assert_eq!(
            canon.form(&cells),
            brute::smallest(&group, &cells),
            "{cells:?}"
        );
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let shape = boxed(22, (2, 11), false);
    let canon = Canon::new(&shape);
    for seed in 0..3 {
        let cells = grid(&shape, seed);
        let form = canon.form(&cells);
        assert_eq!(canon.form(&canon.shuffle(&cells, &mut rng)), form);
    }
}

#[test]
fn larger_boxed_forms_are_shared_by_equivalents() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    for (n, split) in [(8, (2, 4)), (12, (3, 4)), (16, (4, 4))] {
        let shape = boxed(n, split, false);
        let canon = Canon::new(&shape);
        for cells in samples(&shape, 2) {
            let form = canon.form(&cells);
            for _ in 0..3 {
                assert_eq!(canon.form(&canon.shuffle(&cells, &mut rng)), form, "{n}");
            }
        }
    }
}

#[test]
fn a_record_turns_with_its_layout() {
    let shape = jigsaw("aaab\ncabb\nccdb\ncddd\n");
    let Regions::Jigsaw(region_of) = shape.regions() else {
        unreachable!()
    };
    let cells = grid(&shape, 1);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let form = record::form(4, region_of, &cells);
    for _ in 0..20 {
        let (layout, moved) = record::random_move(4, region_of, &mut rng);
        assert_eq!(record::form(4, &layout, &moved.apply(&cells)), form);
    }
}

#[test]
fn every_class_is_listed_on_the_small_shapes_and_refused_on_larger_ones() {
    let count =
        |shape: &Shape| super::every::every_class(shape, &Canon::new(shape)).map(|c| c.len());
    assert_eq!(count(&boxed(4, (2, 2), false)), Some(2));
    assert_eq!(count(&boxed(6, (2, 3), false)), Some(49));
    assert_eq!(count(&boxed(6, (3, 2), false)), Some(49));
    assert_eq!(count(&boxed(8, (2, 4), false)), None);
    // A jigsaw layout moves no rows alone, so its first column is not ordered.
    let shape = jigsaw("aabcdd\naabcdd\naabcdd\neebcff\neebcff\neebcff\n");
    let canon = Canon::new(&shape);
    let forms = super::every::every_class(&shape, &canon).unwrap();
    assert_eq!(forms.len(), 10436);
    for form in forms.iter().step_by(97) {
        assert!(shape.first_repeat(form).is_none());
        assert_eq!(&canon.form(form), form);
    }
}

#[test]
fn rows_and_columns_given_whole_take_the_smallest_line() {
    // The patterns that defer a later row's givens: a row blank in a complete grid (the first
    // row read is blank), columns given whole, a row and a column, and a diagonal alone; and
    // those that defer rows to groups: a row and a column, with a cell more, two rows and a
    // column, a box and a column; and those whose later rows read new labels at deferred
    // positions: boxes on the diagonal, with a cell more, a band; and blank bands or stacks that
    // read alike: a band, a stack, a box.
    for split in [(2, 3), (3, 2)] {
        let shape = boxed(6, split, false);
        let group = brute::group(&shape);
        let canon = Canon::new(&shape);
        for seed in 0..6 {
            let g = grid(&shape, seed);
            let keep = |given: &dyn Fn(usize, usize) -> bool| -> Vec<u8> {
                (0..36)
                    .map(|k| if given(k / 6, k % 6) { g[k] } else { 0 })
                    .collect()
            };
            let row = seed as usize % 6;
            for cells in [
                keep(&|r, _| r != row),
                keep(&|_, c| c == row || c == (row + 3) % 6),
                keep(&|r, c| r == row || c == (row + 1) % 6),
                keep(&|r, c| r == c),
                keep(&|r, c| r != row && c != (row + 2) % 6),
                keep(&|r, c| r == row || c == (row + 1) % 6 || (r, c) == ((row + 3) % 6, 4)),
                keep(&|r, c| r == row || r == (row + 4) % 6 || c == (row + 1) % 6),
                keep(&|r, c| (r / split.0, c / split.1) == (1, 0) || c == (row + 3) % 6),
                keep(&|r, c| r / split.0 == c / split.1),
                keep(&|r, c| r / split.0 == c / split.1 || (r, c) == (row, (row + 2) % 6)),
                keep(&|r, _| r / split.0 == row / split.0),
                keep(&|_, c| c / split.1 == row % 2),
                keep(&|r, c| (r / split.0, c / split.1) == (row / split.0, 1)),
            ] {
                assert_eq!(
                    canon.form(&cells),
                    brute::smallest(&group, &cells),
                    "{cells:?}"
                );
            }
        }
    }
}

#[test]
fn rows_deferred_to_groups_give_equivalents_one_form() {
    // Puzzles past the brute force's reach whose rows form groups: a row and a column, with a few
    // cells more, two rows and a column, a band and a column; boxes on the diagonal.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for (n, split) in [(8, (2, 4)), (8, (4, 2)), (12, (3, 4)), (16, (4, 4))] {
        let shape = boxed(n, split, false);
        let canon = Canon::new(&shape);
        for seed in 0..3 {
            let g = grid(&shape, seed);
            let (row, column) = (seed as usize % n, (seed as usize * 5 + 1) % n);
            let keep = |given: &dyn Fn(usize, usize) -> bool| -> Vec<u8> {
                (0..n * n)
                    .map(|k| if given(k / n, k % n) { g[k] } else { 0 })
                    .collect()
            };
            for cells in [
                keep(&|r, c| r == row || c == column),
                keep(&|r, c| r == row || c == column || (r * 7 + c * 3) % 29 == 0),
                keep(&|r, c| r == row || r == (row + 3) % n || c == column),
                keep(&|r, c| r / split.0 == row / split.0 || c == column),
                keep(&|r, c| r / split.0 == c / split.1),
            ] {
                let form = canon.form(&cells);
                for _ in 0..3 {
                    assert_eq!(canon.form(&canon.shuffle(&cells, &mut rng)), form, "{n}");
                }
            }
        }
    }
}

#[test]
fn blank_bands_and_stacks_give_equivalents_one_form() {
    // A band, two rows, a stack, boxes on the diagonal, a band and a stack: the other bands or
    // stacks read alike, and every order of them was tried.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for (n, split) in [(12, (2, 6)), (12, (6, 2)), (16, (2, 8)), (14, (7, 2))] {
        let shape = boxed(n, split, false);
        let canon = Canon::new(&shape);
        let g = grid(&shape, 3);
        let keep = |given: &dyn Fn(usize, usize) -> bool| -> Vec<u8> {
            (0..n * n)
                .map(|k| if given(k / n, k % n) { g[k] } else { 0 })
                .collect()
        };
        for cells in [
            keep(&|r, _| r < split.0),
            keep(&|r, _| r < 2),
            keep(&|_, c| c < split.1),
            keep(&|r, c| r / split.0 == c / split.1),
        ] {
            let form = canon.form(&cells);
            for _ in 0..3 {
                assert_eq!(canon.form(&canon.shuffle(&cells, &mut rng)), form, "{n}");
            }
        }
    }
}

#[test]
fn a_band_whose_given_rows_could_form_a_group_reads_its_blank_row_first() {
    // A group's rows seemed to start their band, so the band's blank row was never tried first.
    let shape = boxed(6, (3, 2), false);
    let canon = Canon::new(&shape);
    let s = ".....5...........2.....1............";
    let cells = crate::model::symbols::digit_values(s);
    let group = brute::group(&shape);
    assert_eq!(canon.form(&cells), brute::smallest(&group, &cells));
}

#[test]
fn grids_whose_rows_are_whole_and_boxes_are_not_take_the_smallest_line() {
    // Rows that each hold every symbol while boxes (or columns) repeat some: the complete
    // search leaned on the boxes, and wrote lines outside the class or failed.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    for (n, split) in [(4, (2, 2)), (6, (2, 3)), (6, (3, 2))] {
        let shape = boxed(n, split, false);
        let canon = Canon::new(&shape);
        let group = brute::group(&shape);
        let cyclic: Vec<u8> = (0..n * n)
            .map(|k| ((k / n + k % n) % n + 1) as u8)
            .collect();
        let same_rows: Vec<u8> = (0..n * n).map(|k| (k % n + 1) as u8).collect();
        let mut cases = vec![cyclic, same_rows];
        for _ in 0..6 {
            let mut row: Vec<u8> = (1..=n as u8).collect();
            let mut cells = Vec::new();
            for _ in 0..n {
                row.shuffle(&mut rng);
                cells.extend_from_slice(&row);
            }
            cases.push(cells);
        }
        for cells in cases {
            let form = canon.form(&cells);
            assert_eq!(form, brute::smallest(&group, &cells), "{cells:?}");
            assert_eq!(canon.form(&form), form, "{cells:?}");
        }
    }
}

/// The pattern grid of boxes of `r`×`c` cells: each row the one `r` rows above it moved one
/// column on, each row of a band the one above it moved `c` columns on. It has many symmetries.
pub(super) fn pattern(r: usize, c: usize) -> Vec<u8> {
    let n = r * c;
    (0..n * n)
        .map(|k| ((c * (k / n % r) + k / n / r + k % n) % n + 1) as u8)
        .collect()
}

#[test]
fn pattern_grids_take_the_smallest_line_through_their_symmetries() {
    // Their lines tie through every symmetry: the search leaves a branch that mirrors one it
    // has read, which must not cost it the smallest line.
    for (r, c) in [(2, 2), (2, 3), (3, 2)] {
        let shape = boxed(r * c, (r, c), false);
        let cells = pattern(r, c);
        assert_eq!(
            Canon::new(&shape).form(&cells),
            brute::smallest(&brute::group(&shape), &cells)
        );
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for (r, c) in [(3, 4), (4, 3), (4, 4), (2, 6), (6, 2), (4, 5)] {
        let shape = boxed(r * c, (r, c), false);
        let canon = Canon::new(&shape);
        let form = canon.form(&pattern(r, c));
        for _ in 0..4 {
            let moved = canon.shuffle(&pattern(r, c), &mut rng);
            assert_eq!(canon.form(&moved), form, "{r}x{c}");
        }
    }
}

#[test]
fn rows_that_repeat_a_symbol_take_the_smallest_line() {
    // A row's repeated labels may read below the new labels of a row with fewer givens: the
    // first row was taken among the rows of fewest givens alone.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    for (n, split) in [(4, (2, 2)), (6, (2, 3)), (6, (3, 2))] {
        let shape = boxed(n, split, false);
        let canon = Canon::new(&shape);
        let group = brute::group(&shape);
        for round in 0..400 {
            let most = if round % 2 == 0 { 2 } else { n as u8 };
            let cells: Vec<u8> = (0..n * n).map(|_| rng.random_range(0..=most)).collect();
            assert_eq!(
                canon.form(&cells),
                brute::smallest(&group, &cells),
                "{cells:?}"
            );
        }
    }
}
