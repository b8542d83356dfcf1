//! Hard puzzles on demand, on every shape: a local search that climbs the guesses of a search
//! solver, written once over what each kernel supplies ([`Board`]).
//!
//! Digging makes easy puzzles: nearly every puzzle dug from a random grid is solved with a guess or
//! two, so filtering them for hard ones finds few. Hard puzzles sit near other hard puzzles
//! instead (the forum's vicinity searches and tdoku's generator rest on this), so the search
//! walks from puzzle to puzzle:
//!
//! 1. **A pool** of sixteen puzzles starts dug from a random complete grid.
//! 2. **A move** takes a pool puzzle, the harder of two drawn, takes out one to three of its givens
//!    (pairs of them with `--symmetric`), and gives blanks random values that keep a solution
//!    until the puzzle has one solution again, so a child may have another solution than its
//!    parent. With `--shard` (or a first value) the solution must stay in its shard, so the
//!    blanks take the parent's values instead, where another solution differs. The child is then
//!    minimised (pairs at a time with `--symmetric`): minimal children climb faster than children
//!    that keep spare givens, so every output is minimal, asked or not (with `--symmetric
//!    --minimal`, a child from which one given of a pair can go is dropped).
//! 3. **The score** is the kernel's measure ([`measure`]): the guesses of its search solver over
//!    ten fixed equivalents of the puzzle. A child that the first equivalents show to be far
//!    below the bar is dropped before the others are solved; at 9×9, so is a child with a
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
//!
//! How far the search reaches on each shape, and what it refuses, is [`reach`]'s. What the
//! flags cannot tell, a jigsaw layout that climbs slower than its family or a small shape with
//! fewer puzzles at the level than asked, a board's *patience* ends: a lineage that has made that
//! many moves short of the level, or a fork that many since its last find, gives up, and the
//! search ends with a [`Shortfall`] (forks then run sixteen at a time, so that a wave that gives
//! up is the last). The 9×9 board has none: its grids and puzzles are past counting.

mod climb;
pub mod measure;
pub mod reach;

use std::collections::HashSet;
use std::hash::Hash;

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rayon::prelude::*;

use crate::jobs::rate::Level;
use crate::model::shard::Shard;
use climb::Climb;

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
    /// The value of every solution's top-left cell, or any.
    pub first: Option<u8>,
    /// Rate every puzzle's level (the csv format shows it).
    pub with_levels: bool,
}

/// One hard puzzle found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found<G> {
    /// The puzzle.
    pub puzzle: G,
    /// Its one solution.
    pub solution: G,
    /// Its level, when the request asked for levels.
    pub level: Option<Level>,
    /// Its guesses over the measure's equivalents, added up.
    pub total: usize,
}

/// What the search asks of a kernel: its grids, its solver and its measure. Grids are cell values
/// row by row, 0 for a blank.
pub trait Board: Sync {
    /// A grid or puzzle of the kernel's shape.
    type Grid: Clone + PartialEq + Send + Sync;
    /// What tells two outputs apart (see [`Board::key`]).
    type Key: Hash + Eq + Send;
    /// The kernel's solver, one per thread, reused between puzzles.
    type Solver;

    /// A solver for the shape.
    fn solver(&self) -> Self::Solver;
    /// The cells of a grid.
    fn cells(&self) -> usize;
    /// The value of `cell` in `grid`.
    fn get(&self, grid: &Self::Grid, cell: usize) -> u8;
    /// Sets the value of `cell` in `grid`.
    fn set(&self, grid: &mut Self::Grid, cell: usize, value: u8);
    /// A random complete grid of the request's shard and first value; `None` when the kernel
    /// cannot draw one.
    fn random_solution(
        &self,
        request: &HardRequest,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut Self::Solver,
    ) -> Option<Self::Grid>;
    /// A puzzle dug from `solution` as far as it goes (by pairs of cells with `--symmetric`).
    fn dig(
        &self,
        request: &HardRequest,
        solution: &Self::Grid,
        rng: &mut Xoshiro256PlusPlus,
        solver: &mut Self::Solver,
    ) -> Self::Grid;
    /// The solutions of `puzzle` up to 2 and the first one found; `None` when the kernel's
    /// search gives up before it knows.
    fn count(
        &self,
        solver: &mut Self::Solver,
        puzzle: &Self::Grid,
    ) -> Option<(usize, Option<Self::Grid>)>;
    /// Whether `puzzle`, made from a puzzle whose one solution has `value` at `cell` by blanking
    /// `cell` (and maybe its partner), has a solution with another value there; true too when
    /// the search gives up, so that a given it cannot prove spare is kept.
    fn has_other_solution(
        &self,
        solver: &mut Self::Solver,
        puzzle: &Self::Grid,
        cell: usize,
        value: u8,
    ) -> bool;
    /// The values (bit `v` for value `v`) that no given among the peers of `cell` holds.
    fn free_values(&self, puzzle: &Self::Grid, cell: usize) -> u32;
    /// The guesses to a first solution of equivalent `k` (below [`measure::EQUIVALENTS`]) of
    /// `puzzle`.
    fn guesses_of(&self, solver: &mut Self::Solver, puzzle: &Self::Grid, k: usize) -> usize;
    /// Whether `puzzle` (whose one solution is `solution`) has a *backdoor* that the kernel drops
    /// a child for (see step 3 of the module documentation).
    fn has_backdoor(
        &self,
        solver: &mut Self::Solver,
        puzzle: &Self::Grid,
        solution: &Self::Grid,
    ) -> bool;
    /// What makes two outputs the same: the puzzle, or with `--classes` its class.
    fn key(&self, request: &HardRequest, puzzle: &Self::Grid) -> Self::Key;
    /// Whether a text of `puzzle` alone reads back as a puzzle of the board's shape (see
    /// `text::boxes::misread_elsewhere`); a puzzle that does not is left out.
    fn reads_back(&self, puzzle: &Self::Grid) -> bool;
    /// The level of `puzzle`, which has one solution.
    fn level(&self, puzzle: &Self::Grid) -> Level;
    /// The moves a lineage may make before its pool reaches the level, and a fork after the last
    /// puzzle it found, before the search gives up; `None`: never.
    fn patience(&self) -> Option<usize>;
}

