//! The lines the protocol fuzzer sends: valid commands built from the model's position, the
//! same commands broken (truncated, mutated, bad FENs and moves, out of range), commands in
//! the wrong state, random words, control bytes, invalid UTF-8, very long lines, and bursts of
//! go/stop/quit written at once.

use super::model::{Model, Proto};
use crate::fen::{legal, mutate_chars, mutate_fields, number, pick, random_board, square};
use menagerie::core::rng::SplitMix as Rng;
use menagerie::core::{Move, MoveKind};
use menagerie::notation::{move_text, Dialect};
use menagerie::protocol::xboard_variant::fen_to_cecp;
use menagerie::protocol::MAX_LINE;
use menagerie::variants::{self, Variant};

/// What to send next: one line, or lines written at once (each without its line end).
pub enum Step {
    Line(Vec<u8>),
    Burst(Vec<Vec<u8>>),
}

/// Words for random lines: commands of both protocols, their parameters, and noise.
const WORDS: &[&str] = &[
    "uci",
    "isready",
    "go",
    "stop",
    "position",
    "fen",
    "startpos",
    "moves",
    "setoption",
    "name",
    "value",
    "Hash",
    "UCI_Variant",
    "ucinewgame",
    "ponderhit",
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "ponder",
    "perft",
    "searchmoves",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
    "new",
    "variant",
    "force",
    "usermove",
    "undo",
    "remove",
    "setboard",
    "result",
    "analyze",
    "exit",
    ".",
    "?",
    "ping",
    "level",
    "st",
    "sd",
    "time",
    "otim",
    "nps",
    "memory",
    "cores",
    "option",
    "exclude",
    "include",
    "all",
    "lift",
    "put",
    "hover",
    "hard",
    "easy",
    "post",
    "nopost",
    "playother",
    "white",
    "black",
    "hint",
    "bk",
    "draw",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "{",
    "}",
    "e2e4",
    "a10a9",
    "j9j0",
    "0000",
    "@@@@",
    "P@e4",
    "-1",
    "0",
    "99999999999999999999",
    "NaN",
    "inf",
    "true",
    "false",
    "é",
    "🙂",
    "\u{0}",
    "\u{7f}",
    "\t",
];

/// Commands after which random words may follow without asking for a long search.
const SAFE_HEADS: &[&str] = &[
    "isready",
    "stop",
    "ponderhit",
    "position",
    "setoption",
    "ucinewgame",
    "d",
    "new",
    "variant",
    "force",
    "usermove",
    "undo",
    "remove",
    "setboard",
    "result",
    "exit",
    ".",
    "ping",
    "memory",
    "cores",
    "option",
    "exclude",
    "include",
    "lift",
    "put",
    "hover",
    "post",
    "nopost",
    "hint",
    "bk",
    "xyzzy",
    "",
];

/// Picks a legal move, favouring the game's own and other special kinds (the moves whose
/// take-back is most likely to go wrong).
fn some_move(rng: &mut Rng, model: &Model) -> Option<Move> {
    let moves = model.game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let special: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.kind() != MoveKind::Normal)
        .collect();
    if !special.is_empty() && rng.below(2) == 0 {
        return Some(*pick(rng, &special));
    }
    Some(*pick(rng, moves.as_slice()))
}

fn text(model: &Model, dialect: Dialect, m: Move) -> String {
    move_text(model.variant(), dialect, m)
}

/// Moves of a short random game from `model`'s position, in `dialect`.
fn playout(rng: &mut Rng, model: &Model, dialect: Dialect, plies: usize) -> Vec<String> {
    let v = model.variant();
    let mut pos = model.position().clone();
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = legal(v, &pos);
        if moves.is_empty() {
            break;
        }
        let m = *pick(rng, moves.as_slice());
        out.push(move_text(v, dialect, m));
        pos = v.play(&pos, m);
    }
    out
}

/// A FEN of the game: the model's own, one of the corpus, or a broken one.
fn fen(rng: &mut Rng, model: &Model, corpus: &[String], broken: bool) -> String {
    let v = model.variant();
    let good = if corpus.is_empty() || rng.below(3) == 0 {
        model.fen()
    } else {
        pick(rng, corpus).clone()
    };
    if !broken {
        return good;
    }
    match rng.below(3) {
        0 => mutate_chars(rng, v, &good),
        1 => mutate_fields(rng, v, &good),
        _ => random_board(rng, v),
    }
}

