//! Who plays a third party's plies (Chaos's Nature) and how the search treats them: the policy
//! with its names, the same in UCI, CECP, the match runner and `menagerie gui`, and the seeded
//! random choice that the referee and every engine reproduce from the seed and the position.
//! The engine policy's search is `engine::choose_third_party_ply`, above the search.

use crate::board::Position;
use crate::core::rng::SplitMix;
use crate::core::{Color, Move, MoveList};
use crate::notation::{move_text, Dialect};
use crate::variants::Variant;
use std::collections::HashMap;
use std::fmt;

/// How a third party's plies are chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Policy {
    /// A seeded choice among its legal plies, the pass included (`seeded_choice`); the search
    /// follows the choice it knows.
    #[default]
    Random,
    /// An engine chooses the best ply for the player `ThirdParty::favors` (so against the other).
    Engine,
    /// The GUI or the referee sends them; the search takes the expected value over the options.
    External,
}

impl Policy {
    /// Every policy's name, in the order the protocols list them.
    pub const NAMES: [&'static str; 3] = ["random", "engine", "external"];

    /// The policy named `name`.
    pub fn parse(name: &str) -> Option<Policy> {
        match name.to_ascii_lowercase().as_str() {
            "random" => Some(Policy::Random),
            "engine" => Some(Policy::Engine),
            "external" => Some(Policy::External),
            _ => None,
        }
    }

    /// The policy's name.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Engine => "engine",
            Policy::External => "external",
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seed of the random policy when none is set (the match runner's default seed too).
pub const DEFAULT_SEED: u64 = 1;
/// The largest seed the protocols accept (the top of a UCI spin).
pub const MAX_SEED: u64 = i32::MAX as u64;
/// Nodes of the short search that plays a third party's ply by the engine policy.
pub const ENGINE_POLICY_NODES: u64 = 20_000;
/// Its table, in MiB.
pub const ENGINE_POLICY_HASH_MB: usize = 1;

/// A third party's player: the policy, the seed of the random policy, and the player the engine
/// policy plays for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThirdParty {
    /// How its plies are chosen.
    pub policy: Policy,
    /// The seed of `Policy::Random`.
    pub seed: u64,
    /// The player `Policy::Engine` helps.
    pub favors: Color,
}

impl Default for ThirdParty {
    fn default() -> Self {
        ThirdParty {
            policy: Policy::Random,
            seed: DEFAULT_SEED,
            favors: Color::White,
        }
    }
}

/// Parses a player's name for `ThirdParty::favors`.
pub fn parse_player(name: &str) -> Option<Color> {
    match name.to_ascii_lowercase().as_str() {
        "white" | "w" => Some(Color::White),
        "black" | "b" => Some(Color::Black),
        _ => None,
    }
}

/// Whether the game has a third party with turns of its own: its FEN has the seventh field of a
/// turn clock (`docs/fen.md`).
pub fn has_third_party(v: &dyn Variant) -> bool {
    v.fen(&v.start_position()).split_whitespace().count() > 6
}

/// FNV-1a, 64 bits: a hash of a FEN that any program can compute.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The random policy's ply among `legal` (the legal plies of `pos`): the legal plies sorted by
/// their UCI text, and the one at index `splitmix64(seed ^ fnv1a(FEN)) mod count`, where
/// splitmix64 is the first output of the generator seeded with that value. `None` without a
/// legal ply.
pub fn seeded_choice_in(
    variant: &dyn Variant,
    pos: &Position,
    legal: &MoveList,
    seed: u64,
) -> Option<Move> {
    if legal.is_empty() {
        return None;
    }
    let mut texts: Vec<(String, Move)> = legal
        .iter()
        .map(|&m| (move_text(variant, Dialect::Uci, m), m))
        .collect();
    texts.sort_by(|a, b| a.0.cmp(&b.0));
    let mut rng = SplitMix(seed ^ fnv1a(&variant.fen(pos)));
    Some(texts[rng.below(texts.len())].1)
}

/// `seeded_choice_in` for a caller that chooses at many positions (the search, at every third
/// party's node): a ply's UCI text depends on the ply alone, so each is written once and kept,
/// and only the ply at the chosen index is found, not the whole order. The same ply as
/// `seeded_choice_in` (equal texts, should a game have them, keep the legal list's order).
#[derive(Default)]
pub struct SeededChooser {
    /// The UCI text of every ply met so far, by its bits.
    texts: HashMap<u32, Box<str>>,
}

impl SeededChooser {
    /// `seeded_choice_in(variant, pos, legal, seed)`.
    pub fn choose(
        &mut self,
        variant: &dyn Variant,
        pos: &Position,
        legal: &MoveList,
        seed: u64,
    ) -> Option<Move> {
        if legal.is_empty() {
            return None;
        }
        let index = SplitMix(seed ^ fnv1a(&variant.fen(pos))).below(legal.len());
        for &m in legal.iter() {
            self.texts
                .entry(m.to_bits())
                .or_insert_with(|| move_text(variant, Dialect::Uci, m).into());
        }
        let mut keyed: Vec<(&str, usize)> = legal
            .iter()
            .enumerate()
            .map(|(i, m)| (&*self.texts[&m.to_bits()], i))
            .collect();
        let (_, &mut (_, chosen), _) = keyed.select_nth_unstable(index);
        Some(legal.as_slice()[chosen])
    }
}

/// `seeded_choice_in` over the legal plies of `pos`.
pub fn seeded_choice(variant: &dyn Variant, pos: &Position, seed: u64) -> Option<Move> {
    let mut legal = MoveList::new();
    variant.legal_moves(pos, &mut legal);
    seeded_choice_in(variant, pos, &legal, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in Policy::NAMES {
            assert_eq!(Policy::parse(name).map(Policy::name), Some(name));
        }
        assert_eq!(Policy::parse("nature"), None);
    }

    /// The published FNV-1a test vectors.
    #[test]
    fn fnv1a_matches_its_definition() {
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
    }

    /// The choice depends on the seed and the position only: the same for the same inputs, and
    /// always one of the legal plies.
    #[test]
    fn the_choice_reproduces() {
        let v = crate::variants::by_name("chaos").unwrap();
        let pos = v
            .parse_fen(
                "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[_Q_R_B_N] n KQkq - 3 3 5b",
            )
            .unwrap();
        let mut legal = MoveList::new();
        v.legal_moves(&pos, &mut legal);
        let picks: Vec<Move> = (0..40)
            .map(|s| seeded_choice(v, &pos, s).unwrap())
            .collect();
        assert!(picks.iter().all(|&m| legal.contains(m)));
        assert_eq!(
            picks,
            (0..40)
                .map(|s| seeded_choice(v, &pos, s).unwrap())
                .collect::<Vec<_>>()
        );
        // Forty seeds over 33 plies reach more than one of them.
        assert!(picks.iter().any(|&m| m != picks[0]));
    }

    /// The chooser that keeps the plies' texts picks what `seeded_choice_in` picks, over
    /// random playouts of every game (Chaos's Nature among them), one chooser per game so that
    /// its kept texts are reused, at several seeds.
    #[test]
    fn the_chooser_picks_the_seeded_choice() {
        let mut natures = 0;
        for v in crate::variants::all() {
            let mut chooser = SeededChooser::default();
            crate::variants::tests::for_each_playout_position(*v, |pos, legal| {
                natures += usize::from(pos.turn() == Color::Neutral);
                for seed in [1, 7, 1 << 30] {
                    assert_eq!(
                        chooser.choose(*v, pos, legal, seed),
                        seeded_choice_in(*v, pos, legal, seed),
                        "{}: {} seed {seed}",
                        v.name(),
                        v.fen(pos)
                    );
                }
            });
        }
        assert!(natures >= 100, "{natures} third-party positions");
    }
}
