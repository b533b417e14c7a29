//! The position: bitboards by colour and kind, a mailbox, per-piece state, the reserve, and the
//! counters of the game. It does not hold its rules: functions that need them take `&Rules`, so a
//! position stays plain data, cheap to copy (copy-make) and `Send` for parallel perft.

use super::state::{PieceState, Reserve, Spell, StateTable};
use super::zobrist;
use crate::core::{Bitboard, Color, KindSet, Piece, PieceKind, Square, MAX_KINDS, NUM_SQUARES};
use crate::rules::Rules;
use std::fmt;

/// A position of any supported game.
pub struct Position {
    pub(crate) by_color: [Bitboard; 3],
    pub(crate) by_kind: [Bitboard; MAX_KINDS],
    /// The kinds below which every piece on the board is (`by_kind` is empty from here on), so
    /// that a copy copies only the kinds the game has (`clone_from`). An upper bound: placing a
    /// piece raises it, removing one leaves it.
    pub(crate) kinds_in_use: u8,
    pub(crate) mailbox: [Piece; NUM_SQUARES],
    pub(crate) unmoved: Bitboard,
    pub(crate) ep_targets: Bitboard,
    pub(crate) ep_victim: Option<Square>,
    pub(crate) turn: Color,
    /// A game's own turn clock (Chaos's Nature counter), read by its turn hook; 0 elsewhere.
    pub(crate) turn_state: u8,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
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
    /// A castling right whose king or partner is not on its square.
    CastlingWithoutPieces {
        right: char,
        king: &'static str,
        king_from: Square,
        partner: &'static str,
        partner_from: Square,
    },
    /// A king in a player's reserve, where only captured pieces go: kings are never captured.
    KingInReserve { color: Color, king: &'static str },
    /// A neutral piece of a kind the third party does not have, on `square` or (`None`) in its
    /// reserve; `owner` names the third party, `kinds` the kinds it has.
    NeutralKind {
        owner: &'static str,
        piece: &'static str,
        square: Option<Square>,
        kinds: &'static str,
    },
    /// More pieces of a kind than a player ever has; `pieces` names them in the plural.
    PieceCount {
        color: Color,
        pieces: &'static str,
        found: u32,
        most: u32,
    },
    /// A part of the board that is never empty is empty; `why` says what refills it.
    EmptyArea {
        area: &'static str,
        why: &'static str,
    },
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
            PositionError::CastlingWithoutPieces {
                right,
                king,
                king_from,
                partner,
                partner_from,
            } => write!(
                f,
                "castling right '{right}' needs a {king} on {king_from} and a {partner} on {partner_from}"
            ),
            PositionError::KingInReserve { color, king } => write!(
                f,
                "{} has a {king} in reserve, which holds only captured pieces, and a {king} is never captured",
                color.name()
            ),
            PositionError::NeutralKind {
                owner,
                piece,
                square,
                kinds,
            } => {
                match square {
                    Some(sq) => write!(f, "{owner} has a {piece} on {sq}")?,
                    None => write!(f, "{owner} has a {piece} in reserve")?,
                }
                write!(f, ", and {owner}'s pieces are only {kinds}")
            }
            PositionError::PieceCount {
                color,
                pieces,
                found,
                most,
            } => write!(f, "{} has {found} {pieces}, at most {most}", color.name()),
            PositionError::EmptyArea { area, why } => {
                write!(f, "the {area} is empty, which it never is: {why}")
            }
            PositionError::Variant(s) => write!(f, "{s}"),
        }
    }
}

/// Kinds copied at a time by `clone_from`.
const KIND_BLOCK: usize = 4;
const _: () = assert!(MAX_KINDS % KIND_BLOCK == 0);

