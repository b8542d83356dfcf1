//! Lines that read alike: exchanging two of them, with a relabelling, maps the grid onto itself.
//! A line here is a row, a column, a band read row after row or a stack read column after column.

use crate::classes::shaped::Frame;

/// The lines of one view that read alike: per row, column, band and stack, the earlier ones of
/// its block that do (bit per line).
pub(super) struct Twins {
    rows: Vec<u32>,
    pub(super) columns: Vec<u32>,
    bands: Vec<u32>,
    pub(super) stacks: Vec<u32>,
}

impl Twins {
    /// The twins of `view` (N·N cells), whose symbols of `once` (bit per symbol) it holds once.
    pub(super) fn new(frame: &Frame, view: &[u8], once: u32) -> Twins {
        let n = frame.n;
        let column = |c: usize| (0..n).map(move |r| view[r * n + c]);
        let (bands, stacks) = (n / frame.band, n / frame.stack);
        Twins {
            rows: twins(n, frame.band, once, |r| view[r * n..(r + 1) * n].to_vec()),
            columns: twins(n, frame.stack, once, |c| column(c).collect()),
            bands: twins(bands, bands, once, |b| {
                view[b * frame.band * n..(b + 1) * frame.band * n].to_vec()
            }),
            stacks: twins(stacks, stacks, once, |s| {
                (s * frame.stack..(s + 1) * frame.stack)
                    .flat_map(column)
                    .collect()
            }),
        }
    }

    /// Whether input row `row` need not be tried as output row `i`: an earlier row of its band,
    /// or at the start of a band an earlier band, reads alike and has no row `taken`.
    pub(super) fn taken_row(&self, frame: &Frame, i: usize, row: u8, taken: u32) -> bool {
        let band = frame.band;
        let whole = (1u32 << band) - 1;
        let bands = self.bands[usize::from(row) / band];
        self.rows[usize::from(row)] & !taken != 0
            || i.is_multiple_of(band)
                && (0..frame.n / band)
                    .any(|b| bands >> b & 1 == 1 && taken >> (b * band) & whole == 0)
    }
}

/// The earlier lines of each line's block (of `block` lines) that read alike, as `line_of`
/// gives the cells of each of the `n` lines: cell by cell the same, or two symbols the grid holds
/// once each (`once`: bit per symbol). Exchanging two such lines and those symbols maps the grid
/// onto itself, so the two give the same lines: a puzzle of one full row and blanks would
/// otherwise try every order of its columns, and one of a full band every order of its blank
/// bands.
fn twins(n: usize, block: usize, once: u32, line_of: impl Fn(usize) -> Vec<u8>) -> Vec<u32> {
    let lines: Vec<Vec<u8>> = (0..n).map(line_of).collect();
    let alike = |a: &[u8], b: &[u8]| {
        a.iter()
            .zip(b)
            .all(|(&x, &y)| x == y || (once >> x & once >> y & 1 == 1))
    };
    (0..n)
        .map(|l| {
            (l - l % block..l)
                .filter(|&e| alike(&lines[e], &lines[l]))
                .fold(0, |m, e| m | 1 << e)
        })
        .collect()
}
