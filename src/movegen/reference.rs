//! The slow reference generator. It walks each piece's atoms square by square on coordinates,
//! with no tables, and decides legality by making each move and looking for any enemy capture of a
//! royal piece. It defines the rules the fast generator must match; tests compare the two.

use crate::board::Position;
use crate::core::{Color, Move, Piece, PieceKind, Square};
use crate::rules::Rules;

fn playable(rules: &Rules, sq: Option<Square>) -> Option<Square> {
    sq.filter(|&s| rules.geometry().contains(s))
}

fn in_promotion_zone(rules: &Rules, color: Color, sq: Square) -> bool {
    let ranks = rules.geometry().ranks();
    let rel = if color == Color::Black {
        ranks - 1 - sq.rank()
    } else {
        sq.rank()
    };
    rules.spec.promotion_ranks.contains(&rel)
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
    if !promos.is_empty() && in_promotion_zone(rules, color, to) {
        out.extend(promos.iter().map(|&p| Move::promotion(from, to, p)));
    } else {
        out.push(Move::normal(from, to));
    }
}

/// Targets of the piece on `from` by its atoms: `(square, is_capture)`. Captures are listed on any
/// occupied square not of the piece's own colour; quiet moves on empty squares.
fn targets(rules: &Rules, pos: &Position, from: Square) -> Vec<(Square, bool)> {
    let piece = pos.piece_at(from);
    let (color, kind) = (piece.color(), piece.kind());
    let mut out = Vec::new();
    let hostile = |p: Piece| p.is_some() && p.color() != color && p.color() != Color::Neutral;
    if let Some(extra) = rules.kinds[kind.index()].spec.extra_leaps {
        for to in extra(rules.geometry(), color, from) {
            if !rules.geometry().contains(to) {
                continue;
            }
            let p = pos.piece_at(to);
            if p.is_none() {
                out.push((to, false));
            } else if hostile(p) {
                out.push((to, true));
            }
        }
    }
    for atom in rules.atoms_for(kind, color) {
        if atom.initial && !rules.on_initial_square(kind, color, from) {
            continue;
        }
        if !atom.usable_on_file(from.file()) {
            continue;
        }
        if atom.is_rider() {
            let mut cur = from;
            let mut steps = 0u8;
            while let Some(next) = playable(rules, cur.offset(atom.dx, atom.dy)) {
                steps += 1;
                if atom.range != 0 && steps > atom.range {
                    break;
                }
                let p = pos.piece_at(next);
                if p.is_none() {
                    if atom.modality.moves() {
                        out.push((next, false));
                    }
                    cur = next;
                    continue;
                }
                if hostile(p) && atom.modality.captures() {
                    out.push((next, true));
                }
                break;
            }
            continue;
        }
        let Some(to) = playable(rules, from.offset(atom.dx, atom.dy)) else {
            continue;
        };
        // The atom is already seen from the piece's side, and so is its path.
        let path_clear = atom.lame_path().iter().all(|&(px, py)| {
            playable(rules, from.offset(px, py)).is_some_and(|v| pos.piece_at(v).is_none())
        });
        if !path_clear {
            continue;
        }
        let p = pos.piece_at(to);
        if p.is_none() && atom.modality.moves() {
            out.push((to, false));
        } else if hostile(p) && atom.modality.captures() {
            out.push((to, true));
        }
    }
    out
}

/// Whether any piece of `by` could capture on `sq`. An empty `sq` is probed by standing an
/// enemy piece of `by` there, so that capture-only atoms count.
pub fn attacked(rules: &Rules, pos: &Position, sq: Square, by: Color) -> bool {
    let mut probe = pos.clone();
    let here = probe.piece_at(sq);
    if here.is_none() || here.color() == by {
        if here.is_some() {
            probe.remove(sq);
        }
        probe.put(Piece::new(by.opponent(), PieceKind(0)), sq);
    }
    Square::all()
        .filter(|&s| probe.piece_at(s).is_some() && probe.piece_at(s).color() == by)
        .any(|s| targets(rules, &probe, s).contains(&(sq, true)))
}

/// All pseudo-legal moves, the slow way.
pub fn pseudo_legal(rules: &Rules, pos: &Position) -> Vec<Move> {
    let us = pos.turn();
    let mut out = Vec::new();
    if us == Color::Neutral {
        return out;
    }
    for from in
        Square::all().filter(|&s| pos.piece_at(s).is_some() && pos.piece_at(s).color() == us)
    {
        let kind = pos.piece_at(from).kind();
        for (to, _) in targets(rules, pos, from) {
            push(rules, &mut out, us, kind, from, to);
        }
        // En passant: a capture atom of an en-passant piece onto a target square.
        if rules.kinds[kind.index()].spec.en_passant {
            if let Some(victim) = pos.ep_victim() {
                for atom in rules
                    .atoms_for(kind, us)
                    .filter(|a| a.modality.captures() && !a.is_rider() && !a.initial)
                {
                    if let Some(to) = playable(rules, from.offset(atom.dx, atom.dy)) {
                        if pos.ep_targets().contains(to) {
                            out.push(Move::en_passant(from, to, victim));
                        }
                    }
                }
            }
        }
    }
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
            .all(|s| !attacked(rules, pos, s, us.opponent()));
        if rights && pieces && clear && safe {
            out.push(Move::castle(c.king_from, c.king_to, c.partner_from));
        }
    }
    for (ki, info) in rules.kinds.iter().enumerate() {
        let kind = PieceKind(ki as u8);
        if pos.reserve().count(us, kind) == 0 {
            continue;
        }
        for to in
            Square::all().filter(|&s| rules.geometry().contains(s) && pos.piece_at(s).is_none())
        {
            if info.promotions.is_empty() || !in_promotion_zone(rules, us, to) {
                out.push(Move::drop(kind, to));
            }
        }
    }
    out
}

/// All legal moves, the slow way: each pseudo-legal move is made and rejected if any royal piece of
/// the mover can then be captured.
pub fn legal(rules: &Rules, pos: &Position) -> Vec<Move> {
    let us = pos.turn();
    pseudo_legal(rules, pos)
        .into_iter()
        .filter(|&m| {
            let next = pos.play(rules, m);
            let royals: Vec<Square> = Square::all()
                .filter(|&s| {
                    next.piece_at(s).is_some()
                        && next.piece_at(s).color() == us
                        && rules.is_royal(next.piece_at(s).kind())
                })
                .collect();
            royals
                .iter()
                .all(|&k| !attacked(rules, &next, k, us.opponent()))
        })
        .collect()
}
