//! One compact move type for every game, and a fixed-capacity move list.
//!
//! A move packs into 32 bits: `from` (7 bits), `to` (7), `aux` (7, a third square whose meaning
//! depends on the kind), the kind (4) and a piece kind (5, for promotions, drops and switches).
//! Whether a `Normal` move captures is read from the board, not stored. Two moves with the same
//! squares but different effects (an en-passant capture beside a plain diagonal step, a step
//! capture beside an explosion) differ in kind, so they are different moves with different text
//! forms (`crate::notation`).

use super::piece::PieceKind;
use super::square::Square;
use std::fmt;

/// What a move does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum MoveKind {
    /// A piece goes from `from` to `to`, capturing whatever enemy stands there.
    Normal = 0,
    /// As `Normal`, and the piece becomes `piece`.
    Promotion = 1,
    /// A capture of the piece on `aux`, which just skipped past `to` (one of up to two skipped squares).
    EnPassant = 2,
    /// The king goes `from` -> `to`; its partner (Rook or Squire) on `aux` goes where the rules say.
    Castle = 3,
    /// A piece of kind `piece` from the mover's reserve is put on `to`.
    Drop = 4,
    /// The piece on `from` captures the piece on `to` without moving.
    Shot = 5,
    /// The piece on `from` becomes `piece` in place (a Bishop switching into a Magician).
    Switch = 6,
    /// The piece on `from` steps onto the friendly piece on `to` and merges with it.
    Merge = 7,
    /// The piece goes `from` -> `aux` -> `to` in one turn.
    TwoLeg = 8,
    /// The piece on `from` destroys itself together with the piece on `to`.
    Explode = 9,
    /// A multi-square piece anchored on `from` shifts so that it is anchored on `to`.
    ShieldShift = 10,
    /// A third-party action (Nature) moving the piece on `from` to `to`.
    Nature = 11,
    /// The side to move passes.
    Pass = 12,
    /// A move from `from` to `to` (a plain step, a capture or en passant, as the position says)
    /// that also turns the mover's piece on `aux` into `piece` (Magician's Deathmatch: a pawn
    /// entering its 6th rank promotes a Magician).
    AlsoPromote = 13,
    /// A piece's once-per-game teleport from `from` to `to` (`piece` names the piece's own kind);
    /// it differs from an ordinary step onto the same square by using up the teleport.
    Teleport = 14,
}

impl MoveKind {
    const ALL: [MoveKind; 15] = [
        MoveKind::Normal,
        MoveKind::Promotion,
        MoveKind::EnPassant,
        MoveKind::Castle,
        MoveKind::Drop,
        MoveKind::Shot,
        MoveKind::Switch,
        MoveKind::Merge,
        MoveKind::TwoLeg,
        MoveKind::Explode,
        MoveKind::ShieldShift,
        MoveKind::Nature,
        MoveKind::Pass,
        MoveKind::AlsoPromote,
        MoveKind::Teleport,
    ];
}

const SQ_MASK: u32 = 0x7F;
const NO_PIECE: u32 = 0x1F;
const NO_SQUARE: u32 = 0x7F;

/// A move, packed into 32 bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u32);

impl Move {
    /// Not a move; fills empty slots.
    pub const NULL: Move = Move(u32::MAX);

    #[inline]
    const fn pack(from: u32, to: u32, aux: u32, kind: MoveKind, piece: u32) -> Move {
        Move(from | to << 7 | aux << 14 | (kind as u32) << 21 | piece << 25)
    }

