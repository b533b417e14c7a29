//! One page's game: an adapter over the engine facade, as UCI and CECP are, that speaks JSON
//! over a WebSocket. It holds who plays each side (a person, the engine, or for a third party
//! also the seeded random choice of `third_party`), the clocks and the engine's settings; it
//! starts the engine's searches and plays their moves, and accepts a person's move only when its
//! text is one of the legal moves it sent. Any refused command leaves the game as it was.

use super::view;
use crate::arena::pgn::PgnGame;
use crate::core::{Color, Move};
use crate::engine::Engine;
use crate::notation::Dialect;
use crate::search::{Clock, Info, Limits, Score, SearchResult};
use crate::third_party::Policy;
use crate::variants::{self, EndReason, Outcome};
use serde_json::{json, Value};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// Longest FEN or move text a command may carry.
const MAX_TEXT: usize = 512;
/// The engine's settings are kept within these bounds.
const MAX_THREADS: usize = 64;
const MAX_HASH_MB: usize = 1024;
const MAX_DEPTH: u32 = 64;
const MAX_MOVETIME_MS: u64 = 600_000;
const MAX_CLOCK_MS: u64 = 10 * 3_600_000;
/// The engine's time per move when no clock runs.
const DEFAULT_MOVETIME_MS: u64 = 1_000;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at the page.
    Human,
    /// The engine: a search for White or Black; for a third party, `engine::choose_third_party_ply` helping
    /// the player the settings name.
    Engine,
    /// For a third party only: the seeded random choice (`third_party::seeded_choice`), the one
    /// the match runner and the protocols make.
    Random,
}

impl Player {
    fn parse(text: &str) -> Option<Player> {
        match text {
            "human" => Some(Player::Human),
            "engine" => Some(Player::Engine),
            "random" => Some(Player::Random),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Engine => "engine",
            Player::Random => "random",
        }
    }
}

/// What the search thread tells the session.
#[derive(Debug)]
pub enum Event {
    /// A finished iteration of search `id`.
    Info { id: u64, info: Info },
    /// Search `id` ended.
    Done { id: u64, result: SearchResult },
}

/// The two players' clocks.
#[derive(Clone, Debug)]
struct Clocks {
    /// Base time and increment; `None`: no clock.
    control: Option<(Duration, Duration)>,
    left: [Duration; 2],
    /// The side whose clock runs, and since when.
    running: Option<(Color, Instant)>,
}

impl Clocks {
    fn new(control: Option<(Duration, Duration)>) -> Clocks {
        let base = control.map_or(Duration::ZERO, |c| c.0);
        Clocks {
            control,
            left: [base; 2],
            running: None,
        }
    }

    /// Time left of a player now.
    fn now(&self, c: Color) -> Duration {
        let left = self.left[c.index().min(1)];
        match self.running {
            Some((r, since)) if r == c => left.saturating_sub(since.elapsed()),
            _ => left,
        }
    }

    /// Stops the running clock; `moved` adds the increment.
    fn stop(&mut self, moved: bool) {
        if let Some((c, since)) = self.running.take() {
            let i = c.index().min(1);
            self.left[i] = self.left[i].saturating_sub(since.elapsed());
            if moved {
                self.left[i] += self.control.map_or(Duration::ZERO, |c| c.1);
            }
        }
    }

    fn start(&mut self, c: Color) {
        if self.control.is_some() && c != Color::Neutral {
            self.running = Some((c, Instant::now()));
        }
    }

    /// The player whose time ran out, if any.
    fn flagged(&self) -> Option<Color> {
        self.running
            .filter(|&(c, _)| self.now(c).is_zero())
            .map(|(c, _)| c)
    }
}

/// A game played at one page.
pub struct Session {
    engine: Engine,
    players: [Player; 3],
    movetime: Duration,
    depth: Option<u32>,
    clocks: Clocks,
    /// A player lost on time.
    forfeit: Option<Color>,
    /// The engine waits (after an undo with no person playing, or when asked).
    paused: bool,
    /// The running search: its id and the number of moves of the game when it started.
    search: Option<(u64, usize)>,
    next_id: u64,
    /// The engine plays the side to move once, whoever plays it.
    move_now: bool,
    events: Sender<Event>,
}

