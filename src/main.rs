//! `sudoku-gen`: parses the arguments, runs the library, and maps the outcome to an exit code:
//! 0 done, 1 a data or I/O problem, 2 a usage error, each reported on stderr here alone.

mod cli;

use std::process::ExitCode;

use clap::CommandFactory;
use clap::error::ErrorKind;
use signal_hook::consts::{
    SIGALRM, SIGHUP, SIGINT, SIGPROF, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGXCPU,
};
use signal_hook::iterator::Signals;
use sudoku_gen::Error;
use sudoku_gen::jobs::Job;

#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: sudoku_gen::io::memory::HugePageAllocator =
    sudoku_gen::io::memory::HugePageAllocator;

/// The signals that end a run from outside and can be caught: Ctrl-C, `kill`, a closed terminal,
/// Ctrl-\, and those whose default action is to end the process (timers, user signals, CPU limit,
/// power failure, coprocessor stack fault). The signals of faults are handled apart, in the
/// faulting thread (see `remove_replacements_on_faults`).
#[cfg(target_os = "linux")]
const ENDING_SIGNALS: [i32; 12] = [
    SIGINT,
    SIGTERM,
    SIGHUP,
    SIGQUIT,
    SIGUSR1,
    SIGUSR2,
    SIGALRM,
    SIGVTALRM,
    SIGPROF,
    SIGXCPU,
    libc::SIGPWR,
    libc::SIGSTKFLT,
];
#[cfg(not(target_os = "linux"))]
const ENDING_SIGNALS: [i32; 10] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
];

/// The exit code of a usage error.
const USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = match cli::parse() {
        Ok(cli) => cli,
        // Help and version go to standard output, usage errors to standard error; a failed write
        // of either is an error, not a success.
        Err(error) => {
            let code = if error.use_stderr() { USAGE } else { 0 };
            match error.print() {
                Err(failed) if failed.kind() != std::io::ErrorKind::BrokenPipe => {
                    report(format_args!(
                        "sudoku-gen: error: {}",
                        Error::io("standard output", failed)
                    ));
                    return ExitCode::FAILURE;
                }
                _ => {}
            }
            return ExitCode::from(code);
        }
    };
    let request = cli.request();
    // A write past the file size limit (`ulimit -f`) is an error to report, on standard output as
    // with -o, not a signal that ends the process without a word.
    // SAFETY: setting a signal to be ignored installs no code and touches no memory.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    // Only runs that write a file, and the grader with its programs and folders, leave something
    // behind when they are stopped; the others keep the system's handling, and the start-up time
    // of a thread.
    if let Ok(request) = &request
        && (request.output.is_some() || matches!(request.job, Job::Grade { .. }))
        && let Err(error) = clean_up_before_ending_on_signals()
    {
        report(format_args!("sudoku-gen: error: signal handling: {error}"));
        return ExitCode::FAILURE;
    }
    match request.and_then(sudoku_gen::jobs::run) {
        Ok(finished) => {
            for message in &finished.messages {
                report(format_args!("{message}"));
            }
            if finished.with_problems {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(Error::Usage(message)) => {
            let _ = cli::Cli::command()
                .error(ErrorKind::ArgumentConflict, message)
                .print();
            ExitCode::from(USAGE)
        }
        Err(Error::Unusable(message)) => {
            report(format_args!("{message}"));
            ExitCode::from(USAGE)
        }
        Err(error) => {
            report(format_args!("sudoku-gen: error: {error}"));
            ExitCode::FAILURE
        }
    }
}

/// Writes `message` and a line end on standard error. A standard error closed (`2>&-`, or a pipe
/// whose reader has gone) loses the message, not the exit code: `eprintln!` would panic there.
fn report(message: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// A thread waits for the [`ENDING_SIGNALS`]: on one, it removes the temporary file of `-o FILE`,
/// kills the grader's programs and removes their folders, then ends the process as the signal
/// would have (a shell shows 128 plus its number), or with exit code 1 after a failed allocation
/// (see `io::memory`). A file grown past `ulimit -f` becomes a write error, reported and cleaned
/// up like a full disk, rather than a signal that would end the process on the spot.
fn clean_up_before_ending_on_signals() -> std::io::Result<()> {
    let mut signals = Signals::new(ENDING_SIGNALS)?;
    // The real-time signals end a process by default too.
    #[cfg(target_os = "linux")]
    for signal in libc::SIGRTMIN()..=libc::SIGRTMAX() {
        signals.add_signal(signal)?;
    }
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(caught) = signals.forever().next() {
                let signal = sudoku_gen::io::replacement::forwarded_signal().unwrap_or(caught);
                sudoku_gen::io::replacement::abandon_replacements();
                sudoku_gen::grade::abandon_runs();
                if sudoku_gen::io::memory::allocation_failed() {
                    // The run's own signal: the allocator has said what failed.
                    std::process::exit(1);
                }
                // Resets the signal's action to the default, and raises it again; the signals
                // signal-hook has no default for (SIGPWR, SIGSTKFLT) end the process by default.
                if signal_hook::low_level::emulate_default_handler(signal).is_err() {
                    // SAFETY: resetting an action to the default and raising the signal touch no
                    // memory of the process.
                    unsafe {
                        libc::signal(signal, libc::SIG_DFL);
                        libc::raise(signal);
                    }
                }
                std::process::exit(128 + signal);
            }
        })?;
    sudoku_gen::io::memory::fail_allocations_by_signal();
    sudoku_gen::io::replacement::remove_replacements_on_faults()
}
