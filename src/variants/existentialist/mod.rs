//! Existentialist Chess (David Short, 2002): 10x10, with Bobbers, Squires, Viceroys, Crowned
//! Knights, Teleporters and Schizzies (from `short`, shared with Schizophrenic), and its own
//! Existentialist, whose powers change with each move of a ten-step cycle, sleeps after its tenth
//! and explodes on its twentieth; Dazzlers, whose jumps cast one-ply spells; Hyenas, which freeze
//! the enemy pieces beside them; Yanzees, which nobody may capture; Archers and Zednicks.
//!
//! Ordinary pieces are data; the module's hooks hold the rest:
//!
//! - `status`: who can act (frozen, dazzled and sleeping pieces), which pieces may be captured;
//! - `threats`: the attack test (frozen and dazzled pieces attack nothing but kings do, the
//!   Existentialist threatens by its next step, a pending blast is an attack);
//! - `moves`: the Existentialist's steps, the Dazzler's cannon captures, teleports and Bobbers;
//! - `effects`: counters, spells, hibernation, the blast, merges, shields, the fire streak and
//!   the King+Archer's Archer dying in its King's place.
//!
//! `docs/rules/existentialist.md` restates the rules with their RULINGS items.

mod effects;
mod moves;
mod status;
mod threats;

use super::san::{self, SanShape};
use super::short::{self, BobberRules, TeleporterRules};
use super::switches::GameTerm;
use super::{chess, EndReason, Hooks, Outcome, Pipeline, Rights, Shortcuts};
use super::{Bench, GameModule, Presentation, SearchSwitches};
use crate::board::{Effects, FenError, PieceFlags, Position, PositionError, Setup, SpellKind};
use crate::core::Square;
use crate::core::{Bitboard, Color, Geometry, Move, MoveKind, MoveList, Piece, PieceKind, Special};
use crate::movegen::{self, BulkCount, Method};
use crate::notation::{self, Dialect};
use crate::rules::{PieceSpec, RuleSpec, Rules, StateSpec};
use std::sync::OnceLock;

/// The King.
pub const KING: PieceKind = PieceKind(0);
/// The Bobber.
pub const BOBBER: PieceKind = PieceKind(1);
/// The Squire.
pub const SQUIRE: PieceKind = PieceKind(2);
/// The Pawn.
pub const PAWN: PieceKind = PieceKind(5);
/// The Teleporter.
pub const TELEPORTER: PieceKind = PieceKind(6);
/// The Existentialist.
pub const EXISTENTIALIST: PieceKind = PieceKind(7);
/// The Dazzler.
pub const DAZZLER: PieceKind = PieceKind(8);
/// The Hyena.
pub const HYENA: PieceKind = PieceKind(9);
/// The Archer.
pub const ARCHER: PieceKind = PieceKind(10);
/// The Zednick.
pub const ZEDNICK: PieceKind = PieceKind(11);
/// The Yanzee.
pub const YANZEE: PieceKind = PieceKind(12);
/// The Knight (by promotion only).
pub const KNIGHT: PieceKind = PieceKind(18);
/// The Wildcat (a transformed Hyena).
pub const WILDCAT: PieceKind = PieceKind(19);
/// The Adventurist (a Pawn the Zednick joined).
pub const ADVENTURIST: PieceKind = PieceKind(20);

/// The kinds this module names, with their letters.
const NAMED: &[(PieceKind, char)] = &[
    (KING, 'K'),
    (BOBBER, 'O'),
    (SQUIRE, 'S'),
    (PAWN, 'P'),
    (TELEPORTER, 'T'),
    (EXISTENTIALIST, 'X'),
    (DAZZLER, 'D'),
    (HYENA, 'H'),
    (ARCHER, 'A'),
    (ZEDNICK, 'Z'),
    (YANZEE, 'Y'),
    (KNIGHT, 'N'),
    (WILDCAT, 'W'),
    (ADVENTURIST, 'U'),
];

