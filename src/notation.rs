//! Square and move text for each protocol. One formatter and one parser per dialect:
//!
//! - UCI and the internal form number ranks from 1 (`a10` on a ten-rank board).
//! - CECP on a board of exactly ten ranks numbers them from 0 (`a0`..`j9`), because XBoard
//!   rejects `a10`; on other boards it matches UCI.
//!
//! Moves are parsed by formatting every legal move and comparing, so the text of any move kind
//! parses back to exactly that move. `docs/protocol.md` lists the forms.

use crate::board::Position;
use crate::core::{Geometry, Move, MoveKind, MoveList, Square};
use crate::rules::Rules;
use std::fmt;

/// A protocol's way of writing squares and moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI, the CLI and the docs.
    Uci,
    /// XBoard / CECP.
    Cecp,
}

fn zero_based(geo: &Geometry, dialect: Dialect) -> bool {
    dialect == Dialect::Cecp && geo.ranks() == 10
}

/// Piece letters XBoard cannot carry: its move parser reads an `x` after the squares as a
/// capture mark, so a promotion to X is lost (`c8b9x` arrives as a broken two-leg move).
const CECP_UNUSABLE_LETTERS: [char; 1] = ['X'];
/// Letters given under CECP to pieces whose own letter is unusable: the first one the variant
/// does not use.
const CECP_SPARE_LETTERS: &str = "ZWVIJFEAHDLOSTMCGU";

/// The CECP stand-in for an unusable `letter` (upper case), if it is one.
fn cecp_alias(rules: &Rules, letter: char) -> Option<char> {
    if !CECP_UNUSABLE_LETTERS.contains(&letter) {
        return None;
    }
    let used = |c: char| rules.pieces().iter().any(|k| k.spec.letter == c);
    // Aliases are handed out in order, so two unusable letters never share one.
    let mut spares = CECP_SPARE_LETTERS.chars().filter(|&c| !used(c));
    CECP_UNUSABLE_LETTERS
        .iter()
        .filter(|&&c| used(c))
        .zip(&mut spares)
        .find(|(&c, _)| c == letter)
        .map(|(_, a)| a)
}

/// The CECP suffix of a move whose mover vanishes (an exploding Teleporter): a letter that names
/// no piece, which XBoard 4.9.1 turns into an empty to-square. `x` cannot be used (it reads as a
/// capture mark), so it is the first spare letter not used by the variant or an alias.
pub fn cecp_vanish_letter(rules: &Rules) -> char {
    let taken = |c: char| {
        rules.pieces().iter().any(|k| k.spec.letter == c)
            || CECP_UNUSABLE_LETTERS
                .iter()
                .any(|&u| cecp_alias(rules, u) == Some(c))
    };
    CECP_SPARE_LETTERS
        .chars()
        .find(|&c| !taken(c))
        .expect("a variant leaves a spare letter")
        .to_ascii_lowercase()
}

/// Whether en passant is written with two legs, victim square first (`c4d4,d4d5`): where a piece
/// that takes en passant can also step without capturing onto the same square (Schizophrenic's
/// Crab, RULINGS §8 item 1), the plain from-to text is that step's.
fn en_passant_in_two_legs(rules: &Rules) -> bool {
    rules.en_passant.into_iter().any(|k| {
        let atoms = &rules.kinds[k.index()].atoms;
        atoms.iter().any(|a| {
            !a.is_rider()
                && !a.initial
                && a.modality.captures()
                && atoms
                    .iter()
                    .any(|b| b.modality.moves() && !b.is_rider() && (b.dx, b.dy) == (a.dx, a.dy))
        })
    })
}

/// A piece kind's letter (upper case) in `dialect`: the rules' letter, except under CECP for
/// letters XBoard cannot carry.
pub fn piece_letter(rules: &Rules, dialect: Dialect, kind: crate::core::PieceKind) -> char {
    let letter = rules.kinds[kind.index()].spec.letter;
    match dialect {
        Dialect::Cecp => cecp_alias(rules, letter).unwrap_or(letter),
        Dialect::Uci => letter,
    }
}

/// The piece kind written as `letter` (either case) in `dialect`.
pub fn kind_by_letter(
    rules: &Rules,
    dialect: Dialect,
    letter: char,
) -> Option<crate::core::PieceKind> {
    let upper = letter.to_ascii_uppercase();
    (0..rules.num_kinds())
        .map(|k| crate::core::PieceKind(k as u8))
        .find(|&k| piece_letter(rules, dialect, k) == upper)
}

