//! David Short's pieces, shared by Schizophrenic Chess (12x7) and Existentialist Chess (10x10):
//! the Squire, the Crowned Knight, the two Schizzies, the Teleporter and the Bobber. What differs
//! between the two games is a parameter: the board width (the Schizzies' halves), the Bobber's
//! range cap, and the Teleporter's extra rules (home return and explosion, Schizophrenic only).
//!
//! Ordinary movement is data (`PieceSpec`, with faces for the Schizzies). The Teleporter's
//! teleport and explosion and the Bobber's growing range are hooks: fast ones for the generator
//! and attack detection, and slow ones, written square by square, for the reference generator.
//! The explosion's move code is the game's (`TeleporterRules::explosion`): this module declares
//! none, so a game's codes are all declared in the game.

use crate::board::Position;
use crate::core::{Bitboard, Color, Move, MoveKind, MoveList, PieceKind, Special, Square};
use crate::core::{MAX_FILES, NUM_SQUARES};
use crate::rules::{Face, PieceSpec, Rules};

/// Squire: Rook plus one diagonal step (Shogi's Dragon King).
pub const fn squire() -> PieceSpec {
    PieceSpec {
        tracks_moved: true,
        value: 700,
        ..PieceSpec::new('S', "squire", "RF")
    }
}

/// Crowned Knight: Knight plus King, not royal.
pub const fn crowned_knight() -> PieceSpec {
    PieceSpec {
        value: 600,
        ..PieceSpec::new('C', "crowned knight", "KN")
    }
}

/// The Schizzies' two faces: Knight, Wizard (Camel) and Ferz leaps (`NCF`), or Queen.
const LEAPER: &str = "NCF";
const QUEEN: &str = "Q";

static LEFT_10: [Face; 2] = [
    Face {
        first: 0,
        last: 4,
        betza: LEAPER,
    },
    Face {
        first: 5,
        last: 9,
        betza: QUEEN,
    },
];
static RIGHT_10: [Face; 2] = [
    Face {
        first: 0,
        last: 4,
        betza: QUEEN,
    },
    Face {
        first: 5,
        last: 9,
        betza: LEAPER,
    },
];
static LEFT_12: [Face; 2] = [
    Face {
        first: 0,
        last: 5,
        betza: LEAPER,
    },
    Face {
        first: 6,
        last: 11,
        betza: QUEEN,
    },
];
static RIGHT_12: [Face; 2] = [
    Face {
        first: 0,
        last: 5,
        betza: QUEEN,
    },
    Face {
        first: 6,
        last: 11,
        betza: LEAPER,
    },
];

/// The Left Schizzy (`L`) and the Right Schizzy (`J`) of a board `files` wide. The Left one
/// leaps as `NCF` from the left half (files a..) and moves as a Queen from the right half; the
/// Right one the reverse. Halves are seen from White's side for both colours (RULINGS §2.2).
pub fn schizzies(files: u8) -> [PieceSpec; 2] {
    let (left, right): (&'static [Face], &'static [Face]) = match files {
        10 => (&LEFT_10, &RIGHT_10),
        12 => (&LEFT_12, &RIGHT_12),
        _ => panic!("Schizzies are defined for boards 10 or 12 files wide, not {files}"),
    };
    [
        PieceSpec {
            value: 650,
            faces: left,
            ..PieceSpec::new('L', "left schizzy", "")
        },
        PieceSpec {
            value: 650,
            faces: right,
            ..PieceSpec::new('J', "right schizzy", "")
        },
    ]
}

/// The Bobber: no table movement; its range grows with its moves (`bobber_targets`).
pub const fn bobber() -> PieceSpec {
    PieceSpec {
        value: 450,
        ..PieceSpec::new('O', "bobber", "")
    }
}

/// The Teleporter's table movement: it captures only by one king step; teleports are a hook.
pub const fn teleporter() -> PieceSpec {
    PieceSpec {
        value: 300,
        ..PieceSpec::new('T', "teleporter", "cK")
    }
}

/// Whether a square is dark (a1 is dark).
#[inline]
pub fn is_dark(sq: Square) -> bool {
    (sq.file() + sq.rank()) % 2 == 0
}

