//! Random equivalents: every grid or puzzle of a text replaced by the image of a random
//! [`Transformation`], the standard augmentation of training data.
//!
//! Item `k` of a text draws its transformation from its own random generator, seeded from the seed
//! and `k`, so the output depends on the seed alone, not on the thread count. A CSV text
//! (`puzzle,solution,...` under a header starting that way, as `-n --format csv` writes it) is
//! shuffled row by row, with one transformation for both grids of a row, so that each solution stays
//! the solution of its puzzle; the other fields are kept as they are.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::classes::canon::Transformation;
use crate::model::grid::{CELLS, Grid};
use crate::text::format::{Format, push_line};
use crate::text::parse::{ParseError, ParseErrors, parse_puzzles};

/// The header a CSV text starts with.
const CSV_HEADER: &[u8] = b"puzzle,solution";

/// The transformation of item `index` of a text shuffled with `seed`.
pub(crate) fn transformation_of(seed: u64, index: usize) -> Transformation {
    let index = index as u64;
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    Transformation::random(&mut rng)
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
) -> Result<Vec<u8>, ParseErrors> {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    if text.starts_with(CSV_HEADER) {
        return shuffle_csv(text, seed);
    }
    let puzzles = parse_puzzles(text)?;
    let format = format.unwrap_or(puzzles.format);
    let blank = if format == Format::Grid { b'0' } else { b'.' };
    Ok(render_shuffled(&puzzles.grids, seed, format, blank))
}

/// One data row of a CSV text: its puzzle, its solution, and the rest of the row from the comma
/// after the solution.
struct Row<'a> {
    puzzle: Grid,
    solution: Grid,
    rest: &'a [u8],
}

/// Reads an 81-cell field starting at byte `column` (counted from 1) of line `line`.
fn read_field(field: &[u8], line: usize, column: usize, what: &str) -> Result<Grid, ParseError> {
    let problem = |column, message: String| ParseError {
        line,
        column,
        message,
    };
    if field.len() != CELLS {
        return Err(problem(
            column,
            format!("the {what} has {} characters, expected 81", field.len()),
        ));
    }
    let mut cells = [0; CELLS];
    for (i, (&ch, cell)) in field.iter().zip(&mut cells).enumerate() {
        *cell = match ch {
            b'1'..=b'9' => ch - b'0',
            b'.' | b'0' => 0,
            _ => {
                return Err(problem(
                    column + i,
                    format!("unexpected character {:?} in the {what}", char::from(ch)),
                ));
            }
        };
    }
    Ok(Grid::from_cells(cells).expect("digits"))
}

/// Reads one data row (line number `line`, counted from 1).
fn read_row(text: &[u8], line: usize) -> Result<Row<'_>, ParseError> {
    let mut fields = text.splitn(3, |&b| b == b',');
    let puzzle_field = fields.next().unwrap_or_default();
    let puzzle = read_field(puzzle_field, line, 1, "puzzle")?;
    let Some(solution_field) = fields.next() else {
        return Err(ParseError {
            line,
            column: text.len() + 1,
            message: "expected a solution after the puzzle".into(),
        });
    };
    let solution = read_field(solution_field, line, CELLS + 2, "solution")?;
    Ok(Row {
        puzzle,
        solution,
        rest: &text[2 * CELLS + 1..],
    })
}

/// Shuffles a CSV text row by row; empty lines are skipped.
fn shuffle_csv(text: &[u8], seed: u64) -> Result<Vec<u8>, ParseErrors> {
    let mut lines = text
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l));
    let header = lines.next().unwrap_or_default();
    let rows: Vec<(usize, &[u8])> = lines
        .enumerate()
        .map(|(i, line)| (i + 2, line))
        .filter(|(_, line)| !line.is_empty())
        .collect();
    let read: Vec<Result<Row, ParseError>> = rows
        .par_iter()
        .map(|&(line, text)| read_row(text, line))
        .collect();
    let mut errors = ParseErrors::new();
    for error in read.iter().filter_map(|row| row.as_ref().err()) {
        errors.push(error.clone());
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let rows: Vec<Row> = read.into_iter().map(|row| row.expect("checked")).collect();
    let chunks: Vec<Vec<u8>> = rows
        .par_chunks(4096)
        .enumerate()
        .map(|(chunk_index, chunk)| {
            let mut out = Vec::with_capacity(200 * chunk.len());
            for (i, row) in chunk.iter().enumerate() {
                let transformation = transformation_of(seed, 4096 * chunk_index + i);
                push_line(&mut out, &transformation.apply(&row.puzzle));
                out.push(b',');
                push_line(&mut out, &transformation.apply(&row.solution));
                out.extend_from_slice(row.rest);
                out.push(b'\n');
            }
            out
        })
        .collect();
    let mut out = header.to_vec();
    out.push(b'\n');
    out.extend(chunks.concat());
    Ok(out)
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
        let out = shuffle_text(text.as_bytes(), 5, None).unwrap();
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
    fn csv_problems_are_located() {
        let text = format!("puzzle,solution\n{PUZZLE},{}x\n{PUZZLE}\n", &SOLUTION[..80]);
        let errors = shuffle_text(text.as_bytes(), 1, None).unwrap_err();
        assert_eq!(errors.count(), 2);
        assert_eq!(
            (errors.listed()[0].line, errors.listed()[0].column),
            (2, 163)
        );
        assert_eq!(
            (errors.listed()[1].line, errors.listed()[1].column),
            (3, 82)
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_shuffle() {
        let text = format!("{PUZZLE}\n{SOLUTION}\n");
        let a = shuffle_text(text.as_bytes(), 8, None).unwrap();
        assert_eq!(a, shuffle_text(text.as_bytes(), 8, None).unwrap());
        assert_ne!(a, shuffle_text(text.as_bytes(), 9, None).unwrap());
        assert_eq!(a.len(), 164);
    }
}
