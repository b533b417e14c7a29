//! The rules seam: the hooks through which a game's rules enter the shared pipeline. Every
//! hook but `rules` has a default that is the FIDE rule, read from the game's `RuleSpec`; a game
//! overrides only what its rules change. The pipeline (`crate::movegen`) calls them wherever the
//! rule applies: generation, the legality filter, castling, making moves, reading and checking
//! a FEN, the reference generator; the engine above reads the game's end, its point of view
//! and what a move changes through the same hooks (`Rulings`, `variants::Variant::rulings`). The search's own
//! switches and the game's presentation are other, smaller traits of `crate::variants`.
//! `docs/architecture.md` lists every hook with when it is called.

use crate::board::{Effects, FenError, Position, PositionError, Setup};
use crate::core::{Bitboard, ByColor, Color, Move, MoveList, PieceKind, Square};
use crate::movegen::{self, BulkCount, Method};
use crate::rules::Rules;

use super::outcome::{fide_outcome, Outcome};

/// Who may move what, and what a moved piece may capture, in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rights {
    /// Pieces the side to move may move (its own, and in some games neutral pieces or enemy ones).
    pub movers: Bitboard,
    /// What a moved piece may capture, by the moved piece's colour.
    pub victims: ByColor<Bitboard>,
}

/// Which ordinary moves (plain moves, captures and promotions), and which castling moves, the
/// fast legality filter may decide without making them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shortcuts {
    /// Pieces whose ordinary moves cannot expose a royal piece: legal as generated, unless they
    /// end on `risky`.
    pub safe: Bitboard,
    /// Squares a move may not end on without being made and tested (where a piece would open
    /// an attack: a cannon's screen).
    pub risky: Bitboard,
    /// A royal piece whose ordinary moves are legal when their target is not attacked with the
    /// royal piece lifted off the board.
    pub royal: Option<Square>,
    /// Pieces (not on `safe`) that stand alone on a line between `royal` and an enemy piece
    /// that would attack it along the line once they left it, and on no enemy lame leap's path:
    /// out of check, their ordinary moves are legal exactly when they stay on that line between
    /// the two or take the pinning piece.
    pub line_pinned: Bitboard,
    /// Whether `royal` is exposed exactly when the tables' attack test (`movegen::table_attacked`,
    /// the default `Hooks::attacked`) finds it attacked: its ordinary moves are then tested
    /// with the attackers made ready once, and its castling moves are legal when their target
    /// is not attacked with both castling pieces moved (generation has found the path safe).
    pub by_tables: bool,
    /// Every move the game allows is legal, of whatever kind (a game without royal pieces).
    pub every_move: bool,
    /// Drops and the pass are legal as generated: they expose nothing (the game's `exposed`
    /// says so for them without looking at the position after them).
    pub drops_and_pass: bool,
    /// Where an ordinary move of a piece on `safe` (off `risky`) must end to be legal: in
    /// check, the checking piece and the squares that block its attack; elsewhere it leaves
    /// the check standing. `Bitboard::ALL` when not in check.
    pub evasions: Bitboard,
}

impl Shortcuts {
    /// No shortcut: every move is made and tested.
    pub const NONE: Shortcuts = Shortcuts {
        safe: Bitboard::EMPTY,
        risky: Bitboard::EMPTY,
        royal: None,
        line_pinned: Bitboard::EMPTY,
        by_tables: false,
        every_move: false,
        drops_and_pass: false,
        evasions: Bitboard::ALL,
    };
}

/// A game's rules as hooks on the shared pipeline.
pub trait Hooks: Send + Sync {
    /// The compiled rules. Read by every step of the pipeline; no default.
    fn rules(&self) -> &Rules;

    // ---- Turns ----

    /// Sets who moves after `m` on `after`: the side to move and the game's turn clock. Called
    /// by `play` last, after `after_move`. Default: the other player.
    fn next_turn(&self, before: &Position, _m: Move, after: &mut Position) {
        after.set_turn(before.turn().opponent());
    }

