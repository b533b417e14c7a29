//! Moves between us and XBoard: the text each legal move travels as (`wire_text`), reading
//! XBoard's texts back (`parse_wire`, `parse_kill_san`, `parse_xboard_san`), and entry by clicks.
//!
//! A move XBoard can carry has a *path*: the squares a user clicks (the piece, then each leg's
//! end) and the letter XBoard is told after the last. `lift`, `put` and `hover` answer from the
//! paths of the legal moves alone, so every game's clicks work the same way: cyan for a leg that
//! goes on, magenta where XBoard must ask for a letter, red for captures and side effects, yellow
//! otherwise.

use super::colour_board;
use super::view::{self, Path, Shown};
use crate::board::Position;
use crate::core::{Move, MoveKind, MoveList, Square};
use crate::game::Game;
use crate::notation::{
    move_text, parse_move, parse_san_with, parse_square, piece_letter, split_squares, square_text,
    Dialect, MoveError,
};
use crate::rules::Rules;
use crate::variants::Variant;

/// Whether XBoard knows the game's rules itself (`normal`): it then applies moves by its own
/// rules, and the engine sends the plain CECP text.
fn builtin(variant: &dyn Variant) -> bool {
    variant.rules().spec.xboard_builtin.is_some()
}

/// The text of `m` before any letter for XBoard's board: the game's XBoard form if it has one
/// (`Presentation::xboard_text`), else the CECP move text, except a switch in place, which goes out and
/// back through an empty square (`switch_via`).
fn base_text(variant: &dyn Variant, pos: &Position, moves: &MoveList, m: Move) -> String {
    if let Some(text) = variant.presentation().xboard_text(pos, m) {
        return text;
    }
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

/// A move as sent to XBoard, whose board is `shown`. For a game XBoard does not know, a letter
/// is added where XBoard would otherwise show the wrong piece on the move's last square (XBoard
/// 4.9.1 puts the piece a suffix names there): the host of a merge, or no piece
/// (`view::vanish_letter`) where the mover dies.
pub fn wire_text(
    variant: &dyn Variant,
    pos: &Position,
    shown: &Shown,
    moves: &MoveList,
    m: Move,
) -> String {
    let text = base_text(variant, pos, moves, m);
    if builtin(variant) {
        return text;
    }
    let rules = variant.rules();
    if let Some(phantom) = phantom_drop(variant, pos, shown, m) {
        return phantom;
    }
    let Some(path) = Path::parse(rules, &text).filter(|p| p.suffix.is_none()) else {
        return text;
    };
    let Some(theirs) = view::apply(rules, shown, &path, pos.turn(), ep(pos, &path)) else {
        return text;
    };
    let ours = Shown::of(rules, &variant.play(pos, m));
    match ours.at(path.to()) {
        o if o == theirs.at(path.to()) => text,
        Some((_, letter)) => format!("{text}{}", letter.to_ascii_lowercase()),
        None => format!("{text}{}", view::vanish_letter(rules)),
    }
}

/// XBoard's own board after `game`: the game's start as XBoard shows it, followed through the
/// texts XBoard applied, `applied[i]` for the game's `i`th ply (a ply with no text, after a
/// reset, as we would have sent it). An empty text is a third party's ply XBoard never saw: its
/// board stays. A text XBoard applies in a way the model does not know resets it to our board.
pub fn replay(game: &Game, applied: &[String]) -> Shown {
    let v = game.variant();
    let rules = v.rules();
    let mut pos = game.start().clone();
    let mut shown = Shown::of(rules, &pos);
    for (i, &m) in game.moves().iter().enumerate() {
        let next = v.play(&pos, m);
        match applied.get(i) {
            Some(t) if t.is_empty() => {}
            Some(t) => shown = view::advance(rules, &pos, &shown, t, &next),
            None => {
                let mut moves = MoveList::new();
                v.legal_moves(&pos, &mut moves);
                let t = wire_text(v, &pos, &shown, &moves, m);
                shown = view::advance(rules, &pos, &shown, &t, &next);
            }
        }
        pos = next;
    }
    shown
}

/// A player's drop that XBoard 4.9.1 would refuse, as a move it takes instead, or `None`.
/// XBoard takes a drop only of a piece in its holdings onto a square empty on its board
/// (`LegalDrop`, also with legality testing off), and its board and holdings miss what a third
/// party did (Chaos: Nature took the piece now returned, or stands on the square). Such a drop
/// goes out as a move of a piece XBoard still shows where we have none (one the third party
/// took), with the dropped piece's letter where it differs: `f4c1b`. XBoard then shows the
/// dropped piece on its square, and only that stale piece goes.
fn phantom_drop(variant: &dyn Variant, pos: &Position, shown: &Shown, m: Move) -> Option<String> {
    let rules = variant.rules();
    let kind = m.piece().filter(|_| m.kind() == MoveKind::Drop)?;
    if super::holdings_size(rules) == 0 {
        return None;
    }
    let side = pos.turn();
    let letter = piece_letter(rules, Dialect::Cecp, kind);
    if side == crate::core::Color::Neutral || shown.takes_drop(side, letter, m.to()) {
        return None;
    }
    let from = shown.phantom(&Shown::of(rules, pos), side, letter, m.to())?;
    let sq = |s| square_text(rules.geometry(), Dialect::Cecp, s);
    let suffix = match shown.at(from) {
        Some((_, l)) if l == letter => String::new(),
        _ => letter.to_ascii_lowercase().to_string(),
    };
    if from == m.to() {
        // The stale piece stands on the square itself: XBoard refuses a move that ends where it
        // starts unless it has a kill square, so it goes out and back through an empty square,
        // with the letter (`c2c3,c3c2p`).
        let via = sq(shown.empty_near(rules, from)?);
        let letter = letter.to_ascii_lowercase();
        return Some(format!("{}{via},{via}{}{letter}", sq(from), sq(from)));
    }
    Some(format!("{}{}{suffix}", sq(from), sq(m.to())))
}

/// Whether `text` is a drop (`P@e4`) or a pass (`@@@@`), which XBoard applies as we do.
fn drop_or_pass(text: &str) -> bool {
    let b = text.as_bytes();
    text == "@@@@"
        || (b.len() >= 3
            && b[0].is_ascii_uppercase()
            && b[1] == b'@'
            && !text[2..].contains(['@', '/', '+']))
}

/// Whether XBoard may take a diagonal move onto `path`'s end for en passant.
fn ep(pos: &Position, path: &Path) -> bool {
    pos.ep_targets().contains(path.to())
}

/// Whether XBoard 4.9.1, whose board is `shown`, carries `m` (legal in `pos`): it accepts the
/// move's text (a piece of the mover's on its first square), relays it so that it reads back,
/// and shows every change the move makes to our board as we make it (a piece we remove may stay
/// on XBoard's board: no move of ours starts there); squares the game hides from XBoard
/// (`Presentation::xboard_hidden`) do not count. The game may refuse more (`Presentation::xboard_carries`).
/// Under CECP the engine does not choose other moves while it has these, and `lift` does not
/// offer them.
pub fn carries(variant: &dyn Variant, pos: &Position, shown: &Shown, m: Move) -> bool {
    if !variant.presentation().xboard_carries(pos, m) {
        return false;
    }
    let rules = variant.rules();
    if builtin(variant) {
        // XBoard's own rules: only a Pawn's diagonal step onto the en-passant square without
        // capturing is misread (as en passant).
        let p = pos.piece_at(m.from());
        return !(m.kind() == MoveKind::Normal
            && p.is_some()
            && rules.en_passant.contains(p.kind())
            && pos.ep_targets().contains(m.to())
            && m.from().file() != m.to().file());
    }
    if underpromotes_outside_pawn_slot(rules, pos, m) {
        return false;
    }
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    let text = wire_text(variant, pos, shown, &moves, m);
    if text == "@@@@" {
        // A pass: XBoard applies it as we do.
        return true;
    }
    if drop_or_pass(&text) {
        // A drop: XBoard takes it if its holdings have the piece and its square is empty; a
        // third party's drop never goes to XBoard.
        let letter = text.chars().next().unwrap_or('?');
        return super::holdings_size(rules) == 0
            || pos.turn() == crate::core::Color::Neutral
            || shown.takes_drop(pos.turn(), letter, m.to());
    }
    if m.kind() == MoveKind::Drop {
        // A drop sent as a stale piece's move (`phantom_drop`): the dropped piece shows on its
        // square; only a piece we do not have goes. Out and back in place (`c2c3,c3c2p`) is
        // kept for when nothing else is legal: XBoard relays such a Black move in a castling
        // shape (see `switch_relay`).
        return !text.contains(',');
    }
    let Some(path) = Path::parse(rules, &text) else {
        return false;
    };
    let Some(theirs) = view::apply(rules, shown, &path, pos.turn(), ep(pos, &path)) else {
        return false;
    };
    let before = Shown::of(rules, pos);
    let after = Shown::of(rules, &variant.play(pos, m));
    let hidden = variant.presentation().xboard_hidden();
    rules
        .geometry()
        .board()
        .into_iter()
        .filter(|&s| !hidden.contains(s))
        .filter(|&s| before.at(s) != after.at(s) || shown.at(s) != theirs.at(s))
        .all(|s| {
            theirs.at(s) == after.at(s) || (after.at(s).is_none() && theirs.at(s) == shown.at(s))
        })
}

/// Whether `m` promotes a piece outside XBoard's Pawn slot to other than its first choice:
/// XBoard's PGN drops the letter of such a promotion, so it would read back as the first.
fn underpromotes_outside_pawn_slot(rules: &Rules, pos: &Position, m: Move) -> bool {
    let (MoveKind::Promotion, Some(new)) = (m.kind(), m.piece()) else {
        return false;
    };
    let kind = pos.piece_at(m.from()).kind();
    let pawn_slot = super::piece_table(rules).starts_with(piece_letter(rules, Dialect::Cecp, kind));
    !pawn_slot && rules.kinds[kind.index()].promotions.first() != Some(&new)
}

/// A legal move with a path that enters it by clicks.
struct Entry {
    m: Move,
    path: Path,
}

/// Every path of every legal move XBoard carries: its wire text's, and the game's alternatives
/// (`Presentation::xboard_paths`). A move whose suffix names no piece is entered without it (XBoard
/// cannot be asked for such a letter); XBoard then keeps the mover on its last square.
fn entries(variant: &dyn Variant, pos: &Position, shown: &Shown, moves: &MoveList) -> Vec<Entry> {
    let rules = variant.rules();
    let table_letter = |c: char| super::piece_table(rules).contains(c.to_ascii_uppercase());
    let mut out = Vec::new();
    for &m in moves.iter() {
        let Some(mut path) = Path::parse(rules, &wire_text(variant, pos, shown, moves, m)) else {
            continue;
        };
        if !carries(variant, pos, shown, m) {
            continue;
        }
        path.suffix = path.suffix.filter(|&c| table_letter(c));
        for squares in variant.presentation().xboard_paths(pos, m) {
            out.push(Entry {
                m,
                path: Path {
                    squares,
                    suffix: path.suffix,
                },
            });
        }
        out.push(Entry { m, path });
    }
    out
}

/// The squares other than the mover's and the last whose piece `m` removes or changes: an
/// en-passant victim, a shot's, a blast's.
fn victims(variant: &dyn Variant, pos: &Position, e: &Entry) -> Vec<Square> {
    let rules = variant.rules();
    let before = Shown::of(rules, pos);
    let after = Shown::of(rules, &variant.play(pos, e.m));
    rules
        .geometry()
        .board()
        .into_iter()
        .filter(|&s| s != e.path.from() && s != e.path.to())
        .filter(|&s| before.at(s).is_some() && before.at(s) != after.at(s))
        .collect()
}

/// How `lift` marks a square, the stronger first.
fn mark(variant: &dyn Variant, pos: &Position, e: &Entry, at: usize) -> char {
    let last = at + 1 == e.path.squares.len();
    if !last {
        'C'
    } else if e.path.suffix.is_some() {
        'M'
    } else if enemy_on(pos, e.path.to()) || !victims(variant, pos, e).is_empty() {
        'R'
    } else {
        'Y'
    }
}

/// `highlight` for the next click after `clicked` (the lifted piece's square, then the legs
/// entered so far): the squares that go on (cyan), end a move (magenta where XBoard must ask
/// for the letter, red for a capture or side effect, yellow otherwise), and after a leg the
/// square reached, where a second click ends the move.
pub fn lift(
    variant: &dyn Variant,
    pos: &Position,
    shown: &Shown,
    moves: &MoveList,
    clicked: &[Square],
) -> String {
    let rank = |c: char| "YRMC".find(c).unwrap_or(0);
    let mut marks: Vec<(Square, char)> = Vec::new();
    if clicked.first().is_some_and(|&s| super::can_lift(pos, s)) {
        for e in entries(variant, pos, shown, moves) {
            let squares = &e.path.squares;
            if !squares.starts_with(clicked) {
                continue;
            }
            let at = if squares.len() > clicked.len() {
                clicked.len()
            } else if clicked.len() >= 2 {
                clicked.len() - 1
            } else {
                continue;
            };
            let c = mark(variant, pos, &e, at);
            match marks.iter_mut().find(|(s, _)| *s == squares[at]) {
                Some((_, old)) if rank(c) > rank(*old) => *old = c,
                Some(_) => {}
                None => marks.push((squares[at], c)),
            }
        }
    }
    let board = colour_board(variant.rules(), |sq| {
        marks.iter().find(|(s, _)| *s == sq).map(|&(_, c)| c)
    });
    format!("highlight {board}")
}

/// What a `put` on `sq` after `clicked` asks of the engine.
#[derive(Debug, PartialEq, Eq)]
pub enum Put {
    /// A leg that goes on: XBoard lifts the piece again from `sq`.
    Leg,
    /// The move ends here with a letter to choose: the `choice` line.
    Choice(String),
    /// Nothing to say.
    Nothing,
}

/// The answer to `put sq` after `clicked`.
pub fn put(
    variant: &dyn Variant,
    pos: &Position,
    shown: &Shown,
    moves: &MoveList,
    clicked: &[Square],
    sq: Square,
) -> Put {
    let mut reached = clicked.to_vec();
    reached.push(sq);
    let all = entries(variant, pos, shown, moves);
    if all
        .iter()
        .any(|e| e.path.squares.len() > reached.len() && e.path.squares.starts_with(&reached))
    {
        return Put::Leg;
    }
    // A second click on the square a leg reached ends the move there.
    let ending = if clicked.len() >= 2 && clicked.last() == Some(&sq) {
        clicked
    } else {
        &reached[..]
    };
    let mut letters = String::new();
    for e in all.iter().filter(|e| e.path.squares == ending) {
        if let Some(c) = e.path.suffix.map(|c| c.to_ascii_uppercase()) {
            if !letters.contains(c) {
                letters.push(c);
            }
        }
    }
    if letters.is_empty() {
        Put::Nothing
    } else {
        Put::Choice(format!("choice {letters}"))
    }
}

/// `highlight` of the side effects of the moves ending on `sq` after `clicked` (green), if any.
pub fn hover(
    variant: &dyn Variant,
    pos: &Position,
    shown: &Shown,
    moves: &MoveList,
    clicked: &[Square],
    sq: Square,
) -> Option<String> {
    let mut reached = clicked.to_vec();
    reached.push(sq);
    let mut marked: Vec<Square> = Vec::new();
    for e in entries(variant, pos, shown, moves)
        .iter()
        .filter(|e| e.path.squares == reached)
    {
        marked.extend(victims(variant, pos, e));
    }
    if marked.is_empty() {
        return None;
    }
    Some(format!(
        "highlight {}",
        colour_board(variant.rules(), |s| marked.contains(&s).then_some('G'))
    ))
}

/// The legal move XBoard means by `text`: the common CECP text, a legal move's wire text, a
/// path that enters it by clicks (a move whose letter names no piece is entered without it),
/// or XBoard's forms of a switch in place. Besides `wire_text`'s `c1e3,e3c1m`
/// (also what a user's clicks produce), XBoard 4.9.1 relays a Black switch to the other engine
/// as `c8c8,e6b8`, losing the letter: it takes the empty kill square for a friendly piece and
/// rewrites the move as castling. That form is read as the switch on c8 when there is exactly
/// one.
pub fn parse_wire(
    variant: &dyn Variant,
    pos: &Position,
    shown: &Shown,
    text: &str,
) -> Result<Move, MoveError> {
    let plain = parse_move(variant, pos, Dialect::Cecp, text);
    if plain.is_ok() {
        return plain;
    }
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    let rules = variant.rules();
    if let Some(m) = moves
        .iter()
        .copied()
        .find(|&m| wire_text(variant, pos, shown, &moves, m) == text)
    {
        return Ok(m);
    }
    if let Some(path) = Path::parse(rules, text) {
        let entered: Vec<Move> = entries(variant, pos, shown, &moves)
            .into_iter()
            .filter(|e| e.path == path)
            .map(|e| e.m)
            .collect();
        if let [m, rest @ ..] = entered.as_slice() {
            if rest.iter().all(|r| r == m) {
                return Ok(*m);
            }
        }
    }
    switch_relay(variant, pos, &moves, text).ok_or(plain.unwrap_err())
}

/// XBoard's castling-shaped relay of a switch in place (`c8c8,e6b8`), or its out-and-back form
/// with the letter on the last leg.
fn switch_relay(
    variant: &dyn Variant,
    pos: &Position,
    moves: &MoveList,
    text: &str,
) -> Option<Move> {
    let (leg1, leg2) = text.split_once(',')?;
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
    let ((a, b, s1), (c, d, suffix)) = (squares(leg1)?, squares(leg2)?);
    let switches: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.kind() == MoveKind::Transform && m.from() == a)
        .collect();
    if a != b && c == b && d == a && s1.is_empty() {
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
        // The via square (empty) to a square on the switch's rank.
        Some(switches[0])
    } else {
        None
    }
}

