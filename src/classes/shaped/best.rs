//! What a search keeps of the smallest line it has found.

/// The best line so far, and how many times it was improved (a branch whose prefix was below the
/// best line is level with it once a line inside it is taken).
pub(super) struct Best {
    pub(super) line: Vec<u8>,
    pub(super) found: bool,
    pub(super) improvements: u32,
    /// Per row of the line, its positions (bit per position) that read a label, not a blank.
    pub(super) given_positions: Vec<u32>,
}

impl Best {
    pub(super) fn new(n: usize) -> Best {
        Best {
            line: vec![0; n * n],
            found: false,
            improvements: 0,
            given_positions: vec![0; n],
        }
    }

    /// Records `line` as the best.
    pub(super) fn take(&mut self, line: &[u8]) {
        let n = self.given_positions.len();
        self.line.copy_from_slice(line);
        self.found = true;
        self.improvements += 1;
        for (mask, cells) in self.given_positions.iter_mut().zip(line.chunks_exact(n)) {
            *mask = (0..n)
                .filter(|&j| cells[j] != 0)
                .fold(0, |mask, j| mask | 1 << j);
        }
    }
}