    /// The player a position is scored for: the side to move, or, on a third party's turn, the
    /// player it hands the move to. Called by `play` (who may capture en passant next), by FEN
    /// reading (a third party's ply number), by `validate_basic`, and by the search, which
    /// negates a score only where this changes, and by the clocks, which are this player's.
    /// Default: the side to move.
    fn point_of_view(&self, pos: &Position) -> Color {
        pos.turn()
    }

    /// Reads the side to move and the FEN's seventh field into `pos`. Called by FEN reading
    /// (`Variant::parse_fen`) before the en-passant squares. Default: a player is to move and
    /// there is no seventh field.
    fn read_turn(&self, setup: &Setup, _pos: &mut Position) -> Result<(), FenError> {
        if setup.turn == Color::Neutral {
            return Err(FenError::BadTurn("n".into()));
        }
        match &setup.turn_field {
            Some(t) => Err(FenError::BadTurnField(t.clone())),
            None => Ok(()),
        }
    }

    /// The FEN's seventh field, for a game whose turns depend on a clock of its own. Called by
    /// FEN writing (`Variant::fen`). Default: none.
    fn write_turn(&self, _pos: &Position) -> Option<String> {
        None
    }

    // ---- Who moves what ----

    /// Who may move what and capture what; `in_check` says whether the side to move is in
    /// check. Called by both generators (fast and reference) first. Default
    /// (`default_rights`): the side to move moves its own pieces and captures the pieces of
    /// every other colour.
    fn rights(&self, pos: &Position, _in_check: bool) -> Rights {
        default_rights(pos)
    }

    /// Pieces that must move when they have a legal move (a Hyena jumped by an enemy Dazzler):
    /// the legal moves are then theirs only. Called by the legality filter of both generators
    /// after the legal moves are known. Default: none.
    fn compelled(&self, _pos: &Position) -> Bitboard {
        Bitboard::EMPTY
    }

    // ---- Attacks ----

    /// The pieces whose attacks on `defender`'s royal pieces count as check. Called by the
    /// check test, castling's safety test, the legality filter's royal shortcut, the default
    /// `exposed` and `Variant::attacked`. Default: the opponent's.
    fn attackers(&self, pos: &Position, defender: Color) -> Bitboard {
        pos.color_bb(defender.opponent())
    }

    /// Whether the pieces in `attackers` could capture on `sq`, with `occupied` as the blockers
    /// (which may differ from the board, to look through a piece about to move). Called
    /// wherever `attackers` is, with the same `how`, except for the royal piece's targets where
    /// the shortcuts say `by_tables` (the tables' test is then made ready once per position).
    /// Default: their table movement (`movegen::attacked_by`).
    fn attacked(
        &self,
        pos: &Position,
        sq: Square,
        occupied: Bitboard,
        attackers: Bitboard,
        how: Method,
    ) -> bool {
        movegen::attacked_by(self.rules(), pos, sq, occupied, attackers, how)
    }

    // ---- Legality ----

    /// Whether the move `m`, which took `before` to `after`, left a royal piece of the mover
    /// exposed. Called by the legality filter for every move it cannot decide by a shortcut,
    /// after making it. A game without check says no here (or has no royal kinds). Default: a
    /// royal piece of the mover is attacked in `after` by the pieces `attackers` names.
    fn exposed(&self, before: &Position, _m: Move, after: &Position, how: Method) -> bool {
        let us = before.turn();
        let attackers = self.attackers(after, us);
        let occ = after.occupied();
        after
            .royals(self.rules(), us)
            .into_iter()
            .any(|k| self.attacked(after, k, occ, attackers, how))
    }

    /// Which ordinary moves the fast legality filter may decide without making them. Called
    /// once per position by the fast filter. Default (`movegen::table_evasions`): pieces that
    /// stand on no line or lame leap between the royal piece and an enemy piece that captures
    /// along it, and in check (found by the table movement of the opponent's pieces), their
    /// moves that take or block every checking piece; pieces pinned along a line, kept to it;
    /// the royal piece by the square test, its castling by its target. A game whose
    /// `attackers` or `attacked` differ from the default overrides this
    /// (`movegen::table_shortcuts` is the same without the evasions).
    fn shortcuts(&self, pos: &Position, in_check: bool) -> Shortcuts {
        movegen::table_evasions(self.rules(), pos, in_check)
    }

