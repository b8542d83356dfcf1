//! Lists of problems as every report shows them: the first [`LISTED`] in order, the rest only
//! counted. A hostile input may hold a problem on every line, and listing them all could take many
//! times the input's own size; the count keeps the verdict exact.
//!
//! Also the one way a message shows a character found out of place (`shown_character`).

/// How many problems a report lists; the rest are only counted.
pub const LISTED: usize = 20;

/// The problems of one report: the first [`LISTED`] of them in order, and how many there are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problems<T> {
    listed: Vec<T>,
    count: usize,
}

impl<T> Default for Problems<T> {
    fn default() -> Problems<T> {
        Problems {
            listed: Vec::new(),
            count: 0,
        }
    }
}

impl<T> Problems<T> {
    /// No problems.
    pub fn new() -> Problems<T> {
        Problems::default()
    }

    /// Adds a problem that comes after every one added so far.
    pub fn push(&mut self, problem: T) {
        self.push_with(|| problem);
    }

    /// Adds a problem that comes after every one added so far, made only if it will be listed.
    pub(crate) fn push_with(&mut self, problem: impl FnOnce() -> T) {
        if self.listed.len() < LISTED {
            self.listed.push(problem());
        }
        self.count += 1;
    }

    /// Adds a problem found out of order (threads report as they finish): the listed ones stay the
    /// first by `key`.
    pub(crate) fn insert_by_key<K: Ord>(&mut self, problem: T, key: impl Fn(&T) -> K) {
        let at_key = key(&problem);
        self.insert_with(at_key, || problem, key);
    }

    /// As [`insert_by_key`](Self::insert_by_key) for the problem whose key is `at_key`, made only
    /// if it will be listed: a file with a fault in every grid is worded twenty times, not once a
    /// grid.
    pub(crate) fn insert_with<K: Ord>(
        &mut self,
        at_key: K,
        problem: impl FnOnce() -> T,
        key: impl Fn(&T) -> K,
    ) {
        self.count += 1;
        let at = self.listed.partition_point(|p| key(p) <= at_key);
        if at < LISTED {
            self.listed.insert(at, problem());
            self.listed.truncate(LISTED);
        }
    }

    /// Adds the problems of input that comes after this one's.
    pub fn append(&mut self, later: Problems<T>) {
        let room = LISTED.saturating_sub(self.listed.len());
        self.count += later.count;
        self.listed.extend(later.listed.into_iter().take(room));
    }

    /// Adds the problems of another part of the same input, keeping the first by `key` listed.
    pub(crate) fn merge_by_key<K: Ord>(
        &mut self,
        other: Problems<T>,
        key: impl Fn(&T) -> K + Copy,
    ) {
        let unlisted = other.count - other.listed.len();
        for problem in other.listed {
            self.insert_by_key(problem, key);
        }
        self.count += unlisted;
    }

    /// Counts problems that are not listed.
    pub(crate) fn count_unlisted(&mut self, more: usize) {
        self.count += more;
    }

    /// The listed problems.
    pub fn listed(&self) -> &[T] {
        &self.listed
    }

    /// How many problems there are, listed or not.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Whether there is no problem.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The report's lines: each listed problem as `line` words it, then `... and N more` if some
    /// were not listed.
    pub fn lines(&self, line: impl Fn(&T) -> String) -> Vec<String> {
        let mut lines: Vec<String> = self.listed.iter().map(line).collect();
        if self.count > self.listed.len() {
            lines.push(format!("... and {} more", self.count - self.listed.len()));
        }
        lines
    }
}

/// The character starting at byte `at` of `bytes`, as a message shows it: quoted when it prints
/// (`'x'`), escaped when it is a control character (`'\t'`), or named when the bytes are not UTF-8.
pub(crate) fn shown_character(bytes: &[u8], at: usize) -> String {
    let rest = &bytes[at..bytes.len().min(at + 4)];
    let valid = match std::str::from_utf8(rest) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or(""),
    };
    match valid.chars().next() {
        Some(ch) if !ch.is_control() => format!("'{ch}'"),
        Some(ch) => format!("{ch:?}"),
        None => format!("byte 0x{:02x} (not UTF-8)", bytes[at]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_are_listed_and_all_counted() {
        let mut problems = Problems::new();
        for n in 0..LISTED + 5 {
            problems.push(n);
        }
        assert_eq!(problems.count(), LISTED + 5);
        assert_eq!(problems.listed(), (0..LISTED).collect::<Vec<_>>());
        let lines = problems.lines(|n| format!("problem {n}"));
        assert_eq!(lines.last().unwrap(), "... and 5 more");
        assert_eq!(lines.len(), LISTED + 1);
    }

    #[test]
    fn out_of_order_problems_keep_the_first_listed() {
        let mut problems = Problems::new();
        for n in (0..3 * LISTED).rev() {
            problems.insert_by_key(n, |&n| n);
        }
        assert_eq!(problems.listed(), (0..LISTED).collect::<Vec<_>>());
        let mut other = Problems::new();
        for n in 0..LISTED + 2 {
            other.push(1000 + n);
        }
        let mut earlier = Problems::new();
        earlier.push(7);
        other.merge_by_key(earlier, |&n| n);
        assert_eq!(other.count(), LISTED + 3);
        assert_eq!(other.listed()[0], 7);
        assert_eq!(other.listed().len(), LISTED);
    }

    #[test]
    fn appended_problems_fill_the_list_in_order() {
        let mut first = Problems::new();
        first.push(1);
        let mut later = Problems::new();
        for n in 2..50 {
            later.push(n);
        }
        first.append(later);
        assert_eq!(first.count(), 49);
        assert_eq!(first.listed(), (1..=LISTED).collect::<Vec<_>>());
    }

    #[test]
    fn characters_are_shown_quoted_escaped_or_named() {
        assert_eq!(shown_character(b"ab", 1), "'b'");
        assert_eq!(shown_character(b"a\tb", 1), "'\\t'");
        assert_eq!(shown_character("é".as_bytes(), 0), "'é'");
        assert_eq!(shown_character(b"\xff", 0), "byte 0xff (not UTF-8)");
    }
}
