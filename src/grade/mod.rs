//! The course grader: homework submissions run through a [`Plan`], with this crate as the oracle.
//!
//! # Representation
//! A [`Grading`] holds one [`ProgramReport`] per submission, each with one [`CaseResult`] per case
//! of the plan, in the plan's order: the terminal report and the score sheet are two renderings of
//! that one table. The checks are this crate's own: [`check::check_grids`] for grids (the
//! `--check` rules and messages), [`check::check_solutions`] for solutions, the solver and
//! [`rate`](crate::jobs::rate) for puzzles (see `judge.rs`); the inputs are puzzles made by
//! [`dig::generate_puzzles`] from the plan's seeds, the same on every run.
//!
//! # Order of work
//! Every case runs in a fresh temporary folder holding a copy of the program and the case's input
//! (see `limited_run.rs` for the limits). A program's cases run one after another; the
//! submissions' ordinary cases run on the current rayon pool (`-j`), several programs at once; then
//! the speed cases run one at a time, alone, each run of the program taken in turn with a run of
//! this tool's own binary (`current_exe`, as a child, on the same arguments plus `-o OUTPUT`), so
//! that both meet the machine in the same state.
//!
//! A grading ended by a signal takes its runs and their folders with it, through the command
//! line's signal handling (see `live.rs`).
//!
//! # The programs
//! A PROGRAM is an executable file or a script with a `#!` line that takes the homework's command
//! lines: `-c N` writes N distinct grids to `sudoku.txt` in its working folder, `-s FILE` the
//! solutions of FILE's puzzles, and for the pair plan `-n N` (with `-m LEVEL`, `-r LOW~HIGH`, `-u`) N
//! puzzles with one solution each. A folder stands for every executable file in it, in name order.
//!
//! # What each case checks
//! - `grids`: the `--check` rules (exact format, valid, distinct, count, first digit), with the same
//!   located messages, and the homework's grid layout.
//! - `solutions`: every solution valid and keeping its puzzle's givens; the inputs are puzzles made
//!   by this crate from fixed seeds (the same on every run), in the homework's format (`0` for
//!   blanks, an empty line between puzzles).
//! - `puzzles`: the count, one solution each, blanks in range, the level as this crate rates it, none
//!   repeated.
//! - `rejection` (a bad command line): the program ends within the limit, not by a signal, and
//!   writes no complete grid (a message written in `sudoku.txt` is fine); its exit code is not judged.
//!
//! Any other case fails on a non-zero exit code. A program that prints its output instead of writing
//! `sudoku.txt` fails with a message saying so, unless the plan has `stdout = true`.
//!
//! # Speed
//! A speed case runs the program and this tool in turn, three times each by default; every run is
//! judged, and the ratio of the median wall times earns the points of the first tier it does not
//! exceed. The shipped tiers are ratio 2: 10 points, 5: 8, 20: 6, 100: 3, 1000: 1; slower fails.
//!
//! # The report
//! The terminal gets a block per program: every case with pass or FAIL, its time, its points or the
//! first problem found (`sudoku.txt:12: grid 2: repeats grid 1 (line 1)`, `killed by signal SIGSEGV`,
//! `timed out after 5 s (its process group was killed)`, `1.27x this tool's 0.886 s`), then the
//! total. `-o` writes the score sheet: a header `program,CASE...,total`, then a row per program with
//! each case's points (empty when failed) and the total. Exit code: 0 when every program passed every
//! case, 1 when a case failed, 2 for a usage error; a plan that cannot be used is one, reported as
//! `PLAN:LINE: what is wrong`.

mod judge;
mod limited_run;
mod live;
pub mod plan;
mod report;
mod strays;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;

use crate::check::{self, GridRules};
use crate::engine::standard::dig::{self, PuzzleRequest};
use crate::error::{Error, system_message};
use crate::grade::judge::{check_puzzles, complete_grids, first_problem, read_regular_file};
use crate::grade::limited_run::{Ending, Limits, Run, Strays, run_limited};
use crate::grade::live::CaseFolder;
use crate::grade::plan::{Case, Expect, MAX_OUTPUT_CAP, Plan, PlanError};
use crate::io::input::shown_path;
use crate::jobs::rate::Level;
use crate::text::format::OutputFormat;

