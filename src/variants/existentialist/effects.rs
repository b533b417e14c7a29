//! What a move does beyond the board change: a Bobber's counter, the Existentialist's counter,
//! its sleep after the tenth move and its blast after the twentieth (RULINGS §1.2, §1.4 items 14
//! to 17 and 21, §9 items 9 and 14), and the spells a Dazzler's jump casts (§9 item 13). Also the
//! game's own evaluation terms.

use super::moves::jumped;
use super::status::{frozen, sleeping, spelled};
use super::{Existentialist, BOBBER, BOBBERS, CYCLE, DAZZLED, DAZZLER, EXISTENTIALIST};
use super::{HIBERNATING, HIBERNATION_PLIES, HYENA, INVULNERABLE, LAST_MOVE, MUST_MOVE};
use super::{WILDCAT, YANZEE};
use crate::board::{PieceState, Position, Spell};
use crate::core::{Color, Move, MoveKind, Piece, Square};
use crate::rules::Direction;

/// The game's updates after `m` took `before` to `after` (the board already changed and the
/// game ply advanced, so spells cast now with one ply left are in force for the opponent's next
/// ply only).
pub fn after_move(game: &Existentialist, before: &Position, m: Move, after: &mut Position) {
    if !matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion) {
        return;
    }
    let mover = before.piece_at(m.from());
    match mover.kind() {
        BOBBER => {
            let _ = after.update_state(m.to(), |s| s.counter = BOBBERS.next_counter(s.counter));
        }
        EXISTENTIALIST => {
            let moves_made = before.state(m.from()).counter;
            if moves_made == LAST_MOVE {
                blast(game, after, m.to());
                return;
            }
            let _ = after.update_state(m.to(), |s| {
                s.counter = moves_made + 1;
                if s.counter == CYCLE {
                    s.spell = Some(Spell {
                        kind: HIBERNATING,
                        left: HIBERNATION_PLIES,
                    });
                }
            });
        }
        DAZZLER => {
            if let Some(sq) = jumped(game, before, m.from(), m.to()) {
                cast(after, sq, mover.color());
            }
        }
        _ => {}
    }
}

/// The spell of a Dazzler of `caster`'s jump over the piece on `sq` (RULINGS §1.2, §9 item 13):
/// a friendly piece may not be captured during the opponent's next ply (a Yanzee gains nothing;
/// a Hyena gains the Wildcat protection); an enemy piece may not move on its next ply, and an
/// enemy Hyena must move instead.
fn cast(after: &mut Position, sq: Square, caster: Color) {
    let p = after.piece_at(sq);
    let kind = match (p.color() == caster, p.kind()) {
        (true, YANZEE) => return,
        (true, _) => INVULNERABLE,
        (false, HYENA) => MUST_MOVE,
        (false, _) => DAZZLED,
    };
    let _ = after.update_state(sq, |s| s.spell = Some(Spell { kind, left: 1 }));
}

/// The Existentialist's 20th move ends in a blast centred on the square it reached (RULINGS
/// §1.4 items 14-15): it is destroyed, and on each of the eight lines the first piece of either
/// colour is killed; a sleeping Existentialist stops its line unharmed, and a Hyena its own
/// Dazzler protects becomes a Wildcat.
fn blast(game: &Existentialist, after: &mut Position, centre: Square) {
    after.capture(centre);
    let t = &game.rules.tables;
    let asleep = sleeping(after);
    let protected = spelled(after, INVULNERABLE);
    for d in 0..8u8 {
        let Some(hit) = t.first_blocker(Direction(d), centre, after.occupied()) else {
            continue;
        };
        if asleep.contains(hit) {
            continue;
        }
        let p = after.piece_at(hit);
        if p.kind() == HYENA && protected.contains(hit) {
            after.capture(hit);
            after.put(Piece::new(p.color(), WILDCAT), hit);
        } else {
            after.capture(hit);
        }
    }
    after.set_halfmove(0);
}

/// Bonus per step of the Existentialist's cycle already made (its later steps are stronger).
const STEP_BONUS: i32 = 8;
/// Bonus while an Existentialist is about to explode.
const PENDING_BLAST: i32 = 60;
/// Penalty per own piece frozen by an enemy Hyena.
const FROZEN: i32 = 25;
/// Penalty per own piece dazzled.
const DAZZLED_PIECE: i32 = 15;
/// Bonus per move a Bobber has made (its range grows).
const BOBBER_GROWTH: i32 = 12;

/// The game's own terms, for White: the Existentialist's progress through its cycle, a Bobber's
/// growth, and pieces frozen or dazzled.
pub fn evaluate(game: &Existentialist, pos: &Position) -> i32 {
    let mut score = 0;
    for c in Color::PLAYERS {
        let sign = if c == Color::White { 1 } else { -1 };
        let mut own = 0;
        for x in pos.pieces(c, EXISTENTIALIST) {
            let state: PieceState = pos.state(x);
            if state.spell.is_none() {
                own += STEP_BONUS * (state.counter % CYCLE) as i32;
                if state.counter == LAST_MOVE {
                    own += PENDING_BLAST;
                }
            }
        }
        for b in pos.pieces(c, BOBBER) {
            own += BOBBER_GROWTH * pos.state(b).counter as i32;
        }
        own -= FROZEN * frozen(game, pos, c).count() as i32;
        own -= DAZZLED_PIECE * (spelled(pos, DAZZLED) & pos.color_bb(c)).count() as i32;
        score += sign * own;
    }
    score
}
