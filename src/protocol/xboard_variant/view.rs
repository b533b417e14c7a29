//! XBoard's own board: what XBoard 4.9.1 shows of a position of an engine-defined game, and what
//! it does to that board when it applies a move in our CECP text. XBoard knows only the piece
//! letters; it applies a move by its squares, its kill squares and its promotion letter, plus a
//! few rules of its own (the King's castling drag, the Pawn's en-passant guess). Comparing its
//! board after a move with ours tells which moves XBoard can carry (`carries`) and which letter
//! makes it show the right piece (`super::entry::wire_text`).

use super::piece_table;
use crate::board::Position;
use crate::core::{Color, Square};
use crate::notation::{piece_letter, split_squares, Dialect};
use crate::rules::Rules;

/// A square as XBoard shows it: a piece letter and its side, or nothing.
pub type Cell = Option<(Color, char)>;

/// XBoard's board of one game: one cell per square index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    cells: Vec<Cell>,
    /// XBoard's holdings (games with a reserve, `super::holdings_size`): one entry per piece
    /// in hand, by side and letter.
    held: Vec<(Color, char)>,
}

impl Shown {
    /// The board XBoard shows for `pos` when it has shown every move as we made it (as at the
    /// start of a game): a neutral piece in the colour `side_shown` gives it.
    pub fn of(rules: &Rules, pos: &Position) -> Shown {
        let mut cells = vec![None; crate::core::square::NUM_SQUARES];
        for sq in rules.geometry().board() {
            let p = pos.piece_at(sq);
            if p.is_some() {
                let side = match p.color() {
                    Color::Neutral => side_shown(rules, sq),
                    c => c,
                };
                cells[sq.index()] = Some((side, piece_letter(rules, Dialect::Cecp, p.kind())));
            }
        }
        let mut held = Vec::new();
        if super::holdings_size(rules) > 0 {
            for c in [Color::White, Color::Black] {
                for k in crate::core::PieceKind::all(rules.num_kinds()) {
                    let l = piece_letter(rules, Dialect::Cecp, k);
                    held.extend((0..pos.reserve().count(c, k)).map(|_| (c, l)));
                }
            }
        }
        Shown { cells, held }
    }

    /// Whether XBoard 4.9.1 takes the drop of `letter` by `side` on `sq` (`LegalDrop`, also
    /// with legality testing off): the piece is in that side's holdings and the square is
    /// empty on XBoard's board.
    pub fn takes_drop(&self, side: Color, letter: char, sq: Square) -> bool {
        self.at(sq).is_none() && self.held.contains(&(side, letter))
    }

    /// A square where XBoard shows a piece of `side` that `ours` (our board as XBoard would
    /// show it) does not have there: a piece the third party took, which XBoard never saw go.
    /// One of `letter` first, and one off `to` (where the piece goes) before one on it.
    pub fn phantom(&self, ours: &Shown, side: Color, letter: char, to: Square) -> Option<Square> {
        let mut phantoms: Vec<usize> = (0..self.cells.len())
            .filter(|&i| {
                self.cells[i].is_some_and(|(c, _)| c == side)
                    && ours.cells[i].is_none_or(|(c, _)| c != side)
            })
            .collect();
        phantoms.sort_by_key(|&i| i == to.index());
        phantoms
            .iter()
            .filter(|&&i| i != to.index())
            .find(|&&i| self.cells[i].is_some_and(|(_, l)| l == letter))
            .or(phantoms.first())
            .map(|&i| Square::from_index(i as u8))
    }

    /// An empty square on this board, the nearest to `sq`.
    pub fn empty_near(&self, rules: &Rules, sq: Square) -> Option<Square> {
        let distance = |t: Square| {
            (t.file().abs_diff(sq.file())).max(t.rank().abs_diff(sq.rank())) as usize * 1000
                + t.index()
        };
        rules
            .geometry()
            .board()
            .into_iter()
            .filter(|&t| self.at(t).is_none())
            .min_by_key(|&t| distance(t))
    }

    /// What stands on `sq`.
    pub fn at(&self, sq: Square) -> Cell {
        self.cells[sq.index()]
    }