/// `clone_from` copies the kinds in use only: a copy-make loop writes a position over another
/// at every move, and most games have a few kinds of the `MAX_KINDS` a position has room for.
/// Each field is named (no `..`), so that a field added later cannot be left out of a copy.
impl Clone for Position {
    fn clone(&self) -> Self {
        let Position {
            by_color,
            by_kind,
            kinds_in_use,
            mailbox,
            unmoved,
            ep_targets,
            ep_victim,
            turn,
            turn_state,
            halfmove,
            fullmove,
            ply,
            hash,
            states,
            reserve,
        } = self;
        Position {
            by_color: *by_color,
            by_kind: *by_kind,
            kinds_in_use: *kinds_in_use,
            mailbox: *mailbox,
            unmoved: *unmoved,
            ep_targets: *ep_targets,
            ep_victim: *ep_victim,
            turn: *turn,
            turn_state: *turn_state,
            halfmove: *halfmove,
            fullmove: *fullmove,
            ply: *ply,
            hash: *hash,
            states: states.clone(),
            reserve: *reserve,
        }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        let Position {
            by_color,
            by_kind,
            kinds_in_use,
            mailbox,
            unmoved,
            ep_targets,
            ep_victim,
            turn,
            turn_state,
            halfmove,
            fullmove,
            ply,
            hash,
            states,
            reserve,
        } = source;
        debug_assert!(by_kind[*kinds_in_use as usize..]
            .iter()
            .all(|b| b.is_empty()));
        // Whole blocks of kinds, which copy without a call; past `kinds_in_use` the source's
        // kinds are empty, and so are the copy's once the stale ones are cleared.
        let used = (*kinds_in_use as usize).div_ceil(KIND_BLOCK);
        let stale = (self.kinds_in_use as usize).div_ceil(KIND_BLOCK);
        for b in 0..used {
            let block = b * KIND_BLOCK..(b + 1) * KIND_BLOCK;
            self.by_kind[block.clone()].copy_from_slice(&by_kind[block]);
        }
        for b in used..stale {
            self.by_kind[b * KIND_BLOCK..(b + 1) * KIND_BLOCK].fill(Bitboard::EMPTY);
        }
        self.kinds_in_use = *kinds_in_use;
        self.by_color = *by_color;
        self.mailbox = *mailbox;
        self.unmoved = *unmoved;
        self.ep_targets = *ep_targets;
        self.ep_victim = *ep_victim;
        self.turn = *turn;
        self.turn_state = *turn_state;
        self.halfmove = *halfmove;
        self.fullmove = *fullmove;
        self.ply = *ply;
        self.hash = *hash;
        self.states.clone_from(states);
        self.reserve = *reserve;
    }
}

/// Equal positions hold the same pieces, state and counters, whatever kinds they once held.
impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        let Position {
            by_color,
            by_kind,
            kinds_in_use: _,
            mailbox,
            unmoved,
            ep_targets,
            ep_victim,
            turn,
            turn_state,
            halfmove,
            fullmove,
            ply,
            hash,
            states,
            reserve,
        } = self;
        *by_color == other.by_color
            && *by_kind == other.by_kind
            && *mailbox == other.mailbox
            && *unmoved == other.unmoved
            && *ep_targets == other.ep_targets
            && *ep_victim == other.ep_victim
            && *turn == other.turn
            && *turn_state == other.turn_state
            && *halfmove == other.halfmove
            && *fullmove == other.fullmove
            && *ply == other.ply
            && *hash == other.hash
            && *states == other.states
            && *reserve == other.reserve
    }
}

impl Eq for Position {}

