//! `sudoku-gen --grade`: fake submissions with known defects, each failing exactly its cases.
//!
//! Each fake is a shell script written into a temporary folder; the correct one wraps this crate's
//! own binary, and each defective one spoils that in one way.

use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::common::sudoku_gen;

const PLAN: &str = "tests/data/plans/small.toml";
pub(crate) const ONE_GRID: &str = "tests/data/plans/one-grid.toml";
const CASES: [&str; 11] = [
    "c-1",
    "c-2",
    "c-100",
    "s-level1",
    "s-level3",
    "bad-none",
    "bad-c-0",
    "bad-c-letters",
    "bad-s-missing",
    "speed-c-500",
    "speed-s-200",
];

/// The body of a correct submission: every grid starts with 5, output to sudoku.txt.
pub(crate) fn correct_run() -> String {
    let binary = env!("CARGO_BIN_EXE_sudoku-gen");
    format!(
        "case \"$1\" in\n  -c) \"{binary}\" \"$@\" --first 5 -o sudoku.txt ;;\n  *) \"{binary}\" \"$@\" -o sudoku.txt ;;\nesac\n"
    )
}

/// Writes an executable script `name` with `body` into `folder`.
pub(crate) fn write_script(folder: &Path, name: &str, body: &str) -> PathBuf {
    let path = folder.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// What one grading printed: exit code, terminal report, score sheet.
pub(crate) struct Graded {
    code: i32,
    pub(crate) report: String,
    sheet: String,
}

impl Graded {
    /// The cases of row `row` of the sheet (from 1) left empty, that is failed.
    pub(crate) fn failed(&self, row: usize) -> BTreeSet<String> {
        let mut lines = self.sheet.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let cells: Vec<&str> = lines.nth(row - 1).unwrap().split(',').collect();
        assert_eq!(header.len(), cells.len());
        header
            .iter()
            .zip(&cells)
            .filter(|(_, cell)| cell.is_empty())
            .map(|(name, _)| name.to_string())
            .collect()
    }

    /// The report's line of case `case` (the first program's that has one).
    pub(crate) fn line_of(&self, case: &str) -> &str {
        self.report
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(case))
            .unwrap_or_else(|| panic!("no line for {case} in\n{}", self.report))
    }
}

pub(crate) fn grade_with(programs: &[&Path], args: &[&str]) -> Graded {
    let sheet_folder = tempfile::tempdir().unwrap();
    let sheet = sheet_folder.path().join("report.csv");
    let out = sudoku_gen()
        .arg("--grade")
        .args(programs)
        .arg("-o")
        .arg(&sheet)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Graded {
        code: out.status.code().unwrap(),
        report: String::from_utf8(out.stdout).unwrap(),
        sheet: std::fs::read_to_string(&sheet).unwrap(),
    }
}

/// Grades one fake submission whose script is `body` by the small plan.
fn grade_fake(body: &str) -> Graded {
    let folder = tempfile::tempdir().unwrap();
    let program = write_script(folder.path(), "submission", body);
    grade_with(&[&program], &["--plan", PLAN, "--first", "5"])
}

/// The small plan with `stdout = true`, written into `folder`.
fn stdout_plan(folder: &Path) -> PathBuf {
    let plan = folder.join("stdout.toml");
    let text = std::fs::read_to_string(PLAN).unwrap();
    std::fs::write(
        &plan,
        text.replace("timeout = 20", "timeout = 20\nstdout = true"),
    )
    .unwrap();
    plan
}

pub(crate) fn names(cases: &[&str]) -> BTreeSet<String> {
    cases.iter().map(|c| c.to_string()).collect()
}

/// The report's lines of case `case`, one per program.
pub(crate) fn lines_of<'a>(graded: &'a Graded, case: &str) -> Vec<&'a str> {
    let lines = graded.report.lines();
    lines
        .filter(|l| l.split_whitespace().nth(1) == Some(case))
        .collect()
}