/// The probe after a refusal: a legal move the engine must still take.
pub fn probe(rng: &mut Rng, model: &Model) -> Option<Vec<u8>> {
    let m = some_move(rng, model)?;
    match model.proto {
        Proto::Uci => Some(
            format!(
                "position fen {} moves {}",
                model.fen(),
                text(model, Dialect::Uci, m)
            )
            .into_bytes(),
        ),
        Proto::Cecp if !model.game_over => {
            Some(format!("usermove {}", text(model, Dialect::Cecp, m)).into_bytes())
        }
        Proto::Cecp => None,
    }
}

/// Breaks a valid line: cut short, a character changed, a word dropped or doubled.
fn break_line(rng: &mut Rng, line: &str) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    match rng.below(4) {
        0 => chars.truncate(rng.below(chars.len().max(1))),
        1 if !chars.is_empty() => {
            let at = rng.below(chars.len());
            chars[at] = *pick(rng, &['x', '9', ' ', '@', 'Z', '\u{fffd}', '-']);
        }
        2 => {
            let mut words: Vec<&str> = line.split(' ').collect();
            if words.len() > 1 {
                words.remove(1 + rng.below(words.len() - 1));
            }
            return words.join(" ");
        }
        _ => {
            let at = rng.below(chars.len() + 1);
            for c in pick(rng, WORDS).chars().rev() {
                chars.insert(at, c);
            }
        }
    }
    chars.into_iter().collect()
}

/// Digits in the longest run of digits of `line`.
fn longest_number(line: &str) -> usize {
    line.split(|c: char| !c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0)
}

/// Random words after a safe command, control bytes, invalid UTF-8 or a very long line.
fn hostile(rng: &mut Rng) -> Vec<u8> {
    match rng.below(6) {
        0 => {
            let n = 1 + rng.below(6);
            let mut words = vec![pick(rng, SAFE_HEADS).to_string()];
            words.extend((0..n).map(|_| pick(rng, WORDS).to_string()));
            words.join(" ").into_bytes()
        }
        1 => (0..rng.below(40))
            .map(|_| match rng.below(4) {
                0 => rng.below(32) as u8,
                1 => 0x80 + rng.below(128) as u8,
                _ => b'a' + rng.below(26) as u8,
            })
            .filter(|&b| b != b'\n')
            .collect(),
        2 => {
            let mut b = pick(rng, SAFE_HEADS).as_bytes().to_vec();
            b.extend([0xff, 0xfe, b' ', 0xc3, 0x28, 0xe2, 0x82]);
            b
        }
        3 => {
            // Around the longest line the engine reads, or far beyond it.
            let len = match rng.below(4) {
                0 => MAX_LINE,
                1 => MAX_LINE + 1,
                2 => MAX_LINE + 1 + rng.below(4) * 1000,
                _ => 200 + rng.below(8000),
            };
            let mut b = b"position fen ".to_vec();
            b.resize(len, b'x');
            if rng.below(2) == 0 {
                b.extend_from_slice(b"quit");
            }
            b
        }
        4 => pick(rng, &["\r", " ", "\t\t", "\u{b}quitx", "\u{c}", "\u{85}"])
            .as_bytes()
            .to_vec(),
        _ => {
            let word = pick(rng, SAFE_HEADS);
            let mut upper = word.to_ascii_uppercase().into_bytes();
            upper.extend_from_slice(b" 1");
            upper
        }
    }
}

/// A table size for `Hash` or `memory`: small, at the edges of the range, or beyond what any
/// machine gives. Sizes the machine may just give (gigabytes) are left out: the engine would
/// spend seconds clearing them and take memory from the rest of the machine.
fn table_mb(rng: &mut Rng) -> String {
    const EDGES: &[&str] = &[
        "0",
        "1",
        "2",
        "16",
        "65537",
        "99999999999999999999",
        "-1",
        "+3",
        "1e3",
        "",
        "x",
        "4294967296",
    ];
    match rng.below(3) {
        0 => (1 + rng.below(64)).to_string(),
        _ => pick(rng, EDGES).to_string(),
    }
}

fn line(s: impl Into<String>) -> Step {
    Step::Line(s.into().into_bytes())
}

