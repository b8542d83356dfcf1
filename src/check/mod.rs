//! The grader: checks a file of complete grids (every grid valid, none repeated, the count and the
//! first digit as asked, the text exactly in the `-c` format), or a file of solutions against their
//! puzzles.
//!
//! It shares no code with the generator or the solver, only the puzzle parser, so that it cannot
//! share their bugs; its house checks are plain loops over the text's digits.
//!
//! # Speed
//! A file is read a piece at a time (whole grids, at most 32 MiB; see [`crate::io::input`]). A piece in
//! the exact `-c` layout has every grid at a fixed offset, so its grids are checked in parallel
//! straight from the text (**fast path**). The first byte out of place sends the piece through a
//! line-by-line scanner that names every format problem (**slow path**). Both give the places of
//! the well-formed grids, whose houses and first digit are then checked in parallel. Each grid
//! leaves a 16-byte key, a hash of its digits above its ordinal, so that repeats are found across
//! pieces and files once all are read: the keys are sorted in place, and a grid's copies meet.
//! Memory: the pieces being read, plus 16 bytes a grid (and 8 bytes for the line of each grid of
//! a piece that was not in the exact layout).

pub mod shaped;

use rayon::prelude::*;

use crate::error::Error;
use crate::io::input::{Boundary, Piece, Pieces};
use crate::model::grid::Grid;
use crate::problems::{Problems, shown_character};
use crate::text::corpus::Header;
use crate::text::format::Format;
use crate::text::parse::{ParseErrors, detect_format, parse_piece, utf16_encoding};

/// What the grids of a file must satisfy beyond being valid and distinct.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridRules {
    /// Exactly this many grids.
    pub count: Option<usize>,
    /// Every grid has this digit in its top-left cell.
    pub first: Option<u8>,
}

/// One problem, located by line (counted from 1) and, where it belongs to one, by grid number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The line of the file.
    pub line: usize,
    /// The grid it belongs to (counted from 1).
    pub grid: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// What a check was about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Subject {
    /// Complete grids, which must be valid and distinct.
    #[default]
    Grids,
    /// Solutions, which must be valid and keep their puzzles' givens.
    Solutions,
}

/// The outcome of a check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// What was checked.
    pub subject: Subject,
    /// How many grids the file holds.
    pub grids: usize,
    /// The problems found, the first by line listed.
    pub problems: Problems<Problem>,
    /// Whether the file's lines end in CRLF.
    pub crlf: bool,
    /// Whether equivalence classes were compared too (`--classes`).
    pub classes: bool,
}

impl Report {
    /// Counts `problem`, and lists it if it is among the first listed by line.
    pub(crate) fn add(&mut self, problem: Problem) {
        self.problems.insert_by_key(problem, |p| p.line);
    }

    fn merge(mut self, other: Report) -> Report {
        self.problems.merge_by_key(other.problems, |p| p.line);
        self
    }

    /// Whether the check found no problem.
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }

    /// The listed problems as `NAME:LINE: grid K: what`, then `... and N more` if some were not
    /// listed.
    pub(crate) fn problem_lines(&self, name: &str) -> Vec<String> {
        self.problems.lines(|p| match p.grid {
            Some(k) => format!("{name}:{}: grid {k}: {}", p.line, p.message),
            None => format!("{name}:{}: {}", p.line, p.message),
        })
    }

    /// The report as the grader prints it for the file named `name`: each listed problem as
    /// `NAME:LINE: grid K: what`, then `... and N more` if some were not listed, then the verdict:
    /// `ok: N grids, ...` or `FAIL: P problems in N grids`.
    pub fn text(&self, name: &str) -> String {
        let mut text = String::new();
        for line in self.problem_lines(name) {
            text += &line;
            text.push('\n');
        }
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        if self.is_clean() {
            let what = match (self.subject, self.classes) {
                (Subject::Grids, false) => "grids, all valid and distinct",
                (Subject::Grids, true) => "grids, all valid and pairwise inequivalent",
                (Subject::Solutions, false) => {
                    "solutions, all valid and keeping their puzzles' givens"
                }
                (Subject::Solutions, true) => {
                    "solutions, all valid and keeping their puzzles' givens, the puzzles pairwise \
                     inequivalent"
                }
            };
            let crlf = if self.crlf { " (CRLF line ends)" } else { "" };
            text += &format!("ok: {} {what}{crlf}\n", self.grids);
        } else {
            text += &format!(
                "FAIL: {} in {}\n",
                plural(self.problems.count(), "problem"),
                plural(self.grids, "grid")
            );
        }
        text
    }
}

/// Where a well-formed grid's text starts, on which line, and its number in the file (from 0,
/// counting malformed grids too).
#[derive(Clone, Copy)]
struct Spot {
    offset: usize,
    line: usize,
    grid: usize,
}

/// The layout of a file of grids, as its first line tells it.
#[derive(Clone, Copy)]
struct Layout {
    /// One line of 81 digits per grid (else 9 lines of 9 digits separated by spaces).
    line_format: bool,
    /// Bytes of a line end: 1 (LF) or 2 (CRLF).
    eol: usize,
}

impl Layout {
    fn detect(text: &[u8]) -> Layout {
        let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
        let crlf = first.ends_with(b"\r") && first.len() < text.len();
        let width = first.len() - usize::from(crlf);
        Layout {
            line_format: width == 81,
            eol: 1 + usize::from(crlf),
        }
    }

