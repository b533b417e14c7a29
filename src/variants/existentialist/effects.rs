//! What moves do beyond the board change of the core kinds: the game's own kinds (merges,
//! shields and their moves, the King's replies from a shared square, RULINGS §12), a Bobber's
//! counter, the Existentialist's counter, its sleep after the tenth move and its blast after the
//! twentieth (§1.2, §1.4 items 14-17 and 21, §9 items 9 and 14), the spells a Dazzler's jump
//! casts (§9 item 13), the Archer's fire streak (§12 item 15), the King+Archer's Archer dying in
//! its King's place (§12 items 8, 12 and 13), and the Wildcat (§1.2 Hyena). Also the game's own
//! evaluation terms.

use super::moves::{anchor, jumped};
use super::status::{self, frozen, protected, shields, shooters, sleeping, spelled};
use super::{Existentialist, ADVENTURIST, ARCHER, BOBBER, BOBBERS, CYCLE, DAZZLED, DAZZLER};
use super::{EXISTENTIALIST, HIBERNATING, HIBERNATION_PLIES, HYENA, INVULNERABLE, IN_PLACE};
use super::{KING, LAST_MOVE, MERGE, MUST_MOVE, PAWN, REST, SHARED, SHARED_STEP, SHIELD3};
use super::{SHIELD_MOVE, TELEPORTER, WILDCAT, YANZEE, ZEDNICK};
use crate::board::{Effects, PieceState, Position, Spell};
use crate::core::{Bitboard, Color, Move, MoveKind, Piece, Square};
use crate::rules::Direction;
use crate::variants::switches::GameTerm;

/// Makes a move of one of the game's own kinds.
pub fn apply_special(
    game: &Existentialist,
    before: &Position,
    m: Move,
    after: &mut Position,
) -> Effects {
    let irreversible = Effects {
        irreversible: true,
        double_step: None,
    };
    if m.is(MERGE) {
        merge(game, before, m.from(), m.to(), after);
        irreversible
    } else if m.is(SHIELD3) {
        let squares = [m.from(), m.aux().expect("a three-square shield"), m.to()];
        make_shield(after, &squares, before.turn());
        irreversible
    } else if m.is(SHIELD_MOVE) {
        move_shield(before, m, after);
        Effects::default()
    } else if m.is(IN_PLACE) {
        // The King takes the intruder and stands on its square again, bare.
        let us = before.turn();
        after.capture(m.from());
        after.put(Piece::new(us, KING), m.from());
        restore_castling(game, before, after, us);
        irreversible
    } else {
        debug_assert!(m.is(SHARED_STEP), "{m:?}");
        let us = before.turn();
        let _ = after.update_state(m.from(), |s| s.flags.remove(SHARED));
        after.set_unmoved(m.from(), false);
        after.normalize_castling(&game.rules);
        let took = after.piece_at(m.to()).is_some();
        if took {
            after.capture(m.to());
        }
        after.put(Piece::new(us, KING), m.to());
        Effects {
            irreversible: took,
            double_step: None,
        }
    }
}

/// The Archer or Zednick on `from` joins the friendly piece on `to` (RULINGS §12 items 16, 18,
/// 21; §1.4 items 2 and 26): the merged piece stands on `to`.
fn merge(game: &Existentialist, before: &Position, from: Square, to: Square, after: &mut Position) {
    let us = before.turn();
    let mover = before.piece_at(from).kind();
    let partner = before.piece_at(to).kind();
    if mover == ZEDNICK && partner == TELEPORTER {
        make_shield(after, &[from, to], us);
        return;
    }
    after.remove(from);
    match (mover, partner) {
        // The Archer/Zednick: the Archer carrying the Zednick, on the square stepped onto.
        (ARCHER, ZEDNICK) => {
            after.remove(to);
            after.put(Piece::new(us, ARCHER), to);
            let _ = after.update_state(to, |s| s.attached = Piece::new(us, ZEDNICK));
        }
        (ZEDNICK, ARCHER) => {
            let _ = after.update_state(to, |s| s.attached = Piece::new(us, ZEDNICK));
        }
        (ARCHER, _) => {
            let _ = after.update_state(to, |s| {
                s.attached = Piece::new(us, ARCHER);
                s.counter2 = 0;
            });
        }
        (ZEDNICK, PAWN) => {
            let state = after.take_state(to);
            after.remove(to);
            after.put(Piece::new(us, ADVENTURIST), to);
            let _ = after.set_state(to, state);
            after.set_unmoved(to, game.rules.can_be_unmoved(ADVENTURIST, us, to));
        }
        (ZEDNICK, BOBBER) => {
            let _ = after.update_state(to, |s| {
                s.counter = (s.counter + 3).min(BOBBERS.cap - 1);
            });
        }
        other => unreachable!("no merge of {other:?}"),
    }
}

