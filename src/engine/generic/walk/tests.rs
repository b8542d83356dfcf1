//! The walk against the solver's counts, and its grids: valid, distinct, the same at any thread
//! count, with the top-left symbol asked for.

use super::*;
use crate::engine::generic::solve::Solver;
use crate::model::symbols::Symbols;

fn shape(size: usize, diagonal: bool) -> Shape {
    Shape::boxed(size, None, diagonal, Symbols::default_for(size)).unwrap()
}

#[test]
fn the_walk_counts_what_the_solver_counts() {
    for shape in [shape(4, false), shape(4, true)] {
        let all = Solver::new(&shape).count(&[0; 16], usize::MAX, &mut [0; 16]);
        assert_eq!(count_grids(&shape, None, usize::MAX), all);
    }
    assert_eq!(count_grids(&shape(4, false), None, usize::MAX), 288);
}

#[test]
fn relabellings_are_every_order_once() {
    let all = relabellings(4);
    assert_eq!(all.len(), 24);
    assert_eq!(all[1][..4], [0, 1, 3, 2]);
    assert_eq!(all[23][..4], [3, 2, 1, 0]);
    let distinct: std::collections::HashSet<_> = relabellings(6).into_iter().collect();
    assert_eq!(distinct.len(), 720);
}

#[test]
fn too_few_grids_write_nothing_and_say_how_many() {
    let request = ShapedGrids {
        shape: shape(4, false),
        count: 289,
        seed: 1,
        format: Format::Line,
        shard: None,
        first: None,
    };
    assert!(matches!(
        render_grids(&request),
        Err(Error::TooFewGrids {
            asked: 289,
            exist: 288,
            shard: None,
            first: None,
        })
    ));
}

#[test]
fn the_output_does_not_depend_on_the_thread_count() {
    for (shape, count) in [(shape(16, false), 3000), (shape(4, false), 100)] {
        let request = ShapedGrids {
            shape,
            count,
            seed: 4,
            format: Format::Grid,
            shard: None,
            first: None,
        };
        let on = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| render_grids(&request).unwrap())
        };
        assert_eq!(on(1), on(3));
    }
}

#[test]
fn grids_are_valid_and_distinct() {
    let request = ShapedGrids {
        shape: shape(6, true),
        count: 500,
        seed: 9,
        format: Format::Line,
        shard: None,
        first: None,
    };
    let text = render_grids(&request).unwrap();
    let lines: std::collections::HashSet<&[u8]> = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(lines.len(), 500);
    for line in lines {
        let grid: Vec<u8> = line
            .iter()
            .map(|&ch| request.shape.symbols().value_of(ch))
            .collect();
        assert!(request.shape.first_repeat(&grid).is_none() && !grid.contains(&0));
    }
}

#[test]
fn the_shards_of_a_seed_split_every_grid_between_them() {
    let mut all = std::collections::HashSet::new();
    for index in 1..=3 {
        let mut request = ShapedGrids {
            shape: shape(4, false),
            count: 289,
            seed: 5,
            format: Format::Line,
            shard: crate::model::shard::Shard::new(index, 3).ok(),
            first: None,
        };
        let Err(Error::TooFewGrids { exist, .. }) = render_grids(&request) else {
            panic!("a shard holds fewer grids than the shape");
        };
        if exist == 0 {
            continue;
        }
        request.count = exist;
        let text = render_grids(&request).unwrap();
        for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            assert!(all.insert(line.to_vec()), "shard {index}/3: a grid repeats");
        }
    }
    assert_eq!(all.len(), 288);
}

/// The grids of `request` in the line format, each checked complete and valid and, with
/// `first`, starting with it; asserts that they are distinct.
fn lines_of(request: &ShapedGrids) -> Vec<Vec<u8>> {
    let text = render_grids(request).unwrap();
    let symbols = request.shape.symbols();
    let grids: Vec<Vec<u8>> = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|line| line.iter().map(|&ch| symbols.value_of(ch)).collect())
        .collect();
    let distinct: std::collections::HashSet<_> = grids.iter().collect();
    assert_eq!(
        (grids.len(), distinct.len()),
        (request.count, request.count)
    );
    for grid in &grids {
        assert!(request.shape.first_repeat(grid).is_none() && !grid.contains(&0));
        assert!(request.first.is_none_or(|value| grid[0] == value));
    }
    grids
}

#[test]
fn a_top_left_value_is_counted_among_every_grid() {
    for shape in [shape(4, false), shape(4, true)] {
        let all = count_grids(&shape, None, usize::MAX);
        for value in 1..=4 {
            assert_eq!(count_grids(&shape, Some(value), usize::MAX), all / 4);
        }
    }
    let request = ShapedGrids {
        shape: shape(4, false),
        count: 73,
        seed: 2,
        format: Format::Line,
        shard: None,
        first: Some(3),
    };
    assert!(matches!(
        render_grids(&request),
        Err(Error::TooFewGrids {
            asked: 73,
            exist: 72,
            shard: None,
            first: Some('3'),
        })
    ));
    assert_eq!(
        lines_of(&ShapedGrids {
            count: 72,
            ..request
        })
        .len(),
        72
    );
}

#[test]
fn every_grid_starts_with_the_value_asked_at_any_thread_count() {
    let cases = [
        (shape(6, true), 300, 5),
        (shape(9, true), 400, 2),
        (shape(12, false), 6000, 12),
        (shape(16, false), 12000, 16),
    ];
    for (shape, count, value) in cases {
        let request = ShapedGrids {
            shape,
            count,
            seed: 7,
            format: Format::Line,
            shard: None,
            first: Some(value),
        };
        let on = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| lines_of(&request))
        };
        assert_eq!(on(1), on(3));
    }
}
