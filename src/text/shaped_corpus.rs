//! CSV corpora of every shape other than the standard 9×9 one: the header and the rows of
//! [`crate::text::corpus`], with fields of N·N cells in the shape's alphabet.
//!
//! The shape comes from the flags, and what they leave open from the first rows, told as a line
//! file's is (`text/shaped.rs`): their puzzle fields are read as the lines of such a file, so that
//! N is the side of their N·N cells and the alphabet, the box split and the diagonals are told by
//! the same code. A jigsaw row carries its regions in a column `layout`: N·N region characters, as
//! a `LAYOUT PUZZLE` line carries them. Once a corpus has that column, a row whose layout is
//! empty is an error; with `--jigsaw FILE` the column may be left out, and a layout given must be
//! the file's. Every problem is located as `FILE:LINE:COLUMN` in the corpus.
//!
//! The reader is the one [`CorpusShape`]: [`CorpusShape::tell`] on the first piece of a corpus,
//! then [`CorpusShape::read`] on every piece, the first one's body included; the records it keeps
//! take the job's results back with `text::corpus::write_rows`, as 9×9 rows do.

use std::collections::HashMap;

use crate::model::request::ShapeRequest;
use crate::model::shape::{Shape, default_box};
use crate::model::symbols::{NOT_A_CELL, Symbols};
use crate::text::corpus::{Header, Row, each_row, record_cut};
use crate::text::parse::{ParseError, ParseErrors};
use crate::text::shaped::{Layout, ShapedPuzzles, read_shaped, square_root, unexpected_cell};

/// How much of a corpus's first rows its shape is told from, as `text/alphabet.rs` tells the
/// alphabet from a sample of a line file.
const SAMPLE: usize = 1 << 16;

/// The rows of one piece of a corpus of another shape, each of its own shape (a jigsaw row's
/// layout gives it one).
#[derive(Debug)]
pub struct ShapedRows {
    /// The puzzles, a row each, in the line layout.
    pub puzzles: ShapedPuzzles,
    /// The solutions, a row each, of the same shapes: all blank where `solved` says there is none.
    pub solutions: ShapedPuzzles,
    /// Whether each row has a solution field that is not empty.
    pub solved: Vec<bool>,
    /// The rows as read, to write the job's results back into.
    pub records: Vec<csv::ByteRecord>,
    /// The problems of malformed rows.
    pub errors: ParseErrors,
}

/// How the rows of one corpus are read: its header, and the shape its first rows and the flags
/// give.
#[derive(Clone, Debug)]
pub struct CorpusShape {
    header: Header,
    /// The shape of every row without a layout of its own.
    base: Shape,
    /// Whether `--jigsaw FILE` gave the regions: a row's layout may then be left out.
    given_layout: bool,
    /// Whether `--symbols` gave the alphabet.
    given_symbols: bool,
    /// Whether the first rows leave the diagonals in doubt (see `text/boxes.rs`).
    diagonals_in_doubt: bool,
}

/// Where a line of [`puzzle_lines`] comes from in the corpus.
struct Place {
    line: usize,
    /// The column of the puzzle field.
    puzzle: usize,
    /// The column of the layout field, and its length, when the line starts with it.
    layout: Option<(usize, usize)>,
    /// How many cells the puzzle field holds.
    cells: usize,
    /// The problem of a row without a layout in a corpus with a layout column.
    no_layout: Option<ParseError>,
}

/// The puzzle fields of the first rows of `body` (the rows from line `first_line`) as the lines
/// of a line file: `LAYOUT PUZZLE` where a row has a layout. Rows that cannot be read are left
/// out: the row reader names their problems.
pub(crate) fn puzzle_lines(body: &[u8], header: &Header, first_line: usize) -> Vec<u8> {
    sample_lines(body, header, first_line).0
}

