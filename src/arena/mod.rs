//! The match runner: engine-vs-engine games and tournaments for games no GUI knows. Our own
//! rules referee every move; engines speak UCI or CECP in their own processes; results go to PGN
//! and a score table with Elo estimates, optionally under a sequential probability ratio test.

pub mod books;
pub mod config;
pub mod pgn;
pub mod player;
mod referee;
pub mod stats;

use crate::board::Position;
use crate::core::{Color, Move, MoveList};
use crate::notation::{parse_move, Dialect};
use crate::protocol::xboard_variant::fen_to_cecp;
use crate::third_party::{self, Policy, ThirdParty};
use crate::variants::{san, Variant};
use config::{EngineSpec, Proto};
use player::Player;
use stats::{Pentanomial, Sprt, SprtDecision, Tally};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;

/// The PGN comment of a third party's ply, which marks it.
pub const THIRD_PARTY_NOTE: &str = "third party";
/// A game longer than this many plies is drawn by adjudication, unless `-maxmoves` says
/// otherwise.
pub const MAX_PLIES: usize = 1000;

/// Pairing scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Everyone plays everyone.
    RoundRobin,
    /// The first engine plays each of the others.
    Gauntlet,
}

/// One opening of a book: a start position and moves played from it.
#[derive(Clone, Debug)]
pub struct BookEntry {
    /// Start FEN.
    pub fen: String,
    /// Moves from it.
    pub moves: Vec<Move>,
}

/// Where games start.
#[derive(Clone, Debug)]
pub enum Openings {
    /// Positions (EPD) or move sequences (PGN), played in order from `start` or drawn at random.
    Book {
        entries: Vec<BookEntry>,
        random: bool,
        start: usize,
    },
    /// This many seeded random legal plies from the start position.
    RandomPlies(u32),
}

/// Draw adjudication: after `movenumber` moves, once both engines' scores stayed within
/// `score` centipawns for `movecount` moves each.
#[derive(Clone, Copy, Debug)]
pub struct DrawRule {
    /// First move number where it applies.
    pub movenumber: u32,
    /// Consecutive moves per side.
    pub movecount: u32,
    /// Largest absolute score, in centipawns.
    pub score: i32,
}

/// Resign adjudication: both engines agree that one side is lost by at least `score` centipawns
/// for `movecount` moves each.
#[derive(Clone, Copy, Debug)]
pub struct ResignRule {
    /// Consecutive moves per side.
    pub movecount: u32,
    /// Least score, in centipawns.
    pub score: i32,
    /// Whether the winner's engine must agree (else the loser's own score suffices).
    pub twosided: bool,
}

