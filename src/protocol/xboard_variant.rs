//! What XBoard needs to play a game it does not know: the `setup` line (piece table, board size,
//! start FEN), one `piece` line per kind in Betza, and `highlight` boards that show the legal
//! targets of a lifted piece, so XBoard checks human moves with our rules.

use crate::board::Position;
use crate::core::{Color, Move, MoveKind, MoveList, PieceKind, Square};
use crate::notation::{
    fen_letters, move_text, parse_move, parse_square, piece_letter, split_squares, square_text,
    Dialect, MoveError,
};
use crate::rules::Rules;
use crate::variants::Variant;

/// Letters of XBoard's first piece-type slots, in its internal order; a piece whose letter
/// matches a slot gets that slot (and so the usual image). The Lance's slot (between V and S)
/// is left out and stays empty: XBoard 4.9.1 promotes whatever stands in it on the last rank
/// (it turned a Schizzy's capture on rank 7 into `Lxc7=Q`).
const XBOARD_SLOTS: [char; 21] = [
    'P', 'N', 'B', 'R', 'Q', 'F', 'E', 'A', 'C', 'W', 'M', 'O', 'H', 'I', 'J', 'G', 'D', 'V', '-',
    'S', 'U',
];
/// The Lance's slot, never filled.
const LANCE_SLOT: usize = 18;
/// Pieces without a slot of their own take free slots from here on, past the FIDE pieces'
/// slots, whose pieces XBoard treats specially (the Pawn's promotion, the Rook's castling).
const FIRST_FREE_SLOT: usize = 5;

/// The piece table of `setup`: White's half then Black's, the royal piece last in each half.
pub fn piece_table(rules: &Rules) -> String {
    let mut slots: Vec<Option<char>> = vec![None; XBOARD_SLOTS.len()];
    let mut king = None;
    let mut rest = Vec::new();
    for (k, info) in rules.pieces().iter().enumerate() {
        let l = piece_letter(rules, Dialect::Cecp, PieceKind(k as u8));
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
        let free =
            |from: usize| (from..slots.len()).find(|&i| i != LANCE_SLOT && slots[i].is_none());
        if let Some(i) = free(FIRST_FREE_SLOT).or_else(|| free(0)) {
            slots[i] = Some(l);
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
    if !spec.faces.is_empty() {
        // XBoard has no file-dependent pieces: the union of the faces (our highlights are exact).
        return std::iter::once(spec.betza)
            .chain(spec.faces.iter().map(|f| f.betza))
            .collect();
    }
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
        fen_to_cecp(rules, rules.spec.start_fen)
    )];
    for i in 0..rules.num_kinds() {
        // A piece moved only by hooks (the Bobber) has no Betza; XBoard keeps its own default.
        let betza = xboard_betza(rules, i);
        if betza.is_empty() {
            continue;
        }
        lines.push(format!(
            "piece {}& {betza}",
            piece_letter(rules, Dialect::Cecp, PieceKind(i as u8)),
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
/// cyan first legs of two-leg moves and of a switch in place.
pub fn lift(variant: &dyn Variant, pos: &Position, moves: &MoveList, from: Square) -> String {
    let rules = variant.rules();
    // Only moves a user can enter in XBoard by clicks (drops and switches have their own
    // entry), and that XBoard shows as we mean them.
    let mine: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.from() == from)
        .filter(|&m| variant.xboard_clickable(m) && xboard_carries(variant, pos, m))
        .collect();
    // A switch in place starts with a click on an empty square (see `switch_via`).
    let via = moves
        .iter()
        .any(|m| m.kind() == MoveKind::Transform && m.from() == from)
        .then(|| switch_via(rules, pos, moves, from))
        .flatten();
    let board = colour_board(rules, |sq| {
        if Some(sq) == via {
            return Some('C');
        }
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
            matches!(m.kind(), MoveKind::EnPassant | MoveKind::Shot)
                || pos.piece_at(sq).is_some() && pos.piece_at(sq).color() != pos.turn()
        }) {
            'R'
        } else {
            'Y'
        })
    });
    format!("highlight {board}")
}

