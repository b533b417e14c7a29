//! Static evaluation for any registered variant: material, and piece-square terms derived from
//! the rules (how many squares a piece reaches from each square of an empty board, and how far a
//! pawn has come). Values are in centipawns from the side to move's point of view.

use crate::board::Position;
use crate::core::{Bitboard, Color, KindSet, PieceKind, Square, MAX_KINDS, NUM_SQUARES};
use crate::rules::Rules;

/// Estimated value of a piece per square it reaches on average on an empty board. Fitted so that
/// a knight (5.25 squares on 8x8) comes out near 320 and a queen (22.75) near 900.
const VALUE_PER_MOBILITY: i32 = 33;
/// Value of a piece that reaches no square at all, in the same fit.
const VALUE_BASE: i32 = 146;
/// Value of a pawn-like piece whose value is not given.
const PAWN_VALUE: i32 = 100;
/// Bonus per square a piece reaches from its square, above its average, on an empty board.
const CENTRALITY_WEIGHT: i32 = 3;
/// Bonus per rank a pawn has advanced.
const PAWN_ADVANCE: i32 = 6;
/// Bonus for having the move.
const TEMPO: i32 = 10;
/// Bonus per square a piece can move to or capture on, with the real board.
const MOBILITY_WEIGHT: i32 = 2;
/// Bonus per own piece next to one's royal piece (a shield).
const KING_SHIELD: i32 = 6;
/// Penalty per enemy piece (not pawn-like) within two squares of one's royal piece.
const KING_TROPISM: i32 = 12;
/// Pawn structure, for pawn-like pieces: per extra pawn on a file, per pawn with no own pawn
/// on a neighbouring file, and for a passed pawn a base plus a bonus per rank advanced.
const DOUBLED_PAWN: i32 = 12;
const ISOLATED_PAWN: i32 = 10;
const PASSED_PAWN: i32 = 10;
const PASSED_PAWN_PER_RANK: i32 = 8;
/// Material lead from which a side with only royal pieces left is hunted (mop-up).
const MOPUP_LEAD: i32 = 300;
/// Mop-up: bonus per step the lone royal piece stands from the centre...
const MOPUP_EDGE: i32 = 20;
/// ...and per step the attacking royal piece stands closer to it.
const MOPUP_CLOSE: i32 = 8;

/// The evaluation tables of one variant.
pub struct Eval {
    values: [i32; MAX_KINDS],
    /// Kinds counted for mobility (neither royal nor pawn-like).
    mobile: KindSet,
    /// Pawn-like kinds.
    pawns: KindSet,
    /// Squares of each file.
    files: Vec<Bitboard>,
    /// Per (colour, square): the squares ahead on the same and neighbouring files, which must
    /// hold no enemy pawn for a pawn there to be passed.
    front_span: Vec<Bitboard>,
    /// Per (colour, kind, square): value plus square bonus.
    table: Vec<i32>,
}

fn index(c: Color, k: PieceKind, sq: Square) -> usize {
    (c.index() * MAX_KINDS + k.index()) * NUM_SQUARES + sq.index()
}

/// Squares a piece reaches from `sq` on an empty board.
fn mobility(rules: &Rules, c: Color, k: PieceKind, sq: Square) -> u32 {
    let t = &rules.tables;
    let empty = Bitboard::EMPTY;
    let reach = t.leap_quiet(c, k, sq)
        | t.leap_capture(c, k, sq)
        | t.ride_targets(t.quiet_rides(c, k), sq, empty)
        | t.ride_targets(t.capture_rides(c, k), sq, empty);
    reach.count() + t.lame(c, k, sq).len() as u32
}

impl Eval {
    /// Builds the tables for `rules`.
    pub fn new(rules: &Rules) -> Eval {
        let board = rules.geometry().board();
        let mut values = [0; MAX_KINDS];
        let mut table = vec![0; 3 * MAX_KINDS * NUM_SQUARES];
        for (ki, info) in rules.kinds.iter().enumerate() {
            let kind = PieceKind(ki as u8);
            let total: u32 = board
                .into_iter()
                .map(|s| mobility(rules, Color::White, kind, s))
                .sum();
            let avg = total as f64 / board.count().max(1) as f64;
            values[ki] = if info.spec.royal {
                0
            } else if info.spec.value != 0 {
                info.spec.value
            } else if info.spec.pawn {
                PAWN_VALUE
            } else {
                VALUE_PER_MOBILITY * avg.round() as i32 + VALUE_BASE
            };
            for c in Color::ALL {
                for sq in board {
                    let bonus = if info.spec.pawn {
                        PAWN_ADVANCE * rules.geometry().relative_rank(c, sq) as i32
                    } else if info.spec.royal {
                        0
                    } else {
                        CENTRALITY_WEIGHT
                            * (mobility(rules, c, kind, sq) as f64 - avg).round() as i32
                    };
                    table[index(c, kind, sq)] = values[ki] + bonus;
                }
            }
        }
        let pawns = rules.pawns;
        let mobile = PieceKind::all(rules.num_kinds())
            .filter(|k| !pawns.contains(*k) && !rules.royal.contains(*k))
            .collect();
        let files: Vec<Bitboard> = (0..rules.geometry().files())
            .map(|f| board.into_iter().filter(|s| s.file() == f).collect())
            .collect();
        let mut front_span = vec![Bitboard::EMPTY; 3 * NUM_SQUARES];
        for c in [Color::White, Color::Black] {
            for sq in board {
                front_span[c.index() * NUM_SQUARES + sq.index()] = board
                    .into_iter()
                    .filter(|s| s.file().abs_diff(sq.file()) <= 1)
                    .filter(|s| {
                        if c == Color::Black {
                            s.rank() < sq.rank()
                        } else {
                            s.rank() > sq.rank()
                        }
                    })
                    .collect();
            }
        }
        Eval {
            values,
            table,
            mobile,
            pawns,
            files,
            front_span,
        }
    }

