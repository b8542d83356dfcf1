//! One shard of a corpus made by many runs: shard `index` of `count` (both from 1, as `--shard I/K`
//! writes them).
//!
//! A generator splits what it can make into numbered pieces (subtrees of its search, or partial
//! grids to complete) and gives shard `i` of `k` the pieces numbered `i - 1` modulo `k`. The
//! arithmetic is kept here so that every generator deals the pieces the same way, and the shards of
//! one seed never share a piece.
//!
//! # The contract
//! The runs `--shard 1/K` … `--shard K/K` with the same `--seed` and the same other options each
//! write N grids (`-c N`) or N puzzles (`-n N`), valid as ever, and no grid (no puzzle) is in two
//! shards. A shard's output is byte-identical on every machine and at any `-j`, so a lost shard is
//! made again by running its command again. `--shard` needs `--seed`: runs of different seeds
//! draw their pieces independently, and may meet.
//!
//! # How each generator splits its work
//! At 9×9:
//! - **`-c`**: the walk places all the 1s, then all the 2s, and so on; a placement of all the 1s
//!   and all the 2s roots a subtree (5184 × 17,972 of them, each holding trillions of grids on
//!   average), and different subtrees hold different grids. Shard I takes the subtrees numbered
//!   I − 1 modulo K, one for each of the walk's 18 parts, so it runs as fast as a plain `-c`.
//!   Should a subtree hold fewer grids than its part needs (none is known to), the run ends with
//!   `shard I/K cannot hold N grids` and exit code 1. A shard's grids are not those of a plain run
//!   with the same seed. `-c --classes` does not take `--shard`.
//! - **`-n`**: every puzzle is dug from a complete grid made from random boxes 1, 5 and 9; in
//!   shard I, the pair of fillings of boxes 5 and 9 is drawn among the pairs numbered I − 1
//!   modulo K (of 9!²), so the grids, and with them the puzzles, of two shards differ. With
//!   `--classes`, no two puzzles of one shard are equivalent, but two shards may hold equivalent
//!   (never equal) puzzles: classes are kept apart within a run only.
//!
//! On every other shape a grid's shard is named by a hash of the cells its 1s and 2s take: the
//! generic `-c` walk goes below only its shard's placements of the 1s and 2s, and `-n` relabels
//! each grid it digs into its shard; on 4×4 the listed grids are dealt in turn (see
//! [`crate::engine::generic::deal`]). A shard of a shape with few grids may hold fewer than asked
//! for: the run then writes nothing and says how many it holds.
//!
//! # Running the shards
//! The tool stays one process; a job runner spreads the shards. Each recipe makes K = 8 shards of
//! 1,000,000 grids (the same goes for `-n 1000000 ...`), then checks all the parts together:
//! valid, and no grid in two of them. GNU parallel, here or on several hosts (`:` is this one;
//! `-j 1` runs one shard per host at a time, each using all the host's cores):
//!
//! ```sh
//! seq 1 8 | parallel -j 1 'sudoku-gen -c 1000000 --shard {}/8 --seed 42 -o part-{}.txt'
//! seq 1 8 | parallel -j 1 --sshlogin :,host1,host2 --return part-{}.txt --cleanup \
//!   'sudoku-gen -c 1000000 --shard {}/8 --seed 42 -o part-{}.txt'
//! sudoku-gen --check part-1.txt part-2.txt part-3.txt part-4.txt part-5.txt part-6.txt \
//!   part-7.txt part-8.txt
//! ```
//!
//! A Slurm job array (`$SLURM_ARRAY_TASK_ID` runs from 1 to K, as shards do), on a shared file
//! system, then `sudoku-gen --check part-1.txt ... part-8.txt` once the array is done:
//!
//! ```sh
//! #!/bin/bash
//! #SBATCH --job-name=grids
//! #SBATCH --array=1-8
//! #SBATCH --cpus-per-task=4
//! sudoku-gen -c 1000000 --shard "$SLURM_ARRAY_TASK_ID/8" --seed 42 -j "$SLURM_CPUS_PER_TASK" \
//!   -o "part-$SLURM_ARRAY_TASK_ID.txt"
//! ```
//!
//! A Kubernetes indexed job, whose `$JOB_COMPLETION_INDEX` counts from **0**, so that the shard is
//! the index plus one; the parts go to a shared volume, checked together once the job is done:
//!
//! ```yaml
//! apiVersion: batch/v1
//! kind: Job
//! metadata:
//!   name: grids
//! spec:
//!   completions: 8
//!   parallelism: 8
//!   completionMode: Indexed
//!   template:
//!     spec:
//!       restartPolicy: Never
//!       containers:
//!         - name: shard
//!           image: sudoku-gen:latest
//!           command: ["sh", "-c"]
//!           args:
//!             - i=$((JOB_COMPLETION_INDEX + 1));
//!               sudoku-gen -c 1000000 --shard "$i/8" --seed 42 -o "/parts/part-$i.txt"
//!           volumeMounts:
//!             - { name: parts, mountPath: /parts }
//!       volumes:
//!         - name: parts
//!           persistentVolumeClaim: { claimName: parts }
//! ```

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
