//! State survives what GUIs do: `new` in the middle of a search, `undo` and `remove` after each
//! game's special moves, `setboard` during analysis, `ucinewgame` between games, pondering hits
//! and misses. After each, `d` shows the position the GUI expects, the next legal move is taken
//! and an illegal one refused. Expected positions come from the library's own rules.

use crate::protocol::*;
use menagerie::core::{Move, MoveKind, MoveList};
use menagerie::notation::{move_text, Dialect};
use menagerie::protocol::xboard_variant::fen_to_cecp;
use menagerie::variants::{self, Variant};
use std::time::Duration;

fn game(name: &str) -> &'static dyn Variant {
    variants::by_name(name).unwrap()
}

fn legal(v: &dyn Variant, fen: &str) -> MoveList {
    let pos = v.parse_fen(fen).unwrap();
    let mut out = MoveList::new();
    v.legal_moves(&pos, &mut out);
    out
}

/// The FEN after `m` from `fen`, as the engine prints it.
fn after(v: &dyn Variant, fen: &str, m: Move) -> String {
    v.fen(&v.play(&v.parse_fen(fen).unwrap(), m))
}

/// The FEN `d` shows (both protocols print the internal form).
#[track_caller]
fn shown_fen(e: &mut Engine, proto: Protocol) -> String {
    e.send("d");
    let prefix = match proto {
        Protocol::Uci => "info string variant ",
        Protocol::Xboard => "# variant ",
    };
    let line = e.expect_prefix(prefix);
    match line.split_once(" fen ") {
        Some((_, fen)) => fen.to_string(),
        None => e.fail(&format!("no FEN in {line:?}")),
    }
}

#[track_caller]
fn assert_shown(e: &mut Engine, proto: Protocol, expected: &str, when: &str) {
    let fen = shown_fen(e, proto);
    if fen != expected {
        e.fail(&format!("{when}: `d` shows {fen:?}, expected {expected:?}"));
    }
}

/// CECP: `usermove` that must be taken silently.
#[track_caller]
fn taken(e: &mut Engine, text: &str) {
    e.send(&format!("usermove {text}"));
    let lines = e.sync();
    if lines
        .iter()
        .any(|l| l.starts_with("Illegal") || l.starts_with("Error"))
    {
        e.fail(&format!("usermove {text} refused: {lines:?}"));
    }
}

/// CECP: `usermove` that must be refused.
#[track_caller]
fn refused(e: &mut Engine, text: &str) {
    e.send(&format!("usermove {text}"));
    let lines = e.sync();
    if !lines.iter().any(|l| l.starts_with("Illegal move")) {
        e.fail(&format!("usermove {text} taken: {lines:?}"));
    }
}

#[track_caller]
fn quiet(e: &mut Engine, cmd: &str) {
    e.send(cmd);
    let lines = e.sync();
    if !lines.is_empty() {
        e.fail(&format!("{cmd}: expected no output, got {lines:?}"));
    }
}

/// A move text no game takes from any position: a square off every board.
const NEVER_LEGAL: &str = "a1a11";