/// The lines of [`puzzle_lines`], where each comes from, and the problems of the rows left out.
fn sample_lines(
    body: &[u8],
    header: &Header,
    first_line: usize,
) -> (Vec<u8>, Vec<Place>, ParseErrors) {
    let sample = if body.len() <= SAMPLE {
        body
    } else {
        &body[..record_cut(&body[..SAMPLE]).unwrap_or(SAMPLE)]
    };
    let (mut text, mut places, mut errors) = (Vec::new(), Vec::new(), ParseErrors::new());
    each_row(sample, header, first_line, &mut errors, |row| {
        let (puzzle, column) = row.field(header.puzzle, "puzzle")?;
        let layout = header
            .layout
            .and_then(|index| row.field(index, "layout").ok())
            .filter(|(layout, _)| !layout.is_empty());
        if let Some((layout, _)) = layout {
            text.extend_from_slice(layout);
            text.push(b' ');
        }
        text.extend_from_slice(puzzle);
        text.push(b'\n');
        places.push(Place {
            line: row.line,
            puzzle: column,
            layout: layout.map(|(layout, column)| (column, layout.len())),
            cells: puzzle.len(),
            no_layout: match (header.layout, layout) {
                (Some(index), None) => Some(no_layout(&row, index)),
                _ => None,
            },
        });
        Ok(())
    });
    (text, places, errors)
}

fn one(error: ParseError) -> ParseErrors {
    let mut errors = ParseErrors::new();
    errors.push(error);
    errors
}

impl CorpusShape {
    /// The shape of the corpus under `header` with the flags of `request`, told from its first
    /// rows (`body`, from line `first_line`); `None` while `body` holds no row; the located
    /// problem when no shape reads them, or the rows' own when none of them can be read.
    pub fn tell(
        body: &[u8],
        header: &Header,
        first_line: usize,
        request: &ShapeRequest,
    ) -> Option<Result<CorpusShape, ParseErrors>> {
        let (text, places, errors) = sample_lines(body, header, first_line);
        let Some(first) = places.first() else {
            // Rows every one of which is malformed hold no shape to tell, and are no empty body.
            return (!errors.is_empty()).then_some(Err(errors));
        };
        let given_layout = request.layout.is_some();
        let at = |column: usize, message: String| {
            Some(Err(one(ParseError {
                line: first.line,
                column,
                message,
            })))
        };
        if let Some(error) = first.no_layout.clone().filter(|_| !given_layout) {
            return Some(Err(one(error)));
        }
        let size = match request.known_size().or_else(|| square_root(first.cells)) {
            Some(size) => size,
            None => {
                let message = format!(
                    "expected N·N cells for an N×N puzzle, N from 4 to 25; found {}",
                    first.cells
                );
                return at(first.puzzle, message);
            }
        };
        if header.layout.is_none()
            && !given_layout
            && request.split.is_none()
            && default_box(size).is_none()
        {
            let message = format!(
                "a {size}×{size} puzzle has no boxes: a jigsaw corpus gives each row's regions \
                 in a column `layout` (or give --jigsaw FILE)"
            );
            return at(first.puzzle, message);
        }
        let sized = ShapeRequest {
            size: Some(size),
            ..request.clone()
        };
        // The rows of another size tell nothing: the row reader names them.
        let (text, places): (Vec<&[u8]>, Vec<&Place>) = text
            .split_inclusive(|&b| b == b'\n')
            .zip(&places)
            .filter(|(_, place)| place.cells == size * size)
            .unzip();
        let text = text.concat();
        let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(0);
        let read = if places.is_empty() {
            sized
                .shape(size, &mut rng)
                .map(|shape| (shape, false))
                .map_err(|error| {
                    one(ParseError {
                        line: first.line,
                        column: first.puzzle,
                        message: error.to_string(),
                    })
                })
        } else {
            read_shaped(&text, &sized)
                .map(|(puzzles, _)| (puzzles.shapes[0].clone(), puzzles.diagonals_in_doubt))
        };
        let (base, diagonals_in_doubt) = match read {
            Ok(base) => base,
            Err(errors) if places.is_empty() => return Some(Err(errors)),
            Err(errors) => {
                let mut located = ParseErrors::new();
                for error in errors.listed() {
                    let place = &places[error.line.clamp(1, places.len()) - 1];
                    let column = match place.layout {
                        Some((column, len)) if error.column <= len + 1 => column + error.column - 1,
                        Some((_, len)) => place.puzzle + error.column - len - 2,
                        None => place.puzzle + error.column - 1,
                    };
                    located.push(ParseError {
                        line: place.line,
                        column,
                        message: error.message.clone(),
                    });
                }
                return Some(Err(located));
            }
        };
        Some(Ok(CorpusShape {
            header: header.clone(),
            base,
            given_layout,
            given_symbols: request.symbols.is_some(),
            diagonals_in_doubt,
        }))
    }

    /// The shape of the rows without a layout of their own.
    pub fn base(&self) -> &Shape {
        &self.base
    }

