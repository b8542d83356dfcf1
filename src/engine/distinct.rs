//! The one dedupe-and-retry loop of `-n`, for every kernel.
//!
//! Item `k` of a request is made from attempt series 0 of its own random generator; when that
//! attempt fails, or gives an item whose key an earlier one has, item `k` is made again from series
//! 1, then 2, and so on. Every attempt is a function of the seed, the index and the series alone,
//! and repeats are settled in index order, so the items are a function of the seed whatever the
//! thread count. A round makes every missing item at once, over the current rayon pool.

use std::collections::HashSet;
use std::hash::Hash;

use rayon::prelude::*;

/// How many attempts that gave nothing an index may make for each that gave a repeat. A repeat is
/// the sign that the shape may hold no more items; nothing, that the item asked for is rare (a
/// level of one puzzle in a few hundred grids), which the requests screen for being possible
/// before they start.
const EMPTY_PER_REPEAT: u64 = 16;

/// Makes `count` items with distinct keys: item `k` is the first of `make(state, k, 0)`,
/// `make(state, k, 1)`, ... that is `Some` with a key no earlier item has (see the module
/// documentation); `state` is made once per thread by `init`. An index still without an item after
/// `most_series` series that gave repeats, or `EMPTY_PER_REPEAT` times as many that gave
/// nothing, ends the loop: `Err` holds the items made by then.
pub fn distinct<T, K, S>(
    count: usize,
    most_series: u64,
    init: impl Fn() -> S + Sync + Send,
    make: impl Fn(&mut S, u64, u64) -> Option<T> + Sync + Send,
    key: impl Fn(&T) -> K + Sync + Send,
) -> Result<Vec<T>, Shortfall<T>>
where
    T: Send,
    K: Hash + Eq + Send,
{
    let mut items: Vec<Option<T>> = (0..count).map(|_| None).collect();
    let mut seen = HashSet::with_capacity(count);
    let budget = most_series.saturating_mul(EMPTY_PER_REPEAT);
    // The indices still missing an item, with the series of their next attempt and what their
    // attempts so far have spent of the budget.
    let mut missing: Vec<(usize, u64, u64)> = (0..count).map(|k| (k, 0, 0)).collect();
    while !missing.is_empty() {
        let made: Vec<Option<(T, K)>> = missing
            .par_iter()
            .map_init(&init, |state, &(k, series, _)| {
                make(state, k as u64, series).map(|item| {
                    let key = key(&item);
                    (item, key)
                })
            })
            .collect();
        let mut again = Vec::new();
        for ((k, series, spent), attempt) in missing.into_iter().zip(made) {
            let cost = match attempt {
                Some((item, key)) if !seen.contains(&key) => {
                    seen.insert(key);
                    items[k] = Some(item);
                    continue;
                }
                Some(_) => EMPTY_PER_REPEAT,
                None => 1,
            };
            let spent = spent.saturating_add(cost);
            if spent >= budget {
                return Err(Shortfall(items));
            }
            again.push((k, series + 1, spent));
        }
        missing = again;
    }
    Ok(items.into_iter().flatten().collect())
}

/// The items [`distinct`] had made, by index, when an index ran out of series: those of the
/// rounds before, and of the indices before it in its round.
#[derive(Debug, PartialEq, Eq)]
pub struct Shortfall<T>(pub Vec<Option<T>>);

impl<T> Shortfall<T> {
    /// How many items were made.
    pub fn made(&self) -> usize {
        self.0.iter().flatten().count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_and_failures_are_made_again_from_the_next_series() {
        // Item k's series s is k + s; odd values fail. Round 1 keeps 0 and 2; round 2 gives item
        // 1 a repeat (2) and item 3 a 4; item 1 fails on 3, repeats 4, fails on 5, keeps 6.
        let items = distinct(
            4,
            10,
            || (),
            |_, k, s| Some(k + s).filter(|v| v % 2 == 0),
            |&v| v,
        )
        .unwrap();
        assert_eq!(items, [0, 6, 2, 4]);
    }

    #[test]
    fn an_index_that_runs_out_of_series_says_how_many_were_made() {
        let shortfall = distinct(5, 3, || (), |_, _, s| Some(s), |&v| v).unwrap_err();
        // Round 1 keeps item 0's 0, round 2 item 1's 1, round 3 item 2's 2; item 3 then runs out.
        assert_eq!(
            shortfall,
            Shortfall(vec![Some(0), Some(1), Some(2), None, None])
        );
        assert_eq!(shortfall.made(), 3);
    }

    #[test]
    fn attempts_that_give_nothing_spend_less_of_the_budget_than_repeats() {
        // Item 1 finds nothing until series 40, past the 3 series a repeat may take, within the
        // 48 that giving nothing may.
        let items = distinct(
            2,
            3,
            || (),
            |_, k, s| (k == 0 || s == 40).then_some(k),
            |&v| v,
        );
        assert_eq!(items.unwrap(), [0, 1]);
        let shortfall = distinct(
            2,
            3,
            || (),
            |_, k, s| (k == 0 || s == 48).then_some(k),
            |&v| v,
        );
        assert_eq!(shortfall.unwrap_err().made(), 1);
    }

    #[test]
    fn the_items_do_not_depend_on_the_thread_count() {
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| distinct(1000, 50, || (), |_, k, s| Some((k * 7 + s) % 900), |&v| v))
        };
        assert_eq!(run(1), run(4));
    }
}