pub use live::abandon_runs;
pub use report::{CaseResult, Grading, ProgramReport};

/// The smallest output cap, so that a usage message on standard output is never cut off.
const LEAST_OUTPUT_CAP: u64 = 64 << 10;

/// What to grade, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct GradeRequest {
    /// Programs, or folders standing for every executable file in them.
    pub programs: Vec<PathBuf>,
    /// `basic`, `pair` or a plan file.
    pub plan: String,
    /// The digit (its character) every grid must start with.
    pub first: Option<u8>,
    /// A wall-clock limit for every case, in place of the plan's.
    pub timeout: Option<Duration>,
    /// Where the score sheet goes (`-o`), if anywhere: neither the plan nor a program.
    pub sheet: Option<PathBuf>,
}

/// Why grading cannot start: the command line names something that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum GradeError {
    /// The plan cannot be used.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// A program named on the command line cannot be graded.
    #[error("sudoku-gen: error: {0}")]
    Program(String),
    /// The time limit given in place of the plan's is not one.
    #[error("sudoku-gen: error: the time limit must be {}", plan::TIME_LIMITS)]
    TimeLimit,
    /// The score sheet would replace an input of the grading (the file, and which input).
    #[error("sudoku-gen: error: -o {0}: the score sheet would replace {1}")]
    SheetOverInput(String, String),
}

/// A grading whose plan is read and whose programs are found: nothing left that the command line
/// could be at fault for.
#[derive(Debug)]
pub struct GradeJob {
    plan: Plan,
    programs: Vec<PathBuf>,
    first: Option<u8>,
    timeout: Option<Duration>,
}

impl GradeRequest {
    /// Reads the plan and finds the programs; an error here is a usage error.
    pub fn prepare(&self) -> Result<GradeJob, GradeError> {
        // The command line checks its own; a library's caller may pass any duration.
        if self
            .timeout
            .is_some_and(|t| plan::time_limit(t.as_secs_f64()).is_none())
        {
            return Err(GradeError::TimeLimit);
        }
        let (plan, _) = Plan::load(&self.plan)?;
        let programs = list_programs(&self.programs)?;
        check_names(&plan, &programs)?;
        if let Some(sheet) = &self.sheet
            && let Some(input) = self.input_at(sheet, &programs)
        {
            return Err(GradeError::SheetOverInput(
                sheet.display().to_string(),
                input,
            ));
        }
        Ok(GradeJob {
            plan,
            programs,
            first: self.first,
            timeout: self.timeout,
        })
    }

    /// Which of the grading's inputs, the plan or one of `programs`, the file `sheet` is, if
    /// one: a score sheet written there would replace it.
    fn input_at(&self, sheet: &Path, programs: &[PathBuf]) -> Option<String> {
        use std::os::unix::fs::MetadataExt;
        let sheet = std::fs::metadata(sheet).ok()?;
        let same = |path: &Path| {
            std::fs::metadata(path).is_ok_and(|m| (m.dev(), m.ino()) == (sheet.dev(), sheet.ino()))
        };
        if same(Path::new(&self.plan)) {
            return Some(format!("the plan {}", self.plan));
        }
        let program = programs.iter().find(|program| same(program))?;
        Some(format!("the program {}", program.display()))
    }
}

