//! How a search spends its effort: how much each node reasons, and how it chooses its guess.

/// How much a search reasons between guesses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Reasoning {
    /// Bands and stacks (columns): the fewest guesses, what hard and unique puzzles need.
    Full,
    /// Bands only: cheaper nodes, for puzzles with many solutions of which any will do.
    Bands,
}

/// How a search spends its effort.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Plan {
    /// Full reasoning at every node and the cell of the best score: the fewest guesses, so that
    /// their count is a measure of the puzzle (ratings, hard puzzles, digging's limits).
    Measured,
    /// Bands only and the first cell with two candidates: where any of many solutions will do.
    Loose,
    /// `Loose` for the first [`QUICK_GUESSES`] guesses, then `Measured`. A puzzle with many
    /// solutions is mostly solved within them, and there scoring cells and reasoning on stacks
    /// cost more than the guesses they save; a hard puzzle goes past them and is searched with
    /// the fewest guesses from there. The givens themselves are reasoned on fully, since most
    /// puzzles that need no guess need the stacks' hidden singles.
    Quick,
}

/// How many guesses a [`Plan::Quick`] search makes loosely.
const QUICK_GUESSES: usize = 8;

impl Plan {
    /// The reasoning of a node, and that of its guess, after `guesses` guesses.
    #[inline(always)]
    pub(super) fn at(self, guesses: usize) -> (Reasoning, Reasoning) {
        match self {
            Plan::Measured => (Reasoning::Full, Reasoning::Full),
            Plan::Loose => (Reasoning::Bands, Reasoning::Bands),
            Plan::Quick if guesses == 0 => (Reasoning::Full, Reasoning::Bands),
            Plan::Quick if guesses < QUICK_GUESSES => (Reasoning::Bands, Reasoning::Bands),
            Plan::Quick => (Reasoning::Full, Reasoning::Full),
        }
    }
}
