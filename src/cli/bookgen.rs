//! `menagerie bookgen`: a book of varied, balanced openings for a game. Each candidate opening
//! is a seeded walk of plausible plies from the start position (at each ply a random choice
//! among the root moves a shallow MultiPV search scores within `margin` of the best); it is kept
//! when the game is not over, a player (not a third party) is to move, a short search scores it
//! within `bound` centipawns, and no earlier opening reached the same position. The same
//! arguments write the same book.

use crate::arena::pgn::PgnGame;
use crate::core::rng::SplitMix;
use crate::core::{Color, Move};
use crate::game::Game;
use crate::search::{self, Control, Limits, SearchInput, TranspositionTable, MATE_BOUND};
use crate::variants::{self, san, Variant};
use std::collections::HashSet;
use std::path::PathBuf;

/// The options of `menagerie bookgen`.
#[derive(clap::Args, Clone, Debug)]
pub struct BookgenArgs {
    /// Variant name (see `menagerie variants`).
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// Positions to write.
    #[arg(long, default_value_t = 500)]
    pub count: usize,
    /// Plies of each opening (a third party's plies, such as Chaos's Nature, come on top).
    #[arg(long, default_value_t = 8)]
    pub plies: u32,
    /// Largest absolute score, in centipawns, of a kept position.
    #[arg(long, default_value_t = 60)]
    pub bound: i32,
    /// Depth of the search that scores a finished opening.
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Depth of the MultiPV search that proposes each ply.
    #[arg(long, default_value_t = 1)]
    pub pick_depth: u32,
    /// Root moves that search proposes at each ply.
    #[arg(long, default_value_t = 4)]
    pub multipv: usize,
    /// A proposed move is played only within this many centipawns of the best.
    #[arg(long, default_value_t = 50)]
    pub margin: i32,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Give up after this many candidate openings (0: 50 times --count).
    #[arg(long, default_value_t = 0)]
    pub max_tries: usize,
    /// The EPD file to write; books/VARIANT.epd when omitted.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The PGN file of the openings' moves; the EPD's path with .pgn when omitted.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
}

/// One kept opening.
pub struct Opening {
    /// The position reached, as the game's FEN.
    pub fen: String,
    /// The moves from the start position.
    pub moves: Vec<Move>,
    /// Who made each ply (for the PGN's move numbers).
    pub movers: Vec<Color>,
    /// The short search's score, side to move's view.
    pub score: i32,
    /// The position's hash, which ignores the move counters: two openings that differ only
    /// in those are the same position.
    pub key: u64,
}

/// `menagerie bookgen`: writes the EPD and PGN and prints a summary line.
pub fn bookgen(a: &BookgenArgs) -> Result<(), String> {
    let variant = variants::by_name(&a.variant).map_err(|e| e.to_string())?;
    if a.count == 0 || !(1..=32).contains(&a.depth) || !(1..=8).contains(&a.pick_depth) {
        return Err("bookgen: need --count >= 1, --depth 1..=32, --pick-depth 1..=8".into());
    }
    if a.bound < 0 || a.margin < 0 || a.multipv == 0 {
        return Err("bookgen: need --bound >= 0, --margin >= 0, --multipv >= 1".into());
    }
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("books/{}.epd", variant.name())));
    let pgn_path = a.pgn.clone().unwrap_or_else(|| out.with_extension("pgn"));
    let (book, tries) = generate(variant, a);
    let mut epd = format!(
        "# {} openings for {}: menagerie bookgen --variant {} --count {} --plies {} --bound {} \
         --depth {} --pick-depth {} --multipv {} --margin {} --seed {}\n",
        book.len(),
        variant.name(),
        variant.name(),
        a.count,
        a.plies,
        a.bound,
        a.depth,
        a.pick_depth,
        a.multipv,
        a.margin,
        a.seed
    );
    let mut pgn = String::new();
    for (i, o) in book.iter().enumerate() {
        epd.push_str(&o.fen);
        epd.push('\n');
        pgn.push_str(&opening_pgn(variant, o, i + 1));
    }
    std::fs::write(&out, epd).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    std::fs::write(&pgn_path, pgn)
        .map_err(|e| format!("cannot write {}: {e}", pgn_path.display()))?;
    println!(
        "{}: {} positions from {} tries in {} and {}",
        variant.name(),
        book.len(),
        tries,
        out.display(),
        pgn_path.display()
    );
    if book.len() < a.count {
        return Err(format!(
            "only {} of {} positions found; raise --max-tries or --bound",
            book.len(),
            a.count
        ));
    }
    Ok(())
}

