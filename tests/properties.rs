//! Invariants over random requests, checked by the tests' own checker.

mod common;

use common::{assert_valid_distinct, parse_grids};
use proptest::prelude::*;
use sudoku_gen::{Format, GridRequest, render_grids};

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
        let text = render_grids(&GridRequest { count, seed, first }, format);
        prop_assert_eq!(text.len(), format.output_len(count));
        let grids = parse_grids(&text, line);
        assert_valid_distinct(&grids, count);
        if let Some(d) = first {
            prop_assert!(grids.iter().all(|g| g[0] == d));
        }
    }
}