crate::special_kinds! {
    /// The Archer's or the Zednick's step onto a friendly piece it joins, a two-square shield
    /// included (RULINGS §12 item 5: written as the step, `e5e6`).
    pub MERGE;
    /// The Zednick joining two Teleporters in a three-square shield: `to` and `aux` are the
    /// Teleporters (written `e3f3,f3g3`).
    pub SHIELD3;
    /// A shield's move: its square nearest a1 (`from`) and where that square goes (`d2f2`).
    pub SHIELD_MOVE;
    /// The King taking, in place, the piece that shares its square (`e1e1`).
    pub IN_PLACE;
    /// The King stepping away from the square it shares (`e1e2`).
    pub SHARED_STEP;
}

/// A piece that took the Archer of the enemy King standing on its square (FEN `k`, RULINGS §12
/// item 2).
pub const SHARED: PieceFlags = PieceFlags::bit(0);
/// The fire streak of an Archer that must rest on its side's next turn (RULINGS §12 item 15).
pub const REST: u8 = 3;

/// A dazzled piece may not move (RULINGS §1.2 Dazzler, §9 item 13).
pub const DAZZLED: SpellKind = SpellKind(0);
/// A piece its own Dazzler jumped may not be captured (a Hyena: the Wildcat protection).
pub const INVULNERABLE: SpellKind = SpellKind(1);
/// A Hyena an enemy Dazzler jumped must move (RULINGS §9 item 8).
pub const MUST_MOVE: SpellKind = SpellKind(2);
/// An Existentialist sleeping after its tenth move (RULINGS §9 item 14).
pub const HIBERNATING: SpellKind = SpellKind(3);

/// The FEN letters of the spells, by kind number (RULINGS §12 item 2; `z` is ours).
const SPELL_LETTERS: &[char] = &['d', 'i', 'h', 'z'];

/// Plies an Existentialist sleeps after its tenth move (RULINGS §1.4 item 21, §9 item 14).
pub const HIBERNATION_PLIES: u8 = 20;
/// Moves in the Existentialist's cycle; its 20th move (counter 19) ends in the blast.
pub const CYCLE: u8 = 10;
/// The counter of an Existentialist whose next move is its 20th.
pub const LAST_MOVE: u8 = 19;

/// Files of the Teleporters' home squares: none in this game.
const NO_HOMES: [u8; 0] = [];
const TELEPORTERS: TeleporterRules = TeleporterRules {
    kind: TELEPORTER,
    home_files: &NO_HOMES,
    explosion: None,
};
/// The Bobber grows to 9, the longest line on ten files (RULINGS §1.2).
const BOBBERS: BobberRules = BobberRules {
    kind: BOBBER,
    cap: 9,
};

/// The Existentialist's movement at each step of its cycle (RULINGS §1.2, §9 items 4 and 12),
/// as movement templates of the tables: steps 2-4 and 6-10. Step 1 (any empty square) and step
/// 5 (the double knight) are worked out by `moves`. Step 3 from the own first rank is one step
/// sideways instead.
const STEP_TEMPLATES: [(u8, &str); 9] = [
    (2, "K"),
    (3, "bBbN"),
    (4, "sRfF"),
    (6, "CF"),
    (7, "NCF"),
    (8, "Q"),
    (9, "QN"),
    (10, "QNC"),
    // Step 3 on the own first rank.
    (0, "sW"),
];

/// The start array (RULINGS §1.1).
pub const START_FEN: &str =
    "dscvokvcsd/ytlhxazjty/pppppppppp/10/10/10/10/PPPPPPPPPP/YTLHXAZJTY/DSCVOKVCSD w KQkq - 0 1";

