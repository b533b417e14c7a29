//! The legality filter. Pseudo-legal moves are kept when they leave no royal piece of the mover
//! exposed, as the game's `exposed` hook judges it. Most are shown legal without making them:
//! the `shortcuts` hook names the pieces whose ordinary moves cannot expose a royal piece, and a
//! royal piece's ordinary move is legal when its target is not attacked with the royal piece
//! lifted off the board. With the default shortcuts, a piece pinned along a line is kept to it,
//! and a royal piece's castling is judged by its target with both pieces moved. Every other move
//! (en passant, a game's own kinds, most moves in check) is made and judged.

use crate::board::{Position, PositionError};
use crate::core::{Bitboard, Color, Move, MoveKind, MoveList, PieceKind, Square};
use crate::rules::{Direction, Rules};

use super::attacks::{self, SquareTest};
use super::{generate, Hooks, Method, Shortcuts};

/// All legal moves of the side to move; `in_check` says whether it is in check.
pub fn legal<H: Hooks + ?Sized>(h: &H, pos: &Position, in_check: bool, out: &mut MoveList) {
    legal_with(h, pos, in_check, h.shortcuts(pos, in_check), out);
}

/// `legal` for the side to move, whether it is in check found with the shortcuts
/// (`Hooks::check_and_shortcuts`).
pub fn legal_here<H: Hooks + ?Sized>(h: &H, pos: &Position, out: &mut MoveList) {
    let (in_check, shortcuts) = h.check_and_shortcuts(pos);
    legal_with(h, pos, in_check, shortcuts, out);
}

/// `legal` with the game's `shortcuts` for the position already found.
fn legal_with<H: Hooks + ?Sized>(
    h: &H,
    pos: &Position,
    in_check: bool,
    shortcuts: Shortcuts,
    out: &mut MoveList,
) {
    generate::pseudo_legal_judged(h, pos, in_check, judged_royal(shortcuts), out);
    filter_legal(h, pos, shortcuts, out);
    enforce_compulsion(h, pos, out);
}

/// The royal piece whose castling targets the legality filter judges (`Shortcuts::by_tables`),
/// so that generation need not.
fn judged_royal(shortcuts: Shortcuts) -> Option<Square> {
    shortcuts.royal.filter(|_| shortcuts.by_tables)
}

/// The number of legal moves of the side to move, as `legal` would list them. Where the game
/// lets it (`Hooks::counts_in_bulk`), the moves the shortcuts prove legal are counted by their
/// targets without being listed, and so are the royal piece's plain moves that the square
/// test finds safe (`Shortcuts::by_tables`); the rest are listed and filtered as `legal` does.
pub fn legal_count<H: Hooks + ?Sized>(h: &H, pos: &Position, in_check: bool) -> usize {
    legal_count_with(h, pos, in_check, &mut MoveList::new())
}

/// `legal_count` with `rest` as the list of the moves it must judge one by one (emptied first,
/// left in any state): a caller counting many positions fills one list once, not one a count.
pub fn legal_count_with<H: Hooks + ?Sized>(
    h: &H,
    pos: &Position,
    in_check: bool,
    rest: &mut MoveList,
) -> usize {
    count_with(h, pos, in_check, h.shortcuts(pos, in_check), rest)
}

/// `legal_count_with` for the side to move, whether it is in check found with the shortcuts
/// (`Hooks::check_and_shortcuts`).
pub fn legal_count_here<H: Hooks + ?Sized>(h: &H, pos: &Position, rest: &mut MoveList) -> usize {
    let (in_check, shortcuts) = h.check_and_shortcuts(pos);
    count_with(h, pos, in_check, shortcuts, rest)
}

