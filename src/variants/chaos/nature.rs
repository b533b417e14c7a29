//! Nature's moves and the rules only its plies have: introductions from its pool (§11 item 5's
//! placement rule), the pass, whether it may act at all (§11 item 2), the exposure rule for its
//! plies, en passant across them (§11 item 7), and the players' reintroductions of the pieces it
//! took (§11 item 6).

use super::{Chaos, KING, PAWN};
use crate::board::{Position, PositionError};
use crate::core::{Bitboard, Color, Move, MoveKind, MoveList, Piece, PieceKind, Square};
use crate::movegen::{self, reference, BulkCount, Method};
use crate::rules::{Direction, Rules};
use crate::variants::Hooks;

/// Whether Nature has any move: not once the real player after it would have no legal move
/// after its pass (the game ended on the last real ply, §11 item 2). The player's legal moves
/// are counted, not listed (`movegen::legal_count`).
pub fn may_act(chaos: &Chaos, pos: &Position) -> bool {
    let after_pass = movegen::play(chaos, pos, Move::pass());
    let in_check = chaos.in_check(&after_pass, Method::Fast);
    movegen::legal_count(chaos, &after_pass, in_check) > 0
}

/// Checks the pieces a position of this game can hold: no King in any reserve (only Nature's
/// captures fill a player's reserve, and kings are never captured: §5.4 item 6, §11 item 6), and
/// Nature has only Queens, Rooks, Bishops and Knights, on the board and in its pool (§5.2, §11
/// item 12: no Advanced Rules, so no Nature King or Pawn).
pub fn check_pieces(rules: &Rules, pos: &Position) -> Result<(), PositionError> {
    for c in Color::PLAYERS {
        if pos.reserve().count(c, KING) > 0 {
            return Err(PositionError::KingInReserve {
                color: c,
                king: rules.pieces()[KING.index()].spec.name,
            });
        }
    }
    let not_nature = |kind: PieceKind, square: Option<Square>| PositionError::NeutralKind {
        owner: "Nature",
        piece: rules.pieces()[kind.index()].spec.name,
        square,
        kinds: "queens, rooks, bishops and knights",
    };
    for kind in [KING, PAWN] {
        if let Some(sq) = pos.pieces(Color::Neutral, kind).first() {
            return Err(not_nature(kind, Some(sq)));
        }
        if pos.reserve().count(Color::Neutral, kind) > 0 {
            return Err(not_nature(kind, None));
        }
    }
    Ok(())
}

/// Real pieces a Nature piece may not attack from where it is introduced: every K, Q, R, B and
/// N of either colour (pawns may be attacked).
fn protected(pos: &Position) -> Bitboard {
    let real = pos.color_bb(Color::White) | pos.color_bb(Color::Black);
    real & !pos.kind_bb(super::PAWN)
}

/// Nature's introductions: each pool kind on each empty square from which it attacks no
/// protected piece, read from the tables. The squares from which a kind attacks a protected
/// piece are found once per node, backwards from the protected pieces: a leap by the reverse
/// leap table, a ride in a direction as the slide the other way from the piece (shared by the
/// kinds that ride that way), instead of the kind's attacks from every empty square. `each`
/// gets each pool kind with the squares it may be introduced on.
pub fn introductions(chaos: &Chaos, pos: &Position, mut each: impl FnMut(PieceKind, Bitboard)) {
    let rules = &chaos.rules;
    let t = &rules.tables;
    let occ = pos.occupied();
    let targets = protected(pos);
    let empty = !occ & rules.geometry().board();
    let leapers = t.leap_attack_kinds(Color::Neutral);
    // By direction: the squares a slide that way without a range reaches a protected piece from.
    let mut lines: [Option<Bitboard>; 8] = [None; 8];
    for kind in pool_kinds(rules, pos) {
        let mut forbidden = Bitboard::EMPTY;
        if leapers.contains(kind) {
            for p in targets {
                forbidden |= t.leap_capturers(Color::Neutral, kind, p);
            }
        }
        let rides = t.capture_rides(Color::Neutral, kind);
        let mut ridden = Bitboard::EMPTY;
        let mut dirs = rides.dirs;
        while dirs != 0 {
            let d = Direction(dirs.trailing_zeros() as u8);
            dirs &= dirs - 1;
            let back = d.opposite();
            let range = rides.range[d.0 as usize];
            ridden |= if range == 0 {
                *lines[d.0 as usize].get_or_insert_with(|| {
                    targets
                        .into_iter()
                        .fold(Bitboard::EMPTY, |acc, p| acc | t.slide(back, p, occ))
                })
            } else {
                targets.into_iter().fold(Bitboard::EMPTY, |acc, p| {
                    acc | (t.slide(back, p, occ) & t.within(p, range))
                })
            };
        }
        forbidden |= ridden & rides.from;
        each(kind, empty & !forbidden);
    }
}

