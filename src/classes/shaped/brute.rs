//! The plain twins of the searches: every permutation of rows and of columns, transposed or not,
//! tried against the houses of a small shape, and the smallest line over all that keep them.

use std::collections::HashSet;

use super::{Arrangement, first_appearance};
use crate::model::shape::Shape;

/// Every permutation of 0..n.
fn permutations(n: usize) -> Vec<Vec<u8>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for shorter in permutations(n - 1) {
        for at in 0..n {
            let mut p = shorter.clone();
            p.insert(at, (n - 1) as u8);
            all.push(p);
        }
    }
    all
}

/// Every arrangement that maps each house of `shape` onto a house, found by trying them all.
pub(super) fn group(shape: &Shape) -> Vec<Arrangement> {
    let n = shape.size();
    let houses: HashSet<u64> = shape
        .houses()
        .iter()
        .map(|h| h.iter().fold(0u64, |m, &c| m | 1 << c))
        .collect();
    let perms = permutations(n);
    let mut found = Vec::new();
    for transpose in [false, true] {
        for rows in &perms {
            for columns in &perms {
                let source = |cell: usize| {
                    let (r, c) = (usize::from(rows[cell / n]), usize::from(columns[cell % n]));
                    if transpose { c * n + r } else { r * n + c }
                };
                let keeps = shape.houses().iter().all(|house| {
                    let image = house
                        .iter()
                        .fold(0u64, |m, &c| m | 1 << source(usize::from(c)));
                    houses.contains(&image)
                });
                if keeps {
                    found.push(Arrangement {
                        transpose,
                        rows: rows.clone(),
                        columns: columns.clone(),
                    });
                }
            }
        }
    }
    found
}

/// The turns of the square that map each region of `shape` onto a region.
pub(super) fn turns_kept(shape: &Shape) -> Vec<Arrangement> {
    let n = shape.size();
    let regions = &shape.houses()[2 * n..3 * n];
    let houses: HashSet<u64> = regions
        .iter()
        .map(|h| h.iter().fold(0u64, |m, &c| m | 1 << c))
        .collect();
    let forward: Vec<u8> = (0..n as u8).collect();
    let backward: Vec<u8> = forward.iter().rev().copied().collect();
    let mut found = Vec::new();
    for transpose in [false, true] {
        for rows in [&forward, &backward] {
            for columns in [&forward, &backward] {
                let a = Arrangement {
                    transpose,
                    rows: rows.clone(),
                    columns: columns.clone(),
                };
                if regions.iter().all(|house| {
                    houses.contains(
                        &house
                            .iter()
                            .fold(0u64, |m, &c| m | 1 << a.source(usize::from(c))),
                    )
                }) {
                    found.push(a);
                }
            }
        }
    }
    found
}

/// The smallest line of `cells` over `group`, each line relabelled in order of first appearance.
pub(super) fn smallest(group: &[Arrangement], cells: &[u8]) -> Vec<u8> {
    group
        .iter()
        .map(|a| first_appearance(&a.apply(cells)))
        .min()
        .expect("the identity")
}
