//! Per-piece state beyond kind and colour: counters, flags, timed spells, attachments and links
//! between the squares of a multi-square piece; and the off-board reserve.
//!
//! Most pieces carry no state, so the table is sparse: an entry exists only for a piece whose state
//! differs from the default. It has a fixed capacity so that copying a position never allocates.

use crate::core::{Piece, PieceKind, Square, MAX_KINDS};

/// Flags of one piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct PieceFlags(pub u8);

impl PieceFlags {
    /// The piece is a promoted one.
    pub const PROMOTED: PieceFlags = PieceFlags(1);
    /// Its one-time teleport has been used.
    pub const TELEPORT_USED: PieceFlags = PieceFlags(2);
    /// It was captured during the current passage (Afterlife).
    pub const CAPTURED_IN_PASSAGE: PieceFlags = PieceFlags(4);

    /// Names and FEN letters of the flags, in bit order.
    pub const LETTERS: [(PieceFlags, char); 3] = [
        (PieceFlags::PROMOTED, 'p'),
        (PieceFlags::TELEPORT_USED, 't'),
        (PieceFlags::CAPTURED_IN_PASSAGE, 'x'),
    ];

    /// Whether all flags of `other` are set.
    pub fn contains(self, other: PieceFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Sets the flags of `other`.
    pub fn insert(&mut self, other: PieceFlags) {
        self.0 |= other.0;
    }
}

/// What a timed spell does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SpellKind {
    /// The piece may not move (dazzled).
    Dazzled = 1,
    /// The piece may not be captured.
    Invulnerable = 2,
    /// The piece must move on its side's next turn.
    MustMove = 3,
}

impl SpellKind {
    /// FEN letter.
    pub fn letter(self) -> char {
        match self {
            SpellKind::Dazzled => 'd',
            SpellKind::Invulnerable => 'i',
            SpellKind::MustMove => 'h',
        }
    }

    /// From its FEN letter.
    pub fn from_letter(c: char) -> Option<SpellKind> {
        Some(match c {
            'd' => SpellKind::Dazzled,
            'i' => SpellKind::Invulnerable,
            'h' => SpellKind::MustMove,
            _ => return None,
        })
    }
}

/// A spell on a piece, in force until the game reaches ply `expires`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Spell {
    /// What it does.
    pub kind: SpellKind,
    /// The ply at which it ends.
    pub expires: u16,
}

/// State of one piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PieceState {
    /// A counter (Bobber range, Existentialist cycle or hibernation).
    pub counter: u8,
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
        let (sk, exp) = self
            .spell
            .map_or((0, 0), |s| (s.kind as u64, s.expires as u64));
        self.counter as u64
            | (self.flags.0 as u64) << 8
            | sk << 16
            | exp << 24
            | (self.attached.to_u8() as u64) << 40
            | (self.link as u64) << 48
    }
}

/// Most pieces with non-default state at once.
pub const MAX_STATES: usize = 24;

/// Sparse per-square piece state.
#[derive(Clone, Copy, Debug)]
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

    /// Entries, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (Square, PieceState)> + '_ {
        (0..self.len as usize).map(|i| (Square::from_index(self.squares[i]), self.states[i]))
    }
}

/// Pieces held off the board, per side and kind (returned pieces, pieces in hand).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Reserve(pub [[u8; MAX_KINDS]; 3]);

impl Reserve {
    /// How many of `kind` `color` holds.
    pub fn count(&self, color: crate::core::Color, kind: PieceKind) -> u8 {
        self.0[color.index()][kind.index()]
    }

    /// Whether nobody holds anything.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|r| r.iter().all(|&n| n == 0))
    }
}