/// Everything a match needs.
#[derive(Clone)]
pub struct MatchConfig {
    /// The game.
    pub variant: &'static dyn Variant,
    /// Engines.
    pub engines: Vec<EngineSpec>,
    /// Games per pairing and round.
    pub games: u32,
    /// Games played on each opening, colours alternating (1: every game a new opening); with
    /// an even number, consecutive games form the pairs of the pentanomial statistics.
    pub repeat: u32,
    /// A game longer than this many moves per side is drawn by adjudication.
    pub max_moves: Option<u32>,
    /// Rounds.
    pub rounds: u32,
    /// Pairing scheme.
    pub tournament: Tournament,
    /// Games at once.
    pub concurrency: usize,
    /// Openings.
    pub openings: Openings,
    /// Seed of every random choice.
    pub seed: u64,
    /// Who plays a third party's plies; its seed is `seed`.
    pub third_party: ThirdParty,
    /// Stop early on a decision (two engines only).
    pub sprt: Option<Sprt>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Go on after an engine crashes (it is started afresh for the next game, as every engine
    /// is); without it the match stops after that game, as cutechess-cli's does without
    /// `-recover`.
    pub recover: bool,
}

/// One scheduled game.
#[derive(Clone, Debug)]
struct Job {
    number: u32,
    round: u32,
    white: usize,
    black: usize,
    fen: String,
    opening: Vec<Move>,
    /// The pair of games (same opening, colours swapped) this one belongs to.
    pair: Option<u32>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number, from 1.
    pub number: u32,
    /// Round, from 1.
    pub round: u32,
    /// Engine indices.
    pub white: usize,
    /// Engine indices.
    pub black: usize,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// PGN `Termination`: normal, adjudication, time forfeit, illegal move, abandoned.
    pub termination: &'static str,
    /// Why the game ended, in words.
    pub reason: String,
    /// Start FEN.
    pub fen: String,
    /// Moves in UCI notation, with `{score/depth time}` comments (opening moves: `{book}`).
    pub moves: Vec<(String, Option<String>)>,
    /// The engine (index) that crashed, failed to start or closed its pipe, if one did.
    pub crashed: Option<usize>,
    /// The pair of games (same opening, colours swapped) this one belongs to.
    pub pair: Option<u32>,
    /// The FEN of the last position.
    pub final_fen: String,
}

fn seeded(seed: u64) -> impl FnMut() -> u64 {
    let mut rng = crate::core::rng::SplitMix(seed);
    move || rng.next_u64()
}

/// The `k`-th opening of a book of `len` openings in the order `seed` shuffles it (a
/// Fisher-Yates permutation, drawn afresh for each pass through the book): every opening is
/// played once before any is played again, as cutechess-cli's `order=random` does, and each seed
/// draws its own order. (Drawing each opening from `seed ^ k` had seeds that differ in their
/// low bits play nearly the same openings.)
fn shuffled_index(len: usize, seed: u64, k: u32) -> usize {
    let (pass, at) = (k as usize / len, k as usize % len);
    let mut rng = crate::core::rng::SplitMix(seed.wrapping_add(pass as u64));
    let mut order: Vec<usize> = (0..len).collect();
    for i in (1..len).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order[at]
}

/// The start FEN and opening moves of the `k`-th opening.
fn opening(config: &MatchConfig, k: u32) -> Result<(String, Vec<Move>), String> {
    let v = config.variant;
    match &config.openings {
        Openings::Book {
            entries,
            random,
            start,
        } => {
            let i = if *random {
                shuffled_index(entries.len(), config.seed, k)
            } else {
                (k as usize + start) % entries.len()
            };
            let e = &entries[i];
            v.parse_fen(&e.fen)
                .map_err(|err| format!("opening {}: {err}", i + 1))?;
            Ok((e.fen.clone(), e.moves.clone()))
        }
        Openings::RandomPlies(n) => {
            let mut rng = seeded(config.seed.wrapping_add(k as u64 * 7919));
            let mut pos = v.start_position();
            let mut moves = Vec::new();
            for _ in 0..*n {
                let mut legal = MoveList::new();
                v.legal_moves(&pos, &mut legal);
                // Keep the opening playable: stop before a position with no reply.
                let candidates: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let next = v.play(&pos, m);
                        let mut replies = MoveList::new();
                        v.legal_moves(&next, &mut replies);
                        !replies.is_empty()
                    })
                    .collect();
                if candidates.is_empty() {
                    break;
                }
                let m = candidates[(rng() % candidates.len() as u64) as usize];
                pos = v.play(&pos, m);
                moves.push(m);
            }
            Ok((v.rules().spec.start_fen.to_string(), moves))
        }
    }
}

