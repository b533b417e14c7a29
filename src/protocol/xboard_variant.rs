//! What XBoard needs to play a game it does not know: the `setup` line (piece table, board size,
//! start FEN), one `piece` line per kind in Betza, and `highlight` boards that show the legal
//! targets of a lifted piece, so XBoard checks human moves with our rules.

use crate::board::Position;
use crate::core::{Color, Move, MoveKind, MoveList, Square};
use crate::notation::Dialect;
use crate::rules::Rules;

/// Letters of XBoard's first piece-type slots, in its internal order; a piece whose letter
/// matches a slot gets that slot (and so the usual image).
const XBOARD_SLOTS: [char; 21] = [
    'P', 'N', 'B', 'R', 'Q', 'F', 'E', 'A', 'C', 'W', 'M', 'O', 'H', 'I', 'J', 'G', 'D', 'V', 'L',
    'S', 'U',
];

/// The piece table of `setup`: White's half then Black's, the royal piece last in each half.
pub fn piece_table(rules: &Rules) -> String {
    let mut slots: Vec<Option<char>> = vec![None; XBOARD_SLOTS.len()];
    let mut king = None;
    let mut rest = Vec::new();
    for info in &rules.kinds {
        let l = info.spec.letter;
        if info.spec.royal && king.is_none() {
            king = Some(l);
        } else if let Some(i) = XBOARD_SLOTS
            .iter()
            .position(|&s| s == l)
            .filter(|&i| slots[i].is_none())
        {
            slots[i] = Some(l);
        } else {
            rest.push(l);
        }
    }
    for l in rest {
        if let Some(free) = slots.iter().position(Option::is_none) {
            slots[free] = Some(l);
        }
    }
    let mut half: String = slots.iter().map(|s| s.unwrap_or('.')).collect();
    half.push(king.unwrap_or('.'));
    format!("{half}{}", half.to_ascii_lowercase())
}

/// A piece's movement as XBoard's Betza: our notation, with `e` added to the capture moves of
/// pieces that take en passant.
pub fn xboard_betza(rules: &Rules, kind: usize) -> String {
    let spec = &rules.kinds[kind].spec;
    if !spec.en_passant {
        return spec.betza.to_string();
    }
    // Atoms are upper case, so a lower-case `c` is always the capture modifier.
    spec.betza
        .chars()
        .flat_map(|c| if c == 'c' { vec!['c', 'e'] } else { vec![c] })
        .collect()
}

/// The lines answering `variant NAME` for a game XBoard does not know.
pub fn definition(rules: &Rules) -> Vec<String> {
    let g = rules.geometry();
    let mut lines = vec![format!(
        "setup ({}) {}x{}+0_fairy {}",
        piece_table(rules),
        g.files(),
        g.ranks(),
        rules.spec.start_fen
    )];
    for (i, info) in rules.kinds.iter().enumerate() {
        lines.push(format!(
            "piece {}& {}",
            info.spec.letter,
            xboard_betza(rules, i)
        ));
    }
    lines
}

