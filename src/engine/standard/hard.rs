//! Hard puzzles on demand: a local search that climbs the guesses of a search solver.
//!
//! Digging makes easy puzzles: nearly every puzzle dug from a random grid is solved with a guess or
//! two, so filtering them for hard ones finds few. Hard puzzles sit near other hard puzzles
//! instead (the forum's vicinity searches and tdoku's generator rest on this), so the search
//! walks from puzzle to puzzle:
//!
//! 1. **A chain** starts from a random complete grid (of the shard, with `--shard`) and a pool of
//!    minimal puzzles dug from it.
//! 2. **A move** takes a pool puzzle, the harder of two drawn, takes out one to three of its givens
//!    (pairs of them with `--symmetric`), and puts back givens of the same solution until the
//!    puzzle has one solution again: where the search found another solution, at a cell where the
//!    two differ. The child is then minimised (pairs at a time with `--symmetric`): chains of
//!    minimal children climb faster than chains that keep spare givens, so every output is minimal,
//!    asked or not (with `--symmetric --minimal`, a child from which one given of a pair can go is
//!    dropped). The solution never changes, so every puzzle of a chain belongs to its grid's shard.
//! 3. **The score** is the measure of `measure.rs`: the guesses over ten fixed equivalents. A
//!    child that the first equivalents show to be far below the bar is dropped before the others
//!    are solved. A child with a *backdoor*, a cell whose given would let reasoning alone solve
//!    it, is dropped too: our solver may guess elsewhere many times, but a solver that branches
//!    on that cell first (as tdoku's, on other choices, often does) solves it at once; the
//!    forum's hardest puzzles almost never have one. A child at least as hard as the pool's
//!    easiest (and not in the pool) replaces it.
//! 4. **Output**: every child at the asked level is an output puzzle of the chain, until the chain
//!    has its quota. A chain whose pool stops improving before then starts again from a new grid.
//!
//! Chain `k` draws from its own random generator, seeded from the seed and `k`, and the output is
//! the chains' puzzles in chain order, the first of each key (the puzzle, or its class), so it is a
//! function of the seed whatever the thread count.

pub mod measure;

use std::collections::HashSet;

use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use crate::classes::canon::canonical_form;
use crate::engine::standard::dig::{Puzzle, dig, is_minimal, random_grid, render_puzzles};
use crate::engine::standard::solve::Solver;
use crate::jobs::rate::{Level, level_within};
use crate::model::grid::{CELLS, Grid};
use crate::model::shard::Shard;
use crate::text::format::OutputFormat;
use measure::{EQUIVALENTS, guesses_of};

/// What to search for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HardRequest {
    /// How many puzzles.
    pub count: usize,
    /// Every output is a function of the seed (and the other fields).
    pub seed: u64,
    /// The least total of guesses over the measure's equivalents (ten times the mean asked for).
    pub total: usize,
    /// Removing any given must leave more than one solution.
    pub minimal: bool,
    /// The givens have 180° rotational symmetry.
    pub symmetric: bool,
    /// No two puzzles equivalent, not only no two equal.
    pub classes: bool,
    /// Only puzzles whose solutions belong to this shard.
    pub shard: Option<Shard>,
    /// The digit of every solution's top-left cell, or any.
    pub first: Option<u8>,
    /// Rate every puzzle's level (the csv format shows it).
    pub with_levels: bool,
}

/// One hard puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HardPuzzle {
    /// The puzzle, its solution and (if asked) its level.
    pub puzzle: Puzzle,
    /// Its guesses over the measure's equivalents, added up.
    pub total: usize,
}

/// The highest mean a request may ask for; [`MOST_SYMMETRIC_MEAN`] with `--symmetric`. Past them
/// the search finds under about one puzzle a second on one core.
pub const MOST_MEAN: usize = 50;

/// The highest mean a request with `--symmetric` may ask for: pairs of givens leave the search
/// fewer moves.
pub const MOST_SYMMETRIC_MEAN: usize = 15;

