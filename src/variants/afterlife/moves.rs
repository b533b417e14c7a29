//! Who moves what in Afterlife Chess, the moves the tables do not make (the Hall of Truth's,
//! Reincarnation), en passant by and of either side's Slaves, and what a FEN may hold.

use super::turn::{self, Part};
use super::{
    CAPTURED, CHARIOT, FREED, H5, HALL, LIMBO, MERCENARY, PHARAOH, PRIEST, SETHLING, SLAVE,
    TWELVE_HOURS, WARRIOR, WORLD,
};
use crate::board::{FenError, Position, PositionError};
use crate::core::{Bitboard, ByColor, Color, Move, MoveList, Square};
use crate::variants::Rights;

/// One step forward for `c`.
pub fn forward(c: Color) -> i8 {
    if c == Color::Black {
        -1
    } else {
        1
    }
}

/// The squares a king's step away from `sq` (on any board; callers keep to the World).
fn around(sq: Square) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for df in -1..=1 {
        for dr in -1..=1 {
            if let Some(s) = sq.offset(df, dr).filter(|_| (df, dr) != (0, 0)) {
                out.insert(s);
            }
        }
    }
    out
}

/// The Slaves `c` may move: its own in the World, and the other side's a king's step from its
/// Pharaoh in the World (RULINGS §3.2, §3.4 item 6, §10 item 6).
pub fn slaves_of(pos: &Position, c: Color) -> Bitboard {
    let slaves = pos.kind_bb(SLAVE) & WORLD;
    let mut out = slaves & pos.color_bb(c);
    for p in pos.pieces(c, PHARAOH) & WORLD {
        out |= slaves & around(p);
    }
    out
}

/// Who moves what (RULINGS §3.2): the side to move moves its pieces in the World and the Twelve
/// Hours (those in the Hall move by `hall_and_reincarnation`, those in Limbo wait), the grey
/// pieces, and the enemy Slaves beside its Pharaoh; every piece may capture every other, own
/// pieces included, except that grey never captures grey. A game without both Pharaohs is over.
pub fn rights(pos: &Position) -> Rights {
    let us = pos.turn();
    let occ = pos.occupied();
    let mut victims = ByColor([occ; 3]);
    victims[Color::Neutral] = occ & !pos.color_bb(Color::Neutral);
    if !both_pharaohs(pos) {
        return Rights {
            movers: Bitboard::EMPTY,
            victims,
        };
    }
    let boards = WORLD | TWELVE_HOURS;
    let movers = (pos.color_bb(us) & boards) | pos.color_bb(Color::Neutral) | slaves_of(pos, us);
    Rights { movers, victims }
}

/// Whether both Pharaohs still exist.
pub fn both_pharaohs(pos: &Position) -> bool {
    Color::PLAYERS
        .into_iter()
        .all(|c| pos.pieces(c, PHARAOH).nonempty())
}

/// The first parts of turns the tables do not make (RULINGS §3.2, §10 item 3): in the Hall of
/// Truth every piece steps one square along it, moving or capturing, and captures by a two-square
/// jump; the High Priest also moves by that jump; a piece on H5 other than a High Priest may
/// instead reincarnate onto an empty World square (a Freed Slave as a Slave, never on its last
/// rank).
pub fn hall_and_reincarnation(pos: &Position, out: &mut MoveList) {
    let us = pos.turn();
    if !both_pharaohs(pos) {
        return;
    }
    for from in pos.color_bb(us) & HALL {
        let priest = pos.piece_at(from).kind() == PRIEST;
        for dr in [-1i8, 1] {
            if let Some(to) = from.offset(0, dr).filter(|s| HALL.contains(*s)) {
                out.push(Move::normal(from, to));
            }
            if let Some(to) = from.offset(0, 2 * dr).filter(|s| HALL.contains(*s)) {
                if priest || pos.piece_at(to).is_some() {
                    out.push(Move::normal(from, to));
                }
            }
        }
    }
    let p = pos.piece_at(H5);
    if p.is_some() && p.color() == us && p.kind() != PRIEST {
        let kind = if p.kind() == FREED { SLAVE } else { p.kind() };
        let last = if us == Color::White { 6 } else { 0 };
        for to in WORLD & !pos.occupied() {
            if kind == SLAVE && to.rank() == last {
                continue;
            }
            out.push(turn::encode(
                &Part::Reincarnate { to, kind },
                None,
                turn::Destiny::Stay,
                None,
            ));
        }
    }
}

/// Whether `by` may capture en passant onto `skipped`: one of the Slaves it moves stands a
/// diagonal step behind it, for `by`'s direction.
pub fn ep_open(pos: &Position, by: Color, skipped: Square) -> bool {
    let movers = slaves_of(pos, by);
    [-1i8, 1].into_iter().any(|df| {
        skipped
            .offset(df, -forward(by))
            .is_some_and(|s| movers.contains(s))
    })
}

