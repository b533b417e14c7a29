//! What the search needs to know of Afterlife Chess beyond material on the board: a piece out
//! of the World fights no more (it may come back through the Hall, or never), and a Pharaoh is
//! in danger where it can Cease to Exist (in Limbo, the next capture in the World destroys it;
//! in the Twelve Hours, a Sethling beside it may take it), not where it is attacked.

use super::turn::{self, Destiny};
use super::{H1, HALL, LIMBO, PHARAOH, SETHLING, SLAVE, TWELVE, TWELVE_HOURS, VALUES};
use crate::board::Position;
use crate::core::{Color, Move, PieceKind, Square};
use crate::variants::switches::GameTerm;

/// The game's own evaluation terms. The generic evaluation counts every piece at its full value
/// wherever it stands; the first three take back, in percent, what a piece out of the World is
/// not worth (their feature is the value of such pieces): in Limbo it is on its way to the Hall
/// or the Twelve Hours, if nothing destroys it first; in the Twelve Hours it is out of play until
/// Redemption; in the Hall of Truth it may reincarnate from H5. The others score the Pharaohs'
/// danger: in Limbo the next capture in the World destroys it; in the Twelve Hours either side
/// may move a Sethling onto it (more with a Sethling one step away); on H1 every Destiny and
/// Redemption drop destroys it.
pub const TERMS: &[GameTerm] = &[
    GameTerm::percent("limbo_value_lost", -60),
    GameTerm::percent("twelve_hours_value_lost", -50),
    GameTerm::percent("hall_value_lost", -40),
    GameTerm::new("pharaoh_in_limbo", -400),
    GameTerm::new("pharaoh_in_twelve_hours", -150),
    GameTerm::new("sethling_next_to_pharaoh", -300),
    GameTerm::new("pharaoh_on_h1", -150),
];

/// The features of [`TERMS`] for White minus Black.
pub fn features(pos: &Position, out: &mut [i32]) {
    for c in Color::PLAYERS {
        let sign = if c == Color::White { 1 } else { -1 };
        for sq in pos.color_bb(c) {
            let zone = if sq == LIMBO {
                0
            } else if TWELVE_HOURS.contains(sq) {
                1
            } else if HALL.contains(sq) {
                2
            } else {
                continue;
            };
            out[zone] += sign * base_value(pos.piece_at(sq).kind());
        }
        for p in pos.pieces(c, PHARAOH) {
            if p == LIMBO {
                out[3] += sign;
            } else if p == H1 {
                out[6] += sign;
            } else if TWELVE_HOURS.contains(p) {
                out[4] += sign;
                if sethling_near(pos, p) {
                    out[5] += sign;
                }
            }
        }
    }
}

/// The material value of a kind.
fn base_value(k: PieceKind) -> i32 {
    VALUES[k.index()]
}

/// Whether a Sethling stands one step from the Pharaoh on `p` in the Twelve Hours.
fn sethling_near(pos: &Position, p: Square) -> bool {
    TWELVE.into_iter().any(|s| {
        let adjacent = s.file().abs_diff(p.file()) + s.rank().abs_diff(p.rank()) == 1;
        adjacent && pos.piece_at(s).kind() == SETHLING && pos.piece_at(s).is_some()
    })
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
