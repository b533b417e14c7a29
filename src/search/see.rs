//! Static exchange evaluation: what a move wins in material once both sides have captured on its
//! target square as long as it pays them, each with its least valuable attacker. It reads the
//! game's own attack test (`Variant::attacked_by`) for every piece kind, so leapers, riders, lame
//! leapers and pieces that capture differently than they move are all seen, and a piece that
//! leaves the square's lines uncovers the ones behind it. It holds only where a capture puts the
//! capturer in its victim's place and the victim is lost (`SearchSwitches::see_sound`); pins are
//! not looked at, and a royal piece captures only onto a square the other side no longer attacks.

use crate::board::Position;
use crate::core::{Bitboard, Color, Move, MoveKind, PieceKind, Square};
use crate::movegen;
use crate::variants::Variant;

/// Captures counted on one square at most (a board holds fewer pieces that can reach one square).
const SEE_DEPTH: usize = 40;

/// The game's piece kinds, least valuable first: the order attackers are looked for in.
pub(super) fn kinds_by_value(
    variant: &dyn Variant,
    value: &dyn Fn(PieceKind) -> i32,
) -> Vec<PieceKind> {
    let mut kinds: Vec<PieceKind> = PieceKind::all(variant.rules().num_kinds()).collect();
    kinds.sort_by_key(|&k| value(k));
    kinds
}

/// The piece of `side` that captures on `sq` with `occupied` as the board's pieces, the least
/// valuable of them by `kinds` (ordered least valuable first), the first by square among those
/// of its kind; none if no piece can. `by_tables` (`SearchSwitches::attacks_from_tables`) finds
/// them all in one pass, else the game's test is asked kind by kind.
fn least_valuable_attacker(
    variant: &dyn Variant,
    kinds: &[PieceKind],
    by_tables: bool,
    pos: &Position,
    sq: Square,
    side: Color,
    occupied: Bitboard,
) -> Option<Square> {
    let defender = side.opponent();
    let theirs = pos.color_bb(side) & occupied & !Bitboard::from_square(sq);
    if by_tables {
        let rules = variant.rules();
        let attackers = movegen::table_attackers(rules, pos, sq, occupied, theirs, side);
        if attackers.is_empty() {
            return None;
        }
        return kinds
            .iter()
            .map(|&k| attackers & pos.kind_bb(k))
            .find(|of_kind| of_kind.nonempty())
            .and_then(Bitboard::first);
    }
    if !variant.attacked_by(pos, sq, defender, occupied, theirs) {
        return None;
    }
    for &k in kinds {
        let of_kind = theirs & pos.kind_bb(k);
        if of_kind.is_empty() || !variant.attacked_by(pos, sq, defender, occupied, of_kind) {
            continue;
        }
        if !of_kind.more_than_one() {
            return of_kind.first();
        }
        return of_kind
            .into_iter()
            .find(|&a| variant.attacked_by(pos, sq, defender, occupied, Bitboard::from_square(a)));
    }
    None
}

/// How the game counts an exchange: its attack test, the values, and its kinds least valuable
/// first, with `by_tables` as in `least_valuable_attacker`.
pub(super) struct Counting<'a> {
    pub(super) variant: &'a dyn Variant,
    pub(super) value: &'a dyn Fn(PieceKind) -> i32,
    pub(super) kinds: &'a [PieceKind],
    pub(super) by_tables: bool,
}

/// The captures that follow a move on its target square, each side with its least valuable
/// attacker while it has one (a royal piece only onto a square the other side no longer
/// attacks).
struct Exchange<'a> {
    counting: &'a Counting<'a>,
    pos: &'a Position,
    to: Square,
    occupied: Bitboard,
    /// The kind standing on `to`, which the next capture takes.
    on_target: PieceKind,
    /// The side to capture next.
    side: Color,
}

