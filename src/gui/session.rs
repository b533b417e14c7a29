//! One page's game: an adapter over the engine facade, as UCI and CECP are, that speaks JSON
//! over a WebSocket. It holds who plays each side (a person, the engine, or for a third party
//! also the seeded random choice of `third_party`), the clocks and the engine's settings; it
//! runs the engine's searches through the shared lifecycle (`engine::lifecycle`) and plays their
//! moves, and accepts a person's move only when its text is one of the legal moves it sent. Any
//! refused command leaves the game as it was.

use super::clock::Clocks;
use super::tree::Tree;
use super::{record, view};
use crate::core::{Color, Move};
use crate::engine::lifecycle::{Finished, SearchId, Searches};
use crate::engine::Engine;
use crate::game::Game;
use crate::notation::Dialect;
use crate::search::{Clock, Info, Limits};
use crate::third_party::Policy;
use crate::variants::{self, EndReason, Outcome};
use serde_json::{json, Value};
use std::sync::mpsc::Sender;
use std::time::Duration;

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
/// Most lines analysis mode shows.
const MAX_LINES: u64 = 5;
/// The search of each position when the whole game is analysed.
const SCAN_MOVETIME: Duration = Duration::from_millis(150);
const SCAN_DEPTH: u32 = 12;

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// To play a move at this node of the tree.
    Play(usize),
    /// Analysis mode's search of this node, until told to stop.
    Analyse(usize),
    /// A short search of this node while the whole game is analysed.
    Scan(usize),
}

/// The analysis of the whole game: the nodes still to search, and the node to show after.
struct Scan {
    queue: Vec<usize>,
    total: usize,
    back: usize,
}

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
    Info { id: SearchId, info: Info },
    /// Search `id` ended; its result waits in the session's `Searches`.
    Done { id: SearchId },
}

impl From<Finished> for Event {
    fn from(Finished(id): Finished) -> Event {
        Event::Done { id }
    }
}

/// The search settings of a `settings` command, checked; `None` where it says nothing.
struct SearchSettings {
    movetime: Option<u64>,
    /// `Some(None)`: no depth limit.
    depth: Option<Option<u64>>,
    threads: Option<u64>,
    hash: Option<u64>,
    /// `Some(None)`: no clock.
    clock: Option<Option<(Duration, Duration)>>,
}

impl SearchSettings {
    fn parse(cmd: &Value) -> Result<SearchSettings, String> {
        let movetime = number(cmd, "movetime_ms", MAX_MOVETIME_MS)?;
        let depth = number(cmd, "depth", MAX_DEPTH as u64)?;
        let threads = number(cmd, "threads", MAX_THREADS as u64)?;
        let hash = number(cmd, "hash_mb", MAX_HASH_MB as u64)?;
        let base = number(cmd, "clock_ms", MAX_CLOCK_MS)?;
        let inc = number(cmd, "increment_ms", MAX_MOVETIME_MS)?;
        let control = base.filter(|&b| b > 0).map(|b| {
            (
                Duration::from_millis(b),
                Duration::from_millis(inc.unwrap_or(0)),
            )
        });
        Ok(SearchSettings {
            movetime,
            depth: cmd.get("depth").map(|_| depth),
            threads,
            hash,
            clock: cmd.get("clock_ms").map(|_| control),
        })
    }
}

/// The number `cmd` gives `key`, from 0 to `max`; `None` when absent or null.
fn number(cmd: &Value, key: &str, max: u64) -> Result<Option<u64>, String> {
    match cmd.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|&n| n <= max)
            .map(Some)
            .ok_or_else(|| format!("{key} must be a number from 0 to {max}")),
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
    /// The running search, with what it is for.
    searches: Searches<Purpose>,
    /// The moves of the game and its variations; the engine's game is the line to `cursor`.
    tree: Tree,
    /// The node shown.
    cursor: usize,
    /// Analysis mode and its number of lines: the engine searches the position shown until
    /// told to stop, plays nothing, and either side may be moved by hand.
    analysis: Option<usize>,
    /// The node whose analysis ended on its own (a third party's ply needs no search).
    analysed: Option<usize>,
    /// The analysis of the whole game, while it runs.
    scan: Option<Scan>,
    /// The engine plays the side to move once, whoever plays it.
    move_now: bool,
    events: Sender<Event>,
}