/// Turns the squares of a new shield into shield squares of `color`: Zednicks sharing a link
/// number (renumbered afterwards).
fn make_shield(after: &mut Position, squares: &[Square], color: Color) {
    let link = status::shields(after)
        .into_iter()
        .map(|s| after.state(s).link)
        .max()
        .unwrap_or(0)
        + 1;
    for &sq in squares {
        after.take_state(sq);
        after.remove(sq);
        after.put(Piece::new(color, ZEDNICK), sq);
        let _ = after.set_state(
            sq,
            PieceState {
                link,
                ..PieceState::default()
            },
        );
    }
}

/// Shifts the shield anchored on `m.from()` so that its anchor lands on `m.to()`.
fn move_shield(before: &Position, m: Move, after: &mut Position) {
    let shield = status::shield_of(before, m.from());
    debug_assert_eq!(anchor(shield), m.from());
    let (df, dr) = (
        m.to().file() as i8 - m.from().file() as i8,
        m.to().rank() as i8 - m.from().rank() as i8,
    );
    let parts: Vec<(Square, Piece, PieceState)> = shield
        .into_iter()
        .map(|s| (s, before.piece_at(s), before.state(s)))
        .collect();
    for &(s, _, _) in &parts {
        after.take_state(s);
        after.remove(s);
    }
    for (s, piece, state) in parts {
        let to = s.offset(df, dr).expect("a shield moves on the board");
        after.put(piece, to);
        let _ = after.set_state(to, state);
    }
}

/// The game's updates after `m` took `before` to `after` (the board already changed and the game
/// ply advanced, so spells cast now with one ply left are in force for the opponent's next ply
/// only).
pub fn after_move(game: &Existentialist, before: &Position, m: Move, after: &mut Position) {
    let us = before.turn();
    let mover = before.piece_at(m.from());
    let plain = matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion);
    if matches!(
        m.kind(),
        MoveKind::Normal | MoveKind::Promotion | MoveKind::Shot
    ) {
        hit_survivors(game, before, m, after);
    }
    if plain {
        match mover.kind() {
            BOBBER => {
                let _ = after.update_state(m.to(), |s| s.counter = BOBBERS.next_counter(s.counter));
            }
            EXISTENTIALIST => existentialist_moved(game, before, m, after),
            DAZZLER => {
                if let Some(sq) = jumped(game, before, m.from(), m.to()) {
                    cast(after, sq, mover.color());
                }
            }
            ADVENTURIST if m.kind() == MoveKind::Normal => {
                let fresh = before.unmoved().contains(m.from())
                    && game.rules.can_be_unmoved(ADVENTURIST, us, m.to());
                after.set_unmoved(m.to(), fresh);
            }
            _ => {}
        }
    }
    let teleport = plain && mover.kind() == TELEPORTER && before.piece_at(m.to()).is_none();
    fire_streak(before, m, after, us, teleport);
    if shields(after).nonempty() {
        renumber_shields(after);
    }
}

