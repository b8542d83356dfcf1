//! CSV corpora: puzzle files with a header row, as the public corpora come (`quizzes,solutions`
//! with `0` for blanks; `puzzle,solution,...` elsewhere).
//!
//! The header names the columns: the puzzle column is the one named `puzzle`, `quizzes` or `quiz`
//! (or the one `--column` names), and a column named `solution` or `solutions` is read too. Rows
//! are split by the `csv` crate, so quoted fields and CRLF line ends are read as any CSV reader
//! would; each row keeps its fields as bytes ([`csv::ByteRecord`]), so that a job's results are
//! written back into the row it came from (`write_rows`): the solution column filled in by `-s`
//! (a column `solution` added at the end when there is none), the rating columns appended by
//! `--rate`, a column `canon` by `--canon`, the puzzle, solution and layout fields replaced by
//! `--shuffle`.
//!
//! A text is a corpus when its first line holds a comma, or names a puzzle or solution column
//! alone (a corpus of one column). Names match in any case, and a header that names the puzzle,
//! the solution or the `layout` column twice is an error, since either copy could pass for the
//! real one. Fields of 9×9 corpora are 81 cells, `1`–`9`, and `0` or `.` for
//! blanks; those of other shapes, and a jigsaw row's `layout`, are read by
//! [`crate::text::shaped_corpus`] through the same row walker (`each_row`) and written back by
//! the same `write_rows`. A large file's
//! pieces end only where a record ends, so a quoted field may span lines; a quote that is never
//! closed, and line ends of CR alone, are located errors (on the quote's line; on line 1), where
//! the reader would take the rest of the file for one field or one line. Problems are located
//! as `FILE:LINE:COLUMN` by `-s`, `--rate`, `--canon` and `--shuffle`, and by `--check` as
//! `FILE:LINE: column C: what` (a malformed field) or `FILE:LINE: grid K: what` (row K).

use crate::model::grid::{CELLS, Grid};
use crate::text::format::Format;
use crate::text::parse::{ParseError, ParseErrors, Puzzles, unexpected_cell, utf16_encoding};
use crate::text::raw_fields::{field_column, quote_left_open};

/// Names the puzzle column goes by, in any case.
const PUZZLE_NAMES: [&str; 3] = ["puzzle", "quizzes", "quiz"];
/// Names the solution column goes by, in any case.
const SOLUTION_NAMES: [&str; 2] = ["solution", "solutions"];
/// The name of the column of a jigsaw row's regions, in any case.
const LAYOUT_NAMES: [&str; 1] = ["layout"];

/// The header of a CSV corpus: its fields, and which hold the puzzles and the solutions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    fields: csv::ByteRecord,
    /// The index of the puzzle column.
    pub puzzle: usize,
    /// The index of the solution column, if there is one.
    pub solution: Option<usize>,
    /// The index of the layout column (a jigsaw row's regions), if there is one.
    pub layout: Option<usize>,
}

