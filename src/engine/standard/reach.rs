//! Which puzzles the 9×9 digger makes at a useful rate.
//!
//! Each kind of puzzle (a level or any, minimal or not, symmetric or not) comes at a useful rate at
//! some blank counts only: level 2 is rare with fewer than 22 blanks, a minimal puzzle has 54 to 58
//! of them. [`Reach`] holds those counts. A blank count to dig or give back to is drawn from the part
//! of the asked range where the kind is common, not from all of it; minimal puzzles land where they
//! do, so a range must hold enough of their common counts; [`check_reachable`] refuses the rest up
//! front, naming a range that works.

use std::ops::RangeInclusive;

use crate::jobs::rate::Level;

/// The blank counts the generator reaches at a useful rate (`--help` has them, under PUZZLES).
pub const BLANKS: RangeInclusive<usize> = 1..=58;

/// The guess counts a range may name; [`check_guesses_reachable`] says which lower ends the
/// generator reaches.
pub const GUESSES: RangeInclusive<usize> = 0..=999;

/// Where the generator makes puzzles of one kind (a level or any, minimal or not, symmetric or not)
/// at a useful rate: about 50 a second or more on one core (see the survey script in `scripts/`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Puzzles are dug (and, for a level, given back) to a blank count drawn from the asked range.
    /// The counts in `blanks` come fast, so the count is drawn from the part of the range inside
    /// them: a range needs only to overlap them.
    Aimed {
        /// The blank counts reached fast.
        blanks: RangeInclusive<usize>,
    },
    /// Minimal puzzles are dug as far as they go and land where they do: a request is fast when its
    /// range holds at least `least` of the blank counts in `common`, where most of them land.
    Landed {
        /// The blank counts where most puzzles land.
        common: RangeInclusive<usize>,
        /// How many of them a range must hold.
        least: usize,
    },
    /// Too rare at every blank count.
    Never,
}

impl Reach {
    /// The reach of puzzles of `level` (any, without), `minimal` or not, `symmetric` or not.
    pub fn of(level: Option<Level>, minimal: bool, symmetric: bool) -> Reach {
        // Symmetric puzzles give up cells in pairs, which leaves them fewer ways to be hard or
        // sparse; a symmetric dig stops at puzzles from which no pair can go, and only a few of
        // those are minimal too.
        match (minimal, symmetric, level) {
            (true, true, Some(Level::Intermediate)) => Reach::Never,
            (true, true, Some(_)) => Reach::Landed {
                common: 55..=57,
                least: 3,
            },
            (true, true, None) => Reach::Landed {
                common: 55..=57,
                least: 1,
            },
            (true, false, Some(Level::Intermediate)) => Reach::Landed {
                common: 55..=58,
                least: 1,
            },
            (true, false, _) => Reach::Landed {
                common: 54..=58,
                least: 1,
            },
            (false, false, Some(Level::Intermediate)) => Reach::Aimed { blanks: 22..=58 },
            (false, false, Some(Level::Harder)) => Reach::Aimed { blanks: 18..=58 },
            (false, true, Some(Level::Intermediate)) => Reach::Aimed { blanks: 32..=55 },
            (false, true, Some(Level::Harder)) => Reach::Aimed { blanks: 24..=57 },
            (false, _, Some(Level::Singles) | None) => Reach::Aimed {
                blanks: supported_blanks(symmetric),
            },
        }
    }

    /// The part of `range` that the digging aims at: all of it, unless the reach is aimed at
    /// counts that overlap only part of it.
    pub(crate) fn aim(&self, range: &RangeInclusive<usize>) -> RangeInclusive<usize> {
        match self {
            Reach::Aimed { blanks } if shared_counts(range, blanks) > 0 => {
                *range.start().max(blanks.start())..=*range.end().min(blanks.end())
            }
            _ => range.clone(),
        }
    }

    /// Whether a request for blank counts in `range` runs at a useful rate.
    pub(crate) fn covers(&self, range: &RangeInclusive<usize>) -> bool {
        match self {
            Reach::Aimed { blanks } => shared_counts(range, blanks) > 0,
            Reach::Landed { common, least } => shared_counts(range, common) >= *least,
            Reach::Never => false,
        }
    }
}

/// How many counts two ranges share.
fn shared_counts(a: &RangeInclusive<usize>, b: &RangeInclusive<usize>) -> usize {
    let end = *a.end().min(b.end());
    (end + 1).saturating_sub(*a.start().max(b.start()))
}

