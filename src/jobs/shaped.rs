//! The jobs of the generic kernel that read an input: `-s`, `--rate`, `--check`, `--canon` and
//! `--shuffle` for every shape other than the standard 9×9 one, of files in its layouts or CSV
//! corpora of its rows (see `text/shaped_corpus.rs`), which are written back as 9×9 corpora are.

mod classes;
mod layouts;
mod through;

use std::path::PathBuf;

use super::Finished;
use super::route::first_value;
use crate::check::shaped::{self as check, GridChecker, SolutionChecker};
use crate::check::shaped_corpus::CorpusChecker;
use crate::check::{CorpusRules, GridRules, Problem, Report};
use crate::classes::distinct::{grid_pair, puzzle_pair};
use crate::classes::shaped::ClassIndex;
use crate::error::Error;
use crate::io::input::{Boundary, Piece, Pieces, open_pieces, source_name};
use crate::io::output::Destination;
use crate::model::request::ShapeRequest;
use crate::text::alphabet::written_alphabet;
use crate::text::corpus::{Header, detect_header};
use crate::text::format::Format;
use crate::text::parse::{ParseError, ParseErrors};
use crate::text::shaped::{Layout, ShapedPuzzles, detect_layout, detect_size, read_shaped};
use crate::text::shaped_corpus::{CorpusShape, puzzle_lines};
pub(super) use classes::canon_pieces;
use classes::shuffle_pieces;
use classes::turns_layouts;
use through::{rate_pieces, solve_pieces};

/// A job of the generic kernel.
#[derive(Debug)]
pub enum Job {
    /// `-s FILE`: N from the flags or from the input.
    Solve {
        path: PathBuf,
        request: ShapeRequest,
        format: Option<Format>,
        unique: bool,
        column: Option<String>,
    },
    /// `--rate FILE`.
    Rate {
        path: PathBuf,
        request: ShapeRequest,
        column: Option<String>,
    },
    /// `--check FILE...` (one file with `puzzles` or `classes`), with `--puzzles PFILE` when
    /// `puzzles` is given; with `classes`, no two grids (puzzles) equivalent.
    Check {
        paths: Vec<PathBuf>,
        puzzles: Option<PathBuf>,
        request: ShapeRequest,
        rules: GridRules,
        corpus: CorpusRules,
        classes: bool,
    },
    /// `--canon FILE`.
    Canon {
        path: PathBuf,
        request: ShapeRequest,
        column: Option<String>,
    },
    /// `--shuffle FILE`, in `format` or the input's own.
    Shuffle {
        path: PathBuf,
        request: ShapeRequest,
        format: Option<Format>,
        seed: u64,
        column: Option<String>,
    },
}

/// Whether an input read without shape flags is of another shape than 9×9, a jigsaw one, one
/// written in another alphabet, or puzzles of X-Sudoku (see `text/boxes.rs`), so that the generic
/// kernel, not the standard one, must read it. A CSV corpus (`column`: its puzzle column, when
/// named) is told from the puzzle fields of its first rows, read as the lines of a line file; one
/// whose header is malformed is left to the standard reader, which names the problem. With
/// `standard` (the flags named the standard shape), only lines or a corpus that carry layouts are
/// of another shape: the standard reader would ignore their regions. `request` asks for no shape but
/// may refuse the diagonals (`--diagonal=no`).
pub(super) fn is_other_shape(
    text: &[u8],
    column: Option<&str>,
    standard: bool,
    request: &ShapeRequest,
) -> bool {
    match detect_header(text, column) {
        None => is_other_line_text(text, standard, request),
        Some(Ok(header)) => {
            let body = memchr::memchr(b'\n', text).map_or(text.len(), |at| at + 1);
            let lines = puzzle_lines(&text[body..], &header, 2);
            // A layout column makes a jigsaw corpus, even where its first row's field is empty
            // (which the generic reader then reports) and the row reads as a plain 9×9 line.
            header.layout.is_some() || is_other_line_text(&lines, standard, request)
        }
        Some(Err(_)) => false,
    }
}