/// The first line of `text` when it is a CSV header (it holds a comma, or is the name of a
/// puzzle or solution column alone, and is no `#` comment), with the columns found in it;
/// `column` names the puzzle column instead of the usual names. `None` when it is not (the text
/// is in the line or grid format); an error when it is a header without a puzzle column.
pub fn detect_header(text: &[u8], column: Option<&str>) -> Option<Result<Header, ParseError>> {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
    // A comment line, which the line and grid formats skip, is no header, commas or not.
    // A header of one name is told apart before its line end, which may be a CR alone.
    let name = first.split(|&b| b == b'\r').next().unwrap_or_default();
    if first.starts_with(b"#") || !(first.contains(&b',') || names_a_column(name, column)) {
        return None;
    }
    if let Some(encoding) = utf16_encoding(text) {
        return Some(Err(ParseError {
            line: 1,
            column: 1,
            message: format!("the text is {encoding}; expected ASCII or UTF-8"),
        }));
    }
    // Rows are split at LF (CRLF too): a CR alone would leave every row inside the header line.
    if let Some(at) = memchr::memchr(b'\r', first).filter(|&at| at + 1 < first.len()) {
        return Some(Err(ParseError {
            line: 1,
            column: at + 1,
            message: "a line end of CR alone; expected LF or CRLF line ends".to_owned(),
        }));
    }
    let fields = read_records(first)
        .next()
        .map(|(record, ..)| record)
        .unwrap_or_default();
    let all_named = |names: &[&str]| -> Vec<usize> {
        (0..fields.len())
            .filter(|&i| {
                let field = String::from_utf8_lossy(&fields[i]);
                let field = field.trim();
                names.iter().any(|name| field.eq_ignore_ascii_case(name))
            })
            .collect()
    };
    let puzzle_names = match column {
        Some(column) => vec![column],
        None => PUZZLE_NAMES.to_vec(),
    };
    // A second column of the same name would be silently ignored, and a bogus copy could pass
    // for the real one.
    for names in [&puzzle_names[..], &SOLUTION_NAMES[..], &LAYOUT_NAMES[..]] {
        if let [first, second, ..] = all_named(names)[..] {
            return Some(Err(ParseError {
                line: 1,
                column: field_column(first_line(text), second),
                message: format!(
                    "a CSV header with two columns named like `{}` (fields {} and {}): which one \
                     to read is ambiguous",
                    String::from_utf8_lossy(&fields[first]).trim(),
                    first + 1,
                    second + 1
                ),
            }));
        }
    }
    let named = |names: &[&str]| all_named(names).first().copied();
    let puzzle = named(&puzzle_names);
    let Some(puzzle) = puzzle else {
        let wanted = match column {
            Some(column) => format!("a column named `{column}` (--column)"),
            None => "a column named puzzle, quizzes or quiz (or choose one with --column)".into(),
        };
        return Some(Err(ParseError {
            line: 1,
            column: 1,
            message: format!("a CSV header without {wanted}"),
        }));
    };
    let solution = named(&SOLUTION_NAMES).filter(|&s| s != puzzle);
    let layout = named(&LAYOUT_NAMES).filter(|&l| l != puzzle && Some(l) != solution);
    Some(Ok(Header {
        fields,
        puzzle,
        solution,
        layout,
    }))
}

/// For `--shuffle`, which turns a row's puzzle, solution and layout fields with one
/// transformation: the problem of a header (of `text`) whose puzzle column `--column` chose
/// leaves another column named as a puzzle or a solution column unturned, which would no longer
/// match its row (`--column solution` turned the solutions and kept the puzzles).
pub fn unturned_grids(text: &[u8], header: &Header) -> Result<(), ParseError> {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let unturned = (0..header.fields.len()).find(|&i| {
        let name = String::from_utf8_lossy(&header.fields[i]);
        let name = name.trim();
        i != header.puzzle
            && Some(i) != header.solution
            && PUZZLE_NAMES
                .iter()
                .chain(&SOLUTION_NAMES)
                .any(|known| name.eq_ignore_ascii_case(known))
    });
    match unturned {
        None => Ok(()),
        Some(i) => Err(ParseError {
            line: 1,
            column: field_column(first_line(text), i),
            message: format!(
                "--shuffle turns each row's puzzle (here `{}`) and its solution together, and would \
                 leave the column `{}` as it was, no longer matching its row; name the puzzle \
                 column with --column, or leave it out",
                String::from_utf8_lossy(&header.fields[header.puzzle]).trim(),
                String::from_utf8_lossy(&header.fields[i]).trim()
            ),
        }),
    }
}

