//! Attack detection from the compiled tables: whether a set of attackers (of any colours) could
//! capture on a square, with the blockers given separately. It reads the same tables as
//! generation, so the two never disagree; `reference::attacked` is its slow twin.

use crate::board::Position;
use crate::core::{Bitboard, Color, Square};
use crate::rules::{Direction, Rules};

use super::Method;

/// Whether the pieces on `attackers` attack `sq` with `occupied` as blockers, by `how`.
pub fn attacked_by(
    rules: &Rules,
    pos: &Position,
    sq: Square,
    occupied: Bitboard,
    attackers: Bitboard,
    how: Method,
) -> bool {
    match how {
        Method::Fast => table_attacked(rules, pos, sq, occupied, attackers),
        Method::Reference => super::reference::attacked(rules, pos, sq, occupied, attackers),
    }
}

/// Whether the pieces on `attackers` attack `sq` by their table movement, with `occupied` as
/// blockers. Each attacker moves its own colour's way.
pub fn table_attacked(
    rules: &Rules,
    pos: &Position,
    sq: Square,
    occupied: Bitboard,
    attackers: Bitboard,
) -> bool {
    // Usually every attacker is of one colour: one pass.
    for by in Color::ALL {
        let theirs = attackers & pos.color_bb(by);
        if theirs == attackers {
            return attacked_by_color(rules, pos, sq, occupied, theirs, by);
        }
        if theirs.nonempty() && attacked_by_color(rules, pos, sq, occupied, theirs, by) {
            return true;
        }
    }
    false
}

/// `table_attacked` for attackers of one colour.
#[inline]
fn attacked_by_color(
    rules: &Rules,
    pos: &Position,
    sq: Square,
    occ: Bitboard,
    theirs: Bitboard,
    by: Color,
) -> bool {
    let t = &rules.tables;
    // Leapers first: only the kinds that capture by a leap at all.
    for kind in t.leap_attack_kinds(by) {
        let of_kind = pos.kind_bb(kind) & theirs;
        if of_kind.is_empty() {
            continue;
        }
        if (t.leap_capturers(by, kind, sq) & of_kind).nonempty() {
            return true;
        }
        if t.has_lame(by, kind)
            && t.lame_capturers(by, kind, sq)
                .iter()
                .any(|l| of_kind.contains(l.square) && (l.via & occ).is_empty())
        {
            return true;
        }
    }
    for d in 0..8u8 {
        let d = Direction(d);
        let riders = t.capture_riders(by, d);
        if riders.is_empty() {
            continue;
        }
        // An attacker sliding in direction d sits on the ray from sq in the opposite direction;
        // most rays hold no attacker at all, which one mask test settles.
        let ray = t.ray(d.opposite(), sq);
        if (ray & theirs).is_empty() {
            continue;
        }
        if let Some(b) = t.first_blocker(d.opposite(), sq, occ) {
            let p = pos.piece_at(b);
            if theirs.contains(b) && riders.contains(p.kind()) {
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
