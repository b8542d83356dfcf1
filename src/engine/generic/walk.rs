//! `-c` for every shape: distinct complete grids, written straight into their text.
//!
//! # The search
//! As for 9×9 (see [`crate::engine::standard::walk`]): values are placed one at a time, all the 1s (one per
//! region, no row, column or diagonal twice), then all the 2s, and so on, depth first. Each node is
//! one choice of cell for one value in one region, so every complete grid is reached once: the grids
//! are distinct by construction, and when the walk ends before the count asked for, the number it
//! reached is the number of grids the shape has.
//!
//! - **Forward checking**: after a value is placed in a region, every later region must still have
//!   a cell for it, and every row, column and diagonal it has not taken yet a cell on it among
//!   those regions, or the walk backs up.
//! - **The last two values as a 2-colouring**: once N−2 values are placed (on a diagonal shape,
//!   each once on each diagonal), every house has two empty cells, one for each of the last two
//!   values. The pairs link the 2N empty cells into a graph whose 2-colourings are exactly the ways
//!   to finish the grid: none if a component has an odd cycle, else two per component.
//! - **The last eight values by relabelling**: once N−8 values are placed (all of them on a
//!   shape of eight values or fewer), permuting the last eight among themselves maps the ways to
//!   finish the grid onto each other, 8! = 40,320 at a time. Only the ways where region 0's empty
//!   cells take them in reading order are searched; each is written in all 40,320 relabellings,
//!   8N byte writes and one record copy each. The walk spends nearly all its nodes on the last
//!   values searched before the 2-colouring, whose ways mostly end in an odd cycle: fixing region
//!   0's cells for more values divides that search and multiplies the grids of each way it finds.
//!
//! # State
//! A region's cells are numbered in reading order; its empty cells are one N-bit mask. For the
//! value being placed, the rows and columns it took are N-bit masks, its diagonals two bits, and
//! the cells it may still take are one N-bit mask per row (a bit per column): a placement closes
//! its row, and one bit of every row for its column and diagonals, N word operations. The forward
//! check then reads those rows masked with the cells of the later regions (one table per region),
//! and each later region through its few rows, instead of testing cell by cell.
//! The text of the current grid is one record, patched cell by cell as values are placed.
//!
//! # Seeds
//! A seed draws which symbol each value is written as, and for every value and region the order in
//! which its cells are tried; both keep grids valid and distinct.
//!
//! # Restarts
//! How long the walk takes to reach its next grid depends on the cell orders, and on jigsaw
//! layouts wildly: one order reaches a grid within a few hundred nodes where another wanders for
//! hours among values that cannot all be placed. So a try that takes more nodes than it may
//! between two grids is dropped with the grids it wrote, and the walk starts again with orders
//! drawn from the seed, the part and the restart's number, and twice the nodes. Each try is a
//! whole walk of its part, so the grids of the try that ends are distinct, and when it ends short
//! of the count, the number it reached is still the number of grids of its part. The order of
//! region 0's cells for the 1 is never drawn again: it names the parts. A shape whose complete
//! grids the search does not find at all is refused before the walk starts.
//!
//! From the fourth restart on, each try's orders also put first the cells of a complete grid of
//! its part, the solver's first grid (found when the shape was checked for one) relabelled: the
//! try walks straight to that grid and on to its neighbours in the tree. On large jigsaw layouts
//! drawn orders alone may never reach a grid.
//!
//! # A top-left symbol asked for
//! `--first S` walks only the grids whose top-left cell holds S: no fixed value may take that
//! cell, the first relabelled value, which the canonical order then puts there, is written as S,
//! and only the relabellings that keep it so are written (see `Walk::start_with`). The walk is
//! the same walk of distinct grids, and when it ends short it has counted every such grid.
//!
//! # Threads
//! The tree is split into P = min(N, 8) fixed parts by the cell of region 0 that takes the 1
//! (the `p`-th that cell order tries). Part `p` contributes the first `count / P` grids of its
//! subtree (one more for the first `count % P` parts) to its own byte range, so the output never
//! depends on the thread count. When a part has fewer grids than its share (a small shape, or a layout with few
//! grids), the whole tree is walked again on one thread, as one part: the grids of small shapes
//! are few, and that walk also counts them when there are fewer than asked for.
//!
//! # Shards
//! With a shard, every part (and the walk of the whole tree) goes below a placement of all the
//! 1s and 2s only when the shard owns its key (see [`super::deal`]), so the shards of a seed
//! split the tree between them, and when one holds fewer grids than asked for, the walk of the
//! whole tree counts those it holds.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;
use rayon::prelude::*;