/// Whether `line` is the name of a puzzle or solution column alone (`column`: the puzzle
/// column's), the header of a corpus of one column. Hardly a line of cells reads so: each name
/// but `quiz` repeats a letter, and `quiz` is a row only of a 4×4 grid of those four symbols
/// written without spaces.
fn names_a_column(line: &[u8], column: Option<&str>) -> bool {
    let name = String::from_utf8_lossy(line);
    let name = name.trim().trim_matches('"').trim();
    column
        .into_iter()
        .chain(PUZZLE_NAMES)
        .chain(SOLUTION_NAMES)
        .any(|known| name.eq_ignore_ascii_case(known))
}

/// The first line of `text`, without its line end.
fn first_line(text: &[u8]) -> &[u8] {
    let line = text.split(|&b| b == b'\n').next().unwrap_or_default();
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The rows of one piece of a CSV corpus (whole lines, the header excepted).
#[derive(Debug)]
pub struct Rows {
    /// The puzzles, in the line format.
    pub puzzles: Puzzles,
    /// Each row's solution, where the corpus has a solution column (`None` for an empty field).
    pub solutions: Vec<Option<Grid>>,
    /// The rows as read.
    pub records: Vec<csv::ByteRecord>,
    /// The problems of malformed rows.
    pub errors: ParseErrors,
}

/// One row of a corpus, as [`each_row`] hands it over: its fields, its line, and its raw text,
/// where each field's place is found (a quoted field may span lines).
pub(crate) struct Row<'t> {
    /// The row's fields.
    pub record: csv::ByteRecord,
    /// The line of the corpus where the row starts.
    pub line: usize,
    raw: &'t [u8],
}

impl Row<'_> {
    /// Field `index` and where its text starts, as one plus its offset in the row's text (which
    /// [`Row::error`] turns into a line and a column); the located problem when the row has no
    /// such field (`what` names it).
    pub fn field(&self, index: usize, what: &str) -> Result<(&[u8], usize), ParseError> {
        match self.record.get(index) {
            Some(bytes) => Ok((bytes, field_column(self.raw, index))),
            None => Err(self.error(self.raw.len() + 1, format!("the row has no {what} field"))),
        }
    }

    /// The problem `message` at `place` (one plus an offset in the row's text), on the line and
    /// at the column of the corpus that hold it.
    pub fn error(&self, place: usize, message: String) -> ParseError {
        let before = &self.raw[..(place - 1).min(self.raw.len())];
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |at| at + 1);
        ParseError {
            line: self.line + bytecount::count(before, b'\n'),
            column: place - line_start,
            message,
        }
    }
}

/// Hands each row of `text` (whose first line is line `first_line` of the corpus) to `read`, and
/// pushes onto `errors` the problems of the rows it refuses and of quotes never closed. Empty
/// lines are skipped; a row of commas is a row, whose empty puzzle is a problem.
pub(crate) fn each_row(
    text: &[u8],
    header: &Header,
    first_line: usize,
    errors: &mut ParseErrors,
    mut read: impl FnMut(Row) -> Result<(), ParseError>,
) {
    // One record ahead, not all of them: a piece of malformed rows then holds none, where a
    // list of every record held twenty times the piece's bytes.
    let mut records = read_records(text).peekable();
    while let Some((record, start, record_line)) = records.next() {
        let line = first_line + record_line - 1;
        let end = records.peek().map_or(text.len(), |next| next.1);
        // The reader takes a quote that is never closed to run to the end of the text, rows and
        // all: a field may hold line ends, but only inside a pair of quotes.
        if let Some(opened) = quote_left_open(&text[start..end]) {
            let opened_line = line + bytecount::count(&text[start..start + opened], b'\n');
            let line_start = memchr::memrchr(b'\n', &text[..start + opened]).map_or(0, |at| at + 1);
            errors.push(ParseError {
                line: opened_line,
                column: start + opened - line_start + 1,
                message: "a quote that is never closed".to_owned(),
            });
            continue;
        }
        if record.len() == 1 && record[0].is_empty() {
            continue;
        }
        // A row of more or fewer fields than the header would have the columns a job writes
        // land under another's name, and not read back.
        if record.len() != header.fields.len() {
            errors.push(ParseError {
                line,
                column: 1,
                message: format!(
                    "the row has {} field{}, the header {}",
                    record.len(),
                    if record.len() == 1 { "" } else { "s" },
                    header.fields.len()
                ),
            });
            continue;
        }
        // The row's text, without the line ends (and any empty lines) after it.
        let raw = &text[start..end];
        let raw = &raw[..raw
            .iter()
            .rposition(|&b| b != b'\n' && b != b'\r')
            .map_or(0, |at| at + 1)];
        if let Err(error) = read(Row { record, line, raw }) {
            errors.push(error);
        }
    }
}

