//! The attack test: whether the enemy could take a piece standing on a square on its next move,
//! by a capture, an arrow or a blast (RULINGS §9 items 1, 7 and 9, §12 item 7). Only pieces that
//! can act capture; a shooter fires while dazzled and, frozen, only at what its freeze allows;
//! the Dazzler's leaps may not jump a sleeping Existentialist or an enemy shield, and its cannon
//! captures only orthogonally over one screen; the Existentialist threatens by its next step,
//! never by the double knight (§1.4 item 18), and when its next move is its 20th, by the blast
//! that follows any of its step-10 moves; a King does not attack a protected King+Archer (§12
//! item 10).

use super::status::{self, frozen, shields, sleeping, spelled, uncapturable};
use super::{Existentialist, BOBBER, BOBBERS, DAZZLED, DAZZLER, EXISTENTIALIST, HYENA};
use super::{CYCLE, LAST_MOVE};
use super::{INVULNERABLE, KING, REST};
use crate::board::Position;
use crate::core::{Bitboard, Color, PieceKind, Square};
use crate::movegen::{self, Method};
use crate::rules::Direction;
use crate::variants::Shortcuts;

/// What stands on the square under attack.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Whose piece it is (or would be).
    pub defender: Color,
    /// Captures count (not against a piece its own Dazzler protects).
    pub captures: bool,
    /// A protected King+Archer, which no King attacks.
    pub king_archer: bool,
}

/// Whether the pieces on `attackers` could take a piece standing on `sq`, with `occupied` as the
/// blockers.
pub fn attacked(
    game: &Existentialist,
    pos: &Position,
    sq: Square,
    occupied: Bitboard,
    attackers: Bitboard,
    how: Method,
    target: Target,
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
    let shooters = attackers & status::shooters(pos);
    if shooters
        .into_iter()
        .any(|h| arrow_reaches(game, pos, h, sq, occupied))
    {
        return true;
    }
    if !target.captures {
        return false;
    }
    // A shooter that cannot act still fires, but does not capture.
    let mut capturers = attackers;
    for h in shooters {
        let idle = frozen(game, pos, pos.piece_at(h).color()) | spelled(pos, DAZZLED);
        if idle.contains(h) && pos.piece_at(h).kind() != KING {
            capturers.remove(h);
        }
    }
    if target.king_archer {
        capturers &= !pos.kind_bb(KING);
    } else if let Some(s) = status::shared(pos) {
        // A King sharing its square attacks the squares around it (RULINGS §9 item 1).
        let hidden = pos.piece_at(s).color().opponent();
        if hidden != target.defender && game.rules.tables.within(s, 1).contains(sq) && s != sq {
            return true;
        }
    }
    let special = pos.kind_bb(DAZZLER) | pos.kind_bb(EXISTENTIALIST) | pos.kind_bb(BOBBER);
    if movegen::attacked_by(rules, pos, sq, occupied, capturers & !special, how) {
        return true;
    }
    // The Archer/Zednick captures as a King (its table steps only move).
    let archer_zednicks = capturers & shooters & pos.kind_bb(super::ARCHER);
    if (archer_zednicks & game.rules.tables.within(sq, 1)).nonempty() {
        return true;
    }
    let dazzlers = capturers & pos.kind_bb(DAZZLER);
    if dazzlers
        .into_iter()
        .any(|d| dazzler_reaches(game, pos, d, sq, occupied))
    {
        return true;
    }
    let bobbers = capturers & pos.kind_bb(BOBBER);
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
    (capturers & xs)
        .into_iter()
        .any(|x| step_captures(game, pos, x, occupied, how).contains(sq))
}