/// The blank counts supported at all: [`BLANKS`], one fewer with `symmetric` (a symmetric puzzle
/// with 58 blanks is too rare).
/// The blank counts supported, as a usage message says it.
pub fn blanks_message() -> String {
    format!(
        "expected LOW~HIGH with {} <= LOW <= HIGH <= {} (the blank counts supported)",
        BLANKS.start(),
        BLANKS.end()
    )
}

fn supported_blanks(symmetric: bool) -> RangeInclusive<usize> {
    *BLANKS.start()..=BLANKS.end() - usize::from(symmetric)
}

/// Whether the generator makes puzzles of `level` (any, without), `minimal` or not, `symmetric` or
/// not, with a blank count in `blanks` (any, without), at a useful rate (see [`Reach`]). The error
/// names a range that works, or, where none does, the options to drop.
pub fn check_reachable(
    level: Option<Level>,
    minimal: bool,
    symmetric: bool,
    blanks: Option<&RangeInclusive<usize>>,
) -> Result<(), String> {
    let supported = supported_blanks(symmetric);
    if let Some(range) = blanks
        && (range.is_empty() || range.start() < supported.start() || range.end() > supported.end())
    {
        return Err(format!(
            "blank counts from {} to {} are supported{}",
            supported.start(),
            supported.end(),
            if symmetric { " with --symmetric" } else { "" }
        ));
    }
    let options: Vec<&str> = [("--minimal", minimal), ("--symmetric", symmetric)]
        .iter()
        .filter_map(|&(option, on)| on.then_some(option))
        .collect();
    let kind = format!(
        "{}puzzles{}{}",
        level.map_or(String::new(), |level| format!("level {} ", level.number())),
        if options.is_empty() { "" } else { " with " },
        options.join(" and ")
    );
    let reach = Reach::of(level, minimal, symmetric);
    let asked = blanks.map_or(String::new(), |range| {
        format!(", not {}~{}", range.start(), range.end())
    });
    match reach {
        Reach::Never => Err(format!(
            "{kind} come under 50 a second at every blank count; drop -m, --minimal or --symmetric"
        )),
        _ if blanks.is_none_or(|range| reach.covers(range)) => Ok(()),
        Reach::Aimed { blanks: counts }
        | Reach::Landed {
            common: counts,
            least: 1,
        } => Err(format!(
            "{kind} need a blank range overlapping {}~{}{asked}",
            counts.start(),
            counts.end()
        )),
        Reach::Landed { common, least } => Err(format!(
            "{kind} need a blank range holding at least {least} of the counts {}~{} (such as \
             {}~{}){asked}",
            common.start(),
            common.end(),
            common.end() + 1 - least,
            common.end()
        )),
    }
}

