//! One move of Afterlife Chess is a whole turn (RULINGS §10 item 3), made in this order:
//!
//! 1. the first part: a move or capture on the piece's board, or a Reincarnation, with its
//!    transfers (a victim in the World goes to Limbo, destroying what waits there; elsewhere it
//!    is destroyed), Warrior promotion, Slave freeing, Mercenary enslavement and `{x}`;
//! 2. optionally one free Sethling step, when the mover has no White or Black piece in the
//!    Twelve Hours and the opponent has one, judged before or after the first part;
//! 3. the Destiny of the mover's piece that waited in Limbo since the turn began, unless
//!    something arrived there: to H1, or to an empty Twelve-Hours square of the mover's choice,
//!    or it Ceases to Exist.
//!
//! Redemption follows each part. The turn packs into one move: the first part's squares, and in
//! the payload the Reincarnation's letter, the free step, the Destiny and the waiting piece's
//! letter, so that its text (`a2a3+h1h2/F@j2`) needs no position.

use super::moves::{ep_open, forward};
use super::{
    Afterlife, CAPTURED, CHARIOT, FREED, H1, H5, LIMBO, MERCENARY, PHARAOH, PRIEST, SETHLING,
    SETHLING_HOMES, SLAVE, TWELVE, WARRIOR,
};
use super::{TWELVE_HOURS, WORLD};
use crate::board::{Effects, PieceState, Position};
use crate::core::{Bitboard, Color, Move, MoveKind, Piece, PieceKind, Square};
use crate::notation::{square_text, Dialect};
use crate::rules::Rules;
use crate::variants::san::{self, SanShape};

crate::special_kinds! {
    /// The game's one move kind: a whole turn.
    pub TURN;
}

/// The first part of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// A move or capture (en passant included) from one square to another of its board.
    Board { from: Square, to: Square },
    /// The piece on H5 enters the World on `to` as `kind`.
    Reincarnate { to: Square, kind: PieceKind },
}

/// What becomes of the mover's piece in Limbo at the end of the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Destiny {
    /// Nothing: no piece of the mover waited, something arrived, or (optional Limbo) it stays.
    Stay,
    /// To H1, destroying what stands there.
    Hall,
    /// To this empty Twelve-Hours square.
    Twelve(Square),
    /// No Twelve-Hours square is empty: it Ceases to Exist.
    Ceases,
}

/// The Twelve Hours' Sethling steps, one number each (1-14 in the payload): both ways along
/// each edge of the bone.
const STEPS: [(usize, usize); 14] = [
    (0, 1),
    (1, 0),
    (1, 2),
    (2, 1),
    (1, 3),
    (3, 1),
    (3, 4),
    (4, 3),
    (4, 6),
    (6, 4),
    (5, 6),
    (6, 5),
    (6, 7),
    (7, 6),
];

/// A Sethling step by its number.
fn step_squares(n: usize) -> (Square, Square) {
    let (a, b) = STEPS[n];
    (TWELVE[a], TWELVE[b])
}

/// Letters of the kinds that may wait in Limbo, by their payload number.
const LIMBO_KINDS: [PieceKind; 4] = [PHARAOH, WARRIOR, FREED, PRIEST];
/// Kinds a piece may reincarnate as, by payload number (0 is a board move).
const REINCARNATED: [PieceKind; 3] = [PHARAOH, WARRIOR, SLAVE];

// Payload layout: bits 0-1 Reincarnation kind (0: a board move), 2-5 the free step (0: none),
// 6-9 the Destiny (0 stay, 1 H1, 2-9 a Twelve-Hours square, 10 ceases), 10-11 the kind in Limbo.
const REINC_SHIFT: u16 = 0;
const STEP_SHIFT: u16 = 2;
const DESTINY_SHIFT: u16 = 6;
const LIMBO_SHIFT: u16 = 10;
const DESTINY_CEASES: u16 = 10;