    /// A plain move or capture.
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(
            from.index() as u32,
            to.index() as u32,
            NO_SQUARE,
            MoveKind::Normal,
            NO_PIECE,
        )
    }

    /// A move that promotes to `piece`.
    #[inline]
    pub const fn promotion(from: Square, to: Square, piece: PieceKind) -> Move {
        Move::pack(
            from.index() as u32,
            to.index() as u32,
            NO_SQUARE,
            MoveKind::Promotion,
            piece.0 as u32,
        )
    }

    /// An en-passant capture of the piece on `victim`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square, victim: Square) -> Move {
        Move::pack(
            from.index() as u32,
            to.index() as u32,
            victim.index() as u32,
            MoveKind::EnPassant,
            NO_PIECE,
        )
    }

    /// Castling: the king from `from` to `to`, with the partner on `partner`.
    #[inline]
    pub const fn castle(from: Square, to: Square, partner: Square) -> Move {
        Move::pack(
            from.index() as u32,
            to.index() as u32,
            partner.index() as u32,
            MoveKind::Castle,
            NO_PIECE,
        )
    }

    /// A drop of `piece` on `to`.
    #[inline]
    pub const fn drop(piece: PieceKind, to: Square) -> Move {
        Move::pack(
            to.index() as u32,
            to.index() as u32,
            NO_SQUARE,
            MoveKind::Drop,
            piece.0 as u32,
        )
    }

    /// A move of a kind that uses `from`, `to` and optionally `aux` and `piece`
    /// (shot, switch, merge, two legs, explosion, shield shift, Nature).
    #[inline]
    pub const fn special(
        kind: MoveKind,
        from: Square,
        to: Square,
        aux: Option<Square>,
        piece: Option<PieceKind>,
    ) -> Move {
        let aux = match aux {
            Some(s) => s.index() as u32,
            None => NO_SQUARE,
        };
        let piece = match piece {
            Some(p) => p.0 as u32,
            None => NO_PIECE,
        };
        Move::pack(from.index() as u32, to.index() as u32, aux, kind, piece)
    }

    /// A pass.
    #[inline]
    pub const fn pass() -> Move {
        Move::pack(0, 0, NO_SQUARE, MoveKind::Pass, NO_PIECE)
    }

    /// Origin square (for a drop, the target; for a pass, meaningless).
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & SQ_MASK) as u8)
    }

    /// Target square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 7 & SQ_MASK) as u8)
    }

    /// The third square: en-passant victim, castling partner, or a two-leg move's middle square.
    #[inline]
    pub fn aux(self) -> Option<Square> {
        let a = self.0 >> 14 & SQ_MASK;
        (a != NO_SQUARE).then(|| Square::from_index(a as u8))
    }

    /// What the move does.
    #[inline]
    pub fn kind(self) -> MoveKind {
        MoveKind::ALL[(self.0 >> 21 & 0xF) as usize]
    }

    /// The piece kind a promotion, drop or switch produces.
    #[inline]
    pub fn piece(self) -> Option<PieceKind> {
        let p = self.0 >> 25 & NO_PIECE;
        (p != NO_PIECE).then_some(PieceKind(p as u8))
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

/// Most moves one list holds. The widest position of any supported game stays far below.
pub const MAX_MOVES: usize = 512;

/// A fixed-capacity list of moves, kept on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
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
        }
    }

    /// Appends a move. A list that is full drops the move; generators never reach the capacity
    /// in real positions, and debug builds assert it.
    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES, "move list overflow");
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
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
    }

    /// Keeps the moves for which `keep` holds, in order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Swaps two moves.
    #[inline]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.moves[..self.len].swap(a, b);
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
        let p = Move::promotion(sq("e7"), sq("e8"), PieceKind(4));
        assert_eq!(
            (p.kind(), p.piece()),
            (MoveKind::Promotion, Some(PieceKind(4)))
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
        for kind in MoveKind::ALL {
            let s = Move::special(kind, sq("b2"), sq("c3"), Some(sq("d4")), Some(PieceKind(0)));
            assert_eq!(
                (s.kind(), s.from(), s.to(), s.aux(), s.piece()),
                (kind, sq("b2"), sq("c3"), Some(sq("d4")), Some(PieceKind(0)))
            );
        }
        assert_eq!(Move::pass().kind(), MoveKind::Pass);
    }

    #[test]
    fn same_squares_different_kinds_differ() {
        let plain = Move::normal(sq("e5"), sq("d6"));
        let ep = Move::en_passant(sq("e5"), sq("d6"), sq("d5"));
        let boom = Move::special(MoveKind::Explode, sq("e5"), sq("d6"), None, None);
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
}
