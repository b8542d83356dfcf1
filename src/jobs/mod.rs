//! The jobs, each written once over the engine.

pub mod rate;
pub mod solve;