    /// Bytes from one row line's start to the next one's.
    fn row_stride(self) -> usize {
        if self.line_format {
            81 + self.eol
        } else {
            17 + self.eol
        }
    }

    /// Bytes from one grid's start to the next one's.
    fn record(self) -> usize {
        if self.line_format {
            self.row_stride()
        } else {
            9 * self.row_stride() + self.eol
        }
    }

    /// Lines from one grid's start to the next one's.
    fn lines_per_grid(self) -> usize {
        if self.line_format { 1 } else { 10 }
    }

    /// The 81 digits (as bytes) of the well-formed grid at `offset`.
    fn digits(self, text: &[u8], offset: usize) -> [u8; 81] {
        let mut digits = [0; 81];
        if self.line_format {
            digits.copy_from_slice(&text[offset..offset + 81]);
        } else {
            for (row, chunk) in digits.chunks_exact_mut(9).enumerate() {
                let start = offset + row * self.row_stride();
                let line: &[u8; 17] = text[start..start + 17].try_into().expect("a row");
                for (j, digit) in chunk.iter_mut().enumerate() {
                    *digit = line[2 * j];
                }
            }
        }
        digits
    }

    /// The line end this layout expects.
    fn line_end(self) -> &'static [u8] {
        if self.eol == 2 { b"\r\n" } else { b"\n" }
    }
}

/// Checks a file of complete grids in either `-c` format, held whole in memory.
pub fn check_grids(text: &[u8], rules: GridRules) -> Report {
    let mut seen = SeenGrids::default();
    let mut check = FileCheck::default();
    let line_ends = bytecount::count(text, b'\n');
    check.piece(text, 1, line_ends, true, rules, 0, &mut seen);
    let mut reports = [check.finish(rules)];
    add_repeats(seen, &mut reports, &[String::new()]);
    let [report] = reports;
    report
}

/// The grids of the files checked, as the search for repeats keeps them: 16 bytes a grid, plus a
/// line number for each grid of a piece that was not in the exact layout.
#[derive(Default)]
pub(crate) struct SeenGrids {
    /// A key per grid, in no particular order: the high [`HASH_BITS`] bits of a 128-bit hash of
    /// its digits, which stands for them, above its ordinal among all the grids seen. Two grids
    /// with the same hash are taken as the same grid (for a billion grids, the odds of a collision
    /// are below 10⁻⁸); the ordinal finds the grid's place in `runs`.
    keys: Vec<u128>,
    /// The places of the grids, a run for each piece, in the order read.
    runs: Vec<Run>,
}

/// Bits of a key that hold the hash; the rest hold the grid's ordinal, so up to 2⁴⁰ grids.
const HASH_BITS: u32 = 88;
const ORDINAL_MASK: u128 = (1 << (128 - HASH_BITS)) - 1;

/// The grids of one piece: their file, the number of the first, and where each one starts.
struct Run {
    /// The ordinal of its first grid among all the grids seen, and how many grids it has.
    first: usize,
    count: usize,
    file: u32,
    places: Places,
}

/// The numbers (in the file, from 0) and first lines of the grids of a run.
enum Places {
    /// As in the exact layout: numbers in a row from the first, lines evenly spaced from the first.
    Spaced {
        first_grid: usize,
        first_line: usize,
        step: usize,
    },
    /// Each grid's own, for a piece that was scanned line by line.
    Listed(Vec<(usize, usize)>),
}

/// A grid found again: its file, its number in the file (from 0) and its first line.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct SeenPlace {
    file: u32,
    grid: usize,
    line: usize,
}

impl SeenGrids {
    /// Room for the keys of `count` more grids, to be filled and then kept by [`SeenGrids::close`]
    /// or dropped by [`SeenGrids::abandon`]; the first of them has ordinal `self.kept()`.
    fn open(&mut self, count: usize) -> &mut [u128] {
        let start = self.kept();
        self.keys.resize(start + count, 0);
        &mut self.keys[start..]
    }

    /// How many grids the runs hold: the ordinal of the next one.
    fn kept(&self) -> usize {
        self.runs.last().map_or(0, |run| run.first + run.count)
    }

    /// Keeps the keys opened last as the grids of a new run.
    fn close(&mut self, file: u32, places: Places) {
        let first = self.kept();
        self.runs.push(Run {
            first,
            count: self.keys.len() - first,
            file,
            places,
        });
    }

    /// Drops the keys opened last.
    fn abandon(&mut self) {
        self.keys.truncate(self.kept());
    }

    /// The place of the grid with ordinal `ordinal`.
    fn place(&self, ordinal: usize) -> SeenPlace {
        let run = &self.runs[self.runs.partition_point(|run| run.first <= ordinal) - 1];
        let k = ordinal - run.first;
        let (grid, line) = match &run.places {
            Places::Spaced {
                first_grid,
                first_line,
                step,
            } => (first_grid + k, first_line + k * step),
            Places::Listed(places) => places[k],
        };
        SeenPlace {
            file: run.file,
            grid,
            line,
        }
    }
}

/// The key of the grid with `digits` and ordinal `ordinal` (see [`SeenGrids::keys`]).
fn seen_key(digits: &[u8; 81], ordinal: usize) -> u128 {
    let hash = xxhash_rust::xxh3::xxh3_128(digits);
    hash & !ORDINAL_MASK | ordinal as u128 & ORDINAL_MASK
}

/// The check of one file, fed a piece (whole records) at a time.
#[derive(Default)]
pub(crate) struct FileCheck {
    layout: Option<Layout>,
    report: Report,
    /// Line ends so far, and whether the text read so far ends without one.
    lines: usize,
    unterminated: bool,
    /// Whether the file is in an encoding the check does not read.
    unreadable: bool,
}

