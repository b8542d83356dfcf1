//! `--rate` of every shape: the CSV of 9×9, a row per puzzle, the same at any thread count.

use crate::common::{run_ok, sudoku_gen};

/// The header of 9×9's `--rate`.
fn standard_header() -> String {
    let sample = format!(
        "{}/tests/data/sample_17_clue.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let rated = String::from_utf8(run_ok(&["--rate", &sample])).unwrap();
    rated.lines().next().unwrap().to_owned()
}

/// Rates the puzzles `-n` makes with `shape` at `-j 1` and `-j 2`, flags `rate_flags` given to
/// `--rate`; checks the rows and returns the levels.
fn rate_made(count: usize, shape: &[&str], rate_flags: &[&str]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("puzzles.txt");
    let puzzles = puzzles.to_str().unwrap();
    let count = count.to_string();
    let mut make = vec!["-n", &count, "--seed", "3", "-o", puzzles];
    make.extend_from_slice(shape);
    run_ok(&make);
    let rate = |threads: &str| {
        let mut args = vec!["--rate", puzzles, "-j", threads];
        args.extend_from_slice(rate_flags);
        String::from_utf8(run_ok(&args)).unwrap()
    };
    let rated = rate("1");
    assert_eq!(rate("2"), rated, "{shape:?}: the same at -j 2");
    let mut lines = rated.lines();
    assert_eq!(lines.next(), Some(standard_header().as_str()), "{shape:?}");
    let levels: Vec<u8> = lines
        .map(|row| {
            let fields: Vec<&str> = row.split(',').collect();
            // guesses_mean last, a mean with one decimal, as at 9×9.
            assert_eq!(fields.len(), 8, "{row}");
            let (whole, tenth) = fields[7].split_once('.').unwrap();
            assert!(whole.parse::<u32>().is_ok() && tenth.len() == 1, "{row}");
            let numbers: Vec<u32> = fields[1..7].iter().map(|f| f.parse().unwrap()).collect();
            let level = numbers[0] as u8;
            assert!((1..=3).contains(&level), "{row}");
            // Level 3 is where something harder was needed, and only there.
            assert_eq!(level == 3, numbers[4] > 0, "{row}");
            level
        })
        .collect();
    assert_eq!(
        levels.len().to_string(),
        count,
        "{shape:?}: a row per puzzle"
    );
    levels
}

#[test]
fn boxed_shapes_are_rated() {
    rate_made(40, &["--size", "6"], &[]);
    rate_made(20, &["--size", "12", "--box", "3x4"], &[]);
    let levels = rate_made(12, &["--size", "16"], &[]);
    assert!(
        levels.iter().any(|&l| l > 1),
        "16×16 puzzles need more than singles"
    );
}

#[test]
fn jigsaw_and_diagonal_shapes_are_rated() {
    rate_made(30, &["--jigsaw", "random", "--format", "line"], &[]);
    // The grid format does not carry the diagonals: the flag says they are there.
    rate_made(30, &["--diagonal"], &["--diagonal"]);
}

#[test]
fn a_puzzle_of_many_solutions_is_reported_as_at_9x9() {
    let line = "....".repeat(9) + "\n";
    let out = sudoku_gen()
        .args(["--rate", "-", "--size", "6"])
        .write_stdin(line)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        format!("{}\n{},invalid,,,,,,\n", standard_header(), ".".repeat(36))
    );
    let errors = String::from_utf8(out.stderr).unwrap();
    assert!(
        errors.contains("<stdin>: puzzle 1 (line 1): not exactly one solution"),
        "{errors}"
    );
}
