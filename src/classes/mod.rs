//! Equivalence classes: canonical forms, fingerprints, random equivalents, and pairwise
//! inequivalent grids.
//!
//! # What equivalent means, and why it matters
//! Two grids (or puzzles) are **equivalent** when one becomes the other by moves that keep every
//! rule: relabelling the digits, reordering the rows inside a band, the bands, the columns inside a
//! stack, the stacks, and transposing (9!·2·6⁸ moves; see [`canon`]); every other shape has the moves
//! of its family (see [`shaped`]). Equivalent puzzles are the same
//! puzzle to a solver and to a person, so a corpus whose test split holds an equivalent copy of a
//! training puzzle leaks. `-c` grids are distinct but not independent: most consecutive grids are
//! relabellings of one another.
//!
//! Any split of a `--classes` output is leak-free. For a corpus from elsewhere, `--canon` names each
//! puzzle's class, and splitting by canonical form (for example by a hash of it) keeps every class on
//! one side.
//!
//! # Example: a leak-free train/test split, with augmented training data
//!
//! ```sh
//! sudoku-gen -n 100000 --classes --minimal --format csv --seed 1 -o all.csv  # no two equivalent
//! head -n 90001 all.csv > train.csv                                        # header + 90,000 rows
//! { head -n 1 all.csv; tail -n 10000 all.csv; } > test.csv                 # header + 10,000 rows
//! for k in 1 2 3 4; do                                                     # four random equivalents
//!   sudoku-gen --shuffle train.csv --seed "$k" -o "train_shuffled_$k.csv"  # of every training row
//! done
//! # Check: no puzzle of test.csv is equivalent to one of train.csv.
//! cut -d, -f1 train.csv | tail -n +2 | sudoku-gen --canon - | sort -u > train.canon
//! cut -d, -f1 test.csv | tail -n +2 | sudoku-gen --canon - | sort -u > test.canon
//! comm -12 train.canon test.canon | wc -l                                  # 0
//! ```

pub mod canon;
pub mod distinct;
pub(crate) mod fingerprint;
mod representatives;
pub mod shaped;
pub mod shuffle;
mod simd;
