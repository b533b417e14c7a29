//! Standard Algebraic Notation: FIDE SAN for chess as the PGN standard has it, and for every
//! other game a SAN of its own built the same way (`docs/protocol.md`, "SAN"). The one module
//! that writes and reads it; a game's own move kinds get their shape from
//! `Presentation::san_shape`.
//!
//! A move's SAN is its [`SanShape`] (piece letter, a mark such as `x`, the target, a suffix)
//! with the least disambiguation that tells it from every other legal move of the position
//! (file, then rank, then both), and `+` or `#`. Squares are numbered as in UCI (`a10`).

use super::Variant;
use crate::board::Position;
use crate::core::{Move, MoveKind, MoveList, Square};
use crate::notation::{self, Dialect, MoveError};
use crate::rules::Rules;
use std::collections::HashMap;

/// A move's SAN before disambiguation and check marks: `letter`, the origin's file and/or rank
/// when needed, `mark`, `target`, `suffix`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanShape {
    /// The piece letter (upper case); `None` for a pawn, whose file is written whenever it
    /// changes file (`exd5`).
    pub letter: Option<char>,
    /// The square whose file and rank disambiguate; `None` where nothing can (drops, castling).
    pub from: Option<Square>,
    /// Between the origin and the target: `""`, `"x"` (a capture), `"@"` (a drop), or a
    /// game's mark (`"^"` a shot, `"&"` a merge, `">"` a teleport).
    pub mark: &'static str,
    /// The target: a square, or the whole move for castling and the pass.
    pub target: String,
    /// After the target: `=Q` (promotion), a game's further parts (`/...`).
    pub suffix: String,
}

impl SanShape {
    /// A move of the piece on `from` to `to`, a capture when `capture`.
    pub fn step(rules: &Rules, pos: &Position, from: Square, to: Square, capture: bool) -> Self {
        SanShape {
            letter: letter_of(rules, pos, from),
            from: Some(from),
            mark: if capture { "x" } else { "" },
            target: square(rules, to),
            suffix: String::new(),
        }
    }

    /// Fixed text that names the move whole (`O-O`, `--`).
    fn whole(text: &str) -> Self {
        SanShape {
            letter: None,
            from: None,
            mark: "",
            target: text.to_string(),
            suffix: String::new(),
        }
    }

    /// The text with the origin written as `origin`.
    fn text(&self, origin: &str) -> String {
        let letter = self.letter.map(String::from).unwrap_or_default();
        format!(
            "{letter}{origin}{}{}{}",
            self.mark, self.target, self.suffix
        )
    }
}

/// A square's SAN text (UCI numbering: `a10` on ten ranks).
pub fn square(rules: &Rules, sq: Square) -> String {
    notation::square_text(rules.geometry(), Dialect::Uci, sq)
}

/// The SAN letter of the piece on `sq`: `None` for a pawn or an empty square.
pub fn letter_of(rules: &Rules, pos: &Position, sq: Square) -> Option<char> {
    let p = pos.piece_at(sq);
    let spec = &rules.kinds.get(p.kind().index())?.spec;
    (p.is_some() && !spec.pawn).then_some(spec.letter)
}

/// The SAN letter of a piece kind (pawns included, as drops and promotions write them).
pub fn kind_letter(rules: &Rules, kind: crate::core::PieceKind) -> char {
    notation::piece_letter(rules, Dialect::Uci, kind)
}

/// Whether `m`, of a core kind, takes something where it lands.
fn captures(pos: &Position, m: Move) -> bool {
    let victim = pos.piece_at(m.to());
    m.kind() == MoveKind::EnPassant
        || (victim.is_some() && victim.color() != pos.piece_at(m.from()).color())
}

/// The shape of a move of a core kind (or of a game's kind that gives none).
fn core_shape(rules: &Rules, pos: &Position, m: Move) -> SanShape {
    let promoted = || format!("={}", m.piece().map_or('?', |k| kind_letter(rules, k)));
    match m.kind() {
        MoveKind::Castle if m.to().file() > m.from().file() => SanShape::whole("O-O"),
        MoveKind::Castle => SanShape::whole("O-O-O"),
        MoveKind::Pass => SanShape::whole("--"),
        MoveKind::Drop => SanShape {
            letter: m.piece().map(|k| kind_letter(rules, k)),
            from: None,
            mark: "@",
            target: square(rules, m.to()),
            suffix: String::new(),
        },
        MoveKind::Shot => SanShape {
            mark: "^",
            ..SanShape::step(rules, pos, m.from(), m.to(), false)
        },
        MoveKind::Promotion | MoveKind::Transform => SanShape {
            suffix: promoted(),
            ..SanShape::step(rules, pos, m.from(), m.to(), captures(pos, m))
        },
        MoveKind::TwoLeg => {
            let mid = m.aux().unwrap_or(m.to());
            SanShape {
                suffix: format!("-{}", square(rules, m.to())),
                ..SanShape::step(rules, pos, m.from(), mid, pos.piece_at(mid).is_some())
            }
        }
        _ => SanShape::step(rules, pos, m.from(), m.to(), captures(pos, m)),
    }
}

