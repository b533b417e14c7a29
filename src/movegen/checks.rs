//! Moves that cannot give check, told without making them: where a game's checks are the
//! table captures of the moved piece from its target, or of a rider it uncovers (chess's,
//! say), a move whose piece does not capture onto the enemy royal piece from its target and
//! that leaves no line to it open gives no check. The search uses this to prune such moves
//! without making them; `Variant::in_check` after the move stays the judge of every other.

use crate::board::Position;
use crate::core::{Bitboard, Color, Move, MoveKind, Square};
use crate::rules::Rules;

/// What a side's moves are screened against, worked out once per position.
pub struct CheckScreen {
    /// The enemy royal piece.
    king: Square,
    /// The side's own pieces that alone stand between the enemy royal piece and one of the
    /// side's riders, or on the path of a lame leap of the side's onto it: moving one may
    /// uncover a check.
    uncovering: Bitboard,
}

impl CheckScreen {
    /// The screen for the moves of `us` in `pos`; none where the enemy has no royal piece (or
    /// more than one, where this screen looks at one only).
    pub fn new(rules: &Rules, pos: &Position, us: Color) -> Option<CheckScreen> {
        let royals = pos.royals(rules, us.opponent());
        if royals.more_than_one() {
            return None;
        }
        let king = royals.first()?;
        let t = &rules.tables;
        let occ = pos.occupied();
        let ours = pos.color_bb(us);
        let riders = pos.kinds_bb(t.ride_attack_kinds(us)) & ours;
        let mut uncovering = Bitboard::EMPTY;
        for r in t.rider_lines(us, king) & riders {
            let Some(d) = t.toward(king, r) else {
                continue;
            };
            let between = t.between(d, king, r) & occ;
            if !between.more_than_one() && (between & ours).nonempty() {
                uncovering |= between;
            }
        }
        // A lame leap onto the royal piece is uncovered the same way, by emptying its path.
        for kind in t.lame_capture_kinds(us) {
            let of_kind = pos.pieces(us, kind);
            for l in t.lame_capturers(us, kind, king) {
                if of_kind.contains(l.square) {
                    uncovering |= l.via & ours;
                }
            }
        }
        Some(CheckScreen { king, uncovering })
    }

    /// Whether the legal move `m` of `us` may give check: false only where it surely does not.
    /// Moves other than plain moves and promotions (castling, en passant, a game's own kinds)
    /// and pieces with lame leaps are never screened out.
    pub fn may_check(&self, rules: &Rules, pos: &Position, us: Color, m: Move) -> bool {
        let kind = match (m.kind(), m.piece()) {
            (MoveKind::Normal, _) => pos.piece_at(m.from()).kind(),
            (MoveKind::Promotion, Some(k)) => k,
            _ => return true,
        };
        let t = &rules.tables;
        if self.uncovering.contains(m.from()) || t.has_lame_capture(us, kind) {
            return true;
        }
        let occ =
            (pos.occupied() & !Bitboard::from_square(m.from())) | Bitboard::from_square(m.to());
        let reach = t.leap_capture(us, kind, m.to())
            | t.ride_targets(t.capture_rides(us, kind), m.to(), occ);
        reach.contains(self.king)
    }
}
