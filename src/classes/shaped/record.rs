//! `LAYOUT PUZZLE` records: a jigsaw puzzle that carries its layout turns with it.
//!
//! Two such records are equivalent when a turn or reflection of the square, applied to both the
//! layout and the puzzle, and a relabelling map one onto the other. A record's form is the smallest
//! of its 8 turned pairs, compared layout first (as the characters of its line): each turned
//! layout has its regions renamed `a`, `b`, ... in order of first appearance, each turned puzzle
//! its symbols numbered in order of first appearance. Under a turn that maps the layout onto
//! itself the layouts tie and the puzzles decide, as [`super::Canon`] decides them for a fixed
//! layout.

use rand::{Rng, RngExt};

use super::listed::turns;
use super::{Move, first_appearance};
use crate::model::layout::renumbered;

/// The form of the record of layout `region_of` (region of each cell) and `cells`: the smallest
/// pair `(layout, puzzle)` of its 8 turns, both renumbered in order of first appearance.
pub(crate) fn form(n: usize, region_of: &[u8], cells: &[u8]) -> (Vec<u8>, Vec<u8>) {
    turns(n)
        .iter()
        .map(|turn| {
            (
                renumbered(&turn.apply(region_of)),
                first_appearance(&turn.apply(cells)),
            )
        })
        .min()
        .expect("8 turns")
}

/// A random move of the record: a random turn of both, then a random relabelling; and the turned
/// layout, its regions renamed in order of first appearance.
pub(crate) fn random_move<R: Rng + ?Sized>(
    n: usize,
    region_of: &[u8],
    rng: &mut R,
) -> (Vec<u8>, Move) {
    let turn = turns(n).swap_remove(rng.random_range(0..8));
    let layout = renumbered(&turn.apply(region_of));
    (layout, Move::relabelling(turn, n, rng))
}