/// `legal_count_with` with the game's `shortcuts` for the position already found.
fn count_with<H: Hooks + ?Sized>(
    h: &H,
    pos: &Position,
    in_check: bool,
    shortcuts: Shortcuts,
    rest: &mut MoveList,
) -> usize {
    rest.clear();
    if !h.counts_in_bulk(pos)
        || h.turns_have_parts()
        || h.compelled(pos).nonempty()
        || shortcuts.every_move
    {
        legal_with(h, pos, in_check, shortcuts, rest);
        return rest.len();
    }
    let rules = h.rules();
    let rights = h.rights(pos, in_check);
    // The royal piece's plain moves are gathered, to be judged together (not if it promotes,
    // whose promotions are listed, nor if it has lame leaps, which may reach a square twice).
    let royal = judged_royal(shortcuts).filter(|&k| {
        let kind = pos.piece_at(k).kind();
        !rules.promoting.contains(kind) && !rules.tables.has_lame(pos.turn(), kind)
    });
    let mut sink = generate::CountSink {
        rules,
        safe: shortcuts.safe,
        risky: shortcuts.risky,
        evasions: shortcuts.evasions,
        count: 0,
        rest: &mut *rest,
        royal: royal.map_or(Bitboard::EMPTY, Bitboard::from_square),
        royal_targets: Bitboard::EMPTY,
    };
    generate::board_moves_into(rules, pos, &rights, false, &mut sink);
    let royal_targets = sink.royal_targets;
    let mut counted = sink.count;
    if let Some(ksq) = royal.filter(|_| royal_targets.nonempty()) {
        counted += royal_count(h, pos, ksq, royal_targets & !shortcuts.risky, rest);
        for to in royal_targets & shortcuts.risky {
            rest.push(Move::normal(ksq, to));
        }
    }
    generate::castling(h, pos, in_check, judged_royal(shortcuts), rest);
    generate::drops(rules, pos, rest);
    let mut extra = BulkCount {
        shortcuts,
        count: 0,
        rest: &mut *rest,
    };
    h.count_extra_moves(pos, in_check, &mut extra);
    let counted = counted + extra.count;
    if rest.is_empty() {
        return counted;
    }
    filter_legal(h, pos, shortcuts, rest);
    counted + rest.len()
}

/// Up to this many targets of a royal piece are tested one at a time; beyond, against the
/// squares all the attackers attack. Measured, of none to four, by instructions
/// (docs/performance.md, issue 28's eighth step).
const ROYAL_TARGETS_TESTED_ALONE: u32 = 3;

/// The number of the plain moves of the royal piece on `ksq` to `targets` that leave it
/// unattacked (`Shortcuts::by_tables`): as the legality filter judges them, with the attackers
/// made ready once. Where they cannot be (`SquareTest::new`), the moves are listed in `rest`
/// for the filter. Out of line: inlined, it slowed the count where it is not called by 5%.
#[inline(never)]
fn royal_count<H: Hooks + ?Sized>(
    h: &H,
    pos: &Position,
    ksq: Square,
    targets: Bitboard,
    rest: &mut MoveList,
) -> usize {
    let rules = h.rules();
    let without_royal = pos.occupied() & !Bitboard::from_square(ksq);
    let attackers = h.attackers(pos, pos.turn()) & without_royal;
    let Some(test) = SquareTest::new(rules, pos, attackers) else {
        for to in targets {
            rest.push(Move::normal(ksq, to));
        }
        return 0;
    };
    if targets.count() <= ROYAL_TARGETS_TESTED_ALONE {
        // The piece it captures attacks nothing any more.
        targets
            .filter(|&to| !test.attacked(rules, pos, to, without_royal, Bitboard::from_square(to)))
            .count()
    } else {
        (targets & !test.attacked_squares(rules, pos, without_royal)).count() as usize
    }
}

/// Where a game's moves beyond the tables go when the legal moves are counted
/// (`Hooks::count_extra_moves`): its plain moves that the shortcuts prove legal are counted
/// without being listed, as the legality filter would keep them; every other move is listed
/// for the filter.
pub struct BulkCount<'a> {
    shortcuts: Shortcuts,
    count: usize,
    rest: &'a mut MoveList,
}

impl BulkCount<'_> {
    /// The plain moves (`Move::normal`: not promotions, and kept by the game's `allows`) of
    /// the piece on `from` to each of `targets`: counted where the piece is `safe` and the
    /// target neither `risky` nor off the `evasions` (where the filter drops them as illegal);
    /// listed where the piece is not safe or the target is risky.
    #[inline]
    pub fn normals(&mut self, from: Square, targets: Bitboard) {
        let Shortcuts {
            safe,
            risky,
            evasions,
            ..
        } = self.shortcuts;
        let listed = if safe.contains(from) {
            self.count += (targets & evasions & !risky).count() as usize;
            targets & risky
        } else {
            targets
        };
        for to in listed {
            self.rest.push(Move::normal(from, to));
        }
    }

    /// Drops of `kind` onto each of `targets` (which `allows` must keep): counted where the
    /// shortcuts prove drops legal (`drops_and_pass`), listed otherwise.
    #[inline]
    pub fn drops(&mut self, kind: PieceKind, targets: Bitboard) {
        if self.shortcuts.drops_and_pass {
            self.count += targets.count() as usize;
        } else {
            for to in targets {
                self.rest.push(Move::drop(kind, to));
            }
        }
    }

    /// Any other move: listed, for the legality filter to judge.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.rest.push(m);
    }

    /// The list of the moves to be judged, for a game that lists them all (the default
    /// `count_extra_moves`).
    pub fn rest(&mut self) -> &mut MoveList {
        self.rest
    }
}