fn schedule(config: &MatchConfig) -> Result<Vec<Job>, String> {
    let n = config.engines.len();
    let pairs: Vec<(usize, usize)> = match config.tournament {
        Tournament::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        Tournament::Gauntlet => (1..n).map(|j| (0, j)).collect(),
    };
    let mut jobs = Vec::new();
    let mut number = 0;
    let mut opening_index = 0;
    let mut pair = 0;
    let repeat = config.repeat.max(1);
    for round in 1..=config.rounds {
        for &(a, b) in &pairs {
            for g in 0..config.games {
                // Each opening is played `repeat` times; colours alternate game by game.
                let on_opening = g % repeat;
                if on_opening == 0 {
                    opening_index += 1;
                }
                let (fen, moves) = opening(config, opening_index - 1)?;
                number += 1;
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                // Two consecutive games on one opening, the second not the last of the
                // pairing's games left alone, make a pair.
                let paired = repeat % 2 == 0 && (g - g % 2) + 1 < config.games;
                if paired && g % 2 == 0 {
                    pair += 1;
                }
                jobs.push(Job {
                    number,
                    round,
                    white,
                    black,
                    fen,
                    opening: moves,
                    pair: paired.then_some(pair),
                });
            }
        }
    }
    Ok(jobs)
}

/// Name of the variant in a protocol.
fn protocol_variant(v: &dyn Variant, proto: Proto) -> &str {
    match proto {
        Proto::Uci => v.name(),
        Proto::Xboard => v.rules().spec.xboard_builtin.unwrap_or(v.name()),
    }
}

/// Adds to every engine's options, in a game with a third party, how the referee plays it
/// (`third_party_options`), unless the user set them.
pub fn tell_engines_third_party(config: &mut MatchConfig) {
    if !third_party::has_third_party(config.variant) {
        return;
    }
    let told = third_party_options(config);
    for e in &mut config.engines {
        for (k, v) in &told {
            if !e.options.iter().any(|(n, _)| n.eq_ignore_ascii_case(k)) {
                e.options.push((k.clone(), v.clone()));
            }
        }
    }
}

/// The options that tell an engine how the referee plays a third party: the policy and its
/// seed and side, except that under the external policy the engines are not told the seed.
pub fn third_party_options(config: &MatchConfig) -> Vec<(String, String)> {
    let tp = &config.third_party;
    let mut out = vec![("Nature".to_string(), tp.policy.name().to_string())];
    match tp.policy {
        Policy::Random => out.push(("Nature Seed".into(), config.seed.to_string())),
        Policy::Engine => out.push(("Nature Favors".into(), tp.favors.name().to_string())),
        Policy::External => {}
    }
    out
}

/// The PGN of a finished game.
pub fn to_pgn(config: &MatchConfig, g: &GameRecord, date: &str) -> pgn::PgnGame {
    let v = config.variant;
    let white = &config.engines[g.white];
    let black = &config.engines[g.black];
    let mut tags = vec![
        ("Event".to_string(), "Menagerie match".to_string()),
        ("Site".to_string(), "local".to_string()),
        ("Date".to_string(), date.to_string()),
        ("Round".to_string(), g.round.to_string()),
        ("White".to_string(), white.name.clone()),
        ("Black".to_string(), black.name.clone()),
        ("Result".to_string(), g.result.to_string()),
        ("Variant".to_string(), v.name().to_string()),
    ];
    let tc = |s: &EngineSpec| s.tc.map_or("-".to_string(), |t| t.pgn());
    let (wtc, btc) = (tc(white), tc(black));
    if wtc == btc {
        tags.push(("TimeControl".to_string(), wtc));
    } else {
        tags.push(("WhiteTimeControl".to_string(), wtc));
        tags.push(("BlackTimeControl".to_string(), btc));
        tags.push(("TimeControl".to_string(), "-".to_string()));
    }
    tags.push(("Termination".to_string(), g.termination.to_string()));
    let start = v.parse_fen(&g.fen).ok();
    let first_ply = start.as_ref().map_or(0, |p| {
        2 * (p.fullmove() as u32 - 1) + u32::from(p.turn() == Color::Black)
    });
    if g.fen != v.rules().spec.start_fen {
        tags.push(("FEN".to_string(), g.fen.clone()));
        tags.push(("SetUp".to_string(), "1".to_string()));
    }
    let third_party_plies = g
        .moves
        .iter()
        .enumerate()
        .filter(|(_, (_, c))| c.as_deref() == Some(THIRD_PARTY_NOTE))
        .map(|(i, _)| i)
        .collect();
    let moves = match start {
        Some(start) => san_moves(v, start, &g.moves),
        None => g.moves.clone(),
    };
    pgn::PgnGame {
        tags,
        third_party_plies,
        moves,
        first_ply,
        ending: g.reason.clone(),
        result: g.result.to_string(),
    }
}

