//! Per-square tables compiled from the piece catalogue: leaps, lame leaps and ride directions for
//! every (colour, kind, square), rays for sliding and whole lines by one lookup (`lines`), and
//! reverse tables for attack detection, so generation and attack detection read the same data
//! and never disagree.
//!
//! Initial-square moves (`i`) are baked into the tables of the squares where they apply, so the
//! generator never tests a condition per piece.

use super::betza::{Atom, Modality};
use super::lines::{LineTables, LINES};
use super::KindInfo;
use crate::core::{Bitboard, Color, Geometry, KindSet, PieceKind, Square, MAX_KINDS, NUM_SQUARES};

/// One of the eight line directions. The first four increase the square index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direction(pub u8);

impl Direction {
    /// Steps `(df, dr)` of each direction, in index order: N, E, NE, NW, S, W, SW, SE.
    pub const STEPS: [(i8, i8); 8] = [
        (0, 1),
        (1, 0),
        (1, 1),
        (-1, 1),
        (0, -1),
        (-1, 0),
        (-1, -1),
        (1, -1),
    ];

    /// Every direction, a line's two at a time, the orthogonal lines first: N, S, E, W, NE,
    /// SW, NW, SE.
    pub const BY_LINE: [Direction; 8] = [
        Direction(0),
        Direction(4),
        Direction(1),
        Direction(5),
        Direction(2),
        Direction(6),
        Direction(3),
        Direction(7),
    ];

    /// The direction of a unit step, if it is one.
    pub fn from_step(df: i8, dr: i8) -> Option<Direction> {
        Direction::STEPS
            .iter()
            .position(|&s| s == (df.signum(), dr.signum()))
            .map(|i| Direction(i as u8))
    }

    /// Whether squares along it have increasing indices.
    #[inline]
    pub fn is_positive(self) -> bool {
        self.0 < 4
    }

    /// The reverse direction.
    #[inline]
    pub fn opposite(self) -> Direction {
        Direction(self.0 ^ 4)
    }
}

/// A leap that the squares in `via` can block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LameLeap {
    /// The other end of the leap (the target when generating, the origin in reverse tables).
    pub square: Square,
    /// Squares that must be empty.
    pub via: Bitboard,
    /// Move, capture or both.
    pub modality: Modality,
}

/// Ride directions of one (colour, kind), with their ranges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rides {
    /// Bit `d` set: the piece slides in direction `d`.
    pub dirs: u8,
    /// Range per direction: 0 unlimited, otherwise the most steps.
    pub range: [u8; 8],
    /// Squares the piece may ride from: the whole board, except for pieces with faces.
    pub from: Bitboard,
    /// Bit `l` set: the piece rides both directions of line `l` (direction `l` and its
    /// opposite) without a range limit from every square, found by one lookup
    /// (`LineTables`).
    pub lines: u8,
    /// The directions of `dirs` outside `lines`, walked one at a time.
    pub walked: u8,
}

impl Rides {
    /// `lines` and `walked` from the directions, ranges and start squares, on a board of the
    /// squares of `board`.
    fn split_lines(&mut self, board: Bitboard) {
        self.lines = 0;
        if (board & !self.from).is_empty() {
            for l in 0..LINES as u8 {
                let both = 1 << l | 1 << (l + 4);
                let unlimited = self.range[l as usize] == 0 && self.range[l as usize + 4] == 0;
                if self.dirs & both == both && unlimited {
                    self.lines |= 1 << l;
                }
            }
        }
        self.walked = self.dirs & !(self.lines | self.lines << 4);
    }
}

/// One leap of a piece taken from every square it applies on at once: the board shifted by
/// `offset` index steps, from the squares of `from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shift {
    /// Index steps from origin to target.
    pub offset: i16,
    /// The squares this leap lands on the board from.
    pub from: Bitboard,
}

impl Shift {
    /// The targets of the pieces on `pieces` (the ones on `from` only).
    #[inline(always)]
    pub fn targets(&self, pieces: Bitboard) -> Bitboard {
        shift(pieces & self.from, self.offset)
    }
}

/// `bb` moved by `offset` index steps (squares moved off the index space are lost).
#[inline(always)]
pub fn shift(bb: Bitboard, offset: i16) -> Bitboard {
    if offset >= 0 {
        Bitboard(bb.0 << offset as u32) & Bitboard::ALL
    } else {
        Bitboard(bb.0 >> (-offset) as u32)
    }
}