use super::deal::{self, KEYED_VALUES, Placements};
use crate::error::Error;
use crate::model::shape::{Regions, Shape};
use crate::model::shard::Shard;
use crate::text::format::Format;
use crate::text::shaped::{Layout, record_len, write_record};

/// What to generate.
#[derive(Clone, Debug)]
pub struct ShapedGrids {
    /// The shape of the grids.
    pub shape: Shape,
    /// How many, 1..=[`crate::engine::standard::walk::MAX_GRIDS`].
    pub count: usize,
    /// Every output is a function of the seed (and the other fields).
    pub seed: u64,
    /// Grid (spaced) or line format; jigsaw lines carry their layout (`LAYOUT GRID`).
    pub format: Format,
    /// Only grids of this shard (see [`super::deal`]); `None` for the whole tree.
    pub shard: Option<Shard>,
    /// The value (1..=N) of every grid's top-left cell, when one is asked for.
    pub first: Option<u8>,
}

/// The number of parts the tree is split into, at most (see the module documentation): enough
/// to keep a few threads busy, and few, since each part pays for the dead ends before its first
/// grids.
const MOST_PARTS: usize = 8;

/// The layout and record of `format` for `shape`.
fn layout_of(format: Format) -> Layout {
    match format {
        Format::Line => Layout::Line,
        Format::Grid => Layout::Grid { compact: false },
    }
}

/// Writes `request.count` distinct complete grids into one buffer of exactly their size, or says
/// how many there are when the shape has fewer. The parts of the tree (see the module
/// documentation) run over the current rayon pool.
pub fn render_grids(request: &ShapedGrids) -> Result<Vec<u8>, Error> {
    let shape = &request.shape;
    let first_grid = super::check_has_grid(shape, request.count)?;
    let layout = layout_of(request.format);
    let with_layout = shape.layout_text().is_some();
    let record = record_len(shape.size(), layout, with_layout);
    let mut out = crate::io::memory::zeroed(record * request.count)?;
    let mut walk = Walk::new(shape, request.seed, layout, with_layout, first_grid);
    walk.shard = request.shard;
    if let Some(value) = request.first {
        walk.start_with(shape.symbols().glyph(value));
    }
    let parts = shape.size().min(MOST_PARTS);
    let mut pieces = Vec::with_capacity(parts);
    let mut rest = out.as_mut_slice();
    for part in 0..parts {
        let grids = request.count / parts + usize::from(part < request.count % parts);
        let (head, tail) = rest.split_at_mut(grids * record);
        pieces.push((part, grids, head));
        rest = tail;
    }
    let full = pieces.into_par_iter().all(|(part, grids, records)| {
        grids == 0 || walk.clone().run(records, grids, Some(part)) == grids
    });
    if !full {
        let written = walk.clone().run(&mut out, request.count, None);
        if written < request.count {
            return Err(Error::TooFewGrids {
                asked: request.count,
                exist: written,
                shard: request.shard,
                first: request.first.map(|v| char::from(shape.symbols().glyph(v))),
            });
        }
    }
    if layout != Layout::Line {
        out.pop();
    }
    Ok(out)
}