/// Rewrites the piece letters of a FEN's board field from one dialect's letters to another's.
pub fn fen_letters(rules: &Rules, from: Dialect, to: Dialect, fen: &str) -> String {
    let (board, rest) = fen.split_once(' ').unwrap_or((fen, ""));
    // Letters inside `{...}` are piece state, not pieces.
    let mut in_state = false;
    let mut out = String::with_capacity(board.len());
    for c in board.chars() {
        in_state = (in_state || c == '{') && c != '}';
        let kind = kind_by_letter(rules, from, c).filter(|_| c.is_ascii_alphabetic() && !in_state);
        out.push(match kind {
            Some(k) if c.is_ascii_lowercase() => piece_letter(rules, to, k).to_ascii_lowercase(),
            Some(k) => piece_letter(rules, to, k),
            None => c,
        });
    }
    let board = out;
    if rest.is_empty() {
        board
    } else {
        format!("{board} {rest}")
    }
}

pub use crate::board::fen::split_squares;

/// A square's text.
pub fn square_text(geo: &Geometry, dialect: Dialect, sq: Square) -> String {
    let rank = if zero_based(geo, dialect) {
        sq.rank()
    } else {
        sq.rank() + 1
    };
    format!("{}{}", (b'a' + sq.file()) as char, rank)
}

/// Parses a square; it must be playable on `geo`.
pub fn parse_square(geo: &Geometry, dialect: Dialect, text: &str) -> Option<Square> {
    let mut chars = text.chars();
    let f = chars.next()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty()
        || digits.len() > 2
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || (digits.len() == 2 && digits.starts_with('0'))
    {
        return None;
    }
    let n: u8 = digits.parse().ok()?;
    let rank = if zero_based(geo, dialect) {
        n
    } else {
        n.checked_sub(1)?
    };
    Square::new(f as u8 - b'a', rank).filter(|&s| geo.contains(s))
}

/// What reading and writing a move's text needs of a game: its rules, its legal moves and each
/// move's text. Every game is one (`variants::Variant`), so the functions here take any game
/// while notation, below the games, names none of them.
pub trait MoveSource {
    /// The compiled rules.
    fn rules(&self) -> &Rules;
    /// The legal moves of the side to move.
    fn legal_moves(&self, pos: &Position, out: &mut MoveList);
    /// A move's text in `dialect`.
    fn move_text(&self, m: Move, dialect: Dialect) -> String;
}

/// A move's text in `dialect`, as its game writes it (`Variant::move_text`).
pub fn move_text<V: MoveSource + ?Sized>(variant: &V, dialect: Dialect, m: Move) -> String {
    variant.move_text(m, dialect)
}

/// The text of a move of a core kind; games write their own kinds' text (`Presentation::special_text`).
pub fn core_move_text(rules: &Rules, dialect: Dialect, m: Move) -> String {
    let geo = rules.geometry();
    let sq = |s: Square| square_text(geo, dialect, s);
    let letter = |m: Move| {
        m.piece()
            .map(|k| piece_letter(rules, dialect, k).to_ascii_lowercase())
            .unwrap_or('?')
    };
    match m.kind() {
        MoveKind::EnPassant if en_passant_in_two_legs(rules) => {
            let victim = m.aux().unwrap_or(m.to());
            format!(
                "{}{},{}{}",
                sq(m.from()),
                sq(victim),
                sq(victim),
                sq(m.to())
            )
        }
        MoveKind::Normal | MoveKind::EnPassant | MoveKind::Castle => {
            format!("{}{}", sq(m.from()), sq(m.to()))
        }
        MoveKind::Promotion | MoveKind::Transform => {
            format!("{}{}{}", sq(m.from()), sq(m.to()), letter(m))
        }
        MoveKind::Drop => format!("{}@{}", letter(m).to_ascii_uppercase(), sq(m.to())),
        MoveKind::Shot => format!(
            "{}{},{}{}",
            sq(m.from()),
            sq(m.to()),
            sq(m.to()),
            sq(m.from())
        ),
        MoveKind::TwoLeg => {
            let mid = m.aux().unwrap_or(m.to());
            format!("{}{},{}{}", sq(m.from()), sq(mid), sq(mid), sq(m.to()))
        }
        MoveKind::Pass => match dialect {
            Dialect::Uci => "0000".to_string(),
            Dialect::Cecp => "@@@@".to_string(),
        },
        MoveKind::Special(_) => format!("{m:?}"),
    }
}

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in this notation.
    Malformed(String),
    /// A well-formed move that is not legal here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(s) => write!(f, "'{s}' is not a move in coordinate notation"),
            MoveError::Illegal(s) => write!(f, "'{s}' is not a legal move here"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Whether `text` has the shape of a move: squares, `@`, commas and a suffix letter.
fn well_formed(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= MAX_MOVE_TEXT
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '@' | ',' | '/' | '+' | '-'))
}

