//! The exact layout of the `-c` formats, which lets the grader check a piece's grids in place: a
//! piece in that layout has every grid at a fixed offset, so its grids are checked in parallel
//! straight from the text, and a template of byte ranges confirms that every byte is where the
//! layout puts it. The first byte out of place sends the piece to the line-by-line scanner
//! ([`super::scan`]), which names the problem. Both paths locate grids and pieces alike
//! (`Spot`, `Place`), so that the houses are judged the same way whichever found them.

/// Where a well-formed grid's text starts, on which line, and its number in the file (from 0,
/// counting malformed grids too).
#[derive(Clone, Copy)]
pub(super) struct Spot {
    pub offset: usize,
    pub line: usize,
    pub grid: usize,
}

/// The layout of a file of grids, as its first line tells it.
#[derive(Clone, Copy)]
pub(super) struct Layout {
    /// One line of 81 digits per grid (else 9 lines of 9 digits separated by spaces).
    pub line_format: bool,
    /// Bytes of a line end: 1 (LF) or 2 (CRLF).
    pub eol: usize,
}

impl Layout {
    pub fn detect(text: &[u8]) -> Layout {
        let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
        let crlf = first.ends_with(b"\r") && first.len() < text.len();
        let width = first.len() - usize::from(crlf);
        Layout {
            // A line of 81 digits with a stray character is still in the line format, and its
            // scan names that character; a row of the grid format is 17 wide.
            line_format: width >= 81,
            eol: 1 + usize::from(crlf),
        }
    }

    /// Bytes from one row line's start to the next one's.
    pub fn row_stride(self) -> usize {
        if self.line_format {
            81 + self.eol
        } else {
            17 + self.eol
        }
    }

    /// Bytes from one grid's start to the next one's.
    pub fn record(self) -> usize {
        if self.line_format {
            self.row_stride()
        } else {
            9 * self.row_stride() + self.eol
        }
    }

    /// Lines from one grid's start to the next one's.
    pub fn lines_per_grid(self) -> usize {
        if self.line_format { 1 } else { 10 }
    }

    /// The 81 digits (as bytes) of the well-formed grid at `offset`.
    pub fn digits(self, text: &[u8], offset: usize) -> [u8; 81] {
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
    pub fn line_end(self) -> &'static [u8] {
        if self.eol == 2 { b"\r\n" } else { b"\n" }
    }
}

/// Where a piece stands in its file.
#[derive(Clone, Copy)]
pub(super) struct Place {
    pub first_line: usize,
    pub grids_before: usize,
    pub last: bool,
}

/// How many grids a file in the exact layout of its length would hold; `None` if no such file has
/// its length.
pub(super) fn regular_count(text: &[u8], layout: Layout) -> Option<usize> {
    let record = layout.record();
    // The last grid has no empty line after it, and may lack its final line end.
    let separator = if layout.line_format { 0 } else { layout.eol };
    let with_end = text.len() + separator;
    [with_end, with_end + layout.eol]
        .into_iter()
        .find(|&len| len % record == 0)
        .map(|len| len / record)
}

/// The bytes of one record of a layout, as ranges: byte `i` must lie in `low[i]..=low[i] + span[i]`
/// (a digit 1–9, or exactly one separator byte). One subtraction and one comparison a byte, which
/// the compiler runs many bytes at a time.
pub(super) struct Template {
    low: Vec<u8>,
    span: Vec<u8>,
    /// Where the last grid of a file may end: after its last row's line end, or before it.
    ends: [usize; 2],
}

impl Template {
    pub fn new(layout: Layout) -> Template {
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
    pub fn matches(&self, bytes: &[u8], last: bool) -> bool {
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
