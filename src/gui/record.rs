//! A game's record for the page: the search lines, the moves with the side that played each,
//! the PGN written and read, and the result in words. Every move's text on the page comes from
//! [`ply_text`], and every move a pasted PGN gives is read by [`read_ply`].

use super::tree::Tree;
use super::view;
use crate::arena::THIRD_PARTY_NOTE;
use crate::board::Position;
use crate::core::{Color, Move};
use crate::game::Game;
use crate::notation::{Dialect, MoveError};
use crate::search::{Info, Score};
use crate::variants::san;
use crate::variants::{self, EndReason, Outcome, Variant};
use serde_json::{json, Value};
use std::fmt::Write;

/// Longest PGN a page may paste.
pub const MAX_PGN: usize = 60_000;
/// Most moves (plies of all lines) a pasted PGN may hold.
const MAX_PGN_PLIES: usize = 5_000;
/// Deepest nesting of variations in a pasted PGN.
const MAX_PGN_DEPTH: usize = 32;

/// The text of move `m`, played in `pos`, as the page shows it and Copy PGN writes it: its
/// SAN (`docs/protocol.md`, "SAN").
pub fn ply_text(v: &dyn Variant, pos: &Position, m: Move) -> String {
    san::write(v, pos, m)
}

/// The texts of a line of moves from `pos`.
pub fn line_text(v: &dyn Variant, pos: &Position, line: &[Move]) -> Vec<String> {
    san::write_line(v, pos, line)
}

/// A move's coordinate text (`docs/protocol.md`), which the page's move entry reads.
pub fn coordinate_text(v: &dyn Variant, m: Move) -> String {
    v.move_text(m, Dialect::Uci)
}

/// The legal move a pasted PGN writes as `text` in `pos`: SAN, or coordinate text.
pub fn read_ply(v: &dyn Variant, pos: &Position, text: &str) -> Result<Move, MoveError> {
    san::read(v, pos, text)
}

/// A search's internal score, from the side to move's point of view in `pos`, as the page
/// shows it: centipawns or moves to mate from White's side.
pub fn score_json(v: &dyn Variant, pos: &Position, internal: i32) -> Value {
    let sign = if v.rulings().point_of_view(pos) == Color::Black {
        -1
    } else {
        1
    };
    match Score::from_internal(internal) {
        Score::Cp(cp) => json!({ "cp": sign * cp }),
        Score::Mate(n) => json!({ "mate": sign * n }),
    }
}

/// A search line for the page: its number (MultiPV), the score from White's side, depth, nodes
/// and the moves, as the page writes them (`pv`) and in coordinates (`pv_uci`, for the arrows).
pub fn info_json(v: &dyn Variant, pos: &Position, info: &Info) -> Value {
    let ms = info.time.as_millis().max(1) as u64;
    let pv_uci: Vec<String> = info.pv.iter().map(|&m| coordinate_text(v, m)).collect();
    json!({
        "type": "info",
        "multipv": info.multipv.max(1),
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": score_json(v, pos, info.score),
        "nodes": info.nodes,
        "nps": info.nodes * 1000 / ms,
        "time_ms": ms,
        "pv": line_text(v, pos, &info.pv),
        "pv_uci": pv_uci,
    })
}

/// The moves played to the position shown, each with the side that played it, its text, its
/// coordinate text and its node in the tree.
pub fn move_list(game: &Game, path: &[usize]) -> Vec<Value> {
    let v = game.variant();
    let mut pos = game.start().clone();
    let mut out = Vec::with_capacity(game.moves().len());
    for (i, &m) in game.moves().iter().enumerate() {
        out.push(json!({
            "text": ply_text(v, &pos, m),
            "uci": coordinate_text(v, m),
            "side": view::side_code(pos.turn()).to_string(),
            "node": path.get(i),
        }));
        pos = v.play(&pos, m);
    }
    out
}