/// Whether `text` is a 9×9 text in compact rows (nine cells a line, no spaces), which the 9×9
/// writer cannot answer in kind: `-s` without `--format` answers it through the generic kernel,
/// whose writer keeps every layout.
pub(super) fn is_compact_rows(text: &[u8]) -> bool {
    detect_header(text, None).is_none()
        && detect_layout(text, Some(9))
            .is_some_and(|(size, layout)| size == 9 && layout == Layout::Grid { compact: true })
}

/// Whether lines are of another shape than 9×9: they carry layouts, or, unless the flags named
/// the standard shape (`standard`), their size, alphabet or diagonals say so (see
/// [`is_other_shape`]).
fn is_other_line_text(text: &[u8], standard: bool, request: &ShapeRequest) -> bool {
    detect_size(text, None).is_some_and(|(size, prefixed)| {
        // Lines that carry their layouts are a jigsaw's, whatever size the flags name.
        prefixed
            || !standard
                && (size != 9
                    || written_alphabet(text, size, prefixed).is_some()
                    || read_shaped(text, request)
                        .is_ok_and(|(puzzles, _)| puzzles.shapes[0].diagonal()))
    })
}

/// Runs `job` (`inputs`: its inputs, in order, those already opened).
pub(super) fn run(
    job: Job,
    inputs: Vec<Pieces>,
    destination: Destination,
) -> Result<Finished, Error> {
    let mut given = inputs.into_iter();
    let mut open = |path: &PathBuf| match given.next() {
        Some(input) => Ok(input),
        None => open_pieces(path),
    };
    match job {
        Job::Solve {
            path,
            request,
            format,
            unique,
            column,
        } => {
            let mut input = open(&path)?;
            layouts::refuse_grid("-s", &path, format, &mut input)?;
            solve_pieces(
                ShapedPieces::new(input, request, column),
                format,
                unique,
                destination,
            )
        }
        Job::Rate {
            path,
            request,
            column,
        } => rate_pieces(
            ShapedPieces::new(open(&path)?, request, column),
            destination,
        ),
        Job::Canon {
            path,
            request,
            column,
        } => canon_pieces(open(&path)?, request, column.as_deref(), destination),
        Job::Shuffle {
            path,
            request,
            format,
            seed,
            column,
        } => {
            let mut input = open(&path)?;
            layouts::refuse_grid("--shuffle", &path, format, &mut input)?;
            shuffle_pieces(
                input,
                request,
                (format, column.as_deref()),
                seed,
                destination,
            )
        }
        Job::Check {
            paths,
            puzzles,
            request,
            rules,
            corpus,
            classes,
        } => {
            let mut inputs = Vec::with_capacity(paths.len());
            for path in &paths {
                inputs.push(open(path)?);
            }
            let reports = match puzzles {
                None => {
                    let inputs = paths
                        .iter()
                        .zip(inputs)
                        .map(|(path, input)| {
                            let pieces =
                                ShapedPieces::new(input, request.clone(), corpus.column.clone())
                                    .diagonals_matter(classes);
                            (source_name(path), pieces)
                        })
                        .collect();
                    check_inputs(inputs, rules, corpus.unique, classes)?
                }
                Some(puzzles) => {
                    let input = inputs.remove(0);
                    let puzzle_pieces = open(&puzzles)?;
                    let name = source_name(&puzzles);
                    let classes = classes.then_some(name.as_str());
                    match check_solution_pieces(input, puzzle_pieces, request, rules, classes)? {
                        Ok(report) => vec![(source_name(&paths[0]), report)],
                        Err(errors) => {
                            return super::run::unreadable_puzzles(&name, &errors);
                        }
                    }
                }
            };
            super::run::finish_checks(&reports)
        }
    }
}

/// What the pieces read so far tell of an input's shape: the first readable piece gives the size
/// and the layout, which every later piece keeps.
struct ShapeSoFar {
    request: ShapeRequest,
    layout: Option<Layout>,
}

