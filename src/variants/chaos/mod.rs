//! Chaos's Chess (BattleChessGN18, 2020): FIDE chess with Nature, a third party that may act
//! after every fifth real ply, introduces pieces from its pool, captures either side's pieces
//! (which return to their owner's reserve) and gives a check that binds only later.
//!
//! The board moves are FIDE's, read from the tables; Nature's pieces are the FIDE Q, R, B and N
//! in the neutral colour, and its turn is the shared third-party turn (`Color::Neutral`). The
//! module's hooks hold the rest:
//!
//! - here: Nature's clock (the FEN's seventh field), who moves and captures what, when Nature's
//!   check binds, the reserves, en passant across a Nature ply and the end of the game;
//! - `nature`: Nature's introductions, its pass, the exposure rule for its plies, and the
//!   players' reintroductions.
//!
//! `docs/rules/chaos.md` restates the rules with their RULINGS items (§5, §11).

mod nature;

use super::chess::{self, KING, NAMED, PAWN};
use super::switches::GameTerm;
use super::{Bench, GameModule, Presentation, SearchSwitches};
use super::{EndReason, Hooks, Outcome, Pipeline, Rights, Shortcuts};
use crate::board::{Effects, FenError, Position, PositionError, Setup};
use crate::core::{Bitboard, ByColor, Color, Move, MoveKind, MoveList, PieceKind, Square};
use crate::movegen::{self, BulkCount, Method};
use crate::rules::{RuleSpec, Rules};
use std::sync::OnceLock;

/// Real plies after which Nature may act (RULINGS §11 item 1); the counter never exceeds it.
pub const NATURE_WAITS: u8 = 5;
/// The counter from which Nature's check binds for the ply that starts with it (§11 item 3).
pub const CHECK_BINDS_FROM: u8 = 3;
/// The counter's bits in the position's turn state.
const COUNTER_MASK: u8 = 0b0111;
/// Set in the turn state on Nature's turn when Black moves after Nature.
const BLACK_NEXT: u8 = 0b1000;

/// The start position (RULINGS §11 item 9): Nature's pool holds one Q, R, B and N.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[_Q_R_B_N] w KQkq - 0 1 0";

/// A middlegame with Nature's pieces, a returned piece and Nature to move, for `bench`.
const BENCH_MIDGAME: &str =
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[P_Q_R_B_N] w KQkq - 4 4 4";
/// Nature's pieces on the board and a binding check nearby, for `bench`.
const BENCH_NATURE: &str =
    "r2qk2r/ppp2ppp/2np1n2/2b1p3/2B1P1b1/2NP1N2/PPP2PPP/R1BQ1RK1[_Q_N] n kq - 0 7 5b";

/// Chaos's Chess.
pub struct Chaos {
    rules: Rules,
    /// Each kind's start squares per colour, where a returned piece re-enters (§11 item 6).
    start_squares: ByColor<Vec<Bitboard>>,
}

/// The registered instance.
pub fn get() -> &'static Pipeline<Chaos> {
    static CHAOS: OnceLock<Pipeline<Chaos>> = OnceLock::new();
    CHAOS.get_or_init(|| {
        let rules = Rules::compile(spec()).expect("the chaos spec compiles");
        let start_squares = start_squares(&rules);
        Pipeline(Chaos {
            rules,
            start_squares,
        })
    })
}

/// The rules of Chaos's Chess: FIDE's pieces and castling; Nature's pieces are FIDE pieces of
/// the neutral colour. Nobody drops by the shared rule: Nature's introductions and the players'
/// reintroductions are the module's own (`nature`).
pub fn spec() -> RuleSpec {
    let base = chess::spec();
    RuleSpec {
        name: "chaos",
        description: "FIDE chess with Nature, a third party that may act every five plies (BattleChessGN18, 2020)",
        start_fen: START_FEN,
        drop_zone: ByColor([Bitboard::EMPTY; 3]),
        xboard_builtin: None,
        ..base
    }
}