/// The rules of Existentialist Chess (RULINGS §1, §9). Kind order: the constants above.
pub fn spec() -> RuleSpec {
    let geometry = Geometry::rectangle(10, 10).expect("10x10 is a valid board");
    let [left, right] = short::schizzies(10);
    // §9 item 6: King f1-h1 with the Squire i1-g1, King f1-d1 with the Squire b1-e1.
    let castling = chess::fide_castling(&geometry, KING, SQUIRE, 5, [1, 8]);
    let piece = |letter, name, betza, value| PieceSpec {
        value,
        ..PieceSpec::new(letter, name, betza)
    };
    RuleSpec {
        name: "existentialist",
        description: "10x10; Existentialists, Dazzlers, Hyenas, Archers, Zednicks and Yanzees (David Short, 2002)",
        pieces: vec![
            chess::fide_king(),
            short::bobber(),
            short::squire(),
            piece('V', "viceroy", "BW", 650),
            short::crowned_knight(),
            // §9 item 11: pawns start on rank 3 and step twice from there.
            PieceSpec {
                en_passant: true,
                pawn: true,
                promotes_to: "QRBN",
                initial_ranks: &[2],
                value: 100,
                ..PieceSpec::new('P', "pawn", "fmWfcFifmnD")
            },
            short::teleporter(),
            piece('X', "existentialist", "", 550),
            piece('D', "dazzler", "KAD", 500),
            piece('H', "hyena", "mQ3", 250),
            piece('A', "archer", "mK", 150),
            piece('Z', "zednick", "mK", 150),
            // §9 item 5: promotion is compulsory on the last rank.
            PieceSpec {
                promotes_to: "QRBN",
                value: 150,
                ..PieceSpec::new('Y', "yanzee", "mK")
            },
            left,
            right,
            piece('Q', "queen", "Q", 950),
            piece('R', "rook", "R", 500),
            piece('B', "bishop", "B", 330),
            piece('N', "knight", "N", 320),
            piece('W', "wildcat", "Q3", 450),
            // §12 item 21: King moves and captures, long steps while fresh (`moves`), en passant
            // Pawn-style, promotion to Q, R, B or N; it has been beyond rank 3 (`m`) only where
            // it stands on ranks 1-3.
            PieceSpec {
                en_passant: true,
                pawn: true,
                promotes_to: "QRBN",
                tracks_moved: true,
                fresh_ranks: &[0, 1, 2],
                value: 300,
                ..PieceSpec::new('U', "adventurist", "K")
            },
        ],
        templates: STEP_TEMPLATES
            .iter()
            .map(|&(_, betza)| PieceSpec::new('.', "existentialist step", betza))
            .collect(),
        start_fen: START_FEN,
        castling,
        promotion_zone: RuleSpec::zone_from_ranks(&geometry, &[9]),
        drop_zone: RuleSpec::whole_board(&geometry),
        fifty_move_plies: 100,
        repetition_count: 3,
        state: StateSpec {
            flags: &['k'],
            spells: SPELL_LETTERS,
        },
        xboard_builtin: None,
        geometry,
    }
}

/// Existentialist Chess.
pub struct Existentialist {
    rules: Rules,
}

/// The registered instance.
pub fn get() -> &'static Pipeline<Existentialist> {
    static EXISTENTIALIST_VARIANT: OnceLock<Pipeline<Existentialist>> = OnceLock::new();
    EXISTENTIALIST_VARIANT.get_or_init(|| {
        Pipeline(Existentialist {
            rules: Rules::compile(spec()).expect("the existentialist spec compiles"),
        })
    })
}

impl Existentialist {
    /// The movement template of a step of the cycle (2-4, 6-10), or step 3 on the first rank
    /// (`0`).
    fn step_template(&self, step: u8) -> PieceKind {
        let i = STEP_TEMPLATES
            .iter()
            .position(|&(s, _)| s == step)
            .expect("a step with a template");
        self.rules.template(i)
    }

    /// Whether both Kings are in play: without one the game is over (RULINGS §9 item 10).
    fn kings_alive(&self, pos: &Position) -> bool {
        status::kings_alive(pos)
    }
}

impl GameModule for Existentialist {
    const SPECIALS: &'static [(Special, &'static str)] = SPECIALS;

    const NAMED_KINDS: &'static [(PieceKind, char)] = NAMED;

    const BENCH: Bench = Bench {
        depth: 7,
        positions: &[START_FEN],
    };
}

impl Hooks for Existentialist {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn rights(&self, pos: &Position, in_check: bool) -> Rights {
        status::rights(self, pos, in_check)
    }

