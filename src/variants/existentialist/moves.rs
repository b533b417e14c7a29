//! Moves beyond the tables, each fast and slow for the reference generator where the two differ:
//! Teleporter teleports (a dazzled one may teleport, a frozen one may not, RULINGS §1.2),
//! Bobbers at their range, the Existentialist's steps, the Dazzler's cannon captures, the
//! Archer's and Zednick's merges, shots, shields and their moves, the Adventurist's long steps
//! and the Archer/Zednick's captures, and the King's replies from a shared square (§12). Also
//! the filter over every generated move.

use super::status::{self, frozen, king_square, protected, spelled};
use super::threats::{self, between, next_step, one_screen};
use super::{Existentialist, ADVENTURIST, ARCHER, BOBBER, BOBBERS, DAZZLED, DAZZLER};
use super::{EXISTENTIALIST, HYENA, IN_PLACE, KING, KNIGHT, MERGE, PAWN, SHARED_STEP, SHIELD3};
use super::{SHIELD_MOVE, TELEPORTER, TELEPORTERS, YANZEE, ZEDNICK};
use crate::board::Position;
use crate::core::{Bitboard, Color, Move, MoveKind, MoveList, Square};
use crate::movegen::{BulkCount, Method};
use crate::rules::Direction;
use crate::variants::Rights;

/// The fast generator's moves beyond the tables.
pub fn extra(game: &Existentialist, pos: &Position, in_check: bool, out: &mut MoveList) {
    beyond_tables(game, pos, in_check, Method::Fast, out);
}

/// The same moves, the slow way.
pub fn reference_extra(game: &Existentialist, pos: &Position, in_check: bool, out: &mut Vec<Move>) {
    beyond_tables(game, pos, in_check, Method::Reference, out);
}

/// The same moves when they are only counted (perft's last ply): the plain moves of teleports,
/// Bobbers, Existentialists, the Dazzler's cannon, the Adventurist's long steps and the
/// Archer/Zednick's captures are counted where the shortcuts prove them legal (each is kept
/// by `allows`, which refuses only a King's capture and a Dazzler's leap over a piece it may
/// not jump, and a cannon's screen is never one); every other move is listed.
pub fn count_extra(game: &Existentialist, pos: &Position, in_check: bool, out: &mut BulkCount) {
    beyond_tables(game, pos, in_check, Method::Fast, out);
}

/// Where the moves beyond the tables go: a list, or a count (`BulkCount`).
trait Out {
    /// The plain moves of the piece on `from` to each of `targets`, in square order.
    fn normals(&mut self, from: Square, targets: Bitboard);
    /// Any other move.
    fn push(&mut self, m: Move);
}

