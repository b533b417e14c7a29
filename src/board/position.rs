//! The position: bitboards by colour and kind, a mailbox, per-piece state, the reserve, and the
//! counters of the game. It does not hold its rules: functions that need them take `&Rules`, so a
//! position stays plain data, cheap to copy (copy-make) and `Send` for parallel perft.

use super::state::{PieceState, Reserve, StateTable};
use super::zobrist;
use crate::core::{Bitboard, Color, Piece, PieceKind, Square, MAX_KINDS, NUM_SQUARES};
use crate::rules::{Rules, TurnSchedule};
use std::fmt;

/// A position of any supported game.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) by_color: [Bitboard; 3],
    pub(crate) by_kind: [Bitboard; MAX_KINDS],
    pub(crate) mailbox: [Piece; NUM_SQUARES],
    pub(crate) unmoved: Bitboard,
    pub(crate) ep_targets: Bitboard,
    pub(crate) ep_victim: Option<Square>,
    pub(crate) turn: Color,
    pub(crate) halfmove: u16,
    pub(crate) ply: u16,
    pub(crate) hash: u64,
    pub(crate) states: StateTable,
    pub(crate) reserve: Reserve,
}

/// Why a parsed setup is not a playable position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A player has the wrong number of royal pieces.
    RoyalCount { color: Color, found: u32 },
    /// The side that just moved has its royal piece attacked.
    OpponentInCheck,
    /// A piece stands where it could never be (a pawn on its promotion rank).
    PieceOnPromotionRank(Square),
    /// Too many pieces carry state.
    TooMuchState,
    /// The en-passant square is not one a pawn could just have skipped.
    BadEnPassant(Square),
    /// A variant-specific reason.
    Variant(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::RoyalCount { color, found } => {
                write!(f, "{} has {found} kings, it needs exactly 1", color.name())
            }
            PositionError::OpponentInCheck => write!(f, "the side that is not to move is in check"),
            PositionError::PieceOnPromotionRank(sq) => {
                write!(f, "the piece on {sq} stands on its promotion rank")
            }
            PositionError::TooMuchState => write!(f, "too many pieces carry extra state"),
            PositionError::BadEnPassant(sq) => {
                write!(f, "en-passant square {sq} does not follow a double step")
            }
            PositionError::Variant(s) => write!(f, "{s}"),
        }
    }
}

impl TurnSchedule {
    /// Who moves at game ply `ply` (0 is the first ply).
    pub fn turn_at(&self, ply: u16) -> Color {
        match self.third_party_every {
            None => {
                if ply % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                }
            }
            Some(n) => {
                let period = n + 1;
                if ply % period == n {
                    Color::Neutral
                } else {
                    let player_plies = ply - ply / period;
                    if player_plies % 2 == 0 {
                        Color::White
                    } else {
                        Color::Black
                    }
                }
            }
        }
    }

    /// The part of the hash that depends on where in the schedule the game is.
    pub fn phase_key(&self, ply: u16) -> u64 {
        match self.third_party_every {
            None => 0,
            // How soon Nature moves; who moves is hashed on its own.
            Some(n) => zobrist::phase(ply % (n + 1)),
        }
    }
}

impl Position {
    /// An empty board with White to move at ply 0.
    pub fn empty() -> Position {
        let mut p = Position {
            by_color: [Bitboard::EMPTY; 3],
            by_kind: [Bitboard::EMPTY; MAX_KINDS],
            mailbox: [Piece::NONE; NUM_SQUARES],
            unmoved: Bitboard::EMPTY,
            ep_targets: Bitboard::EMPTY,
            ep_victim: None,
            turn: Color::White,
            halfmove: 0,
            ply: 0,
            hash: 0,
            states: StateTable::default(),
            reserve: Reserve::default(),
        };
        p.hash = zobrist::turn(Color::White);
        p
    }

    // ---- Reading ----

