//! The per-game switches of the search: an evaluation term, and whether null-move pruning and
//! static exchange evaluation are sound. The facade hands them out as `Variant::switches`. What a move changes (`is_noisy`,
//! which the noisy generator reads, and beside it `material_gain`), the end of the game and the
//! point of view are rules, in `movegen::Hooks`, because the pipeline and the referee read them
//! too; the search asks them through `Variant::rulings`.

use crate::board::Position;

/// How the search treats a game. Every method has a default; a game writes only what it
/// changes (`impl SearchSwitches for Chess {}`).
///
/// Late-move reductions have no switch: every game allows them (a switch that no game turned
/// off was removed; add one here, with the search's test of it, when a game needs it).
pub trait SearchSwitches: Send + Sync {
    /// Evaluation terms of the game's own, in centipawns for White, added to the material and
    /// placement the shared evaluation (`crate::eval`) counts. Called by the search's static
    /// evaluation at every leaf and quiescence node. Default: 0.
    fn evaluate_extra(&self, _pos: &Position) -> i32 {
        0
    }

    /// Whether the search may prune with a null move. Read once per search. Off where zugzwang
    /// or forced moves are common. Default: allowed.
    fn null_move_allowed(&self) -> bool {
        true
    }

    /// Whether static exchange evaluation holds: every capture replaces its victim on the
    /// victim's square and the victim's value is lost to its owner, so a sequence of captures on
    /// one square, least valuable attacker first, tells what a capture wins. Read once per
    /// search; where it is off the search orders captures by victim and attacker alone and
    /// quiescence drops a capture onto a defended square by a piece worth more than its prey.
    /// Default: on.
    fn see_sound(&self) -> bool {
        true
    }
}
