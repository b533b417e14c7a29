//! FEN for every board: multi-digit empty runs, holes, neutral pieces, per-piece state and a
//! reserve. `docs/fen.md` is the reference for the format.
//!
//! Parsing has two steps (parse, don't validate): [`Setup::parse`] turns text into a typed
//! [`Setup`] or a [`FenError`] that names the fault; `Position::from_setup` then checks the rules.

use super::position::{Position, PositionError};
use super::state::{PieceFlags, PieceState, Reserve, Spell, SpellKind};
use crate::core::{Bitboard, Color, Piece, PieceKind, Square};
use crate::rules::Rules;
use std::fmt;

/// A parsed FEN, not yet checked against the rules of play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Pieces with their state and whether the FEN marks them as having moved (`{m}`). A
    /// spell's `left` is not known before the game ply is: `spell_ends` gives the ply it ends at.
    pub pieces: Vec<(Square, Piece, PieceState, bool)>,
    /// The game ply at which each piece's spell ends, by square.
    pub spell_ends: Vec<(Square, u32)>,
    /// Pieces in reserve.
    pub reserve: Reserve,
    /// Side to move.
    pub turn: Color,
    /// Castling field: `K`/`Q`-style letters or file letters, in their colour's case.
    pub castling: Vec<char>,
    /// En-passant target squares.
    pub ep: Vec<Square>,
    /// Halfmove clock.
    pub halfmove: u16,
    /// Fullmove number.
    pub fullmove: u16,
    /// A seventh field, which only games with a turn clock of their own have (Chaos's Nature
    /// counter); their hooks read it.
    pub turn_field: Option<String>,
}

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing to parse.
    Empty,
    /// More fields than the format has.
    TooManyFields(usize),
    /// A seventh field in a game that has none, or one its game does not read.
    BadTurnField(String),
    /// The board has a different number of ranks.
    RankCount { found: usize, expected: u8 },
    /// A rank (numbered as on the board, from 1) has the wrong width.
    RankWidth {
        rank: u8,
        found: usize,
        expected: u8,
    },
    /// A letter that is no piece of this variant.
    UnknownPiece { letter: char, known: String },
    /// A character that has no meaning in the board field.
    BadChar(char),
    /// A piece or empty square where the board has a hole.
    NotAHole(Square),
    /// A hole mark where the board has a playable square.
    HoleMark(Square),
    /// A piece state that does not parse.
    BadState(String),
    /// A piece state whose `{` has no `}` before the rank ends (rank numbered from 1).
    UnclosedState { rank: u8, text: String },
    /// Braces with nothing inside (`O{}`).
    EmptyState(Square),
    /// A piece state that gives one item twice (`k{t,t}`, `O{c1,c2}`).
    RepeatedState { square: Square, item: char },
    /// A count of empty squares that is 0 or starts with 0 (`K0007`).
    BadEmptyCount { rank: u8, text: String },
    /// Link numbers (`g<N>`) that skip a number: `found` is used, `missing` is not.
    LinkGap { found: u8, missing: u8 },
    /// A moved mark (`m`) on a piece whose moves are not tracked there.
    MovedMark(Square),
    /// The reserve does not parse.
    BadReserve(String),
    /// A reserve whose `[` has no `]`: the text after the `[`.
    UnclosedReserve(String),
    /// Text after the reserve's `]` in the board field.
    AfterReserve(String),
    /// The side to move is not `w`, `b` or `n`.
    BadTurn(String),
    /// The third party (`n`) is to move, but the seventh field, which says who moves after it,
    /// is missing; `forms` are the forms it takes.
    NeutralTurnNeedsField { forms: &'static str },
    /// The castling field does not parse.
    BadCastling(String),
    /// The en-passant field does not parse.
    BadEnPassant(String),
    /// A square of the en-passant field is not on the board.
    EnPassantOffBoard(Square),
    /// A spell that has already ended, or ends too far ahead (at most 255 plies).
    SpellEnd { square: Square, end: u32, ply: u16 },
    /// A counter is not a number in range.
    BadNumber { field: &'static str, text: String },
    /// The setup breaks a rule of the game.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "FEN is empty"),
            FenError::TooManyFields(n) => write!(f, "FEN has {n} fields, at most 7 are allowed"),
            FenError::BadTurnField(t) => write!(f, "FEN seventh field '{t}' means nothing in this game"),
            FenError::RankCount { found, expected } => write!(f, "FEN has {found} ranks, the board has {expected}"),
            FenError::RankWidth { rank, found, expected } => write!(f, "FEN rank {rank} has {found} files, the board has {expected}"),
            FenError::UnknownPiece { letter, known } => write!(f, "FEN has piece letter '{letter}', which this variant does not have (it has {known})"),
            FenError::BadChar(c) => write!(f, "FEN board has the character '{c}', which means nothing there"),
            FenError::NotAHole(sq) => write!(f, "FEN puts a piece or an empty square on {sq}, which is a hole (write '*')"),
            FenError::HoleMark(sq) => write!(f, "FEN marks {sq} as a hole, but it is a playable square"),
            FenError::BadState(s) => write!(f, "FEN piece state '{{{s}}}' does not parse"),
            FenError::UnclosedState { rank, text } => write!(f, "FEN piece state '{{{text}' on rank {rank} has no closing '}}'"),
            FenError::EmptyState(sq) => write!(f, "FEN gives the piece on {sq} empty braces '{{}}' (a piece without state is written without them)"),
            FenError::RepeatedState { square, item } => write!(f, "FEN gives the piece on {square} the state item '{item}' twice"),
            FenError::BadEmptyCount { rank, text } => write!(f, "FEN rank {rank} counts empty squares as '{text}', which must be a number from 1 without a leading 0"),
            FenError::LinkGap { found, missing } => write!(f, "FEN has the link g{found} but no g{missing}: links are numbered from 1 without a gap"),
            FenError::MovedMark(sq) => write!(f, "FEN marks the piece on {sq} as moved (m), which means nothing for it there"),
            FenError::BadReserve(s) => write!(f, "FEN reserve '[{s}]' does not parse"),
            FenError::UnclosedReserve(s) => write!(f, "FEN reserve '[{s}' has no closing ']'"),
            FenError::AfterReserve(s) => write!(f, "FEN has '{s}' after the reserve's ']', which ends the board field"),
            FenError::BadTurn(s) => write!(f, "FEN side to move is '{s}', expected w or b (n only in games with a third party)"),
            FenError::NeutralTurnNeedsField { forms } => write!(f, "FEN side to move is 'n', the third party, which needs the seventh field ({forms}) to say who moves after it"),
            FenError::BadCastling(s) => write!(f, "FEN castling field '{s}' does not parse"),
            FenError::BadEnPassant(s) => write!(f, "FEN en-passant field '{s}' is not '-' or squares"),
            FenError::EnPassantOffBoard(sq) => write!(f, "FEN en-passant square {sq} is off the board"),
            FenError::SpellEnd { square, end, ply } => write!(f, "FEN spell on {square} ends at ply {end}, which must come after the game ply {ply} and within 255 plies"),
            FenError::BadNumber { field, text } => write!(f, "FEN {field} '{text}' is not a number in range"),
            FenError::Position(e) => write!(f, "FEN position is illegal: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> Self {
        FenError::Position(e)
    }
}

/// A piece's state from the text inside its braces (of the piece on `sq`), whether it is marked
/// as moved, and the game ply its spell ends at (its `left` is set from the game ply later).
/// Each item may be given once: a flag once, one counter of each kind, one spell, one attached
/// piece.
fn parse_state(
    rules: &Rules,
    sq: Square,
    text: &str,
) -> Result<(PieceState, bool, Option<u32>), FenError> {
    let bad = || FenError::BadState(text.to_string());
    if text.is_empty() {
        return Err(FenError::EmptyState(sq));
    }
    let mut st = PieceState::default();
    let mut moved = false;
    let mut spell_end = None;
    let mut seen: Vec<char> = Vec::new();
    for item in text.split(',') {
        let mut chars = item.chars();
        let head = chars.next().ok_or_else(bad)?;
        let rest = chars.as_str();
        if seen.contains(&head) {
            return Err(FenError::RepeatedState {
                square: sq,
                item: head,
            });
        }
        seen.push(head);
        match head {
            'm' if rest.is_empty() => moved = true,
            'c' => st.counter = parse_small(rest).ok_or_else(bad)?,
            'f' => st.counter2 = parse_small(rest).ok_or_else(bad)?,
            'g' => st.link = parse_small(rest).ok_or_else(bad)?,
            's' => {
                let mut sc = rest.chars();
                let kind = sc
                    .next()
                    .and_then(|c| rules.spec.state.spells.iter().position(|&l| l == c))
                    .map(|i| SpellKind(i as u8))
                    .ok_or_else(bad)?;
                let expires = sc
                    .as_str()
                    .strip_prefix('@')
                    .and_then(parse_digits)
                    .ok_or_else(bad)?;
                st.spell = Some(Spell { kind, left: 1 });
                spell_end = Some(expires);
            }
            'a' => {
                let (color, letter) = match rest.strip_prefix('_') {
                    Some(r) => (Color::Neutral, r),
                    None => (
                        if rest.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                            Color::Black
                        } else {
                            Color::White
                        },
                        rest,
                    ),
                };
                let mut lc = letter.chars();
                let l = lc.next().ok_or_else(bad)?;
                if !lc.as_str().is_empty() {
                    return Err(bad());
                }
                let kind = rules.kind_by_letter(l).ok_or_else(bad)?;
                st.attached = Piece::new(color, kind);
            }
            c if rest.is_empty() => {
                let bit = rules
                    .spec
                    .state
                    .flags
                    .iter()
                    .position(|&l| l == c)
                    .ok_or_else(bad)?;
                st.flags.insert(PieceFlags::bit(bit as u8));
            }
            _ => return Err(bad()),
        }
    }
    Ok((st, moved, spell_end))
}

