//! XBoard / CECP v2 with the variant extensions. Every command of protocol version 2 is handled,
//! some as no-ops; anything else gets `Error (unknown command): X`, a bad move gets
//! `Illegal move: X`, and neither changes the game.

use super::session::{self, clip, Adapter};
use super::xboard_variant as xv;
use super::{Event, Output};
use crate::core::{Color, Move, Square};
use crate::engine::lifecycle::Searches;
use crate::engine::Engine;
use crate::game::Game;
use crate::notation::{move_text, parse_move, parse_square, Dialect};
use crate::search::{Clock, Info, Limits, Score};
use crate::third_party::{Policy, MAX_SEED};
use crate::variants::{self, Outcome, Variant};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// XBoard prints mate scores as 100000 + moves.
const XBOARD_MATE: i32 = 100_000;
/// Most cores or MB accepted.
const MAX_CORES: usize = 256;
/// Time per move when the GUI set no time control at all.
const NO_CONTROL_MOVETIME: Duration = Duration::from_secs(5);
/// Moves a clock is assumed to cover when `nps` turns it into a node budget and the control
/// does not say.
const NPS_MOVES_TO_GO: u32 = 30;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    /// Thinking on our own move: the result is played.
    Move,
    /// Analysis: results are only shown.
    Analyze,
    /// Thinking on the opponent's time (`hard`): only the shared table keeps the work.
    Ponder,
}

/// Time control from `level`.
#[derive(Clone, Copy, Debug)]
struct Level {
    moves_per_session: u32,
    base: Duration,
    inc: Duration,
}

/// The CECP adapter.
pub struct Xboard {
    engine: Engine,
    out: Output,
    searches: Searches<Purpose>,
    force: bool,
    engine_side: Color,
    level: Option<Level>,
    st: Option<Duration>,
    sd: Option<u32>,
    my_time: Option<Duration>,
    post: bool,
    analyzing: bool,
    exclude: Vec<Move>,
    pending_pongs: Vec<String>,
    /// The squares of a move being entered by clicks: the lifted piece's, then each leg's end
    /// (see `xboard_variant::lift`).
    clicked: Vec<Square>,
    /// The text XBoard applied for each move of the game, from which its board follows
    /// (`xboard_board`).
    applied: Vec<String>,
    /// A third party's ply the engine played on its own (XBoard has no third party), which the
    /// next `usermove` may still replace with the ply it sends.
    own_third_party: bool,
    game_over: bool,
    last_info: Arc<Mutex<Option<Info>>>,
    hint: Option<Move>,
    /// Think on the opponent's time (`hard`).
    ponder: bool,
    /// Node rate that turns time into a node budget (`nps`).
    nps: Option<u64>,
}

/// What a `usermove` did about a third party's turn before its own move.
enum Settled {
    /// The text was the third party's ply, and it was played.
    Taken,
    /// The engine played the third party's ply (its text) before the user's move.
    PlayedFirst(String),
    /// Nothing.
    Nothing,
}

fn thinking_line(variant: &dyn Variant, info: &Info) -> String {
    let score = match Score::from_internal(info.score) {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => XBOARD_MATE + n,
        Score::Mate(n) => -XBOARD_MATE + n,
    };
    let pv: Vec<String> = info
        .pv
        .iter()
        .map(|&m| move_text(variant, Dialect::Cecp, m))
        .collect();
    format!(
        "{} {} {} {} {}",
        info.depth,
        score,
        info.time.as_millis() / 10,
        info.nodes,
        pv.join(" ")
    )
}

/// The `RESULT {comment}` claim for an outcome.
fn claim(outcome: Outcome) -> String {
    format!("{} {{{}}}", outcome.pgn(), outcome.describe())
}

/// Parses `level`'s base time: minutes, or `minutes:seconds`.
fn parse_base(text: &str) -> Option<Duration> {
    let text: String = text
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ':' || *c == '.')
        .collect();
    match text.split_once(':') {
        Some((m, s)) => Some(Duration::from_secs(
            m.parse::<u64>().ok()? * 60 + s.parse::<u64>().ok()?,
        )),
        None => text
            .parse::<f64>()
            .ok()
            .filter(|m| m.is_finite() && *m >= 0.0 && *m < 1e6)
            .map(|m| Duration::from_secs_f64(m * 60.0)),
    }
}

fn parse_seconds(text: &str) -> Option<Duration> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e7)
        .map(Duration::from_secs_f64)
}

