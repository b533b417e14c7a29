//! What a variant *is*, as data: its board, its piece catalogue (movement in Betza-like text),
//! promotion, castling and end rules. [`RuleSpec`] is written by a variant module and compiled
//! once into [`Rules`], which holds the per-square tables the move generator reads.

pub mod betza;
mod lines;
mod tables;

pub use betza::{Atom, BetzaError, Modality};
pub use tables::{shift, Direction, LameShift, Shift, Shifts, Tables};

use crate::core::{Bitboard, ByColor, Color, Geometry, KindSet, PieceKind, Square, MAX_KINDS};
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
    /// Ranks, counted from the owner's side from 0, on which a piece that tracks whether it has
    /// moved can still be unmoved; elsewhere it has moved, and FEN leaves that unsaid. Empty:
    /// every rank (Existentialist's Adventurist: ranks 1-3, RULINGS §12 item 2).
    pub fresh_ranks: &'static [u8],
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
    /// A grey piece that belongs to no player (Afterlife's Mercenary and Sethling): it is always
    /// neutral, whatever colour a GUI shows it in.
    pub neutral: bool,
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
            fresh_ranks: &[],
            initial_ranks: &[],
            value: 0,
            extra_leaps: None,
            faces: &[],
            neutral: false,
        }
    }
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
    /// Squares that must be empty, other than the king's and partner's own: `Rules::compile`
    /// takes those out, so that a spec may name the whole path.
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
    /// Movements that are no piece of the game, compiled into the tables after the pieces so
    /// that a game's hooks can read them (`Rules::template`): the Existentialist moves by a
    /// different one at each step of its cycle. Their letters mean nothing.
    pub templates: Vec<PieceSpec>,
    /// Start position in FEN.
    pub start_fen: &'static str,
    /// Castling moves.
    pub castling: Vec<CastleSpec>,
    /// Squares where each side's promoting pieces promote (usually its last rank).
    pub promotion_zone: ByColor<Bitboard>,
    /// Squares where each side may drop pieces from its reserve (the whole board by default;
    /// promoting pieces never drop into their promotion zone).
    pub drop_zone: ByColor<Bitboard>,
    /// Plies without capture or pawn move after which the game is drawn (0: never).
    pub fifty_move_plies: u16,
    /// Occurrences of a position that draw the game (0: never).
    pub repetition_count: u8,
    /// The game's own per-piece state: the FEN letters of its flags and spells.
    pub state: StateSpec,
    /// XBoard's own name for this game when XBoard knows its rules (`normal`); XBoard is then not
    /// sent `setup` and `piece` lines.
    pub xboard_builtin: Option<&'static str>,
}

/// The per-piece state a game defines beyond the shared counters: flags and timed spells, each
/// with its FEN letter. Flag bit `i` is written `flags[i]` (`K{t}`); spell kind `i` is written
/// `s` followed by `spells[i]` and its end (`B{sd@40}`). See `docs/fen.md`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateSpec {
    /// Letters of the flags, by bit.
    pub flags: &'static [char],
    /// Letters of the spell kinds, by kind number.
    pub spells: &'static [char],
}

impl RuleSpec {
    /// Promotion zones of both players from ranks counted from each player's side (0 is its
    /// first rank): `zone_from_ranks(geo, &[7])` is FIDE's last rank.
    pub fn zone_from_ranks(geometry: &Geometry, ranks: &[u8]) -> ByColor<Bitboard> {
        ByColor([
            geometry.ranks_of(Color::White, ranks),
            geometry.ranks_of(Color::Black, ranks),
            Bitboard::EMPTY,
        ])
    }

    /// Drop zones covering the whole board for every side.
    pub fn whole_board(geometry: &Geometry) -> ByColor<Bitboard> {
        ByColor([geometry.board(); 3])
    }
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
    /// A state letter is used twice or clashes with the shared ones.
    StateLetter(char),
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
            RulesError::StateLetter(c) => write!(f, "state letter {c} is used twice"),
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
    pub royal: KindSet,
    /// Kinds that track whether they have moved.
    pub tracks_moved: KindSet,
    /// Kinds that take part in en passant.
    pub en_passant: KindSet,
    /// Pawn-like kinds (their moves are irreversible).
    pub pawns: KindSet,
    /// Kinds that promote somewhere.
    pub promoting: KindSet,
    /// Kinds that take part in castling; whether they moved is told by the FEN castling field.
    pub castling_kinds: KindSet,
    castling_squares: Bitboard,
}

