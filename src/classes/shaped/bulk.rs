//! The jobs' side of equivalence for other shapes: the forms and shuffles of a batch of records,
//! over the current rayon pool, and the key that names each record's class.

use rayon::prelude::*;

use super::{Canon, Move, record};
use crate::classes::shuffle::rng_of;
use crate::model::layout::LAYOUT_NAMES;
use crate::model::shape::{Regions, Shape};
use crate::text::boxes::misread_elsewhere;
use crate::text::shaped::{Layout, ShapedPuzzles, write_record};

/// Moves drawn for a record before the last is taken, though another split reads it otherwise:
/// about one in sixteen of a 6×6 3x2 puzzle's moves is read so, and few puzzles come near 64.
const MOVES_TRIED: usize = 64;

/// The equivalences of the shapes met so far, kept from batch to batch: a diagonal shape's group
/// is listed once.
#[derive(Default)]
pub struct Canons {
    known: Vec<(Shape, Canon)>,
}

impl Canons {
    /// The equivalence of `shape`.
    pub fn of(&mut self, shape: &Shape) -> &Canon {
        let at = match self.known.iter().position(|(s, _)| s == shape) {
            Some(at) => at,
            None => {
                self.known.push((shape.clone(), Canon::new(shape)));
                self.known.len() - 1
            }
        };
        &self.known[at].1
    }

    /// The equivalences of the shapes of `puzzles`, by shape index (none for records that carry
    /// their layout, which turns with them).
    fn of_all(&mut self, puzzles: &ShapedPuzzles) -> Vec<Option<&Canon>> {
        if !puzzles.prefixed {
            for shape in &puzzles.shapes {
                self.of(shape);
            }
        }
        let known = &self.known;
        puzzles
            .shapes
            .iter()
            .map(|shape| {
                let found = known.iter().find(|(s, _)| s == shape);
                found.filter(|_| !puzzles.prefixed).map(|(_, canon)| canon)
            })
            .collect()
    }
}

/// The class of record `index` of `puzzles`: its canonical form under `canon`, or without one
/// (a record that carries its layout), its layout's form and then its own.
fn class_of(puzzles: &ShapedPuzzles, canon: Option<&Canon>, index: usize) -> Vec<u8> {
    let cells = puzzles.puzzle(index);
    let shape = puzzles.shape(index);
    match (canon, shape.regions()) {
        (None, Regions::Jigsaw(region_of)) => {
            let (layout, form) = record::form(shape.size(), region_of, cells);
            [layout, form].concat()
        }
        (canon, _) => canon.map_or_else(|| Canon::new(shape).form(cells), |c| c.form(cells)),
    }
}

/// The classes of every record of `puzzles` (see `class_of`), in order.
pub fn classes(puzzles: &ShapedPuzzles, canons: &mut Canons) -> Vec<Vec<u8>> {
    let canons = canons.of_all(puzzles);
    (0..puzzles.len())
        .into_par_iter()
        .with_max_len(16)
        .map(|index| class_of(puzzles, canons[puzzles.shape_of[index] as usize], index))
        .collect()
}

/// Writes one `--canon` line of a class (see `class_of`) of a record of `shape`: the layout's
/// region names and a space first when it carries one, then the cells in the shape's alphabet,
/// `.` for a blank.
fn write_class(class: &[u8], shape: &Shape, out: &mut Vec<u8>) {
    let cells = shape.cells();
    let (layout, form) = class.split_at(class.len() - cells);
    if !layout.is_empty() {
        out.extend(layout.iter().map(|&r| LAYOUT_NAMES[usize::from(r)]));
        out.push(b' ');
    }
    // The form's values are labels, written in the alphabet's characters in sorted order: the
    // order a text shows when it is read without --symbols, so that the form of a form is
    // itself, whatever order --symbols gave.
    let mut glyphs = shape.symbols().as_bytes().to_vec();
    glyphs.sort_unstable();
    out.extend(form.iter().map(|&v| {
        if v == 0 {
            b'.'
        } else {
            glyphs[usize::from(v) - 1]
        }
    }));
    out.push(b'\n');
}

/// The `--canon` lines of every record of `puzzles`.
pub fn canonical_lines(puzzles: &ShapedPuzzles, canons: &mut Canons) -> Vec<u8> {
    let mut out = Vec::new();
    for (index, class) in classes(puzzles, canons).iter().enumerate() {
        write_class(class, puzzles.shape(index), &mut out);
    }
    out
}