/// The next UCI step.
pub fn uci(rng: &mut Rng, model: &Model, corpus: &[String], game: &dyn Variant) -> Step {
    let uci_move = |rng: &mut Rng| some_move(rng, model).map(|m| text(model, Dialect::Uci, m));
    match rng.below(100) {
        0..=14 => {
            let plies = rng.below(6);
            let moves = playout(rng, model, Dialect::Uci, plies);
            let moves = if moves.is_empty() {
                String::new()
            } else {
                format!(" moves {}", moves.join(" "))
            };
            line(format!("position fen {}{moves}", model.fen()))
        }
        15..=19 => line(format!("position fen {}", fen(rng, model, corpus, false))),
        20..=22 => line("position startpos"),
        23..=32 => {
            let good = format!("position fen {}", fen(rng, model, corpus, false));
            match rng.below(3) {
                0 => line(format!("position fen {}", fen(rng, model, corpus, true))),
                1 => line(break_line(rng, &good)),
                _ => line(format!(
                    "{good} moves {} {}",
                    uci_move(rng).unwrap_or_default(),
                    square(rng, model.variant()) + &square(rng, model.variant())
                )),
            }
        }
        33..=42 => {
            let go = match rng.below(9) {
                0 => format!("go depth {}", 1 + rng.below(3)),
                1 => format!("go nodes {}", 50 + rng.below(3000)),
                2 => format!("go movetime {}", 1 + rng.below(20)),
                3 => format!(
                    "go wtime {} btime {} winc {} binc 0",
                    rng.below(300),
                    rng.below(300),
                    rng.below(20)
                ),
                4 => "go infinite".to_string(),
                5 => "go ponder".to_string(),
                6 => format!("go perft {}", rng.below(3)),
                7 => match uci_move(rng) {
                    Some(m) => format!("go searchmoves {m} depth 2"),
                    None => "go depth 1".to_string(),
                },
                _ => "go mate 1 nodes 2000".to_string(),
            };
            if rng.below(4) == 0 {
                line(break_line(rng, &go))
            } else {
                line(go)
            }
        }
        43..=49 => line(*pick(rng, &["stop", "stop", "ponderhit", "isready", "d"])),
        50..=52 => line("ucinewgame"),
        53..=59 => {
            let option = match rng.below(8) {
                0 | 1 => format!("setoption name UCI_Variant value {}", game.name()),
                2 => format!(
                    "setoption name UCI_Variant value {}",
                    pick(rng, variants::all()).name()
                ),
                3 => format!("setoption name Hash value {}", 1 + rng.below(32)),
                4 => format!("setoption name Threads value {}", 1 + rng.below(2)),
                5 => format!("setoption name MultiPV value {}", 1 + rng.below(3)),
                6 => format!("setoption name Move Overhead value {}", rng.below(100)),
                _ => format!(
                    "setoption name Ponder value {}",
                    pick(rng, &["true", "false"])
                ),
            };
            if rng.below(3) == 0 {
                line(break_line(rng, &option))
            } else {
                line(option)
            }
        }
        60..=61 => {
            let name = *pick(
                rng,
                &["Hash", "Threads", "MultiPV", "Nonsense", "UCI_Variant"],
            );
            let value = if name == "Hash" {
                table_mb(rng)
            } else {
                number(rng)
            };
            line(format!("setoption name {name} value {value}"))
        }
        62..=85 => Step::Line(hostile(rng)),
        86..=97 => Step::Burst(uci_burst(rng)),
        _ if rng.below(4) == 0 => line("quit"),
        _ => line("uci"),
    }
}

fn uci_burst(rng: &mut Rng) -> Vec<Vec<u8>> {
    let lines: &[&str] = match rng.below(7) {
        0 => &["go infinite", "stop"],
        1 => &["go depth 30", "stop", "isready"],
        2 => &["go ponder", "ponderhit", "stop"],
        3 => &["go movetime 3", "go nodes 500", "stop"],
        4 => &["go perft 9", "stop"],
        5 => &["go infinite", "ucinewgame", "go depth 1"],
        _ => &["go infinite", "quit"],
    };
    lines.iter().map(|l| l.as_bytes().to_vec()).collect()
}

