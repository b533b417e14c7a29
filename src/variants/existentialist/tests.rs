//! Existentialist Chess: rules checked on small positions (perft counts are in
//! `perft/existentialist.perft`).

use super::*;
use crate::notation::{parse_move, Dialect};
use crate::variants::Variant;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

#[test]
fn start_position_parses() {
    let v = get();
    let pos = v.start_position();
    assert_eq!(v.fen(&pos), START_FEN);
}

#[test]
fn state_changes_the_hash() {
    let v = get();
    let base = v
        .parse_fen("k9/10/10/10/10/4X5/10/10/10/9K w - - 0 1")
        .unwrap();
    for fen in [
        "k9/10/10/10/10/4X{c3}5/10/10/10/9K w - - 0 1",
        "k9/10/10/10/10/4X{c10,sz@20}5/10/10/10/9K w - - 0 1",
        "k9/10/10/10/10/4X{sd@1}5/10/10/10/9K w - - 0 1",
        "k9/10/10/10/10/4X{si@1}5/10/10/10/9K w - - 0 1",
    ] {
        let other = v.parse_fen(fen).unwrap();
        assert_ne!(other.hash(), base.hash(), "{fen}");
    }
    let h = v
        .parse_fen("k9/10/10/10/10/4H5/10/10/10/9K w - - 0 1")
        .unwrap();
    let must = v
        .parse_fen("k9/10/10/10/10/4H{sh@1}5/10/10/10/9K w - - 0 1")
        .unwrap();
    assert_ne!(h.hash(), must.hash());
    let _ = sq("a1");
    let _ = parse_move;
    let _ = Dialect::Uci;
}
