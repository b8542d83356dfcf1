//! The values of the options: counts, ranges and seconds, each refused with a message that says
//! what is expected.

use std::time::Duration;

use sudoku_gen::engine::standard::walk::MAX_GRIDS;
use sudoku_gen::engine::standard::{hard, reach};
use sudoku_gen::grade::plan;
use sudoku_gen::model::shape;

/// A time limit: a number of seconds in the range the grader's plans allow.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .and_then(plan::time_limit)
        .ok_or_else(|| format!("expected a time limit {}", plan::TIME_LIMITS))
}

/// A yes or a no: `yes` or `true`, `no` or `false`.
pub fn parse_yes_no(text: &str) -> Result<bool, String> {
    match text {
        "yes" | "true" => Ok(true),
        "no" | "false" => Ok(false),
        _ => Err("expected yes or no".to_owned()),
    }
}

/// A blank range `LOW~HIGH` or `LOW-HIGH`, 1 <= LOW <= HIGH <= the cells of the largest shape;
/// each shape then checks it against its own supported range.
pub fn parse_blanks(text: &str) -> Result<(usize, usize), String> {
    // The shape is not known yet: the message names no shape's bound.
    parse_range(text, &(1..=shape::MAX_CELLS), "blank counts").map_err(|_| {
        "expected LOW~HIGH with 1 <= LOW <= HIGH, the blank counts (each shape supports its own \
         range)"
            .to_owned()
    })
}

/// A guess range `LOW~HIGH` or `LOW-HIGH` inside the supported one.
pub fn parse_guesses(text: &str) -> Result<(usize, usize), String> {
    parse_range(text, &reach::GUESSES, "guess counts")
}

/// A `--hard` level: a mean of guesses with at most one decimal, as ten times the mean.
pub fn parse_hard(text: &str) -> Result<usize, String> {
    let message = || {
        format!(
            "expected a mean of guesses such as 36 or 30.5, from 0 to {}",
            hard::MOST_MEAN
        )
    };
    let (whole, tenth) = text.split_once('.').unwrap_or((text, "0"));
    let digits = |s: &str, most: usize| {
        (!s.is_empty() && s.len() <= most && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    match (digits(whole, 4), digits(tenth, 1)) {
        (Some(whole), Some(tenth)) if whole <= hard::MOST_MEAN => Ok(10 * whole + tenth),
        _ => Err(message()),
    }
}

/// A range `LOW~HIGH` or `LOW-HIGH` inside `range`, the `what` supported.
fn parse_range(
    text: &str,
    range: &std::ops::RangeInclusive<usize>,
    what: &str,
) -> Result<(usize, usize), String> {
    let supported = format!(
        "expected LOW~HIGH with {} <= LOW <= HIGH <= {} (the {what} supported)",
        range.start(),
        range.end()
    );
    let (low, high) = text.split_once(['~', '-']).ok_or(supported.clone())?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    match (number(low), number(high)) {
        (Some(low), Some(high)) if low <= high && range.contains(&low) && range.contains(&high) => {
            Ok((low, high))
        }
        _ => Err(supported),
    }
}

/// One symbol: a single printable ASCII character (the shape, not yet known, decides whether it
/// is one of its own).
pub fn parse_symbol(text: &str) -> Result<u8, String> {
    match text.as_bytes() {
        &[symbol] if symbol.is_ascii_graphic() => Ok(symbol),
        _ => Err("expected one symbol, a printable ASCII character".to_owned()),
    }
}

/// A count of 1 to 1,000,000 written in decimal digits (leading zeros allowed).
pub fn parse_count(text: &str) -> Result<usize, String> {
    let range = format!("expected a whole number from 1 to {}", MAX_GRIDS);
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(range);
    }
    let digits = text.trim_start_matches('0');
    match digits.parse::<usize>() {
        Ok(n) if digits.len() <= 7 && (1..=MAX_GRIDS).contains(&n) => Ok(n),
        _ => Err(range),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symbol_is_one_printable_character() {
        assert_eq!(parse_symbol("G"), Ok(b'G'));
        assert_eq!(parse_symbol("7"), Ok(b'7'));
        for text in ["", "10", " ", "é"] {
            assert!(parse_symbol(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn count_accepts_only_plain_decimal_in_range() {
        assert_eq!(parse_count("1"), Ok(1));
        assert_eq!(parse_count("0001000000"), Ok(1_000_000));
        for bad in [
            "",
            "0",
            "000",
            "1000001",
            "+5",
            "-5",
            "abc",
            "1.5",
            "1e3",
            " 5",
            "5 ",
            "99999999999999999999999",
        ] {
            assert!(parse_count(bad).is_err(), "{bad:?}");
        }
    }
}