/// The legal moves that change material (what quiescence searches): the same as `legal`
/// filtered by the game's `is_noisy`.
pub fn legal_noisy<H: Hooks + ?Sized>(h: &H, pos: &Position, in_check: bool, out: &mut MoveList) {
    if h.compelled(pos).nonempty() || h.turns_have_parts() {
        // Whether a piece must move depends on all the legal moves; a turn's later parts may
        // capture where its first did not.
        legal(h, pos, in_check, out);
        out.retain(|m| h.is_noisy(pos, m));
        return;
    }
    generate::pseudo_legal_noisy(h, pos, in_check, out);
    let mut extra = MoveList::new();
    h.extra_moves(pos, in_check, &mut extra);
    for &m in extra.iter() {
        if h.is_noisy(pos, m) {
            out.push(m);
        }
    }
    retain_legal(h, pos, in_check, out);
}

/// Keeps only the moves of the pieces the game compels to move, if one of them has a legal
/// move (RULINGS §1.4 item 7: without one the obligation lapses).
pub fn enforce_compulsion<H: Hooks + ?Sized>(h: &H, pos: &Position, moves: &mut MoveList) {
    let compelled = h.compelled(pos);
    if compelled.nonempty() && moves.iter().any(|m| compelled.contains(m.from())) {
        moves.retain(|m| compelled.contains(m.from()));
    }
}

/// Whether `m` (pseudo-legal) leaves the mover's royal pieces safe, by making it in `made`
/// (`play_in`: over the position the move before was made in). Out of line: inlined into the
/// filter's loop, it cost Magician's perft 2% more instructions.
#[inline(never)]
fn legal_by_making<H: Hooks + ?Sized>(
    h: &H,
    pos: &Position,
    m: Move,
    made: &mut Option<Position>,
) -> bool {
    let next = super::play_in(h, pos, m, made);
    !h.exposed(pos, m, next, Method::Fast)
}

/// Keeps the pseudo-legal moves of `out` that the game allows and that leave no royal piece of
/// the mover exposed.
#[inline(never)]
fn retain_legal<H: Hooks + ?Sized>(h: &H, pos: &Position, in_check: bool, out: &mut MoveList) {
    filter_legal(h, pos, h.shortcuts(pos, in_check), out);
}

/// `retain_legal` with the position's shortcuts already worked out.
#[inline(always)]
fn filter_legal<H: Hooks + ?Sized>(
    h: &H,
    pos: &Position,
    shortcuts: Shortcuts,
    out: &mut MoveList,
) {
    if shortcuts.every_move {
        out.retain(|m| h.allows(pos, m));
    } else if shortcuts.evasions == Bitboard::ALL {
        filter_by_shortcuts::<H, false>(h, pos, shortcuts, out);
    } else {
        filter_by_shortcuts::<H, true>(h, pos, shortcuts, out);
    }
}