    fn compelled(&self, pos: &Position) -> Bitboard {
        status::must_move(pos)
    }

    fn attackers(&self, pos: &Position, defender: Color) -> Bitboard {
        status::attackers(self, pos, defender)
    }

    fn attacked(
        &self,
        pos: &Position,
        sq: Square,
        occupied: Bitboard,
        attackers: Bitboard,
        how: Method,
    ) -> bool {
        // The enemy King does not attack a protected King+Archer (RULINGS §12 item 10): the
        // square of one, and a square the King+Archer goes to, since its move (a step, a
        // capture, castling) resets the fire streak and leaves it protected, even from its rest
        // turn (§12 item 15). The King is lifted off `occupied` for its own step or capture;
        // castling asks about the empty squares it crosses.
        let defender = pos.color_bb(Color::White) & attackers;
        let defender = if defender.nonempty() {
            Color::Black
        } else {
            Color::White
        };
        let own_king = status::king_square(pos, defender);
        let target = threats::Target {
            defender,
            captures: true,
            king_archer: own_king.is_some_and(|k| {
                if k == sq {
                    status::protected(pos, k)
                } else {
                    pos.piece_at(k) == Piece::new(defender, KING)
                        && status::carries_archer(pos, k)
                        && (!occupied.contains(k) || pos.piece_at(sq).is_none())
                }
            }),
        };
        threats::attacked(self, pos, sq, occupied, attackers, how, target)
    }

    /// After the move: a blast that killed the mover's King and not the enemy's is illegal; one
    /// that killed the enemy's King ends the game and is legal (RULINGS §1.3, §1.4 item 16).
    /// A protected King+Archer may stay attacked, but not on its Archer's rest turn nor after its
    /// third shot (§12 item 8). A capture onto the enemy's King+Archer is judged the same way
    /// (the capturer's protected King+Archer may stay attacked), and the double knight must leave
    /// that King a reply (§12 items 11, 13).
    /// Otherwise the mover's King may not be capturable, shot or blasted on the next move; its
    /// own Dazzler's protection holds against captures only (§9 item 2).
    fn exposed(&self, before: &Position, m: Move, after: &Position, how: Method) -> bool {
        let us = before.turn();
        if status::king_square(after, us.opponent()).is_none() {
            return false;
        }
        let Some(k) = status::king_square(after, us) else {
            return true;
        };
        if status::shared(after).is_some() {
            let double_knight = before.piece_at(m.from()).kind() == EXISTENTIALIST
                && threats::next_step(before, m.from()) == 5;
            if double_knight {
                let mut replies = MoveList::new();
                movegen::legal(self, after, true, &mut replies);
                if replies.is_empty() {
                    return true;
                }
            }
            // Otherwise the capture onto the enemy King+Archer is judged as any other move:
            // the capturer's own protected King+Archer may stay attacked (§12 item 13).
        }
        let resting = status::carries_archer(before, k) && before.state(k).counter2 >= REST;
        if status::protected(after, k) && !resting && after.piece_at(k).kind() == KING {
            return false;
        }
        threats::king_attacked(self, after, k, us, how)
    }

    /// The static "in check" (RULINGS §9 item 7): the King could be taken on the opponent's next
    /// move. A King sharing its square counts as in check (§12 item 13).
    fn in_check(&self, pos: &Position, how: Method) -> bool {
        let us = pos.turn();
        if !self.kings_alive(pos) {
            return false;
        }
        if status::shared(pos).is_some() {
            return true;
        }
        match pos.pieces(us, KING).first() {
            Some(k) => threats::king_attacked(self, pos, k, us, how),
            None => false,
        }
    }

    fn shortcuts(&self, pos: &Position, in_check: bool) -> Shortcuts {
        threats::shortcuts(self, pos, in_check)
    }

    fn extra_moves(&self, pos: &Position, in_check: bool, out: &mut MoveList) {
        moves::extra(self, pos, in_check, out);
    }

    fn count_extra_moves(&self, pos: &Position, in_check: bool, out: &mut BulkCount) {
        moves::count_extra(self, pos, in_check, out);
    }

