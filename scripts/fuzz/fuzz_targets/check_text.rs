//! Any bytes given to the grader, as a grid file and as solutions of themselves: no panic, and the
//! report is consistent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_gen::check::{GridRules, check_grids, check_solutions};
use sudoku_gen::problems::LISTED;

fuzz_target!(|data: &[u8]| {
    let report = check_grids(
        data,
        GridRules {
            count: Some(2),
            first: Some(5),
        },
    );
    assert!(
        report.problems.listed().len() <= LISTED
            && report.problems.listed().len() <= report.problems.count()
    );
    assert!(
        report
            .problems
            .listed()
            .windows(2)
            .all(|w| w[0].line <= w[1].line)
    );
    if let Ok(report) = check_solutions(data, data, GridRules::default()) {
        assert!(report.problems.listed().len() <= report.problems.count());
    }
});
