//! Who can act and who can be taken: pieces frozen by enemy Hyenas (RULINGS §1.2 Hyena, §1.4
//! item 6), dazzled pieces, sleeping Existentialists (§9 item 14), pieces that may not be
//! captured (Hyenas, Yanzees, pieces their own Dazzler protects, shields), Hyenas that must move
//! (§9 item 8); the Archer's hosts and shooters, shields, the King+Archer and the shared square
//! (§12); and the checks a position from a FEN must pass.

use super::{
    Existentialist, ARCHER, BOBBER, CYCLE, DAZZLED, DAZZLER, EXISTENTIALIST, HIBERNATING,
    HIBERNATION_PLIES, HYENA, INVULNERABLE, KING, LAST_MOVE, MUST_MOVE, REST, SHARED, YANZEE,
    ZEDNICK,
};
use crate::board::{Position, PositionError, SpellKind};
use crate::core::{Bitboard, ByColor, Color, Piece, Square};
use crate::movegen;
use crate::variants::Rights;

/// The pieces carrying a spell of `kind`.
pub fn spelled(pos: &Position, kind: SpellKind) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (sq, st) in pos.states().iter() {
        if st.spell.is_some_and(|s| s.kind == kind) {
            out.insert(sq);
        }
    }
    out
}

/// Pieces of `color` frozen by the other side's Hyenas: every piece on one of the eight squares
/// around such a Hyena, except Dazzlers and shields (RULINGS §1.2, §12 items 17 and 19).
pub fn frozen(game: &Existentialist, pos: &Position, color: Color) -> Bitboard {
    let hyenas = pos.pieces(color.opponent(), HYENA);
    if hyenas.is_empty() {
        return Bitboard::EMPTY;
    }
    let t = &game.rules.tables;
    let mut near = Bitboard::EMPTY;
    for h in hyenas {
        near |= t.within(h, 1);
    }
    near & pos.color_bb(color) & !pos.kind_bb(DAZZLER) & !shields(pos)
}

/// Sleeping Existentialists of either colour.
pub fn sleeping(pos: &Position) -> Bitboard {
    if pos.kind_bb(EXISTENTIALIST).is_empty() {
        return Bitboard::EMPTY;
    }
    spelled(pos, HIBERNATING) & pos.kind_bb(EXISTENTIALIST)
}

/// Shield squares of either colour: Zednicks with a link number (RULINGS §12 item 1).
pub fn shields(pos: &Position) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    if pos.kind_bb(ZEDNICK).is_empty() {
        return out;
    }
    for (sq, st) in pos.states().iter() {
        if st.link != 0 && pos.piece_at(sq).kind() == ZEDNICK {
            out.insert(sq);
        }
    }
    out
}

/// The squares of the shield the square `sq` belongs to.
pub fn shield_of(pos: &Position, sq: Square) -> Bitboard {
    let link = pos.state(sq).link;
    let color = pos.piece_at(sq).color();
    shields(pos)
        .into_iter()
        .filter(|&s| pos.state(s).link == link && pos.piece_at(s).color() == color)
        .collect()
}

/// Whether the piece on `sq` carries the Archer (a host, the King+Archer included).
pub fn carries_archer(pos: &Position, sq: Square) -> bool {
    let a = pos.state(sq).attached;
    a.is_some() && a.kind() == ARCHER
}

/// Whether the piece on `sq` is the Archer/Zednick (an Archer carrying the Zednick).
pub fn archer_zednick(pos: &Position, sq: Square) -> bool {
    let a = pos.state(sq).attached;
    pos.piece_at(sq).kind() == ARCHER && a.is_some() && a.kind() == ZEDNICK
}

/// The pieces that fire arrows: hosts carrying the Archer and Archer/Zednicks, of either colour.
pub fn shooters(pos: &Position) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (sq, st) in pos.states().iter() {
        let a = st.attached;
        if a.is_some()
            && (a.kind() == ARCHER || (a.kind() == ZEDNICK && pos.piece_at(sq).kind() == ARCHER))
        {
            out.insert(sq);
        }
    }
    out
}

/// The square where the side to move's King shares its square with the enemy piece that took its
/// Archer, if it does (RULINGS §12 items 2 and 13).
pub fn shared(pos: &Position) -> Option<Square> {
    pos.states()
        .iter()
        .find(|(_, st)| st.flags.contains(SHARED))
        .map(|(sq, _)| sq)
}

