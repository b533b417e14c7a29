//! What a variant *is*, as data: its board, its piece catalogue (movement in Betza-like text),
//! promotion, castling and end rules. [`RuleSpec`] is written by a variant module and compiled
//! once into [`Rules`], which holds the per-square tables the move generator reads.

pub mod betza;
mod tables;

pub use betza::{Atom, BetzaError, Modality};
pub use tables::{Direction, Tables};

use crate::core::{Bitboard, Color, Geometry, PieceKind, Square, MAX_KINDS};
use std::fmt;

/// One piece type of a variant.
#[derive(Clone, Debug)]
pub struct PieceSpec {
    /// FEN letter (upper case; Black's pieces print in lower case).
    pub letter: char,
    /// English name.
    pub name: &'static str,
    /// Movement, in the notation of [`betza`].
    pub betza: &'static str,
    /// Whether losing it loses the game (it may not be left attacked).
    pub royal: bool,
    /// Whether it makes and takes en-passant captures (after a lame initial leap).
    pub en_passant: bool,
    /// Whether its moves are irreversible like a pawn's (they reset the fifty-move count).
    pub pawn: bool,
    /// Letters of the kinds it may promote to on reaching the promotion zone; empty if none.
    pub promotes_to: &'static str,
    /// Whether the position remembers if this piece has moved (kings and castling partners).
    pub tracks_moved: bool,
    /// Ranks, counted from the owner's side starting at 0, where its `i` moves are allowed.
    pub initial_ranks: &'static [u8],
    /// Material value in centipawns; 0 lets the evaluation estimate it from the piece's mobility.
    pub value: i32,
    /// Leaps that depend on the square in ways the notation cannot say (Magician's Home-File
    /// Transference): targets from a square, for moves and captures alike. Compiled into the
    /// tables, so generation and attack detection both see them.
    pub extra_leaps: Option<fn(&Geometry, Color, Square) -> Bitboard>,
    /// Movement that depends on the file the piece stands on (David Short's Schizzies), in
    /// addition to `betza`: on files `first..=last` it also moves by that face's notation.
    pub faces: &'static [Face],
}

/// One face of a piece whose movement depends on its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Face {
    /// First file (0 = a) where this face applies.
    pub first: u8,
    /// Last file where it applies.
    pub last: u8,
    /// Its movement, in the notation of [`betza`].
    pub betza: &'static str,
}

impl PieceSpec {
    /// An ordinary piece with the given letter, name and movement.
    pub const fn new(letter: char, name: &'static str, betza: &'static str) -> PieceSpec {
        PieceSpec {
            letter,
            name,
            betza,
            royal: false,
            en_passant: false,
            pawn: false,
            promotes_to: "",
            tracks_moved: false,
            initial_ranks: &[],
            value: 0,
            extra_leaps: None,
            faces: &[],
        }
    }
}

/// How turns follow each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TurnSchedule {
    /// If set, the neutral side takes a turn after every this many player plies (Chaos's Nature).
    pub third_party_every: Option<u16>,
}

/// One castling move: where the king and its partner start and end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastleSpec {
    /// Whose castling it is.
    pub color: Color,
    /// FEN letter granting it (`K`, `Q`, `k`, `q`).
    pub letter: char,
    /// The king's kind.
    pub king: PieceKind,
    /// The partner's kind (Rook, Squire).
    pub partner: PieceKind,
    /// King start.
    pub king_from: Square,
    /// King end.
    pub king_to: Square,
    /// Partner start.
    pub partner_from: Square,
    /// Partner end.
    pub partner_to: Square,
    /// Squares that must be empty (other than the king and partner themselves).
    pub must_be_empty: Bitboard,
    /// Squares the king stands on or crosses, none of which may be attacked.
    pub must_be_safe: Bitboard,
}