    /// Material value of a kind.
    #[inline]
    pub fn value(&self, k: PieceKind) -> i32 {
        self.values[k.index()]
    }

    /// Evaluation from `pov`'s point of view (the side to move, or the player a third party's
    /// turn hands the move to).
    pub fn evaluate(&self, rules: &Rules, pos: &Position, pov: Color) -> i32 {
        let mut score = 0;
        for c in Color::PLAYERS {
            let sign = if c == Color::White { 1 } else { -1 };
            for ki in 0..rules.num_kinds() {
                let k = PieceKind(ki as u8);
                for sq in pos.pieces(c, k) {
                    score += sign * self.table[index(c, k, sq)];
                }
            }
        }
        score += self.mop_up(rules, pos, score);
        score += self.mobility(rules, pos, Color::White) - self.mobility(rules, pos, Color::Black);
        score +=
            self.king_safety(rules, pos, Color::White) - self.king_safety(rules, pos, Color::Black);
        if self.pawns.nonempty() {
            score +=
                self.pawn_structure(pos, Color::White) - self.pawn_structure(pos, Color::Black);
        }
        let us = if pov == Color::Black { -1 } else { 1 };
        us * score + TEMPO
    }

    /// Squares the pieces of `c` reach, not counting their own pieces' squares.
    fn mobility(&self, rules: &Rules, pos: &Position, c: Color) -> i32 {
        let t = &rules.tables;
        let occ = pos.occupied();
        let own = pos.color_bb(c);
        let mut n = 0;
        for k in self.mobile {
            for sq in pos.pieces(c, k) {
                // Pieces that move as they capture need their targets worked out once.
                let reach = if t.symmetric(c, k) {
                    t.leap_capture(c, k, sq) | t.ride_targets(t.capture_rides(c, k), sq, occ)
                } else {
                    t.leap_quiet(c, k, sq)
                        | t.leap_capture(c, k, sq)
                        | t.ride_targets(t.quiet_rides(c, k), sq, occ)
                        | t.ride_targets(t.capture_rides(c, k), sq, occ)
                };
                n += (reach & !own).count() as i32;
            }
        }
        MOBILITY_WEIGHT * n
    }

    /// Own pieces around the royal piece, and enemy pieces close to it.
    fn king_safety(&self, rules: &Rules, pos: &Position, c: Color) -> i32 {
        let Some(k) = pos.royals(rules, c).first() else {
            return 0;
        };
        let t = &rules.tables;
        let near = t.within(k, 1);
        let close = t.within(k, 2);
        let shield = (near & pos.color_bb(c)).count() as i32;
        let enemies = pos.color_bb(c.opponent())
            & close
            & !pos.royals(rules, c.opponent())
            & !pos.kinds_bb(self.pawns);
        KING_SHIELD * shield - KING_TROPISM * enemies.count() as i32
    }

    /// Doubled, isolated and passed pawns of `c`.
    fn pawn_structure(&self, pos: &Position, c: Color) -> i32 {
        let pawns_of = |color: Color| pos.kinds_bb(self.pawns) & pos.color_bb(color);
        let ours = pawns_of(c);
        let theirs = pawns_of(c.opponent());
        let nfiles = self.files.len();
        let mut score = 0;
        for f in 0..nfiles {
            let here = ours & self.files[f];
            let n = here.count() as i32;
            if n == 0 {
                continue;
            }
            score -= DOUBLED_PAWN * (n - 1);
            let left = if f > 0 {
                self.files[f - 1]
            } else {
                Bitboard::EMPTY
            };
            let right = if f + 1 < nfiles {
                self.files[f + 1]
            } else {
                Bitboard::EMPTY
            };
            if (ours & (left | right)).is_empty() {
                score -= ISOLATED_PAWN * n;
            }
            for sq in here {
                if (theirs & self.front_span[c.index() * NUM_SQUARES + sq.index()]).is_empty() {
                    let ranks = self.files[f].count() as i32;
                    let advanced = if c == Color::Black {
                        ranks - 1 - sq.rank() as i32
                    } else {
                        sq.rank() as i32
                    };
                    score += PASSED_PAWN + PASSED_PAWN_PER_RANK * advanced;
                }
            }
        }
        score
    }

    /// When one side has only royal pieces left and is well behind, the winner is paid for
    /// driving the lone royal piece to the edge and for bringing its own royal piece near: the
    /// material terms alone give no way to make progress.
    fn mop_up(&self, rules: &Rules, pos: &Position, score: i32) -> i32 {
        let g = rules.geometry();
        let (winner, loser, sign) = if score >= MOPUP_LEAD {
            (Color::White, Color::Black, 1)
        } else if score <= -MOPUP_LEAD {
            (Color::Black, Color::White, -1)
        } else {
            return 0;
        };
        let lone = pos.royals(rules, loser);
        if (pos.color_bb(loser) & !lone).nonempty() {
            return 0;
        }
        let (Some(l), Some(w)) = (lone.first(), pos.royals(rules, winner).first()) else {
            return 0;
        };
        let from_centre = |sq: Square| {
            let df = (2 * sq.file() as i32 - (g.files() as i32 - 1)).abs();
            let dr = (2 * sq.rank() as i32 - (g.ranks() as i32 - 1)).abs();
            df.max(dr) / 2
        };
        let apart = (l.file() as i32 - w.file() as i32)
            .abs()
            .max((l.rank() as i32 - w.rank() as i32).abs());
        let most_apart = g.files().max(g.ranks()) as i32;
        sign * (MOPUP_EDGE * from_centre(l) + MOPUP_CLOSE * (most_apart - apart))
    }
}