/// A lame leap taken from every square at once: the leap, the offsets of the squares that must
/// be empty (at most two), and whether it moves, captures or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LameShift {
    /// The leap.
    pub leap: Shift,
    /// Offsets from the origin of the squares on its path.
    pub via: [i16; 2],
    /// How many of `via` are used.
    pub via_len: u8,
    /// Move, capture or both.
    pub modality: Modality,
}

/// The leaps of a (colour, kind) without rides, as shifts of the whole board, for generating
/// them for all pieces of the kind at once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shifts {
    /// Non-capturing leaps.
    pub quiet: Vec<Shift>,
    /// Capturing leaps.
    pub capture: Vec<Shift>,
    /// Lame leaps.
    pub lame: Vec<LameShift>,
}

impl Shifts {
    /// How many shifts generating them all takes.
    pub fn len(&self) -> usize {
        self.quiet.len() + self.capture.len() + self.lame.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Shifts per kind beyond which a kind is not generated set-wise.
const MAX_SHIFTS: usize = 6;

/// Everything the fast generator and attack detection read.
#[derive(Debug)]
pub struct Tables {
    /// Per square, then direction. Sized for every `u8` square index and masked direction, so
    /// that a lookup needs no bounds check (it sits in the generator's innermost loop).
    rays: Box<[[Bitboard; 8]; 256]>,
    /// Per (square, square), indexed by `pair`: the direction whose ray from the first holds
    /// the second (`NOT_ALIGNED` if none; rays are straight, so there is at most one).
    toward: Box<[u8]>,
    /// Per (square, line): the rider targets of both directions at once.
    lines: LineTables,
    within: Vec<Bitboard>,
    leap_quiet: Vec<Bitboard>,
    leap_capture: Vec<Bitboard>,
    rev_leap_capture: Vec<Bitboard>,
    lame: Vec<LameLeap>,
    lame_span: Vec<(u32, u32)>,
    rev_lame: Vec<LameLeap>,
    rev_lame_span: Vec<(u32, u32)>,
    quiet_rides: [Rides; CK_SIZE],
    capture_rides: [Rides; CK_SIZE],
    /// Per (colour, direction): kinds that capture by sliding in that direction.
    capture_riders: [KindSet; COLOR_SLOTS * 8],
    /// Per (colour, kind): quiet and capture moves are the same set (most pieces).
    symmetric: [bool; CK_SIZE],
    /// Per (colour, kind): has any lame leap.
    has_lame: [bool; CK_SIZE],
    /// Per (colour, kind): whether any of its lame leaps captures.
    has_lame_capture: [bool; CK_SIZE],
    /// Whether any kind of any colour captures by a lame leap.
    any_lame_capture: bool,
    /// Per colour: kinds that capture by a leap or a lame leap.
    leap_attack_kinds: [KindSet; 3],
    /// Per colour: the game's kinds that capture by a lame leap.
    lame_capture_kinds: [KindSet; 3],
    /// Per colour: the game's kinds (not its movement templates) that capture by riding in
    /// some direction.
    ride_attack_kinds: [KindSet; 3],
    /// Per (colour, square), indexed by `cs`: every square from which a piece of that colour
    /// might capture onto the square by riding. A superset: the rays behind the square in each
    /// direction one of the colour's kinds rides, whatever the range, start squares or kind.
    rider_lines: [Bitboard; COLOR_SLOTS * SQUARE_SLOTS],
    /// Per (colour, kind): its leaps as shifts, for a kind without rides and with at most
    /// `MAX_SHIFTS` different leaps.
    shifts: Vec<Option<Shifts>>,
    /// Per (colour, kind): how many pieces make generating by `shifts` pay (as many as its
    /// shifts, and at least two), `u8::MAX` for a kind without them.
    shifts_pay_from: [u8; CK_SIZE],
}

/// Distances the `within` table holds, 0 to 11: the longest line on a board twelve files wide.
const WITHIN_SIZES: usize = 12;

/// Colours a per-colour table holds room for: the three, rounded up so that an index taken
/// modulo it needs no bounds check.
const COLOR_SLOTS: usize = 4;
/// Squares a per-square table holds room for: every square index, rounded up likewise.
const SQUARE_SLOTS: usize = 128;
const _: () = assert!(NUM_SQUARES <= SQUARE_SLOTS);
/// Entries of a table per (colour, kind), indexed by `ck`.
const CK_SIZE: usize = COLOR_SLOTS * MAX_KINDS;

/// The index of a (colour, kind) in the tables per (colour, kind). Each part is taken modulo its
/// room (a mask, the rooms being powers of two), so that the index is provably in bounds and
/// lookups in the generator need no check; the parts are in range anyway.
#[inline]
fn ck(c: Color, k: PieceKind) -> usize {
    debug_assert!(k.index() < MAX_KINDS);
    c.index() % COLOR_SLOTS * MAX_KINDS + k.index() % MAX_KINDS
}

/// The index of a (colour, direction) in `Tables::capture_riders`, in bounds as `ck`'s is.
#[inline]
fn cd(c: Color, d: Direction) -> usize {
    debug_assert!(d.0 < 8);
    c.index() % COLOR_SLOTS * 8 + d.0 as usize % 8
}

/// The index of a (colour, square) in `Tables::rider_lines`, in bounds as `ck`'s is.
#[inline]
fn cs(c: Color, sq: Square) -> usize {
    debug_assert!(sq.index() < NUM_SQUARES);
    c.index() % COLOR_SLOTS * SQUARE_SLOTS + sq.index() % SQUARE_SLOTS
}

#[inline]
fn cks(c: Color, k: PieceKind, sq: Square) -> usize {
    (c.index() * MAX_KINDS + k.index()) * NUM_SQUARES + sq.index()
}

impl Tables {
    /// Builds all tables for a board and a catalogue: the board's geometry first, then each
    /// piece's moves for each colour, then the lame leaps packed into flat lists.
    pub fn build(geo: &Geometry, kinds: &[KindInfo]) -> Tables {
        let mut b = Builder::new(geo);
        for color in Color::ALL {
            for (ki, info) in kinds.iter().enumerate() {
                b.add_piece(color, PieceKind(ki as u8), info);
            }
        }
        b.finish(kinds.len())
    }

    /// Squares from `sq` in direction `d` up to the edge or a hole.
    #[inline]
    pub fn ray(&self, d: Direction, sq: Square) -> Bitboard {
        debug_assert!(d.0 < 8);
        self.rays[sq.index()][d.0 as usize % 8]
    }

    /// The direction in which `to` lies on a ray from `from`, if it does.
    #[inline(always)]
    pub fn toward(&self, from: Square, to: Square) -> Option<Direction> {
        let d = self.toward[pair(from, to)];
        (d != NOT_ALIGNED).then_some(Direction(d))
    }

    /// The squares strictly between `from` and `to`, where `to` lies on the ray from `from` in
    /// direction `d`.
    #[inline(always)]
    pub fn between(&self, d: Direction, from: Square, to: Square) -> Bitboard {
        self.ray(d, from) & self.ray(d.opposite(), to)
    }

    /// Squares within Chebyshev distance `r` of `sq`.
    #[inline]
    pub fn within(&self, sq: Square, r: u8) -> Bitboard {
        self.within[sq.index() * WITHIN_SIZES + r.min(WITHIN_SIZES as u8 - 1) as usize]
    }

    /// Squares a slider on `sq` reaches in direction `d`, up to and including the first blocker.
    #[inline]
    pub fn slide(&self, d: Direction, sq: Square, occupied: Bitboard) -> Bitboard {
        slide(&self.rays, d, sq, occupied)
    }

    /// The squares a rider on `sq` reaches along both directions of line `line` (direction
    /// `line` and its opposite), up to and including the first blocker each way: one lookup.
    #[inline(always)]
    pub fn line(&self, line: u32, sq: Square, occupied: Bitboard) -> Bitboard {
        self.lines.attacks(line, sq, occupied)
    }

    /// The first occupied square from `sq` in direction `d`.
    #[inline]
    pub fn first_blocker(&self, d: Direction, sq: Square, occupied: Bitboard) -> Option<Square> {
        let blockers = self.ray(d, sq) & occupied;
        if d.is_positive() {
            blockers.first()
        } else {
            blockers.last()
        }
    }

    /// All squares reached by the given rides.
    #[inline(always)]
    pub fn ride_targets(&self, rides: Rides, sq: Square, occupied: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        // Whole lines need no start-square test: `split_lines` sets them only for rides from
        // every square of the board.
        let mut lines = rides.lines;
        while lines != 0 {
            out |= self.line(lines.trailing_zeros(), sq, occupied);
            lines &= lines - 1;
        }
        let mut dirs = rides.walked;
        if dirs == 0 || !rides.from.contains(sq) {
            return out;
        }
        while dirs != 0 {
            let d = dirs.trailing_zeros() as u8;
            dirs &= dirs - 1;
            let mut t = self.slide(Direction(d), sq, occupied);
            let r = rides.range[d as usize];
            if r != 0 {
                t &= self.within(sq, r);
            }
            out |= t;
        }
        out
    }

    /// Non-capturing leap targets.
    #[inline]
    pub fn leap_quiet(&self, c: Color, k: PieceKind, sq: Square) -> Bitboard {
        self.leap_quiet[cks(c, k, sq)]
    }

    /// Capturing leap targets.
    #[inline]
    pub fn leap_capture(&self, c: Color, k: PieceKind, sq: Square) -> Bitboard {
        self.leap_capture[cks(c, k, sq)]
    }

    /// Squares from which a (colour, kind) captures by a leap onto `target`.
    #[inline]
    pub fn leap_capturers(&self, c: Color, k: PieceKind, target: Square) -> Bitboard {
        self.rev_leap_capture[cks(c, k, target)]
    }

    /// Squares from which a piece of (colour, kind) would capture on `target` by a leap or a
    /// ride, with `occupied` as blockers: the leaps' reverse table, and each ride walked back
    /// from `target` (a whole line by one lookup; the squares up to the first blocker, within
    /// the ride's range and on its start squares).
    pub fn capture_origins(
        &self,
        c: Color,
        k: PieceKind,
        target: Square,
        occupied: Bitboard,
    ) -> Bitboard {
        let rides = self.capture_rides(c, k);
        let mut from = self.leap_capturers(c, k, target);
        let mut lines = rides.lines;
        while lines != 0 {
            from |= self.line(lines.trailing_zeros(), target, occupied);
            lines &= lines - 1;
        }
        let mut dirs = rides.walked;
        while dirs != 0 {
            let d = Direction(dirs.trailing_zeros() as u8);
            dirs &= dirs - 1;
            let mut back = self.slide(d.opposite(), target, occupied) & rides.from;
            let r = rides.range[d.0 as usize];
            if r != 0 {
                back &= self.within(target, r);
            }
            from |= back;
        }
        from
    }

    /// Lame leaps from `sq`.
    #[inline]
    pub fn lame(&self, c: Color, k: PieceKind, sq: Square) -> &[LameLeap] {
        let (a, b) = self.lame_span[cks(c, k, sq)];
        &self.lame[a as usize..b as usize]
    }

    /// Lame capturing leaps that land on `target`; `square` is their origin.
    #[inline]
    pub fn lame_capturers(&self, c: Color, k: PieceKind, target: Square) -> &[LameLeap] {
        let (a, b) = self.rev_lame_span[cks(c, k, target)];
        &self.rev_lame[a as usize..b as usize]
    }

    /// Non-capturing ride directions.
    #[inline]
    pub fn quiet_rides(&self, c: Color, k: PieceKind) -> Rides {
        self.quiet_rides[ck(c, k)]
    }

    /// Capturing ride directions.
    #[inline]
    pub fn capture_rides(&self, c: Color, k: PieceKind) -> Rides {
        self.capture_rides[ck(c, k)]
    }

    /// Kinds of `c` that capture sliding in direction `d`.
    #[inline]
    pub fn capture_riders(&self, c: Color, d: Direction) -> KindSet {
        self.capture_riders[cd(c, d)]
    }

    /// Whether a piece riding by `rides` from `from` reaches `to`, which lies on its ray in
    /// direction `d` with nothing between: the piece rides that way, may start from `from`, and
    /// `to` is within its range.
    #[inline(always)]
    pub fn rides_to(&self, rides: Rides, d: Direction, from: Square, to: Square) -> bool {
        let range = rides.range[d.0 as usize % 8];
        rides.dirs & 1 << (d.0 % 8) != 0
            && rides.from.contains(from)
            && (range == 0 || self.within(to, range).contains(from))
    }

    /// Whether the kind's quiet and capture moves coincide.
    #[inline]
    pub fn symmetric(&self, c: Color, k: PieceKind) -> bool {
        self.symmetric[ck(c, k)]
    }

    /// Kinds of `c` that capture by a leap or a lame leap.
    #[inline]
    pub fn leap_attack_kinds(&self, c: Color) -> KindSet {
        self.leap_attack_kinds[c.index()]
    }

    /// Kinds of `c` (the game's, not its templates) that capture by a lame leap.
    #[inline]
    pub fn lame_capture_kinds(&self, c: Color) -> KindSet {
        self.lame_capture_kinds[c.index()]
    }

    /// Kinds of `c` that capture by riding.
    #[inline]
    pub fn ride_attack_kinds(&self, c: Color) -> KindSet {
        self.ride_attack_kinds[c.index()]
    }

    /// Every square from which a piece of `c` might capture onto `sq` by riding, with the board
    /// empty (a superset: see the field).
    #[inline]
    pub fn rider_lines(&self, c: Color, sq: Square) -> Bitboard {
        self.rider_lines[cs(c, sq)]
    }

    /// The kind's leaps as shifts of the whole board, if it has no rides and few leaps.
    #[inline]
    pub fn shifts(&self, c: Color, k: PieceKind) -> Option<&Shifts> {
        self.shifts[ck(c, k)].as_ref()
    }

    /// How many pieces of the kind make generating them by `shifts` pay (at least two); 255
    /// when the kind has no shifts.
    #[inline]
    pub fn shifts_pay_from(&self, c: Color, k: PieceKind) -> u32 {
        u32::from(self.shifts_pay_from[ck(c, k)])
    }

    /// Whether the kind has lame leaps.
    #[inline]
    pub fn has_lame(&self, c: Color, k: PieceKind) -> bool {
        self.has_lame[ck(c, k)]
    }

    /// Whether the kind has lame leaps that capture (a pawn's double step does not): only these
    /// can attack a square.
    #[inline]
    pub fn has_lame_capture(&self, c: Color, k: PieceKind) -> bool {
        self.has_lame_capture[ck(c, k)]
    }

    /// Whether any kind of any colour has a lame leap that captures: one whose path a piece
    /// arriving on it may close.
    #[inline]
    pub fn any_lame_capture(&self) -> bool {
        self.any_lame_capture
    }
}

/// Where a step or leap of `(df, dr)` from `sq` lands: a playable square of the board it starts on
/// (holes and other boards are jumped over, never landed on).
fn land(geo: &Geometry, sq: Square, df: i8, dr: i8) -> Option<Square> {
    sq.offset(df, dr)
        .filter(|&s| geo.board().contains(s) && geo.same_board(sq, s))
}

/// The squares a rider on `sq` reaches in direction `d` along `rays`, up to and including the
/// first of `occupied`: the walk `Tables::slide` makes, and the reference of `LineTables`.
#[inline]
fn slide(rays: &[[Bitboard; 8]; 256], d: Direction, sq: Square, occupied: Bitboard) -> Bitboard {
    let ray = rays[sq.index()][d.0 as usize % 8];
    let blockers = ray & occupied;
    let first = if d.is_positive() {
        blockers.first()
    } else {
        blockers.last()
    };
    match first {
        Some(b) => ray ^ rays[b.index()][d.0 as usize % 8],
        None => ray,
    }
}

/// `Tables::toward`'s entry for squares on no common ray.
const NOT_ALIGNED: u8 = u8::MAX;

/// The index of a (square, square) in `Tables::toward`, in bounds as `ck`'s is.
#[inline(always)]
fn pair(from: Square, to: Square) -> usize {
    from.index() % SQUARE_SLOTS * SQUARE_SLOTS + to.index() % SQUARE_SLOTS
}

/// `Tables::toward` from the rays.
fn build_toward(rays: &[[Bitboard; 8]; 256]) -> Box<[u8]> {
    let mut toward = vec![NOT_ALIGNED; SQUARE_SLOTS * SQUARE_SLOTS].into_boxed_slice();
    for from in Square::all() {
        for (d, ray) in rays[from.index()].iter().enumerate() {
            for to in *ray {
                toward[pair(from, to)] = d as u8;
            }
        }
    }
    toward
}

/// Per (square, direction): the squares along the direction up to the edge or a hole.
fn build_rays(geo: &Geometry) -> Box<[[Bitboard; 8]; 256]> {
    let mut rays: Box<[[Bitboard; 8]; 256]> = vec![[Bitboard::EMPTY; 8]; 256]
        .into_boxed_slice()
        .try_into()
        .expect("256 squares");
    for (d, &(df, dr)) in Direction::STEPS.iter().enumerate() {
        for sq in Square::all() {
            let mut bb = Bitboard::EMPTY;
            let mut cur = sq;
            while let Some(next) = land(geo, cur, df, dr) {
                bb.insert(next);
                cur = next;
            }
            rays[sq.index()][d] = bb;
        }
    }
    rays
}

/// Per (square, distance): the squares within that Chebyshev distance.
fn build_within() -> Vec<Bitboard> {
    let mut within = vec![Bitboard::EMPTY; NUM_SQUARES * WITHIN_SIZES];
    for sq in Square::all() {
        for r in 0..WITHIN_SIZES as u8 {
            within[sq.index() * WITHIN_SIZES + r as usize] = Square::all()
                .filter(|t| {
                    sq.file()
                        .abs_diff(t.file())
                        .max(sq.rank().abs_diff(t.rank()))
                        <= r
                })
                .collect();
        }
    }
    within
}

/// The tables while they are filled in: lame leaps are gathered per (colour, kind, square) and
/// packed into the flat lists at the end.
struct Builder<'a> {
    geo: &'a Geometry,
    t: Tables,
    lame_lists: Vec<Vec<LameLeap>>,
    rev_lame_lists: Vec<Vec<LameLeap>>,
}

impl<'a> Builder<'a> {
    /// The board's rays and distances, and empty piece tables.
    fn new(geo: &'a Geometry) -> Builder<'a> {
        let n = 3 * MAX_KINDS * NUM_SQUARES;
        let rays = build_rays(geo);
        let lines = LineTables::build(
            geo.board(),
            |d, sq| rays[sq.index()][d.0 as usize],
            |d, sq, occ| slide(&rays, d, sq, occ),
        );
        let t = Tables {
            toward: build_toward(&rays),
            rays,
            lines,
            within: build_within(),
            leap_quiet: vec![Bitboard::EMPTY; n],
            leap_capture: vec![Bitboard::EMPTY; n],
            rev_leap_capture: vec![Bitboard::EMPTY; n],
            lame: Vec::new(),
            lame_span: vec![(0, 0); n],
            rev_lame: Vec::new(),
            rev_lame_span: vec![(0, 0); n],
            quiet_rides: [Rides::default(); CK_SIZE],
            capture_rides: [Rides::default(); CK_SIZE],
            capture_riders: [KindSet::EMPTY; COLOR_SLOTS * 8],
            symmetric: [true; CK_SIZE],
            has_lame: [false; CK_SIZE],
            has_lame_capture: [false; CK_SIZE],
            any_lame_capture: false,
            leap_attack_kinds: [KindSet::EMPTY; 3],
            lame_capture_kinds: [KindSet::EMPTY; 3],
            ride_attack_kinds: [KindSet::EMPTY; 3],
            rider_lines: [Bitboard::EMPTY; COLOR_SLOTS * SQUARE_SLOTS],
            shifts: vec![None; CK_SIZE],
            shifts_pay_from: [u8::MAX; CK_SIZE],
        };
        Builder {
            geo,
            t,
            lame_lists: vec![Vec::new(); n],
            rev_lame_lists: vec![Vec::new(); n],
        }
    }

    /// Every move of one (colour, kind): its extra leaps, then each atom as a ride or a leap, then
    /// whether its quiet moves and captures coincide.
    fn add_piece(&mut self, color: Color, kind: PieceKind, info: &KindInfo) {
        if let Some(extra) = info.spec.extra_leaps {
            self.add_extra_leaps(color, kind, extra);
        }
        for atom in &info.atoms {
            // Atoms are written from White's side; Black's go the other way up the board.
            let dy = if color == Color::Black {
                -atom.dy
            } else {
                atom.dy
            };
            let from_files: Bitboard = self
                .geo
                .board()
                .into_iter()
                .filter(|sq| atom.usable_on_file(sq.file()))
                .collect();
            if atom.is_rider() {
                self.add_ride(color, kind, atom, dy, from_files);
            } else {
                self.add_leaps(color, kind, info, atom, dy, from_files);
            }
        }
        let t = &self.t;
        let sym = t.quiet_rides[ck(color, kind)] == t.capture_rides[ck(color, kind)]
            && !t.has_lame[ck(color, kind)]
            && self.geo.board().into_iter().all(|sq| {
                t.leap_quiet[cks(color, kind, sq)] == t.leap_capture[cks(color, kind, sq)]
            });
        self.t.symmetric[ck(color, kind)] = sym;
    }

    /// Leaps the game computes per square (`PieceSpec::extra_leaps`), which move and capture.
    fn add_extra_leaps(
        &mut self,
        color: Color,
        kind: PieceKind,
        extra: fn(&Geometry, Color, Square) -> Bitboard,
    ) {
        let geo = self.geo;
        for sq in geo.board() {
            let targets = extra(geo, color, sq) & geo.board_of(sq);
            let i = cks(color, kind, sq);
            self.t.leap_quiet[i] |= targets;
            self.t.leap_capture[i] |= targets;
            for to in targets {
                self.t.rev_leap_capture[cks(color, kind, to)].insert(sq);
            }
        }
    }

    /// A rider atom: its direction and range in the quiet and capture rides, and the kind among
    /// the capture riders of that direction.
    fn add_ride(&mut self, color: Color, kind: PieceKind, atom: &Atom, dy: i8, from: Bitboard) {
        let d = Direction::from_step(atom.dx, dy).expect("riders are orthogonal or diagonal");
        let t = &mut self.t;
        for rides in [
            atom.modality
                .moves()
                .then_some(&mut t.quiet_rides[ck(color, kind)]),
            atom.modality
                .captures()
                .then_some(&mut t.capture_rides[ck(color, kind)]),
        ]
        .into_iter()
        .flatten()
        {
            assert!(
                rides.dirs & 1 << d.0 == 0 || rides.range[d.0 as usize] == atom.range,
                "a piece rides each direction with one range"
            );
            // One start mask per kind: faces may differ in leaps, not in rides.
            assert!(
                rides.dirs == 0 || rides.from == from,
                "the rides of a piece with faces must all start from the same files"
            );
            rides.dirs |= 1 << d.0;
            rides.range[d.0 as usize] = atom.range;
            rides.from |= from;
        }
        if atom.modality.captures() {
            t.capture_riders[cd(color, d)].insert(kind);
        }
    }

    /// A leap atom from every square of `from` where it lands on the board (and, for an
    /// initial-square atom, only from the piece's initial ranks): a lame leap into the lame
    /// lists, any other into the leap tables.
    fn add_leaps(
        &mut self,
        color: Color,
        kind: PieceKind,
        info: &KindInfo,
        atom: &Atom,
        dy: i8,
        from: Bitboard,
    ) {
        let geo = self.geo;
        for sq in from {
            if atom.initial
                && !info
                    .spec
                    .initial_ranks
                    .contains(&geo.relative_rank(color, sq))
            {
                continue;
            }
            let Some(to) = land(geo, sq, atom.dx, dy) else {
                continue;
            };
            if atom.lame {
                self.add_lame_leap(color, kind, atom, sq, to);
                continue;
            }
            let i = cks(color, kind, sq);
            if atom.modality.moves() {
                self.t.leap_quiet[i].insert(to);
            }
            if atom.modality.captures() {
                self.t.leap_capture[i].insert(to);
                self.t.rev_leap_capture[cks(color, kind, to)].insert(sq);
            }
        }
    }

    /// A lame leap from `sq` to `to`, unless a square of its path is off the board: into the
    /// lame list of `sq` and, if it captures, the reverse list of `to`.
    fn add_lame_leap(
        &mut self,
        color: Color,
        kind: PieceKind,
        atom: &Atom,
        sq: Square,
        to: Square,
    ) {
        let flip = color == Color::Black;
        let mut via = Bitboard::EMPTY;
        for (px, py) in atom.lame_path() {
            match land(self.geo, sq, px, if flip { -py } else { py }) {
                Some(v) => via.insert(v),
                None => return,
            }
        }
        self.lame_lists[cks(color, kind, sq)].push(LameLeap {
            square: to,
            via,
            modality: atom.modality,
        });
        if atom.modality.captures() {
            self.rev_lame_lists[cks(color, kind, to)].push(LameLeap {
                square: sq,
                via,
                modality: atom.modality,
            });
            self.t.has_lame_capture[ck(color, kind)] = true;
            self.t.any_lame_capture = true;
        }
        self.t.has_lame[ck(color, kind)] = true;
    }

    /// The finished tables: the rides split into whole lines and walked directions, the kinds
    /// that capture by leaping or riding, the lines riders capture along, each kind's shifts,
    /// and the lame lists packed.
    fn finish(mut self, num_kinds: usize) -> Tables {
        let board = self.geo.board();
        let t = &mut self.t;
        for rides in t.quiet_rides.iter_mut().chain(t.capture_rides.iter_mut()) {
            rides.split_lines(board);
        }
        for color in Color::ALL {
            for ki in 0..num_kinds {
                let kind = PieceKind(ki as u8);
                let leaps = board
                    .into_iter()
                    .any(|sq| t.leap_capture[cks(color, kind, sq)].nonempty());
                let lame = lame_lists_have_capture(&self.rev_lame_lists, color, kind);
                if leaps || lame {
                    t.leap_attack_kinds[color.index()].insert(kind);
                }
                if t.has_lame_capture[ck(color, kind)] {
                    t.lame_capture_kinds[color.index()].insert(kind);
                }
            }
        }
        for color in Color::ALL {
            for d in 0..8u8 {
                let d = Direction(d);
                // Movement templates never stand on the board: only the game's kinds count.
                let riders: KindSet = t
                    .capture_riders(color, d)
                    .filter(|k| k.index() < num_kinds)
                    .collect();
                if riders.is_empty() {
                    continue;
                }
                for kind in riders {
                    t.ride_attack_kinds[color.index()].insert(kind);
                }
                for sq in board {
                    t.rider_lines[cs(color, sq)] |= t.ray(d.opposite(), sq);
                }
            }
        }
        for color in Color::ALL {
            for ki in 0..num_kinds {
                let kind = PieceKind(ki as u8);
                let shifts = shifts_of(t, &self.lame_lists, board, color, kind);
                if let Some(s) = &shifts {
                    t.shifts_pay_from[ck(color, kind)] = s.len().clamp(2, u8::MAX as usize) as u8;
                }
                t.shifts[ck(color, kind)] = shifts;
            }
        }
        pack(self.lame_lists, &mut t.lame, &mut t.lame_span);
        pack(self.rev_lame_lists, &mut t.rev_lame, &mut t.rev_lame_span);
        self.t
    }
}

/// The leaps of a (colour, kind) grouped by their offset (and a lame leap's path), if it has
/// no rides and no more than `MAX_SHIFTS` groups.
fn shifts_of(
    t: &Tables,
    lame_lists: &[Vec<LameLeap>],
    board: Bitboard,
    color: Color,
    kind: PieceKind,
) -> Option<Shifts> {
    if t.quiet_rides[ck(color, kind)].dirs != 0 || t.capture_rides[ck(color, kind)].dirs != 0 {
        return None;
    }
    fn add(list: &mut Vec<Shift>, offset: i16, sq: Square) {
        match list.iter_mut().find(|s| s.offset == offset) {
            Some(s) => s.from.insert(sq),
            None => list.push(Shift {
                offset,
                from: Bitboard::from_square(sq),
            }),
        }
    }
    let diff = |from: Square, to: Square| to.index() as i16 - from.index() as i16;
    let mut out = Shifts::default();
    for sq in board {
        for to in t.leap_quiet[cks(color, kind, sq)] {
            add(&mut out.quiet, diff(sq, to), sq);
        }
        for to in t.leap_capture[cks(color, kind, sq)] {
            add(&mut out.capture, diff(sq, to), sq);
        }
        for l in &lame_lists[cks(color, kind, sq)] {
            if l.via.count() > 2 {
                return None;
            }
            let mut via = [0i16; 2];
            for (i, v) in l.via.into_iter().enumerate() {
                via[i] = diff(sq, v);
            }
            let via_len = l.via.count() as u8;
            let offset = diff(sq, l.square);
            match out.lame.iter_mut().find(|s| {
                s.leap.offset == offset
                    && s.via == via
                    && s.via_len == via_len
                    && s.modality == l.modality
            }) {
                Some(s) => s.leap.from.insert(sq),
                None => out.lame.push(LameShift {
                    leap: Shift {
                        offset,
                        from: Bitboard::from_square(sq),
                    },
                    via,
                    via_len,
                    modality: l.modality,
                }),
            }
        }
        if out.len() > MAX_SHIFTS {
            return None;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Appends the lists to `flat` one after another, each one's span in `spans`.
fn pack(lists: Vec<Vec<LameLeap>>, flat: &mut Vec<LameLeap>, spans: &mut [(u32, u32)]) {
    for (i, list) in lists.into_iter().enumerate() {
        let s = flat.len() as u32;
        flat.extend(list);
        spans[i] = (s, flat.len() as u32);
    }
}

/// Whether a (colour, kind) has any capturing lame leap, from the reverse lists.
fn lame_lists_have_capture(rev: &[Vec<LameLeap>], c: Color, k: PieceKind) -> bool {
    let start = cks(c, k, Square::from_index(0));
    rev[start..start + NUM_SQUARES]
        .iter()
        .any(|l| !l.is_empty())
}
