//! A progress bar on stderr for long runs, drawn only where a person watches: when stderr is a
//! terminal, `--quiet` is not given, and the run is long enough to want one. Elsewhere every call
//! does nothing.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

/// Runs shorter than this many items finish before a bar would tell anything.
const LEAST_ITEMS: usize = 2000;

/// Inputs shorter than this many bytes are read before a bar would tell anything.
const LEAST_BYTES: u64 = 8 << 20;

static QUIET: AtomicBool = AtomicBool::new(false);

/// No bar from now on (`--quiet`).
pub fn silence() {
    QUIET.store(true, Ordering::Relaxed);
}

fn watched() -> bool {
    !QUIET.load(Ordering::Relaxed) && std::io::stderr().is_terminal()
}

/// The progress of a run over a known number of items.
pub struct Progress(Option<ProgressBar>);

/// The progress of a run through an input, by its bytes when its length is known: items done, their
/// rate, and the time left.
pub struct InputProgress {
    bar: Option<ProgressBar>,
    items: String,
    done: usize,
    started: Instant,
}

impl InputProgress {
    /// Progress through an input of `len` bytes (unknown for a stream), whose items are called
    /// `items`.
    pub fn new(len: Option<u64>, items: &str) -> InputProgress {
        let bar = watched().then(|| match len {
            Some(len) if len >= LEAST_BYTES => ProgressBar::new(len).with_style(
                ProgressStyle::with_template("{bar:40} {msg}, {eta} left")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            ),
            Some(_) => ProgressBar::hidden(),
            None => ProgressBar::new_spinner(),
        });
        InputProgress {
            bar,
            items: items.to_owned(),
            done: 0,
            started: Instant::now(),
        }
    }

    /// `items` more items done, read from `bytes` more bytes of the input.
    pub fn advance(&mut self, items: usize, bytes: usize) {
        self.done += items;
        if let Some(bar) = &self.bar {
            let seconds = self.started.elapsed().as_secs_f64().max(1e-3);
            bar.inc(bytes as u64);
            bar.set_message(format!(
                "{} {}, {:.0}/s",
                self.done,
                self.items,
                self.done as f64 / seconds
            ));
        }
    }

    /// Takes the bar off the terminal.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Progress {
    /// Progress over `total` items, called `items` on the bar.
    pub fn new(total: usize, items: &str) -> Progress {
        Progress::shown_from(total, items, LEAST_ITEMS)
    }

    /// Progress over `total` items, a bar only from `least` items on.
    fn shown_from(total: usize, items: &str, least: usize) -> Progress {
        let shown = watched() && total >= least;
        Progress(shown.then(|| {
            let template = format!("{{bar:40}} {{pos}}/{{len}} {items}, {{per_sec}}, {{eta}} left");
            ProgressBar::new(total as u64).with_style(
                ProgressStyle::with_template(&template)
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            )
        }))
    }

    /// Progress over `total` items that each take long, called `items`: a bar at any total.
    pub fn slow(total: usize, items: &str) -> Progress {
        Progress::shown_from(total, items, 1)
    }

    /// One more item done.
    pub fn advance(&self) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
        }
    }

    /// Takes the bar off the terminal.
    pub fn finish(self) {
        if let Some(bar) = self.0 {
            bar.finish_and_clear();
        }
    }
}
