//! The jobs that make grids or puzzles (`-c`, `-n`), written once: the kernel that serves the
//! shape does the work.
//!
//! # What `-n` may be asked for
//! Puzzles are dug from random complete grids and kept when they meet the request, so a request
//! for puzzles that are rare among those dug would run for ever; the routing
//! (`route.rs`) refuses such requests up front, with a usage error that names what
//! works, rather than run them at under about 50 puzzles a second on one core. At 9×9 (the
//! standard kernel's reach):
//! - blank counts are 1 to 58 (57 with `--symmetric`), and the count dug to is drawn from the
//!   part of the range where the kind of puzzle asked for is common: level 2 from 22 to 58
//!   (32 to 55 symmetric), level 3 from 18 to 58 (24 to 57). Minimal puzzles land where the
//!   digging ends, so `--minimal` needs a range overlapping 54~58 (55~58 at level 2, 55~57
//!   symmetric; all of 55~57 when symmetric at level 1 or 3), and level 2 minimal symmetric
//!   puzzles are refused at any range;
//! - `--guesses` only filters, so its lower end is capped: at most 9; by the top of the blank
//!   range, 1 below 45 blanks, 2 to 49, 4 to 54, 6 beyond; 3 at level 2; 0 at level 1, whose
//!   puzzles never need a guess.
//!
//! Other shapes ([`crate::engine::generic::reach`]): on 4×4 a range must meet the blank counts
//! of the listed puzzles; up to 12×12, where digging to the end is the default, a sample of
//! puzzles dug to the end tells where the shape's puzzles end, and a range must start where a
//! quarter of them reach (with `--minimal`, hold a quarter of them); past 12×12 a range may start
//! at most at the shape's reach, three fifths of its cells up to 16×16 and twelve twenty-fifths
//! beyond, and `--minimal` is refused, since each proof of uniqueness near a minimal puzzle costs
//! the search a second or more. A symmetric puzzle of an even size has an even blank count.
//! Levels and guesses have a reach of their own on other shapes
//! ([`crate::engine::generic::levels`]): a range must reach a share of the cells for levels 2
//! and 3, which past 16×16 are refused (level 2 is made on 25×25); the `--guesses` range must
//! hold the counts of an eighth of a sample of the kind of puzzle asked.
//!
//! `--hard` searches instead of digging, on every shape through one search
//! ([`crate::engine::hard`]), with a reach per shape ([`crate::engine::hard::reach`]).

use super::{Finished, Job};
use crate::classes::{distinct, shaped};
use crate::engine::Kernel;
use crate::engine::generic::{
    check_has_grid, dig as generic_dig, hard as generic_hard, walk as generic_walk,
};
use crate::engine::hard::measure::mean_text;
use crate::engine::hard::{self, HardRequest, Shortfall};
use crate::engine::standard::hard::{self as standard_hard, Standard};
use crate::engine::standard::{dig, walk};
use crate::error::Error;
use crate::io::output::Destination;
use crate::io::progress::Progress;
use crate::model::shape::Shape;
use crate::text::format::{Format, OutputFormat};

/// Runs `job`, a `-c` or `-n` job whose checks have passed, for `shape`.
pub(super) fn run(
    shape: Shape,
    job: Job,
    seed: u64,
    destination: Destination,
) -> Result<Finished, Error> {
    let kernel = Kernel::for_shape(&shape);
    let text = match job {
        Job::Grids {
            count,
            first,
            shard,
            format,
            classes,
        } => {
            let format = format.unwrap_or(Format::Grid);
            // The routing checked that the symbol is one of the shape's.
            let first = first.map(|symbol| shape.symbols().value_of(symbol));
            match kernel {
                Kernel::Standard => {
                    let request = walk::GridRequest {
                        count,
                        seed,
                        first,
                        shard,
                    };
                    if classes {
                        distinct::render_classes(&request, format)
                    } else {
                        walk::render_grids(&request, format)?
                    }
                }
                Kernel::Generic => {
                    let request = generic_walk::ShapedGrids {
                        shape,
                        count,
                        seed,
                        format,
                        shard,
                        first,
                    };
                    if classes {
                        shaped::render_class_grids(&request)?
                    } else {
                        generic_walk::render_grids(&request)?
                    }
                }
            }
        }
        Job::Puzzles {
            count,
            minimal,
            symmetric,
            hard: Some(asked),
            classes,
            shard,
            first,
            format,
            ..
        } => {
            let request = HardRequest {
                count,
                seed,
                total: hard::reach::total(&shape, asked, symmetric, shard.is_some()),
                minimal,
                symmetric,
                classes,
                shard,
                first: first.map(|symbol| shape.symbols().value_of(symbol)),
                with_levels: format == OutputFormat::Csv,
            };
            if kernel == Kernel::Generic {
                check_has_grid(&shape, count)?;
            }
            let too_few = |made| Error::TooFewMade {
                asked: count,
                made,
                of: generic_dig::shape_or_shard(&shape, shard),
                classes,
            };
            let progress = Progress::slow(count, "puzzles");
            let advance = || progress.advance();
            let text = match kernel {
                Kernel::Standard => hard::search_puzzles(&Standard, &request, &advance)
                    .map(|puzzles| standard_hard::render_hard(&puzzles, format)),
                Kernel::Generic => {
                    let board = generic_hard::Shaped::new(&shape);
                    hard::search_puzzles(&board, &request, &advance)
                        .map(|puzzles| generic_hard::render_hard(&shape, puzzles, format))
                }
            };
            progress.finish();
            text.map_err(|shortfall| match shortfall {
                Shortfall::NoGrid => too_few(0),
                Shortfall::Puzzles { made } => too_few(made),
                Shortfall::Level { reached } => Error::HardOutOfReach {
                    asked: mean_text(request.total),
                    reached: mean_text(reached),
                },
            })?
        }
        Job::Puzzles {
            count,
            blanks,
            level,
            minimal,
            symmetric,
            guesses,
            classes,
            shard,
            first,
            format,
            ..
        } => {
            // The routing checked that the symbol is one of the shape's.
            let first = first.map(|symbol| shape.symbols().value_of(symbol));
            match kernel {
                Kernel::Standard => {
                    let request = dig::PuzzleRequest {
                        count,
                        seed,
                        blanks,
                        level,
                        with_levels: format == OutputFormat::Csv,
                        minimal,
                        symmetric,
                        guesses,
                        classes,
                        shard,
                        first,
                    };
                    let progress = Progress::new(request.count, "puzzles");
                    let puzzles = dig::generate_puzzles(&request, &|| progress.advance());
                    progress.finish();
                    dig::render_puzzles(&puzzles, format)
                }
                Kernel::Generic => {
                    let request = generic_dig::ShapedPuzzleRequest {
                        shape,
                        count,
                        seed,
                        blanks,
                        minimal,
                        symmetric,
                        shard,
                        level,
                        with_levels: format == OutputFormat::Csv,
                        guesses,
                        classes,
                        first,
                    };
                    let puzzles = generic_dig::generate_puzzles(&request)?;
                    generic_dig::render_puzzles(&request.shape, &puzzles, format)
                }
            }
        }
        job => unreachable!("{:?} makes neither grids nor puzzles", job.mode()),
    };
    destination.write(&text)?;
    Ok(Finished::clean())
}
