//! `menagerie match`'s options (cutechess-cli style) and the match they describe. A new option
//! is a field of [`MatchArgs`] and, if it takes `KEY=VALUE` words, one step of
//! [`match_config`].

use crate::arena::config::{engine_spec, pairs, EngineSpec};
use crate::arena::pgn;
use crate::arena::stats::{EloModel, Sprt};
use crate::arena::{self, BookEntry, DrawRule, MatchConfig, Openings, ResignRule, Tournament};
use crate::notation::{parse_move, parse_san, Dialect};
use crate::third_party::{self, Policy, ThirdParty};
use crate::variants::{self, Variant};
use std::path::PathBuf;

/// The options of `menagerie match`.
#[derive(clap::Args)]
pub struct MatchArgs {
    /// Variant name.
    #[arg(long, default_value = "chess")]
    variant: String,
    /// An engine: cmd=PATH [arg=A] proto=uci|xboard name=NAME dir=DIR option.NAME=VALUE tc=.. st=.. nodes=..
    #[arg(long = "engine", num_args = 1.., action = clap::ArgAction::Append, required = true)]
    engine: Vec<String>,
    /// The words of each `--engine`, grouped (filled from the parsed matches).
    #[arg(skip)]
    engine_groups: Vec<Vec<String>>,
    /// Settings applied to every engine, such as tc=3+0.05.
    #[arg(long, num_args = 1..)]
    each: Vec<String>,
    /// Games per pairing and round.
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Play each opening N times (2 if no N), colours alternating; off unless given.
    #[arg(long, num_args = 0..=1, default_missing_value = "2")]
    repeat: Option<u32>,
    /// Draw a game by adjudication after this many moves per side (default: 500).
    #[arg(long)]
    maxmoves: Option<u32>,
    /// Rounds.
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// round-robin or gauntlet.
    #[arg(long, default_value = "round-robin")]
    tournament: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// file=F [format=epd|fen|pgn] [order=random|sequential] [plies=N] [start=N]
    #[arg(long, num_args = 1..)]
    openings: Vec<String>,
    /// Skip, with a warning, opening lines that are not a legal position or move sequence,
    /// instead of refusing the file.
    #[arg(long)]
    skip_bad_openings: bool,
    /// Seeded random legal plies from the start position, when there is no opening file; with
    /// neither, games start from the game's own book (books/VARIANT.epd, compiled in).
    #[arg(long, default_value_t = 0)]
    random_plies: u32,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Who plays a third party's plies (Chaos's Nature): random (seeded by --seed), engine (a
    /// short search for --nature-favors) or external (the referee plays at random and the
    /// engines are not told the seed).
    #[arg(long, default_value = "random")]
    nature: String,
    /// The player the engine policy of --nature helps: white or black.
    #[arg(long, default_value = "white")]
    nature_favors: String,
    /// Append the games to this PGN file (cutechess-cli `FILE [min] [fi]` or fastchess
    /// `file=FILE ...`).
    #[arg(long, num_args = 1..)]
    pgnout: Vec<String>,
    /// Append each game's final position to this EPD file.
    #[arg(long, num_args = 1..)]
    epdout: Vec<String>,
    /// Print the results table every N games (0: only at the end).
    #[arg(long, default_value_t = 0)]
    ratinginterval: u32,
    /// elo0=A elo1=B alpha=X beta=Y
    #[arg(long, num_args = 1..)]
    sprt: Vec<String>,
    /// movenumber=N movecount=N score=CP
    #[arg(long, num_args = 1..)]
    draw: Vec<String>,
    /// movecount=N score=CP
    #[arg(long, num_args = 1..)]
    resign: Vec<String>,
    /// Go on after an engine crashes (else the match stops after that game).
    #[arg(long)]
    recover: bool,
}