/// The empty square a switch in place at `sq` passes through in XBoard's form. XBoard 4.9.1
/// refuses a move whose origin is its target unless it has a kill square, and empties that
/// square, so a switch travels as `c1e3,e3c1m` through an empty square: the nearest one that is
/// no target of the piece's own moves, so that a click there cannot mean another move.
pub fn switch_via(rules: &Rules, pos: &Position, moves: &MoveList, sq: Square) -> Option<Square> {
    let targets: Vec<Square> = moves
        .iter()
        .filter(|m| m.from() == sq)
        .map(|m| first_leg_target(*m))
        .collect();
    let distance = |t: Square| {
        (t.file().abs_diff(sq.file())).max(t.rank().abs_diff(sq.rank())) as usize * 1000 + t.index()
    };
    (rules.geometry().board() & !pos.occupied())
        .into_iter()
        .filter(|t| !targets.contains(t))
        .min_by_key(|&t| distance(t))
}

/// A move as sent to XBoard: the common CECP text, except a switch in place, which goes through
/// an empty square (`switch_via`). `moves` are the legal moves of `pos`.
pub fn wire_text(variant: &dyn Variant, pos: &Position, moves: &MoveList, m: Move) -> String {
    let rules = variant.rules();
    let text = move_text(variant, Dialect::Cecp, m);
    let via = switch_via(rules, pos, moves, m.from());
    let Some(via) = via.filter(|_| m.kind() == MoveKind::Transform) else {
        return text;
    };
    let sq = |s| square_text(rules.geometry(), Dialect::Cecp, s);
    let letter = m.piece().map_or('?', |k| {
        piece_letter(rules, Dialect::Cecp, k).to_ascii_lowercase()
    });
    format!(
        "{}{},{}{}{letter}",
        sq(m.from()),
        sq(via),
        sq(via),
        sq(m.from())
    )
}

/// The legal move XBoard means by `text`: the common CECP text, or XBoard's forms of a switch in
/// place. Besides `wire_text`'s `c1e3,e3c1m` (also what a user's clicks produce), XBoard 4.9.1
/// relays a Black switch to the other engine as `c8c8,e6b8`, losing the letter: it takes the
/// empty kill square for a friendly piece and rewrites the move as castling. That form is read as
/// the switch on c8 when there is exactly one.
pub fn parse_wire(variant: &dyn Variant, pos: &Position, text: &str) -> Result<Move, MoveError> {
    let plain = parse_move(variant, pos, Dialect::Cecp, text);
    if plain.is_ok() {
        return plain;
    }
    let Some((leg1, leg2)) = text.split_once(',') else {
        return unique_between(variant, pos, text).ok_or(plain.unwrap_err());
    };
    let geo = variant.rules().geometry();
    let squares = |leg: &str| -> Option<(Square, Square, String)> {
        let body = leg.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let suffix = leg[body.len()..].to_string();
        match split_squares(body)?.as_slice() {
            [a, b] => Some((
                parse_square(geo, Dialect::Cecp, a)?,
                parse_square(geo, Dialect::Cecp, b)?,
                suffix,
            )),
            _ => None,
        }
    };
    let (Some((a, b, s1)), Some((c, d, suffix))) = (squares(leg1), squares(leg2)) else {
        return plain;
    };
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    let switches: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.kind() == MoveKind::Transform && m.from() == a)
        .collect();
    let found = if a != b && c == b && d == a && s1.is_empty() {
        switches.iter().copied().find(|&m| {
            move_text(variant, Dialect::Cecp, m).ends_with(&suffix) && !suffix.is_empty()
        })
    } else if a == b
        && switches.len() == 1
        && pos.piece_at(c).is_none()
        && d.rank() == a.rank()
        && s1.is_empty()
        && suffix.is_empty()
    {
        // XBoard's castling-shaped relay: the via square (empty) to a square on the switch's
        // rank.
        Some(switches[0])
    } else {
        None
    };
    found.ok_or(plain.unwrap_err())
}

