//! Lines that read alike: exchanging two of them, with a relabelling, maps the grid onto itself.
//! A line here is a row, a column, or a band read row after row.

/// The earlier lines of each line's block (of `block` lines) that read alike, as `line_of`
/// gives the cells of each of the `n` lines: cell by cell the same, or two symbols the grid holds
/// once each (`once`: bit per symbol). Exchanging two such lines and those symbols maps the grid
/// onto itself, so the two give the same lines: a puzzle of one full row and blanks would
/// otherwise try every order of its columns, and one of a full band every order of its blank
/// bands.
pub(super) fn twins(
    n: usize,
    block: usize,
    once: u32,
    line_of: impl Fn(usize) -> Vec<u8>,
) -> Vec<u32> {
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
