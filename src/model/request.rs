//! The shape a request asks for, before its size is known: `-s` and `--check` may take it from
//! their input.

use rand::Rng;

use super::layout::{read_layout, region_count};
use super::shape::{Regions, SIZES, Shape, ShapeError};
use super::symbols::Symbols;
use crate::engine::generic::solve::Solver;

/// The guesses per cell the solver may spend drawing a complete grid of a random layout.
const LAYOUT_GUESSES_PER_CELL: usize = 20;

/// The rounds of trades a random layout grows by (see [`random_layout`]).
const LAYOUT_ROUNDS: usize = 8;

/// The growths a round may try before the layout of the round before is kept for it.
const TRIES_PER_ROUND: usize = 2;

/// Where a jigsaw layout comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutSource {
    /// The text of a layout file, and the name it was given by.
    Text {
        /// The file's contents.
        text: Vec<u8>,
        /// The file's name as given (`<stdin>` for `-`).
        name: String,
    },
    /// A layout drawn from the seed.
    Random,
}

/// What the command line says of the diagonals of X-Sudoku.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Diagonals {
    /// Nothing: a shape made has none, and a text read tells them (see `text/boxes.rs`).
    #[default]
    Told,
    /// `--diagonal`: both main diagonals are houses.
    Houses,
    /// `--diagonal=no`: they are not, and a text read is not searched for them.
    Refused,
}

/// The shape the command line asks for, before N is known (`-s` and `--check` may take it from
/// their input).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShapeRequest {
    /// `--size N`.
    pub size: Option<usize>,
    /// `--box RxC`.
    pub split: Option<(usize, usize)>,
    /// `--jigsaw LAYOUT`.
    pub layout: Option<LayoutSource>,
    /// `--diagonal` or `--diagonal=no`.
    pub diagonal: Diagonals,
    /// `--symbols STR`.
    pub symbols: Option<Vec<u8>>,
    /// The first records of the input told what the flags left open (see [`ShapeRequest::settle`]).
    pub settled: bool,
}

impl ShapeRequest {
    /// Whether no shape flag was given at all, or only `--diagonal=no`: the shape is then the
    /// standard one, or an input's own, told from its text as without flags but for its
    /// diagonals.
    pub fn is_unspecified(&self) -> bool {
        let plain = ShapeRequest {
            diagonal: Diagonals::Told,
            ..self.clone()
        };
        plain == ShapeRequest::default() && self.diagonal != Diagonals::Houses
    }

    /// Whether the diagonals are houses of the shape asked for.
    pub fn diagonal_houses(&self) -> bool {
        self.diagonal == Diagonals::Houses
    }

    /// Keeps the size, the box split, the diagonals and the symbols the first records of an input were read with, so that
    /// the rest of it, read a piece at a time, is read alike.
    pub fn settle(&mut self, shape: &Shape) {
        self.settled = true;
        self.size = Some(shape.size());
        self.diagonal = if shape.diagonal() {
            Diagonals::Houses
        } else {
            Diagonals::Refused
        };
        self.symbols = Some(shape.symbols().as_bytes().to_vec());
        if self.layout.is_none()
            && let Regions::Boxes { rows, columns } = *shape.regions()
        {
            self.split = Some((rows, columns));
        }
    }

    /// N, when the flags decide it: `--size`, else the length of `--symbols`, else the side of a
    /// jigsaw layout.
    pub fn known_size(&self) -> Option<usize> {
        self.size
            .or(self.symbols.as_ref().map(Vec::len))
            .or_else(|| match &self.layout {
                Some(LayoutSource::Text { text, .. }) => {
                    read_layout(text, None).ok().map(|r| region_count(&r))
                }
                _ => None,
            })
    }

    /// `error`, of the shape these flags ask for, in their words: a prime size that the length
    /// of `--symbols` gave is said of them, not of a `--size` that was not given. (Not for a
    /// request whose symbols were told from a text, whose size the text gave too.)
    pub fn in_words_of_flags(&self, error: ShapeError) -> ShapeError {
        match (error, &self.symbols) {
            (ShapeError::PrimeSize(size), Some(text)) if self.size.is_none() => {
                ShapeError::Symbols {
                    text: String::from_utf8_lossy(text).into_owned(),
                    problem: format!(
                        "{size} symbols make {size}×{size} grids, a prime size, which has no boxes; \
                     give its regions with --jigsaw"
                    ),
                }
            }
            (error, _) => error,
        }
    }

    /// The shape of size `size`; a random layout is grown from `rng` around a random grid of the
    /// boxes (which it keeps valid) until the solver finds a complete grid for one within a few
    /// thousand guesses (a few hundred layouts at most).
    pub fn shape<R: Rng + ?Sized>(&self, size: usize, rng: &mut R) -> Result<Shape, ShapeError> {
        Ok(self.drawn(self.undrawn_shape(size)?, rng))
    }