/// Counts the complete grids of `shape` (with `first`, those whose top-left cell holds that
/// value), stopping at `limit`.
pub fn count_grids(shape: &Shape, first: Option<u8>, limit: usize) -> usize {
    let mut walk = Walk::new(shape, 0, Layout::Line, false, Vec::new());
    if let Some(value) = first {
        walk.start_with(shape.symbols().glyph(value));
    }
    walk.counting = true;
    walk.run(&mut [], limit, None)
}

/// The nodes (cells tried) a first try of the walk may take between two grids on a jigsaw
/// layout, where the time to the next grid varies the most with the cell orders: short tries, many
/// of them, find grids soonest there.
const FIRST_JIGSAW_NODES: usize = 1 << 10;

/// The same on a shape of boxes, more than the walk ever takes between two of its grids, so that
/// its walks keep the grids they always wrote.
const FIRST_BOX_NODES: usize = 1 << 24;

/// The nodes a first try of the walk may take between two grids on `shape`.
fn first_budget(shape: &Shape) -> usize {
    match shape.regions() {
        Regions::Jigsaw(_) => FIRST_JIGSAW_NODES,
        Regions::Boxes { .. } => FIRST_BOX_NODES,
    }
}

/// The restart from which a try's orders lead first to a grid the solver found, rather than only
/// being drawn again: on jigsaw layouts of 20×20 and up a try with drawn orders rarely reaches a
/// grid at all, while the solver, restarting as it does, finds one.
const GUIDED_FROM: u32 = 4;

/// How many of the last values are handed out to their cells in every order, at most (all of
/// them on a shape of fewer values).
const MOST_RELABELLED: usize = 8;

/// The orders of `k` values, in lexicographic order: entry `[a, b, ...]` writes the cells of the
/// first of them as its `a`-th value (from 0), and so on.
fn relabellings(k: usize) -> Vec<[u8; MOST_RELABELLED]> {
    let mut labels: [u8; MOST_RELABELLED] = std::array::from_fn(|i| i as u8);
    let mut table = vec![labels];
    // The next permutation: the last rise, swapped with the last larger label, the tail reversed.
    while let Some(rise) = (1..k).rev().find(|&i| labels[i - 1] < labels[i]) {
        let larger = (rise..k)
            .rev()
            .find(|&j| labels[j] > labels[rise - 1])
            .expect("the rise itself is larger");
        labels.swap(rise - 1, larger);
        labels[rise..k].reverse();
        table.push(labels);
    }
    table
}