/// A counter's digits: at most 255.
fn parse_small(text: &str) -> Option<u8> {
    parse_digits(text).and_then(|n| u8::try_from(n).ok())
}

/// A number written as digits only: no sign, no leading 0 (but `0` itself), at most nine
/// digits.
fn parse_digits(text: &str) -> Option<u32> {
    let digits = !text.is_empty() && text.len() <= 9 && text.bytes().all(|b| b.is_ascii_digit());
    if !digits || (text.len() > 1 && text.starts_with('0')) {
        return None;
    }
    text.parse().ok()
}

fn write_state(rules: &Rules, st: &PieceState, moved: bool, ply: u16) -> String {
    let mut items: Vec<String> = Vec::new();
    if moved {
        items.push("m".into());
    }
    if st.counter != 0 {
        items.push(format!("c{}", st.counter));
    }
    for (bit, l) in rules.spec.state.flags.iter().enumerate() {
        if st.flags.contains(PieceFlags::bit(bit as u8)) {
            items.push(l.to_string());
        }
    }
    if let Some(sp) = st.spell {
        let letter = rules
            .spec
            .state
            .spells
            .get(sp.kind.0 as usize)
            .copied()
            .unwrap_or('?');
        items.push(format!("s{letter}@{}", u32::from(ply) + u32::from(sp.left)));
    }
    if st.attached.is_some() {
        let p = st.attached;
        let prefix = if p.color() == Color::Neutral { "_" } else { "" };
        items.push(format!("a{prefix}{}", rules.letter(p.kind(), p.color())));
    }
    if st.counter2 != 0 {
        items.push(format!("f{}", st.counter2));
    }
    if st.link != 0 {
        items.push(format!("g{}", st.link));
    }
    if items.is_empty() {
        String::new()
    } else {
        format!("{{{}}}", items.join(","))
    }
}

