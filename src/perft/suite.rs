//! Perft files (`perft/*.perft`, format in `perft/README.md`): positions with their expected leaf
//! counts by depth. Read by the `perft` test target and by `menagerie perft --suite`.

/// One position of a perft file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The name after `id`.
    pub id: String,
    /// Where the numbers come from (`source` line).
    pub source: String,
    /// The position (`epd` line), not yet checked against a variant.
    pub fen: String,
    /// `(depth, nodes)` in file order.
    pub counts: Vec<(u32, u64)>,
    /// Line number (from 1) of the `id` line.
    pub line: usize,
}

/// The positions of a perft file, or the first fault as `line N: what is wrong`. Every position
/// needs an `id`, a `source` and an `epd` line.
pub fn parse(text: &str) -> Result<Vec<Case>, String> {
    let mut cases: Vec<Case> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let n = n + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if word == "id" {
            if let Some(last) = cases.last() {
                complete(last)?;
            }
            if rest.is_empty() {
                return Err(format!("line {n}: id needs a name"));
            }
            cases.push(Case {
                id: rest.to_string(),
                source: String::new(),
                fen: String::new(),
                counts: Vec::new(),
                line: n,
            });
            continue;
        }
        let Some(case) = cases.last_mut() else {
            return Err(format!("line {n}: '{word}' before the first id"));
        };
        match word {
            "source" => case.source = rest.to_string(),
            "epd" => case.fen = rest.to_string(),
            "perft" => {
                let mut parts = rest.split_whitespace();
                let (Some(d), Some(nodes), None) = (parts.next(), parts.next(), parts.next())
                else {
                    return Err(format!("line {n}: perft needs a depth and a node count"));
                };
                let d = d
                    .parse()
                    .map_err(|_| format!("line {n}: '{d}' is not a depth"))?;
                let nodes = nodes
                    .parse()
                    .map_err(|_| format!("line {n}: '{nodes}' is not a node count"))?;
                case.counts.push((d, nodes));
            }
            other => return Err(format!("line {n}: unknown directive '{other}'")),
        }
    }
    if let Some(last) = cases.last() {
        complete(last)?;
    }
    Ok(cases)
}

/// Refuses a position without a source or a FEN.
fn complete(case: &Case) -> Result<(), String> {
    if case.source.is_empty() {
        return Err(format!(
            "line {}: position '{}' has no source line",
            case.line, case.id
        ));
    }
    if case.fen.is_empty() {
        return Err(format!(
            "line {}: position '{}' has no epd line",
            case.line, case.id
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_positions_and_counts() {
        let text = "# comment\n\nid a\nsource hand count\nepd 8/8/8/8/8/8/8/K6k w - - 0 1\n\
                    perft 1 3\nperft 2 9\n\nid b\nsource x\nepd some fen\n";
        let cases = parse(text).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].id, "a");
        assert_eq!(cases[0].counts, vec![(1, 3), (2, 9)]);
        assert_eq!(cases[0].line, 3);
        assert_eq!(cases[1].fen, "some fen");
        assert!(cases[1].counts.is_empty());
    }

    #[test]
    fn refuses_faults_with_the_line() {
        for (text, words) in [
            ("perft 1 20\n", "line 1"),
            ("id a\nsource s\nepd e\nperft x 20\n", "line 4"),
            ("id a\nsource s\nepd e\nperft 1\n", "line 4"),
            ("id a\nsource s\nepd e\nperft 1 -5\n", "line 4"),
            ("id a\nepd e\nperft 1 20\n", "no source"),
            ("id a\nsource s\n\nid b\nsource s\nepd e\n", "no epd"),
            ("id a\nsource s\nepd e\nfoo bar\n", "unknown directive"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains(words), "{text:?}: {e}");
        }
    }
}
