//! The alphabet of a text read without `--symbols`, told from the characters its cells use.
//!
//! `-c`, `-n` and `-s` write a shape's own symbols, so that a file made with `--symbols` must
//! read back without the flag. Two alphabets are told apart from the default one:
//! - the zero-based one (`0`–`9`, then `A`…, as hexadoku writes 16×16): a `0` is then a symbol,
//!   not a blank, which the default reading would take it for, and solve the puzzle wrongly;
//! - any other set of exactly N characters, which the default reading would refuse.

use crate::model::symbols::{DEFAULT_SYMBOLS, can_be_symbol};
use crate::text::parse::numbered_lines;

/// How much of a text the alphabet is told from: records of any size, many of them, yet a bound
/// on what a huge input costs before its first puzzle is read.
const SAMPLE: usize = 1 << 16;

/// The alphabet of `text`, of size `size` (`prefixed`: each record starts with its layout), when
/// its cells show one other than the default; `None` when the default reading serves.
pub(crate) fn written_alphabet(text: &[u8], size: usize, prefixed: bool) -> Option<Vec<u8>> {
    let sample = &text[..text.len().min(SAMPLE)];
    let mut seen = [false; 256];
    let mut lines = Vec::new();
    for (_, line) in numbered_lines(sample, 1) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        // The readers stop at an `end` line, and skip comments.
        if line == b"end" {
            break;
        }
        if line.starts_with(b"#") {
            continue;
        }
        let cells = if prefixed {
            line.split(|&b| b == b' ').rfind(|token| !token.is_empty())
        } else {
            Some(line)
        };
        let cells = cells.unwrap_or_default();
        for &byte in cells {
            seen[usize::from(byte)] = true;
        }
        if !cells.is_empty() {
            lines.push(cells);
        }
    }
    for blank in [b' ', b'.', b'-'] {
        seen[usize::from(blank)] = false;
    }
    let used: Vec<u8> = (0..=255).filter(|&b| seen[usize::from(b)]).collect();
    // A character that no alphabet holds is the text's error, which the default reading locates:
    // an alphabet told from it would be refused as if `--symbols` had given it.
    if !used.iter().all(|&b| can_be_symbol(b)) {
        return None;
    }
    let default = &DEFAULT_SYMBOLS[..size];
    if used.iter().all(|b| default.contains(b) || *b == b'0') {
        let zero_based = used.contains(&b'0')
            && !used.contains(&default[size - 1])
            && zeros_never_repeat(&lines, size);
        zero_based.then(|| [b"0", &default[..size - 1]].concat())
    } else if used.len() == size + 1 && used.contains(&b'0') {
        // Written with `0` for its blanks, as the grid format writes them when 0 is no symbol.
        Some(used.into_iter().filter(|&b| b != b'0').collect())
    } else if used.contains(&b'0') && !zeros_never_repeat(&lines, size) {
        // `0` for the blanks again, and the givens show too few symbols to tell the alphabet: the
        // default reading names the flag that reads them.
        None
    } else {
        (used.len() == size).then_some(used)
    }
}

/// Whether no row of any record holds two `0`s, as a row of zero-based symbols never does, and
/// a row of a puzzle with `0` for its blanks does as soon as the puzzle has more blanks than
/// rows. Every sampled record counts: a file may write some puzzles' blanks as `.` and others'
/// as `0`.
/// `lines`: the sample's lines of cells (whole records, or the rows of grids).
fn zeros_never_repeat(lines: &[&[u8]], size: usize) -> bool {
    let zeros = |row: &[u8]| bytecount::count(row, b'0');
    lines.iter().all(|line| {
        if line.len() == size * size {
            line.chunks(size).all(|row| zeros(row) < 2)
        } else {
            zeros(line) < 2
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_based_hexadoku_grid_is_told_from_a_puzzle_with_zero_blanks() {
        let grid: Vec<u8> = (0..16)
            .flat_map(|row| (0..16).map(move |col| b"0123456789ABCDEF"[(row * 4 + col) % 16]))
            .collect();
        let line = String::from_utf8(grid).unwrap();
        assert_eq!(
            written_alphabet(line.as_bytes(), 16, false).as_deref(),
            Some(&b"0123456789ABCDEF"[..])
        );
        // Blanks written 0 repeat in a row: the default reading.
        let puzzle = line.replace(['7', '8'], "0");
        assert_eq!(written_alphabet(puzzle.as_bytes(), 16, false), None);
        // The default alphabet's last symbol shows the default reading too.
        assert_eq!(written_alphabet(b"1G0.\n", 16, false), None);
    }

    #[test]
    fn other_alphabets_are_read_when_all_their_symbols_show() {
        assert_eq!(
            written_alphabet(b"ABCD\nCDAB\nBADC\nDCBA\n", 4, false).as_deref(),
            Some(&b"ABCD"[..])
        );
        assert_eq!(written_alphabet(b"AB.C\nC...\n", 4, false), None);
        assert_eq!(
            written_alphabet(b"AB0D\nCD00\n", 4, false).as_deref(),
            Some(&b"ABCD"[..])
        );
        assert_eq!(written_alphabet(b"1234\n", 4, false), None);
    }
}