/// An answer to a refused command.
fn error(message: impl Into<String>) -> Value {
    json!({ "type": "error", "message": message.into() })
}

impl Session {
    /// A game of FIDE chess, a person as White against the engine, a third party (in the games
    /// that have one) by the seeded random choice with the default seed; search events go to
    /// `events`.
    pub fn new(events: Sender<Event>) -> Session {
        let mut s = Session {
            engine: Engine::new(),
            players: [Player::Human, Player::Engine, Player::Random],
            movetime: Duration::from_millis(DEFAULT_MOVETIME_MS),
            depth: None,
            clocks: Clocks::new(None),
            forfeit: None,
            paused: false,
            search: None,
            next_id: 0,
            move_now: false,
            events,
        };
        s.sync_policy();
        s
    }

    /// The engine's policy for the third party follows who plays it: the seeded choice, the
    /// engine, or a person (whose plies the search averages over, as for a referee's).
    fn sync_policy(&mut self) {
        self.engine.options.third_party.policy = match self.players[2] {
            Player::Random => Policy::Random,
            Player::Engine => Policy::Engine,
            Player::Human => Policy::External,
        };
    }

    /// Handles one command from the page; returns the messages to send back.
    pub fn handle(&mut self, text: &str) -> Vec<Value> {
        let Ok(cmd) = serde_json::from_str::<Value>(text) else {
            return vec![error("not a JSON command"), self.state()];
        };
        let arg = |k: &str| cmd.get(k).and_then(Value::as_str).unwrap_or("");
        let result = match cmd.get("cmd").and_then(Value::as_str) {
            Some("new") => self.new_game(arg("variant")),
            Some("move") => self.human_move(arg("text")),
            Some("undo") => self.undo(),
            Some("fen") => self.set_fen(arg("fen")),
            Some("settings") => self.settings(&cmd),
            Some("go") => {
                self.paused = false;
                if self.search.is_none() && self.player_to_move() != Player::Engine {
                    self.move_now = true;
                }
                Ok(())
            }
            Some("stop") => {
                // The running search stops and its move is played.
                self.engine.stop();
                Ok(())
            }
            Some("pause") => {
                self.paused = true;
                self.abandon_search();
                Ok(())
            }
            Some("state") => Ok(()),
            _ => Err("unknown command".to_string()),
        };
        let mut out = Vec::new();
        match result {
            Ok(()) => {
                if cmd.get("cmd").and_then(Value::as_str) == Some("new") {
                    out.push(view::variant_json(self.engine.variant()));
                }
                self.advance();
                out.push(self.state());
            }
            Err(e) => {
                out.push(error(e));
                out.push(self.state());
            }
        }
        out
    }

    /// Handles what the search thread sent; returns the messages to send.
    pub fn on_event(&mut self, event: Event) -> Vec<Value> {
        match event {
            Event::Info { id, info } if self.is_current(id) => vec![self.info_json(&info)],
            Event::Done { id, result } if self.is_current(id) => {
                let (_, plies) = self.search.take().expect("a current search");
                let unchanged = self.engine.game().moves().len() == plies;
                if let (true, Some(m)) = (unchanged && !self.over(), result.best) {
                    self.play(m);
                }
                self.advance();
                vec![self.state()]
            }
            _ => Vec::new(),
        }
    }

    /// Looks at the clocks; returns the messages to send when a flag fell.
    pub fn tick(&mut self) -> Vec<Value> {
        match self.clocks.flagged() {
            Some(c) if self.forfeit.is_none() && !self.over() => {
                self.clocks.stop(false);
                self.forfeit = Some(c);
                self.abandon_search();
                vec![self.state()]
            }
            _ => Vec::new(),
        }
    }

    fn is_current(&self, id: u64) -> bool {
        self.search.is_some_and(|(s, _)| s == id)
    }

    fn player_to_move(&self) -> Player {
        self.players[self.engine.game().position().turn().index()]
    }

    fn new_game(&mut self, name: &str) -> Result<(), String> {
        let name = if name.is_empty() {
            self.engine.variant().name()
        } else {
            name
        };
        let v = variants::by_name(name).map_err(|e| e.to_string())?;
        self.abandon_search();
        self.engine
            .set_variant(v.name())
            .map_err(|e| e.to_string())?;
        self.restart_clocks();
        Ok(())
    }

