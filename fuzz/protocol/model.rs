//! What the engine should do with each line: an independent model of both protocols' state
//! (the game with its history, and under CECP force mode, the engine's side, the game-over
//! flag and analysis), built on the library's rules. For a line it predicts whether the engine
//! must refuse it, and applies its effect once the engine's answer says it was taken.

use menagerie::board::Position;
use menagerie::core::Color;
use menagerie::game::Game;
use menagerie::notation::{parse_move, Dialect};
use menagerie::protocol::xboard_variant::{self as xv, fen_from_cecp, parse_wire, Shown};
use menagerie::protocol::MAX_LINE;
use menagerie::variants::{self, Variant};

/// Which protocol a session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Cecp,
}

/// What a line must get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A refusal, and no change.
    Refused,
    /// No refusal.
    Taken,
    /// Either (a value only the engine's machine can judge, such as a table size).
    Either,
    /// The engine ends.
    Quits,
}

/// The state the engine should be in.
#[derive(Clone)]
pub struct Model {
    pub proto: Proto,
    pub game: Game,
    /// CECP: the text XBoard sent or received for each move of the game (XBoard's board, and
    /// so the texts it sends, follow from them).
    pub applied: Vec<String>,
    /// CECP: play neither side.
    pub force: bool,
    /// CECP: the side the engine plays.
    pub engine_side: Color,
    /// CECP: moves are refused until a new position.
    pub game_over: bool,
    /// CECP: analysing.
    pub analyzing: bool,
    /// CECP: the last ply is a third party's (Chaos's Nature) that the engine chose itself, so a
    /// user's text for that turn replaces it.
    pub own_third_party: bool,
    /// UCI: the games and positions of searches whose `bestmove` is still to come, oldest
    /// first.
    pub searches: Vec<(&'static dyn Variant, Position)>,
}

/// The words and the command of a line as the engine reads it.
pub struct Line {
    /// The text after lossy decoding, without its line end.
    pub text: String,
    /// The line was longer than the engine reads.
    pub too_long: bool,
}

impl Line {
    pub fn new(bytes: &[u8]) -> Line {
        Line {
            text: String::from_utf8_lossy(bytes)
                .trim_end_matches(['\n', '\r'])
                .to_string(),
            too_long: bytes.len() > MAX_LINE,
        }
    }

    fn words(&self) -> Vec<&str> {
        self.text.split_whitespace().collect()
    }

    /// CECP's split: the command and the rest, trimmed.
    fn cecp(&self) -> (&str, &str) {
        let line = self.text.trim();
        line.split_once(char::is_whitespace)
            .map_or((line, ""), |(c, a)| (c, a.trim()))
    }
}

/// A change the line makes once taken.
enum Effect {
    None,
    /// A new game of this variant from its start position (CECP's flags reset too).
    Start(&'static dyn Variant),
    /// CECP `new`: a game of chess, the engine playing Black.
    New,
    /// A position without history (UCI `position`, CECP `setboard`).
    Set(Game),
    /// CECP: a move played, with its text.
    Play(menagerie::core::Move, String),
    /// CECP: the user's text named the third party's ply.
    ThirdParty(menagerie::core::Move),
    /// CECP: the user's text named the third party's ply other than the one the engine chose.
    ReplaceThirdParty(menagerie::core::Move),
    /// CECP: a user's move on the third party's turn: the engine plays the third party's ply
    /// first, then the move's own effect (a refused move keeps neither).
    ThirdPartyFirst(Box<Effect>),
    /// CECP: plies taken back.
    TakeBack(usize),
    /// CECP flags.
    Force,
    Go,
    PlayOther,
    Side(Color),
    Result,
    Analyze(bool),
    /// UCI: a search of the current position starts.
    Search,
}

impl Model {
    pub fn new(proto: Proto) -> Model {
        let chess = variants::by_name("chess").expect("chess is registered");
        Model {
            proto,
            game: Game::from_start(chess),
            applied: Vec::new(),
            force: false,
            engine_side: Color::Black,
            game_over: false,
            analyzing: false,
            own_third_party: false,
            searches: Vec::new(),
        }
    }

