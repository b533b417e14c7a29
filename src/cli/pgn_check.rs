//! `menagerie pgn-check`: every game of a PGN file replayed with our rules: our SAN (the
//! runner's PGN), coordinate moves, and SAN as XBoard writes it.

use crate::arena::pgn::{self, ReadGame};
use crate::board::Position;
use crate::core::Move;
use crate::notation::{parse_move, parse_san, Dialect, MoveError};
use crate::protocol::xboard_variant as xboard;
use crate::variants::{self, san, Variant};
use std::path::Path;

/// Replays every game of `file` in `dialect` (`uci` or `cecp`), each in its `Variant` tag's
/// game or else `default_variant`; one line per game, or the first illegal move.
pub fn pgn_check(file: &Path, default_variant: &str, dialect: &str) -> Result<(), String> {
    let (dialect, other, other_name) = match dialect {
        "uci" => (Dialect::Uci, Dialect::Cecp, "cecp"),
        "cecp" | "xboard" => (Dialect::Cecp, Dialect::Uci, "uci"),
        d => return Err(format!("--dialect {d}: expected uci or cecp")),
    };
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let games = pgn::read(&text);
    if games.is_empty() {
        return Err(format!("{} holds no game", file.display()));
    }
    for (i, g) in games.iter().enumerate() {
        let name = g.tag("Variant").unwrap_or(default_variant);
        let name = if name == "normal" { "chess" } else { name };
        let v = variants::by_name(name).map_err(|e| format!("game {}: {e}", i + 1))?;
        if let Err(e) = replay(v, g, dialect) {
            // On ten ranks the dialects number squares differently: a file written in one often
            // fails in the other, so say which one replays it.
            let hint = if replay(v, g, other).is_ok() {
                format!("; the game replays with --dialect {other_name}")
            } else {
                String::new()
            };
            return Err(format!("game {}{e}{hint}", i + 1));
        }
        println!(
            "game {}: {} plies of {} replayed, result {}",
            i + 1,
            g.moves.len(),
            v.name(),
            g.result
        );
    }
    println!("{} games replayed, every move legal", games.len());
    Ok(())
}

/// Replays one game of a PGN file in `dialect`; the error continues `game N`.
fn replay(v: &'static dyn Variant, g: &ReadGame, dialect: Dialect) -> Result<(), String> {
    let mut pos = match g.tag("FEN") {
        Some(f) => {
            let f = if dialect == Dialect::Cecp {
                xboard::fen_from_cecp(v.rules(), f)
            } else {
                f.to_string()
            };
            v.parse_fen(&f).map_err(|e| format!(": {e}"))?
        }
        None => v.start_position(),
    };
    for (n, token) in g.moves.iter().enumerate() {
        let m = read_move(v, &pos, dialect, token).map_err(|e| {
            format!(
                " ({} vs {}), ply {}: {e} in {}",
                g.tag("White").unwrap_or("?"),
                g.tag("Black").unwrap_or("?"),
                n + 1,
                v.fen(&pos)
            )
        })?;
        pos = v.play(&pos, m);
    }
    Ok(())
}

/// One move of a PGN: under UCI our SAN (`san::read`, which also takes coordinates and SAN as
/// GUIs write it); under CECP, for XBoard's PGN, coordinates, SAN and XBoard's own forms in
/// XBoard's numbering (our SAN numbers squares as UCI does, so the runner's PGN is read under
/// UCI, the default).
fn read_move(
    v: &'static dyn Variant,
    pos: &Position,
    dialect: Dialect,
    token: &str,
) -> Result<Move, MoveError> {
    match dialect {
        Dialect::Uci => san::read(v, pos, token),
        Dialect::Cecp => parse_move(v, pos, dialect, token)
            .or_else(|_| parse_san(v, pos, dialect, token))
            .or_else(|e| {
                xboard::parse_xboard_san(v, pos, token)
                    .or_else(|_| xboard::parse_kill_san(v, pos, token))
                    .map_err(|_| e)
            }),
    }
}