/// The depth-first walk.
#[derive(Clone)]
struct Walk {
    size: usize,
    /// The cells of each region, in reading order.
    region_cells: Vec<Vec<u16>>,
    /// For each region and cell index in it: its row, its column, and its diagonal bits (1: main,
    /// 2: anti).
    row: Vec<Vec<u8>>,
    column: Vec<Vec<u8>>,
    diagonals: Vec<Vec<u8>>,
    /// For each value and region, the cell indices in the order they are tried.
    order: Vec<Vec<Vec<u8>>>,
    /// Empty cells of each region.
    empty: Vec<u32>,
    /// Empty cells of each row, a bit per column.
    empty_in_row: [u32; 25],
    /// For the value being placed, the cells of each row it may still take: empty, and on no row,
    /// column or diagonal it took.
    open_in_row: [u32; 25],
    /// For each region, the cells of each row that belong to later regions.
    later_in_row: Vec<[u32; 25]>,
    /// For each region, its rows and its cells on each of them.
    region_rows: Vec<Vec<(u8, u32)>>,
    /// The cells of each row on the main diagonal and on the anti-diagonal.
    diagonal_in_row: [[u32; 25]; 2],
    /// The value's rows, columns and diagonals taken so far.
    rows_taken: u32,
    columns_taken: u32,
    diagonals_taken: u8,
    /// The diagonals every value must take: both on a diagonal shape, none otherwise.
    diagonals_needed: u8,
    /// The record of the current grid, and each cell's byte in it.
    record: Vec<u8>,
    offset: Vec<usize>,
    /// The symbol written for each value.
    glyph: Vec<u8>,
    /// How many of the last values are relabelled: [`MOST_RELABELLED`], or N when smaller.
    relabelled_values: usize,
    /// Every order of the relabelled values (see [`relabellings`]).
    relabellings: Vec<[u8; MOST_RELABELLED]>,
    /// For each relabelled value, the record offsets of its cells, by region.
    relabelled: [[usize; 25]; MOST_RELABELLED],
    written: usize,
    counting: bool,
    /// The part walked: the index, in the order they are tried, of the one cell region 0 may
    /// give the 1; `None` for the whole tree.
    part: Option<usize>,
    /// The seed the orders were drawn from, which every restart's orders come from too.
    seed: u64,
    /// The shard walked, and the key of the keyed values placed so far (see [`super::deal`]).
    shard: Option<Shard>,
    key: u64,
    /// The cells the current try of the walk has tried since it last wrote (or counted) grids, and
    /// how many it may.
    nodes: usize,
    budget: usize,
    /// Whether the current try ran out of nodes.
    out_of_nodes: bool,
    /// The nodes of a first try (see [`first_budget`]).
    first_budget: usize,
    /// The grid guided tries lead to: the first one the solver found (see
    /// [`super::check_has_grid`]); empty when there is none to lead to.
    guide: Vec<u8>,
    /// Whether the top-left cell is kept for the first relabelled value (see
    /// [`Walk::start_with`]).
    top_left_relabelled: bool,
}

impl Walk {
    fn new(shape: &Shape, seed: u64, layout: Layout, with_layout: bool, guide: Vec<u8>) -> Walk {
        let n = shape.size();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut region_cells = vec![Vec::new(); n];
        for cell in 0..n * n {
            region_cells[shape.region_of(cell)].push(cell as u16);
        }
        let per_cell = |f: &dyn Fn(usize) -> u8| -> Vec<Vec<u8>> {
            region_cells
                .iter()
                .map(|cells| cells.iter().map(|&c| f(usize::from(c))).collect())
                .collect()
        };
        let diagonal = shape.diagonal();
        let row = per_cell(&|c| (c / n) as u8);
        let column = per_cell(&|c| (c % n) as u8);
        let diagonals = per_cell(&|c| {
            let (r, k) = (c / n, c % n);
            if diagonal {
                u8::from(r == k) | u8::from(r + k == n - 1) << 1
            } else {
                0
            }
        });
        let mut glyph: Vec<u8> = shape.symbols().as_bytes().to_vec();
        glyph.shuffle(&mut rng);
        glyph.insert(0, 0);
        let order = (0..n)
            .map(|_| {
                (0..n)
                    .map(|_| {
                        let mut cells: Vec<u8> = (0..n as u8).collect();
                        cells.shuffle(&mut rng);
                        cells
                    })
                    .collect()
            })
            .collect();
        let mut later_in_row = vec![[0u32; 25]; n];
        for (region, later) in later_in_row.iter_mut().enumerate() {
            for cell in 0..n * n {
                if shape.region_of(cell) > region {
                    later[cell / n] |= 1 << (cell % n);
                }
            }
        }
        let region_rows = region_cells
            .iter()
            .map(|cells| {
                let mut rows: Vec<(u8, u32)> = Vec::new();
                for &cell in cells {
                    let (row, column) = (usize::from(cell) / n, usize::from(cell) % n);
                    match rows.last_mut() {
                        Some((last, mask)) if usize::from(*last) == row => *mask |= 1 << column,
                        _ => rows.push((row as u8, 1 << column)),
                    }
                }
                rows
            })
            .collect();
        let diagonal_in_row = [
            std::array::from_fn(|row| if row < n { 1 << row } else { 0 }),
            std::array::from_fn(|row| if row < n { 1 << (n - 1 - row) } else { 0 }),
        ];
        let mut empty_in_row = [0u32; 25];
        empty_in_row[..n].fill((1u32 << n) - 1);
        let mut record = Vec::with_capacity(record_len(n, layout, with_layout));
        write_record(&vec![0; n * n], shape, layout, with_layout, &mut record);
        let prefix = if with_layout { n * n + 1 } else { 0 };
        let offset = (0..n * n)
            .map(|cell| match layout {
                Layout::Line => prefix + cell,
                Layout::Grid { .. } => 2 * cell,
            })
            .collect();
        Walk {
            size: n,
            region_cells,
            row,
            column,
            diagonals,
            order,
            empty: vec![(1u32 << n) - 1; n],
            empty_in_row,
            open_in_row: empty_in_row,
            later_in_row,
            region_rows,
            diagonal_in_row,
            rows_taken: 0,
            columns_taken: 0,
            diagonals_taken: 0,
            diagonals_needed: if diagonal { 3 } else { 0 },
            record,
            offset,
            glyph,
            relabelled_values: n.min(MOST_RELABELLED),
            relabellings: relabellings(n.min(MOST_RELABELLED)),
            relabelled: [[0; 25]; MOST_RELABELLED],
            written: 0,
            counting: false,
            part: None,
            seed,
            shard: None,
            key: deal::EMPTY_KEY,
            nodes: 0,
            budget: usize::MAX,
            out_of_nodes: false,
            first_budget: first_budget(shape),
            guide,
            top_left_relabelled: false,
        }
    }

