//! Attack detection from the compiled tables: whether a set of attackers (of any colours) could
//! capture on a square, with the blockers given separately. It reads the same tables as
//! generation, so the two never disagree; `reference::attacked` is its slow twin.

use crate::board::Position;
use crate::core::{Bitboard, Color, KindSet, Square};
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
    // Leapers first, then riders, one at a time among those on the square's lines: most
    // squares have none.
    let riders = pos.kinds_bb(rules.tables.ride_attack_kinds(by)) & theirs;
    leapt_onto(rules, pos, sq, occ, theirs, by) || ridden_onto(rules, pos, sq, occ, riders, by)
}

/// Whether a piece of `theirs` (colour `by`) captures onto `sq` by a leap, with `occ` as the
/// blockers of lame leaps: only the kinds that capture by a leap at all are looked at.
#[inline(always)]
pub(super) fn leapt_onto(
    rules: &Rules,
    pos: &Position,
    sq: Square,
    occ: Bitboard,
    theirs: Bitboard,
    by: Color,
) -> bool {
    let t = &rules.tables;
    for kind in t.leap_attack_kinds(by) {
        let of_kind = pos.kind_bb(kind) & theirs;
        if of_kind.is_empty() {
            continue;
        }
        if (t.leap_capturers(by, kind, sq) & of_kind).nonempty() {
            return true;
        }
        if t.has_lame_capture(by, kind)
            && t.lame_capturers(by, kind, sq)
                .iter()
                .any(|l| of_kind.contains(l.square) && (l.via & occ).is_empty())
        {
            return true;
        }
    }
    false
}

/// Whether a piece of `riders` (colour `by`) captures onto `sq` riding, with `occ` as blockers:
/// a piece at a time among those on the lines a rider of `by` could come along (most squares
/// have none, and few have more than one), the first on its ray from `sq`, whose kind captures
/// that way from its square and within its range.
#[inline(always)]
fn ridden_onto(
    rules: &Rules,
    pos: &Position,
    sq: Square,
    occ: Bitboard,
    riders: Bitboard,
    by: Color,
) -> bool {
    let t = &rules.tables;
    for r in t.rider_lines(by, sq) & riders & occ {
        if rides_onto(rules, pos, sq, occ, r, by) {
            return true;
        }
    }
    false
}

/// Whether the rider on `r` (colour `by`), on one of the lines a rider of `by` could come along
/// to `sq`, captures onto `sq` with `occ` as blockers: it is the first piece on its ray from
/// `sq`, and its kind captures that way from its square and within its range.
#[inline(always)]
fn rides_onto(
    rules: &Rules,
    pos: &Position,
    sq: Square,
    occ: Bitboard,
    r: Square,
    by: Color,
) -> bool {
    let t = &rules.tables;
    let Some(back) = t.toward(sq, r) else {
        return false;
    };
    t.first_blocker(back, sq, occ) == Some(r)
        && t.rides_to(
            t.capture_rides(by, pos.piece_at(r).kind()),
            back.opposite(),
            r,
            sq,
        )
}

/// The pieces of `theirs` (all of colour `by`) that capture onto `sq` by their table movement,
/// with `occ` as blockers: the set `table_attacked` asks about one piece at a time, found in one
/// pass (static exchange evaluation looks for the least valuable of them at every capture).
pub fn table_attackers(
    rules: &Rules,
    pos: &Position,
    sq: Square,
    occ: Bitboard,
    theirs: Bitboard,
    by: Color,
) -> Bitboard {
    let t = &rules.tables;
    let mut found = Bitboard::EMPTY;
    for kind in t.leap_attack_kinds(by) {
        let of_kind = pos.kind_bb(kind) & theirs;
        if of_kind.is_empty() {
            continue;
        }
        found |= t.leap_capturers(by, kind, sq) & of_kind;
        if t.has_lame_capture(by, kind) {
            for l in t.lame_capturers(by, kind, sq) {
                if of_kind.contains(l.square) && (l.via & occ).is_empty() {
                    found |= Bitboard::from_square(l.square);
                }
            }
        }
    }
    let riders = pos.kinds_bb(t.ride_attack_kinds(by)) & theirs;
    for r in t.rider_lines(by, sq) & riders & occ {
        if rides_onto(rules, pos, sq, occ, r, by) {
            found |= Bitboard::from_square(r);
        }
    }
    found
}