/// CECP `undo` and `remove` around a special move `m` of `v` from `fen` (White to move): the
/// engine must show the position before it, take it again, and refuse what is illegal.
fn take_back_around(name: &str, fen: &str, pick: impl Fn(Move) -> bool, what: &str) {
    let v = game(name);
    let moves = legal(v, fen);
    let m = *moves
        .iter()
        .find(|&&m| pick(m))
        .unwrap_or_else(|| panic!("{name}: no {what} in {fen}"));
    let before = v.fen(&v.parse_fen(fen).unwrap());
    let after_m = after(v, fen, m);
    let text = move_text(v, Dialect::Cecp, m);
    // A reply of the other side, for `remove`.
    let reply = {
        let mut r = MoveList::new();
        v.legal_moves(&v.parse_fen(&after_m).unwrap(), &mut r);
        *r.iter().next().unwrap()
    };
    let reply_text = move_text(v, Dialect::Cecp, reply);
    let after_reply = after(v, &after_m, reply);

    let mut e = Engine::xboard();
    quiet(&mut e, "new");
    // `variant` answers with `setup` and `piece` lines for XBoard.
    e.send(&format!("variant {name}"));
    e.sync();
    quiet(&mut e, "force");
    quiet(&mut e, &format!("setboard {}", fen_to_cecp(v.rules(), fen)));
    assert_shown(&mut e, Protocol::Xboard, &before, "after setboard");
    taken(&mut e, &text);
    assert_shown(
        &mut e,
        Protocol::Xboard,
        &after_m,
        &format!("after the {what} {text}"),
    );
    quiet(&mut e, "undo");
    assert_shown(
        &mut e,
        Protocol::Xboard,
        &before,
        &format!("undo of the {what}"),
    );
    refused(&mut e, NEVER_LEGAL);
    refused(&mut e, &reply_text);
    // The same move again, then the reply, then both taken back at once.
    taken(&mut e, &text);
    assert_shown(
        &mut e,
        Protocol::Xboard,
        &after_m,
        &format!("the {what} again"),
    );
    taken(&mut e, &reply_text);
    assert_shown(&mut e, Protocol::Xboard, &after_reply, "after the reply");
    quiet(&mut e, "remove");
    assert_shown(
        &mut e,
        Protocol::Xboard,
        &before,
        &format!("remove after the {what}"),
    );
    taken(&mut e, &text);
    assert_shown(&mut e, Protocol::Xboard, &after_m, "taken after remove");
    // The engine still thinks from here.
    quiet(&mut e, "sd 1");
    e.send("go");
    let line = e.expect("a move", |l| l.starts_with("move "), DEADLINE);
    let _ = line;
    e.finish();
}

#[test]
fn undo_and_remove_after_an_existentialist_blast() {
    // The Existentialist's 20th move, a1 to c2 by a knight leap, then its blast (docs/rules).
    take_back_around(
        "existentialist",
        "9k/10/10/10/4x{c10,sz@70}5/10/10/10/yy8/X{c19}a7K w - - 0 30",
        |m| m.from().to_string() == "a1" && m.to().to_string() == "c2",
        "blast",
    );
}

#[test]
fn undo_and_remove_after_an_existentialist_merge() {
    take_back_around(
        "existentialist",
        &game("existentialist").fen(&game("existentialist").start_position()),
        |m| m.is(menagerie::variants::existentialist::MERGE),
        "merge",
    );
}

#[test]
fn undo_and_remove_after_a_schizophrenic_teleport() {
    take_back_around(
        "schizophrenic",
        "6k5/12/12/12/12/PPPPPPPPPPPP/1K10 w - - 0 1",
        |m| m.is(menagerie::variants::schizophrenic::KING_TELEPORT),
        "King's teleport",
    );
}

#[test]
fn undo_and_remove_after_a_magician_switch() {
    take_back_around(
        "magician",
        &game("magician").fen(&game("magician").start_position()),
        |m| m.kind() == MoveKind::Transform,
        "switch",
    );
}

#[test]
fn undo_and_remove_after_an_afterlife_turn() {
    take_back_around(
        "afterlife",
        &game("afterlife").fen(&game("afterlife").start_position()),
        |m| matches!(m.kind(), MoveKind::Special(_)),
        "turn",
    );
}

