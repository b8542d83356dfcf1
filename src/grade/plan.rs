//! Grading plans: the cases a homework submission is run through, written in TOML.
//!
//! # Representation
//! A [`Plan`] is the TOML file deserialized as it is written (serde), one [`Case`] per `[[case]]`
//! table, so that the file a grader edits and the value the grader runs are the same shape; the
//! checks serde cannot express (a `grids` case needs a count, a tier list must rise, ...) are made
//! once by [`Plan::parse`], which locates every problem as `PLAN:LINE: what`. The shipped plans
//! (`basic`, `pair`) are files of this same format, compiled in.
//!
//! # Schema
//! Top level: `name` (text), `description` (text, optional), `output` (the file a run must write,
//! default `sudoku.txt`), `stdout` (true: output printed on standard output is accepted in its
//! place; default false), `timeout` (seconds a case may run, default 10), then the cases. Each
//! `[[case]]`:
//! - `name`: the case's column in the score sheet; letters, digits, `-`, `_` and `.`, unique.
//! - `args`: the command line after the program's name.
//! - `expect`: `grids` (`count` distinct valid complete grids, the `--check` rules, starting with
//!   `--first` when given), `solutions` (one valid solution keeping the givens per puzzle of the
//!   input), `puzzles` (`count` distinct puzzles with one solution each, with `blanks = [LOW, HIGH]`
//!   and `level` 1–3 when given) or `rejection` (a bad command line: the program must end within the
//!   limit, not by a signal, and leave no file of complete grids).
//! - `points`: what passing is worth, 0 to 1000 in hundredths at most; needed, except in a speed
//!   case, whose `tiers` replace it.
//! - `input` (optional): a file written into the case's folder: `file` (its name), and either
//!   `text` (its content) or `puzzles` (how many puzzles this tool makes for it, in the homework's
//!   format: `0` for blanks, an empty line between puzzles), with optional `level`, `blanks` and
//!   `seed` (default 0).
//! - `timeout` (seconds, default the plan's), `output_cap` (bytes, default 4× the expected output and
//!   at least 64 KiB; at most 1 GiB, and for `grids` and `puzzles` at least the size of `count`
//!   grids), `output` (default the plan's).
//! - `count` (and an input's `puzzles`): 1 to 1,000,000, this tool's own range.
//! - Time limits, the plan's, a case's and `--timeout`: from 0.001 to 86,400 seconds (a day).
//! - `tiers` (a speed case): `[{ ratio = R, points = P }, ...]`, ratios rising. The case runs `runs`
//!   times (default 3) in turn with this tool on the same arguments plus `-o OUTPUT`; the ratio of
//!   the medians of wall time earns the points of the first tier it does not exceed. Speed cases run
//!   alone on the machine.
//!
//! # The shipped plans
//! - `basic` (the individual project, 33 cases, 55.5 points): `-c` 1, 2, 1000 and 1000000; `-s` on
//!   20 puzzles of each level and on 100 minimal puzzles; 23 bad command lines of 0.5 points each
//!   (none, `-c` alone, `-c 0`, `-c -1`, `-c 1000001`, a 20-digit count, `-c abc`, `-c 1.5`,
//!   `-c 1e3`, `-c 0x10`, `-c +5`, `-c ''`, `-c 10 -c 10`, `-c 10 extra`, `c 10`, `--c 10`, `-x`,
//!   `-s` alone, `-s` on a missing file, on a folder, on a malformed file and on an empty file,
//!   `-c 10 -s FILE`); the speed of `-c 1000000` and of `-s` on 10,000 puzzles of 30 to 54 blanks.
//! - `pair` (52 cases, 83 points): `basic`'s, and `-n 1`, `-n 100`, `-n 20 -m 1|2|3`,
//!   `-n 50 -r 20~55`, `-n 50 -r 40~40`, `-n 50 -u`, and 11 bad `-n` command lines (`-n 0`,
//!   `-n 1000001`, `-n abc`, `-m 1` alone, `-m 4`, `-m 0`, `-r 50~20`, `-r abc`, `-r 20~70`, `-u`
//!   alone, `-n 10 -c 10`).

