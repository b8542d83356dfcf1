//! `sudoku-gen`: parses the arguments, runs the library, and maps the outcome to an exit code:
//! 0 done, 1 a data or I/O problem (reported on stderr), 2 a usage error (reported by clap).

mod cli;

use std::process::ExitCode;

use cli::Finished;

#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: sudoku_gen::memory::HugePageAllocator = sudoku_gen::memory::HugePageAllocator;

fn main() -> ExitCode {
    match cli::run(cli::Cli::parse_invocation()) {
        Ok(Finished::Clean) => ExitCode::SUCCESS,
        Ok(Finished::WithProblems) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("sudoku-gen: error: {error}");
            ExitCode::FAILURE
        }
    }
}
