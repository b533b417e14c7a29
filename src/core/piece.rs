//! Pieces: a kind (an index into the variant's piece catalogue) and a colour, and sets of kinds.

use super::color::Color;

/// Most piece kinds one variant may define.
pub const MAX_KINDS: usize = 32;

/// A piece kind: an index into the variant's catalogue (`Rules::kinds`). Variant modules name
/// their kinds with constants checked against the catalogue's letters (`Rules::check_named`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct PieceKind(pub u8);

impl PieceKind {
    /// Index into per-kind tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Every kind of a catalogue of `n` kinds.
    pub fn all(n: usize) -> impl Iterator<Item = PieceKind> {
        (0..n.min(MAX_KINDS) as u8).map(PieceKind)
    }
}

/// Bits of the kind in a packed [`Piece`].
const KIND_BITS: u8 = 5;
const KIND_MASK: u8 = (1 << KIND_BITS) - 1;

/// A coloured piece, packed as `colour * 32 + kind`; [`Piece::NONE`] marks an empty square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(u8);

impl Piece {
    /// No piece.
    pub const NONE: Piece = Piece(0xFF);

    /// The piece of this colour and kind.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece((color as u8) << KIND_BITS | kind.0)
    }

    /// Whether this is a real piece.
    #[inline]
    pub const fn is_some(self) -> bool {
        self.0 != 0xFF
    }

    /// Whether this is [`Piece::NONE`].
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0xFF
    }

    /// The colour; meaningless for `NONE`.
    #[inline]
    pub const fn color(self) -> Color {
        Color::from_index((self.0 >> KIND_BITS) as usize)
    }

    /// The kind; meaningless for `NONE`.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        PieceKind(self.0 & KIND_MASK)
    }

    /// The packed byte, for hashing.
    #[inline]
    pub const fn to_u8(self) -> u8 {
        self.0
    }
}

/// A set of piece kinds, one bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct KindSet(u32);

impl KindSet {
    /// The empty set.
    pub const EMPTY: KindSet = KindSet(0);

    /// The set of one kind.
    #[inline]
    pub const fn of(k: PieceKind) -> KindSet {
        KindSet(1 << k.0)
    }

    /// Whether `k` is in the set.
    #[inline]
    pub const fn contains(self, k: PieceKind) -> bool {
        self.0 >> k.0 & 1 != 0
    }

    /// Adds `k`.
    #[inline]
    pub fn insert(&mut self, k: PieceKind) {
        self.0 |= 1 << k.0;
    }

    /// Removes `k`.
    #[inline]
    pub fn remove(&mut self, k: PieceKind) {
        self.0 &= !(1 << k.0);
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds a kind.
    #[inline]
    pub const fn nonempty(self) -> bool {
        self.0 != 0
    }

    /// The kinds in both sets.
    #[inline]
    pub const fn and(self, other: KindSet) -> KindSet {
        KindSet(self.0 & other.0)
    }

    /// The kinds in either set.
    #[inline]
    pub const fn or(self, other: KindSet) -> KindSet {
        KindSet(self.0 | other.0)
    }

    /// The kinds of `self` not in `other`.
    #[inline]
    pub const fn without(self, other: KindSet) -> KindSet {
        KindSet(self.0 & !other.0)
    }
}

/// The kinds of the set, lowest first.
impl Iterator for KindSet {
    type Item = PieceKind;

    #[inline]
    fn next(&mut self) -> Option<PieceKind> {
        if self.0 == 0 {
            return None;
        }
        let k = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(PieceKind(k))
    }
}

impl FromIterator<PieceKind> for KindSet {
    fn from_iter<I: IntoIterator<Item = PieceKind>>(iter: I) -> Self {
        let mut set = KindSet::EMPTY;
        for k in iter {
            set.insert(k);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_pack_every_kind_and_colour() {
        for c in Color::ALL {
            for k in PieceKind::all(MAX_KINDS) {
                let p = Piece::new(c, k);
                assert!(p.is_some());
                assert_eq!((p.color(), p.kind()), (c, k));
            }
        }
    }

    #[test]
    fn kind_sets() {
        let set: KindSet = [PieceKind(0), PieceKind(31), PieceKind(7)]
            .into_iter()
            .collect();
        assert!(set.contains(PieceKind(31)) && !set.contains(PieceKind(30)));
        assert_eq!(
            set.collect::<Vec<_>>(),
            vec![PieceKind(0), PieceKind(7), PieceKind(31)]
        );
        assert_eq!(set.without(KindSet::of(PieceKind(7))).count(), 2);
    }
}
