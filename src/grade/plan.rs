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
//! - `points`: what passing is worth; `tiers` (a speed case) replaces it.
//! - `input` (optional): a file written into the case's folder: `file` (its name), and either
//!   `text` (its content) or `puzzles` (how many puzzles this tool makes for it, in the homework's
//!   format: `0` for blanks, an empty line between puzzles), with optional `level`, `blanks` and
//!   `seed` (default 0).
//! - `timeout` (seconds, default the plan's), `output_cap` (bytes, default 4× the expected output and
//!   at least 64 KiB), `output` (default the plan's).
//! - `tiers` (a speed case): `[{ ratio = R, points = P }, ...]`, ratios rising. The case runs `runs`
//!   times (default 3) in turn with this tool on the same arguments plus `-o OUTPUT`; the ratio of
//!   the medians of wall time earns the points of the first tier it does not exceed. Speed cases run
//!   alone on the machine.

use std::collections::HashSet;
use std::ops::{Range, RangeInclusive};
use std::path::Path;

use serde::Deserialize;
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
    pub blanks: Option<[usize; 2]>,
    /// A file written into the working folder before the run.
    pub input: Option<Input>,
    /// Points for a pass (not for a speed case).
    #[serde(default)]
    pub points: f64,
    /// Seconds the run may take; the plan's by default.
    pub timeout: Option<f64>,
    /// Bytes the output may reach; 4× the expected size (at least 64 KiB) by default.
    pub output_cap: Option<u64>,
    /// The file this case's run must write; the plan's by default.
    pub output: Option<String>,
    /// Speed tiers: the case is a speed case when there are any.
    #[serde(default)]
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

fn default_output() -> String {
    "sudoku.txt".to_owned()
}

fn default_timeout() -> f64 {
    10.0
}

fn default_runs() -> usize {
    3
}

/// A plan that cannot be used, located in its file: shown as `PLAN:LINE: what`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", .plan, .line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct PlanError {
    /// The plan's name or file.
    pub plan: String,
    /// The line of the problem, when it has one.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl Plan {
    /// The plan that `spec` names: a shipped plan's name, or a TOML file. Returns it with its text.
    pub fn load(spec: &str) -> Result<(Plan, String), PlanError> {
        let text = match SHIPPED.iter().find(|(name, _)| *name == spec) {
            Some((_, text)) => (*text).to_owned(),
            None => std::fs::read_to_string(Path::new(spec)).map_err(|e| PlanError {
                plan: spec.to_owned(),
                line: None,
                message: format!(
                    "{} (a plan is `basic`, `pair` or a TOML file)",
                    system_message(&e)
                ),
            })?,
        };
        let plan = Plan::parse(spec, &text)?;
        Ok((plan, text))
    }

    /// Reads and checks the plan `text`, named `name` in errors.
    pub fn parse(name: &str, text: &str) -> Result<Plan, PlanError> {
        let error = |span: Option<Range<usize>>, message: String| PlanError {
            plan: name.to_owned(),
            line: span.map(|s| line_of(text, s.start)),
            message,
        };
        let plan: Plan =
            toml::from_str(text).map_err(|e| error(e.span(), e.message().trim_end().to_owned()))?;
        if !is_time_limit(plan.timeout) {
            return Err(error(None, TIME_LIMIT.into()));
        }
        check_file_name(&plan.output).map_err(|m| error(None, format!("`output`: {m}")))?;
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
        Ok(plan)
    }

    /// The cases, in order.
    pub fn cases(&self) -> impl ExactSizeIterator<Item = &Case> {
        self.cases.iter().map(Spanned::get_ref)
    }
}

/// What a time limit must be.
const TIME_LIMIT: &str = "`timeout` must be a number of seconds above 0 and at most a day";

