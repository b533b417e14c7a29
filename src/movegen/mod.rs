//! The shared pipeline every game runs on, with the rules seam: the game's hooks (`Hooks`, in
//! `hooks`) called wherever a rule applies:
//!
//! - `generate`: pseudo-legal moves from the compiled tables, for the pieces the `rights` hook
//!   lets the side to move move, with the captures it allows; castling (its safety by the
//!   `attacked` hook), drops, and the game's `extra_moves`, each passed through `allows`;
//! - `attacks`: attack detection from the same tables, for any set of attackers and blockers;
//! - `legal`: the legality filter (the `shortcuts` hook says which moves it may decide without
//!   making them; the rest are made and judged by the `exposed` hook);
//! - `play`: copy-make: the core effects, the game's `apply_special` and `after_move`, then the
//!   turn (`next_turn`), the counters, spells that end and en passant;
//! - `reference`: the slow generator built straight from the piece atoms, which tests compare
//!   with the fast one at every node.

mod attacks;
mod checks;
mod generate;
pub mod hooks;
mod legal;
pub mod outcome;
mod play;
pub mod reference;

pub use crate::board::ep_capturable;
pub use attacks::{attacked_by, table_attacked, table_attackers};
pub use checks::CheckScreen;
pub use generate::{en_passant, moves_of, pseudo_legal, pseudo_legal_noisy, push_target};
pub use hooks::{default_rights, Hooks, Rights, Rulings, Shortcuts};
pub use legal::{
    castling_pieces_stand, legal, legal_count, legal_count_here, legal_count_with, legal_here,
    legal_noisy, royal_attacked, table_check_and_evasions, table_evasions, table_shortcuts,
    validate_basic, validate_stateless, validate_two_players, BulkCount,
};
pub use outcome::{fide_outcome, EndReason, Outcome};
pub use play::{play, play_in, play_into};

use crate::board::Position;
use crate::core::{Move, MoveKind, PieceKind};

/// How an attack or a move list is worked out: from the compiled tables (the engine's path) or
/// by the slow reference that walks the rules square by square (what tests compare it with).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The tables.
    Fast,
    /// The reference.
    Reference,
}

/// Whether a move of a core kind changes material: a capture (en passant, a shot, a drop onto a
/// piece included) or a promotion.
pub fn core_is_noisy(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::Normal | MoveKind::TwoLeg | MoveKind::Drop => pos.piece_at(m.to()).is_some(),
        MoveKind::Promotion | MoveKind::EnPassant | MoveKind::Shot => true,
        MoveKind::Castle | MoveKind::Pass | MoveKind::Transform | MoveKind::Special(_) => false,
    }
}

/// What a move of a core kind wins at once: the victim (negative when it is the mover's own),
/// and what a promotion or transformation adds over the piece it replaces.
pub fn core_material_gain(pos: &Position, m: Move, value: &dyn Fn(PieceKind) -> i32) -> i32 {
    let mover = pos.piece_at(m.from());
    let on = |sq| {
        let p = pos.piece_at(sq);
        if p.is_none() {
            0
        } else if mover.is_some() && p.color() == mover.color() && m.kind() != MoveKind::Drop {
            -value(p.kind())
        } else {
            value(p.kind())
        }
    };
    let victim = match m.kind() {
        MoveKind::EnPassant => m.aux().map_or(0, on),
        MoveKind::Castle | MoveKind::Pass | MoveKind::Transform => 0,
        _ => on(m.to()),
    };
    let change = match (m.kind(), m.piece()) {
        (MoveKind::Promotion | MoveKind::Transform, Some(k)) if mover.is_some() => {
            value(k) - value(mover.kind())
        }
        _ => 0,
    };
    victim + change
}