/// The squares of each kind and colour in the start position, read from its FEN's board field.
fn start_squares(rules: &Rules) -> ByColor<Vec<Bitboard>> {
    let mut out = ByColor([
        vec![Bitboard::EMPTY; rules.num_kinds()],
        vec![Bitboard::EMPTY; rules.num_kinds()],
        vec![Bitboard::EMPTY; rules.num_kinds()],
    ]);
    let board = START_FEN.split(['[', ' ']).next().unwrap_or_default();
    for (row, text) in board.split('/').enumerate() {
        let rank = rules.geometry().ranks() - 1 - row as u8;
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(n) = c.to_digit(10) {
                file += n as u8;
                continue;
            }
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let kind = rules
                .kind_by_letter(c.to_ascii_uppercase())
                .expect("the start FEN names FIDE pieces");
            let sq = Square::new(file, rank).expect("the start FEN fits the board");
            out[color][kind.index()] |= Bitboard::from_square(sq);
            file += 1;
        }
    }
    out
}

/// Nature's counter: the real plies since it last acted, at most `NATURE_WAITS`.
pub fn counter(pos: &Position) -> u8 {
    pos.turn_state() & COUNTER_MASK
}

/// The real player who moves next: the side to move, or on Nature's turn the one after it.
pub fn next_player(pos: &Position) -> Color {
    match pos.turn() {
        Color::Neutral if pos.turn_state() & BLACK_NEXT != 0 => Color::Black,
        Color::Neutral => Color::White,
        c => c,
    }
}

/// Whether Nature's check binds for the ply about to be made (§11 item 3).
pub fn check_binds(pos: &Position) -> bool {
    pos.turn() != Color::Neutral && counter(pos) >= CHECK_BINDS_FROM
}

/// Sets Nature's turn, the real player after it being `next`.
fn set_nature_turn(pos: &mut Position, next: Color) {
    pos.set_turn(Color::Neutral);
    let next_bit = if next == Color::Black { BLACK_NEXT } else { 0 };
    pos.set_turn_state(NATURE_WAITS | next_bit);
}

impl Chaos {
    /// The pieces whose attack on `defender`'s king counts for the ply made from `at`: the other
    /// player's, and Nature's when its check binds for that ply.
    fn checkers(&self, at: &Position, board: &Position, defender: Color) -> Bitboard {
        let enemy = board.color_bb(defender.opponent());
        if check_binds(at) && at.turn() == defender {
            enemy | board.color_bb(Color::Neutral)
        } else {
            enemy
        }
    }

    /// Whether `color`'s king in `pos` is attacked by the other player's pieces.
    fn attacked_by_enemy(&self, pos: &Position, color: Color, how: Method) -> bool {
        let occ = pos.occupied();
        let enemy = pos.color_bb(color.opponent());
        pos.royals(&self.rules, color)
            .into_iter()
            .any(|k| self.attacked(pos, k, occ, enemy, how))
    }

    /// How a game with no legal move for `pos`'s side to move ends (§11 item 11): checkmate
    /// when the other player attacks the king, else Nature-checkmate when Nature's binding check
    /// does, else stalemate.
    fn no_move_outcome(&self, pos: &Position) -> Outcome {
        let us = pos.turn();
        if self.attacked_by_enemy(pos, us, Method::Fast) {
            Outcome::Win {
                winner: us.opponent(),
                reason: EndReason::Checkmate,
            }
        } else if self.in_check(pos, Method::Fast) {
            Outcome::Draw {
                reason: EndReason::Variant("Nature-checkmate"),
            }
        } else {
            Outcome::Draw {
                reason: EndReason::Stalemate,
            }
        }
    }
}

/// Notes for players (`menagerie gui`'s legend), from `docs/rules/chaos.md`.
const LEGEND: &[(char, &str)] = &[
    (' ', "Nature (grey) may act after every fifth real ply: it introduces a Queen, Rook, Bishop or Knight from its pool on a square from which it attacks no real piece but pawns, moves one of its pieces, or passes. Once it acts it waits five real plies again."),
    (' ', "Nature captures pieces of either side except kings; a captured piece goes to its owner's reserve and may re-enter, as a whole move, on a start square of its kind (capturing a Nature or enemy piece there)."),
    (' ', "Nature's check binds only from the fourth real ply after it acted (counter 3 or more). Checkmate by the opponent wins; Nature-checkmate and stalemate draw."),
];

