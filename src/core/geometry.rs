//! The shape of a board: a rectangle of up to 12 files by 10 ranks, minus holes, with named
//! regions. Afterlife's four boards, for example, are one rectangle whose unused squares are
//! holes and whose boards are regions that bound movement (`with_board`): no leap or ride of a
//! piece ends on another board than the one it starts on.

use super::bitboard::Bitboard;
use super::color::Color;
use super::square::{Square, MAX_FILES, MAX_RANKS, NUM_SQUARES};

/// Board shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    files: u8,
    ranks: u8,
    holes: Bitboard,
    board: Bitboard,
    regions: Vec<(&'static str, Bitboard)>,
    /// Per square, the number of the board it belongs to (0 when the geometry has no separate
    /// boards, or for squares outside every board).
    board_id: Vec<u8>,
}

/// Why a geometry cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GeometryError {
    /// Width or height out of range.
    Size { files: u8, ranks: u8 },
    /// A hole or region square lies outside the rectangle.
    Outside(Square),
    /// A square belongs to two boards.
    Overlap(Square),
}

impl std::fmt::Display for GeometryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GeometryError::Size { files, ranks } => {
                write!(
                    f,
                    "a board of {files}x{ranks} is outside 1x1..{MAX_FILES}x{MAX_RANKS}"
                )
            }
            GeometryError::Outside(sq) => write!(f, "square {sq} lies outside the board"),
            GeometryError::Overlap(sq) => write!(f, "square {sq} belongs to two boards"),
        }
    }
}

impl Geometry {
    /// A full rectangle.
    pub fn rectangle(files: u8, ranks: u8) -> Result<Geometry, GeometryError> {
        if files == 0 || ranks == 0 || files > MAX_FILES || ranks > MAX_RANKS {
            return Err(GeometryError::Size { files, ranks });
        }
        let rect: Bitboard = Square::all()
            .filter(|s| s.file() < files && s.rank() < ranks)
            .collect();
        Ok(Geometry {
            files,
            ranks,
            holes: Bitboard::EMPTY,
            board: rect,
            regions: Vec::new(),
            board_id: vec![0; NUM_SQUARES],
        })
    }

    /// The same rectangle with `holes` taken out: no piece stands on a hole and no line passes it.
    pub fn with_holes(mut self, holes: Bitboard) -> Result<Geometry, GeometryError> {
        if let Some(sq) = (holes & !self.board).first() {
            return Err(GeometryError::Outside(sq));
        }
        self.holes |= holes;
        self.board &= !holes;
        Ok(self)
    }

    /// Adds a named region (a set of playable squares).
    pub fn with_region(
        mut self,
        name: &'static str,
        squares: Bitboard,
    ) -> Result<Geometry, GeometryError> {
        if let Some(sq) = (squares & !self.board).first() {
            return Err(GeometryError::Outside(sq));
        }
        self.regions.push((name, squares));
        Ok(self)
    }

    /// Adds a named region that is a board of its own: pieces never move off it (Afterlife's
    /// World, Hall of Truth, Limbo and Twelve Hours). Boards must not overlap.
    pub fn with_board(
        mut self,
        name: &'static str,
        squares: Bitboard,
    ) -> Result<Geometry, GeometryError> {
        if let Some(sq) = squares.into_iter().find(|s| self.board_id[s.index()] != 0) {
            return Err(GeometryError::Overlap(sq));
        }
        let id = 1 + self.regions.len() as u8;
        self = self.with_region(name, squares)?;
        for sq in squares {
            self.board_id[sq.index()] = id;
        }
        Ok(self)
    }

    /// Whether a piece on `from` may end a move on `to`: both lie on the same board (always, on a
    /// geometry without separate boards).
    #[inline]
    pub fn same_board(&self, from: Square, to: Square) -> bool {
        self.board_id[from.index()] == self.board_id[to.index()]
    }

    /// The squares of the board `sq` lies on (the whole playing area without separate boards).
    pub fn board_of(&self, sq: Square) -> Bitboard {
        self.board
            .into_iter()
            .filter(|&s| self.same_board(s, sq))
            .collect()
    }