fn parse_centis(text: &str) -> Option<Duration> {
    text.parse::<i64>()
        .ok()
        .map(|cs| Duration::from_millis(cs.max(0) as u64 * 10))
}

/// What handles a command: the adapter and the text after the command word.
type Handler = fn(&mut Xboard, &str);

/// Every command of CECP v2 (and `d`) with the function that handles it. `quit` ends the loop;
/// a line that names none of these is a move or an unknown command (`Xboard::move_or_unknown`).
const COMMANDS: &[(&str, Handler)] = &[
    ("", Xboard::ignore),
    ("xboard", Xboard::ignore),
    ("accepted", Xboard::ignore),
    ("rejected", Xboard::ignore),
    ("random", Xboard::ignore),
    ("computer", Xboard::ignore),
    ("name", Xboard::ignore),
    ("rating", Xboard::ignore),
    ("ics", Xboard::ignore),
    ("setscore", Xboard::ignore),
    ("draw", Xboard::ignore),
    ("pause", Xboard::ignore),
    ("resume", Xboard::ignore),
    ("hard", Xboard::hard),
    ("easy", Xboard::easy),
    ("protover", |x, _| x.features()),
    ("new", Xboard::new_game),
    ("variant", Xboard::variant),
    ("setboard", Xboard::setboard),
    ("force", Xboard::force),
    ("go", Xboard::go),
    ("playother", Xboard::playother),
    ("white", Xboard::white),
    ("black", Xboard::black),
    ("level", Xboard::level),
    ("st", Xboard::st),
    ("sd", Xboard::sd),
    ("nps", Xboard::nps),
    ("time", Xboard::time),
    ("otim", Xboard::otim),
    ("usermove", Xboard::usermove),
    ("?", Xboard::move_now),
    ("ping", Xboard::ping),
    ("result", Xboard::result),
    ("undo", |x, _| x.take_back(1)),
    ("remove", |x, _| x.take_back(2)),
    ("hint", Xboard::hint),
    ("bk", Xboard::bk),
    ("post", |x, _| x.post = true),
    ("nopost", |x, _| x.post = false),
    ("analyze", Xboard::analyze),
    ("exit", Xboard::exit),
    (".", |x, _| x.stat01()),
    ("exclude", |x, arg| x.exclude_include(true, arg)),
    ("include", |x, arg| x.exclude_include(false, arg)),
    ("memory", Xboard::memory),
    ("cores", Xboard::cores),
    ("option", Xboard::option),
    ("d", Xboard::show_position),
    ("lift", Xboard::lift),
    ("put", Xboard::put),
    ("hover", Xboard::hover),
];

impl Xboard {
    /// A new adapter; `xboard` was the first command.
    pub fn new(out: Output, tx: Sender<Event>) -> Xboard {
        Xboard {
            engine: Engine::new(),
            out,
            searches: Searches::new(tx),
            force: false,
            engine_side: Color::Black,
            level: None,
            st: None,
            sd: None,
            my_time: None,
            post: false,
            analyzing: false,
            exclude: Vec::new(),
            pending_pongs: Vec::new(),
            clicked: Vec::new(),
            applied: Vec::new(),
            own_third_party: false,
            game_over: false,
            last_info: Arc::new(Mutex::new(None)),
            hint: None,
            ponder: false,
            nps: None,
        }
    }

    /// Handles events until `quit` or the end of input.
    pub fn run(mut self, rx: Receiver<Event>) {
        session::serve(&mut self, rx);
    }

    fn say(&self, text: &str) {
        self.out.line(text);
    }

    /// `protover`: the features, variants and options the engine offers.
    fn features(&self) {
        let names: Vec<&str> = variants::xboard_names().collect();
        self.say("feature done=0");
        self.say(&format!(
            "feature myname=\"Menagerie {}\"",
            env!("CARGO_PKG_VERSION")
        ));
        self.say(&format!("feature variants=\"{}\"", names.join(",")));
        self.say("feature setboard=1 usermove=1 ping=1 playother=1 san=0 time=1 draw=1 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 memory=1 smp=1 exclude=1 highlight=1 debug=1 name=0");
        self.say(&format!(
            "feature option=\"Move Overhead -spin {} 0 {}\"",
            self.engine.options.move_overhead.as_millis(),
            super::uci::MAX_OVERHEAD_MS
        ));
        self.say(&format!(
            "feature option=\"MultiPV -spin {} 1 {}\"",
            self.engine.options.multipv,
            super::uci::MAX_MULTIPV
        ));
        let tp = self.engine.options.third_party;
        let choices: Vec<String> = Policy::NAMES
            .iter()
            .map(|&n| {
                if n == tp.policy.name() {
                    format!("*{n}")
                } else {
                    n.to_string()
                }
            })
            .collect();
        self.say(&format!(
            "feature option=\"Nature -combo {}\"",
            choices.join(" /// ")
        ));
        let favors = |c: Color| {
            if c == tp.favors {
                format!("*{}", c.name())
            } else {
                c.name().to_string()
            }
        };
        self.say(&format!(
            "feature option=\"Nature Favors -combo {} /// {}\"",
            favors(Color::White),
            favors(Color::Black)
        ));
        self.say(&format!(
            "feature option=\"Nature Seed -spin {} 0 {MAX_SEED}\"",
            tp.seed
        ));
        self.say("feature done=1");
    }

