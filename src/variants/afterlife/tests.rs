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

/// Whether the side that just moved lost at once (its Pharaoh ceased to exist).
fn mover_lost(v: &dyn Variant, before: &Position, after: &Position) -> bool {
    let mut moves = MoveList::new();
    v.legal_moves(after, &mut moves);
    matches!(
        v.rulings().outcome(after, moves.len(), &[]),
        Some(Outcome::Win { winner, .. }) if winner != v.rulings().point_of_view(before)
    )
}

/// The engine does not throw its own Pharaoh away: in positions from random play where some
/// move keeps it, the search's move keeps it too.
#[test]
fn the_search_keeps_its_pharaoh() {
    use crate::search::{search, Control, Limits, SearchInput, TranspositionTable};
    let v: &dyn Variant = get();
    let tt = TranspositionTable::new(1);
    let mut rng = crate::core::rng::SplitMix(21);
    let mut tested = 0;
    for _ in 0..1000 {
        let mut pos = v.start_position();
        for _ in 0..rng.below(80) {
            let mut moves = MoveList::new();
            v.legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos = v.play(&pos, moves.as_slice()[rng.below(moves.len())]);
        }
        let mut moves = MoveList::new();
        v.legal_moves(&pos, &mut moves);
        let losing = moves
            .iter()
            .filter(|&&m| mover_lost(v, &pos, &v.play(&pos, m)))
            .count();
        if losing == 0
            || losing == moves.len()
            || v.rulings().outcome(&pos, moves.len(), &[]).is_some()
        {
            continue;
        }
        tested += 1;
        let limits = Limits {
            depth: Some(3),
            ..Default::default()
        };
        let control = Control::new(false);
        let best = search(
            SearchInput::new(v, &pos, &limits, &control, &tt),
            &mut |_| {},
        )
        .best
        .expect("a legal move");
        assert!(
            !mover_lost(v, &pos, &v.play(&pos, best)),
            "{} gives its Pharaoh away",
            v.fen(&pos)
        );
    }
    assert!(
        tested >= 5,
        "only {tested} positions had a move that loses the Pharaoh"
    );
}

/// The page's labels say what `{x}` and Limbo mean for the piece (RULINGS §10 items 4 and 5),
/// the Feather's Reincarnation and a Slave the other player may move (§3.4 item 6).
#[test]
fn state_labels_in_the_games_words() {
    let labels = |v: &dyn Variant, fen: &str, sq: &str| -> Vec<String> {
        let pos = v.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        v.presentation()
            .describe_state(v.rules(), &pos, Square::parse(sq).unwrap())
    };
    let badges = |l: Vec<String>| -> Vec<String> {
        l.iter()
            .map(|t| t.split(": ").next().unwrap().to_string())
            .collect()
    };
    let v: &dyn Variant = get();
    // A Freed Slave waits in Limbo: White to move, it leaves this turn; Black to move, after
    // White's next turn. Its Destiny is the Twelve Hours.
    let limbo_f =
        "wphw*F*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*_E**_E/SSSS*1*4/WHPW*1*_E**_E";
    assert_eq!(
        badges(labels(v, &format!("{limbo_f} w - - 0 1"), "f7")),
        ["to the Twelve Hours", "leaves now"]
    );
    let black = labels(v, &format!("{limbo_f} b - - 0 1"), "f7");
    assert!(black[1].contains("end of White's next turn"), "{black:?}");
    // A Warrior with {x} in Limbo, and one in the World: the Hall.
    let limbo_w = "wphw*W{x}*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*_E**_E/SSSS*1*4/1HPW*1*_E**_E w - - 0 1";
    assert_eq!(
        badges(labels(v, limbo_w, "f7")),
        ["{x} to H1", "leaves now"]
    );
    let world_x = "wphw*1*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*_E**_E/SSSS*1*4/W{x}HPW*1*_E**_E w - - 0 1";
    assert_eq!(
        labels(v, world_x, "a1"),
        ["{x}: captured this stay: its Destiny is the Hall"]
    );
    assert!(labels(v, world_x, "d1").is_empty());
    assert!(
        labels(v, world_x, "b4").is_empty(),
        "a Mercenary has no state"
    );
    // A Warrior on the Feather may reincarnate; a White Slave beside Black's Pharaoh (b7) is
    // Black's to move too.
    let feather = "wphw*1*****/Ssss*******/4*W*****/1_M_M1*1*****/4*1*_E**_E/SSSS*1*4/1HPW*1*_E**_E w - - 0 1";
    assert_eq!(badges(labels(v, feather, "f5")), ["reincarnates"]);
    assert_eq!(badges(labels(v, feather, "a6")), ["Black too"]);
    assert!(labels(v, feather, "a2").is_empty());
    // With optional Limbo the piece may leave.
    let optional: &dyn Variant = get_optional_limbo();
    assert_eq!(
        badges(labels(optional, &format!("{limbo_f} w - - 0 1"), "f7")),
        ["to the Twelve Hours", "may leave now"]
    );
    assert_eq!(v.presentation().neutral_name(), "Grey");
    assert!(v
        .presentation()
        .legend_notes()
        .iter()
        .any(|(l, _)| *l == 'W'));
}

/// The Twelve Hours is never empty (RULINGS §3.3, §10 item 3): it starts with four Sethlings, a
/// capture there leaves its capturer, and Redemption of a lone piece puts the Sethlings back. A
/// FEN with it empty is refused (it was accepted), while every position random play reaches,
/// in both games, keeps a piece there and reads back from its FEN.
#[test]
fn the_twelve_hours_is_never_empty() {
    use crate::board::{FenError, PositionError};
    let empty =
        "wphw*1*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*1**1/SSSS*1*4/WHPW*1*1**1 w - - 0 1";
    let mut redeemed = false;
    for v in [get() as &dyn Variant, get_optional_limbo()] {
        assert!(matches!(
            v.parse_fen(empty),
            Err(FenError::Position(PositionError::EmptyArea {
                area: "Twelve Hours",
                ..
            }))
        ));
        let mut rng = crate::core::rng::SplitMix(24);
        for _ in 0..300 {
            let mut pos = v.start_position();
            for _ in 0..120 {
                let mut moves = MoveList::new();
                v.legal_moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let next = v.play(&pos, moves.as_slice()[rng.below(moves.len())]);
                let count = |p: &Position| (p.occupied() & TWELVE_HOURS).count();
                assert!(count(&next) > 0, "{} empties the Twelve Hours", v.fen(&pos));
                redeemed |= count(&pos) == 2 && count(&next) == 4;
                let fen = v.fen(&next);
                assert!(v.parse_fen(&fen).is_ok(), "{fen} is refused");
                pos = next;
            }
        }
    }
    assert!(redeemed, "no playout reached a Redemption");
}
