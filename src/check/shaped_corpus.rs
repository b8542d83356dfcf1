//! CSV corpora of every shape other than 9×9, checked as the 9×9 ones are (`corpus`): every row's
//! solution complete, valid and keeping its puzzle's givens, and with `--unique` every puzzle of
//! exactly one solution. Rows are not compared with each other, as a corpus may hold a puzzle
//! twice.
//!
//! The solutions `--unique` counts are counted by a backtracking search of the checker's own,
//! over the houses of the shape: on the empty cell with the fewest candidates, a choice every
//! solution makes, so that nothing is missed.

use rayon::prelude::*;

use super::report::{Problem, Report, Subject, check_count};
use super::shaped::{add_parse_errors, check_solution};
use crate::model::shape::Shape;
use crate::text::parse::ParseErrors;
use crate::text::shaped::ShapedPuzzles;

/// The check of the rows of a CSV corpus of another shape, a piece at a time.
pub struct CorpusChecker {
    report: Report,
    /// The symbol every solution's top-left cell must hold, when one is asked for.
    first: Option<u8>,
    /// Whether every puzzle must have exactly one solution.
    unique: bool,
}

impl CorpusChecker {
    /// A check with nothing checked yet.
    pub fn new(first: Option<u8>, unique: bool) -> CorpusChecker {
        CorpusChecker {
            report: Report {
                subject: Subject::Solutions,
                ..Report::default()
            },
            first,
            unique,
        }
    }

    /// Checks the rows of one piece: `puzzles` and `solutions` a row each (`solved`: whether the
    /// row has a solution), and the problems of its malformed rows, all located in the corpus.
    /// Returns whether the piece had a problem.
    pub fn rows(
        &mut self,
        puzzles: &ShapedPuzzles,
        solutions: &ShapedPuzzles,
        solved: &[bool],
        errors: &ParseErrors,
    ) -> bool {
        let before = self.report.problems.count();
        add_parse_errors(&mut self.report, errors);
        let earlier = self.report.grids;
        let (first, unique) = (self.first, self.unique);
        let judged = (0..puzzles.len())
            .into_par_iter()
            .map(|index| {
                let mut report = Report::default();
                let ordinal = earlier + index;
                let problem = |message: &str| Problem {
                    line: puzzles.lines[index],
                    grid: Some(ordinal + 1),
                    message: message.to_owned(),
                };
                if solved[index] {
                    let (row, puzzle) = ((solutions, index), (puzzles, index));
                    check_solution(row, puzzle, ordinal, first, &mut report);
                } else {
                    report.add(problem("the row has no solution"));
                }
                if unique {
                    match count_solutions(puzzles.shape(index), puzzles.puzzle(index), 2) {
                        1 => {}
                        0 => report.add(problem("the puzzle has no solution")),
                        _ => report.add(problem("the puzzle has more than one solution")),
                    }
                }
                report
            })
            .reduce(Report::default, Report::merge);
        self.report = std::mem::take(&mut self.report).merge(judged);
        self.report.grids += puzzles.len() + errors.count();
        self.report.problems.count() > before
    }

    /// The report, once every piece is checked, `last_line` the input's last: with `count`, the
    /// rows must be that many.
    pub fn finish(mut self, last_line: usize, count: Option<usize>) -> Report {
        check_count(&mut self.report, last_line, count);
        self.report
    }
}

/// The number of solutions of `puzzle` (N·N values, 0 for blank) in `shape`, counted up to
/// `limit`. A puzzle whose givens already repeat a symbol in a house has none.
fn count_solutions(shape: &Shape, puzzle: &[u8], limit: usize) -> usize {
    let mut board = Board {
        shape,
        cells: puzzle.to_vec(),
        // Bit `v` for value `v`, in each house.
        held: vec![0; shape.houses().len()],
    };
    for (cell, &value) in puzzle.iter().enumerate() {
        if value != 0 && !board.place(cell, value) {
            return 0;
        }
    }
    let mut found = 0;
    board.search(limit, &mut found);
    found
}

/// A partly filled grid, with the values each house holds as bit sets.
struct Board<'a> {
    shape: &'a Shape,
    cells: Vec<u8>,
    held: Vec<u32>,
}