    pub fn variant(&self) -> &'static dyn Variant {
        self.game.variant()
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The FEN `d` must show.
    pub fn fen(&self) -> String {
        self.variant().fen(self.position())
    }

    /// The verdict on a line and the change it makes if taken.
    fn judge(&self, line: &Line) -> (Verdict, Effect) {
        if line.too_long {
            return (Verdict::Refused, Effect::None);
        }
        match self.proto {
            Proto::Uci => self.judge_uci(line),
            Proto::Cecp => self.judge_cecp(line),
        }
    }

    /// What a line must get.
    pub fn verdict(&self, bytes: &[u8]) -> Verdict {
        self.judge(&Line::new(bytes)).0
    }

    /// Whether a taken line makes a CECP engine think on its move when it is its turn.
    pub fn starts_thinking(&self, bytes: &[u8]) -> bool {
        matches!(
            self.judge(&Line::new(bytes)).1,
            Effect::Go | Effect::Play(..)
        )
    }

    /// Applies a line the engine took (`refused` false), or what a refused one still does.
    pub fn commit(&mut self, bytes: &[u8], refused: bool) {
        let (_, effect) = self.judge(&Line::new(bytes));
        match effect {
            _ if refused => {}
            effect => self.apply(effect),
        }
    }

    /// CECP: the third party's ply by the engine's default policy (a seeded choice), played
    /// when it is its turn, as the engine does before it thinks and after its own move.
    pub fn play_third_party(&mut self) {
        if self.position().turn() != Color::Neutral || self.game_over {
            return;
        }
        let tp = menagerie::third_party::ThirdParty::default();
        let history = self.game.history();
        match menagerie::engine::choose_third_party_ply(
            self.variant(),
            self.position(),
            &history,
            &tp,
        ) {
            Some(m) => {
                self.play(m, String::new());
                self.own_third_party = true;
            }
            None => self.game_over |= self.game.outcome().is_some(),
        }
    }

    /// CECP: after the user's move, the engine thinks if it is its turn (playing the third
    /// party's ply first).
    fn after_usermove(&mut self) {
        if !self.force && !self.game_over && !self.analyzing {
            self.play_third_party();
        }
    }

    fn apply(&mut self, effect: Effect) {
        match effect {
            Effect::None => {}
            Effect::Start(v) => {
                self.game = Game::from_start(v);
                self.applied.clear();
                self.own_third_party = false;
                self.force = false;
                self.game_over = false;
                self.analyzing = false;
            }
            Effect::New => {
                self.apply(Effect::Start(
                    variants::by_name("chess").expect("registered"),
                ));
                self.engine_side = Color::Black;
            }
            Effect::Set(game) => {
                self.game = game;
                self.applied.clear();
                self.own_third_party = false;
                self.game_over = false;
            }
            Effect::Play(m, text) => {
                self.own_third_party = false;
                self.play(m, text);
                self.after_usermove();
            }
            Effect::ThirdParty(m) => {
                self.play(m, String::new());
                self.own_third_party = false;
                self.after_usermove();
            }
            Effect::ReplaceThirdParty(m) => {
                self.game.undo();
                self.applied.pop();
                self.play(m, String::new());
                self.own_third_party = false;
                self.after_usermove();
            }
            Effect::ThirdPartyFirst(then) => {
                self.play_third_party();
                self.apply(*then);
            }
            Effect::TakeBack(n) => {
                if let Some(game) = take_back(&self.game, n) {
                    self.game = game;
                }
                self.applied.truncate(self.game.moves().len());
                self.own_third_party = false;
                self.game_over = false;
            }
            Effect::Force => self.force = true,
            Effect::Go => {
                self.force = false;
                if !self.game_over && !self.analyzing {
                    self.play_third_party();
                }
                self.engine_side = self.position().turn();
                // With no move to play, the engine claims the end at once.
                let stuck = self.game.legal_moves().is_empty() && self.game.outcome().is_some();
                if stuck && !self.analyzing {
                    self.game_over = true;
                }
            }
            Effect::PlayOther => {
                self.force = false;
                self.engine_side = self.position().turn().opponent();
            }
            Effect::Side(c) => self.engine_side = c,
            Effect::Result => {
                self.game_over = true;
                self.force = true;
            }
            Effect::Analyze(on) => self.analyzing = on,
            Effect::Search => self
                .searches
                .push((self.variant(), self.position().clone())),
        }
    }