/// Packs a turn into a move.
pub fn encode(
    part: &Part,
    step: Option<usize>,
    destiny: Destiny,
    waiting: Option<PieceKind>,
) -> Move {
    let (from, to, reinc) = match *part {
        Part::Board { from, to } => (from, to, 0),
        Part::Reincarnate { to, kind } => {
            let n = REINCARNATED
                .iter()
                .position(|&k| k == kind)
                .expect("a reincarnating kind");
            (H5, to, n as u16 + 1)
        }
    };
    let step = step.map_or(0, |n| n as u16 + 1);
    let destiny = match destiny {
        Destiny::Stay => 0,
        Destiny::Hall => 1,
        Destiny::Twelve(s) => {
            2 + TWELVE
                .iter()
                .position(|&t| t == s)
                .expect("a Twelve-Hours square") as u16
        }
        Destiny::Ceases => DESTINY_CEASES,
    };
    let waiting = waiting
        .and_then(|k| LIMBO_KINDS.iter().position(|&l| l == k))
        .unwrap_or(0) as u16;
    let payload = reinc << REINC_SHIFT
        | step << STEP_SHIFT
        | destiny << DESTINY_SHIFT
        | waiting << LIMBO_SHIFT;
    Move::with_payload(TURN, from, to, payload)
}

/// A turn unpacked.
struct Turn {
    part: Part,
    step: Option<usize>,
    destiny: Destiny,
    waiting: PieceKind,
}

fn decode(m: Move) -> Turn {
    let p = m.payload();
    let reinc = (p >> REINC_SHIFT & 3) as usize;
    let part = if reinc == 0 {
        Part::Board {
            from: m.from(),
            to: m.to(),
        }
    } else {
        Part::Reincarnate {
            to: m.to(),
            kind: REINCARNATED[reinc - 1],
        }
    };
    let step = match p >> STEP_SHIFT & 15 {
        0 => None,
        n => Some((n - 1) as usize),
    };
    let destiny = match p >> DESTINY_SHIFT & 15 {
        0 => Destiny::Stay,
        1 => Destiny::Hall,
        DESTINY_CEASES => Destiny::Ceases,
        n => Destiny::Twelve(TWELVE[(n - 2) as usize]),
    };
    Turn {
        part,
        step,
        destiny,
        waiting: LIMBO_KINDS[(p >> LIMBO_SHIFT & 3) as usize],
    }
}

/// The first part a generated move stands for.
fn part_of(m: Move) -> Part {
    match m.kind() {
        MoveKind::Special(_) => decode(m).part,
        _ => Part::Board {
            from: m.from(),
            to: m.to(),
        },
    }
}

// ---- Making a turn ----

/// What the parts of a turn did.
#[derive(Default)]
struct Done {
    /// A White or Black piece arrived in Limbo.
    arrived: bool,
    /// A Slave moved, or something was captured or destroyed by a drop.
    irreversible: bool,
    /// A Slave's two-step: the square it passed over.
    skipped: Option<Square>,
}

/// Takes the piece on `sq` off the board, with its state.
fn lift(pos: &mut Position, sq: Square) -> (Piece, PieceState) {
    let p = pos.remove(sq);
    (p, pos.take_state(sq))
}

/// Puts `piece` on the empty square `sq` with `state`.
fn place(pos: &mut Position, sq: Square, piece: Piece, state: PieceState) {
    pos.put(piece, sq);
    // Afterlife's only state is one flag on a few pieces: the table never fills.
    let _ = pos.set_state(sq, state);
}

/// Destroys whatever stands on `sq`; whether something stood there.
fn destroy(pos: &mut Position, sq: Square) -> bool {
    if pos.piece_at(sq).is_none() {
        return false;
    }
    lift(pos, sq);
    true
}

/// A White or Black piece captured in the World goes to Limbo (a Chariot as a Warrior, a Slave
/// as a Freed Slave, its `{x}` kept), destroying what waits there; a grey one is removed.
fn to_limbo(pos: &mut Position, piece: Piece, state: PieceState) -> bool {
    if piece.color() == Color::Neutral {
        return false;
    }
    destroy(pos, LIMBO);
    let kind = match piece.kind() {
        CHARIOT => WARRIOR,
        SLAVE => FREED,
        k => k,
    };
    let kept = PieceState {
        flags: state.flags,
        ..PieceState::default()
    };
    place(pos, LIMBO, Piece::new(piece.color(), kind), kept);
    true
}

/// En passant as the turn began: the square skipped and the Slave beyond it.
type EnPassant = Option<(Bitboard, Square)>;

/// En passant in `pos`.
fn en_passant(pos: &Position) -> EnPassant {
    pos.ep_victim().map(|v| (pos.ep_targets(), v))
}

/// The first part of the turn, by `us`.
fn play_part(pos: &mut Position, part: &Part, us: Color, ep: EnPassant, done: &mut Done) {
    match *part {
        Part::Reincarnate { to, kind } => {
            let (p, _) = lift(pos, H5);
            place(pos, to, Piece::new(p.color(), kind), PieceState::default());
        }
        Part::Board { from, to } => play_board_move(pos, from, to, us, ep, done),
    }
}