fn is_time_limit(seconds: f64) -> bool {
    seconds > 0.0 && seconds <= 86_400.0
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
    let range = blanks.map(|[low, high]| low..=high);
    reach::check_reachable(level, false, false, range.as_ref())
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
        if self.count == Some(0) {
            return at("`count` must be at least 1".into());
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
        if let Some(what) = self.input.as_ref().and_then(Input::problem) {
            return at(what);
        }
        if let Err(what) = check_file_name(self.output.as_deref().unwrap_or("sudoku.txt")) {
            return at(format!("`output`: {what}"));
        }
        if self.timeout.is_some_and(|t| !is_time_limit(t)) {
            return at(TIME_LIMIT.into());
        }
        let mut points = std::iter::once(self.points).chain(self.tiers.iter().map(|t| t.points));
        if !points.all(|p| p.is_finite() && p >= 0.0) {
            return at("points must be zero or more".into());
        }
        if !self.tiers.is_empty() {
            if self.points != 0.0 {
                return at("a speed case earns its `tiers`' points, not `points`".into());
            }
            if self.expect == Expect::Rejection {
                return at("a `rejection` case cannot be timed".into());
            }
            let rising = self.tiers.windows(2).all(|w| w[0].ratio < w[1].ratio);
            if !rising
                || self
                    .tiers
                    .iter()
                    .any(|t| t.ratio.is_nan() || t.ratio <= 0.0)
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
            .fold(self.points, f64::max)
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
mod tests {
    use super::*;

    #[test]
    fn shipped_plans_are_valid() {
        for (name, text) in SHIPPED {
            let plan = Plan::parse(name, text).unwrap();
            assert_eq!(plan.name, name);
            let rejections = plan
                .cases()
                .filter(|c| c.expect == Expect::Rejection)
                .count();
            assert!(rejections >= 20, "{name}: {rejections} bad command lines");
        }
    }

    #[test]
    fn errors_name_the_line() {
        let text =
            "name = \"x\"\n\n[[case]]\nname = \"a\"\nexpect = \"grids\"\nargs = [\"-c\", \"1\"]\n";
        let error = Plan::parse("p.toml", text).unwrap_err();
        assert_eq!(error.to_string(), "p.toml:3: case `a`: `count` is needed");
        let error = Plan::parse("p.toml", "name = \"x\"\nbogus = 1\n").unwrap_err();
        assert_eq!(error.line, Some(2), "{error}");
        assert!(error.message.contains("bogus"), "{error}");
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_or_refused_with_a_line_inside_it(text in "[a-z\\[\\]=\"0-9 \n{},.]{0,200}") {
            if let Err(error) = Plan::parse("p", &text) {
                let lines = text.split('\n').count();
                proptest::prop_assert!(error.line.is_none_or(|line| (1..=lines).contains(&line)));
            }
        }
    }

    #[test]
    fn case_problems_are_found() {
        let plan = |case: &str| Plan::parse("p", &format!("name = \"x\"\n[[case]]\n{case}\n"));
        assert!(plan("name = \"a\"\nexpect = \"grids\"\ncount = 1").is_ok());
        for bad in [
            "name = \"a b\"\nexpect = \"grids\"\ncount = 1",
            "name = \"a\"\nexpect = \"solutions\"",
            "name = \"a\"\nexpect = \"puzzles\"\ncount = 5\nlevel = 4",
            "name = \"a\"\nexpect = \"puzzles\"\ncount = 5\nlevel = 2\nblanks = [5, 10]",
            "name = \"a\"\nexpect = \"rejection\"\ninput = { file = \"../x\", text = \"\" }",
            "name = \"a\"\nexpect = \"grids\"\ncount = 1\ntiers = [{ ratio = 2, points = 1 }, { ratio = 1, points = 2 }]",
            "name = \"a\"\nexpect = \"rejection\"\ntimeout = 0",
        ] {
            let error = plan(bad).unwrap_err();
            assert_eq!(error.line, Some(2), "{bad}: {error}");
        }
        let twice = "name = \"x\"\n[[case]]\nname = \"a\"\nexpect = \"rejection\"\n[[case]]\nname = \"a\"\nexpect = \"rejection\"\n";
        assert_eq!(
            Plan::parse("p", twice).unwrap_err().to_string(),
            "p:5: a second case named `a`"
        );
    }
}
