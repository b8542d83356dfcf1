//! A pool and its moves (steps 1 to 3 of the search, see [`super`]), for any [`Board`].

use std::collections::HashSet;

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;

use super::measure::EQUIVALENTS;
use super::{Board, Found, HardRequest, POOL};

/// A puzzle of a pool, with its solution and its total of guesses.
#[derive(Clone)]
struct Member<G> {
    puzzle: G,
    solution: G,
    total: usize,
}

/// A lineage's or a fork's pool.
pub(super) struct Climb<'a, B: Board> {
    board: &'a B,
    request: &'a HardRequest,
    /// The pool's puzzles.
    pool: Vec<Member<B::Grid>>,
    /// The cells a move may take givens from: all, or with `--symmetric` one of each pair.
    cells: Vec<usize>,
    /// Whether every puzzle keeps the first grid as its solution (with `--shard` or a first
    /// value, which a solution must keep), or a move may give its child another solution.
    fixed: bool,
}

impl<B: Board> Clone for Climb<'_, B> {
    fn clone(&self) -> Self {
        Climb {
            board: self.board,
            request: self.request,
            pool: self.pool.clone(),
            cells: self.cells.clone(),
            fixed: self.fixed,
        }
    }
}

impl<'a, B: Board> Climb<'a, B> {
    /// A pool of puzzles dug from `solution`.
    pub(super) fn new(
        board: &'a B,
        request: &'a HardRequest,
        solution: B::Grid,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut B::Solver,
    ) -> Climb<'a, B> {
        let last = board.cells() - 1;
        let cells = if request.symmetric {
            (0..=last / 2).collect()
        } else {
            (0..=last).collect()
        };
        let mut climb = Climb {
            board,
            request,
            pool: Vec::with_capacity(POOL),
            cells,
            fixed: request.shard.is_some() || request.first.is_some(),
        };
        while climb.pool.len() < POOL {
            let puzzle = board.dig(request, &solution, rng, solver);
            let total = (0..EQUIVALENTS)
                .map(|k| board.guesses_of(solver, &puzzle, k))
                .sum();
            climb.pool.push(Member {
                puzzle,
                solution: solution.clone(),
                total,
            });
        }
        climb
    }

    /// One move (see the module comment of [`super`]): the child, or `None` when the child is
    /// not minimal though asked to be, far below the bar, or beyond what the kernel's search
    /// settles.
    fn step(
        &self,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut B::Solver,
    ) -> Option<Member<B::Grid>> {
        let board = self.board;
        let [a, b] = [0; 2].map(|_| rng.random_range(0..self.pool.len()));
        let parent = if self.pool[a].total >= self.pool[b].total {
            &self.pool[a]
        } else {
            &self.pool[b]
        };
        let mut child = parent.puzzle.clone();
        let given = self.givens_in_random_order(&child, rng);
        let drops = rng.random_range(1..=3).min(given.len());
        let mut dropped = Vec::with_capacity(2 * drops);
        for &cell in &given[..drops] {
            for c in self.both(cell) {
                board.set(&mut child, c, 0);
                dropped.push(c);
            }
        }
        let solution = if self.fixed {
            self.refill_from(&mut child, &parent.solution, &dropped, rng, solver)?
        } else {
            self.refill_at_random(&mut child, &dropped, rng, solver)?
        };
        self.minimise(&mut child, &solution, rng, solver);
        // Symmetric minimising takes out pairs: a single given may still be one too many.
        if self.request.minimal
            && self.request.symmetric
            && !self.is_minimal(&child, &solution, solver)
        {
            return None;
        }
        let bar = self.bar();
        let mut total = 0;
        for k in 0..EQUIVALENTS {
            total += board.guesses_of(solver, &child, k);
            // Two equivalents far below the bar: the rest would hardly lift it.
            if k == 1 && 2 * EQUIVALENTS * total < bar {
                return None;
            }
        }
        let child = Member {
            puzzle: child,
            solution,
            total,
        };
        (total < bar || !board.has_backdoor(solver, &child.puzzle, &child.solution))
            .then_some(child)
    }

    /// Gives blanks of `child` their values of `solution` until it has one solution again: each
    /// time at a cell where another solution differs. `None` if none is left to give.
    fn refill_from(
        &self,
        child: &mut B::Grid,
        solution: &B::Grid,
        dropped: &[usize],
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut B::Solver,
    ) -> Option<B::Grid> {
        let board = self.board;
        loop {
            let (solutions, first) = board.count(solver, child)?;
            if solutions == 1 {
                return Some(solution.clone());
            }
            let other = first.filter(|other| other != solution);
            let blanks: Vec<usize> = self
                .cells
                .iter()
                .copied()
                .filter(|&c| {
                    board.get(child, c) == 0
                        && !dropped.contains(&c)
                        && other.as_ref().is_none_or(|o| {
                            self.both(c)
                                .any(|d| board.get(o, d) != board.get(solution, d))
                        })
                })
                .collect();
            let &cell = blanks.get(rng.random_range(0..blanks.len().max(1)))?;
            for c in self.both(cell) {
                board.set(child, c, board.get(solution, c));
            }
        }
    }

    /// Gives blanks of `child` random values that keep a solution until it has one, which may
    /// differ from its parent's: the move reaches puzzles of every grid, as the forum's vicinity
    /// searches do. `None` if no blank is left to give.
    fn refill_at_random(
        &self,
        child: &mut B::Grid,
        dropped: &[usize],
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut B::Solver,
    ) -> Option<B::Grid> {
        let board = self.board;
        let mut blanks: Vec<usize> = self
            .cells
            .iter()
            .copied()
            .filter(|&c| board.get(child, c) == 0 && !dropped.contains(&c))
            .collect();
        blanks.shuffle(rng);
        let mut outcome = board.count(solver, child)?;
        for cell in blanks {
            if outcome.0 == 1 {
                break;
            }
            let mut trial = child.clone();
            let mut placed = true;
            for c in self.both(cell) {
                let free = board.free_values(&trial, c);
                placed &= free != 0;
                if free != 0 {
                    let pick = rng.random_range(0..free.count_ones());
                    let value = (0..pick)
                        .fold(free, |rest, _| rest & (rest - 1))
                        .trailing_zeros();
                    board.set(&mut trial, c, value as u8);
                }
            }
            if !placed {
                continue;
            }
            if let Some(tried) = board.count(solver, &trial)
                && tried.0 > 0
            {
                *child = trial;
                outcome = tried;
            }
        }
        (outcome.0 == 1).then_some(outcome.1).flatten()
    }

    /// The total a child must reach to matter: the pool's easiest, or the asked level if lower.
    fn bar(&self) -> usize {
        self.easiest().min(self.request.total)
    }

    /// `cell` and, with `--symmetric`, its partner through the centre.
    fn both(&self, cell: usize) -> impl Iterator<Item = usize> + use<B> {
        let mirror = self.board.cells() - 1 - cell;
        let partner = (self.request.symmetric && mirror != cell).then_some(mirror);
        std::iter::once(cell).chain(partner)
    }

    /// The givens of `puzzle` a move may take out (one of each pair with `--symmetric`), in
    /// random order.
    fn givens_in_random_order(&self, puzzle: &B::Grid, rng: &mut Xoshiro256PlusPlus) -> Vec<usize> {
        let mut given: Vec<usize> = self
            .cells
            .iter()
            .copied()
            .filter(|&c| self.board.get(puzzle, c) != 0)
            .collect();
        given.shuffle(rng);
        given
    }

    /// Takes out givens of `puzzle` in random order while it keeps `solution` alone.
    fn minimise(
        &self,
        puzzle: &mut B::Grid,
        solution: &B::Grid,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut B::Solver,
    ) {
        let board = self.board;
        for cell in self.givens_in_random_order(puzzle, rng) {
            let mut trial = puzzle.clone();
            for c in self.both(cell) {
                board.set(&mut trial, c, 0);
            }
            if self
                .both(cell)
                .all(|c| !board.has_other_solution(solver, &trial, c, board.get(solution, c)))
            {
                *puzzle = trial;
            }
        }
    }

    /// Whether taking out any single given of `puzzle` (whose one solution is `solution`) leaves
    /// more than one solution.
    fn is_minimal(&self, puzzle: &B::Grid, solution: &B::Grid, solver: &mut B::Solver) -> bool {
        let board = self.board;
        (0..board.cells())
            .filter(|&c| board.get(puzzle, c) != 0)
            .all(|cell| {
                let mut fewer = puzzle.clone();
                board.set(&mut fewer, cell, 0);
                board.has_other_solution(solver, &fewer, cell, board.get(solution, cell))
            })
    }

    /// One move; a child at the asked level and not in `keys` yet joins `found`.
    pub(super) fn advance(
        &mut self,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut B::Solver,
        found: &mut Vec<Found<B::Grid>>,
        keys: &mut HashSet<B::Key>,
        progress: &(dyn Fn() + Sync),
    ) {
        let Some(child) = self.step(rng, solver) else {
            return;
        };
        if child.total >= self.request.total
            && keys.insert(self.board.key(self.request, &child.puzzle))
        {
            found.push(Found {
                puzzle: child.puzzle.clone(),
                solution: child.solution.clone(),
                level: self
                    .request
                    .with_levels
                    .then(|| self.board.level(&child.puzzle)),
                total: child.total,
            });
            progress();
        }
        self.admit(child);
    }

    /// The pool's totals, added up: they rise with every child the pool takes in.
    pub(super) fn sum(&self) -> usize {
        self.pool.iter().map(|m| m.total).sum()
    }

    /// The pool's lowest total.
    pub(super) fn easiest(&self) -> usize {
        self.pool.iter().map(|m| m.total).min().unwrap_or(0)
    }

    /// Puts `child` in the pool in place of the easiest if it is at least as hard and not there
    /// yet.
    fn admit(&mut self, child: Member<B::Grid>) {
        let Some((easiest, low)) = self
            .pool
            .iter()
            .enumerate()
            .min_by_key(|&(_, m)| m.total)
            .map(|(k, m)| (k, m.total))
        else {
            return;
        };
        if child.total >= low && self.pool.iter().all(|m| m.puzzle != child.puzzle) {
            self.pool[easiest] = child;
        }
    }
}