/// A move or capture from `from` to `to` on the piece's board, with its transfers.
fn play_board_move(
    pos: &mut Position,
    from: Square,
    to: Square,
    us: Color,
    ep: EnPassant,
    done: &mut Done,
) {
    let in_world = WORLD.contains(to);
    let mover = pos.piece_at(from);
    let ep_victim = ep
        .filter(|&(targets, _)| targets.contains(to))
        .map(|(_, v)| v)
        .filter(|_| {
            mover.kind() == SLAVE && from.file() != to.file() && pos.piece_at(to).is_none()
        });
    let victim_sq = ep_victim.or(Some(to));
    let (piece, mut state) = lift(pos, from);
    if let Some(v) = victim_sq.filter(|&v| pos.piece_at(v).is_some()) {
        let (victim, vstate) = lift(pos, v);
        done.irreversible = true;
        if in_world {
            done.arrived |= to_limbo(pos, victim, vstate);
            if matches!(piece.kind(), PHARAOH | WARRIOR | CHARIOT) {
                state.flags.insert(CAPTURED);
            }
        }
    }
    let mut piece = piece;
    if in_world && promotes(us, to) {
        piece = match piece.kind() {
            WARRIOR => Piece::new(piece.color(), CHARIOT),
            SLAVE => Piece::new(piece.color(), FREED),
            // Enslaved by the army whose first rank it reached (§3.4 item 12).
            MERCENARY => Piece::new(
                if to.rank() == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                SLAVE,
            ),
            _ => piece,
        };
    }
    // A Mercenary enslaved by its move made no Slave move.
    if mover.kind() == SLAVE {
        done.irreversible = true;
        if from.rank().abs_diff(to.rank()) == 2 {
            done.skipped = from.offset(0, forward(us));
        }
    }
    place(pos, to, piece, state);
}

/// Whether `us` promotes a piece moving onto `to`: the World's last rank for `us`.
fn promotes(us: Color, to: Square) -> bool {
    to.rank() == if us == Color::White { 6 } else { 0 }
}

/// Redemption (RULINGS §10 item 3): while the Twelve Hours holds exactly one piece and it is
/// White or Black, it goes to H1, destroying what stands there, and the Sethlings are put on
/// h1 h3 k1 k3. Whether it destroyed something.
fn redeem(pos: &mut Position) -> bool {
    let mut destroyed = false;
    loop {
        let here = pos.occupied() & TWELVE_HOURS;
        let Some(sq) = here.first().filter(|_| here.count() == 1) else {
            return destroyed;
        };
        if pos.piece_at(sq).color() == Color::Neutral {
            return destroyed;
        }
        let (p, _) = lift(pos, sq);
        destroyed |= destroy(pos, H1);
        place(pos, H1, p, PieceState::default());
        for s in SETHLING_HOMES {
            place(
                pos,
                s,
                Piece::new(Color::Neutral, SETHLING),
                PieceState::default(),
            );
        }
    }
}

/// Whether the free step is open to `us` in `pos` (§3.3, §10 item 3): `us` has no White or
/// Black piece in the Twelve Hours and the opponent has one.
fn step_open(pos: &Position, us: Color) -> bool {
    let here = pos.occupied() & TWELVE_HOURS;
    (here & pos.color_bb(us)).is_empty() && (here & pos.color_bb(us.opponent())).nonempty()
}

/// The Sethling steps in `pos`: onto an empty square or a White or Black piece.
fn steps(pos: &Position) -> impl Iterator<Item = usize> + '_ {
    (0..STEPS.len()).filter(move |&n| {
        let (a, b) = step_squares(n);
        let s = pos.piece_at(a);
        let t = pos.piece_at(b);
        s.is_some() && s.kind() == SETHLING && (t.is_none() || t.color() != Color::Neutral)
    })
}

fn play_step(pos: &mut Position, n: usize, done: &mut Done) {
    let (a, b) = step_squares(n);
    let (p, st) = lift(pos, a);
    done.irreversible |= destroy(pos, b);
    place(pos, b, p, st);
}

