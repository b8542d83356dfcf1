//! What a search keeps of the smallest line it has found.

/// The best line so far, and how many times it was improved (a branch whose prefix was below the
/// best line is level with it once a line inside it is taken).
pub(super) struct Best {
    pub(super) line: Vec<u8>,
    /// How many rows of `line`, from the first, bound the search: all of them once a whole line
    /// is taken; in a search that goes row by row, those up to the row last taken.
    rows: usize,
    pub(super) improvements: u32,
    /// Per row of the line, its positions (bit per position) that read a label, not a blank.
    pub(super) given_positions: Vec<u32>,
}

impl Best {
    pub(super) fn new(n: usize) -> Best {
        Best {
            line: vec![0; n * n],
            rows: 0,
            improvements: 0,
            given_positions: vec![0; n],
        }
    }

    /// Whether row `i` of the line bounds the search.
    pub(super) fn bounds(&self, i: usize) -> bool {
        i < self.rows
    }

    /// Records `line` as the best.
    pub(super) fn take(&mut self, line: &[u8]) {
        let n = self.given_positions.len();
        self.line.copy_from_slice(line);
        self.rows = n;
        self.improvements += 1;
        for (mask, cells) in self.given_positions.iter_mut().zip(line.chunks_exact(n)) {
            *mask = labelled_positions(cells);
        }
    }

    /// Records `cells` as row `i` of the best line, the rows before it staying: the rows after it
    /// no longer bound the search.
    pub(super) fn take_row(&mut self, i: usize, cells: &[u8]) {
        let n = self.given_positions.len();
        self.line[i * n..(i + 1) * n].copy_from_slice(cells);
        self.rows = i + 1;
        self.improvements += 1;
        self.given_positions[i] = labelled_positions(cells);
    }
}

/// The positions (bit per position) of a row's `cells` that read a label, not a blank.
pub(super) fn labelled_positions(cells: &[u8]) -> u32 {
    (0..cells.len())
        .filter(|&j| cells[j] != 0)
        .fold(0, |mask, j| mask | 1 << j)
}