impl ShapeSoFar {
    fn new(request: ShapeRequest) -> ShapeSoFar {
        ShapeSoFar {
            request,
            layout: None,
        }
    }

    fn boundary(&self, text: &[u8]) -> Boundary {
        boundary(self.layout, self.request.known_size(), text)
    }

    /// The records and problems of `piece`, located within it; the located problems alone when
    /// nothing in it tells the shape.
    fn read(&mut self, piece: &[u8]) -> Result<(ShapedPuzzles, ParseErrors), ParseErrors> {
        let (puzzles, errors) = read_shaped(piece, &self.request)?;
        if self.layout.is_none() {
            self.request.settle(&puzzles.shapes[0]);
            self.layout = Some(puzzles.layout);
        }
        Ok((puzzles, errors))
    }
}

/// What an input turned out to be, once its first piece is read.
enum Text {
    /// Not known yet: no piece was read.
    Unknown,
    /// Records in one of the layouts of `text/shaped.rs`.
    Records,
    /// A CSV corpus: its header, and the shape of its rows once a row has told it.
    Corpus {
        header: Box<Header>,
        shape: Option<Box<CorpusShape>>,
    },
}

/// An input of one shape read a piece at a time, as `-s`, `--rate` and `--check` read it, with
/// lines counted from the start of the input.
struct ShapedPieces {
    pieces: Pieces,
    shape: ShapeSoFar,
    records: usize,
    /// The puzzle column `--column` names.
    column: Option<String>,
    text: Text,
    /// Whether the job's results differ between X-Sudoku and plain records, so that a text
    /// that leaves its diagonals in doubt is refused.
    diagonals_matter: bool,
}

/// The rows of a piece of a CSV corpus, beside its puzzles.
struct CorpusRows {
    /// The rows as read, for the results to go into.
    records: Vec<csv::ByteRecord>,
    /// Their solutions (see [`crate::text::shaped_corpus::ShapedRows::solutions`]).
    solutions: ShapedPuzzles,
    /// Whether each row has one.
    solved: Vec<bool>,
    /// Whether the rows carry their own layouts (see [`CorpusShape::carries_layouts`]).
    layouts: bool,
}

/// One piece of a [`ShapedPieces`].
struct ShapedPiece {
    /// Its records; none when `unreadable`.
    puzzles: ShapedPuzzles,
    /// Its problems.
    errors: ParseErrors,
    /// Whether nothing in it tells the shape (its problems then say why).
    unreadable: bool,
    /// Whether it is a piece of a stream that no record has come from yet, and holds none: the
    /// reading ends with the problem that says so, or an endless stream of nothing is read for
    /// ever.
    empty_stream: bool,
    /// Whether no piece before it told the shape.
    first: bool,
    /// The line of the input its last byte is on.
    last_line: usize,
    /// Its text.
    text: Piece,
    /// Its rows, when the input is a CSV corpus.
    rows: Option<CorpusRows>,
}

impl ShapedPieces {
    fn new(pieces: Pieces, request: ShapeRequest, column: Option<String>) -> ShapedPieces {
        ShapedPieces {
            pieces,
            shape: ShapeSoFar::new(request),
            records: 0,
            column,
            text: Text::Unknown,
            diagonals_matter: false,
        }
    }

    /// These pieces, for a job whose results differ between X-Sudoku and plain records when
    /// `matter`: a text that leaves its diagonals in doubt is refused before any result.
    fn diagonals_matter(self, matter: bool) -> ShapedPieces {
        ShapedPieces {
            diagonals_matter: matter,
            ..self
        }
    }

    fn is_stream(&self) -> bool {
        self.pieces.file_len().is_none()
    }

    /// Whether the input turned out to be records, not a CSV corpus (known once its first piece
    /// is read).
    fn is_records(&self) -> bool {
        matches!(self.text, Text::Records)
    }

