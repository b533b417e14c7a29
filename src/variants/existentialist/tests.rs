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
}

/// The legal move with this CECP text.
fn cecp(v: &dyn Variant, pos: &Position, text: &str) -> Move {
    parse_move(v, pos, Dialect::Cecp, text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

fn legal(v: &dyn Variant, pos: &Position) -> MoveList {
    let mut moves = MoveList::new();
    v.legal_moves(pos, &mut moves);
    moves
}

/// XBoard shows a merge as its host: the Archer's step onto the King is sent with the King's
/// letter, which XBoard 4.9.1 puts on the square; a user's lift marks the King magenta and the
/// put asks for K.
#[test]
fn xboard_merge_shows_the_host() {
    use crate::protocol::xboard_variant as xv;
    let v = get();
    let pos = v.start_position();
    let moves = legal(v, &pos);
    // CECP ranks count from 0 on ten ranks: our f2 (Archer) onto f1 (King) is `f1f0`.
    let merge = cecp(v, &pos, "f1f0");
    assert!(merge.is(MERGE));
    assert_eq!(
        xv::wire_text(v, &pos, &xv::Shown::of(v.rules(), &pos), &moves, merge),
        "f1f0k"
    );
    assert!(xv::carries(v, &pos, &xv::Shown::of(v.rules(), &pos), merge));
    assert_eq!(
        xv::parse_wire(v, &pos, &xv::Shown::of(v.rules(), &pos), "f1f0k"),
        Ok(merge)
    );
    assert_eq!(xv::parse_xboard_san(v, &pos, "Af0=K"), Ok(merge));
    let lift = xv::lift(
        v,
        &pos,
        &xv::Shown::of(v.rules(), &pos),
        &moves,
        &[sq("f2")],
    );
    assert!(lift.ends_with("/4MMM3"), "{lift}");
    assert_eq!(
        xv::put(
            v,
            &pos,
            &xv::Shown::of(v.rules(), &pos),
            &moves,
            &[sq("f2")],
            sq("f1")
        ),
        xv::Put::Choice("choice K".into())
    );
    // The Archer onto its Zednick makes the Archer/Zednick, shown as an Archer: no letter.
    let az = cecp(v, &pos, "f1g1");
    assert_eq!(
        xv::wire_text(v, &pos, &xv::Shown::of(v.rules(), &pos), &moves, az),
        "f1g1"
    );
}

/// Castling: XBoard drags the Squire beside the King, as the rules move it.
#[test]
fn xboard_carries_castling() {
    use crate::protocol::xboard_variant as xv;
    let v = get();
    let pos = v
        .parse_fen("dscvokvcsd/ytlhxazjty/pppppppppp/10/10/10/10/PPPPPPPPPP/YTLHXAZJTY/DSCVOK2SD w KQkq - 0 1")
        .unwrap();
    let castle = cecp(v, &pos, "f0h0");
    assert_eq!(castle.kind(), MoveKind::Castle);
    assert!(xv::carries(
        v,
        &pos,
        &xv::Shown::of(v.rules(), &pos),
        castle
    ));
}

/// What XBoard cannot show two of on one square, or a shield of several squares, it is not
/// asked to carry.
#[test]
fn xboard_does_not_carry_shared_squares_or_shields() {
    use crate::protocol::xboard_variant as xv;
    let v = get();
    // Black's Rook takes onto White's protected King+Archer: the two then share e1.
    let pos = v
        .parse_fen("k9/10/10/10/10/10/10/10/4r5/4K{aA}5 b - - 0 1")
        .unwrap();
    let intrude = cecp(v, &pos, "e1e0");
    assert!(!xv::carries(
        v,
        &pos,
        &xv::Shown::of(v.rules(), &pos),
        intrude
    ));
    // The Zednick's step onto the Teleporter makes a two-square shield on d2 and e2.
    let pos = v
        .parse_fen("k9/10/10/10/10/10/10/10/3ZT5/9K w - - 0 1")
        .unwrap();
    let shield = cecp(v, &pos, "d1e1");
    assert!(shield.is(MERGE));
    assert!(!xv::carries(
        v,
        &pos,
        &xv::Shown::of(v.rules(), &pos),
        shield
    ));
}

/// The double knight (step 5) is entered in two legs, through any empty square one knight leap
/// away; it is also one click to the end.
#[test]
fn xboard_double_knight_in_two_legs() {
    use crate::protocol::xboard_variant as xv;
    let v = get();
    let pos = v
        .parse_fen("10/6p3/10/3p6/10/4X{c4}5/10/10/10/2k6K w - - 0 1")
        .unwrap();
    let moves = legal(v, &pos);
    // e5 over f7 onto g9's pawn (CECP e4, f6, g8).
    let m = cecp(v, &pos, "e4g8");
    assert_eq!(
        xv::wire_text(v, &pos, &xv::Shown::of(v.rules(), &pos), &moves, m),
        "e4g8"
    );
    assert_eq!(
        xv::parse_wire(v, &pos, &xv::Shown::of(v.rules(), &pos), "e4f6,f6g8"),
        Ok(m)
    );
    // Over g6 too (e5-g6-... is no leap to g9: g6 to g9 is three ranks), but over h7? No: h7
    // is not a knight leap from e5. f7 is the only square between e5 and g9.
    assert!(xv::parse_wire(v, &pos, &xv::Shown::of(v.rules(), &pos), "e4g5,g5g8").is_err());
    let first = xv::lift(
        v,
        &pos,
        &xv::Shown::of(v.rules(), &pos),
        &moves,
        &[sq("e5")],
    );
    assert_eq!(mark_at(&first, "f7"), Some('C'), "{first}");
    assert_eq!(mark_at(&first, "g9"), Some('R'), "{first}");
    assert_eq!(mark_at(&first, "e5"), None, "{first}");
    assert_eq!(
        xv::put(
            v,
            &pos,
            &xv::Shown::of(v.rules(), &pos),
            &moves,
            &[sq("e5")],
            sq("f7")
        ),
        xv::Put::Leg
    );
    let second = xv::lift(
        v,
        &pos,
        &xv::Shown::of(v.rules(), &pos),
        &moves,
        &[sq("e5"), sq("f7")],
    );
    assert_eq!(mark_at(&second, "g9"), Some('R'), "{second}");
    // From f7 the second leap reaches d8 (e5-f7-d8), but never back to e5 (RULINGS §9 item 4).
    assert_eq!(mark_at(&second, "d8"), Some('Y'), "{second}");
    assert_eq!(mark_at(&second, "e5"), None, "{second}");
}

/// The mark a `highlight` line gives our square `s` on a 10x10 board.
fn mark_at(line: &str, s: &str) -> Option<char> {
    let target = sq(s);
    let rows: Vec<&str> = line["highlight ".len()..].split('/').collect();
    let row = rows[9 - target.rank() as usize];
    let mut file = 0;
    let mut digits = String::new();
    for c in row.chars().chain(std::iter::once('/')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        file += digits.parse::<u8>().unwrap_or(0);
        digits.clear();
        if c == '/' {
            break;
        }
        if file == target.file() {
            return Some(c);
        }
        file += 1;
    }
    None
}

/// The 20th move is sent with a letter that names no piece, so that XBoard removes the
/// exploded Existentialist; hovering over its target shows the blast's victims.
#[test]
fn xboard_blast() {
    use crate::protocol::xboard_variant as xv;
    let v = get();
    let pos = v
        .parse_fen("9k/10/10/10/4x{c10,sz@70}5/10/10/10/yy8/X{c19}a7K w - - 0 30")
        .unwrap();
    let moves = legal(v, &pos);
    // a1 to c2 by a knight leap (CECP a0c1); the blast's rays from c2 start at b1's Archer.
    let m = cecp(v, &pos, "a0c1");
    let text = xv::wire_text(v, &pos, &xv::Shown::of(v.rules(), &pos), &moves, m);
    assert!(text.starts_with("a0c1") && text.len() == 5, "{text}");
    assert!(xv::carries(v, &pos, &xv::Shown::of(v.rules(), &pos), m));
    assert_eq!(
        xv::parse_wire(v, &pos, &xv::Shown::of(v.rules(), &pos), &text),
        Ok(m)
    );
    let hover = xv::hover(
        v,
        &pos,
        &xv::Shown::of(v.rules(), &pos),
        &moves,
        &[sq("a1")],
        sq("c2"),
    )
    .unwrap();
    assert_eq!(mark_at(&hover, "b1"), Some('G'), "{hover}");
}

/// XBoard's PGN: a shot by a Pawn host in kill-square SAN, and an Adventurist's promotion,
/// whose letter XBoard drops (the engine under CECP promotes such pieces to a Queen only).
#[test]
fn xboard_pgn_forms() {
    use crate::protocol::xboard_variant as xv;
    let v = get();
    let pos = v
        .parse_fen("9k/10/10/4r5/10/4P{aA}5/10/10/10/K9 w - - 0 1")
        .unwrap();
    let shot = cecp(v, &pos, "e4e6,e6e4");
    assert_eq!(shot.kind(), MoveKind::Shot);
    assert_eq!(xv::parse_kill_san(v, &pos, "e4xe6-e4"), Ok(shot));
    let pos = v
        .parse_fen("9k/1U8/10/10/10/10/10/10/10/K9 w - - 0 1")
        .unwrap();
    let queen = cecp(v, &pos, "b8c9q");
    let knight = cecp(v, &pos, "b8c9n");
    assert_eq!(xv::parse_xboard_san(v, &pos, "Uc9"), Ok(queen));
    assert_eq!(xv::parse_xboard_san(v, &pos, "Ub8c9=N"), Ok(knight));
    assert!(xv::carries(v, &pos, &xv::Shown::of(v.rules(), &pos), queen));
    assert!(!xv::carries(
        v,
        &pos,
        &xv::Shown::of(v.rules(), &pos),
        knight
    ));
}

/// The search does not walk into a pending blast: White's Existentialist makes its 20th move
/// next (`X{c19}`) and its knight and camel landings b3 and b4 both have c4 first on a line, so
/// Black's rook that takes the pawn on c4 dies in the blast (and worse follows).
#[test]
fn the_search_avoids_a_pending_blast() {
    let v: &dyn Variant = get();
    let pos = v
        .parse_fen("4k5/10/2r7/10/10/10/2P7/10/YY8/X{c19}Y7K b - - 0 1")
        .unwrap();
    let greedy =
        crate::notation::parse_move(v, &pos, crate::notation::Dialect::Uci, "c8c4").unwrap();
    let best = crate::search::best_at_depth(v, &pos, 5);
    assert!(best.is_some_and(|m| m != greedy), "{best:?}");
}

/// Issue 24, 1a, as reported: Black's 20th Existentialist move g8-g4 blasts; the W ray f4 e4 d4
/// c4 ends on the White Hyena its Dazzler jumped (`si@2`), which becomes a Wildcat (RULINGS §1.2
/// Hyena, §12 item 2); no other ray from g4 meets a piece. White then has, by hand: K a1 0 (its
/// Yanzees around it); Y a2: a3 b3; Y b2: a3 b3 c1 c2 c3; Y b1: c1 c2 (9); D c5: steps b4 b5 b6
/// c6 d4 d5 d6 (7), two-square moves a3 a5 a7 c7 e7 e5 e3 and c3 over the Wildcat (8), no cannon
/// capture (15); Wildcat c4 (Q3): c3 c2 c1, b4 a4, d4 e4 f4, b5 a6, d5 e6 f7, b3, d3 e2 f1 (17).
/// 0 + 9 + 15 + 17 = 41.
#[test]
fn a_blast_turns_the_protected_hyena_into_a_wildcat() {
    let v = get();
    let pos = v
        .parse_fen("9k/10/6x{c19}3/10/10/2D7/2H{si@2}7/10/YY8/KY8 b - - 1 1")
        .unwrap();
    let blast = parse_move(v, &pos, Dialect::Uci, "g8g4").unwrap();
    let after = v.play(&pos, blast);
    assert_eq!(after.piece_at(sq("c4")), Piece::new(Color::White, WILDCAT));
    assert_eq!(legal(v, &after).len(), 41);
}
