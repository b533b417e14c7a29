//! The slow reference generator. It walks each piece's atoms square by square on coordinates,
//! with no tables, and decides legality by making each move and asking the game's `exposed` hook
//! with the reference method (whose default looks for any capture of a royal piece the slow
//! way). It defines the rules the fast generator must match; tests compare the two.

use super::Hooks;
use crate::board::Position;
use crate::core::{Bitboard, Color, Move, Piece, PieceKind, Square};
use crate::rules::Rules;

use super::Method;

fn playable(rules: &Rules, from: Square, sq: Option<Square>) -> Option<Square> {
    let geo = rules.geometry();
    sq.filter(|&s| geo.contains(s) && geo.same_board(from, s))
}

fn push(
    rules: &Rules,
    out: &mut Vec<Move>,
    color: Color,
    kind: PieceKind,
    from: Square,
    to: Square,
) {
    let promos = &rules.kinds[kind.index()].promotions;
    if !promos.is_empty() && rules.spec.promotion_zone[color].contains(to) {
        out.extend(promos.iter().map(|&p| Move::promotion(from, to, p)));
    } else {
        out.push(Move::normal(from, to));
    }
}

/// Targets of the piece on `from` by its atoms, moving `way`'s direction: `(square, capture)`.
/// Quiet moves go to empty squares, captures to the squares of `victims`.
fn targets(
    rules: &Rules,
    pos: &Position,
    from: Square,
    way: Color,
    victims: Bitboard,
) -> Vec<(Square, bool)> {
    targets_as(rules, pos, from, pos.piece_at(from).kind(), way, victims)
}

/// Targets from `from` by the atoms of `kind` (a piece's, or a movement template's, for a piece
/// whose movement changes), moving `way`'s direction: `(square, capture)`. Quiet moves go to
/// empty squares, captures to the squares of `victims`.
pub fn targets_as(
    rules: &Rules,
    pos: &Position,
    from: Square,
    kind: PieceKind,
    way: Color,
    victims: Bitboard,
) -> Vec<(Square, bool)> {
    let mut out = Vec::new();
    let land = |to: Square, quiet_ok: bool, capture_ok: bool, out: &mut Vec<(Square, bool)>| {
        if pos.piece_at(to).is_none() {
            if quiet_ok {
                out.push((to, false));
            }
        } else if capture_ok && victims.contains(to) {
            out.push((to, true));
        }
    };
    if let Some(extra) = rules.kinds[kind.index()].spec.extra_leaps {
        for to in extra(rules.geometry(), way, from) {
            if playable(rules, from, Some(to)).is_some() {
                land(to, true, true, &mut out);
            }
        }
    }
    for atom in rules.atoms_for(kind, way) {
        if atom.initial && !rules.on_initial_square(kind, way, from) {
            continue;
        }
        if !atom.usable_on_file(from.file()) {
            continue;
        }
        let (quiet_ok, capture_ok) = (atom.modality.moves(), atom.modality.captures());
        if atom.is_rider() {
            let mut cur = from;
            let mut steps = 0u8;
            while let Some(next) = playable(rules, from, cur.offset(atom.dx, atom.dy)) {
                steps += 1;
                if atom.range != 0 && steps > atom.range {
                    break;
                }
                land(next, quiet_ok, capture_ok, &mut out);
                if pos.piece_at(next).is_some() {
                    break;
                }
                cur = next;
            }
            continue;
        }
        let Some(to) = playable(rules, from, from.offset(atom.dx, atom.dy)) else {
            continue;
        };
        // The atom is already seen from the piece's side, and so is its path.
        let path_clear = atom.lame_path().iter().all(|&(px, py)| {
            playable(rules, from, from.offset(px, py)).is_some_and(|v| pos.piece_at(v).is_none())
        });
        if path_clear {
            land(to, quiet_ok, capture_ok, &mut out);
        }
    }
    out
}

/// Whether the pieces on `attackers` could capture on `sq`, with only the pieces on `occupied`
/// on the board. An empty `sq`, or one holding an attacker's own piece, is probed by standing
/// a piece of another colour there, so that capture-only atoms count.
pub fn attacked(
    rules: &Rules,
    pos: &Position,
    sq: Square,
    occupied: Bitboard,
    attackers: Bitboard,
) -> bool {
    let mut probe = pos.clone();
    for s in pos.occupied() & !occupied {
        probe.remove(s);
    }
    Color::ALL.into_iter().any(|by| {
        let theirs: Vec<Square> = Square::all()
            .filter(|&s| attackers.contains(s) && occupied.contains(s))
            .filter(|&s| probe.piece_at(s).is_some() && probe.piece_at(s).color() == by)
            .collect();
        if theirs.is_empty() {
            return false;
        }
        let mut board = probe.clone();
        let here = board.piece_at(sq);
        if here.is_none() || here.color() == by {
            if here.is_some() {
                board.remove(sq);
            }
            let other = Color::ALL
                .into_iter()
                .find(|&c| c != by)
                .unwrap_or(Color::White);
            board.put(Piece::new(other, PieceKind(0)), sq);
        }
        theirs
            .into_iter()
            .any(|s| targets(rules, &board, s, by, Bitboard::from_square(sq)).contains(&(sq, true)))
    })
}

