//! Hard puzzles on demand: a local search that climbs the guesses of a search solver.
//!
//! Digging makes easy puzzles: nearly every puzzle dug from a random grid is solved with a guess or
//! two, so filtering them for hard ones finds few. Hard puzzles sit near other hard puzzles
//! instead (the forum's vicinity searches and tdoku's generator rest on this), so the search
//! walks from puzzle to puzzle:
//!
//! 1. **A pool** of sixteen puzzles starts dug from a random complete grid.
//! 2. **A move** takes a pool puzzle, the harder of two drawn, takes out one to three of its givens
//!    (pairs of them with `--symmetric`), and gives blanks random digits that keep a solution
//!    until the puzzle has one solution again, so a child may have another solution than its
//!    parent. With `--shard` (or a first digit) the solution must stay in its shard, so the
//!    blanks take the parent's digits instead, where another solution differs. The child is then
//!    minimised (pairs at a time with `--symmetric`): minimal children climb faster than children
//!    that keep spare givens, so every output is minimal, asked or not (with `--symmetric
//!    --minimal`, a child from which one given of a pair can go is dropped).
//! 3. **The score** is the measure of `measure.rs`: the guesses over ten fixed equivalents of a
//!    search that branches as the fastest solvers do. A child that the first equivalents show to
//!    be far below the bar is dropped before the others are solved; so is a child with a
//!    *backdoor*, a cell whose given would let reasoning alone solve it (a solver that branches
//!    there first solves it at once; the forum's hardest puzzles almost never have one). A child
//!    at least as hard as the pool's easiest (and not in the pool) replaces it.
//! 4. **Lineages and forks.** Climbing to the level is the slow part (seconds to a minute), and
//!    the children of a pool at the level reach it often. So two lineages climb, side by side,
//!    until every puzzle of their pool is at the level (from a new grid when a pool stops
//!    improving), and then forks of their pools, run in parallel, each walk on and give the
//!    next 128 puzzles at the level.
//!
//! Lineage and fork `k` draw from their own random generators, seeded from the seed and `k`,
//! and the output is their puzzles in order, the first of each key (the puzzle, or its class),
//! so it is a function of the seed whatever the thread count.

pub mod measure;

use std::collections::HashSet;

use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use crate::classes::canon::canonical_form;
use crate::engine::hard::measure::{EQUIVALENTS, push_mean};
use crate::engine::standard::dig::{Puzzle, dig, is_minimal, random_grid, render_puzzles};
use crate::engine::standard::solve::Solver;
use crate::jobs::rate::{Level, level_within};
use crate::model::grid::{CELLS, Grid, HOUSES, houses_of};
use crate::model::shard::Shard;
use crate::text::format::OutputFormat;
use measure::{guesses_of, total_guesses};

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
pub const MOST_SYMMETRIC_MEAN: usize = 10;

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
        push_mean(&mut out, puzzle.total);
        out.push(b'\n');
    }
    out
}

/// The puzzles of a pool.
const POOL: usize = 16;

/// Moves without a harder pool before a lineage's climb starts again from a new grid.
const STALL: usize = 30_000;

/// The lineages that climb from dug puzzles to the asked level, side by side; a constant, so
/// that the output does not depend on the thread count.
const LINEAGES: u64 = 2;

/// The puzzles one fork gives.
const FORK_QUOTA: usize = 128;