impl FileCheck {
    /// Where a piece of this file may end: after any line end in the line format, after an empty
    /// line in the grid format; the first piece's first line tells which.
    pub fn boundary(&self, text: &[u8]) -> Boundary {
        match self
            .layout
            .unwrap_or_else(|| Layout::detect(text))
            .line_format
        {
            true => Boundary::Line,
            false => Boundary::EmptyLine,
        }
    }

    /// Checks the piece `text` of the file, which starts on line `first_line` and holds
    /// `line_ends` line ends; `last` when nothing follows it. The keys of its well-formed grids go
    /// to `seen`, marked as of file `file`.
    #[allow(clippy::too_many_arguments)]
    pub fn piece(
        &mut self,
        text: &[u8],
        first_line: usize,
        line_ends: usize,
        last: bool,
        rules: GridRules,
        file: u32,
        seen: &mut SeenGrids,
    ) {
        if last {
            self.lines = first_line - 1 + line_ends;
            self.unterminated = !text.is_empty() && !text.ends_with(b"\n");
        }
        if self.unreadable {
            return;
        }
        let text = match text.strip_prefix(b"\xef\xbb\xbf") {
            Some(rest) if self.layout.is_none() => {
                self.report.add(Problem {
                    line: 1,
                    grid: None,
                    message:
                        "the file starts with a UTF-8 byte-order mark, which the -c formats do \
                              not have"
                            .to_owned(),
                });
                rest
            }
            _ => text,
        };
        let layout = match self.layout {
            Some(layout) => layout,
            None => {
                if let Some(encoding) = utf16_encoding(text) {
                    self.report.add(Problem {
                        line: 1,
                        grid: None,
                        message: format!(
                            "the file is {encoding} (it starts with its byte-order mark); expected \
                             ASCII"
                        ),
                    });
                    self.unreadable = true;
                    return;
                }
                let layout = Layout::detect(text);
                self.report.crlf = layout.eol == 2;
                self.layout = Some(layout);
                layout
            }
        };
        let before = self.report.grids;
        let place = Place {
            first_line,
            grids_before: before,
            last,
        };
        let spot_at = |k: usize| Spot {
            offset: k * layout.record(),
            line: first_line + k * layout.lines_per_grid(),
            grid: before + k,
        };
        let regular = if last {
            regular_count(text, layout)
        } else {
            text.len()
                .is_multiple_of(layout.record())
                .then(|| text.len() / layout.record())
        };
        // The grids of the piece leave their keys straight in `seen`.
        let first_ordinal = seen.kept();
        let judged = regular.and_then(|count| {
            let judged = judge_all(
                text,
                layout,
                rules,
                spot_at,
                place,
                true,
                first_ordinal,
                seen.open(count),
            );
            match judged {
                Some(_) => {
                    self.report.grids += count;
                    let places = Places::Spaced {
                        first_grid: before,
                        first_line,
                        step: layout.lines_per_grid(),
                    };
                    seen.close(file, places);
                }
                None => seen.abandon(),
            }
            judged
        });
        let judged = judged.unwrap_or_else(|| {
            let mut scanned = Report::default();
            let (spots, grids) = scan(text, layout, &mut scanned, place);
            self.report = std::mem::take(&mut self.report).merge(scanned);
            self.report.grids = grids;
            let judged = judge_all(
                text,
                layout,
                rules,
                |k| spots[k],
                place,
                false,
                first_ordinal,
                seen.open(spots.len()),
            )
            .expect("the scanner lists only well-formed grids");
            let places = spots.iter().map(|spot| (spot.grid, spot.line)).collect();
            seen.close(file, Places::Listed(places));
            judged
        });
        self.report = std::mem::take(&mut self.report).merge(judged);
    }

    /// The file's report once every piece is checked (repeats aside: see `add_repeats`).
    pub fn finish(mut self, rules: GridRules) -> Report {
        if let Some(count) = rules.count.filter(|&count| count != self.report.grids) {
            let lines = self.lines + usize::from(self.unterminated);
            self.report.add(Problem {
                line: lines.max(1),
                grid: None,
                message: format!("expected {count} grids, found {}", self.report.grids),
            });
        }
        self.report
    }
}

/// Reports every grid of `seen` that repeats an earlier one (of its file or of a file before it)
/// in the report of its file; `names` name the files.
pub(crate) fn add_repeats(mut seen: SeenGrids, reports: &mut [Report], names: &[String]) {
    // Sorted in place, the keys of one grid's copies meet, the first read first; no other memory.
    seen.keys.par_sort_unstable();
    let same_grid = |a: &u128, b: &u128| a & !ORDINAL_MASK == b & !ORDINAL_MASK;
    for group in seen
        .keys
        .chunk_by(same_grid)
        .filter(|group| group.len() > 1)
    {
        let place = |key: &u128| seen.place((key & ORDINAL_MASK) as usize);
        let first = place(&group[0]);
        for later in group[1..].iter().map(place) {
            let of_file = if later.file == first.file {
                String::new()
            } else {
                format!(" of {}", names[first.file as usize])
            };
            reports[later.file as usize].add(Problem {
                line: later.line,
                grid: Some(later.grid + 1),
                message: format!(
                    "repeats grid {}{of_file} (line {})",
                    first.grid + 1,
                    first.line
                ),
            });
        }
    }
}