use std::collections::HashSet;
use std::ops::{Range, RangeInclusive};
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Deserializer};
use toml::Spanned;

use crate::engine::standard::reach;
use crate::engine::standard::walk::MAX_GRIDS;
use crate::error::system_message;
use crate::jobs::rate::Level;

/// The plans shipped with the tool: name and TOML text.
pub(crate) const SHIPPED: [(&str, &str); 2] = [
    ("basic", include_str!("plans/basic.toml")),
    ("pair", include_str!("plans/pair.toml")),
];

/// A test plan: shared settings and the cases, in order.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// What the plan is called in reports.
    pub name: String,
    /// A line for the person who reads the plan.
    #[serde(default)]
    pub description: String,
    /// The file each run must write, in its working folder.
    #[serde(default = "default_output")]
    pub output: String,
    /// Whether output on standard output is accepted in place of that file.
    #[serde(default)]
    pub stdout: bool,
    /// Seconds a case may run unless it says otherwise.
    #[serde(default = "default_timeout")]
    pub timeout: f64,
    /// The cases.
    #[serde(rename = "case")]
    cases: Vec<Spanned<Case>>,
    /// The plan's name or file, and the line of each case: where a problem found later is.
    #[serde(skip)]
    source: String,
    #[serde(skip)]
    case_lines: Vec<usize>,
}

/// One case: a command line, its input, and what its output must be.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The case's name, its column in the score sheet.
    pub name: String,
    /// The arguments after the program's name.
    #[serde(default)]
    pub args: Vec<String>,
    /// What the run must produce.
    pub expect: Expect,
    /// How many grids or puzzles (`grids`, `puzzles`).
    pub count: Option<usize>,
    /// The level every puzzle must have (`puzzles`).
    pub level: Option<u8>,
    /// The range the blank counts must lie in (`puzzles`).
    #[serde(default, deserialize_with = "two_counts")]
    pub blanks: Option<[usize; 2]>,
    /// A file written into the working folder before the run.
    pub input: Option<Input>,
    /// Points for a pass: needed, except in a speed case, which has none.
    pub points: Option<f64>,
    /// Seconds the run may take; the plan's by default.
    pub timeout: Option<f64>,
    /// Bytes the output may reach; 4× the expected size (at least 64 KiB) by default.
    pub output_cap: Option<u64>,
    /// The file this case's run must write; the plan's by default.
    pub output: Option<String>,
    /// Speed tiers: the case is a speed case when there are any.
    #[serde(default, deserialize_with = "some_tiers")]
    pub tiers: Vec<Tier>,
    /// Timed runs of a speed case (each of the program and of this tool).
    #[serde(default = "default_runs")]
    pub runs: usize,
}

/// What a case's run must produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Expect {
    /// Distinct valid complete grids.
    Grids,
    /// One solution per puzzle of the input.
    Solutions,
    /// Puzzles with one solution each.
    Puzzles,
    /// Nothing: the command line is wrong and must be refused without a crash.
    Rejection,
}

/// A file written into a case's working folder.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// Its name in the folder.
    pub file: String,
    /// Its content as written.
    pub text: Option<String>,
    /// How many puzzles this tool makes for it.
    pub puzzles: Option<usize>,
    /// Their level.
    pub level: Option<u8>,
    /// Their blank range.
    #[serde(default, deserialize_with = "two_counts")]
    pub blanks: Option<[usize; 2]>,
    /// The seed they are made with.
    #[serde(default)]
    pub seed: u64,
}

/// A speed tier: a ratio to this tool's time not exceeded earns the points.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tier {
    /// The largest ratio of the program's time to this tool's in the tier.
    pub ratio: f64,
    /// The points it earns.
    pub points: f64,
}

/// How a blank range is written in a plan.
const BLANKS_FORM: &str = "[LOW, HIGH], two counts such as [30, 50]";

