//! The values of the options: counts, ranges and seconds, each refused with a message that says
//! what is expected; and a value that starts with `-`, taken as one unless it reads as an option.

use std::ffi::OsStr;
use std::time::Duration;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Arg, Command};

use sudoku_gen::engine::hard::reach as hard;
use sudoku_gen::engine::standard::reach;
use sudoku_gen::engine::standard::walk::MAX_GRIDS;
use sudoku_gen::grade::plan;
use sudoku_gen::io::input::shown_path;
use sudoku_gen::model::shape;

/// The value of an option that may start with `-` (`-o -dash.txt`, `-c -5`, which the count's own
/// parser then refuses), unless it reads as an option: `-o --format line` forgot the file, and
/// taking `--format` for it would leave `line` to be misread. The arguments that use it allow
/// hyphen values, so that clap hands such a word to it instead of reading it as an option.
#[derive(Clone)]
pub struct Value<P> {
    parser: P,
    /// The value names a file, which `./` keeps from reading as an option.
    file: bool,
}

/// A value read by `parser`, which may start with `-` unless it reads as an option.
pub fn value<P>(parser: P) -> Value<P> {
    Value {
        parser,
        file: false,
    }
}

/// A file name read by `parser`, which may start with `-` unless it reads as an option; the
/// refusal names `./NAME`, the name that cannot.
pub fn file<P>(parser: P) -> Value<P> {
    Value { parser, file: true }
}

impl<P: TypedValueParser> TypedValueParser for Value<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<Self::Value, clap::Error> {
        if !reads_as_option(cmd, value) {
            return self.parser.parse_ref(cmd, arg, value);
        }
        let word = shown_path(std::path::Path::new(value));
        let what = if word == "--" {
            "'--' ends the options".to_owned()
        } else {
            format!("'{word}' reads as an option")
        };
        let workaround = if self.file {
            format!(" (for a file of that name, write ./{word})")
        } else {
            String::new()
        };
        let option = arg.map_or_else(|| "the option".to_owned(), |arg| format!("'{arg}'"));
        Err(cmd.clone().error(
            ErrorKind::InvalidValue,
            format!("a value is required for {option} but none was supplied: {what}{workaround}"),
        ))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        self.parser.possible_values()
    }
}

/// Whether `value` reads as an option of `cmd`: any word that starts with `--`, since a long
/// option mistyped is likelier than such a file name, and a word whose first letter after `-` is
/// one of its short options. Other words that start with `-` are values (`-5`, `-dash.txt`).
fn reads_as_option(cmd: &Command, value: &OsStr) -> bool {
    match value.as_encoded_bytes() {
        [b'-', b'-', ..] => true,
        &[b'-', letter, ..] => cmd
            .get_arguments()
            .any(|arg| arg.get_short() == Some(char::from(letter))),
        _ => false,
    }
}

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
    refuse_reversed(text)?;
    // The shape is not known yet: the message names no shape's bound.
    parse_range(text, &(1..=shape::MAX_CELLS), "blank counts").map_err(|_| {
        "expected LOW~HIGH with 1 <= LOW <= HIGH, the blank counts (each shape supports its own \
         range)"
            .to_owned()
    })
}

/// A guess range `LOW~HIGH` or `LOW-HIGH` inside the supported one.
pub fn parse_guesses(text: &str) -> Result<(usize, usize), String> {
    refuse_reversed(text)?;
    parse_range(text, &reach::GUESSES, "guess counts")
}

/// Refuses a range written `HIGH~LOW`, saying so: the rule `LOW <= HIGH` alone leaves the reader
/// to find which of the two is wrong.
fn refuse_reversed(text: &str) -> Result<(), String> {
    match range_numbers(text) {
        Some((low, high)) if low > high => Err(format!(
            "{text} runs from high to low: LOW comes first, {high}~{low}"
        )),
        _ => Ok(()),
    }
}

/// A `--hard` level: a mean of guesses with at most one decimal, as ten times the mean.
pub fn parse_hard(text: &str) -> Result<usize, String> {
    let message = || {
        format!(
            "expected a mean of guesses such as 34 or 30.5, from 0 to {}",
            hard::HIGHEST_MEAN
        )
    };
    let (whole, tenth) = text.split_once('.').unwrap_or((text, "0"));
    let digits = |s: &str, most: usize| {
        (!s.is_empty() && s.len() <= most && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    match (digits(whole, 4), digits(tenth, 1)) {
        (Some(whole), Some(tenth)) if whole <= hard::HIGHEST_MEAN => Ok(10 * whole + tenth),
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
    match range_numbers(text) {
        Some((low, high)) if low <= high && range.contains(&low) && range.contains(&high) => {
            Ok((low, high))
        }
        _ => Err(supported),
    }
}

/// The two numbers of `LOW~HIGH` or `LOW-HIGH`, each in decimal digits, in the order written.
fn range_numbers(text: &str) -> Option<(usize, usize)> {
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    let (low, high) = text.split_once(['~', '-'])?;
    Some((number(low)?, number(high)?))
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
    fn a_reversed_range_is_called_reversed() {
        assert_eq!(parse_blanks("30~50"), Ok((30, 50)));
        assert_eq!(
            parse_blanks("50~30"),
            Err("50~30 runs from high to low: LOW comes first, 30~50".to_owned())
        );
        assert_eq!(
            parse_guesses("9-2"),
            Err("9-2 runs from high to low: LOW comes first, 2~9".to_owned())
        );
        assert!(
            parse_blanks("+5~3")
                .unwrap_err()
                .starts_with("expected LOW~HIGH")
        );
    }

    #[test]
    fn a_word_reads_as_an_option_by_its_two_dashes_or_its_first_letter() {
        let cmd = Command::new("t")
            .arg(Arg::new("count").short('c'))
            .arg(Arg::new("seed").long("seed"));
        for word in ["--seed", "--unknown", "--", "-c", "-count.txt"] {
            assert!(reads_as_option(&cmd, OsStr::new(word)), "{word}");
        }
        for word in ["-", "-5", "-dash.txt", "file", "a-c"] {
            assert!(!reads_as_option(&cmd, OsStr::new(word)), "{word}");
        }
    }

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
