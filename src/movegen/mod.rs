//! Move generation shared by every variant: pseudo-legal moves from the compiled tables, attack
//! detection from the same tables, and a legality filter. `reference` holds a slow generator built
//! straight from the piece atoms, which tests compare against this one.

pub mod reference;

use crate::board::{Position, PositionError};
use crate::core::{Bitboard, Color, Move, MoveKind, MoveList, Piece, PieceKind, Square};
use crate::rules::{Direction, Rules};

/// Pushes a move to `to`, expanded into promotions where the piece must promote there.
#[inline]
fn push_target(
    rules: &Rules,
    out: &mut MoveList,
    us: Color,
    kind: PieceKind,
    from: Square,
    to: Square,
) {
    let promos = &rules.kinds[kind.index()].promotions;
    if !promos.is_empty() && rules.promotion_zone[us.index()].contains(to) {
        for &p in promos {
            out.push(Move::promotion(from, to, p));
        }
    } else {
        out.push(Move::normal(from, to));
    }
}

/// All pseudo-legal moves of the side to move: moves that follow the pieces' movement, ignoring
/// whether the mover's royal piece is left attacked.
pub fn pseudo_legal(rules: &Rules, pos: &Position, out: &mut MoveList) {
    generate(rules, pos, out, false);
    castling(rules, pos, out);
    drops(rules, pos, out);
}

/// The pseudo-legal moves that change material: captures (en passant included) and promotions.
pub fn pseudo_legal_noisy(rules: &Rules, pos: &Position, out: &mut MoveList) {
    generate(rules, pos, out, true);
}

/// Whether `m` changes material (what quiescence searches): a capture, a promotion, or a move kind
/// that removes or changes pieces.
pub fn is_noisy(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::Normal => pos.piece_at(m.to()).is_some(),
        MoveKind::Castle
        | MoveKind::Drop
        | MoveKind::Pass
        | MoveKind::Switch
        | MoveKind::Merge
        | MoveKind::ShieldShift
        | MoveKind::Teleport
        | MoveKind::Nature => false,
        _ => true,
    }
}

/// Board moves of the pieces; with `noisy_only`, only captures and promotions.
fn generate(rules: &Rules, pos: &Position, out: &mut MoveList, noisy_only: bool) {
    let us = pos.turn();
    if us == Color::Neutral {
        return;
    }
    let t = &rules.tables;
    let occ = pos.occupied();
    let empty = !occ & rules.geometry().board();
    let them = pos.color_bb(us.opponent());
    for ki in 0..rules.num_kinds() {
        let kind = PieceKind(ki as u8);
        let mine = pos.pieces(us, kind);
        if mine.is_empty() {
            continue;
        }
        let symmetric = t.symmetric(us, kind);
        let qr = t.quiet_rides(us, kind);
        let cr = t.capture_rides(us, kind);
        let lame = t.has_lame(us, kind);
        // Squares a quiet move may go to: all empty ones, or for noisy moves only the empty
        // squares where this kind promotes.
        let quiet_to = if !noisy_only {
            empty
        } else if rules.kinds[ki].promotions.is_empty() {
            Bitboard::EMPTY
        } else {
            empty & rules.promotion_zone[us.index()]
        };
        for from in mine {
            let targets = if symmetric {
                (t.leap_capture(us, kind, from) | t.ride_targets(cr, from, occ)) & (quiet_to | them)
            } else {
                let mut quiet = t.leap_quiet(us, kind, from);
                let mut caps = t.leap_capture(us, kind, from);
                if qr.dirs != 0 {
                    quiet |= t.ride_targets(qr, from, occ);
                }
                if cr.dirs != 0 {
                    caps |= t.ride_targets(cr, from, occ);
                }
                (quiet & quiet_to) | (caps & them)
            };
            for to in targets {
                push_target(rules, out, us, kind, from, to);
            }
            if lame {
                for l in t.lame(us, kind, from) {
                    if (l.via & occ).nonempty() {
                        continue;
                    }
                    let ok = if empty.contains(l.square) {
                        l.modality.moves() && quiet_to.contains(l.square)
                    } else {
                        them.contains(l.square) && l.modality.captures()
                    };
                    if ok {
                        push_target(rules, out, us, kind, from, l.square);
                    }
                }
            }
        }
    }
    if let Some(victim) = pos.ep_victim() {
        for kind in rules.en_passant.iter() {
            for to in pos.ep_targets() {
                for from in t.leap_capturers(us, kind, to) & pos.pieces(us, kind) {
                    out.push(Move::en_passant(from, to, victim));
                }
            }
        }
    }
}

