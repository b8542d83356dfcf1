//! What the measure of every kernel shares: how many equivalents it averages over, the seed they
//! are drawn from, and how a total is written.
//!
//! One count of a search solver's guesses depends on where the puzzle's givens sit (the search
//! takes the first of its best choices), so a row swap or a relabelling can change it several
//! times over. The measure is therefore the mean of the guesses to find the first solution over
//! [`EQUIVALENTS`] random equivalents of the puzzle, drawn from the shape's own moves. They are
//! the same for every puzzle of a shape and every run (drawn from a fixed seed), so that
//! `--rate` and `-n --hard` agree on every puzzle. Each kernel counts with its own search: the
//! 9×9 one in `standard/hard/measure.rs`, every other shape in `generic/hard/measure.rs`.

use crate::text::format::OutputFormat;

/// How many random equivalents the measure averages over.
pub const EQUIVALENTS: usize = 10;

/// The seed of the measure's equivalents.
pub(crate) const MEASURE_SEED: u64 = 0x6775_6573_7365_7321;

/// Writes a total of guesses as their mean over [`EQUIVALENTS`], with its one decimal.
pub fn push_mean(out: &mut Vec<u8>, total: usize) {
    out.extend_from_slice(itoa::Buffer::new().format(total / EQUIVALENTS).as_bytes());
    out.push(b'.');
    out.push(b'0' + (total % EQUIVALENTS) as u8);
}

/// A total of guesses as their mean over [`EQUIVALENTS`], with its one decimal, for a message.
pub fn mean_text(total: usize) -> String {
    format!("{}.{}", total / EQUIVALENTS, total % EQUIVALENTS)
}

/// `text`, puzzles rendered in `format` by their kernel, with a column `guesses_mean` more when
/// `format` is csv: one row per total of `totals`, in order.
pub fn with_means(text: Vec<u8>, totals: &[usize], format: OutputFormat) -> Vec<u8> {
    if format != OutputFormat::Csv {
        return text;
    }
    let mut out = Vec::with_capacity(text.len() + 8 * totals.len() + 16);
    let mut lines = text.split_inclusive(|&b| b == b'\n');
    if let Some(header) = lines.next() {
        out.extend_from_slice(&header[..header.len() - 1]);
        out.extend_from_slice(b",guesses_mean\n");
    }
    for (line, &total) in lines.zip(totals) {
        out.extend_from_slice(&line[..line.len() - 1]);
        out.push(b',');
        push_mean(&mut out, total);
        out.push(b'\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mean_has_one_decimal() {
        let mut out = Vec::new();
        for total in [0, 7, 345] {
            push_mean(&mut out, total);
            out.push(b' ');
        }
        assert_eq!(out, b"0.0 0.7 34.5 ");
    }

    #[test]
    fn the_csv_format_gets_a_last_column() {
        let text = b"puzzle,solution\n1.,12\n.2,12\n".to_vec();
        let csv = with_means(text.clone(), &[12, 340], OutputFormat::Csv);
        assert_eq!(
            csv,
            b"puzzle,solution,guesses_mean\n1.,12,1.2\n.2,12,34.0\n".to_vec()
        );
        assert_eq!(with_means(text.clone(), &[1, 2], OutputFormat::Line), text);
    }
}
