//! The referee of one game: it starts both engines, plays the opening, then asks each engine for
//! its move in turn (a third party's plies it plays itself), runs the clocks, and ends the game
//! on the rules, a claim, a failure or adjudication.

use super::config::{EngineSpec, Proto, TimeControl};
use super::player::{self, Failure, Player, Reply, Request};
use super::{protocol_variant, GameRecord, Job, MatchConfig, MAX_PLIES, THIRD_PARTY_NOTE};
use crate::board::Position;
use crate::core::{Color, Move};
use crate::game::Game;
use crate::notation::{move_text, parse_move, Dialect};
use crate::protocol::xboard_variant::{self as xv, fen_to_cecp, parse_wire, Shown};
use crate::third_party::ThirdParty;
use std::ops::ControlFlow::{self, Break, Continue};
use std::time::{Duration, Instant};

/// Extra time for an engine with a fixed time or node count per move before it is late.
const PER_MOVE_GRACE: Duration = Duration::from_secs(5);
/// Time an engine with a node limit may take per move.
const NODES_DEADLINE: Duration = Duration::from_secs(120);

/// Plays one game. Never panics on engine misbehaviour: every failure ends the game with a
/// result and a reason.
pub(super) fn play_game(config: &MatchConfig, job: &Job) -> GameRecord {
    let v = config.variant;
    let start: Position = v
        .parse_fen(&job.fen)
        .expect("openings are checked when scheduled");
    let mut record = unfinished(job);
    let players = match start_players(config, job) {
        Ok(players) => players,
        Err((loser, e)) => {
            record.crashed = Some(if loser == Color::White {
                job.white
            } else {
                job.black
            });
            lose(
                &mut record,
                loser,
                "abandoned",
                format!("{} engine failed to start: {e}", name(loser)),
            );
            return record;
        }
    };
    let mut referee = Referee::new(config, job, Game::new(v, start), players, record);
    referee.play_opening();
    while referee.next_turn().is_continue() {}
    referee.finish()
}

/// The record of `job` before it is played.
fn unfinished(job: &Job) -> GameRecord {
    GameRecord {
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
        pair: job.pair,
        final_fen: job.fen.clone(),
    }
}

/// `White` or `Black`.
fn name(c: Color) -> &'static str {
    if c == Color::White {
        "White"
    } else {
        "Black"
    }
}

/// Ends the game with `loser` losing.
fn lose(record: &mut GameRecord, loser: Color, termination: &'static str, reason: String) {
    record.result = if loser == Color::White { "0-1" } else { "1-0" };
    record.termination = termination;
    record.reason = reason;
}

/// The start FEN as `proto` writes it.
fn protocol_fen(config: &MatchConfig, job: &Job, proto: Proto) -> String {
    match proto {
        Proto::Uci => job.fen.clone(),
        Proto::Xboard => fen_to_cecp(config.variant.rules(), &job.fen),
    }
}

/// Starts White's engine, then Black's, each with the game set up; the colour of one that cannot
/// start, and why.
fn start_players(config: &MatchConfig, job: &Job) -> Result<[Player; 2], (Color, String)> {
    let v = config.variant;
    let start = |spec: &EngineSpec| {
        let mut p = Player::start(spec)?;
        let standard = job.fen == v.rules().spec.start_fen;
        p.new_game(
            protocol_variant(v, spec.proto),
            &protocol_fen(config, job, spec.proto),
            standard,
        )
        .map_err(|f| format!("engine {}: {f} while starting a game", spec.name))?;
        Ok(p)
    };
    let white = start(&config.engines[job.white]).map_err(|e| (Color::White, e))?;
    let black = start(&config.engines[job.black]).map_err(|e| (Color::Black, e))?;
    Ok([white, black])
}

fn dialect(proto: Proto) -> Dialect {
    match proto {
        Proto::Uci => Dialect::Uci,
        Proto::Xboard => Dialect::Cecp,
    }
}

/// A game in progress. Sides are indexed 0 for White, 1 for Black.
struct Referee<'a> {
    config: &'a MatchConfig,
    job: &'a Job,
    specs: [&'a EngineSpec; 2],
    players: [Player; 2],
    game: Game,
    relay: Relay,
    /// What the record says so far.
    record: GameRecord,
    /// Time left on each side's clock.
    clocks: [Duration; 2],
    /// The start FEN as each side's protocol writes it.
    fens: [String; 2],
    /// Scores from White's point of view, per side, for adjudication.
    scores: [Vec<Option<i32>>; 2],
    /// Moves each side made, which count the periods of a clock.
    moves_made: [u32; 2],
}