/// A game's moves (UCI text, comment) in SAN, played from `start`; from a move that does not
/// replay on, the text as recorded.
fn san_moves(
    v: &dyn Variant,
    start: Position,
    moves: &[(String, Option<String>)],
) -> Vec<(String, Option<String>)> {
    let mut pos = Some(start);
    moves
        .iter()
        .map(|(text, comment)| {
            let here = pos.take();
            let played = here
                .as_ref()
                .and_then(|p| Some((p, parse_move(v, p, Dialect::Uci, text).ok()?)));
            let text = match played {
                Some((p, m)) => {
                    pos = Some(v.play(p, m));
                    san::write(v, p, m)
                }
                None => text.clone(),
            };
            (text, comment.clone())
        })
        .collect()
}

/// The outcome of a whole match.
pub struct MatchReport {
    /// Finished games, in the order they ended.
    pub games: Vec<GameRecord>,
    /// Per engine: its results against the field.
    pub tallies: Vec<Tally>,
    /// The first engine's finished pairs against the field.
    pub penta: Pentanomial,
    /// The SPRT's decision, if one was reached.
    pub sprt: Option<SprtDecision>,
    /// Why the match stopped before its last game, if it did (an engine crashed without
    /// `recover`).
    pub stopped: Option<String>,
}

/// Checks that every engine starts and answers its handshake, so a bad configuration fails
/// before any game.
pub fn check_engines(config: &MatchConfig) -> Result<(), String> {
    for spec in &config.engines {
        let mut p = Player::start(spec)?;
        p.new_game(
            protocol_variant(config.variant, spec.proto),
            &match spec.proto {
                Proto::Uci => config.variant.rules().spec.start_fen.to_string(),
                Proto::Xboard => fen_to_cecp(
                    config.variant.rules(),
                    config.variant.rules().spec.start_fen,
                ),
            },
            true,
        )
        .map_err(|f| {
            format!(
                "engine {}: {f} when asked to start a game of {}",
                spec.name,
                config.variant.name()
            )
        })?;
        p.quit();
    }
    Ok(())
}

/// Runs the match. `on_game` is called (on the calling thread) as each game ends, with the
/// record and the running tallies.
pub fn run(
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameRecord, &MatchReport),
) -> Result<MatchReport, String> {
    if config.engines.len() < 2 {
        return Err("a match needs at least two engines".into());
    }
    let jobs = schedule(config)?;
    let total = jobs.len();
    let queue = Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>());
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel();
    let mut report = MatchReport {
        games: Vec::new(),
        tallies: vec![Tally::default(); config.engines.len()],
        penta: Pentanomial::default(),
        sprt: None,
        stopped: None,
    };
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, total.max(1)) {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            scope.spawn(move || play_jobs(config, queue, stop, tx));
        }
        drop(tx);
        // The first game of each pair, until its partner ends: the first engine's points, doubled.
        let mut half_pairs: HashMap<u32, usize> = HashMap::new();
        for record in rx.iter() {
            count(&mut report.tallies, &record);
            if let Some(p) = record.pair {
                let points = doubled_points(&record, 0);
                match half_pairs.remove(&p) {
                    Some(first) => report.penta.add(first + points),
                    None => {
                        half_pairs.insert(p, points);
                    }
                }
            }
            if let (Some(e), false) = (record.crashed, config.recover) {
                if report.stopped.is_none() {
                    report.stopped = Some(format!(
                        "engine {} failed in game {}; the match stops (--recover goes on)",
                        config.engines[e].name, record.number
                    ));
                }
            }
            report.games.push(record);
            if let (Some(sprt), true) = (config.sprt, config.engines.len() == 2) {
                let decided = sprt
                    .decide(report.llr(config, &sprt))
                    .filter(|_| report.can_decide(config));
                if let Some(d) = decided {
                    report.sprt = Some(d);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(last) = report.games.last() {
                on_game(last, &report);
            }
        }
    });
    Ok(report)
}