impl Rules {
    /// Compiles a spec, with each castling's `must_be_empty` cleared of its king's and
    /// partner's own squares.
    pub fn compile(mut spec: RuleSpec) -> Result<Rules, RulesError> {
        // The king and its partner never stand in their own way.
        for c in &mut spec.castling {
            c.must_be_empty &= !Bitboard::from_square(c.king_from);
            c.must_be_empty &= !Bitboard::from_square(c.partner_from);
        }
        let total = spec.pieces.len() + spec.templates.len();
        if total > MAX_KINDS {
            return Err(RulesError::TooManyKinds(total));
        }
        let mut kinds = Vec::new();
        for (i, p) in spec.pieces.iter().chain(&spec.templates).enumerate() {
            if i < spec.pieces.len() && spec.pieces[..i].iter().any(|q| q.letter == p.letter) {
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
        let state_letters: Vec<char> = spec
            .state
            .flags
            .iter()
            .chain(spec.state.spells)
            .copied()
            .collect();
        for (i, &c) in state_letters.iter().enumerate() {
            // Flags are single letters beside the shared items (`c`, `f`, `s`, `a`, `g`, `m`).
            if state_letters[..i].contains(&c)
                || (i < spec.state.flags.len() && "cfsagm".contains(c))
            {
                return Err(RulesError::StateLetter(c));
            }
        }
        let set = |keep: fn(&KindInfo) -> bool| -> KindSet {
            PieceKind::all(spec.pieces.len())
                .filter(|k| keep(&kinds[k.index()]))
                .collect()
        };
        let royal = set(|k| k.spec.royal);
        let tracks_moved = set(|k| k.spec.tracks_moved);
        let en_passant = set(|k| k.spec.en_passant);
        let pawns = set(|k| k.spec.pawn);
        let promoting = set(|k| !k.promotions.is_empty());
        let geo = &spec.geometry;
        let tables = Tables::build(geo, &kinds);
        let mut castling_kinds = KindSet::default();
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
            pawns,
            promoting,
            castling_kinds,
            castling_squares,
        })
    }

    /// Where `color`'s promoting pieces promote.
    #[inline]
    pub fn promotion_zone(&self, color: Color) -> Bitboard {
        self.spec.promotion_zone[color]
    }

    /// Checks that each named kind of a game module has the letter it is named for, so that
    /// reordering a catalogue cannot silently change a rule. Returns the first mismatch.
    pub fn check_named(&self, named: &[(PieceKind, char)]) -> Result<(), String> {
        for &(kind, letter) in named {
            match self.kinds.get(kind.index()) {
                Some(info) if info.spec.letter == letter => {}
                Some(info) => {
                    return Err(format!(
                        "kind {} is named {letter} but the catalogue has {} there",
                        kind.0, info.spec.letter
                    ))
                }
                None => {
                    return Err(format!(
                        "kind {} ({letter}) is not in the catalogue",
                        kind.0
                    ))
                }
            }
        }
        Ok(())
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

    /// Number of piece kinds (the movement templates not counted).
    #[inline]
    pub fn num_kinds(&self) -> usize {
        self.spec.pieces.len()
    }

    /// The compiled facts of the pieces (the movement templates not included).
    #[inline]
    pub fn pieces(&self) -> &[KindInfo] {
        &self.kinds[..self.num_kinds()]
    }

    /// The kind under which movement template `i` of the spec is compiled.
    #[inline]
    pub fn template(&self, i: usize) -> PieceKind {
        debug_assert!(i < self.spec.templates.len());
        PieceKind((self.num_kinds() + i) as u8)
    }

    /// The kind with this FEN letter (either case).
    pub fn kind_by_letter(&self, letter: char) -> Option<PieceKind> {
        let up = letter.to_ascii_uppercase();
        self.pieces()
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

    /// Whether a piece of `kind` and `color` standing on `sq` can be unmoved (`fresh_ranks`).
    pub fn can_be_unmoved(&self, kind: PieceKind, color: Color, sq: Square) -> bool {
        let fresh = self.kinds[kind.index()].spec.fresh_ranks;
        fresh.is_empty() || fresh.contains(&self.geometry().relative_rank(color, sq))
    }

    /// Whether a piece of `kind` and `color` on `sq` may use its initial (`i`) moves.
    pub fn on_initial_square(&self, kind: PieceKind, color: Color, sq: Square) -> bool {
        let rel = self.geometry().relative_rank(color, sq);
        self.kinds[kind.index()].spec.initial_ranks.contains(&rel)
    }
}