/// Checks the files of grids `inputs` together, each a piece at a time: each file as
/// [`check_grids`] checks one, and no grid repeated in any of them. `done` is told the grids and
/// bytes of each piece checked. Memory: the pieces being read, plus 16 bytes a grid (see
/// [`crate::check`]). With several files, `rules.count` is their total.
pub fn check_grid_files(
    inputs: Vec<Pieces>,
    rules: GridRules,
    corpus_rules: &CorpusRules,
    mut done: impl FnMut(usize, usize),
) -> Result<Vec<(String, Report)>, Error> {
    let names: Vec<String> = inputs.iter().map(|input| input.name().to_owned()).collect();
    let several = inputs.len() > 1;
    let file_rules = GridRules {
        count: rules.count.filter(|_| !several),
        ..rules
    };
    let mut seen = SeenGrids::default();
    let mut reports = Vec::new();
    let mut last_lines = 1;
    for (file, mut input) in inputs.into_iter().enumerate() {
        let mut check = FileCheck::default();
        let file = u32::try_from(file).unwrap_or(u32::MAX);
        let mut corpus: Option<CorpusCheck> = None;
        let column = corpus_rules.column.as_deref();
        while let Some(piece) = input.next_piece(|text| {
            let csv = corpus.is_some()
                || (check.layout.is_none()
                    && crate::text::corpus::detect_header(text, column).is_some());
            if csv {
                Boundary::CsvRecord
            } else {
                check.boundary(text)
            }
        })? {
            if piece.first_line == 1 {
                match crate::text::corpus::detect_header(&piece, corpus_rules.column.as_deref()) {
                    Some(Ok(header)) => {
                        corpus = Some(CorpusCheck {
                            header,
                            report: Report {
                                subject: Subject::Solutions,
                                ..Report::default()
                            },
                        });
                    }
                    Some(Err(error)) => {
                        check.report.add(Problem {
                            line: error.line,
                            grid: None,
                            message: error.message,
                        });
                        check.unreadable = true;
                    }
                    None => {}
                }
            }
            let checked = |check: &FileCheck, corpus: &Option<CorpusCheck>| {
                check.report.grids + corpus.as_ref().map_or(0, |c| c.report.grids)
            };
            let before = checked(&check, &corpus);
            match &mut corpus {
                Some(corpus) => corpus.piece(&piece, file_rules, corpus_rules.unique),
                None => check.piece(
                    &piece,
                    piece.first_line,
                    piece.line_ends,
                    piece.last,
                    file_rules,
                    file,
                    &mut seen,
                ),
            }
            done(checked(&check, &corpus) - before, piece.len());
        }
        if let Some(corpus) = corpus {
            reports.push(corpus.report);
            continue;
        }
        last_lines = (check.lines + usize::from(check.unterminated)).max(1);
        reports.push(check.finish(file_rules));
    }
    add_repeats(seen, &mut reports, &names);
    if several && let Some(count) = rules.count {
        let total: usize = reports.iter().map(|r| r.grids).sum();
        if total != count {
            let last = reports.last_mut().expect("several files");
            last.add(Problem {
                line: last_lines,
                grid: None,
                message: format!("expected {count} grids in all the files, found {total}"),
            });
        }
    }
    Ok(names.into_iter().zip(reports).collect())
}

/// How CSV corpora are checked.
#[derive(Clone, Debug, Default)]
pub struct CorpusRules {
    /// The puzzle column, when not one of the usual names.
    pub column: Option<String>,
    /// Whether each puzzle must have exactly one solution (`--unique`).
    pub unique: bool,
}

/// The check of a CSV corpus: every row's solution against its puzzle.
struct CorpusCheck {
    header: Header,
    report: Report,
}

impl CorpusCheck {
    /// Checks the rows of `piece` (the header too, in the first).
    fn piece(&mut self, piece: &Piece, rules: GridRules, unique: bool) {
        let (text, first_line) = if piece.first_line == 1 {
            let body = memchr::memchr(b'\n', piece).map_or(piece.len(), |at| at + 1);
            (&piece[body..], 2)
        } else {
            (&piece[..], piece.first_line)
        };
        let rows = crate::text::corpus::read_rows(text, &self.header, first_line);
        for e in rows.errors.listed() {
            self.report.add(Problem {
                line: e.line,
                grid: None,
                message: format!("column {}: {}", e.column, e.message),
            });
        }
        let unlisted = rows.errors.count() - rows.errors.listed().len();
        self.report.problems.count_unlisted(unlisted);
        let before = self.report.grids;
        self.report.grids += rows.puzzles.grids.len() + rows.errors.count();
        let judged =
            rows.puzzles
                .grids
                .par_iter()
                .zip(&rows.solutions)
                .zip(&rows.puzzles.lines)
                .enumerate()
                .map(|(k, ((puzzle, solution), &line))| {
                    let mut report = Report::default();
                    let index = before + k;
                    let problem = |message: String| Problem {
                        line,
                        grid: Some(index + 1),
                        message,
                    };
                    match solution {
                        None => report.add(problem("the row has no solution".to_owned())),
                        Some(solution) => {
                            let spot = Spot {
                                offset: 0,
                                line,
                                grid: index,
                            };
                            judge_solution(solution, puzzle, index, spot, 0, rules, &mut report);
                        }
                    }
                    if unique {
                        match crate::engine::standard::solve::count_solutions(puzzle, 2) {
                            1 => {}
                            0 => report.add(problem("the puzzle has no solution".to_owned())),
                            _ => report
                                .add(problem("the puzzle has more than one solution".to_owned())),
                        }
                    }
                    report
                })
                .reduce(Report::default, Report::merge);
        self.report = std::mem::take(&mut self.report).merge(judged);
    }
}