impl MatchArgs {
    /// Keeps each `--engine`'s own words, from the matches of the `match` subcommand: clap's
    /// derive flattens repeated lists.
    pub fn group_engines(&mut self, matches: &clap::ArgMatches) {
        self.engine_groups = matches
            .get_occurrences::<String>("engine")
            .map(|o| o.map(|g| g.cloned().collect()).collect())
            .unwrap_or_default();
    }

    /// The PGN file the games are appended to, if any.
    pub fn pgnout(&self) -> Result<Option<PathBuf>, String> {
        out_file(&self.pgnout, "--pgnout")
    }

    /// The EPD file the final positions are appended to, if any.
    pub fn epdout(&self) -> Result<Option<PathBuf>, String> {
        out_file(&self.epdout, "--epdout")
    }

    /// Print the table every this many games (0: never during the match).
    pub fn rating_interval(&self) -> u32 {
        self.ratinginterval
    }
}

/// The file of `-pgnout`/`-epdout`: cutechess-cli's `FILE [min] [fi]` or fastchess's
/// `file=FILE` among its `KEY=VALUE` words (the others are accepted and do not change the
/// output).
fn out_file(words: &[String], flag: &str) -> Result<Option<PathBuf>, String> {
    let mut file = None;
    for w in words {
        match w.split_once('=') {
            Some(("file", f)) => file = Some(PathBuf::from(f)),
            Some((
                "notation" | "nodes" | "seldepth" | "nps" | "hashfull" | "timeleft" | "latency"
                | "match_line" | "append" | "min",
                _,
            )) => {}
            Some((k, _)) => return Err(format!("{flag}: unknown key '{k}'")),
            None if w == "min" || w == "fi" => {}
            None if file.is_none() => file = Some(PathBuf::from(w)),
            None => return Err(format!("{flag}: unexpected word '{w}'")),
        }
    }
    if !words.is_empty() && file.is_none() {
        return Err(format!("{flag} needs a file"));
    }
    Ok(file)
}

/// The match `a` describes, checked step by step; the first error in one line.
pub fn match_config(a: &MatchArgs) -> Result<MatchConfig, String> {
    // cutechess-cli calls FIDE chess `standard`.
    let name = if a.variant == "standard" {
        "chess"
    } else {
        &a.variant
    };
    let variant = variants::by_name(name).map_err(|e| e.to_string())?;
    let engines = engines(a)?;
    let tournament = tournament(&a.tournament)?;
    if a.games == 0 || a.rounds == 0 {
        return Err("--games and --rounds must be at least 1".into());
    }
    if a.repeat == Some(0) || a.maxmoves == Some(0) {
        return Err("--repeat and --maxmoves must be at least 1".into());
    }
    a.pgnout()?;
    a.epdout()?;
    let openings = openings(&a.openings, a.random_plies, variant, a.skip_bad_openings)?;
    let sprt = sprt(&a.sprt, engines.len())?;
    let draw = draw_rule(&a.draw)?;
    let resign = resign_rule(&a.resign)?;
    let third_party = third_party(a)?;
    let mut config = MatchConfig {
        variant,
        third_party,
        engines,
        games: a.games,
        repeat: a.repeat.unwrap_or(1),
        max_moves: a.maxmoves,
        rounds: a.rounds,
        tournament,
        concurrency: a.concurrency.max(1),
        openings,
        seed: a.seed,
        sprt,
        draw,
        resign,
        recover: a.recover,
    };
    arena::tell_engines_third_party(&mut config);
    Ok(config)
}

fn number<T: std::str::FromStr>(group: &str, key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{group}: {key}={value} is not a number"))
}

/// The value of `key` among `KEY=VALUE` pairs.
fn value<'a>(kv: &'a [(String, String)], key: &str) -> Option<&'a str> {
    kv.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// Each `--engine`, with the `--each` words.
fn engines(a: &MatchArgs) -> Result<Vec<EngineSpec>, String> {
    a.engine_groups
        .iter()
        .enumerate()
        .map(|(i, w)| engine_spec(w, &a.each, i))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
}