/// Attackers of one colour made ready to test many squares against (a royal piece's targets):
/// the work `attacked_by_color` repeats for every square (the colours, the kinds present, the
/// riders' union) done once.
pub(super) struct SquareTest {
    by: Color,
    theirs: Bitboard,
    /// The kinds that capture by a leap with a piece among `theirs`.
    leapers: KindSet,
    /// The pieces of `theirs` that capture riding.
    riders: Bitboard,
}

impl SquareTest {
    /// The test for `attackers`; none when they are of several colours or a kind among them
    /// has capturing lame leaps, whose squares `table_attacked` tests one at a time.
    #[inline]
    pub(super) fn new(rules: &Rules, pos: &Position, attackers: Bitboard) -> Option<SquareTest> {
        let t = &rules.tables;
        let by = Color::ALL
            .into_iter()
            .find(|&c| (attackers & !pos.color_bb(c)).is_empty())?;
        let mut leapers = KindSet::EMPTY;
        for kind in t.leap_attack_kinds(by) {
            if (pos.kind_bb(kind) & attackers).nonempty() {
                if t.has_lame_capture(by, kind) {
                    return None;
                }
                leapers.insert(kind);
            }
        }
        Some(SquareTest {
            by,
            theirs: attackers,
            leapers,
            riders: pos.kinds_bb(t.ride_attack_kinds(by)) & attackers,
        })
    }

    /// `table_attacked` of `sq` with `occ` as blockers, by the attackers not on `excluded`.
    #[inline]
    pub(super) fn attacked(
        &self,
        rules: &Rules,
        pos: &Position,
        sq: Square,
        occ: Bitboard,
        excluded: Bitboard,
    ) -> bool {
        let t = &rules.tables;
        let by = self.by;
        let theirs = self.theirs & !excluded;
        for kind in self.leapers {
            if (t.leap_capturers(by, kind, sq) & pos.kind_bb(kind) & theirs).nonempty() {
                return true;
            }
        }
        ridden_onto(rules, pos, sq, occ, self.riders & !excluded, by)
    }

    /// Every square `attacked` finds attacked with `occ` as blockers, at once: the captures of
    /// all the attackers by their table movement, for testing many squares. A square an
    /// attacker stands on is attacked by the others only, as `attacked` with it excluded finds:
    /// no leap or ride ends where it starts (a test in `variants::tests` holds the tables to it).
    pub(super) fn attacked_squares(
        &self,
        rules: &Rules,
        pos: &Position,
        occ: Bitboard,
    ) -> Bitboard {
        let t = &rules.tables;
        let by = self.by;
        let mut map = Bitboard::EMPTY;
        for kind in self.leapers {
            let pieces = pos.kind_bb(kind) & self.theirs;
            match t.shifts(by, kind) {
                // A leap's shift moves every piece off its square.
                Some(shifts) if pieces.count() as usize >= shifts.capture.len() => {
                    for s in &shifts.capture {
                        map |= s.targets(pieces);
                    }
                }
                _ => {
                    for from in pieces {
                        map |= t.leap_capture(by, kind, from);
                    }
                }
            }
        }
        for from in self.riders {
            let rides = t.capture_rides(by, pos.piece_at(from).kind());
            map |= t.ride_targets(rides, from, occ);
        }
        map
    }
}

/// The piece of `theirs` (colour `by`) that captures onto `sq` riding in direction `d` with
/// `occ` as blockers, if any: the first piece on the line behind `sq`, if it is theirs, rides
/// that way from its square and reaches `sq` within its range.
#[inline(always)]
pub(crate) fn rider_attacker(
    rules: &Rules,
    pos: &Position,
    sq: Square,
    occ: Bitboard,
    theirs: Bitboard,
    by: Color,
    d: Direction,
) -> Option<Square> {
    let t = &rules.tables;
    let riders = t.capture_riders(by, d);
    if riders.is_empty() {
        return None;
    }
    // An attacker riding in direction d sits on the ray from sq in the opposite direction; most
    // rays hold no attacker at all, which one mask test settles.
    let back = d.opposite();
    if (t.ray(back, sq) & theirs).is_empty() {
        return None;
    }
    let b = t.first_blocker(back, sq, occ)?;
    let kind = pos.piece_at(b).kind();
    if !theirs.contains(b) || !riders.contains(kind) {
        return None;
    }
    t.rides_to(t.capture_rides(by, kind), d, b, sq).then_some(b)
}