/// The empty square a switch in place at `sq` passes through in XBoard's form. XBoard 4.9.1
/// refuses a move whose origin is its target unless it has a kill square, and empties that
/// square, so a switch travels as `c1e3,e3c1m` through an empty square: the nearest one that is
/// no target of the piece's own moves, so that a click there cannot mean another move.
pub fn switch_via(rules: &Rules, pos: &Position, moves: &MoveList, sq: Square) -> Option<Square> {
    let targets: Vec<Square> = moves
        .iter()
        .filter(|m| m.from() == sq)
        .map(|m| match m.kind() {
            MoveKind::TwoLeg => m.aux().unwrap_or(m.to()),
            _ => m.to(),
        })
        .collect();
    let distance = |t: Square| {
        (t.file().abs_diff(sq.file())).max(t.rank().abs_diff(sq.rank())) as usize * 1000 + t.index()
    };
    (rules.geometry().board() & !pos.occupied())
        .into_iter()
        .filter(|t| !targets.contains(t))
        .min_by_key(|&t| distance(t))
}

/// A move in XBoard's SAN for moves with a kill square, which is how XBoard 4.9.1 writes a
/// multi-leg move into its PGN: the SAN of the first leg (to the kill square), `-` or `x`, the
/// last square and the letter: `Bc1e3-c1m`, `Be3-c1m` (a switch), `g7xg5-g7` (a shot). The move
/// is the legal one with a path through that kill square to that square, from a square that
/// fits what the first leg names.
pub fn parse_kill_san(
    variant: &dyn Variant,
    pos: &Position,
    text: &str,
) -> Result<Move, MoveError> {
    let malformed = || MoveError::Malformed(text.to_string());
    let rules = variant.rules();
    let geo = rules.geometry();
    let clean: String = text
        .chars()
        .filter(|c| !matches!(c, '+' | '#' | '!' | '?' | '='))
        .collect();
    let letter = clean.chars().next().filter(char::is_ascii_uppercase);
    let body = &clean[letter.map_or(0, |_| 1)..];
    // The last leg: a separator after a rank's digit, then the target and an optional letter.
    let cut = body
        .char_indices()
        .rev()
        .find(|&(i, c)| (c == '-' || c == 'x') && i > 0 && body.as_bytes()[i - 1].is_ascii_digit())
        .map(|(i, _)| i)
        .ok_or_else(malformed)?;
    let (first, last) = (&body[..cut], &body[cut + 1..]);
    let square_end = last
        .char_indices()
        .skip(1)
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(last.len(), |(i, _)| i);
    let to = parse_square(geo, Dialect::Cecp, &last[..square_end]).ok_or_else(malformed)?;
    let suffix = last[square_end..]
        .chars()
        .next()
        .map(|c| c.to_ascii_lowercase());
    // The first leg: an optional origin (square, file or rank), an optional `x`, the kill square.
    let first: String = first.chars().filter(|&c| c != 'x' && c != '-').collect();
    let squares = split_squares(&first).ok_or_else(malformed)?;
    let (hint, kill) = match squares.as_slice() {
        [kill] => ("", *kill),
        [hint, kill] => (*hint, *kill),
        _ => return Err(malformed()),
    };
    let kill = parse_square(geo, Dialect::Cecp, kill).ok_or_else(malformed)?;
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    let fits_origin = |from: Square| {
        let file = hint.chars().next().map(|c| c as u8 - b'a');
        let rank = parse_square(
            geo,
            Dialect::Cecp,
            &format!("a{}", &hint.get(1..).unwrap_or("")),
        );
        file.is_none_or(|f| f == from.file())
            && (hint.len() < 2 || rank.is_some_and(|r| r.rank() == from.rank()))
    };
    let fits_piece = |from: Square| {
        let p = pos.piece_at(from);
        match letter {
            Some(l) => p.is_some() && piece_letter(rules, Dialect::Cecp, p.kind()) == l,
            // XBoard writes a Pawn-slot piece without its letter.
            None => true,
        }
    };
    let shown = Shown::of(rules, pos);
    let mut found: Vec<Move> = entries(variant, pos, &shown, &moves)
        .into_iter()
        .filter(|e| {
            let s = &e.path.squares;
            s.len() == 3
                && s[1] == kill
                && s[2] == to
                && fits_origin(s[0])
                && fits_piece(s[0])
                && (suffix.is_none() || e.path.suffix == suffix)
        })
        .map(|e| e.m)
        .collect();
    found.dedup();
    match found.as_slice() {
        [m] => Ok(*m),
        // Forms XBoard relays differently (a Black switch in place) go through `parse_wire`.
        _ => {
            let from = if hint.len() >= 2 {
                hint
            } else {
                &last[..square_end]
            };
            parse_wire(
                variant,
                pos,
                &shown,
                &format!(
                    "{from}{}",
                    &format!(
                        "{},{}{}",
                        square_text(geo, Dialect::Cecp, kill),
                        square_text(geo, Dialect::Cecp, kill),
                        last
                    )
                ),
            )
        }
    }
}