/// Why a search ended without the puzzles asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortfall {
    /// No complete grid could be drawn (of the shard asked).
    NoGrid,
    /// A lineage's pools did not reach the level within the board's patience; `reached` is the
    /// highest total of the easiest puzzle of a pool on the way.
    Level {
        /// Ten times the mean.
        reached: usize,
    },
    /// The forks stopped finding new puzzles after `made` distinct ones.
    Puzzles {
        /// The distinct puzzles found.
        made: usize,
    },
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

/// With a board's patience, the forks that run at once: after a wave in which a fork gave up,
/// the search stops, so that a shape that holds fewer puzzles at the level than asked ends
/// after a wave rather than after thousands of forks.
const FORK_WAVE: usize = 16;

/// Searches `request.count` hard puzzles of `board`'s shape over the current rayon pool, calling
/// `progress` after each one found.
pub fn search_puzzles<B: Board>(
    board: &B,
    request: &HardRequest,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Found<B::Grid>>, Shortfall> {
    let mut seen = HashSet::with_capacity(request.count);
    let mut puzzles = Vec::with_capacity(request.count);
    let mut take = |found: Vec<Vec<Found<B::Grid>>>, puzzles: &mut Vec<Found<B::Grid>>| {
        for puzzle in found.into_iter().flatten() {
            if puzzles.len() < request.count
                && board.reads_back(&puzzle.puzzle)
                && seen.insert(board.key(request, &puzzle.puzzle))
            {
                puzzles.push(puzzle);
            }
        }
    };
    let forks = Forks {
        board,
        request,
        progress,
    };
    // Each lineage forks for its share as soon as it has climbed, so that a core whose lineage
    // climbed first takes its forks while the other still climbs. The forks find what the share
    // lacks and no more: `-n 10` is not the work of `-n 256`. The first lineages take what does
    // not divide: `-n 1` is one lineage's climb, not two.
    let share =
        |lineage: u64| (request.count + (LINEAGES - 1 - lineage) as usize) / LINEAGES as usize;
    let lineages: Vec<Result<Lineage<B>, Shortfall>> = (0..LINEAGES)
        .into_par_iter()
        .map_init(
            || board.solver(),
            |solver, lineage| {
                let share = share(lineage);
                let mut climbed = climb_to_level(board, request, lineage, share, solver, progress)?;
                let lacking = share.saturating_sub(climbed.found.len());
                let count = lacking.div_ceil(FORK_QUOTA) as u64;
                let runs: Vec<(&Climb<B>, u64, usize)> = (0..count)
                    .map(|k| {
                        let quota = (lacking - k as usize * FORK_QUOTA).min(FORK_QUOTA);
                        (&climbed.pool, lineage + LINEAGES * k, quota)
                    })
                    .collect();
                let (harvested, gave_up) = forks.run(&runs);
                climbed.found.extend(harvested.into_iter().flatten());
                climbed.forks = count;
                climbed.gave_up = gave_up;
                Ok(climbed)
            },
        )
        .collect();
    let lineages = lineages.into_iter().collect::<Result<Vec<_>, _>>()?;
    let mut next_fork = LINEAGES * lineages.iter().map(|l| l.forks).max().unwrap_or(0);
    let mut gave_up = lineages.iter().any(|l| l.gave_up);
    let mut pools = Vec::with_capacity(LINEAGES as usize);
    for lineage in lineages {
        take(vec![lineage.found], &mut puzzles);
        pools.push(lineage.pool);
    }
    while puzzles.len() < request.count {
        if gave_up {
            return Err(Shortfall::Puzzles {
                made: puzzles.len(),
            });
        }
        let lacking = request.count - puzzles.len();
        let count = lacking.div_ceil(FORK_QUOTA) as u64;
        let runs: Vec<(&Climb<B>, u64, usize)> = (next_fork..next_fork + count)
            .map(|k| {
                let quota = (lacking - (k - next_fork) as usize * FORK_QUOTA).min(FORK_QUOTA);
                (&pools[(k % LINEAGES) as usize], k, quota)
            })
            .collect();
        let (found, gave) = forks.run(&runs);
        gave_up = gave;
        next_fork += count;
        take(found, &mut puzzles);
    }
    Ok(puzzles)
}

/// What a lineage ends with: its pool at the level, the puzzles it and its first forks found,
/// how many forks it ran, and whether one of them gave up.
struct Lineage<'a, B: Board> {
    pool: Climb<'a, B>,
    found: Vec<Found<B::Grid>>,
    forks: u64,
    gave_up: bool,
}