    /// Plays a move (the user's or the engine's) sent as `text`; the game is over if the rules
    /// say so.
    pub fn play(&mut self, m: menagerie::core::Move, text: String) {
        self.applied.push(text);
        self.game.play(m);
        if self.game.outcome().is_some() {
            self.game_over = true;
        }
    }

    /// CECP: the board XBoard shows, by replaying the game with the texts it applied.
    pub fn shown(&self) -> Shown {
        xv::replay(&self.game, &self.applied)
    }

    /// CECP: whether the engine must now think on its own move.
    pub fn engine_to_move(&self) -> bool {
        self.proto == Proto::Cecp
            && !self.force
            && !self.game_over
            && !self.analyzing
            && self.position().turn() == self.engine_side
            && !self.game.legal_moves().is_empty()
    }

    fn judge_uci(&self, line: &Line) -> (Verdict, Effect) {
        use Verdict::*;
        let words = line.words();
        let Some(&cmd) = words.first() else {
            return (Taken, Effect::None);
        };
        let args = &words[1..];
        match cmd {
            "uci" | "isready" | "stop" | "ponderhit" | "d" => (Taken, Effect::None),
            "quit" => (Quits, Effect::None),
            "ucinewgame" => (Taken, Effect::Start(self.variant())),
            "setoption" => self.judge_setoption(args),
            "position" => match self.uci_position(args) {
                Some(game) => (Taken, Effect::Set(game)),
                None => (Refused, Effect::None),
            },
            // A perft's answer says whether it counts; a search ignores what it cannot read
            // and always ends in a `bestmove`.
            "go" if args.first() == Some(&"perft") => (Either, Effect::None),
            "go" => (Taken, Effect::Search),
            _ => (Refused, Effect::None),
        }
    }

    fn judge_setoption(&self, args: &[&str]) -> (Verdict, Effect) {
        use Verdict::*;
        let value_at = args.iter().position(|&t| t == "value");
        let (name, value) = match (args.first(), value_at) {
            (Some(&"name"), None) if args.len() > 1 => (args[1..].join(" "), String::new()),
            (Some(&"name"), Some(v)) if v > 1 => (args[1..v].join(" "), args[v + 1..].join(" ")),
            _ => return (Refused, Effect::None),
        };
        let in_range =
            |lo: u64, hi: u64| value.parse::<u64>().is_ok_and(|n| (lo..=hi).contains(&n));
        let verdict = |ok: bool| if ok { Taken } else { Refused };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => match variants::by_name(&value) {
                Ok(v) => (Taken, Effect::Start(v)),
                Err(_) => (Refused, Effect::None),
            },
            // Within the range, only the machine's free memory decides.
            "hash" if in_range(1, 65_536) => (Either, Effect::None),
            "hash" => (Refused, Effect::None),
            "threads" | "multipv" => (verdict(in_range(1, 256)), Effect::None),
            "move overhead" => (verdict(in_range(0, 5_000)), Effect::None),
            "ponder" => (verdict(value == "true" || value == "false"), Effect::None),
            _ => (Refused, Effect::None),
        }
    }

    /// The game a UCI `position` sets, if the engine must take it.
    fn uci_position(&self, args: &[&str]) -> Option<Game> {
        let moves_at = args.iter().position(|&t| t == "moves");
        let head = &args[..moves_at.unwrap_or(args.len())];
        let moves = moves_at.map_or(&[][..], |i| &args[i + 1..]);
        let v = self.variant();
        let start = match head {
            ["startpos"] => v.start_position(),
            ["fen", fen @ ..] if !fen.is_empty() => v.parse_fen(&fen.join(" ")).ok()?,
            _ => return None,
        };
        let mut game = Game::new(v, start);
        for text in moves {
            game.play_text(Dialect::Uci, text).ok()?;
        }
        Some(game)
    }