/// Reads the rows of `text`, whose first line is line `first_line` of the corpus.
pub(crate) fn read_rows(text: &[u8], header: &Header, first_line: usize) -> Rows {
    let mut rows = Rows {
        puzzles: Puzzles::empty(Format::Line),
        solutions: Vec::new(),
        records: Vec::new(),
        errors: ParseErrors::new(),
    };
    let (mut puzzles, mut solutions, mut records) = (Vec::new(), Vec::new(), Vec::new());
    let mut lines = Vec::new();
    each_row(text, header, first_line, &mut rows.errors, |row| {
        let field = |index: usize, what: &str| -> Result<Option<Grid>, ParseError> {
            let (bytes, column) = row.field(index, what)?;
            if bytes.is_empty() && what == "solution" {
                return Ok(None);
            }
            read_cells(bytes)
                .map(Some)
                .map_err(|(offset, message)| row.error(column + offset, message))
        };
        let puzzle = field(header.puzzle, "puzzle")?;
        let solution = header.solution.map(|s| field(s, "solution")).transpose()?;
        puzzles.push(puzzle.expect("a puzzle field is never read as empty"));
        lines.push(row.line);
        solutions.push(solution.flatten());
        records.push(row.record);
        Ok(())
    });
    rows.puzzles.grids = puzzles;
    rows.puzzles.lines = lines;
    rows.solutions = solutions;
    rows.records = records;
    rows
}

/// A whole CSV text read as `-s` reads a corpus (the header on its first line, the rows after it),
/// for the modes that take their input whole. `None` when the text is not a corpus (its first line
/// holds no comma); the located problems of its header or of its rows otherwise.
pub(crate) fn read_corpus(
    text: &[u8],
    column: Option<&str>,
) -> Option<Result<(Header, Rows), ParseErrors>> {
    let header = match detect_header(text, column)? {
        Ok(header) => header,
        Err(error) => {
            let mut errors = ParseErrors::new();
            errors.push(error);
            return Some(Err(errors));
        }
    };
    let body = memchr::memchr(b'\n', text).map_or(text.len(), |at| at + 1);
    let rows = read_rows(&text[body..], &header, 2);
    if rows.errors.is_empty() {
        Some(Ok((header, rows)))
    } else {
        Some(Err(rows.errors))
    }
}

/// A CSV text of `header`'s fields and then `records`, quoted as [`write_rows`] quotes them.
pub(crate) fn write_corpus(header: &Header, records: &[csv::ByteRecord]) -> Vec<u8> {
    write_records(std::iter::once(&header.fields).chain(records))
}

/// The records of `text` with the byte offset and the line (counted from 1) where each starts.
pub(crate) fn read_records(
    text: &[u8],
) -> impl Iterator<Item = (csv::ByteRecord, usize, usize)> + '_ {
    let mut reader = csv_reader(text);
    let mut record = csv::ByteRecord::new();
    // Lines are counted here, by LF: the reader counts a CRLF's CR as a line end of its own.
    let (mut counted_to, mut line) = (0, 1);
    std::iter::from_fn(move || match reader.read_byte_record(&mut record) {
        Ok(true) => {
            let start = record_start(text, record.position()?);
            line += bytecount::count(&text[counted_to..start], b'\n');
            counted_to = start;
            // Copied to its own size: the reader's buffer keeps the size of the longest record
            // read so far, and a clone of it would give every later row that much memory.
            let mut copy = csv::ByteRecord::with_capacity(record.as_slice().len(), record.len());
            copy.extend(record.iter());
            Some((copy, start, line))
        }
        _ => None,
    })
}