#[test]
fn a_correct_submission_passes_every_case() {
    let graded = grade_fake(&correct_run());
    assert_eq!(graded.code, 0, "{}", graded.report);
    assert_eq!(graded.failed(1), names(&[]), "{}", graded.report);
    let header = graded.sheet.lines().next().unwrap();
    assert_eq!(header, format!("program,{},total", CASES.join(",")));
    // The speed cases earn 4 points at up to 5 times this tool's time, 1 up to 10: the fake runs
    // this very tool, but a loaded machine can slow one of two runs of a few milliseconds a lot.
    let row: Vec<&str> = graded.sheet.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(row[1..10], ["2", "2", "3", "3", "3", "1", "1", "1", "1"]);
    assert!(
        row[10..12].iter().all(|p| ["1", "4"].contains(p)),
        "{row:?}"
    );
    assert!(
        graded
            .report
            .contains("of 25 points, 11 of 11 cases passed")
    );
    assert!(graded.line_of("speed-c-500").contains("x this tool's"));
}

#[test]
fn a_trailing_space_fails_the_grid_cases() {
    let body = correct_run() + "[ -f sudoku.txt ] && sed -i '1s/$/ /' sudoku.txt\nexit 0\n";
    let graded = grade_fake(&body);
    assert_eq!(graded.code, 1);
    assert_eq!(
        graded.failed(1),
        names(&["c-1", "c-2", "c-100", "speed-c-500"])
    );
    assert!(
        graded.line_of("c-1").contains("sudoku.txt:1:"),
        "{}",
        graded.report
    );
    assert!(graded.line_of("c-1").contains("space"), "{}", graded.report);
}

#[test]
fn a_repeated_grid_fails_the_cases_of_two_grids_or_more() {
    let binary = env!("CARGO_BIN_EXE_sudoku-gen");
    let body = format!(
        "if [ \"$1\" = -c ] && [ \"$2\" -ge 2 ] 2>/dev/null; then\n  \"{binary}\" -c $(($2 - 1)) --first 5 -o t.txt\n  {{ cat t.txt; echo; head -n 9 t.txt; }} > sudoku.txt\n  exit 0\nfi\n{}",
        correct_run()
    );
    let graded = grade_fake(&body);
    assert_eq!(graded.failed(1), names(&["c-2", "c-100", "speed-c-500"]));
    assert!(
        graded
            .line_of("c-2")
            .contains("sudoku.txt:11: grid 2: repeats grid 1 (line 1)"),
        "{}",
        graded.report
    );
}

#[test]
fn a_wrong_first_digit_fails_the_grid_cases() {
    let graded = grade_fake(&correct_run().replace("--first 5", "--first 6"));
    assert_eq!(
        graded.failed(1),
        names(&["c-1", "c-2", "c-100", "speed-c-500"])
    );
    assert!(
        graded.line_of("c-100").contains("(and 99 more problems)"),
        "{}",
        graded.report
    );
}

#[test]
fn a_crash_on_letters_is_named_by_its_signal() {
    let body = format!(
        "[ \"$1\" = -c ] && [ \"$2\" = abc ] && kill -SEGV $$\n{}",
        correct_run()
    );
    let graded = grade_fake(&body);
    assert_eq!(graded.failed(1), names(&["bad-c-letters"]));
    assert!(
        graded
            .line_of("bad-c-letters")
            .ends_with("killed by signal SIGSEGV")
    );
}

#[test]
fn a_hang_on_zero_times_out() {
    let body = format!(
        "[ \"$1\" = -c ] && [ \"$2\" = 0 ] && sleep 60\n{}",
        correct_run()
    );
    let started = std::time::Instant::now();
    let graded = grade_fake(&body);
    assert_eq!(graded.failed(1), names(&["bad-c-0"]));
    assert!(
        graded
            .line_of("bad-c-0")
            .ends_with("timed out after 3 s (its process group was killed)"),
        "{}",
        graded.report
    );
    assert!(started.elapsed().as_secs() < 30);
}

