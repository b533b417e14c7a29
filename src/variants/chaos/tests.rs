//! Chaos's Chess: the FEN, the clock, and perft counts from RULINGS §11 and hand counts.

use super::*;
use crate::variants::Variant;

fn chaos() -> &'static dyn Variant {
    get()
}

fn perft(fen: &str, depth: u32) -> u64 {
    let v = chaos();
    let pos = v.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    crate::perft::perft(v, &pos, depth)
}

#[test]
fn start_fen_round_trips() {
    let v = chaos();
    assert_eq!(v.fen(&v.start_position()), START_FEN);
}

/// RULINGS §11 item 9: after e2e4 e7e5 g1f3 b8c6 f1c4 Nature is to move with 32 introductions
/// and the pass.
#[test]
fn ruling_example() {
    let v = chaos();
    let mut pos = v.start_position();
    for t in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"] {
        let m = crate::notation::parse_move(v, &pos, crate::notation::Dialect::Uci, t).unwrap();
        pos = v.play(&pos, m);
    }
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[_Q_R_B_N] n KQkq - 3 3 5b";
    assert_eq!(v.fen(&pos), fen);
    assert_eq!(perft(fen, 1), 33);
}

/// The page's words on the turn follow the counter: Nature acts after the fifth real ply, and
/// its check binds from counter 3 (§11 items 1 and 3).
#[test]
fn the_turn_notes_follow_the_counter() {
    let v = chaos();
    let notes = |fen: &str| {
        v.presentation()
            .describe_turn(&v.parse_fen(fen).unwrap())
            .join(" | ")
    };
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[_Q_R_B_N]";
    let start = notes(&format!("{board} w KQkq - 0 1 0"));
    assert!(start.contains("counter 0 of 5"), "{start}");
    assert!(start.contains("after 5 real plies"), "{start}");
    assert!(start.contains("does not bind yet"), "{start}");
    let two = notes(&format!("{board} b KQkq - 0 1 2"));
    assert!(two.contains("does not bind yet"), "{two}");
    let three = notes(&format!("{board} w KQkq - 0 2 3"));
    assert!(three.contains("after 2 real plies"), "{three}");
    assert!(
        three.contains("binds: White may not leave the king attacked"),
        "{three}"
    );
    let four = notes(&format!("{board} b KQkq - 0 2 4"));
    assert!(four.contains("after this ply"), "{four}");
    assert!(four.contains("binds: Black"), "{four}");
    let nature = notes(&format!("{board} n KQkq - 0 3 5b"));
    assert_eq!(nature, "Nature acts or passes now; then Black moves");
    assert_eq!(v.presentation().neutral_name(), "Nature");
}

/// The search does not walk into a Nature check that becomes binding: White, a Knight up, has
/// its King on h1 behind its pawns with Nature's Rook on a1 and the counter at 2. A move that
/// makes no room for the King lets Black's reply bring the counter to 4, and White is then
/// Nature-checkmated, a draw (RULINGS §11 items 3, 11).
#[test]
fn the_search_avoids_a_binding_nature_check() {
    let v = chaos();
    let pos = v
        .parse_fen("k7/p7/1p6/1N6/8/8/6PP/_R6K[_Q_B_N] w - - 0 30 2")
        .unwrap();
    let best = crate::search::best_at_depth(v, &pos, 5).expect("a legal move");
    let after = v.play(&pos, best);
    let mut replies = MoveList::new();
    v.legal_moves(&after, &mut replies);
    for &r in replies.iter() {
        let next = v.play(&after, r);
        let mut moves = MoveList::new();
        v.legal_moves(&next, &mut moves);
        assert!(
            !moves.is_empty(),
            "{best:?} then {r:?} leaves White Nature-mated"
        );
    }
    // The rule the test relies on: a quiet move elsewhere does allow the Nature-mate.
    let quiet =
        crate::notation::parse_move(v, &pos, crate::notation::Dialect::Uci, "b5d6").unwrap();
    let after = v.play(&pos, quiet);
    let reply =
        crate::notation::parse_move(v, &after, crate::notation::Dialect::Uci, "a7a5").unwrap();
    let next = v.play(&after, reply);
    let mut moves = MoveList::new();
    v.legal_moves(&next, &mut moves);
    assert!(moves.is_empty());
    assert!(matches!(
        v.rulings().outcome(&next, 0, &[]),
        Some(Outcome::Draw { .. })
    ));
}