/// The reader of every CSV text: any number of fields a row, no header of its own.
fn csv_reader(text: &[u8]) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text)
}

/// Where CSV text that starts at a record's start may be cut so that both sides hold whole
/// records: after its last line end outside a quoted field; `None` if there is none.
pub(crate) fn record_cut(text: &[u8]) -> Option<usize> {
    if memchr::memchr(b'"', text).is_none() {
        return memchr::memrchr(b'\n', text).map(|at| at + 1);
    }
    // Read from a record's start, every record read starts at one; the last may be cut short.
    let mut reader = csv_reader(text);
    let mut record = csv::ByteRecord::new();
    let mut last_start = 0;
    while let Ok(true) = reader.read_byte_record(&mut record) {
        last_start = record.position().map_or(0, |at| record_start(text, at));
    }
    Some(last_start).filter(|&at| at > 0)
}

/// Where in `text` the record the reader places at `position` starts: after a CRLF, the reader
/// places the next record at the LF (it ends a record at the CR), and the record starts after it.
fn record_start(text: &[u8], position: &csv::Position) -> usize {
    let at = usize::try_from(position.byte()).map_or(text.len(), |at| at.min(text.len()));
    at + usize::from(text.get(at) == Some(&b'\n'))
}

/// Reads an 81-cell field: `1`-`9`, and `0`, `.` or `-` for blanks. The error is an offset from the
/// field's first byte and a message.
fn read_cells(field: &[u8]) -> Result<Grid, (usize, String)> {
    let mut cells = [0; CELLS];
    for (i, &byte) in field.iter().enumerate().take(CELLS) {
        cells[i] = match byte {
            b'1'..=b'9' => byte - b'0',
            b'0' | b'.' | b'-' => 0,
            _ => return Err((i, unexpected_cell(field, i))),
        };
    }
    if field.len() != CELLS {
        return Err((
            field.len().min(CELLS),
            format!("expected 81 cells, found {}", field.len()),
        ));
    }
    Ok(Grid::from_cells(cells).expect("cells are digits"))
}

/// How a job's results go into the rows of a corpus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowResult {
    /// Each result line is a solution, its cells alone, written into the solution column (added
    /// at the end when the corpus has none).
    Solution,
    /// Each result line is `PUZZLE,FIELDS...`: the fields after the puzzle are appended to the row,
    /// and the result's header fields after its first to the header.
    Appended,
    /// Each result line is one field, appended to the row in a column of this name.
    Column(&'static str),
    /// Each result line is `PUZZLE,SOLUTION,LAYOUT`: written over the row's puzzle field, and
    /// over its solution and layout fields where the result's are not empty (`--shuffle`).
    Replaced,
}

/// Whether the results of a job can go into the rows under `header`: solutions are written into
/// the solution column, or a new one named `solution`, which must then not be the puzzle column
/// (`--column solution`).
pub(crate) fn check_result_column(header: &Header, result: RowResult) -> Result<(), ParseError> {
    let puzzle_name = String::from_utf8_lossy(&header.fields[header.puzzle]);
    let puzzle_name = puzzle_name.trim();
    if result == RowResult::Solution
        && header.solution.is_none()
        && SOLUTION_NAMES
            .iter()
            .any(|name| puzzle_name.eq_ignore_ascii_case(name))
    {
        return Err(ParseError {
            line: 1,
            column: 1,
            message: format!(
                "the puzzle column `{puzzle_name}` is named as the solution column -s writes; \
                 rename it or choose another with --column"
            ),
        });
    }
    Ok(())
}