impl GameModule for Chaos {
    const NAMED_KINDS: &'static [(PieceKind, char)] = NAMED;

    const BENCH: Bench = Bench {
        depth: Bench::DEFAULT_DEPTH,
        positions: &[START_FEN, BENCH_MIDGAME, BENCH_NATURE],
    };
}

impl Hooks for Chaos {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    // ---- Turns (§11 item 1) ----

    /// A real ply advances the counter and hands the move to Nature at `NATURE_WAITS`; Nature's
    /// action restarts it, its pass leaves it. En passant set by the last real double step
    /// survives Nature's ply unless Nature took the pawn or stands on the skipped square.
    fn next_turn(&self, before: &Position, m: Move, after: &mut Position) {
        if before.turn() == Color::Neutral {
            let next = next_player(before);
            after.set_turn(next);
            after.set_turn_state(if m.kind() == MoveKind::Pass {
                NATURE_WAITS
            } else {
                0
            });
            nature::keep_en_passant(&self.rules, before, after, next);
            return;
        }
        let c = (counter(before) + 1).min(NATURE_WAITS);
        let next = before.turn().opponent();
        if c == NATURE_WAITS {
            set_nature_turn(after, next);
        } else {
            after.set_turn(next);
            after.set_turn_state(c);
        }
    }

    /// Nature's turn is scored for the player who moves after it.
    fn point_of_view(&self, pos: &Position) -> Color {
        next_player(pos)
    }

    /// The seventh field: the counter `0`-`5` when a player is to move, `5w` or `5b` on
    /// Nature's turn (§11 item 9). A FEN without it (from a program that knows only six fields)
    /// reads as counter 0.
    fn read_turn(&self, setup: &Setup, pos: &mut Position) -> Result<(), FenError> {
        let text = setup.turn_field.clone();
        let bad = || FenError::BadTurnField(text.clone().unwrap_or_default());
        match (setup.turn, text.as_deref()) {
            (Color::Neutral, Some(t)) => {
                let next = match t {
                    "5w" => Color::White,
                    "5b" => Color::Black,
                    _ => return Err(bad()),
                };
                set_nature_turn(pos, next);
                // The game ply counts the players' plies: Black's move comes next.
                let ply = 2 * pos.fullmove().saturating_sub(1) + u16::from(next == Color::Black);
                pos.set_ply(ply);
            }
            (Color::Neutral, None) => {
                return Err(FenError::NeutralTurnNeedsField { forms: "5w or 5b" })
            }
            (_, None) => pos.set_turn_state(0),
            (_, Some(t)) => {
                let c: u8 = t.parse().map_err(|_| bad())?;
                if t.len() != 1 || c > NATURE_WAITS {
                    return Err(bad());
                }
                pos.set_turn_state(c);
            }
        }
        Ok(())
    }

    fn write_turn(&self, pos: &Position) -> Option<String> {
        Some(match pos.turn() {
            Color::Neutral => format!("{NATURE_WAITS}{}", next_player(pos).fen_char()),
            _ => counter(pos).to_string(),
        })
    }

    // ---- Who moves what (§11 items 2, 4) ----

    /// Players move their own pieces and capture the enemy's and Nature's. Nature moves its own
    /// and captures real pieces but kings; it has no move at all once the game has ended on the
    /// last real ply (§11 item 2).
    fn rights(&self, pos: &Position, _in_check: bool) -> Rights {
        let us = pos.turn();
        let mut victims = ByColor::default();
        let kings = pos.kind_bb(KING);
        let real = pos.color_bb(Color::White) | pos.color_bb(Color::Black);
        for c in Color::PLAYERS {
            victims[c] = pos.color_bb(c.opponent()) | pos.color_bb(Color::Neutral);
        }
        victims[Color::Neutral] = real & !kings;
        // Whether Nature may act at all is asked only when it has pieces to move (its
        // introductions and pass ask it anyway, in `extra_moves`).
        let own = pos.color_bb(us);
        let movers = if us != Color::Neutral || (own.nonempty() && nature::may_act(self, pos)) {
            own
        } else {
            Bitboard::EMPTY
        };
        Rights { movers, victims }
    }