/// The forms of the settings that a TOML message does not show, for the messages about the
/// lines that set them.
const FORMS: [(&str, &str); 4] = [
    ("blanks", BLANKS_FORM),
    ("tiers", "[{ ratio = R, points = P }, ...]"),
    ("args", "a list of words, such as [\"-c\", \"10\"]"),
    (
        "input",
        "{ file = \"puzzles.txt\", puzzles = N } or { file = \"input.txt\", text = \"...\" }",
    ),
];

/// `message` about the line of byte `offset` of `text`, with the form of the setting the line
/// sets when it is one of [`FORMS`] that the message does not name: `string values must be
/// quoted` says nothing of what `blanks = 30~50` should have been.
fn with_form(message: &str, text: &str, offset: usize) -> String {
    // The key is the last one set before the offset on its line, inside an inline table too.
    let before = &text[..offset.min(text.len())];
    let before = &before[before.rfind('\n').map_or(0, |at| at + 1)..];
    let key = before.rsplit_once('=').map_or("", |(key, _)| key);
    let key = key.rsplit(['{', ',']).next().unwrap_or_default().trim();
    match FORMS.iter().find(|(name, _)| *name == key) {
        Some((name, form)) if !message.contains(&format!("`{name}")) => {
            format!("{message} (`{name}` is {form})")
        }
        _ => message.to_owned(),
    }
}

/// A blank range `[LOW, HIGH]`: exactly two counts, where serde's own reading of an array of two
/// would take the first two of a longer list and drop the rest unsaid.
fn two_counts<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<[usize; 2]>, D::Error> {
    let counts = Vec::<usize>::deserialize(deserializer)?;
    <[usize; 2]>::try_from(counts).map(Some).map_err(|counts| {
        serde::de::Error::custom(format!(
            "`blanks` is {BLANKS_FORM}, not a list of {}",
            counts.len()
        ))
    })
}

/// The tiers of a speed case: at least one, since an empty list would make the case no speed
/// case, and a `points` it does not have the only thing said about it.
fn some_tiers<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Tier>, D::Error> {
    let tiers = Vec::<Tier>::deserialize(deserializer)?;
    if tiers.is_empty() {
        return Err(serde::de::Error::custom(
            "`tiers = []` lists no tier: a speed case has at least one, \
             [{ ratio = R, points = P }, ...]; a case that is not timed has no `tiers` and \
             has `points`",
        ));
    }
    Ok(tiers)
}

fn default_output() -> String {
    "sudoku.txt".to_owned()
}

fn default_timeout() -> f64 {
    10.0
}

fn default_runs() -> usize {
    3
}