/// The names of the columns a job adds to each row ([`RowResult::Column`] and
/// [`RowResult::Appended`]; none for the others, which write into columns the corpus names).
fn added_names(result: RowResult, result_header: &[u8]) -> Vec<&[u8]> {
    match result {
        RowResult::Column(name) => vec![name.as_bytes()],
        RowResult::Appended => {
            let line = result_header.strip_suffix(b"\n").unwrap_or(result_header);
            line.split(|&b| b == b',').skip(1).collect()
        }
        RowResult::Solution | RowResult::Replaced => Vec::new(),
    }
}

/// For each column a job adds, the corpus's column of that name, which takes its values in place:
/// rating a rated corpus, or one that `-n` wrote with its `level`, must not write a second column
/// of a name, which no reader could tell from the first. The puzzle column is never written over.
fn added_places(header: &Header, names: &[&[u8]]) -> Vec<Option<usize>> {
    let same = |a: &[u8], b: &[u8]| a.trim_ascii().eq_ignore_ascii_case(b.trim_ascii());
    names
        .iter()
        .map(|&name| {
            (0..header.fields.len()).find(|&i| i != header.puzzle && same(&header.fields[i], name))
        })
        .collect()
}

/// The header of the output: the corpus's, with the solution column added or the columns the
/// job adds that the corpus has none of.
pub(crate) fn write_header(header: &Header, result: RowResult, result_header: &[u8]) -> Vec<u8> {
    let mut fields = header.fields.clone();
    match result {
        RowResult::Solution if header.solution.is_none() => fields.push_field(b"solution"),
        RowResult::Solution | RowResult::Replaced => {}
        RowResult::Column(_) | RowResult::Appended => {
            let names = added_names(result, result_header);
            let places = added_places(header, &names);
            for (name, place) in names.iter().zip(places) {
                if place.is_none() {
                    fields.push_field(name);
                }
            }
        }
    }
    write_records(std::iter::once(&fields))
}

/// The rows of `records` with the job's result lines (`results`, one line per row) written into
/// them as `result` says, under the header [`write_header`] writes with `result_header`.
pub(crate) fn write_rows(
    header: &Header,
    records: &[csv::ByteRecord],
    results: &[u8],
    (result, result_header): (RowResult, &[u8]),
) -> Vec<u8> {
    let places = added_places(header, &added_names(result, result_header));
    let lines = results.split(|&b| b == b'\n');
    let rows: Vec<csv::ByteRecord> = records
        .iter()
        .zip(lines)
        .map(|(record, line)| {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let mut row = csv::ByteRecord::new();
            match result {
                RowResult::Solution => {
                    let solution = line;
                    for (i, field) in record.iter().enumerate() {
                        row.push_field(if Some(i) == header.solution {
                            solution
                        } else {
                            field
                        });
                    }
                    for i in record.len()..header.fields.len() {
                        row.push_field(if Some(i) == header.solution {
                            solution
                        } else {
                            b""
                        });
                    }
                    if header.solution.is_none() {
                        row.push_field(solution);
                    }
                }
                RowResult::Column(_) | RowResult::Appended => {
                    let mut fields: Vec<&[u8]> = record.iter().collect();
                    let added: Vec<&[u8]> = match result {
                        RowResult::Column(_) => vec![line],
                        _ => line.split(|&b| b == b',').skip(1).collect(),
                    };
                    for (k, value) in added.into_iter().enumerate() {
                        match places.get(k).copied().flatten() {
                            Some(i) if i < fields.len() => fields[i] = value,
                            _ => fields.push(value),
                        }
                    }
                    row = csv::ByteRecord::from(fields);
                }
                RowResult::Replaced => {
                    let mut fields = line.split(|&b| b == b',');
                    let mut next = || fields.next().filter(|field| !field.is_empty());
                    let (puzzle, solution, layout) = (next(), next(), next());
                    let puzzle = puzzle.expect("a result line starts with the puzzle");
                    row = replaced_fields(header, record, puzzle, solution, layout);
                }
            }
            row
        })
        .collect();
    write_records(rows.iter())
}

