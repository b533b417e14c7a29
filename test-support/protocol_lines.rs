//! What a protocol line may look like, for the test crates that check an engine's output
//! (`engine-tests`, `fuzz`): everything the engine prints on stdout must pass
//! [`is_uci_line`] or [`is_cecp_line`]. Shared by `#[path]` so both judge by one definition.

/// A line the engine may print in UCI mode, `go perft` output included.
pub fn is_uci_line(line: &str) -> bool {
    const PREFIXES: [&str; 7] = [
        "id name ",
        "id author ",
        "option name ",
        "info ",
        "bestmove ",
        "copyprotection ",
        "registration ",
    ];
    line == "uciok"
        || line == "readyok"
        || PREFIXES.iter().any(|p| line.starts_with(p))
        || is_perft_line(line)
}

/// `go perft` output: `move: count` for a move of any game, a blank line, `Nodes searched: N`.
pub fn is_perft_line(line: &str) -> bool {
    if line.is_empty() {
        return true;
    }
    if let Some(n) = line.strip_prefix("Nodes searched: ") {
        return n.parse::<u64>().is_ok();
    }
    line.split_once(": ")
        .is_some_and(|(mv, n)| is_move_text(mv) && n.parse::<u64>().is_ok())
}

/// A line the engine may print in XBoard/CECP mode.
pub fn is_cecp_line(line: &str) -> bool {
    const PREFIXES: [&str; 24] = [
        "feature ",
        "setup (",
        "piece ",
        "pong ",
        "move ",
        "Illegal move",
        "Error (",
        "tellusererror ",
        "telluser ",
        "tellics ",
        "tellicsnoalias ",
        "tellopponent ",
        "tellothers ",
        "tellall ",
        "askuser ",
        "stat01: ",
        "highlight ",
        "choice ",
        "click ",
        "Hint: ",
        "offer draw",
        "resign",
        "#",
        " ", // `bk` book lines start with a space
    ];
    const RESULTS: [&str; 4] = ["1-0 {", "0-1 {", "1/2-1/2 {", "* {"];
    line.is_empty() // end of a `bk` answer
        || PREFIXES.iter().any(|p| line.starts_with(p))
        || RESULTS.iter().any(|p| line.starts_with(p))
        || is_thinking_line(line)
}

/// CECP thinking output: `depth score time nodes pv...`, the first four fields integers.
pub fn is_thinking_line(line: &str) -> bool {
    let fields: Vec<&str> = line.split_whitespace().collect();
    fields.len() >= 4 && fields[..4].iter().all(|f| f.parse::<i64>().is_ok())
}

/// A move text of any game: squares, piece letters, `@`, commas, `/`, and `+` and `-` (the
/// parts of an Afterlife turn).
pub fn is_move_text(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '@' | ',' | '/' | '+' | '-'))
}