/// Chaos under CECP: Nature plays inside the engine, and XBoard never sees its plies. `undo` and
/// `remove` count XBoard's moves: a Nature ply goes back with the move it followed.
#[test]
fn undo_and_remove_count_xboards_moves_around_a_nature_ply() {
    let v = game("chaos");
    let start = v.fen(&v.start_position());
    let opening = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"];
    let fen_after = |moves: &[&str]| {
        let mut pos = v.start_position();
        for t in moves {
            let m = menagerie::notation::parse_move(v, &pos, Dialect::Cecp, t).unwrap();
            pos = v.play(&pos, m);
        }
        v.fen(&pos)
    };
    let after_opening = fen_after(&opening);
    let after_b8c6 = fen_after(&opening[..4]);
    let mut e = Engine::xboard();
    e.send("variant chaos");
    e.sync();
    quiet(&mut e, "force");
    for m in opening {
        taken(&mut e, m);
    }
    // Nature's turn: Black's move makes the engine play Nature first.
    e.send("usermove g8f6");
    let lines = e.sync();
    let Some(told) = lines
        .iter()
        .find_map(|l| l.strip_prefix("tellothers Nature plays "))
        .map(str::to_string)
    else {
        e.fail(&format!("Nature did not play: {lines:?}"))
    };
    let mut with_nature: Vec<&str> = opening.to_vec();
    with_nature.push(&told);
    let after_nature = fen_after(&with_nature);
    quiet(&mut e, "undo");
    assert_shown(&mut e, Protocol::Xboard, &after_nature, "undo of g8f6");
    taken(&mut e, "g8f6");
    quiet(&mut e, "remove");
    assert_shown(
        &mut e,
        Protocol::Xboard,
        &after_b8c6,
        "remove of g8f6 and f1c4 (with Nature's ply between them)",
    );
    refused(&mut e, "g8f6");
    taken(&mut e, "f1c4");
    assert_shown(&mut e, Protocol::Xboard, &after_opening, "f1c4 again");
    // On Nature's turn `go` plays Nature, then the engine's move for Black; `undo` takes back
    // the engine's move, and `remove` that and f1c4 with the Nature ply between them.
    quiet(&mut e, "sd 1");
    e.send("go");
    let lines = e.lines_until("a move", |l| l.starts_with("move "), DEADLINE);
    let Some(told) = lines
        .iter()
        .find_map(|l| l.strip_prefix("tellothers Nature plays "))
        .map(str::to_string)
    else {
        e.fail(&format!(
            "Nature did not play before the engine's move: {lines:?}"
        ))
    };
    quiet(&mut e, "force");
    let mut with_nature: Vec<&str> = opening.to_vec();
    with_nature.push(&told);
    quiet(&mut e, "undo");
    assert_shown(
        &mut e,
        Protocol::Xboard,
        &fen_after(&with_nature),
        "undo of the engine's move",
    );
    quiet(&mut e, "remove");
    assert_shown(
        &mut e,
        Protocol::Xboard,
        &fen_after(&opening[..3]),
        "remove of b8c6 and f1c4",
    );
    taken(&mut e, "b8c6");
    assert_shown(&mut e, Protocol::Xboard, &after_b8c6, "b8c6 again");
    quiet(&mut e, "remove");
    assert_shown(
        &mut e,
        Protocol::Xboard,
        &fen_after(&opening[..2]),
        "remove of b8c6 and g1f3",
    );
    quiet(&mut e, "remove");
    assert_shown(&mut e, Protocol::Xboard, &start, "back to the start");
    e.send("undo");
    let lines = e.sync();
    if !lines
        .iter()
        .any(|l| l.starts_with("Error (no move to undo)"))
    {
        e.fail(&format!("undo at the start: {lines:?}"));
    }
    assert_shown(&mut e, Protocol::Xboard, &start, "a refused undo");
    e.finish();
}

/// `new` while the engine thinks on its move: no move of the old game comes out, and the board
/// is the start position of chess.
#[test]
fn new_in_the_middle_of_a_search() {
    let chess = game("chess");
    let mut e = Engine::xboard();
    e.send("variant schizophrenic");
    e.sync();
    quiet(&mut e, "st 30");
    e.send("go");
    e.pause(Duration::from_millis(300));
    e.send("new");
    let lines = e.sync();
    if lines.iter().any(|l| l.starts_with("move ")) {
        e.fail(&format!(
            "a move of the abandoned search came out: {lines:?}"
        ));
    }
    assert_shown(
        &mut e,
        Protocol::Xboard,
        &chess.fen(&chess.start_position()),
        "new",
    );
    quiet(&mut e, "force");
    refused(&mut e, "e2e5");
    taken(&mut e, "e2e4");
    e.expect_no_line(
        "a late move",
        |l| l.starts_with("move "),
        Duration::from_millis(300),
    );
    e.finish();
}

