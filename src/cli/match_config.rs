//! `menagerie match`'s options (cutechess-cli style) and the match they describe. A new option
//! is a field of [`MatchArgs`] and, if it takes `KEY=VALUE` words, one step of
//! [`match_config`].

use crate::arena::config::{engine_spec, pairs, EngineSpec};
use crate::arena::stats::Sprt;
use crate::arena::{self, DrawRule, MatchConfig, Openings, ResignRule, Tournament};
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
    /// Rounds.
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// round-robin or gauntlet.
    #[arg(long, default_value = "round-robin")]
    tournament: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// file=F [format=epd|fen] [order=random|sequential]
    #[arg(long, num_args = 1..)]
    openings: Vec<String>,
    /// Seeded random legal plies from the start position, when there is no opening file.
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
    /// Append the games to this PGN file.
    #[arg(long)]
    pgnout: Option<PathBuf>,
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
    pub fn pgnout(&self) -> Option<&std::path::Path> {
        self.pgnout.as_deref()
    }
}

/// The match `a` describes, checked step by step; the first error in one line.
pub fn match_config(a: &MatchArgs) -> Result<MatchConfig, String> {
    let variant = variants::by_name(&a.variant).map_err(|e| e.to_string())?;
    let engines = engines(a)?;
    let tournament = tournament(&a.tournament)?;
    if a.games == 0 || a.rounds == 0 {
        return Err("--games and --rounds must be at least 1".into());
    }
    let openings = openings(&a.openings, a.random_plies, variant)?;
    let sprt = sprt(&a.sprt, engines.len())?;
    let draw = draw_rule(&a.draw)?;
    let resign = resign_rule(&a.resign)?;
    let third_party = third_party(a)?;
    let mut config = MatchConfig {
        variant,
        third_party,
        engines,
        games: a.games,
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

/// `--openings` (a book of positions, each checked), or else `--random-plies`.
fn openings(
    words: &[String],
    random_plies: u32,
    variant: &dyn Variant,
) -> Result<Openings, String> {
    if words.is_empty() {
        return Ok(Openings::RandomPlies(random_plies));
    }
    let kv = pairs(
        words,
        "--openings",
        &["file", "format", "order", "plies", "start", "policy"],
    )
    .map_err(|e| e.to_string())?;
    let file = value(&kv, "file").ok_or("--openings needs file=PATH")?;
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("--openings: cannot read {file}: {e}"))?;
    let epd = match value(&kv, "format").unwrap_or("epd") {
        "epd" => true,
        "fen" => false,
        f => return Err(format!("--openings format={f}: expected epd or fen")),
    };
    let random = match value(&kv, "order").unwrap_or("sequential") {
        "random" => true,
        "sequential" => false,
        o => {
            return Err(format!(
                "--openings order={o}: expected random or sequential"
            ))
        }
    };
    let fens = book_fens(&text, epd);
    if fens.is_empty() {
        return Err(format!("--openings: {file} has no positions"));
    }
    for (i, f) in fens.iter().enumerate() {
        variant
            .parse_fen(f)
            .map_err(|e| format!("--openings: {file} position {}: {e}", i + 1))?;
    }
    Ok(Openings::Book { fens, random })
}

/// The positions of an opening file, skipping blank and `#` lines; an EPD line's first four
/// fields, with move counters `0 1`.
fn book_fens(text: &str, epd: bool) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            if epd {
                format!(
                    "{} 0 1",
                    l.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
                )
            } else {
                l.to_string()
            }
        })
        .collect()
}

/// `--sprt`, which needs exactly two engines.
fn sprt(words: &[String], engines: usize) -> Result<Option<Sprt>, String> {
    if words.is_empty() {
        return Ok(None);
    }
    let kv =
        pairs(words, "--sprt", &["elo0", "elo1", "alpha", "beta"]).map_err(|e| e.to_string())?;
    let get = |k: &str, d: f64| value(&kv, k).map_or(Ok(d), |v| number::<f64>("--sprt", k, v));
    let s = Sprt {
        elo0: get("elo0", 0.0)?,
        elo1: get("elo1", 5.0)?,
        alpha: get("alpha", 0.05)?,
        beta: get("beta", 0.05)?,
    };
    if !(s.alpha > 0.0 && s.alpha < 1.0 && s.beta > 0.0 && s.beta < 1.0 && s.elo1 > s.elo0) {
        return Err("--sprt: need 0 < alpha, beta < 1 and elo1 > elo0".into());
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
    let kv = pairs(words, "--resign", &["movecount", "score"]).map_err(|e| e.to_string())?;
    let get = |k: &str, d: &'static str| value(&kv, k).unwrap_or(d).to_string();
    Ok(Some(ResignRule {
        movecount: number("--resign", "movecount", &get("movecount", "3"))?,
        score: number("--resign", "score", &get("score", "800"))?,
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