    /// The piece on `sq`, or `Piece::NONE`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.mailbox[sq.index()]
    }

    /// Squares occupied by anything.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1] | self.by_color[2]
    }

    /// Squares of `color`'s pieces.
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares of pieces of `kind`, any colour.
    #[inline]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Plies played since the start of the game (as far as the FEN tells).
    #[inline]
    pub fn ply(&self) -> u16 {
        self.ply
    }

    /// The move number of FEN: starts at 1 and grows after each Black move.
    pub fn fullmove(&self) -> u16 {
        self.ply / 2 + 1
    }

    /// Zobrist hash of everything that makes positions differ.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Squares of pieces that have not moved, among the kinds that track it.
    #[inline]
    pub fn unmoved(&self) -> Bitboard {
        self.unmoved
    }

    /// Squares an en-passant capture may land on this ply.
    #[inline]
    pub fn ep_targets(&self) -> Bitboard {
        self.ep_targets
    }

    /// The piece an en-passant capture would take.
    #[inline]
    pub fn ep_victim(&self) -> Option<Square> {
        self.ep_victim
    }

    /// State of the piece on `sq`.
    pub fn state(&self, sq: Square) -> PieceState {
        self.states.get(sq)
    }

    /// All non-default piece states.
    pub fn states(&self) -> &StateTable {
        &self.states
    }

    /// Pieces held off the board.
    pub fn reserve(&self) -> &Reserve {
        &self.reserve
    }

    /// Squares of `color`'s royal pieces.
    #[inline]
    pub fn royals(&self, rules: &Rules, color: Color) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for k in rules.royal.iter() {
            bb |= self.pieces(color, k);
        }
        bb
    }

    // ---- Changing, with the hash kept in step ----

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.mailbox[sq.index()].is_none());
        self.mailbox[sq.index()] = piece;
        self.by_color[piece.color().index()].insert(sq);
        self.by_kind[piece.kind().index()].insert(sq);
        self.hash ^= zobrist::piece(piece, sq);
    }

    /// Removes and returns the piece on `sq` (its state stays; see `take_state`).
    #[inline]
    pub fn remove(&mut self, sq: Square) -> Piece {
        let piece = self.mailbox[sq.index()];
        debug_assert!(piece.is_some());
        self.mailbox[sq.index()] = Piece::NONE;
        self.by_color[piece.color().index()].remove(sq);
        self.by_kind[piece.kind().index()].remove(sq);
        self.hash ^= zobrist::piece(piece, sq);
        piece
    }

    /// Marks the piece on `sq` as unmoved or moved.
    pub fn set_unmoved(&mut self, sq: Square, unmoved: bool) {
        if self.unmoved.contains(sq) != unmoved {
            self.unmoved.toggle(sq);
            self.hash ^= zobrist::unmoved(sq);
        }
    }

    /// Sets the state of the piece on `sq`.
    pub fn set_state(&mut self, sq: Square, state: PieceState) -> Result<(), PositionError> {
        let old = self
            .states
            .set(sq, state)
            .map_err(|_| PositionError::TooMuchState)?;
        if !old.is_default() {
            self.hash ^= zobrist::state(sq, old.pack());
        }
        if !state.is_default() {
            self.hash ^= zobrist::state(sq, state.pack());
        }
        Ok(())
    }

    /// Removes and returns the state on `sq`.
    pub fn take_state(&mut self, sq: Square) -> PieceState {
        let old = self.states.get(sq);
        if !old.is_default() {
            self.states
                .set(sq, PieceState::default())
                .expect("removing never overflows");
            self.hash ^= zobrist::state(sq, old.pack());
        }
        old
    }

    /// Sets the number of `kind` that `color` holds in reserve.
    pub fn set_reserve(&mut self, color: Color, kind: PieceKind, count: u8) {
        let slot = &mut self.reserve.0[color.index()][kind.index()];
        self.hash ^= zobrist::reserve(color, kind.index(), *slot)
            ^ zobrist::reserve(color, kind.index(), count);
        *slot = count;
    }

    /// Sets the en-passant targets and victim.
    pub fn set_ep(&mut self, targets: Bitboard, victim: Option<Square>) {
        for sq in self.ep_targets {
            self.hash ^= zobrist::ep(sq);
        }
        self.ep_targets = targets;
        self.ep_victim = victim;
        for sq in targets {
            self.hash ^= zobrist::ep(sq);
        }
    }

    /// Sets the side to move and game ply (the hash of the schedule phase follows).
    pub fn set_turn(&mut self, rules: &Rules, turn: Color, ply: u16) {
        let sched = rules.spec.schedule;
        self.hash ^= zobrist::turn(self.turn) ^ sched.phase_key(self.ply);
        self.turn = turn;
        self.ply = ply;
        self.hash ^= zobrist::turn(turn) ^ sched.phase_key(ply);
    }

    /// Sets the halfmove clock (not part of the hash).
    pub fn set_halfmove(&mut self, n: u16) {
        self.halfmove = n;
    }

    /// The hash computed from scratch; equals `hash()` whenever the position is consistent.
    pub fn compute_hash(&self, rules: &Rules) -> u64 {
        let mut h = zobrist::turn(self.turn) ^ rules.spec.schedule.phase_key(self.ply);
        for sq in self.occupied() {
            h ^= zobrist::piece(self.mailbox[sq.index()], sq);
        }
        for sq in self.unmoved {
            h ^= zobrist::unmoved(sq);
        }
        for sq in self.ep_targets {
            h ^= zobrist::ep(sq);
        }
        for (sq, st) in self.states.iter() {
            h ^= zobrist::state(sq, st.pack());
        }
        for c in Color::ALL {
            for k in 0..MAX_KINDS {
                h ^= zobrist::reserve(c, k, self.reserve.0[c.index()][k]);
            }
        }
        h
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position {{ turn: {:?}, ply: {}, hash: {:016x}, occupied: {:?} }}",
            self.turn,
            self.ply,
            self.hash,
            self.occupied()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_without_third_party_alternates() {
        let s = TurnSchedule::default();
        assert_eq!(
            (0..4).map(|p| s.turn_at(p)).collect::<Vec<_>>(),
            [Color::White, Color::Black, Color::White, Color::Black]
        );
    }

    #[test]
    fn nature_moves_every_fifth_ply() {
        // Four player plies, then Nature, then the players carry on where they left off.
        let s = TurnSchedule {
            third_party_every: Some(4),
        };
        let turns: Vec<_> = (0..10).map(|p| s.turn_at(p)).collect();
        use Color::*;
        assert_eq!(
            turns,
            [White, Black, White, Black, Neutral, White, Black, White, Black, Neutral]
        );
        // The phase key tells apart plies at which the same side is to move but Nature comes sooner.
        assert_eq!(s.turn_at(0), s.turn_at(2));
        assert_ne!(s.phase_key(0), s.phase_key(2));
        assert_eq!(s.phase_key(0), s.phase_key(5));
    }
}
