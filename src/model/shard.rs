//! One shard of a corpus made by many runs: shard `index` of `count` (both from 1, as `--shard I/K`
//! writes them).
//!
//! A generator splits what it can make into numbered pieces (subtrees of its search, or partial
//! grids to complete) and gives shard `i` of `k` the pieces numbered `i - 1` modulo `k`. The
//! arithmetic is kept here so that every generator deals the pieces the same way, and the shards of
//! one seed never share a piece.

use std::fmt;
use std::str::FromStr;

/// The largest number of shards a corpus may be split into.
pub const MAX_SHARDS: usize = 1_000_000;

/// Shard `index` of `count`, with `1 <= index <= count <=` [`MAX_SHARDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: usize,
    count: usize,
}

/// A shard that is not `I/K` with `1 <= I <= K <=` [`MAX_SHARDS`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected I/K, whole numbers with 1 <= I <= K <= {MAX_SHARDS}")]
pub struct ShardError;

impl Shard {
    /// Shard `index` of `count`.
    pub fn new(index: usize, count: usize) -> Result<Shard, ShardError> {
        if (1..=count).contains(&index) && count <= MAX_SHARDS {
            Ok(Shard { index, count })
        } else {
            Err(ShardError)
        }
    }

    /// The shard's number, from 1.
    pub fn index(self) -> usize {
        self.index
    }

    /// How many shards there are.
    pub fn count(self) -> usize {
        self.count
    }

    /// How many of the pieces numbered `0..total` are the shard's.
    pub fn pieces_below(self, total: u64) -> u64 {
        total
            .saturating_sub(self.first())
            .div_ceil(self.count as u64)
    }

    /// The number of the shard's `n`-th piece (from 0).
    pub fn piece(self, n: u64) -> u64 {
        self.first() + self.count as u64 * n
    }

    fn first(self) -> u64 {
        self.index as u64 - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `I/K` in decimal digits (leading zeros allowed).
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let number = |s: &str| {
            let digits = s.trim_start_matches('0');
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 7 {
                return Err(ShardError);
            }
            Ok(digits.parse::<usize>().unwrap_or(0))
        };
        let (index, count) = text.split_once('/').ok_or(ShardError)?;
        Shard::new(number(index)?, number(count)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_only_shards_in_range() {
        assert_eq!("3/8".parse(), Shard::new(3, 8));
        assert_eq!("003/0008".parse::<Shard>().unwrap().to_string(), "3/8");
        assert_eq!(
            "1000000/1000000".parse::<Shard>().unwrap().count(),
            MAX_SHARDS
        );
        for bad in [
            "",
            "/",
            "1",
            "1/",
            "/4",
            "0/4",
            "5/4",
            "4/0",
            "1/1000001",
            "a/b",
            "1/2/3",
            "+1/2",
            " 1/2",
            "1/2 ",
            "-1/2",
            "1.0/2",
            "99999999999999999999/1",
        ] {
            assert_eq!(bad.parse::<Shard>(), Err(ShardError), "{bad:?}");
        }
    }

    proptest! {
        /// Every piece number belongs to exactly one shard, and each shard lists its own in order.
        #[test]
        fn shards_deal_every_piece_once(count in 1..=MAX_SHARDS, total in 0..3_000_000u64) {
            let piece = total / 2;
            let owner = (piece % count as u64) as usize + 1;
            let shard = Shard::new(owner, count).unwrap();
            prop_assert_eq!(shard.piece(piece / count as u64), piece);
            let listed: u64 = [1, owner, count]
                .iter()
                .map(|&i| Shard::new(i, count).unwrap().pieces_below(total))
                .sum();
            let per = total / count as u64;
            prop_assert!(listed >= 3 * per && listed <= 3 * (per + 1));
            prop_assert!(shard.piece(shard.pieces_below(total)) >= total);
            if shard.pieces_below(total) > 0 {
                prop_assert!(shard.piece(shard.pieces_below(total) - 1) < total);
            }
        }
    }
}