    fn reference_extra_moves(&self, pos: &Position, in_check: bool, out: &mut Vec<Move>) {
        moves::reference_extra(self, pos, in_check, out);
    }

    /// The moves `shortcuts` proves legal may be counted unlisted unless `allows` could refuse
    /// one of them. It refuses plain moves of two kinds only: a King's capture onto the
    /// protected enemy King+Archer (RULINGS §12 item 10), whose square `shortcuts` marks risky,
    /// so it is listed and judged; and a Dazzler's two-square leap over a sleeping
    /// Existentialist or an enemy shield (§1.4 items 4 and 20, §12 item 19), possible only when
    /// such a piece stands next to one of the side to move's Dazzlers: then every move is
    /// listed.
    fn counts_in_bulk(&self, pos: &Position) -> bool {
        moves::dazzler_leaps_all_allowed(self, pos)
    }

    /// A merge and a three-square shield (RULINGS §12 items 16 and 18) change the board, for
    /// the enemy's attacks, no more than an ordinary move of the Archer or Zednick onto its
    /// partner would: the mover's square empties (a shield keeps it taken) and the partner's
    /// stays taken by an own piece (§1.4 item 26). What the merged piece gains attacks only
    /// the enemy (shots, King moves, range); a new shield square stops sliders, arrows and
    /// blast rays as the piece did, and the enemy may neither jump it nor use it as a cannon's
    /// screen (§12 item 19); no Hyena moves, so every freeze stays; a merge onto the King makes
    /// it a protected King+Archer, which may stand attacked (§12 item 8). The `shortcuts`
    /// therefore judge them as they judge the mover's ordinary moves.
    fn judged_as_ordinary(&self, _pos: &Position, m: Move) -> bool {
        m.is(MERGE) || m.is(SHIELD3)
    }

    fn allows(&self, pos: &Position, m: Move) -> bool {
        moves::allows(self, pos, m)
    }

    fn apply_special(&self, before: &Position, m: Move, after: &mut Position) -> Effects {
        effects::apply_special(self, before, m, after)
    }

    fn after_move(&self, before: &Position, m: Move, _fx: &Effects, after: &mut Position) {
        effects::after_move(self, before, m, after);
    }

    fn is_noisy(&self, pos: &Position, m: Move) -> bool {
        match m.kind() {
            MoveKind::Special(_) => {
                m.is(IN_PLACE) || (m.is(SHARED_STEP) && pos.piece_at(m.to()).is_some())
            }
            _ => movegen::core_is_noisy(pos, m),
        }
    }

    /// Shields are renumbered in reading order, so that equal positions are equal.
    fn read_turn(&self, setup: &Setup, pos: &mut Position) -> Result<(), FenError> {
        if setup.turn == Color::Neutral {
            return Err(FenError::BadTurn("n".into()));
        }
        if let Some(t) = &setup.turn_field {
            return Err(FenError::BadTurnField(t.clone()));
        }
        effects::renumber_shields(pos);
        Ok(())
    }

    fn validate(&self, pos: &Position) -> Result<(), PositionError> {
        movegen::validate_two_players(pos)?;
        status::validate(self, pos)
    }

    /// A King killed by a blast loses at once; both killed is a draw (RULINGS §1.3, §9 item
    /// 10). Otherwise FIDE's ends.
    fn outcome(&self, pos: &Position, legal_count: usize, history: &[u64]) -> Option<Outcome> {
        let alive = |c: Color| pos.pieces(c, KING).nonempty();
        match (alive(Color::White), alive(Color::Black)) {
            (true, true) => {}
            (false, false) => {
                return Some(Outcome::Draw {
                    reason: EndReason::Variant("both kings blasted"),
                })
            }
            (white, _) => {
                return Some(Outcome::Win {
                    winner: if white { Color::White } else { Color::Black },
                    reason: EndReason::Variant("a king blasted"),
                })
            }
        }
        crate::movegen::fide_outcome(self, pos, legal_count, history)
    }