/// Whether `color`'s King on `k` is attacked: by a capture, unless its own Dazzler protects it
/// (which never holds against an arrow or a blast, RULINGS §9 item 2), by an arrow or a blast.
pub fn king_attacked(
    game: &Existentialist,
    pos: &Position,
    k: Square,
    color: Color,
    how: Method,
) -> bool {
    let attackers = status::attackers(game, pos, color);
    let target = Target {
        defender: color,
        captures: !pos.state(k).spell.is_some_and(|s| s.kind == INVULNERABLE),
        king_archer: status::protected(pos, k),
    };
    attacked(game, pos, k, pos.occupied(), attackers, how, target)
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
pub fn step_template_at(game: &Existentialist, pos: &Position, x: Square) -> Option<PieceKind> {
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
    template: PieceKind,
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

/// Whether the Dazzler on `d` could capture on `sq`: by a step, by a two-square leap that jumps
/// neither a sleeping Existentialist nor an enemy shield (RULINGS §1.4 items 4 and 20, §12 item
/// 19), or as a cannon along a rank or file over one screen (§1.4 item 3; distance 2 is the
/// leap).
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
    if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return false;
    }
    let jumped = between(game, d, sq) & occupied;
    let color = pos.piece_at(d).color();
    if dist == 2 {
        return jumpable(pos, jumped, color);
    }
    (df == 0 || dr == 0) && one_screen(pos, jumped, color)
}

/// Whether a Dazzler of `color` may leap over the pieces on `jumped`: no sleeping Existentialist
/// and no enemy shield among them.
pub fn jumpable(pos: &Position, jumped: Bitboard, color: Color) -> bool {
    let forbidden = sleeping(pos) | (shields(pos) & !pos.color_bb(color));
    (jumped & forbidden).is_empty()
}