fn known_letters(rules: &Rules) -> String {
    rules.pieces().iter().map(|k| k.spec.letter).collect()
}

/// Reads a piece at the front of `chars`: an optional `_` (neutral) and a letter.
fn parse_piece(
    rules: &Rules,
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
) -> Result<Piece, FenError> {
    let neutral = chars.peek() == Some(&'_');
    if neutral {
        chars.next();
    }
    let c = chars.next().ok_or(FenError::BadChar('_'))?;
    if !c.is_ascii_alphabetic() {
        return Err(FenError::BadChar(c));
    }
    let kind = rules
        .kind_by_letter(c)
        .ok_or_else(|| FenError::UnknownPiece {
            letter: c,
            known: known_letters(rules),
        })?;
    let color = if neutral {
        Color::Neutral
    } else if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    Ok(Piece::new(color, kind))
}

fn parse_number(field: &'static str, text: &str) -> Result<u16, FenError> {
    text.parse().map_err(|_| FenError::BadNumber {
        field,
        text: text.to_string(),
    })
}

impl Setup {
    /// Parses a FEN for the board and pieces of `rules`.
    pub fn parse(rules: &Rules, fen: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() > 7 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let geo = rules.geometry();
        let (board_text, reserve_text) = match fields[0].find('[') {
            Some(i) => {
                let r = &fields[0][i + 1..];
                let Some(end) = r.find(']') else {
                    return Err(FenError::UnclosedReserve(r.to_string()));
                };
                if end + 1 < r.len() {
                    return Err(FenError::AfterReserve(r[end + 1..].to_string()));
                }
                (&fields[0][..i], Some(&r[..end]))
            }
            None => (fields[0], None),
        };
        let rows: Vec<&str> = board_text.split('/').collect();
        if rows.len() != geo.ranks() as usize {
            return Err(FenError::RankCount {
                found: rows.len(),
                expected: geo.ranks(),
            });
        }
        let mut pieces = Vec::new();
        let mut spell_ends = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let rank = geo.ranks() - 1 - i as u8;
            let mut file: usize = 0;
            let mut chars = row.chars().peekable();
            let width_err = |found| FenError::RankWidth {
                rank: rank + 1,
                found,
                expected: geo.files(),
            };
            while let Some(&c) = chars.peek() {
                if c.is_ascii_digit() {
                    let mut n: usize = 0;
                    let mut text = String::new();
                    while let Some(&d) = chars.peek().filter(|c| c.is_ascii_digit()) {
                        n = n
                            .saturating_mul(10)
                            .saturating_add(d.to_digit(10).expect("a digit") as usize);
                        text.push(d);
                        chars.next();
                    }
                    if text.starts_with('0') {
                        return Err(FenError::BadEmptyCount {
                            rank: rank + 1,
                            text,
                        });
                    }
                    for f in file..file.saturating_add(n).min(geo.files() as usize) {
                        let sq = Square::new(f as u8, rank).expect("inside");
                        if !geo.contains(sq) {
                            return Err(FenError::NotAHole(sq));
                        }
                    }
                    file = file.saturating_add(n);
                    continue;
                }
                if c == '*' {
                    chars.next();
                    if let Some(sq) = Square::new(file.min(255) as u8, rank)
                        .filter(|_| file < geo.files() as usize)
                    {
                        if geo.contains(sq) {
                            return Err(FenError::HoleMark(sq));
                        }
                    }
                    file += 1;
                    continue;
                }
                let piece = parse_piece(rules, &mut chars)?;
                let body = if chars.peek() == Some(&'{') {
                    chars.next();
                    let mut body = String::new();
                    loop {
                        match chars.next() {
                            Some('}') => break Some(body),
                            Some(c) => body.push(c),
                            // The rank ended inside the braces.
                            None => {
                                return Err(FenError::UnclosedState {
                                    rank: rank + 1,
                                    text: body,
                                })
                            }
                        }
                    }
                } else {
                    None
                };
                if file >= geo.files() as usize {
                    return Err(width_err(
                        file + 1 + chars.clone().filter(|c| c.is_ascii_alphabetic()).count(),
                    ));
                }
                let sq = Square::new(file as u8, rank).expect("inside");
                if !geo.contains(sq) {
                    return Err(FenError::NotAHole(sq));
                }
                let (state, moved, spell_end) = match body {
                    Some(body) => parse_state(rules, sq, &body)?,
                    None => (PieceState::default(), false, None),
                };
                pieces.push((sq, piece, state, moved));
                if let Some(end) = spell_end {
                    spell_ends.push((sq, end));
                }
                file += 1;
            }
            if file != geo.files() as usize {
                return Err(width_err(file));
            }
        }
        check_links(&pieces)?;
        let mut reserve = Reserve::default();
        if let Some(r) = reserve_text {
            let mut chars = r.chars().peekable();
            while chars.peek().is_some() {
                let p = parse_piece(rules, &mut chars)
                    .map_err(|_| FenError::BadReserve(r.to_string()))?;
                let slot = &mut reserve.0[p.color().index()][p.kind().index()];
                *slot = slot
                    .checked_add(1)
                    .ok_or_else(|| FenError::BadReserve(r.to_string()))?;
            }
        }
        let turn = match fields.get(1).copied().unwrap_or("w") {
            "w" => Color::White,
            "b" => Color::Black,
            // Only a game with a third party accepts it (its turn hook says so).
            "n" => Color::Neutral,
            other => return Err(FenError::BadTurn(other.to_string())),
        };
        let castling_text = fields.get(2).copied().unwrap_or("-");
        let castling: Vec<char> = if castling_text == "-" {
            Vec::new()
        } else {
            castling_text.chars().collect()
        };
        if castling.iter().any(|c| !c.is_ascii_alphabetic()) {
            return Err(FenError::BadCastling(castling_text.to_string()));
        }
        let ep_text = fields.get(3).copied().unwrap_or("-");
        let ep = if ep_text == "-" {
            Vec::new()
        } else {
            parse_square_list(ep_text).ok_or_else(|| FenError::BadEnPassant(ep_text.to_string()))?
        };
        if let Some(&off) = ep.iter().find(|&&s| !geo.contains(s)) {
            return Err(FenError::EnPassantOffBoard(off));
        }
        let halfmove = fields
            .get(4)
            .map_or(Ok(0), |t| parse_number("halfmove clock", t))?;
        let fullmove = fields
            .get(5)
            .map_or(Ok(1), |t| parse_number("fullmove number", t))?;
        if fullmove == 0 {
            return Err(FenError::BadNumber {
                field: "fullmove number",
                text: fullmove.to_string(),
            });
        }
        Ok(Setup {
            pieces,
            spell_ends,
            reserve,
            turn,
            castling,
            ep,
            halfmove,
            fullmove,
            turn_field: fields.get(6).map(|t| t.to_string()),
        })
    }
}

