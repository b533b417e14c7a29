//! A game's presentation: the text of its own moves, what XBoard is told, and what the browser
//! board shows players. Nothing here changes a rule or a search; the facade hands it out as
//! `Variant::presentation`.

use super::san::SanShape;
use crate::board::Position;
use crate::core::{Bitboard, Move, Square};
use crate::notation::Dialect;
use crate::rules::Rules;

/// How a game's moves and pieces are written and shown. Every method has a default; a game
/// writes only what it changes (most write none: `impl Presentation for Chess {}`).
pub trait Presentation: Send + Sync {
    // ---- Move text ----

    /// The text of a move of one of the game's own kinds (`MoveKind::Special`). Called by
    /// `Variant::move_text` for those moves, in every protocol, the game record and the logs;
    /// the core kinds' text is `notation::core_move_text`. A move's text depends on the move
    /// alone, so a game packs what its text needs into the move. Default: the move's debug
    /// form, for a game with no kinds of its own.
    fn special_text(&self, m: Move, _dialect: Dialect) -> String {
        format!("{m:?}")
    }

    /// The SAN shape of `m` in `pos` when the game writes it its own way (its own move kinds:
    /// shots, merges, turns of several parts), without disambiguation or check marks, which
    /// `san` adds. Called by `san::write` and `san::read` for every legal move. Default: none,
    /// the core kind's shape (`docs/protocol.md`, "SAN").
    fn san_shape(&self, _rules: &Rules, _pos: &Position, _m: Move) -> Option<SanShape> {
        None
    }

    // ---- XBoard (`protocol::xboard_variant`) ----

    /// Whether XBoard 4.9.1 shows and carries `m` as this engine means it. Called by CECP's
    /// move entry when it lists the legal moves XBoard is told of (`xboard_variant::entry`).
    /// Default: every move.
    fn xboard_carries(&self, _pos: &Position, _m: Move) -> bool {
        true
    }

    /// The text XBoard is sent for `m` when it differs from the CECP move text: a form XBoard
    /// can parse and relay (Afterlife sends a turn as its first part). Called by CECP whenever
    /// it writes a move for XBoard. Default: none (the CECP text).
    fn xboard_text(&self, _pos: &Position, _m: Move) -> Option<String> {
        None
    }

    /// Squares XBoard is not asked to show as we do (Afterlife's Limbo, Hall and Twelve Hours,
    /// whose arrivals XBoard cannot show): a move is carried whatever it does there. Read by
    /// CECP when it checks what XBoard shows of a move. Default: none.
    fn xboard_hidden(&self) -> Bitboard {
        Bitboard::EMPTY
    }

    /// Other click sequences that enter `m` in XBoard besides its text's legs (each the mover's
    /// square, then each leg's end): a move that may pass different squares. Called by CECP's
    /// move entry when it reads a move XBoard sends. Default: none.
    fn xboard_paths(&self, _pos: &Position, _m: Move) -> Vec<Vec<Square>> {
        Vec::new()
    }

    // ---- The browser board (`menagerie gui`) ----

    /// Short labels, for players, of the state of the piece on `sq` that its kind and colour do
    /// not show (a Bobber's range, a spell and the ply it ends at). A label may go on after
    /// `: ` with what it means (`{x}: captured this stay: ...`): the page shows the part before
    /// on the piece and the whole label for the piece under the pointer. `rules` are the game's
    /// (`Variant::rules`). Called by the page's view of every occupied square. Default: the FEN
    /// items of the state (`generic_state_labels`).
    fn describe_state(&self, rules: &Rules, pos: &Position, sq: Square) -> Vec<String> {
        generic_state_labels(rules, pos, sq)
    }

    /// Notes for players on the turn that the side to move does not say (a third party's clock
    /// and what it allows), shown where the page says whose turn it is. Called by the page's
    /// view of every position. Default: none.
    fn describe_turn(&self, _pos: &Position) -> Vec<String> {
        Vec::new()
    }

    /// What players call the neutral side (Chaos's Nature, Afterlife's grey pieces), in the
    /// page's words for the turn, reserves and players, and in CECP's result comments. Read
    /// once per game. Default: `Neutral`.
    fn neutral_name(&self) -> &'static str {
        "Neutral"
    }

    /// Notes for players on what the movement notation does not say: per piece letter (upper
    /// case) its moves made by hooks and the meaning of its state; letter `' '` for notes on the
    /// whole game. Read by `menagerie gui`'s legend. Default: none.
    fn legend_notes(&self) -> &'static [(char, &'static str)] {
        &[]
    }
}

/// The state of the piece on `sq` as its FEN items (`docs/fen.md`): `c3`, a flag's letter, a
/// spell with the ply it ends at (`sd@40`), the piece it carries (`+A`), its link (`g1`).
pub fn generic_state_labels(rules: &Rules, pos: &Position, sq: Square) -> Vec<String> {
    let st = pos.state(sq);
    let letters = &rules.spec.state;
    let mut out = Vec::new();
    if st.counter != 0 {
        out.push(format!("c{}", st.counter));
    }
    for (bit, &letter) in letters.flags.iter().enumerate() {
        if st.flags.0 >> bit & 1 != 0 {
            out.push(letter.to_string());
        }
    }
    if let Some(spell) = st.spell {
        let letter = letters
            .spells
            .get(spell.kind.0 as usize)
            .copied()
            .unwrap_or('?');
        out.push(format!("s{letter}@{}", spell_end(pos, spell.left)));
    }
    if st.attached.is_some() {
        let a = st.attached;
        out.push(format!("+{}", rules.letter(a.kind(), a.color())));
    }
    if st.counter2 != 0 {
        out.push(format!("f{}", st.counter2));
    }
    if st.link != 0 {
        out.push(format!("g{}", st.link));
    }
    out
}

/// The game ply at which a spell with `left` positions to run ends (as FEN writes it).
pub fn spell_end(pos: &Position, left: u8) -> u32 {
    pos.ply() as u32 + left as u32
}
