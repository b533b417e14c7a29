//! cutechess-cli's and fastchess's single-dash command line for `menagerie match`: each flag we
//! support becomes its double-dash form before parsing; a flag we do not support is refused in
//! one line that names it. docs/match.md has the table of every flag.

use std::ffi::OsString;

/// Flags of `menagerie match` that cutechess-cli or fastchess also have, or that are ours: a
/// single dash is accepted for each. `-srand` (cutechess-cli's seed) is `--seed`.
const SUPPORTED: &[&str] = &[
    "engine",
    "each",
    "variant",
    "concurrency",
    "draw",
    "resign",
    "maxmoves",
    "tournament",
    "games",
    "rounds",
    "sprt",
    "ratinginterval",
    "openings",
    "pgnout",
    "epdout",
    "repeat",
    "recover",
    "seed",
    "random-plies",
    "nature",
    "nature-favors",
    "skip-bad-openings",
];

/// Flags of cutechess-cli or fastchess that `menagerie match` does not support.
const UNSUPPORTED: &[&str] = &[
    "tb",
    "tbpieces",
    "tbignore50",
    "tbadjudicate",
    "event",
    "site",
    "outcomeinterval",
    "scoreinterval",
    "debug",
    "log",
    "bookmode",
    "livepgnout",
    "noswap",
    "reverse",
    "wait",
    "seeds",
    "resultformat",
    "config",
    "report",
    "output",
    "autosaveinterval",
    "force-concurrency",
    "use-affinity",
    "show-latency",
    "testEnv",
    "quick",
    "crc32",
    "dbg",
    "startup-ms",
    "ucinewgame-ms",
    "ping-ms",
    "no-affinity",
    "pgnin",
    "engines",
    "protocols",
    "variants",
    "version",
];

/// The arguments with `match`'s single-dash flags in their double-dash form, or the one-line
/// error for a flag we do not support.
pub fn translate(args: Vec<OsString>) -> Result<Vec<OsString>, String> {
    let Some(at) = args.iter().position(|a| a == "match") else {
        return Ok(args);
    };
    let mut out: Vec<OsString> = args[..=at].to_vec();
    for a in &args[at + 1..] {
        let Some(text) = a.to_str() else {
            out.push(a.clone());
            continue;
        };
        let single = text.len() > 1
            && text.starts_with('-')
            && !text.starts_with("--")
            && text[1..].starts_with(|c: char| c.is_ascii_alphabetic());
        if !single || text == "-h" {
            out.push(a.clone());
            continue;
        }
        let name = &text[1..];
        if name == "srand" {
            out.push("--seed".into());
        } else if SUPPORTED.contains(&name) {
            out.push(format!("--{name}").into());
        } else if UNSUPPORTED.contains(&name) {
            return Err(format!(
                "error: {text} is a cutechess-cli/fastchess flag that menagerie match does not support (docs/match.md lists every flag)"
            ));
        } else {
            return Err(format!("error: unknown flag {text} for menagerie match"));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<OsString> {
        text.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn single_dash_flags() {
        let out = translate(words(
            "menagerie match -engine cmd=a arg=-x -each tc=inf depth=3 -repeat -srand 5 --games 4",
        ))
        .unwrap();
        assert_eq!(
            out,
            words(
                "menagerie match --engine cmd=a arg=-x --each tc=inf depth=3 --repeat --seed 5 --games 4"
            )
        );
        let e = translate(words("menagerie match -engine cmd=a -tb /x")).unwrap_err();
        assert!(e.contains("-tb ") && !e.contains('\n'), "{e}");
        let e = translate(words("menagerie match -frobnicate")).unwrap_err();
        assert!(e.contains("-frobnicate"), "{e}");
        // Other subcommands are left alone.
        assert_eq!(
            translate(words("menagerie perft -x")).unwrap(),
            words("menagerie perft -x")
        );
    }
}