    /// A rank counted from `color`'s side: 0 is White's rank 1 for White and the last rank for
    /// Black.
    #[inline]
    pub fn relative_rank(&self, color: Color, sq: Square) -> u8 {
        if color == Color::Black {
            self.ranks - 1 - sq.rank()
        } else {
            sq.rank()
        }
    }

    /// The playable squares of the given ranks counted from `color`'s side.
    pub fn ranks_of(&self, color: Color, ranks: &[u8]) -> Bitboard {
        self.board
            .into_iter()
            .filter(|&s| ranks.contains(&self.relative_rank(color, s)))
            .collect()
    }

    /// Number of files.
    #[inline]
    pub fn files(&self) -> u8 {
        self.files
    }

    /// Number of ranks.
    #[inline]
    pub fn ranks(&self) -> u8 {
        self.ranks
    }

    /// Playable squares (the rectangle minus holes).
    #[inline]
    pub fn board(&self) -> Bitboard {
        self.board
    }

    /// Squares of the rectangle that are not playable.
    #[inline]
    pub fn holes(&self) -> Bitboard {
        self.holes
    }

    /// Whether `sq` is playable.
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.board.contains(sq)
    }

    /// Whether `sq` is inside the rectangle (playable or a hole).
    #[inline]
    pub fn in_rectangle(&self, sq: Square) -> bool {
        sq.file() < self.files && sq.rank() < self.ranks
    }

    /// A named region.
    pub fn region(&self, name: &str) -> Option<Bitboard> {
        self.regions
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, bb)| bb)
    }

    /// All regions, in the order they were added.
    pub fn regions(&self) -> &[(&'static str, Bitboard)] {
        &self.regions
    }

    /// All squares of one rank (playable ones).
    pub fn rank_mask(&self, rank: u8) -> Bitboard {
        Square::all()
            .filter(|s| s.rank() == rank)
            .collect::<Bitboard>()
            & self.board
    }

    /// The square from White's point of view at `file`, `rank`, if playable.
    pub fn square(&self, file: u8, rank: u8) -> Option<Square> {
        Square::new(file, rank).filter(|&s| self.contains(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles_and_holes() {
        let g = Geometry::rectangle(10, 10).unwrap();
        assert_eq!(g.board().count(), 100);
        let j10 = Square::parse("j10").unwrap();
        assert!(g.contains(j10));
        assert!(!g.contains(Square::parse("k1").unwrap()));
        let g = g.with_holes(Bitboard::from_square(j10)).unwrap();
        assert_eq!(g.board().count(), 99);
        assert!(!g.contains(j10) && g.in_rectangle(j10));
        assert!(Geometry::rectangle(13, 8).is_err());
        assert!(Geometry::rectangle(8, 0).is_err());
        let k1 = Square::parse("k1").unwrap();
        assert_eq!(
            g.clone().with_holes(Bitboard::from_square(k1)),
            Err(GeometryError::Outside(k1))
        );
    }

    #[test]
    fn named_regions() {
        let limbo = Bitboard::from_square(Square::parse("e4").unwrap());
        let g = Geometry::rectangle(8, 8)
            .unwrap()
            .with_region("limbo", limbo)
            .unwrap();
        assert_eq!(g.region("limbo"), Some(limbo));
        assert_eq!(g.region("hall"), None);
        assert_eq!(g.rank_mask(0).count(), 8);
    }

    #[test]
    fn boards_bound_movement() {
        let sq = |s: &str| Square::parse(s).unwrap();
        let left: Bitboard = ["a1", "b1"].map(sq).into_iter().collect();
        let right: Bitboard = ["d1"].map(sq).into_iter().collect();
        let g = Geometry::rectangle(4, 1)
            .unwrap()
            .with_holes(Bitboard::from_square(sq("c1")))
            .unwrap()
            .with_board("left", left)
            .unwrap()
            .with_board("right", right)
            .unwrap();
        assert!(g.same_board(sq("a1"), sq("b1")));
        assert!(!g.same_board(sq("b1"), sq("d1")));
        assert_eq!(g.board_of(sq("a1")), left);
        assert_eq!(
            g.clone().with_board("again", left),
            Err(GeometryError::Overlap(sq("a1")))
        );
        assert_eq!(g.relative_rank(Color::Black, sq("a1")), 0);
        assert_eq!(g.ranks_of(Color::White, &[0]).count(), 3);
    }
}