#[test]
fn output_on_stdout_fails_unless_the_plan_accepts_it() {
    let binary = env!("CARGO_BIN_EXE_sudoku-gen");
    let body = format!(
        "case \"$1\" in\n  -c) exec \"{binary}\" \"$@\" --first 5 ;;\n  *) exec \"{binary}\" \"$@\" ;;\nesac\n"
    );
    let graded = grade_fake(&body);
    assert_eq!(
        graded.failed(1),
        names(&[
            "c-1",
            "c-2",
            "c-100",
            "s-level1",
            "s-level3",
            "speed-c-500",
            "speed-s-200"
        ])
    );
    assert!(
        graded
            .line_of("c-1")
            .contains("to standard output, not to sudoku.txt")
    );

    let folder = tempfile::tempdir().unwrap();
    let plan = stdout_plan(folder.path());
    let program = write_script(folder.path(), "submission", &body);
    let graded = grade_with(
        &[&program],
        &["--plan", plan.to_str().unwrap(), "--first", "5"],
    );
    assert_eq!(graded.failed(1), names(&[]), "{}", graded.report);
}

#[test]
fn wrong_solutions_fail_the_solving_cases() {
    // The first solution has its first two cells swapped: its columns 1 and 2 repeat a digit.
    let body = correct_run()
        + "[ \"$1\" = -s ] && [ -f sudoku.txt ] && sed -i '1s/^\\(.\\) \\(.\\)/\\2 \\1/' sudoku.txt\nexit 0\n";
    let graded = grade_fake(&body);
    assert_eq!(
        graded.failed(1),
        names(&["s-level1", "s-level3", "speed-s-200"])
    );
    // A repeat is reported on the line of its second copy, naming the first row too.
    let problem = graded.line_of("s-level1");
    assert!(
        problem.contains("grid 1: digit") && problem.contains("(rows 1 and"),
        "{}",
        graded.report
    );
}

#[test]
fn a_slow_submission_fails_only_the_speed_case() {
    let body = format!(
        "[ \"$1\" = -c ] && [ \"$2\" = 500 ] && sleep 1\n{}",
        correct_run()
    );
    let graded = grade_fake(&body);
    assert_eq!(graded.failed(1), names(&["speed-c-500"]));
    assert!(
        graded
            .line_of("speed-c-500")
            .contains("slower than the last tier (10x this tool's time)")
    );
}

#[test]
fn a_folder_stands_for_its_executables_one_row_each() {
    let folder = tempfile::tempdir().unwrap();
    write_script(
        folder.path(),
        "b-first6",
        &correct_run().replace("--first 5", "--first 6"),
    );
    write_script(folder.path(), "a-correct", &correct_run());
    std::fs::write(folder.path().join("notes.txt"), "not a program").unwrap();
    let graded = grade_with(
        &[folder.path()],
        &["--plan", PLAN, "-j", "2", "--first", "5"],
    );
    assert_eq!(graded.sheet.lines().count(), 3);
    assert!(graded.sheet.lines().nth(1).unwrap().contains("a-correct,"));
    assert_eq!(graded.failed(1), names(&[]));
    assert_eq!(
        graded.failed(2),
        names(&["c-1", "c-2", "c-100", "speed-c-500"])
    );
    assert_eq!(graded.code, 1);
}

#[test]
fn a_malformed_plan_is_a_usage_error_with_its_line() {
    let folder = tempfile::tempdir().unwrap();
    let program = write_script(folder.path(), "submission", &correct_run());
    let plan = folder.path().join("plan.toml");
    std::fs::write(
        &plan,
        "name = \"x\"\n\n[[case]]\nname = \"c\"\nexpect = \"grids\"\n",
    )
    .unwrap();
    let out = sudoku_gen()
        .arg("--grade")
        .arg(&program)
        .arg("--plan")
        .arg(&plan)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr,
        format!("{}:3: case `c`: `count` is needed\n", plan.display())
    );
}

