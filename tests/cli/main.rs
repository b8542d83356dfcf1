//! The integration tests, one module per concern, in one test binary: each binary of its own would
//! be linked on its own, and linking is most of what building the tests costs.

#[path = "../common/mod.rs"]
mod common;

mod check;
mod check_bounds;
mod classes;
mod closed_reader;
mod corpus_classes;
mod corpus_shapes;
mod findings;
mod findings_csv;
mod findings_diagonal;
mod findings_fifth;
mod findings_form;
mod findings_hostile;
mod findings_low;
mod findings_messages;
mod findings_more;
mod findings_third;
mod first;
mod generate;
mod generic_hangs;
mod grade;
mod grade_processes;
mod hard;
mod hard_shapes;
mod input;
mod levels_shapes;
mod output;
mod properties;
mod puzzles;
mod puzzles_first;
mod rate_shapes;
mod read_backs;
mod reliability;
mod shape_classes;
mod shapes;
mod shard;
mod shuffle_csv;
mod solve;
mod stream;