impl<'a> Referee<'a> {
    fn new(
        config: &'a MatchConfig,
        job: &'a Job,
        game: Game,
        players: [Player; 2],
        record: GameRecord,
    ) -> Referee<'a> {
        let specs = [&config.engines[job.white], &config.engines[job.black]];
        Referee {
            config,
            job,
            specs,
            players,
            relay: Relay {
                texts: [Vec::new(), Vec::new()],
                shown: Shown::of(config.variant.rules(), game.position()),
                protos: specs.map(|s| s.proto),
            },
            game,
            record,
            clocks: specs.map(|s| match s.tc {
                Some(TimeControl::Clock { base, .. }) => base,
                _ => Duration::ZERO,
            }),
            fens: specs.map(|s| protocol_fen(config, job, s.proto)),
            scores: [Vec::new(), Vec::new()],
            moves_made: [0; 2],
        }
    }

    /// Plays the job's opening moves, marked `book`.
    fn play_opening(&mut self) {
        for &m in &self.job.opening {
            let text = move_text(self.config.variant, Dialect::Uci, m);
            self.record.moves.push((text, Some("book".into())));
            self.relay.play(&mut self.game, m, None);
        }
    }

    /// One turn: the end of the game, a third party's ply, or an engine's move. Breaks when the
    /// game is over.
    fn next_turn(&mut self) -> ControlFlow<()> {
        self.end_if_over()?;
        let mover = self.game.position().turn();
        if mover == Color::Neutral {
            return self.third_party_ply();
        }
        let side = if mover == Color::Black { 1 } else { 0 };
        let (reply, elapsed) = self.ask(side)?;
        self.take_claim(side, &reply)?;
        self.run_clock(side, elapsed)?;
        let m = self.read_move(side, &reply)?;
        self.play_move(side, m, &reply, elapsed);
        self.adjudicate()
    }

    /// The colour of side `side`.
    fn color(side: usize) -> Color {
        if side == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Ends the game with `side` losing.
    fn lose<T>(
        &mut self,
        side: usize,
        termination: &'static str,
        reason: String,
    ) -> ControlFlow<(), T> {
        lose(&mut self.record, Self::color(side), termination, reason);
        Break(())
    }

    /// Ends the game its rules end, or that has gone on too long.
    fn end_if_over(&mut self) -> ControlFlow<()> {
        if let Some(outcome) = self.game.outcome() {
            self.record.result = outcome.pgn();
            self.record.termination = "normal";
            self.record.reason = outcome.describe();
            return Break(());
        }
        let max_plies = self.config.max_moves.map_or(MAX_PLIES, |m| 2 * m as usize);
        if self.game.moves().len() >= max_plies {
            self.record.result = "1/2-1/2";
            self.record.termination = "adjudication";
            self.record.reason = match self.config.max_moves {
                Some(m) => format!("Draw by adjudication: {m} moves each (-maxmoves)"),
                None => format!("Draw by adjudication: {MAX_PLIES} plies"),
            };
            return Break(());
        }
        Continue(())
    }

    /// A third party's ply: the referee plays it and both engines are told.
    fn third_party_ply(&mut self) -> ControlFlow<()> {
        let Some(m) = third_party_move(self.config, &self.game) else {
            // No ply at all: the game ended on the last real ply (the outcome says so).
            self.record.result = "*";
            return Break(());
        };
        let text = move_text(self.config.variant, Dialect::Uci, m);
        self.record
            .moves
            .push((text, Some(THIRD_PARTY_NOTE.into())));
        self.relay.play(&mut self.game, m, None);
        Continue(())
    }

    /// Asks `side`'s engine for its move within its time; its reply and the time it took. An
    /// engine that runs out of time or goes away loses.
    fn ask(&mut self, side: usize) -> ControlFlow<(), (Reply, Duration)> {
        let spec = self.specs[side];
        let tc = spec.tc.expect("every engine has a time control");
        let budget = match tc {
            TimeControl::Clock { .. } => self.clocks[side] + spec.time_margin,
            TimeControl::PerMove(t) => t + spec.time_margin + PER_MOVE_GRACE,
            TimeControl::Nodes(_) | TimeControl::Infinite => NODES_DEADLINE,
        };
        let moves_to_go = match tc {
            TimeControl::Clock { moves, .. } if moves > 0 => {
                Some(moves - self.moves_made[side] % moves)
            }
            _ => None,
        };
        let started = Instant::now();
        let req = Request {
            fen: &self.fens[side],
            moves: &self.relay.texts[side],
            clocks: (self.clocks[side], self.clocks[1 - side]),
            white: side == 0,
            moves_to_go,
            deadline: started + budget,
        };
        let reply = self.players[side].go(&req);
        let elapsed = started.elapsed();
        let mover = name(Self::color(side));
        match reply {
            Ok(r) => Continue((r, elapsed)),
            Err(Failure::Timeout) => {
                self.lose(side, "time forfeit", format!("{mover} loses on time"))
            }
            Err(Failure::Disconnected | Failure::NotReady | Failure::Unsupported(_)) => {
                self.record.crashed = Some(if side == 0 {
                    self.job.white
                } else {
                    self.job.black
                });
                self.lose(side, "abandoned", format!("{mover} disconnects"))
            }
        }
    }

    /// A resignation or result claim made instead of a move ends the game
    /// (`score_claim`).
    fn take_claim(&mut self, side: usize, reply: &Reply) -> ControlFlow<()> {
        match &reply.claim {
            Some(claim) => {
                score_claim(&mut self.record, Self::color(side), claim);
                Break(())
            }
            None => Continue(()),
        }
    }

    /// Charges `side`'s clock for the move; a move past the clock and its margin loses on time.
    fn run_clock(&mut self, side: usize, elapsed: Duration) -> ControlFlow<()> {
        let spec = self.specs[side];
        if let Some(TimeControl::Clock { moves, base, inc }) = spec.tc {
            if elapsed > self.clocks[side] + spec.time_margin {
                let mover = name(Self::color(side));
                return self.lose(side, "time forfeit", format!("{mover} loses on time"));
            }
            self.clocks[side] = self.clocks[side].saturating_sub(elapsed) + inc;
            self.moves_made[side] += 1;
            if moves > 0 && self.moves_made[side] % moves == 0 {
                self.clocks[side] += base;
            }
        }
        Continue(())
    }

    /// The move `side`'s engine sent; one that is not legal loses.
    fn read_move(&mut self, side: usize, reply: &Reply) -> ControlFlow<(), Move> {
        let v = self.config.variant;
        let proto = self.specs[side].proto;
        // CECP engines may send XBoard's own forms (a switch in place as two legs).
        let parsed = match proto {
            Proto::Xboard => parse_wire(v, self.game.position(), &self.relay.shown, &reply.text),
            _ => parse_move(v, self.game.position(), dialect(proto), &reply.text),
        };
        match parsed {
            Ok(m) => Continue(m),
            Err(_) => {
                let mover = name(Self::color(side));
                let reason = format!("{mover} makes an illegal move: {}", reply.text);
                self.lose(side, "illegal move", reason)
            }
        }
    }

    /// Plays `side`'s move `m`, recording it with the engine's score, depth and time, and keeps
    /// the score for adjudication.
    fn play_move(&mut self, side: usize, m: Move, reply: &Reply, elapsed: Duration) {
        let comment = match (reply.score, reply.depth) {
            (Some(s), Some(d)) => format!(
                "{}{:.2}/{d} {:.3}s",
                if s >= 0 { "+" } else { "" },
                s as f64 / 100.0,
                elapsed.as_secs_f64()
            ),
            _ => format!("{:.3}s", elapsed.as_secs_f64()),
        };
        let text = move_text(self.config.variant, Dialect::Uci, m);
        self.record.moves.push((text, Some(comment)));
        let own = (self.specs[side].proto == Proto::Xboard).then_some(reply.text.as_str());
        self.relay.play(&mut self.game, m, own);
        let white_view = reply.score.map(|s| if side == 0 { s } else { -s });
        self.scores[side].push(white_view);
    }

    /// Ends the game by adjudication if the engines' scores call for it.
    fn adjudicate(&mut self) -> ControlFlow<()> {
        let fullmove = self.game.position().fullmove();
        match adjudicate(self.config, &self.scores, fullmove) {
            Some((result, reason)) => {
                self.record.result = result;
                self.record.termination = "adjudication";
                self.record.reason = reason;
                Break(())
            }
            None => Continue(()),
        }
    }

    /// Says goodbye to both engines; the game's record.
    fn finish(mut self) -> GameRecord {
        for p in self.players {
            p.quit();
        }
        self.record.final_fen = self.config.variant.fen(self.game.position());
        self.record
    }
}