impl Position {
    /// An empty board with White to move at ply 0.
    pub fn empty() -> Position {
        let mut p = Position {
            by_color: [Bitboard::EMPTY; 3],
            by_kind: [Bitboard::EMPTY; MAX_KINDS],
            kinds_in_use: 0,
            mailbox: [Piece::NONE; NUM_SQUARES],
            unmoved: Bitboard::EMPTY,
            ep_targets: Bitboard::EMPTY,
            ep_victim: None,
            turn: Color::White,
            turn_state: 0,
            halfmove: 0,
            fullmove: 1,
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

    /// The players' plies played since the start of the game (as far as the FEN tells:
    /// `2 * (fullmove - 1)`, plus one with Black to move); a third party's plies do not count.
    /// Spells end at a game ply.
    #[inline]
    pub fn ply(&self) -> u16 {
        self.ply
    }

    /// The move number of FEN: starts at 1 and grows after each Black move.
    #[inline]
    pub fn fullmove(&self) -> u16 {
        self.fullmove
    }

    /// The game's own turn clock (0 in games whose turns simply alternate).
    #[inline]
    pub fn turn_state(&self) -> u8 {
        self.turn_state
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
        self.kinds_bb(rules.royal) & self.color_bb(color)
    }

    /// Squares of pieces of any of `kinds`, any colour.
    #[inline]
    pub fn kinds_bb(&self, kinds: crate::core::KindSet) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for k in kinds {
            bb |= self.by_kind[k.index()];
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
        self.kinds_in_use = self.kinds_in_use.max(piece.kind().index() as u8 + 1);
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

    /// Changes the state of the piece on `sq` with `change`. A piece that moves keeps its
    /// state's slot, so only a piece that had none can find the table full.
    pub fn update_state(
        &mut self,
        sq: Square,
        change: impl FnOnce(&mut PieceState),
    ) -> Result<(), PositionError> {
        let mut state = self.states.get(sq);
        change(&mut state);
        self.set_state(sq, state)
    }

    /// Removes and returns the state on `sq`.
    pub fn take_state(&mut self, sq: Square) -> PieceState {
        let old = self.states.get(sq);
        if !old.is_default() {
            self.states.remove(sq);
            self.hash ^= zobrist::state(sq, old.pack());
        }
        old
    }

    /// Moves the state of the piece on `from` to `to` (where the piece now stands).
    pub fn move_state(&mut self, from: Square, to: Square) {
        // Most games' pieces carry no state at all.
        if self.states.is_empty() {
            return;
        }
        let state = self.take_state(from);
        if !state.is_default() {
            // The slot freed on `from` takes it, so the table cannot be full.
            let _ = self.set_state(to, state);
        }
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

    /// Sets the side to move.
    pub fn set_turn(&mut self, turn: Color) {
        self.hash ^= zobrist::turn(self.turn) ^ zobrist::turn(turn);
        self.turn = turn;
    }

    /// Sets the game's own turn clock.
    pub fn set_turn_state(&mut self, state: u8) {
        self.hash ^= zobrist::turn_state(self.turn_state) ^ zobrist::turn_state(state);
        self.turn_state = state;
    }

    /// Sets the game ply (FEN reading).
    pub fn set_ply(&mut self, ply: u16) {
        self.ply = ply;
    }

    /// Counts one more of the players' plies: the game ply grows, and every spell has one ply
    /// less to run (those that end are removed).
    #[inline]
    pub fn advance_ply(&mut self) {
        self.ply = self.ply.saturating_add(1);
        if !self.states.is_empty() {
            self.age_spells();
        }
    }

    /// Takes a ply off every spell, removing those that end.
    fn age_spells(&mut self) {
        for (sq, st) in self.states.clone().iter() {
            let Some(spell) = st.spell else {
                continue;
            };
            let mut now = st;
            now.spell = (spell.left > 1).then_some(Spell {
                left: spell.left - 1,
                ..spell
            });
            // The entry is replaced or removed, so the table cannot be full.
            let _ = self.set_state(sq, now);
        }
    }

    /// Sets the fullmove number of FEN.
    pub fn set_fullmove(&mut self, n: u16) {
        self.fullmove = n;
    }

    /// Sets the halfmove clock (not part of the hash).
    pub fn set_halfmove(&mut self, n: u16) {
        self.halfmove = n;
    }

    /// The hash computed from scratch; equals `hash()` whenever the position is consistent.
    pub fn compute_hash(&self) -> u64 {
        let mut h = zobrist::turn(self.turn) ^ zobrist::turn_state(self.turn_state);
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

/// Whether a piece of `by` that takes part in en passant could capture onto one of `targets`.
pub fn ep_capturable(rules: &Rules, pos: &Position, by: Color, targets: Bitboard) -> bool {
    kinds_capture_onto(rules, pos, by, rules.en_passant, targets)
}

fn kinds_capture_onto(
    rules: &Rules,
    pos: &Position,
    by: Color,
    kinds: KindSet,
    targets: Bitboard,
) -> bool {
    kinds.into_iter().any(|k| {
        let theirs = pos.pieces(by, k);
        theirs.nonempty()
            && targets
                .into_iter()
                .any(|t| (rules.tables.leap_capturers(by, k, t) & theirs).nonempty())
    })
}
