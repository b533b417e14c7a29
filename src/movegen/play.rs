//! Making a move (copy-make) through the pipeline: the core effects of the move's kind (or the
//! game's `apply_special` for its own kinds), the halfmove clock, the game ply (the players'
//! plies) with the spells that run out, the game's `after_move` state updates, then the turn
//! (`next_turn`), the fullmove number and en passant.

use super::Hooks;
use crate::board::{ep_capturable, Position};
use crate::core::{Bitboard, Color, Move, MoveKind};

/// The position after `m`, which must be pseudo-legal in `pos`.
pub fn play<H: Hooks + ?Sized>(h: &H, pos: &Position, m: Move) -> Position {
    let mut next = pos.clone();
    make(h, pos, m, &mut next);
    next
}

/// `play` written over `next`: the position is copied once (one `memcpy` a move under
/// callgrind), where returning a new one copies it twice (into the function's own place, then
/// out to the caller's).
pub fn play_into<H: Hooks + ?Sized>(h: &H, pos: &Position, m: Move, next: &mut Position) {
    next.clone_from(pos);
    make(h, pos, m, next);
}

/// The position after `m`, in `slot`: written over the one a move before left there
/// (`play_into`), or a new one the first time. A loop over a node's moves copies the position
/// once a move this way, and only the kinds in use (`Position::clone_from`).
pub fn play_in<'a, H: Hooks + ?Sized>(
    h: &H,
    pos: &Position,
    m: Move,
    slot: &'a mut Option<Position>,
) -> &'a Position {
    match slot {
        Some(next) => {
            play_into(h, pos, m, next);
            next
        }
        None => slot.insert(play(h, pos, m)),
    }
}

/// The effects of `m` on `next`, a copy of `pos`.
fn make<H: Hooks + ?Sized>(h: &H, pos: &Position, m: Move, next: &mut Position) {
    let rules = h.rules();
    if next.ep_targets().nonempty() {
        next.set_ep(Bitboard::EMPTY, None);
    }
    let fx = match m.kind() {
        MoveKind::Special(_) => h.apply_special(pos, m, next),
        _ => next.apply_core(rules, m),
    };
    next.set_halfmove(if fx.irreversible {
        0
    } else {
        pos.halfmove_clock().saturating_add(1)
    });
    // The game ply counts the players' plies, as FEN's move number does (a third party's ply
    // leaves it); spells run out with it before the move casts new ones.
    if pos.turn() != Color::Neutral {
        next.advance_ply();
    }
    h.after_move(pos, m, &fx, next);
    h.next_turn(pos, m, next);
    if pos.turn() == Color::Black {
        next.set_fullmove(pos.fullmove().saturating_add(1));
    }
    // A double step opens en passant only for a player who could take it, as X-FEN writes it.
    if let Some((skipped, victim)) = fx.double_step {
        if ep_capturable(rules, next, h.point_of_view(next), skipped) {
            next.set_ep(skipped, Some(victim));
        }
    }
}