/// Scores a CECP engine's resignation or result claim as cutechess-cli does. The referee ends
/// every game its rules end before the next move is asked for, so a claim made instead of a
/// move is true only if it gives the game away: a resignation, or the claimant's own loss.
/// Any other claim (a win or a draw the rules do not see) loses by adjudication.
fn score_claim(record: &mut GameRecord, mover: Color, claim: &player::Claim) {
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
        // Scores are White's view; one-sided, the loser's own engine decides.
        let side = |s: &Vec<Option<i32>>| -> Option<Vec<i32>> {
            if s.len() < r.movecount as usize {
                return None;
            }
            s[s.len() - r.movecount as usize..]
                .iter()
                .copied()
                .collect()
        };
        let (white, black) = (side(&scores[0]), side(&scores[1]));
        let all_at_least =
            |v: &Option<Vec<i32>>, x: i32| v.as_ref().is_some_and(|v| v.iter().all(|&s| s >= x));
        let all_at_most =
            |v: &Option<Vec<i32>>, x: i32| v.as_ref().is_some_and(|v| v.iter().all(|&s| s <= x));
        if all_at_least(&black, r.score) && (!r.twosided || all_at_least(&white, r.score)) {
            return Some(("1-0", "Black resigns (adjudication)".into()));
        }
        if all_at_most(&white, -r.score) && (!r.twosided || all_at_most(&black, -r.score)) {
            return Some(("0-1", "White resigns (adjudication)".into()));
        }
    }
    None
}
