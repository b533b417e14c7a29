//! UCI, with `UCI_Variant`. The parser is written here: squares may have two-digit ranks (`a10`)
//! and files up to `l`. A command the engine cannot accept gets `info string <reason>` and
//! changes nothing.

use super::session::{self, clip, Adapter};
use super::{Event, Output};
use crate::engine::lifecycle::{SearchId, Searches};
use crate::engine::Engine;
use crate::notation::{move_text, parse_move, Dialect};
use crate::search::{Clock, Info, Limits, Score, SearchResult};
use crate::third_party::{Policy, MAX_SEED};
use crate::variants::{self, Variant};
use std::sync::mpsc::{Receiver, Sender};
use std::time::Duration;

/// Largest `Hash` in MiB.
pub const MAX_HASH_MB: usize = 65_536;
/// Most `Threads`.
pub const MAX_THREADS: usize = 256;
/// Most `MultiPV` lines.
pub const MAX_MULTIPV: usize = 256;
/// Deepest `go perft`.
const MAX_PERFT_DEPTH: u32 = 20;
/// Largest `Move Overhead` in ms.
pub const MAX_OVERHEAD_MS: u64 = 5_000;

/// What a UCI search is for: whether its `bestmove` is held back (`go infinite` and
/// `go ponder` hold it until `stop` or `ponderhit`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Hold(bool);

/// The UCI adapter.
pub struct Uci {
    engine: Engine,
    out: Output,
    searches: Searches<Hold>,
}

/// Formats one `info` line.
pub fn info_line(variant: &dyn Variant, info: &Info) -> String {
    let score = match Score::from_internal(info.score) {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let ms = info.time.as_millis().max(1);
    let nps = (info.nodes as u128 * 1000 / ms) as u64;
    let pv: Vec<String> = info
        .pv
        .iter()
        .map(|&m| move_text(variant, Dialect::Uci, m))
        .collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {nps} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.hashfull,
        info.time.as_millis(),
        pv.join(" ")
    )
}

fn parse_number<T: std::str::FromStr>(tokens: &[&str], i: usize, name: &str) -> Result<T, String> {
    tokens
        .get(i + 1)
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| format!("go {name} needs a number"))
}

/// A whole number, saturated: below 0 (a GUI may send a clock that ran out) is 0, beyond
/// `u64::MAX` is `u64::MAX`.
fn saturating_number(t: &str) -> Option<u64> {
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(if t.starts_with('-') {
        0
    } else {
        digits.parse().unwrap_or(u64::MAX)
    })
}

/// The parameters of `go` that are followed by a number.
const GO_NUMBERS: [&str; 9] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
];

/// Whether `t` is a parameter of `go` (a word a value or a `searchmoves` list ends at).
fn is_go_parameter(t: &str) -> bool {
    GO_NUMBERS.contains(&t) || ["infinite", "ponder", "searchmoves"].contains(&t)
}

impl Uci {
    /// A new adapter; `uci` was the first command.
    pub fn new(out: Output, tx: Sender<Event>) -> Uci {
        Uci {
            engine: Engine::new(),
            out,
            searches: Searches::new(tx),
        }
    }

    /// Answers `uci` and handles events until `quit` or the end of input.
    pub fn run(mut self, rx: Receiver<Event>) {
        self.identify();
        session::serve(&mut self, rx);
    }

    fn say(&self, text: &str) {
        self.out.line(text);
    }