    /// Whether the side to move is in check (by `Method::Fast`), with `shortcuts` for it: the
    /// two together where both are needed (`Variant::legal_moves` and the count, where the
    /// check is not known yet). Default: the one, then the other.
    /// A game that keeps the default `attackers`, `attacked`, `in_check` and `shortcuts` may
    /// find both in one walk with `movegen::table_check_and_evasions`; a test holds every
    /// game's answer to the two hooks' at every position of its random playouts and every
    /// position a move from them. Inlined, and a game's own should be: returned through memory,
    /// the pair is read back in wider loads than it was stored in, which the processor cannot
    /// forward.
    #[inline(always)]
    fn check_and_shortcuts(&self, pos: &Position) -> (bool, Shortcuts) {
        let in_check = self.in_check(pos, Method::Fast);
        (in_check, self.shortcuts(pos, in_check))
    }

    /// Whether the side to move is in check, worked out by `how`. Called by `Variant::in_check`
    /// (the search's check test before generating), the default `check_and_shortcuts`, the
    /// reference generator and `fide_outcome`. Default: a royal piece is attacked by the pieces
    /// that threaten it (`movegen::royal_attacked`).
    fn in_check(&self, pos: &Position, how: Method) -> bool {
        movegen::royal_attacked(self, pos, pos.turn(), how)
    }

    // ---- Moves ----

    /// Moves beyond the tables (teleports, switches), pseudo-legal. Called by the fast
    /// generator after the table moves, castling and drops (and by the noisy generator, whose
    /// moves it filters with `is_noisy`). Default: none.
    fn extra_moves(&self, _pos: &Position, _in_check: bool, _out: &mut MoveList) {}

    /// The moves of `extra_moves` when the legal moves are only counted (perft's last ply):
    /// plain moves, which `allows` must keep, may go to `out.normals`, which counts those the
    /// shortcuts prove legal without listing them; every other move goes to `out.push`. The
    /// order does not matter. Called by `movegen::legal_count`, when `counts_in_bulk`, in
    /// place of `extra_moves`. Default: every move of `extra_moves` listed.
    fn count_extra_moves(&self, pos: &Position, in_check: bool, out: &mut BulkCount) {
        self.extra_moves(pos, in_check, out.rest());
    }

    /// The same moves as `extra_moves`, the slow way. Called by the reference generator.
    /// Default: `extra_moves`, for a game whose extra moves have no slow form of their own.
    fn reference_extra_moves(&self, pos: &Position, in_check: bool, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        self.extra_moves(pos, in_check, &mut list);
        out.extend_from_slice(list.as_slice());
    }

    /// Whether a turn has parts that the generated moves only begin (Afterlife: the move, a free
    /// step, the Destiny); `complete_turns` then makes the game's moves from them. Read by both
    /// generators. Default: no.
    fn turns_have_parts(&self) -> bool {
        false
    }

    /// Replaces the parts in `out` (the generated moves, pseudo-legal, the game's own included)
    /// by the whole turns that begin with each, in the parts' order. Called by the fast
    /// generator, only when `turns_have_parts`. Default: the parts themselves.
    fn complete_turns(&self, _pos: &Position, _out: &mut MoveList) {}

    /// The same turns as `complete_turns`, the slow way: pushes to `out` the whole turns that
    /// begin with each of `parts`. Called by the reference generator, only when
    /// `turns_have_parts`. Default: `complete_turns`, for a game without a slow form.
    fn reference_complete_turns(&self, pos: &Position, parts: &[Move], out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        for &m in parts {
            list.push(m);
        }
        self.complete_turns(pos, &mut list);
        out.extend_from_slice(list.as_slice());
    }

