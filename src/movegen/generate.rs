//! Pseudo-legal generation from the compiled tables: moves that follow the pieces' movement for
//! the pieces the game lets the side to move move (`Hooks::rights`), with the captures it allows,
//! ignoring whether a royal piece is left exposed. Castling, drops and the game's own moves are
//! added here too; the legality filter then applies the game's `allows` hook.

use crate::board::Position;
use crate::core::{Bitboard, Color, Move, MoveList, PieceKind, Square};
use crate::rules::{shift, Rules, Shifts};

use super::{Hooks, Method, Rights};

/// Pushes a move to `to`, expanded into promotions where the piece must promote there.
#[inline]
pub fn push_target(
    rules: &Rules,
    out: &mut MoveList,
    us: Color,
    kind: PieceKind,
    from: Square,
    to: Square,
) {
    let promos = &rules.kinds[kind.index()].promotions;
    if !promos.is_empty() && rules.promotion_zone(us).contains(to) {
        for &p in promos {
            out.push(Move::promotion(from, to, p));
        }
    } else {
        out.push(Move::normal(from, to));
    }
}

/// All pseudo-legal moves of the side to move, the game's own included, before the game's
/// `allows` filter (which the legality filter applies in the same pass).
pub fn pseudo_legal<H: Hooks + ?Sized>(h: &H, pos: &Position, in_check: bool, out: &mut MoveList) {
    pseudo_legal_judged(h, pos, in_check, None, out);
}

/// `pseudo_legal`, where the castling moves of the royal piece on `judged_royal` leave their
/// target to the legality filter (`Shortcuts::by_tables`).
pub(super) fn pseudo_legal_judged<H: Hooks + ?Sized>(
    h: &H,
    pos: &Position,
    in_check: bool,
    judged_royal: Option<Square>,
    out: &mut MoveList,
) {
    let rules = h.rules();
    let rights = h.rights(pos, in_check);
    board_moves(rules, pos, &rights, false, out);
    castling(h, pos, in_check, judged_royal, out);
    drops(rules, pos, out);
    h.extra_moves(pos, in_check, out);
    if h.turns_have_parts() {
        h.complete_turns(pos, out);
    }
}

/// The pseudo-legal moves of the tables that change material: captures (en passant included) and
/// promotions, before the game's `allows` filter. The game's own noisy moves are added by the
/// legality pipeline.
pub fn pseudo_legal_noisy<H: Hooks + ?Sized>(
    h: &H,
    pos: &Position,
    in_check: bool,
    out: &mut MoveList,
) {
    let rights = h.rights(pos, in_check);
    board_moves(h.rules(), pos, &rights, true, out);
}

/// Board moves of the pieces `rights` names; with `noisy_only`, only captures and promotions.
/// Pieces move in the direction of the side to move (a neutral piece moved by a player goes
/// that player's way).
fn board_moves(
    rules: &Rules,
    pos: &Position,
    rights: &Rights,
    noisy_only: bool,
    out: &mut MoveList,
) {
    board_moves_into(rules, pos, rights, noisy_only, &mut ListSink { rules, out });
}

/// Where generation puts the targets it finds: a move list, or a count with a list of the
/// moves the count may not take as legal (`CountSink`).
pub(super) trait Sink {
    /// The moves of the piece of `kind` on `from` to each of `targets`, expanded into
    /// promotions where the piece must promote (in target order).
    fn targets(&mut self, us: Color, kind: PieceKind, from: Square, targets: Bitboard);
    /// `targets` with one target.
    fn target(&mut self, us: Color, kind: PieceKind, from: Square, to: Square) {
        self.targets(us, kind, from, Bitboard::from_square(to));
    }
    /// One move of any other kind.
    fn push(&mut self, m: Move);
    /// Whether the order of the moves does not matter, so that pieces may be generated a kind
    /// at a time (`Shifts`).
    const IN_BULK: bool = false;
    /// The pieces whose moves may be generated a kind at a time, when `IN_BULK`.
    fn in_bulk(&self) -> Bitboard {
        Bitboard::EMPTY
    }
    /// The moves of pieces of `kind` onto `targets`, each from `offset` index steps back.
    fn shifted(&mut self, us: Color, kind: PieceKind, targets: Bitboard, offset: i16) {
        for to in targets {
            let from = Square::from_index((to.index() as i16 - offset) as u8);
            self.targets(us, kind, from, Bitboard::from_square(to));
        }
    }
}