/// Grades every program of `job` by its plan.
pub fn grade(job: &GradeJob) -> Result<Grading, Error> {
    let GradeJob {
        plan,
        programs,
        first,
        timeout,
    } = job;
    let _sweep = live::Sweep;
    let cases: Vec<&Case> = plan.cases().collect();
    let inputs: Vec<Option<Vec<u8>>> = cases.iter().map(|case| make_input(case)).collect();
    let reference =
        std::env::current_exe().map_err(|e| Error::io("the path of this program", e))?;
    // A speed case times the programs against this tool's own run: a command line this tool
    // cannot run, or whose output fails the case, is the plan's fault, found before any program
    // is run rather than charged to every student. (`--first` is the programs' convention, not
    // this tool's.)
    let own = Grader {
        plan,
        first: None,
        timeout: *timeout,
        reference: reference.clone(),
    };
    for (index, (case, input)) in cases.iter().zip(&inputs).enumerate() {
        if case.is_speed() {
            let (_, output) = own.run_once(None, case, input.as_deref())?;
            if let Err(what) = output.and_then(|text| own.judge(case, &text, input.as_deref())) {
                let message = format!(
                    "speed case `{}`: this tool's own run of its command line fails: {what}",
                    case.name
                );
                return Err(Error::Unusable(plan.case_error(index, message).to_string()));
            }
        }
    }
    let grader = Grader {
        plan,
        first: *first,
        timeout: *timeout,
        reference,
    };
    let ordinary = |program: &Path| -> Result<Vec<Option<CaseResult>>, Error> {
        cases
            .iter()
            .zip(&inputs)
            .map(|(case, input)| {
                let input = input.as_deref();
                (!case.is_speed())
                    .then(|| grader.run_case(program, case, input))
                    .transpose()
            })
            .collect()
    };
    let mut results = programs
        .par_iter()
        .map(|program| ordinary(program))
        .collect::<Result<Vec<_>, Error>>()?;
    for (program, results) in programs.iter().zip(&mut results) {
        for ((case, input), result) in cases.iter().zip(&inputs).zip(results.iter_mut()) {
            if case.is_speed() {
                *result = Some(grader.run_speed_case(program, case, input.as_deref())?);
            }
        }
    }
    // Results of runs killed by a signal's clean-up are no results.
    live::stop_if_abandoned();
    Ok(Grading {
        plan: plan.name.clone(),
        cases: cases
            .iter()
            .map(|c| (c.name.clone(), c.max_points()))
            .collect(),
        programs: programs
            .iter()
            .zip(results)
            .map(|(program, results)| ProgramReport {
                program: shown_path(program),
                cases: results.into_iter().flatten().collect(),
            })
            .collect(),
    })
}

/// The programs named: each file as it is, each folder as the executable files in it, by name.
fn list_programs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, GradeError> {
    let mut programs = Vec::new();
    for path in paths {
        let unusable = |what: &str| GradeError::Program(format!("{}: {what}", shown_path(path)));
        let metadata = std::fs::metadata(path).map_err(|e| unusable(&system_message(&e)))?;
        if metadata.is_dir() {
            let entries = std::fs::read_dir(path).map_err(|e| unusable(&system_message(&e)))?;
            let mut found: Vec<PathBuf> = entries
                .flatten()
                .map(|entry| entry.path())
                .filter(|p| is_executable(p))
                .collect();
            if found.is_empty() {
                return Err(unusable("a folder without an executable file"));
            }
            found.sort();
            programs.extend(found);
        } else if is_executable(path) {
            programs.push(path.clone());
        } else {
            return Err(unusable("not an executable file"));
        }
    }
    Ok(programs)
}

/// A program is copied into each case's folder under its own name, beside the case's input and
/// the output it writes: a program of either name would be overwritten, or taken for the output.
fn check_names(plan: &Plan, programs: &[PathBuf]) -> Result<(), GradeError> {
    for program in programs {
        let name = program.file_name().unwrap_or_default().to_string_lossy();
        for case in plan.cases() {
            let output = case.output.as_deref().unwrap_or(&plan.output);
            let clash = if case.input.as_ref().is_some_and(|input| input.file == name) {
                "its input"
            } else if output == name {
                "its output"
            } else {
                continue;
            };
            return Err(GradeError::Program(format!(
                "{}: case `{}` of the plan has a file of this name in the program's folder ({clash}); \
                 rename the program",
                shown_path(program),
                case.name
            )));
        }
    }
    Ok(())
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The text of a case's input file: as written in the plan, or puzzles made from its seed in the
/// homework's format (`0` for blanks, an empty line between puzzles).
fn make_input(case: &Case) -> Option<Vec<u8>> {
    let input = case.input.as_ref()?;
    if let Some(text) = &input.text {
        return Some(text.clone().into_bytes());
    }
    let request = PuzzleRequest {
        count: input
            .puzzles
            .expect("a checked plan's input has text or puzzles"),
        seed: input.seed,
        blanks: input.blank_range(),
        level: input.level.and_then(Level::from_number),
        ..PuzzleRequest::default()
    };
    let puzzles = dig::generate_puzzles(&request, &|| {});
    Some(dig::render_puzzles(&puzzles, OutputFormat::Grid))
}

/// The settings every case of one grading shares.
struct Grader<'a> {
    plan: &'a Plan,
    first: Option<u8>,
    timeout: Option<Duration>,
    reference: PathBuf,
}