/// The longest move text of any game (an Afterlife turn with its three parts on ten ranks).
const MAX_MOVE_TEXT: usize = 24;

/// The legal move written as `text`.
pub fn parse_move<V: MoveSource + ?Sized>(
    variant: &V,
    pos: &Position,
    dialect: Dialect,
    text: &str,
) -> Result<Move, MoveError> {
    if !well_formed(text) {
        return Err(MoveError::Malformed(text.to_string()));
    }
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    moves
        .iter()
        .copied()
        .find(|&m| variant.move_text(m, dialect) == text)
        .ok_or_else(|| MoveError::Illegal(text.to_string()))
}

/// The legal move written in SAN as GUIs write it (`Nf3`, `exd5`, `e8=Q`, `O-O`, with `+`, `#`,
/// `!` and `?` ignored), squares in `dialect`'s numbering. XBoard writes the games it referees
/// this way.
pub fn parse_san<V: MoveSource + ?Sized>(
    variant: &V,
    pos: &Position,
    dialect: Dialect,
    text: &str,
) -> Result<Move, MoveError> {
    let suffix = |m: Move| {
        Some(
            variant
                .move_text(m, dialect)
                .chars()
                .last()
                .filter(|c| c.is_ascii_alphabetic()),
        )
    };
    parse_san_with(variant, pos, dialect, text, &suffix)
}

