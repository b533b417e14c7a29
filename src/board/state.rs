//! Per-piece state beyond kind and colour: counters, flags, timed spells, attachments and links
//! between the squares of a multi-square piece; and the off-board reserve.
//!
//! Most pieces carry no state, so the table is sparse: an entry exists only for a piece whose state
//! differs from the default. It has a fixed capacity so that copying a position never allocates.

use crate::core::{Color, Piece, PieceKind, Square, MAX_KINDS};

/// Flags of one piece. Each game names its flags (`rules::StateSpec::flags` gives their FEN
/// letters): a Schizophrenic King's used teleport, an Afterlife Warrior that captured during its
/// stay in the World.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct PieceFlags(pub u8);

impl PieceFlags {
    /// The flag with bit number `i` (its FEN letter is `StateSpec::flags[i]`).
    pub const fn bit(i: u8) -> PieceFlags {
        PieceFlags(1 << i)
    }

    /// Whether all flags of `other` are set.
    pub fn contains(self, other: PieceFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Sets the flags of `other`.
    pub fn insert(&mut self, other: PieceFlags) {
        self.0 |= other.0;
    }

    /// Clears the flags of `other`.
    pub fn remove(&mut self, other: PieceFlags) {
        self.0 &= !other.0;
    }
}

/// What a timed spell does: a number a game names (`rules::StateSpec::spells` gives the FEN
/// letters, by number).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SpellKind(pub u8);

/// A spell on a piece: in force in this position and for `left - 1` more of the players' plies.
/// The position counts it down as plies are played and removes it when it ends, so equal
/// positions reached at different plies are equal. FEN writes the game ply it ends at.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Spell {
    /// What it does.
    pub kind: SpellKind,
    /// Positions it is still in force in, this one included (at least 1).
    pub left: u8,
}

/// State of one piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PieceState {
    /// A counter (a Bobber's moves, an Existentialist's steps).
    pub counter: u8,
    /// A second counter (an Archer's fire streak).
    pub counter2: u8,
    /// Flags.
    pub flags: PieceFlags,
    /// A timed spell, if any.
    pub spell: Option<Spell>,
    /// A piece merged into this one (an Archer or Zednick riding a host), or `Piece::NONE`.
    pub attached: Piece,
    /// Non-zero: the squares with the same link number form one multi-square piece.
    pub link: u8,
}

impl Default for PieceState {
    fn default() -> Self {
        PieceState {
            counter: 0,
            counter2: 0,
            flags: PieceFlags::default(),
            spell: None,
            attached: Piece::NONE,
            link: 0,
        }
    }
}

impl PieceState {
    /// Whether this is the state of a piece written without any.
    pub fn is_default(&self) -> bool {
        *self == PieceState::default()
    }

    /// The state as 64 bits, for hashing.
    pub fn pack(&self) -> u64 {
        let (sk, left) = self
            .spell
            .map_or((0, 0), |s| (1 + s.kind.0 as u64, s.left as u64));
        self.counter as u64
            | (self.flags.0 as u64) << 8
            | sk << 16
            | left << 24
            | (self.attached.to_u8() as u64) << 40
            | (self.link as u64) << 48
            | (self.counter2 as u64) << 56
    }
}

/// Most pieces with non-default state at once.
pub const MAX_STATES: usize = 24;

/// Sparse per-square piece state.
#[derive(Debug)]
pub struct StateTable {
    len: u8,
    squares: [u8; MAX_STATES],
    states: [PieceState; MAX_STATES],
}

impl Default for StateTable {
    fn default() -> Self {
        StateTable {
            len: 0,
            squares: [0; MAX_STATES],
            states: [PieceState::default(); MAX_STATES],
        }
    }
}

/// A copy copies the entries in use only.
impl Clone for StateTable {
    fn clone(&self) -> Self {
        StateTable {
            len: self.len,
            squares: self.squares,
            states: self.states,
        }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        let len = source.len as usize;
        self.len = source.len;
        // Most positions of most games have no state: no call to copy nothing (a call a move
        // was 1% of a FIDE perft's instructions).
        if len > 0 {
            self.squares[..len].copy_from_slice(&source.squares[..len]);
            self.states[..len].copy_from_slice(&source.states[..len]);
        }
    }
}

/// Tables are equal when they hold the same entries, in any order; slots past the end don't count.
impl PartialEq for StateTable {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().all(|(sq, st)| other.get(sq) == st)
    }
}

impl Eq for StateTable {}

/// The table is full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateTableFull;

impl StateTable {
    fn find(&self, sq: Square) -> Option<usize> {
        self.squares[..self.len as usize]
            .iter()
            .position(|&s| s as usize == sq.index())
    }

    /// Whether no piece has state.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The state of the piece on `sq` (the default if none is stored).
    pub fn get(&self, sq: Square) -> PieceState {
        self.find(sq)
            .map_or_else(PieceState::default, |i| self.states[i])
    }

    /// Sets the state on `sq`; a default state removes the entry. Returns the old state.
    pub fn set(&mut self, sq: Square, state: PieceState) -> Result<PieceState, StateTableFull> {
        match self.find(sq) {
            Some(i) => {
                let old = self.states[i];
                if state.is_default() {
                    let last = self.len as usize - 1;
                    self.squares[i] = self.squares[last];
                    self.states[i] = self.states[last];
                    self.len -= 1;
                } else {
                    self.states[i] = state;
                }
                Ok(old)
            }
            None if state.is_default() => Ok(PieceState::default()),
            None if (self.len as usize) < MAX_STATES => {
                self.squares[self.len as usize] = sq.index() as u8;
                self.states[self.len as usize] = state;
                self.len += 1;
                Ok(PieceState::default())
            }
            None => Err(StateTableFull),
        }
    }

    /// Removes the entry on `sq`, if any.
    pub fn remove(&mut self, sq: Square) {
        let _ = self.set(sq, PieceState::default());
    }

    /// Entries, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (Square, PieceState)> + '_ {
        (0..self.len as usize).map(|i| (Square::from_index(self.squares[i]), self.states[i]))
    }
}

/// Pieces held off the board, per side and kind (returned pieces, a third party's pool).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Reserve(pub [[u8; MAX_KINDS]; 3]);

impl Reserve {
    /// How many of `kind` `color` holds.
    pub fn count(&self, color: Color, kind: PieceKind) -> u8 {
        self.0[color.index()][kind.index()]
    }

    /// Whether nobody holds anything.
    #[inline]
    pub fn is_empty(&self) -> bool {
        *self == Reserve::default()
    }

    /// Whether `color` holds nothing.
    #[inline]
    pub fn is_empty_for(&self, color: Color) -> bool {
        self.0[color.index()] == [0; MAX_KINDS]
    }
}