/// Positions no game reaches are refused with their reason: a King in a reserve (only Nature's
/// captures fill one, and kings are never captured: RULINGS §5.4 item 6, §11 item 6), and a
/// Nature King or Pawn on the board or in the pool (§5.2, §11 item 12). Nature's turn without
/// the seventh field says what is missing.
#[test]
fn impossible_positions_are_refused() {
    use crate::board::{FenError, PositionError};
    let v = chaos();
    let refused = |fen: &str| v.parse_fen(fen).expect_err(fen);
    // Each of these was accepted; with `[K]`, `K@e1` then put a second White King on the board.
    assert_eq!(
        refused("4k3/8/8/8/8/8/8/3K4[K] w - - 0 1 0"),
        FenError::Position(PositionError::KingInReserve {
            color: Color::White,
            king: "king"
        })
    );
    assert_eq!(
        refused("4k3/8/8/8/8/8/8/3K4[k] w - - 0 1 0"),
        FenError::Position(PositionError::KingInReserve {
            color: Color::Black,
            king: "king"
        })
    );
    let nature = |piece, square: Option<&str>| {
        FenError::Position(PositionError::NeutralKind {
            owner: "Nature",
            piece,
            square: square.map(|s| Square::parse(s).unwrap()),
            kinds: "queens, rooks, bishops and knights",
        })
    };
    assert_eq!(
        refused("4k3/8/8/8/8/8/8/3K4[_K] w - - 0 1 0"),
        nature("king", None)
    );
    assert_eq!(
        refused("4k3/8/8/8/8/8/8/3K4[_P] w - - 0 1 0"),
        nature("pawn", None)
    );
    assert_eq!(
        refused("4k3/8/8/3_K4/8/8/8/3K4 w - - 0 1 0"),
        nature("king", Some("d5"))
    );
    assert_eq!(
        refused("4k3/8/8/3_P4/8/8/8/3K4 w - - 0 1 0"),
        nature("pawn", Some("d5"))
    );
    assert_eq!(
        refused("4k3/8/8/8/8/8/8/3K4[_Q] n - - 0 1").to_string(),
        "FEN side to move is 'n', the third party, which needs the seventh field (5w or 5b) to say \
         who moves after it"
    );
    // What play does reach is still read: returned pawns and pieces of both players, Nature's
    // four kinds on the board and in its pool, Nature to move with the field.
    for fen in [
        "4k3/8/8/8/8/8/8/3K4[QPqp_Q_R] w - - 0 1 0",
        "4k3/8/2_N5/3_B4/8/8/8/3K4[Rb_Q_R] b - - 0 1 3",
        "4k3/8/8/8/8/8/8/3K4[_Q] n - - 0 1 5w",
    ] {
        v.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }
}

/// The game's terms count the value of a player's pieces (never the king) that a Nature piece
/// attacks, as "next" when Nature may act before that player moves again (Nature's turn, or the
/// other player's ply completes the counter) and as "later" otherwise; blocked lines do not
/// count.
#[test]
fn nature_threat_terms_follow_the_clock() {
    use crate::variants::chess::KNIGHT;
    let features = |fen| crate::variants::tests::game_term_features(chaos(), fen);
    let value = |k: PieceKind| get().rules.kinds[k.index()].spec.value;
    let (n, p) = (value(KNIGHT), value(PAWN));
    // Nature's Rook on d8 attacks the Knight on d4 (and Black's King, which is not counted).
    let rook_on_knight = "3_Rk3/8/8/8/3N4/8/8/4K3 w - - 0 30 4";
    assert_eq!(features(rook_on_knight), [0, 0, n]);
    // Black's ply completes the counter: White cannot move the Knight away in time.
    assert_eq!(features("3_Rk3/8/8/8/3N4/8/8/4K3 b - - 0 30 4"), [0, n, 0]);
    // Early in the clock the threat is "later" for either side to move.
    assert_eq!(features("3_Rk3/8/8/8/3N4/8/8/4K3 b - - 0 30 1"), [0, 0, n]);
    // A blocker on the file hides the Knight; the blocker, Black's pawn, is attacked instead,
    // and White's ply completes the counter before Black can move it.
    assert_eq!(
        features("3_Rk3/8/3p4/8/3N4/8/8/4K3 w - - 0 30 4"),
        [0, -p, 0]
    );
    // Nature's turn: Black's pawn on c3 is next; Black's counts subtract.
    assert_eq!(
        features("4k3/8/8/8/8/2p5/8/_B3K3 n - - 0 30 5w"),
        [0, -p, 0]
    );
}

/// The Nature terms read Nature's reach from the tables at once; the slow way asks the attack
/// test for every piece. Both agree in every position of seeded random games, Nature's plies
/// included.
#[test]
fn nature_threats_agree_with_the_attack_test() {
    let game = &get().0;
    let mut with_threats = 0;
    crate::variants::tests::for_each_playout_position(chaos(), |pos, _| {
        let mut fast = [0; 3];
        game.nature_threats(pos, &mut fast);
        let nature = pos.color_bb(Color::Neutral);
        let mut slow = [0; 3];
        for c in Color::PLAYERS {
            let attacked: i32 = (pos.color_bb(c) & !pos.kind_bb(KING))
                .into_iter()
                .filter(|&sq| game.attacked(pos, sq, pos.occupied(), nature, Method::Reference))
                .map(|sq| game.rules.kinds[pos.piece_at(sq).kind().index()].spec.value)
                .sum();
            let sign = if c == Color::White { 1 } else { -1 };
            slow[1] += sign * attacked;
        }
        assert_eq!(fast[1] + fast[2], slow[1], "{}", chaos().fen(pos));
        with_threats += usize::from(fast != [0; 3]);
    });
    assert!(
        with_threats > 0,
        "the games had no Nature threat to compare"
    );
}
