//! How far the hard-puzzle search reaches on each shape, in one table, and the refusals of the
//! requests past it, made up front with a message that names what works.
//!
//! The reach of a shape is the highest mean `-n 10 --hard=MEAN` asks for and gets in about five
//! seconds on one core (the runs behind the table: BENCHMARKS.md). Means are the kernel's own
//! measure, so they differ in scale from shape to shape: the generic search, whose reasoning is
//! singles and locked candidates, guesses little on boxes, where lines and boxes lock candidates
//! often, and far more where diagonals or jigsaw regions cut across them (minimal 9×9 X-Sudoku
//! puzzles dug at random need a mean of tens to hundreds of guesses).
//!
//! - **The standard 9×9 shape**: 50 (10 with `--symmetric`), measured by the band solver.
//! - **Other shapes up to 16×16**: a table by size, for boxes alone and for diagonals or jigsaw
//!   regions. A jigsaw layout climbs slower the closer it is to boxes; one too close for its
//!   row ends with an error after a bounded search (see `generic/hard.rs`), never a crawl.
//! - **4×4** puzzles never need a guess, so no mean is hard; and past the table (13×13, and
//!   diagonals or jigsaw regions past 12×12, anything past 16×16) the first pools alone take
//!   seconds to minutes to dig: both are refused.

use crate::engine::hard::measure::mean_text;
use crate::model::shape::{Regions, Shape};

/// The highest mean a request may ask for on the standard 9×9 shape; past it the search finds
/// under about one puzzle a second on one core.
pub const MOST_MEAN: usize = 50;

/// The highest mean a 9×9 request with `--symmetric` may ask for: pairs of givens leave the search
/// fewer moves.
pub const MOST_SYMMETRIC_MEAN: usize = 10;

/// The mean `--hard` asks for without a value on the standard shape: the median of the forum's
/// hardest list.
const DEFAULT_MEAN: usize = 34;

/// The highest means of a family of shapes, without and with `--symmetric`; `None` where the size
/// has no such shape or the search is refused.
type Means = Option<[usize; 2]>;

/// The reach of every other shape: `(N, boxes, diagonals or jigsaw regions)`. Sizes not listed
/// are refused.
const REACH: [(usize, Means, Means); 12] = [
    (5, None, Some([4, 2])),
    (6, Some([6, 3]), Some([24, 8])),
    (7, None, Some([128, 32])),
    (8, Some([16, 8]), Some([256, 128])),
    (9, Some([32, 16]), Some([256, 64])),
    (10, Some([64, 24]), Some([1024, 256])),
    (11, None, Some([1024, 256])),
    (12, Some([256, 128]), Some([1024, 256])),
    (13, None, None),
    (14, Some([1024, 256]), None),
    (15, Some([1024, 256]), None),
    (16, Some([1024, 256]), None),
];

/// The highest mean any shape may ask for: what `--hard=MEAN` parses.
pub const HIGHEST_MEAN: usize = 1024;

/// The highest mean a request on `shape`, with `--symmetric` or not, may ask for; `None` where
/// the search is refused.
pub fn most_mean(shape: &Shape, symmetric: bool) -> Option<usize> {
    if shape.is_standard() {
        return Some(if symmetric {
            MOST_SYMMETRIC_MEAN
        } else {
            MOST_MEAN
        });
    }
    let boxes = matches!(shape.regions(), Regions::Boxes { .. }) && !shape.diagonal();
    let (_, plain, other) = REACH.iter().find(|row| row.0 == shape.size())?;
    let means = if boxes { plain } else { other };
    means.map(|[mean, symmetric_mean]| if symmetric { symmetric_mean } else { mean })
}

/// The total (ten times the mean) a request on `shape` asks for: `asked`, or without a value the
/// shape's default: 34 on the standard shape (10, its most, with `--symmetric`), else the shape's
/// reach (with `--symmetric` or not), the hardest puzzles the search makes in seconds. Digging
/// alone already gives puzzles of hundreds of guesses on some shapes (16×16, X-Sudoku), and of
/// none on others (6×6), so no one share of the reach would mean hard on them all. A shard of a
/// shape of at most `FEW_GRIDS_CELLS` cells holds few of its grids, and the hardest puzzles may
/// be dug from others: its default is two thirds of the reach.
pub fn total(shape: &Shape, asked: Option<usize>, symmetric: bool, sharded: bool) -> usize {
    asked.unwrap_or_else(|| match most_mean(shape, symmetric) {
        Some(mean) if !shape.is_standard() && sharded && shape.cells() <= FEW_GRIDS_CELLS => {
            10 * (mean * 2 / 3).max(1)
        }
        Some(mean) if !shape.is_standard() => 10 * mean,
        // 34 is past what symmetric puzzles reach.
        _ if symmetric => 10 * MOST_SYMMETRIC_MEAN,
        _ => 10 * DEFAULT_MEAN,
    })
}

/// The most cells of a shape whose shards hold too few grids for the shape's reach: 6×6 shards
/// reach 5 of its 6, and 2 of its 3 with `--symmetric`.
const FEW_GRIDS_CELLS: usize = 36;

