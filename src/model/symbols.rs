//! The alphabet a shape's cells are written with.

/// The default alphabet: `1`–`9`, then `A`–`P`; a shape of size N uses its first N characters.
pub const DEFAULT_SYMBOLS: &[u8; 25] = b"123456789ABCDEFGHIJKLMNOP";

/// The symbols of a shape: N distinct ASCII characters, value `v` written as the `v-1`-th.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbols {
    glyphs: [u8; 25],
    pub(crate) size: usize,
    /// For each byte, its value (1..=N), 0 for a blank, [`NOT_A_CELL`] otherwise.
    value_of: [u8; 256],
}

/// Whether `ch` can be a symbol: printable ASCII, and none of `.`, `-`, `#`, `,` or `"` (blanks,
/// comments, the CSV separator and its quote).
pub fn can_be_symbol(ch: u8) -> bool {
    ch.is_ascii_graphic() && !matches!(ch, b'.' | b'-' | b'#' | b',' | b'"')
}

/// What [`Symbols::value_of`] gives for a byte that is neither a symbol nor a blank.
pub const NOT_A_CELL: u8 = u8::MAX;

impl Symbols {
    /// The default alphabet of size `size`.
    pub fn default_for(size: usize) -> Symbols {
        Symbols::new(&DEFAULT_SYMBOLS[..size]).expect("the default alphabet is valid")
    }

    /// An alphabet from its characters, which must be distinct printable ASCII, and none of `.`,
    /// `-`, `#`, `,` or `"` (blanks, comments, the CSV separator and its quote).
    pub fn new(text: &[u8]) -> Result<Symbols, String> {
        let mut glyphs = [0; 25];
        let mut value_of = [NOT_A_CELL; 256];
        for (i, &ch) in text.iter().enumerate() {
            // A comma would split a puzzle field of the CSV that -n and --rate write, and a quote
            // would open a quoted field.
            if !can_be_symbol(ch) {
                return Err(format!(
                    "{} (character {}) cannot be a symbol (expected printable ASCII other than \
                     '.', '-', '#', ',' and '\"')",
                    crate::problems::shown_character(text, i),
                    i + 1
                ));
            }
            if value_of[usize::from(ch)] != NOT_A_CELL {
                return Err(format!("'{}' repeats", ch as char));
            }
            if i < glyphs.len() {
                glyphs[i] = ch;
            }
            value_of[usize::from(ch)] = i as u8 + 1;
        }
        for blank in [b'.', b'-', b'0'] {
            if value_of[usize::from(blank)] == NOT_A_CELL {
                value_of[usize::from(blank)] = 0;
            }
        }
        Ok(Symbols {
            glyphs,
            size: text.len(),
            value_of,
        })
    }

    /// The character of value `value` (1..=N).
    pub fn glyph(&self, value: u8) -> u8 {
        self.glyphs[usize::from(value) - 1]
    }

    /// The value of a character: 1..=N for a symbol, 0 for a blank, [`NOT_A_CELL`] otherwise.
    pub fn value_of(&self, ch: u8) -> u8 {
        self.value_of[usize::from(ch)]
    }

    /// The character written for a blank cell in `format`: `.` in the line format; `0` in the
    /// grid format, unless `0` is a symbol.
    pub fn blank(&self, line_format: bool) -> u8 {
        if line_format || self.value_of(b'0') != 0 {
            b'.'
        } else {
            b'0'
        }
    }

    /// The alphabet, in value order.
    pub fn as_bytes(&self) -> &[u8] {
        &self.glyphs[..self.size]
    }

    /// Whether this is the default alphabet for its size.
    pub fn is_default(&self) -> bool {
        self.as_bytes() == &DEFAULT_SYMBOLS[..self.size]
    }
}

/// The values of `line`, written in digits (`.` or `0` for blank): for the tests of every module.
#[cfg(test)]
pub(crate) fn digit_values(line: &str) -> Vec<u8> {
    let digits = Symbols::default_for(9);
    line.bytes().map(|ch| digits.value_of(ch)).collect()
}