/// Whether the search serves a request for a least total of guesses `total` (ten times the
/// mean), `minimal` and `symmetric` or not, given with a blank range, a level or a guess range or
/// not: the error names what works.
pub fn check_reachable(
    total: usize,
    minimal: bool,
    symmetric: bool,
    blanks: bool,
    level: bool,
    guesses: bool,
) -> Result<(), String> {
    let refused: Vec<&str> = [("-r", blanks), ("-m", level), ("--guesses", guesses)]
        .iter()
        .filter_map(|&(option, given)| given.then_some(option))
        .collect();
    if !refused.is_empty() {
        return Err(format!(
            "--hard sets the difficulty by guesses and takes --minimal, --symmetric, --classes, \
             --shard and --format, not {}",
            refused.join(" or ")
        ));
    }
    if minimal && symmetric {
        // Minimising by pairs leaves single givens that could go: most children are dropped.
        return Err(
            "--hard with both --symmetric and --minimal finds under a puzzle a second; drop one \
             of them"
                .into(),
        );
    }
    let most = if symmetric {
        MOST_SYMMETRIC_MEAN
    } else {
        MOST_MEAN
    };
    if total > 10 * most {
        return Err(format!(
            "--hard{} can ask for a mean of {most} guesses at most (the search finds harder \
             puzzles too slowly), not {}.{}",
            if symmetric { " with --symmetric" } else { "" },
            total / 10,
            total % 10
        ));
    }
    Ok(())
}

/// Renders hard puzzles as [`render_puzzles`] does, the csv format with a column more:
/// `puzzle,solution,blanks,level,guesses_mean`.
pub fn render_hard(puzzles: &[HardPuzzle], format: OutputFormat) -> Vec<u8> {
    let plain: Vec<Puzzle> = puzzles.iter().map(|p| p.puzzle).collect();
    let text = render_puzzles(&plain, format);
    if format != OutputFormat::Csv {
        return text;
    }
    let mut out = Vec::with_capacity(text.len() + 8 * puzzles.len() + 16);
    let mut lines = text.split_inclusive(|&b| b == b'\n');
    if let Some(header) = lines.next() {
        out.extend_from_slice(&header[..header.len() - 1]);
        out.extend_from_slice(b",guesses_mean\n");
    }
    for (line, puzzle) in lines.zip(puzzles) {
        out.extend_from_slice(&line[..line.len() - 1]);
        out.push(b',');
        measure::push_mean(&mut out, puzzle.total);
        out.push(b'\n');
    }
    out
}

/// The puzzles of a chain's pool.
const POOL: usize = 16;

/// Moves without a harder pool before a chain starts again from a new grid.
const STALL: usize = 3000;

/// The least number of chains a request is spread over, so that small requests use every core.
const LEAST_CHAINS: usize = 8;

/// The most puzzles one chain gives.
const MOST_PER_CHAIN: usize = 64;

/// Searches `request.count` hard puzzles over the current rayon pool, calling `progress` after
/// each one a chain finds.
pub fn search_puzzles(request: &HardRequest, progress: &(dyn Fn() + Sync)) -> Vec<HardPuzzle> {
    let quota = request
        .count
        .div_ceil(LEAST_CHAINS)
        .clamp(1, MOST_PER_CHAIN);
    let mut seen = HashSet::with_capacity(request.count);
    let mut puzzles = Vec::with_capacity(request.count);
    let mut next_chain = 0u64;
    while puzzles.len() < request.count {
        let chains = (request.count - puzzles.len()).div_ceil(quota) as u64;
        let found: Vec<Vec<HardPuzzle>> = (next_chain..next_chain + chains)
            .into_par_iter()
            .map_init(Solver::new, |solver, chain| {
                run_chain(request, chain, quota, solver, progress)
            })
            .collect();
        next_chain += chains;
        for puzzle in found.into_iter().flatten() {
            if puzzles.len() < request.count && seen.insert(key(request, &puzzle.puzzle.puzzle)) {
                puzzles.push(puzzle);
            }
        }
    }
    puzzles
}