/// The only legal move between the two squares of `text`, if it is a King's teleport that XBoard
/// shows as we do: XBoard sends it without its suffix when a user enters it by clicks.
fn unique_between(variant: &dyn Variant, pos: &Position, text: &str) -> Option<Move> {
    let geo = variant.rules().geometry();
    let squares = split_squares(text)?;
    let [from, to] = squares.as_slice() else {
        return None;
    };
    let (from, to) = (
        parse_square(geo, Dialect::Cecp, from)?,
        parse_square(geo, Dialect::Cecp, to)?,
    );
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    let mut between = moves.iter().filter(|m| m.from() == from && m.to() == to);
    match (between.next(), between.next()) {
        // Only a game's own move that a user enters by clicks and that XBoard shows as we do
        // (a King's teleport); a bare click onto an explosion's victim leaves the Teleporter
        // standing on XBoard's board, so it is refused.
        (Some(&m), None)
            if matches!(m.kind(), MoveKind::Special(_))
                && variant.xboard_clickable(m)
                && xboard_carries(variant, pos, m) =>
        {
            Some(m)
        }
        _ => None,
    }
}

/// Whether XBoard 4.9.1 applies `m` (legal in `pos`) to its own board as we do, and writes it so
/// that it reads back. It cannot step a Pawn-slot piece diagonally onto an en-passant square
/// without capturing (it takes that for en passant), nor a move of a game's own kind that the
/// game says it cannot carry (`Hooks::xboard_carries`: a Magician's promotion elsewhere on the
/// board, some King teleports). Under CECP the engine does not choose such moves while it has
/// others.
pub fn xboard_carries(variant: &dyn Variant, pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::Normal => {
            let p = pos.piece_at(m.from());
            !(p.is_some()
                && variant.rules().en_passant.contains(p.kind())
                && pos.ep_targets().contains(m.to())
                && m.from().file() != m.to().file())
        }
        _ => variant.xboard_carries(pos, m),
    }
}

/// A move in XBoard's SAN for moves with a kill square (`Bc1e3-c1m`: the piece, its square, the
/// kill square, `-` or `x`, the target and the promotion letter), which is how XBoard 4.9.1 writes
/// a switch in place into its PGN.
pub fn parse_kill_san(
    variant: &dyn Variant,
    pos: &Position,
    text: &str,
) -> Result<Move, MoveError> {
    let malformed = || MoveError::Malformed(text.to_string());
    let clean: String = text
        .trim_start_matches(|c: char| c.is_ascii_uppercase())
        .chars()
        .filter(|c| !matches!(c, '+' | '#' | '!' | '?' | '='))
        .collect();
    let cut = clean
        .char_indices()
        .find(|&(i, c)| (c == '-' || c == 'x') && i > 0 && clean.as_bytes()[i - 1].is_ascii_digit())
        .map(|(i, _)| i)
        .ok_or_else(malformed)?;
    let (first, last) = (&clean[..cut], &clean[cut + 1..]);
    let squares = split_squares(first).ok_or_else(malformed)?;
    // The target square: its file letter and rank digits, before any promotion letter.
    let square_end = last
        .char_indices()
        .skip(1)
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(last.len(), |(i, _)| i);
    let target = &last[..square_end];
    let (from, kill) = match squares.as_slice() {
        [from, kill] => (*from, *kill),
        // XBoard leaves out the origin when the piece is unambiguous; a switch in place starts
        // where it ends.
        [kill] => (target, *kill),
        _ => return Err(malformed()),
    };
    parse_wire(variant, pos, &format!("{from}{kill},{kill}{last}"))
}

/// `choice` of the pieces a piece on `from` may switch into in place, if any.
pub fn switch_choice(rules: &Rules, moves: &MoveList, from: Square) -> Option<String> {
    let letters: String = moves
        .iter()
        .filter(|m| m.kind() == MoveKind::Transform && m.from() == from)
        .filter_map(|m| m.piece())
        .map(|k| piece_letter(rules, Dialect::Cecp, k))
        .collect();
    (!letters.is_empty()).then(|| format!("choice {letters}"))
}