    /// Walks only the grids whose top-left cell holds `symbol`. The top-left cell is region 0's
    /// first in reading order (regions are numbered in order of first appearance), so it is the
    /// cell the canonical order gives the first relabelled value once no fixed value took it.
    /// The grids wanted are then exactly those where no fixed value takes that cell and the
    /// relabellings leave the first relabelled value written as `symbol`: the walk stays a walk
    /// of distinct grids, whose count when it ends short is the count of such grids.
    fn start_with(&mut self, symbol: u8) {
        debug_assert_eq!(
            self.region_cells[0][0], 0,
            "region 0 holds the top-left cell"
        );
        let n = self.size;
        let first = n - self.relabelled_values + 1;
        let at = self.glyph[1..]
            .iter()
            .position(|&g| g == symbol)
            .expect("a symbol of the shape")
            + 1;
        self.glyph.swap(at, first);
        self.relabellings.retain(|labels| labels[0] == 0);
        self.top_left_relabelled = true;
        // The parts are named by the cells the 1 takes in region 0; when the 1 is a fixed value,
        // the top-left cell is none of them, so that every part holds such grids.
        if first > 1 {
            let parts = &mut self.order[1][0];
            let at = parts
                .iter()
                .position(|&k| k == 0)
                .expect("an order holds every cell");
            parts[at..].rotate_left(1);
        }
    }

    /// Walks `part` (or the whole tree) until `count` grids are written (or counted), or it ends;
    /// returns how many.
    ///
    /// A try that runs out of nodes between two grids starts again, from no grid, with cell orders
    /// drawn anew and twice the nodes (see the module documentation), until one ends.
    fn run(&mut self, out: &mut [u8], count: usize, part: Option<usize>) -> usize {
        self.part = part;
        for restart in 0u32.. {
            self.written = 0;
            self.nodes = 0;
            self.out_of_nodes = false;
            self.budget = self
                .first_budget
                .saturating_mul(1usize.checked_shl(restart).unwrap_or(usize::MAX));
            self.place(out, count, 1, 0);
            if !self.out_of_nodes {
                break;
            }
            self.draw_orders_again(restart + 1);
            if restart + 1 >= GUIDED_FROM {
                self.lead_to_a_grid();
            }
        }
        self.written
    }