/// Pushes every move into a list.
struct ListSink<'a> {
    rules: &'a Rules,
    out: &'a mut MoveList,
}

impl Sink for ListSink<'_> {
    #[inline(always)]
    fn targets(&mut self, us: Color, kind: PieceKind, from: Square, targets: Bitboard) {
        for to in targets {
            push_target(self.rules, self.out, us, kind, from, to);
        }
    }

    #[inline(always)]
    fn target(&mut self, us: Color, kind: PieceKind, from: Square, to: Square) {
        push_target(self.rules, self.out, us, kind, from, to);
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.out.push(m);
    }
}

/// Counts the plain moves (not promotions) of the pieces on `safe` that end off `risky` (the
/// ordinary moves the legality filter takes as legal without looking further, `Shortcuts`)
/// and lists every other move in `rest`, for the filter.
/// The plain targets of the piece on `royal` (one square or none) are gathered in
/// `royal_targets` instead, for the caller to judge together: a piece that promotes or has
/// lame leaps may not be put there (its promotions would be lost, and a square reached two
/// ways would count once).
pub(super) struct CountSink<'a> {
    pub rules: &'a Rules,
    pub safe: Bitboard,
    pub risky: Bitboard,
    pub evasions: Bitboard,
    pub count: usize,
    pub rest: &'a mut MoveList,
    pub royal: Bitboard,
    pub royal_targets: Bitboard,
}

impl Sink for CountSink<'_> {
    #[inline(always)]
    fn targets(&mut self, us: Color, kind: PieceKind, from: Square, targets: Bitboard) {
        let listed = if self.safe.contains(from) {
            // Promotions are listed, so that the game's `allows` still judges them.
            let mut listed = targets & self.risky;
            if self.rules.promoting.contains(kind) {
                listed |= targets & self.rules.promotion_zone(us);
            }
            self.count += (targets & self.evasions & !listed).count() as usize;
            listed
        } else if self.royal.contains(from) {
            self.royal_targets |= targets;
            return;
        } else {
            targets
        };
        for to in listed {
            push_target(self.rules, self.rest, us, kind, from, to);
        }
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.rest.push(m);
    }

    const IN_BULK: bool = true;

    #[inline(always)]
    fn in_bulk(&self) -> Bitboard {
        self.safe
    }

    #[inline(always)]
    fn shifted(&mut self, us: Color, kind: PieceKind, targets: Bitboard, offset: i16) {
        let mut listed = targets & self.risky;
        if self.rules.promoting.contains(kind) {
            listed |= targets & self.rules.promotion_zone(us);
        }
        self.count += (targets & self.evasions & !listed).count() as usize;
        for to in listed {
            let from = Square::from_index((to.index() as i16 - offset) as u8);
            push_target(self.rules, self.rest, us, kind, from, to);
        }
    }
}

/// `board_moves` into any sink.
#[inline(always)]
pub(super) fn board_moves_into<S: Sink>(
    rules: &Rules,
    pos: &Position,
    rights: &Rights,
    noisy_only: bool,
    out: &mut S,
) {
    let us = pos.turn();
    let occ = pos.occupied();
    let empty = !occ & rules.geometry().board();
    // Pieces whose moves may be generated a kind at a time, as shifts of the board.
    let bulk = out.in_bulk();
    for owner in Color::ALL {
        let movers = rights.movers & pos.color_bb(owner);
        if movers.is_empty() {
            continue;
        }
        let them = rights.victims[owner];
        // A victim on an empty square would make a quiet leap and a capture one move twice.
        let bulk = if S::IN_BULK && (them & empty).is_empty() {
            bulk
        } else {
            Bitboard::EMPTY
        };
        for kind in PieceKind::all(rules.num_kinds()) {
            let mut mine = movers & pos.kind_bb(kind);
            if mine.is_empty() {
                continue;
            }
            // Squares a quiet move may go to: all empty ones, or for noisy moves only the empty
            // squares where this kind promotes.
            let quiet_to = if !noisy_only {
                empty
            } else if !rules.promoting.contains(kind) {
                Bitboard::EMPTY
            } else {
                empty & rules.promotion_zone(us)
            };
            let to = Targets {
                occupied: occ,
                empty,
                quiet: quiet_to,
                victims: them,
            };
            let together = mine & bulk;
            if S::IN_BULK && together.count() >= rules.tables.shifts_pay_from(us, kind) {
                if let Some(shifts) = rules.tables.shifts(us, kind) {
                    shifted_moves(us, kind, together, shifts, &to, out);
                    mine &= !together;
                }
            }
            piece_moves(rules, us, kind, mine, &to, out);
        }
    }
    en_passant_into(rules, pos, rights.movers, out);
}

