//! Quiescence search: beyond the horizon, only noisy moves (or every evasion in check) are
//! searched, so the static evaluation is read in quiet positions only.

use super::tt::{Bound, TtEntry, NO_EVAL};
use super::worker::{NodeLists, Worker};
use super::{from_tt, to_tt, INFINITY, MAX_PLY};
use crate::board::Position;
use crate::core::{Bitboard, Color, Move, MoveKind, MoveList, MAX_KINDS};
use crate::third_party::Policy;

/// Quiescence delta pruning: margin over the material a capture wins.
const DELTA_MARGIN: i32 = 200;
/// Quiet moves (check evasions) in one quiescence line. Only noisy moves end a quiescence line,
/// each by changing material, of which there is a finite amount; an evasion changes none, and
/// where both sides can stand in check at once (the Existentialist's protected King+Archer may
/// stay attacked) evasions that give check can follow each other for ever. Past this many, a
/// side in check that has a move stands pat and tries only noisy moves.
const QUIESCE_EVASIONS: u32 = 4;
/// Plies of quiescence below the horizon, the last guard: beyond it the static evaluation is
/// taken (a game whose captures can bring pieces back need not run out of noisy moves).
const QUIESCE_PLIES: u32 = 32;

impl Worker<'_> {
    /// Resolves captures: the side to move may stand pat on the static evaluation unless in check,
    /// when every evasion is searched.
    pub(super) fn quiesce(
        &mut self,
        pos: &Position,
        ply: usize,
        alpha: i32,
        beta: i32,
        in_check: bool,
    ) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 || self.quiesce_plies >= QUIESCE_PLIES {
            return self.static_eval(pos);
        }
        let mut lists = self.take_lists();
        let score = self.quiesce_node(pos, ply, alpha, beta, in_check, &mut lists);
        self.give_back_lists(lists);
        score
    }

    /// The quiescence search of a node within the line's limits, whose moves go in `lists`.
    fn quiesce_node(
        &mut self,
        pos: &Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        in_check: bool,
        lists: &mut NodeLists,
    ) -> i32 {
        let variant = self.shared.variant;
        let moves = &mut lists.moves;
        // A third party's ply in quiescence: the seeded choice when it is known, else its pass.
        let policy = self.shared.limits.third_party.policy;
        if pos.turn() == Color::Neutral && policy != Policy::Engine {
            return self.quiesce_third_party(pos, moves, ply, alpha, beta);
        }
        let stand_pat;
        let alpha_in = alpha;
        let mut tt_move = Move::NULL;
        let mut eval = NO_EVAL;
        // Every evasion, so that mate is found, while the line has quiet moves to spare.
        let evasions = in_check && self.quiesce_quiet < QUIESCE_EVASIONS;
        if in_check {
            variant.legal_moves_checked(pos, true, moves);
            if let Some(outcome) = variant.rulings().outcome(pos, moves.len(), &[]) {
                return self.outcome_score(outcome, pos, ply);
            }
        }
        if evasions {
            stand_pat = -INFINITY;
        } else {
            // Not in check, the side to move is taken to have a move (stalemate is left to the
            // full-width search); the other game ends still count.
            if let Some(outcome) = variant.rulings().outcome(pos, 1, &[]) {
                return self.outcome_score(outcome, pos, ply);
            }
            // The table: an entry of any depth settles a quiescence node its bound settles; its
            // move is tried first and its static evaluation spares one.
            let probed = if in_check {
                None
            } else {
                self.shared.tt.probe_eval(pos.hash())
            };
            if let Some((e, _)) = probed {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
                tt_move = e.mv;
            }
            eval = match probed {
                Some((_, v)) if v != NO_EVAL => v,
                _ => self.static_eval(pos),
            };
            stand_pat = eval;
            if stand_pat >= beta {
                if !in_check {
                    self.store_quiesce(pos, ply, stand_pat, Move::NULL, Bound::Lower, eval);
                }
                return stand_pat;
            }
            if in_check {
                moves.retain(|m| variant.rulings().is_noisy(pos, m));
            } else {
                variant.noisy_moves(pos, false, moves);
            }
        }
        let mut best = stand_pat;
        let mut best_move = Move::NULL;
        alpha = alpha.max(best);
        let mut picker = self.picker(pos, moves, &mut lists.scores, ply, tt_move);
        let mut child_slot = None;
        while let Some(m) = picker.next() {
            if !evasions && self.quiesce_skips(pos, m, stand_pat, alpha) {
                continue;
            }
            let quiet = evasions && !variant.rulings().is_noisy(pos, m);
            let child = variant.play_in(pos, m, &mut child_slot);
            let check = variant.in_check(child);
            let score = self.quiesce_child(pos, child, ply, alpha, beta, check, quiet);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        // The first ply below the horizon also tries the quiet checks, unless a noisy move cut.
        if self.quiet_checks_on && !in_check && best < beta && self.quiesce_plies == 0 {
            (best, best_move) = self.quiesce_quiet_checks(
                pos,
                &mut lists.moves,
                ply,
                alpha,
                beta,
                (best, best_move),
            );
            if self.aborted {
                return 0;
            }
        }
        // Not in check, the node's result depends on the position alone (up to the line's
        // limits): it is stored at depth 0, below every full-width entry.
        if !in_check {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_in {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.store_quiesce(pos, ply, best, best_move, bound, eval);
        }
        best
    }

    /// A third party's ply in quiescence, by a policy other than the engine's: the seeded choice
    /// when it is known, else its pass; without one, the game's end or the static evaluation.
    fn quiesce_third_party(
        &mut self,
        pos: &Position,
        moves: &mut MoveList,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let variant = self.shared.variant;
        let policy = self.shared.limits.third_party.policy;
        variant.legal_moves(pos, moves);
        let m = match policy {
            Policy::Random => {
                self.chooser
                    .choose(variant, pos, moves, self.shared.limits.third_party.seed)
            }
            _ => moves.iter().copied().find(|m| m.kind() == MoveKind::Pass),
        };
        let Some(m) = m else {
            return match variant.rulings().outcome(pos, moves.len(), &[]) {
                Some(o) => self.outcome_score(o, pos, ply),
                None => self.static_eval(pos),
            };
        };
        let child = variant.play(pos, m);
        let check = variant.in_check(&child);
        // Forced, so it costs none of the line's quiet moves.
        self.quiesce_child(pos, &child, ply, alpha, beta, check, false)
    }

    /// Searches the quiet moves of `pos` that give check, after its noisy moves left `best` (a
    /// score and its move) below `beta`: the moves that land where their piece attacks an enemy
    /// royal piece (direct checks; a discovered check is left out), do not lose material by
    /// static exchange, and put the enemy in check once played. Returns the best score and move
    /// found, `best` when none beats it, within `alpha`..`beta`; `moves` is reused as the list
    /// of legal moves.
    fn quiesce_quiet_checks(
        &mut self,
        pos: &Position,
        moves: &mut MoveList,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        best: (i32, Move),
    ) -> (i32, Move) {
        let variant = self.shared.variant;
        let rules = variant.rules();
        let us = pos.turn();
        let Some(king) = pos.royals(rules, us.opponent()).first() else {
            return best;
        };
        let (mut best, mut best_move) = best;
        moves.clear();
        variant.legal_moves(pos, moves);
        let mut child_slot = None;
        // The squares that check, per kind, with the board as it stands: a line to the king
        // through the mover's own square would check already, which the king cannot stand in.
        // A check they miss (a hopper's, say) is only not searched: `in_check` decides.
        let mut checking = [None; MAX_KINDS];
        for i in 0..moves.len() {
            let m = moves.as_slice()[i];
            if m.kind() != MoveKind::Normal || variant.rulings().is_noisy(pos, m) {
                continue;
            }
            let kind = pos.piece_at(m.from()).kind();
            let origins = *checking[kind.index()].get_or_insert_with(|| {
                rules.tables.capture_origins(us, kind, king, pos.occupied())
            });
            if !origins.contains(m.to()) || (self.see_on && self.see_below(pos, m, 0)) {
                continue;
            }
            let child = variant.play_in(pos, m, &mut child_slot);
            if !variant.in_check(child) {
                continue;
            }
            let score = self.quiesce_child(pos, child, ply, alpha, beta, true, true);
            if self.aborted {
                return (0, Move::NULL);
            }
            if score > best {
                (best, best_move) = (score, m);
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        (best, best_move)
    }

    /// Stores a quiescence node's result at depth 0.
    fn store_quiesce(
        &self,
        pos: &Position,
        ply: usize,
        score: i32,
        mv: Move,
        bound: Bound,
        eval: i32,
    ) {
        self.shared.tt.store_eval(
            pos.hash(),
            TtEntry {
                mv,
                score: to_tt(score, ply),
                depth: 0,
                bound,
            },
            eval,
        );
    }

    /// Whether quiescence (not in check) skips the noisy move `m`.
    fn quiesce_skips(&self, pos: &Position, m: Move, stand_pat: i32, alpha: i32) -> bool {
        let gain = self.material_gain(pos, m);
        // Delta pruning: even winning this material with a margin cannot reach alpha.
        if stand_pat + gain + DELTA_MARGIN <= alpha {
            return true;
        }
        // A capture that loses material by static exchange.
        if self.see_on {
            return self.see_below(pos, m, 0);
        }
        // Where the game has no static exchange: a capture by a piece worth more than its prey,
        // onto a defended square, likely loses material.
        matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion)
            && self.value_on(pos, m.from()) > gain
            && self.shared.variant.attacked(
                pos,
                m.to(),
                pos.turn(),
                pos.occupied() & !Bitboard::from_square(m.from()),
            )
    }

    /// `child` for quiescence; `quiet` is whether the move to it changed no material.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn quiesce_child(
        &mut self,
        pos: &Position,
        child: &Position,
        ply: usize,
        alpha: i32,
        beta: i32,
        in_check: bool,
        quiet: bool,
    ) -> i32 {
        self.quiesce_plies += 1;
        self.quiesce_quiet += u32::from(quiet);
        let score = if self.pov(child) == self.pov(pos) {
            self.quiesce(child, ply + 1, alpha, beta, in_check)
        } else {
            -self.quiesce(child, ply + 1, -beta, -alpha, in_check)
        };
        self.quiesce_plies -= 1;
        self.quiesce_quiet -= u32::from(quiet);
        score
    }
}
