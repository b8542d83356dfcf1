use super::*;
use crate::model::symbols::Symbols;

#[test]
fn transpose_reads_a_bit_matrix_the_other_way() {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut rows = [0u32; 32];
    for row in &mut rows {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        *row = state as u32;
    }
    for size in [4, 6, 9, 16, 25, 32] {
        let mut square = rows;
        for (r, row) in square.iter_mut().enumerate() {
            *row = if r < size {
                *row & (u32::MAX >> (32 - size))
            } else {
                0
            };
        }
        let mut turned = square;
        transpose(&mut turned, size);
        for (r, row) in square.iter().enumerate() {
            for (c, column) in turned.iter().enumerate() {
                assert_eq!(column >> r & 1, row >> c & 1, "{size}: {r} {c}");
            }
        }
    }
}

/// Counts solutions by trying every value in every blank, in order: the plain twin of the search.
fn brute_force(shape: &Shape, grid: &mut Vec<u8>, limit: usize) -> usize {
    let Some(cell) = grid.iter().position(|&v| v == 0) else {
        return 1;
    };
    let mut count = 0;
    for value in 1..=shape.size() as u8 {
        if shape
            .peers(cell)
            .iter()
            .all(|&p| grid[usize::from(p)] != value)
        {
            grid[cell] = value;
            count += brute_force(shape, grid, limit - count);
            grid[cell] = 0;
            if count >= limit {
                break;
            }
        }
    }
    count
}

#[test]
fn every_4x4_grid_is_found() {
    let shape = Shape::boxed(4, None, false, Symbols::default_for(4)).unwrap();
    let mut solver = Solver::new(&shape);
    let mut solution = vec![0; 16];
    assert_eq!(solver.count(&[0; 16], usize::MAX, &mut solution), 288);
    assert!(shape.first_repeat(&solution).is_none() && !solution.contains(&0));
}

#[test]
fn counts_agree_with_brute_force_on_small_shapes() {
    let shapes = [
        Shape::boxed(4, None, true, Symbols::default_for(4)).unwrap(),
        Shape::boxed(6, None, false, Symbols::default_for(6)).unwrap(),
        Shape::boxed(6, Some((3, 2)), false, Symbols::default_for(6)).unwrap(),
    ];
    for shape in &shapes {
        let mut solver = Solver::new(shape);
        let cells = shape.cells();
        // Puzzles: a solution with a growing number of cells blanked, in a fixed scattered order.
        let mut grid = vec![0; cells];
        solver.count(&vec![0; cells], 1, &mut grid);
        for blanks in [0, cells / 3, cells / 2, 2 * cells / 3, cells - 4] {
            let mut puzzle = grid.clone();
            for k in 0..blanks {
                puzzle[k * 7 % cells] = 0;
            }
            let mut out = vec![0; cells];
            let fast = solver.count(&puzzle, 50, &mut out);
            assert_eq!(fast, brute_force(shape, &mut puzzle.clone(), 50));
            assert!(out.iter().zip(&puzzle).all(|(&o, &p)| p == 0 || o == p));
        }
    }
}

#[test]
fn contradictions_have_no_solution() {
    let shape = Shape::boxed(4, None, false, Symbols::default_for(4)).unwrap();
    let mut solver = Solver::new(&shape);
    let mut out = vec![0; 16];
    let mut puzzle = vec![0; 16];
    puzzle[0] = 1;
    puzzle[3] = 1;
    assert_eq!(solver.count(&puzzle, 2, &mut out), 0);
    // A jigsaw layout that no grid fills.
    let layout = Shape::jigsaw(b"aaabcabbccbdcddd", None, false, None).unwrap();
    assert_eq!(Solver::new(&layout).count(&[0; 16], 1, &mut [0; 16]), 0);
}

#[test]
fn a_first_solution_is_given_whenever_one_is_written() {
    // Hard unique puzzles, at budgets from too few guesses to plenty: a count to two that runs
    // out after its first solution has solved the puzzle, and says so.
    let shape = Shape::boxed(9, None, false, Symbols::default_for(9)).unwrap();
    let mut solver = Solver::new(&shape);
    let text = include_str!("../../../../tests/data/sample_forum_hardest.txt");
    let (mut solved, mut undecided) = (0, 0);
    for line in text.lines().take(8) {
        let puzzle = crate::model::symbols::digit_values(line);
        let mut guesses = 8;
        while guesses < 50_000 {
            let mut solution = puzzle.clone();
            match solver.first_within(&puzzle, &mut solution, guesses) {
                Some(1) => {
                    solved += 1;
                    assert!(!solution.contains(&0) && shape.first_repeat(&solution).is_none());
                    assert!(
                        solution
                            .iter()
                            .zip(&puzzle)
                            .all(|(&s, &p)| p == 0 || s == p)
                    );
                }
                None => {
                    undecided += 1;
                    assert_eq!(solution, puzzle, "{line} at {guesses} guesses");
                }
                other => panic!("{line}: {other:?}"),
            }
            guesses += guesses / 2;
        }
    }
    assert!(solved > 0 && undecided > 0, "{solved} {undecided}");
}