/// En-passant captures by the pieces on `movers`.
pub fn en_passant(rules: &Rules, pos: &Position, movers: Bitboard, out: &mut MoveList) {
    en_passant_into(rules, pos, movers, &mut ListSink { rules, out });
}

/// `en_passant` into any sink.
#[inline(always)]
fn en_passant_into<S: Sink>(rules: &Rules, pos: &Position, movers: Bitboard, out: &mut S) {
    let Some(victim) = pos.ep_victim() else {
        return;
    };
    let us = pos.turn();
    for kind in rules.en_passant {
        for to in pos.ep_targets() {
            for from in rules.tables.leap_capturers(us, kind, to) & pos.kind_bb(kind) & movers {
                out.push(Move::en_passant(from, to, victim));
            }
        }
    }
}

/// The squares a piece's moves may end on: the board's occupancy, its empty squares, those a
/// quiet move may go to and those a capture may go to.
#[derive(Clone, Copy)]
struct Targets {
    occupied: Bitboard,
    empty: Bitboard,
    quiet: Bitboard,
    victims: Bitboard,
}

/// Moves of the pieces of one kind on `from_squares`, going `us`'s way, onto `to`.
#[inline(always)]
fn piece_moves<S: Sink>(
    rules: &Rules,
    us: Color,
    kind: PieceKind,
    from_squares: Bitboard,
    to: &Targets,
    out: &mut S,
) {
    let t = &rules.tables;
    let Targets {
        occupied: occ,
        empty,
        quiet: quiet_to,
        victims,
    } = *to;
    let symmetric = t.symmetric(us, kind);
    let qr = t.quiet_rides(us, kind);
    let cr = t.capture_rides(us, kind);
    let lame = t.has_lame(us, kind);
    // Most kinds either ride or leap: a leaper skips the rides' lookups.
    let rides = cr.dirs != 0;
    for from in from_squares {
        let targets = if symmetric {
            let mut targets = t.leap_capture(us, kind, from);
            if rides {
                targets |= t.ride_targets(cr, from, occ);
            }
            targets & (quiet_to | victims)
        } else {
            let mut quiet = t.leap_quiet(us, kind, from);
            let mut caps = t.leap_capture(us, kind, from);
            if qr.dirs != 0 {
                quiet |= t.ride_targets(qr, from, occ);
            }
            if cr.dirs != 0 {
                caps |= t.ride_targets(cr, from, occ);
            }
            (quiet & quiet_to) | (caps & victims)
        };
        out.targets(us, kind, from, targets);
        if lame {
            for l in t.lame(us, kind, from) {
                if (l.via & occ).nonempty() {
                    continue;
                }
                let ok = if empty.contains(l.square) {
                    l.modality.moves() && quiet_to.contains(l.square)
                } else {
                    victims.contains(l.square) && l.modality.captures()
                };
                if ok {
                    out.target(us, kind, from, l.square);
                }
            }
        }
    }
}

/// The moves of the pieces of one kind on `pieces`, going `us`'s way, onto `to`, a leap at a
/// time for all of them (in the order of the leaps, not of the pieces).
#[inline(always)]
fn shifted_moves<S: Sink>(
    us: Color,
    kind: PieceKind,
    pieces: Bitboard,
    shifts: &Shifts,
    to: &Targets,
    out: &mut S,
) {
    for s in &shifts.quiet {
        out.shifted(us, kind, s.targets(pieces) & to.quiet, s.offset);
    }
    for s in &shifts.capture {
        out.shifted(us, kind, s.targets(pieces) & to.victims, s.offset);
    }
    for l in &shifts.lame {
        let mut from = pieces;
        for &v in &l.via[..l.via_len as usize] {
            from &= shift(to.empty, -v);
        }
        let reached = l.leap.targets(from);
        let mut targets = Bitboard::EMPTY;
        if l.modality.moves() {
            targets |= reached & to.empty & to.quiet;
        }
        if l.modality.captures() {
            targets |= reached & !to.empty & to.victims;
        }
        out.shifted(us, kind, targets, l.leap.offset);
    }
}

