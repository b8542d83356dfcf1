//! What a case's output is judged by, apart from the `--check` rules: the file a run left, read
//! with care; complete grids found among other lines; made puzzles, checked one by one.

use std::collections::HashMap;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use rayon::prelude::*;

use super::Problem;
use crate::check;
use crate::engine::standard::solve::count_solutions;
use crate::grade::plan::Case;
use crate::jobs::rate::{self, Level};
use crate::model::grid::CELLS;
use crate::text::parse::parse_puzzles;

/// The file a run left, up to `cap` bytes; `None` unless it is a regular file (a FIFO would block
/// the read, and a link could lead anywhere, `/dev/zero` included).
pub(super) fn read_regular_file(path: &Path, cap: u64) -> Option<Vec<u8>> {
    // Checked on the file opened, not on its name, which something left running could point
    // elsewhere in between; opening a FIFO without a writer does not block with O_NONBLOCK.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(cap).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// How many complete grids `text` shows, wherever they are among other lines: 9 lines in a row
/// of 9 digits 1 to 9 each (spaces aside), or a line of 81. Unlike a parser, words before or
/// between them do not hide them.
pub(super) fn complete_grids(text: &[u8]) -> usize {
    let mut grids = 0;
    let mut rows = 0;
    for line in text.split(|&b| b == b'\n') {
        let mut digits = 0;
        let mut other = false;
        for &b in line {
            match b {
                b'1'..=b'9' => digits += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => other = true,
            }
        }
        match (other, digits) {
            (false, 81) => {
                grids += 1;
                rows = 0;
            }
            (false, 9) => {
                rows += 1;
                if rows == 9 {
                    grids += 1;
                    rows = 0;
                }
            }
            _ => rows = 0,
        }
    }
    grids
}

/// The first problem of a check's report, and how many more there are.
pub(super) fn first_problem(name: &str, report: &check::Report) -> Result<(), Problem> {
    match report.problem_lines(name).into_iter().next() {
        None => Ok(()),
        Some(first) if report.problems.count() == 1 => Err(first),
        Some(first) => Err(format!(
            "{first} (and {} more problems)",
            report.problems.count() - 1
        )),
    }
}

/// Checks made puzzles: readable, the right count, each with one solution, blanks and level as
/// asked, none repeated.
pub(super) fn check_puzzles(case: &Case, name: &str, text: &[u8]) -> Result<(), Problem> {
    let puzzles = parse_puzzles(text).map_err(|errors| match errors.listed().first() {
        Some(e) => e.line_in(name),
        None => format!("{name}: unreadable"),
    })?;
    let count = case.count.expect("a checked plan gives `puzzles` a count");
    if puzzles.grids.len() != count {
        return Err(format!(
            "{name}: {} puzzles, not {count}",
            puzzles.grids.len()
        ));
    }
    let level = case.level.and_then(Level::from_number);
    let blanks = case.blanks.map(|[low, high]| low..=high);
    let problem = puzzles
        .grids
        .par_iter()
        .enumerate()
        .find_map_first(|(k, grid)| {
            let at = format!("{name}: puzzle {} (line {})", k + 1, puzzles.lines[k]);
            let blank_count = CELLS - grid.given_count();
            match count_solutions(grid, 2) {
                0 => return Some(format!("{at}: no solution")),
                1 => {}
                _ => return Some(format!("{at}: more than one solution")),
            }
            if let Some(range) = blanks.as_ref().filter(|r| !r.contains(&blank_count)) {
                return Some(format!(
                    "{at}: {blank_count} blanks, not within {}~{}",
                    range.start(),
                    range.end()
                ));
            }
            let rated = level.and_then(|_| rate::rate(grid)).map(|r| r.level);
            match (level, rated) {
                (Some(asked), Some(found)) if asked != found => Some(format!(
                    "{at}: level {}, not {}",
                    found.number(),
                    asked.number()
                )),
                _ => None,
            }
        });
    if let Some(problem) = problem {
        return Err(problem);
    }
    let mut seen = HashMap::new();
    for (k, grid) in puzzles.grids.iter().enumerate() {
        if let Some(earlier) = seen.insert(grid, k) {
            return Err(format!(
                "{name}: puzzle {} (line {}): the same as puzzle {}",
                k + 1,
                puzzles.lines[k],
                earlier + 1
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::standard::dig::{self, PuzzleRequest};
    use crate::grade::plan::Plan;
    use crate::text::format::OutputFormat;

    fn case(text: &str) -> Case {
        let plan = Plan::parse(
            "t",
            &format!("name = \"t\"\n[[case]]\nname = \"a\"\npoints = 1\n{text}\n"),
        );
        plan.unwrap().cases().next().unwrap().clone()
    }

    fn made(count: usize, level: Option<Level>, blanks: Option<(usize, usize)>) -> Vec<u8> {
        let request = PuzzleRequest {
            count,
            seed: 11,
            blanks: blanks.map(|(low, high)| low..=high),
            level,
            ..PuzzleRequest::default()
        };
        dig::render_puzzles(&dig::generate_puzzles(&request, &|| {}), OutputFormat::Grid)
    }

    #[test]
    fn complete_grids_are_found_among_other_lines() {
        let row = "5 3 4 6 7 8 9 1 2\n";
        let grid = row.repeat(9);
        let line = "534678912".repeat(9) + "\n";
        assert_eq!(complete_grids(grid.as_bytes()), 1);
        let text = format!("usage: -c N\n{grid}\nerror\n{line}{grid}");
        assert_eq!(complete_grids(text.as_bytes()), 3);
        // A puzzle has blanks; eight rows are no grid.
        let puzzle = grid.replacen('5', "0", 1);
        assert_eq!(complete_grids(puzzle.as_bytes()), 0);
        assert_eq!(complete_grids(row.repeat(8).as_bytes()), 0);
    }

    #[test]
    fn made_puzzles_pass_their_checks() {
        let text = made(5, Some(Level::Harder), Some((30, 55)));
        let checked = case("expect = \"puzzles\"\ncount = 5\nlevel = 3\nblanks = [30, 55]");
        assert_eq!(check_puzzles(&checked, "p.txt", &text), Ok(()));
    }

    #[test]
    fn puzzle_problems_are_located() {
        let text = made(3, Some(Level::Singles), Some((40, 40)));
        let check = |rules: &str, text: &[u8]| {
            check_puzzles(
                &case(&format!("expect = \"puzzles\"\n{rules}")),
                "p.txt",
                text,
            )
            .unwrap_err()
        };
        assert_eq!(check("count = 4", &text), "p.txt: 3 puzzles, not 4");
        assert_eq!(
            check("count = 3\nlevel = 2", &text),
            "p.txt: puzzle 1 (line 1): level 1, not 2"
        );
        assert_eq!(
            check("count = 3\nblanks = [20, 39]", &text),
            "p.txt: puzzle 1 (line 1): 40 blanks, not within 20~39"
        );
        let mut repeated = text[..163].to_vec();
        repeated.extend_from_slice(&text[..162]);
        assert_eq!(
            check("count = 2", &repeated),
            "p.txt: puzzle 2 (line 11): the same as puzzle 1"
        );
        let mut empty = text[..162].to_vec();
        for digit in empty.iter_mut().filter(|b| b.is_ascii_digit()) {
            *digit = b'0';
        }
        assert_eq!(
            check("count = 1", &empty),
            "p.txt: puzzle 1 (line 1): more than one solution"
        );
    }

    proptest::proptest! {
        #[test]
        fn any_output_is_judged_without_a_panic(text in proptest::collection::vec(
            proptest::sample::select(b"0123456789 \n.x".to_vec()), 0..400)) {
            let checked = case("expect = \"puzzles\"\ncount = 2\nlevel = 2\nblanks = [20, 50]");
            let _ = check_puzzles(&checked, "p.txt", &text);
        }
    }
}
