//! What XBoard needs to play a game it does not know: the `setup` line (piece table, board size,
//! start FEN) and one `piece` line per kind in Betza (here); a model of XBoard's own board
//! (`view`); and the texts moves travel as, read back and entered by clicks, with the
//! `highlight` boards that show a lifted piece's legal targets (`entry`), so XBoard checks human
//! moves with our rules.

mod entry;
pub mod view;

pub use entry::{
    carries, hover, lift, parse_kill_san, parse_wire, parse_xboard_san, put, replay, switch_via,
    wire_text, Put,
};
pub use view::Shown;

use crate::board::Position;
use crate::core::{Color, PieceKind, Square};
use crate::notation::{fen_letters, piece_letter, Dialect};
use crate::rules::Rules;

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
    // XBoard's Pawn slot (its pawn rules, SAN without a letter) goes to the game's pawn: the
    // one lettered P, or else the first that takes en passant (Afterlife's Slave, whose P is
    // the Pharaoh).
    let letter = |k: usize| piece_letter(rules, Dialect::Cecp, PieceKind(k as u8));
    let pieces = rules.pieces();
    let pawn = (0..pieces.len())
        .find(|&k| pieces[k].spec.pawn && letter(k) == 'P')
        .or_else(|| (0..pieces.len()).find(|&k| pieces[k].spec.pawn && pieces[k].spec.en_passant));
    if let Some(k) = pawn {
        slots[0] = Some(letter(k));
    }
    for (k, info) in pieces.iter().enumerate() {
        let l = letter(k);
        if Some(k) == pawn {
            continue;
        }
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

/// Whether the game's players hold pieces off the board (a reserve in the start FEN's
/// brackets: Chaos's returned pieces), which XBoard then shows in holdings.
fn has_reserve(rules: &Rules) -> bool {
    rules
        .spec
        .start_fen
        .split_whitespace()
        .next()
        .is_some_and(|board| board.contains('['))
}

/// XBoard's holdings size (the `S` of `WxH+S_fairy`): none for a game without a reserve, else
/// the piece table's slots up to the last used one before the King, so that every kind a
/// player may hold has a pocket and its drop (`P@e4`) is one XBoard accepts.
pub fn holdings_size(rules: &Rules) -> usize {
    if !has_reserve(rules) {
        return 0;
    }
    let table = piece_table(rules);
    let half = &table[..table.len() / 2 - 1];
    half.trim_end_matches('.').len()
}

/// The lines answering `variant NAME` for a game XBoard does not know.
pub fn definition(rules: &Rules) -> Vec<String> {
    let g = rules.geometry();
    let mut lines = vec![format!(
        "setup ({}) {}x{}+{}_fairy {}",
        piece_table(rules),
        g.files(),
        g.ranks(),
        holdings_size(rules),
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

/// Rewrites a CECP FEN into the internal form: piece letters XBoard cannot carry, and the
/// en-passant field's squares (ranks from 1).
///
/// XBoard sees only castling rights of Rooks in corners, so for a game whose castling partner is
/// another piece it sends the start array without them (to the second engine's `setboard`, in a
/// PGN's FEN tag). The start array, to move first, with no rights and no clocks is therefore
/// read as the game's start position.
pub fn fen_from_cecp(rules: &Rules, fen: &str) -> String {
    let fen = &fen_letters(rules, Dialect::Cecp, Dialect::Uci, fen);
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(board) = fields.first_mut() {
        *board = match board.split_once('[') {
            // XBoard's holdings are the players' reserves: their letters stay as they are.
            // Empty holdings come as `[-]`.
            Some((squares, held)) => {
                let held = if held == "-]" { "]" } else { held };
                format!("{}[{held}", sides_to_neutral(rules, squares))
            }
            None => sides_to_neutral(rules, board),
        };
    }
    let start: Vec<&str> = rules.spec.start_fen.split_whitespace().collect();
    // XBoard writes no reserve it cannot show: a third party's pool is the start's, added to
    // the players' holdings (`[]` from XBoard gives the start's `[_Q_R_B_N]`).
    if let (Some(board), Some((_, held))) = (fields.first_mut(), start[0].split_once('[')) {
        let pool = neutral_items(held.trim_end_matches(']'));
        match board.split_once('[') {
            _ if pool.is_empty() => {}
            None => *board = format!("{board}[{pool}]"),
            Some((squares, theirs)) if !theirs.contains('_') => {
                let theirs = theirs.trim_end_matches(']');
                *board = format!("{squares}[{theirs}{pool}]");
            }
            Some(_) => {}
        }
    }
    let unmoved = fields.get(4).is_none_or(|h| h == "0") && fields.get(5).is_none_or(|f| f == "1");
    if fields.len() >= 3
        && fields[..2] == start[..2]
        && fields[2] == "-"
        && start.get(2) != Some(&"-")
        && fields.get(3).is_none_or(|ep| ep == "-")
        && unmoved
    {
        return rules.spec.start_fen.to_string();
    }
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

/// The neutral pieces (`_Q`) of a reserve's letters.
fn neutral_items(held: &str) -> String {
    let mut out = String::new();
    let mut chars = held.chars();
    while let Some(c) = chars.next() {
        if c == '_' {
            if let Some(l) = chars.next() {
                out.push('_');
                out.push(l);
            }
        }
    }
    out
}

/// The players' pieces (`P`, `n`) of a reserve's letters, without the neutral ones (`_Q`).
fn players_items(held: &str) -> String {
    let mut out = String::new();
    let mut chars = held.chars();
    while let Some(c) = chars.next() {
        if c == '_' {
            chars.next();
        } else {
            out.push(c);
        }
    }
    out
}

/// Rewrites an internal FEN into CECP's form: piece letters and en-passant squares.
pub fn fen_to_cecp(rules: &Rules, fen: &str) -> String {
    let fen = &fen_letters(rules, Dialect::Uci, Dialect::Cecp, fen);
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(board) = fields.first_mut() {
        *board = match board.split_once('[') {
            // XBoard's holdings hold the players' pieces only: a third party's pool (`_Q`) is
            // left out, since XBoard would count it as a player's.
            Some((squares, held)) => format!(
                "{}[{}]",
                neutral_to_sides(rules, squares),
                players_items(held.trim_end_matches(']'))
            ),
            None => neutral_to_sides(rules, board),
        };
    }
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

/// A FEN board with each neutral piece (`_M`) written in the colour XBoard shows it in
/// (`view::side_shown`), since XBoard knows only two.
fn neutral_to_sides(rules: &Rules, board: &str) -> String {
    let geo = rules.geometry();
    let mut out = String::with_capacity(board.len());
    let (mut file, mut rank) = (0u8, geo.ranks().saturating_sub(1));
    let mut chars = board.chars().peekable();
    let mut digits = 0u8;
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            digits = digits * 10 + (c as u8 - b'0');
            out.push(c);
            continue;
        }
        file += std::mem::take(&mut digits);
        match c {
            '/' => {
                rank = rank.saturating_sub(1);
                file = 0;
                out.push(c);
            }
            '{' => {
                // A piece's state: copied as it is.
                out.push(c);
                for d in chars.by_ref() {
                    out.push(d);
                    if d == '}' {
                        break;
                    }
                }
            }
            '_' => {
                if let Some(l) = chars.next() {
                    let white = Square::new(file, rank)
                        .is_some_and(|sq| view::side_shown(rules, sq) == Color::White);
                    out.push(if white {
                        l.to_ascii_uppercase()
                    } else {
                        l.to_ascii_lowercase()
                    });
                    file += 1;
                }
            }
            _ => {
                out.push(c);
                file += 1;
            }
        }
    }
    out
}

/// A FEN board from XBoard with the letters of always-neutral kinds (`PieceSpec::neutral`)
/// written as neutral pieces again.
fn sides_to_neutral(rules: &Rules, board: &str) -> String {
    let mut out = String::with_capacity(board.len());
    let mut in_state = false;
    for c in board.chars() {
        in_state = (in_state || c == '{') && c != '}';
        let neutral = !in_state
            && c.is_ascii_alphabetic()
            && crate::notation::kind_by_letter(rules, Dialect::Uci, c)
                .is_some_and(|k| rules.kinds[k.index()].spec.neutral);
        if neutral {
            out.push('_');
            out.push(c.to_ascii_uppercase());
        } else {
            out.push(c);
        }
    }
    out
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

    /// Chaos's reserves travel in XBoard's holdings: the players' pieces only, both ways, with
    /// Nature's pool (which XBoard cannot hold) kept from the start.
    #[test]
    fn chaos_reserves_are_xboards_holdings() {
        let v = by_name("chaos").unwrap();
        let rules = v.rules();
        assert_eq!(holdings_size(rules), 5);
        assert_eq!(holdings_size(by_name("chess").unwrap().rules()), 0);
        assert_eq!(
            fen_to_cecp(rules, "4k3/8/8/8/8/8/8/4K3[Bp_Q_N] w - - 0 1 2"),
            "4k3/8/8/8/8/8/8/4K3[Bp] w - - 0 1 2"
        );
        assert_eq!(
            fen_from_cecp(rules, "4k3/8/8/8/8/8/8/4K3[Bp] w - - 0 1"),
            "4k3/8/8/8/8/8/8/4K3[Bp_Q_R_B_N] w - - 0 1"
        );
        // XBoard 4.9.1 writes empty holdings as `[-]`.
        assert_eq!(
            fen_from_cecp(
                rules,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1"
            ),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[_Q_R_B_N] w KQkq - 0 1"
        );
    }

    /// XBoard never sees a third party's ply (an empty text in `applied`): its board keeps what
    /// Nature took, and a text that follows is applied to that board. A ply's text left out
    /// goes as we would send it.
    #[test]
    fn replay_keeps_what_a_third_party_took() {
        let v = by_name("chaos").unwrap();
        let fen = "rnbqkbnr/pppppppp/8/1_N6/8/8/PPPPPPPP/RNBQKBNR[_Q_R_B] n KQkq - 0 1 5w";
        let mut game = crate::game::Game::new(v, v.parse_fen(fen).unwrap());
        let play = |game: &mut crate::game::Game, text: &str| {
            let m = crate::notation::parse_move(v, game.position(), Dialect::Cecp, text).unwrap();
            game.play(m);
        };
        let sq = |t: &str| crate::notation::parse_square(v.rules().geometry(), Dialect::Cecp, t);
        play(&mut game, "b5a7");
        play(&mut game, "e2e4");
        let a7 = sq("a7").unwrap();
        assert_eq!(game.position().piece_at(a7).color(), Color::Neutral);
        let shown = replay(&game, &[String::new(), "e2e4".to_string()]);
        assert_eq!(shown.at(a7), Some((Color::Black, 'P')));
        assert_eq!(shown.at(sq("e4").unwrap()), Some((Color::White, 'P')));
        // The same ply seen (or unknown) shows our board.
        let ours = replay(&game, &[]);
        assert_ne!(ours.at(a7), Some((Color::Black, 'P')));
    }

    /// XBoard 4.9.1 sends the second engine `setboard` of the start array without the Squires'
    /// castling rights, which it cannot see.
    #[test]
    fn start_array_without_castling_is_the_start() {
        let v = by_name("existentialist").unwrap();
        let rules = v.rules();
        let xboard = "dscvokvcsd/ytlhiazjty/pppppppppp/10/10/10/10/PPPPPPPPPP/YTLHIAZJTY/DSCVOKVCSD w - - 0 1";
        assert_eq!(fen_from_cecp(rules, xboard), rules.spec.start_fen);
        // Black to move, or a later move number, is another position.
        let black = xboard.replace(" w ", " b ");
        assert!(fen_from_cecp(rules, &black).contains(" b - - 0 1"));
        let later = xboard.replace(" 0 1", " 0 7");
        assert!(fen_from_cecp(rules, &later).ends_with(" - - 0 7"));
    }
}
