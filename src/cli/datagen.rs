//! `menagerie datagen`: labelled positions for `menagerie tune` from fast self-play. Each game
//! starts from a position of the game's book (in turn; the start position where there is no
//! book), plays a few seeded random plies, then searches every ply to a small node count with
//! one thread; up to `--per-game` of its quiet positions, picked by the seed, are written as
//! EPD lines with the game's result (`FEN c9 "1-0";`). Game `i` of seed `S` is the same on
//! every run, and a run appends to its file after the last game written there, so an
//! interrupted generation resumes where it stopped (docs/tuning.md).

use crate::arena::books;
use crate::core::rng::SplitMix;
use crate::core::{Color, MoveList};
use crate::eval::Eval;
use crate::game::Game;
use crate::search::{self, Control, Limits, SearchInput, TranspositionTable};
use crate::tune;
use crate::variants::{self, Outcome, Variant};
use std::io::Write;
use std::path::PathBuf;

/// The arguments of `menagerie datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// The game.
    #[arg(long)]
    pub variant: String,
    /// Games in the file when done (games already there count).
    #[arg(long)]
    pub games: usize,
    /// Seed of the random plies and of the positions picked.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The EPD file, appended to.
    #[arg(long)]
    pub out: PathBuf,
    /// Nodes searched per ply.
    #[arg(long, default_value_t = 3000)]
    pub nodes: u64,
    /// Random plies after the book's position.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// Quiet positions written per game at most.
    #[arg(long, default_value_t = 50)]
    pub per_game: usize,
    /// Plies after which a game is stopped and counted a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
}

/// The marker line written after each game: `# game <index> seed <seed>`.
fn marker(index: usize, seed: u64) -> String {
    format!("# game {index} seed {seed}")
}

/// The games of `seed` already in `text`.
fn games_done(text: &str, seed: u64) -> usize {
    let suffix = format!(" seed {seed}");
    text.lines()
        .filter_map(|l| {
            l.strip_prefix("# game ")?
                .strip_suffix(&suffix)?
                .parse::<usize>()
                .ok()
        })
        .map(|i| i + 1)
        .max()
        .unwrap_or(0)
}

/// `menagerie datagen`.
pub fn datagen(a: &DatagenArgs) -> Result<(), String> {
    let v = variants::by_name(&a.variant).map_err(|e| e.to_string())?;
    if a.per_game == 0 || a.nodes == 0 {
        return Err("--per-game and --nodes must be at least 1".to_string());
    }
    let existing = match std::fs::read_to_string(&a.out) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {}: {e}", a.out.display())),
    };
    let first = games_done(&existing, a.seed);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .map_err(|e| format!("cannot open {}: {e}", a.out.display()))?;
    let book = books::book(v.name());
    let eval = Eval::new(v);
    let mut positions = 0;
    for index in first..a.games {
        let lines = play_game(v, &eval, &book, a, index);
        positions += lines.len();
        let mut text = lines.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&marker(index, a.seed));
        text.push('\n');
        file.write_all(text.as_bytes())
            .and_then(|_| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", a.out.display()))?;
        eprintln!("game {}/{}: {} positions", index + 1, a.games, lines.len());
    }
    println!(
        "{} games of {} in {} ({} were there), {} positions written",
        a.games.max(first),
        v.name(),
        a.out.display(),
        first,
        positions
    );
    Ok(())
}

/// Plays game `index`; its labelled EPD lines.
fn play_game(
    v: &'static dyn Variant,
    eval: &Eval,
    book: &[String],
    a: &DatagenArgs,
    index: usize,
) -> Vec<String> {
    let mut rng = SplitMix(a.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let start = book
        .get(index % book.len().max(1))
        .and_then(|fen| v.parse_fen(fen).ok())
        .unwrap_or_else(|| v.start_position());
    let mut game = Game::new(v, start);
    for _ in 0..a.random_plies {
        if game.outcome().is_some() {
            break;
        }
        let mut moves = MoveList::new();
        v.legal_moves(game.position(), &mut moves);
        if moves.is_empty() {
            break;
        }
        game.play(moves.as_slice()[rng.below(moves.len())]);
    }
    let limits = Limits {
        nodes: Some(a.nodes),
        ..Limits::default()
    };
    let tt = TranspositionTable::new(4);
    let mut quiet = Vec::new();
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome {
                Outcome::Win {
                    winner: Color::White,
                    ..
                } => "1-0",
                Outcome::Win { .. } => "0-1",
                Outcome::Draw { .. } => "1/2-1/2",
            };
        }
        if game.moves().len() >= a.max_plies {
            break "1/2-1/2";
        }
        let pos = game.position().clone();
        if pos.turn() != Color::Neutral && tune::quiet(v, eval, &pos) {
            quiet.push(v.fen(&pos));
        }
        let control = Control::new(false);
        let history = game.history();
        let input = SearchInput::new(v, &pos, &limits, &control, &tt).after(&history);
        let found = search::search(input, &mut |_| {});
        let Some(m) = found.best else {
            break "1/2-1/2";
        };
        game.play(m);
    };
    // Up to `per_game` of the quiet positions, picked by the seed, in the game's order.
    while quiet.len() > a.per_game {
        quiet.remove(rng.below(quiet.len()));
    }
    quiet
        .into_iter()
        .map(|fen| format!("{fen} c9 \"{result}\";"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_resumes_after_the_last_game_of_its_seed() {
        let text = "x c9 \"1-0\";\n# game 0 seed 3\n# game 1 seed 3\n# game 7 seed 4\n";
        assert_eq!(games_done(text, 3), 2);
        assert_eq!(games_done(text, 4), 8);
        assert_eq!(games_done(text, 5), 0);
        assert_eq!(games_done("", 3), 0);
    }

    /// Two games of a seed: each line a position of the game labelled with a result that
    /// `menagerie tune` reads, the same lines on a second run, and a resumed run adds nothing.
    #[test]
    fn generated_lines_read_back_and_reproduce() {
        let dir = std::env::temp_dir().join(format!("menagerie-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("chess.epd");
        let args = |games| DatagenArgs {
            variant: "chess".into(),
            games,
            seed: 9,
            out: out.clone(),
            nodes: 200,
            random_plies: 4,
            per_game: 10,
            max_plies: 60,
        };
        datagen(&args(2)).unwrap();
        let first = std::fs::read_to_string(&out).unwrap();
        datagen(&args(2)).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
        std::fs::remove_file(&out).unwrap();
        datagen(&args(1)).unwrap();
        datagen(&args(2)).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
        let v = variants::by_name("chess").unwrap();
        let labelled = first
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter(|l| tune::parse_epd_line(v, l).unwrap().is_some())
            .count();
        assert!(labelled > 0 && labelled <= 20, "{first}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
