//! Requests on which the kernel for shapes other than 9×9 searched for minutes or for ever, through
//! the real binary. Each must now end well within its time limit, with output the checker of
//! `common::shapes` accepts, the same at any thread count.

use std::time::Duration;

use crate::common::shapes::{Spec, line_records};
use assert_cmd::Command;

/// Far more than any of these takes, even in a debug build on a loaded machine.
const LIMIT: Duration = Duration::from_secs(60);

fn data(name: &str) -> String {
    format!("{}/tests/data/shapes/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn sudoku_gen(args: &[&str]) -> Command {
    let mut command: Command = crate::common::sudoku_gen();
    command.args(args).timeout(LIMIT);
    command
}

/// The stdout of a run that must succeed.
fn output(args: &[&str]) -> Vec<u8> {
    let out = sudoku_gen(args).output().expect("the binary runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The stderr of a run that must be refused as a usage error.
fn refusal(args: &[&str]) -> String {
    let out = sudoku_gen(args).output().expect("the binary runs");
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `args` at one and two threads, and returns the output, which must be the same.
fn at_any_thread_count(args: &[&str]) -> Vec<u8> {
    let one = output(&[args, &["-j", "1"]].concat());
    assert!(one == output(&[args, &["-j", "2"]].concat()), "{args:?}");
    one
}

fn user_layout() -> String {
    "aaaaabcccadbbbbcccadbbbbcccadeeeefffaddehefffggdehefiigdddheffiggghhiiiiggghhhhii".into()
}

#[test]
fn diagonal_puzzles_no_longer_stall_on_seeds_whose_random_givens_the_search_cannot_finish() {
    // Puzzle 27 of seed 2 at 12×12 drew givens the search could not finish; that draw comes
    // before the blank count is drawn, so a small range reaches it without digging far.
    for (size, rows, count, range) in [
        ("12", 3, "27", "30~40"),
        ("16", 4, "30", "60~80"),
        ("20", 4, "3", "100~120"),
    ] {
        let args = [
            "-n",
            count,
            "--size",
            size,
            "--diagonal",
            "--seed",
            "2",
            "-r",
            range,
            "--format",
            "line",
        ];
        let text = at_any_thread_count(&args);
        let n: usize = size.parse().unwrap();
        let spec = Spec::boxes(n, rows, n / rows).with_diagonals();
        let records = line_records(&text);
        assert_eq!(records.len(), count.parse::<usize>().unwrap());
        for (_, cells) in records {
            assert!(spec.is_consistent(&cells));
        }
    }
}

#[test]
fn a_fillable_user_layout_no_longer_hangs_c_n_and_s() {
    let dir = tempfile::tempdir().unwrap();
    let layout = dir.path().join("layout.txt");
    std::fs::write(&layout, user_layout()).unwrap();
    let layout = layout.to_str().unwrap();
    let spec = Spec::jigsaw(&user_layout());
    for seed in ["9", "13"] {
        let grids = at_any_thread_count(&[
            "-c", "5", "--jigsaw", layout, "--seed", seed, "--format", "line",
        ]);
        let records = line_records(&grids);
        assert_eq!(records.len(), 5);
        for (_, cells) in &records {
            assert!(spec.is_valid_complete(cells));
        }
        let puzzles = at_any_thread_count(&[
            "-n", "2", "--jigsaw", layout, "--seed", seed, "--format", "line",
        ]);
        // The checker's plain backtracking takes minutes on 9×9 puzzles: consistency only.
        for (_, cells) in line_records(&puzzles) {
            assert!(spec.is_consistent(&cells));
        }
    }
    let blank = dir.path().join("blank.txt");
    std::fs::write(&blank, format!("{} {}\n", user_layout(), ".".repeat(81))).unwrap();
    let solved = output(&["-s", blank.to_str().unwrap()]);
    let (_, cells) = line_records(&solved).pop().unwrap();
    assert!(spec.is_valid_complete(&cells));
}

#[test]
fn a_layout_without_grids_is_refused_in_bounded_time_rather_than_searched_for_ever() {
    let dir = tempfile::tempdir().unwrap();
    let layout = crate::common::shapes::layout_without_grids(dir.path());
    let layout = layout.to_str().unwrap();
    for mode in ["-c", "-n"] {
        let output = sudoku_gen(&[mode, "1", "--jigsaw", layout, "--format", "line"])
            .output()
            .unwrap();
        // Found by the search, not told by the flags: a data outcome.
        assert_eq!(output.status.code(), Some(1), "{mode}");
        assert!(output.stdout.is_empty(), "{mode}");
        let message = String::from_utf8(output.stderr).unwrap();
        assert!(message.contains("no complete grid"), "{message}");
    }
}

#[test]
fn n_at_4x4_gives_exactly_the_puzzles_that_exist_and_refuses_more_at_once() {
    // 288 grids of 16 cells: 4,608 puzzles with one blank, all of them asked for.
    let text = at_any_thread_count(&[
        "-n", "4608", "--size", "4", "-r", "1~1", "--seed", "3", "--format", "line",
    ]);
    let records = line_records(&text);
    let distinct: std::collections::HashSet<_> = records.iter().map(|(_, c)| c).collect();
    assert_eq!((records.len(), distinct.len()), (4608, 4608));
    let message = refusal(&["-n", "4609", "--size", "4", "-r", "1~1", "--format", "line"]);
    assert!(message.contains("exactly 4608 puzzles"), "{message}");
    assert!(message.contains("1 blank"), "{message}");
    // Without a range, -n digs as far as it goes: the minimal puzzles, of which there are 85,632.
    let message = refusal(&["-n", "100000", "--size", "4", "--format", "line"]);
    assert!(
        message.contains("exactly 85632 minimal puzzles"),
        "{message}"
    );
    assert!(!message.contains("blank range"), "{message}");
    let message = refusal(&["-n", "1000000", "--size", "4", "--format", "line"]);
    assert!(message.contains("exactly 85632"), "{message}");
    let spec = Spec::boxes(4, 2, 2);
    let minimal = at_any_thread_count(&[
        "-n", "85632", "--size", "4", "--seed", "5", "--format", "line",
    ]);
    let records = line_records(&minimal);
    assert_eq!(records.len(), 85632);
    for (_, cells) in records.iter().step_by(997) {
        assert_eq!(spec.count_solutions(cells, 2), 1);
        for given in (0..16).filter(|&c| cells[c] != b'.') {
            let mut fewer = cells.clone();
            fewer[given] = b'.';
            assert_eq!(spec.count_solutions(&fewer, 2), 2);
        }
    }
}

#[test]
fn s_no_longer_stalls_on_25x25_puzzles_with_one_random_given_added() {
    let solved = output(&["-s", &data("stuck25.txt"), "--format", "line"]);
    let spec = Spec::boxes(25, 5, 5);
    let puzzles = std::fs::read_to_string(data("stuck25.txt")).unwrap();
    let solutions = line_records(&solved);
    assert_eq!(solutions.len(), puzzles.lines().count());
    for ((_, solution), puzzle) in solutions.iter().zip(puzzles.lines()) {
        assert!(spec.is_valid_complete(solution));
        assert!(crate::common::shapes::keeps_givens(
            &spec,
            puzzle.as_bytes(),
            solution
        ));
    }
}

#[test]
fn random_jigsaw_layouts_of_every_size_have_grids_found_quickly_and_read_back() {
    // At 20×20 and up most layouts of unrestricted trades had no grid the search found ("none of
    // 200 random layouts"), and at 16×16 and 24×24 some seeds ran past a minute; prime sizes,
    // grown from rows, hung in -n.
    for (size, seed) in [
        ("5", "1"),
        ("13", "2"),
        ("16", "1"),
        ("21", "6"),
        ("23", "2"),
        ("25", "2"),
    ] {
        let args = [
            "--size", size, "--jigsaw", "random", "--seed", seed, "--format", "line",
        ];
        let grids = at_any_thread_count(&[&["-c", "3"], &args[..]].concat());
        let records = line_records(&grids);
        assert_eq!(records.len(), 3, "{size}");
        for (layout, cells) in &records {
            let spec = Spec::jigsaw(layout.as_deref().expect("jigsaw lines carry their layout"));
            assert!(spec.is_valid_complete(cells), "{size} {seed}");
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("grids.txt");
        std::fs::write(&file, &grids).unwrap();
        output(&["--check", file.to_str().unwrap()]);
        let puzzles = output(&[&["-n", "1"], &args[..]].concat());
        std::fs::write(&file, &puzzles).unwrap();
        let solved = output(&["-s", file.to_str().unwrap()]);
        let (layout, solution) = line_records(&solved).pop().unwrap();
        let (_, puzzle) = line_records(&puzzles).pop().unwrap();
        let spec = Spec::jigsaw(layout.as_deref().unwrap());
        assert!(spec.is_valid_complete(&solution), "{size} {seed}");
        assert!(crate::common::shapes::keeps_givens(
            &spec, &puzzle, &solution
        ));
    }
}

#[test]
fn canon_of_a_grid_a_cell_short_or_with_a_wrong_symbol_hung() {
    // The first row's givens all read new labels, whatever their order: a search that ordered
    // them there tried (5!)^4 orders per start of a 25×25 grid one cell short, or with a typo.
    for size in ["16", "25"] {
        let grid = output(&["-c", "1", "--size", size, "--format", "line", "--seed", "5"]);
        let grid = String::from_utf8(grid).unwrap().trim().to_owned();
        let mut variants = Vec::new();
        for blanks in [&[0][..], &[0, 130], &[200]] {
            let mut cells = grid.clone().into_bytes();
            for &at in blanks {
                cells[at] = b'.';
            }
            variants.push(cells);
        }
        let mut typo = grid.clone().into_bytes();
        typo[0] = typo[1];
        variants.push(typo);
        let text: Vec<u8> = variants
            .iter()
            .flat_map(|cells| [&cells[..], b"\n"].concat())
            .collect();
        let forms = canon_as_of_a_shuffle(&text, size, "1", &[]);
        assert_eq!(forms.iter().filter(|&&b| b == b'\n').count(), 4, "{size}");
    }
}

#[test]
fn canon_of_one_full_row_and_blanks_tried_every_order_of_its_columns() {
    // Every column reads alike but for a symbol the puzzle holds once: exchanging two such
    // columns and their symbols maps the puzzle onto itself, so one order stands for all. The
    // search tried (4!)^4 orders of a 16×16 row (48 s), and more at 25×25.
    for size in ["16", "25"] {
        let grid = output(&["-c", "1", "--size", size, "--format", "line", "--seed", "3"]);
        let n: usize = size.parse().unwrap();
        let row = &grid[..n];
        let mut text = Vec::new();
        for at in [0, n / 2] {
            let mut cells = vec![b'.'; n * n];
            cells[at * n..(at + 1) * n].copy_from_slice(row);
            text.extend_from_slice(&cells);
            text.push(b'\n');
        }
        let forms = canon_as_of_a_shuffle(&text, size, "2", &[]);
        let lines: Vec<&[u8]> = forms
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(lines.len(), 2, "{size}");
        // Both read as the same class: the row moved to the last row, its symbols in order.
        assert_eq!(lines[0], lines[1], "{size}");
    }
}

#[test]
fn canon_of_a_grid_with_a_row_blank_or_of_two_full_columns_hung() {
    // Givens deferred only in the first row: a later row whose givens all read new labels in a
    // stack still tried every order of them (6.9 s for a 16×16 grid with a row blank, past 20 s
    // at 20×20 and 25×25, and as long for two full columns and blanks).
    for size in ["16", "25"] {
        let grid = output(&["-c", "1", "--size", size, "--format", "line", "--seed", "5"]);
        let n: usize = size.parse().unwrap();
        let mut blank_row = grid[..n * n].to_vec();
        blank_row[3 * n..4 * n].fill(b'.');
        let mut two_columns = vec![b'.'; n * n];
        for r in 0..n {
            for c in [0, n / 2] {
                two_columns[r * n + c] = grid[r * n + c];
            }
        }
        let text = [&blank_row[..], b"\n", &two_columns, b"\n"].concat();
        let forms = canon_as_of_a_shuffle(&text, size, "3", &[]);
        assert_eq!(forms.iter().filter(|&&b| b == b'\n').count(), 2, "{size}");
    }
}

#[test]
fn canon_of_a_puzzle_of_one_full_row_and_one_full_column_hung() {
    // The other rows each read a new label in the full column whatever their order, so every
    // order of them was tried until the full row told them apart: 6 s at 16×16, minutes at 20×20
    // and 25×25. Two rows and a column, and a band and a column, did the same.
    for (size, seed) in [("16", "4"), ("20", "5"), ("25", "6")] {
        let grid = output(&[
            "-c", "1", "--size", size, "--format", "line", "--seed", seed,
        ]);
        let n: usize = size.parse().unwrap();
        let text = kept_lines(
            &grid,
            n,
            &[
                &|r, c| r == 2 || c == 3,
                &|r, c| r == 0 || r == n - 1 || c == n / 2,
                &|r, c| r < 4 || c == 1,
            ],
        );
        let forms = canon_as_of_a_shuffle(&text, size, "7", &["--diagonal=no"]);
        assert_eq!(forms.iter().filter(|&&b| b == b'\n').count(), 3, "{size}");
    }
}

#[test]
fn canon_of_a_full_band_with_boxes_two_rows_high_hung() {
    // The blank bands read alike, yet every order of them was tried before the full band, each
    // with every order of its columns: 16×16 with 2×8 boxes ran past a minute. Boxes eight rows
    // high did the same with their blank stacks, for a full stack or the boxes of the diagonal.
    for (size, boxes, band, stack) in [("16", "2x8", 2, 8), ("16", "8x2", 8, 2)] {
        let grid = output(&[
            "-c", "1", "--size", size, "--box", boxes, "--format", "line", "--seed", "7",
        ]);
        let n: usize = size.parse().unwrap();
        let text = kept_lines(
            &grid,
            n,
            &[
                &|r, _| r < band,
                &|r, _| r < 2,
                &|_, c| c < stack,
                &|r, c| r / band == c / stack,
            ],
        );
        let more = ["--box", boxes, "--diagonal=no"];
        let forms = canon_as_of_a_shuffle(&text, size, "7", &more);
        assert_eq!(forms.iter().filter(|&&b| b == b'\n').count(), 4, "{boxes}");
    }
}

#[test]
fn canon_and_classes_of_complete_grids_with_boxes_two_rows_high_hung() {
    // The second row's first stack read alike in every order of its columns, so each order was
    // tried: 33 s or more a grid at 22×22, whose boxes are 2×11 unless told.
    let grids = output(&["-c", "3", "--size", "22", "--format", "line", "--seed", "4"]);
    let forms = canon_as_of_a_shuffle(&grids, "22", "9", &[]);
    assert_eq!(forms.iter().filter(|&&b| b == b'\n').count(), 3);
    let classes = output(&["-c", "2", "--size", "22", "--classes", "--seed", "4"]);
    let dir = tempfile::tempdir().unwrap();
    for (name, text, count) in [("grids.txt", &grids, 3), ("classes.txt", &classes, 2)] {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        let report = output(&["--check", file.to_str().unwrap(), "--classes"]);
        let expected = format!("ok: {count} grids, all valid and pairwise inequivalent");
        assert!(String::from_utf8(report).unwrap().starts_with(&expected));
    }
}

#[test]
fn n_of_24x24_puzzles_of_2x12_boxes_crawled_up_to_the_reach_of_48_percent() {
    // 276 blanks, the reach of other shapes this size, made a puzzle every second or more.
    let message = refusal(&["-n", "20", "--size", "24", "--box", "2x12", "-r", "276~276"]);
    assert!(message.contains("1 to 247 blanks"), "{message}");
    for boxes in ["2x12", "12x2"] {
        let args = ["-n", "20", "--size", "24", "--box", boxes, "-r", "247~247"];
        let made = output(&[&args[..], &["--format", "line", "--seed", "3"]].concat());
        let puzzles = line_records(&made);
        assert_eq!(puzzles.len(), 20, "{boxes}");
        let blanks = |p: &Vec<u8>| p.iter().filter(|&&c| c == b'.').count();
        assert!(puzzles.iter().all(|(_, p)| blanks(p) == 247), "{boxes}");
        let (rows, columns) = if boxes == "2x12" { (2, 12) } else { (12, 2) };
        let spec = Spec::boxes(24, rows, columns);
        for (_, puzzle) in puzzles.iter().take(3) {
            assert_eq!(spec.count_solutions(puzzle, 2), 1, "{boxes}");
        }
    }
}

#[test]
fn check_unique_of_a_22x22_corpus_ran_for_minutes_on_its_first_puzzle() {
    // The grader's own counter branched on cells alone, where `-s --unique` took 0.01 s.
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("p22.csv");
    let made = output(&["-n", "2", "--size", "22", "--format", "csv", "--seed", "5"]);
    std::fs::write(&corpus, made).unwrap();
    let report = output(&["--check", corpus.to_str().unwrap(), "--unique"]);
    assert!(
        String::from_utf8(report)
            .unwrap()
            .starts_with("ok: 2 solutions")
    );
}

/// The lines of puzzles of the N×N line `grid`, one per pattern: the cells the pattern keeps
/// (by row and column), blanks elsewhere.
fn kept_lines(grid: &[u8], n: usize, patterns: &[&dyn Fn(usize, usize) -> bool]) -> Vec<u8> {
    patterns
        .iter()
        .flat_map(|given| {
            (0..n * n)
                .map(|k| if given(k / n, k % n) { grid[k] } else { b'.' })
                .chain([b'\n'])
        })
        .collect()
}

/// The canonical forms of the lines of `text` at `size` (and `more` arguments), checked to be
/// those of a shuffle of them (by seed `seed`).
fn canon_as_of_a_shuffle(text: &[u8], size: &str, seed: &str, more: &[&str]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lines.txt");
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().unwrap();
    let forms = output(&[&["--canon", file, "--size", size], more].concat());
    let shuffled = dir.path().join("shuffled.txt");
    std::fs::write(
        &shuffled,
        output(&[&["--shuffle", file, "--size", size, "--seed", seed], more].concat()),
    )
    .unwrap();
    let shuffled = shuffled.to_str().unwrap();
    assert!(
        forms == output(&[&["--canon", shuffled, "--size", size], more].concat()),
        "{size}: equivalents had different forms"
    );
    forms
}