/// The report of a check of several files: each file's problems, then one verdict for all.
pub fn files_text(reports: &[(String, Report)]) -> String {
    if let [(name, report)] = reports {
        return report.text(name);
    }
    let mut text = String::new();
    for (name, report) in reports {
        for line in report.problem_lines(name) {
            text += &line;
            text.push('\n');
        }
    }
    let grids: usize = reports.iter().map(|(_, r)| r.grids).sum();
    let problems: usize = reports.iter().map(|(_, r)| r.problems.count()).sum();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let files = plural(reports.len(), "file");
    if problems == 0 && reports.iter().any(|(_, r)| r.subject == Subject::Solutions) {
        // A CSV corpus is checked row by row against its own puzzles, not for repeats.
        text += &format!(
            "ok: {grids} grids in {files}, all valid; the grid files distinct, the CSV corpora \
             keeping their puzzles' givens\n"
        );
    } else if problems == 0 {
        text += &format!("ok: {grids} grids in {files}, all valid and distinct\n");
    } else {
        text += &format!(
            "FAIL: {} in {} ({files})\n",
            plural(problems, "problem"),
            plural(grids, "grid")
        );
    }
    text
}

/// Where a piece stands in its file.
#[derive(Clone, Copy)]
struct Place {
    first_line: usize,
    grids_before: usize,
    last: bool,
}

/// How many grids a file in the exact layout of its length would hold; `None` if no such file has
/// its length.
fn regular_count(text: &[u8], layout: Layout) -> Option<usize> {
    let record = layout.record();
    // The last grid has no empty line after it, and may lack its final line end.
    let separator = if layout.line_format { 0 } else { layout.eol };
    let with_end = text.len() + separator;
    [with_end, with_end + layout.eol]
        .into_iter()
        .find(|&len| len % record == 0)
        .map(|len| len / record)
}

/// Checks the houses and the first digit of the grids at `spot_at(k)`, in parallel, one for each
/// of `keys`, where it leaves its key (its ordinal is `first_ordinal + k`); returns their problems.
/// With `exact`, each grid's bytes must also be exactly in place, else `None`.
#[allow(clippy::too_many_arguments)]
fn judge_all(
    text: &[u8],
    layout: Layout,
    rules: GridRules,
    spot_at: impl Fn(usize) -> Spot + Sync,
    place: Place,
    exact: bool,
    first_ordinal: usize,
    keys: &mut [u128],
) -> Option<Report> {
    let template = exact.then(|| Template::new(layout));
    keys.par_iter_mut()
        .enumerate()
        .try_fold(Report::default, |mut report, (k, key)| {
            let spot = spot_at(k);
            if let Some(template) = &template {
                let end = (spot.offset + layout.record()).min(text.len());
                if !template.matches(&text[spot.offset..end], end == text.len() && place.last) {
                    return None;
                }
            }
            let digits = layout.digits(text, spot.offset);
            *key = seen_key(&digits, first_ordinal + k);
            let row_lines = usize::from(!layout.line_format);
            judge(
                &digits,
                spot.grid,
                spot,
                row_lines,
                rules.first,
                &mut report,
            );
            Some(report)
        })
        .try_reduce(Report::default, |a, b| Some(a.merge(b)))
}

/// The bytes of one record of a layout, as ranges: byte `i` must lie in `low[i]..=low[i] + span[i]`
/// (a digit 1–9, or exactly one separator byte). One subtraction and one comparison a byte, which
/// the compiler runs many bytes at a time.
struct Template {
    low: Vec<u8>,
    span: Vec<u8>,
    /// Where the last grid of a file may end: after its last row's line end, or before it.
    ends: [usize; 2],
}

impl Template {
    fn new(layout: Layout) -> Template {
        let mut low = Vec::with_capacity(layout.record());
        let (rows, width) = if layout.line_format { (1, 81) } else { (9, 17) };
        for _ in 0..rows {
            for i in 0..width {
                let cell = layout.line_format || i % 2 == 0;
                low.push(if cell { b'1' } else { b' ' });
            }
            low.extend_from_slice(layout.line_end());
        }
        let grid_end = low.len();
        if !layout.line_format {
            low.extend_from_slice(layout.line_end());
        }
        let span = low.iter().map(|&b| if b == b'1' { 8 } else { 0 }).collect();
        Template {
            low,
            span,
            ends: [grid_end, grid_end - layout.eol],
        }
    }

    /// Whether `bytes` (a whole record, or the file's last one, which has no empty line after it and
    /// may lack its final line end) fit the template.
    fn matches(&self, bytes: &[u8], last: bool) -> bool {
        let fits = bytes
            .iter()
            .zip(self.low.iter().zip(&self.span))
            .fold(true, |ok, (&b, (&low, &span))| {
                ok & (b.wrapping_sub(low) <= span)
            });
        let length_ok = if last {
            self.ends.contains(&bytes.len())
        } else {
            bytes.len() == self.low.len()
        };
        fits && length_ok
    }
}

/// The grid the scanner is reading, in the grid format.
#[derive(Clone, Copy)]
struct OpenGrid {
    /// The line of its first row.
    first_line: usize,
    /// The offset of its first row.
    offset: usize,
    /// How many rows it has so far.
    rows: usize,
    /// Whether they are all well-formed.
    clean: bool,
}

