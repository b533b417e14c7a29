//! What the page is told about a game, as JSON, built from the `Variant` API alone: the board
//! (playable squares, holes, named regions), the piece catalogue with a movement diagram of each
//! piece, and a position (pieces with their state labels, reserves, legal move texts). No game
//! is named here, so every registered game is shown the same way.

use crate::board::Position;
use crate::core::{Color, MoveList, Piece, PieceKind, Square};
use crate::eval::Params;
use crate::notation::Dialect;
use crate::rules::{Atom, Modality, Rules};
use crate::variants::{self, Variant};
use serde_json::{json, Value};

/// Half the side of a movement diagram: it shows steps up to this far from the piece.
const DIAGRAM_RADIUS: i8 = 4;

/// The FEN letter of a piece as the page's `data-piece` carries it: `Q`, `q`, `_Q`.
pub fn piece_code(rules: &Rules, piece: Piece) -> String {
    let letter = rules.letter(piece.kind(), piece.color());
    match piece.color() {
        Color::Neutral => format!("_{letter}"),
        _ => letter.to_string(),
    }
}

/// A side's one-letter name: `w`, `b`, `n`.
pub fn side_code(c: Color) -> char {
    c.fen_char()
}

/// Everything about a game that does not change while it is played.
pub fn variant_json(v: &dyn Variant) -> Value {
    let rules = v.rules();
    let geo = rules.geometry();
    let squares: Vec<String> = geo.board().into_iter().map(|s| s.to_string()).collect();
    let regions: Vec<Value> = geo
        .regions()
        .iter()
        .map(|(name, bb)| {
            let sq: Vec<String> = bb.into_iter().map(|s| s.to_string()).collect();
            json!({ "name": name, "squares": sq })
        })
        .collect();
    let notes = v.presentation().legend_notes();
    let note_of = |c: char| -> Vec<&str> {
        notes
            .iter()
            .filter(|(l, _)| *l == c)
            .map(|(_, t)| *t)
            .collect()
    };
    let (layout, params) = Params::for_variant(v);
    let pieces: Vec<Value> = rules
        .pieces()
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let kind = PieceKind(i as u8);
            // The engine's value of the piece, in pawns, middlegame and endgame (none for a
            // royal piece), as its parameter file gives it.
            let value = layout.value[i].map(|p| {
                let (mg, eg) = params.value(p);
                json!([f64::from(mg) / 100.0, f64::from(eg) / 100.0])
            });
            let promotions: Vec<String> = k
                .promotions
                .iter()
                .map(|&p| rules.letter(p, Color::White).to_string())
                .collect();
            json!({
                "letter": k.spec.letter.to_string(),
                "name": k.spec.name,
                "betza": k.spec.betza,
                "royal": rules.royal.contains(kind),
                "promotes": promotions,
                "diagrams": diagrams(&k.atoms),
                "notes": note_of(k.spec.letter),
                "value": value,
            })
        })
        .collect();
    let all: Vec<&str> = variants::names().collect();
    json!({
        "type": "variant",
        "name": v.name(),
        "description": v.description(),
        "variants": all,
        "files": geo.files(),
        "ranks": geo.ranks(),
        "squares": squares,
        "regions": regions,
        "pieces": pieces,
        "notes": note_of(' '),
        "start_fen": v.fen(&v.start_position()),
        "third_party": has_third_party(v),
        "neutral_name": v.presentation().neutral_name(),
    })
}

/// Whether the game has a third party with turns of its own. `docs/fen.md`: only such games
/// (turns from a clock of their own) write a seventh FEN field, so the start FEN tells.
pub fn has_third_party(v: &dyn Variant) -> bool {
    crate::third_party::has_third_party(v)
}