/// Whether the pieces on `jumped` (on a rank or file) make one cannon screen for a Dazzler of
/// `color`: one piece that may be jumped, or one whole own shield lying along the line (RULINGS
/// §12 item 19).
pub fn one_screen(pos: &Position, jumped: Bitboard, color: Color) -> bool {
    if !jumpable(pos, jumped, color) || jumped.is_empty() {
        return false;
    }
    if !jumped.more_than_one() {
        return true;
    }
    let first = jumped.first().expect("not empty");
    let own_shields = shields(pos) & pos.color_bb(color);
    own_shields.contains(first)
        && jumped == (status::shield_of(pos, first) & jumped)
        && (status::shield_of(pos, first) & !jumped).is_empty()
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

/// The range of the shots of the shooter on `h` next turn, if it may shoot: 3 for the
/// Archer/Zednick (2 when frozen), 2 for a host; a plain host that is frozen may shoot only an
/// adjacent Hyena (range 1); none after three shots in a row (the rest turn, which follows a
/// Teleporter host's teleport too), nor from a Schizzy's queen half (RULINGS §1.2, §1.4 item 11,
/// §12 items 15 and 17).
pub fn shot_range(game: &Existentialist, pos: &Position, h: Square) -> Option<u8> {
    let state = pos.state(h);
    if state.counter2 >= REST {
        return None;
    }
    let piece = pos.piece_at(h);
    let rules = &game.rules;
    let knight_half = match rules.kinds[piece.kind().index()].spec.faces {
        [] => true,
        faces => faces
            .iter()
            .any(|f| (f.first..=f.last).contains(&h.file()) && f.betza != "Q"),
    };
    if !knight_half {
        return None;
    }
    let is_frozen = frozen(game, pos, piece.color()).contains(h);
    Some(match (status::archer_zednick(pos, h), is_frozen) {
        (true, false) => 3,
        (true, true) | (false, false) => 2,
        (false, true) => 1,
    })
}

/// The square the shooter on `h` would hit along `d`, within its range: the first piece on the
/// line, if it is one an arrow kills (an enemy piece: not a shield or a sleeping
/// Existentialist), with `occupied` as the pieces; a frozen plain host hits only a Hyena.
pub fn arrow_hit(
    game: &Existentialist,
    pos: &Position,
    h: Square,
    d: Direction,
    occupied: Bitboard,
) -> Option<Square> {
    let range = shot_range(game, pos, h)?;
    let t = &game.rules.tables;
    let hit = t.first_blocker(d, h, occupied)?;
    let dist = hit
        .file()
        .abs_diff(h.file())
        .max(hit.rank().abs_diff(h.rank()));
    let enemy = pos.color_bb(pos.piece_at(h).color().opponent());
    let kills = enemy.contains(hit) && !(shields(pos) | sleeping(pos)).contains(hit);
    let frozen_plain = range == 1 && !status::archer_zednick(pos, h);
    (dist <= range && kills && (!frozen_plain || pos.piece_at(hit).kind() == HYENA)).then_some(hit)
}

/// Whether the shooter on `h` could shoot a piece standing on `sq` next turn.
fn arrow_reaches(
    game: &Existentialist,
    pos: &Position,
    h: Square,
    sq: Square,
    occupied: Bitboard,
) -> bool {
    let Some(range) = shot_range(game, pos, h) else {
        return false;
    };
    let (df, dr) = (
        sq.file() as i8 - h.file() as i8,
        sq.rank() as i8 - h.rank() as i8,
    );
    let dist = df.abs().max(dr.abs()) as u8;
    let straight = df == 0 || dr == 0 || df.abs() == dr.abs();
    if !straight || dist == 0 || dist > range || (between(game, h, sq) & occupied).nonempty() {
        return false;
    }
    let frozen_plain = range == 1 && !status::archer_zednick(pos, h);
    !frozen_plain || pos.piece_at(sq).kind() == HYENA
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
    let mut takeable = pos.color_bb(color.opponent()) & !uncapturable(pos) & !pos.kind_bb(KING);
    if let Some(k) =
        status::king_square(pos, color.opponent()).filter(|&k| status::protected(pos, k))
    {
        takeable.insert(k);
    }
    (0..8u8).any(|d| {
        let d = Direction(d);
        // Centres on this line: the empty squares up to the first piece, and that piece if the
        // Existentialist may take it.
        let line = t.slide(d, sq, vacated);
        let centres = (line & !vacated) | (line & vacated & takeable);
        (centres & steps).nonempty()
    })
}

/// The fast filter's shortcuts (RULINGS §9 item 7, §12 item 8). Out of check, an ordinary move
/// of a piece that stands on no line between the King and an enemy piece, is neither a Hyena
/// (whose move frees enemy pieces) nor an Existentialist about to explode, and does not end
/// between the King and an enemy Dazzler on its rank or file (where it would become a cannon's
/// screen) is legal as generated; while an enemy Existentialist is about to explode, every move
/// but the King's is made and judged. A protected King+Archer may stand attacked, so every
/// ordinary move is legal but the 20th of an Existentialist; a capture onto the enemy's
/// protected King+Archer is always made and judged (§12 items 11 and 13).
pub fn shortcuts(game: &Existentialist, pos: &Position, in_check: bool) -> Shortcuts {
    let us = pos.turn();
    let them = us.opponent();
    let Some(k) = pos.pieces(us, KING).first() else {
        return Shortcuts::NONE;
    };
    let mut unsafe_ = pos.pieces(us, super::HYENA);
    for x in pos.pieces(us, EXISTENTIALIST) {
        if pos.state(x).counter == LAST_MOVE {
            unsafe_.insert(x);
        }
    }
    let mut risky = status::king_square(pos, them)
        .filter(|&e| status::protected(pos, e))
        .map_or(Bitboard::EMPTY, Bitboard::from_square);
    if status::protected(pos, k) {
        return Shortcuts {
            safe: pos.color_bb(us) & !pos.pieces(us, EXISTENTIALIST),
            risky,
            royal: None,
            line_pinned: Bitboard::EMPTY,
            by_tables: false,
            every_move: false,
            drops_and_pass: false,
            evasions: Bitboard::ALL,
        };
    }
    unsafe_.insert(k);
    let blast_pending = (pos.pieces(them, EXISTENTIALIST) & status::active(game, pos, them))
        .into_iter()
        .any(|x| pos.state(x).counter == LAST_MOVE);
    let royal = Some(k);
    if in_check || blast_pending {
        return Shortcuts {
            safe: Bitboard::EMPTY,
            risky,
            royal,
            line_pinned: Bitboard::EMPTY,
            by_tables: false,
            every_move: false,
            drops_and_pass: false,
            evasions: Bitboard::ALL,
        };
    }
    let t = &game.rules.tables;
    let occ = pos.occupied();
    let enemy = pos.color_bb(them);
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
        line_pinned: Bitboard::EMPTY,
        by_tables: false,
        every_move: false,
        drops_and_pass: false,
        evasions: Bitboard::ALL,
    }
}