impl Out for MoveList {
    #[inline]
    fn normals(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            MoveList::push(self, Move::normal(from, to));
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

impl Out for Vec<Move> {
    fn normals(&mut self, from: Square, targets: Bitboard) {
        self.extend(targets.map(|to| Move::normal(from, to)));
    }

    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
}

impl Out for BulkCount<'_> {
    #[inline]
    fn normals(&mut self, from: Square, targets: Bitboard) {
        BulkCount::normals(self, from, targets);
    }

    #[inline]
    fn push(&mut self, m: Move) {
        BulkCount::push(self, m);
    }
}

/// Every move beyond the tables, by `how` where the methods differ.
fn beyond_tables<O: Out>(
    game: &Existentialist,
    pos: &Position,
    in_check: bool,
    how: Method,
    out: &mut O,
) {
    let rules = &game.rules;
    let us = pos.turn();
    if !status::kings_alive(pos) {
        return;
    }
    if let Some(k) = status::shared(pos) {
        shared_replies(game, pos, k, out);
        return;
    }
    let rights = status::rights(game, pos, in_check);
    let teleporters = pos.pieces(us, TELEPORTER) & !frozen(game, pos, us);
    match how {
        Method::Fast => {
            for from in teleporters {
                out.normals(from, TELEPORTERS.teleports(rules, pos, from));
            }
            let allowed = !pos.occupied() | rights.victims[us];
            for from in rights.movers & pos.pieces(us, BOBBER) {
                out.normals(
                    from,
                    BOBBERS.targets(rules, pos, from, pos.occupied()) & allowed,
                );
            }
        }
        Method::Reference => {
            let mut list = Vec::new();
            TELEPORTERS.reference_moves(rules, pos, teleporters, &mut list);
            let allowed = !pos.occupied() | rights.victims[us];
            for b in rights.movers & pos.pieces(us, BOBBER) {
                for to in BOBBERS.reference_targets(rules, pos, b, pos.occupied()) {
                    if allowed.contains(to) {
                        list.push(Move::normal(b, to));
                    }
                }
            }
            for m in list {
                out.push(m);
            }
        }
    }
    for x in rights.movers & pos.pieces(us, EXISTENTIALIST) {
        out.normals(x, existentialist_targets(game, pos, x, &rights, how));
    }
    for d in rights.movers & pos.pieces(us, DAZZLER) {
        out.normals(d, cannon_targets(game, pos, d, rights.victims[us]));
    }
    merges(game, pos, &rights, out);
    shots(game, pos, out);
    shield_moves(game, pos, out);
    adventurist_steps(game, pos, &rights, out);
    archer_zednick_captures(game, pos, &rights, out);
}

/// Where the Existentialist on `x` may go with its next step (RULINGS §1.2, §9 items 4, 12):
/// step 1 to any empty square; step 5 by two knight leaps, the first to an empty square, never
/// ending where it started or on a King (but on a protected King+Archer, §12 item 11); the
/// others by their template, capturing `rights`' victims. The step-10 move of its 20th is an
/// ordinary move: the blast follows it (`effects`).
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
        5 => double_knight(game, pos, x, victims, how),
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
    let geo = game.rules.geometry();
    let empty = geo.board() & !occ;
    let hop = |from: Square| -> Bitboard {
        match how {
            Method::Fast => game.rules.tables.leap_capture(us, KNIGHT, from),
            Method::Reference => [
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ]
            .into_iter()
            .filter_map(|(df, dr)| from.offset(df, dr).filter(|&s| geo.contains(s)))
            .collect(),
        }
    };
    let mut finals = Bitboard::EMPTY;
    for mid in hop(x) & empty {
        finals |= hop(mid);
    }
    finals & (empty | victims) & !Bitboard::from_square(x)
}

/// The squares the double knight from `m.from()` to `m.to()` may pass (RULINGS §9 item 4), as
/// XBoard click paths (the Existentialist, the square between its leaps, the end); none for
/// any other move.
pub fn double_knight_paths(game: &Existentialist, pos: &Position, m: Move) -> Vec<Vec<Square>> {
    let (x, to) = (m.from(), m.to());
    if m.kind() != MoveKind::Normal
        || pos.piece_at(x).kind() != EXISTENTIALIST
        || next_step(pos, x) != 5
    {
        return Vec::new();
    }
    let t = &game.rules.tables;
    let us = pos.turn();
    let empty = game.rules.geometry().board() & !pos.occupied();
    (t.leap_capture(us, KNIGHT, x) & empty)
        .into_iter()
        .filter(|&mid| t.leap_capture(us, KNIGHT, mid).contains(to))
        .map(|mid| vec![x, mid, to])
        .collect()
}

/// The Dazzler on `d`'s cannon captures (RULINGS §1.4 item 3, §9 item 3, §12 item 19): along a
/// rank or file over one screen (one piece that may be jumped, or a whole own shield), onto the
/// first piece beyond if it is a victim, at least three squares away (two squares away it is
/// the leap capture, the same move).
fn cannon_targets(game: &Existentialist, pos: &Position, d: Square, victims: Bitboard) -> Bitboard {
    let t = &game.rules.tables;
    let occ = pos.occupied();
    let color = pos.piece_at(d).color();
    let mut out = Bitboard::EMPTY;
    for dir in [0u8, 1, 4, 5].map(Direction) {
        for target in t.ray(dir, d) & occ & victims {
            let far = target
                .file()
                .abs_diff(d.file())
                .max(target.rank().abs_diff(d.rank()));
            if far >= 3 && one_screen(pos, between(game, d, target) & occ, color) {
                out.insert(target);
            }
        }
    }
    out
}