/// The move of record `index` of `puzzles` drawn from `rng` (see [`Canons::of_all`] for
/// `canon`), and the layout it turns the record's to, when the record carries its layout.
fn random_move<R: rand::Rng>(
    puzzles: &ShapedPuzzles,
    canon: Option<&Canon>,
    index: usize,
    rng: &mut R,
) -> (Option<Vec<u8>>, Move) {
    let shape = puzzles.shape(index);
    match (canon, shape.regions()) {
        (None, Regions::Jigsaw(region_of)) => {
            let (layout, moved) = record::random_move(shape.size(), region_of, rng);
            (Some(layout), moved)
        }
        (Some(canon), _) => (None, canon.random_move(rng)),
        (None, _) => (None, Canon::new(shape).random_move(rng)),
    }
}

/// Every record of `puzzles` replaced by a random equivalent, written in `layout` (a record that
/// carries its layout as a `LAYOUT PUZZLE` line, its layout turned too). Record `k` draws from
/// its own generator, seeded from `seed` and `first_index + k`, so that the output depends on the
/// seed alone.
pub fn shuffled(
    puzzles: &ShapedPuzzles,
    canons: &mut Canons,
    seed: u64,
    first_index: usize,
    layout: Layout,
) -> Vec<u8> {
    let mut out = each_moved(
        puzzles,
        canons,
        seed,
        first_index,
        |index, turned, moved| {
            let (shape, moved) = (puzzles.shape(index), moved.apply(puzzles.puzzle(index)));
            let mut out = Vec::new();
            match turned {
                Some(turned) => write_class(&[turned, moved].concat(), shape, &mut out),
                None => write_record(&moved, shape, layout, false, &mut out),
            }
            out
        },
    );
    if matches!(layout, Layout::Grid { .. }) {
        out.pop();
    }
    out
}

/// The rows of a corpus replaced by random equivalents, drawn as [`shuffled`] draws them: row `k`
/// of `puzzles` and its solution (row `k` of `solutions`, where `solved` says it has one) moved
/// alike, written `PUZZLE,SOLUTION,LAYOUT` a line (see `RowResult::Replaced`): the solution empty
/// where the row has none, the layout empty unless the row carries its own (`puzzles.prefixed`),
/// which turns with its grids.
pub fn shuffled_rows(
    puzzles: &ShapedPuzzles,
    (solutions, solved): (&ShapedPuzzles, &[bool]),
    canons: &mut Canons,
    seed: u64,
    first_index: usize,
) -> Vec<u8> {
    each_moved(
        puzzles,
        canons,
        seed,
        first_index,
        |index, turned, moved| {
            let shape = puzzles.shape(index);
            let mut out = Vec::new();
            let field = |cells: &[u8], out: &mut Vec<u8>| {
                write_record(&moved.apply(cells), shape, Layout::Line, false, out);
                out.pop();
            };
            field(puzzles.puzzle(index), &mut out);
            out.push(b',');
            if solved[index] {
                field(solutions.puzzle(index), &mut out);
            }
            out.push(b',');
            let names = turned.iter().flatten();
            out.extend(names.map(|&r| LAYOUT_NAMES[usize::from(r)]));
            out.push(b'\n');
            out
        },
    )
}

/// The bytes `write` makes of each record of `puzzles` and its random move (with the record's
/// layout turned, where it carries one), joined in order: record `k` draws from its own
/// generator, seeded from `seed` and `first_index + k`.
fn each_moved<W>(
    puzzles: &ShapedPuzzles,
    canons: &mut Canons,
    seed: u64,
    first_index: usize,
    write: W,
) -> Vec<u8>
where
    W: Fn(usize, Option<Vec<u8>>, Move) -> Vec<u8> + Sync,
{
    let canons = canons.of_all(puzzles);
    let records: Vec<Vec<u8>> = (0..puzzles.len())
        .into_par_iter()
        .with_max_len(64)
        .map(|index| {
            let mut rng = rng_of(seed, first_index + index);
            let canon = canons[puzzles.shape_of[index] as usize];
            let mut drawn = random_move(puzzles, canon, index, &mut rng);
            let (shape, puzzle) = (puzzles.shape(index), puzzles.puzzle(index));
            // The reader takes the default split where a record alone fits it as well: a move
            // that makes such a text of a record of another split is drawn again.
            for _ in 1..MOVES_TRIED {
                if !misread_elsewhere(shape, &drawn.1.apply(puzzle)) {
                    break;
                }
                drawn = random_move(puzzles, canon, index, &mut rng);
            }
            let (turned, moved) = drawn;
            write(index, turned, moved)
        })
        .collect();
    records.concat()
}