/// One of the threads that play games: takes the next game from `queue` until it is empty or
/// `stop` is set, and sends each record.
fn play_jobs(
    config: &MatchConfig,
    queue: &Mutex<VecDeque<Job>>,
    stop: &AtomicBool,
    tx: Sender<GameRecord>,
) {
    loop {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let job = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
        let Some(job) = job else { return };
        let record = referee::play_game(config, &job);
        if record.crashed.is_some() && !config.recover {
            // Before the next game is taken.
            stop.store(true, Ordering::Relaxed);
        }
        if tx.send(record).is_err() {
            return;
        }
    }
}

impl MatchReport {
    /// Whether the statistics are pentanomial: the match plays its games in pairs.
    pub fn paired(config: &MatchConfig) -> bool {
        config.repeat % 2 == 0 && config.games >= 2
    }

    /// Whether the SPRT may stop the match: the pairs (or, unpaired, the games) have results
    /// of two kinds at least, so the variance is the games' and not regularisation's.
    pub fn can_decide(&self, config: &MatchConfig) -> bool {
        if Self::paired(config) {
            self.penta.has_spread()
        } else {
            let t = &self.tallies[0];
            [t.wins, t.draws, t.losses]
                .iter()
                .filter(|&&c| c > 0)
                .count()
                >= 2
        }
    }

    /// The SPRT's log-likelihood ratio so far: from the pairs when the games are paired, else
    /// from the games.
    pub fn llr(&self, config: &MatchConfig, sprt: &Sprt) -> f64 {
        if Self::paired(config) {
            self.penta.llr(sprt)
        } else {
            self.tallies[0].llr(sprt)
        }
    }
}

/// Engine `e`'s points in a game, doubled (0, 1 or 2).
fn doubled_points(record: &GameRecord, e: usize) -> usize {
    let white = record.white == e;
    match (record.result, white) {
        ("1-0", true) | ("0-1", false) => 2,
        ("1-0", false) | ("0-1", true) => 0,
        _ => 1,
    }
}

/// Adds a finished game to both engines' tallies.
fn count(tallies: &mut [Tally], record: &GameRecord) {
    let (w, b) = (record.white, record.black);
    match record.result {
        "1-0" => {
            tallies[w].wins += 1;
            tallies[b].losses += 1;
        }
        "0-1" => {
            tallies[b].wins += 1;
            tallies[w].losses += 1;
        }
        _ => {
            tallies[w].draws += 1;
            tallies[b].draws += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::shuffled_index;
    use std::collections::HashSet;

    /// A pass through a shuffled book plays every opening once, a second pass shuffles it
    /// again, and two seeds that differ in one bit play different openings (independent draws
    /// from 500 would share about 5 of 50).
    #[test]
    fn random_book_order_is_a_permutation_per_seed() {
        let len = 500;
        let pass: HashSet<usize> = (0..len as u32)
            .map(|k| shuffled_index(len, 72, k))
            .collect();
        assert_eq!(pass.len(), len);
        let first: Vec<usize> = (0..50).map(|k| shuffled_index(len, 72, k)).collect();
        let again: Vec<usize> = (0..50)
            .map(|k| shuffled_index(len, 72, len as u32 + k))
            .collect();
        assert_ne!(first, again);
        for other in [73, 71, 74] {
            let theirs: HashSet<usize> = (0..50).map(|k| shuffled_index(len, other, k)).collect();
            let shared = first.iter().filter(|i| theirs.contains(i)).count();
            assert!(
                shared <= 15,
                "seeds 72 and {other} share {shared} of 50 openings"
            );
        }
    }
}