    // ---- Attacks and check (§11 items 3, 5) ----

    /// The other player's pieces; Nature's too against the player to move when its check binds.
    fn attackers(&self, pos: &Position, defender: Color) -> Bitboard {
        self.checkers(pos, pos, defender)
    }

    /// A real ply may not leave the mover's king attacked by the other player, nor by Nature
    /// when its check binds for the ply (judged by the counter before it). Nature's ply follows
    /// its own rule (`nature::exposes`).
    fn exposed(&self, before: &Position, m: Move, after: &Position, how: Method) -> bool {
        let us = before.turn();
        if us == Color::Neutral {
            return nature::exposes(self, before, m, after, how);
        }
        let attackers = self.checkers(before, after, us);
        let occ = after.occupied();
        after
            .royals(&self.rules, us)
            .into_iter()
            .any(|k| self.attacked(after, k, occ, attackers, how))
    }

    /// Nature's introductions and pass expose nothing (`nature::exposes`); its other plies are
    /// each made and judged. While Nature's check binds, a piece on a line from the king may be
    /// pinned by a Nature slider the table shortcut does not know, so such pieces are made and
    /// judged too (unless a player's slider pins them: kept on that line, they shut it to
    /// Nature as well).
    fn shortcuts(&self, pos: &Position, in_check: bool) -> Shortcuts {
        if pos.turn() == Color::Neutral {
            return Shortcuts {
                drops_and_pass: true,
                ..Shortcuts::NONE
            };
        }
        let mut s = movegen::table_shortcuts(&self.rules, pos, in_check);
        let nature = pos.color_bb(Color::Neutral);
        if check_binds(pos) && nature.nonempty() {
            if let Some(k) = s.royal {
                s.safe &= !nature::queen_lines(&self.rules, k);
            }
        }
        s
    }

    fn in_check(&self, pos: &Position, how: Method) -> bool {
        pos.turn() != Color::Neutral && movegen::royal_attacked(self, pos, pos.turn(), how)
    }

    // ---- Moves (§11 items 1, 5, 6) ----

    /// Nature's introductions and pass; the players' reintroductions.
    fn extra_moves(&self, pos: &Position, _in_check: bool, out: &mut MoveList) {
        if pos.turn() == Color::Neutral {
            if nature::may_act(self, pos) {
                nature::introductions(self, pos, |kind, targets| {
                    for to in targets {
                        out.push(Move::drop(kind, to));
                    }
                });
                out.push(Move::pass());
            }
        } else {
            nature::reintroductions(self, pos, out);
        }
    }

    /// Nature's introductions counted by their squares: `shortcuts` proves them legal on
    /// Nature's turn (`drops_and_pass`: an introduction only adds a blocker, so it exposes
    /// nothing, RULINGS §11 item 5, `nature::exposes`), and `allows` keeps every move.
    fn count_extra_moves(&self, pos: &Position, _in_check: bool, out: &mut BulkCount) {
        if pos.turn() == Color::Neutral {
            nature::count_moves(self, pos, out);
        } else {
            nature::reintroductions(self, pos, out.rest());
        }
    }

    fn reference_extra_moves(&self, pos: &Position, _in_check: bool, out: &mut Vec<Move>) {
        if pos.turn() == Color::Neutral {
            if nature::may_act(self, pos) {
                nature::reference_introductions(self, pos, out);
                out.push(Move::pass());
            }
        } else {
            let mut list = MoveList::new();
            nature::reintroductions(self, pos, &mut list);
            out.extend_from_slice(list.as_slice());
        }
    }