/// `setboard` while analysing: analysis goes on from the new position, and `exit` leaves it.
#[test]
fn setboard_during_analysis() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let mut e = Engine::xboard();
    quiet(&mut e, "new");
    quiet(&mut e, "force");
    quiet(&mut e, "post");
    e.send("analyze");
    e.pause(Duration::from_millis(200));
    e.send(&format!("setboard {fen}"));
    e.sync();
    assert_shown(&mut e, Protocol::Xboard, fen, "setboard during analysis");
    // The analysis that follows is of the new position: its lines are thinking lines whose
    // first move is legal there.
    e.pause(Duration::from_millis(300));
    e.send(".");
    e.sync();
    // A thinking line the analysis printed before `exit` reached the engine may still arrive
    // after the last sync; nothing else may.
    e.send("exit");
    let late = e.sync();
    if let Some(l) = late.iter().find(|l| !is_thinking_line(l)) {
        e.fail(&format!(
            "exit: expected no output but late thinking, got {l:?}"
        ));
    }
    refused(&mut e, "d2d4");
    taken(&mut e, "e2e4");
    let chess = game("chess");
    let e4 = *legal(chess, fen)
        .iter()
        .find(|m| move_text(chess, Dialect::Uci, **m) == "e2e4")
        .unwrap();
    assert_shown(
        &mut e,
        Protocol::Xboard,
        &after(chess, fen, e4),
        "e2e4 after analysis",
    );
    e.finish();
}

/// `ucinewgame` between two games of different variants: the second starts clean.
#[test]
fn ucinewgame_between_games() {
    let mut e = Engine::uci();
    e.send("setoption name UCI_Variant value divergent");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e9e7");
    e.send("go depth 3");
    e.expect("bestmove", |l| l.starts_with("bestmove "), DEADLINE);
    e.send("setoption name UCI_Variant value chess");
    e.send("ucinewgame");
    e.sync();
    let chess = game("chess");
    assert_shown(
        &mut e,
        Protocol::Uci,
        &chess.fen(&chess.start_position()),
        "ucinewgame",
    );
    // A move from the old game's position is refused in the new one.
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.sync();
    e.send("go depth 2");
    let line = e.expect("bestmove", |l| l.starts_with("bestmove "), DEADLINE);
    let best = parse_bestmove(&line).unwrap().0;
    e.assert_legal(START_FEN, &["e2e4", "e7e5", "g1f3"], &best);
    e.send("position startpos moves e2e4 e9e7");
    let lines = e.sync();
    if !lines.iter().any(|l| l.starts_with("info string")) {
        e.fail(&format!("a ten-rank move was taken in chess: {lines:?}"));
    }
    e.finish();
}

/// Pondering: a hit plays on in the expected position, a miss (`stop`, then the real move) is
/// searched from the position the GUI sets.
#[test]
fn ponderhit_and_pondermiss() {
    let mut e = Engine::uci();
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 2000 btime 2000");
    e.pause(Duration::from_millis(200));
    e.send("ponderhit");
    let line = e.expect(
        "bestmove after ponderhit",
        |l| l.starts_with("bestmove "),
        DEADLINE,
    );
    let best = parse_bestmove(&line).unwrap().0;
    e.assert_legal(START_FEN, &["e2e4", "e7e5"], &best);
    // A miss: the GUI stops the ponder search, ignores its move and sends the real position.
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go ponder wtime 2000 btime 2000");
    e.pause(Duration::from_millis(200));
    e.send("stop");
    e.expect(
        "bestmove after stop",
        |l| l.starts_with("bestmove "),
        DEADLINE,
    );
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    e.send("go wtime 2000 btime 2000");
    let line = e.expect(
        "bestmove after the miss",
        |l| l.starts_with("bestmove "),
        DEADLINE,
    );
    let best = parse_bestmove(&line).unwrap().0;
    e.assert_legal(START_FEN, &["e2e4", "e7e5", "g1f3", "b8c6"], &best);
    let chess = game("chess");
    let mut pos = chess.start_position();
    for t in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        let m = menagerie::notation::parse_move(chess, &pos, Dialect::Uci, t).unwrap();
        pos = chess.play(&pos, m);
    }
    assert_shown(&mut e, Protocol::Uci, &chess.fen(&pos), "after the miss");
    e.finish();
}