/// A plan that cannot be used: located in its file, shown as `PLAN:LINE: what`; or a file that
/// cannot be read, shown as `sudoku-gen: error: PLAN: what`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", match .line {
    Some(line) => format!("{}:{line}: {}", .plan, .message),
    None => format!("sudoku-gen: error: {}: {}", .plan, .message),
})]
pub struct PlanError {
    /// The plan's name or file.
    pub plan: String,
    /// The line of the problem; none when the file could not be read.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// The most bytes a plan file may hold: far past any plan's text, its inputs included, and a
/// bound on what `/dev/zero` or an endless pipe given as a plan costs.
const PLAN_BYTES: u64 = 64 << 20;

/// The text of the plan file `path`, or what keeps it from being one.
fn read_plan(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let with_kind = |e: &std::io::Error| {
        format!(
            "{} (a plan is `basic`, `pair` or a TOML file)",
            system_message(e)
        )
    };
    let file = std::fs::File::open(path).map_err(|e| with_kind(&e))?;
    let mut bytes = Vec::new();
    file.take(PLAN_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| with_kind(&e))?;
    if bytes.len() as u64 > PLAN_BYTES {
        return Err(format!(
            "longer than {} MiB, past any plan (a plan is `basic`, `pair` or a TOML file)",
            PLAN_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text, as a TOML plan is".to_owned())
}

impl Plan {
    /// The plan that `spec` names: a shipped plan's name, or a TOML file. Returns it with its text.
    pub fn load(spec: &str) -> Result<(Plan, String), PlanError> {
        let text = match SHIPPED.iter().find(|(name, _)| *name == spec) {
            Some((_, text)) => (*text).to_owned(),
            None => read_plan(Path::new(spec)).map_err(|message| PlanError {
                plan: spec.to_owned(),
                line: None,
                message,
            })?,
        };
        let plan = Plan::parse(spec, &text)?;
        Ok((plan, text))
    }

    /// Reads and checks the plan `text`, named `name` in errors.
    pub fn parse(name: &str, text: &str) -> Result<Plan, PlanError> {
        // A problem of the text is located: at the start when nothing better is known.
        let error = |span: Option<Range<usize>>, message: String| PlanError {
            plan: name.to_owned(),
            line: Some(span.map_or(1, |s| line_of(text, s.start))),
            message,
        };
        let mut plan: Plan = toml::from_str(text).map_err(|e| {
            let message = e.message().trim_end();
            let message = e
                .span()
                .map_or(message.to_owned(), |s| with_form(message, text, s.start));
            error(e.span(), message)
        })?;
        // The settings' own places, which the plan's plain values do not keep.
        let spans: TopSpans = toml::from_str(text).unwrap_or_default();
        let at = |value: Option<Spanned<toml::Value>>| value.map(|v| v.span());
        if time_limit(plan.timeout).is_none() {
            return Err(error(at(spans.timeout), time_limit_message()));
        }
        check_file_name(&plan.output)
            .map_err(|m| error(at(spans.output), format!("`output`: {m}")))?;
        if plan.cases.is_empty() {
            return Err(error(None, "the plan has no `[[case]]`".into()));
        }
        let mut names = HashSet::new();
        for case in &plan.cases {
            let problem = case.get_ref().problem().or_else(|| {
                (!names.insert(case.get_ref().name.as_str()))
                    .then(|| format!("a second case named `{}`", case.get_ref().name))
            });
            if let Some(message) = problem {
                return Err(error(Some(case.span()), message));
            }
        }
        plan.source = name.to_owned();
        plan.case_lines = plan
            .cases
            .iter()
            .map(|c| line_of(text, c.span().start))
            .collect();
        Ok(plan)
    }

    /// The problem `message` of case `index`, located at its line of the plan.
    pub fn case_error(&self, index: usize, message: String) -> PlanError {
        PlanError {
            plan: self.source.clone(),
            line: self.case_lines.get(index).copied(),
            message,
        }
    }

    /// The cases, in order.
    pub fn cases(&self) -> impl ExactSizeIterator<Item = &Case> {
        self.cases.iter().map(Spanned::get_ref)
    }
}

/// Where the plan's own settings are written, read apart from the plan.
#[derive(Default, Deserialize)]
struct TopSpans {
    timeout: Option<Spanned<toml::Value>>,
    output: Option<Spanned<toml::Value>>,
}

/// What a time limit must be, the plan's, a case's or the command line's.
pub const TIME_LIMITS: &str = "from 0.001 to 86400 seconds (a day)";

fn time_limit_message() -> String {
    format!("`timeout` must be {TIME_LIMITS}")
}

/// The time limit of `seconds`, if it is one: a day at most, since a longer one is a slip, and a
/// millisecond at least, since a shorter one rounds to nothing.
pub fn time_limit(seconds: f64) -> Option<Duration> {
    (0.001..=86_400.0)
        .contains(&seconds)
        .then(|| Duration::from_secs_f64(seconds))
}

/// The largest output cap: what a run writes is held in memory.
pub(crate) const MAX_OUTPUT_CAP: u64 = 1 << 30;

/// The bytes of a grid in the homework's format (9 lines of 17), with the empty line that
/// separates it from the next.
pub(crate) const GRID_BYTES: u64 = 163;

/// The most points a case or a tier can be worth.
const MAX_POINTS: f64 = 1000.0;

/// Whether `points` is a number of points: 0 to [`MAX_POINTS`], in hundredths at most, so that
/// sums show as written.
fn is_points(points: f64) -> bool {
    let hundredths = points * 100.0;
    (0.0..=MAX_POINTS).contains(&points) && (hundredths - hundredths.round()).abs() < 1e-6
}

/// The line (from 1) of byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// A file name inside a case's folder: no folders, nothing hidden above it.
fn check_file_name(name: &str) -> Result<(), String> {
    let plain =
        !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0']);
    if plain {
        Ok(())
    } else {
        Err(format!("`{name}` is not a plain file name"))
    }
}

/// Whether `range` is a blank range the puzzle maker reaches for `level`.
fn check_blanks(level: Option<u8>, blanks: Option<[usize; 2]>) -> Result<(), String> {
    let level = match level {
        None => None,
        Some(n) => Some(Level::from_number(n).ok_or(format!("`level` {n} is not 1, 2 or 3"))?),
    };
    let Some([low, high]) = blanks else {
        return reach::check_reachable(level, false, false, None);
    };
    let asked = format!("`blanks = [{low}, {high}]`");
    if low > high {
        return Err(format!(
            "{asked} runs from high to low: it is [LOW, HIGH], [{high}, {low}]"
        ));
    }
    reach::check_reachable(level, false, false, Some(&(low..=high)))
        .map_err(|why| format!("{asked}: {why}"))
}

impl Case {
    /// The first thing wrong with this case on its own, if any.
    fn problem(&self) -> Option<String> {
        let name_ok = !self.name.is_empty()
            && self
                .name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
        if !name_ok {
            return Some(format!(
                "case name `{}`: use letters, digits, `-`, `_` and `.`",
                self.name
            ));
        }
        let at = |what: String| Some(format!("case `{}`: {what}", self.name));
        let needs_count = matches!(self.expect, Expect::Grids | Expect::Puzzles);
        if needs_count != self.count.is_some() {
            return at(if needs_count {
                "`count` is needed".into()
            } else {
                "`count` is only for `grids` and `puzzles`".into()
            });
        }
        if self.count.is_some_and(|n| !(1..=MAX_GRIDS).contains(&n)) {
            return at(format!("`count` must be 1 to {MAX_GRIDS}"));
        }
        if (self.level.is_some() || self.blanks.is_some()) && self.expect != Expect::Puzzles {
            return at(
                "`level` and `blanks` are only for `puzzles` (or an input's puzzles)".into(),
            );
        }
        if let Err(what) = check_blanks(self.level, self.blanks) {
            return at(what);
        }
        if self.expect == Expect::Solutions && self.input.is_none() {
            return at("`solutions` needs an `input`".into());
        }
        // Solutions of a text that holds no puzzles would fail every correct program.
        if let Some(Input {
            text: Some(text), ..
        }) = self
            .input
            .as_ref()
            .filter(|_| self.expect == Expect::Solutions)
        {
            match crate::text::parse::parse_puzzles(text.as_bytes()) {
                Err(errors) => {
                    let first = &errors.listed()[0];
                    return at(format!(
                        "the input's `text` is not a file of 9×9 puzzles ({}:{}: {}), so no \
                         program could give its `solutions`",
                        first.line, first.column, first.message
                    ));
                }
                Ok(puzzles) if puzzles.grids.is_empty() => {
                    return at("the input's `text` holds no puzzle to give `solutions` of".into());
                }
                Ok(puzzles) => {
                    let mut solver = crate::engine::standard::solve::Solver::new();
                    if let Some(k) = puzzles.grids.iter().position(|p| solver.solve(p).is_none()) {
                        return at(format!(
                            "puzzle {} of the input's `text` (its line {}) has no solution, so no \
                             program could give its `solutions`",
                            k + 1,
                            puzzles.lines[k]
                        ));
                    }
                }
            }
        }
        if self.args.iter().any(|arg| arg.contains('\0')) {
            return at("`args` cannot hold a NUL character".into());
        }
        if let Some(what) = self.input.as_ref().and_then(Input::problem) {
            return at(what);
        }
        if let Err(what) = check_file_name(self.output.as_deref().unwrap_or("sudoku.txt")) {
            return at(format!("`output`: {what}"));
        }
        if self.timeout.is_some_and(|t| time_limit(t).is_none()) {
            return at(time_limit_message());
        }
        if let Some(cap) = self.output_cap {
            // Less than `count` grids fails every correct program.
            let least = match self.expect {
                Expect::Grids | Expect::Puzzles => self.expected_output().saturating_sub(1),
                Expect::Solutions | Expect::Rejection => 1,
            };
            if !(least..=MAX_OUTPUT_CAP).contains(&cap) {
                return at(format!(
                    "`output_cap` must be from {least} to {MAX_OUTPUT_CAP} bytes"
                ));
            }
        }
        match (self.points, self.tiers.is_empty()) {
            (None, true) => {
                return at("`points` is needed (a speed case has `tiers` instead)".into());
            }
            (Some(_), false) => {
                return at("a speed case earns its `tiers`' points, not `points`".into());
            }
            _ => {}
        }
        let mut points = self
            .points
            .into_iter()
            .chain(self.tiers.iter().map(|t| t.points));
        if !points.all(is_points) {
            return at(format!(
                "points must be from 0 to {MAX_POINTS}, in hundredths at most"
            ));
        }
        if !self.tiers.is_empty() {
            if self.expect == Expect::Rejection {
                return at("a `rejection` case cannot be timed".into());
            }
            let rising = self.tiers.windows(2).all(|w| w[0].ratio < w[1].ratio);
            if !rising
                || self
                    .tiers
                    .iter()
                    .any(|t| !t.ratio.is_finite() || t.ratio <= 0.0)
            {
                return at("tier ratios must be positive and rising".into());
            }
            if !(1..=15).contains(&self.runs) {
                return at("`runs` must be 1 to 15".into());
            }
        }
        None
    }

    /// Whether the case is timed against this tool.
    pub(crate) fn is_speed(&self) -> bool {
        !self.tiers.is_empty()
    }

    /// The most points the case can earn.
    pub(crate) fn max_points(&self) -> f64 {
        self.tiers
            .iter()
            .map(|t| t.points)
            .fold(self.points.unwrap_or(0.0), f64::max)
    }

    /// About the size of a correct output: [`GRID_BYTES`] a grid, a puzzle, or a solution of a
    /// made input; an input's own size for its written text.
    pub(crate) fn expected_output(&self) -> u64 {
        let grids = match self.expect {
            Expect::Grids | Expect::Puzzles => self.count.unwrap_or(0),
            Expect::Solutions => match &self.input {
                Some(Input {
                    text: Some(text), ..
                }) => return text.len() as u64,
                Some(input) => input.puzzles.unwrap_or(0),
                None => 0,
            },
            Expect::Rejection => 0,
        };
        GRID_BYTES.saturating_mul(grids as u64)
    }
}

impl Input {
    fn problem(&self) -> Option<String> {
        if let Err(what) = check_file_name(&self.file) {
            return Some(format!("input `file`: {what}"));
        }
        match (&self.text, self.puzzles) {
            (Some(_), None) => (self.level.is_some() || self.blanks.is_some())
                .then(|| "input `level` and `blanks` are for made `puzzles`".into()),
            (None, Some(count)) if (1..=MAX_GRIDS).contains(&count) => {
                check_blanks(self.level, self.blanks)
                    .err()
                    .map(|what| format!("input: {what}"))
            }
            (None, Some(_)) => Some(format!("input `puzzles` must be 1 to {MAX_GRIDS}")),
            _ => Some("an input has either `text` or `puzzles`".into()),
        }
    }

    /// The blank range of the made puzzles.
    pub(crate) fn blank_range(&self) -> Option<RangeInclusive<usize>> {
        self.blanks.map(|[low, high]| low..=high)
    }
}

#[cfg(test)]
mod tests;