/// The table moves of the pieces on `from_squares` (all of one kind, moved by the side to move),
/// for games that build their own moves on them (a pawn move that also promotes elsewhere);
/// en passant is `en_passant`.
pub fn moves_of(
    rules: &Rules,
    pos: &Position,
    kind: PieceKind,
    from_squares: Bitboard,
    victims: Bitboard,
    out: &mut MoveList,
) {
    let occupied = pos.occupied();
    let empty = !occupied & rules.geometry().board();
    let to = Targets {
        occupied,
        empty,
        quiet: empty,
        victims,
    };
    piece_moves(
        rules,
        pos.turn(),
        kind,
        from_squares,
        &to,
        &mut ListSink { rules, out },
    );
}

/// Castling moves whose king and partner stand unmoved on their squares, with the squares
/// between empty and the king's squares safe by the game's attack test; a king on
/// `judged_royal` has its target left to the legality filter, which judges it with both pieces
/// moved (`Shortcuts::by_tables`).
pub(super) fn castling<H: Hooks + ?Sized>(
    h: &H,
    pos: &Position,
    in_check: bool,
    judged_royal: Option<Square>,
    out: &mut MoveList,
) {
    let rules = h.rules();
    let us = pos.turn();
    let unmoved = pos.unmoved();
    // Every castling needs an unmoved king of the mover, so a mover with no unmoved piece at
    // all (most positions past the opening) has none.
    if (unmoved & pos.color_bb(us)).is_empty() {
        return;
    }
    let mut attackers = None;
    let occ = pos.occupied();
    for c in rules.spec.castling.iter().filter(|c| c.color == us) {
        // The squares between first: the test that fails most often. They never hold the
        // king or the partner (`Rules::compile`).
        if (c.must_be_empty & occ).nonempty() {
            continue;
        }
        if !unmoved.contains(c.king_from) || !unmoved.contains(c.partner_from) {
            continue;
        }
        if pos.piece_at(c.king_from) != crate::core::Piece::new(us, c.king)
            || pos.piece_at(c.partner_from) != crate::core::Piece::new(us, c.partner)
        {
            continue;
        }
        if in_check && c.must_be_safe.contains(c.king_from) {
            continue;
        }
        let attackers = *attackers.get_or_insert_with(|| h.attackers(pos, us));
        // Making the move would test the target on the board before the move as well as after
        // it. The two differ only where the partner, landing, closes a way onto the target
        // that was open: a lame leap's path, or a line from beyond it when it does not land on
        // the king's path (a line through a square of the path meets the king first). Without
        // either, the filter's test after the move suffices.
        let judged_later = if judged_royal == Some(c.king_from)
            && c.must_be_safe.contains(c.partner_to)
            && !rules.tables.any_lame_capture()
        {
            Some(c.king_to)
        } else {
            None
        };
        if c.must_be_safe
            .into_iter()
            .filter(|&sq| sq != c.king_from && Some(sq) != judged_later)
            .any(|sq| h.attacked(pos, sq, occ, attackers, Method::Fast))
        {
            continue;
        }
        out.push(Move::castle(c.king_from, c.king_to, c.partner_from));
    }
}

/// Drops from the side to move's reserve onto the empty squares of its drop zone (never a
/// promoting piece into its promotion zone).
pub(super) fn drops(rules: &Rules, pos: &Position, out: &mut MoveList) {
    let us = pos.turn();
    if pos.reserve().is_empty_for(us) {
        return;
    }
    let empty = !pos.occupied() & rules.spec.drop_zone[us];
    for kind in PieceKind::all(rules.num_kinds()) {
        if pos.reserve().count(us, kind) == 0 {
            continue;
        }
        let mut targets = empty;
        if rules.promoting.contains(kind) {
            targets &= !rules.promotion_zone(us);
        }
        for to in targets {
            out.push(Move::drop(kind, to));
        }
    }
}
