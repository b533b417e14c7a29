//! PGN of finished games, and a reader for the subset we write (tags, moves, comments), used
//! to check that games replay. The runner writes its moves in SAN (`variants::san`).

use std::fmt::Write;

/// A game to write.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// Tag pairs, in order.
    pub tags: Vec<(String, String)>,
    /// Moves as written (SAN from the runner) with an optional comment each.
    pub moves: Vec<(String, Option<String>)>,
    /// Ply number of the first move (0: White moved first from the start position).
    pub first_ply: u32,
    /// Indices in `moves` of a third party's plies, which get no move number: the players' moves
    /// are numbered as usual, Black's after a third party's ply with `N...`.
    pub third_party_plies: Vec<usize>,
    /// Final comment (the reason).
    pub ending: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

impl PgnGame {
    /// The game as PGN text.
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        for (k, v) in &self.tags {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{k} \"{v}\"]");
        }
        out.push('\n');
        let mut line = String::new();
        let mut push = |token: &str, out: &mut String| {
            if line.len() + token.len() + 1 > 79 && !line.is_empty() {
                out.push_str(line.trim_end());
                out.push('\n');
                line.clear();
            }
            line.push_str(token);
            line.push(' ');
        };
        // The players' plies, which the numbers count.
        let mut ply = self.first_ply as usize;
        let mut renumber = true;
        for (i, (m, comment)) in self.moves.iter().enumerate() {
            if self.third_party_plies.contains(&i) {
                renumber = true;
            } else {
                if ply % 2 == 0 {
                    push(&format!("{}.", ply / 2 + 1), &mut out);
                } else if renumber {
                    push(&format!("{}...", ply / 2 + 1), &mut out);
                }
                ply += 1;
                renumber = false;
            }
            push(m, &mut out);
            if let Some(c) = comment {
                push(&format!("{{{}}}", c.replace('}', ")")), &mut out);
            }
        }
        if !self.ending.is_empty() {
            // An engine's claim may put braces in the ending; comments do not nest.
            let ending = self.ending.replace('{', "(").replace('}', ")");
            push(&format!("{{{ending}}}"), &mut out);
        }
        push(&self.result, &mut out);
        out.push_str(line.trim_end());
        out.push_str("\n\n");
        out
    }
}

/// A game read back: its tags and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadGame {
    /// Tag pairs.
    pub tags: Vec<(String, String)>,
    /// Moves, without numbers or comments.
    pub moves: Vec<String>,
    /// The result token.
    pub result: String,
}

impl ReadGame {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads every game of a PGN text we wrote.
pub fn read(text: &str) -> Vec<ReadGame> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let flush =
        |tags: &mut Vec<(String, String)>, movetext: &mut String, games: &mut Vec<ReadGame>| {
            if tags.is_empty() && movetext.trim().is_empty() {
                return;
            }
            let mut moves = Vec::new();
            let mut result = String::from("*");
            let mut depth = 0;
            let mut token = String::new();
            for c in movetext.chars().chain(std::iter::once(' ')) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    c if depth > 0 => {
                        let _ = c;
                    }
                    c if c.is_whitespace() => {
                        if !token.is_empty() {
                            let t = std::mem::take(&mut token);
                            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&t.as_str()) {
                                result = t;
                            } else if !t.ends_with('.') {
                                moves.push(t);
                            }
                        }
                    }
                    c => token.push(c),
                }
            }
            games.push(ReadGame {
                tags: std::mem::take(tags),
                moves,
                result,
            });
            movetext.clear();
        };
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') && l.ends_with(']') {
            if !movetext.trim().is_empty() {
                flush(&mut tags, &mut movetext, &mut games);
            }
            let inner = &l[1..l.len() - 1];
            if let Some((k, v)) = inner.split_once(' ') {
                let v = v
                    .trim()
                    .trim_matches('"')
                    .replace("\\\"", "\"")
                    .replace("\\\\", "\\");
                tags.push((k.to_string(), v));
            }
        } else {
            movetext.push_str(l);
            movetext.push(' ');
        }
    }
    flush(&mut tags, &mut movetext, &mut games);
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_back() {
        let g = PgnGame {
            third_party_plies: Vec::new(),
            tags: vec![
                ("Event".into(), "x".into()),
                ("Result".into(), "1-0".into()),
            ],
            moves: vec![
                ("e2e4".into(), Some("+0.30/5 0.1s".into())),
                ("e7e5".into(), None),
                ("a9a10u".into(), None),
            ],
            first_ply: 0,
            ending: "White mates".into(),
            result: "1-0".into(),
        };
        let text = g.to_pgn();
        assert!(
            text.contains("1. e2e4 {+0.30/5 0.1s} e7e5 2. a9a10u {White mates} 1-0"),
            "{text}"
        );
        let back = read(&format!("{text}{text}"));
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].moves, vec!["e2e4", "e7e5", "a9a10u"]);
        assert_eq!(back[0].result, "1-0");
        assert_eq!(back[0].tag("Event"), Some("x"));
    }
}