#[test]
fn usage_errors_of_the_grade_mode() {
    for args in [
        vec!["--grade", "/nonexistent/program"],
        vec!["--grade", "/bin/sh", "--plan", "nonexistent.toml"],
        vec!["--grade", "/bin/sh", "--timeout", "0"],
        vec!["--grade", "/bin/sh", "--seed", "3"],
        vec!["-c", "3", "--plan", "basic"],
        vec!["--grade"],
    ] {
        let out = sudoku_gen().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn print_shows_the_shipped_plans() {
    for plan in ["basic", "pair"] {
        let out = sudoku_gen()
            .args(["--print", "--plan", plan])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(&format!("name = \"{plan}\"")));
        assert!(text.matches("expect = \"rejection\"").count() >= 20);
    }
    let pair = sudoku_gen()
        .args(["--print", "--plan", "pair"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8(pair.stdout)
            .unwrap()
            .contains("args = [\"-n\", \"20\", \"-m\", \"3\"]")
    );
}

#[test]
fn a_link_to_an_endless_file_is_not_read() {
    let body = "[ \"$1\" = -c ] && ln -s /dev/zero sudoku.txt\nexit 0\n";
    let graded = grade_fake(body);
    assert_eq!(
        graded.failed(1),
        names(&[
            "c-1",
            "c-2",
            "c-100",
            "s-level1",
            "s-level3",
            "speed-c-500",
            "speed-s-200"
        ])
    );
    assert!(
        graded
            .line_of("c-1")
            .ends_with("wrote no sudoku.txt (as a regular file)")
    );
}

#[test]
fn grids_left_by_a_bad_command_line_fail_it_and_a_message_does_not() {
    let binary = env!("CARGO_BIN_EXE_sudoku-gen");
    let body = format!(
        "case \"$2\" in\n  0) \"{binary}\" -c 2 -o sudoku.txt; exit 2 ;;\n  abc) echo 'usage: -c N' > sudoku.txt; exit 2 ;;\nesac\n{}",
        correct_run()
    );
    let graded = grade_fake(&body);
    assert_eq!(graded.failed(1), names(&["bad-c-0"]));
    assert!(
        graded
            .line_of("bad-c-0")
            .ends_with("left a sudoku.txt of 2 complete grids")
    );
}

#[test]
fn a_compiled_program_larger_than_the_output_cap_passes() {
    // This tool itself, some megabytes, printing on standard output: its copy in the case folder
    // is no output of its own.
    let folder = tempfile::tempdir().unwrap();
    let plan = stdout_plan(folder.path());
    let program = Path::new(env!("CARGO_BIN_EXE_sudoku-gen"));
    assert!(std::fs::metadata(program).unwrap().len() > 64 << 10);
    let graded = grade_with(&[program], &["--plan", plan.to_str().unwrap()]);
    assert_eq!(graded.failed(1), names(&[]), "{}", graded.report);
}

#[test]
fn a_speed_case_judges_every_timed_run() {
    let folder = tempfile::tempdir().unwrap();
    let calls = folder.path().join("calls");
    let calls = calls.display();
    let body = format!(
        "n=$(cat \"{calls}\" 2>/dev/null || echo 0)\necho $((n + 1)) > \"{calls}\"\nif [ \"$n\" -ge 1 ]; then echo garbage > sudoku.txt; exit 0; fi\n{}",
        correct_run()
    );
    let program = write_script(folder.path(), "submission", &body);
    let plan = "tests/data/plans/speed.toml";
    let graded = grade_with(&[&program], &["--plan", plan, "--first", "5"]);
    assert_eq!(
        graded.failed(1),
        names(&["speed-c-100"]),
        "{}",
        graded.report
    );
    let line = graded.line_of("speed-c-100");
    assert!(
        line.starts_with("  FAIL") && line.contains("run 2 of 3: sudoku.txt:1:"),
        "{line}"
    );
    assert!(
        graded.report.contains("total 0 of 10 points"),
        "{}",
        graded.report
    );
}

#[test]
fn grids_after_a_message_or_on_stdout_fail_a_rejection() {
    let binary = env!("CARGO_BIN_EXE_sudoku-gen");
    let folder = tempfile::tempdir().unwrap();
    let message_then_grids =
        format!("echo 'error: bad count' > sudoku.txt\n\"{binary}\" -c 2 >> sudoku.txt\nexit 2\n");
    write_script(folder.path(), "a-message-then-grids", &message_then_grids);
    write_script(
        folder.path(),
        "b-printed",
        &format!("\"{binary}\" -c 2\nexit 2\n"),
    );
    write_script(folder.path(), "c-message", "echo 'usage: -c N'\nexit 2\n");
    let plan = "tests/data/plans/rejection-stdout.toml";
    let graded = grade_with(&[folder.path()], &["--plan", plan]);
    let lines = lines_of(&graded, "bad-c-0");
    assert!(
        lines[0].ends_with("left a sudoku.txt of 2 complete grids"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].ends_with("printed 2 complete grids on standard output"),
        "{}",
        lines[1]
    );
    assert_eq!(graded.failed(3), names(&[]), "{}", graded.report);
}

/// The exit code and standard error of `sudoku-gen --grade ARGS`, whose standard output must be
/// empty.
fn refused(args: &[&str]) -> (Option<i32>, String) {
    let out = sudoku_gen().arg("--grade").args(args).output().unwrap();
    assert!(out.stdout.is_empty(), "{args:?}");
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn numbers_out_of_range_in_a_plan_are_refused_with_their_line() {
    // Each plan's first line is `# error: LINE: MESSAGE`.
    let mut plans: Vec<_> = std::fs::read_dir("tests/data/plans/bad")
        .unwrap()
        .flatten()
        .collect();
    plans.sort_by_key(|entry| entry.file_name());
    assert!(plans.len() >= 8);
    for plan in plans {
        let path = plan.path();
        let text = std::fs::read_to_string(&path).unwrap();
        let expected = text
            .lines()
            .next()
            .unwrap()
            .strip_prefix("# error: ")
            .unwrap();
        let (code, stderr) = refused(&["/bin/sh", "--plan", path.to_str().unwrap()]);
        assert_eq!(code, Some(2), "{}", path.display());
        assert_eq!(stderr, format!("{}:{expected}\n", path.display()));
    }
}

#[test]
fn time_limits_out_of_range_are_usage_errors_that_state_the_range() {
    for limit in ["1e19", "inf", "1e20", "0", "-1", "nan", "0.0001"] {
        let (code, stderr) = refused(&["/bin/sh", &format!("--timeout={limit}")]);
        assert_eq!(code, Some(2), "{limit}");
        let range = "expected a time limit from 0.001 to 86400 seconds (a day)";
        assert!(
            stderr.contains(range) && !stderr.contains("Duration"),
            "{limit}: {stderr}"
        );
    }
}

#[test]
fn a_program_that_cannot_be_graded_is_an_error_of_sudoku_gen() {
    let folder = tempfile::tempdir().unwrap();
    let text = folder.path().join("notes.txt");
    std::fs::write(&text, "not a program").unwrap();
    let empty = folder.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    for (program, what) in [
        (
            Path::new("/nonexistent/program"),
            "No such file or directory",
        ),
        (text.as_path(), "not an executable file"),
        (empty.as_path(), "a folder without an executable file"),
    ] {
        let (code, stderr) = refused(&[program.to_str().unwrap()]);
        assert_eq!(code, Some(2));
        assert_eq!(
            stderr,
            format!("sudoku-gen: error: {}: {what}\n", program.display())
        );
    }
    let (code, stderr) = refused(&["/bin/sh", "--plan", "nonexistent.toml"]);
    assert_eq!(code, Some(2));
    let missing = "sudoku-gen: error: nonexistent.toml: No such file or directory";
    assert!(stderr.starts_with(missing), "{stderr}");
}

#[test]
fn points_add_up_as_written() {
    let folder = tempfile::tempdir().unwrap();
    let program = write_script(folder.path(), "submission", "exit 2\n");
    let graded = grade_with(&[&program], &["--plan", "tests/data/plans/tenths.toml"]);
    let total = "total 0.6 of 0.6 points, 3 of 3 cases passed";
    assert!(graded.report.contains(total), "{}", graded.report);
    assert!(
        graded.sheet.ends_with(",0.1,0.2,0.3,0.6\n"),
        "{}",
        graded.sheet
    );
}
