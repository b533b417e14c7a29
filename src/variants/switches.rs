//! The per-game switches of the search: the game's own evaluation terms and whether null-move
//! pruning and static exchange evaluation are sound. The facade hands them out as
//! `Variant::switches`. What a move changes (`is_noisy`, which the noisy generator reads, and
//! beside it `material_gain`), the end of the game and the point of view are rules, in
//! `movegen::Hooks`, because the pipeline and the referee read them too; the search asks them
//! through `Variant::rulings`.

use crate::board::Position;

/// One evaluation term of a game's own. The shared evaluation (`crate::eval`) counts it as
/// `weight * feature / divisor` for White, where the feature is what
/// [`SearchSwitches::eval_features`] measures (White's count minus Black's) and the weight is
/// a parameter named `name` in the game's parameter file (`default` when the file does not set
/// it), so the tuner can fit it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameTerm {
    /// The parameter's name: lower case, no spaces.
    pub name: &'static str,
    /// The weight when the game's parameter file does not set one.
    pub default: i32,
    /// What `weight * feature` is divided by (1, or 100 for a weight in percent).
    pub divisor: i32,
}

impl GameTerm {
    /// A term counted as `weight * feature`.
    pub const fn new(name: &'static str, default: i32) -> GameTerm {
        GameTerm {
            name,
            default,
            divisor: 1,
        }
    }

    /// A term whose weight is a percentage: `weight * feature / 100`.
    pub const fn percent(name: &'static str, default: i32) -> GameTerm {
        GameTerm {
            name,
            default,
            divisor: 100,
        }
    }
}

/// How the search treats a game. Every method has a default; a game writes only what it
/// changes (`impl SearchSwitches for Chess {}`).
///
/// Late-move reductions have no switch of their own: every game allows them, in the degree
/// `selective` chooses.
pub trait SearchSwitches: Send + Sync {
    /// The evaluation terms of the game's own, added to the material, placement, mobility,
    /// king-safety and pawn terms the shared evaluation counts. Default: none.
    fn eval_terms(&self) -> &'static [GameTerm] {
        &[]
    }

    /// The features of the game's terms in `pos`, one per term of `eval_terms` in its order,
    /// each White's count minus Black's; `out` holds exactly as many entries as there are terms,
    /// all 0 on entry. Called by the static evaluation at every leaf and quiescence node.
    fn eval_features(&self, _pos: &Position, _out: &mut [i32]) {}

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

    /// Whether captures are ordered by their history (how often a capture of a kind by a kind
    /// onto a square refuted) as well as by victim and attacker. Read once per search. Default:
    /// on.
    fn capture_history(&self) -> bool {
        true
    }

    /// Whether late moves are pruned and reduced more selectively: late-move pruning to depth 8
    /// by whether the static evaluation improves, larger late-move reductions, most at
    /// expected cut nodes. Read once per search. Default: on.
    fn selective(&self) -> bool {
        true
    }

    /// Whether the first ply of quiescence also searches the quiet moves that check (that land
    /// where their piece attacks an enemy royal piece, confirmed by `in_check` after the move),
    /// so that mates and forks by check just past the horizon are seen. Read once per search.
    /// Default: off; a game turns it on once self-play shows that it gains there.
    fn quiet_checks_in_quiescence(&self) -> bool {
        false
    }

    /// Whether a move gives check only by the table captures of the moved piece from its
    /// target, or of a rider it uncovers, so that `movegen::CheckScreen` may tell a move that
    /// gives none without making it (the search prunes such quiet moves before making them). A
    /// test holds every game that turns it on to it, over random games. Read once per search.
    /// Default: off (checks by a game's own rules, several royal pieces, side effects of moves).
    fn checks_from_tables(&self) -> bool {
        false
    }

    /// Whether a capture onto a square is exactly what the tables' movement of the other side's
    /// pieces allows (the default `Hooks::attacked` and `Hooks::attackers`), so that static
    /// exchange evaluation may find every attacker of a square in one pass
    /// (`movegen::table_attackers`) instead of asking the game's test piece by piece. A test
    /// holds every game that turns it on to it, comparing both over random games. Read once
    /// per search. Default: off (a game's own attacks: explosions, Bobbers, protected pieces).
    fn attacks_from_tables(&self) -> bool {
        false
    }
}