/// The game in PGN: the tags, then the moves of the tree as [`ply_text`] writes them, its
/// variations in parentheses; `players` names White and Black.
pub fn pgn(v: &dyn Variant, tree: &Tree, players: [&str; 2], outcome: Option<&Outcome>) -> String {
    let start = tree.start();
    let result = outcome.map_or("*", Outcome::pgn);
    let mut tags = vec![
        ("Event".to_string(), "Menagerie gui".to_string()),
        ("Site".to_string(), "local".to_string()),
        ("White".to_string(), players[0].to_string()),
        ("Black".to_string(), players[1].to_string()),
        ("Result".to_string(), result.to_string()),
        ("Variant".to_string(), v.name().to_string()),
    ];
    let fen = v.fen(start);
    if fen != v.fen(&v.start_position()) {
        tags.push(("FEN".to_string(), fen));
        tags.push(("SetUp".to_string(), "1".to_string()));
    }
    let mut out = String::new();
    for (k, val) in &tags {
        let val = val.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{k} \"{val}\"]");
    }
    out.push('\n');
    let mut tokens = Vec::new();
    movetext(tree, 0, true, &mut tokens);
    if let Some(o) = outcome {
        let ending = describe(o).replace('{', "(").replace('}', ")");
        tokens.push(format!("{{{ending}}}"));
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + t.len() + 1 > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The tokens of the line that goes on from `node`: each move, with the other moves played
/// in its place as variations after it. `number`: the next player's move gets its number even
/// when it is Black's.
fn movetext(tree: &Tree, node: usize, mut number: bool, tokens: &mut Vec<String>) {
    let mut n = node;
    while let Some(&main) = tree.node(n).children.first() {
        number = ply_tokens(tree, main, number, tokens);
        let alternatives = &tree.node(n).children[1..];
        for &alt in alternatives {
            tokens.push("(".to_string());
            let after = ply_tokens(tree, alt, true, tokens);
            movetext(tree, alt, after, tokens);
            tokens.push(")".to_string());
        }
        number |= !alternatives.is_empty();
        n = main;
    }
}

/// Writes one move with its number (`N.` for White's, `N...` for Black's when `number`); a
/// third party's ply has no number and a comment. Returns whether the next move needs its number.
fn ply_tokens(tree: &Tree, id: usize, number: bool, tokens: &mut Vec<String>) -> bool {
    let node = tree.node(id);
    if node.side == Color::Neutral {
        tokens.push(node.text.clone());
        tokens.push(format!("{{{THIRD_PARTY_NOTE}}}"));
        return true;
    }
    let full = node.number_ply / 2 + 1;
    if node.number_ply % 2 == 0 {
        tokens.push(format!("{full}."));
    } else if number {
        tokens.push(format!("{full}..."));
    }
    tokens.push(node.text.clone());
    false
}

/// A pasted game: its variant, its tree and the node it ends on (the main line's last).
pub struct Pasted {
    pub variant: &'static dyn Variant,
    pub tree: Tree,
    pub end: usize,
}

/// Reads the first game of a PGN: the `[Variant]` tag names the game (FIDE chess without one),
/// `[FEN]` the start position; the moves may be SAN or coordinate text, with move numbers,
/// comments, NAGs and variations in parentheses. An error names the move it could not read.
pub fn read_pgn(text: &str) -> Result<Pasted, String> {
    if text.len() > MAX_PGN {
        return Err(format!("PGN longer than {MAX_PGN} bytes"));
    }
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') && l.ends_with(']') {
            if !movetext.trim().is_empty() {
                break; // a second game
            }
            let inner = &l[1..l.len() - 1];
            if let Some((k, val)) = inner.split_once(char::is_whitespace) {
                let val = val.trim().trim_matches('"').replace("\\\"", "\"");
                tags.push((k.to_string(), val.replace("\\\\", "\\")));
            }
        } else if !l.starts_with('%') {
            movetext.push_str(l);
            movetext.push('\n');
        }
    }
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, val)| val.as_str())
    };
    let name = match tag("Variant").map(str::to_ascii_lowercase) {
        None => "chess".to_string(),
        Some(n) if ["standard", "from position", ""].contains(&n.as_str()) => "chess".to_string(),
        Some(n) => n,
    };
    let v = variants::by_name(&name).map_err(|e| format!("[Variant]: {e}"))?;
    let start = match tag("FEN") {
        Some(fen) => v
            .parse_fen(fen.trim())
            .map_err(|e| format!("[FEN] refused: {e}"))?,
        None => v.start_position(),
    };
    let mut tree = Tree::new(start.clone());
    // The position after each node, by node number.
    let mut positions = vec![start];
    let mut cur = 0;
    let mut stack = Vec::new();
    for token in tokens(&movetext)? {
        match token.as_str() {
            "(" => {
                if cur == 0 || stack.len() >= MAX_PGN_DEPTH {
                    return Err("a variation with no move before it, or nested too deep".into());
                }
                stack.push(cur);
                cur = tree.node(cur).parent;
            }
            ")" => cur = stack.pop().ok_or("a ')' with no '(' before it")?,
            t => {
                let pos = &positions[cur];
                let node = tree.node(cur);
                let number =
                    node.number_ply + u32::from(node.mv.is_some() && node.side != Color::Neutral);
                let label = if pos.turn() == Color::Neutral {
                    format!("ply {} (the third party's)", node.ply + 1)
                } else if pos.turn() == Color::White {
                    format!("move {}. {t}", number / 2 + 1)
                } else {
                    format!("move {}... {t}", number / 2 + 1)
                };
                let m = read_ply(v, pos, t)
                    .map_err(|_| format!("{label}: no legal move here is written '{t}'"))?;
                let id = tree.add(v, pos, cur, m);
                if id == positions.len() {
                    if positions.len() > MAX_PGN_PLIES {
                        return Err(format!("more than {MAX_PGN_PLIES} moves"));
                    }
                    positions.push(v.play(pos, m));
                }
                cur = id;
            }
        }
    }
    if !stack.is_empty() {
        return Err("a '(' that is not closed".into());
    }
    let end = *tree.main_line().last().unwrap_or(&0);
    Ok(Pasted {
        variant: v,
        tree,
        end,
    })
}

/// The move tokens of PGN movetext, with `(` and `)`; move numbers, comments, NAGs, annotation
/// marks and the result are left out.
fn tokens(movetext: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut token = String::new();
    let mut chars = movetext.chars();
    let flush = |token: &mut String, out: &mut Vec<String>| {
        let t = std::mem::take(token);
        // `12.`, `12...` and `12.e4`: the number goes.
        let t = match t.find('.') {
            Some(i) if t[..i].chars().all(|c| c.is_ascii_digit()) => {
                t[i..].trim_start_matches('.').to_string()
            }
            _ => t,
        };
        let skip = t.is_empty()
            || t.starts_with('$')
            || ["1-0", "0-1", "1/2-1/2", "*"].contains(&t.as_str())
            || t.chars().all(|c| matches!(c, '!' | '?'));
        if !skip {
            out.push(t);
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut token, &mut out);
                if !chars.by_ref().any(|c| c == '}') {
                    return Err("a comment '{' that is not closed".into());
                }
            }
            ';' => {
                flush(&mut token, &mut out);
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' | ')' => {
                flush(&mut token, &mut out);
                out.push(c.to_string());
            }
            c if c.is_whitespace() => flush(&mut token, &mut out),
            c => token.push(c),
        }
    }
    flush(&mut token, &mut out);
    Ok(out)
}

/// The result's reason in words.
pub fn describe(o: &Outcome) -> String {
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