    /// Whether the rows carry their own layouts: a `layout` column, and no `--jigsaw FILE` that
    /// fixes the regions of every row. A move of such a row turns its layout with its grids.
    pub fn carries_layouts(&self) -> bool {
        self.header.layout.is_some() && !self.given_layout
    }

    /// Reads the rows of `text`, whose first line is line `first_line` of the corpus.
    pub fn read(&self, text: &[u8], first_line: usize) -> ShapedRows {
        let empty = || ShapedPuzzles {
            layout: Layout::Line,
            shapes: Vec::new(),
            cells: Vec::new(),
            lines: Vec::new(),
            shape_of: Vec::new(),
            prefixed: false,
            diagonals_in_doubt: self.diagonals_in_doubt,
        };
        let (mut puzzles, mut solutions) = (empty(), empty());
        let mut shapes = vec![self.base.clone()];
        let mut shape_of_layout = HashMap::new();
        let (mut solved, mut records) = (Vec::new(), Vec::new());
        let mut errors = ParseErrors::new();
        let header = &self.header;
        let cells = self.base.cells();
        each_row(text, header, first_line, &mut errors, |row| {
            let shape = self.row_shape(&row, &mut shapes, &mut shape_of_layout)?;
            let symbols = *self.base.symbols();
            let (field, column) = row.field(header.puzzle, "puzzle")?;
            let puzzle = self.read_cells(&row, field, column, &symbols)?;
            let solution = match header.solution {
                Some(index) => match row.field(index, "solution")? {
                    (b"", _) => None,
                    (field, column) => Some(self.read_cells(&row, field, column, &symbols)?),
                },
                None => None,
            };
            for read in [&mut puzzles, &mut solutions] {
                read.lines.push(row.line);
                read.shape_of.push(shape);
            }
            puzzles.cells.extend_from_slice(&puzzle);
            solved.push(solution.is_some());
            match solution {
                Some(solution) => solutions.cells.extend_from_slice(&solution),
                None => solutions.cells.resize(solutions.cells.len() + cells, 0),
            }
            records.push(row.record);
            Ok(())
        });
        solutions.shapes = shapes.clone();
        puzzles.shapes = shapes;
        ShapedRows {
            puzzles,
            solutions,
            solved,
            records,
            errors,
        }
    }

    /// The index in `shapes` of the shape of `row`: its layout's (made once per layout, kept in
    /// `made`), or the base shape.
    fn row_shape(
        &self,
        row: &Row,
        shapes: &mut Vec<Shape>,
        made: &mut HashMap<Vec<u8>, u32>,
    ) -> Result<u32, ParseError> {
        let Some(index) = self.header.layout else {
            return Ok(0);
        };
        let field = match row.field(index, "layout") {
            Ok(field) => Some(field).filter(|(layout, _)| !layout.is_empty()),
            Err(_) if self.given_layout => None,
            Err(error) => return Err(error),
        };
        let Some((layout, column)) = field else {
            return if self.given_layout {
                Ok(0)
            } else {
                Err(no_layout(row, index))
            };
        };
        let shape = match made.get(layout) {
            Some(&shape) => shape,
            None => {
                let base = &self.base;
                let made_shape = Shape::jigsaw(
                    layout,
                    Some(base.size()),
                    base.diagonal(),
                    Some(*base.symbols()),
                )
                .map_err(|error| {
                    let message = format!("malformed layout: {}", error.problem);
                    row.error(column + error.column - 1, message)
                })?;
                shapes.push(made_shape);
                let shape = (shapes.len() - 1) as u32;
                made.insert(layout.to_vec(), shape);
                shape
            }
        };
        if self.given_layout && shapes[shape as usize].regions() != self.base.regions() {
            return Err(row.error(
                column,
                "the layout is not the one --jigsaw gives (leave the field empty, or give the \
                 same regions)"
                    .to_owned(),
            ));
        }
        Ok(shape)
    }

    /// The values of a field of N·N cells that starts at `column` of `row`.
    fn read_cells(
        &self,
        row: &Row,
        field: &[u8],
        column: usize,
        symbols: &Symbols,
    ) -> Result<Vec<u8>, ParseError> {
        let (n, cells) = (self.base.size(), self.base.cells());
        let mut values = Vec::with_capacity(cells);
        for (at, &byte) in field.iter().enumerate().take(cells) {
            let value = symbols.value_of(byte);
            if value == NOT_A_CELL {
                let message = unexpected_cell(symbols, field, at, !self.given_symbols);
                return Err(row.error(column + at, message));
            }
            values.push(value);
        }
        if field.len() != cells {
            return Err(row.error(
                column + field.len().min(cells),
                format!(
                    "expected {cells} cells for a {n}×{n} puzzle, found {}",
                    field.len()
                ),
            ));
        }
        Ok(values)
    }
}