/// Nature's introductions and pass when its moves are only counted (`Hooks::count_extra_moves`):
/// the introductions by their squares. Out of line, away from the count of the players' plies
/// (perft from the start costs 1.2% more instructions than before this count, 2.5% inlined).
#[inline(never)]
pub fn count_moves(chaos: &Chaos, pos: &Position, out: &mut BulkCount) {
    if may_act(chaos, pos) {
        introductions(chaos, pos, |kind, targets| out.drops(kind, targets));
        out.push(Move::pass());
    }
}

/// `introductions` the slow way: the piece put on the board, then each protected piece tested
/// with the reference attack test.
pub fn reference_introductions(chaos: &Chaos, pos: &Position, out: &mut Vec<Move>) {
    let rules = &chaos.rules;
    for kind in pool_kinds(rules, pos) {
        for to in Square::all().filter(|&s| rules.geometry().contains(s)) {
            if pos.piece_at(to).is_some() {
                continue;
            }
            let mut placed = pos.clone();
            placed.put(Piece::new(Color::Neutral, kind), to);
            let occ = placed.occupied();
            let attacks = protected(pos)
                .into_iter()
                .any(|p| reference::attacked(rules, &placed, p, occ, Bitboard::from_square(to)));
            if !attacks {
                out.push(Move::drop(kind, to));
            }
        }
    }
}

/// The kinds in Nature's pool.
fn pool_kinds<'a>(rules: &'a Rules, pos: &'a Position) -> impl Iterator<Item = PieceKind> + 'a {
    PieceKind::all(rules.num_kinds()).filter(|&k| pos.reserve().count(Color::Neutral, k) > 0)
}

/// Whether Nature's ply `m` leaves a real king attacked by a piece of the other player that did
/// not attack it before (§11 item 5). An introduction or the pass only adds a blocker or
/// changes nothing, so it never exposes.
pub fn exposes(chaos: &Chaos, before: &Position, m: Move, after: &Position, how: Method) -> bool {
    if matches!(m.kind(), MoveKind::Drop | MoveKind::Pass) {
        return false;
    }
    Color::PLAYERS.into_iter().any(|c| {
        let Some(k) = after.royals(&chaos.rules, c).first() else {
            return false;
        };
        let enemy = after.color_bb(c.opponent());
        let (occ_after, occ_before) = (after.occupied(), before.occupied());
        chaos.attacked(after, k, occ_after, enemy, how)
            && enemy.into_iter().any(|p| {
                let one = Bitboard::from_square(p);
                chaos.attacked(after, k, occ_after, one, how)
                    && !chaos.attacked(before, k, occ_before, one, how)
            })
    })
}

/// The squares on the eight lines from `sq`: where a piece may stand between a king and a
/// slider.
pub fn queen_lines(rules: &Rules, sq: Square) -> Bitboard {
    (0..8u8).fold(Bitboard::EMPTY, |acc, d| {
        acc | rules.tables.ray(Direction(d), sq)
    })
}

/// Keeps the en-passant square of the last real double step across Nature's ply for `next`,
/// unless Nature took the pawn or occupied a skipped square (§11 item 7).
pub fn keep_en_passant(rules: &Rules, before: &Position, after: &mut Position, next: Color) {
    let Some(victim) = before.ep_victim() else {
        return;
    };
    let targets = before.ep_targets();
    let pawn_there = after.piece_at(victim) == before.piece_at(victim);
    if pawn_there
        && (targets & after.occupied()).is_empty()
        && movegen::ep_capturable(rules, after, next, targets)
    {
        after.set_ep(targets, Some(victim));
    }
}

/// The players' reintroductions: a reserve piece onto a start square of its kind and colour,
/// empty or holding a Nature piece or an enemy piece other than the king (§11 item 6).
pub fn reintroductions(chaos: &Chaos, pos: &Position, out: &mut MoveList) {
    let us = pos.turn();
    if pos.reserve().is_empty_for(us) {
        return;
    }
    let blocked = pos.color_bb(us) | pos.kind_bb(KING);
    for kind in PieceKind::all(chaos.rules.num_kinds()) {
        if pos.reserve().count(us, kind) == 0 {
            continue;
        }
        for to in chaos.start_squares[us][kind.index()] & !blocked {
            out.push(Move::drop(kind, to));
        }
    }
}