    /// Neither side can win only with bare Kings (anything else may still promote, shoot or
    /// explode).
    fn insufficient_material(&self, pos: &Position) -> bool {
        (pos.occupied() & !pos.kind_bb(KING)).is_empty()
    }
}

impl SearchSwitches for Existentialist {
    fn eval_terms(&self) -> &'static [GameTerm] {
        effects::TERMS
    }

    fn eval_features(&self, pos: &Position, out: &mut [i32]) {
        effects::features(self, pos, out)
    }

    /// Forced moves and frozen pieces make zugzwang common.
    fn null_move_allowed(&self) -> bool {
        false
    }

    /// Off: shots capture without moving, merges join two pieces on one square, a capture of a
    /// protected King+Archer takes only the Archer, and an Existentialist's blast removes
    /// several pieces at once.
    fn see_sound(&self) -> bool {
        false
    }

    /// Off: measured to lose here (self-play at 5,000 nodes, about -36 Elo over 260 games,
    /// docs/performance.md) while it gains in FIDE chess. A guess at the cause: its noisy moves
    /// include shots, merges and blasts, whose mover and target square do not name one kind of
    /// exchange, so one entry learns from unlike moves.
    fn capture_history(&self) -> bool {
        false
    }
}

impl Presentation for Existentialist {
    /// A merge `A&e6`, a three-square shield `Z&f3&g3`, a shield's move `&d2-f2`, the King's
    /// capture in place `Kxe1` and its step from a shared square `Ke2` (`docs/protocol.md`,
    /// "SAN").
    fn san_shape(&self, rules: &Rules, pos: &Position, m: Move) -> Option<SanShape> {
        let capture = |sq: Square| {
            let p = pos.piece_at(sq);
            p.is_some() && p.color() != pos.turn()
        };
        let step = SanShape::step(rules, pos, m.from(), m.to(), false);
        let king = || Some(san::kind_letter(rules, KING));
        if m.is(MERGE) {
            Some(SanShape { mark: "&", ..step })
        } else if m.is(SHIELD3) {
            let t1 = m.aux()?;
            Some(SanShape {
                mark: "&",
                target: san::square(rules, t1),
                suffix: format!("&{}", san::square(rules, m.to())),
                ..step
            })
        } else if m.is(SHIELD_MOVE) {
            let (from, to) = (san::square(rules, m.from()), san::square(rules, m.to()));
            Some(SanShape {
                letter: None,
                from: None,
                target: format!("&{from}-{to}"),
                ..step
            })
        } else if m.is(IN_PLACE) {
            Some(SanShape {
                letter: king(),
                mark: "x",
                ..step
            })
        } else if m.is(SHARED_STEP) {
            Some(SanShape {
                letter: king(),
                mark: if capture(m.to()) { "x" } else { "" },
                ..step
            })
        } else {
            None
        }
    }

    /// Merges, shield moves and the King's steps from a shared square are written as steps;
    /// the three-square shield in two legs; the capture in place as the King's square twice
    /// (RULINGS §12 item 5).
    fn special_text(&self, m: Move, dialect: Dialect) -> String {
        let sq = |s| notation::square_text(self.rules.geometry(), dialect, s);
        if m.is(SHIELD3) {
            let t1 = m
                .aux()
                .expect("a three-square shield names its first Teleporter");
            format!("{}{},{}{}", sq(m.from()), sq(t1), sq(t1), sq(m.to()))
        } else {
            format!("{}{}", sq(m.from()), sq(m.to()))
        }
    }

    /// XBoard shows one piece per square, so a capture onto a protected King+Archer, after
    /// which the capturer and the King share the square (RULINGS §12 item 13), cannot be shown.
    fn xboard_carries(&self, pos: &Position, m: Move) -> bool {
        let p = pos.piece_at(m.to());
        !(m.kind() != MoveKind::Shot
            && p.is_some()
            && p.color() != pos.turn()
            && status::protected(pos, m.to()))
    }

    /// The double knight through each square it may pass.
    fn xboard_paths(&self, pos: &Position, m: Move) -> Vec<Vec<Square>> {
        moves::double_knight_paths(self, pos, m)
    }