/// Every dark square of the square index space, so that a teleport's targets are one mask
/// operation on the hot path.
const DARK: Bitboard = {
    let mut bits = 0u128;
    let mut i = 0;
    while i < NUM_SQUARES {
        let (file, rank) = (i % MAX_FILES as usize, i / MAX_FILES as usize);
        if (file + rank) % 2 == 0 {
            bits |= 1 << i;
        }
        i += 1;
    }
    Bitboard(bits)
};

/// The rank a side calls its first.
#[inline]
pub fn first_rank(rules: &Rules, color: Color) -> u8 {
    if color == Color::White {
        0
    } else {
        rules.geometry().ranks() - 1
    }
}

/// A game's Teleporter rules.
#[derive(Clone, Copy, Debug)]
pub struct TeleporterRules {
    /// The Teleporter kind.
    pub kind: PieceKind,
    /// Files of the home squares on each side's first rank, to which a Teleporter may always
    /// return when they are empty (Schizophrenic; empty in Existentialist).
    pub home_files: &'static [u8],
    /// The game's code for an explosion onto an enemy piece on the Teleporter's own first rank
    /// (Schizophrenic's `EXPLODE`), declared with the game's other kinds; `None`: it does not
    /// explode (Existentialist).
    pub explosion: Option<Special>,
}

impl TeleporterRules {
    /// The home squares of `color`.
    pub fn homes(&self, rules: &Rules, color: Color) -> Bitboard {
        let rank = first_rank(rules, color);
        self.home_files
            .iter()
            .filter_map(|&f| rules.geometry().square(f, rank))
            .collect()
    }

    /// The squares the side to move's Teleporter on `from` may teleport to: every empty square
    /// of the other colour, and its side's empty home squares.
    #[inline]
    pub fn teleports(&self, rules: &Rules, pos: &Position, from: Square) -> Bitboard {
        let empty = rules.geometry().board() & !pos.occupied();
        let other_colour = if is_dark(from) { !DARK } else { DARK };
        empty & (other_colour | self.homes(rules, pos.turn()))
    }

    /// Teleports and explosions of the side to move's Teleporters on `movers` (their step
    /// captures come from the tables). A teleport goes to any empty square of the other colour,
    /// or to an empty home square of either colour; one move per target square.
    pub fn moves(&self, rules: &Rules, pos: &Position, movers: Bitboard, out: &mut MoveList) {
        let us = pos.turn();
        let mine = pos.pieces(us, self.kind) & movers;
        if mine.is_empty() {
            return;
        }
        let empty = rules.geometry().board() & !pos.occupied();
        let dark = empty & DARK;
        let light = empty & !DARK;
        let homes = self.homes(rules, us) & empty;
        // The game's explosion code with the enemy pieces on our first rank.
        let explosions = self.explosion.map(|code| {
            let rank = rules.geometry().rank_mask(first_rank(rules, us));
            (code, pos.color_bb(us.opponent()) & rank)
        });
        for from in mine {
            let other_colour = if is_dark(from) { light } else { dark };
            for to in other_colour | homes {
                out.push(Move::normal(from, to));
            }
            if let Some((code, victims)) = explosions {
                for to in victims {
                    out.push(Move::new(MoveKind::Special(code), from, to, None, None));
                }
            }
        }
    }

    /// Whether the Teleporters among `attackers` attack `sq` by exploding: every square of
    /// their side's first rank (RULINGS §2.4 item 6, §8 item 3).
    pub fn explosion_attacks(
        &self,
        rules: &Rules,
        pos: &Position,
        sq: Square,
        attackers: Bitboard,
    ) -> bool {
        self.explosion.is_some()
            && Color::PLAYERS.into_iter().any(|by| {
                sq.rank() == first_rank(rules, by)
                    && (pos.pieces(by, self.kind) & attackers).nonempty()
            })
    }