/// A variant as its module writes it.
#[derive(Clone, Debug)]
pub struct RuleSpec {
    /// Name used in every protocol.
    pub name: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// Board shape.
    pub geometry: Geometry,
    /// Piece catalogue; the index is the [`PieceKind`].
    pub pieces: Vec<PieceSpec>,
    /// Start position in FEN.
    pub start_fen: &'static str,
    /// Castling moves.
    pub castling: Vec<CastleSpec>,
    /// Ranks, counted from the owner's side from 0, where promotion happens.
    pub promotion_ranks: Vec<u8>,
    /// Plies without capture or pawn move after which the game is drawn (0: never).
    pub fifty_move_plies: u16,
    /// Occurrences of a position that draw the game (0: never).
    pub repetition_count: u8,
    /// Turn order.
    pub schedule: TurnSchedule,
    /// XBoard's own name for this game when XBoard knows its rules (`normal`); XBoard is then not
    /// sent `setup` and `piece` lines.
    pub xboard_builtin: Option<&'static str>,
}

/// Why a [`RuleSpec`] cannot be compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// More piece kinds than [`MAX_KINDS`].
    TooManyKinds(usize),
    /// Two kinds share a letter.
    DuplicateLetter(char),
    /// A piece's movement does not parse.
    Betza(char, BetzaError),
    /// A promotion letter names no kind.
    UnknownPromotion(char, char),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::TooManyKinds(n) => {
                write!(f, "{n} piece kinds, at most {MAX_KINDS} are supported")
            }
            RulesError::DuplicateLetter(c) => write!(f, "two piece kinds use the letter {c}"),
            RulesError::Betza(c, e) => write!(f, "piece {c}: {e}"),
            RulesError::UnknownPromotion(c, p) => write!(
                f,
                "piece {c} promotes to {p}, which is not a piece of this variant"
            ),
        }
    }
}

/// Compiled facts about one piece kind.
#[derive(Clone, Debug)]
pub struct KindInfo {
    /// The spec it was compiled from.
    pub spec: PieceSpec,
    /// Atoms from White's side.
    pub atoms: Vec<Atom>,
    /// Kinds it may promote to.
    pub promotions: Vec<PieceKind>,
}

/// A compiled variant: the spec plus tables.
#[derive(Debug)]
pub struct Rules {
    /// The spec.
    pub spec: RuleSpec,
    /// Per-kind facts.
    pub kinds: Vec<KindInfo>,
    /// Per-square tables.
    pub tables: Tables,
    /// Royal kinds.
    pub royal: Bitboard16,
    /// Kinds that track whether they have moved.
    pub tracks_moved: Bitboard16,
    /// Kinds that take part in en passant.
    pub en_passant: Bitboard16,
    /// Promotion squares per side.
    pub promotion_zone: [Bitboard; 3],
    /// Kinds that take part in castling; whether they moved is told by the FEN castling field.
    pub castling_kinds: Bitboard16,
    castling_squares: Bitboard,
}

/// A set of piece kinds, one bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Bitboard16(pub u16);

impl Bitboard16 {
    /// Whether `k` is in the set.
    #[inline]
    pub fn contains(self, k: PieceKind) -> bool {
        self.0 >> k.0 & 1 != 0
    }

    /// Adds `k`.
    pub fn insert(&mut self, k: PieceKind) {
        self.0 |= 1 << k.0;
    }

    /// Kinds in the set.
    pub fn iter(self) -> impl Iterator<Item = PieceKind> {
        (0..16u8)
            .filter(move |i| self.0 >> i & 1 != 0)
            .map(PieceKind)
    }
}