    /// Whether the input was read to its end.
    fn is_done(&self) -> bool {
        self.pieces.is_done()
    }

    fn name(&self) -> &str {
        self.pieces.name()
    }

    /// The header of a CSV corpus.
    fn header(&self) -> Option<&Header> {
        match &self.text {
            Text::Corpus { header, .. } => Some(header),
            _ => None,
        }
    }

    fn next(&mut self) -> Result<Option<ShapedPiece>, Error> {
        let (shape, text, column) = (&self.shape, &self.text, self.column.as_deref());
        let boundary = |piece: &[u8]| match text {
            Text::Corpus { .. } => Boundary::CsvRecord,
            Text::Unknown if detect_header(piece, column).is_some() => Boundary::CsvRecord,
            _ => shape.boundary(piece),
        };
        let Some(piece) = self.pieces.next_piece(boundary)? else {
            return Ok(None);
        };
        let first = self.shape.layout.is_none();
        let shift = piece.first_line - 1;
        if matches!(self.text, Text::Unknown) {
            self.text = match detect_header(&piece, column) {
                Some(Ok(header)) => Text::Corpus {
                    header: Box::new(header),
                    shape: None,
                },
                Some(Err(error)) => {
                    let mut errors = ParseErrors::new();
                    errors.push(error);
                    return Ok(Some(self.unreadable(piece, errors)));
                }
                None if column.is_some() => {
                    return Err(Error::column_without_corpus(self.name()));
                }
                None => Text::Records,
            };
        }
        let (mut puzzles, errors, unreadable, rows) = match &mut self.text {
            Text::Corpus { header, shape } => {
                let (body, first_line) = if piece.first_line == 1 {
                    let body = memchr::memchr(b'\n', &piece).map_or(piece.len(), |at| at + 1);
                    (&piece[body..], 2)
                } else {
                    (&piece[..], piece.first_line)
                };
                if shape.is_none() {
                    match CorpusShape::tell(body, header, first_line, &self.shape.request) {
                        Some(Ok(told)) => {
                            self.shape.request.settle(told.base());
                            self.shape.layout = Some(Layout::Line);
                            *shape = Some(Box::new(told));
                        }
                        Some(Err(errors)) => return Ok(Some(self.unreadable(piece, errors))),
                        None => {}
                    }
                }
                match shape {
                    Some(shape) => {
                        let rows = shape.read(body, first_line);
                        let corpus = CorpusRows {
                            records: rows.records,
                            solutions: rows.solutions,
                            solved: rows.solved,
                            layouts: shape.carries_layouts(),
                        };
                        (rows.puzzles, rows.errors, false, Some(corpus))
                    }
                    None => {
                        let none = ShapedPuzzles::empty_like(&self.shape.request);
                        let corpus = CorpusRows {
                            records: Vec::new(),
                            solutions: none.clone(),
                            solved: Vec::new(),
                            layouts: false,
                        };
                        (none, ParseErrors::new(), false, Some(corpus))
                    }
                }
            }
            _ => match self.shape.read(&piece) {
                Ok((puzzles, errors)) => {
                    let errors = shifted(errors, shift);
                    (puzzles, errors, false, None)
                }
                Err(errors) => {
                    let none = ShapedPuzzles::empty_like(&self.shape.request);
                    (none, shifted(errors, shift), true, None)
                }
            },
        };
        if first && self.diagonals_matter && puzzles.diagonals_in_doubt {
            return Err(Error::diagonals_in_doubt(self.name()));
        }
        if rows.is_none() {
            for line in &mut puzzles.lines {
                *line += shift;
            }
        }
        let mut errors = errors;
        let header_only = matches!(self.text, Text::Corpus { .. }) && piece.is_first_line_alone();
        let empty_stream = self.is_stream()
            && !piece.last
            && !header_only
            && self.records == 0
            && puzzles.is_empty()
            && errors.is_empty();
        if empty_stream {
            errors.push(piece.empty_stream_error());
        }
        self.records += puzzles.len();
        Ok(Some(ShapedPiece {
            puzzles,
            errors,
            unreadable,
            empty_stream,
            first,
            last_line: shift + check::last_line(&piece),
            text: piece,
            rows,
        }))
    }