/// A move in XBoard's SAN (`Nf3`, `Ag9=C`), where the letter after `=` may be the one
/// `wire_text` added for XBoard's board.
pub fn parse_xboard_san(
    variant: &dyn Variant,
    pos: &Position,
    text: &str,
) -> Result<Move, MoveError> {
    let mut moves = MoveList::new();
    variant.legal_moves(pos, &mut moves);
    let shown = Shown::of(variant.rules(), pos);
    // Only moves XBoard can write: those whose text it reads as one move.
    let suffix = |m: Move| {
        let text = wire_text(variant, pos, &shown, &moves, m);
        (drop_or_pass(&text) || Path::parse(variant.rules(), &text).is_some())
            .then(|| text.chars().last().filter(|c| c.is_ascii_alphabetic()))
    };
    let plain = parse_san_with(variant, pos, Dialect::Cecp, text, &suffix);
    if plain.is_ok() || text.contains('=') {
        return plain;
    }
    // XBoard drops the letter of a promotion by a piece outside its Pawn slot (an Adventurist,
    // a Yanzee): such a move is its piece's first choice, the only one the engine makes under
    // CECP (`carries`).
    let rules = variant.rules();
    let firsts: Vec<char> = rules
        .kinds
        .iter()
        .filter_map(|k| k.promotions.first())
        .map(|&k| piece_letter(rules, Dialect::Cecp, k))
        .collect();
    let found: Vec<Move> = firsts
        .iter()
        .filter_map(|l| {
            parse_san_with(variant, pos, Dialect::Cecp, &format!("{text}={l}"), &suffix).ok()
        })
        .collect();
    match found.as_slice() {
        [m, rest @ ..] if rest.iter().all(|r| r == m) => Ok(*m),
        _ => plain,
    }
}