    /// Puts first, in every order but the one that names the parts, the cells of a complete grid
    /// of the current part: the try then walks straight to that grid, and from there to its
    /// neighbours in the tree. The grid is the walk's guide, the first one the solver found,
    /// relabelled so that the part's cell of region 0 holds the 1 (and, in a shard, so that the
    /// shard owns its 1s and 2s, when some value can be its 2 and the 2 is not relabelled). Without
    /// a guide the orders stay as drawn.
    fn lead_to_a_grid(&mut self) {
        let n = self.size;
        let fixed = n - self.relabelled_values;
        if fixed == 0 || self.guide.is_empty() {
            // With every value relabelled, the tree is small.
            return;
        }
        let mut grid = self.guide.clone();
        if let Some(part) = self.part {
            let k = usize::from(self.order[1][0][part]);
            let one = grid[usize::from(self.region_cells[0][k])];
            deal::swap_values(&mut grid, one, 1);
        }
        if self.top_left_relabelled && usize::from(grid[0]) <= fixed {
            // A part's 1 stays where it is: `start_with` keeps it off the top-left cell.
            let top_left = grid[0];
            deal::swap_values(&mut grid, top_left, n as u8);
        }
        // The 2 the shard owns keeps off the top-left cell too, where a relabelled value goes.
        let top_left = self.top_left_relabelled.then_some(grid[0]);
        if let Some(shard) = self.shard
            && fixed >= KEYED_VALUES
            && let Some(two) =
                Placements::new(&grid, &self.region_cells).partner(1, 2, shard, top_left)
        {
            deal::swap_values(&mut grid, two, 2);
        }
        // The walk's canonical order of the relabelled values: region 0's cells take them in
        // reading order.
        let mut label: [u8; 26] = std::array::from_fn(|value| value as u8);
        let mut next = fixed as u8;
        for &cell in &self.region_cells[0] {
            let value = usize::from(grid[usize::from(cell)]);
            if value > fixed {
                next += 1;
                label[value] = next;
            }
        }
        for (region, cells) in self.region_cells.iter().enumerate() {
            for (k, &cell) in cells.iter().enumerate() {
                let value = usize::from(label[usize::from(grid[usize::from(cell)])]);
                // The last two values are not tried in an order but coloured.
                if (value, region) == (1, 0) || value >= n - 1 {
                    continue;
                }
                let order = &mut self.order[value][region];
                let at = order
                    .iter()
                    .position(|&i| usize::from(i) == k)
                    .expect("an order holds every cell of its region");
                order[..=at].rotate_right(1);
            }
        }
    }

    /// Draws the cell orders of restart `restart` of the current part, from the seed, the part and
    /// the restart alone. The order of region 0's cells for the 1 is kept: it names the parts,
    /// which must stay disjoint.
    fn draw_orders_again(&mut self, restart: u32) {
        let part = self.part.map_or(u64::MAX, |p| p as u64);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(
            self.seed
                ^ part.wrapping_mul(0x9e37_79b9_7f4a_7c15)
                ^ u64::from(restart).wrapping_mul(0xd1b5_4a32_d192_ed03),
        );
        for (value, orders) in self.order.iter_mut().enumerate() {
            for (region, cells) in orders.iter_mut().enumerate() {
                if (value, region) != (1, 0) {
                    cells.shuffle(&mut rng);
                }
            }
        }
    }

    /// The cells of region `region` the current value can go to.
    fn candidates(&self, region: usize) -> u32 {
        let mut mask = 0;
        let mut empty = self.empty[region];
        while empty != 0 {
            let k = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            if self.open_in_row[usize::from(self.row[region][k])] >> self.column[region][k] & 1 == 1
            {
                mask |= 1 << k;
            }
        }
        mask
    }