/// `filter_legal` by the shortcuts; `EVADING` says whether the safe pieces' moves must end on
/// `shortcuts.evasions` (in check), so that the test costs nothing out of check.
#[inline(always)]
fn filter_by_shortcuts<H: Hooks + ?Sized, const EVADING: bool>(
    h: &H,
    pos: &Position,
    shortcuts: Shortcuts,
    out: &mut MoveList,
) {
    let us = pos.turn();
    let Shortcuts {
        safe,
        risky,
        royal,
        line_pinned,
        by_tables,
        drops_and_pass,
        evasions,
        ..
    } = shortcuts;
    let (attackers, without_royal) = match royal {
        Some(k) => (
            h.attackers(pos, us),
            pos.occupied() & !Bitboard::from_square(k),
        ),
        None => (Bitboard::EMPTY, Bitboard::EMPTY),
    };
    // The attackers made ready for the royal piece's targets, at its first move.
    let mut square_test: Option<Option<SquareTest>> = None;
    // Where the moves judged by making them are made, one after another.
    let mut made = None;
    out.retain(|m| {
        if !h.allows(pos, m) {
            false
        } else if m.is_ordinary() {
            if safe.contains(m.from()) && !risky.contains(m.to()) {
                !EVADING || evasions.contains(m.to())
            } else if Some(m.from()) == royal {
                // The piece it captures attacks nothing any more.
                let captured = Bitboard::from_square(m.to());
                let test = square_test.get_or_insert_with(|| {
                    by_tables
                        .then(|| SquareTest::new(h.rules(), pos, attackers & without_royal))
                        .flatten()
                });
                match test {
                    Some(test) => !test.attacked(h.rules(), pos, m.to(), without_royal, captured),
                    None => {
                        let attackers = attackers & without_royal & !captured;
                        !h.attacked(pos, m.to(), without_royal, attackers, Method::Fast)
                    }
                }
            } else if !EVADING && line_pinned.contains(m.from()) && !risky.contains(m.to()) {
                let ksq = royal.expect("line pins are to the royal piece");
                stays_on_pin_line(h.rules(), pos, ksq, m.from(), m.to())
            } else {
                legal_by_making(h, pos, m, &mut made)
            }
        } else if by_tables && m.kind() == MoveKind::Castle && Some(m.from()) == royal {
            castles_safely(h, pos, m, attackers, &mut made)
        } else if m.kind() == MoveKind::Transform && !EVADING && safe.contains(m.from()) {
            // A transformation moves nothing, so it exposes nothing either (in check it
            // leaves the check standing: made and judged).
            true
        } else if drops_and_pass && matches!(m.kind(), MoveKind::Drop | MoveKind::Pass) {
            true
        } else if !EVADING
            && matches!(m.kind(), MoveKind::Special(_))
            && safe.contains(m.from())
            && !risky.contains(m.to())
            && h.judged_as_ordinary(pos, m)
        {
            // The game says the move exposes no more than an ordinary move of its piece.
            true
        } else {
            legal_by_making(h, pos, m, &mut made)
        }
    });
}

/// Whether the castling move `m` of the royal piece leaves it safe, its path having been found
/// safe when the move was generated: its target is not attacked by `attackers` with both pieces
/// moved (a partner that left a line may open it onto the target). A castling the rules do not
/// name is made in `made` and judged.
fn castles_safely<H: Hooks + ?Sized>(
    h: &H,
    pos: &Position,
    m: Move,
    attackers: Bitboard,
    made: &mut Option<Position>,
) -> bool {
    let us = pos.turn();
    let partner_from = m.aux().expect("castling has a partner");
    let Some(c) = h.rules().spec.castling.iter().find(|c| {
        c.color == us
            && c.king_from == m.from()
            && c.king_to == m.to()
            && c.partner_from == partner_from
    }) else {
        return legal_by_making(h, pos, m, made);
    };
    let lifted = Bitboard::from_square(c.king_from) | Bitboard::from_square(c.partner_from);
    let placed = Bitboard::from_square(c.king_to) | Bitboard::from_square(c.partner_to);
    let occ = (pos.occupied() & !lifted) | placed;
    !h.attacked(pos, c.king_to, occ, attackers, Method::Fast)
}

/// The default shortcuts, from the tables: with one royal piece and not in check, every piece
/// but the royal one and those standing alone between it and an enemy piece that captures along
/// that line, or on the path of an enemy lame leap onto it; the pieces surely pinned along a
/// line (`line_pinned`); and `by_tables`, which a game whose `attacked` is not the tables' must
/// clear. Conservative: a piece left out is tested by making its moves.
#[inline]
pub fn table_shortcuts(rules: &Rules, pos: &Position, in_check: bool) -> Shortcuts {
    let us = pos.turn();
    let royals = pos.royals(rules, us);
    if royals.is_empty() {
        // Nothing to expose: every move is legal unless the game says otherwise; in a game
        // without royal kinds, whatever its kind.
        return Shortcuts {
            safe: Bitboard::ALL,
            risky: Bitboard::EMPTY,
            royal: None,
            line_pinned: Bitboard::EMPTY,
            by_tables: false,
            every_move: rules.royal.is_empty(),
            drops_and_pass: false,
            evasions: Bitboard::ALL,
        };
    }
    let Some(ksq) = royals.first().filter(|_| !royals.more_than_one()) else {
        return Shortcuts::NONE;
    };
    if in_check {
        return royal_shortcuts(ksq, Bitboard::EMPTY, Bitboard::EMPTY);
    }
    not_in_check(ksq, pinned(rules, pos, ksq, us))
}