fn castling(rules: &Rules, pos: &Position, out: &mut MoveList) {
    let us = pos.turn();
    let unmoved = pos.unmoved();
    for c in rules.spec.castling.iter().filter(|c| c.color == us) {
        if !unmoved.contains(c.king_from) || !unmoved.contains(c.partner_from) {
            continue;
        }
        if pos.piece_at(c.king_from) != Piece::new(us, c.king)
            || pos.piece_at(c.partner_from) != Piece::new(us, c.partner)
        {
            continue;
        }
        let others = pos.occupied()
            & !Bitboard::from_square(c.king_from)
            & !Bitboard::from_square(c.partner_from);
        if (c.must_be_empty & others).nonempty() {
            continue;
        }
        if c.must_be_safe
            .into_iter()
            .any(|sq| attacked(rules, pos, sq, us.opponent(), pos.occupied()))
        {
            continue;
        }
        out.push(Move::castle(c.king_from, c.king_to, c.partner_from));
    }
}

fn drops(rules: &Rules, pos: &Position, out: &mut MoveList) {
    let us = pos.turn();
    if pos.reserve().is_empty() {
        return;
    }
    let empty = !pos.occupied() & rules.geometry().board();
    for ki in 0..rules.num_kinds() {
        let kind = PieceKind(ki as u8);
        if pos.reserve().count(us, kind) == 0 {
            continue;
        }
        let mut targets = empty;
        if !rules.kinds[ki].promotions.is_empty() {
            targets &= !rules.promotion_zone[us.index()];
        }
        for to in targets {
            out.push(Move::drop(kind, to));
        }
    }
}

