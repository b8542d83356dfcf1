//! The shape a request asks for, before its size is known: `-s` and `--check` may take it from
//! their input.

use rand::Rng;

use super::layout::{read_layout, region_count};
use super::shape::{SIZES, Shape, ShapeError};
use super::symbols::Symbols;

/// The guesses spent looking for a complete grid of a random layout before another is drawn.
const LAYOUT_GUESSES: usize = 2000;

/// How many random layouts are drawn at most.
const RANDOM_LAYOUTS: usize = 200;

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
    /// `--diagonal`.
    pub diagonal: bool,
    /// `--symbols STR`.
    pub symbols: Option<Vec<u8>>,
}

impl ShapeRequest {
    /// Whether no shape flag was given at all.
    pub fn is_unspecified(&self) -> bool {
        *self == ShapeRequest::default()
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

    /// The shape of size `size`; a random layout is drawn from `rng` until the solver finds a
    /// complete grid for one within a few thousand guesses (a few hundred layouts at most).
    pub fn shape<R: Rng + ?Sized>(&self, size: usize, rng: &mut R) -> Result<Shape, ShapeError> {
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
            None => Shape::boxed(size, self.split, self.diagonal, symbols),
            Some(_) if self.split.is_some() => Err(ShapeError::Layout {
                place: None,
                problem: "--box and --jigsaw cannot both give the regions".into(),
            }),
            Some(LayoutSource::Text { text, name }) => {
                Shape::jigsaw(text, Some(size), self.diagonal, Some(symbols)).map_err(|error| {
                    ShapeError::Layout {
                        place: Some(format!("{name}:{}:{}", error.line, error.column)),
                        problem: error.problem,
                    }
                })
            }
            Some(LayoutSource::Random) => {
                let empty = vec![0; size * size];
                let mut grid = empty.clone();
                for _ in 0..RANDOM_LAYOUTS {
                    let shape = Shape::random_jigsaw(size, self.diagonal, symbols, rng);
                    let mut solver = crate::engine::generic::solve::Solver::new(&shape);
                    if solver.count_within(&empty, 1, &mut grid, LAYOUT_GUESSES) == Some(1) {
                        return Ok(shape);
                    }
                }
                Err(ShapeError::Layout {
                    place: None,
                    problem: format!(
                        "none of {RANDOM_LAYOUTS} random layouts of this size had a complete grid the solver found quickly"
                    ),
                })
            }
        }
    }
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
