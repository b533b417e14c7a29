//! A game's record for the page: the search lines, the moves with the side that played each,
//! the PGN and the result in words.

use super::view;
use crate::arena::pgn::PgnGame;
use crate::board::Position;
use crate::core::Color;
use crate::game::Game;
use crate::notation::Dialect;
use crate::search::{Info, Score};
use crate::variants::{EndReason, Outcome, Variant};
use serde_json::{json, Value};

/// A search line for the page: the score from White's side, depth, nodes and the moves.
pub fn info_json(v: &dyn Variant, pos: &Position, info: &Info) -> Value {
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
pub fn move_list(game: &Game) -> Vec<Value> {
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

/// The game in PGN, its moves in the project's notation; `players` names White and Black.
pub fn pgn(game: &Game, players: [&str; 2], outcome: Option<&Outcome>) -> String {
    let v = game.variant();
    let start = game.start();
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