    /// A piece that tells nothing of the shape, for `errors` (located in the input).
    fn unreadable(&self, piece: Piece, errors: ParseErrors) -> ShapedPiece {
        ShapedPiece {
            puzzles: ShapedPuzzles::empty_like(&self.shape.request),
            errors,
            unreadable: true,
            empty_stream: false,
            first: true,
            last_line: piece.first_line - 1 + check::last_line(&piece),
            text: piece,
            rows: None,
        }
    }
}

/// What [`check_file`] found in one input.
struct Checked {
    /// A CSV corpus's check, row by row; `None` for grids, whose problems the checker holds.
    corpus: Option<CorpusChecker>,
    /// The input's last line.
    last_line: usize,
    /// With `--classes`, the equivalent pairs found.
    pairs: Option<Vec<Problem>>,
}

/// `--check` of grids of every shape, a piece of the input at a time as `-s` reads it (see
/// [`ShapedPieces`]): every grid leaves 16 bytes for the search for repeats (spilled to disk past
/// the memory budget, as the 9×9 checker's are). A CSV corpus is checked row by row instead, and
/// with `unique` every puzzle's solutions counted. Several files are checked in turn, against
/// each other for repeats. A stream is not read past its first piece with a problem; a file is
/// read to its end, so that its report names every problem.
fn check_inputs(
    inputs: Vec<(String, ShapedPieces)>,
    rules: GridRules,
    unique: bool,
    classes: bool,
) -> Result<Vec<(String, Report)>, Error> {
    let mut checker = GridChecker::within_budget(rules.first);
    if let [_] = &inputs[..] {
        let (name, pieces) = inputs.into_iter().next().expect("one input");
        let checked = check_file(pieces, &mut checker, rules.first, unique, classes)?;
        let mut report = match checked.corpus {
            Some(corpus) => corpus.finish(checked.last_line, rules.count),
            None => checker
                .finish(checked.last_line, rules.count)
                .map_err(spill_failed)?,
        };
        with_classes(&mut report, checked.pairs);
        return Ok(vec![(name, report)]);
    }
    debug_assert!(!classes, "--classes checks one file at a time");
    let (mut names, mut reports) = (Vec::new(), Vec::new());
    let mut last_line = 1;
    for (name, pieces) in inputs {
        let checked = check_file(pieces, &mut checker, rules.first, unique, false)?;
        let (report, next) = checker.next_file();
        checker = next;
        names.push(name);
        // Several files' count is their total (`finish_files`).
        reports.push(
            checked
                .corpus
                .map_or(report, |corpus| corpus.finish(1, None)),
        );
        last_line = checked.last_line.max(1);
    }
    checker
        .finish_files(&mut reports, &names, last_line, rules.count)
        .map_err(spill_failed)?;
    Ok(names.into_iter().zip(reports).collect())
}