/// The Archer's and the Zednick's merges (RULINGS §12 items 16 and 18, §1.2): each steps one
/// square onto a friendly piece it may join. The Archer joins any own piece but a Hyena, a
/// Yanzee, an Existentialist, a shield or a piece that already carries it, and the unmerged
/// Zednick (making the Archer/Zednick); the Zednick joins a Pawn (the Adventurist), the Bobber,
/// the unmerged Archer, or orthogonally adjacent Teleporters without the Archer (a shield of two
/// or three squares in line, all on its owner's ranks 1-5).
fn merges(game: &Existentialist, pos: &Position, rights: &Rights, out: &mut impl Out) {
    let us = pos.turn();
    let t = &game.rules.tables;
    let own = pos.color_bb(us);
    let shields = status::shields(pos);
    let plain = |sq: Square| pos.state(sq).attached.is_none() && !shields.contains(sq);
    for a in rights.movers & pos.pieces(us, ARCHER) {
        if !plain(a) {
            continue;
        }
        for to in t.within(a, 1) & own & !Bitboard::from_square(a) {
            let p = pos.piece_at(to);
            let host = !matches!(p.kind(), HYENA | YANZEE | EXISTENTIALIST | ARCHER)
                && !shields.contains(to)
                && pos.state(to).attached.is_none();
            let zednick = p.kind() == ZEDNICK && plain(to);
            if host || zednick {
                out.push(Move::new(MoveKind::Special(MERGE), a, to, None, None));
            }
        }
    }
    let own_half = game.rules.geometry().ranks_of(us, &[0, 1, 2, 3, 4]);
    for z in rights.movers & pos.pieces(us, ZEDNICK) {
        if !plain(z) {
            continue;
        }
        for to in t.within(z, 1) & own & !Bitboard::from_square(z) {
            let p = pos.piece_at(to);
            let ok = match p.kind() {
                PAWN | BOBBER => true,
                ARCHER => plain(to),
                TELEPORTER => shield_partner(pos, z, to, own_half),
                _ => false,
            };
            if ok {
                out.push(Move::new(MoveKind::Special(MERGE), z, to, None, None));
            }
        }
        // Three-square shields: Z-T-T, and T-Z-T (once, written with the Teleporter on the
        // lower file or rank first, RULINGS §12 item 5).
        for d in [0u8, 1, 4, 5].map(Direction) {
            let (df, dr) = Direction::STEPS[d.0 as usize];
            let Some(t1) = z.offset(df, dr) else { continue };
            if !shield_partner(pos, z, t1, own_half) {
                continue;
            }
            if let Some(t2) = t1
                .offset(df, dr)
                .filter(|&t2| shield_partner(pos, z, t2, own_half))
            {
                out.push(Move::new(MoveKind::Special(SHIELD3), z, t2, Some(t1), None));
            }
            if let Some(t0) = z
                .offset(-df, -dr)
                .filter(|&t0| shield_partner(pos, z, t0, own_half))
            {
                if t0 < t1 {
                    out.push(Move::new(MoveKind::Special(SHIELD3), z, t1, Some(t0), None));
                }
            }
        }
    }
}

/// Whether the piece on `t` can join the Zednick on `z` in a shield: an own Teleporter without
/// the Archer, on `z`'s rank or file, both squares on the owner's ranks 1-5 (`own_half`).
fn shield_partner(pos: &Position, z: Square, t: Square, own_half: Bitboard) -> bool {
    let p = pos.piece_at(t);
    p.is_some()
        && p.kind() == TELEPORTER
        && p.color() == pos.piece_at(z).color()
        && pos.state(t).attached.is_none()
        && (z.file() == t.file() || z.rank() == t.rank())
        && own_half.contains(z)
        && own_half.contains(t)
}

/// Shots of the side to move's shooters (RULINGS §1.2 Archer, §12 items 7, 15-17): at the first
/// piece within range on each of the eight lines, if an arrow kills it. Never at a bare King
/// (whose side would have left it in check); a shot at a King+Archer kills only the Archer.
fn shots(game: &Existentialist, pos: &Position, out: &mut impl Out) {
    let us = pos.turn();
    for h in status::shooters(pos) & pos.color_bb(us) {
        for d in (0..8u8).map(Direction) {
            if let Some(hit) = threats::arrow_hit(game, pos, h, d, pos.occupied()) {
                let bare_king = pos.piece_at(hit).kind() == KING && !protected(pos, hit);
                if !bare_king {
                    out.push(Move::shot(h, hit));
                }
            }
        }
    }
}

