//! The attack test: whether the enemy could take a piece standing on a square on its next move,
//! by a capture or a blast (RULINGS §9 items 1, 7 and 9). Only pieces that can act attack (the
//! caller passes them); the Dazzler's leaps may not jump a sleeping Existentialist and its cannon
//! captures only orthogonally over one screen; the Existentialist threatens by its next step,
//! never by the double knight (§1.4 item 18), and when its next move is its 20th, by the blast
//! that follows any of its step-10 moves.

use super::status::{self, sleeping, uncapturable};
use super::{Existentialist, BOBBER, BOBBERS, DAZZLER, EXISTENTIALIST, INVULNERABLE, KING};
use super::{CYCLE, LAST_MOVE};
use crate::board::Position;
use crate::core::{Bitboard, Color, Square};
use crate::movegen::{self, Method};
use crate::rules::Direction;
use crate::variants::Shortcuts;

/// Whether the pieces on `attackers` could take a piece standing on `sq`, with `occupied` as the
/// blockers; with `captures` false only a blast counts (a piece its own Dazzler protects).
pub fn attacked(
    game: &Existentialist,
    pos: &Position,
    sq: Square,
    occupied: Bitboard,
    attackers: Bitboard,
    how: Method,
    captures: bool,
) -> bool {
    let rules = &game.rules;
    let attackers = attackers & occupied;
    let xs = attackers & pos.kind_bb(EXISTENTIALIST);
    if xs.nonempty()
        && xs.into_iter().any(|x| {
            pos.state(x).counter == LAST_MOVE && blast_reaches(game, pos, x, sq, occupied, how)
        })
    {
        return true;
    }
    if !captures {
        return false;
    }
    let special = pos.kind_bb(DAZZLER) | pos.kind_bb(EXISTENTIALIST) | pos.kind_bb(BOBBER);
    if movegen::attacked_by(rules, pos, sq, occupied, attackers & !special, how) {
        return true;
    }
    let dazzlers = attackers & pos.kind_bb(DAZZLER);
    if dazzlers
        .into_iter()
        .any(|d| dazzler_reaches(game, pos, d, sq, occupied))
    {
        return true;
    }
    let bobbers = attackers & pos.kind_bb(BOBBER);
    if bobbers.nonempty() {
        let hit = match how {
            Method::Fast => BOBBERS.attacks(rules, pos, sq, occupied, bobbers),
            Method::Reference => bobbers.into_iter().any(|b| {
                BOBBERS
                    .reference_targets(rules, pos, b, occupied)
                    .contains(&sq)
            }),
        };
        if hit {
            return true;
        }
    }
    xs.into_iter()
        .any(|x| step_captures(game, pos, x, occupied, how).contains(sq))
}

/// Whether `color`'s King on `k` is attacked: by a capture, unless its own Dazzler protects it
/// (which never holds against a blast, RULINGS §9 item 2), or by a blast.
pub fn king_attacked(
    game: &Existentialist,
    pos: &Position,
    k: Square,
    color: Color,
    how: Method,
) -> bool {
    let attackers = status::attackers(game, pos, color);
    let protected = pos.state(k).spell.is_some_and(|s| s.kind == INVULNERABLE);
    attacked(game, pos, k, pos.occupied(), attackers, how, !protected)
}

/// The step of the Existentialist on `x`'s next move, 1 to 10.
pub fn next_step(pos: &Position, x: Square) -> u8 {
    pos.state(x).counter % CYCLE + 1
}

/// The squares the Existentialist on `x` could capture on with its next step, with `occupied` as
/// blockers: none for step 1 (it moves only to empty squares) and step 5 (the double knight
/// attacks no King, RULINGS §1.4 item 18); for the others their template's captures.
fn step_captures(
    game: &Existentialist,
    pos: &Position,
    x: Square,
    occupied: Bitboard,
    how: Method,
) -> Bitboard {
    let Some(template) = step_template_at(game, pos, x) else {
        return Bitboard::EMPTY;
    };
    let color = pos.piece_at(x).color();
    reach(game, pos, x, color, template, occupied, how)
}

/// The movement template of the next step of the Existentialist on `x`, if it moves by one.
pub fn step_template_at(
    game: &Existentialist,
    pos: &Position,
    x: Square,
) -> Option<crate::core::PieceKind> {
    let color = pos.piece_at(x).color();
    match next_step(pos, x) {
        1 | 5 => None,
        3 if game.rules.geometry().relative_rank(color, x) == 0 => Some(game.step_template(0)),
        step => Some(game.step_template(step)),
    }
}

/// Every square a movement template reaches from `from` (moving or capturing), with `occupied`
/// as blockers, by the tables or by walking its atoms.
pub fn reach(
    game: &Existentialist,
    pos: &Position,
    from: Square,
    color: Color,
    template: crate::core::PieceKind,
    occupied: Bitboard,
    how: Method,
) -> Bitboard {
    let rules = &game.rules;
    match how {
        Method::Fast => {
            let t = &rules.tables;
            t.leap_quiet(color, template, from)
                | t.leap_capture(color, template, from)
                | t.ride_targets(t.quiet_rides(color, template), from, occupied)
                | t.ride_targets(t.capture_rides(color, template), from, occupied)
        }
        Method::Reference => {
            // Walk the atoms on a board holding only the blockers.
            let mut board = pos.clone();
            for s in pos.occupied() & !occupied {
                board.remove(s);
            }
            movegen::reference::targets_as(rules, &board, from, template, color, occupied)
                .into_iter()
                .map(|(s, _)| s)
                .collect()
        }
    }
}