/// A capture or a shot onto a protected King+Archer kills only its Archer: after a capture the
/// King shares its square with the capturer (`k`), after a shot it stands there bare (RULINGS
/// §1.3, §12 items 8 and 13); the 20th move's blast is handled with the blast. A Hyena its own
/// Dazzler protects becomes a Wildcat when shot (§1.2 Hyena).
fn hit_survivors(game: &Existentialist, before: &Position, m: Move, after: &mut Position) {
    let to = m.to();
    let victim = before.piece_at(to);
    if victim.is_none() || victim.color() == before.turn() {
        return;
    }
    let them = victim.color();
    if victim.kind() == KING && protected(before, to) {
        let blast_move = before.piece_at(m.from()).kind() == EXISTENTIALIST
            && before.state(m.from()).counter == LAST_MOVE;
        if m.kind() == MoveKind::Shot {
            after.put(victim, to);
            restore_castling(game, before, after, them);
        } else if !blast_move {
            let _ = after.update_state(to, |s| s.flags.insert(SHARED));
            restore_castling(game, before, after, them);
        }
    } else if m.kind() == MoveKind::Shot
        && victim.kind() == HYENA
        && before
            .state(to)
            .spell
            .is_some_and(|s| s.kind == INVULNERABLE)
    {
        after.put(Piece::new(them, WILDCAT), to);
    }
}

/// Puts back the castling marks of `color` that `before` had, where its pieces still stand: a
/// hit on the King+Archer that kills only the Archer, and the King's capture in place, cost no
/// castling right (RULINGS §12 item 9).
fn restore_castling(game: &Existentialist, before: &Position, after: &mut Position, color: Color) {
    for c in game.rules.spec.castling.iter().filter(|c| c.color == color) {
        for sq in [c.king_from, c.partner_from] {
            if before.unmoved().contains(sq) {
                after.set_unmoved(sq, true);
            }
        }
    }
}

