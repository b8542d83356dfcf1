//! How a search spends its effort: how much each node reasons, and how it chooses its guess.

/// How much a search reasons between guesses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Reasoning {
    /// Bands and stacks (columns): the fewest guesses, what hard and unique puzzles need.
    Full,
    /// Bands only: cheaper nodes, for puzzles with many solutions of which any will do.
    Bands,
}

/// How a node chooses the cell it guesses on (see `guess`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Choice {
    /// The first cell with two candidates, its smallest digit first.
    First,
    /// The cell of the best score among the first `among` cells with two candidates.
    Scored { among: usize },
}

/// How a search spends its effort.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Plan {
    /// Full reasoning at every node and the cell of the best score: the fewest guesses, so that
    /// their count is a measure of the puzzle (ratings, hard puzzles, digging's limits).
    Measured,
    /// Bands only and the first cell with two candidates: where any of many solutions will do.
    Loose,
    /// `Measured` at the givens, then for the next [`QUICK_GUESSES`] guesses bands only and the
    /// best of the first [`QUICK_AMONG`] cells with two candidates, then `Measured` again. A
    /// puzzle with many solutions is mostly solved within those guesses, where reasoning on
    /// stacks and scoring every cell cost more than the guesses they save; a hard puzzle goes
    /// past them, its first guess chosen as well as ever, and is searched with the fewest
    /// guesses from there.
    Quick,
}

/// How many guesses after the first a [`Plan::Quick`] search makes cheaply.
const QUICK_GUESSES: usize = 8;

/// How many cells with two candidates those cheap guesses score.
const QUICK_AMONG: usize = 3;

/// Every cell with two candidates.
const ALL: usize = usize::MAX;

impl Plan {
    /// The reasoning of a node, and how it chooses its guess, after `guesses` guesses.
    #[inline(always)]
    pub(super) fn at(self, guesses: usize) -> (Reasoning, Choice) {
        match self {
            Plan::Loose => (Reasoning::Bands, Choice::First),
            Plan::Quick if (1..=QUICK_GUESSES).contains(&guesses) => {
                (Reasoning::Bands, Choice::Scored { among: QUICK_AMONG })
            }
            Plan::Measured | Plan::Quick => (Reasoning::Full, Choice::Scored { among: ALL }),
        }
    }
}
