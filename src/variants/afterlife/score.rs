//! What the search needs to know of Afterlife Chess beyond material on the board: a piece out
//! of the World fights no more (it may come back through the Hall, or never), and a Pharaoh is
//! in danger where it can Cease to Exist (in Limbo, the next capture in the World destroys it;
//! in the Twelve Hours, a Sethling beside it may take it), not where it is attacked.

use super::turn::{self, Destiny};
use super::{H1, HALL, LIMBO, PHARAOH, SETHLING, SLAVE, TWELVE, TWELVE_HOURS, VALUES};
use crate::board::Position;
use crate::core::{Color, Move, PieceKind, Square};

/// Share of its value a piece in Limbo counts for: it is on its way to the Hall or the Twelve
/// Hours, if nothing destroys it first (percent).
const LIMBO_SHARE: i32 = 40;
/// Share for a piece in the Twelve Hours: out of play until Redemption (percent).
const TWELVE_SHARE: i32 = 50;
/// Share for a piece in the Hall of Truth: it may reincarnate from H5 (percent).
const HALL_SHARE: i32 = 60;
/// A Pharaoh in Limbo: the next capture in the World destroys it.
const PHARAOH_IN_LIMBO: i32 = 400;
/// A Pharaoh in the Twelve Hours: either side may move a Sethling onto it.
const PHARAOH_IN_TWELVE: i32 = 150;
/// ...and more with a Sethling one step away.
const SETHLING_NEXT_TO_PHARAOH: i32 = 300;
/// A Pharaoh on H1: every Destiny and Redemption drop destroys it.
const PHARAOH_ON_H1: i32 = 150;

/// The generic evaluation counts every piece at its full value wherever it stands; this takes
/// back what a piece out of the World is not worth, and scores the Pharaohs' danger, for White.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0;
    for c in Color::PLAYERS {
        let sign = if c == Color::White { 1 } else { -1 };
        let mut own = 0;
        for sq in pos.color_bb(c) {
            let k = pos.piece_at(sq).kind();
            let share = if sq == LIMBO {
                LIMBO_SHARE
            } else if TWELVE_HOURS.contains(sq) {
                TWELVE_SHARE
            } else if HALL.contains(sq) {
                HALL_SHARE
            } else {
                100
            };
            own -= base_value(k) * (100 - share) / 100;
        }
        for p in pos.pieces(c, PHARAOH) {
            own -= pharaoh_danger(pos, p);
        }
        score += sign * own;
    }
    score
}

/// The material value of a kind.
fn base_value(k: PieceKind) -> i32 {
    VALUES[k.index()]
}

fn pharaoh_danger(pos: &Position, p: Square) -> i32 {
    if p == LIMBO {
        return PHARAOH_IN_LIMBO;
    }
    if p == H1 {
        return PHARAOH_ON_H1;
    }
    if !TWELVE_HOURS.contains(p) {
        return 0;
    }
    let sethling_near = TWELVE.into_iter().any(|s| {
        let adjacent = s.file().abs_diff(p.file()) + s.rank().abs_diff(p.rank()) == 1;
        adjacent && pos.piece_at(s).kind() == SETHLING && pos.piece_at(s).is_some()
    });
    PHARAOH_IN_TWELVE
        + if sethling_near {
            SETHLING_NEXT_TO_PHARAOH
        } else {
            0
        }
}

/// What a turn wins at once for the mover: its victims, each counted against their owner (a
/// self-capture loses material; grey pieces are nobody's), and the Destiny's victim on H1.
pub fn material_gain(pos: &Position, m: Move, value: &dyn Fn(PieceKind) -> i32) -> i32 {
    let us = pos.turn();
    let worth = |sq: Square| {
        let p = pos.piece_at(sq);
        if p.is_none() || p.color() == Color::Neutral {
            0
        } else if p.color() == us {
            -value(p.kind())
        } else {
            value(p.kind())
        }
    };
    let (from, to, reincarnation) = turn::first_part(m);
    let mut gain = if reincarnation { 0 } else { worth(to) };
    let ep = pos.piece_at(from).kind() == SLAVE && pos.ep_targets().contains(to);
    if ep && !reincarnation {
        gain += pos.ep_victim().map_or(0, worth);
    }
    if let Some((_, b)) = turn::free_step(m) {
        gain += worth(b);
    }
    if turn::destiny(m) == Destiny::Hall {
        gain += worth(H1);
    }
    gain
}
