//! Regression tests of message findings: a problem named by what it is and where it stands,
//! once. Each test is named after its bug and runs the real binary.

use crate::common::run_ok;
use crate::findings::run_on_endless_stream;

#[test]
fn a_quote_left_open_in_a_streamed_csv_was_reported_as_an_empty_piece() {
    // The stream was cut after the header, the one record end before the quote, and that piece
    // of no rows was taken for a stream of empty lines.
    for shape in [&[][..], &["--size", "6"]] {
        let corpus = run_ok(&[&["-n", "2", "--seed", "1", "--format", "csv"], shape].concat());
        let header = corpus.split_inclusive(|&b| b == b'\n').next().unwrap();
        let row = corpus.split_inclusive(|&b| b == b'\n').nth(1).unwrap();
        let first = [header, b"\"open,quote\n"].concat();
        for mode in ["-s", "--rate", "--check"] {
            let (code, _, stderr, _) = run_on_endless_stream(&[mode, "-"], &first, row);
            assert_eq!(code, 1, "{mode} {shape:?}: {stderr}");
            assert!(
                stderr.contains("<stdin>:2: no CSV record ends (is a quote left open?)"),
                "{mode} {shape:?}: {stderr}"
            );
            assert!(!stderr.contains("empty"), "{mode} {shape:?}: {stderr}");
        }
    }
}
