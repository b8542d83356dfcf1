//! What a search keeps of the smallest line it has found: the line, and the arrangement that gives
//! it.

use crate::classes::canon::Transformation;
use crate::model::grid::{CELLS, Grid};

/// The best line so far, the arrangement that gives it, and how many times it was improved (a
/// branch whose prefix was below the best one is level with it once a line inside it is taken).
/// The arrangement is kept as parts and made a [`Transformation`] only when asked for: the form
/// itself is the line.
pub(super) struct Best {
    pub(super) line: [u8; CELLS],
    pub(super) found: bool,
    pub(super) improvements: u32,
    transpose: bool,
    rows: [u8; 9],
    columns: [u8; 9],
    /// The label of each digit, 0 for digits that do not occur.
    labels: [u8; 10],
    /// Per row of the line, its positions (bit per position) that read a label, not a blank.
    pub(super) given_positions: [u16; 9],
}

impl Best {
    pub(super) fn new() -> Best {
        Best {
            line: [0; CELLS],
            found: false,
            improvements: 0,
            transpose: false,
            rows: [0; 9],
            columns: [0; 9],
            labels: [0; 10],
            given_positions: [0; 9],
        }
    }

    /// Records `line` as the best, reached by the arrangement given; `labels[d]` is the label of
    /// digit `d` (0 for digits that do not occur).
    pub(super) fn take(
        &mut self,
        line: &[u8; CELLS],
        transpose: bool,
        rows: [u8; 9],
        columns: [u8; 9],
        labels: &[u8; 10],
    ) {
        self.line = *line;
        self.found = true;
        self.improvements += 1;
        self.transpose = transpose;
        self.rows = rows;
        self.columns = columns;
        self.labels = *labels;
        for (mask, cells) in self.given_positions.iter_mut().zip(line.chunks_exact(9)) {
            *mask = (0..9)
                .filter(|&j| cells[j] != 0)
                .fold(0, |mask, j| mask | 1 << j);
        }
    }

    /// The best line as a grid.
    pub(super) fn form(&self) -> Grid {
        Grid::from_cells(self.line).expect("labels are digits")
    }

    /// The transformation that gives the best line; digits that do not occur take the labels
    /// left, in order.
    pub(super) fn transformation(&self) -> Transformation {
        if !self.found {
            return Transformation::IDENTITY;
        }
        let labels = &self.labels;
        let mut digits = [0; 9];
        let mut next = 1 + labels.iter().filter(|&&l| l != 0).count() as u8;
        for (d, to) in digits.iter_mut().enumerate() {
            *to = if labels[d + 1] != 0 {
                labels[d + 1]
            } else {
                next += 1;
                next - 1
            };
        }
        Transformation::new(self.transpose, self.rows, self.columns, digits)
            .expect("a valid arrangement")
    }
}
