//! The core effects of making a move (copy-make): what every move kind the core names does to
//! the board. Turn order, counters and a game's own effects are applied around this by the
//! pipeline (`movegen::play`), which calls a game's hooks.

use super::position::Position;
use crate::core::{Bitboard, Move, MoveKind, Piece, Square};
use crate::rules::Rules;

/// What a move did that the pipeline needs next: whether it was irreversible (a capture or a pawn
/// move, which restart the fifty-move count), and a double step that may open en passant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// A capture or a pawn-like move.
    pub irreversible: bool,
    /// The squares a pawn-like piece skipped, and the piece's square, after a double step.
    pub double_step: Option<(Bitboard, Square)>,
}

impl Position {
    /// Makes the board changes of `m`, a move of a kind the core names, in place. The side to
    /// move, the counters and en passant are left to the pipeline.
    pub fn apply_core(&mut self, rules: &Rules, m: Move) -> Effects {
        let mut fx = Effects::default();
        let unmoved_before = self.unmoved;
        if self.ep_targets.nonempty() {
            self.set_ep(Bitboard::EMPTY, None);
        }
        match m.kind() {
            MoveKind::Normal | MoveKind::Promotion | MoveKind::EnPassant | MoveKind::TwoLeg => {
                let (from, to) = (m.from(), m.to());
                let victim_sq = if m.kind() == MoveKind::EnPassant {
                    m.aux().expect("e.p. has a victim")
                } else {
                    to
                };
                if self.piece_at(victim_sq).is_some() {
                    self.capture(victim_sq);
                    fx.irreversible = true;
                }
                let piece = self.remove(from);
                let placed = match m.piece() {
                    Some(k) if m.kind() == MoveKind::Promotion => Piece::new(piece.color(), k),
                    _ => piece,
                };
                self.put(placed, to);
                self.move_state(from, to);
                self.set_unmoved(from, false);
                let spec = &rules.kinds[piece.kind().index()].spec;
                fx.irreversible |= spec.pawn;
                // A double (or triple) step of an en-passant piece may open en passant on the
                // skipped squares.
                if spec.en_passant
                    && from.file() == to.file()
                    && from.rank().abs_diff(to.rank()) >= 2
                {
                    fx.double_step = Some((skipped_squares(from, to), to));
                }
            }
            MoveKind::Castle => {
                let partner_from = m.aux().expect("castling has a partner");
                let us = self.piece_at(m.from()).color();
                let spec = rules
                    .spec
                    .castling
                    .iter()
                    .find(|c| {
                        c.color == us && c.king_from == m.from() && c.partner_from == partner_from
                    })
                    .expect("castling move matches a castling spec");
                // Both pieces keep their state (a King's used teleport, say).
                let king_state = self.take_state(spec.king_from);
                let partner_state = self.take_state(spec.partner_from);
                let king = self.remove(spec.king_from);
                let partner = self.remove(spec.partner_from);
                self.put(king, spec.king_to);
                self.put(partner, spec.partner_to);
                for (sq, state) in [(spec.king_to, king_state), (spec.partner_to, partner_state)] {
                    // Two slots were just freed, so both fit.
                    let _ = self.set_state(sq, state);
                }
                self.set_unmoved(spec.king_from, false);
                self.set_unmoved(spec.partner_from, false);
            }
            MoveKind::Drop => {
                let us = self.turn;
                let kind = m.piece().expect("a drop names its piece");
                let n = self.reserve.count(us, kind);
                self.set_reserve(us, kind, n.saturating_sub(1));
                if self.piece_at(m.to()).is_some() {
                    self.capture(m.to());
                    fx.irreversible = true;
                }
                self.put(Piece::new(us, kind), m.to());
            }
            MoveKind::Transform => {
                let p = self.remove(m.from());
                let kind = m.piece().expect("a transformation names its piece");
                self.put(Piece::new(p.color(), kind), m.from());
            }
            MoveKind::Shot => {
                self.capture(m.to());
                fx.irreversible = true;
            }
            MoveKind::Pass => {}
            MoveKind::Special(s) => {
                unreachable!("special move kind {s:?} is made by its game's hook")
            }
        }
        // Rights can only be lost when this move cleared an unmoved mark.
        if self.unmoved != unmoved_before {
            self.normalize_castling(rules);
        }
        fx
    }

    /// Removes the piece on `sq` as a capture, with its state and its unmoved mark.
    pub fn capture(&mut self, sq: Square) -> Piece {
        if !self.states.is_empty() {
            self.take_state(sq);
        }
        self.set_unmoved(sq, false);
        self.remove(sq)
    }

    /// Clears the unmoved mark of castling pieces that can no longer castle, so that positions
    /// with the same castling rights hash the same however the rights were lost.
    pub fn normalize_castling(&mut self, rules: &Rules) {
        let squares = self.unmoved & rules.castling_squares();
        for sq in squares {
            let alive = rules.spec.castling.iter().any(|c| {
                (c.king_from == sq || c.partner_from == sq)
                    && self.unmoved.contains(c.king_from)
                    && self.unmoved.contains(c.partner_from)
            });
            if !alive {
                self.set_unmoved(sq, false);
            }
        }
    }
}

/// Squares strictly between two squares on one file.
pub fn skipped_squares(from: Square, to: Square) -> Bitboard {
    let (lo, hi) = if from.rank() < to.rank() {
        (from.rank(), to.rank())
    } else {
        (to.rank(), from.rank())
    };
    (lo + 1..hi)
        .filter_map(|r| Square::new(from.file(), r))
        .collect()
}