/// `highlight` for the second leg of a switch in place: only the piece's own square, magenta,
/// so that XBoard asks for the new piece.
pub fn lift_switch_back(rules: &Rules, from: Square) -> String {
    format!(
        "highlight {}",
        colour_board(rules, |sq| (sq == from).then_some('M'))
    )
}

/// `choice` when the piece lifted from `from` and put on `to` must choose a promotion.
pub fn put(rules: &Rules, moves: &MoveList, from: Square, to: Square) -> Option<String> {
    let letters: String = moves
        .iter()
        .filter(|m| m.from() == from && m.to() == to && m.kind() == MoveKind::Promotion)
        .filter_map(|m| m.piece())
        .map(|k| piece_letter(rules, Dialect::Cecp, k))
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

/// Rewrites a CECP FEN into the internal form: piece letters XBoard cannot carry, and the
/// en-passant field's squares (ranks from 1).
pub fn fen_from_cecp(rules: &Rules, fen: &str) -> String {
    let fen = &fen_letters(rules, Dialect::Cecp, Dialect::Uci, fen);
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

/// Rewrites an internal FEN into CECP's form: piece letters and en-passant squares.
pub fn fen_to_cecp(rules: &Rules, fen: &str) -> String {
    let fen = &fen_letters(rules, Dialect::Uci, Dialect::Cecp, fen);
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
            lift(chess, &pos, &moves, sq("e2")),
            "highlight 8/8/8/8/8/8/8/8"
        );
        assert_eq!(
            lift(chess, &pos, &moves, sq("e5")),
            "highlight 8/8/3RY3/8/8/8/8/8"
        );
        assert_eq!(
            lift(chess, &pos, &moves, sq("b7")),
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

    /// XBoard 4.9.1 forms of Magician's switch in place: out through an empty square and back,
    /// Black's as XBoard relays it (letter lost), and the SAN XBoard writes in its PGN.
    #[test]
    fn switch_in_place_in_xboard_forms() {
        let v = crate::variants::by_name("magician").unwrap();
        let rules = v.rules();
        let pos = v.start_position();
        let mut moves = MoveList::new();
        v.legal_moves(&pos, &mut moves);
        let switch = moves
            .iter()
            .copied()
            .find(|m| m.kind() == MoveKind::Transform && m.from() == Square::parse("c1").unwrap())
            .unwrap();
        let text = wire_text(v, &pos, &moves, switch);
        let via = switch_via(rules, &pos, &moves, switch.from()).unwrap();
        assert!(pos.piece_at(via).is_none());
        let v_text = square_text(rules.geometry(), Dialect::Cecp, via);
        assert_eq!(text, format!("c1{v_text},{v_text}c1m"));
        assert_eq!(parse_wire(v, &pos, &text), Ok(switch));
        assert_eq!(parse_wire(v, &pos, "c1c1m"), Ok(switch));
        assert_eq!(
            parse_kill_san(v, &pos, &format!("Bc1{v_text}-c1m")),
            Ok(switch)
        );
        assert_eq!(
            parse_kill_san(v, &pos, &format!("B{v_text}-c1m")),
            Ok(switch)
        );
        assert!(
            parse_wire(v, &pos, "c1c3,c3c1q").is_err(),
            "no switch into a queen"
        );
        // Black, after 1.e4: XBoard relays `c8e6,e6c8m` as `c8c8,e6b8`.
        let black = v.play(&pos, parse_move(v, &pos, Dialect::Cecp, "e2e4").unwrap());
        assert!(
            parse_wire(v, &black, "c8c8,e7b8").is_err(),
            "e7 is not empty"
        );
        let m = parse_wire(v, &black, "c8c8,e6b8").unwrap();
        assert_eq!(
            (m.kind(), m.from()),
            (MoveKind::Transform, Square::parse("c8").unwrap())
        );
        // Clicks: the lifted Bishop marks its empty via square cyan.
        let board = lift(v, &pos, &moves, switch.from());
        assert!(board.contains('C'), "{board}");
        assert_eq!(
            switch_choice(rules, &moves, switch.from()).as_deref(),
            Some("choice M")
        );
    }
}