/// Reads the file line by line, reporting every format problem; returns the well-formed grids.
fn scan(text: &[u8], layout: Layout, report: &mut Report, place: Place) -> (Vec<Spot>, usize) {
    let mut spots = Vec::new();
    let mut grids = place.grids_before;
    let mut current: Option<OpenGrid> = None;
    // A piece after the first starts after an empty line (see `FileCheck::boundary`).
    let mut empty_run = usize::from(place.first_line > 1);
    let mut offset = 0;
    // Pieces between line ends, read as they come: a list of them would cost 16 bytes a line.
    let last = bytecount::count(text, b'\n');
    let ends_with_line_end = text.ends_with(b"\n");
    for (index, piece) in text.split(|&b| b == b'\n').enumerate() {
        let number = place.first_line + index;
        let start = offset;
        offset += piece.len() + 1;
        if index == last && piece.is_empty() {
            break;
        }
        let terminated = index < last;
        let (line, crlf) = match piece.strip_suffix(b"\r") {
            Some(line) if terminated => (line, true),
            _ => (piece, false),
        };
        // A grid with a line end unlike the file's is not read: its rows are not where they should be.
        let eol_ok = !terminated || crlf == (layout.eol == 2);
        if !eol_ok {
            let (expected, found) = if crlf { ("LF", "CRLF") } else { ("CRLF", "LF") };
            report.add(Problem {
                line: number,
                grid: current.map(|_| grids),
                message: format!(
                    "expected a {expected} line end like the first line's, found {found}"
                ),
            });
        }
        if line.is_empty() {
            if let Some(open) = current.take() {
                if open.rows < 9 && !layout.line_format {
                    report.add(missing_rows(number, grids, open.first_line, open.rows));
                }
                empty_run = 0;
            }
            empty_run += 1;
            let message = if layout.line_format {
                Some("expected a line of 81 digits, found an empty line".to_owned())
            } else if grids == 0 {
                Some("expected the first row of a grid, found an empty line".to_owned())
            } else if empty_run == 2 {
                Some("expected one empty line between grids, found more".to_owned())
            } else if index + 1 == last && ends_with_line_end && place.last {
                Some("expected no empty line after the last grid".to_owned())
            } else {
                None
            };
            if let Some(message) = message {
                report.add(Problem {
                    line: number,
                    grid: None,
                    message,
                });
            }
            continue;
        }
        if layout.line_format {
            grids += 1;
            match row_problem(line, 81, 1) {
                Some(message) => report.add(Problem {
                    line: number,
                    grid: Some(grids),
                    message,
                }),
                None if eol_ok => spots.push(Spot {
                    offset: start,
                    line: number,
                    grid: grids - 1,
                }),
                None => {}
            }
            continue;
        }
        let fresh = OpenGrid {
            first_line: number,
            offset: start,
            rows: 0,
            clean: true,
        };
        let mut open = match current {
            Some(open) if open.rows < 9 => open,
            // A full grid followed by a line that is no row: a separator with something on it.
            Some(_) if row_problem(line, 17, 2).is_some() => {
                report.add(Problem {
                    line: number,
                    grid: None,
                    message: format!(
                        "expected an empty line between grids, found {}",
                        shown_character(line, 0)
                    ),
                });
                current = None;
                empty_run = 1;
                continue;
            }
            Some(_) => {
                report.add(Problem {
                    line: number,
                    grid: Some(grids),
                    message: "expected an empty line after the grid's 9th row".to_owned(),
                });
                grids += 1;
                fresh
            }
            None => {
                grids += 1;
                fresh
            }
        };
        empty_run = 0;
        open.clean &= eol_ok;
        if let Some(message) = row_problem(line, 17, 2) {
            report.add(Problem {
                line: number,
                grid: Some(grids),
                message,
            });
            open.clean = false;
        }
        open.rows += 1;
        if open.rows == 9 && open.clean {
            spots.push(Spot {
                offset: open.offset,
                line: open.first_line,
                grid: grids - 1,
            });
        }
        current = Some(open);
    }
    if let Some(open) = current
        && open.rows < 9
        && !layout.line_format
    {
        report.add(missing_rows(
            place.first_line + last,
            grids,
            open.first_line,
            open.rows,
        ));
    }
    (spots, grids)
}

fn missing_rows(line: usize, grid: usize, first: usize, rows: usize) -> Problem {
    Problem {
        line,
        grid: Some(grid),
        message: format!("expected 9 rows, found {rows} (the grid starts on line {first})"),
    }
}

/// What is wrong with a row line of `width` bytes whose cells are every `step`-th byte (spaces
/// between), if anything: the first byte out of place, as expected against found.
fn row_problem(line: &[u8], width: usize, step: usize) -> Option<String> {
    let shown = |i: usize| shown_character(line, i);
    for (i, &b) in line.iter().enumerate().take(width) {
        let cell = i % step == 0;
        if cell && !(b'1'..=b'9').contains(&b) {
            return Some(format!(
                "column {}: expected a digit 1-9, found {}",
                i + 1,
                shown(i)
            ));
        }
        if !cell && b != b' ' {
            return Some(format!(
                "column {}: expected ' ', found {}",
                i + 1,
                shown(i)
            ));
        }
    }
    if line.len() < width {
        let expected = if line.len().is_multiple_of(step) {
            "a digit 1-9"
        } else {
            "' '"
        };
        return Some(format!(
            "column {}: expected {expected}, found the end of the line (short line)",
            line.len() + 1
        ));
    }
    if line.len() > width {
        let trailing = line[width..].iter().all(|&b| b == b' ' || b == b'\t');
        let what = if trailing { " (trailing space)" } else { "" };
        return Some(format!(
            "column {}: expected the end of the line, found {}{what}",
            width + 1,
            shown(width)
        ));
    }
    None
}