/// `--tournament`.
fn tournament(name: &str) -> Result<Tournament, String> {
    match name {
        "round-robin" => Ok(Tournament::RoundRobin),
        "gauntlet" => Ok(Tournament::Gauntlet),
        t => Err(format!(
            "--tournament {t}: expected round-robin or gauntlet"
        )),
    }
}

/// `--openings` (a book of positions or of move sequences, each checked), or else
/// `--random-plies`.
fn openings(
    words: &[String],
    random_plies: u32,
    variant: &'static dyn Variant,
    skip_bad: bool,
) -> Result<Openings, String> {
    if words.is_empty() {
        // Without an opening file, the game's own book, unless random plies are asked for.
        let fens = arena::books::book(variant.name());
        if random_plies > 0 || fens.is_empty() {
            return Ok(Openings::RandomPlies(random_plies));
        }
        let entries = fens
            .into_iter()
            .map(|fen| BookEntry {
                fen,
                moves: Vec::new(),
            })
            .collect();
        return Ok(Openings::Book {
            entries,
            random: false,
            start: 0,
        });
    }
    let kv = pairs(
        words,
        "--openings",
        &["file", "format", "order", "plies", "start", "policy"],
    )
    .map_err(|e| e.to_string())?;
    let file = value(&kv, "file").ok_or("--openings needs file=PATH")?;
    let format = value(&kv, "format").unwrap_or(if file.ends_with(".pgn") { "pgn" } else { "epd" });
    let random = match value(&kv, "order").unwrap_or("sequential") {
        "random" => true,
        "sequential" => false,
        o => {
            return Err(format!(
                "--openings order={o}: expected random or sequential"
            ))
        }
    };
    let plies = value(&kv, "plies")
        .map(|v| number::<usize>("--openings", "plies", v))
        .transpose()?
        .unwrap_or(usize::MAX);
    let start = value(&kv, "start")
        .map(|v| number::<usize>("--openings", "start", v))
        .transpose()?
        .unwrap_or(1);
    if start == 0 {
        return Err("--openings start=0: openings are numbered from 1".into());
    }
    match value(&kv, "policy").unwrap_or("default") {
        "default" | "encounter" | "round" => {}
        p => {
            return Err(format!(
                "--openings policy={p}: expected default, encounter or round"
            ))
        }
    }
    let bytes = std::fs::read(file).map_err(|e| format!("--openings: cannot read {file}: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let read = match format {
        "epd" | "fen" => epd_book(&text, format == "epd", variant),
        "pgn" => pgn_book(&text, variant, plies),
        f => return Err(format!("--openings format={f}: expected epd, fen or pgn")),
    };
    let mut entries = Vec::new();
    for item in read {
        match item {
            Ok(e) => entries.push(e),
            Err((line, why)) if skip_bad => {
                eprintln!("warning: --openings: {file}:{line}: {why}; skipped")
            }
            Err((line, why)) => {
                return Err(format!(
                    "--openings: {file}:{line}: {why} (--skip-bad-openings skips such lines)"
                ))
            }
        }
    }
    if entries.is_empty() {
        return Err(format!("--openings: {file} has no usable opening"));
    }
    Ok(Openings::Book {
        start: (start - 1) % entries.len(),
        entries,
        random,
    })
}

/// A book line's opening, or its line number and what is wrong with it.
type BookItem = Result<BookEntry, (usize, String)>;

/// The positions of an EPD or FEN file, skipping blank and `#` lines. An EPD line is a position
/// of four fields followed by operations (`bm Qg6; id "WAC.001";`), but the books the engine
/// writes carry the whole FEN (move counters, and a third party's clock as a seventh field),
/// which the position may need (a spell counted in plies): the longest run of leading fields
/// that the game reads as a FEN is taken, and four fields get the counters `0 1`.
fn epd_book(text: &str, epd: bool, variant: &dyn Variant) -> Vec<BookItem> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(line, l)| {
            let fen = if epd {
                epd_position(l, variant)
            } else {
                l.to_string()
            };
            match variant.parse_fen(&fen) {
                Ok(_) => Ok(BookEntry {
                    fen,
                    moves: Vec::new(),
                }),
                Err(e) => Err((line, format!("not a position of {}: {e}", variant.name()))),
            }
        })
        .collect()
}

