//! Invariants over random requests, checked by the tests' own checker.

use crate::common::{assert_valid_distinct, parse_grids};
use proptest::prelude::*;
use sudoku_gen::{Format, GridRequest, Shard, render_grids};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn grids_are_valid_distinct_and_counted(
        count in 1usize..3000,
        seed in any::<u64>(),
        first in proptest::option::of(1u8..=9),
        line in any::<bool>(),
    ) {
        let format = if line { Format::Line } else { Format::Grid };
        let text = render_grids(&GridRequest { count, seed, first, shard: None }, format).unwrap();
        prop_assert_eq!(text.len(), format.output_len(count));
        let grids = parse_grids(&text, line);
        assert_valid_distinct(&grids, count);
        if let Some(d) = first {
            prop_assert!(grids.iter().all(|g| g[0] == d));
        }
    }

    #[test]
    fn two_shards_are_valid_and_share_no_grid(
        count in 1usize..1500,
        seed in any::<u64>(),
        shards in 2usize..=sudoku_gen::model::shard::MAX_SHARDS,
        pick in any::<(prop::sample::Index, prop::sample::Index)>(),
        first in proptest::option::of(1u8..=9),
    ) {
        let (a, b) = (pick.0.index(shards) + 1, pick.1.index(shards - 1) + 1);
        let b = if b >= a { b + 1 } else { b };
        let mut all = std::collections::HashSet::new();
        for index in [a, b] {
            let shard = Shard::new(index, shards).ok();
            let request = GridRequest { count, seed, first, shard };
            let text = render_grids(&request, Format::Line).unwrap();
            let grids = parse_grids(&text, true);
            assert_valid_distinct(&grids, count);
            prop_assert!(grids.into_iter().all(|g| all.insert(g)), "shards {a} and {b} of {shards}");
        }
    }
}

/// Counts the completions of `grid` up to `limit` by trying every digit in every empty cell in turn:
/// slow, obvious and independent of the crate's solver.
fn brute_force_count(grid: &mut [u8; 81], limit: usize) -> usize {
    let Some(cell) = grid.iter().position(|&v| v == 0) else {
        return 1;
    };
    let (row, column) = (cell / 9, cell % 9);
    let mut count = 0;
    for digit in 1..=9u8 {
        let clash = (0..9).any(|i| {
            grid[9 * row + i] == digit
                || grid[9 * i + column] == digit
                || grid[9 * (3 * (row / 3) + i / 3) + 3 * (column / 3) + i % 3] == digit
        });
        if !clash {
            grid[cell] = digit;
            count += brute_force_count(grid, limit - count);
            grid[cell] = 0;
            if count >= limit {
                break;
            }
        }
    }
    count
}

/// A complete grid from the generator with the cells of `blanks` emptied.
fn blanked(seed: u64, blanks: &[usize]) -> sudoku_gen::Grid {
    let mut grid = sudoku_gen::generate_grids(&GridRequest {
        count: 1,
        seed,
        first: None,
        shard: None,
    })
    .unwrap()[0];
    for &cell in blanks {
        grid.set(cell, 0);
    }
    grid
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn solutions_keep_the_givens(seed in any::<u64>(), blanks in proptest::collection::vec(0usize..81, 0..81)) {
        let puzzle = blanked(seed, &blanks);
        let solution = sudoku_gen::solve(&puzzle).expect("a blanked grid has a solution");
        prop_assert!(crate::common::is_valid_complete(solution.cells()));
        prop_assert!(solution.keeps_givens_of(&puzzle));
    }

    #[test]
    fn counts_agree_with_brute_force(seed in any::<u64>(), blanks in proptest::collection::vec(0usize..81, 0..40)) {
        let puzzle = blanked(seed, &blanks);
        let mut cells = *puzzle.cells();
        prop_assert_eq!(sudoku_gen::count_solutions(&puzzle, 5), brute_force_count(&mut cells, 5));
    }

    #[test]
    fn broken_givens_have_no_solution(seed in any::<u64>(), blanks in proptest::collection::vec(0usize..81, 0..60), cell in 0usize..81) {
        let mut puzzle = blanked(seed, &blanks);
        let digit = puzzle.get(cell);
        // Copy a given onto a peer in the same row: now a digit repeats.
        let peer = 9 * (cell / 9) + (cell % 9 + 1) % 9;
        if digit != 0 {
            puzzle.set(peer, digit);
            prop_assert_eq!(sudoku_gen::count_solutions(&puzzle, 2), 0);
            prop_assert!(sudoku_gen::solve(&puzzle).is_none());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The generic engine, given the standard shape, agrees with the 9×9 fast path: the same
    /// number of solutions (up to 3) and, for a unique puzzle, the same solution.
    #[test]
    fn the_generic_engine_agrees_with_the_fast_path_on_9x9(
        seed in any::<u64>(),
        blanks in 20usize..75,
        order in any::<u64>(),
    ) {
        use sudoku_gen::engine::generic::solve::Solver;
        use sudoku_gen::model::shape::Shape;
        use sudoku_gen::model::symbols::Symbols;
        use sudoku_gen::{Grid, count_solutions, solve};
        let grid = sudoku_gen::generate_grids(&GridRequest { count: 1, seed, first: None, shard: None }).unwrap()[0];
        let mut cells = *grid.cells();
        // Blank `blanks` cells in an order drawn from `order` (a stride coprime with 81).
        let stride = [2, 4, 5, 7, 8, 10, 11, 13][(order % 8) as usize];
        for k in 0..blanks {
            cells[(k * stride + (order as usize / 8) % 81) % 81] = 0;
        }
        let puzzle = Grid::from_cells(cells).unwrap();
        let shape = Shape::boxed(9, None, false, Symbols::default_for(9)).unwrap();
        let mut solution = vec![0; 81];
        let generic = Solver::new(&shape).count(&cells, 3, &mut solution);
        prop_assert_eq!(generic, count_solutions(&puzzle, 3));
        if generic == 1 {
            let fast = solve(&puzzle).unwrap();
            prop_assert_eq!(&solution[..], &fast.cells()[..]);
        }
    }
}