    fn set(&mut self, sq: Square, cell: Cell) {
        self.cells[sq.index()] = cell;
    }

    /// Whether every piece of `ours` stands on this board too, with its letter and side. XBoard
    /// may show more: pieces a game's effect removed elsewhere (a blast's victims) stay on its
    /// board, which is harmless, since no move of ours starts there.
    pub fn holds_all_of(&self, ours: &Shown) -> bool {
        ours.cells
            .iter()
            .zip(&self.cells)
            .all(|(o, x)| o.is_none() || o == x)
    }
}

/// The colour XBoard shows a neutral piece in, having only two: White on the left half of the
/// board its square belongs to (Afterlife's World a-b, Twelve Hours h-i), Black on the right.
/// XBoard lets only that side move it.
pub fn side_shown(rules: &Rules, sq: Square) -> Color {
    let board = rules.geometry().board_of(sq);
    let files = board.into_iter().map(|s| s.file());
    let (lo, hi) = files.fold((u8::MAX, 0), |(lo, hi), f| (lo.min(f), hi.max(f)));
    if 2 * sq.file() <= lo + hi {
        Color::White
    } else {
        Color::Black
    }
}

/// A move's squares in XBoard's form: the squares clicked, in order (the mover's square, then
/// each leg's end), and the letter after the last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    /// The mover's square, then the end of each leg.
    pub squares: Vec<Square>,
    /// The letter after the last square, if any (lower case).
    pub suffix: Option<char>,
}

impl Path {
    /// Reads CECP text of chained legs (`c5d5,d5d6`, `e7e8q`): each leg starts where the last
    /// ended. Drops, passes and unchained legs have no path.
    pub fn parse(rules: &Rules, text: &str) -> Option<Path> {
        let geo = rules.geometry();
        let mut squares: Vec<Square> = Vec::new();
        let mut suffix = None;
        let legs: Vec<&str> = text.split(',').collect();
        for (i, leg) in legs.iter().enumerate() {
            // A trailing letter right after a rank's digits is a suffix, not a file.
            let (body, letter) = match leg.char_indices().last() {
                Some((at, c))
                    if c.is_ascii_lowercase()
                        && at > 0
                        && leg.as_bytes()[at - 1].is_ascii_digit() =>
                {
                    (&leg[..at], Some(c))
                }
                _ => (*leg, None),
            };
            if letter.is_some() && i + 1 < legs.len() {
                return None;
            }
            suffix = letter;
            let parts = split_squares(body)?;
            let [a, b] = parts.as_slice() else {
                return None;
            };
            let (a, b) = (
                crate::notation::parse_square(geo, Dialect::Cecp, a)?,
                crate::notation::parse_square(geo, Dialect::Cecp, b)?,
            );
            match squares.last() {
                None => squares.extend([a, b]),
                Some(&end) if end == a => squares.push(b),
                Some(_) => return None,
            }
        }
        Some(Path { squares, suffix })
    }

    /// The mover's square.
    pub fn from(&self) -> Square {
        self.squares[0]
    }

    /// The last square.
    pub fn to(&self) -> Square {
        *self.squares.last().expect("a path has two squares or more")
    }
}

/// XBoard's letters of the game: its piece table's first half, the royal piece last.
fn table(rules: &Rules) -> Vec<char> {
    let t = piece_table(rules);
    t[..t.len() / 2].chars().collect()
}

/// A lower-case letter that names no piece of the game: as a move's suffix, XBoard 4.9.1 puts an
/// empty square on the move's last square. `x` is left out: XBoard reads it as a capture mark.
pub fn vanish_letter(rules: &Rules) -> char {
    let table = table(rules);
    ('a'..='z')
        .rev()
        .find(|&c| c != 'x' && !table.contains(&c.to_ascii_uppercase()))
        .unwrap_or('z')
}