    fn describe_state(&self, _rules: &Rules, pos: &Position, sq: Square) -> Vec<String> {
        state_labels(self.rules(), pos, sq)
    }

    fn legend_notes(&self) -> &'static [(char, &'static str)] {
        LEGEND
    }
}

#[cfg(test)]
mod tests;

/// What a player needs to know of a piece's state: ranges, the Existentialist's next step and
/// sleep, spells with the ply they end at, the pieces it carries, its fire streak and shield.
fn state_labels(rules: &Rules, pos: &Position, sq: Square) -> Vec<String> {
    let piece = pos.piece_at(sq);
    let st = pos.state(sq);
    let mut out = Vec::new();
    let asleep = st.spell.is_some_and(|s| s.kind == HIBERNATING);
    match piece.kind() {
        BOBBER => out.push(format!("range {}", BOBBERS.range(pos, sq))),
        EXISTENTIALIST if !asleep => {
            let step = st.counter % CYCLE + 1;
            out.push(if st.counter == LAST_MOVE {
                "step 10, then blast".to_string()
            } else {
                format!("step {step}")
            });
        }
        _ => {}
    }
    if let Some(spell) = st.spell {
        let end = super::presentation::spell_end(pos, spell.left);
        let what = match spell.kind {
            DAZZLED => "dazzled",
            INVULNERABLE => "protected",
            MUST_MOVE => "must move",
            HIBERNATING => "asleep",
            _ => "spell",
        };
        out.push(format!("{what} to ply {end}"));
    }
    if st.attached.is_some() {
        let name = rules.kinds[st.attached.kind().index()].spec.name;
        out.push(format!("+{name}"));
    }
    if st.counter2 != 0 {
        out.push(if st.counter2 >= REST {
            "must rest".to_string()
        } else {
            format!("shots {}", st.counter2)
        });
    }
    if st.link != 0 {
        out.push(format!("shield {}", st.link));
    }
    if st.flags.contains(SHARED) {
        out.push("on the King's square".to_string());
    }
    out
}

/// Notes for players (`menagerie gui`'s legend), from `docs/rules/existentialist.md`.
const LEGEND: &[(char, &str)] = &[
    ('X', "Moves by the next step of a ten-step cycle (badge): 1 any empty square, 2 one step, 3 Bishop or backward Knight, 4 Rook sideways or diagonal step forward, 5 two Knight leaps, 6 Camel or Ferz, 7 Knight or Camel, 8 Queen, 9 Queen or Knight, 10 Queen, Knight or Camel. After its 10th move it sleeps for 20 plies; its 20th move ends in a blast that kills the first piece on each of the eight lines."),
    ('O', "Its k-th move slides up to k squares any way, moving or capturing (range at most 9; a Zednick merge adds 3). The badge shows its range now."),
    ('D', "Leaps one or two squares any way; captures as a cannon along ranks and files over one screen. Jumping a friend protects it for a ply, an enemy is dazzled (cannot move) for a ply, an enemy Hyena must move."),
    ('H', "Slides up to three squares, never captures and is never captured; freezes the enemy pieces beside it (Dazzlers and shields excepted)."),
    ('A', "Steps one square without capturing; stepping onto an own piece merges with it: the host may then shoot the first piece within two squares on a line, at most three shots in a row."),
    ('Z', "Steps one square without capturing; merges onto a Pawn (the Adventurist), the Bobber (+3 range), the Archer, or Teleporters beside it (a shield of two or three squares that moves as one and cannot be captured)."),
    ('T', "Without capturing: to any empty square of the other colour; captures by one King step."),
    ('Y', "Steps one square, never captures and is never captured; must promote on the last rank."),
    ('U', "King moves and captures; two or three squares forward from its ranks 2 and 3 while it has not been beyond rank 3; promotes on the last rank."),
    ('K', "A King carrying its Archer (fewer than three shots in a row) may stand attacked: a capture, an arrow or a blast kills only the Archer."),
    (' ', "Frozen and dazzled pieces cannot move. Badges: range, the Existentialist's next step, spells with the ply they end at, merged pieces, the fire streak and shields."),
];