/// Checks that the link numbers of multi-square pieces run from 1 without a gap: `g3` needs a
/// `g1` and a `g2` somewhere. Which squares a link may join is the game's to check.
fn check_links(pieces: &[(Square, Piece, PieceState, bool)]) -> Result<(), FenError> {
    let mut used = [false; 256];
    for (_, _, st, _) in pieces {
        used[st.link as usize] = true;
    }
    let highest = (1..=255u8).rev().find(|&n| used[n as usize]);
    if let Some(found) = highest {
        if let Some(missing) = (1..found).find(|&n| !used[n as usize]) {
            return Err(FenError::LinkGap { found, missing });
        }
    }
    Ok(())
}

/// Squares written one after another (`e3`, `e3e4`, `a10b9`).
fn parse_square_list(text: &str) -> Option<Vec<Square>> {
    split_squares(text)?
        .into_iter()
        .map(Square::parse)
        .collect()
}

/// The game ply (the players' plies played) at move `fullmove` with `next` the player who moves
/// next. It saturates as play makes it, so a position played to the end of the counters still
/// reads back from its FEN.
pub fn players_ply(fullmove: u16, next: Color) -> u16 {
    let ply = 2 * (u32::from(fullmove).max(1) - 1) + u32::from(next == Color::Black);
    ply.min(u32::from(u16::MAX)) as u16
}