    // ---- Making moves (§11 items 4, 6, 9) ----

    /// Captured pieces travel: a real piece Nature took goes to its owner's reserve, a Nature
    /// piece a player took to Nature's pool. Nature's plies leave the halfmove clock; a pawn's
    /// reintroduction restarts it.
    fn after_move(&self, before: &Position, m: Move, _fx: &Effects, after: &mut Position) {
        let victim = match m.kind() {
            MoveKind::Normal | MoveKind::Promotion | MoveKind::Drop => before.piece_at(m.to()),
            _ => crate::core::Piece::NONE,
        };
        if victim.is_some() {
            let nature_took_real = before.turn() == Color::Neutral;
            let player_took_nature = victim.color() == Color::Neutral;
            if nature_took_real || player_took_nature {
                let owner = victim.color();
                let n = after.reserve().count(owner, victim.kind());
                after.set_reserve(owner, victim.kind(), n.saturating_add(1));
            }
        }
        if before.turn() == Color::Neutral {
            after.set_halfmove(before.halfmove_clock());
        } else if m.kind() == MoveKind::Drop && m.piece() == Some(PAWN) {
            after.set_halfmove(0);
        }
    }

    /// Nature's plies do not count in the halfmove clock, so the window counts them apart.
    fn repetition_window(&self, pos: &Position) -> usize {
        2 * pos.halfmove_clock() as usize + 1
    }

    // ---- Positions (§11 items 7, 9) ----

    /// On Nature's turn the en-passant square belongs to the player after it.
    fn read_en_passant(&self, pos: &mut Position, targets: &[Square]) -> Result<(), FenError> {
        let next = next_player(pos);
        pos.set_ep_from_fen(&self.rules, targets, next)
    }

    /// The FIDE checks; on Nature's turn, the player who moved last may not be in check by the
    /// other player (Nature may attack him).
    fn validate(&self, pos: &Position) -> Result<(), PositionError> {
        nature::check_pieces(&self.rules, pos)?;
        movegen::validate_basic(self, pos)?;
        let last = next_player(pos).opponent();
        if pos.turn() == Color::Neutral && self.attacked_by_enemy(pos, last, Method::Fast) {
            return Err(PositionError::OpponentInCheck);
        }
        Ok(())
    }

    // ---- End of the game (§5.6, §11 items 2, 11) ----

    /// Only the players' pieces and reserves can mate: Nature's never win.
    fn insufficient_material(&self, pos: &Position) -> bool {
        let real = pos.color_bb(Color::White) | pos.color_bb(Color::Black);
        (real & !pos.kind_bb(KING)).is_empty()
            && pos.reserve().is_empty_for(Color::White)
            && pos.reserve().is_empty_for(Color::Black)
    }

    /// No legal move for a player: checkmate, Nature-checkmate or stalemate. No move for
    /// Nature: the game ended on the last real ply, judged after the pass. Otherwise FIDE's
    /// draws.
    fn outcome(&self, pos: &Position, legal_count: usize, history: &[u64]) -> Option<Outcome> {
        if legal_count > 0 {
            return crate::movegen::fide_outcome(self, pos, legal_count, history);
        }
        if pos.turn() == Color::Neutral {
            let after_pass = movegen::play(self, pos, Move::pass());
            return Some(self.no_move_outcome(&after_pass));
        }
        Some(self.no_move_outcome(pos))
    }
}

impl SearchSwitches for Chaos {
    // ---- Search ----

    fn eval_terms(&self) -> &'static [GameTerm] {
        TERMS
    }

    /// The value of the pieces in each player's reserve, and of those Nature's pieces attack
    /// (catalogue values; see [`TERMS`]).
    fn eval_features(&self, pos: &Position, out: &mut [i32]) {
        let value = |k: PieceKind| self.rules.kinds[k.index()].spec.value;
        let reserve = |c: Color| -> i32 {
            PieceKind::all(self.rules.num_kinds())
                .map(|k| i32::from(pos.reserve().count(c, k)) * value(k))
                .sum()
        };
        out[0] = reserve(Color::White) - reserve(Color::Black);
        self.nature_threats(pos, out);
    }

    /// Off: a captured piece returns to its owner's reserve rather than leaving the game, and
    /// Nature's pieces can capture on the square between the players' plies.
    fn see_sound(&self) -> bool {
        false
    }
}