/// What every fork of a search shares.
struct Forks<'a, B: Board> {
    board: &'a B,
    request: &'a HardRequest,
    progress: &'a (dyn Fn() + Sync),
}

impl<B: Board> Forks<'_, B> {
    /// Runs `runs`, forks `k` of `pool` each until it has found `quota` puzzles, in parallel,
    /// and returns their puzzles in order, and whether one of them gave up. With the board's
    /// patience they run a wave of [`FORK_WAVE`] at a time, and no wave follows one in which a
    /// fork gave up.
    fn run(&self, runs: &[(&Climb<B>, u64, usize)]) -> (Vec<Vec<Found<B::Grid>>>, bool) {
        let wave = match self.board.patience() {
            Some(_) => FORK_WAVE,
            None => runs.len().max(1),
        };
        let mut found = Vec::with_capacity(runs.len());
        for runs in runs.chunks(wave) {
            let results: Vec<(Vec<Found<B::Grid>>, bool)> = runs
                .par_iter()
                .map_init(
                    || self.board.solver(),
                    |solver, &(pool, k, quota)| self.fork(pool, k, quota, solver),
                )
                .collect();
            let gave_up = results.iter().any(|r| r.1);
            found.extend(results.into_iter().map(|r| r.0));
            if gave_up {
                return (found, true);
            }
        }
        (found, false)
    }

    /// Fork `k` walks on from `pool`, its lineage's (lineage `k % LINEAGES`), until it has found
    /// `quota` puzzles, or it gives up (the board's patience run out since its last find, which
    /// the second value says).
    fn fork(
        &self,
        pool: &Climb<B>,
        k: u64,
        quota: usize,
        solver: &mut B::Solver,
    ) -> (Vec<Found<B::Grid>>, bool) {
        let mut climb = pool.clone();
        let mut rng = stream(self.request, LINEAGES + k);
        let mut found = Vec::with_capacity(quota);
        let mut keys = HashSet::new();
        let mut idle = 0;
        while found.len() < quota {
            let before = found.len();
            climb.advance(&mut rng, solver, &mut found, &mut keys, self.progress);
            if found.len() > before {
                idle = 0;
            } else {
                idle += 1;
                if self.board.patience().is_some_and(|most| idle >= most) {
                    return (found, true);
                }
            }
        }
        (found, false)
    }
}

/// The random stream of lineage or fork `k`: a function of the seed and `k` alone.
fn stream(request: &HardRequest, k: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(request.seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// Lineage `lineage`'s climb: from puzzles dug from a random grid until every puzzle of its
/// pool reaches the asked level, or it has found `share` puzzles on the way; again from a new
/// grid whenever the pool stops improving. Returns the pool and the puzzles found, before any
/// fork.
fn climb_to_level<'a, B: Board>(
    board: &'a B,
    request: &'a HardRequest,
    lineage: u64,
    share: usize,
    solver: &mut B::Solver,
    progress: &(dyn Fn() + Sync),
) -> Result<Lineage<'a, B>, Shortfall> {
    let mut rng = stream(request, lineage);
    let mut found = Vec::with_capacity(share);
    let mut keys = HashSet::new();
    let (mut moves, mut reached) = (0, 0);
    loop {
        let solution = board
            .random_solution(request, &mut rng, solver)
            .ok_or(Shortfall::NoGrid)?;
        let mut climb = Climb::new(board, request, solution, &mut rng, solver);
        let mut stalled = 0;
        while stalled < STALL {
            reached = reached.max(climb.easiest());
            if found.len() >= share || climb.easiest() >= request.total {
                return Ok(Lineage {
                    pool: climb,
                    found,
                    forks: 0,
                    gave_up: false,
                });
            }
            if board.patience().is_some_and(|most| moves >= most) {
                return Err(Shortfall::Level { reached });
            }
            moves += 1;
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