impl Position {
    /// Builds a position from a setup, checking what makes it a consistent board: castling rights
    /// that match the pieces and a believable en-passant square. The rules of play (royal pieces,
    /// check, a game's own state) are checked by the game's `validate` hook; the side to move and
    /// a turn field are read by its turn hook.
    pub fn from_setup(rules: &Rules, setup: &Setup) -> Result<Position, FenError> {
        let mut pos = Position::empty();
        let fullmove = setup.fullmove;
        pos.set_fullmove(fullmove);
        pos.set_ply(players_ply(fullmove, setup.turn));
        for &(sq, piece, mut state, moved) in &setup.pieces {
            pos.put(piece, sq);
            if let (Some(spell), Some(&(_, end))) = (
                state.spell.as_mut(),
                setup.spell_ends.iter().find(|(s, _)| *s == sq),
            ) {
                // In force while the game ply is below its end: it must end after this ply.
                let left = end
                    .checked_sub(u32::from(pos.ply()))
                    .filter(|&n| (1..=u32::from(u8::MAX)).contains(&n))
                    .ok_or(FenError::SpellEnd {
                        square: sq,
                        end,
                        ply: pos.ply(),
                    })?;
                spell.left = left as u8;
            }
            pos.set_state(sq, state)?;
            // Castling kinds take their state from the castling field below.
            let castles = rules.castling_kinds.contains(piece.kind());
            let fresh = rules.can_be_unmoved(piece.kind(), piece.color(), sq);
            let tracked = rules.tracks_moved.contains(piece.kind());
            if moved && !(tracked && !castles && fresh) {
                // `m` is written only where it tells something; anywhere else it is refused.
                return Err(FenError::MovedMark(sq));
            }
            if tracked && (castles || (!moved && fresh)) {
                pos.set_unmoved(sq, true);
            }
        }
        for c in Color::ALL {
            for k in PieceKind::all(rules.num_kinds()) {
                let n = setup.reserve.count(c, k);
                if n > 0 {
                    pos.set_reserve(c, k, n);
                }
            }
        }
        // Castling: pieces on castling squares are unmoved exactly when a granted right names them.
        let mut castle_unmoved = Bitboard::EMPTY;
        for &ch in &setup.castling {
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let file = ch.to_ascii_lowercase() as u8;
            let spec = rules.spec.castling.iter().find(|s| {
                s.color == color
                    && (s.letter == ch
                        || (file >= b'a'
                            && s.partner_from.file() == file - b'a'
                            && !matches!(ch.to_ascii_uppercase(), 'K' | 'Q')))
            });
            let Some(spec) = spec else {
                return Err(FenError::BadCastling(setup.castling.iter().collect()));
            };
            // A right is the unmoved marks of its king's and partner's squares; the game's
            // `validate` checks that the pieces stand there.
            castle_unmoved.insert(spec.king_from);
            castle_unmoved.insert(spec.partner_from);
            pos.set_unmoved(spec.king_from, true);
            pos.set_unmoved(spec.partner_from, true);
        }
        for sq in pos.unmoved() {
            if !rules.castling_kinds.contains(pos.piece_at(sq).kind()) {
                continue;
            }
            if !castle_unmoved.contains(sq) {
                pos.set_unmoved(sq, false);
            }
        }
        pos.set_turn(setup.turn);
        pos.set_halfmove(setup.halfmove);
        Ok(pos)
    }