    /// A user's move, as the engine settles it around a third party's turn.
    fn judge_usermove(&self, text: &str) -> (Verdict, Effect) {
        use Verdict::*;
        if self.game_over {
            return (Refused, Effect::None);
        }
        let v = self.variant();
        let pos = self.position();
        if self.own_third_party && parse_wire(v, pos, &self.shown(), text).is_err() {
            let before = self.game.position_before_last();
            if let Some(m) = before.and_then(|p| parse_move(v, p, Dialect::Cecp, text).ok()) {
                return (Taken, Effect::ReplaceThirdParty(m));
            }
        }
        if pos.turn() == Color::Neutral {
            if let Ok(m) = parse_move(v, pos, Dialect::Cecp, text) {
                return (Taken, Effect::ThirdParty(m));
            }
            let mut after = self.clone();
            after.play_third_party();
            let (verdict, effect) = after.judge_played_move(text);
            return (verdict, Effect::ThirdPartyFirst(Box::new(effect)));
        }
        self.judge_played_move(text)
    }

    /// A user's move of a player.
    fn judge_played_move(&self, text: &str) -> (Verdict, Effect) {
        match parse_wire(self.variant(), self.position(), &self.shown(), text) {
            Ok(m) if !self.game_over => (Verdict::Taken, Effect::Play(m, text.to_string())),
            _ => (Verdict::Refused, Effect::None),
        }
    }

    fn judge_cecp(&self, line: &Line) -> (Verdict, Effect) {
        use Verdict::*;
        let (cmd, arg) = line.cecp();
        let v = self.variant();
        let pos = self.position();
        match cmd {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "setscore" | "draw" | "pause" | "resume" | "hard" | "easy" | "protover"
            | "?" | "ping" | "hint" | "bk" | "post" | "nopost" | "." | "put" | "hover" | "d" => {
                (Taken, Effect::None)
            }
            "quit" => (Quits, Effect::None),
            "new" => (Taken, Effect::New),
            "variant" => match variants::by_name(arg) {
                Ok(v) => (Taken, Effect::Start(v)),
                Err(_) => (Refused, Effect::None),
            },
            "setboard" => match v.parse_fen(&fen_from_cecp(v.rules(), arg)) {
                Ok(p) => (Taken, Effect::Set(Game::new(v, p))),
                Err(_) => (Refused, Effect::None),
            },
            "force" => (Taken, Effect::Force),
            "go" => (Taken, Effect::Go),
            "playother" => (Taken, Effect::PlayOther),
            "white" => (Taken, Effect::Side(Color::Black)),
            "black" => (Taken, Effect::Side(Color::White)),
            "result" => (Taken, Effect::Result),
            "analyze" => (Taken, Effect::Analyze(true)),
            "exit" => (Taken, Effect::Analyze(false)),
            "undo" | "remove" => {
                let n = if cmd == "undo" { 1 } else { 2 };
                if take_back(&self.game, n).is_some() {
                    (Taken, Effect::TakeBack(n))
                } else {
                    (Refused, Effect::None)
                }
            }
            "usermove" => self.judge_usermove(arg),
            "exclude" | "include" => {
                let ok = arg == "all" || parse_move(v, pos, Dialect::Cecp, arg).is_ok();
                (if ok { Taken } else { Refused }, Effect::None)
            }
            "cores" => {
                let ok = arg.parse::<usize>().is_ok_and(|n| (1..=256).contains(&n));
                (if ok { Taken } else { Refused }, Effect::None)
            }
            // Numbers and time controls: the engine's answer says; no position changes.
            "level" | "st" | "sd" | "nps" | "time" | "otim" | "memory" | "option" | "lift" => {
                (Either, Effect::None)
            }
            // A bare move must read as one in the position as it is.
            _ if arg.is_empty() && parse_move(v, pos, Dialect::Cecp, cmd).is_ok() => {
                self.judge_usermove(cmd)
            }
            _ => (Refused, Effect::None),
        }
    }
}

/// The game after CECP's `undo` (`n` = 1) or `remove` (2): XBoard's moves are the players', and a
/// third party's plies go back with the move they followed. None when too few were played.
fn take_back(game: &Game, n: usize) -> Option<Game> {
    let mut game = game.clone();
    for _ in 0..n {
        while game
            .position_before_last()
            .is_some_and(|p| p.turn() == Color::Neutral)
        {
            game.undo();
        }
        if !game.undo() {
            return None;
        }
    }
    Some(game)
}