/// Whether the Dazzler on `d` could capture on `sq`: by a step, by a two-square leap that does
/// not jump a sleeping Existentialist (RULINGS §1.4 items 4 and 20), or as a cannon along a rank
/// or file over exactly one piece that may be jumped (§1.4 item 3; distance 2 is the leap).
fn dazzler_reaches(
    game: &Existentialist,
    pos: &Position,
    d: Square,
    sq: Square,
    occupied: Bitboard,
) -> bool {
    let (df, dr) = (
        sq.file() as i8 - d.file() as i8,
        sq.rank() as i8 - d.rank() as i8,
    );
    let dist = df.abs().max(dr.abs());
    if dist == 1 {
        return true;
    }
    let straight = df == 0 || dr == 0 || df.abs() == dr.abs();
    if !straight {
        return false;
    }
    let between = between(game, d, sq);
    let jumped = between & occupied;
    if dist == 2 {
        return (jumped & sleeping(pos)).is_empty();
    }
    let orthogonal = df == 0 || dr == 0;
    orthogonal && jumped.count() == 1 && (jumped & sleeping(pos)).is_empty()
}

/// The squares strictly between two squares on a line.
pub fn between(game: &Existentialist, a: Square, b: Square) -> Bitboard {
    let t = &game.rules.tables;
    let Some(d) = Direction::from_step(
        b.file() as i8 - a.file() as i8,
        b.rank() as i8 - a.rank() as i8,
    ) else {
        return Bitboard::EMPTY;
    };
    t.ray(d, a) & t.ray(d.opposite(), b)
}

/// Whether the blast after a step-10 move of the Existentialist on `x` could kill the piece on
/// `sq` (RULINGS §9 item 9): some square the step reaches, empty or holding a piece it may
/// capture, from which `sq` is the first piece along a line, with the Existentialist gone from
/// `x`. Pins are ignored.
fn blast_reaches(
    game: &Existentialist,
    pos: &Position,
    x: Square,
    sq: Square,
    occupied: Bitboard,
    how: Method,
) -> bool {
    let color = pos.piece_at(x).color();
    let steps = reach(
        game,
        pos,
        x,
        color,
        game.step_template(CYCLE),
        occupied,
        how,
    );
    let t = &game.rules.tables;
    let vacated = occupied & !Bitboard::from_square(x);
    let takeable = pos.color_bb(color.opponent()) & !uncapturable(pos) & !pos.kind_bb(KING);
    (0..8u8).any(|d| {
        let d = Direction(d);
        // Centres on this line: the empty squares up to the first piece, and that piece if the
        // Existentialist may take it.
        let line = t.slide(d, sq, vacated);
        let centres = (line & !vacated) | (line & vacated & takeable);
        (centres & steps).nonempty()
    })
}

/// The fast filter's shortcuts (RULINGS §9 item 7): out of check, an ordinary move of a piece
/// that stands on no line between the King and an enemy piece, is neither a Hyena (whose move
/// frees enemy pieces) nor an Existentialist about to explode, and does not end between the King
/// and an enemy Dazzler on its rank or file (where it would become a cannon's screen) is legal as
/// generated; while an enemy Existentialist is about to explode, every move but the King's is
/// made and judged.
pub fn shortcuts(game: &Existentialist, pos: &Position, in_check: bool) -> Shortcuts {
    let us = pos.turn();
    let Some(k) = pos.pieces(us, KING).first() else {
        return Shortcuts::NONE;
    };
    let them = us.opponent();
    let blast_pending = (pos.pieces(them, EXISTENTIALIST) & status::active(game, pos, them))
        .into_iter()
        .any(|x| pos.state(x).counter == LAST_MOVE);
    let royal = Some(k);
    if in_check || blast_pending {
        return Shortcuts {
            safe: Bitboard::EMPTY,
            risky: Bitboard::EMPTY,
            royal,
        };
    }
    let t = &game.rules.tables;
    let occ = pos.occupied();
    let enemy = pos.color_bb(them);
    // A Hyena's move frees enemy pieces; an Existentialist's 20th move blasts.
    let mut unsafe_ = Bitboard::from_square(k) | pos.pieces(us, super::HYENA);
    for x in pos.pieces(us, EXISTENTIALIST) {
        if pos.state(x).counter == LAST_MOVE {
            unsafe_.insert(x);
        }
    }
    let mut risky = Bitboard::EMPTY;
    for d in 0..8u8 {
        let d = Direction(d);
        if let Some(b1) = t.first_blocker(d, k, occ) {
            if pos.color_bb(us).contains(b1)
                && t.first_blocker(d, b1, occ)
                    .is_some_and(|b2| enemy.contains(b2))
            {
                unsafe_.insert(b1);
            }
        }
        // Cannons on this rank or file: every square between the King and the farthest one
        // matters, since taking a piece away or adding one can leave exactly one screen.
        let orthogonal = matches!(d.0, 0 | 1 | 4 | 5);
        let dazzlers = t.ray(d, k) & pos.pieces(them, DAZZLER);
        let farthest = if d.is_positive() {
            dazzlers.last()
        } else {
            dazzlers.first()
        };
        if let Some(far) = farthest.filter(|_| orthogonal) {
            let line = between(game, k, far);
            unsafe_ |= line;
            risky |= line;
        }
    }
    Shortcuts {
        safe: pos.color_bb(us) & !unsafe_,
        risky,
        royal,
    }
}