/// Searches `request.count` hard puzzles over the current rayon pool, calling `progress` after
/// each one found.
pub fn search_puzzles(request: &HardRequest, progress: &(dyn Fn() + Sync)) -> Vec<HardPuzzle> {
    let mut seen = HashSet::with_capacity(request.count);
    let mut puzzles = Vec::with_capacity(request.count);
    let mut take = |found: Vec<Vec<HardPuzzle>>, puzzles: &mut Vec<HardPuzzle>| {
        for puzzle in found.into_iter().flatten() {
            if puzzles.len() < request.count && seen.insert(key(request, &puzzle.puzzle.puzzle)) {
                puzzles.push(puzzle);
            }
        }
    };
    let share = request.count.div_ceil(LINEAGES as usize);
    // Fork `fork` walks on from `pool`, its lineage's (lineage `fork % LINEAGES`), until it has
    // found `quota` puzzles.
    let fork = |pool: &Climb, fork: u64, quota: usize, solver: &mut Solver| {
        let mut climb = pool.clone();
        let mut rng = stream(request, LINEAGES + fork);
        let mut found = Vec::with_capacity(quota);
        let mut keys = HashSet::new();
        while found.len() < quota {
            climb.advance(&mut rng, solver, &mut found, &mut keys, progress);
        }
        found
    };
    // Each lineage forks for its share as soon as it has climbed, so that a core whose lineage
    // climbed first takes its forks while the other still climbs. The forks find what the share
    // lacks and no more: `-n 10` is not the work of `-n 256`.
    let lineages: Vec<(Climb, Vec<HardPuzzle>, u64)> = (0..LINEAGES)
        .into_par_iter()
        .map_init(Solver::new, |solver, lineage| {
            let (pool, mut found) = climb_to_level(request, lineage, share, solver, progress);
            let lacking = share.saturating_sub(found.len());
            let forks = lacking.div_ceil(FORK_QUOTA) as u64;
            let harvested: Vec<Vec<HardPuzzle>> = (0..forks)
                .into_par_iter()
                .map_init(Solver::new, |solver, k| {
                    let quota = (lacking - k as usize * FORK_QUOTA).min(FORK_QUOTA);
                    fork(&pool, lineage + LINEAGES * k, quota, solver)
                })
                .collect();
            found.extend(harvested.into_iter().flatten());
            (pool, found, forks)
        })
        .collect();
    let mut next_fork = LINEAGES * lineages.iter().map(|l| l.2).max().unwrap_or(0);
    let mut pools = Vec::with_capacity(LINEAGES as usize);
    for (pool, found, _) in lineages {
        take(vec![found], &mut puzzles);
        pools.push(pool);
    }
    while puzzles.len() < request.count {
        let lacking = request.count - puzzles.len();
        let forks = lacking.div_ceil(FORK_QUOTA) as u64;
        let found: Vec<Vec<HardPuzzle>> = (next_fork..next_fork + forks)
            .into_par_iter()
            .map_init(Solver::new, |solver, k| {
                let quota = (lacking - (k - next_fork) as usize * FORK_QUOTA).min(FORK_QUOTA);
                fork(&pools[(k % LINEAGES) as usize], k, quota, solver)
            })
            .collect();
        next_fork += forks;
        take(found, &mut puzzles);
    }
    puzzles
}