    /// `undrawn`, the shape [`ShapeRequest::undrawn_shape`] made, with its random layout drawn
    /// if these flags ask for one.
    pub fn drawn<R: Rng + ?Sized>(&self, undrawn: Shape, rng: &mut R) -> Shape {
        match &self.layout {
            Some(LayoutSource::Random) => random_layout(undrawn, rng),
            _ => undrawn,
        }
    }

    /// The shape of size `size` as [`ShapeRequest::shape`] makes it, but for a random layout the
    /// regions it is grown from: the symbols, diagonals and size are those of the shape to be
    /// drawn, so that every refusal that needs no layout comes before the draw, which takes a
    /// second at 25×25.
    pub fn undrawn_shape(&self, size: usize) -> Result<Shape, ShapeError> {
        if !SIZES.contains(&size) {
            return Err(match &self.symbols {
                // The size came from the symbols: the message names them, not a --size not given.
                Some(text) if self.size.is_none() => ShapeError::Symbols {
                    text: String::from_utf8_lossy(text).into_owned(),
                    problem: format!("{} symbols; expected 4 to 25", text.len()),
                },
                _ => ShapeError::Size(size),
            });
        }
        let symbols = match &self.symbols {
            Some(text) if text.len() != size => {
                return Err(ShapeError::Symbols {
                    text: String::from_utf8_lossy(text).into_owned(),
                    problem: format!("{} symbols; expected {size}", text.len()),
                });
            }
            Some(text) => Symbols::new(text).map_err(|problem| ShapeError::Symbols {
                text: String::from_utf8_lossy(text).into_owned(),
                problem,
            })?,
            None => Symbols::default_for(size),
        };
        match &self.layout {
            None => Shape::boxed(size, self.split, self.diagonal_houses(), symbols),
            Some(_) if self.split.is_some() => Err(ShapeError::Layout {
                place: None,
                problem: "--box and --jigsaw cannot both give the regions".into(),
            }),
            Some(LayoutSource::Text { text, name }) => {
                Shape::jigsaw(text, Some(size), self.diagonal_houses(), Some(symbols)).map_err(
                    |error| ShapeError::Layout {
                        place: Some(format!("{name}:{}:{}", error.line, error.column)),
                        problem: error.problem,
                    },
                )
            }
            Some(LayoutSource::Random) => {
                Ok(Shape::jigsaw_start(size, self.diagonal_houses(), symbols))
            }
        }
    }
}

/// A random jigsaw layout grown from `start` in rounds: each round the solver finds a complete
/// grid of the layout so far, and cells of equal value in it are traded between regions (see
/// [`Shape::random_jigsaw`]), so that every layout has a grid and the solver is seen to find one
/// quickly. A growth whose grid the solver does not find within its guesses is dropped, and the
/// next grows from the layout before it.
fn random_layout<R: Rng + ?Sized>(start: Shape, rng: &mut R) -> Shape {
    let cells = start.cells();
    let empty = vec![0; cells];
    // The search `-c` and `-n` look for a first grid with (`check_has_grid`), with fewer
    // guesses: a layout it fills here it fills there.
    let fill = |shape: &Shape| {
        let mut grid = empty.clone();
        let found =
            Solver::new(shape).count_within(&empty, 1, &mut grid, LAYOUT_GUESSES_PER_CELL * cells);
        (found == Some(1)).then_some(grid)
    };
    // The first grid is drawn at random: the solver's first grid of boxes is so regular that
    // few of its equal values touch across a region's edge, and few trades would be found.
    let mut witness = empty.clone();
    let drawn = Solver::new(&start).random_solution(
        &empty,
        rng.next_u64(),
        &mut witness,
        LAYOUT_GUESSES_PER_CELL * cells,
    );
    let mut shape = start;
    if drawn != Some(true) {
        return shape;
    }
    for _ in 0..LAYOUT_ROUNDS * TRIES_PER_ROUND {
        let grown = Shape::random_jigsaw(&shape, &witness, rng);
        if let Some(next) = fill(&grown) {
            (shape, witness) = (grown, next);
        }
    }
    shape
}

/// A `--box` argument `RxC`.
pub fn parse_box(text: &str) -> Result<(usize, usize), ShapeError> {
    let syntax = || ShapeError::BoxSyntax(text.to_owned());
    let (rows, columns) = text.split_once(['x', 'X']).ok_or_else(syntax)?;
    let number = |s: &str| {
        (!s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    Ok((
        number(rows).ok_or_else(syntax)?,
        number(columns).ok_or_else(syntax)?,
    ))
}