    /// Whether a generated pseudo-legal move is allowed by a rule the tables cannot say
    /// (promotion limits). Called by the legality filter of both generators for every move.
    /// Default: every move. A game whose `allows` refuses a plain move (not a promotion) overrides
    /// `counts_in_bulk` too.
    fn allows(&self, _pos: &Position, _m: Move) -> bool {
        true
    }

    /// Whether `m`, a move of one of the game's own kinds (`MoveKind::Special`), can expose a
    /// royal piece of the mover no more than an ordinary move of the same piece from `m.from()`
    /// to `m.to()` would: the legality filter then judges it by the `shortcuts` as one (legal
    /// when its piece is `safe` and `m.to()` is not `risky`) instead of making it, except
    /// where the shortcuts restrict the safe pieces to evasions (in check), when it is made
    /// and judged. Called by the fast legality filter. Default: no.
    fn judged_as_ordinary(&self, _pos: &Position, _m: Move) -> bool {
        false
    }

    /// Whether the legal moves in `pos` may be counted without listing them (perft's last ply):
    /// `allows` keeps every plain table move (promotions are listed and judged anyway), so
    /// that the plain moves the `shortcuts` prove legal, and the royal piece's plain moves the
    /// square test finds safe, are counted by their targets alone.
    /// Called by `movegen::legal_count`; when it says no, every move is listed and judged.
    /// Default: yes, as `allows` refuses nothing.
    fn counts_in_bulk(&self, _pos: &Position) -> bool {
        true
    }

    // ---- Making moves ----

    /// Makes a move of one of the game's own kinds (`MoveKind::Special`) on `after` (a copy of
    /// `before`). Called by `play` in place of the core effects; the pipeline then sets the
    /// counters and the turn. Default: unreachable, for a game with no kinds of its own.
    fn apply_special(&self, _before: &Position, m: Move, _after: &mut Position) -> Effects {
        unreachable!("{m:?} is not a move of this game")
    }

    /// The game's state updates after any move (a Bobber's counter, a spell). Called by `play`
    /// with the board already changed, the halfmove clock set and the game ply advanced (spells
    /// that ran out are gone; a spell cast now with `left` 1 is in force in `after` only);
    /// `next_turn` comes after it. Default: none.
    fn after_move(&self, _before: &Position, _m: Move, _fx: &Effects, _after: &mut Position) {}

    // ---- What a move changes ----

    /// Whether `m` changes material. Called by the noisy generator (`Variant::noisy_moves`,
    /// what quiescence searches) and by the search's move ordering and pruning. Default
    /// (`movegen::core_is_noisy`): captures, promotions, shots; a game's own kinds are quiet.
    fn is_noisy(&self, pos: &Position, m: Move) -> bool {
        movegen::core_is_noisy(pos, m)
    }

    /// The material `m` wins at once for the mover, from `value` of a piece kind: the victims,
    /// and a promotion's gain. Signed: a capture of one's own piece loses. Called by the search
    /// (move ordering, quiescence's delta pruning). Default: `movegen::core_material_gain`; a
    /// game's own kinds win nothing.
    fn material_gain(&self, pos: &Position, m: Move, value: &dyn Fn(PieceKind) -> i32) -> i32 {
        movegen::core_material_gain(pos, m, value)
    }

    // ---- Positions ----

    /// Reads a FEN's en-passant squares into `pos`, whose side to move is set. Called by FEN
    /// reading when the field names squares. Default: they lie behind a pawn-like piece of the
    /// player who just moved, which is the victim, and are kept when the side to move could
    /// capture onto them.
    fn read_en_passant(&self, pos: &mut Position, targets: &[Square]) -> Result<(), FenError> {
        if pos.turn() == Color::Neutral {
            return Ok(());
        }
        pos.set_ep_from_fen(self.rules(), targets, pos.turn())
    }