/// Whether the generator makes puzzles whose guess count lies in `guesses` at a useful rate, with
/// the level and blank range asked: the count is only filtered, and high counts are rare
/// (BENCHMARKS.md has the counts behind the caps), so the lower end is capped by how far the blank
/// range and the level reach. The error says what is supported.
pub fn check_guesses_reachable(
    guesses: &RangeInclusive<usize>,
    level: Option<Level>,
    blanks: Option<&RangeInclusive<usize>>,
    symmetric: bool,
    minimal: bool,
) -> Result<(), String> {
    Level::refuse_guesses(level, guesses)?;
    let (most, why) = match blanks.map(|range| *range.end()) {
        None => (9, String::new()),
        Some(high) => {
            let most = match high {
                ..45 => 1,
                45..50 => 2,
                50..55 => 4,
                _ => 6,
            };
            (most, format!(" with at most {high} blanks"))
        }
    };
    // Level 2 puzzles rarely need many guesses.
    let (most, why) = if level == Some(Level::Intermediate) && most > 3 {
        (3, format!("{why} at level 2"))
    } else {
        (most, why)
    };
    // Symmetric digging, minimal above all, leaves fewer puzzles that need many guesses, so the
    // rate at which the filter finds them falls off sooner (BENCHMARKS.md has the rates).
    let (most, why) = match (symmetric, minimal) {
        (true, true) if most > 3 => (3, format!("{why} with --symmetric --minimal")),
        (true, false) if most > 6 => (6, format!("{why} with --symmetric")),
        _ => (most, why),
    };
    if *guesses.start() > most {
        return Err(format!(
            "--guesses{why} can start at {most} at most (higher counts are too rare), not {}",
            guesses.start()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEVELS: [Option<Level>; 4] = [
        None,
        Some(Level::Singles),
        Some(Level::Intermediate),
        Some(Level::Harder),
    ];

    /// The blank range that a refusal names as one that works (the last `A~B` before ", not").
    fn named_range(message: &str) -> Option<RangeInclusive<usize>> {
        let named = message.split(", not ").next()?;
        let (low, high) = named
            .rsplit(' ')
            .next()?
            .trim_end_matches(')')
            .split_once('~')?;
        Some(low.parse().ok()?..=high.parse().ok()?)
    }

    #[test]
    fn aim_keeps_ranges_inside_the_reach_and_cuts_wider_ones() {
        let level_2 = Reach::of(Some(Level::Intermediate), false, false);
        assert_eq!(level_2.aim(&(30..=45)), 30..=45);
        assert_eq!(level_2.aim(&(1..=22)), 22..=22);
        assert_eq!(level_2.aim(&(10..=30)), 22..=30);
        // Outside the reach (refused by the command line), the range is left as asked.
        assert_eq!(level_2.aim(&(1..=10)), 1..=10);
        let symmetric_3 = Reach::of(Some(Level::Harder), false, true);
        assert_eq!(symmetric_3.aim(&(1..=24)), 24..=24);
        // Minimal puzzles are not aimed: they land where they do.
        assert_eq!(Reach::of(None, true, false).aim(&(1..=56)), 1..=56);
    }

    #[test]
    fn covers_asks_overlap_of_aimed_and_enough_common_counts_of_landed() {
        let aimed = Reach::Aimed { blanks: 22..=58 };
        assert!(aimed.covers(&(1..=22)) && aimed.covers(&(58..=58)));
        assert!(!aimed.covers(&(1..=21)));
        let landed = Reach::Landed {
            common: 55..=57,
            least: 3,
        };
        assert!(landed.covers(&(1..=57)) && landed.covers(&(55..=57)));
        assert!(!landed.covers(&(56..=57)) && !landed.covers(&(1..=56)));
        assert!(!Reach::Never.covers(&(1..=58)));
    }

    #[test]
    fn requests_that_crawled_are_aimed_or_refused() {
        let level_2 = Some(Level::Intermediate);
        let level_3 = Some(Level::Harder);
        assert_eq!(
            check_reachable(level_2, false, false, Some(&(1..=22))),
            Ok(())
        );
        assert_eq!(
            check_reachable(level_3, false, true, Some(&(1..=24))),
            Ok(())
        );
        let refusal = check_reachable(level_2, true, true, Some(&(56..=56))).unwrap_err();
        assert!(
            refusal.contains("drop -m, --minimal or --symmetric"),
            "{refusal}"
        );
        assert!(check_reachable(level_2, true, true, None).is_err());
        assert_eq!(
            check_reachable(level_2, false, false, Some(&(10..=20))),
            Err("level 2 puzzles need a blank range overlapping 22~58, not 10~20".to_string())
        );
    }

    /// Calls `visit` with every kind of request (level, minimal, symmetric), its reach, and every
    /// blank range within the supported counts.
    fn every_request(
        mut visit: impl FnMut(Option<Level>, bool, bool, &Reach, RangeInclusive<usize>),
    ) {
        for level in LEVELS {
            for minimal in [false, true] {
                for symmetric in [false, true] {
                    let reach = Reach::of(level, minimal, symmetric);
                    for low in BLANKS {
                        for high in low..=*BLANKS.end() {
                            visit(level, minimal, symmetric, &reach, low..=high);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_refusal_names_a_range_that_works() {
        every_request(|level, minimal, symmetric, reach, range| {
            let Err(message) = check_reachable(level, minimal, symmetric, Some(&range)) else {
                return;
            };
            if *reach == Reach::Never || range.end() > supported_blanks(symmetric).end() {
                return;
            }
            let named = named_range(&message).expect(&message);
            assert_eq!(
                check_reachable(level, minimal, symmetric, Some(&named)),
                Ok(()),
                "{message}"
            );
        });
    }

    #[test]
    fn accepted_ranges_are_aimed_at_a_part_of_themselves_inside_the_reach() {
        every_request(|level, minimal, symmetric, reach, range| {
            if check_reachable(level, minimal, symmetric, Some(&range)).is_err() {
                return;
            }
            let aimed = reach.aim(&range);
            assert!(!aimed.is_empty() && aimed.start() >= range.start());
            assert!(aimed.end() <= range.end(), "{range:?} -> {aimed:?}");
            if let Reach::Aimed { blanks } = reach {
                assert!(blanks.contains(aimed.start()) && blanks.contains(aimed.end()));
            } else {
                assert_eq!(aimed, range);
            }
        });
    }
}