/// A piece's movement as diagrams: one per set of files its atoms are usable on (a piece whose
/// powers change with its file has several). Each cell is `[dx, dy, mode]` seen from White, with
/// mode `b` move or capture, `m` move only, `c` capture only, `i` first move only; `slides` lists
/// the directions that go on beyond the diagram.
fn diagrams(atoms: &[Atom]) -> Vec<Value> {
    let mut groups: Vec<(u8, u8)> = Vec::new();
    for a in atoms {
        if !groups.contains(&a.files) {
            groups.push(a.files);
        }
    }
    groups
        .into_iter()
        .map(|files| {
            let mut cells: Vec<(i8, i8, char)> = Vec::new();
            let mut slides = Vec::new();
            for a in atoms.iter().filter(|a| a.files == files) {
                add_atom(a, &mut cells, &mut slides);
            }
            let cells: Vec<Value> = cells
                .iter()
                .map(|&(x, y, m)| json!([x, y, m.to_string()]))
                .collect();
            let slides: Vec<Value> = slides.iter().map(|&(x, y)| json!([x, y])).collect();
            let files = (files != crate::rules::betza::ALL_FILES).then(|| {
                let f = |n: u8| (b'a' + n) as char;
                format!("{}-{}", f(files.0), f(files.1))
            });
            json!({ "files": files, "cells": cells, "slides": slides })
        })
        .collect()
}

/// Marks the squares one atom reaches in the diagram.
fn add_atom(a: &Atom, cells: &mut Vec<(i8, i8, char)>, slides: &mut Vec<(i8, i8)>) {
    let mode = if a.initial {
        'i'
    } else {
        match a.modality {
            Modality::Both => 'b',
            Modality::Move => 'm',
            Modality::Capture => 'c',
        }
    };
    let steps = if a.range == 0 { i8::MAX } else { a.range as i8 };
    for n in 1..=steps {
        let (x, y) = (a.dx.saturating_mul(n), a.dy.saturating_mul(n));
        if x.abs() > DIAGRAM_RADIUS || y.abs() > DIAGRAM_RADIUS {
            if a.range == 0 && !slides.contains(&(a.dx, a.dy)) {
                slides.push((a.dx, a.dy));
            }
            break;
        }
        match cells.iter_mut().find(|c| (c.0, c.1) == (x, y)) {
            // A square reached by a move-only and a capture-only atom is reached both ways.
            Some(c) if c.2 != mode && "mc".contains(c.2) && "mc".contains(mode) => c.2 = 'b',
            Some(c) if c.2 == 'i' => c.2 = mode,
            Some(_) => {}
            None => cells.push((x, y, mode)),
        }
    }
}

/// The pieces of a position, with their state labels.
pub fn pieces_json(v: &dyn Variant, pos: &Position) -> Vec<Value> {
    let rules = v.rules();
    pos.occupied()
        .into_iter()
        .map(|sq| {
            let piece = pos.piece_at(sq);
            let st = pos.state(sq);
            let attached = st
                .attached
                .is_some()
                .then(|| piece_code(rules, st.attached));
            json!({
                "square": sq.to_string(),
                "piece": piece_code(rules, piece),
                "color": side_code(piece.color()).to_string(),
                "labels": v.presentation().describe_state(v.rules(), pos, sq),
                "attached": attached,
                "link": st.link,
            })
        })
        .collect()
}

/// The pieces each side holds off the board, as `{ "w": ["Q", "Q"], "b": [...], "n": [...] }`.
pub fn reserve_json(rules: &Rules, pos: &Position) -> Value {
    let mut out = serde_json::Map::new();
    for c in Color::ALL {
        let mut list = Vec::new();
        for kind in PieceKind::all(rules.num_kinds()) {
            for _ in 0..pos.reserve().count(c, kind) {
                list.push(Value::from(piece_code(rules, Piece::new(c, kind))));
            }
        }
        out.insert(side_code(c).to_string(), Value::from(list));
    }
    Value::Object(out)
}

/// The legal moves' texts (UCI forms, `docs/protocol.md`).
pub fn legal_texts(v: &dyn Variant, moves: &MoveList) -> Vec<String> {
    moves
        .iter()
        .map(|&m| v.move_text(m, Dialect::Uci))
        .collect()
}