/// Checks the houses and the first digit of one well-formed grid, whose rows are `row_lines` lines
/// apart (1 in the grid format, 0 in the line format).
fn judge(
    digits: &[u8; 81],
    index: usize,
    spot: Spot,
    row_lines: usize,
    first: Option<u8>,
    report: &mut Report,
) {
    if let Some(repeat) = first_repeat_in_text(digits) {
        report.add(Problem {
            line: spot.line + row_lines * (repeat.cell / 9),
            grid: Some(index + 1),
            message: repeat.message,
        });
    }
    if let Some(d) = first.filter(|&d| digits[0] != b'0' + d) {
        report.add(Problem {
            line: spot.line,
            grid: Some(index + 1),
            message: format!("top-left digit is {}, expected {d}", digits[0] as char),
        });
    }
}

/// A digit found twice in one house: where the second one is, and the words for it.
struct Repeat {
    cell: usize,
    message: String,
}

/// The first digit repeated in a row, column or box of 81 digit bytes; `None` if every house holds
/// 1–9 once.
fn first_repeat_in_text(digits: &[u8; 81]) -> Option<Repeat> {
    // Each digit as one bit; a house is complete when its bits cover 1..=9. The fixed-size loops
    // let the compiler run them on whole vectors.
    let bits: [u16; 81] = digits.map(|byte| 1 << (byte & 15));
    let mut columns = [0u16; 9];
    let mut rows = [0u16; 9];
    let mut boxes = [0u16; 9];
    for (row, line) in bits.chunks_exact(9).enumerate() {
        for (column, &bit) in line.iter().enumerate() {
            columns[column] |= bit;
            rows[row] |= bit;
            boxes[3 * (row / 3) + column / 3] |= bit;
        }
    }
    let complete = rows
        .iter()
        .chain(&columns)
        .chain(&boxes)
        .fold(0x3fe, |all, &m| all & m);
    if complete == 0x3fe {
        return None;
    }
    // Some house misses a digit, so some house repeats one: find the first, plainly.
    let house_cells = |kind: usize, n: usize, i: usize| match kind {
        0 => 9 * n + i,
        1 => 9 * i + n,
        _ => 9 * (3 * (n / 3) + i / 3) + 3 * (n % 3) + i % 3,
    };
    let place = |cell: usize| format!("row {}, column {}", cell / 9 + 1, cell % 9 + 1);
    for (kind, name) in ["row", "column", "box"].into_iter().enumerate() {
        for n in 0..9 {
            let mut seen = [None; 10];
            for i in 0..9 {
                let cell = house_cells(kind, n, i);
                let digit = usize::from(digits[cell] - b'0');
                if let Some(earlier) = seen[digit] {
                    let cells = match kind {
                        0 => format!("columns {} and {}", earlier % 9 + 1, cell % 9 + 1),
                        1 => format!("rows {} and {}", earlier / 9 + 1, cell / 9 + 1),
                        _ => format!("{} and {}", place(earlier), place(cell)),
                    };
                    let message = format!("digit {digit} repeats in {name} {} ({cells})", n + 1);
                    return Some(Repeat { cell, message });
                }
                seen[digit] = Some(cell);
            }
        }
    }
    None
}

/// Checks a file of solutions against the file of their puzzles (either in either `-s` input
/// format), held in memory: see [`check_solution_files`].
pub fn check_solutions(
    solutions: &[u8],
    puzzles: &[u8],
    rules: GridRules,
) -> Result<Report, ParseErrors> {
    let solutions = Pieces::of_bytes("solutions", solutions.to_vec());
    let puzzles = Pieces::of_bytes("puzzles", puzzles.to_vec());
    check_solution_files(solutions, puzzles, rules, |_, _| {}).expect("reading memory cannot fail")
}