/// Whether `by` attacks `sq` with the board occupied as `occ` (which may differ from the position's,
/// to look through a piece that is about to move).
pub fn attacked(rules: &Rules, pos: &Position, sq: Square, by: Color, occ: Bitboard) -> bool {
    let t = &rules.tables;
    // Leapers first: only the kinds that capture by a leap at all.
    let mut leapers = t.leap_attack_kinds(by);
    while leapers != 0 {
        let kind = PieceKind(leapers.trailing_zeros() as u8);
        leapers &= leapers - 1;
        let theirs = pos.pieces(by, kind) & occ;
        if theirs.is_empty() {
            continue;
        }
        if (t.leap_capturers(by, kind, sq) & theirs).nonempty() {
            return true;
        }
        if t.has_lame(by, kind)
            && t.lame_capturers(by, kind, sq)
                .iter()
                .any(|l| theirs.contains(l.square) && (l.via & occ).is_empty())
        {
            return true;
        }
    }
    let theirs = pos.color_bb(by) & occ;
    for d in 0..8u8 {
        let d = Direction(d);
        let riders = t.capture_riders(by, d);
        if riders == 0 {
            continue;
        }
        // An attacker sliding in direction d sits on the ray from sq in the opposite direction;
        // most rays hold no enemy piece at all, which one mask test settles.
        let ray = t.ray(d.opposite(), sq);
        if (ray & theirs).is_empty() {
            continue;
        }
        if let Some(b) = t.first_blocker(d.opposite(), sq, occ) {
            let p = pos.piece_at(b);
            if p.is_some() && p.color() == by && riders >> p.kind().0 & 1 != 0 {
                let rides = t.capture_rides(by, p.kind());
                let range = rides.range[d.0 as usize];
                if rides.from.contains(b) && (range == 0 || t.within(sq, range).contains(b)) {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether any royal piece of `color` is attacked by its opponent.
pub fn in_check(rules: &Rules, pos: &Position, color: Color) -> bool {
    let occ = pos.occupied();
    pos.royals(rules, color)
        .into_iter()
        .any(|k| attacked(rules, pos, k, color.opponent(), occ))
}

/// Our pieces whose move could expose the royal piece on `ksq`: those standing alone between it and
/// an enemy slider, and those on the path of an enemy lame leap onto it. Conservative: a piece
/// listed here is tested by making the move.
fn pinned(rules: &Rules, pos: &Position, ksq: Square, us: Color) -> Bitboard {
    let t = &rules.tables;
    let them = us.opponent();
    let occ = pos.occupied();
    let ours = pos.color_bb(us);
    let mut pinned = Bitboard::EMPTY;
    for e in 0..8u8 {
        let e = Direction(e);
        let riders = t.capture_riders(them, e.opposite());
        if riders == 0 {
            continue;
        }
        let Some(b1) = t.first_blocker(e, ksq, occ) else {
            continue;
        };
        if !ours.contains(b1) {
            continue;
        }
        if let Some(b2) = t.first_blocker(e, b1, occ) {
            let p = pos.piece_at(b2);
            if p.color() == them && riders >> p.kind().0 & 1 != 0 {
                pinned.insert(b1);
            }
        }
    }
    for ki in 0..rules.num_kinds() {
        let kind = PieceKind(ki as u8);
        if t.has_lame(them, kind) {
            let theirs = pos.pieces(them, kind);
            for l in t.lame_capturers(them, kind, ksq) {
                if theirs.contains(l.square) {
                    pinned |= l.via & ours;
                }
            }
        }
    }
    pinned
}

/// Whether `m` (pseudo-legal) leaves no royal piece of the mover attacked, by making it.
pub fn legal_by_making(rules: &Rules, pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    let next = pos.play(rules, m);
    !in_check(rules, &next, us)
}

/// All legal moves of the side to move, under the default rule that the mover's royal piece may not
/// be left attacked. Most moves are shown legal without making them: when the mover is not in
/// check, a move of a piece that is neither royal nor pinned cannot expose the royal piece.
pub fn legal(rules: &Rules, pos: &Position, out: &mut MoveList) {
    pseudo_legal(rules, pos, out);
    retain_legal(rules, pos, out);
}

/// The legal captures and promotions of the side to move (what quiescence searches when not in
/// check); the same as `legal` filtered by `is_noisy`, which tests check.
pub fn legal_noisy(rules: &Rules, pos: &Position, out: &mut MoveList) {
    pseudo_legal_noisy(rules, pos, out);
    retain_legal(rules, pos, out);
}

/// Keeps the pseudo-legal moves of `out` that leave no royal piece of the mover attacked.
fn retain_legal(rules: &Rules, pos: &Position, out: &mut MoveList) {
    let us = pos.turn();
    let royals = pos.royals(rules, us);
    let Some(ksq) = royals.first() else { return };
    if royals.more_than_one() {
        out.retain(|m| legal_by_making(rules, pos, m));
        return;
    }
    let them = us.opponent();
    let occ = pos.occupied();
    let checked = attacked(rules, pos, ksq, them, occ);
    let pinned = if checked {
        Bitboard::ALL
    } else {
        pinned(rules, pos, ksq, us)
    };
    let without_king = occ & !Bitboard::from_square(ksq);
    out.retain(|m| match m.kind() {
        MoveKind::Normal | MoveKind::Promotion if m.from() == ksq => {
            !attacked(rules, pos, m.to(), them, without_king)
        }
        MoveKind::Normal | MoveKind::Promotion if !pinned.contains(m.from()) => true,
        _ => legal_by_making(rules, pos, m),
    });
}

/// Whether a piece of `by` that takes part in en passant could capture onto one of `targets`.
pub fn ep_capturable(rules: &Rules, pos: &Position, by: Color, targets: Bitboard) -> bool {
    rules.en_passant.iter().any(|k| {
        let theirs = pos.pieces(by, k);
        theirs.nonempty()
            && targets
                .into_iter()
                .any(|t| (rules.tables.leap_capturers(by, k, t) & theirs).nonempty())
    })
}

/// Checks every variant shares unless it overrides them: one royal piece per player when the game
/// has royal pieces, the side not to move not in check, no piece that must promote standing on
/// its promotion rank (it would have promoted on arriving).
pub fn validate_basic(rules: &Rules, pos: &Position) -> Result<(), PositionError> {
    if rules.royal.0 != 0 {
        for c in Color::PLAYERS {
            let found = pos.royals(rules, c).count();
            if found != 1 {
                return Err(PositionError::RoyalCount { color: c, found });
            }
        }
    }
    for c in Color::PLAYERS {
        for ki in 0..rules.num_kinds() {
            let kind = PieceKind(ki as u8);
            if !rules.kinds[ki].promotions.is_empty() {
                if let Some(sq) = (pos.pieces(c, kind) & rules.promotion_zone[c.index()]).first() {
                    return Err(PositionError::PieceOnPromotionRank(sq));
                }
            }
        }
    }
    if pos.turn() != Color::Neutral && in_check(rules, pos, pos.turn().opponent()) {
        return Err(PositionError::OpponentInCheck);
    }
    Ok(())
}
