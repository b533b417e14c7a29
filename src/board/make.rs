//! The standard way to make a move (copy-make): everything FIDE-like games need. Variants with
//! exotic effects make their own moves and call these pieces for the ordinary parts.

use super::position::Position;
use crate::core::{Bitboard, Move, MoveKind, Piece, Square};
use crate::rules::Rules;

impl Position {
    /// The position after `m`, which must be pseudo-legal here.
    #[inline]
    pub fn play(&self, rules: &Rules, m: Move) -> Position {
        let mut next = self.clone();
        next.apply(rules, m);
        next
    }

    /// Makes `m` in place. Handles normal moves, captures, promotions, en passant, castling,
    /// drops and passes; other kinds belong to the variants that generate them.
    pub fn apply(&mut self, rules: &Rules, m: Move) {
        let us = self.turn;
        let mut irreversible = false;
        let unmoved_before = self.unmoved;
        if self.ep_targets.nonempty() {
            self.set_ep(Bitboard::EMPTY, None);
        }
        match m.kind() {
            MoveKind::Normal | MoveKind::Promotion | MoveKind::EnPassant => {
                let (from, to) = (m.from(), m.to());
                let victim_sq = if m.kind() == MoveKind::EnPassant {
                    m.aux().expect("e.p. has a victim")
                } else {
                    to
                };
                if self.piece_at(victim_sq).is_some() {
                    self.capture(victim_sq);
                    irreversible = true;
                }
                let piece = self.remove(from);
                let state = self.take_state(from);
                let placed = match m.piece() {
                    Some(k) if m.kind() == MoveKind::Promotion => Piece::new(piece.color(), k),
                    _ => piece,
                };
                self.put(placed, to);
                if !state.is_default() {
                    self.set_state(to, state)
                        .expect("a moved state fits where it came from");
                }
                self.set_unmoved(from, false);
                let spec = &rules.kinds[piece.kind().index()].spec;
                if spec.pawn {
                    irreversible = true;
                }
                // A double (or triple) step of an en-passant piece opens en passant on the skipped squares.
                if spec.en_passant
                    && from.file() == to.file()
                    && from.rank().abs_diff(to.rank()) >= 2
                {
                    let skipped = skipped_squares(from, to);
                    if crate::movegen::ep_capturable(rules, self, us.opponent(), skipped) {
                        self.set_ep(skipped, Some(to));
                    }
                }
            }
            MoveKind::Castle => {
                let partner_from = m.aux().expect("castling has a partner");
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
                    if !state.is_default() {
                        self.set_state(sq, state)
                            .expect("a moved state fits where it came from");
                    }
                }
                self.set_unmoved(spec.king_from, false);
                self.set_unmoved(spec.partner_from, false);
            }
            MoveKind::Drop => {
                let kind = m.piece().expect("a drop names its piece");
                let n = self.reserve.count(us, kind);
                self.set_reserve(us, kind, n - 1);
                self.put(Piece::new(us, kind), m.to());
            }
            MoveKind::Pass => {}
            other => unreachable!("{other:?} moves are made by the variant that generates them"),
        }
        // Rights can only be lost when this move cleared an unmoved mark.
        if self.unmoved != unmoved_before {
            self.normalize_castling(rules);
        }
        self.halfmove = if irreversible {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        let ply = self.ply.saturating_add(1);
        let next = rules.spec.schedule.turn_at(ply);
        self.set_turn(rules, next, ply);
    }

    /// Removes the piece on `sq` as a capture, with its state and its unmoved mark.
    pub fn capture(&mut self, sq: Square) -> Piece {
        self.take_state(sq);
        self.set_unmoved(sq, false);
        self.remove(sq)
    }

    /// Clears the unmoved mark of castling pieces that can no longer castle, so that positions
    /// with the same castling rights hash the same however the rights were lost.
    fn normalize_castling(&mut self, rules: &Rules) {
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
fn skipped_squares(from: Square, to: Square) -> Bitboard {
    let (lo, hi) = if from.rank() < to.rank() {
        (from.rank(), to.rank())
    } else {
        (to.rank(), from.rank())
    };
    (lo + 1..hi)
        .filter_map(|r| Square::new(from.file(), r))
        .collect()
}
