//! The jobs that make grids or puzzles (`-c`, `-n`), written once: the kernel that serves the
//! shape does the work.

use super::{Finished, Job};
use crate::classes::distinct;
use crate::engine::Kernel;
use crate::engine::generic::{dig as generic_dig, walk as generic_walk};
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
                Kernel::Generic => generic_walk::render_grids(&generic_walk::ShapedGrids {
                    shape,
                    count,
                    seed,
                    format,
                })?,
            }
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
            format,
        } => match kernel {
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
                };
                let puzzles = generic_dig::generate_puzzles(&request)?;
                let format = format.text().unwrap_or(Format::Grid);
                generic_dig::render_puzzles(&request.shape, &puzzles, format)
            }
        },
        job => unreachable!("{:?} makes neither grids nor puzzles", job.mode()),
    };
    destination.write(&text)?;
    Ok(Finished::clean())
}
