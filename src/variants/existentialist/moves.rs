//! Moves beyond the tables: Teleporter teleports (a dazzled one may teleport, a frozen one may
//! not, RULINGS §1.2), Bobbers at their range, the Existentialist's steps, and the Dazzler's
//! cannon captures; each fast, and slow for the reference generator. Also the filter over every
//! generated move (a Dazzler's leap over a sleeping Existentialist, castling with a frozen or
//! dazzled King or Squire).

use super::status::{self, frozen, sleeping, spelled};
use super::threats::{self, between, next_step};
use super::{Existentialist, BOBBERS, DAZZLED, DAZZLER, EXISTENTIALIST, KING, KNIGHT};
use super::{TELEPORTER, TELEPORTERS};
use crate::board::Position;
use crate::core::{Bitboard, Move, MoveKind, MoveList, Square};
use crate::movegen::Method;
use crate::variants::Rights;

/// The fast generator's moves beyond the tables.
pub fn extra(game: &Existentialist, pos: &Position, in_check: bool, out: &mut MoveList) {
    let rules = &game.rules;
    let us = pos.turn();
    let rights = status::rights(game, pos, in_check);
    if rights.movers.is_empty() {
        return;
    }
    TELEPORTERS.moves(rules, pos, teleporters(game, pos), out);
    BOBBERS.moves(rules, pos, rights.movers, rights.victims[us], out);
    for x in rights.movers & pos.pieces(us, EXISTENTIALIST) {
        for to in existentialist_targets(game, pos, x, &rights, Method::Fast) {
            out.push(Move::normal(x, to));
        }
    }
    for d in rights.movers & pos.pieces(us, DAZZLER) {
        for to in cannon_targets(game, pos, d, rights.victims[us]) {
            out.push(Move::normal(d, to));
        }
    }
}

/// The same moves, the slow way.
pub fn reference_extra(game: &Existentialist, pos: &Position, in_check: bool, out: &mut Vec<Move>) {
    let rules = &game.rules;
    let us = pos.turn();
    let rights = status::rights(game, pos, in_check);
    if rights.movers.is_empty() {
        return;
    }
    TELEPORTERS.reference_moves(rules, pos, teleporters(game, pos), out);
    let allowed = !pos.occupied() | rights.victims[us];
    for b in Square::all()
        .filter(|&s| rights.movers.contains(s) && pos.piece_at(s).kind() == super::BOBBER)
    {
        for to in BOBBERS.reference_targets(rules, pos, b, pos.occupied()) {
            if allowed.contains(to) {
                out.push(Move::normal(b, to));
            }
        }
    }
    for x in rights.movers & pos.pieces(us, EXISTENTIALIST) {
        for to in existentialist_targets(game, pos, x, &rights, Method::Reference) {
            out.push(Move::normal(x, to));
        }
    }
    for d in rights.movers & pos.pieces(us, DAZZLER) {
        for to in cannon_targets(game, pos, d, rights.victims[us]) {
            out.push(Move::normal(d, to));
        }
    }
}

/// The side to move's Teleporters that may teleport: not frozen (dazzled ones may).
fn teleporters(game: &Existentialist, pos: &Position) -> Bitboard {
    let us = pos.turn();
    if !game.kings_alive(pos) {
        return Bitboard::EMPTY;
    }
    pos.pieces(us, TELEPORTER) & !frozen(game, pos, us)
}

/// Where the Existentialist on `x` may go with its next step (RULINGS §1.2, §9 items 4, 12):
/// step 1 to any empty square; step 5 by two knight leaps, the first to an empty square, never
/// ending on a King or where it started; the others by their template, capturing `rights`'
/// victims. The step-10 move of its 20th is an ordinary move: the blast follows it
/// (`effects`).
fn existentialist_targets(
    game: &Existentialist,
    pos: &Position,
    x: Square,
    rights: &Rights,
    how: Method,
) -> Bitboard {
    let us = pos.turn();
    let occ = pos.occupied();
    let empty = game.rules.geometry().board() & !occ;
    let victims = rights.victims[us];
    match next_step(pos, x) {
        1 => empty,
        5 => double_knight(game, pos, x, victims & !pos.kind_bb(KING), how),
        _ => {
            let template = threats::step_template_at(game, pos, x).expect("a template step");
            let quiet_and_captures = threats::reach(game, pos, x, us, template, occ, how);
            quiet_and_captures & (empty | victims)
        }
    }
}

