//! Divergent Chess (A.J. Winkelspecht, 1999): 10x10, and every unpromoted piece captures
//! differently than it moves. Everything here is data; the trait's defaults are the rules.
//! `docs/rules/divergent.md` restates them with their RULINGS items.

use super::{GameModule, Presentation, SearchSwitches};
use super::{Hooks, Pipeline};
use crate::board::Position;
use crate::core::{Geometry, PieceKind};
use crate::movegen::{self, Shortcuts};
use crate::rules::{PieceSpec, RuleSpec, Rules, StateSpec};
use std::sync::OnceLock;

/// Divergent's kinds with their letters, in catalogue order (checked against it by a test;
/// the module's rules are all data, so no code reads a kind by number).
const NAMED: &[(PieceKind, char)] = &[
    (PieceKind(0), 'K'),
    (PieceKind(1), 'Q'),
    (PieceKind(2), 'R'),
    (PieceKind(3), 'B'),
    (PieceKind(4), 'N'),
    (PieceKind(5), 'G'),
    (PieceKind(6), 'P'),
    (PieceKind(7), 'U'),
    (PieceKind(8), 'C'),
    (PieceKind(9), 'Y'),
    (PieceKind(10), 'X'),
];

/// The start array is a reconstruction (RULINGS §6.1 item 1): the original diagram is lost. It is
/// data, so it can be corrected if the original surfaces.
pub const START_FEN: &str =
    "rngbqkbgnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNGBQKBGNR w - - 0 1";

/// The rules of Divergent Chess (RULINGS §6).
pub fn spec() -> RuleSpec {
    let geometry = Geometry::rectangle(10, 10).expect("10x10 is a valid board");
    RuleSpec {
        name: "divergent",
        description:
            "10x10; every piece captures differently than it moves (A.J. Winkelspecht, 1999)",
        pieces: vec![
            // §6.2: the King steps, captures as a Queen, and promotes to a royal Queen (X).
            PieceSpec {
                royal: true,
                promotes_to: "X",
                ..PieceSpec::new('K', "king", "mKcQ")
            },
            PieceSpec {
                promotes_to: "Y",
                ..PieceSpec::new('Q', "queen", "mQcK")
            },
            PieceSpec {
                promotes_to: "Y",
                ..PieceSpec::new('R', "rook", "mRcB")
            },
            PieceSpec {
                promotes_to: "Y",
                ..PieceSpec::new('B', "bishop", "mBcR")
            },
            // Knight: moves as Wazir or Mao, captures as Ferz or Moa (§6.4 item 4).
            PieceSpec {
                promotes_to: "C",
                ..PieceSpec::new('N', "knight", "mWafsmWcFafscF")
            },
            // Guard: the Knight's complement.
            PieceSpec {
                promotes_to: "C",
                ..PieceSpec::new('G', "guard", "mFafsmFcWafscW")
            },
            // Pawn: 1, or 2 or 3 from its start rank with every passed square empty (§6.4 item 3).
            PieceSpec {
                en_passant: true,
                pawn: true,
                promotes_to: "U",
                initial_ranks: &[1],
                value: 100,
                ..PieceSpec::new('P', "pawn", "fmWfcFifmnDifmnH")
            },
            PieceSpec::new('U', "promoted pawn", "K"),
            PieceSpec::new('C', "promoted knight", "KN"),
            PieceSpec::new('Y', "promoted queen", "Q"),
            PieceSpec {
                royal: true,
                ..PieceSpec::new('X', "promoted king", "Q")
            },
        ],
        templates: Vec::new(),
        start_fen: START_FEN,
        castling: Vec::new(),
        promotion_zone: RuleSpec::zone_from_ranks(&geometry, &[9]),
        drop_zone: RuleSpec::whole_board(&geometry),
        fifty_move_plies: 100,
        repetition_count: 3,
        state: StateSpec::default(),
        xboard_builtin: None,
        geometry,
    }
}

/// Divergent Chess.
pub struct Divergent {
    rules: Rules,
}

/// The registered instance.
pub fn get() -> &'static Pipeline<Divergent> {
    static DIVERGENT: OnceLock<Pipeline<Divergent>> = OnceLock::new();
    DIVERGENT.get_or_init(|| {
        Pipeline(Divergent {
            rules: Rules::compile(spec()).expect("the divergent spec compiles"),
        })
    })
}

impl GameModule for Divergent {
    const NAMED_KINDS: &'static [(PieceKind, char)] = NAMED;
}

impl Hooks for Divergent {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Check and pins in one walk: the default attack test, check test and shortcuts.
    #[inline(always)]
    fn check_and_shortcuts(&self, pos: &Position) -> (bool, Shortcuts) {
        movegen::table_check_and_evasions(&self.rules, pos)
    }
}

impl SearchSwitches for Divergent {
    /// Off: measured to lose here (self-play at 5,000 nodes, about -24 Elo over 260 games,
    /// docs/performance.md) while it gains in FIDE chess; why is not yet known.
    fn capture_history(&self) -> bool {
        false
    }

