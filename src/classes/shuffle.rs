//! Random equivalents: every grid or puzzle of a text replaced by the image of a random
//! [`Transformation`], the standard augmentation of training data.
//!
//! Item `k` of a text draws its transformation from its own random generator, seeded from the seed
//! and `k`, so the output depends on the seed alone, not on the thread count. A CSV corpus is read
//! by the reader of `-s` ([`corpus`]: the same header names, quoted fields and line ends, the same
//! located problems) and shuffled row by row, with one transformation for both grids of a row, so
//! that each solution stays the solution of its puzzle; the other fields are kept, and the output is
//! written by the same CSV writer, with LF line ends and a field quoted only where it must be.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::classes::canon::Transformation;
use crate::model::grid::{CELLS, Grid};
use crate::text::corpus::{self, Header, Rows};
use crate::text::format::{Format, push_line};
use crate::text::parse::{ParseErrors, parse_puzzles};

/// The random generator of item `index` of a text shuffled with `seed`.
pub(crate) fn rng_of(seed: u64, index: usize) -> Xoshiro256PlusPlus {
    let index = index as u64;
    Xoshiro256PlusPlus::seed_from_u64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// The transformation of item `index` of a text shuffled with `seed`.
pub(crate) fn transformation_of(seed: u64, index: usize) -> Transformation {
    Transformation::random(&mut rng_of(seed, index))
}

/// Every grid of `grids` replaced by a random equivalent (see the module comment) and written in
/// `format`, blanks as `blank`, in one pass over the output's records.
pub(crate) fn render_shuffled(grids: &[Grid], seed: u64, format: Format, blank: u8) -> Vec<u8> {
    let mut out = vec![0; format.record_len() * grids.len()];
    out.par_chunks_mut(format.record_len())
        .zip(grids.par_iter())
        .enumerate()
        .for_each(|(k, (record, grid))| {
            format.write_record(&transformation_of(seed, k).apply(grid), blank, record);
        });
    out.truncate(format.output_len(grids.len()));
    out
}

/// Shuffles a text of grids or puzzles in any input format of `-s`, written in `format` (the input's
/// format without one; blanks as `0` in the grid format and `.` in the line format), or a CSV text
/// row by row. The problems of the text are returned instead.
pub fn shuffle_text(
    text: &[u8],
    seed: u64,
    format: Option<Format>,
    column: Option<&str>,
) -> Result<Vec<u8>, ParseErrors> {
    if let Some(corpus) = corpus::read_corpus(text, column) {
        let (header, rows) = corpus?;
        return Ok(shuffle_csv(&header, &rows, seed));
    }
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let puzzles = parse_puzzles(text)?;
    let format = format.unwrap_or(puzzles.format);
    let blank = if format == Format::Grid { b'0' } else { b'.' };
    Ok(render_shuffled(&puzzles.grids, seed, format, blank))
}

/// Shuffles the rows of a CSV corpus, as [`corpus::read_corpus`] reads them: each row's puzzle
/// and solution fields are replaced by their images under the row's transformation (in the line
/// format, blanks as the puzzle field wrote them, `.`, `-` or `0`; an empty solution field stays
/// empty), and its other fields are kept.
fn shuffle_csv(header: &Header, rows: &Rows, seed: u64) -> Vec<u8> {
    let records: Vec<csv::ByteRecord> = rows
        .records
        .par_iter()
        .zip(rows.puzzles.grids.par_iter().zip(rows.solutions.par_iter()))
        .enumerate()
        .map(|(k, (record, (puzzle, solution)))| {
            let transformation = transformation_of(seed, k);
            // Blanks as `.`: the corpus's own blank (Kaggle's `0`) is put back with the field.
            let image = |grid: &Grid| {
                let mut line = Vec::with_capacity(CELLS);
                push_line(&mut line, &transformation.apply(grid), b'.');
                line
            };
            let puzzle = image(puzzle);
            let solution = solution.as_ref().map(image);
            corpus::replaced_fields(header, record, &puzzle, solution.as_deref(), None)
        })
        .collect();
    corpus::write_corpus(header, &records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classes::canon::canonical_form;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn csv_rows_keep_their_solutions_and_other_fields() {
        let text = format!("puzzle,solution,blanks,level\n{PUZZLE},{SOLUTION},51,1\r\n\n");
        let out = shuffle_text(text.as_bytes(), 5, None, None).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0], "puzzle,solution,blanks,level");
        let fields: Vec<&str> = lines[1].split(',').collect();
        let grid = |s: &str| {
            let mut cells = [0; CELLS];
            for (c, b) in cells.iter_mut().zip(s.bytes()) {
                *c = if b == b'.' { 0 } else { b - b'0' };
            }
            Grid::from_cells(cells).unwrap()
        };
        let (puzzle, solution) = (grid(fields[0]), grid(fields[1]));
        assert!(solution.keeps_givens_of(&puzzle));
        assert_eq!(canonical_form(&puzzle), canonical_form(&grid(PUZZLE)));
        assert_eq!(&fields[2..], &["51", "1"]);
    }

    #[test]
    fn csv_rows_keep_their_blank_character() {
        let zeros = PUZZLE.replace('.', "0");
        let text = format!("quizzes,solutions\n{zeros},{SOLUTION}\n{PUZZLE},{SOLUTION}\n");
        let out = String::from_utf8(shuffle_text(text.as_bytes(), 2, None, None).unwrap()).unwrap();
        let puzzles: Vec<&str> = out.lines().skip(1).map(|l| &l[..CELLS]).collect();
        assert!(
            puzzles[0].contains('0') && !puzzles[0].contains('.'),
            "{}",
            puzzles[0]
        );
        assert!(
            puzzles[1].contains('.') && !puzzles[1].contains('0'),
            "{}",
            puzzles[1]
        );
    }

    #[test]
    fn csv_problems_are_located() {
        let text = format!("puzzle,solution\n{PUZZLE},{}x\n{PUZZLE}\n", &SOLUTION[..80]);
        let errors = shuffle_text(text.as_bytes(), 1, None, None).unwrap_err();
        assert_eq!(errors.count(), 2);
        assert_eq!(
            (errors.listed()[0].line, errors.listed()[0].column),
            (2, 163)
        );
        assert_eq!((errors.listed()[1].line, errors.listed()[1].column), (3, 1));
        assert_eq!(
            errors.listed()[1].message,
            "the row has 1 field, the header 2"
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_shuffle() {
        let text = format!("{PUZZLE}\n{SOLUTION}\n");
        let a = shuffle_text(text.as_bytes(), 8, None, None).unwrap();
        assert_eq!(a, shuffle_text(text.as_bytes(), 8, None, None).unwrap());
        assert_ne!(a, shuffle_text(text.as_bytes(), 9, None, None).unwrap());
        assert_eq!(a.len(), 164);
    }
}