/// Checks one input's pieces with `checker` (see [`check_inputs`]).
fn check_file(
    mut pieces: ShapedPieces,
    checker: &mut GridChecker,
    first: Option<u8>,
    unique: bool,
    classes: bool,
) -> Result<Checked, Error> {
    let mut corpus: Option<CorpusChecker> = None;
    let mut index = classes.then(ClassIndex::default);
    let mut pairs = Vec::new();
    let mut last_line = 0;
    while let Some(mut piece) = pieces.next()? {
        last_line = piece.last_line;
        if piece.first && !piece.unreadable {
            check_first(first, &piece.puzzles, pieces.name())?;
        }
        if piece.first && unique && pieces.is_records() {
            return Err(Error::unique_without_corpus(pieces.name()));
        }
        let problem = match &piece.rows {
            Some(rows) => corpus
                .get_or_insert_with(|| CorpusChecker::new(first, unique))
                .rows(&piece.puzzles, &rows.solutions, &rows.solved, &piece.errors),
            None if piece.unreadable => {
                checker.unreadable(&piece.errors);
                true
            }
            None => {
                let text = &piece.text;
                let at = (&text[..], text.first_line, text.last);
                checker.piece(at, &piece.puzzles, &piece.errors)
            }
        };
        if let Some(index) = index.as_mut() {
            // A corpus's puzzles are compared, repeats included; grids that repeat are reported
            // by the check of repeats.
            let corpus = piece.rows.is_some();
            turns_layouts(&mut piece.puzzles, piece.rows.as_ref());
            let grids = &piece.puzzles;
            for (k, class) in index.classes_of(grids).into_iter().enumerate() {
                if let Some((later, earlier)) = index.meet(grids, k, class)
                    && (corpus || !earlier.equal)
                {
                    let (number, line) = (earlier.index + 1, earlier.line);
                    let message = if corpus {
                        puzzle_pair(earlier.equal, number, None, line)
                    } else {
                        grid_pair(number, line)
                    };
                    pairs.push(Problem {
                        line: grids.lines[k],
                        grid: Some(later + 1),
                        message,
                    });
                }
            }
        }
        // After a piece that tells nothing of the shape, or none of a stream, nothing tells what
        // follows: the report names what was read.
        if piece.unreadable || piece.empty_stream {
            break;
        }
        if problem && pieces.is_stream() {
            break;
        }
    }
    Ok(Checked {
        corpus,
        last_line,
        pairs: index.map(|_| pairs),
    })
}

/// Refuses a `--first` symbol that is none of the alphabet `grids` are read in (the first grids
/// of the input `name`).
fn check_first(first: Option<u8>, grids: &ShapedPuzzles, name: &str) -> Result<(), Error> {
    match first {
        Some(symbol) => {
            let of = format!("the grids of {name}");
            first_value(symbol, grids.shapes[0].symbols(), &of).map(drop)
        }
        None => Ok(()),
    }
}

/// Adds to `report` the equivalent pairs a check with `--classes` found (`None`: not asked).
fn with_classes(report: &mut Report, pairs: Option<Vec<Problem>>) {
    report.classes = pairs.is_some();
    for problem in pairs.into_iter().flatten() {
        report.add(problem);
    }
}

/// The error of a check whose keys written out cannot be read back.
fn spill_failed(error: std::io::Error) -> Error {
    Error::io("a temporary file of the repeats check", error)
}

/// Where a piece of a text of `layout` (`None`: as its text shows) may end. A first record that
/// fits no grid of the `known` size is malformed: cut at lines, so that its error comes at once.
fn boundary(layout: Option<Layout>, known: Option<usize>, text: &[u8]) -> Boundary {
    let detected = || {
        detect_layout(text, known).map(|(size, layout)| match known {
            Some(known) if known != size => Layout::Line,
            _ => layout,
        })
    };
    match layout.or_else(detected) {
        Some(Layout::Grid { .. }) => Boundary::EmptyLine,
        _ => Boundary::Line,
    }
}