/// Fields of a FEN beyond the EPD's four: the two move counters and a third party's clock.
const MOST_FEN_FIELDS: usize = 7;

/// The position of an EPD line as a FEN: its longest run of leading fields (from all of a
/// FEN's to the EPD's four) that the game reads.
fn epd_position(line: &str, variant: &dyn Variant) -> String {
    let fields: Vec<&str> = line
        .split(';')
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    (5..=fields.len().min(MOST_FEN_FIELDS))
        .rev()
        .map(|n| fields[..n].join(" "))
        .find(|fen| variant.parse_fen(fen).is_ok())
        .unwrap_or_else(|| format!("{} 0 1", fields[..fields.len().min(4)].join(" ")))
}

/// The games of a PGN file as openings: their first `plies` moves (coordinate notation or
/// SAN), from the start position or the game's `FEN` tag.
fn pgn_book(text: &str, variant: &'static dyn Variant, plies: usize) -> Vec<BookItem> {
    let starts = pgn_game_lines(text);
    pgn::read(text)
        .iter()
        .enumerate()
        .map(|(k, g)| {
            let line = starts.get(k).copied().unwrap_or(1);
            let (fen, mut pos) = match g.tag("FEN") {
                Some(f) => match variant.parse_fen(f) {
                    Ok(p) => (f.to_string(), p),
                    Err(e) => return Err((line, format!("FEN tag: {e}"))),
                },
                None => (
                    variant.rules().spec.start_fen.to_string(),
                    variant.start_position(),
                ),
            };
            let mut moves = Vec::new();
            for (n, token) in g.moves.iter().take(plies).enumerate() {
                // Move numbers written against the move: `3.Nf3`, `3...Nc6`.
                let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if token.is_empty() || token.starts_with('$') {
                    continue;
                }
                let m = parse_move(variant, &pos, Dialect::Uci, token)
                    .or_else(|_| parse_san(variant, &pos, Dialect::Uci, token))
                    .map_err(|e| (line, format!("game {}, ply {}: {e}", k + 1, n + 1)))?;
                pos = variant.play(&pos, m);
                moves.push(m);
            }
            Ok(BookEntry { fen, moves })
        })
        .collect()
}

/// The line (from 1) where each game of a PGN text starts: its first tag, or its first move
/// text when it has no tags.
fn pgn_game_lines(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut in_tags = false;
    let mut in_moves = false;
    for (i, l) in text.lines().enumerate() {
        let l = l.trim();
        if l.starts_with('[') && l.ends_with(']') {
            if !in_tags {
                starts.push(i + 1);
            }
            in_tags = true;
            in_moves = false;
        } else if !l.is_empty() {
            if !in_tags && !in_moves {
                starts.push(i + 1);
            }
            in_tags = false;
            in_moves = true;
        }
    }
    starts
}

/// `--sprt`, which needs exactly two engines.
fn sprt(words: &[String], engines: usize) -> Result<Option<Sprt>, String> {
    if words.is_empty() {
        return Ok(None);
    }
    let kv = pairs(words, "--sprt", &["elo0", "elo1", "alpha", "beta", "model"])
        .map_err(|e| e.to_string())?;
    let model = match value(&kv, "model").unwrap_or("logistic") {
        "logistic" => EloModel::Logistic,
        "normalized" => EloModel::Normalized,
        m => return Err(format!("--sprt model={m}: expected logistic or normalized")),
    };
    let get = |k: &str, d: f64| value(&kv, k).map_or(Ok(d), |v| number::<f64>("--sprt", k, v));
    let s = Sprt {
        elo0: get("elo0", 0.0)?,
        elo1: get("elo1", 5.0)?,
        alpha: get("alpha", 0.05)?,
        beta: get("beta", 0.05)?,
        model,
    };
    if s.elo0 >= s.elo1 {
        return Err(format!(
            "--sprt: elo0={} must be below elo1={}",
            s.elo0, s.elo1
        ));
    }
    if !(s.alpha > 0.0 && s.alpha < 1.0 && s.beta > 0.0 && s.beta < 1.0) {
        return Err("--sprt: alpha and beta must lie strictly between 0 and 1".into());
    }
    if engines != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    Ok(Some(s))
}