/// Checks a file of solutions against the file of their puzzles (either in either `-s` input
/// format), both read a piece at a time: as many solutions as puzzles, each complete, valid and
/// keeping its puzzle's givens, and the count and first digit as `rules` ask. An unreadable
/// puzzle file is an error of its own, with its problems; malformed solutions are problems of the
/// report, and the solutions before the piece of the first one are judged (after it, solutions
/// and puzzles may no longer be paired).
pub fn check_solution_files(
    mut solutions: Pieces,
    puzzles: Pieces,
    rules: GridRules,
    mut done: impl FnMut(usize, usize),
) -> Result<Result<Report, ParseErrors>, Error> {
    let mut source = PuzzleSource {
        pieces: puzzles,
        format: None,
        queue: std::collections::VecDeque::new(),
        taken: 0,
        done: false,
    };
    let mut report = Report {
        subject: Subject::Solutions,
        ..Report::default()
    };
    let mut format = None;
    let mut paired = true;
    let mut last_line = 0;
    while let Some(piece) = solutions.next_piece(|text| boundary_of(format, text))? {
        let parsed = parse_piece(&piece, format, piece.first_line);
        format = Some(parsed.puzzles.format);
        for e in parsed.errors.listed() {
            report.add(Problem {
                line: e.line,
                grid: None,
                message: format!("column {}: {}", e.column, e.message),
            });
        }
        report
            .problems
            .count_unlisted(parsed.errors.count() - parsed.errors.listed().len());
        last_line = last_line
            .max(parsed.puzzles.lines.last().copied().unwrap_or(0))
            .max(parsed.errors.listed().last().map_or(0, |e| e.line));
        paired &= parsed.malformed == 0;
        let before = report.grids;
        report.grids += parsed.records();
        let puzzles = match source.take(parsed.records())? {
            Ok(puzzles) => puzzles,
            Err(errors) => return Ok(Err(errors)),
        };
        if paired {
            let solutions = &parsed.puzzles;
            let row_lines = usize::from(solutions.format == Format::Grid);
            let judged = solutions
                .grids
                .par_iter()
                .zip(puzzles.par_iter())
                .enumerate()
                .map(|(k, (solution, puzzle))| {
                    let mut report = Report::default();
                    let index = before + k;
                    let spot = Spot {
                        offset: 0,
                        line: solutions.lines[k],
                        grid: index,
                    };
                    judge_solution(solution, puzzle, index, spot, row_lines, rules, &mut report);
                    report
                })
                .reduce(Report::default, Report::merge);
            report = report.merge(judged);
        }
        done(parsed.records(), piece.len());
        if parsed.ended {
            break;
        }
    }
    let expected = match source.count_all()? {
        Ok(expected) => expected,
        Err(errors) => return Ok(Err(errors)),
    };
    let found = report.grids;
    // The line after the last record, well-formed or not.
    let last_line = last_line + 1;
    if found != expected {
        report.add(Problem {
            line: last_line,
            grid: None,
            message: format!("expected {expected} solutions, one per puzzle, found {found}"),
        });
    }
    if let Some(count) = rules.count.filter(|&count| count != found) {
        report.add(Problem {
            line: last_line,
            grid: None,
            message: format!("expected {count} grids, found {found}"),
        });
    }
    Ok(Ok(report))
}

/// Where a piece of a puzzle text in `format` (the text's own when `None`) may end.
fn boundary_of(format: Option<Format>, text: &[u8]) -> Boundary {
    match format.unwrap_or_else(|| detect_format(text)) {
        Format::Line => Boundary::Line,
        Format::Grid => Boundary::EmptyLine,
    }
}

/// The puzzles of a file, handed out in order as the solutions come.
struct PuzzleSource {
    pieces: Pieces,
    format: Option<Format>,
    queue: std::collections::VecDeque<Grid>,
    /// Puzzles handed out so far.
    taken: usize,
    done: bool,
}

impl PuzzleSource {
    /// Reads one more piece into the queue; the problems of the whole file if it is malformed.
    fn read_piece(&mut self) -> Result<Result<(), ParseErrors>, Error> {
        let format = self.format;
        let Some(piece) = self.pieces.next_piece(|text| boundary_of(format, text))? else {
            self.done = true;
            return Ok(Ok(()));
        };
        let parsed = parse_piece(&piece, format, piece.first_line);
        self.format = Some(parsed.puzzles.format);
        self.done = parsed.ended;
        if parsed.errors.is_empty() {
            self.queue.extend(parsed.puzzles.grids);
            return Ok(Ok(()));
        }
        let mut errors = parsed.errors;
        while !self.done {
            let format = self.format;
            let Some(piece) = self.pieces.next_piece(|text| boundary_of(format, text))? else {
                break;
            };
            let parsed = parse_piece(&piece, format, piece.first_line);
            self.done = parsed.ended;
            errors.append(parsed.errors);
        }
        Ok(Err(errors))
    }

    /// The next `count` puzzles, or all that are left if fewer.
    fn take(&mut self, count: usize) -> Result<Result<Vec<Grid>, ParseErrors>, Error> {
        while self.queue.len() < count && !self.done {
            if let Err(errors) = self.read_piece()? {
                return Ok(Err(errors));
            }
        }
        let count = count.min(self.queue.len());
        self.taken += count;
        Ok(Ok(self.queue.drain(..count).collect()))
    }

    /// How many puzzles the file holds, reading the rest of it.
    fn count_all(&mut self) -> Result<Result<usize, ParseErrors>, Error> {
        loop {
            self.taken += self.queue.len();
            self.queue.clear();
            if self.done {
                return Ok(Ok(self.taken));
            }
            if let Err(errors) = self.read_piece()? {
                return Ok(Err(errors));
            }
        }
    }
}

/// Checks one solution against its puzzle: complete, keeping the givens, valid, and with the first
/// digit `rules` ask for.
fn judge_solution(
    solution: &Grid,
    puzzle: &Grid,
    index: usize,
    spot: Spot,
    row_lines: usize,
    rules: GridRules,
    report: &mut Report,
) {
    let cells = solution.cells();
    let problem = |cell: usize, message: String| Problem {
        line: spot.line + row_lines * (cell / 9),
        grid: Some(index + 1),
        message,
    };
    if let Some(cell) = cells.iter().position(|&v| v == 0) {
        let message = format!("row {}, column {} is empty", cell / 9 + 1, cell % 9 + 1);
        report.add(problem(cell, message));
        return;
    }
    if let Some(cell) = (0..81).find(|&c| puzzle.get(c) != 0 && puzzle.get(c) != cells[c]) {
        let message = format!(
            "row {}, column {} is {}, but the puzzle gives {}",
            cell / 9 + 1,
            cell % 9 + 1,
            cells[cell],
            puzzle.get(cell)
        );
        report.add(problem(cell, message));
        return;
    }
    judge(
        &cells.map(|v| b'0' + v),
        index,
        spot,
        row_lines,
        rules.first,
        report,
    );
}