/// The random stream of lineage or fork `k`: a function of the seed and `k` alone.
fn stream(request: &HardRequest, k: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(request.seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// What makes two outputs the same: the puzzle, or with `--classes` its class.
fn key(request: &HardRequest, puzzle: &Grid) -> Grid {
    if request.classes {
        canonical_form(puzzle)
    } else {
        *puzzle
    }
}

/// Lineage `lineage`'s climb: from puzzles dug from a random grid until every puzzle of its
/// pool reaches the asked level, or it has found `share` puzzles on the way; again from a new
/// grid whenever the pool stops improving. Returns the pool and the puzzles found.
fn climb_to_level<'a>(
    request: &'a HardRequest,
    lineage: u64,
    share: usize,
    solver: &mut Solver,
    progress: &(dyn Fn() + Sync),
) -> (Climb<'a>, Vec<HardPuzzle>) {
    let mut rng = stream(request, lineage);
    let mut found = Vec::with_capacity(share);
    let mut keys = HashSet::new();
    loop {
        let solution = random_grid(&mut rng, solver, request.shard, request.first);
        let mut climb = Climb::new(request, solution, &mut rng, solver);
        let mut stalled = 0;
        while stalled < STALL {
            if found.len() >= share || climb.easiest() >= request.total {
                return (climb, found);
            }
            let before = climb.sum();
            climb.advance(&mut rng, solver, &mut found, &mut keys, progress);
            if climb.sum() > before {
                stalled = 0;
            } else {
                stalled += 1;
            }
        }
    }
}

/// A puzzle of a pool, with its solution and its total of guesses.
#[derive(Clone, Copy)]
struct Member {
    puzzle: Grid,
    solution: Grid,
    total: usize,
}

/// A lineage's or a fork's pool.
#[derive(Clone)]
struct Climb<'a> {
    request: &'a HardRequest,
    /// The pool's puzzles.
    pool: Vec<Member>,
    /// The cells a move may take givens from: all, or with `--symmetric` one of each pair.
    cells: Vec<usize>,
    /// Whether every puzzle keeps the first grid as its solution (with `--shard` or a first
    /// digit, which a solution must keep), or a move may give its child another solution.
    fixed: bool,
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
            pool: Vec::with_capacity(POOL),
            cells,
            fixed: request.shard.is_some() || request.first.is_some(),
        };
        while climb.pool.len() < POOL {
            let puzzle = dig(&solution, CELLS, request.symmetric, rng, solver);
            let total = total_guesses(solver, &puzzle);
            climb.pool.push(Member {
                puzzle,
                solution,
                total,
            });
        }
        climb
    }

    /// One move (see the module comment): the child, or `None` when the child is not minimal
    /// though asked to be, or far below the bar.
    fn step(&mut self, rng: &mut Xoshiro256PlusPlus, solver: &mut Solver) -> Option<Member> {
        let [a, b] = [0; 2].map(|_| rng.random_range(0..self.pool.len()));
        let parent = if self.pool[a].total >= self.pool[b].total {
            self.pool[a]
        } else {
            self.pool[b]
        };
        let mut child = parent.puzzle;
        let given = self.givens_in_random_order(&child, rng);
        let drops = rng.random_range(1..=3).min(given.len());
        let mut dropped = 0u128;
        for &cell in &given[..drops] {
            for c in self.both(cell) {
                child.set(c, 0);
                dropped |= 1 << c;
            }
        }
        let solution = if self.fixed {
            self.refill_from(&mut child, &parent.solution, dropped, rng, solver)?
        } else {
            self.refill_at_random(&mut child, dropped, rng, solver)?
        };
        self.minimise(&mut child, &solution, rng, solver);
        // Symmetric minimising takes out pairs: a single given may still be one too many.
        if self.request.minimal && self.request.symmetric && !is_minimal(&child, &solution, solver)
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
        let child = Member {
            puzzle: child,
            solution,
            total,
        };
        (total < bar || !has_backdoor(&child, solver)).then_some(child)
    }

    /// Gives blanks of `child` their digits of `solution` until it has one solution again: each
    /// time at a cell where another solution differs. `None` if none is left to give.
    fn refill_from(
        &self,
        child: &mut Grid,
        solution: &Grid,
        dropped: u128,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut Solver,
    ) -> Option<Grid> {
        loop {
            let outcome = solver.search(child, 2);
            if outcome.solutions == 1 {
                return Some(*solution);
            }
            let other = outcome.first_solution.filter(|other| other != solution);
            let blanks: Vec<usize> = self
                .cells
                .iter()
                .copied()
                .filter(|&c| {
                    child.get(c) == 0
                        && dropped >> c & 1 == 0
                        && other.is_none_or(|o| self.both(c).any(|d| o.get(d) != solution.get(d)))
                })
                .collect();
            let &cell = blanks.get(rng.random_range(0..blanks.len().max(1)))?;
            for c in self.both(cell) {
                child.set(c, solution.get(c));
            }
        }
    }

    /// Gives blanks of `child` random digits that keep a solution until it has one, which may
    /// differ from its parent's: the move reaches puzzles of every grid, as the forum's vicinity
    /// searches do. `None` if no blank is left to give.
    fn refill_at_random(
        &self,
        child: &mut Grid,
        dropped: u128,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut Solver,
    ) -> Option<Grid> {
        let mut blanks: Vec<usize> = self
            .cells
            .iter()
            .copied()
            .filter(|&c| child.get(c) == 0 && dropped >> c & 1 == 0)
            .collect();
        blanks.shuffle(rng);
        let mut outcome = solver.search(child, 2);
        for cell in blanks {
            if outcome.solutions == 1 {
                break;
            }
            let mut trial = *child;
            let mut placed = true;
            for c in self.both(cell) {
                let free = free_digits(&trial, c);
                placed &= free != 0;
                if free != 0 {
                    let pick = rng.random_range(0..free.count_ones());
                    let digit = (0..pick)
                        .fold(free, |rest, _| rest & (rest - 1))
                        .trailing_zeros();
                    trial.set(c, digit as u8);
                }
            }
            if !placed {
                continue;
            }
            let tried = solver.search(&trial, 2);
            if tried.solutions > 0 {
                *child = trial;
                outcome = tried;
            }
        }
        (outcome.solutions == 1)
            .then_some(outcome.first_solution)
            .flatten()
    }

    /// The total a child must reach to matter: the pool's easiest, or the asked level if lower.
    fn bar(&self) -> usize {
        self.easiest().min(self.request.total)
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

    /// Takes out givens of `puzzle` in random order while it keeps `solution` alone.
    fn minimise(
        &self,
        puzzle: &mut Grid,
        solution: &Grid,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut Solver,
    ) {
        for cell in self.givens_in_random_order(puzzle, rng) {
            let mut trial = *puzzle;
            for c in self.both(cell) {
                trial.set(c, 0);
            }
            if self
                .both(cell)
                .all(|c| !solver.has_other_solution(&trial, c, solution.get(c)))
            {
                *puzzle = trial;
            }
        }
    }

    /// One move; a child at the asked level and not in `keys` yet joins `found`.
    fn advance(
        &mut self,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut Solver,
        found: &mut Vec<HardPuzzle>,
        keys: &mut HashSet<Grid>,
        progress: &(dyn Fn() + Sync),
    ) {
        let Some(child) = self.step(rng, solver) else {
            return;
        };
        if child.total >= self.request.total && keys.insert(key(self.request, &child.puzzle)) {
            found.push(HardPuzzle {
                puzzle: Puzzle {
                    puzzle: child.puzzle,
                    solution: child.solution,
                    level: self
                        .request
                        .with_levels
                        .then(|| level_within(&child.puzzle, Level::Harder)),
                },
                total: child.total,
            });
            progress();
        }
        self.admit(child);
    }

    /// The pool's totals, added up: they rise with every child the pool takes in.
    fn sum(&self) -> usize {
        self.pool.iter().map(|m| m.total).sum()
    }

    /// The pool's lowest total.
    fn easiest(&self) -> usize {
        self.pool.iter().map(|m| m.total).min().unwrap_or(0)
    }

    /// Puts `child` in the pool in place of the easiest if it is at least as hard and not there
    /// yet.
    fn admit(&mut self, child: Member) {
        let (easiest, low) = self
            .pool
            .iter()
            .enumerate()
            .min_by_key(|&(_, m)| m.total)
            .map(|(k, m)| (k, m.total))
            .expect("the pool is never empty");
        if child.total >= low && self.pool.iter().all(|m| m.puzzle != child.puzzle) {
            self.pool[easiest] = child;
        }
    }
}

/// The digits (bit `digit`, 1..=9) that no given among the peers of `cell` holds.
fn free_digits(puzzle: &Grid, cell: usize) -> u32 {
    let used = houses_of(cell)
        .iter()
        .flat_map(|&house| HOUSES[house])
        .fold(0u32, |used, c| used | 1 << puzzle.get(c));
    0x3fe & !used
}

/// Whether one more given of its solution lets reasoning alone solve `member`'s puzzle: such a
/// puzzle is easy for a solver that branches on that cell first, however many guesses ours makes.
fn has_backdoor(member: &Member, solver: &mut Solver) -> bool {
    (0..CELLS)
        .filter(|&c| member.puzzle.get(c) == 0)
        .any(|cell| {
            let mut more = member.puzzle;
            more.set(cell, member.solution.get(cell));
            solver.solves_without_guess(&more)
        })
}