/// Where `color`'s King stands: its own square, or the shared square when it is the side to
/// move's King under an intruder.
pub fn king_square(pos: &Position, color: Color) -> Option<Square> {
    pos.pieces(color, KING).first().or_else(|| {
        shared(pos).filter(|&s| pos.piece_at(s).color() != color && pos.turn() == color)
    })
}

/// Whether both Kings are in play: without one the game is over (RULINGS §9 item 10).
pub fn kings_alive(pos: &Position) -> bool {
    Color::PLAYERS
        .iter()
        .all(|&c| king_square(pos, c).is_some())
}

/// Whether the King on `k` carries its Archer and its fire streak is below the rest turn's: then
/// its side may leave it attacked (RULINGS §12 item 8).
pub fn protected(pos: &Position, k: Square) -> bool {
    pos.piece_at(k).kind() == KING && carries_archer(pos, k) && pos.state(k).counter2 < REST
}

/// The pieces of `color` that can act on their next move: neither frozen, nor dazzled, nor
/// asleep, nor a shield square. Its King always can, for attacks (RULINGS §9 item 1).
pub fn active(game: &Existentialist, pos: &Position, color: Color) -> Bitboard {
    let ours = pos.color_bb(color);
    let idle = frozen(game, pos, color) | spelled(pos, DAZZLED) | sleeping(pos) | shields(pos);
    (ours & !idle) | pos.pieces(color, KING)
}

/// The pieces whose attacks on `defender`'s King count: the opponent's that can act (RULINGS §9
/// item 7: its pieces that the defender's Hyenas freeze do not count), and its shooters, whose
/// arrows a dazzle does not stop and a freeze only limits (§1.2 Archer).
pub fn attackers(game: &Existentialist, pos: &Position, defender: Color) -> Bitboard {
    let them = defender.opponent();
    active(game, pos, them) | (shooters(pos) & pos.color_bb(them))
}

/// Pieces nobody may capture now: Hyenas, Yanzees, pieces their own Dazzler protects, sleeping
/// Existentialists and shields (RULINGS §1.2, §9 items 13-14, §12 item 19).
pub fn uncapturable(pos: &Position) -> Bitboard {
    pos.kind_bb(HYENA)
        | pos.kind_bb(YANZEE)
        | spelled(pos, INVULNERABLE)
        | sleeping(pos)
        | shields(pos)
}

/// Hyenas of the side to move that an enemy Dazzler jumped: they must move if they can.
pub fn must_move(pos: &Position) -> Bitboard {
    if pos.states().is_empty() {
        return Bitboard::EMPTY;
    }
    spelled(pos, MUST_MOVE) & pos.pieces(pos.turn(), HYENA)
}

/// Who may move and capture what: the side to move's pieces that can act (its Hyenas that must
/// move even when frozen, its King in check whatever holds it, RULINGS §1.3, §9 item 8), each
/// capturing enemy pieces that may be captured, a protected King+Archer included (the capture
/// kills its Archer). Nothing moves once a King has been blasted; while the King shares its
/// square, only the King moves (`moves`).
pub fn rights(game: &Existentialist, pos: &Position, in_check: bool) -> Rights {
    let us = pos.turn();
    let mut victims = ByColor::default();
    if !kings_alive(pos) || shared(pos).is_some() {
        return Rights {
            movers: Bitboard::EMPTY,
            victims,
        };
    }
    let mut movers = active(game, pos, us) & !pos.pieces(us, KING);
    movers |= must_move(pos);
    let king = pos.pieces(us, KING);
    if in_check || (king & (frozen(game, pos, us) | spelled(pos, DAZZLED))).is_empty() {
        movers |= king;
    }
    let mut takeable = pos.color_bb(us.opponent()) & !uncapturable(pos) & !pos.kind_bb(KING);
    if let Some(k) = king_square(pos, us.opponent()).filter(|&k| protected(pos, k)) {
        takeable.insert(k);
    }
    victims[us] = takeable;
    Rights { movers, victims }
}

