//! Any bytes given to the puzzle parser: no panic, the same result with CRLF line ends, and every
//! puzzle it returns is solved or reported without panicking either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_gen::text::parse::parse_puzzles;

fuzz_target!(|data: &[u8]| {
    // CRLF line ends are read as LF ones: the same puzzles, lines and problems either way.
    let mut crlf = Vec::with_capacity(2 * data.len());
    for &b in data {
        if b == b'\n' {
            crlf.push(b'\r');
        }
        crlf.push(b);
    }
    let parsed = parse_puzzles(data);
    assert_eq!(parsed, parse_puzzles(&crlf));
    match parsed {
        Ok(puzzles) => {
            assert_eq!(puzzles.grids.len(), puzzles.lines.len());
            let mut solver = sudoku_gen::Solver::new();
            for grid in puzzles.grids.iter().take(4) {
                let outcome = solver.search(grid, 2);
                if let Some(solution) = outcome.first_solution {
                    assert!(solution.is_filled() && solution.keeps_givens_of(grid));
                }
            }
        }
        Err(errors) => assert!(
            !errors.listed().is_empty()
                && errors.count() >= errors.listed().len()
                && errors.listed().iter().all(|e| e.line >= 1 && e.column >= 1)
        ),
    }
});
