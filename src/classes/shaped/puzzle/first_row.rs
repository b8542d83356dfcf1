//! The given counts a first row may have: which rows can come first.

use super::{PuzzleSearch, givens};
use crate::classes::shaped::Frame;

/// The given counts of a row whose givens are `mask` (bit per column), per stack, fewest first.
pub(super) fn profile_of(frame: &Frame, mask: u32) -> Vec<u8> {
    let mut counts: Vec<u8> = (0..frame.n / frame.stack)
        .map(|s| givens(frame, mask, s))
        .collect();
    counts.sort_unstable();
    counts
}

impl PuzzleSearch {
    /// Every row's given counts, per output stack, fewest first (of the transposed grid too where
    /// it may be read so). The least of them starts the smallest line unless a row holds a symbol
    /// twice (no valid puzzle does): its repeated labels may then read below the new labels of a
    /// row with fewer givens, so each is searched in turn.
    pub(super) fn first_row_profiles(&self) -> Vec<Vec<u8>> {
        let mut profiles: Vec<Vec<u8>> = self.given[..self.frame.views()]
            .iter()
            .flatten()
            .map(|&mask| profile_of(&self.frame, mask))
            .collect();
        profiles.sort_unstable();
        profiles.dedup();
        profiles
    }

    /// Whether a row of a view searched holds a symbol twice (see [`PuzzleSearch::first_row_profiles`]).
    pub(super) fn rows_repeat(&self) -> bool {
        self.repeated[..self.frame.views()]
            .iter()
            .flatten()
            .any(|&mask| mask != 0)
    }
}