/// The squares of the side to move's royal pieces when it is in check.
pub fn checked_royals(v: &dyn Variant, pos: &Position) -> Vec<String> {
    if pos.turn() == Color::Neutral || !v.in_check(pos) {
        return Vec::new();
    }
    pos.royals(v.rules(), pos.turn())
        .into_iter()
        .map(|s: Square| s.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_game_has_a_board_and_a_legend() {
        for v in variants::all() {
            let j = variant_json(*v);
            let squares = j["squares"].as_array().unwrap().len();
            assert_eq!(squares as u32, v.rules().geometry().board().count());
            for p in j["pieces"].as_array().unwrap() {
                assert!(!p["name"].as_str().unwrap().is_empty());
            }
        }
    }

    #[test]
    fn piece_cards_carry_the_parameter_files_values() {
        for v in variants::all() {
            let j = variant_json(*v);
            let (layout, params) = Params::for_variant(*v);
            let file = crate::eval::shipped_file(v.name()).unwrap_or_default();
            for (i, p) in j["pieces"].as_array().unwrap().iter().enumerate() {
                let Some(index) = layout.value[i] else {
                    assert!(
                        p["value"].is_null(),
                        "{}: a royal piece has no value",
                        v.name()
                    );
                    continue;
                };
                let shown = p["value"].as_array().unwrap();
                let centipawns = |x: &Value| (x.as_f64().unwrap() * 100.0).round() as i64;
                // Where the game's file names the piece's value, the card shows that number.
                let key = format!("{} ", params.name(index));
                if let Some(line) = file.lines().find(|l| l.starts_with(&key)) {
                    let written: Vec<i64> = line[key.len()..]
                        .split_whitespace()
                        .map(|n| n.parse().unwrap())
                        .collect();
                    assert_eq!(centipawns(&shown[0]), written[0], "{}: {line}", v.name());
                    assert_eq!(centipawns(&shown[1]), *written.last().unwrap(), "{line}");
                }
            }
        }
        let chess = variant_json(variants::by_name("chess").unwrap());
        let mg = |l: &str| {
            let p = chess["pieces"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["letter"] == l)
                .unwrap();
            p["value"][0].as_f64().unwrap()
        };
        assert!(mg("P") < mg("N") && mg("N") <= mg("B") && mg("B") < mg("R") && mg("R") < mg("Q"));
        assert!(
            (0.5..1.5).contains(&mg("P")),
            "a pawn is worth about one pawn"
        );
    }

    #[test]
    fn a_rook_slides_and_a_pawn_moves_and_captures_differently() {
        let chess = variants::by_name("chess").unwrap();
        let j = variant_json(chess);
        let piece = |l: &str| {
            j["pieces"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["letter"] == l)
                .unwrap()
                .clone()
        };
        let rook = &piece("R")["diagrams"][0];
        assert_eq!(rook["slides"].as_array().unwrap().len(), 4);
        assert_eq!(rook["cells"].as_array().unwrap().len(), 16);
        let pawn = &piece("P")["diagrams"][0];
        let cells = pawn["cells"].as_array().unwrap();
        assert!(cells.contains(&json!([0, 1, "m"])));
        assert!(cells.contains(&json!([1, 1, "c"])));
        assert!(cells.contains(&json!([0, 2, "i"])));
    }

    #[test]
    fn state_labels_say_what_the_rules_mean() {
        // docs/rules/existentialist.md: a Bobber's range is counter + 1; the Existentialist's
        // next step is counter % 10 + 1; `f` is the fire streak.
        let v = variants::by_name("existentialist").unwrap();
        let pos = v
            .parse_fen("4k5/10/10/10/10/4O{c3}5/10/4X{c4}5/4N{aA,f1}5/4K5 w - - 0 1")
            .unwrap();
        let labels = |s: &str| {
            v.presentation()
                .describe_state(v.rules(), &pos, Square::parse(s).unwrap())
        };
        assert_eq!(labels("e5"), vec!["range 4"]);
        assert_eq!(labels("e3"), vec!["step 5"]);
        assert_eq!(labels("e2"), vec!["+archer", "shots 1"]);
        assert!(labels("e1").is_empty());
        // Chess has no state: the generic labels are empty.
        let chess = variants::by_name("chess").unwrap();
        let start = chess.start_position();
        assert!(chess
            .presentation()
            .describe_state(chess.rules(), &start, Square::parse("e1").unwrap())
            .is_empty());
    }

    #[test]
    fn codes_of_pieces_and_sides() {
        let chess = variants::by_name("chess").unwrap();
        let rules = chess.rules();
        let q = rules.kind_by_letter('Q').unwrap();
        assert_eq!(piece_code(rules, Piece::new(Color::White, q)), "Q");
        assert_eq!(piece_code(rules, Piece::new(Color::Black, q)), "q");
        assert_eq!(piece_code(rules, Piece::new(Color::Neutral, q)), "_Q");
        assert!(!has_third_party(chess));
    }
}