/// The shortcuts out of check for the royal piece on `ksq`, with what the pin search found.
#[inline(always)]
fn not_in_check(ksq: Square, lines: RoyalLines) -> Shortcuts {
    royal_shortcuts(
        ksq,
        !lines.pinned & !Bitboard::from_square(ksq),
        lines.line_pinned,
    )
}

/// The shortcuts by the tables for the royal piece on `ksq`, not in check or before the
/// evasions are known.
#[inline(always)]
fn royal_shortcuts(ksq: Square, safe: Bitboard, line_pinned: Bitboard) -> Shortcuts {
    Shortcuts {
        safe,
        risky: Bitboard::EMPTY,
        royal: Some(ksq),
        line_pinned,
        by_tables: true,
        every_move: false,
        drops_and_pass: false,
        evasions: Bitboard::ALL,
    }
}

/// `table_shortcuts`, and in check by the opponent's pieces (by their table movement) the
/// pieces that shield no line to the royal piece too: their ordinary moves are legal when they
/// take or block every checking piece (one square may block a line and a lame leap at once),
/// and illegal elsewhere. A check the tables do not see leaves every move to be made and judged.
#[inline]
pub fn table_evasions(rules: &Rules, pos: &Position, in_check: bool) -> Shortcuts {
    let mut s = table_shortcuts(rules, pos, in_check);
    let Some(ksq) = s.royal.filter(|_| in_check) else {
        return s;
    };
    let us = pos.turn();
    let Some(evasions) = evasion_squares(rules, pos, ksq, us.opponent()) else {
        return s;
    };
    s.safe = !pinned(rules, pos, ksq, us).pinned & !Bitboard::from_square(ksq);
    s.evasions = evasions;
    s
}

/// Whether the side to move is in check by the tables with the opponent's pieces as attackers
/// (the default `Hooks::in_check`), and `table_evasions` for it: out of check, the check
/// test's riders are those the pin search walks, so the two are found in one walk. Inlined:
/// returned through memory, the shortcuts were read back in wider loads than they were
/// stored in, which the processor cannot forward (4% of the start position's perft time).
#[inline(always)]
pub fn table_check_and_evasions(rules: &Rules, pos: &Position) -> (bool, Shortcuts) {
    let us = pos.turn();
    let them = us.opponent();
    let royals = pos.royals(rules, us);
    let Some(ksq) = royals.first().filter(|_| !royals.more_than_one()) else {
        let (occ, theirs) = (pos.occupied(), pos.color_bb(them));
        let in_check = royals
            .into_iter()
            .any(|k| attacks::table_attacked(rules, pos, k, occ, theirs));
        return (in_check, table_evasions(rules, pos, in_check));
    };
    if attacks::leapt_onto(rules, pos, ksq, pos.occupied(), pos.color_bb(them), them) {
        return (true, table_evasions(rules, pos, true));
    }
    let lines = pinned(rules, pos, ksq, us);
    if lines.checked {
        return (true, table_evasions(rules, pos, true));
    }
    (false, not_in_check(ksq, lines))
}

/// The squares where a move of a piece other than the royal one ends the check on `ksq` by
/// `them`'s pieces (by their table movement): those that take or block every checking piece
/// (its square, and the squares of its line or of its lame leap's path), for each checker in
/// turn, since in double check one square may block a line and a lame leap at once; None when
/// no piece checks.
fn evasion_squares(rules: &Rules, pos: &Position, ksq: Square, them: Color) -> Option<Bitboard> {
    let t = &rules.tables;
    let occ = pos.occupied();
    let theirs = pos.color_bb(them);
    let mut checked = false;
    let mut ends_all = Bitboard::ALL;
    let mut checker = |square: Square, blocks: Bitboard| {
        checked = true;
        ends_all &= Bitboard::from_square(square) | blocks;
    };
    for kind in t.leap_attack_kinds(them) {
        let of_kind = pos.kind_bb(kind) & theirs;
        if of_kind.is_empty() {
            continue;
        }
        for square in t.leap_capturers(them, kind, ksq) & of_kind {
            checker(square, Bitboard::EMPTY);
        }
        if t.has_lame_capture(them, kind) {
            for l in t.lame_capturers(them, kind, ksq) {
                if of_kind.contains(l.square) && (l.via & occ).is_empty() {
                    checker(l.square, l.via);
                }
            }
        }
    }
    for d in 0..8u8 {
        let d = Direction(d);
        if let Some(b) = attacks::rider_attacker(rules, pos, ksq, occ, theirs, them, d) {
            let back = d.opposite();
            checker(b, t.between(back, ksq, b));
        }
    }
    checked.then_some(ends_all)
}

