//! Who can act and who can be taken: pieces frozen by enemy Hyenas (RULINGS §1.2 Hyena, §1.4
//! item 6), dazzled pieces, sleeping Existentialists (§9 item 14), pieces that may not be
//! captured (Hyenas, Yanzees, pieces their own Dazzler protects), Hyenas that must move (§9 item
//! 8); and the checks a position from a FEN must pass.

use super::{
    Existentialist, BOBBER, CYCLE, DAZZLED, DAZZLER, EXISTENTIALIST, HIBERNATING,
    HIBERNATION_PLIES, HYENA, INVULNERABLE, KING, LAST_MOVE, MUST_MOVE, YANZEE,
};
use crate::board::{Position, PositionError, SpellKind};
use crate::core::{Bitboard, ByColor, Color, Square};
use crate::movegen;
use crate::variants::Rights;

/// The pieces carrying a spell of `kind`.
pub fn spelled(pos: &Position, kind: SpellKind) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    if pos.states().is_empty() {
        return out;
    }
    for (sq, st) in pos.states().iter() {
        if st.spell.is_some_and(|s| s.kind == kind) {
            out.insert(sq);
        }
    }
    out
}

/// Pieces of `color` frozen by the other side's Hyenas: every piece on one of the eight squares
/// around such a Hyena, except Dazzlers (RULINGS §1.2).
pub fn frozen(game: &Existentialist, pos: &Position, color: Color) -> Bitboard {
    let hyenas = pos.pieces(color.opponent(), HYENA);
    if hyenas.is_empty() {
        return Bitboard::EMPTY;
    }
    let t = &game.rules.tables;
    let mut near = Bitboard::EMPTY;
    for h in hyenas {
        near |= t.within(h, 1);
    }
    near & pos.color_bb(color) & !pos.kind_bb(DAZZLER)
}

/// Sleeping Existentialists of either colour.
pub fn sleeping(pos: &Position) -> Bitboard {
    if pos.kind_bb(EXISTENTIALIST).is_empty() {
        return Bitboard::EMPTY;
    }
    spelled(pos, HIBERNATING) & pos.kind_bb(EXISTENTIALIST)
}

/// The pieces of `color` that can act on their next move: neither frozen, nor dazzled, nor
/// asleep. Its King always can, for attacks (RULINGS §9 item 1).
pub fn active(game: &Existentialist, pos: &Position, color: Color) -> Bitboard {
    let ours = pos.color_bb(color);
    let idle = frozen(game, pos, color) | spelled(pos, DAZZLED) | sleeping(pos);
    (ours & !idle) | pos.pieces(color, KING)
}

/// The pieces whose attacks on `defender`'s King count: the opponent's that can act (RULINGS §9
/// item 7: its pieces that the defender's Hyenas freeze do not count).
pub fn attackers(game: &Existentialist, pos: &Position, defender: Color) -> Bitboard {
    active(game, pos, defender.opponent())
}

/// Pieces nobody may capture now: Hyenas, Yanzees, pieces their own Dazzler protects, sleeping
/// Existentialists (RULINGS §1.2, §9 items 13-14).
pub fn uncapturable(pos: &Position) -> Bitboard {
    pos.kind_bb(HYENA) | pos.kind_bb(YANZEE) | spelled(pos, INVULNERABLE) | sleeping(pos)
}

/// Hyenas of the side to move that an enemy Dazzler jumped: they must move if they can.
pub fn must_move(pos: &Position) -> Bitboard {
    if pos.states().is_empty() {
        return Bitboard::EMPTY;
    }
    spelled(pos, MUST_MOVE) & pos.pieces(pos.turn(), HYENA)
}

/// Who may move and capture what: the side to move's pieces that can act (its Hyenas that must
/// move even when frozen, its King in check whatever holds it, RULINGS §1.3, §9 item 8), each
/// capturing enemy pieces that may be captured. Nothing moves once a King has been blasted.
pub fn rights(game: &Existentialist, pos: &Position, in_check: bool) -> Rights {
    let us = pos.turn();
    let mut victims = ByColor::default();
    if !game.kings_alive(pos) {
        return Rights {
            movers: Bitboard::EMPTY,
            victims,
        };
    }
    let mut movers = active(game, pos, us) & !pos.pieces(us, KING);
    movers |= must_move(pos);
    let king = pos.pieces(us, KING);
    if in_check || (king & (frozen(game, pos, us) | spelled(pos, DAZZLED))).is_empty() {
        movers |= king;
    }
    victims[us] = pos.color_bb(us.opponent()) & !uncapturable(pos);
    Rights { movers, victims }
}

/// The checks a FEN must pass: at most one King each (none after a blast ends the game, RULINGS
/// §9 item 10); while both stand, the shared checks (no promoting piece on its last rank, the
/// side not to move not in check); counters and spells only on the pieces that have them.
pub fn validate(game: &Existentialist, pos: &Position) -> Result<(), PositionError> {
    for c in Color::PLAYERS {
        let found = pos.pieces(c, KING).count();
        if found > 1 {
            return Err(PositionError::RoyalCount { color: c, found });
        }
    }
    if game.kings_alive(pos) {
        movegen::validate_basic(game, pos)?;
    }
    for (sq, st) in pos.states().iter() {
        let kind = pos.piece_at(sq).kind();
        let bad = |what: &str| Err(PositionError::Variant(format!("the piece on {sq} {what}")));
        if st.counter != 0 && kind != BOBBER && kind != EXISTENTIALIST {
            return bad("has a counter, which only Bobbers and Existentialists keep");
        }
        if kind == BOBBER && st.counter > super::BOBBERS.cap - 1 {
            return bad("has a counter above 8, which means nothing more");
        }
        if kind == EXISTENTIALIST && st.counter > LAST_MOVE {
            return bad("has made more than 19 moves: its 20th ends in a blast");
        }
        if st.counter2 != 0 || st.attached.is_some() || st.link != 0 || st.flags.0 != 0 {
            return bad("carries state of Archers, Zednicks or shields, which come later");
        }
        if let Some(spell) = st.spell {
            check_spell(pos, sq, spell.kind, spell.left, st.counter).or_else(|why| bad(&why))?;
        }
    }
    Ok(())
}

/// Whether a spell can stand on the piece on `sq`: a sleeping Existentialist has made exactly ten
/// moves and sleeps at most twenty plies; only Hyenas must move, and only those of the side to
/// move; one-ply spells last this ply only.
fn check_spell(
    pos: &Position,
    sq: Square,
    kind: SpellKind,
    left: u8,
    counter: u8,
) -> Result<(), String> {
    let piece = pos.piece_at(sq);
    if kind == HIBERNATING {
        if piece.kind() != EXISTENTIALIST || counter != CYCLE {
            return Err("sleeps, which only an Existentialist after its tenth move does".into());
        }
        if left > HIBERNATION_PLIES {
            return Err("sleeps longer than 20 plies".into());
        }
        return Ok(());
    }
    if left != 1 {
        return Err("has a spell that lasts more than the ply to come".into());
    }
    if kind == MUST_MOVE && (piece.kind() != HYENA || piece.color() != pos.turn()) {
        return Err("must move, which only a Hyena of the side to move can".into());
    }
    Ok(())
}
