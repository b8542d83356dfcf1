//! A progress bar on stderr for long runs, drawn only where a person watches: when stderr is a
//! terminal and the run is long enough to want one. Elsewhere every call does nothing.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// Runs shorter than this many items finish before a bar would tell anything.
const LEAST_ITEMS: usize = 2000;

/// The progress of a run over a known number of items.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// Progress over `total` items, called `items` on the bar.
    pub fn new(total: usize, items: &str) -> Progress {
        let shown = std::io::stderr().is_terminal() && total >= LEAST_ITEMS;
        Progress(shown.then(|| {
            let template = format!("{{bar:40}} {{pos}}/{{len}} {items}, {{per_sec}}, {{eta}} left");
            ProgressBar::new(total as u64).with_style(
                ProgressStyle::with_template(&template)
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            )
        }))
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