/// The checks a FEN must pass: at most one King each (none after a blast ends the game, RULINGS
/// §9 item 10); while both play, the shared checks (castling pieces, no promoting piece on its
/// last rank, the side not to move not in check); state only on the pieces that have it.
pub fn validate(game: &Existentialist, pos: &Position) -> Result<(), PositionError> {
    let bad =
        |sq: Square, what: &str| Err(PositionError::Variant(format!("the piece on {sq} {what}")));
    for c in Color::PLAYERS {
        let found = pos.pieces(c, KING).count();
        if found > 1 {
            return Err(PositionError::RoyalCount { color: c, found });
        }
    }
    let shared_squares: Vec<Square> = pos
        .states()
        .iter()
        .filter(|(_, st)| st.flags.contains(SHARED))
        .map(|(sq, _)| sq)
        .collect();
    if let [first, ..] = shared_squares[..] {
        if shared_squares.len() > 1 {
            return bad(
                first,
                "shares its square with a King, as another piece does",
            );
        }
        if pos.piece_at(first).color() == pos.turn() || pos.pieces(pos.turn(), KING).nonempty() {
            return bad(
                first,
                "shares its square with the King of the side to move, which has a King elsewhere or owns the piece",
            );
        }
    }
    if kings_alive(pos) {
        validate_shared(game, pos)?;
    }
    for (sq, st) in pos.states().iter() {
        let piece = pos.piece_at(sq);
        let kind = piece.kind();
        if st.counter != 0 && kind != BOBBER && kind != EXISTENTIALIST {
            return bad(
                sq,
                "has a counter, which only Bobbers and Existentialists keep",
            );
        }
        if kind == BOBBER && st.counter > super::BOBBERS.cap - 1 {
            return bad(sq, "has a counter above 8, which means nothing more");
        }
        if kind == EXISTENTIALIST && st.counter > LAST_MOVE {
            return bad(sq, "has made more than 19 moves: its 20th ends in a blast");
        }
        if st.attached.is_some() {
            check_attachment(pos, sq, st.attached).or_else(|why| bad(sq, &why))?;
        } else if st.counter2 != 0 {
            return bad(sq, "has a fire streak but carries no Archer");
        }
        if st.counter2 > REST {
            return bad(sq, "has a fire streak above 3");
        }
        if st.link != 0 && (kind != ZEDNICK || st.attached.is_some()) {
            return bad(sq, "is part of a shield, which only Zednick squares are");
        }
        if let Some(spell) = st.spell {
            check_spell(pos, sq, spell.kind, spell.left, st.counter)
                .or_else(|why| bad(sq, &why))?;
        }
    }
    one_archer_each(pos)?;
    for sq in shields(pos) {
        let shield = shield_of(pos, sq);
        if !(2..=3).contains(&shield.count()) || !in_line(shield) {
            return bad(
                sq,
                "is part of a shield that is not two or three squares in a line",
            );
        }
        let own_half = game
            .rules
            .geometry()
            .ranks_of(pos.piece_at(sq).color(), &[0, 1, 2, 3, 4]);
        if (shield & !own_half).nonempty() {
            return bad(sq, "is part of a shield beyond its owner's fifth rank");
        }
    }
    Ok(())
}

/// Checks that no side has more than its one Archer (RULINGS §1.4 item 10), free, as the
/// Archer/Zednick, or carried by a host; pawns never promote to one. Run after the
/// attachments are checked, so a carried Archer has its host's colour.
fn one_archer_each(pos: &Position) -> Result<(), PositionError> {
    for c in Color::PLAYERS {
        let carried = pos
            .states()
            .iter()
            .filter(|(_, st)| st.attached == Piece::new(c, ARCHER))
            .count();
        let found = pos.pieces(c, ARCHER).count() + carried as u32;
        if found > 1 {
            return Err(PositionError::PieceCount {
                color: c,
                pieces: "Archers (free or carried)",
                found,
                most: 1,
            });
        }
    }
    Ok(())
}

/// The shared checks, while both Kings play: the side to move's King hidden under an intruder
/// holds its castling rights where it stands.
fn validate_shared(game: &Existentialist, pos: &Position) -> Result<(), PositionError> {
    let rules = &game.rules;
    movegen::castling_pieces_stand(rules, pos, |sq, color, kind| {
        pos.piece_at(sq) == Piece::new(color, kind)
            || (kind == KING && king_square(pos, color) == Some(sq))
    })?;
    for c in Color::PLAYERS {
        let promoting = pos.kinds_bb(rules.promoting) & pos.color_bb(c);
        if let Some(sq) = (promoting & rules.promotion_zone(c)).first() {
            return Err(PositionError::PieceOnPromotionRank(sq));
        }
    }
    let waiting = pos.turn().opponent();
    let k = king_square(pos, waiting).expect("both Kings play");
    if !protected(pos, k)
        && super::threats::king_attacked(game, pos, k, waiting, movegen::Method::Fast)
    {
        return Err(PositionError::OpponentInCheck);
    }
    Ok(())
}