    /// Off: the more selective late-move pruning and reductions that gain in FIDE chess lost
    /// here in self-play at 5,000 nodes (46% over 300 games; each of its three parts alone about
    /// 45% over 100), and at 20,000 nodes scored 49.5% over 100 (docs/performance.md): a loss of
    /// shallow searches, with no gain seen deeper.
    fn selective(&self) -> bool {
        false
    }

    fn checks_from_tables(&self) -> bool {
        true
    }

    fn attacks_from_tables(&self) -> bool {
        true
    }
}

impl Presentation for Divergent {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_move, Dialect};
    use crate::variants::Variant;

    fn play(fen: &str, moves: &[&str]) -> crate::board::Position {
        let v = get();
        let mut pos = v.parse_fen(fen).unwrap();
        for m in moves {
            let mv = parse_move(v, &pos, Dialect::Uci, m).unwrap_or_else(|e| panic!("{m}: {e}"));
            pos = v.play(&pos, mv);
        }
        pos
    }

    #[test]
    fn triple_step_opens_both_skipped_squares_in_order() {
        // RULINGS §8 item 9: after e2-e5 the field reads e3e4; after Black's e9-e6, e8e7.
        let rules = get().rules();
        let pos = play("4k5/10/10/10/10/10/10/10/4P5/5K4 w - - 0 1", &["e2e5"]);
        assert!(
            pos.ep_targets().is_empty(),
            "no black pawn can take, so no target is set"
        );
        let pos = play("4k5/10/10/10/10/10/3p6/10/4P5/5K4 w - - 0 1", &["e2e5"]);
        assert_eq!(pos.to_fen(rules).split(' ').nth(3), Some("e3e4"));
        // White pawns on f7 and d6 can take on e8 and on e7: both skipped squares.
        let pos = play("5k4/4p5/10/5P4/3P6/10/10/10/10/4K5 b - - 0 1", &["e9e6"]);
        assert_eq!(pos.to_fen(rules).split(' ').nth(3), Some("e8e7"));
        let v = get();
        for capture in ["f7e8", "d6e7"] {
            let m = parse_move(v, &pos, Dialect::Uci, capture)
                .unwrap_or_else(|e| panic!("{capture}: {e}"));
            assert_eq!(m.kind(), crate::core::MoveKind::EnPassant);
            let after = v.play(&pos, m);
            assert!(
                after
                    .piece_at(crate::core::Square::parse("e6").unwrap())
                    .is_none(),
                "the pawn on e6 is taken"
            );
        }
    }

    #[test]
    fn every_piece_promotes_to_its_fixed_form() {
        // RULINGS §8 item 7: P to U, N or G to C, B R Q to Y, K to X.
        let v = get();
        let pos = v
            .parse_fen("10/P3K5/10/4p5/4P5/10/10/5k4/10/10 w - - 0 1")
            .unwrap();
        let mut moves = crate::core::MoveList::new();
        v.legal_moves(&pos, &mut moves);
        let texts: Vec<String> = moves
            .iter()
            .map(|&m| v.move_text(m, Dialect::Uci))
            .collect();
        assert!(texts.contains(&"a9a10u".to_string()), "{texts:?}");
        assert!(texts.contains(&"e9e10x".to_string()), "{texts:?}");
        assert!(
            !texts.contains(&"e9e10".to_string()),
            "promotion is mandatory"
        );
    }

    #[test]
    fn an_unpromoted_piece_cannot_stand_on_its_last_rank() {
        assert!(get()
            .parse_fen("Y2pk5/10/10/4p5/4P5/10/10/10/10/4K5 w - - 0 1")
            .is_ok());
        assert!(get()
            .parse_fen("R2pk5/10/10/4p5/4P5/10/10/10/10/4K5 w - - 0 1")
            .is_err());
        // A black king on rank 1 has reached its last rank: it would be an X.
        assert!(get()
            .parse_fen("10/10/10/4p5/4P5/10/10/10/10/4K1k3 w - - 0 1")
            .is_err());
    }

    /// A double check where one square blocks both: the Bishop on g6 checks down the g-file
    /// (it captures as a Rook) and the Knight on h4 by its lame leap through g3. A piece moved
    /// to g3 ends both checks, so the fast generator must find `e1g3` and `f3g3` as the
    /// reference does (it once took a double check to leave the King's moves alone).
    #[test]
    fn one_square_may_block_both_checks_of_a_double_check() {
        let v = get();
        let pos = v
            .parse_fen(
                "2g3k3/3pbp3p/n3q1gpr1/1pp1p1p1p1/p4Gb3/4PP1P1P/1P5n2/PP1P1N4/2R1B1K2R/3NQ1B3 w - - 6 47",
            )
            .unwrap();
        let mut moves = crate::core::MoveList::new();
        v.legal_moves(&pos, &mut moves);
        let mut fast: Vec<String> = moves
            .iter()
            .map(|&m| v.move_text(m, Dialect::Uci))
            .collect();
        let mut reference: Vec<String> = v
            .reference_moves(&pos)
            .iter()
            .map(|&m| v.move_text(m, Dialect::Uci))
            .collect();
        fast.sort();
        reference.sort();
        assert_eq!(fast, reference);
        assert!(fast.contains(&"e1g3".to_string()) && fast.contains(&"f3g3".to_string()));
        assert_eq!(v.legal_count(&pos), fast.len());
    }
}