impl Presentation for Chaos {
    // ---- Text ----

    fn legend_notes(&self) -> &'static [(char, &'static str)] {
        LEGEND
    }

    fn neutral_name(&self) -> &'static str {
        "Nature"
    }

    /// Nature's counter, when it acts, and whether its check binds for the ply to be made
    /// (§11 items 1 and 3).
    fn describe_turn(&self, pos: &Position) -> Vec<String> {
        let player = |c: Color| if c == Color::Black { "Black" } else { "White" };
        if pos.turn() == Color::Neutral {
            return vec![format!(
                "Nature acts or passes now; then {} moves",
                player(next_player(pos))
            )];
        }
        let c = counter(pos);
        let when = match NATURE_WAITS.saturating_sub(c) {
            0 | 1 => "it may act after this ply".to_string(),
            n => format!("it may act after {n} real plies, this one included"),
        };
        let check = if check_binds(pos) {
            format!(
                "Nature's check binds: {} may not leave the king attacked by Nature",
                player(pos.turn())
            )
        } else {
            format!("Nature's check does not bind yet (it binds from counter {CHECK_BINDS_FROM})")
        };
        vec![
            format!("Nature's counter {c} of {NATURE_WAITS}: {when}"),
            check,
        ]
    }
}

/// The game's own evaluation terms, in percent of the pieces' catalogue values:
/// - `reserve_value`: a player's reserve is worth most of its pieces' value (each costs a move
///   to bring back);
/// - `nature_threat_next`: a player's pieces (not the king) that a Nature piece attacks, when
///   Nature's next chance to act comes before that player moves again (Nature's turn now, or
///   the other player's ply completes the counter), so the player cannot move them away;
/// - `nature_threat_later`: the same pieces at any other point of Nature's clock.
const TERMS: &[GameTerm] = &[
    GameTerm::percent("reserve_value", 80),
    GameTerm::percent("nature_threat_next", -10),
    GameTerm::percent("nature_threat_later", -3),
];

impl Chaos {
    /// Features 1 and 2 of [`TERMS`], White minus Black: the value of each player's pieces (not
    /// the king) that a Nature piece attacks, by whether Nature may act before the player's
    /// next move. A captured piece returns to its owner's reserve, so the loss is the part of
    /// its value that `reserve_value` does not keep, and a tempo.
    fn nature_threats(&self, pos: &Position, out: &mut [i32]) {
        let nature = pos.color_bb(Color::Neutral);
        if nature.is_empty() {
            return;
        }
        // Nature's Q, R, B and N capture by plain leaps and rides (no lame leap): their reach is
        // the tables' capture targets from each square.
        let t = &self.rules.tables;
        let occ = pos.occupied();
        let reached = nature.into_iter().fold(Bitboard::EMPTY, |acc, sq| {
            let k = pos.piece_at(sq).kind();
            acc | t.leap_capture(Color::Neutral, k, sq)
                | t.ride_targets(t.capture_rides(Color::Neutral, k), sq, occ)
        });
        let acts_next = |c: Color| {
            pos.turn() == Color::Neutral
                || (pos.turn() == c.opponent() && counter(pos) + 1 >= NATURE_WAITS)
        };
        for c in Color::PLAYERS {
            let sign = if c == Color::White { 1 } else { -1 };
            let attacked: i32 = (pos.color_bb(c) & reached & !pos.kind_bb(KING))
                .into_iter()
                .map(|sq| self.rules.kinds[pos.piece_at(sq).kind().index()].spec.value)
                .sum();
            let slot = if acts_next(c) { 1 } else { 2 };
            out[slot] += sign * attacked;
        }
    }
}

#[cfg(test)]
mod tests;
