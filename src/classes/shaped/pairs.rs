//! `--check --classes` for other shapes: every record equivalent to an earlier one, found as the
//! records come, a piece at a time.

use std::collections::HashMap;

use super::bulk::{Canons, classes};
use crate::model::shape::Regions;
use crate::text::shaped::ShapedPuzzles;

/// The first record met of each class, by its canonical form.
#[derive(Default)]
pub struct ClassIndex {
    canons: Canons,
    first: HashMap<Vec<u8>, First>,
    met: usize,
}

/// A class's first record: its number (from 0), its line, and what it is (the region of each cell
/// of a jigsaw shape, then the cells).
struct First {
    index: usize,
    line: usize,
    record: Vec<u8>,
}

/// A record equivalent to an earlier one: the number (from 0) and line of the earlier one, and
/// whether the two are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Earlier {
    /// Its number in the input, from 0.
    pub index: usize,
    /// Its line.
    pub line: usize,
    /// Whether it is this record again: of grids, a plain repeat, which the check of repeats
    /// reports; of puzzles, a problem of the classes.
    pub equal: bool,
}

impl ClassIndex {
    /// The classes of every record of `puzzles`, a piece of an input, in order.
    pub fn classes_of(&mut self, puzzles: &ShapedPuzzles) -> Vec<Vec<u8>> {
        classes(puzzles, &mut self.canons)
    }

    /// Takes record `index` of `puzzles`, whose class is `class` (see [`ClassIndex::classes_of`]):
    /// its number in the input (from 0) and the earlier record of its class, when there is one.
    pub fn meet(
        &mut self,
        puzzles: &ShapedPuzzles,
        index: usize,
        class: Vec<u8>,
    ) -> Option<(usize, Earlier)> {
        let shape = puzzles.shape(index);
        // By its regions, not the characters that name them, so that a record whose layout names
        // them otherwise is a repeat.
        let regions = match shape.regions() {
            Regions::Jigsaw(region_of) => &region_of[..],
            Regions::Boxes { .. } => &[],
        };
        let record = [regions, puzzles.puzzle(index)].concat();
        let met = self.met;
        self.met += 1;
        match self.first.get(&class) {
            Some(first) => Some((
                met,
                Earlier {
                    index: first.index,
                    line: first.line,
                    equal: first.record == record,
                },
            )),
            None => {
                let line = puzzles.lines[index];
                self.first.insert(
                    class,
                    First {
                        index: met,
                        line,
                        record,
                    },
                );
                None
            }
        }
    }
}