/// `record` with its puzzle field replaced by `puzzle` (written with `.` for blanks, which
/// become the blank the field had: `-`, or `0` where it is no symbol), and its solution and
/// layout fields by `solution` and `layout` where they are given.
pub(crate) fn replaced_fields(
    header: &Header,
    record: &csv::ByteRecord,
    puzzle: &[u8],
    solution: Option<&[u8]>,
    layout: Option<&[u8]>,
) -> csv::ByteRecord {
    let old = record.get(header.puzzle).unwrap_or_default();
    let blank = if old.contains(&b'.') {
        b'.'
    } else if old.contains(&b'-') {
        b'-'
    } else if old.contains(&b'0') && !puzzle.contains(&b'0') {
        b'0'
    } else {
        b'.'
    };
    let puzzle: Vec<u8> = puzzle
        .iter()
        .map(|&b| if b == b'.' { blank } else { b })
        .collect();
    let mut row = csv::ByteRecord::new();
    for (i, field) in record.iter().enumerate() {
        let replacement = if i == header.puzzle {
            Some(&puzzle[..])
        } else if Some(i) == header.solution {
            solution
        } else if Some(i) == header.layout {
            layout
        } else {
            None
        };
        row.push_field(replacement.unwrap_or(field));
    }
    row
}

fn write_records<'r>(records: impl Iterator<Item = &'r csv::ByteRecord>) -> Vec<u8> {
    let mut writer = csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    for record in records {
        writer
            .write_byte_record(record)
            .expect("writing to memory cannot fail");
    }
    writer.into_inner().expect("writing to memory cannot fail")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "004300209005009001070060043006002087190007400050083000600000105003508690042910300";
    const SOLUTION: &str =
        "864371259325849761971265843436192587198657432257483916689734125713528694542916378";

    #[test]
    fn kaggle_header_and_rows() {
        let text = format!("quizzes,solutions\n{PUZZLE},{SOLUTION}\n\"{PUZZLE}\",\r\n");
        let header = detect_header(text.as_bytes(), None).unwrap().unwrap();
        assert_eq!((header.puzzle, header.solution), (0, Some(1)));
        let body = &text.as_bytes()[18..];
        let rows = read_rows(body, &header, 2);
        assert!(rows.errors.is_empty(), "{:?}", rows.errors);
        assert_eq!(rows.puzzles.lines, [2, 3]);
        assert_eq!(rows.solutions[0], Some(SOLUTION.parse().unwrap()));
        assert_eq!(rows.solutions[1], None);
    }

    #[test]
    fn text_is_cut_after_a_record_not_inside_a_quoted_field() {
        assert_eq!(record_cut(b"a,b\n1,2\n3,"), Some(8));
        let text = b"a,b\n1,\"x\ny\"\n2,\"p\nq";
        assert_eq!(record_cut(text), Some(12));
        assert_eq!(&text[12..], b"2,\"p\nq");
        assert_eq!(record_cut(b"a,\"x\ny"), None);
        assert_eq!(record_cut(b"a,\"x,\"\"y\"\"\nz\"\n"), None);
        assert_eq!(record_cut(b"a,\"b\r\n\"\r\nc,d"), Some(9));
    }

    #[test]
    fn a_column_name_alone_is_the_header_of_a_corpus_of_one_column() {
        let header = detect_header(b"Puzzle\r\n1.3\n", None).unwrap().unwrap();
        assert_eq!((header.puzzle, header.solution), (0, None));
        assert!(detect_header(b"\"quiz\"\n", None).unwrap().is_ok());
        assert!(detect_header(b"board\n", Some("board")).unwrap().is_ok());
        // A solution column alone is a corpus without its puzzle column.
        assert!(detect_header(b"solution\n", None).unwrap().is_err());
        for text in [
            &b"board\n"[..],
            b"puzzles\n",
            b"# puzzle\n",
            b"1234\n",
            b"1 2 3 4\n",
        ] {
            assert!(detect_header(text, None).is_none(), "{text:?}");
        }
    }

    #[test]
    fn a_header_needs_a_puzzle_column() {
        assert!(detect_header(b"a,b\n", None).unwrap().is_err());
        assert!(detect_header(b"puzzle,b\r1,2\r", None).unwrap().is_err());
        assert!(detect_header(b"puzzle,b\r\n1,2\r\n", None).unwrap().is_ok());
        assert!(detect_header(b"id,board\n", Some("board")).unwrap().is_ok());
        assert!(detect_header(PUZZLE.as_bytes(), None).is_none());
    }

    #[test]
    fn problems_are_located_in_the_row() {
        let header = detect_header(b"id,puzzle\n", None).unwrap().unwrap();
        let rows = read_rows(b"7,12x\n\"8\",\"1234\"\n", &header, 2);
        let listed: Vec<(usize, usize)> = rows
            .errors
            .listed()
            .iter()
            .map(|e| (e.line, e.column))
            .collect();
        assert_eq!(listed, [(2, 5), (3, 10)]);
    }

    #[test]
    fn results_go_into_their_rows() {
        let header = detect_header(b"puzzle,id\n", None).unwrap().unwrap();
        let rows = read_rows(format!("{PUZZLE},a\n").as_bytes(), &header, 2);
        let solved = write_rows(
            &header,
            &rows.records,
            SOLUTION.as_bytes(),
            (RowResult::Solution, b""),
        );
        assert_eq!(solved, format!("{PUZZLE},a,{SOLUTION}\n").into_bytes());
        assert_eq!(
            write_header(&header, RowResult::Solution, b""),
            b"puzzle,id,solution\n"
        );
        let rated = write_rows(
            &header,
            &rows.records,
            format!("{PUZZLE},1,2\n").as_bytes(),
            (RowResult::Appended, b"puzzle,level,guesses\n"),
        );
        assert_eq!(rated, format!("{PUZZLE},a,1,2\n").into_bytes());
    }

    #[test]
    fn a_column_the_corpus_has_takes_the_result_in_place() {
        let header = detect_header(b"puzzle,Level,id\n", None).unwrap().unwrap();
        let rows = read_rows(format!("{PUZZLE},hard,a\n").as_bytes(), &header, 2);
        let result = (RowResult::Appended, &b"puzzle,level,guesses\n"[..]);
        let rated = write_rows(
            &header,
            &rows.records,
            format!("{PUZZLE},1,2\n").as_bytes(),
            result,
        );
        assert_eq!(rated, format!("{PUZZLE},1,a,2\n").into_bytes());
        assert_eq!(
            write_header(&header, result.0, result.1),
            b"puzzle,Level,id,guesses\n"
        );
        let canon = (RowResult::Column("canon"), &b""[..]);
        let header = detect_header(b"puzzle,canon\n", None).unwrap().unwrap();
        assert_eq!(write_header(&header, canon.0, canon.1), b"puzzle,canon\n");
    }

    #[test]
    fn a_replaced_row_keeps_the_fields_its_result_leaves_empty() {
        let header = detect_header(b"id,solution,layout,puzzle\n", None)
            .unwrap()
            .unwrap();
        let rows = read_rows(format!("7,,x,{PUZZLE}\n").as_bytes(), &header, 2);
        let replaced = write_rows(
            &header,
            &rows.records,
            b"p,,l\n",
            (RowResult::Replaced, b""),
        );
        assert_eq!(replaced, b"7,,l,p\n");
        assert_eq!(
            write_header(&header, RowResult::Replaced, b""),
            b"id,solution,layout,puzzle\n"
        );
    }
}