    /// Sets en passant from FEN squares, for `mover` to capture: they must be empty and lie in a
    /// line directly behind a piece of the other player that takes part in en passant, which is
    /// the victim. A target no piece of `mover` could capture onto is dropped, as a move would not
    /// have set it either.
    pub fn set_ep_from_fen(
        &mut self,
        rules: &Rules,
        targets: &[Square],
        mover: Color,
    ) -> Result<(), FenError> {
        set_ep_from_fen(rules, self, targets, mover)
    }

    /// Writes the first six fields of the FEN of this position; a game with a turn field of its
    /// own adds the seventh (`Variant::fen`).
    pub fn to_fen(&self, rules: &Rules) -> String {
        let geo = rules.geometry();
        let mut out = String::new();
        for rank in (0..geo.ranks()).rev() {
            let mut empty = 0;
            for file in 0..geo.files() {
                let sq = Square::new(file, rank).expect("inside");
                let p = self.piece_at(sq);
                if p.is_none() && geo.contains(sq) {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out += &empty.to_string();
                    empty = 0;
                }
                if !geo.contains(sq) {
                    out.push('*');
                    continue;
                }
                if p.color() == Color::Neutral {
                    out.push('_');
                }
                out.push(rules.letter(p.kind(), p.color()));
                let moved = rules.tracks_moved.contains(p.kind())
                    && !rules.castling_kinds.contains(p.kind())
                    && !self.unmoved().contains(sq)
                    && rules.can_be_unmoved(p.kind(), p.color(), sq);
                out += &write_state(rules, &self.state(sq), moved, self.ply());
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if !self.reserve().is_empty() {
            out.push('[');
            for c in Color::ALL {
                for k in PieceKind::all(rules.num_kinds()) {
                    for _ in 0..self.reserve().count(c, k) {
                        if c == Color::Neutral {
                            out.push('_');
                        }
                        out.push(rules.letter(k, c));
                    }
                }
            }
            out.push(']');
        }
        out.push(' ');
        out.push(self.turn().fen_char());
        out.push(' ');
        let rights: String = rules
            .spec
            .castling
            .iter()
            .filter(|s| {
                self.unmoved().contains(s.king_from) && self.unmoved().contains(s.partner_from)
            })
            .map(|s| s.letter)
            .collect();
        out += if rights.is_empty() { "-" } else { &rights };
        out.push(' ');
        if self.ep_targets().is_empty() {
            out.push('-');
        } else {
            // In the order the pawn passed them (RULINGS §8 item 9): downwards for Black.
            let mut squares: Vec<Square> = self.ep_targets().collect();
            if self
                .ep_victim()
                .is_some_and(|v| self.piece_at(v).color() == Color::Black)
            {
                squares.reverse();
            }
            for sq in squares {
                out += &sq.to_string();
            }
        }
        out += &format!(" {} {}", self.halfmove_clock(), self.fullmove());
        out
    }
}

/// Sets en passant from FEN squares: they must be empty, lie in a line directly behind an enemy
/// piece that takes part in en passant, and the victim is that piece. A target no piece of the side
/// to move could capture onto is dropped, as a move would not have set it either.
fn set_ep_from_fen(
    rules: &Rules,
    pos: &mut Position,
    targets: &[Square],
    mover: Color,
) -> Result<(), FenError> {
    let pusher = mover.opponent();
    let forward: i8 = if pusher == Color::Black { -1 } else { 1 };
    let far = if forward > 0 {
        targets.iter().max()
    } else {
        targets.iter().min()
    };
    let far = *far.expect("non-empty");
    let victim = far.offset(0, forward).filter(|&v| {
        let p = pos.piece_at(v);
        p.is_some() && p.color() == pusher && rules.en_passant.contains(p.kind())
    });
    let bad = |sq| FenError::Position(PositionError::BadEnPassant(sq));
    let Some(victim) = victim else {
        return Err(bad(far));
    };
    let mut bb = Bitboard::EMPTY;
    for &t in targets {
        if pos.piece_at(t).is_some() || t.file() != victim.file() {
            return Err(bad(t));
        }
        bb.insert(t);
    }
    if super::position::ep_capturable(rules, pos, mover, bb) {
        pos.set_ep(bb, Some(victim));
    }
    Ok(())
}

/// Splits squares written one after another (`e3e4`, `a10b9`) at each file letter; `None` if
/// the text does not start with a letter. Used for en-passant fields that list several squares.
pub fn split_squares(text: &str) -> Option<Vec<&str>> {
    let starts: Vec<usize> = text
        .char_indices()
        .filter(|(_, c)| c.is_ascii_lowercase())
        .map(|(i, _)| i)
        .collect();
    if starts.first() != Some(&0) || !text.is_ascii() {
        return None;
    }
    Some(
        starts
            .iter()
            .enumerate()
            .map(|(k, &a)| &text[a..starts.get(k + 1).copied().unwrap_or(text.len())])
            .collect(),
    )
}