impl Rules {
    /// Compiles a spec.
    pub fn compile(spec: RuleSpec) -> Result<Rules, RulesError> {
        if spec.pieces.len() > MAX_KINDS {
            return Err(RulesError::TooManyKinds(spec.pieces.len()));
        }
        let mut kinds = Vec::new();
        for (i, p) in spec.pieces.iter().enumerate() {
            if spec.pieces[..i].iter().any(|q| q.letter == p.letter) {
                return Err(RulesError::DuplicateLetter(p.letter));
            }
            // An empty description is a piece whose every move is a variant's hook (the Bobber).
            let mut atoms = if p.betza.is_empty() {
                Vec::new()
            } else {
                betza::parse(p.betza).map_err(|e| RulesError::Betza(p.letter, e))?
            };
            for face in p.faces {
                let face_atoms =
                    betza::parse(face.betza).map_err(|e| RulesError::Betza(p.letter, e))?;
                atoms.extend(face_atoms.into_iter().map(|a| betza::Atom {
                    files: (face.first, face.last),
                    ..a
                }));
            }
            let mut promotions = Vec::new();
            for l in p.promotes_to.chars() {
                let k = spec
                    .pieces
                    .iter()
                    .position(|q| q.letter == l)
                    .ok_or(RulesError::UnknownPromotion(p.letter, l))?;
                promotions.push(PieceKind(k as u8));
            }
            kinds.push(KindInfo {
                spec: p.clone(),
                atoms,
                promotions,
            });
        }
        let mut royal = Bitboard16::default();
        let mut tracks_moved = Bitboard16::default();
        let mut en_passant = Bitboard16::default();
        for (i, k) in kinds.iter().enumerate() {
            let kind = PieceKind(i as u8);
            if k.spec.royal {
                royal.insert(kind);
            }
            if k.spec.tracks_moved {
                tracks_moved.insert(kind);
            }
            if k.spec.en_passant {
                en_passant.insert(kind);
            }
        }
        let geo = &spec.geometry;
        let mut promotion_zone = [Bitboard::EMPTY; 3];
        for &r in &spec.promotion_ranks {
            promotion_zone[0] |= geo.rank_mask(r);
            promotion_zone[1] |= geo.rank_mask(geo.ranks() - 1 - r);
        }
        let tables = Tables::build(geo, &kinds);
        let mut castling_kinds = Bitboard16::default();
        let mut castling_squares = Bitboard::EMPTY;
        for c in &spec.castling {
            castling_kinds.insert(c.king);
            castling_kinds.insert(c.partner);
            castling_squares.insert(c.king_from);
            castling_squares.insert(c.partner_from);
        }
        Ok(Rules {
            spec,
            kinds,
            tables,
            royal,
            tracks_moved,
            en_passant,
            promotion_zone,
            castling_kinds,
            castling_squares,
        })
    }

    /// Start squares of kings and partners in castling.
    #[inline]
    pub fn castling_squares(&self) -> Bitboard {
        self.castling_squares
    }

    /// Board shape.
    #[inline]
    pub fn geometry(&self) -> &Geometry {
        &self.spec.geometry
    }

    /// Number of piece kinds.
    #[inline]
    pub fn num_kinds(&self) -> usize {
        self.kinds.len()
    }

    /// The kind with this FEN letter (either case).
    pub fn kind_by_letter(&self, letter: char) -> Option<PieceKind> {
        let up = letter.to_ascii_uppercase();
        self.kinds
            .iter()
            .position(|k| k.spec.letter == up)
            .map(|i| PieceKind(i as u8))
    }

    /// The FEN letter of a kind, in the case of `color` (neutral pieces print upper case).
    pub fn letter(&self, kind: PieceKind, color: Color) -> char {
        let l = self.kinds[kind.index()].spec.letter;
        if color == Color::Black {
            l.to_ascii_lowercase()
        } else {
            l
        }
    }

    /// Whether `kind` is royal.
    #[inline]
    pub fn is_royal(&self, kind: PieceKind) -> bool {
        self.royal.contains(kind)
    }

    /// Atoms of a kind as seen from `color`'s side (Black's are mirrored).
    pub fn atoms_for(&self, kind: PieceKind, color: Color) -> impl Iterator<Item = Atom> + '_ {
        let flip = color == Color::Black;
        self.kinds[kind.index()].atoms.iter().map(move |a| Atom {
            dy: if flip { -a.dy } else { a.dy },
            leg: a.leg.map(|(x, y)| (x, if flip { -y } else { y })),
            ..*a
        })
    }

    /// Whether a piece of `kind` and `color` on `sq` may use its initial (`i`) moves.
    pub fn on_initial_square(&self, kind: PieceKind, color: Color, sq: Square) -> bool {
        let rel = if color == Color::Black {
            self.geometry().ranks() - 1 - sq.rank()
        } else {
            sq.rank()
        };
        self.kinds[kind.index()].spec.initial_ranks.contains(&rel)
    }
}