/// A move's shape: the game's, else the core kind's.
pub fn shape(variant: &dyn Variant, pos: &Position, m: Move) -> SanShape {
    let rules = variant.rules();
    variant
        .presentation()
        .san_shape(rules, pos, m)
        .unwrap_or_else(|| core_shape(rules, pos, m))
}

/// The origin texts tried in order: none, file, rank, both; a pawn changing file starts at its
/// file and never writes its rank alone.
fn origins(rules: &Rules, s: &SanShape) -> Vec<String> {
    let Some(from) = s.from else {
        return vec![String::new()];
    };
    let sq = square(rules, from);
    let (file, rank) = sq.split_at(1);
    if s.letter.is_none() {
        let file_change = !s.target.starts_with(file);
        let mut v = vec![file.to_string(), sq.clone()];
        if !file_change {
            v.insert(0, String::new());
        }
        return v;
    }
    vec![String::new(), file.to_string(), rank.to_string(), sq]
}

/// The SAN, without `+`/`#`, of every move of `moves` (the legal moves of `pos`), in order.
fn bodies(variant: &dyn Variant, pos: &Position, moves: &[Move]) -> Vec<String> {
    let rules = variant.rules();
    let shapes: Vec<SanShape> = moves.iter().map(|&m| shape(variant, pos, m)).collect();
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, s) in shapes.iter().enumerate() {
        groups.entry(s.text("")).or_default().push(i);
    }
    (0..moves.len())
        .map(|i| {
            let rivals: Vec<&SanShape> = groups[&shapes[i].text("")]
                .iter()
                .filter(|&&j| j != i)
                .map(|&j| &shapes[j])
                .collect();
            let coordinates = || variant.move_text(moves[i], Dialect::Uci);
            disambiguate(rules, &shapes[i], &rivals, &coordinates)
        })
        .collect()
}

/// The shape's text with the first origin no rival shares; a move no origin tells apart (two
/// moves of the same squares and shape, which a game's shape should prevent) gets its
/// coordinate text after `~`.
fn disambiguate(
    rules: &Rules,
    s: &SanShape,
    rivals: &[&SanShape],
    coordinates: &dyn Fn() -> String,
) -> String {
    let all = origins(rules, s);
    for (level, origin) in all.iter().enumerate() {
        let clash = rivals.iter().any(|r| {
            let theirs = origins(rules, r);
            theirs.get(level).or(theirs.last()) == Some(origin)
        });
        if !clash {
            return s.text(origin);
        }
    }
    format!(
        "{}~{}",
        s.text(all.last().map_or("", |o| o.as_str())),
        coordinates()
    )
}

/// `+` if `m` gives check, `#` if it mates, else nothing.
fn check_mark(variant: &dyn Variant, pos: &Position, m: Move) -> &'static str {
    let after = variant.play(pos, m);
    if !variant.in_check(&after) {
        return "";
    }
    let mut replies = MoveList::new();
    variant.legal_moves(&after, &mut replies);
    if replies.is_empty() {
        "#"
    } else {
        "+"
    }
}

/// The SAN of a legal move `m` in `pos`, with `+` or `#`. A move that is not legal gets its
/// coordinate text.
pub fn write(variant: &dyn Variant, pos: &Position, m: Move) -> String {
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    let Some(i) = moves.iter().position(|&x| x == m) else {
        return variant.move_text(m, Dialect::Uci);
    };
    let body = bodies(variant, pos, moves.as_slice()).swap_remove(i);
    body + check_mark(variant, pos, m)
}

/// The SAN of each move of a line played from `start`.
pub fn write_line(variant: &dyn Variant, start: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|&m| {
            let san = write(variant, &pos, m);
            pos = variant.play(&pos, m);
            san
        })
        .collect()
}

/// Every legal move of `pos` with its SAN (without `+`/`#`), for a move list or a board that
/// offers them.
pub fn legal_with_san(variant: &dyn Variant, pos: &Position) -> Vec<(Move, String)> {
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    let texts = bodies(variant, pos, moves.as_slice());
    moves.iter().copied().zip(texts).collect()
}

/// The text without trailing `+`, `#`, `!` and `?`.
fn strip_marks(text: &str) -> &str {
    text.trim().trim_end_matches(['+', '#', '!', '?'])
}

/// The legal move whose SAN is `text` (with or without `+`/`#`/`!`/`?`); failing that, the move
/// whose coordinate text (UCI) it is, or SAN as GUIs write it (`notation::parse_san`:
/// over-disambiguated `Ng1f3`, `0-0`).
pub fn read(variant: &dyn Variant, pos: &Position, text: &str) -> Result<Move, MoveError> {
    let wanted = strip_marks(text);
    if wanted.is_empty() || wanted.len() > MAX_SAN {
        return Err(MoveError::Malformed(text.to_string()));
    }
    if let Some((m, _)) = legal_with_san(variant, pos)
        .into_iter()
        .find(|(_, s)| s == wanted)
    {
        return Ok(m);
    }
    notation::parse_move(variant, pos, Dialect::Uci, wanted)
        .or_else(|_| notation::parse_san(variant, pos, Dialect::Uci, text))
}

/// Longer text is no move of any game (an Afterlife turn of three parts is about 20).
const MAX_SAN: usize = 48;

#[cfg(test)]
mod tests;