/// `--check --puzzles` of every shape: the solutions and their puzzles both read a piece at a
/// time (see [`ShapedPieces`]), the puzzles as far as the solutions need them. A stream of
/// solutions is not read past its first piece with a problem; malformed puzzles are returned
/// instead of a report.
fn check_solution_pieces(
    solutions: Pieces,
    puzzles: Pieces,
    request: ShapeRequest,
    rules: GridRules,
    classes: Option<&str>,
) -> Result<Result<Report, ParseErrors>, Error> {
    let mut checker = SolutionChecker::new(rules.first);
    let mut index = classes.map(|_| ClassIndex::default());
    let mut pairs = Vec::new();
    let mut puzzles =
        ShapedPieces::new(puzzles, request.clone(), None).diagonals_matter(classes.is_some());
    // The puzzles' piece in hand, and the next of its puzzles to pair.
    let (mut held, mut next) = match next_puzzles(&mut puzzles)? {
        Ok(Some(piece)) => (piece, 0),
        Ok(None) => (ShapedPuzzles::empty_like(&request), 0),
        Err(errors) => return Ok(Err(errors)),
    };
    let request = checker.request_for(&held, &request);
    let class_list = |index: &mut Option<ClassIndex>, held: &ShapedPuzzles| match index {
        Some(index) => index.classes_of(held),
        None => Vec::new(),
    };
    let mut held_classes = class_list(&mut index, &held);
    let mut solution_pieces = ShapedPieces::new(solutions, request, None);
    let (mut paired, mut last_line) = (0, 0);
    while let Some(piece) = solution_pieces.next()? {
        last_line = piece.last_line;
        if piece.first && !piece.unreadable {
            check_first(rules.first, &piece.puzzles, solution_pieces.name())?;
        }
        checker.errors(&piece.errors);
        if piece.unreadable || piece.empty_stream {
            return Ok(Ok(checker.finish((paired, true), last_line, None)));
        }
        for index_in_piece in 0..piece.puzzles.len() {
            while next == held.len() {
                match next_puzzles(&mut puzzles)? {
                    Ok(Some(piece)) => {
                        (held, next) = (piece, 0);
                        held_classes = class_list(&mut index, &held);
                    }
                    Ok(None) => break,
                    Err(errors) => return Ok(Err(errors)),
                }
            }
            if next == held.len() {
                break;
            }
            if let (Some(classes), Some(name)) = (&mut index, classes) {
                let class = std::mem::take(&mut held_classes[next]);
                if let Some((later, earlier)) = classes.meet(&held, next, class) {
                    pairs.push(Problem {
                        line: piece.puzzles.lines[index_in_piece],
                        grid: Some(later + 1),
                        message: puzzle_pair(
                            earlier.equal,
                            earlier.index + 1,
                            Some(name),
                            earlier.line,
                        ),
                    });
                }
            }
            checker.pair(&piece.puzzles, index_in_piece, &held, next);
            (next, paired) = (next + 1, paired + 1);
        }
        checker.counted(piece.puzzles.len());
        // More solutions than puzzles is a problem of the count, found at the end.
        let beyond = paired < checker.solutions();
        if (beyond || checker.has_problems()) && solution_pieces.is_stream() {
            break;
        }
    }
    // The puzzles no solution came for count too; of a stream, only until they outnumber the
    // solutions, which are then known to be too few.
    let mut puzzles_in_all = paired + (held.len() - next);
    while !(puzzles.is_stream() && puzzles_in_all > checker.solutions()) {
        match next_puzzles(&mut puzzles)? {
            Ok(Some(piece)) => puzzles_in_all += piece.len(),
            Ok(None) => break,
            Err(errors) => return Ok(Err(errors)),
        }
    }
    let all = puzzles.is_done();
    let mut report = checker.finish((puzzles_in_all, all), last_line, rules.count);
    with_classes(&mut report, classes.map(|_| pairs));
    Ok(Ok(report))
}

/// The next piece of puzzles that holds any, `None` at the end of the input, or the problems of
/// the first malformed one.
fn next_puzzles(
    puzzles: &mut ShapedPieces,
) -> Result<Result<Option<ShapedPuzzles>, ParseErrors>, Error> {
    while let Some(piece) = puzzles.next()? {
        if !piece.errors.is_empty() {
            return Ok(Err(piece.errors));
        }
        if !piece.puzzles.is_empty() {
            return Ok(Ok(Some(piece.puzzles)));
        }
    }
    Ok(Ok(None))
}

/// `errors` of a piece whose first line is line `shift + 1` of its input, located in the input.
fn shifted(errors: ParseErrors, shift: usize) -> ParseErrors {
    let mut located = ParseErrors::new();
    for error in errors.listed() {
        located.push(ParseError {
            line: error.line + shift,
            ..error.clone()
        });
    }
    located.count_unlisted(errors.count() - errors.listed().len());
    located
}