/// Moves of the side to move's shields (RULINGS §12 item 19): the whole shield one rank forward
/// or back, or 1 to L files sideways (L its length), through empty squares only (its own
/// excepted), never beyond its owner's rank 5; written from the shield's square nearest a1.
fn shield_moves(game: &Existentialist, pos: &Position, out: &mut impl Out) {
    let us = pos.turn();
    let own_half = game.rules.geometry().ranks_of(us, &[0, 1, 2, 3, 4]);
    let mut seen = Bitboard::EMPTY;
    for sq in status::shields(pos) & pos.color_bb(us) {
        if seen.contains(sq) {
            continue;
        }
        let shield = status::shield_of(pos, sq);
        seen |= shield;
        let anchor = anchor(shield);
        let len = shield.count() as i8;
        let free = !pos.occupied() | shield;
        let shifted = |df: i8, dr: i8| -> Option<Bitboard> {
            let mut bb = Bitboard::EMPTY;
            for s in shield {
                bb.insert(s.offset(df, dr).filter(|&t| own_half.contains(t))?);
            }
            Some(bb)
        };
        let mut push = |df: i8, dr: i8| {
            if let Some(to) = anchor.offset(df, dr) {
                out.push(Move::new(
                    MoveKind::Special(SHIELD_MOVE),
                    anchor,
                    to,
                    None,
                    None,
                ));
            }
        };
        for dr in [-1, 1] {
            if shifted(0, dr).is_some_and(|bb| (bb & !free).is_empty()) {
                push(0, dr);
            }
        }
        for side in [-1, 1] {
            // Each step sideways must be clear for the next to be.
            for k in 1..=len {
                match shifted(side * k, 0) {
                    Some(bb) if (bb & !free).is_empty() => push(side * k, 0),
                    _ => break,
                }
            }
        }
    }
}

/// A shield's square nearest a1: the lowest file, then the lowest rank (RULINGS §12 item 5).
pub fn anchor(shield: Bitboard) -> Square {
    shield
        .min_by_key(|s| (s.file(), s.rank()))
        .expect("a shield has squares")
}

/// The Adventurist's long steps (RULINGS §12 item 21): two or three squares straight forward,
/// every square crossed and the landing empty, from its own rank 2 or 3 while it has never been
/// beyond rank 3 (its unmoved mark).
fn adventurist_steps(game: &Existentialist, pos: &Position, rights: &Rights, out: &mut impl Out) {
    let us = pos.turn();
    let geo = game.rules.geometry();
    let forward: i8 = if us == Color::White { 1 } else { -1 };
    for u in rights.movers & pos.pieces(us, ADVENTURIST) & pos.unmoved() {
        if !matches!(geo.relative_rank(us, u), 1 | 2) {
            continue;
        }
        let mut cur = u;
        for step in 1..=3 {
            let Some(next) = cur.offset(0, forward).filter(|&s| geo.contains(s)) else {
                break;
            };
            if pos.piece_at(next).is_some() {
                break;
            }
            cur = next;
            if step >= 2 {
                out.push(Move::normal(u, next));
            }
        }
    }
}

/// The Archer/Zednick's captures, one square in any direction (RULINGS §1.2 Zednick 3), even on
/// its rest turn; its steps come from the Archer's table.
fn archer_zednick_captures(
    game: &Existentialist,
    pos: &Position,
    rights: &Rights,
    out: &mut impl Out,
) {
    let us = pos.turn();
    for a in rights.movers & pos.pieces(us, ARCHER) {
        if status::archer_zednick(pos, a) {
            out.normals(a, game.rules.tables.within(a, 1) & rights.victims[us]);
        }
    }
}