/// The Destinies of the piece waiting in Limbo in `pos` (§3.3): a High Priest, or a Warrior or
/// Pharaoh with `{x}`, to H1; else to each empty Twelve-Hours square, or it Ceases to Exist.
fn destinies(pos: &Position) -> Vec<Destiny> {
    let p = pos.piece_at(LIMBO);
    let x = pos.state(LIMBO).flags.contains(CAPTURED);
    if p.kind() == PRIEST || (x && matches!(p.kind(), WARRIOR | PHARAOH)) {
        return vec![Destiny::Hall];
    }
    let empty: Vec<Destiny> = TWELVE
        .into_iter()
        .filter(|&s| pos.piece_at(s).is_none())
        .map(Destiny::Twelve)
        .collect();
    if empty.is_empty() {
        vec![Destiny::Ceases]
    } else {
        empty
    }
}

fn play_destiny(pos: &mut Position, destiny: Destiny, done: &mut Done) {
    if destiny == Destiny::Stay {
        return;
    }
    // Leaving Limbo clears `{x}`.
    let (p, _) = lift(pos, LIMBO);
    match destiny {
        Destiny::Hall => {
            done.irreversible |= destroy(pos, H1);
            place(pos, H1, p, PieceState::default());
        }
        Destiny::Twelve(s) => place(pos, s, p, PieceState::default()),
        Destiny::Ceases | Destiny::Stay => {}
    }
}

/// The mover's piece waiting in Limbo as the turn begins, if any.
fn waiting(pos: &Position) -> Option<PieceKind> {
    let p = pos.piece_at(LIMBO);
    (p.is_some() && p.color() == pos.turn()).then_some(p.kind())
}

/// Every whole turn that begins with one of `parts` (RULINGS §10 items 3 and 4; §8: turns are
/// told apart by their text, so each free step and each Destiny square is a move of its own).
pub fn complete(game: &Afterlife, pos: &Position, parts: &[Move], out: &mut Vec<Move>) {
    let us = pos.turn();
    let waits = waiting(pos);
    let open_before = step_open(pos, us);
    for &m in parts {
        let part = part_of(m);
        let mut p1 = pos.clone();
        let mut done = Done::default();
        play_part(&mut p1, &part, us, en_passant(pos), &mut done);
        redeem(&mut p1);
        let mut free: Vec<Option<usize>> = vec![None];
        if open_before || step_open(&p1, us) {
            free.extend(steps(&p1).map(Some));
        }
        for step in free {
            let p2 = match step {
                Some(n) => {
                    let mut p = p1.clone();
                    play_step(&mut p, n, &mut Done::default());
                    redeem(&mut p);
                    p
                }
                None => p1.clone(),
            };
            let mut ends = Vec::new();
            if waits.is_some() && !done.arrived {
                if game.optional_limbo {
                    ends.push(Destiny::Stay);
                }
                ends.extend(destinies(&p2));
            } else {
                ends.push(Destiny::Stay);
            }
            for destiny in ends {
                out.push(encode(&part, step, destiny, waits));
            }
        }
    }
}

/// Makes the turn `m` on `after` (a copy of `before`).
pub fn apply(before: &Position, m: Move, after: &mut Position) -> Effects {
    let us = before.turn();
    let t = decode(m);
    let mut done = Done::default();
    play_part(after, &t.part, us, en_passant(before), &mut done);
    done.irreversible |= redeem(after);
    if let Some(n) = t.step {
        play_step(after, n, &mut done);
        done.irreversible |= redeem(after);
    }
    play_destiny(after, t.destiny, &mut done);
    done.irreversible |= redeem(after);
    // En passant opens for the opponent if one of the Slaves it moves can take.
    if let Some(skipped) = done.skipped {
        let victim = skipped.offset(0, forward(us));
        if ep_open(after, us.opponent(), skipped) {
            after.set_ep(Bitboard::from_square(skipped), victim);
        }
    }
    Effects {
        irreversible: done.irreversible,
        double_step: None,
    }
}

/// Whether the turn changes material: a capture by its first part (en passant included) or its
/// free step, or a drop onto an occupied H1.
pub fn is_noisy(pos: &Position, m: Move) -> bool {
    let t = decode(m);
    let captures = match t.part {
        Part::Board { from, to } => {
            pos.piece_at(to).is_some()
                || (pos.piece_at(from).kind() == SLAVE && pos.ep_targets().contains(to))
        }
        Part::Reincarnate { .. } => false,
    };
    let step = t
        .step
        .is_some_and(|n| pos.piece_at(step_squares(n).1).is_some());
    captures || step || (t.destiny == Destiny::Hall && pos.piece_at(H1).is_some())
}

// ---- Text ----