    /// Checks that a position parsed from a FEN can be played on. Called by FEN reading last.
    /// Default (`movegen::validate_basic`): one royal piece per player where the game has
    /// them, no promoting piece on its promotion squares, the side not to move not in check; no
    /// neutral piece and no reserve (`movegen::validate_two_players`); no piece state
    /// (`movegen::validate_stateless`). A game whose pieces carry state checks it here: which
    /// kinds carry what, and that play cannot need more entries than the state table holds.
    fn validate(&self, pos: &Position) -> Result<(), PositionError> {
        movegen::validate_basic(self, pos)?;
        movegen::validate_two_players(pos)?;
        movegen::validate_stateless(pos)
    }

    // ---- End of the game ----

    /// How many earlier positions count for a repetition: every one since the last
    /// irreversible move. Called by `fide_outcome` and by the search's repetition test.
    /// Default: the halfmove clock, which counts every ply.
    fn repetition_window(&self, pos: &Position) -> usize {
        pos.halfmove_clock() as usize
    }

    /// Whether neither side can ever win. Called by `fide_outcome`. Default: no piece but royal
    /// ones is left, and no reserve.
    fn insufficient_material(&self, pos: &Position) -> bool {
        let rules = self.rules();
        let royal = pos.kinds_bb(rules.royal);
        rules.royal.nonempty() && (pos.occupied() & !royal).is_empty() && pos.reserve().is_empty()
    }

    /// The result if the game is over. `legal_count` is the number of legal moves here; `history`
    /// holds the hashes of earlier positions of the game, oldest first. Called by the game
    /// record and the referee after every move, and by the search at every node (with no
    /// history; it tests repetitions itself). Default: FIDE's rules (`fide_outcome`).
    fn outcome(&self, pos: &Position, legal_count: usize, history: &[u64]) -> Option<Outcome> {
        fide_outcome(self, pos, legal_count, history)
    }
}

/// What the floors above the pipeline ask of a game's rules: the result, whose point of view a
/// position is, and what a move changes. Every game answers through its [`Hooks`] (the blanket
/// impl below), so a game writes nothing here; `variants::Variant::rulings` hands it out.
///
/// It is a view of its own, not `&dyn Hooks`, so that the hooks the pipeline alone calls stay
/// out of any vtable: the compiler may then inline a game's `next_turn` or `shortcuts` into its
/// pipeline as it would a function with one caller (perft of Chaos counted 5% more instructions
/// with the whole of `Hooks` behind a vtable).
pub trait Rulings: Send + Sync {
    /// `Hooks::outcome`.
    fn outcome(&self, pos: &Position, legal_count: usize, history: &[u64]) -> Option<Outcome>;
    /// `Hooks::point_of_view`.
    fn point_of_view(&self, pos: &Position) -> Color;
    /// `Hooks::is_noisy`.
    fn is_noisy(&self, pos: &Position, m: Move) -> bool;
    /// `Hooks::material_gain`.
    fn material_gain(&self, pos: &Position, m: Move, value: &dyn Fn(PieceKind) -> i32) -> i32;
    /// `Hooks::repetition_window`.
    fn repetition_window(&self, pos: &Position) -> usize;
}

impl<H: Hooks> Rulings for H {
    fn outcome(&self, pos: &Position, legal_count: usize, history: &[u64]) -> Option<Outcome> {
        Hooks::outcome(self, pos, legal_count, history)
    }

    fn point_of_view(&self, pos: &Position) -> Color {
        Hooks::point_of_view(self, pos)
    }

    fn is_noisy(&self, pos: &Position, m: Move) -> bool {
        Hooks::is_noisy(self, pos, m)
    }

    fn material_gain(&self, pos: &Position, m: Move, value: &dyn Fn(PieceKind) -> i32) -> i32 {
        Hooks::material_gain(self, pos, m, value)
    }

    fn repetition_window(&self, pos: &Position) -> usize {
        Hooks::repetition_window(self, pos)
    }
}

/// The FIDE rights: the side to move moves its own pieces and captures every other colour's.
pub fn default_rights(pos: &Position) -> Rights {
    let us = pos.turn();
    let occ = pos.occupied();
    let mut victims = ByColor::default();
    for c in Color::ALL {
        victims[c] = occ & !pos.color_bb(c);
    }
    Rights {
        movers: pos.color_bb(us),
        victims,
    }
}