/// The King's replies when it shares its square `k` with an intruder (RULINGS §12 item 13): take
/// the intruder in place (not a sleeping Existentialist), or step away, moving or capturing (not
/// onto a protected King+Archer).
fn shared_replies(game: &Existentialist, pos: &Position, k: Square, out: &mut impl Out) {
    let us = pos.turn();
    let intruder_takeable = !status::uncapturable(pos).contains(k);
    if intruder_takeable {
        out.push(Move::new(MoveKind::Special(IN_PLACE), k, k, None, None));
    }
    let takeable = pos.color_bb(us.opponent()) & !status::uncapturable(pos) & !pos.kind_bb(KING);
    let empty = !pos.occupied() & game.rules.geometry().board();
    for to in game.rules.tables.within(k, 1) & (empty | takeable) & !Bitboard::from_square(k) {
        out.push(Move::new(MoveKind::Special(SHARED_STEP), k, to, None, None));
    }
}

/// The filter over every generated move: a Dazzler's two-square leap may not jump a sleeping
/// Existentialist or an enemy shield (RULINGS §1.4 item 4, §12 item 19); a King never captures
/// onto a protected King+Archer (§12 item 10); a frozen or dazzled King or Squire may not castle
/// (§9 item 6); en passant is taken Pawn-style (diagonally forward) and not through a shield
/// (§12 items 20-21).
pub fn allows(game: &Existentialist, pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    match m.kind() {
        MoveKind::Normal | MoveKind::Promotion => {
            let p = pos.piece_at(m.from());
            match p.kind() {
                DAZZLER => {
                    threats::jumpable(pos, between(game, m.from(), m.to()) & pos.occupied(), us)
                }
                KING => king_square(pos, us.opponent()) != Some(m.to()),
                _ => true,
            }
        }
        MoveKind::Castle => {
            let held = frozen(game, pos, us) | spelled(pos, DAZZLED);
            let partner = m.aux().expect("castling names its partner");
            !held.contains(m.from()) && !held.contains(partner)
        }
        MoveKind::EnPassant => {
            let forward: i8 = if us == Color::White { 1 } else { -1 };
            let diagonal_forward = m.to().rank() as i8 - m.from().rank() as i8 == forward
                && m.to().file().abs_diff(m.from().file()) == 1;
            let victim = m.aux().expect("e.p. names its victim");
            let shields = status::shields(pos);
            diagonal_forward
                && (rectangle_between(m.from(), victim) & shields).is_empty()
                && (rectangle_between(m.from(), m.to()) & shields).is_empty()
        }
        _ => true,
    }
}

/// Whether `allows` keeps every two-square leap of the side to move's Dazzlers: no sleeping
/// Existentialist and no enemy shield (the pieces they may not jump, RULINGS §1.4 items 4 and
/// 20, §12 item 19) stands next to one of them, where a leap would pass over it.
pub fn dazzler_leaps_all_allowed(game: &Existentialist, pos: &Position) -> bool {
    let us = pos.turn();
    let dazzlers = pos.pieces(us, DAZZLER);
    if dazzlers.is_empty() {
        return true;
    }
    let forbidden = status::sleeping(pos) | (status::shields(pos) & !pos.color_bb(us));
    if forbidden.is_empty() {
        return true;
    }
    let t = &game.rules.tables;
    dazzlers
        .into_iter()
        .all(|d| (t.within(d, 1) & forbidden).is_empty())
}

/// The squares of the smallest rectangle holding `a` and `b`, the two excepted (RULINGS §12 item
/// 20).
fn rectangle_between(a: Square, b: Square) -> Bitboard {
    let (f0, f1) = (a.file().min(b.file()), a.file().max(b.file()));
    let (r0, r1) = (a.rank().min(b.rank()), a.rank().max(b.rank()));
    let mut out = Bitboard::EMPTY;
    for f in f0..=f1 {
        for r in r0..=r1 {
            if let Some(s) = Square::new(f, r).filter(|&s| s != a && s != b) {
                out.insert(s);
            }
        }
    }
    out
}

/// The piece a Dazzler's move from `from` to `to` jumps, if any: the one piece between them (or
/// the first square of the own shield it jumps, which takes no spell).
pub fn jumped(game: &Existentialist, pos: &Position, from: Square, to: Square) -> Option<Square> {
    (between(game, from, to) & pos.occupied()).first()
}