    /// Forward checking: every region after `region` still has a cell for the value, and every
    /// row, column and diagonal the value has not taken yet still has such a cell in one of them.
    fn later_regions_can_take_the_value(&self, region: usize) -> bool {
        let n = self.size;
        let later = &self.later_in_row[region];
        let mut columns = self.columns_taken;
        let mut diagonals = self.diagonals_taken;
        let [main, anti] = &self.diagonal_in_row;
        for (row, (&open, &later)) in self.open_in_row[..n].iter().zip(later).enumerate() {
            let open = open & later;
            if open == 0 && self.rows_taken >> row & 1 == 0 {
                return false;
            }
            columns |= open;
            diagonals |= u8::from(open & main[row] != 0) | u8::from(open & anti[row] != 0) << 1;
        }
        if columns != (1u32 << n) - 1 || diagonals & self.diagonals_needed != self.diagonals_needed
        {
            return false;
        }
        self.region_rows[region + 1..].iter().all(|rows| {
            rows.iter()
                .any(|&(row, cells)| self.open_in_row[usize::from(row)] & cells != 0)
        })
    }

    /// Places `value` in `region` and every later one, then the later values.
    fn place(&mut self, out: &mut [u8], count: usize, value: usize, region: usize) {
        let n = self.size;
        if value == n - 1 {
            self.finish_last_two(out, count);
            return;
        }
        let mut options = self.candidates(region);
        let relabelled = self.relabelled_values;
        if region == 0 && value > n - relabelled {
            // Canonical order of the relabelled values: region 0's empty cells take them in
            // reading order.
            options &= options.wrapping_neg();
        } else if region == 0 && self.top_left_relabelled {
            options &= !1;
        }
        let tried = match self.part {
            Some(part) if value == 1 && region == 0 => part..part + 1,
            _ => 0..n,
        };
        for i in tried {
            if self.written == count || self.out_of_nodes {
                return;
            }
            let k = usize::from(self.order[value][region][i]);
            if options >> k & 1 == 0 {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.budget {
                self.out_of_nodes = true;
                return;
            }
            let (row, column, diagonals) = (
                self.row[region][k],
                self.column[region][k],
                self.diagonals[region][k],
            );
            let saved = (self.rows_taken, self.columns_taken, self.diagonals_taken);
            let saved_open = self.open_in_row;
            self.rows_taken |= 1 << row;
            self.columns_taken |= 1 << column;
            self.diagonals_taken |= diagonals;
            self.empty[region] &= !(1 << k);
            self.empty_in_row[usize::from(row)] &= !(1 << column);
            for open in &mut self.open_in_row[..n] {
                *open &= !(1 << column);
            }
            for (kind, cells) in self.diagonal_in_row.iter().enumerate() {
                if diagonals >> kind & 1 == 1 {
                    for (open, &cell) in self.open_in_row[..n].iter_mut().zip(cells) {
                        *open &= !cell;
                    }
                }
            }
            self.open_in_row[usize::from(row)] = 0;
            let cell = usize::from(self.region_cells[region][k]);
            let saved_key = self.key;
            if value <= KEYED_VALUES {
                self.key = deal::fold(self.key, cell as u16);
            }
            self.record[self.offset[cell]] = self.glyph[value];
            if value + relabelled > n {
                self.relabelled[value + relabelled - n - 1][region] = self.offset[cell];
            }
            let last_region = region + 1 == n;
            if last_region {
                if self.diagonals_taken == self.diagonals_needed
                    && deal::goes_below(self.shard, self.key, value)
                {
                    (self.rows_taken, self.columns_taken, self.diagonals_taken) = (0, 0, 0);
                    self.open_in_row = self.empty_in_row;
                    self.place(out, count, value + 1, 0);
                }
            } else if self.later_regions_can_take_the_value(region) {
                self.place(out, count, value, region + 1);
            }
            self.empty[region] |= 1 << k;
            self.empty_in_row[usize::from(row)] |= 1 << column;
            self.open_in_row = saved_open;
            self.key = saved_key;
            (self.rows_taken, self.columns_taken, self.diagonals_taken) = saved;
        }
    }

    /// The last two values as a 2-colouring: every house has two empty cells left, one for each
    /// value. The empty cells and the pairs the houses make form a graph; its colourings are the
    /// ways to finish the grid: none when a component is not bipartite, else two per component,
    /// written for every choice of colours in turn.
    fn finish_last_two(&mut self, out: &mut [u8], count: usize) {
        let n = self.size;
        let mut cell_of = [0u16; 50];
        let mut len = 0;
        for region in 0..n {
            let mut empty = self.empty[region];
            while empty != 0 {
                cell_of[len] = self.region_cells[region][empty.trailing_zeros() as usize];
                empty &= empty - 1;
                len += 1;
            }
        }
        // Partners: in the region (the other of its pair), the row, the column, the diagonals.
        const NONE: u8 = u8::MAX;
        let mut partner = [[NONE; 5]; 50];
        let mut first_on = [[NONE; 25]; 4];
        for i in 0..len {
            partner[i][0] = (i ^ 1) as u8;
            let cell = usize::from(cell_of[i]);
            let (row, column) = (cell / n, cell % n);
            let lines = [
                Some(row),
                Some(column),
                (self.diagonals_needed != 0 && row == column).then_some(0),
                (self.diagonals_needed != 0 && row + column == n - 1).then_some(0),
            ];
            for (kind, line) in lines.into_iter().enumerate() {
                let Some(line) = line else { continue };
                match first_on[kind][line] {
                    NONE => first_on[kind][line] = i as u8,
                    j => {
                        partner[i][kind + 1] = j;
                        partner[usize::from(j)][kind + 1] = i as u8;
                    }
                }
            }
        }
        let mut colour = [NONE; 50];
        let mut component = [0u8; 50];
        let mut components = 0;
        let mut stack = [0u8; 50];
        for start in 0..len {
            if colour[start] != NONE {
                continue;
            }
            colour[start] = 0;
            component[start] = components;
            stack[0] = start as u8;
            let mut top = 1;
            while top > 0 {
                top -= 1;
                let i = usize::from(stack[top]);
                for &j in partner[i].iter().filter(|&&j| j != NONE) {
                    let j = usize::from(j);
                    if colour[j] == NONE {
                        colour[j] = colour[i] ^ 1;
                        component[j] = components;
                        stack[top] = j as u8;
                        top += 1;
                    } else if colour[j] == colour[i] {
                        return;
                    }
                }
            }
            components += 1;
        }
        // Region 0's first empty cell takes value N−1 (canonical order): component 0 keeps its
        // colours.
        for choice in (0..1u64 << components).step_by(2) {
            for i in 0..len {
                let flip = (choice >> component[i] & 1) as u8;
                let slot = self.relabelled_values - 2 + usize::from(colour[i] ^ flip);
                self.relabelled[slot][i / 2] = self.offset[usize::from(cell_of[i])];
            }
            self.write_relabellings(out, count);
        }
    }

    /// Writes the current grid in every relabelling of its relabelled values.
    fn write_relabellings(&mut self, out: &mut [u8], count: usize) {
        if self.counting {
            self.written = count.min(self.written + self.relabellings.len());
            self.nodes = 0;
            return;
        }
        let first = self.size - self.relabelled_values + 1;
        let size = self.record.len();
        for labels in &self.relabellings {
            if self.written == count {
                return;
            }
            for (cells, &label) in self
                .relabelled
                .iter()
                .zip(labels)
                .take(self.relabelled_values)
            {
                let glyph = self.glyph[first + usize::from(label)];
                for &offset in &cells[..self.size] {
                    self.record[offset] = glyph;
                }
            }
            out[self.written * size..(self.written + 1) * size].copy_from_slice(&self.record);
            self.written += 1;
            self.nodes = 0;
        }
    }
}

#[cfg(test)]
mod tests;