/// The double knight's final squares from `x`: over an empty square one knight leap away, to an
/// empty square or a victim one more leap away, never back to `x` (RULINGS §9 item 4). One move
/// per final square.
fn double_knight(
    game: &Existentialist,
    pos: &Position,
    x: Square,
    victims: Bitboard,
    how: Method,
) -> Bitboard {
    let us = pos.turn();
    let occ = pos.occupied();
    let empty = game.rules.geometry().board() & !occ;
    let hop = |from: Square| -> Bitboard {
        match how {
            Method::Fast => game.rules.tables.leap_capture(us, KNIGHT, from),
            Method::Reference => {
                let mut b = Bitboard::EMPTY;
                for (df, dr) in [
                    (1, 2),
                    (2, 1),
                    (2, -1),
                    (1, -2),
                    (-1, -2),
                    (-2, -1),
                    (-2, 1),
                    (-1, 2),
                ] {
                    if let Some(s) = from
                        .offset(df, dr)
                        .filter(|&s| game.rules.geometry().contains(s))
                    {
                        b.insert(s);
                    }
                }
                b
            }
        }
    };
    let mut finals = Bitboard::EMPTY;
    for mid in hop(x) & empty {
        finals |= hop(mid);
    }
    finals & (empty | victims) & !Bitboard::from_square(x)
}

/// The Dazzler on `d`'s cannon captures (RULINGS §1.4 item 3, §9 item 3): along a rank or file
/// over exactly one piece that may be jumped, onto the first piece beyond if it is a victim, at
/// least three squares away (two squares away it is the leap capture, the same move).
fn cannon_targets(game: &Existentialist, pos: &Position, d: Square, victims: Bitboard) -> Bitboard {
    let occ = pos.occupied();
    let mut out = Bitboard::EMPTY;
    for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
        let mut cur = d;
        let mut screens = 0;
        let mut steps = 0;
        while let Some(next) = cur
            .offset(df, dr)
            .filter(|&s| game.rules.geometry().contains(s))
        {
            cur = next;
            steps += 1;
            if !occ.contains(next) {
                continue;
            }
            if screens == 0 {
                if sleeping(pos).contains(next) {
                    break;
                }
                screens = 1;
                continue;
            }
            if steps >= 3 && victims.contains(next) {
                out.insert(next);
            }
            break;
        }
    }
    out
}

/// The filter over every generated move: a Dazzler's two-square leap may not jump a sleeping
/// Existentialist (RULINGS §1.4 item 4); a frozen or dazzled King or Squire may not castle (§9
/// item 6).
pub fn allows(game: &Existentialist, pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::Normal => {
            let p = pos.piece_at(m.from());
            if p.kind() != DAZZLER {
                return true;
            }
            (between(game, m.from(), m.to()) & sleeping(pos)).is_empty()
        }
        MoveKind::Castle => {
            let us = pos.turn();
            let held = frozen(game, pos, us) | spelled(pos, DAZZLED);
            let partner = m.aux().expect("castling names its partner");
            !held.contains(m.from()) && !held.contains(partner)
        }
        _ => true,
    }
}

/// The piece a Dazzler's move from `from` to `to` jumps, if any: the one piece between them.
pub fn jumped(game: &Existentialist, pos: &Position, from: Square, to: Square) -> Option<Square> {
    let on_line = between(game, from, to) & pos.occupied();
    on_line.first().filter(|_| !on_line.more_than_one())
}