/// XBoard's board after it applies `path` for `mover` (XBoard 4.9.1 `ApplyMove`, legality
/// testing off), or `None` where XBoard refuses the move: no piece of the mover's on the first
/// square, a move that starts where it ends without a kill square, more than three legs.
pub fn apply(rules: &Rules, before: &Shown, path: &Path, mover: Color, ep: bool) -> Option<Shown> {
    let (from, to) = (path.from(), path.to());
    let kills = &path.squares[1..path.squares.len() - 1];
    let piece = before.at(from).filter(|&(c, _)| c == mover)?;
    if kills.len() > 2 || (from == to && kills.is_empty()) {
        return None;
    }
    let table = table(rules);
    let king = *table.last().expect("a piece table");
    let pawn = table.first().copied().filter(|&c| c == 'P');
    let mut board = before.clone();
    for &k in kills {
        board.set(k, None);
    }
    let (df, dr) = (
        to.file() as i8 - from.file() as i8,
        to.rank() as i8 - from.rank() as i8,
    );
    let edge = from.file() == 0 || from.file() + 1 == rules.geometry().files();
    if piece.1 == king && dr == 0 && df.abs() >= 2 && !edge {
        // The King's castling: XBoard drags the nearest piece beyond its first step to the
        // square the King crosses.
        let step = df.signum();
        let mut rook_sq = from.offset(step, 0);
        while let Some(s) = rook_sq {
            let last = s.file() == 0 || s.file() + 1 == rules.geometry().files();
            if board.at(s).is_some() || last {
                break;
            }
            rook_sq = s.offset(step, 0);
        }
        let rook = rook_sq.and_then(|s| board.at(s));
        if let (Some(s), Some(cross)) = (rook_sq, to.offset(-step, 0)) {
            board.set(s, None);
            board.set(cross, rook);
        }
    } else if Some(piece.1) == pawn && df != 0 && board.at(to).is_none() && ep {
        // The Pawn's diagonal move onto the en-passant square: XBoard removes the piece behind.
        let behind = to.offset(0, if mover == Color::White { -1 } else { 1 });
        if let Some(b) = behind {
            board.set(b, None);
        }
    }
    if let Some((side, letter)) = board.at(to).filter(|_| super::holdings_size(rules) > 0) {
        // A capture puts the piece in the capturer's holdings, in its colour (`ApplyMove`); a
        // kind without a pocket as a Pawn.
        let pockets = super::holdings_size(rules);
        let letter = if table[..pockets.min(table.len())].contains(&letter) {
            letter
        } else {
            'P'
        };
        board.held.push((side.opponent(), letter));
    }
    board.set(from, None);
    board.set(to, Some(piece));
    if let Some(c) = path.suffix {
        let upper = c.to_ascii_uppercase();
        board.set(to, table.contains(&upper).then_some((mover, upper)));
    }
    Some(board)
}

/// XBoard's board after it applies the CECP text `text` of a move made in `pos` (the side to
/// move moving), or `None` where the model cannot say (a text it does not read). A pass leaves
/// the board; a drop (`P@e4`, from XBoard's holdings) puts the mover's piece of that letter on
/// its square, whatever stood there.
pub fn follow(rules: &Rules, pos: &Position, before: &Shown, text: &str) -> Option<Shown> {
    if text == "@@@@" {
        return Some(before.clone());
    }
    if let Some((letter, square)) = text.split_once('@') {
        let mut letters = letter.chars();
        let (Some(l), None) = (letters.next(), letters.next()) else {
            return None;
        };
        let sq = crate::notation::parse_square(rules.geometry(), Dialect::Cecp, square)?;
        let piece = (pos.turn(), l.to_ascii_uppercase());
        let mut board = before.clone();
        if let Some(i) = board.held.iter().position(|&h| h == piece) {
            board.held.remove(i);
        }
        board.set(sq, Some(piece));
        return Some(board);
    }
    let path = Path::parse(rules, text)?;
    let ep = pos.ep_targets().contains(path.to());
    apply(rules, before, &path, pos.turn(), ep)
}

/// XBoard's board after it applies `text` for the move that leads from `pos` to `next`: as the
/// model follows it, or `next` as we would show it where the model cannot say.
pub fn advance(
    rules: &Rules,
    pos: &Position,
    before: &Shown,
    text: &str,
    next: &Position,
) -> Shown {
    follow(rules, pos, before, text).unwrap_or_else(|| Shown::of(rules, next))
}
