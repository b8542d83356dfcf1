//! The text forms of grids.
//!
//! Both forms give every grid a record of fixed length, so the byte offset of any cell of any grid is
//! arithmetic: the generator writes each grid straight into its place in the output, and threads can
//! fill disjoint ranges of one buffer.
//!
//! - **grid**: 9 lines of 9 digits separated by single spaces; grids are separated by one empty line
//!   and the last one has none after it. A record is `9 * 18 + 1 = 163` bytes: the grid's 162 bytes
//!   and the empty line that follows it, so `N` grids are `163 * N - 1` bytes.
//! - **line**: 81 characters and `\n`, 82 bytes a grid.
//!
//! Puzzles are written with `0` for blanks in the grid form and `.` in the line form. Two CSV
//! forms hold more than a grid, and are not of fixed length:
//! - **csv** (`-n --format csv`, [`OutputFormat::Csv`]): the header `puzzle,solution,blanks,level`,
//!   then a row per puzzle: the puzzle as a line (`.` for blanks), its solution, its blank count
//!   and its level.
//! - **rating** (`--rate`, see [`crate::jobs::rate`]): the header
//!   `puzzle,level,singles,locked,pairs_triples,harder,guesses,guesses_mean`, then a row per
//!   puzzle: its level, the steps of each kind the logical solver took, the guesses of the search
//!   that solves it and proves it unique, and the mean guesses of `-n --hard`'s measure; `invalid`
//!   and empty counts for a puzzle without exactly one solution.

use crate::model::grid::{CELLS, Grid};

/// The text form of a grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Nine lines of nine space-separated cells, grids separated by an empty line.
    Grid,
    /// One line of 81 cells per grid.
    Line,
}

/// The form a job writes: grids in one of the text formats, or, for puzzles, CSV rows with their
/// solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// N lines of N symbols separated by spaces; an empty line between grids.
    Grid,
    /// A grid a line, row by row (81 characters at 9×9).
    Line,
    /// With -n: `puzzle,solution,blanks,level` rows under that header.
    Csv,
}

impl OutputFormat {
    /// The grid text format it writes, if it is one.
    pub fn text(self) -> Option<Format> {
        match self {
            OutputFormat::Grid => Some(Format::Grid),
            OutputFormat::Line => Some(Format::Line),
            OutputFormat::Csv => None,
        }
    }
}

/// The longest record of any format, in bytes.
pub(crate) const MAX_RECORD_LEN: usize = 163;

impl Format {
    /// Bytes one grid takes, its separator included.
    pub const fn record_len(self) -> usize {
        match self {
            Format::Grid => 163,
            Format::Line => 82,
        }
    }

    /// Bytes `count` grids take in this format: the grid format has no empty line after its last grid.
    pub const fn output_len(self, count: usize) -> usize {
        match self {
            Format::Grid => (163 * count).saturating_sub(1),
            Format::Line => 82 * count,
        }
    }

    /// Where the character of `cell` sits inside a record.
    pub const fn cell_offset(self, cell: usize) -> usize {
        match self {
            Format::Grid => 18 * (cell / 9) + 2 * (cell % 9),
            Format::Line => cell,
        }
    }

    /// A record whose separators are in place and whose cells hold `fill`: rendering a grid is then
    /// only writing its 81 characters.
    pub(crate) fn blank_record(self, fill: u8) -> [u8; MAX_RECORD_LEN] {
        let mut record = [b'\n'; MAX_RECORD_LEN];
        if self == Format::Grid {
            for line in record[..162].chunks_exact_mut(18) {
                line[..17].fill(b' ');
            }
        }
        for cell in 0..CELLS {
            record[self.cell_offset(cell)] = fill;
        }
        record
    }

    /// Writes `grid` as one record into `record` (exactly [`Format::record_len`] bytes), empty cells as
    /// `blank`. The caller drops the final separator of the grid format (see [`Format::output_len`]).
    pub(crate) fn write_record(self, grid: &Grid, blank: u8, record: &mut [u8]) {
        let digits = grid
            .cells()
            .map(|digit| if digit == 0 { blank } else { b'0' + digit });
        match self {
            Format::Line => {
                record[..CELLS].copy_from_slice(&digits);
                record[CELLS] = b'\n';
            }
            Format::Grid => {
                for (line, row) in record.chunks_exact_mut(18).zip(digits.chunks_exact(9)) {
                    for (pair, &digit) in line.chunks_exact_mut(2).zip(row) {
                        pair[0] = digit;
                        pair[1] = b' ';
                    }
                    line[17] = b'\n';
                }
                record[162] = b'\n';
            }
        }
    }
}

/// Appends the line form of `grid` (81 characters, `blank` for empty cells) to `out`, without a line
/// end: a field of a CSV row.
pub(crate) fn push_line(out: &mut Vec<u8>, grid: &Grid, blank: u8) {
    let mut record = [0; Format::Line.record_len()];
    Format::Line.write_record(grid, blank, &mut record);
    out.extend_from_slice(&record[..CELLS]);
}

/// Renders grids in `format`, empty cells as `blank`, exactly as the generator lays them out.
pub(crate) fn render(grids: &[Grid], format: Format, blank: u8) -> Vec<u8> {
    let mut out = vec![0; format.record_len() * grids.len()];
    for (grid, record) in grids.iter().zip(out.chunks_exact_mut(format.record_len())) {
        format.write_record(grid, blank, record);
    }
    out.truncate(format.output_len(grids.len()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counting_grid() -> Grid {
        let mut cells = [0; CELLS];
        for (cell, v) in cells.iter_mut().enumerate() {
            *v = (cell % 9) as u8 + 1;
        }
        Grid::from_cells(cells).unwrap()
    }

    #[test]
    fn grid_format_layout() {
        let text = render(&[counting_grid(), counting_grid()], Format::Grid, b'0');
        assert_eq!(text.len(), 163 * 2 - 1);
        let first_line = "1 2 3 4 5 6 7 8 9\n";
        assert_eq!(&text[..18], first_line.as_bytes());
        assert_eq!(&text[162..164], b"\n1");
        assert!(text.ends_with(b"8 9\n"));
    }

    #[test]
    fn line_format_layout_with_blanks() {
        let mut grid = counting_grid();
        grid.set(0, 0);
        let text = render(&[grid], Format::Line, b'.');
        assert_eq!(text.len(), 82);
        assert_eq!(&text[..10], b".234567891");
        assert_eq!(text[81], b'\n');
    }
}