/// Whether the search serves a request on `shape` for a least total of guesses `asked` (ten
/// times the mean; `None`: the shape's default), `(minimal, symmetric)` or not, given with a
/// blank range, a level or a guess range or not (`(blanks, level, guesses)`): the error names
/// what works.
pub fn check_reachable(
    shape: &Shape,
    asked: Option<usize>,
    (minimal, symmetric): (bool, bool),
    (blanks, level, guesses): (bool, bool, bool),
) -> Result<(), String> {
    let refused: Vec<&str> = [("-r", blanks), ("-m", level), ("--guesses", guesses)]
        .iter()
        .filter_map(|&(option, given)| given.then_some(option))
        .collect();
    if !refused.is_empty() {
        return Err(format!(
            "--hard sets the difficulty by guesses and takes --minimal, --symmetric, --classes, \
             --shard and --format, not {}",
            refused.join(" or ")
        ));
    }
    let Some(most) = most_mean(shape, symmetric) else {
        return Err(refusal(shape));
    };
    if minimal && symmetric {
        // Minimising by pairs leaves single givens that could go: most children are dropped.
        return Err(
            "--hard with both --symmetric and --minimal finds under a puzzle a second; drop one \
             of them"
                .into(),
        );
    }
    // A shard's default is below the reach.
    let total = total(shape, asked, symmetric, false);
    if total > 10 * most {
        let of = if shape.is_standard() {
            String::new()
        } else {
            format!(" on {}", in_words(shape))
        };
        let other = most_mean(shape, !symmetric)
            .filter(|_| !shape.is_standard())
            .map(|mean| {
                let with = if symmetric { "without" } else { "with" };
                format!(", {mean} {with} --symmetric")
            })
            .unwrap_or_default();
        return Err(format!(
            "--hard{}{of} can ask for a mean of {most} guesses at most{other} (the search finds \
             harder puzzles too slowly), not {}",
            if symmetric { " with --symmetric" } else { "" },
            mean_text(total)
        ));
    }
    Ok(())
}

/// The refusal of a shape the search does not serve.
fn refusal(shape: &Shape) -> String {
    if shape.size() == 4 {
        return format!(
            "--hard finds no puzzle on {}: every 4×4 puzzle is solved without a guess",
            in_words(shape)
        );
    }
    format!(
        "--hard is not served on {}: it makes puzzles up to 12×12, and of boxes without \
         diagonals on 14×14 to 16×16 (past those, digging its first puzzles alone takes from \
         seconds to minutes)",
        in_words(shape)
    )
}

/// `shape` as a message names it: `this 6×6 shape (boxes 2x3)`.
fn in_words(shape: &Shape) -> String {
    let n = shape.size();
    let regions = match shape.regions() {
        Regions::Boxes { rows, columns } => format!("boxes {rows}x{columns}"),
        Regions::Jigsaw(_) => "jigsaw regions".to_owned(),
    };
    let diagonals = if shape.diagonal() { ", diagonals" } else { "" };
    format!("this {n}×{n} shape ({regions}{diagonals})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::symbols::Symbols;

    fn boxed(n: usize, diagonal: bool) -> Shape {
        Shape::boxed(n, None, diagonal, Symbols::default_for(n)).unwrap()
    }

    #[test]
    fn the_table_names_every_size_once_and_its_highest_mean() {
        let sizes: Vec<usize> = REACH.iter().map(|row| row.0).collect();
        assert!(sizes.windows(2).all(|w| w[0] < w[1]), "{sizes:?}");
        let highest = REACH
            .iter()
            .flat_map(|row| [row.1, row.2])
            .flatten()
            .flatten()
            .chain([MOST_MEAN])
            .max();
        assert_eq!(highest, Some(HIGHEST_MEAN));
        // With --symmetric the search reaches no higher than without.
        for (_, plain, other) in REACH {
            for [mean, symmetric] in [plain, other].into_iter().flatten() {
                assert!(symmetric <= mean);
            }
        }
    }

    #[test]
    fn requests_past_the_reach_are_refused_naming_it() {
        let six = boxed(6, false);
        assert_eq!(most_mean(&six, false), Some(6));
        assert!(check_reachable(&six, Some(60), (false, false), (false, false, false)).is_ok());
        let refusal =
            check_reachable(&six, Some(61), (false, false), (false, false, false)).unwrap_err();
        assert!(
            refusal.contains("6 guesses at most, 3 with --symmetric"),
            "{refusal}"
        );
        assert!(refusal.contains("6×6 shape (boxes 2x3)"), "{refusal}");
        let refusal = check_reachable(&boxed(4, true), None, (false, false), (false, false, false))
            .unwrap_err();
        assert!(refusal.contains("without a guess"), "{refusal}");
        for refused in [boxed(16, true), boxed(20, false)] {
            let refusal =
                check_reachable(&refused, Some(10), (false, false), (false, false, false))
                    .unwrap_err();
            assert!(refusal.contains("up to 12×12"), "{refusal}");
        }
    }

    #[test]
    fn the_default_is_34_on_9x9_and_the_reach_elsewhere() {
        assert_eq!(total(&Shape::standard(), None, false, false), 340);
        assert_eq!(total(&Shape::standard(), None, true, true), 100);
        assert_eq!(total(&boxed(12, false), None, false, false), 2560);
        assert_eq!(total(&boxed(12, false), None, true, true), 1280);
        assert_eq!(total(&boxed(12, false), Some(15), true, false), 15);
        // A shard of 6×6 holds too few grids for the reach.
        assert_eq!(total(&boxed(6, false), None, false, false), 60);
        assert_eq!(total(&boxed(6, false), None, false, true), 40);
        assert_eq!(total(&boxed(6, false), None, true, true), 20);
        assert_eq!(total(&boxed(6, false), Some(60), false, true), 60);
    }
}