/// The FEN's en-passant square (RULINGS §10 item 5): the square a Slave's two-step passed over;
/// the victim is the Slave just beyond it, of either colour, and the square is kept only when
/// the side to move can capture onto it.
pub fn read_en_passant(pos: &mut Position, targets: &[Square]) -> Result<(), FenError> {
    let bad = |sq| FenError::Position(PositionError::BadEnPassant(sq));
    let &[skipped] = targets else {
        return Err(bad(targets[targets.len() - 1]));
    };
    let us = pos.turn();
    let pusher = us.opponent();
    let victim = skipped
        .offset(0, forward(pusher))
        .filter(|&v| pos.piece_at(v).kind() == SLAVE && pos.piece_at(v).is_some());
    let behind = skipped.offset(0, -forward(pusher));
    let fits = victim.is_some()
        && WORLD.contains(skipped)
        && pos.piece_at(skipped).is_none()
        && behind.is_some_and(|b| pos.piece_at(b).is_none());
    if !fits {
        return Err(bad(skipped));
    }
    if ep_open(pos, us, skipped) {
        pos.set_ep(Bitboard::from_square(skipped), victim);
    }
    Ok(())
}

fn invalid(text: String) -> PositionError {
    PositionError::Variant(text)
}

/// What a FEN may hold (RULINGS §10 item 5): Slaves, Chariots and Mercenaries only in the World,
/// Sethlings only in the Twelve Hours, no High Priest there, `{x}` only on a Pharaoh, Warrior or
/// Chariot in the World or Limbo, at most one Pharaoh a side, never one White or Black piece
/// alone in the Twelve Hours and never an empty Twelve Hours (it starts with four Sethlings, a
/// capture there leaves the capturer, and Redemption puts the Sethlings back); grey only the
/// Mercenary and the Sethling. A Slave stands on no square it would have been freed on, a
/// Mercenary on no first rank.
pub fn validate(pos: &Position) -> Result<(), PositionError> {
    let twelve = TWELVE_HOURS;
    for sq in pos.occupied() {
        let p = pos.piece_at(sq);
        let k = p.kind();
        let grey = p.color() == Color::Neutral;
        if grey != (k == MERCENARY || k == SETHLING) {
            return Err(invalid(format!(
                "the piece on {sq} is grey only if it is a Mercenary or a Sethling"
            )));
        }
        if matches!(k, SLAVE | CHARIOT | MERCENARY) && !WORLD.contains(sq) {
            return Err(invalid(format!(
                "the Slave, Chariot or Mercenary on {sq} stands off the World"
            )));
        }
        if k == SETHLING && !twelve.contains(sq) {
            return Err(invalid(format!(
                "the Sethling on {sq} stands off the Twelve Hours"
            )));
        }
        if k == PRIEST && twelve.contains(sq) {
            return Err(invalid(format!(
                "a High Priest never enters the Twelve Hours ({sq})"
            )));
        }
        let marked = pos.state(sq).flags.contains(CAPTURED);
        let may_mark =
            matches!(k, PHARAOH | WARRIOR | CHARIOT) && (WORLD.contains(sq) || sq == LIMBO);
        if marked && !may_mark {
            return Err(invalid(format!(
                "{{x}} on {sq}: only a Pharaoh, Warrior or Chariot in the World or Limbo"
            )));
        }
        let rank = sq.rank();
        if (k == SLAVE && p.color() == Color::White && rank == 6)
            || (k == SLAVE && p.color() == Color::Black && rank == 0)
            || (k == MERCENARY && (rank == 0 || rank == 6))
        {
            return Err(PositionError::PieceOnPromotionRank(sq));
        }
    }
    for c in Color::PLAYERS {
        let n = pos.pieces(c, PHARAOH).count();
        if n > 1 {
            return Err(invalid(format!("{} has {n} Pharaohs", c.name())));
        }
    }
    let in_twelve = pos.occupied() & twelve;
    if in_twelve.is_empty() {
        return Err(PositionError::EmptyArea {
            area: "Twelve Hours",
            why: "a capture there leaves the capturer, and Redemption of a lone piece puts \
                  the four Sethlings back",
        });
    }
    if in_twelve.count() == 1 && (in_twelve & pos.color_bb(Color::Neutral)).is_empty() {
        let sq = in_twelve.first().expect("one piece");
        return Err(invalid(format!(
            "the piece on {sq} stands alone in the Twelve Hours (Redemption would have taken it)"
        )));
    }
    Ok(())
}