/// The Existentialist's counter after a move; after its 10th move it sleeps, and its 20th ends in
/// the blast.
fn existentialist_moved(game: &Existentialist, before: &Position, m: Move, after: &mut Position) {
    let moves_made = before.state(m.from()).counter;
    if moves_made == LAST_MOVE {
        blast(game, before, after, m.to());
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

/// The spell of a Dazzler of `caster`'s jump over the piece on `sq` (RULINGS §1.2, §9 item 13,
/// §12 item 19): a friendly piece may not be captured during the opponent's next ply (a Yanzee
/// gains nothing, a shield neither; a Hyena gains the Wildcat protection); an enemy piece may
/// not move on its next ply, and an enemy Hyena must move instead.
fn cast(after: &mut Position, sq: Square, caster: Color) {
    let p = after.piece_at(sq);
    if shields(after).contains(sq) {
        return;
    }
    let kind = match (p.color() == caster, p.kind()) {
        (true, YANZEE) => return,
        (true, _) => INVULNERABLE,
        (false, HYENA) => MUST_MOVE,
        (false, _) => DAZZLED,
    };
    let _ = after.update_state(sq, |s| s.spell = Some(Spell { kind, left: 1 }));
}

/// The Existentialist's 20th move ends in a blast centred on the square it reached (RULINGS
/// §1.4 items 14-15, §12 items 8, 12 and 19): it is destroyed; a protected King+Archer it landed
/// on loses only its Archer and stays on the centre; on each of the eight lines from the centre
/// the first piece of either colour is killed, except that a sleeping Existentialist stops its
/// line unharmed, a shield hit anywhere is destroyed whole, a protected King+Archer loses only
/// its Archer, and a Hyena its own Dazzler protects becomes a Wildcat.
fn blast(game: &Existentialist, before: &Position, after: &mut Position, centre: Square) {
    after.capture(centre);
    let landed_on = before.piece_at(centre);
    if landed_on.kind() == KING && landed_on.color() != before.turn() && protected(before, centre) {
        after.put(landed_on, centre);
        restore_castling(game, before, after, landed_on.color());
    }
    let t = &game.rules.tables;
    let asleep = sleeping(after);
    // The Wildcat protection is read before the move: the ply has advanced on `after`, and the
    // one-ply spell with it (it lasts through the blast, the opponent's ply, §12 item 2).
    let protected_by_dazzler = spelled(before, INVULNERABLE);
    let shield_squares = shields(after);
    let mut hits = Bitboard::EMPTY;
    for d in 0..8u8 {
        if let Some(hit) = t.first_blocker(Direction(d), centre, after.occupied()) {
            hits.insert(hit);
        }
    }
    for hit in hits {
        if asleep.contains(hit) || after.piece_at(hit).is_none() {
            continue;
        }
        let p = after.piece_at(hit);
        if shield_squares.contains(hit) {
            for s in status::shield_of(after, hit) {
                after.capture(s);
            }
        } else if p.kind() == KING && protected(after, hit) {
            let _ = after.update_state(hit, |s| {
                s.attached = Piece::NONE;
                s.counter2 = 0;
            });
        } else if p.kind() == HYENA && protected_by_dazzler.contains(hit) {
            after.capture(hit);
            after.put(Piece::new(p.color(), WILDCAT), hit);
        } else {
            after.capture(hit);
        }
    }
    after.set_halfmove(0);
}

/// The fire streak of the mover's shooters (RULINGS §12 item 15): a shot adds one for its
/// shooter; any other turn resets it to 0, but a Teleporter host that teleports gets 3, its rest
/// turn.
fn fire_streak(before: &Position, m: Move, after: &mut Position, us: Color, teleport: bool) {
    for h in shooters(after) & after.color_bb(us) {
        let streak = if m.kind() == MoveKind::Shot && m.from() == h {
            before.state(h).counter2 + 1
        } else if teleport && h == m.to() {
            REST
        } else {
            0
        };
        if after.state(h).counter2 != streak {
            let _ = after.update_state(h, |s| s.counter2 = streak);
        }
    }
}

/// Numbers the shields 1, 2, ... in FEN reading order (rank 10 down, file a to j), so that equal
/// positions are equal however their shields were made (RULINGS §12 item 2).
pub fn renumber_shields(pos: &mut Position) {
    let squares = shields(pos);
    let mut order: Vec<Square> = squares.collect();
    order.sort_by_key(|s| (std::cmp::Reverse(s.rank()), s.file()));
    let mut seen: Vec<(Color, u8)> = Vec::new();
    for sq in order {
        let key = (pos.piece_at(sq).color(), pos.state(sq).link);
        let number = match seen.iter().position(|&k| k == key) {
            Some(i) => i + 1,
            None => {
                seen.push(key);
                seen.len()
            }
        } as u8;
        if pos.state(sq).link != number {
            let _ = pos.update_state(sq, |s| s.link = number);
        }
    }
}

/// The game's own evaluation terms: the Existentialist's progress through its cycle (per step
/// already made: its later steps are stronger) and while it is about to explode; a Bobber's
/// growth (per move it has made: its range grows); a host carrying the Archer, the King+Archer
/// apart; shield squares; own pieces frozen by an enemy Hyena; own pieces dazzled.
pub const TERMS: &[GameTerm] = &[
    GameTerm::new("existentialist_step", 8),
    GameTerm::new("existentialist_pending_blast", 60),
    GameTerm::new("bobber_growth", 12),
    GameTerm::new("archer_host", 60),
    GameTerm::new("king_archer", 80),
    GameTerm::new("shield_square", 30),
    GameTerm::new("frozen_piece", -25),
    GameTerm::new("dazzled_piece", -15),
];

/// The features of [`TERMS`] for White minus Black.
pub fn features(game: &Existentialist, pos: &Position, out: &mut [i32]) {
    let hosts = shooters(pos);
    let shield_squares = shields(pos);
    for c in Color::PLAYERS {
        let sign = if c == Color::White { 1 } else { -1 };
        for x in pos.pieces(c, EXISTENTIALIST) {
            let state: PieceState = pos.state(x);
            if state.spell.is_none() {
                out[0] += sign * (state.counter % CYCLE) as i32;
                if state.counter == LAST_MOVE {
                    out[1] += sign;
                }
            }
        }
        for b in pos.pieces(c, BOBBER) {
            out[2] += sign * pos.state(b).counter as i32;
        }
        for h in hosts & pos.color_bb(c) {
            out[if pos.piece_at(h).kind() == KING { 4 } else { 3 }] += sign;
        }
        out[5] += sign * (shield_squares & pos.color_bb(c)).count() as i32;
        out[6] += sign * frozen(game, pos, c).count() as i32;
        out[7] += sign * (spelled(pos, DAZZLED) & pos.color_bb(c)).count() as i32;
    }
}