/// `--draw`.
fn draw_rule(words: &[String]) -> Result<Option<DrawRule>, String> {
    if words.is_empty() {
        return Ok(None);
    }
    let kv =
        pairs(words, "--draw", &["movenumber", "movecount", "score"]).map_err(|e| e.to_string())?;
    let get = |k: &str, d: &'static str| value(&kv, k).unwrap_or(d).to_string();
    Ok(Some(DrawRule {
        movenumber: number("--draw", "movenumber", &get("movenumber", "40"))?,
        movecount: number("--draw", "movecount", &get("movecount", "8"))?,
        score: number("--draw", "score", &get("score", "10"))?,
    }))
}

/// `--resign`.
fn resign_rule(words: &[String]) -> Result<Option<ResignRule>, String> {
    if words.is_empty() {
        return Ok(None);
    }
    let kv =
        pairs(words, "--resign", &["movecount", "score", "twosided"]).map_err(|e| e.to_string())?;
    let get = |k: &str, d: &'static str| value(&kv, k).unwrap_or(d).to_string();
    let twosided = match value(&kv, "twosided").unwrap_or("false") {
        "true" => true,
        "false" => false,
        t => return Err(format!("--resign twosided={t}: expected true or false")),
    };
    Ok(Some(ResignRule {
        movecount: number("--resign", "movecount", &get("movecount", "3"))?,
        score: number("--resign", "score", &get("score", "800"))?,
        twosided,
    }))
}

/// `--nature`, `--nature-favors` and the seed.
fn third_party(a: &MatchArgs) -> Result<ThirdParty, String> {
    Ok(ThirdParty {
        policy: Policy::parse(&a.nature).ok_or_else(|| {
            format!(
                "--nature {}: expected one of {}",
                a.nature,
                Policy::NAMES.join(", ")
            )
        })?,
        favors: third_party::parse_player(&a.nature_favors).ok_or_else(|| {
            format!(
                "--nature-favors {}: expected white or black",
                a.nature_favors
            )
        })?,
        seed: a.seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    /// Every shipped book, read as an EPD file of openings, gives every line's position whole
    /// (move counters, a third party's clock), as the game's own book does.
    #[test]
    fn shipped_books_read_as_epd_openings_keep_the_whole_position() {
        for v in variants::all() {
            let text = crate::arena::books::book(v.name()).join("\n");
            for (i, item) in epd_book(&text, true, *v).into_iter().enumerate() {
                let entry = item.unwrap_or_else(|(l, e)| panic!("{} line {l}: {e}", v.name()));
                let want = v
                    .parse_fen(&crate::arena::books::book(v.name())[i])
                    .unwrap();
                let got = v.parse_fen(&entry.fen).unwrap();
                assert_eq!(v.fen(&got), v.fen(&want), "{} line {}", v.name(), i + 1);
            }
        }
    }

    /// A test suite's line: four fields and operations; its counters are `0 1`.
    #[test]
    fn an_epd_line_with_operations_gets_counters() {
        let chess = variants::by_name("chess").unwrap();
        let line =
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";";
        assert_eq!(
            epd_position(line, chess),
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"
        );
        let counted = "4k3/8/8/8/8/8/8/4K2R w K - 7 40";
        assert_eq!(epd_position(counted, chess), counted);
    }
}