/// A turn's text (RULINGS §10 item 7): the first part (`b2b3`, `W@c3`), `+` and the free step,
/// `/` and the Destiny of the piece in Limbo (`/F@j2`, `/H@f1`, `/P@-`).
pub fn text(rules: &Rules, m: Move, dialect: Dialect) -> String {
    let t = decode(m);
    let sq = |s| square_text(rules.geometry(), dialect, s);
    let letter = |k: PieceKind| crate::notation::piece_letter(rules, dialect, k);
    let mut out = match t.part {
        Part::Board { from, to } => format!("{}{}", sq(from), sq(to)),
        Part::Reincarnate { to, kind } => format!("{}@{}", letter(kind), sq(to)),
    };
    if let Some(n) = t.step {
        let (a, b) = step_squares(n);
        out += &format!("+{}{}", sq(a), sq(b));
    }
    let w = letter(t.waiting);
    match t.destiny {
        Destiny::Stay => {}
        Destiny::Hall => out += &format!("/{w}@{}", sq(H1)),
        Destiny::Twelve(s) => out += &format!("/{w}@{}", sq(s)),
        Destiny::Ceases => out += &format!("/{w}@-"),
    }
    out
}

/// A turn's SAN shape (`Presentation::san_shape`): the first part as SAN, then `/` and each
/// further part: the free step (`Sh1-h2`), the Destiny (`F@j2`, `H@f1`, `P@-`). A move of a
/// core kind (none is generated) gets the shape of a board move.
pub fn san_shape(rules: &Rules, pos: &Position, m: Move) -> SanShape {
    let sq = |s| san::square(rules, s);
    let letter = |k: PieceKind| san::kind_letter(rules, k);
    let t = match m.kind() {
        MoveKind::Special(_) => decode(m),
        _ => return SanShape::step(rules, pos, m.from(), m.to(), pos.piece_at(m.to()).is_some()),
    };
    let mut shape = match t.part {
        Part::Board { from, to } => {
            let pawn = san::letter_of(rules, pos, from).is_none();
            let capture = pos.piece_at(to).is_some() || (pawn && pos.ep_targets().contains(to));
            SanShape::step(rules, pos, from, to, capture)
        }
        Part::Reincarnate { to, kind } => SanShape {
            letter: Some(letter(kind)),
            from: None,
            mark: "@",
            target: sq(to),
            suffix: String::new(),
        },
    };
    if let Some(n) = t.step {
        let (a, b) = step_squares(n);
        let mover = san::letter_of(rules, pos, a).map(String::from);
        shape.suffix += &format!("/{}{}-{}", mover.unwrap_or_default(), sq(a), sq(b));
    }
    let w = letter(t.waiting);
    match t.destiny {
        Destiny::Stay => {}
        Destiny::Hall => shape.suffix += &format!("/{w}@{}", sq(H1)),
        Destiny::Twelve(s) => shape.suffix += &format!("/{w}@{}", sq(s)),
        Destiny::Ceases => shape.suffix += &format!("/{w}@-"),
    }
    shape
}

/// The text XBoard is sent for a turn (`Presentation::xboard_text`): XBoard applies and relays one
/// piece's move, so a turn goes as its first part alone (`d1c3`, a Reincarnation as a drop,
/// `W@c3`), and only the first turn that begins with that part (no free step, the first Destiny
/// in the order h1 h2 h3 i2 j2 k1 k2 k3) has that text; the others have none and are not
/// carried. `turns` are the legal moves.
pub fn xboard_text(rules: &Rules, turns: &[Move], m: Move) -> Option<String> {
    let part = part_of(m);
    let first = turns.iter().find(|&&t| part_of(t) == part)?;
    if *first != m {
        return None;
    }
    let sq = |s| square_text(rules.geometry(), Dialect::Cecp, s);
    Some(match part {
        Part::Board { from, to } => format!("{}{}", sq(from), sq(to)),
        Part::Reincarnate { to, kind } => format!(
            "{}@{}",
            crate::notation::piece_letter(rules, Dialect::Cecp, kind),
            sq(to)
        ),
    })
}

/// The first part's squares and the piece that moves, for the evaluation of moves.
pub fn first_part(m: Move) -> (Square, Square, bool) {
    match decode(m).part {
        Part::Board { from, to } => (from, to, false),
        Part::Reincarnate { to, .. } => (H5, to, true),
    }
}

/// The Destiny of a turn.
pub fn destiny(m: Move) -> Destiny {
    decode(m).destiny
}

/// The free step of a turn, as its squares.
pub fn free_step(m: Move) -> Option<(Square, Square)> {
    decode(m).step.map(step_squares)
}