/// `parse_san` for the moves `suffix` names: it gives a move's letter, the one a promotion
/// letter (`=X`) names (the letter that ends its coordinate text in the protocol the SAN came
/// from), or `None` for a move that SAN cannot mean there.
pub fn parse_san_with<V: MoveSource + ?Sized>(
    variant: &V,
    pos: &Position,
    dialect: Dialect,
    text: &str,
    suffix: &dyn Fn(Move) -> Option<Option<char>>,
) -> Result<Move, MoveError> {
    let rules = variant.rules();
    let geo = rules.geometry();
    let clean: String = text
        .chars()
        .filter(|c| !matches!(c, '+' | '#' | '!' | '?'))
        .collect();
    let malformed = || MoveError::Malformed(text.to_string());
    let illegal = || MoveError::Illegal(text.to_string());
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    if clean == "O-O" || clean == "O-O-O" || clean == "0-0" || clean == "0-0-0" {
        let long = clean.len() > 3;
        return moves
            .iter()
            .copied()
            .find(|m| m.kind() == MoveKind::Castle && (m.to().file() < m.from().file()) == long)
            .ok_or_else(illegal);
    }
    // Promotion: `=X`, or a trailing piece letter after the target square.
    let (body, promo) = match clean.split_once('=') {
        Some((b, p)) => (b.to_string(), Some(p.chars().next().ok_or_else(malformed)?)),
        None => match clean.chars().last() {
            Some(c) if c.is_ascii_uppercase() && clean.len() > 2 => {
                (clean[..clean.len() - 1].to_string(), Some(c))
            }
            _ => (clean.clone(), None),
        },
    };
    // A capture mark tells a capture from a step with the same squares (the Crab's diagonal
    // step beside en passant).
    let marked_capture = body.contains('x');
    let body = body.replace(['x', '-'], "");
    let mut chars = body.chars().peekable();
    let piece = match chars.peek() {
        Some(c) if c.is_ascii_uppercase() => {
            let c = *c;
            chars.next();
            Some(kind_by_letter(rules, dialect, c).ok_or_else(malformed)?)
        }
        _ => None,
    };
    let rest: String = chars.collect();
    // The target is the last file letter followed by digits; anything before it disambiguates.
    let at = rest
        .rfind(|c: char| c.is_ascii_lowercase())
        .ok_or_else(malformed)?;
    let to = parse_square(geo, dialect, &rest[at..]).ok_or_else(malformed)?;
    let hint = &rest[..at];
    // What comes before the target may only name the origin's file, rank or both.
    let hint_ok = hint
        .trim_start_matches(|c: char| c.is_ascii_lowercase())
        .chars()
        .all(|c| c.is_ascii_digit())
        && hint.chars().filter(|c| c.is_ascii_lowercase()).count() <= 1;
    if !text.is_ascii() || !hint_ok {
        return Err(malformed());
    }
    // A pawn move written without a file is the straight one (`g5`), as SAN has it; a diagonal
    // pawn move names its file (`fg5`), capture or not (Schizophrenic's Crab steps diagonally).
    let hint_file = hint
        .chars()
        .find(|c| c.is_ascii_lowercase())
        .map(|c| c as u8 - b'a')
        .or(piece.is_none().then_some(to.file()));
    let hint_rank: Option<u8> = hint
        .trim_start_matches(|c: char| c.is_ascii_lowercase())
        .parse()
        .ok();
    let hint_rank = hint_rank.map(|r| {
        if geo.ranks() == 10 && dialect == Dialect::Cecp {
            r
        } else {
            r.wrapping_sub(1)
        }
    });
    let candidates: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            m.to() == to && !matches!(m.kind(), MoveKind::Drop | MoveKind::Castle | MoveKind::Pass)
        })
        // A shot leaves its piece where it stands, and a game's own move of several legs (a
        // three-square shield) ends elsewhere: their SAN names the kill square
        // (`xboard_variant::parse_kill_san`).
        .filter(|m| {
            m.kind() != MoveKind::Shot
                && !(matches!(m.kind(), MoveKind::Special(_))
                    && variant.move_text(*m, dialect).contains(','))
        })
        .filter(|m| {
            let k = pos.piece_at(m.from()).kind();
            match piece {
                Some(p) => k == p,
                None => rules.kinds[k.index()].spec.pawn,
            }
        })
        .filter(|m| {
            hint_file.is_none_or(|f| m.from().file() == f)
                && hint_rank.is_none_or(|r| m.from().rank() == r)
        })
        .filter(|m| {
            // A promotion letter names the letter that ends the move's coordinate text: a
            // promotion's piece, or a game's own suffix (XBoard writes an explosion as a
            // promotion to the letter of no piece).
            let Some(suffix) = suffix(*m) else {
                return false;
            };
            match promo {
                Some(c) => suffix == Some(c.to_ascii_lowercase()),
                // Without a letter only a move without a suffix is meant, or a promotion with a
                // single, fixed result.
                None => {
                    suffix.is_none()
                        || (m.kind() == MoveKind::Promotion
                            && rules.kinds[pos.piece_at(m.from()).kind().index()]
                                .promotions
                                .len()
                                == 1)
                }
            }
        })
        .collect();
    let captures = |m: &Move| m.kind() == MoveKind::EnPassant || pos.piece_at(m.to()).is_some();
    let candidates: Vec<Move> = if candidates.len() > 1 {
        candidates
            .into_iter()
            .filter(|m| captures(m) == marked_capture)
            .collect()
    } else {
        candidates
    };
    match candidates.as_slice() {
        [m] => Ok(*m),
        [] => Err(illegal()),
        _ => Err(MoveError::Malformed(format!("{text} (ambiguous)"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_as_guis_write_it() {
        let chess = crate::variants::by_name("chess").unwrap();
        let pos = chess.start_position();
        let m = |t: &str| {
            move_text(
                chess,
                Dialect::Uci,
                parse_san(chess, &pos, Dialect::Uci, t).unwrap(),
            )
        };
        assert_eq!(m("e4"), "e2e4");
        assert_eq!(m("Nf3"), "g1f3");
        assert_eq!(m("Nf3+"), "g1f3");
        assert!(parse_san(chess, &pos, Dialect::Uci, "Ke2").is_err());
        assert!(parse_san(chess, &pos, Dialect::Uci, "Ng1-h3-f4").is_err());
        assert!(parse_san(chess, &pos, Dialect::Uci, "Nǵ1f3").is_err());
        assert_eq!(m("Ng1f3"), "g1f3");
        let kiwi = chess
            .parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
        let k = |t: &str| {
            move_text(
                chess,
                Dialect::Uci,
                parse_san(chess, &kiwi, Dialect::Uci, t).unwrap(),
            )
        };
        assert_eq!(k("O-O"), "e1g1");
        assert_eq!(k("O-O-O"), "e1c1");
        assert_eq!(k("dxe6"), "d5e6");
        assert_eq!(k("Nxf7"), "e5f7");
        let promo = chess.parse_fen("8/1P4k1/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(
            move_text(
                chess,
                Dialect::Uci,
                parse_san(chess, &promo, Dialect::Uci, "b8=N").unwrap()
            ),
            "b7b8n"
        );
        // Divergent on ten ranks under CECP: f4 is our f5 (a triple step), promotion forms fixed.
        let dv = crate::variants::by_name("divergent").unwrap();
        let start = dv.start_position();
        assert_eq!(
            move_text(
                dv,
                Dialect::Uci,
                parse_san(dv, &start, Dialect::Cecp, "f4").unwrap()
            ),
            "f2f5"
        );
    }

    #[test]
    fn squares_both_ways_on_ten_ranks() {
        let geo = Geometry::rectangle(10, 10).unwrap();
        let a10 = Square::new(0, 9).unwrap();
        assert_eq!(square_text(&geo, Dialect::Uci, a10), "a10");
        assert_eq!(square_text(&geo, Dialect::Cecp, a10), "a9");
        assert_eq!(
            square_text(&geo, Dialect::Cecp, Square::new(9, 0).unwrap()),
            "j0"
        );
        for sq in geo.board() {
            for d in [Dialect::Uci, Dialect::Cecp] {
                assert_eq!(parse_square(&geo, d, &square_text(&geo, d, sq)), Some(sq));
            }
        }
        assert_eq!(
            parse_square(&geo, Dialect::Cecp, "a10"),
            None,
            "XBoard has no rank 10 on ten ranks"
        );
        assert_eq!(parse_square(&geo, Dialect::Uci, "a0"), None);
        assert_eq!(
            parse_square(&geo, Dialect::Uci, "k1"),
            None,
            "file k is off a ten-file board"
        );
    }

    #[test]
    fn squares_both_ways_on_other_boards() {
        let geo = Geometry::rectangle(12, 7).unwrap();
        let l7 = Square::new(11, 6).unwrap();
        for d in [Dialect::Uci, Dialect::Cecp] {
            assert_eq!(square_text(&geo, d, l7), "l7");
            assert_eq!(parse_square(&geo, d, "l7"), Some(l7));
            assert_eq!(parse_square(&geo, d, "a0"), None);
            assert_eq!(parse_square(&geo, d, "a8"), None);
        }
    }

    /// XBoard reads a promotion suffix `x` as a capture mark, so under CECP the Divergent King's
    /// promoted form X travels as another letter, the same in moves, FENs and SAN.
    #[test]
    fn cecp_replaces_the_letter_x() {
        let dv = crate::variants::by_name("divergent").unwrap();
        let rules = dv.rules();
        let x = rules.kind_by_letter('X').unwrap();
        let alias = piece_letter(rules, Dialect::Cecp, x);
        assert_ne!(alias, 'X');
        assert!(
            rules.kind_by_letter(alias).is_none(),
            "the alias is a free letter"
        );
        assert_eq!(piece_letter(rules, Dialect::Uci, x), 'X');
        assert_eq!(kind_by_letter(rules, Dialect::Cecp, alias), Some(x));
        assert_eq!(kind_by_letter(rules, Dialect::Cecp, 'X'), None);
        // A king one step from its last rank promotes to X; the move text carries the alias.
        let pos = dv
            .parse_fen("10/2K7/10/10/10/10/10/10/8k1/10 w - - 0 1")
            .unwrap();
        let uci = parse_move(dv, &pos, Dialect::Uci, "c9c10x").unwrap();
        let cecp = move_text(dv, Dialect::Cecp, uci);
        assert_eq!(cecp, format!("c8c9{}", alias.to_ascii_lowercase()));
        assert_eq!(parse_move(dv, &pos, Dialect::Cecp, &cecp), Ok(uci));
        assert!(parse_move(dv, &pos, Dialect::Cecp, "c8c9x").is_err());
        // FEN letters map both ways; state inside braces is left alone.
        let fen = "X{m}9/10/10/10/10/10/10/10/10/9x w - - 0 1";
        let there = fen_letters(rules, Dialect::Uci, Dialect::Cecp, fen);
        assert_eq!(
            there,
            format!(
                "{alias}{{m}}9/10/10/10/10/10/10/10/10/9{} w - - 0 1",
                alias.to_ascii_lowercase()
            )
        );
        assert_eq!(fen_letters(rules, Dialect::Cecp, Dialect::Uci, &there), fen);
        // Chess has no X and keeps every letter.
        let chess = crate::variants::by_name("chess").unwrap();
        let start = chess.rules().spec.start_fen;
        assert_eq!(
            fen_letters(chess.rules(), Dialect::Uci, Dialect::Cecp, start),
            start
        );
    }
}