/// What makes two outputs the same: the puzzle, or with `--classes` its class.
fn key(request: &HardRequest, puzzle: &Grid) -> Grid {
    if request.classes {
        canonical_form(puzzle)
    } else {
        *puzzle
    }
}

/// The puzzles of chain `chain`, `quota` of them (see the module comment).
fn run_chain(
    request: &HardRequest,
    chain: u64,
    quota: usize,
    solver: &mut Solver,
    progress: &(dyn Fn() + Sync),
) -> Vec<HardPuzzle> {
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(request.seed ^ chain.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut found = Vec::with_capacity(quota);
    let mut keys = HashSet::new();
    while found.len() < quota {
        let solution = random_grid(&mut rng, solver, request.shard, request.first);
        let mut climb = Climb::new(request, solution, &mut rng, solver);
        let mut stalled = 0;
        while found.len() < quota && stalled < STALL {
            let Some((child, total)) = climb.step(&mut rng, solver) else {
                stalled += 1;
                continue;
            };
            if total >= request.total && keys.insert(key(request, &child)) {
                found.push(HardPuzzle {
                    puzzle: Puzzle {
                        puzzle: child,
                        solution,
                        level: request
                            .with_levels
                            .then(|| level_within(&child, Level::Harder)),
                    },
                    total,
                });
                progress();
            }
            let best = climb.hardest();
            climb.admit(child, total);
            if total > best {
                stalled = 0;
            } else {
                stalled += 1;
            }
        }
    }
    found
}

/// A chain's pool over one grid.
struct Climb<'a> {
    request: &'a HardRequest,
    solution: Grid,
    /// The pool's puzzles with their totals.
    pool: Vec<(Grid, usize)>,
    /// The cells a move may take givens from: all, or with `--symmetric` one of each pair.
    cells: Vec<usize>,
}