/// An answer to a refused command.
fn error(message: impl Into<String>) -> Value {
    json!({ "type": "error", "status": 400, "message": message.into() })
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
            searches: Searches::new(events.clone()),
            tree: Tree::new(
                crate::variants::by_name("chess")
                    .expect("chess is registered")
                    .start_position(),
            ),
            cursor: 0,
            analysis: None,
            analysed: None,
            scan: None,
            move_now: false,
            events,
        };
        s.reset_tree();
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
        let name = cmd.get("cmd").and_then(Value::as_str);
        let mut out = Vec::new();
        let variant = self.engine.variant().name();
        // Any command but a look at the state ends the analysis of the whole game.
        if name != Some("state") && self.scan.is_some() {
            self.end_scan();
        }
        match self.dispatch(name, &cmd) {
            Ok(()) => {
                if name == Some("new") || self.engine.variant().name() != variant {
                    out.push(view::variant_json(self.engine.variant()));
                }
                self.advance();
                out.push(self.state());
                out.push(json!({ "type": "done", "cmd": name }));
            }
            Err(e) => {
                out.push(error(e));
                out.push(self.state());
            }
        }
        out
    }

    /// Runs the command `name`; an error leaves the game as it was.
    fn dispatch(&mut self, name: Option<&str>, cmd: &Value) -> Result<(), String> {
        let arg = |k: &str| cmd.get(k).and_then(Value::as_str).unwrap_or("");
        match name {
            Some("new") => self.new_game(arg("variant")),
            Some("move") => self.human_move(arg("text")),
            Some("undo") => self.undo(),
            Some("fen") => self.set_fen(arg("fen")),
            Some("settings") => self.settings(cmd),
            Some("go") => self.go(),
            Some("stop") => self.stop(),
            Some("pause") => self.pause(),
            Some("goto") => self.goto_command(cmd),
            Some("pgn") => self.load_pgn(cmd.get("pgn").and_then(Value::as_str).unwrap_or("")),
            Some("analysis") => self.set_analysis(cmd),
            Some("analyse_game") => self.analyse_game(),
            Some("state") => Ok(()),
            _ => Err("unknown command".to_string()),
        }
    }

    /// The engine moves now: for the side to move if a person plays it (once), and from now on
    /// where it plays.
    fn go(&mut self) -> Result<(), String> {
        self.paused = false;
        // Where the engine would not play by itself (a person's turn, or a position before the
        // end of its line) it plays once.
        if !self.searches.active() && (self.player_to_move() != Player::Engine || !self.live()) {
            self.move_now = true;
        }
        Ok(())
    }

    /// The running search stops and its move is played.
    fn stop(&mut self) -> Result<(), String> {
        self.searches.stop(&self.engine);
        Ok(())
    }

    /// The engine waits, dropping a running search.
    fn pause(&mut self) -> Result<(), String> {
        self.paused = true;
        self.abandon_search();
        Ok(())
    }

    /// Handles what the search thread sent; returns the messages to send.
    pub fn on_event(&mut self, event: Event) -> Vec<Value> {
        match event {
            Event::Info { id, info } if self.searches.is_current(id) => {
                match self.searches.purpose() {
                    Some(Purpose::Scan(_)) => Vec::new(),
                    Some(Purpose::Analyse(node)) => {
                        let mut line = self.info_json(&info);
                        line["analysis"] = json!(true);
                        line["node"] = json!(node);
                        if info.multipv <= 1 && self.tree.contains(node) {
                            self.tree.node_mut(node).eval = Some(line["score"].clone());
                        }
                        vec![line]
                    }
                    _ => vec![self.info_json(&info)],
                }
            }
            Event::Done { id } if self.searches.is_current(id) => {
                let mut out = Vec::new();
                match self.searches.collect() {
                    Some((Purpose::Play(node), result)) => {
                        // Played only if the game is still the one searched.
                        let unchanged = self.cursor == node;
                        if let (true, Some(m)) = (unchanged && !self.over(), result.best) {
                            self.play(m);
                        }
                    }
                    Some((Purpose::Analyse(node), result)) => {
                        // It ended on its own: a third party's ply, or nothing to search.
                        self.analysed = Some(node);
                        if let Some(m) = result.best {
                            out.push(json!({
                                "type": "info",
                                "analysis": true,
                                "node": node,
                                "multipv": 1,
                                "depth": result.depth,
                                "seldepth": result.depth,
                                "score": null,
                                "nodes": result.nodes,
                                "nps": 0,
                                "time_ms": 0,
                                "pv": [record::ply_text(self.engine.variant(), self.engine.game().position(), m)],
                                "pv_uci": [record::coordinate_text(self.engine.variant(), m)],
                            }));
                        }
                    }
                    Some((Purpose::Scan(node), result)) => {
                        if self.tree.contains(node) && result.depth > 0 {
                            let pos = self.engine.game().position();
                            let score =
                                record::score_json(self.engine.variant(), pos, result.score);
                            self.tree.node_mut(node).eval = Some(score);
                        }
                        self.next_scan();
                    }
                    None => {}
                }
                self.advance();
                out.push(self.state());
                out
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

    fn turn(&self) -> Color {
        self.engine.game().position().turn()
    }

    fn player_to_move(&self) -> Player {
        self.players[self.turn().index()]
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
        self.reset_tree();
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
        self.reset_tree();
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
        if self.player_to_move() != Player::Human && self.analysis.is_none() {
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
            self.cursor = self.tree.remove(self.cursor);
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
        let players = self.players_from(cmd)?;
        let search = SearchSettings::parse(cmd)?;
        self.set_third_party(cmd)?;
        self.players = players;
        self.sync_policy();
        self.apply(search);
        // A search for a side the engine no longer plays is dropped.
        if self.searches.active() && self.player_to_move() != Player::Engine && !self.move_now {
            self.abandon_search();
        }
        Ok(())
    }

    /// Who plays each side after `cmd`: a person or the engine, and for the third party also
    /// the seeded choice.
    fn players_from(&self, cmd: &Value) -> Result<[Player; 3], String> {
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
        Ok(players)
    }

    /// The third party's seed and the player its engine helps, by the protocols' option names;
    /// the old values come back when one is refused.
    fn set_third_party(&mut self, cmd: &Value) -> Result<(), String> {
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
        Ok(())
    }

    /// Applies checked search settings; a new clock starts the game's clocks again.
    fn apply(&mut self, s: SearchSettings) {
        if let Some(t) = s.movetime {
            self.movetime = Duration::from_millis(t.max(1));
        }
        if let Some(depth) = s.depth {
            self.depth = depth.filter(|&d| d > 0).map(|d| d as u32);
        }
        if let Some(t) = s.threads {
            self.engine.set_threads(t as usize);
        }
        if let Some(h) = s.hash {
            let h = (h as usize).max(1);
            if self.engine.searching() {
                // The running search keeps its table; the next one gets the new size.
                self.engine.options.hash_mb = h;
            } else {
                // Made now, so the games' shared cap counts the memory really held; a size the
                // machine cannot give leaves the table as it was (the state says its size).
                let _ = self.engine.set_hash(h);
            }
        }
        if let Some(control) = s.clock {
            self.clocks = Clocks::new(control);
            self.forfeit = None;
        }
    }

    fn abandon_search(&mut self) {
        self.searches.abandon(&mut self.engine);
    }

    /// Plays a legal move and passes the clock on; from an earlier position it starts a
    /// variation (or follows the line, if it is the move played there before).
    fn play(&mut self, m: Move) {
        let mover = self.engine.game().position().turn();
        let v = self.engine.variant();
        self.cursor = self
            .tree
            .add(v, self.engine.game().position(), self.cursor, m);
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
            if !self.third_party_plays_now() {
                return self.start_turn();
            }
            let Some(m) = self.engine.third_party_ply() else {
                return;
            };
            self.play(m);
        }
    }

    /// Whether a third party is to move and its ply is played now: by its policy unless a person
    /// plays it or the engine waits, and on `Engine move` whoever plays it (a person's turn:
    /// the seeded choice).
    fn third_party_plays_now(&self) -> bool {
        let by_policy = self.player_to_move() != Player::Human && !self.paused && self.live();
        self.turn() == Color::Neutral && (by_policy || self.move_now)
    }

    /// Whether the game goes on by itself here: the position shown ends its line, and neither
    /// analysis mode nor the analysis of the whole game holds the engine.
    fn live(&self) -> bool {
        self.tree.node(self.cursor).children.is_empty()
            && self.analysis.is_none()
            && self.scan.is_none()
    }

    /// Runs the clock of the player to move, and starts the engine if it is to move.
    fn start_turn(&mut self) {
        if self.scan.is_some() {
            return;
        }
        if self.clocks.running.is_none() && !self.paused && self.live() {
            self.clocks.start(self.turn());
        }
        if let Some(lines) = self.analysis {
            let done = self.analysed == Some(self.cursor);
            if !self.searches.active() && !done && !self.paused {
                self.start_analysis(lines);
            }
            return;
        }
        let by_player = self.player_to_move() == Player::Engine && !self.paused && self.live();
        if (by_player || self.move_now) && !self.searches.active() {
            self.start_search();
        }
    }

    /// Starts analysis mode's search of the position shown: `lines` lines, until stopped.
    fn start_analysis(&mut self, lines: usize) {
        let limits = Limits {
            infinite: true,
            multipv: lines,
            ..Limits::default()
        };
        self.start(limits, Purpose::Analyse(self.cursor));
    }

    /// Starts a search for `purpose`; its lines go to the page as they come.
    fn start(&mut self, limits: Limits, purpose: Purpose) {
        let events = self.events.clone();
        let on_info = move |id, info: &Info| {
            let info = info.clone();
            let _ = events.send(Event::Info { id, info });
        };
        self.searches
            .start(&mut self.engine, limits, false, purpose, on_info);
    }

    /// A new game's tree: the engine's start position, with no moves yet.
    fn reset_tree(&mut self) {
        self.tree = Tree::new(self.engine.game().start().clone());
        self.cursor = 0;
        self.analysed = None;
        self.scan = None;
    }

    /// Shows node `id`: the engine's game becomes the line to it. A running search is dropped.
    fn goto(&mut self, id: usize) -> Result<(), String> {
        if !self.tree.contains(id) {
            return Err(format!("no move {id} in this game"));
        }
        if id == self.cursor {
            return Ok(());
        }
        self.abandon_search();
        let mut game = Game::new(self.engine.variant(), self.tree.start().clone());
        for m in self.tree.moves(id) {
            game.play(m);
        }
        *self.engine.game_mut() = game;
        self.cursor = id;
        self.move_now = false;
        self.clocks.stop(false);
        Ok(())
    }

    fn goto_command(&mut self, cmd: &Value) -> Result<(), String> {
        let id = cmd
            .get("node")
            .and_then(Value::as_u64)
            .ok_or("goto needs a node number")?;
        self.goto(usize::try_from(id).map_err(|_| "no such move")?)
    }

    /// Loads a pasted PGN: its game, start position and moves with their variations, shown at
    /// the end of the main line. A PGN that cannot be read changes nothing.
    fn load_pgn(&mut self, text: &str) -> Result<(), String> {
        if text.len() > record::MAX_PGN {
            return Err(format!("PGN longer than {} bytes", record::MAX_PGN));
        }
        let pasted = record::read_pgn(text).map_err(|e| format!("PGN refused: {e}"))?;
        self.abandon_search();
        if pasted.variant.name() != self.engine.variant().name() {
            self.engine
                .set_variant(pasted.variant.name())
                .map_err(|e| e.to_string())?;
        }
        *self.engine.game_mut() = Game::new(pasted.variant, pasted.tree.start().clone());
        self.tree = pasted.tree;
        self.cursor = 0;
        self.analysed = None;
        self.scan = None;
        self.restart_clocks();
        self.goto(pasted.end)
    }

    /// Analysis mode on (`"on": true`, with `"lines"` from 1 to 5) or off.
    fn set_analysis(&mut self, cmd: &Value) -> Result<(), String> {
        let on = cmd
            .get("on")
            .and_then(Value::as_bool)
            .ok_or("analysis needs \"on\": true or false")?;
        let lines = number(cmd, "lines", MAX_LINES)?.unwrap_or(1).max(1) as usize;
        self.abandon_search();
        self.analysis = on.then_some(lines);
        self.analysed = None;
        self.move_now = false;
        self.paused = false;
        Ok(())
    }

    /// Analyses the whole main line: a short search of each position, whose scores the page
    /// draws as a graph; the position shown then comes back.
    fn analyse_game(&mut self) -> Result<(), String> {
        self.abandon_search();
        let mut queue = self.tree.main_line();
        queue.reverse();
        self.scan = Some(Scan {
            total: queue.len(),
            queue,
            back: self.cursor,
        });
        self.next_scan();
        Ok(())
    }

    /// Searches the next position of the game's analysis, or ends it.
    fn next_scan(&mut self) {
        let Some(next) = self.scan.as_mut().and_then(|s| s.queue.pop()) else {
            self.end_scan();
            return;
        };
        if self.goto(next).is_err() {
            return self.next_scan();
        }
        let limits = Limits {
            movetime: Some(SCAN_MOVETIME),
            depth: Some(SCAN_DEPTH),
            ..Limits::default()
        };
        self.start(limits, Purpose::Scan(next));
    }

    /// Ends the analysis of the whole game, back at the position shown before.
    fn end_scan(&mut self) {
        if let Some(scan) = self.scan.take() {
            self.abandon_search();
            let _ = self.goto(scan.back);
        }
    }

    /// Starts the engine on the position, for the number of moves played so far; its lines go
    /// to the page as they come.
    fn start_search(&mut self) {
        let limits = self.limits();
        self.start(limits, Purpose::Play(self.cursor));
    }

    /// The search's limits: the depth if set, and the clock of the side to move, or the time
    /// per move when no clock runs (or for a third party).
    fn limits(&self) -> Limits {
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
        limits
    }

    /// A search line for the page.
    fn info_json(&self, info: &Info) -> Value {
        record::info_json(self.engine.variant(), self.engine.game().position(), info)
    }

    /// The game in PGN, its players named by who plays them.
    fn pgn(&self, outcome: Option<&Outcome>) -> String {
        let name = |p: Player| match p {
            Player::Engine => "Menagerie",
            _ => "Human",
        };
        let players = [name(self.players[0]), name(self.players[1])];
        record::pgn(self.engine.variant(), &self.tree, players, outcome)
    }

    /// The result of the main line, if it is over: the game's own when it is shown.
    fn main_line_outcome(&self) -> Option<Outcome> {
        let line = self.tree.main_line();
        if line.last() == Some(&self.cursor) {
            return self.outcome();
        }
        let mut game = Game::new(self.engine.variant(), self.tree.start().clone());
        for m in self.tree.moves(*line.last().unwrap_or(&0)) {
            game.play(m);
        }
        game.outcome()
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
            .map(|o| json!({ "result": o.pgn(), "reason": record::describe(o) }));
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
            "moves": record::move_list(game, &self.tree.path(self.cursor)),
            "tree": self.tree.json(),
            "cursor": self.cursor,
            "analysis": self.analysis,
            "scan": self.scan.as_ref().map(|s| json!({ "done": s.total - s.queue.len(), "total": s.total })),
            "start_fullmove": game.start().fullmove(),
            "result": result,
            "pgn": self.pgn(self.main_line_outcome().as_ref()),
            "thinking": self.searches.active(),
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
            "clock": self.clocks.json(),
        })
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
        assert_eq!(s.state()["moves"][0]["uci"], "e2e4");
        s.handle(r#"{"cmd":"undo"}"#);
        assert_eq!(fen(&s), before);
    }

    fn moves(s: &Session) -> Vec<String> {
        s.state()["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["uci"].as_str().unwrap().to_string())
            .collect()
    }

    /// Stepping back shows the earlier position; a move from there starts a variation, and the
    /// main line is kept.
    #[test]
    fn a_move_from_an_earlier_position_starts_a_variation() {
        let mut s = session();
        for m in ["e2e4", "e7e5", "g1f3"] {
            s.handle(&format!(r#"{{"cmd":"move","text":"{m}"}}"#));
        }
        let tree = s.state()["tree"].clone();
        let e4 = tree[0]["children"][0].as_u64().unwrap();
        let out = s.handle(&format!(r#"{{"cmd":"goto","node":{e4}}}"#));
        assert_eq!(out.last().unwrap()["type"], "done");
        assert_eq!(
            fen(&s),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        s.handle(r#"{"cmd":"move","text":"c7c5"}"#);
        assert_eq!(moves(&s), vec!["e2e4", "c7c5"]);
        let tree = s.state()["tree"].clone();
        assert_eq!(tree[e4 as usize]["children"].as_array().unwrap().len(), 2);
        let pgn = s.state()["pgn"].as_str().unwrap().to_string();
        assert!(pgn.contains("1. e4 e5 ( 1... c5 ) 2. Nf3 *"), "{pgn}");
        for bad in [r#"{"cmd":"goto","node":999}"#, r#"{"cmd":"goto"}"#] {
            assert_eq!(s.handle(bad)[0]["type"], "error");
        }
        assert_eq!(moves(&s), vec!["e2e4", "c7c5"]);
    }

    /// A PGN with SAN, coordinates, comments, NAGs and a variation loads; a bad one is refused
    /// with the move named, and the game stays as it was.
    #[test]
    fn a_pasted_pgn_loads_and_a_bad_one_changes_nothing() {
        let mut s = session();
        let pgn = "[Event \"x\"]\n[Variant \"chess\"]\n\n1. e4 {best} e5 $1 (1... c5 2. Nf3) 2. g1f3 Nc6 *\n";
        let out = s.handle(&json!({"cmd": "pgn", "pgn": pgn}).to_string());
        assert_eq!(out.last().unwrap()["type"], "done", "{out:?}");
        assert_eq!(moves(&s), vec!["e2e4", "e7e5", "g1f3", "b8c6"]);
        let tree = s.state()["tree"].clone();
        assert_eq!(tree.as_array().unwrap().len(), 7);
        let before = s.state();
        let bad = "[Variant \"chess\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bb9 *";
        let out = s.handle(&json!({"cmd": "pgn", "pgn": bad}).to_string());
        let message = out[0]["message"].as_str().unwrap();
        assert!(message.contains("move 3. Bb9"), "{message}");
        assert_eq!(out[0]["status"], 400);
        assert_eq!(s.state()["fen"], before["fen"]);
        assert_eq!(s.state()["tree"], before["tree"]);
        for bad in [
            "[Variant \"nosuch\"]\n\n1. e4 *",
            "[Variant \"chess\"]\n[FEN \"8/8 w\"]\n\n1. e4 *",
            "1. e4 ( e5 *",
            "1. e4 ) *",
            "( 1. e4 ) *",
            "1. e4 {open comment",
        ] {
            let out = s.handle(&json!({"cmd": "pgn", "pgn": bad}).to_string());
            assert_eq!(out[0]["type"], "error", "{bad}");
            assert_eq!(s.state()["tree"], before["tree"], "{bad}");
        }
    }

    /// What Copy PGN writes of a Chaos game with Nature's plies and of an Afterlife game loads
    /// back to the same moves.
    #[test]
    fn the_pgn_written_reads_back_in_every_game() {
        for v in crate::variants::all() {
            let mut s = session();
            s.players[2] = Player::Human;
            s.handle(&json!({"cmd": "new", "variant": v.name()}).to_string());
            for _ in 0..12 {
                let legal = s.state()["legal"].clone();
                let Some(first) = legal.as_array().and_then(|l| l.last()).cloned() else {
                    break;
                };
                s.handle(&json!({"cmd": "move", "text": first}).to_string());
            }
            let played = moves(&s);
            assert!(played.len() >= 6, "{}: {played:?}", v.name());
            let pgn = s.state()["pgn"].as_str().unwrap().to_string();
            let mut t = session();
            let out = t.handle(&json!({"cmd": "pgn", "pgn": pgn}).to_string());
            assert_eq!(out.last().unwrap()["type"], "done", "{}: {out:?}", v.name());
            assert_eq!(t.state()["variant"], v.name());
            assert_eq!(moves(&t), played, "{}", v.name());
        }
    }

    /// Analysis mode: 1 to 5 lines; it searches, plays nothing, and either side may be moved.
    #[test]
    fn analysis_mode_searches_and_lets_either_side_move() {
        let mut s = session();
        s.players = [Player::Human, Player::Engine, Player::Random];
        s.paused = true;
        for bad in [
            r#"{"cmd":"analysis","on":true,"lines":6}"#,
            r#"{"cmd":"analysis","lines":2}"#,
            r#"{"cmd":"analysis","on":"yes"}"#,
        ] {
            let out = s.handle(bad);
            assert_eq!(out[0]["type"], "error", "{bad}");
            assert_eq!(out[1]["analysis"], Value::Null, "{bad}");
        }
        let out = s.handle(r#"{"cmd":"analysis","on":true,"lines":3}"#);
        assert_eq!(out[0]["analysis"], 3);
        assert_eq!(out[0]["thinking"], true);
        assert_eq!(s.searches.purpose(), Some(Purpose::Analyse(0)));
        s.handle(r#"{"cmd":"move","text":"e2e4"}"#);
        let out = s.handle(r#"{"cmd":"move","text":"e7e5"}"#);
        assert_eq!(
            out.last().unwrap()["type"],
            "done",
            "Black moved by hand: {out:?}"
        );
        assert_eq!(s.searches.purpose(), Some(Purpose::Analyse(s.cursor)));
        s.handle(r#"{"cmd":"analysis","on":false}"#);
        assert_eq!(s.state()["analysis"], Value::Null);
        assert_eq!(s.searches.purpose(), None);
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
            .map(|m| m["uci"].as_str().unwrap().to_string());
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