/// A failed check: what the report says.
pub(super) type Problem = String;

impl Grader<'_> {
    fn output_name<'c>(&'c self, case: &'c Case) -> &'c str {
        case.output.as_deref().unwrap_or(&self.plan.output)
    }

    fn limits(&self, case: &Case) -> Limits {
        let wall = self
            .timeout
            .unwrap_or_else(|| Duration::from_secs_f64(case.timeout.unwrap_or(self.plan.timeout)));
        let roomy = case.expected_output().saturating_mul(4);
        let output_cap = case
            .output_cap
            .unwrap_or(roomy.clamp(LEAST_OUTPUT_CAP, MAX_OUTPUT_CAP));
        Limits { wall, output_cap }
    }

    /// Runs `program` (copied into a fresh folder with the input, as a submission is) or, without
    /// one, this tool, and returns the run with the text of its output or the problem found.
    fn run_once(
        &self,
        program: Option<&Path>,
        case: &Case,
        input: Option<&[u8]>,
    ) -> Result<(Run, Result<Vec<u8>, Problem>), Error> {
        let folder = CaseFolder::new().map_err(|e| Error::io("a temporary folder", e))?;
        let in_folder = |name: &str| folder.path().join(name);
        let (command, args) = match program {
            Some(program) => {
                let name = program.file_name().unwrap_or_default().to_string_lossy();
                let copy = in_folder(&name);
                std::fs::copy(program, &copy).map_err(|e| Error::io(&shown_path(program), e))?;
                (copy, case.args.clone())
            }
            None => {
                let mut args = case.args.clone();
                args.extend(["-o".to_owned(), self.output_name(case).to_owned()]);
                (self.reference.clone(), args)
            }
        };
        if let (Some(file), Some(text)) = (&case.input, input) {
            let path = in_folder(&file.file);
            std::fs::write(&path, text).map_err(|e| Error::io(&shown_path(&path), e))?;
        }
        let limits = self.limits(case);
        let run = match run_limited(&command, &args, folder.path(), limits) {
            Ok(run) => run,
            Err(e) => {
                let failed = Run {
                    ending: Ending::Exited(-1),
                    elapsed: Duration::ZERO,
                    stdout: Vec::new(),
                    strays: Strays::default(),
                };
                let problem = format!("could not be started: {}", system_message(&e));
                return Ok((failed, Err(problem)));
            }
        };
        let written = read_regular_file(&in_folder(self.output_name(case)), limits.output_cap);
        let output = self.collect_output(case, &run, written);
        Ok((run, output))
    }

    /// The output of a run: its file, or what it printed where the plan accepts that; a run that
    /// did not end well, or wrote nowhere, is a problem.
    fn collect_output(
        &self,
        case: &Case,
        run: &Run,
        written: Option<Vec<u8>>,
    ) -> Result<Vec<u8>, Problem> {
        let name = self.output_name(case);
        if run.strays.any() {
            return Err(match run.ending {
                Ending::Exited(0) => format!("exited, but {}", run.strays),
                ending => format!("{ending}, and {}", run.strays),
            });
        }
        if case.expect == Expect::Rejection {
            // Where standard output counts as the output, grids printed there count too.
            let printed = if self.plan.stdout {
                complete_grids(&run.stdout)
            } else {
                0
            };
            return match (run.ending, printed) {
                (Ending::Exited(_), 0) => Ok(written.unwrap_or_default()),
                (Ending::Exited(_), 1) => {
                    Err("printed a complete grid on standard output".to_owned())
                }
                (Ending::Exited(_), n) => {
                    Err(format!("printed {n} complete grids on standard output"))
                }
                (ending, _) => Err(ending.to_string()),
            };
        }
        if run.ending != Ending::Exited(0) {
            return Err(run.ending.to_string());
        }
        match written {
            Some(text) => Ok(text),
            None if run.stdout.is_empty() => Err(format!("wrote no {name} (as a regular file)")),
            None if self.plan.stdout => Ok(run.stdout.clone()),
            None if complete_grids(&run.stdout) > 0 => Err(format!(
                "wrote its output to standard output, not to {name} (this plan does not accept \
                 standard output)"
            )),
            None => Err(format!(
                "wrote no {name} (as a regular file); its {} byte{} on standard output hold no \
                 complete grid",
                run.stdout.len(),
                if run.stdout.len() == 1 { "" } else { "s" }
            )),
        }
    }

    fn run_case(
        &self,
        program: &Path,
        case: &Case,
        input: Option<&[u8]>,
    ) -> Result<CaseResult, Error> {
        let (run, output) = self.run_once(Some(program), case, input)?;
        let problem = output.and_then(|text| self.judge(case, &text, input)).err();
        Ok(CaseResult {
            case: case.name.clone(),
            passed: problem.is_none(),
            points: match problem {
                None => case.points.unwrap_or_default(),
                Some(_) => 0.0,
            },
            elapsed: run.elapsed,
            speed: None,
            problem,
        })
    }

    /// Runs a speed case: the program and this tool in turn, `runs` times each; every output of
    /// the program is checked, and the ratio of the median times earns a tier.
    fn run_speed_case(
        &self,
        program: &Path,
        case: &Case,
        input: Option<&[u8]>,
    ) -> Result<CaseResult, Error> {
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        let mut problem = None;
        for run_number in 1..=case.runs {
            let (run, output) = self.run_once(None, case, input)?;
            if let Err(what) = output {
                problem = Some(format!("this tool's own run failed: {what}"));
                break;
            }
            ours.push(run.elapsed);
            let (run, output) = self.run_once(Some(program), case, input)?;
            theirs.push(run.elapsed);
            // A run's output earns nothing unless it is right: each is checked, lest a program
            // do the work once and then only pretend, fast.
            if let Err(what) = output.and_then(|text| self.judge(case, &text, input)) {
                problem = Some(match case.runs {
                    1 => what,
                    runs => format!("run {run_number} of {runs}: {what}"),
                });
                break;
            }
        }
        let elapsed = median(&mut theirs);
        let mut result = CaseResult {
            case: case.name.clone(),
            passed: false,
            points: 0.0,
            elapsed,
            speed: None,
            problem,
        };
        if result.problem.is_none() {
            let reference = median(&mut ours);
            let ratio = elapsed.as_secs_f64() / reference.as_secs_f64().max(1e-6);
            result.speed = Some((ratio, reference));
            match case.tiers.iter().find(|tier| ratio <= tier.ratio) {
                Some(tier) => {
                    result.passed = true;
                    result.points = tier.points;
                }
                None => {
                    let slowest = case.tiers.last().expect("a speed case has tiers");
                    result.problem = Some(format!(
                        "slower than the last tier ({}x this tool's time)",
                        slowest.ratio
                    ));
                }
            }
        }
        Ok(result)
    }

    /// The first problem of an output, checked against what the case expects.
    fn judge(&self, case: &Case, text: &[u8], input: Option<&[u8]>) -> Result<(), Problem> {
        let name = self.output_name(case);
        match case.expect {
            Expect::Grids => {
                let rules = GridRules {
                    count: case.count,
                    first: self.first,
                };
                first_problem(name, &check::check_grids(text, rules))?;
                let first_line = text.split(|&b| b == b'\n').next().unwrap_or_default();
                if first_line.strip_suffix(b"\r").unwrap_or(first_line).len() != 17 {
                    return Err(format!(
                        "{name}:1: not the homework's format (9 lines of 9 digits separated by \
                         spaces)"
                    ));
                }
                Ok(())
            }
            Expect::Solutions => {
                let puzzles = input.expect("a checked plan gives `solutions` an input");
                match check::check_solutions(text, puzzles, GridRules::default()) {
                    Ok(report) => first_problem(name, &report),
                    Err(errors) => Err(format!(
                        "the case's own input is unreadable ({} problems)",
                        errors.count()
                    )),
                }
            }
            Expect::Puzzles => check_puzzles(case, name, text),
            Expect::Rejection => {
                // A usage message written to the file is no fault; complete grids are.
                match complete_grids(text) {
                    0 => Ok(()),
                    1 => Err(format!("left a {name} holding a complete grid")),
                    n => Err(format!("left a {name} of {n} complete grids")),
                }
            }
        }
    }
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}