impl<'a> Climb<'a> {
    /// A pool of puzzles dug from `solution`.
    fn new(
        request: &'a HardRequest,
        solution: Grid,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut Solver,
    ) -> Climb<'a> {
        let cells = if request.symmetric {
            (0..=CELLS / 2).collect()
        } else {
            (0..CELLS).collect()
        };
        let mut climb = Climb {
            request,
            solution,
            pool: Vec::with_capacity(POOL),
            cells,
        };
        while climb.pool.len() < POOL {
            let puzzle = dig(&solution, CELLS, request.symmetric, rng, solver);
            let total = (0..EQUIVALENTS)
                .map(|k| guesses_of(solver, &puzzle, k))
                .sum();
            climb.pool.push((puzzle, total));
        }
        climb
    }

    /// One move (see the module comment): the child and its total, or `None` when the child is
    /// not minimal though asked to be, or far below the bar.
    fn step(&mut self, rng: &mut Xoshiro256PlusPlus, solver: &mut Solver) -> Option<(Grid, usize)> {
        let [a, b] = [0; 2].map(|_| rng.random_range(0..self.pool.len()));
        let parent = if self.pool[a].1 >= self.pool[b].1 {
            self.pool[a].0
        } else {
            self.pool[b].0
        };
        let mut child = parent;
        let given = self.givens_in_random_order(&child, rng);
        let drops = rng.random_range(1..=3).min(given.len());
        let mut dropped = 0u128;
        for &cell in &given[..drops] {
            for c in self.both(cell) {
                child.set(c, 0);
                dropped |= 1 << c;
            }
        }
        loop {
            let outcome = solver.search(&child, 2);
            if outcome.solutions == 1 {
                break;
            }
            // Another solution differs from this one in a blank cell: a given there ends it.
            let other = outcome
                .first_solution
                .filter(|other| *other != self.solution);
            let blanks: Vec<usize> = self
                .cells
                .iter()
                .copied()
                .filter(|&c| {
                    child.get(c) == 0
                        && dropped >> c & 1 == 0
                        && other
                            .is_none_or(|o| self.both(c).any(|d| o.get(d) != self.solution.get(d)))
                })
                .collect();
            let &cell = blanks.get(rng.random_range(0..blanks.len().max(1)))?;
            for c in self.both(cell) {
                child.set(c, self.solution.get(c));
            }
        }
        self.minimise(&mut child, rng, solver);
        // Symmetric minimising takes out pairs: a single given may still be one too many.
        if self.request.minimal
            && self.request.symmetric
            && !is_minimal(&child, &self.solution, solver)
        {
            return None;
        }
        let bar = self.bar();
        let mut total = 0;
        for k in 0..EQUIVALENTS {
            total += guesses_of(solver, &child, k);
            // Two equivalents far below the bar: the rest would hardly lift it.
            if k == 1 && 2 * EQUIVALENTS * total < bar {
                return None;
            }
        }
        (total < bar || !self.has_backdoor(&child, solver)).then_some((child, total))
    }

    /// Whether one more given of the solution lets reasoning alone solve `puzzle`: such a puzzle
    /// is easy for a solver that branches on that cell first, however many guesses ours makes.
    fn has_backdoor(&self, puzzle: &Grid, solver: &mut Solver) -> bool {
        (0..CELLS).filter(|&c| puzzle.get(c) == 0).any(|cell| {
            let mut more = *puzzle;
            more.set(cell, self.solution.get(cell));
            solver.solves_without_guess(&more)
        })
    }

    /// The total a child must reach to matter: the pool's easiest, or the asked level if lower.
    fn bar(&self) -> usize {
        let easiest = self.pool.iter().map(|&(_, total)| total).min().unwrap_or(0);
        easiest.min(self.request.total)
    }

    /// `cell` and, with `--symmetric`, its partner through the centre.
    fn both(&self, cell: usize) -> impl Iterator<Item = usize> + use<> {
        let mirror = CELLS - 1 - cell;
        let partner = (self.request.symmetric && mirror != cell).then_some(mirror);
        std::iter::once(cell).chain(partner)
    }

    /// The givens of `puzzle` a move may take out (one of each pair with `--symmetric`), in
    /// random order.
    fn givens_in_random_order(&self, puzzle: &Grid, rng: &mut Xoshiro256PlusPlus) -> Vec<usize> {
        let mut given: Vec<usize> = self
            .cells
            .iter()
            .copied()
            .filter(|&c| puzzle.get(c) != 0)
            .collect();
        given.shuffle(rng);
        given
    }

    /// Takes out givens of `puzzle` in random order while it keeps one solution.
    fn minimise(&self, puzzle: &mut Grid, rng: &mut Xoshiro256PlusPlus, solver: &mut Solver) {
        for cell in self.givens_in_random_order(puzzle, rng) {
            let mut trial = *puzzle;
            for c in self.both(cell) {
                trial.set(c, 0);
            }
            if self
                .both(cell)
                .all(|c| !solver.has_other_solution(&trial, c, self.solution.get(c)))
            {
                *puzzle = trial;
            }
        }
    }

    /// The pool's highest total.
    fn hardest(&self) -> usize {
        self.pool.iter().map(|&(_, total)| total).max().unwrap_or(0)
    }

    /// Puts `child` in the pool in place of the easiest if it is at least as hard and not there
    /// yet.
    fn admit(&mut self, child: Grid, total: usize) {
        let (easiest, &(_, low)) = self
            .pool
            .iter()
            .enumerate()
            .min_by_key(|&(_, &(_, total))| total)
            .expect("the pool is never empty");
        if total >= low && self.pool.iter().all(|&(p, _)| p != child) {
            self.pool[easiest] = (child, total);
        }
    }
}