    fn set_fen(&mut self, fen: &str) -> Result<(), String> {
        if fen.len() > MAX_TEXT {
            return Err("FEN too long".into());
        }
        let v = self.engine.variant();
        v.parse_fen(fen.trim())
            .map_err(|e| format!("FEN refused: {e}"))?;
        self.abandon_search();
        self.engine
            .set_position(Some(fen.trim()), &[], Dialect::Uci)
            .map_err(|e| format!("FEN refused: {e}"))?;
        self.restart_clocks();
        Ok(())
    }

    fn restart_clocks(&mut self) {
        self.clocks = Clocks::new(self.clocks.control);
        self.forfeit = None;
        self.paused = false;
        self.move_now = false;
    }

    fn human_move(&mut self, text: &str) -> Result<(), String> {
        if text.len() > MAX_TEXT {
            return Err("move text too long".into());
        }
        if self.over() {
            return Err("the game is over".into());
        }
        if self.player_to_move() != Player::Human {
            return Err("it is not a person's turn".into());
        }
        let v = self.engine.variant();
        let m = self
            .engine
            .game()
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| v.move_text(m, Dialect::Uci) == text)
            .ok_or_else(|| format!("illegal move: {text}"))?;
        self.abandon_search();
        self.play(m);
        Ok(())
    }

    /// Takes back moves until a person is to move (one move when nobody plays by hand, and the
    /// engine then waits).
    fn undo(&mut self) -> Result<(), String> {
        if self.engine.game().moves().is_empty() {
            return Err("no move to take back".into());
        }
        self.abandon_search();
        let nobody = !self.players[..2].contains(&Player::Human);
        loop {
            self.engine.game_mut().undo();
            let human = self.player_to_move() == Player::Human;
            if nobody || human || self.engine.game().moves().is_empty() {
                break;
            }
        }
        self.paused = nobody;
        self.forfeit = None;
        self.move_now = false;
        self.clocks.stop(false);
        Ok(())
    }

    fn settings(&mut self, cmd: &Value) -> Result<(), String> {
        // Every value is checked before any is applied, so a refused command changes nothing.
        let mut players = self.players;
        for (i, key) in ["white", "black", "third"].iter().enumerate() {
            if let Some(p) = cmd.get(*key) {
                let p = p.as_str().and_then(Player::parse).ok_or("bad player")?;
                if i < 2 && p == Player::Random {
                    return Err("a player is a person or the engine".into());
                }
                players[i] = p;
            }
        }
        let num = |k: &str, max: u64| -> Result<Option<u64>, String> {
            match cmd.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => v
                    .as_u64()
                    .filter(|&n| n <= max)
                    .map(Some)
                    .ok_or_else(|| format!("{k} must be a number from 0 to {max}")),
            }
        };
        let movetime = num("movetime_ms", MAX_MOVETIME_MS)?;
        let depth = num("depth", MAX_DEPTH as u64)?;
        let threads = num("threads", MAX_THREADS as u64)?;
        let hash = num("hash_mb", MAX_HASH_MB as u64)?;
        let base = num("clock_ms", MAX_CLOCK_MS)?;
        let inc = num("increment_ms", MAX_MOVETIME_MS)?;
        // The third party's seed and the player its engine helps, by the protocols' option
        // names; the old values come back when one is refused.
        let saved = self.engine.options.third_party;
        let seed = match cmd.get("third_seed") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(_) => return Err("third_seed must be a number".into()),
        };
        let favors = match cmd.get("third_favors") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.as_str().ok_or("third_favors must be white or black")?),
        };
        for (name, value) in [("Nature Seed", seed.as_deref()), ("Nature Favors", favors)] {
            let Some(value) = value else { continue };
            if let Some(Err(e)) = self.engine.set_third_party_option(name, value) {
                self.engine.options.third_party = saved;
                return Err(format!("{name}: {e}"));
            }
        }
        self.players = players;
        self.sync_policy();
        if let Some(t) = movetime {
            self.movetime = Duration::from_millis(t.max(1));
        }
        if cmd.get("depth").is_some() {
            self.depth = depth.filter(|&d| d > 0).map(|d| d as u32);
        }
        if let Some(t) = threads {
            self.engine.options.threads = (t as usize).max(1);
        }
        if let Some(h) = hash {
            self.engine.options.hash_mb = (h as usize).max(1);
        }
        if cmd.get("clock_ms").is_some() {
            let control = base.filter(|&b| b > 0).map(|b| {
                (
                    Duration::from_millis(b),
                    Duration::from_millis(inc.unwrap_or(0)),
                )
            });
            self.clocks = Clocks::new(control);
            self.forfeit = None;
        }
        // A search for a side the engine no longer plays is dropped.
        if self.search.is_some() && self.player_to_move() != Player::Engine && !self.move_now {
            self.abandon_search();
        }
        Ok(())
    }

    fn abandon_search(&mut self) {
        if self.search.take().is_some() {
            self.engine.stop_and_wait();
        }
    }

    /// Plays a legal move and passes the clock on.
    fn play(&mut self, m: Move) {
        let mover = self.engine.game().position().turn();
        self.engine.game_mut().play(m);
        self.clocks.stop(mover != Color::Neutral);
        self.move_now = false;
    }

    /// The game's result, if it is over.
    fn outcome(&self) -> Option<Outcome> {
        if let Some(loser) = self.forfeit {
            return Some(Outcome::Win {
                winner: loser.opponent(),
                reason: EndReason::Variant("time"),
            });
        }
        self.engine.game().outcome()
    }

    fn over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Plays the third party's plies by its policy (`Engine::third_party_ply`), starts the
    /// engine where it is to move, and runs the clock of the player to move.
    fn advance(&mut self) {
        loop {
            if self.over() {
                self.clocks.stop(false);
                return;
            }
            let turn = self.engine.game().position().turn();
            let player = self.player_to_move();
            // `Engine move` on a third party's turn plays it by the policy too (a person's
            // turn: the seeded choice).
            let by_policy = player != Player::Human && !self.paused;
            if turn == Color::Neutral && (by_policy || self.move_now) {
                let Some(m) = self.engine.third_party_ply() else {
                    return;
                };
                self.play(m);
                continue;
            }
            if self.clocks.running.is_none() && !self.paused {
                self.clocks.start(turn);
            }
            let wanted = (player == Player::Engine && !self.paused) || self.move_now;
            if wanted && self.search.is_none() {
                self.start_search();
            }
            return;
        }
    }

    fn start_search(&mut self) {
        let turn = self.engine.game().position().turn();
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        match self.clocks.control {
            Some((_, inc)) if turn != Color::Neutral => {
                limits.clock = Some(Clock {
                    time: self.clocks.now(turn),
                    inc,
                    movestogo: None,
                });
            }
            _ => limits.movetime = Some(self.movetime),
        }
        let id = self.next_id;
        self.next_id += 1;
        let plies = self.engine.game().moves().len();
        let (info_tx, done_tx) = (self.events.clone(), self.events.clone());
        self.engine.start_search(
            limits,
            false,
            move |info: &Info| {
                let _ = info_tx.send(Event::Info {
                    id,
                    info: info.clone(),
                });
            },
            move |result| {
                let _ = done_tx.send(Event::Done { id, result });
            },
        );
        self.search = Some((id, plies));
    }

    /// A search line for the page: the score from White's side, depth, nodes and the moves.
    fn info_json(&self, info: &Info) -> Value {
        let v = self.engine.variant();
        let pos = self.engine.game().position();
        let sign = if v.rulings().point_of_view(pos) == Color::Black {
            -1
        } else {
            1
        };
        let score = match Score::from_internal(info.score) {
            Score::Cp(cp) => json!({ "cp": sign * cp }),
            Score::Mate(n) => json!({ "mate": sign * n }),
        };
        let pv: Vec<String> = info
            .pv
            .iter()
            .map(|&m| v.move_text(m, Dialect::Uci))
            .collect();
        let ms = info.time.as_millis().max(1) as u64;
        json!({
            "type": "info",
            "depth": info.depth,
            "seldepth": info.seldepth,
            "score": score,
            "nodes": info.nodes,
            "nps": info.nodes * 1000 / ms,
            "time_ms": ms,
            "pv": pv,
        })
    }

    /// The moves played, each with the side that played it.
    fn move_list(&self) -> Vec<Value> {
        let game = self.engine.game();
        let v = game.variant();
        let mut pos = game.start().clone();
        let mut out = Vec::with_capacity(game.moves().len());
        for &m in game.moves() {
            out.push(json!({
                "text": v.move_text(m, Dialect::Uci),
                "side": view::side_code(pos.turn()).to_string(),
            }));
            pos = v.play(&pos, m);
        }
        out
    }

    /// The game in PGN, its moves in the project's notation.
    fn pgn(&self, outcome: Option<&Outcome>) -> String {
        let game = self.engine.game();
        let v = game.variant();
        let start = game.start();
        let name = |p: Player| match p {
            Player::Engine => "Menagerie",
            _ => "Human",
        };
        let result = outcome.map_or("*", Outcome::pgn);
        let mut tags = vec![
            ("Event".to_string(), "Menagerie gui".to_string()),
            ("Site".to_string(), "local".to_string()),
            ("White".to_string(), name(self.players[0]).to_string()),
            ("Black".to_string(), name(self.players[1]).to_string()),
            ("Result".to_string(), result.to_string()),
            ("Variant".to_string(), v.name().to_string()),
        ];
        let fen = v.fen(start);
        if fen != v.fen(&v.start_position()) {
            tags.push(("FEN".to_string(), fen));
            tags.push(("SetUp".to_string(), "1".to_string()));
        }
        let mut pos = start.clone();
        let mut moves = Vec::new();
        let mut third_party_plies = Vec::new();
        for (i, &m) in game.moves().iter().enumerate() {
            let third = pos.turn() == Color::Neutral;
            if third {
                third_party_plies.push(i);
            }
            let note = third.then(|| crate::arena::THIRD_PARTY_NOTE.to_string());
            moves.push((v.move_text(m, Dialect::Uci), note));
            pos = v.play(&pos, m);
        }
        PgnGame {
            tags,
            moves,
            third_party_plies,
            first_ply: 2 * (start.fullmove() as u32 - 1) + u32::from(start.turn() == Color::Black),
            ending: outcome.map_or(String::new(), describe),
            result: result.to_string(),
        }
        .to_pgn()
    }

    /// The whole state of the game for the page.
    pub fn state(&self) -> Value {
        let game = self.engine.game();
        let v = game.variant();
        let pos = game.position();
        let outcome = self.outcome();
        let legal = if outcome.is_some() {
            Vec::new()
        } else {
            view::legal_texts(v, &game.legal_moves())
        };
        let result = outcome
            .as_ref()
            .map(|o| json!({ "result": o.pgn(), "reason": describe(o) }));
        let clock = self.clocks.control.map(|(base, inc)| {
            json!({
                "base_ms": base.as_millis() as u64,
                "increment_ms": inc.as_millis() as u64,
                "w": self.clocks.now(Color::White).as_millis() as u64,
                "b": self.clocks.now(Color::Black).as_millis() as u64,
                "running": self.clocks.running.map(|(c, _)| view::side_code(c).to_string()),
            })
        });
        json!({
            "type": "state",
            "variant": v.name(),
            "fen": v.fen(pos),
            "turn": view::side_code(pos.turn()).to_string(),
            "point_of_view": view::side_code(v.rulings().point_of_view(pos)).to_string(),
            "ply": pos.ply(),
            "pieces": view::pieces_json(v, pos),
            "reserve": view::reserve_json(v.rules(), pos),
            "check": view::checked_royals(v, pos),
            "legal": legal,
            "moves": self.move_list(),
            "start_fullmove": game.start().fullmove(),
            "result": result,
            "pgn": self.pgn(outcome.as_ref()),
            "thinking": self.search.is_some(),
            "paused": self.paused,
            "players": {
                "w": self.players[0].name(),
                "b": self.players[1].name(),
                "n": self.players[2].name(),
            },
            "third_party": {
                "policy": self.engine.options.third_party.policy.name(),
                "seed": self.engine.options.third_party.seed,
                "favors": view::side_code(self.engine.options.third_party.favors).to_string(),
            },
            "turn_notes": v.presentation().describe_turn(pos),
            "engine": {
                "movetime_ms": self.movetime.as_millis() as u64,
                "depth": self.depth,
                "threads": self.engine.options.threads,
                "hash_mb": self.engine.options.hash_mb,
            },
            "clock": clock,
        })
    }
}