/// All pseudo-legal moves, the slow way: the pieces the game's rights let the side to move
/// move, en passant, castling, drops and the game's own moves (its slow version), each passed
/// through the game's `allows` filter.
pub fn pseudo_legal<H: Hooks + ?Sized>(h: &H, pos: &Position) -> Vec<Move> {
    let rules = h.rules();
    let us = pos.turn();
    let in_check = h.in_check(pos, Method::Reference);
    let rights = h.rights(pos, in_check);
    let mut out = Vec::new();
    for from in Square::all().filter(|&s| rights.movers.contains(s)) {
        let piece = pos.piece_at(from);
        let kind = piece.kind();
        for (to, _) in targets(rules, pos, from, us, rights.victims[piece.color()]) {
            push(rules, &mut out, us, kind, from, to);
        }
        // En passant: a capture atom of an en-passant piece onto a target square.
        if rules.kinds[kind.index()].spec.en_passant {
            if let Some(victim) = pos.ep_victim() {
                for atom in rules
                    .atoms_for(kind, us)
                    .filter(|a| a.modality.captures() && !a.is_rider() && !a.initial)
                {
                    if let Some(to) = playable(rules, from, from.offset(atom.dx, atom.dy)) {
                        if pos.ep_targets().contains(to) {
                            out.push(Move::en_passant(from, to, victim));
                        }
                    }
                }
            }
        }
    }
    let attackers = h.attackers(pos, us);
    for c in rules.spec.castling.iter().filter(|c| c.color == us) {
        let rights = pos.unmoved().contains(c.king_from) && pos.unmoved().contains(c.partner_from);
        let pieces = pos.piece_at(c.king_from) == Piece::new(us, c.king)
            && pos.piece_at(c.partner_from) == Piece::new(us, c.partner);
        let clear = c
            .must_be_empty
            .into_iter()
            .all(|s| s == c.king_from || s == c.partner_from || pos.piece_at(s).is_none());
        let safe = c
            .must_be_safe
            .into_iter()
            .all(|s| !h.attacked(pos, s, pos.occupied(), attackers, Method::Reference));
        if rights && pieces && clear && safe {
            out.push(Move::castle(c.king_from, c.king_to, c.partner_from));
        }
    }
    for (ki, info) in rules.pieces().iter().enumerate() {
        let kind = PieceKind(ki as u8);
        if pos.reserve().count(us, kind) == 0 {
            continue;
        }
        for to in Square::all()
            .filter(|&s| rules.spec.drop_zone[us].contains(s) && rules.geometry().contains(s))
        {
            let promotes_there =
                !info.promotions.is_empty() && rules.spec.promotion_zone[us].contains(to);
            if pos.piece_at(to).is_none() && !promotes_there {
                out.push(Move::drop(kind, to));
            }
        }
    }
    h.reference_extra_moves(pos, in_check, &mut out);
    if h.turns_have_parts() {
        let parts = std::mem::take(&mut out);
        h.reference_complete_turns(pos, &parts, &mut out);
    }
    out.retain(|&m| h.allows(pos, m));
    out
}

/// All legal moves, the slow way: each pseudo-legal move is made and rejected if the game's
/// `exposed` hook, by the reference method, says it leaves a royal piece of the mover exposed;
/// then the pieces the game compels to move, if they can.
pub fn legal<H: Hooks + ?Sized>(h: &H, pos: &Position) -> Vec<Move> {
    let legal: Vec<Move> = pseudo_legal(h, pos)
        .into_iter()
        .filter(|&m| {
            let next = super::play(h, pos, m);
            !h.exposed(pos, m, &next, Method::Reference)
        })
        .collect();
    let compelled = h.compelled(pos);
    if legal.iter().any(|m| compelled.contains(m.from())) {
        legal
            .into_iter()
            .filter(|m| compelled.contains(m.from()))
            .collect()
    } else {
        legal
    }
}