/// Whether an enemy of the side to move stands on `sq`.
fn enemy_on(pos: &Position, sq: Square) -> bool {
    let p = pos.piece_at(sq);
    p.is_some() && p.color() != pos.turn()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::by_name;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn legal(v: &dyn Variant, pos: &Position) -> MoveList {
        let mut moves = MoveList::new();
        v.legal_moves(pos, &mut moves);
        moves
    }

    #[test]
    fn lift_marks_targets() {
        let chess = by_name("chess").unwrap();
        let pos = chess
            .parse_fen("4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1")
            .unwrap();
        let moves = legal(chess, &pos);
        assert_eq!(
            lift(
                chess,
                &pos,
                &Shown::of(chess.rules(), &pos),
                &moves,
                &[sq("e2")]
            ),
            "highlight 8/8/8/8/8/8/8/8"
        );
        assert_eq!(
            lift(
                chess,
                &pos,
                &Shown::of(chess.rules(), &pos),
                &moves,
                &[sq("e5")]
            ),
            "highlight 8/8/3RY3/8/8/8/8/8"
        );
        assert_eq!(
            lift(
                chess,
                &pos,
                &Shown::of(chess.rules(), &pos),
                &moves,
                &[sq("b7")]
            ),
            "highlight 1M6/8/8/8/8/8/8/8"
        );
        assert_eq!(
            put(
                chess,
                &pos,
                &Shown::of(chess.rules(), &pos),
                &moves,
                &[sq("b7")],
                sq("b8")
            ),
            Put::Choice("choice QRBN".into())
        );
        assert_eq!(
            hover(
                chess,
                &pos,
                &Shown::of(chess.rules(), &pos),
                &moves,
                &[sq("e5")],
                sq("d6")
            )
            .as_deref(),
            Some("highlight 8/8/8/3G4/8/8/8/8")
        );
        // Black's pieces are not White's to lift.
        assert_eq!(
            lift(
                chess,
                &pos,
                &Shown::of(chess.rules(), &pos),
                &moves,
                &[sq("e8")]
            ),
            "highlight 8/8/8/8/8/8/8/8"
        );
    }

    /// Chaos: Nature took the White Bishop on f4, which XBoard never saw, so XBoard still shows
    /// it there and its holdings are empty. XBoard would refuse `B@c1` (`LegalDrop`: no Bishop in
    /// hand); the reintroduction goes out as the stale Bishop's move, which XBoard takes, and
    /// reads back. With the Bishop in XBoard's holdings it goes out as the drop.
    #[test]
    fn chaos_reintroduction_xboard_takes() {
        let v = by_name("chaos").unwrap();
        let seen = v
            .parse_fen("4k3/8/8/8/5B2/8/8/4K3[_Q_R_B_N] w - - 0 1 0")
            .unwrap();
        let pos = v
            .parse_fen("4k3/8/8/8/5_Q2/8/8/4K3[B_R_B_N] w - - 0 1 0")
            .unwrap();
        let shown = Shown::of(v.rules(), &seen);
        let moves = legal(v, &pos);
        let drop = parse_move(v, &pos, Dialect::Cecp, "B@c1").unwrap();
        assert_eq!(wire_text(v, &pos, &shown, &moves, drop), "f4c1");
        assert!(carries(v, &pos, &shown, drop));
        assert_eq!(parse_wire(v, &pos, &shown, "f4c1"), Ok(drop));
        // A Knight's return goes from the stale Bishop with the Knight's letter.
        let knight = v
            .parse_fen("4k3/8/8/8/5_Q2/8/8/4K3[N_R_B_N] w - - 0 1 0")
            .unwrap();
        let n = parse_move(v, &knight, Dialect::Cecp, "N@b1").unwrap();
        assert_eq!(
            wire_text(v, &knight, &shown, &legal(v, &knight), n),
            "f4b1n"
        );
        // The stale Bishop on the square of the return itself: out and back with the letter.
        let f1 = v
            .parse_fen("4k3/8/8/8/8/8/8/4KB2[_Q_R_B_N] w - - 0 1 0")
            .unwrap();
        let on_f1 = Shown::of(v.rules(), &f1);
        let pos_f1 = v
            .parse_fen("4k3/8/8/8/8/8/8/4K_Q2[B_R_B_N] w - - 0 1 0")
            .unwrap();
        let back = parse_move(v, &pos_f1, Dialect::Cecp, "B@f1").unwrap();
        let text = wire_text(v, &pos_f1, &on_f1, &legal(v, &pos_f1), back);
        assert_eq!(text, "f1g1,g1f1b");
        // XBoard relays a Black move in place in its own castling shape: kept for when
        // nothing else is legal.
        assert!(!carries(v, &pos_f1, &on_f1, back));
        assert_eq!(parse_wire(v, &pos_f1, &on_f1, &text), Ok(back));
        // XBoard's board as it would show `pos` itself: the drop as it is.
        let fresh = Shown::of(v.rules(), &pos);
        assert!(fresh.takes_drop(crate::core::Color::White, 'B', sq("c1")));
        assert_eq!(wire_text(v, &pos, &fresh, &moves, drop), "B@c1");
        assert!(carries(v, &pos, &fresh, drop));
        // Nothing stale and nothing in hand: XBoard would refuse the drop, so it is not carried.
        let bare = v
            .parse_fen("4k3/8/8/8/8/8/8/4K3[_Q_R_B_N] w - - 0 1 0")
            .unwrap();
        let bare = Shown::of(v.rules(), &bare);
        assert_eq!(wire_text(v, &pos, &bare, &moves, drop), "B@c1");
        assert!(!carries(v, &pos, &bare, drop));
    }

    /// XBoard 4.9.1 forms of Magician's switch in place: out through an empty square and back,
    /// Black's as XBoard relays it (letter lost), and the SAN XBoard writes in its PGN.
    #[test]
    fn switch_in_place_in_xboard_forms() {
        let v = by_name("magician").unwrap();
        let rules = v.rules();
        let pos = v.start_position();
        let moves = legal(v, &pos);
        let switch = moves
            .iter()
            .copied()
            .find(|m| m.kind() == MoveKind::Transform && m.from() == sq("c1"))
            .unwrap();
        let text = wire_text(v, &pos, &Shown::of(v.rules(), &pos), &moves, switch);
        let via = switch_via(rules, &pos, &moves, switch.from()).unwrap();
        assert!(pos.piece_at(via).is_none());
        let v_text = square_text(rules.geometry(), Dialect::Cecp, via);
        assert_eq!(text, format!("c1{v_text},{v_text}c1m"));
        assert_eq!(
            parse_wire(v, &pos, &Shown::of(v.rules(), &pos), &text),
            Ok(switch)
        );
        assert_eq!(
            parse_wire(v, &pos, &Shown::of(v.rules(), &pos), "c1c1m"),
            Ok(switch)
        );
        assert_eq!(
            parse_kill_san(v, &pos, &format!("Bc1{v_text}-c1m")),
            Ok(switch)
        );
        assert_eq!(
            parse_kill_san(v, &pos, &format!("B{v_text}-c1m")),
            Ok(switch)
        );
        assert!(
            parse_wire(v, &pos, &Shown::of(v.rules(), &pos), "c1c3,c3c1q").is_err(),
            "no switch into a queen"
        );
        // Black, after 1.e4: XBoard relays `c8e6,e6c8m` as `c8c8,e6b8`.
        let black = v.play(&pos, parse_move(v, &pos, Dialect::Cecp, "e2e4").unwrap());
        assert!(
            parse_wire(v, &black, &Shown::of(v.rules(), &black), "c8c8,e7b8").is_err(),
            "e7 is not empty"
        );
        let m = parse_wire(v, &black, &Shown::of(v.rules(), &black), "c8c8,e6b8").unwrap();
        assert_eq!((m.kind(), m.from()), (MoveKind::Transform, sq("c8")));
        // Clicks: the lifted Bishop marks its empty via square cyan; a put there goes on, and
        // the lift from it marks the Bishop's own square magenta, where XBoard asks for the
        // letter.
        let board = lift(v, &pos, &Shown::of(v.rules(), &pos), &moves, &[sq("c1")]);
        assert!(board.contains('C'), "{board}");
        assert_eq!(
            put(
                v,
                &pos,
                &Shown::of(v.rules(), &pos),
                &moves,
                &[sq("c1")],
                via
            ),
            Put::Leg
        );
        let back = lift(
            v,
            &pos,
            &Shown::of(v.rules(), &pos),
            &moves,
            &[sq("c1"), via],
        );
        assert_eq!(back, format!("highlight 8/8/8/8/8/8/8/2M5"));
        assert_eq!(
            put(
                v,
                &pos,
                &Shown::of(v.rules(), &pos),
                &moves,
                &[sq("c1"), via],
                sq("c1")
            ),
            Put::Choice("choice M".into())
        );
    }
}
