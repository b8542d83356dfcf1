//! `--check --classes` for other shapes: every record equivalent to an earlier one, and not equal
//! to it (a plain repeat, reported as such), found as the records come, a piece at a time.

use std::collections::HashMap;

use super::bulk::{Canons, classes};
use crate::text::shaped::ShapedPuzzles;

/// The first record met of each class, by its canonical form.
#[derive(Default)]
pub struct ClassIndex {
    canons: Canons,
    first: HashMap<Vec<u8>, First>,
    met: usize,
}

/// A class's first record: its number (from 0), its line, and what it is (layout and cells).
struct First {
    index: usize,
    line: usize,
    record: Vec<u8>,
}

/// A record equivalent to an earlier one: the number (from 0) and line of the earlier one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Earlier {
    /// Its number in the input, from 0.
    pub index: usize,
    /// Its line.
    pub line: usize,
}

impl ClassIndex {
    /// The classes of every record of `puzzles`, a piece of an input, in order.
    pub fn classes_of(&mut self, puzzles: &ShapedPuzzles) -> Vec<Vec<u8>> {
        classes(puzzles, &mut self.canons)
    }

    /// Takes record `index` of `puzzles`, whose class is `class` (see [`ClassIndex::classes_of`]):
    /// its number in the input (from 0) and the earlier record of its class, when there is one
    /// and it is not equal to this one.
    pub fn meet(
        &mut self,
        puzzles: &ShapedPuzzles,
        index: usize,
        class: Vec<u8>,
    ) -> Option<(usize, Earlier)> {
        let shape = puzzles.shape(index);
        let record = [
            shape.layout_text().unwrap_or_default(),
            puzzles.puzzle(index).to_vec(),
        ]
        .concat();
        let met = self.met;
        self.met += 1;
        match self.first.get(&class) {
            Some(first) if first.record != record => Some((
                met,
                Earlier {
                    index: first.index,
                    line: first.line,
                },
            )),
            Some(_) => None,
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