/// Whether the squares of a shield lie in one line, next to each other.
fn in_line(shield: Bitboard) -> bool {
    let squares: Vec<Square> = shield.collect();
    let same_rank = squares.iter().all(|s| s.rank() == squares[0].rank());
    let same_file = squares.iter().all(|s| s.file() == squares[0].file());
    let span = |f: fn(&Square) -> u8| {
        let (lo, hi) = (squares.iter().map(f).min(), squares.iter().map(f).max());
        hi.zip(lo).map_or(0, |(h, l)| h - l) as usize
    };
    (same_rank && span(|s| s.file()) + 1 == squares.len())
        || (same_file && span(|s| s.rank()) + 1 == squares.len())
}

/// Whether `attached` can ride the piece on `sq`: the Archer on any own piece but a Hyena, a
/// Yanzee, an Existentialist, a shield square or an Archer/Zednick; the Zednick only on its own
/// Archer (RULINGS §12 items 2 and 16).
fn check_attachment(pos: &Position, sq: Square, attached: Piece) -> Result<(), String> {
    let piece = pos.piece_at(sq);
    if attached.color() != piece.color() {
        return Err("carries a piece of the other colour".into());
    }
    match attached.kind() {
        ARCHER if matches!(piece.kind(), HYENA | YANZEE | EXISTENTIALIST | ARCHER) => {
            Err("carries the Archer, which it may not host".into())
        }
        ARCHER => Ok(()),
        ZEDNICK if piece.kind() == ARCHER => Ok(()),
        _ => Err("carries a piece that can only be an Archer, or a Zednick on an Archer".into()),
    }
}

/// Whether a spell can stand on the piece on `sq`: a sleeping Existentialist has made exactly ten
/// moves and sleeps at most twenty plies; only Hyenas must move, and only those of the side to
/// move; one-ply spells last this ply only.
fn check_spell(
    pos: &Position,
    sq: Square,
    kind: SpellKind,
    left: u8,
    counter: u8,
) -> Result<(), String> {
    let piece = pos.piece_at(sq);
    if kind == HIBERNATING {
        if piece.kind() != EXISTENTIALIST || counter != CYCLE {
            return Err("sleeps, which only an Existentialist after its tenth move does".into());
        }
        if left > HIBERNATION_PLIES {
            return Err("sleeps longer than 20 plies".into());
        }
        return Ok(());
    }
    if left != 1 {
        return Err("has a spell that lasts more than the ply to come".into());
    }
    if kind == MUST_MOVE && (piece.kind() != HYENA || piece.color() != pos.turn()) {
        return Err("must move, which only a Hyena of the side to move can".into());
    }
    Ok(())
}

#[cfg(test)]
mod validation_tests {
    use crate::board::{FenError, PositionError};
    use crate::core::Color;
    use crate::variants::Variant;

    /// Each side has one Archer (RULINGS §1.4 item 10) and no pawn promotes to one: a second,
    /// free or carried, is refused (these were accepted and played).
    #[test]
    fn one_archer_a_side() {
        let v = super::super::get();
        let two = |color| {
            FenError::Position(PositionError::PieceCount {
                color,
                pieces: "Archers (free or carried)",
                found: 2,
                most: 1,
            })
        };
        let cases = [
            // The start with the King carrying a second Archer.
            (
                "dscvokvcsd/ytlhxazjty/pppppppppp/10/10/10/10/PPPPPPPPPP/YTLHXAZJTY/DSCVOK{aA}VCSD w KQkq - 0 1",
                Color::White,
            ),
            // Two hosts.
            ("9k/10/10/10/10/10/10/10/10/K{aA}S{aA}8 w - - 0 1", Color::White),
            // The Archer/Zednick and a host.
            ("9k/10/10/10/10/10/10/10/4a{az}5/K{aA}4s{aa}4 w - - 0 1", Color::Black),
            // Two free Archers.
            ("9k/10/10/10/10/10/10/10/10/K3A3A1 b - - 0 1", Color::White),
        ];
        for (fen, color) in cases {
            assert_eq!(v.parse_fen(fen).unwrap_err(), two(color), "{fen}");
        }
        for fen in [
            "9k/10/10/10/10/10/10/10/10/K{aA}9 w - - 0 1",
            "9k/10/10/10/10/10/10/10/4a{az}5/K{aA}9 w - - 0 1",
            "9k/10/10/10/10/10/10/10/9a/K3A5 w - - 0 1",
        ] {
            v.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        }
    }
}