/// The book `a` describes and the number of candidate openings tried.
pub fn generate(variant: &'static dyn Variant, a: &BookgenArgs) -> (Vec<Opening>, usize) {
    let max_tries = if a.max_tries == 0 {
        a.count.saturating_mul(50)
    } else {
        a.max_tries
    };
    let mut seen = HashSet::new();
    let mut book = Vec::new();
    let mut tries = 0;
    while book.len() < a.count && tries < max_tries {
        let mut rng = SplitMix(a.seed ^ (tries as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        tries += 1;
        let Some(o) = candidate(variant, a, &mut rng) else {
            continue;
        };
        if seen.insert(o.key) {
            book.push(o);
        }
    }
    (book, tries)
}

/// A one-thread search of the game's position with a fresh table: the same on every run.
fn short_search(game: &Game, depth: u32, multipv: usize) -> Vec<(i32, Move)> {
    let limits = Limits {
        depth: Some(depth),
        multipv,
        ..Limits::default()
    };
    let control = Control::new(false);
    let tt = TranspositionTable::new(1);
    let mut lines: Vec<(u32, usize, i32, Move)> = Vec::new();
    let history = game.history();
    let input = SearchInput::new(game.variant(), game.position(), &limits, &control, &tt);
    let result = search::search(input.after(&history), &mut |info| {
        if let Some(&m) = info.pv.first() {
            lines.push((info.depth, info.multipv, info.score, m));
        }
    });
    let deepest = lines.iter().map(|l| l.0).max().unwrap_or(0);
    let mut found: Vec<(i32, Move)> = lines
        .iter()
        .filter(|l| l.0 == deepest)
        .map(|l| (l.2, l.3))
        .collect();
    if found.is_empty() {
        if let Some(m) = result.best {
            found.push((result.score, m));
        }
    }
    found
}

/// One seeded walk; `None` when the position it reaches is not kept.
fn candidate(
    variant: &'static dyn Variant,
    a: &BookgenArgs,
    rng: &mut SplitMix,
) -> Option<Opening> {
    let mut game = Game::from_start(variant);
    let mut movers = Vec::new();
    let mut player_plies = 0;
    // A third party's plies do not count, but a walk of them alone must end.
    let limit = a.plies as usize * 4 + 8;
    while player_plies < a.plies || game.position().turn() == Color::Neutral {
        if game.outcome().is_some() || movers.len() >= limit {
            return None;
        }
        let turn = game.position().turn();
        let m = if turn == Color::Neutral {
            let legal = game.legal_moves();
            *legal.iter().nth(rng.below(legal.len()))?
        } else {
            let lines = short_search(&game, a.pick_depth, a.multipv);
            let best = lines.iter().map(|l| l.0).max()?;
            let good: Vec<Move> = lines
                .iter()
                .filter(|l| l.0 >= best - a.margin)
                .map(|l| l.1)
                .collect();
            player_plies += 1;
            good[rng.below(good.len())]
        };
        game.play(m);
        movers.push(turn);
    }
    if game.outcome().is_some() {
        return None;
    }
    let lines = short_search(&game, a.depth, 1);
    let score = lines.first()?.0;
    if score.abs() > a.bound || score.abs() >= MATE_BOUND {
        return None;
    }
    Some(Opening {
        fen: variant.fen(game.position()),
        moves: game.moves().to_vec(),
        movers,
        score,
        key: game.position().hash(),
    })
}

/// The opening as a PGN game in SAN, ending in `*`.
fn opening_pgn(variant: &dyn Variant, o: &Opening, number: usize) -> String {
    PgnGame {
        tags: vec![
            (
                "Event".into(),
                format!("{} opening {number}", variant.name()),
            ),
            ("Variant".into(), variant.name().into()),
            ("Result".into(), "*".into()),
        ],
        moves: san::write_line(variant, &variant.start_position(), &o.moves)
            .into_iter()
            .map(|m| (m, None))
            .collect(),
        first_ply: 0,
        third_party_plies: o
            .movers
            .iter()
            .enumerate()
            .filter(|(_, &c)| c == Color::Neutral)
            .map(|(i, _)| i)
            .collect(),
        ending: format!("score {} cp", o.score),
        result: "*".into(),
    }
    .to_pgn()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        args: BookgenArgs,
    }

    fn args(words: &[&str]) -> BookgenArgs {
        Wrap::parse_from(std::iter::once("bookgen").chain(words.iter().copied())).args
    }

    fn fens(a: &BookgenArgs) -> Vec<String> {
        let v = variants::by_name(&a.variant).unwrap();
        generate(v, a).0.into_iter().map(|o| o.fen).collect()
    }

    /// A small book: the count asked for, distinct positions the game parses, each reached by
    /// the moves the PGN gives and scored within the bound; the same seed writes the same book
    /// and another seed another one.
    #[test]
    fn a_book_is_balanced_distinct_and_reproducible() {
        for variant in ["chess", "chaos"] {
            let a = args(&[
                "--variant",
                variant,
                "--count",
                "6",
                "--plies",
                "4",
                "--depth",
                "2",
                "--bound",
                "40",
                "--seed",
                "7",
            ]);
            let v = variants::by_name(variant).unwrap();
            let (book, _) = generate(v, &a);
            assert_eq!(book.len(), 6, "{variant}");
            let mut seen = HashSet::new();
            for o in &book {
                assert!(
                    o.score.abs() <= 40,
                    "{variant}: {} scores {}",
                    o.fen,
                    o.score
                );
                assert!(seen.insert(o.fen.clone()), "{variant}: {} twice", o.fen);
                let mut game = Game::from_start(v);
                for &m in &o.moves {
                    assert!(
                        game.legal_moves().contains(m),
                        "{variant}: illegal opening move"
                    );
                    game.play(m);
                }
                assert_eq!(v.fen(game.position()), o.fen);
                assert_ne!(game.position().turn(), Color::Neutral);
                let players = o.movers.iter().filter(|&&c| c != Color::Neutral).count();
                assert_eq!(players, 4, "{variant}");
            }
            assert_eq!(
                fens(&a),
                book.iter().map(|o| o.fen.clone()).collect::<Vec<_>>()
            );
            let other = BookgenArgs {
                seed: 8,
                ..a.clone()
            };
            assert_ne!(fens(&other), fens(&a), "{variant}");
        }
    }
}