impl Board<'_> {
    /// Puts `value` in `cell`; false when one of its houses holds it already.
    fn place(&mut self, cell: usize, value: u8) -> bool {
        let bit = 1 << value;
        let houses = self.shape.houses_of(cell);
        if houses.iter().any(|&h| self.held[usize::from(h)] & bit != 0) {
            return false;
        }
        for &h in houses {
            self.held[usize::from(h)] |= bit;
        }
        self.cells[cell] = value;
        true
    }

    fn clear(&mut self, cell: usize) {
        let bit = 1 << self.cells[cell];
        for &h in self.shape.houses_of(cell) {
            self.held[usize::from(h)] &= !bit;
        }
        self.cells[cell] = 0;
    }

    /// The values `cell` can still take.
    fn candidates(&self, cell: usize) -> u32 {
        let all = ((1u32 << self.shape.size()) - 1) << 1;
        let held = self.shape.houses_of(cell);
        all & !held
            .iter()
            .fold(0, |acc, &h| acc | self.held[usize::from(h)])
    }

    /// Branches on the choice with the fewest ways: a cell's values, or the cells of a house that
    /// can take one of its missing values. Cells alone crawl on some large shapes (a 22×22 puzzle
    /// ran for minutes), where a house's last place for a value is what decides.
    fn search(&mut self, limit: usize, found: &mut usize) {
        let mut cell_best: Option<(usize, u32)> = None;
        let mut candidates = vec![0u32; self.cells.len()];
        for cell in (0..self.cells.len()).filter(|&cell| self.cells[cell] == 0) {
            candidates[cell] = self.candidates(cell);
            if cell_best.is_none_or(|(_, b)| candidates[cell].count_ones() < b.count_ones()) {
                cell_best = Some((cell, candidates[cell]));
            }
        }
        let Some((cell, values)) = cell_best else {
            *found += 1;
            return;
        };
        if values.count_ones() > 1 {
            let all = ((1u32 << self.shape.size()) - 1) << 1;
            let houses = self.shape.houses();
            let can_take = |c: u16, value: u8| {
                let c = usize::from(c);
                self.cells[c] == 0 && candidates[c] >> value & 1 == 1
            };
            // The house and value with the fewest places, if fewer than the cell's values.
            let mut house_best: Option<(usize, u8, usize)> = None;
            for (house, cells) in houses.iter().enumerate() {
                let mut missing = all & !self.held[house];
                while missing != 0 {
                    let value = missing.trailing_zeros() as u8;
                    missing &= missing - 1;
                    let places = cells.iter().filter(|&&c| can_take(c, value)).count();
                    let fewest = house_best.map_or(values.count_ones() as usize, |(_, _, p)| p);
                    if places < fewest {
                        house_best = Some((house, value, places));
                    }
                }
            }
            if let Some((house, value, _)) = house_best {
                let places: Vec<usize> = houses[house]
                    .iter()
                    .filter(|&&c| can_take(c, value))
                    .map(|&c| usize::from(c))
                    .collect();
                for place in places {
                    if *found >= limit {
                        break;
                    }
                    self.place(place, value);
                    self.search(limit, found);
                    self.clear(place);
                }
                return;
            }
        }
        let mut values = values;
        while values != 0 && *found < limit {
            let value = values.trailing_zeros() as u8;
            values &= values - 1;
            self.place(cell, value);
            self.search(limit, found);
            self.clear(cell);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::symbols::Symbols;

    #[test]
    fn solutions_are_counted_up_to_the_limit() {
        let shape = Shape::boxed(4, None, false, Symbols::default_for(4)).unwrap();
        let grid = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        assert_eq!(count_solutions(&shape, &grid, 2), 1);
        let mut one_blank = grid;
        one_blank[0] = 0;
        assert_eq!(count_solutions(&shape, &one_blank, 2), 1);
        assert_eq!(count_solutions(&shape, &[0; 16], 2), 2);
        assert_eq!(count_solutions(&shape, &[0; 16], 1000), 288);
        let mut repeat = [0; 16];
        (repeat[0], repeat[1]) = (1, 1);
        assert_eq!(count_solutions(&shape, &repeat, 2), 0);
    }
}
