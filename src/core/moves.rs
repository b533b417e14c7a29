//! One compact move type for every game, and a move list that never drops a move.
//!
//! A move packs into 32 bits, so it fits the transposition table's word: `from` (7 bits), `to`
//! (7), `aux` (7, a third square whose meaning depends on the kind), the kind (5) and a piece
//! kind (6, for promotions, drops and transformations). Whether a `Normal` move captures is read
//! from the board, not stored. Two moves with the same squares but different effects (an
//! en-passant capture beside a plain diagonal step, a step capture beside an explosion) differ in
//! kind, so they are different moves with different text forms (`crate::notation`).
//!
//! The core kinds are named by their effect. A game whose rules need a move the core does not
//! know (a once-per-game teleport, a move that also promotes a piece elsewhere) names its own
//! [`Special`] kinds; the game's hooks make them and write their text, and `aux` and `piece` carry
//! whatever data the game packs into them (13 bits, [`Move::payload`]).

use super::piece::PieceKind;
use super::square::Square;
use std::fmt;

/// A move kind a game defines for itself: a number from 0 to [`Special::COUNT`] - 1, named by a
/// constant that the game declares with [`special_kinds!`](crate::special_kinds).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Special(pub u8);

impl Special {
    /// How many special kinds a game may name.
    pub const COUNT: u8 = 16;
}