/// The result's reason in words.
fn describe(o: &Outcome) -> String {
    match *o {
        Outcome::Win {
            winner,
            reason: EndReason::Variant("time"),
        } => {
            let loser = if winner == Color::White {
                "Black"
            } else {
                "White"
            };
            format!("{loser} lost on time")
        }
        _ => o.describe(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::third_party;
    use std::sync::mpsc::channel;

    fn session() -> Session {
        let (tx, _rx) = channel();
        let mut s = Session::new(tx);
        s.players = [Player::Human, Player::Human, Player::Random];
        s
    }

    fn fen(s: &Session) -> String {
        s.state()["fen"].as_str().unwrap().to_string()
    }

    #[test]
    fn plays_only_legal_moves_and_refusals_change_nothing() {
        let mut s = session();
        let before = fen(&s);
        for bad in [
            r#"{"cmd":"move","text":"e2e5"}"#,
            r#"{"cmd":"move","text":""}"#,
            r#"{"cmd":"move"}"#,
            r#"{"cmd":"fen","fen":"not a fen"}"#,
            r#"{"cmd":"new","variant":"nosuch"}"#,
            r#"{"cmd":"settings","white":"random"}"#,
            r#"{"cmd":"settings","threads":100000}"#,
            r#"{"cmd":"nosuch"}"#,
            "not json",
            r#"[1,2,3]"#,
        ] {
            let out = s.handle(bad);
            assert_eq!(out[0]["type"], "error", "{bad}");
            assert_eq!(fen(&s), before, "{bad}");
        }
        let out = s.handle(r#"{"cmd":"move","text":"e2e4"}"#);
        assert_eq!(out[0]["type"], "state");
        assert_ne!(fen(&s), before);
        assert_eq!(s.state()["moves"][0]["text"], "e2e4");
        s.handle(r#"{"cmd":"undo"}"#);
        assert_eq!(fen(&s), before);
    }

    #[test]
    fn a_new_game_sends_the_board_first() {
        let mut s = session();
        let out = s.handle(r#"{"cmd":"new","variant":"divergent"}"#);
        assert_eq!(out[0]["type"], "variant");
        assert_eq!(out[0]["files"], 10);
        assert_eq!(out[1]["variant"], "divergent");
    }

    #[test]
    fn undo_against_the_engine_returns_to_the_persons_turn() {
        let mut s = session();
        s.handle(r#"{"cmd":"move","text":"e2e4"}"#);
        s.handle(r#"{"cmd":"move","text":"e7e5"}"#);
        s.players[1] = Player::Engine;
        s.paused = true;
        s.undo().unwrap();
        assert_eq!(s.engine.game().moves().len(), 0);
    }

    /// Chaos with Nature to act (counter 5, Black moves next).
    const NATURE_TO_ACT: &str =
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[_Q_R_B_N] n KQkq - 3 3 5b";

    /// A session of Chaos set to `NATURE_TO_ACT` with Nature played by a person, then the
    /// settings `settings` applied; returns it with the text of Nature's ply, if one was played.
    fn nature_plays(settings: &str) -> (Session, Option<String>) {
        let mut s = session();
        s.players[2] = Player::Human;
        s.handle(r#"{"cmd":"new","variant":"chaos"}"#);
        s.handle(&format!(r#"{{"cmd":"fen","fen":"{NATURE_TO_ACT}"}}"#));
        assert_eq!(s.state()["turn"], "n");
        let out = s.handle(settings);
        assert_eq!(out[0]["type"], "state", "{settings}: {out:?}");
        let ply = s.state()["moves"]
            .as_array()
            .unwrap()
            .first()
            .map(|m| m["text"].as_str().unwrap().to_string());
        (s, ply)
    }

    /// The page's three ways to play Nature are the shared policies: the seeded choice, the
    /// engine's choice for the player it helps, and a person (the search then averages).
    #[test]
    fn nature_is_played_by_the_shared_policies() {
        let v = variants::by_name("chaos").unwrap();
        let pos = v.parse_fen(NATURE_TO_ACT).unwrap();
        let text = |m: Move| v.move_text(m, Dialect::Uci);
        for seed in [1u64, 7, 12345] {
            let (s, ply) = nature_plays(&format!(
                r#"{{"cmd":"settings","third":"random","third_seed":{seed}}}"#
            ));
            let expected = third_party::seeded_choice(v, &pos, seed).map(text);
            assert_eq!(ply, expected, "seed {seed}");
            assert_eq!(s.state()["turn"], "b");
            assert_eq!(s.state()["third_party"]["policy"], "random");
            assert_eq!(s.state()["third_party"]["seed"], seed);
        }
        for (favors, color) in [("black", Color::Black), ("white", Color::White)] {
            let (s, ply) = nature_plays(&format!(
                r#"{{"cmd":"settings","third":"engine","third_favors":"{favors}"}}"#
            ));
            let tp = third_party::ThirdParty {
                policy: Policy::Engine,
                favors: color,
                ..third_party::ThirdParty::default()
            };
            let history = crate::game::Game::new(v, pos.clone()).history();
            let expected = crate::engine::choose_third_party_ply(v, &pos, &history, &tp).map(text);
            assert!(expected.is_some());
            assert_eq!(ply, expected, "helping {favors}");
            assert_eq!(s.state()["third_party"]["favors"], &favors[..1]);
        }
        // A person: nothing is played for Nature; its pass is one of the legal moves, and the
        // search treats Nature's plies as a referee's.
        let (mut s, ply) = nature_plays(r#"{"cmd":"settings","third":"human"}"#);
        assert_eq!(ply, None);
        assert_eq!(s.engine.options.third_party.policy, Policy::External);
        assert!(s.state()["legal"]
            .as_array()
            .unwrap()
            .contains(&json!("0000")));
        s.handle(r#"{"cmd":"move","text":"0000"}"#);
        assert_eq!(s.state()["turn"], "b");
        assert_eq!(s.state()["moves"][0]["side"], "n");
    }

    #[test]
    fn bad_nature_settings_change_nothing() {
        let mut s = session();
        s.handle(r#"{"cmd":"new","variant":"chaos"}"#);
        let before = s.engine.options.third_party;
        for bad in [
            r#"{"cmd":"settings","third_seed":-1}"#,
            r#"{"cmd":"settings","third_seed":1.5}"#,
            r#"{"cmd":"settings","third_seed":"7"}"#,
            r#"{"cmd":"settings","third_seed":99999999999}"#,
            r#"{"cmd":"settings","third_seed":5,"third_favors":"grey"}"#,
            r#"{"cmd":"settings","third_favors":3}"#,
            r#"{"cmd":"settings","third":"nature"}"#,
        ] {
            let out = s.handle(bad);
            assert_eq!(out[0]["type"], "error", "{bad}");
            assert_eq!(s.engine.options.third_party, before, "{bad}");
            assert_eq!(s.players[2], Player::Random, "{bad}");
        }
    }

    #[test]
    fn the_state_carries_the_turn_notes() {
        let mut s = session();
        s.handle(r#"{"cmd":"new","variant":"chaos"}"#);
        let notes = s.state()["turn_notes"].to_string();
        assert!(notes.contains("counter 0 of 5"), "{notes}");
        s.handle(r#"{"cmd":"new","variant":"chess"}"#);
        assert_eq!(s.state()["turn_notes"], json!([]));
    }

    #[test]
    fn a_fallen_flag_ends_the_game() {
        let mut s = session();
        s.handle(r#"{"cmd":"settings","clock_ms":1,"increment_ms":0}"#);
        std::thread::sleep(Duration::from_millis(5));
        let out = s.tick();
        assert_eq!(out[0]["result"]["reason"], "White lost on time");
        assert_eq!(out[0]["result"]["result"], "0-1");
        assert!(out[0]["legal"].as_array().unwrap().is_empty());
    }
}