    /// Handles one line; false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, arg) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, a)| (c, a.trim()));
        if cmd == "quit" {
            return false;
        }
        match COMMANDS.iter().find(|(name, _)| *name == cmd) {
            Some((_, run)) => run(self, arg),
            None => self.move_or_unknown(cmd, arg, line),
        }
        true
    }

    /// A line that names no command: a move without `usermove`, or else an unknown command.
    fn move_or_unknown(&mut self, cmd: &str, arg: &str, line: &str) {
        if parse_move(
            self.engine.variant(),
            self.engine.game().position(),
            Dialect::Cecp,
            cmd,
        )
        .is_ok()
            && arg.is_empty()
        {
            self.usermove(cmd);
        } else {
            self.say(&format!("Error (unknown command): {}", clip(line)));
        }
    }

    /// Commands that change nothing here.
    fn ignore(&mut self, _arg: &str) {}

    /// `hard`: think on the opponent's time.
    fn hard(&mut self, _arg: &str) {
        self.ponder = true;
    }

    /// `easy`: no more thinking on the opponent's time; a ponder search running stops.
    fn easy(&mut self, _arg: &str) {
        self.ponder = false;
        if self.searches.purpose() == Some(Purpose::Ponder) {
            self.abandon_search();
        }
    }

    /// `new`: a game of chess from its start, the engine playing Black, no depth or time per
    /// move.
    fn new_game(&mut self, _arg: &str) {
        self.abandon_search();
        let _ = self.engine.set_variant("chess");
        self.reset_game_state();
        self.engine_side = Color::Black;
        self.sd = None;
        self.st = None;
    }

    /// `variant NAME`: a game of NAME from its start, with XBoard's definition of a game it does
    /// not know.
    fn variant(&mut self, arg: &str) {
        // Checked first: a refused name leaves a running search alone.
        match variants::by_name(arg) {
            Ok(_) => {
                self.abandon_search();
                let _ = self.engine.set_variant(arg);
                self.reset_game_state();
                let rules = self.engine.variant().rules();
                if rules.spec.xboard_builtin.is_none() {
                    for l in xv::definition(rules) {
                        self.say(&l);
                    }
                }
            }
            Err(e) => self.say(&format!("Error (unsupported variant): {arg} ({e})")),
        }
    }

    /// `setboard FEN`: the game starts again from FEN.
    fn setboard(&mut self, arg: &str) {
        // Set first: a refused FEN leaves a running search (analysis) alone.
        let fen = xv::fen_from_cecp(self.engine.variant().rules(), arg);
        match self.engine.set_position(Some(&fen), &[], Dialect::Cecp) {
            Ok(()) => {
                self.abandon_search();
                self.game_over = false;
                self.applied.clear();
                self.own_third_party = false;
                self.forget_position();
                self.restart_analysis();
            }
            Err(e) => self.say(&format!("tellusererror Illegal position: {e}")),
        }
    }

    /// `force`: the engine plays neither side.
    fn force(&mut self, _arg: &str) {
        self.abandon_search();
        self.force = true;
    }

    /// `go`: the engine plays the side to move, and thinks.
    fn go(&mut self, _arg: &str) {
        self.force = false;
        // On a third party's turn the engine plays it, then the player after it.
        if !self.analyzing {
            self.play_third_party();
        }
        self.engine_side = self.turn();
        self.think_if_our_turn();
    }

    /// `playother`: the engine plays the side not to move.
    fn playother(&mut self, _arg: &str) {
        self.force = false;
        self.engine_side = self.turn().opponent();
    }

    /// `white`: the engine plays Black (protocol version 1's meaning).
    fn white(&mut self, _arg: &str) {
        self.engine_side = Color::Black;
    }

    /// `black`: the engine plays White.
    fn black(&mut self, _arg: &str) {
        self.engine_side = Color::White;
    }

    /// `st SECONDS`: a fixed time per move.
    fn st(&mut self, arg: &str) {
        match parse_seconds(arg) {
            Some(d) => self.st = Some(d),
            None => self.say(&format!("Error (bad number): st {arg}")),
        }
    }

    /// `sd DEPTH`: a depth limit.
    fn sd(&mut self, arg: &str) {
        match arg.parse::<u32>() {
            Ok(d) if d > 0 => self.sd = Some(d),
            _ => self.say(&format!("Error (bad number): sd {arg}")),
        }
    }

    /// `nps RATE`: time counted in nodes (0: in time again).
    fn nps(&mut self, arg: &str) {
        match arg.parse::<u64>() {
            Ok(0) => self.nps = None,
            Ok(n) => self.nps = Some(n),
            Err(_) => self.say(&format!("Error (bad number): nps {arg}")),
        }
    }

    /// `time CENTISECONDS`: the engine's clock.
    fn time(&mut self, arg: &str) {
        match parse_centis(arg) {
            Some(d) => self.my_time = Some(d),
            None => self.say(&format!("Error (bad number): time {arg}")),
        }
    }

    /// `otim CENTISECONDS`: the opponent's clock, checked and not used.
    fn otim(&mut self, arg: &str) {
        if parse_centis(arg).is_none() {
            self.say(&format!("Error (bad number): otim {arg}"));
        }
    }

    /// `?`: play the move now.
    fn move_now(&mut self, _arg: &str) {
        if self.searches.purpose() == Some(Purpose::Move) {
            self.engine.stop();
        }
    }

    /// `ping N`: `pong N`, after the move being thought about.
    fn ping(&mut self, arg: &str) {
        let pong = format!("pong {arg}");
        if self.searches.purpose() == Some(Purpose::Move) {
            self.pending_pongs.push(pong);
        } else {
            self.say(&pong);
        }
    }

    /// `result`: the game is over; the engine stops and plays neither side.
    fn result(&mut self, _arg: &str) {
        self.abandon_search();
        self.game_over = true;
        self.force = true;
    }

    /// `hint`: the move the last search expected, if it is legal now.
    fn hint(&mut self, _arg: &str) {
        if let Some(m) = self.hint.filter(|_| {
            self.engine
                .game()
                .legal_moves()
                .contains(self.hint.unwrap_or(Move::NULL))
        }) {
            self.say(&format!(
                "Hint: {}",
                move_text(self.engine.variant(), Dialect::Cecp, m)
            ));
        }
    }

    /// `bk`: the book's moves, of which there are none.
    fn bk(&mut self, _arg: &str) {
        self.say(" Menagerie has no opening book.");
        self.say("");
    }

    /// `analyze`: search the position until told otherwise, showing each line.
    fn analyze(&mut self, _arg: &str) {
        self.abandon_search();
        self.analyzing = true;
        self.restart_analysis();
    }

    /// `exit`: leave analysis.
    fn exit(&mut self, _arg: &str) {
        if self.analyzing {
            self.abandon_search();
            self.analyzing = false;
        }
    }

    /// `cores N`: search threads.
    fn cores(&mut self, arg: &str) {
        match arg.parse::<usize>() {
            Ok(n) if (1..=MAX_CORES).contains(&n) => self.engine.set_threads(n),
            _ => self.say(&format!("Error (bad number): cores {arg}")),
        }
    }

    /// `d` (not CECP): the position for people and test harnesses, as a comment line that
    /// XBoard ignores (`debug=1`).
    fn show_position(&mut self, _arg: &str) {
        let v = self.engine.variant();
        let fen = v.fen(self.engine.game().position());
        self.say(&format!("# variant {} fen {fen}", v.name()));
    }

    fn turn(&self) -> Color {
        self.engine.game().position().turn()
    }

    fn reset_game_state(&mut self) {
        self.applied.clear();
        self.own_third_party = false;
        self.force = false;
        self.game_over = false;
        self.forget_position();
        self.hint = None;
        self.analyzing = false;
    }

    /// Forgets what belonged to the position just left: the exclude list (which CECP resets on
    /// every new position), a move half entered by clicks, and the last analysis line, whose
    /// moves may not even fit the next board.
    fn forget_position(&mut self) {
        self.exclude.clear();
        self.clicked.clear();
        *self.last_info.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// `level MPS BASE INC`: a clock of MPS moves (0: the whole game) in BASE, plus INC a move.
    fn level(&mut self, arg: &str) {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        let parsed = (|| {
            let mps = parts.first()?.parse::<u32>().ok()?;
            let base = parse_base(parts.get(1)?)?;
            let inc = parse_seconds(parts.get(2)?)?;
            Some(Level {
                moves_per_session: mps,
                base,
                inc,
            })
        })();
        match parsed {
            Some(l) => {
                self.level = Some(l);
                self.st = None;
            }
            None => self.say(&format!("Error (bad time control): level {arg}")),
        }
    }

    /// `memory MB`: the transposition table's size. A size the machine cannot give is refused
    /// and the table kept.
    fn memory(&mut self, arg: &str) {
        let mb = match arg.parse::<usize>() {
            Ok(mb) if (1..=super::uci::MAX_HASH_MB).contains(&mb) => mb,
            _ => return self.say(&format!("Error (bad number): memory {arg}")),
        };
        if self.engine.hash_bytes() == mb << 20 {
            return;
        }
        let purpose = self.searches.purpose();
        if purpose == Some(Purpose::Move) {
            // Our move comes first; the next search makes the table (a size the machine cannot
            // give is then dropped).
            self.engine.options.hash_mb = mb;
            return;
        }
        self.abandon_search();
        if let Err(e) = self.engine.set_hash(mb) {
            self.say(&format!("Error (not enough memory: {e}): memory {arg}"));
        }
        if purpose == Some(Purpose::Analyze) {
            self.restart_analysis();
        }
    }

    /// `option NAME=VALUE`: one of the options `protover` offered.
    fn option(&mut self, arg: &str) {
        let (name, text) = arg.split_once('=').unwrap_or((arg, ""));
        if let Some(r) = self.engine.set_third_party_option(name, text) {
            if let Err(e) = r {
                self.say(&format!("Error (bad option): {arg}: {e}"));
            }
            return;
        }
        let value: Option<u64> = text.trim().parse().ok();
        match (name.trim(), value) {
            ("Move Overhead", Some(ms)) if ms <= super::uci::MAX_OVERHEAD_MS => {
                self.engine.options.move_overhead = Duration::from_millis(ms)
            }
            ("MultiPV", Some(n)) if (1..=super::uci::MAX_MULTIPV as u64).contains(&n) => {
                self.engine.options.multipv = n as usize
            }
            _ => self.say(&format!("Error (bad option): {arg}")),
        }
    }

    /// `usermove MOVE`: the opponent's move, then the engine's turn or the analysis of the
    /// new position.
    fn usermove(&mut self, text: &str) {
        let v = self.engine.variant();
        // A refused move changes nothing: not even the third party's ply played before it.
        let (plies, own_before) = (self.engine.game().moves().len(), self.own_third_party);
        let mut told = None;
        if !self.game_over {
            match self.settle_third_party(text) {
                Settled::Taken => {
                    self.after_usermove();
                    return;
                }
                Settled::PlayedFirst(t) => told = Some(t),
                Settled::Nothing => {}
            }
        }
        let shown = self.xboard_board();
        let m = match xv::parse_wire(v, self.engine.game().position(), &shown, text) {
            Ok(m) if !self.game_over => m,
            _ => {
                while self.engine.game().moves().len() > plies && self.engine.game_mut().undo() {
                    self.applied.pop();
                }
                self.own_third_party = own_before;
                return self.say(&format!("Illegal move: {text}"));
            }
        };
        if let Some(t) = told {
            let who = self.engine.variant().presentation().neutral_name();
            self.say(&format!("tellothers {who} plays {t}"));
        }
        self.own_third_party = false;
        if self
            .searches
            .purpose()
            .is_some_and(|p| p != Purpose::Analyze)
        {
            // Pondering ends with the opponent's move; a move while we think on our own is the
            // GUI taking charge. Either way the search is dropped.
            self.abandon_search();
        }
        self.applied.push(text.to_string());
        self.engine.game_mut().play(m);
        self.after_usermove();
    }

    /// After the user's move: the game's end, or analysis or our turn.
    fn after_usermove(&mut self) {
        self.forget_position();
        if self.claim_if_over() {
            return;
        }
        if self.analyzing {
            self.restart_analysis();
        } else {
            self.think_if_our_turn();
        }
    }

    /// Before a `usermove`: a third party's ply the engine played on its own gives way to the
    /// one `text` names (a referee that plays the third party relays its plies); on the third
    /// party's turn, a text that is not its ply makes the engine play it first. Says which of
    /// the two happened, if any.
    fn settle_third_party(&mut self, text: &str) -> Settled {
        let v = self.engine.variant();
        if self.own_third_party {
            let game = self.engine.game();
            let now = xv::parse_wire(v, game.position(), &self.xboard_board(), text);
            let before = game.position_before_last();
            if now.is_err() {
                if let Some(m) = before.and_then(|p| parse_move(v, p, Dialect::Cecp, text).ok()) {
                    self.engine.game_mut().undo();
                    self.applied.pop();
                    self.play_third_party_move(m, false);
                    return Settled::Taken;
                }
            }
        }
        if self.turn() == Color::Neutral {
            let pos = self.engine.game().position();
            if let Ok(m) = parse_move(v, pos, Dialect::Cecp, text) {
                self.play_third_party_move(m, false);
                return Settled::Taken;
            }
            if let Some(m) = self.engine.third_party_ply() {
                self.play_third_party_move(m, false);
                self.own_third_party = true;
                return Settled::PlayedFirst(move_text(v, Dialect::Cecp, m));
            }
        }
        Settled::Nothing
    }

    /// Plays the third party's ply by the engine's policy when it is its turn, and says so with
    /// `tellothers` (XBoard 4.9.1 shows each `telluser` in a dialog that waits for OK; it logs
    /// `tellothers` and shows it in no dialog): XBoard has neither a third colour nor a third
    /// turn, so the third party plays inside the engine.
    fn play_third_party(&mut self) {
        if self.turn() != Color::Neutral || self.game_over {
            return;
        }
        match self.engine.third_party_ply() {
            Some(m) => self.play_third_party_move(m, true),
            None => {
                self.claim_if_over();
            }
        }
    }

    /// Plays the third party's ply `m`, which XBoard's board does not show; `own` when the
    /// engine chose it.
    fn play_third_party_move(&mut self, m: Move, own: bool) {
        let text = move_text(self.engine.variant(), Dialect::Cecp, m);
        self.applied.push(String::new());
        self.engine.game_mut().play(m);
        self.own_third_party = own;
        if own {
            let who = self.engine.variant().presentation().neutral_name();
            self.say(&format!("tellothers {who} plays {text}"));
        }
    }

    /// Sends `RESULT {comment}` if the game is over; true then.
    fn claim_if_over(&mut self) -> bool {
        if let Some(outcome) = self.engine.game().outcome() {
            self.game_over = true;
            if self.analyzing {
                self.abandon_search();
            }
            self.say(&claim(outcome));
            return true;
        }
        false
    }

    /// `undo` (one of XBoard's moves) or `remove` (two). XBoard never sees a third party's
    /// plies, so each goes back with the players' move it followed. With fewer moves played the
    /// command is refused and changes nothing.
    fn take_back(&mut self, plies: usize) {
        let mut game = self.engine.game().clone();
        let third_party_last = |g: &Game| {
            g.position_before_last()
                .is_some_and(|p| p.turn() == Color::Neutral)
        };
        for _ in 0..plies {
            while third_party_last(&game) {
                game.undo();
            }
            if !game.undo() {
                let cmd = if plies == 1 { "undo" } else { "remove" };
                return self.say(&format!("Error (no move to undo): {cmd}"));
            }
        }
        self.abandon_search();
        *self.engine.game_mut() = game;
        self.own_third_party = false;
        let n = self.engine.game().moves().len();
        self.applied.truncate(n);
        self.game_over = false;
        self.forget_position();
        self.restart_analysis();
    }

    /// The moves a search for our move leaves out: those the user excluded, and those XBoard
    /// cannot carry (`xboard_variant::xboard_carries`) while others remain.
    fn excluded_moves(&self) -> Vec<Move> {
        let game = self.engine.game();
        let variant = self.engine.variant();
        let legal = game.legal_moves();
        let mut out = self.exclude.clone();
        let shown = self.xboard_board();
        let uncarried: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| !out.contains(&m) && !xv::carries(variant, game.position(), &shown, m))
            .collect();
        if out.len() + uncarried.len() < legal.len() {
            out.extend(uncarried);
        }
        out
    }

    fn limits(&self) -> Limits {
        let mut limits = Limits {
            depth: self.sd,
            exclude: self.excluded_moves(),
            ..Default::default()
        };
        if let Some(st) = self.st {
            limits.movetime = Some(st);
        } else if let Some(level) = self.level {
            let time = self.my_time.unwrap_or(level.base);
            let movestogo = (level.moves_per_session > 0).then(|| {
                let done = self.engine.game().position().fullmove().saturating_sub(1) as u32;
                level.moves_per_session - done % level.moves_per_session
            });
            limits.clock = Some(Clock {
                time,
                inc: level.inc,
                movestogo,
            });
        } else if let Some(time) = self.my_time {
            limits.clock = Some(Clock {
                time,
                inc: Duration::ZERO,
                movestogo: None,
            });
        } else if self.sd.is_none() {
            // No time control at all: a modest fixed time.
            limits.movetime = Some(NO_CONTROL_MOVETIME);
        }
        // With `nps`, time is counted in nodes: the time this move may take, times the rate.
        if let Some(nps) = self.nps {
            let budget = limits.movetime.or(limits
                .clock
                .map(|c| c.time / c.movestogo.unwrap_or(NPS_MOVES_TO_GO).max(1) + c.inc));
            if let Some(t) = budget {
                limits.nodes = Some(((t.as_secs_f64() * nps as f64) as u64).max(1));
                limits.movetime = None;
                limits.clock = None;
            }
        }
        limits
    }

    fn think_if_our_turn(&mut self) {
        if self.force || self.game_over || self.analyzing {
            return;
        }
        self.play_third_party();
        if self.game_over || self.turn() != self.engine_side {
            return;
        }
        if self.engine.game().legal_moves().is_empty() {
            self.claim_if_over();
            return;
        }
        let limits = self.limits();
        self.start(limits, Purpose::Move);
    }

    fn restart_analysis(&mut self) {
        if !self.analyzing {
            return;
        }
        self.abandon_search();
        if self.game_over || self.engine.game().legal_moves().is_empty() {
            return;
        }
        let limits = Limits {
            infinite: true,
            exclude: self.exclude.clone(),
            ..Default::default()
        };
        self.start(limits, Purpose::Analyze);
    }

    fn start(&mut self, limits: Limits, purpose: Purpose) {
        let out = self.out.clone();
        let variant = self.engine.variant();
        let post = self.post || purpose == Purpose::Analyze;
        let last_info = Arc::clone(&self.last_info);
        *last_info.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self.searches
            .start(&mut self.engine, limits, false, purpose, move |_, info| {
                // Stored first, so that a `.` right after the line sees this iteration.
                *last_info.lock().unwrap_or_else(|e| e.into_inner()) = Some(info.clone());
                if post && info.multipv == 1 {
                    out.line(&thinking_line(variant, info));
                }
            });
    }

    /// Stops the search without playing its move.
    fn abandon_search(&mut self) {
        self.searches.abandon(&mut self.engine);
        self.flush_pongs();
    }

    fn flush_pongs(&mut self) {
        for p in std::mem::take(&mut self.pending_pongs) {
            self.say(&p);
        }
    }

    fn on_done(&mut self, id: u64) {
        if !self.searches.is_current(id) {
            return;
        }
        let Some((purpose, result)) = self.searches.collect() else {
            return;
        };
        if purpose != Purpose::Move {
            return;
        }
        if let Some(best) = result.best {
            let game = self.engine.game();
            let shown = self.xboard_board();
            let text = xv::wire_text(
                self.engine.variant(),
                game.position(),
                &shown,
                &game.legal_moves(),
                best,
            );
            self.applied.push(text.clone());
            self.engine.game_mut().play(best);
            self.own_third_party = false;
            self.forget_position();
            self.hint = result.ponder;
            // Multi-leg moves go out one leg per line, each but the last ending in a comma.
            let legs: Vec<&str> = text.split(',').collect();
            for (i, leg) in legs.iter().enumerate() {
                if i + 1 < legs.len() {
                    self.say(&format!("move {leg},"));
                } else {
                    self.say(&format!("move {leg}"));
                }
            }
            if !self.claim_if_over() && !self.force {
                // The third party's ply after ours, so that the user sees it before moving.
                self.play_third_party();
            }
            if !self.game_over && self.ponder && !self.force {
                let limits = Limits {
                    infinite: true,
                    ..Default::default()
                };
                self.start(limits, Purpose::Ponder);
            }
        }
        self.flush_pongs();
    }

    fn stat01(&self) {
        if !self.analyzing {
            return;
        }
        let info = self
            .last_info
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let total = self.engine.game().legal_moves().len();
        match info {
            Some(i) => {
                let name = i.pv.first().map_or(String::new(), |&m| {
                    move_text(self.engine.variant(), Dialect::Cecp, m)
                });
                self.say(&format!(
                    "stat01: {} {} {} {} {} {}",
                    i.time.as_millis() / 10,
                    i.nodes,
                    i.depth,
                    0,
                    total,
                    name
                ));
            }
            None => self.say(&format!("stat01: 0 0 0 {total} {total}")),
        }
    }

    fn exclude_include(&mut self, exclude: bool, arg: &str) {
        let legal = self.engine.game().legal_moves();
        if arg == "all" {
            self.exclude = if exclude {
                legal.as_slice().to_vec()
            } else {
                Vec::new()
            };
        } else {
            match parse_move(
                self.engine.variant(),
                self.engine.game().position(),
                Dialect::Cecp,
                arg,
            ) {
                Ok(m) if exclude => {
                    if !self.exclude.contains(&m) {
                        self.exclude.push(m);
                    }
                }
                Ok(m) => self.exclude.retain(|&x| x != m),
                Err(_) => return self.say(&format!("Illegal move: {arg}")),
            }
        }
        self.restart_analysis();
    }

    fn square(&self, text: &str) -> Option<Square> {
        parse_square(
            self.engine.variant().rules().geometry(),
            Dialect::Cecp,
            text,
        )
    }

    /// XBoard's own board now (`xv::replay`).
    fn xboard_board(&self) -> xv::Shown {
        xv::replay(self.engine.game(), &self.applied)
    }

    /// `lift SQUARE`: the user picked up a piece (or goes on with a move); the `highlight` of
    /// where it goes.
    fn lift(&mut self, arg: &str) {
        let Some(sq) = self.square(arg) else {
            return self.say(&format!("Error (bad square): lift {arg}"));
        };
        // After a `put` that continues the move, XBoard lifts the piece again where the leg
        // ended; any other lift starts a new move.
        if !(self.clicked.len() >= 2 && self.clicked.last() == Some(&sq)) {
            self.clicked = vec![sq];
        }
        let game = self.engine.game();
        let moves = game.legal_moves();
        let shown = self.xboard_board();
        let line = xv::lift(
            self.engine.variant(),
            game.position(),
            &shown,
            &moves,
            &self.clicked,
        );
        self.say(&line);
    }

    /// `put SQUARE`: the piece dropped on SQUARE ends a leg of a longer move, or asks for the
    /// `choice` of a letter.
    fn put(&mut self, arg: &str) {
        let Some(sq) = self.square(arg) else {
            return;
        };
        if self.clicked.is_empty() {
            return;
        }
        let game = self.engine.game();
        let moves = game.legal_moves();
        let shown = self.xboard_board();
        match xv::put(
            self.engine.variant(),
            game.position(),
            &shown,
            &moves,
            &self.clicked,
            sq,
        ) {
            xv::Put::Leg => self.clicked.push(sq),
            xv::Put::Choice(line) => self.say(&line),
            xv::Put::Nothing => {}
        }
    }

    /// `hover SQUARE`: the `highlight` of the side effects of the moves ending on SQUARE.
    fn hover(&mut self, arg: &str) {
        let Some(sq) = self.square(arg) else {
            return;
        };
        if self.clicked.is_empty() {
            return;
        }
        let game = self.engine.game();
        let moves = game.legal_moves();
        let shown = self.xboard_board();
        if let Some(h) = xv::hover(
            self.engine.variant(),
            game.position(),
            &shown,
            &moves,
            &self.clicked,
            sq,
        ) {
            self.say(&h);
        }
    }
}

impl Adapter for Xboard {
    fn command(&mut self, line: &str) -> bool {
        self.handle(line)
    }

    fn too_long(&mut self) {
        self.say(&format!(
            "Error (line longer than {} bytes): refused whole",
            super::MAX_LINE
        ));
    }

    fn search_done(&mut self, id: u64) {
        self.on_done(id);
    }

    fn shutdown(&mut self) {
        self.engine.stop_and_wait();
    }
}

#[cfg(test)]
mod tests {
    use super::COMMANDS;

    /// A name listed twice would leave its second handler unreachable.
    #[test]
    fn each_command_is_listed_once() {
        for (i, (name, _)) in COMMANDS.iter().enumerate() {
            assert!(
                COMMANDS[..i].iter().all(|(other, _)| other != name),
                "{name:?} is listed twice"
            );
            assert_ne!(*name, "quit", "quit is handled before the table");
        }
    }
}
