//! The outcome of a grading, and its two renderings: the terminal report and the score sheet.
//!
//! Points are shown to the hundredth (a plan gives them in hundredths at most), so that sums such
//! as 0.1 + 0.2 read as they would on paper.

use std::fmt::Write as _;
use std::time::Duration;

/// The result of one case for one program.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseResult {
    /// The case's name.
    pub case: String,
    /// Whether it passed.
    pub passed: bool,
    /// The points earned (0 when failed).
    pub points: f64,
    /// The wall time of the program's run (the median of a speed case's runs).
    pub elapsed: Duration,
    /// For a speed case that ran to the end: the ratio to this tool's time, and that time.
    pub speed: Option<(f64, Duration)>,
    /// The first problem found, when it failed.
    pub problem: Option<String>,
}

/// The results of one program.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramReport {
    /// The program as named (a folder's entries with the folder).
    pub program: String,
    /// One result per case, in the plan's order.
    pub cases: Vec<CaseResult>,
}

impl ProgramReport {
    /// The points of all its cases.
    pub fn total(&self) -> f64 {
        self.cases.iter().map(|c| c.points).sum()
    }

    /// Whether every case passed.
    pub fn passed(&self) -> bool {
        self.cases.iter().all(|c| c.passed)
    }
}

/// The grading of every program by one plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Grading {
    /// The plan's name.
    pub plan: String,
    /// The case names, in order, with the most points each can earn.
    pub cases: Vec<(String, f64)>,
    /// One report per program, in the order given (a folder's entries by name).
    pub programs: Vec<ProgramReport>,
}

impl Grading {
    /// Whether every program passed every case.
    pub fn passed(&self) -> bool {
        self.programs.iter().all(ProgramReport::passed)
    }

    /// The terminal report: a block per program, one line per case (pass or FAIL, its time, then
    /// its points or first problem), then the points.
    pub fn render_text(&self) -> String {
        let width = self.cases.iter().map(|(name, _)| name.len()).max();
        let width = width.unwrap_or(0);
        let most: f64 = self.cases.iter().map(|(_, points)| points).sum();
        let mut out = String::new();
        for report in &self.programs {
            let _ = writeln!(out, "{} (plan {})", report.program, self.plan);
            for result in &report.cases {
                let verdict = if result.passed { "pass" } else { "FAIL" };
                let time = format!("{:.3} s", result.elapsed.as_secs_f64());
                let mut detail = match result.speed {
                    Some((ratio, reference)) => {
                        format!("{ratio:.2}x this tool's {:.3} s; ", reference.as_secs_f64())
                    }
                    None => String::new(),
                };
                match &result.problem {
                    Some(problem) => detail += problem,
                    None => {
                        let points = show_points(result.points);
                        let unit = if points == "1" { "point" } else { "points" };
                        let _ = write!(detail, "{points} {unit}");
                    }
                }
                let _ = writeln!(
                    out,
                    "  {verdict}  {:width$}  {time:>9}  {detail}",
                    result.case
                );
            }
            let passed = report.cases.iter().filter(|c| c.passed).count();
            let _ = writeln!(
                out,
                "  total {} of {} points, {passed} of {} cases passed\n",
                show_points(report.total()),
                show_points(most),
                report.cases.len()
            );
        }
        out
    }

    /// The score sheet: a header `program,CASE...,total`, then a row per program with the points of
    /// each case (empty when failed) and the total.
    pub fn render_csv(&self) -> Vec<u8> {
        let mut sheet = csv::Writer::from_writer(Vec::new());
        let header = std::iter::once("program")
            .chain(self.cases.iter().map(|(name, _)| name.as_str()))
            .chain(std::iter::once("total"));
        // Writing to memory cannot fail.
        sheet.write_record(header).expect("a record in memory");
        for report in &self.programs {
            let row = std::iter::once(report.program.clone())
                .chain(report.cases.iter().map(|c| match c.passed {
                    true => show_points(c.points),
                    false => String::new(),
                }))
                .chain(std::iter::once(show_points(report.total())));
            sheet.write_record(row).expect("a record in memory");
        }
        sheet.into_inner().expect("a buffer in memory")
    }
}

/// Points as a grade sheet shows them: to the hundredth at most, without trailing zeros.
pub(crate) fn show_points(points: f64) -> String {
    let text = format!("{points:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" => "0".to_owned(),
        text => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_score_sheet_has_a_column_per_case() {
        let result = |case: &str, passed: bool, points: f64| CaseResult {
            case: case.to_owned(),
            passed,
            points,
            elapsed: Duration::from_millis(5),
            speed: None,
            problem: (!passed).then(|| "wrote no sudoku.txt".to_owned()),
        };
        let grading = Grading {
            plan: "t".to_owned(),
            cases: vec![("a".to_owned(), 2.0), ("b".to_owned(), 0.5)],
            programs: vec![ProgramReport {
                program: "subs/x,y".to_owned(),
                cases: vec![result("a", true, 2.0), result("b", false, 0.0)],
            }],
        };
        assert_eq!(
            String::from_utf8(grading.render_csv()).unwrap(),
            "program,a,b,total\n\"subs/x,y\",2,,2\n"
        );
        let text = grading.render_text();
        assert!(text.contains("  pass  a    0.005 s  2 points\n"), "{text}");
        assert!(
            text.contains("  FAIL  b    0.005 s  wrote no sudoku.txt\n"),
            "{text}"
        );
        assert!(
            text.contains("total 2 of 2.5 points, 1 of 2 cases passed"),
            "{text}"
        );
        assert!(!grading.passed());
    }

    #[test]
    fn points_are_shown_to_the_hundredth() {
        assert_eq!(show_points(0.1 + 0.2), "0.3");
        assert_eq!(show_points(2.0), "2");
        assert_eq!(show_points(0.5), "0.5");
        assert_eq!(show_points(12.25), "12.25");
        assert_eq!(show_points(0.0), "0");
    }
}