    /// The same moves, the slow way: every square visited and judged by the rules' words.
    pub fn reference_moves(
        &self,
        rules: &Rules,
        pos: &Position,
        movers: Bitboard,
        out: &mut Vec<Move>,
    ) {
        let us = pos.turn();
        let geo = rules.geometry();
        for from in Square::all().filter(|&s| {
            pos.piece_at(s) == crate::core::Piece::new(us, self.kind) && movers.contains(s)
        }) {
            for to in Square::all().filter(|&s| geo.contains(s)) {
                let here = pos.piece_at(to);
                let home =
                    to.rank() == first_rank(rules, us) && self.home_files.contains(&to.file());
                if here.is_none() && (is_dark(to) != is_dark(from) || home) {
                    out.push(Move::normal(from, to));
                }
                if let Some(explode) = self.explosion.filter(|_| {
                    here.is_some()
                        && here.color() == us.opponent()
                        && to.rank() == first_rank(rules, us)
                }) {
                    out.push(Move::new(MoveKind::Special(explode), from, to, None, None));
                }
            }
        }
    }
}

/// A game's Bobber rules.
#[derive(Clone, Copy, Debug)]
pub struct BobberRules {
    /// The Bobber kind.
    pub kind: PieceKind,
    /// The longest range it reaches (the longest line of the board); from then on it is a Queen.
    pub cap: u8,
}

/// All eight queen directions.
const QUEEN_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

impl BobberRules {
    /// The range of the next move of the Bobber on `sq`: one more than the moves it has made
    /// (its state's counter), at most the cap (RULINGS §2.2, §8 item 8).
    pub fn range(&self, pos: &Position, sq: Square) -> u8 {
        pos.state(sq).counter.saturating_add(1).min(self.cap)
    }

    /// The counter after one more move: it stops growing one short of the cap, where the range
    /// reaches the cap, so that Bobbers that move alike also hash alike.
    pub fn next_counter(&self, counter: u8) -> u8 {
        counter.saturating_add(1).min(self.cap - 1)
    }

    /// Squares the Bobber on `from` reaches with `occupied` as blockers: sliding up to its
    /// range, the first piece a possible capture.
    pub fn targets(
        &self,
        rules: &Rules,
        pos: &Position,
        from: Square,
        occupied: Bitboard,
    ) -> Bitboard {
        let range = self.range(pos, from);
        let t = &rules.tables;
        let mut out = Bitboard::EMPTY;
        for d in 0..8u8 {
            out |= t.slide(crate::rules::Direction(d), from, occupied);
        }
        out & t.within(from, range) & rules.geometry().board()
    }

    /// The moves of the side to move's Bobbers on `movers`, capturing on `victims`.
    pub fn moves(
        &self,
        rules: &Rules,
        pos: &Position,
        movers: Bitboard,
        victims: Bitboard,
        out: &mut MoveList,
    ) {
        let us = pos.turn();
        let allowed = !pos.occupied() | victims;
        for from in pos.pieces(us, self.kind) & movers {
            for to in self.targets(rules, pos, from, pos.occupied()) & allowed {
                out.push(Move::normal(from, to));
            }
        }
    }

    /// Whether a Bobber among `attackers` could capture on `sq`, with `occupied` as blockers.
    pub fn attacks(
        &self,
        rules: &Rules,
        pos: &Position,
        sq: Square,
        occupied: Bitboard,
        attackers: Bitboard,
    ) -> bool {
        (pos.kind_bb(self.kind) & attackers)
            .into_iter()
            .any(|b| self.targets(rules, pos, b, occupied).contains(sq))
    }

    /// Targets step by step, the slow way, with only the pieces on `occupied` on the board:
    /// empty squares and the enemy piece ending each line.
    pub fn reference_targets(
        &self,
        rules: &Rules,
        pos: &Position,
        from: Square,
        occupied: Bitboard,
    ) -> Vec<Square> {
        let us = pos.piece_at(from).color();
        let range = self.range(pos, from);
        let mut out = Vec::new();
        for (df, dr) in QUEEN_STEPS {
            let mut cur = from;
            for _ in 0..range {
                let Some(next) = cur.offset(df, dr).filter(|&s| rules.geometry().contains(s))
                else {
                    break;
                };
                if !occupied.contains(next) {
                    out.push(next);
                    cur = next;
                    continue;
                }
                if pos.piece_at(next).color() != us {
                    out.push(next);
                }
                break;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dark_mask_agrees_with_square_colours() {
        for sq in Square::all() {
            assert_eq!(DARK.contains(sq), is_dark(sq), "{sq}");
        }
    }
}
