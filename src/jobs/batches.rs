//! The records of a piece done in batches, for the jobs whose records cost much (`--rate`,
//! `--canon`, `-s` of other shapes): each batch's text is written before the next batch is begun,
//! so that a reader that goes away (`| head`) ends the run within a batch or two rather than
//! after a whole piece of 32 MiB, which can take a minute.
//!
//! A batch holds about [`BATCH_CELLS`] cells, and at least a few records for every thread, so
//! that each batch keeps the whole pool busy. Batches cut the records in input order and their
//! texts joined are the piece's text: how many records a batch holds changes the speed alone,
//! never the output.

use std::collections::HashMap;
use std::ops::Range;

use super::solve::PuzzleProblem;
use crate::error::Error;
use crate::io::output::OutputStream;
use crate::problems::Problems;
use crate::text::parse::Puzzles;
use crate::text::shaped::ShapedPuzzles;

/// Cells of puzzles a batch holds, about: a few hundred milliseconds of the slowest jobs on two
/// threads (100 puzzles of 25×25 for `--canon`, 800 of 9×9 for `--rate`).
const BATCH_CELLS: usize = 1 << 16;

/// Records a batch gives each thread at least.
const PER_THREAD: usize = 16;

/// Records that can be cut into batches.
pub(super) trait Records: Sized {
    /// How many records there are.
    fn len(&self) -> usize;

    /// The cells of one record.
    fn cells_per_record(&self) -> usize;

    /// The records of `range`, on their own.
    fn part(&self, range: Range<usize>) -> Self;
}

/// Runs `each` on `records` cut into batches, in order, with the index of each batch's first
/// record, until `each` answers that the output is no longer read; answers whether every batch
/// ran. Unless `batched`, and when the records fit in one batch, `each` gets them all as they
/// are, with nothing copied.
pub(super) fn in_batches<R: Records>(
    records: &mut R,
    batched: bool,
    mut each: impl FnMut(&mut R, usize) -> Result<bool, Error>,
) -> Result<bool, Error> {
    let len = records.len();
    let threads = rayon::current_num_threads();
    let per_batch = (BATCH_CELLS / records.cells_per_record().max(1)).max(PER_THREAD * threads);
    if !batched || len <= per_batch {
        return each(records, 0);
    }
    for start in (0..len).step_by(per_batch) {
        let mut batch = records.part(start..len.min(start + per_batch));
        if !each(&mut batch, start)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Writes a batch's `text` to `output`, and adds its `problems` to `all`, renumbered as in the
/// input (the batch's first record has `before` records before it there); answers whether the
/// output is still read, or drops the problems of a batch that no one reads.
pub(super) fn write_batch(
    output: &mut OutputStream,
    text: &[u8],
    problems: &Problems<PuzzleProblem>,
    (all, before): (&mut Problems<PuzzleProblem>, usize),
) -> Result<bool, Error> {
    output.write(text)?;
    if output.is_closed() {
        return Ok(false);
    }
    for mut problem in problems.listed().iter().cloned() {
        problem.puzzle += before;
        all.push(problem);
    }
    all.count_unlisted(problems.count() - problems.listed().len());
    Ok(true)
}

impl Records for Puzzles {
    fn len(&self) -> usize {
        self.grids.len()
    }

    fn cells_per_record(&self) -> usize {
        81
    }

    fn part(&self, range: Range<usize>) -> Puzzles {
        Puzzles {
            format: self.format,
            grids: self.grids[range.clone()].to_vec(),
            lines: self.lines[range].to_vec(),
        }
    }
}

impl Records for ShapedPuzzles {
    fn len(&self) -> usize {
        ShapedPuzzles::len(self)
    }

    fn cells_per_record(&self) -> usize {
        self.cells_per_puzzle()
    }

    /// The records of `range` with the shapes they are of, the requested one first: a text whose
    /// lines carry their layouts may have a shape for each, and a batch copies only its own.
    fn part(&self, range: Range<usize>) -> ShapedPuzzles {
        let cells = self.cells_per_puzzle();
        let mut shapes = vec![self.shapes[0].clone()];
        let mut renumbered = HashMap::from([(0, 0)]);
        let shape_of = self.shape_of[range.clone()]
            .iter()
            .map(|&shape| {
                *renumbered.entry(shape).or_insert_with(|| {
                    shapes.push(self.shapes[shape as usize].clone());
                    u32::try_from(shapes.len() - 1).expect("fewer shapes than records")
                })
            })
            .collect();
        ShapedPuzzles {
            layout: self.layout,
            shapes,
            cells: self.cells[range.start * cells..range.end * cells].to_vec(),
            lines: self.lines[range].to_vec(),
            shape_of,
            prefixed: self.prefixed,
            diagonals_in_doubt: self.diagonals_in_doubt,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::request::ShapeRequest;
    use crate::text::shaped::read_shaped;

    /// The starts and lengths of the batches `records` is cut into.
    fn batches_of<R: Records>(records: &mut R, batched: bool) -> Vec<(usize, usize)> {
        let mut seen = Vec::new();
        in_batches(records, batched, |batch, start| {
            seen.push((start, batch.len()));
            Ok(true)
        })
        .unwrap();
        seen
    }

    fn puzzles(count: usize) -> Puzzles {
        Puzzles {
            format: crate::text::format::Format::Line,
            grids: vec![crate::model::grid::Grid::EMPTY; count],
            lines: (1..=count).collect(),
        }
    }

    #[test]
    fn batches_cover_the_records_in_order() {
        let per = (BATCH_CELLS / 81).max(PER_THREAD * rayon::current_num_threads());
        let mut many = puzzles(2 * per + 5);
        assert_eq!(
            batches_of(&mut many, true),
            [(0, per), (per, per), (2 * per, 5)]
        );
        assert_eq!(batches_of(&mut many, false), [(0, 2 * per + 5)]);
        assert_eq!(batches_of(&mut puzzles(0), true), [(0, 0)]);
        let part = many.part(per..per + 2);
        assert_eq!(part.lines, [per + 1, per + 2]);
    }

    #[test]
    fn a_batch_stops_the_rest_when_the_output_is_not_read() {
        let mut many = puzzles(BATCH_CELLS);
        let mut ran = 0;
        let all = in_batches(&mut many, true, |_, _| {
            ran += 1;
            Ok(false)
        });
        assert!(!all.unwrap());
        assert_eq!(ran, 1);
    }

    #[test]
    fn a_batch_of_records_with_layouts_keeps_only_its_shapes() {
        let text = b"aabbaabbccddccdd 1...............\n\
                     aaabcabbccbdcddd .2..............\n\
                     aabbaabbccddccdd ..3.............\n";
        let (records, errors) = read_shaped(text, &ShapeRequest::default()).unwrap();
        assert!(errors.is_empty());
        let part = records.part(1..3);
        assert_eq!(part.shape_of.len(), 2);
        for k in 0..2 {
            assert_eq!(part.shape(k), records.shape(k + 1));
            assert_eq!(part.puzzle(k), records.puzzle(k + 1));
        }
        assert_eq!(part.shapes[0], records.shapes[0]);
        assert!(part.shapes.len() <= records.shapes.len());
    }
}