/// The next CECP step; `after_new` asks for the session's game again after `new`.
pub fn cecp(
    rng: &mut Rng,
    model: &Model,
    corpus: &[String],
    game: &dyn Variant,
    after_new: bool,
) -> Step {
    if after_new && rng.below(5) > 0 {
        return line(format!("variant {}", game.name()));
    }
    let v = model.variant();
    let cecp_move = |rng: &mut Rng| some_move(rng, model).map(|m| text(model, Dialect::Cecp, m));
    match rng.below(100) {
        0..=17 => match cecp_move(rng) {
            Some(m) if rng.below(4) == 0 => line(m),
            Some(m) => line(format!("usermove {m}")),
            None => line("undo"),
        },
        18..=23 => match cecp_move(rng) {
            Some(m) => line(break_line(rng, &format!("usermove {m}"))),
            None => line(format!("usermove {}", square(rng, v) + &square(rng, v))),
        },
        24..=31 => line(*pick(rng, &["undo", "undo", "remove"])),
        32..=34 => line("new"),
        35..=36 => line(format!("variant {}", pick(rng, variants::all()).name())),
        37 => line(format!(
            "variant {}",
            pick(rng, &["xiangqi", "normal", "", "chess x"])
        )),
        38..=42 => {
            let good = fen_to_cecp(v.rules(), &fen(rng, model, corpus, false));
            let bad = fen_to_cecp(v.rules(), &fen(rng, model, corpus, true));
            match rng.below(3) {
                0 => line(format!("setboard {good}")),
                1 => line(format!("setboard {bad}")),
                _ => line(break_line(rng, &format!("setboard {good}"))),
            }
        }
        43..=52 => line(*pick(
            rng,
            &[
                "force",
                "force",
                "go",
                "playother",
                "white",
                "black",
                "?",
                "result 1-0 {x}",
                "analyze",
                "exit",
                ".",
                "hint",
                "bk",
                "post",
                "nopost",
                "hard",
                "easy",
                "computer",
                "random",
                "draw",
                "ping 5",
            ],
        )),
        53..=60 => {
            let tc = match rng.below(7) {
                0 => format!("sd {}", 1 + rng.below(3)),
                1 => format!("st 0.0{}", 1 + rng.below(5)),
                2 => format!("level 0 0:0{} 0", 1 + rng.below(2)),
                3 => format!("level 40 0:01 0.0{}", rng.below(5)),
                4 => format!("time {}", rng.below(200)),
                5 => format!("otim {}", rng.below(200)),
                _ => format!("nps {}", 1000 + rng.below(20000)),
            };
            let broken = (rng.below(3) == 0).then(|| break_line(rng, &tc));
            // A break that lengthens a number (`nps 20400` with `0000` inserted) can make a
            // valid control of an hours-long search, which delays `pong` by protocol: such a
            // line is sent unbroken.
            match broken {
                Some(b) if longest_number(&b) <= longest_number(&tc) => line(b),
                _ => line(tc),
            }
        }
        61..=64 => line(match rng.below(6) {
            0 => format!("memory {}", 1 + rng.below(32)),
            1 => format!("memory {}", table_mb(rng)),
            2 => format!("cores {}", 1 + rng.below(2)),
            3 => format!("cores {}", number(rng)),
            4 => format!("option MultiPV={}", 1 + rng.below(3)),
            _ => format!(
                "option {}={}",
                pick(rng, &["MultiPV", "Move Overhead", "Junk"]),
                number(rng)
            ),
        }),
        65..=68 => match cecp_move(rng) {
            Some(m) => line(format!("{} {}", pick(rng, &["exclude", "include"]), m)),
            None => line("exclude all"),
        },
        69..=72 => line(format!(
            "{} {}",
            pick(rng, &["lift", "put", "hover", "lift"]),
            square(rng, v)
        )),
        73..=90 => Step::Line(hostile(rng)),
        91..=98 => Step::Burst(cecp_burst(rng)),
        _ if rng.below(4) == 0 => line("quit"),
        _ => line("protover 2"),
    }
}

fn cecp_burst(rng: &mut Rng) -> Vec<Vec<u8>> {
    let lines: &[&str] = match rng.below(6) {
        0 => &["go", "?"],
        1 => &["analyze", "exit"],
        2 => &["analyze", ".", "exit"],
        3 => &["go", "force"],
        4 => &["analyze", "new"],
        _ => &["go", "quit"],
    };
    lines.iter().map(|l| l.as_bytes().to_vec()).collect()
}