/// The problem of a row of a jigsaw corpus without a layout in column `index`.
fn no_layout(row: &Row, index: usize) -> ParseError {
    match row.field(index, "layout") {
        Err(error) => error,
        Ok((_, column)) => row.error(
            column,
            "the row has no layout: a jigsaw row gives its regions in the column `layout` (N·N \
             region characters, as a LAYOUT PUZZLE line gives them), or --jigsaw FILE gives them \
             for every row"
                .to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::corpus::detect_header;

    const LAYOUT: &str =
        "aaabbbbbcaaabbbbccaaaccccccdddeeffffdgdehhfffdgdeehffidggehhiiidggehhhiigggeehiii";

    fn read(text: &str, request: &ShapeRequest) -> Result<ShapedRows, ParseErrors> {
        let header = detect_header(text.as_bytes(), None).unwrap().unwrap();
        let body = &text.as_bytes()[text.find('\n').unwrap() + 1..];
        let shape = CorpusShape::tell(body, &header, 2, request).unwrap()?;
        Ok(shape.read(body, 2))
    }

    fn located(errors: &ParseErrors) -> Vec<(usize, usize)> {
        errors.listed().iter().map(|e| (e.line, e.column)).collect()
    }

    #[test]
    fn the_size_and_the_split_come_from_the_fields() {
        let text = "id,puzzle,solution\n1,265134543216314625452361631452126543,\n";
        let rows = read(text, &ShapeRequest::default()).unwrap();
        assert!(rows.errors.is_empty(), "{:?}", rows.errors);
        let shape = &rows.puzzles.shapes[0];
        assert_eq!(shape.size(), 6);
        assert_eq!(
            *shape.regions(),
            crate::model::shape::Regions::Boxes {
                rows: 3,
                columns: 2
            }
        );
        assert_eq!(rows.solved, [false]);
    }

    #[test]
    fn fields_of_the_wrong_length_and_characters_are_located() {
        let text = "puzzle,solution\n1234341221434321,\n12x4341221434321,\n123,\n";
        let rows = read(text, &ShapeRequest::default()).unwrap();
        assert_eq!(located(&rows.errors), [(3, 3), (4, 4)]);
        assert_eq!(rows.puzzles.len(), 1);
        let errors = read("puzzle,x\n12345,\n", &ShapeRequest::default()).unwrap_err();
        assert_eq!(located(&errors), [(2, 1)]);
    }

    #[test]
    fn jigsaw_rows_need_a_layout_unless_the_flags_give_it() {
        let puzzle = ".".repeat(81);
        let text = format!("layout,puzzle\n{LAYOUT},{puzzle}\n,{puzzle}\n");
        let rows = read(&text, &ShapeRequest::default()).unwrap();
        assert_eq!(located(&rows.errors), [(3, 1)]);
        assert!(rows.puzzles.shape(0).layout_text().is_some());
        let first_empty = format!("layout,puzzle\n,{puzzle}\n");
        let errors = read(&first_empty, &ShapeRequest::default()).unwrap_err();
        assert_eq!(located(&errors), [(2, 1)]);
        let given = ShapeRequest {
            layout: Some(crate::model::request::LayoutSource::Text {
                text: LAYOUT.as_bytes().to_vec(),
                name: "l".into(),
            }),
            ..ShapeRequest::default()
        };
        let other = ["aaabbbccc", "dddeeefff", "ggghhhiii"]
            .map(|band| band.repeat(3))
            .concat();
        let text = format!("layout,puzzle\n,{puzzle}\n{LAYOUT},{puzzle}\n{other},{puzzle}\n");
        let rows = read(&text, &given).unwrap();
        assert_eq!(rows.puzzles.len(), 2);
        assert_eq!(located(&rows.errors), [(4, 1)]);
        let bad = format!("layout,puzzle\n{},{puzzle}\n", LAYOUT.replace('i', "a"));
        let rows = read(&bad, &ShapeRequest::default());
        let errors = rows.map(|rows| rows.errors).unwrap_or_else(|e| e);
        assert!(errors.listed()[0].message.contains("layout"), "{errors:?}");
    }
}