/// What the pin search finds on the lines and lame paths onto a royal piece.
struct RoyalLines {
    /// Our pieces whose move could expose it: those standing alone between it and an enemy
    /// slider, and those on the path of an enemy lame leap onto it.
    pinned: Bitboard,
    /// Those of `pinned` held by a slider alone whose attack is certain once they leave its
    /// line (`Shortcuts::line_pinned`).
    line_pinned: Bitboard,
    /// Whether an enemy slider attacks it now, with nothing between.
    checked: bool,
}

impl RoyalLines {
    /// No pin and no check.
    const NONE: RoyalLines = RoyalLines {
        pinned: Bitboard::EMPTY,
        line_pinned: Bitboard::EMPTY,
        checked: false,
    };
}

/// The pin search for the royal piece on `ksq` of `us`. Inlined: returned through memory, its
/// boards were read back in 128-bit loads from 64-bit stores, which the processor cannot
/// forward (a stall of about a tenth of the count's time in `table_evasions`).
#[inline(always)]
fn pinned(rules: &Rules, pos: &Position, ksq: Square, us: Color) -> RoyalLines {
    let t = &rules.tables;
    let them = us.opponent();
    let ours = pos.color_bb(us);
    let riders = pos.kinds_bb(t.ride_attack_kinds(them)) & pos.color_bb(them);
    // Most royal pieces have no enemy rider on their lines at all: one mask test.
    let mut lines = if (t.rider_lines(them, ksq) & riders).is_empty() {
        RoyalLines::NONE
    } else {
        pinned_on_lines(rules, pos, ksq, ours, riders, them)
    };
    let mut on_lame_paths = Bitboard::EMPTY;
    for kind in t.lame_capture_kinds(them) {
        let theirs = pos.pieces(them, kind);
        for l in t.lame_capturers(them, kind, ksq) {
            if theirs.contains(l.square) {
                on_lame_paths |= l.via & ours;
            }
        }
    }
    lines.pinned |= on_lame_paths;
    lines.line_pinned &= !on_lame_paths;
    lines
}

/// The pieces of `ours` standing alone between `ksq` and a piece of `all_riders` (of colour
/// `them`) that captures along that line; those of them the piece beyond would surely attack
/// `ksq` through once they left, and whether such a piece attacks it with nothing between
/// (`Tables::rides_to`, the attack test's own check). A rider at a time among those on the
/// royal piece's lines (`Tables::toward`).
fn pinned_on_lines(
    rules: &Rules,
    pos: &Position,
    ksq: Square,
    ours: Bitboard,
    all_riders: Bitboard,
    them: Color,
) -> RoyalLines {
    let t = &rules.tables;
    let occ = pos.occupied();
    let mut lines = RoyalLines::NONE;
    for r in t.rider_lines(them, ksq) & all_riders {
        let Some(e) = t.toward(ksq, r) else {
            continue;
        };
        let d = e.opposite();
        let rides = t.capture_rides(them, pos.piece_at(r).kind());
        if rides.dirs & 1 << d.0 == 0 {
            continue;
        }
        let between = t.between(e, ksq, r) & occ;
        if between.is_empty() {
            lines.checked |= t.rides_to(rides, d, r, ksq);
            continue;
        }
        let Some(b1) = between.first().filter(|_| !between.more_than_one()) else {
            continue;
        };
        if !ours.contains(b1) {
            continue;
        }
        lines.pinned.insert(b1);
        if t.rides_to(rides, d, r, ksq) {
            lines.line_pinned.insert(b1);
        }
    }
    lines
}