    fn identify(&self) {
        self.say(&format!("id name Menagerie {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the Menagerie developers");
        let vars: Vec<String> = variants::names().map(|n| format!("var {n}")).collect();
        self.say(&format!(
            "option name UCI_Variant type combo default chess {}",
            vars.join(" ")
        ));
        let o = &self.engine.options;
        self.say(&format!(
            "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
            o.hash_mb
        ));
        self.say(&format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            o.threads
        ));
        self.say(&format!(
            "option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}",
            o.multipv
        ));
        self.say(&format!(
            "option name Ponder type check default {}",
            o.ponder
        ));
        self.say(&format!(
            "option name Move Overhead type spin default {} min 0 max {MAX_OVERHEAD_MS}",
            o.move_overhead.as_millis()
        ));
        let tp = &o.third_party;
        self.say(&format!(
            "option name Nature type combo default {} {}",
            tp.policy,
            Policy::NAMES.map(|n| format!("var {n}")).join(" ")
        ));
        self.say(&format!(
            "option name Nature Favors type combo default {} var white var black",
            tp.favors.name()
        ));
        self.say(&format!(
            "option name Nature Seed type spin default {} min 0 max {MAX_SEED}",
            tp.seed
        ));
        self.say("uciok");
    }

    /// Handles one line; false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else {
            return true;
        };
        match cmd {
            "uci" => self.identify(),
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.finish_active();
                self.engine.new_game();
            }
            "setoption" => self.setoption(&tokens[1..]),
            "position" => self.position(&tokens[1..]),
            "go" => self.go(&tokens[1..]),
            "stop" => {
                if self.searches.purpose().is_some() {
                    self.searches.set_purpose(Hold(false));
                    self.searches.stop(&self.engine);
                    self.flush_result();
                } else {
                    // A `go perft` runs on the engine without a search.
                    self.engine.stop_and_wait();
                }
            }
            "ponderhit" => {
                self.searches.ponderhit(&self.engine);
                if self.searches.purpose().is_some() {
                    self.searches.set_purpose(Hold(false));
                    self.flush_result();
                }
            }
            "d" => {
                let v = self.engine.variant();
                self.say(&format!(
                    "info string variant {} fen {}",
                    v.name(),
                    v.fen(self.engine.game().position())
                ));
            }
            "quit" => return false,
            _ => self.say(&format!("info string unknown command: {}", clip(line))),
        }
        true
    }

    fn setoption(&mut self, tokens: &[&str]) {
        // `name` comes first, then a name of at least one word, then `value` and the value.
        let value_at = tokens.iter().position(|&t| t == "value");
        let (name, value) = match (tokens.first(), value_at) {
            (Some(&"name"), None) if tokens.len() > 1 => (tokens[1..].join(" "), String::new()),
            (Some(&"name"), Some(v)) if v > 1 => {
                (tokens[1..v].join(" "), tokens[v + 1..].join(" "))
            }
            _ => {
                return self
                    .say("info string setoption needs: setoption name <name> [value <value>]")
            }
        };
        let bad = |what: &str| format!("info string option {name}: {what}");
        let number = |min: u64, max: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| {
                    bad(&format!(
                        "value '{value}' is not a number from {min} to {max}"
                    ))
                })
        };
        let result: Result<(), String> = match name.to_ascii_lowercase().as_str() {
            "uci_variant" => variants::by_name(&value)
                .map_err(|e| bad(&e.to_string()))
                .map(|_| {
                    self.finish_active();
                    let _ = self.engine.set_variant(&value);
                    let v = self.engine.variant();
                    let g = v.rules().geometry();
                    self.say(&format!(
                        "info string variant {} files {} ranks {} startpos {}",
                        v.name(),
                        g.files(),
                        g.ranks(),
                        v.rules().spec.start_fen
                    ));
                }),
            "hash" => number(1, MAX_HASH_MB as u64).and_then(|n| {
                self.finish_active();
                self.engine
                    .set_hash(n as usize)
                    .map_err(|e| bad(&e.to_string()))
            }),
            "threads" => number(1, MAX_THREADS as u64).map(|n| self.engine.set_threads(n as usize)),
            "multipv" => {
                number(1, MAX_MULTIPV as u64).map(|n| self.engine.options.multipv = n as usize)
            }
            "move overhead" => number(0, MAX_OVERHEAD_MS)
                .map(|n| self.engine.options.move_overhead = Duration::from_millis(n)),
            "ponder" => match value.as_str() {
                "true" | "false" => {
                    self.engine.options.ponder = value == "true";
                    Ok(())
                }
                _ => Err(bad(&format!("value '{value}' is not true or false"))),
            },
            other => match self.engine.set_third_party_option(other, &value) {
                Some(r) => r.map_err(|e| bad(&e)),
                None => Err(format!("info string unknown option '{name}'")),
            },
        };
        if let Err(msg) = result {
            self.say(&msg);
        }
    }

    fn position(&mut self, tokens: &[&str]) {
        let moves_at = tokens.iter().position(|&t| t == "moves");
        let moves: Vec<&str> = moves_at
            .map(|i| tokens[i + 1..].to_vec())
            .unwrap_or_default();
        let head = &tokens[..moves_at.unwrap_or(tokens.len())];
        let fen = match head.first() {
            Some(&"startpos") if head.len() == 1 => None,
            Some(&"fen") if head.len() > 1 => Some(head[1..].join(" ")),
            _ => {
                return self
                    .say("info string position needs: position startpos|fen <FEN> [moves ...]")
            }
        };
        // Set first: a refused position leaves a running search alone. A search the new
        // position stops still gets its `bestmove`.
        match self
            .engine
            .set_position(fen.as_deref(), &moves, Dialect::Uci)
        {
            Ok(()) => self.finish_active(),
            Err(e) => self.say(&format!(
                "info string position refused, the previous one is kept: {e}"
            )),
        }
    }

    /// `go`: a search, or `go perft N`. Every `go` search ends in exactly one `bestmove`: as the
    /// UCI text says and Stockfish does, an unknown token is ignored, and a value that does not
    /// parse is taken as absent (a negative time as 0), each with an `info string`.
    fn go(&mut self, tokens: &[&str]) {
        let mut limits = Limits::default();
        let (mut wtime, mut btime, mut winc, mut binc, mut movestogo) =
            (None, None, 0u64, 0u64, None);
        let mut ponder = false;
        let mut i = 0;
        let mut errors = Vec::new();
        while i < tokens.len() {
            let t = tokens[i];
            // The number after `t`; a value that is no number is skipped, a parameter is not.
            let mut take = |errors: &mut Vec<String>| -> Option<u64> {
                let value = tokens.get(i + 1).copied();
                let r = match value.and_then(saturating_number) {
                    Some(n) => Ok(n),
                    None => parse_number::<u64>(tokens, i, t),
                };
                if value.is_some_and(|v| !is_go_parameter(v)) {
                    i += 1;
                }
                r.map_err(|e| errors.push(format!("{e}; ignored"))).ok()
            };
            match t {
                "wtime" => wtime = take(&mut errors),
                "btime" => btime = take(&mut errors),
                "winc" => winc = take(&mut errors).unwrap_or(0),
                "binc" => binc = take(&mut errors).unwrap_or(0),
                "movestogo" => movestogo = take(&mut errors).map(|n| n as u32),
                "movetime" => limits.movetime = take(&mut errors).map(Duration::from_millis),
                "depth" => limits.depth = take(&mut errors).map(|n| n.min(u32::MAX as u64) as u32),
                "nodes" => limits.nodes = take(&mut errors),
                "mate" => limits.mate = take(&mut errors).map(|n| n.min(u32::MAX as u64) as u32),
                "infinite" => limits.infinite = true,
                "ponder" => ponder = true,
                // `go perft N` alone counts; elsewhere `perft` is an unknown token.
                "perft" if i == 0 => {
                    return match parse_number::<u32>(tokens, i, "perft") {
                        Ok(d) if d <= MAX_PERFT_DEPTH && tokens.len() == i + 2 => {
                            self.finish_active();
                            self.perft(d)
                        }
                        _ => self.say(&format!(
                            "info string go perft needs a depth from 0 to {MAX_PERFT_DEPTH}"
                        )),
                    };
                }
                "searchmoves" => {
                    let pos = self.engine.game().position().clone();
                    while let Some(text) = tokens.get(i + 1) {
                        match parse_move(self.engine.variant(), &pos, Dialect::Uci, text) {
                            Ok(m) => limits.searchmoves.push(m),
                            Err(_) if is_go_parameter(text) => break,
                            Err(e) => errors.push(format!("searchmoves: {e}; ignored")),
                        }
                        i += 1;
                    }
                }
                other => errors.push(format!("go: unknown parameter '{}'; ignored", clip(other))),
            }
            i += 1;
        }
        for e in errors {
            self.say(&format!("info string {e}"));
        }
        self.finish_active();
        // The clock is that of the player to move, or the player a third party's turn hands the
        // move to.
        let pos = self.engine.game().position();
        let white = self.engine.variant().rulings().point_of_view(pos) != crate::core::Color::Black;
        let (time, inc) = if white { (wtime, winc) } else { (btime, binc) };
        if let Some(t) = time {
            limits.clock = Some(Clock {
                time: Duration::from_millis(t),
                inc: Duration::from_millis(inc),
                movestogo,
            });
        }
        self.start(limits, ponder);
    }

    fn start(&mut self, limits: Limits, ponder: bool) {
        let hold = Hold(ponder || limits.infinite);
        let out = self.out.clone();
        let variant = self.engine.variant();
        self.searches
            .start(&mut self.engine, limits, ponder, hold, move |_, info| {
                out.line(&info_line(variant, info))
            });
    }

    /// Prints `bestmove` if the search has ended and is not held.
    fn flush_result(&mut self) {
        if self.searches.purpose() != Some(Hold(false)) {
            return;
        }
        if let Some((_, r)) = self.searches.collect() {
            self.print_bestmove(&r);
        }
    }

    fn print_bestmove(&self, r: &SearchResult) {
        let v = self.engine.variant();
        match r.best {
            None => self.say("bestmove (none)"),
            Some(best) => match r.ponder {
                Some(p) => self.say(&format!(
                    "bestmove {} ponder {}",
                    move_text(v, Dialect::Uci, best),
                    move_text(v, Dialect::Uci, p)
                )),
                None => self.say(&format!("bestmove {}", move_text(v, Dialect::Uci, best))),
            },
        }
    }

    /// Ends the running search before a command that changes the position: stops it, waits,
    /// and prints its `bestmove` so every `go` is answered once.
    fn finish_active(&mut self) {
        if let Some((_, r)) = self.searches.finish(&mut self.engine) {
            self.print_bestmove(&r);
        }
    }

    /// `go perft N`: counts by root move and the total, from the search thread, so that `stop`,
    /// `isready` and `quit` are answered meanwhile.
    fn perft(&mut self, depth: u32) {
        if depth == 0 {
            // A perft still running answers first (its count or `perft stopped`), so that
            // counts come in the order they were asked for.
            self.engine.stop_and_wait();
            return self.say("Nodes searched: 1");
        }
        let out = self.out.clone();
        let v = self.engine.variant();
        self.engine.start_perft(depth, move |counts| {
            let Some(counts) = counts else {
                return out.line("info string perft stopped");
            };
            for (m, n) in &counts {
                out.line(&format!("{}: {n}", move_text(v, Dialect::Uci, *m)));
            }
            out.line("");
            let total: u64 = counts.iter().map(|(_, n)| n).sum();
            out.line(&format!("Nodes searched: {total}"));
        });
    }
}

impl Adapter for Uci {
    fn command(&mut self, line: &str) -> bool {
        self.handle(line)
    }

    fn too_long(&mut self) {
        self.say(&format!(
            "info string a line of more than {} bytes was refused",
            super::MAX_LINE
        ));
    }

    fn search_done(&mut self, id: SearchId) {
        if self.searches.is_current(id) {
            self.flush_result();
        }
    }

    fn shutdown(&mut self) {
        self.engine.stop_and_wait();
    }
}