impl<'a> Exchange<'a> {
    /// The exchange after the legal move `m` of `pos`; none for a move that puts no piece on
    /// its target (castling, a pass, the game's own kinds) and on a third party's turn, which
    /// are worth the material they win at once.
    fn after(counting: &'a Counting<'a>, pos: &'a Position, m: Move) -> Option<Exchange<'a>> {
        let us = pos.turn();
        if us == Color::Neutral
            || !matches!(
                m.kind(),
                MoveKind::Normal | MoveKind::Promotion | MoveKind::EnPassant
            )
        {
            return None;
        }
        let mut occupied = pos.occupied() & !Bitboard::from_square(m.from());
        if let (MoveKind::EnPassant, Some(victim)) = (m.kind(), m.aux()) {
            occupied &= !Bitboard::from_square(victim);
        }
        let on_target = match (m.kind(), m.piece()) {
            (MoveKind::Promotion, Some(k)) => k,
            _ => pos.piece_at(m.from()).kind(),
        };
        Some(Exchange {
            counting,
            pos,
            to: m.to(),
            occupied,
            on_target,
            side: us.opponent(),
        })
    }

    /// The value of the piece on the target square.
    fn on_target_value(&self) -> i32 {
        (self.counting.value)(self.on_target)
    }

    /// The next capture, if its side makes one: the value of the piece it takes.
    fn next_capture(&mut self) -> Option<i32> {
        let c = self.counting;
        let (pos, to, side) = (self.pos, self.to, self.side);
        let kinds = c.kinds;
        let a =
            least_valuable_attacker(c.variant, kinds, c.by_tables, pos, to, side, self.occupied)?;
        let kind = pos.piece_at(a).kind();
        let after = self.occupied & !Bitboard::from_square(a);
        // A royal piece may not capture onto a square the other side still attacks.
        if c.variant.rules().is_royal(kind)
            && c.variant
                .attacked_by(pos, to, side, after, pos.color_bb(side.opponent()))
        {
            return None;
        }
        let taken = self.on_target_value();
        self.on_target = kind;
        self.occupied = after;
        self.side = side.opponent();
        Some(taken)
    }
}

/// The static exchange evaluation of the legal move `m` in `pos`, in the units of the values:
/// negative when the move loses material on its target square. A move of a kind that does not
/// put a piece on `to` (castling, a pass, the game's own kinds) and a third party's ply are
/// worth the material they win at once. The whole count, kept as the reference that
/// `see_at_least`, which the search asks, is tested against.
#[cfg(test)]
pub(super) fn see(counting: &Counting, pos: &Position, m: Move) -> i32 {
    let gain = counting
        .variant
        .rulings()
        .material_gain(pos, m, counting.value);
    let Some(mut exchange) = Exchange::after(counting, pos, m) else {
        return gain;
    };
    // gains[d]: what the side making capture d has won if the other side stops after it.
    let mut gains = [0; SEE_DEPTH];
    gains[0] = gain;
    let mut d = 0;
    while d + 1 < SEE_DEPTH {
        let Some(taken) = exchange.next_capture() else {
            break;
        };
        d += 1;
        gains[d] = taken - gains[d - 1];
    }
    // Each side stops where going on would lose more.
    while d > 0 {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
        d -= 1;
    }
    gains[0]
}

/// Whether the static exchange evaluation of `m` (`see`) is at least `threshold`, found
/// without counting the whole exchange: after each capture, the side that made it keeps the
/// exchange's result on its side of the threshold even if the other side stops or wins the
/// capturing piece, or it does not, and the exchange is decided there.
pub(super) fn see_at_least(counting: &Counting, pos: &Position, m: Move, threshold: i32) -> bool {
    let gain = counting
        .variant
        .rulings()
        .material_gain(pos, m, counting.value);
    let Some(mut exchange) = Exchange::after(counting, pos, m) else {
        return gain >= threshold;
    };
    // `margin`: how far the side that just captured stands above the threshold if the
    // exchange stops here, from its point of view.
    let mut margin = gain - threshold;
    if margin < 0 {
        return false;
    }
    // The other side's margin if it takes the piece on the target and the exchange stops.
    margin = exchange.on_target_value() - margin;
    if margin <= 0 {
        return true;
    }
    // Whether the mover reaches the threshold as things stand, with the other side to take.
    let mut holds = true;
    for _ in 1..SEE_DEPTH {
        if exchange.next_capture().is_none() {
            break;
        }
        holds = !holds;
        margin = exchange.on_target_value() - margin;
        // The side that captured now wins even if it loses its piece: decided (ties go to the
        // mover, who reaches the threshold at exactly 0).
        if margin < i32::from(holds) {
            break;
        }
    }
    holds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Eval;
    use crate::notation::{parse_san, Dialect};
    use crate::variants;

    /// The SEE of the move `san` in FIDE chess from `fen`, with the textbook values below
    /// (the exchanges do not depend on the evaluation's tuned numbers).
    fn fide_see(fen: &str, san: &str) -> i32 {
        let v = variants::by_name("chess").unwrap();
        let pos = v.parse_fen(fen).unwrap();
        let m = parse_san(v, &pos, Dialect::Uci, san).unwrap();
        let value = |k: PieceKind| textbook(v.rules().kinds[k.index()].spec.letter);
        let kinds = kinds_by_value(v, &value);
        let counting = |by_tables| Counting {
            variant: v,
            value: &value,
            kinds: &kinds,
            by_tables,
        };
        let generic = see(&counting(false), &pos, m);
        assert_eq!(see(&counting(true), &pos, m), generic, "by the tables");
        for t in generic - 1..=generic + 1 {
            let at_least = see_at_least(&counting(true), &pos, m, t);
            assert_eq!(at_least, generic >= t, "threshold {t}");
        }
        generic
    }

    /// In every game where static exchanges hold, over random playouts, `see_at_least` agrees
    /// with the whole count for every legal move at thresholds around its result and at the
    /// search's usual ones, by the game's attack test and (where it says so) by the tables.
    #[test]
    fn the_early_answer_agrees_with_the_whole_count() {
        let mut exchanges = 0;
        for v in variants::all().iter().filter(|v| v.switches().see_sound()) {
            let eval = Eval::new(*v);
            let value = |k: PieceKind| eval.value(k);
            let kinds = kinds_by_value(*v, &value);
            let modes = [false, v.switches().attacks_from_tables()];
            variants::tests::for_each_playout_position(*v, |pos, moves| {
                for &m in moves.iter() {
                    for by_tables in modes {
                        let counting = Counting {
                            variant: *v,
                            value: &value,
                            kinds: &kinds,
                            by_tables,
                        };
                        let whole = see(&counting, pos, m);
                        for t in [whole - 1, whole, whole + 1, -300, -100, 0, 100, 300] {
                            assert_eq!(
                                see_at_least(&counting, pos, m, t),
                                whole >= t,
                                "{}: {} {m:?} threshold {t}",
                                v.name(),
                                v.fen(pos)
                            );
                        }
                        exchanges += usize::from(whole != 0);
                    }
                }
            });
        }
        assert!(exchanges >= 10_000, "{exchanges} moves with an exchange");
    }

    /// FIDE values as textbooks give them (the King is never captured).
    fn textbook(letter: char) -> i32 {
        match letter {
            'P' => P,
            'N' => N,
            'B' => B,
            'R' => R,
            'Q' => Q,
            _ => 0,
        }
    }

    const P: i32 = 100;
    const N: i32 = 320;
    const B: i32 = 330;
    const R: i32 = 500;
    const Q: i32 = 950;

    /// A Rook takes a pawn that nothing defends: it wins the pawn.
    #[test]
    fn undefended_pawn_is_won() {
        // White: Kh1, Re1; Black: Kh8, pawn e5.
        assert_eq!(fide_see("7k/8/8/4p3/8/8/8/4R2K w - - 0 1", "Rxe5"), P);
    }

    /// The Chess Programming Wiki's second SEE example, Nxe5 in
    /// 1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w. Attackers of e5: White's Nd3, Re2 and
    /// the Qe1 behind it; Black's Nd7, Bf6 and the Qh8 behind the bishop (the Rd8 does not see
    /// e5). In the exchange Nxe5 Nxe5 Rxe5 Bxe5 Qxe5 Qxe5 White may stop after Nxe5 Nxe5 at
    /// P - N; going on with Rxe5 Bxe5 reaches P - N + N - R = P - R, worse,
    /// and Qxe5 Qxe5 after it is worse still (White gets a Bishop for its Queen). Black's
    /// recapture Nxe5 is worth it (P - N for White is below P). So SEE = P - N, the Wiki's -2
    /// pawns with its values.
    #[test]
    fn knight_takes_pawn_defended_by_knight_loses() {
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert_eq!(fide_see(fen, "Nxe5"), P - N);
    }

    /// The pawn defended only by a pawn: a Rook that takes it loses R for P.
    #[test]
    fn rook_takes_pawn_defended_by_pawn_loses() {
        // Black pawns d6 and e5 (d6 defends e5); White Re1 takes on e5, dxe5 follows.
        assert_eq!(fide_see("7k/8/3p4/4p3/8/8/8/4R2K w - - 0 1", "Rxe5"), P - R);
    }

    /// X-ray: two white rooks doubled on the e-file against a pawn defended by one rook. Rxe5
    /// Rxe5 Rxe5: White wins P + R for R, so P. Without seeing the rook behind the first one,
    /// SEE would call it P - R.
    #[test]
    fn rook_behind_rook_is_seen() {
        // White Re1, Re2; Black Re8 defends the pawn on e5.
        assert_eq!(fide_see("4r2k/8/8/4p3/8/8/4R3/4R2K w - - 0 1", "Rxe5"), P);
    }

    /// The least valuable attacker captures first: a pawn on e5 defended by a knight and a
    /// queen, attacked by White's pawn d4 and queen. After dxe5 (+P) Black's cheapest recapture
    /// Nxe5 makes it P - P = 0. White's Qxe5 would win the Knight but lose the Queen to Qxe5
    /// (0 + N - Q), so White stops at 0; Black prefers 0 to leaving White +P. SEE = 0.
    #[test]
    fn least_valuable_attackers_first() {
        // White: Kh1, Qe2, pawn d4. Black: Kh8, Qe7, Nc6, pawn e5.
        let fen = "7k/4q3/2n5/4p3/3P4/8/4Q3/7K w - - 0 1";
        assert_eq!(fide_see(fen, "dxe5"), 0);
    }

    /// A quiet move onto a square a pawn attacks loses the piece: Nf3-e5 into d6's pawn.
    #[test]
    fn quiet_move_into_pawn_attack_loses_the_piece() {
        assert_eq!(fide_see("7k/8/3p4/8/8/5N2/8/7K w - - 0 1", "Ne5"), -N);
    }

    /// The King may not recapture onto a square still attacked: Black's Kf7 would take back on
    /// e6 but White's Re1 still attacks it, so Qxe6+ wins a pawn... and the queen stays: P.
    /// Had the rook not been there, Kxe6 would answer and the result would be P - Q.
    #[test]
    fn king_does_not_recapture_onto_an_attacked_square() {
        let fen = "8/5k2/4p3/8/8/8/4Q3/4R2K w - - 0 1";
        assert_eq!(fide_see(fen, "Qxe6+"), P);
        let fen = "8/5k2/4p3/8/8/8/4Q3/7K w - - 0 1";
        assert_eq!(fide_see(fen, "Qxe6+"), P - Q);
    }

    /// A promotion that is recaptured: e8=Q taken by the rook on d8 wins nothing and loses the
    /// pawn: gains Q - P for promoting, then the queen is lost: Q - P - Q = -P. Since White can
    /// not stop before the recapture, -P.
    #[test]
    fn promotion_onto_a_defended_square() {
        assert_eq!(fide_see("3r3k/4P3/8/8/8/8/8/7K w - - 0 1", "e8=Q+"), -P);
    }

    /// The search's SEE counts a piece at the evaluation's middlegame value, which the game's
    /// parameter file sets (`value.<kind>`).
    #[test]
    fn values_are_the_evaluations() {
        let v = variants::by_name("chess").unwrap();
        let eval = Eval::new(v);
        let (_, params) = crate::eval::Params::for_variant(v);
        for letter in ['P', 'N', 'B', 'R', 'Q'] {
            let k = v.rules().kind_by_letter(letter).unwrap();
            let name = format!(
                "value.{}",
                v.rules().kinds[k.index()].spec.name.to_lowercase()
            );
            let i = params.find(&name).unwrap();
            assert_eq!(eval.value(k), params.value(i).0, "{name}");
        }
    }
}