/// Declares a game's own move kinds in one place: a [`Special`] constant for each, numbered from
/// 0 in the order written, and `SPECIALS`, the list of them with their names (the game's
/// `GameModule::SPECIALS`). The macro numbers them, so two kinds of one game cannot share a
/// code; shared pieces (`variants::short`) take their codes from the game that uses them.
///
/// ```
/// mod game {
///     menagerie::special_kinds! {
///         /// A teleport.
///         pub TELEPORT;
///         /// An explosion.
///         pub EXPLODE;
///     }
/// }
/// assert_eq!(game::EXPLODE, menagerie::core::Special(1));
/// assert_eq!(game::SPECIALS[0], (game::TELEPORT, "TELEPORT"));
/// ```
#[macro_export]
macro_rules! special_kinds {
    ($($(#[$meta:meta])* $vis:vis $name:ident;)+) => {
        /// The game's own move kinds in the order declared: their codes.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u8)]
        enum SpecialCode {
            $($name),+
        }
        $(
            $(#[$meta])*
            $vis const $name: $crate::core::Special =
                $crate::core::Special(SpecialCode::$name as u8);
        )+
        /// The game's own move kinds with their names, in code order.
        pub const SPECIALS: &[($crate::core::Special, &str)] = &[$(($name, stringify!($name))),+];
        const _: () = assert!(
            SPECIALS.len() <= $crate::core::Special::COUNT as usize,
            "more special kinds than a move can carry"
        );
    };
}

/// What a move does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// A piece goes from `from` to `to`, capturing whatever stands there.
    Normal,
    /// As `Normal`, and the piece becomes `piece`.
    Promotion,
    /// A capture of the piece on `aux`, which just skipped past `to`.
    EnPassant,
    /// The king goes `from` -> `to`; its partner (Rook or Squire) on `aux` goes where the rules say.
    Castle,
    /// A piece of kind `piece` from the mover's reserve is put on `to`, capturing what stands
    /// there.
    Drop,
    /// The side to move passes.
    Pass,
    /// The piece on `from` becomes `piece` where it stands (a Bishop switching into a Magician).
    Transform,
    /// The piece on `from` captures the piece on `to` without moving.
    Shot,
    /// The piece goes `from` -> `aux` -> `to` in one turn, capturing on `to`.
    TwoLeg,
    /// A kind its game defines.
    Special(Special),
}

/// Packed kind numbers: the core kinds first, the games' own kinds from `SPECIAL_BASE` up.
const CORE_KINDS: [MoveKind; 9] = [
    MoveKind::Normal,
    MoveKind::Promotion,
    MoveKind::EnPassant,
    MoveKind::Castle,
    MoveKind::Drop,
    MoveKind::Pass,
    MoveKind::Transform,
    MoveKind::Shot,
    MoveKind::TwoLeg,
];
const SPECIAL_BASE: u32 = 16;

/// Every packed kind number's kind, so that decoding is one load (numbers between the core kinds
/// and `SPECIAL_BASE` are never packed).
const KINDS: [MoveKind; 32] = {
    let mut t = [MoveKind::Normal; 32];
    let mut i = 0;
    while i < CORE_KINDS.len() {
        t[i] = CORE_KINDS[i];
        i += 1;
    }
    let mut s = 0;
    while s < Special::COUNT {
        t[SPECIAL_BASE as usize + s as usize] = MoveKind::Special(Special(s));
        s += 1;
    }
    t
};

impl MoveKind {
    const fn code(self) -> u32 {
        match self {
            MoveKind::Normal => 0,
            MoveKind::Promotion => 1,
            MoveKind::EnPassant => 2,
            MoveKind::Castle => 3,
            MoveKind::Drop => 4,
            MoveKind::Pass => 5,
            MoveKind::Transform => 6,
            MoveKind::Shot => 7,
            MoveKind::TwoLeg => 8,
            MoveKind::Special(s) => SPECIAL_BASE + s.0 as u32,
        }
    }

    #[inline]
    fn from_code(code: u32) -> MoveKind {
        KINDS[(code & KIND_MASK) as usize]
    }
}

const FROM_SHIFT: u32 = 0;
const TO_SHIFT: u32 = 7;
const AUX_SHIFT: u32 = 14;
const KIND_SHIFT: u32 = 21;
const PIECE_SHIFT: u32 = 26;
const SQ_MASK: u32 = 0x7F;
const KIND_MASK: u32 = 0x1F;
const PIECE_MASK: u32 = 0x3F;
const NO_PIECE: u32 = PIECE_MASK;
const NO_SQUARE: u32 = SQ_MASK;
/// Bits of a special move's payload: `aux` and `piece` together.
pub const PAYLOAD_BITS: u32 = 13;

/// A move, packed into 32 bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u32);

impl Move {
    /// Not a move; fills empty slots.
    pub const NULL: Move = Move(u32::MAX);

    #[inline]
    const fn pack(from: u32, to: u32, aux: u32, kind: MoveKind, piece: u32) -> Move {
        Move(
            from << FROM_SHIFT
                | to << TO_SHIFT
                | aux << AUX_SHIFT
                | kind.code() << KIND_SHIFT
                | piece << PIECE_SHIFT,
        )
    }

    const fn sq(s: Option<Square>) -> u32 {
        match s {
            Some(s) => s.index() as u32,
            None => NO_SQUARE,
        }
    }

    const fn kind_bits(p: Option<PieceKind>) -> u32 {
        match p {
            Some(p) => p.0 as u32,
            None => NO_PIECE,
        }
    }

    /// A move of any kind from its parts.
    #[inline]
    pub const fn new(
        kind: MoveKind,
        from: Square,
        to: Square,
        aux: Option<Square>,
        piece: Option<PieceKind>,
    ) -> Move {
        Move::pack(
            from.index() as u32,
            to.index() as u32,
            Move::sq(aux),
            kind,
            Move::kind_bits(piece),
        )
    }

    /// A plain move or capture.
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::new(MoveKind::Normal, from, to, None, None)
    }

    /// A move that promotes to `piece`.
    #[inline]
    pub const fn promotion(from: Square, to: Square, piece: PieceKind) -> Move {
        Move::new(MoveKind::Promotion, from, to, None, Some(piece))
    }

    /// An en-passant capture of the piece on `victim`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square, victim: Square) -> Move {
        Move::new(MoveKind::EnPassant, from, to, Some(victim), None)
    }

    /// Castling: the king from `from` to `to`, with the partner on `partner`.
    #[inline]
    pub const fn castle(from: Square, to: Square, partner: Square) -> Move {
        Move::new(MoveKind::Castle, from, to, Some(partner), None)
    }

    /// A drop of `piece` on `to`.
    #[inline]
    pub const fn drop(piece: PieceKind, to: Square) -> Move {
        Move::new(MoveKind::Drop, to, to, None, Some(piece))
    }

    /// The piece on `sq` becomes `piece` in place.
    #[inline]
    pub const fn transform(sq: Square, piece: PieceKind) -> Move {
        Move::new(MoveKind::Transform, sq, sq, None, Some(piece))
    }

    /// The piece on `from` captures on `to` without moving.
    #[inline]
    pub const fn shot(from: Square, to: Square) -> Move {
        Move::new(MoveKind::Shot, from, to, None, None)
    }

    /// The piece goes `from` -> `mid` -> `to`.
    #[inline]
    pub const fn two_leg(from: Square, mid: Square, to: Square) -> Move {
        Move::new(MoveKind::TwoLeg, from, to, Some(mid), None)
    }

    /// A game's own kind of move with a raw payload of [`PAYLOAD_BITS`] bits in the `aux` and
    /// `piece` fields (the game decides what they mean).
    #[inline]
    pub const fn with_payload(kind: Special, from: Square, to: Square, payload: u16) -> Move {
        let p = payload as u32 & ((1 << PAYLOAD_BITS) - 1);
        Move::pack(
            from.index() as u32,
            to.index() as u32,
            p & SQ_MASK,
            MoveKind::Special(kind),
            p >> 7,
        )
    }

    /// A pass.
    #[inline]
    pub const fn pass() -> Move {
        Move::pack(0, 0, NO_SQUARE, MoveKind::Pass, NO_PIECE)
    }

    /// Origin square (for a drop, the target; for a pass, meaningless).
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 >> FROM_SHIFT & SQ_MASK) as u8)
    }

    /// Target square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> TO_SHIFT & SQ_MASK) as u8)
    }

    /// The third square: en-passant victim, castling partner, or a two-leg move's middle square.
    #[inline]
    pub fn aux(self) -> Option<Square> {
        let a = self.0 >> AUX_SHIFT & SQ_MASK;
        (a != NO_SQUARE).then(|| Square::from_index(a as u8))
    }

    /// What the move does.
    #[inline]
    pub fn kind(self) -> MoveKind {
        MoveKind::from_code(self.0 >> KIND_SHIFT & KIND_MASK)
    }

    /// Whether the move is a plain move, capture or promotion (`Normal` or `Promotion`), the
    /// kinds the legality filter may decide without making them.
    #[inline]
    pub fn is_ordinary(self) -> bool {
        self.0 >> KIND_SHIFT & KIND_MASK <= 1
    }

    /// Whether the move is of a game's own kind `s`.
    #[inline]
    pub fn is(self, s: Special) -> bool {
        self.0 >> KIND_SHIFT & KIND_MASK == SPECIAL_BASE + s.0 as u32
    }

    /// The piece kind a promotion, drop or transformation produces.
    #[inline]
    pub fn piece(self) -> Option<PieceKind> {
        let p = self.0 >> PIECE_SHIFT & PIECE_MASK;
        (p != NO_PIECE).then_some(PieceKind(p as u8))
    }

    /// The raw payload of a game's own kind of move (see [`Move::with_payload`]).
    #[inline]
    pub const fn payload(self) -> u16 {
        ((self.0 >> AUX_SHIFT & SQ_MASK) | (self.0 >> PIECE_SHIFT & PIECE_MASK) << 7) as u16
    }

    /// The packed bits.
    #[inline]
    pub const fn to_bits(self) -> u32 {
        self.0
    }

    /// A move from its packed bits (as stored in the transposition table).
    #[inline]
    pub const fn from_bits(bits: u32) -> Move {
        Move(bits)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move::NULL {
            return write!(f, "NULL");
        }
        write!(f, "{:?}({}{}", self.kind(), self.from(), self.to())?;
        if let Some(a) = self.aux() {
            write!(f, " aux {a}")?;
        }
        if let Some(p) = self.piece() {
            write!(f, " piece {}", p.0)?;
        }
        write!(f, ")")
    }
}