/// A board of colour letters in FEN shape, `None` squares left empty.
fn colour_board(rules: &Rules, mark: impl Fn(Square) -> Option<char>) -> String {
    let g = rules.geometry();
    let mut out = String::new();
    for rank in (0..g.ranks()).rev() {
        let mut empty = 0;
        for file in 0..g.files() {
            let sq = Square::new(file, rank).expect("inside");
            match mark(sq) {
                Some(c) => {
                    if empty > 0 {
                        out += &empty.to_string();
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out += &empty.to_string();
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// The square a move's first leg lands on, where XBoard shows the move's target.
fn first_leg_target(m: Move) -> Square {
    match m.kind() {
        MoveKind::TwoLeg => m.aux().unwrap_or(m.to()),
        _ => m.to(),
    }
}

/// `highlight` for a piece lifted from `from`: yellow targets, red captures, magenta promotions,
/// cyan first legs of two-leg moves.
pub fn lift(rules: &Rules, pos: &Position, moves: &MoveList, from: Square) -> String {
    let mine: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.from() == from && m.kind() != MoveKind::Drop)
        .collect();
    let board = colour_board(rules, |sq| {
        let here: Vec<&Move> = mine
            .iter()
            .filter(|&&m| first_leg_target(m) == sq)
            .collect();
        if here.is_empty() {
            return None;
        }
        Some(if here.iter().any(|m| m.kind() == MoveKind::Promotion) {
            'M'
        } else if here.iter().any(|m| m.kind() == MoveKind::TwoLeg) {
            'C'
        } else if here.iter().any(|m| {
            matches!(
                m.kind(),
                MoveKind::EnPassant | MoveKind::Shot | MoveKind::Explode
            ) || pos.piece_at(sq).is_some() && pos.piece_at(sq).color() != pos.turn()
        }) {
            'R'
        } else {
            'Y'
        })
    });
    format!("highlight {board}")
}

/// `choice` when the piece lifted from `from` and put on `to` must choose a promotion.
pub fn put(rules: &Rules, moves: &MoveList, from: Square, to: Square) -> Option<String> {
    let letters: String = moves
        .iter()
        .filter(|m| m.from() == from && m.to() == to && m.kind() == MoveKind::Promotion)
        .filter_map(|m| m.piece())
        .map(|k| rules.kinds[k.index()].spec.letter)
        .collect();
    (!letters.is_empty()).then(|| format!("choice {letters}"))
}

/// `highlight` of side effects when hovering over `to`: the victim of an en-passant capture.
pub fn hover(rules: &Rules, moves: &MoveList, from: Square, to: Square) -> Option<String> {
    let victims: Vec<Square> = moves
        .iter()
        .filter(|m| m.from() == from && m.to() == to && m.kind() == MoveKind::EnPassant)
        .filter_map(|m| m.aux())
        .collect();
    if victims.is_empty() {
        return None;
    }
    Some(format!(
        "highlight {}",
        colour_board(rules, |sq| victims.contains(&sq).then_some('G'))
    ))
}

/// Rewrites the en-passant field of a CECP FEN into the internal square form (ranks from 1).
pub fn fen_from_cecp(rules: &Rules, fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(ep) = fields.get_mut(3) {
        if ep != "-" {
            let g = rules.geometry();
            let mut squares = String::new();
            for text in crate::notation::split_squares(ep).unwrap_or_default() {
                match crate::notation::parse_square(g, Dialect::Cecp, text) {
                    Some(sq) => squares += &sq.to_string(),
                    None => return fen.to_string(),
                }
            }
            *ep = squares;
        }
    }
    fields.join(" ")
}

/// Rewrites the en-passant field of an internal FEN into CECP's square form.
pub fn fen_to_cecp(rules: &Rules, fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(ep) = fields.get_mut(3) {
        if ep != "-" {
            let mut out = String::new();
            for text in crate::notation::split_squares(ep).unwrap_or_default() {
                match Square::parse(text) {
                    Some(sq) => {
                        out += &crate::notation::square_text(rules.geometry(), Dialect::Cecp, sq)
                    }
                    None => return fen.to_string(),
                }
            }
            *ep = out;
        }
    }
    fields.join(" ")
}

/// The side of a piece for highlights: only the mover's pieces are lifted.
pub fn can_lift(pos: &Position, sq: Square) -> bool {
    let p = pos.piece_at(sq);
    p.is_some() && p.color() == pos.turn() && pos.turn() != Color::Neutral
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::by_name;

    #[test]
    fn chess_table_puts_pieces_in_their_slots() {
        let chess = by_name("chess").unwrap();
        let t = piece_table(chess.rules());
        assert_eq!(t.len(), 44);
        assert!(t.starts_with("PNBRQ"));
        assert_eq!(&t[21..22], "K");
        assert!(t.ends_with('k'));
    }

    #[test]
    fn pawn_betza_gains_en_passant() {
        let chess = by_name("chess").unwrap();
        let pawn = chess.rules().kind_by_letter('P').unwrap().index();
        assert_eq!(xboard_betza(chess.rules(), pawn), "fmWfceFifmnD");
        let lines = definition(chess.rules());
        assert!(
            lines[0].starts_with("setup (PNBRQ") && lines[0].contains(" 8x8+0_fairy rnbqkbnr/")
        );
        assert_eq!(lines.len(), 1 + chess.rules().num_kinds());
    }

    #[test]
    fn lift_marks_targets() {
        let chess = by_name("chess").unwrap();
        let pos = chess
            .parse_fen("4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1")
            .unwrap();
        let mut moves = MoveList::new();
        chess.legal_moves(&pos, &mut moves);
        let sq = |s: &str| Square::parse(s).unwrap();
        assert_eq!(
            lift(chess.rules(), &pos, &moves, sq("e2")),
            "highlight 8/8/8/8/8/8/8/8"
        );
        assert_eq!(
            lift(chess.rules(), &pos, &moves, sq("e5")),
            "highlight 8/8/3RY3/8/8/8/8/8"
        );
        assert_eq!(
            lift(chess.rules(), &pos, &moves, sq("b7")),
            "highlight 1M6/8/8/8/8/8/8/8"
        );
        assert_eq!(
            put(chess.rules(), &moves, sq("b7"), sq("b8")).as_deref(),
            Some("choice QRBN")
        );
        assert_eq!(
            hover(chess.rules(), &moves, sq("e5"), sq("d6")).as_deref(),
            Some("highlight 8/8/8/3G4/8/8/8/8")
        );
    }

    #[test]
    fn cecp_en_passant_squares_on_ten_ranks_are_rewritten() {
        // On a 10-rank board CECP numbers ranks from 0: its e2 is our e3.
        let rules = crate::rules::Rules::compile(crate::rules::RuleSpec {
            geometry: crate::core::Geometry::rectangle(10, 10).unwrap(),
            xboard_builtin: None,
            ..crate::variants::chess::spec()
        });
        // The chess castling squares do not fit a 10-wide board's names, but they compile.
        let rules = rules.unwrap();
        assert_eq!(
            fen_from_cecp(&rules, "10/10/10/10/10/10/10/10/10/10 b - e2 0 1"),
            "10/10/10/10/10/10/10/10/10/10 b - e3 0 1"
        );
        assert_eq!(fen_from_cecp(&rules, "x w - - 0 1"), "x w - - 0 1");
    }
}
