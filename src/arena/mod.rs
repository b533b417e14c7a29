//! The match runner: engine-vs-engine games and tournaments for games no GUI knows. Our own
//! rules referee every move; engines speak UCI or CECP in their own processes; results go to PGN
//! and a score table with Elo estimates, optionally under a sequential probability ratio test.

pub mod config;
pub mod pgn;
pub mod player;
pub mod stats;

use crate::board::Position;
use crate::core::{Color, Move, MoveList};
use crate::game::Game;
use crate::notation::{move_text, parse_move, Dialect};
use crate::protocol::xboard_variant::{self as xv, fen_to_cecp, parse_wire, Shown};
use crate::third_party::{self, Policy, ThirdParty};
use crate::variants::Variant;
use config::{EngineSpec, Proto, TimeControl};
use player::{Failure, Player, Request};
use stats::{Sprt, SprtDecision, Tally};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The PGN comment of a third party's ply, which marks it.
pub const THIRD_PARTY_NOTE: &str = "third party";
/// A game longer than this many plies is drawn by adjudication.
pub const MAX_PLIES: usize = 1000;
/// Extra time for an engine with a fixed time or node count per move before it is late.
const PER_MOVE_GRACE: Duration = Duration::from_secs(5);
/// Time an engine with a node limit may take per move.
const NODES_DEADLINE: Duration = Duration::from_secs(120);

/// Pairing scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Everyone plays everyone.
    RoundRobin,
    /// The first engine plays each of the others.
    Gauntlet,
}

/// Where games start.
#[derive(Clone, Debug)]
pub enum Openings {
    /// FENs (or EPD lines), played in order or drawn at random.
    Book { fens: Vec<String>, random: bool },
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
}

fn seeded(seed: u64) -> impl FnMut() -> u64 {
    let mut rng = crate::core::rng::SplitMix(seed);
    move || rng.next_u64()
}

