//! Afterlife Chess: rules checked on small positions (perft counts are in
//! `perft/afterlife.perft`).

use super::*;
use crate::variants::Variant;

#[test]
fn start_position_prints_back() {
    let v = get();
    let pos = v.start_position();
    assert_eq!(v.fen(&pos), START_FEN);
}
