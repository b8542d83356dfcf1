//! Both kernels against one table of puzzles whose counts an independent solver gave, and against
//! each other at 9×9.

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;

use super::*;
use crate::engine::standard::dig::{PuzzleRequest, generate_puzzles};
use crate::engine::standard::walk::{GridRequest, generate_grids};
use crate::model::symbols::Symbols;

#[test]
fn every_feature_is_in_the_table_once() {
    for (i, (feature, _)) in SUPPORT.iter().enumerate() {
        assert!(SUPPORT[i + 1..].iter().all(|(f, _)| f != feature));
    }
    assert_eq!(SUPPORT.len(), 13);
}

/// `shape:puzzle:count:solution` a line (see the file's own header).
const TABLE: &str = include_str!("../../tests/data/engine_table.txt");

/// The shape a table line names.
fn table_shape(name: &str) -> Shape {
    let (diagonal, size) = match name.strip_prefix('x') {
        Some(size) => (true, size),
        None => (false, name),
    };
    match size.parse::<usize>() {
        Ok(n) => Shape::boxed(n, None, diagonal, Symbols::default_for(n)).unwrap(),
        Err(_) => Shape::jigsaw(name.as_bytes(), None, false, None).unwrap(),
    }
}

/// A puzzle's text as cell values.
fn values(shape: &Shape, text: &str) -> Vec<u8> {
    text.bytes()
        .map(|ch| shape.symbols().value_of(ch))
        .collect()
}

#[test]
fn both_kernels_count_the_table_as_the_reference_does() {
    let mut rows = 0;
    for line in TABLE.lines().filter(|line| !line.starts_with('#')) {
        let fields: Vec<&str> = line.split(':').collect();
        let [name, puzzle, count, solution] = fields[..] else {
            panic!("a table line has four fields: {line}");
        };
        let shape = table_shape(name);
        let puzzle = values(&shape, puzzle);
        let count: usize = count.parse().unwrap();
        let mut kernels = vec![Kernel::Generic];
        if Kernel::for_shape(&shape) == Kernel::Standard {
            kernels.push(Kernel::Standard);
        }
        for kernel in kernels {
            let mut engine = kernel.engine(&shape);
            let mut found = vec![0; shape.cells()];
            let counted = engine.count(&puzzle, 2, &mut found);
            assert_eq!(counted.solutions, count, "{kernel:?} on {line}");
            if count == 1 {
                assert_eq!(found, values(&shape, solution), "{kernel:?} on {line}");
            }
            if count > 0 {
                assert!(shape.first_repeat(&found).is_none() && !found.contains(&0));
                assert!(puzzle.iter().zip(&found).all(|(&p, &s)| p == 0 || p == s));
            }
        }
        rows += 1;
    }
    assert!(rows >= 60, "the table has {rows} rows");
}

/// The standard shape as the generic kernel sees it.
fn standard_shape() -> Shape {
    Shape::boxed(9, None, false, Symbols::default_for(9)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Grids of the `-c` walk, blanked at random: both kernels count alike (up to 3), find the
    /// same solution when it is unique, and a valid one that keeps the givens otherwise.
    #[test]
    fn kernels_agree_at_9x9(seed in any::<u64>(), blanks in 20usize..81) {
        let shape = standard_shape();
        let request = GridRequest { count: 1, seed, first: None, shard: None };
        let grid = generate_grids(&request).unwrap()[0];
        let mut generic = Kernel::Generic.engine(&shape);
        prop_assert!(shape.first_repeat(grid.cells()).is_none());
        let mut cells: Vec<usize> = (0..81).collect();
        cells.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let mut puzzle = *grid.cells();
        for &cell in &cells[..blanks] {
            puzzle[cell] = 0;
        }
        let mut standard = Kernel::Standard.engine(&shape);
        let (mut a, mut b) = (vec![0; 81], vec![0; 81]);
        let counted = standard.count(&puzzle, 3, &mut a).solutions;
        prop_assert_eq!(counted, generic.count(&puzzle, 3, &mut b).solutions);
        prop_assert!(counted >= 1);
        for found in [&a, &b] {
            prop_assert!(shape.first_repeat(found).is_none() && !found.contains(&0));
            prop_assert!(puzzle.iter().zip(found).all(|(&p, &s)| p == 0 || p == s));
        }
        if counted == 1 {
            prop_assert_eq!(&a, &b);
            prop_assert_eq!(&a[..], &grid.cells()[..]);
        }
    }

    /// Puzzles of `-n` have one solution for the generic kernel too.
    #[test]
    fn puzzles_of_the_standard_kernel_are_unique_for_the_generic_one(seed in any::<u64>()) {
        let shape = standard_shape();
        let request = PuzzleRequest { count: 2, seed, ..PuzzleRequest::default() };
        let mut generic = Kernel::Generic.engine(&shape);
        for puzzle in generate_puzzles(&request, &|| {}) {
            let mut found = vec![0; 81];
            prop_assert_eq!(generic.count(puzzle.puzzle.cells(), 2, &mut found).solutions, 1);
        }
    }
}