/// Whether the move of the piece on `from`, pinned to the royal piece on `ksq` along a line
/// (`Shortcuts::line_pinned`), to `to` keeps that line shut: `to` lies between the two, or
/// on the pinning piece.
fn stays_on_pin_line(rules: &Rules, pos: &Position, ksq: Square, from: Square, to: Square) -> bool {
    let t = &rules.tables;
    let Some(e) = t.toward(ksq, from) else {
        return false;
    };
    let Some(pinner) = t.first_blocker(e, from, pos.occupied()) else {
        return false;
    };
    to == pinner || t.between(e, ksq, pinner).contains(to)
}

/// Checks every game shares unless it overrides `validate`: castling rights whose pieces stand on
/// their squares, one royal piece per player when the game has royal pieces, no promoting piece
/// standing on its promotion squares (it would have promoted on arriving), and the player not to
/// move not in check.
pub fn validate_basic<H: Hooks + ?Sized>(h: &H, pos: &Position) -> Result<(), PositionError> {
    let rules = h.rules();
    castling_pieces_stand(rules, pos, |sq, color, kind| {
        pos.piece_at(sq) == crate::core::Piece::new(color, kind)
    })?;
    if rules.royal.nonempty() {
        for c in Color::PLAYERS {
            let found = pos.royals(rules, c).count();
            if found != 1 {
                return Err(PositionError::RoyalCount { color: c, found });
            }
        }
    }
    for c in Color::PLAYERS {
        let promoting = pos.kinds_bb(rules.promoting) & pos.color_bb(c);
        if let Some(sq) = (promoting & rules.promotion_zone(c)).first() {
            return Err(PositionError::PieceOnPromotionRank(sq));
        }
    }
    let waiting = h.point_of_view(pos).opponent();
    if pos.turn() != Color::Neutral && royal_attacked(h, pos, waiting, Method::Fast) {
        return Err(PositionError::OpponentInCheck);
    }
    Ok(())
}

/// Checks that only the two players' pieces are in play: no neutral piece, nothing in reserve
/// (whose pieces could be dropped). Games with a third party or pieces off the board check
/// their own.
pub fn validate_two_players(pos: &Position) -> Result<(), PositionError> {
    if let Some(sq) = pos.color_bb(Color::Neutral).first() {
        return Err(PositionError::Variant(format!(
            "the piece on {sq} is neutral, and this game has no neutral pieces"
        )));
    }
    if !pos.reserve().is_empty() {
        return Err(PositionError::Variant(
            "pieces are in reserve, and this game has no reserve".to_string(),
        ));
    }
    Ok(())
}

/// Checks that no piece carries state, for games whose pieces have none (the default of
/// `Hooks::validate`): a FEN's `{...}` on their pieces is refused, not carried along unread.
pub fn validate_stateless(pos: &Position) -> Result<(), PositionError> {
    match pos.states().iter().next() {
        Some((sq, _)) => Err(PositionError::Variant(format!(
            "the piece on {sq} has state, which no piece of this game carries"
        ))),
        None => Ok(()),
    }
}

/// Checks that every castling right's king and partner stand on their squares, as `holds`
/// (square, colour, kind) judges it.
pub fn castling_pieces_stand(
    rules: &Rules,
    pos: &Position,
    holds: impl Fn(Square, Color, PieceKind) -> bool,
) -> Result<(), PositionError> {
    for c in &rules.spec.castling {
        let granted = pos.unmoved().contains(c.king_from) && pos.unmoved().contains(c.partner_from);
        if granted
            && !(holds(c.king_from, c.color, c.king) && holds(c.partner_from, c.color, c.partner))
        {
            return Err(PositionError::CastlingWithoutPieces {
                right: c.letter,
                king: rules.kinds[c.king.index()].spec.name,
                king_from: c.king_from,
                partner: rules.kinds[c.partner.index()].spec.name,
                partner_from: c.partner_from,
            });
        }
    }
    Ok(())
}

/// Whether a royal piece of `color` is attacked by the pieces that threaten it, by `how`.
pub fn royal_attacked<H: Hooks + ?Sized>(h: &H, pos: &Position, color: Color, how: Method) -> bool {
    let attackers = h.attackers(pos, color);
    let occ = pos.occupied();
    pos.royals(h.rules(), color)
        .into_iter()
        .any(|k| h.attacked(pos, k, occ, attackers, how))
}