/// Moves one list holds on the stack; a list that grows past it moves to the heap, so no move is
/// ever lost (Afterlife's whole-turn moves can number in the thousands).
pub const MAX_MOVES: usize = 512;

/// A list of moves, kept on the stack up to [`MAX_MOVES`] and on the heap beyond.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
    /// Every move, once the list outgrew the stack array; empty until then.
    spill: Vec<Move>,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
            spill: Vec::new(),
        }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
        } else {
            self.grow(m);
        }
        self.len += 1;
    }

    #[cold]
    fn grow(&mut self, m: Move) {
        if self.spill.is_empty() {
            self.spill.reserve(2 * MAX_MOVES);
            self.spill.extend_from_slice(&self.moves);
        }
        self.spill.push(m);
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }

    /// Keeps the moves for which `keep` holds, in order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let len = self.len;
        let slice = self.as_mut_slice();
        let mut j = 0;
        for i in 0..len {
            let m = slice[i];
            if keep(m) {
                slice[j] = m;
                j += 1;
            }
        }
        self.len = j;
        if !self.spill.is_empty() {
            self.spill.truncate(j);
        }
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        if self.spill.is_empty() {
            &self.moves[..self.len]
        } else {
            &self.spill
        }
    }

    #[inline]
    fn as_mut_slice(&mut self) -> &mut [Move] {
        if self.spill.is_empty() {
            &mut self.moves[..self.len]
        } else {
            &mut self.spill
        }
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Swaps two moves.
    #[inline]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.as_mut_slice().swap(a, b);
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, iter: I) {
        for m in iter {
            self.push(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn every_kind_packs_and_unpacks() {
        let m = Move::normal(sq("a1"), sq("l10"));
        assert_eq!(
            (m.from(), m.to(), m.kind(), m.aux(), m.piece()),
            (sq("a1"), sq("l10"), MoveKind::Normal, None, None)
        );
        let p = Move::promotion(sq("e7"), sq("e8"), PieceKind(31));
        assert_eq!(
            (p.kind(), p.piece()),
            (MoveKind::Promotion, Some(PieceKind(31)))
        );
        let e = Move::en_passant(sq("e5"), sq("d6"), sq("d5"));
        assert_eq!((e.kind(), e.aux()), (MoveKind::EnPassant, Some(sq("d5"))));
        let c = Move::castle(sq("e1"), sq("g1"), sq("h1"));
        assert_eq!((c.kind(), c.aux()), (MoveKind::Castle, Some(sq("h1"))));
        let d = Move::drop(PieceKind(15), sq("j10"));
        assert_eq!(
            (d.kind(), d.to(), d.piece()),
            (MoveKind::Drop, sq("j10"), Some(PieceKind(15)))
        );
        let mut kinds = CORE_KINDS.to_vec();
        kinds.extend((0..Special::COUNT).map(|s| MoveKind::Special(Special(s))));
        for kind in kinds {
            let s = Move::new(kind, sq("b2"), sq("c3"), Some(sq("d4")), Some(PieceKind(0)));
            assert_eq!(
                (s.kind(), s.from(), s.to(), s.aux(), s.piece()),
                (kind, sq("b2"), sq("c3"), Some(sq("d4")), Some(PieceKind(0)))
            );
        }
        assert_eq!(Move::pass().kind(), MoveKind::Pass);
        assert_ne!(Move::NULL.kind(), MoveKind::Normal);
    }

    #[test]
    fn payloads_round_trip() {
        for payload in [0u16, 1, 127, 128, 4095, 8191] {
            let m = Move::with_payload(Special(5), sq("a1"), sq("b2"), payload);
            assert_eq!(m.payload(), payload);
            assert!(m.is(Special(5)) && !m.is(Special(4)));
            assert_eq!(m.kind(), MoveKind::Special(Special(5)));
        }
    }

    #[test]
    fn same_squares_different_kinds_differ() {
        let plain = Move::normal(sq("e5"), sq("d6"));
        let ep = Move::en_passant(sq("e5"), sq("d6"), sq("d5"));
        let boom = Move::new(
            MoveKind::Special(Special(0)),
            sq("e5"),
            sq("d6"),
            None,
            None,
        );
        assert_ne!(plain, ep);
        assert_ne!(plain, boom);
    }

    #[test]
    fn list_retains_in_order() {
        let mut list = MoveList::new();
        for i in 0..10u8 {
            list.push(Move::normal(
                Square::from_index(i),
                Square::from_index(i + 1),
            ));
        }
        list.retain(|m| m.from().index() % 2 == 0);
        assert_eq!(list.len(), 5);
        assert_eq!(list.as_slice()[1].from().index(), 2);
    }

    #[test]
    fn a_long_list_keeps_every_move() {
        let mut list = MoveList::new();
        let n = 3 * MAX_MOVES + 7;
        for i in 0..n {
            list.push(Move::with_payload(Special(0), sq("a1"), sq("a2"), i as u16));
        }
        assert_eq!(list.len(), n);
        assert_eq!(list.iter().count(), n);
        assert!(list
            .iter()
            .enumerate()
            .all(|(i, m)| m.payload() == i as u16));
        list.retain(|m| m.payload() % 2 == 1);
        assert_eq!(list.len(), n / 2);
        list.swap(0, 1);
        assert_eq!(list.as_slice()[0].payload(), 3);
    }
}