/// The start FEN and opening moves of the `k`-th opening.
fn opening(config: &MatchConfig, k: u32) -> Result<(String, Vec<Move>), String> {
    let v = config.variant;
    match &config.openings {
        Openings::Book { fens, random } => {
            let i = if *random {
                (seeded(config.seed ^ k as u64)() % fens.len() as u64) as usize
            } else {
                k as usize % fens.len()
            };
            let fen = &fens[i];
            v.parse_fen(fen)
                .map_err(|e| format!("opening {}: {e}", i + 1))?;
            Ok((fen.clone(), Vec::new()))
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
    for round in 1..=config.rounds {
        for &(a, b) in &pairs {
            for g in 0..config.games {
                // Each opening is played twice, with colours reversed.
                if g % 2 == 0 {
                    opening_index += 1;
                }
                let (fen, moves) = opening(config, opening_index - 1)?;
                number += 1;
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                jobs.push(Job {
                    number,
                    round,
                    white,
                    black,
                    fen,
                    opening: moves,
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

fn dialect(proto: Proto) -> Dialect {
    match proto {
        Proto::Uci => Dialect::Uci,
        Proto::Xboard => Dialect::Cecp,
    }
}

/// Plays one game. Never panics on engine misbehaviour: every failure ends the game with a
/// result and a reason.
fn play_game(config: &MatchConfig, job: &Job) -> GameRecord {
    let v = config.variant;
    let rules = v.rules();
    let specs = [&config.engines[job.white], &config.engines[job.black]];
    let mut record = GameRecord {
        number: job.number,
        round: job.round,
        white: job.white,
        black: job.black,
        result: "*",
        termination: "unterminated",
        reason: String::new(),
        fen: job.fen.clone(),
        moves: Vec::new(),
        crashed: None,
    };
    let start: Position = v
        .parse_fen(&job.fen)
        .expect("openings are checked when scheduled");
    let mut game = Game::new(v, start);
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    let lose =
        |record: &mut GameRecord, loser: Color, termination: &'static str, reason: String| {
            record.result = if loser == Color::White { "0-1" } else { "1-0" };
            record.termination = termination;
            record.reason = reason;
        };
    // Start both engines; one that cannot start loses.
    let mut players: Vec<Player> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let color = if i == 0 { Color::White } else { Color::Black };
        match Player::start(spec).and_then(|mut p| {
            let fen = match spec.proto {
                Proto::Uci => job.fen.clone(),
                Proto::Xboard => fen_to_cecp(rules, &job.fen),
            };
            let standard = job.fen == rules.spec.start_fen;
            p.new_game(protocol_variant(v, spec.proto), &fen, standard)
                .map_err(|f| format!("engine {}: {f:?} while starting a game", spec.name))?;
            Ok(p)
        }) {
            Ok(p) => players.push(p),
            Err(e) => {
                record.crashed = Some(if i == 0 { job.white } else { job.black });
                lose(
                    &mut record,
                    color,
                    "abandoned",
                    format!("{} engine failed to start: {e}", name(color)),
                );
                return record;
            }
        }
    }
    let mut relay = Relay {
        texts: [Vec::new(), Vec::new()],
        shown: Shown::of(rules, game.position()),
        protos: specs.map(|s| s.proto),
    };
    for &m in &job.opening {
        record
            .moves
            .push((move_text(v, Dialect::Uci, m), Some("book".into())));
        relay.play(&mut game, m, None);
    }
    let mut clocks = specs.map(|s| match s.tc {
        Some(TimeControl::Clock { base, .. }) => base,
        _ => Duration::ZERO,
    });
    let fens = [0, 1].map(|i| match specs[i].proto {
        Proto::Uci => job.fen.clone(),
        Proto::Xboard => fen_to_cecp(rules, &job.fen),
    });
    // Scores from White's point of view, per side, for adjudication.
    let mut scores: [Vec<Option<i32>>; 2] = [Vec::new(), Vec::new()];
    let mut moves_made = [0u32; 2];
    loop {
        if let Some(outcome) = game.outcome() {
            record.result = outcome.pgn();
            record.termination = "normal";
            record.reason = outcome.describe();
            break;
        }
        if game.moves().len() >= MAX_PLIES {
            record.result = "1/2-1/2";
            record.termination = "adjudication";
            record.reason = format!("Draw by adjudication: {MAX_PLIES} plies");
            break;
        }
        let mover = game.position().turn();
        if mover == Color::Neutral {
            // A third party's ply: the referee plays it and both engines are told.
            let Some(m) = third_party_move(config, &game) else {
                // No ply at all: the game ended on the last real ply (the outcome says so).
                record.result = "*";
                break;
            };
            record
                .moves
                .push((move_text(v, Dialect::Uci, m), Some(THIRD_PARTY_NOTE.into())));
            relay.play(&mut game, m, None);
            continue;
        }
        let side = if mover == Color::Black { 1 } else { 0 };
        let spec = specs[side];
        let tc = spec.tc.expect("every engine has a time control");
        let budget = match tc {
            TimeControl::Clock { .. } => clocks[side] + spec.time_margin,
            TimeControl::PerMove(t) => t + spec.time_margin + PER_MOVE_GRACE,
            TimeControl::Nodes(_) => NODES_DEADLINE,
        };
        let moves_to_go = match tc {
            TimeControl::Clock { moves, .. } if moves > 0 => Some(moves - moves_made[side] % moves),
            _ => None,
        };
        let started = Instant::now();
        let req = Request {
            fen: &fens[side],
            moves: &relay.texts[side],
            clocks: (clocks[side], clocks[1 - side]),
            white: mover == Color::White,
            moves_to_go,
            deadline: started + budget,
        };
        let reply = players[side].go(&req);
        let elapsed = started.elapsed();
        let reply = match reply {
            Ok(r) => r,
            Err(Failure::Timeout) => {
                lose(
                    &mut record,
                    mover,
                    "time forfeit",
                    format!("{} loses on time", name(mover)),
                );
                break;
            }
            Err(Failure::Disconnected | Failure::Unsupported(_)) => {
                record.crashed = Some(if side == 0 { job.white } else { job.black });
                lose(
                    &mut record,
                    mover,
                    "abandoned",
                    format!("{} disconnects", name(mover)),
                );
                break;
            }
        };
        if let Some(claim) = &reply.claim {
            score_claim(&mut record, mover, claim);
            break;
        }
        if let TimeControl::Clock { moves, base, inc } = tc {
            if elapsed > clocks[side] + spec.time_margin {
                lose(
                    &mut record,
                    mover,
                    "time forfeit",
                    format!("{} loses on time", name(mover)),
                );
                break;
            }
            clocks[side] = clocks[side].saturating_sub(elapsed) + inc;
            moves_made[side] += 1;
            if moves > 0 && moves_made[side] % moves == 0 {
                clocks[side] += base;
            }
        }
        // CECP engines may send XBoard's own forms (a switch in place as two legs).
        let parsed = match spec.proto {
            Proto::Xboard => parse_wire(v, game.position(), &relay.shown, &reply.text),
            _ => parse_move(v, game.position(), dialect(spec.proto), &reply.text),
        };
        let m = match parsed {
            Ok(m) => m,
            Err(_) => {
                lose(
                    &mut record,
                    mover,
                    "illegal move",
                    format!("{} makes an illegal move: {}", name(mover), reply.text),
                );
                break;
            }
        };
        let comment = match (reply.score, reply.depth) {
            (Some(s), Some(d)) => format!(
                "{}{:.2}/{d} {:.3}s",
                if s >= 0 { "+" } else { "" },
                s as f64 / 100.0,
                elapsed.as_secs_f64()
            ),
            _ => format!("{:.3}s", elapsed.as_secs_f64()),
        };
        record
            .moves
            .push((move_text(v, Dialect::Uci, m), Some(comment)));
        let own = (spec.proto == Proto::Xboard).then_some(reply.text.as_str());
        relay.play(&mut game, m, own);
        let white_view = reply
            .score
            .map(|s| if mover == Color::White { s } else { -s });
        scores[side].push(white_view);
        if let Some(r) = adjudicate(config, &scores, game.position().fullmove()) {
            record.result = r.0;
            record.termination = "adjudication";
            record.reason = r.1;
            break;
        }
    }
    for p in players {
        p.quit();
    }
    record
}

/// Scores a CECP engine's resignation or result claim as cutechess-cli does. The referee ends
/// every game its rules end before the next move is asked for, so a claim made instead of a
/// move is true only if it gives the game away: a resignation, or the claimant's own loss.
/// Any other claim (a win or a draw the rules do not see) loses by adjudication.
fn score_claim(record: &mut GameRecord, mover: Color, claim: &player::Claim) {
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    let winner = mover.opponent();
    let win_for = |c: Color| if c == Color::White { "1-0" } else { "0-1" };
    match claim {
        player::Claim::Resign => {
            record.result = win_for(winner);
            record.termination = "normal";
            record.reason = format!("{} resigns", name(mover));
        }
        player::Claim::Result { result, comment } if *result == win_for(winner) => {
            record.result = result;
            record.termination = "normal";
            record.reason = if comment.is_empty() {
                format!("{} wins", name(winner))
            } else {
                comment.clone()
            };
        }
        player::Claim::Result { result, comment } => {
            record.result = win_for(winner);
            record.termination = "adjudication";
            record.reason = format!(
                "{} wins by adjudication: Invalid result claim ({} claims {result}: {comment})",
                name(winner),
                name(mover)
            );
        }
    }
}

/// The move texts each engine has been sent, and the board XBoard would show. Like XBoard, the
/// referee relays a CECP engine's own text to a CECP opponent, and writes other moves as XBoard
/// would send them from the board it shows.
struct Relay {
    texts: [Vec<String>; 2],
    shown: Shown,
    protos: [Proto; 2],
}

impl Relay {
    /// Plays `m` in `game` and records its texts; `own` is the text a CECP engine sent for it.
    fn play(&mut self, game: &mut Game, m: Move, own: Option<&str>) {
        let v = game.variant();
        let pos = game.position().clone();
        let cecp = own.map_or_else(
            || xv::wire_text(v, &pos, &self.shown, &game.legal_moves(), m),
            str::to_string,
        );
        for (texts, proto) in self.texts.iter_mut().zip(self.protos) {
            texts.push(match proto {
                Proto::Uci => move_text(v, Dialect::Uci, m),
                Proto::Xboard => cecp.clone(),
            });
        }
        game.play(m);
        // XBoard has no third party: its board does not show a third party's plies.
        if pos.turn() != Color::Neutral {
            self.shown = xv::view::advance(v.rules(), &pos, &self.shown, &cecp, game.position());
        }
    }
}

/// The ply of a third party (Chaos's Nature) whose turn comes up, by the match's policy
/// (`engine::choose_third_party_ply`), so that it reproduces.
fn third_party_move(config: &MatchConfig, game: &Game) -> Option<Move> {
    let tp = ThirdParty {
        seed: config.seed,
        ..config.third_party
    };
    crate::engine::choose_third_party_ply(game.variant(), game.position(), &game.history(), &tp)
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

/// The adjudicated result, if the engines' scores call for one.
fn adjudicate(
    config: &MatchConfig,
    scores: &[Vec<Option<i32>>; 2],
    fullmove: u16,
) -> Option<(&'static str, String)> {
    let last = |n: u32| -> Option<Vec<i32>> {
        let mut all = Vec::new();
        for s in scores {
            if s.len() < n as usize {
                return None;
            }
            for x in &s[s.len() - n as usize..] {
                all.push((*x)?);
            }
        }
        Some(all)
    };
    if let Some(d) = config.draw {
        if fullmove as u32 >= d.movenumber {
            if let Some(all) = last(d.movecount) {
                if all.iter().all(|s| s.abs() <= d.score) {
                    return Some(("1/2-1/2", "Draw by adjudication".into()));
                }
            }
        }
    }
    if let Some(r) = config.resign {
        if let Some(all) = last(r.movecount) {
            if all.iter().all(|&s| s >= r.score) {
                return Some(("1-0", "Black resigns (adjudication)".into()));
            }
            if all.iter().all(|&s| s <= -r.score) {
                return Some(("0-1", "White resigns (adjudication)".into()));
            }
        }
    }
    None
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
    if g.fen != v.rules().spec.start_fen {
        tags.push(("FEN".to_string(), g.fen.clone()));
        tags.push(("SetUp".to_string(), "1".to_string()));
    }
    let first_ply = start.map_or(0, |p| {
        2 * (p.fullmove() as u32 - 1) + u32::from(p.turn() == Color::Black)
    });
    let third_party_plies = g
        .moves
        .iter()
        .enumerate()
        .filter(|(_, (_, c))| c.as_deref() == Some(THIRD_PARTY_NOTE))
        .map(|(i, _)| i)
        .collect();
    pgn::PgnGame {
        tags,
        third_party_plies,
        moves: g.moves.clone(),
        first_ply,
        ending: g.reason.clone(),
        result: g.result.to_string(),
    }
}

/// The outcome of a whole match.
pub struct MatchReport {
    /// Finished games, in the order they ended.
    pub games: Vec<GameRecord>,
    /// Per engine: its results against the field.
    pub tallies: Vec<Tally>,
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
                "engine {}: {f:?} when asked to start a game of {}",
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
    mut on_game: impl FnMut(&GameRecord, &[Tally]),
) -> Result<MatchReport, String> {
    if config.engines.len() < 2 {
        return Err("a match needs at least two engines".into());
    }
    let jobs = schedule(config)?;
    let total = jobs.len();
    let queue = Arc::new(Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>()));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel();
    let mut tallies = vec![Tally::default(); config.engines.len()];
    let mut games = Vec::new();
    let mut decision = None;
    let mut stopped = None;
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, total.max(1)) {
            let queue = Arc::clone(&queue);
            let stop = Arc::clone(&stop);
            let tx = tx.clone();
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let job = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                let Some(job) = job else { return };
                let record = play_game(config, &job);
                if record.crashed.is_some() && !config.recover {
                    // Before the next game is taken.
                    stop.store(true, Ordering::Relaxed);
                }
                if tx.send(record).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        for record in rx.iter() {
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
            on_game(&record, &tallies);
            if let (Some(e), false) = (record.crashed, config.recover) {
                if stopped.is_none() {
                    stopped = Some(format!(
                        "engine {} failed in game {}; the match stops (--recover goes on)",
                        config.engines[e].name, record.number
                    ));
                }
            }
            games.push(record);
            if let (Some(sprt), true) = (config.sprt, config.engines.len() == 2) {
                if let Some(d) = sprt.decide(&tallies[0]) {
                    decision = Some(d);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    Ok(MatchReport {
        games,
        tallies,
        sprt: decision,
        stopped,
    })
}
