//! The `menagerie` binary: subcommands for perft and the variant list; with no subcommand it
//! speaks UCI or XBoard/CECP on stdin, whichever the first command names.

use clap::{Parser, Subcommand};
use menagerie::notation::{move_text, Dialect};
use menagerie::{arena, variants};
use std::io::IsTerminal;
use std::process::ExitCode;

/// Deepest perft the CLI accepts.
const MAX_PERFT_DEPTH: u32 = 20;

#[derive(Parser)]
#[command(name = "menagerie", version, about = "A chess-variant engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

// Built once per run, so the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree.
    Perft {
        /// Variant name (see `menagerie variants`).
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Start position; the variant's start position when omitted.
        #[arg(long)]
        fen: Option<String>,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Threads that split the root moves.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// List the variants with board size and a description.
    Variants,
    /// Replay every game of a PGN file with our rules (coordinate moves or SAN as GUIs write it).
    PgnCheck {
        /// The PGN file.
        file: std::path::PathBuf,
        /// Variant, when games have no Variant tag.
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Square numbering of the moves: uci (ranks from 1) or cecp (XBoard: ranks from 0 on ten ranks).
        #[arg(long, default_value = "uci")]
        dialect: String,
    },
    /// Play engine-vs-engine games (cutechess-cli style options).
    Match(MatchArgs),
    /// Serve a board for every game in the browser, on 127.0.0.1 unless told otherwise.
    Gui {
        /// Port to listen on; 0 lets the system choose.
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Address to listen on (anything but loopback lets other machines play).
        #[arg(long, default_value = "127.0.0.1")]
        address: std::net::IpAddr,
        /// Do not open the system's browser; only print the URL.
        #[arg(long)]
        no_open: bool,
    },
    /// Search fixed positions to a fixed depth; the node count is the search's checksum.
    Bench {
        /// Variant name; every variant when omitted.
        #[arg(long)]
        variant: Option<String>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Depth in plies; each variant's own bench depth when omitted.
        #[arg(long)]
        depth: Option<u32>,
    },
}

#[derive(clap::Args)]
struct MatchArgs {
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
    pgnout: Option<std::path::PathBuf>,
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

fn number<T: std::str::FromStr>(group: &str, key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{group}: {key}={value} is not a number"))
}

fn match_config(a: &MatchArgs) -> Result<(arena::MatchConfig, Option<std::path::PathBuf>), String> {
    use arena::config::{engine_spec, pairs};
    let variant = variants::by_name(&a.variant).map_err(|e| e.to_string())?;
    let engines = a
        .engine_groups
        .iter()
        .enumerate()
        .map(|(i, w)| engine_spec(w, &a.each, i))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let tournament = match a.tournament.as_str() {
        "round-robin" => arena::Tournament::RoundRobin,
        "gauntlet" => arena::Tournament::Gauntlet,
        t => {
            return Err(format!(
                "--tournament {t}: expected round-robin or gauntlet"
            ))
        }
    };
    if a.games == 0 || a.rounds == 0 {
        return Err("--games and --rounds must be at least 1".into());
    }
    let openings = if a.openings.is_empty() {
        arena::Openings::RandomPlies(a.random_plies)
    } else {
        let kv = pairs(
            &a.openings,
            "--openings",
            &["file", "format", "order", "plies", "start", "policy"],
        )
        .map_err(|e| e.to_string())?;
        let get = |k: &str| kv.iter().find(|(x, _)| x == k).map(|(_, v)| v.as_str());
        let file = get("file").ok_or("--openings needs file=PATH")?;
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("--openings: cannot read {file}: {e}"))?;
        let epd = match get("format").unwrap_or("epd") {
            "epd" => true,
            "fen" => false,
            f => return Err(format!("--openings format={f}: expected epd or fen")),
        };
        let random = match get("order").unwrap_or("sequential") {
            "random" => true,
            "sequential" => false,
            o => {
                return Err(format!(
                    "--openings order={o}: expected random or sequential"
                ))
            }
        };
        let fens: Vec<String> = text
            .lines()
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
            .collect();
        if fens.is_empty() {
            return Err(format!("--openings: {file} has no positions"));
        }
        for (i, f) in fens.iter().enumerate() {
            variant
                .parse_fen(f)
                .map_err(|e| format!("--openings: {file} position {}: {e}", i + 1))?;
        }
        arena::Openings::Book { fens, random }
    };
    let sprt = if a.sprt.is_empty() {
        None
    } else {
        let kv = pairs(&a.sprt, "--sprt", &["elo0", "elo1", "alpha", "beta"])
            .map_err(|e| e.to_string())?;
        let get = |k: &str, d: f64| {
            kv.iter()
                .find(|(x, _)| x == k)
                .map_or(Ok(d), |(_, v)| number::<f64>("--sprt", k, v))
        };
        let s = arena::stats::Sprt {
            elo0: get("elo0", 0.0)?,
            elo1: get("elo1", 5.0)?,
            alpha: get("alpha", 0.05)?,
            beta: get("beta", 0.05)?,
        };
        if !(s.alpha > 0.0 && s.alpha < 1.0 && s.beta > 0.0 && s.beta < 1.0 && s.elo1 > s.elo0) {
            return Err("--sprt: need 0 < alpha, beta < 1 and elo1 > elo0".into());
        }
        if engines.len() != 2 {
            return Err("--sprt needs exactly two engines".into());
        }
        Some(s)
    };
    let draw = if a.draw.is_empty() {
        None
    } else {
        let kv = pairs(&a.draw, "--draw", &["movenumber", "movecount", "score"])
            .map_err(|e| e.to_string())?;
        let get = |k: &str, d: &str| {
            kv.iter()
                .find(|(x, _)| x == k)
                .map_or(d.to_string(), |(_, v)| v.clone())
        };
        Some(arena::DrawRule {
            movenumber: number("--draw", "movenumber", &get("movenumber", "40"))?,
            movecount: number("--draw", "movecount", &get("movecount", "8"))?,
            score: number("--draw", "score", &get("score", "10"))?,
        })
    };
    let resign = if a.resign.is_empty() {
        None
    } else {
        let kv =
            pairs(&a.resign, "--resign", &["movecount", "score"]).map_err(|e| e.to_string())?;
        let get = |k: &str, d: &str| {
            kv.iter()
                .find(|(x, _)| x == k)
                .map_or(d.to_string(), |(_, v)| v.clone())
        };
        Some(arena::ResignRule {
            movecount: number("--resign", "movecount", &get("movecount", "3"))?,
            score: number("--resign", "score", &get("score", "800"))?,
        })
    };
    let third_party = menagerie::third_party::ThirdParty {
        policy: menagerie::third_party::Policy::parse(&a.nature).ok_or_else(|| {
            format!(
                "--nature {}: expected one of {}",
                a.nature,
                menagerie::third_party::Policy::NAMES.join(", ")
            )
        })?,
        favors: menagerie::third_party::parse_player(&a.nature_favors).ok_or_else(|| {
            format!(
                "--nature-favors {}: expected white or black",
                a.nature_favors
            )
        })?,
        seed: a.seed,
    };
    let config = arena::MatchConfig {
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
    let mut config = config;
    arena::tell_engines_third_party(&mut config);
    Ok((config, a.pgnout.clone()))
}

/// Today's date as PGN writes it.
fn pgn_date() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn run_match(a: &MatchArgs) -> Result<(), String> {
    use std::io::Write;
    let (config, pgnout) = match_config(a)?;
    arena::check_engines(&config)?;
    let mut pgn_file = match &pgnout {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("--pgnout: cannot open {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let date = pgn_date();
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let total = {
        let n = config.engines.len() as u32;
        let pairings = match config.tournament {
            arena::Tournament::RoundRobin => n * (n - 1) / 2,
            arena::Tournament::Gauntlet => n - 1,
        };
        pairings * config.games * config.rounds
    };
    let mut done = 0;
    let mut write_error = None;
    let report = arena::run(&config, |g, tallies| {
        done += 1;
        let t = &tallies[0];
        eprintln!(
            "Finished game {} ({} vs {}): {} {{{}}}  [{done}/{total}]  Score of {} vs field: {} - {} - {} [{:.3}]",
            g.number, names[g.white], names[g.black], g.result, g.reason, names[0], t.wins, t.losses, t.draws, t.score()
        );
        if let Some(f) = &mut pgn_file {
            if let Err(e) = f.write_all(arena::to_pgn(&config, g, &date).to_pgn().as_bytes()) {
                write_error = Some(format!("--pgnout: {e}"));
            }
        }
    })?;
    if let Some(e) = write_error {
        return Err(e);
    }
    if let Some(why) = &report.stopped {
        eprintln!("Match stopped: {why}");
    }
    if config.engines.len() == 2 {
        let t = report.tallies[0];
        println!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            names[0],
            names[1],
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games()
        );
        let draw_ratio = 100.0 * t.draws as f64 / t.games().max(1) as f64;
        match t.elo() {
            Some((elo, err)) => println!("Elo difference: {elo:.1} +/- {err:.1}, LOS: {:.1} %, DrawRatio: {draw_ratio:.1} %", 100.0 * t.los()),
            None => println!("Elo difference: not finite (one side scored every point), LOS: {:.1} %, DrawRatio: {draw_ratio:.1} %", 100.0 * t.los()),
        }
        if let Some(s) = config.sprt {
            let (lo, hi) = s.bounds();
            let verdict = match report.sprt {
                Some(arena::stats::SprtDecision::H0) => "H0 was accepted",
                Some(arena::stats::SprtDecision::H1) => "H1 was accepted",
                None => "no decision",
            };
            println!(
                "SPRT: llr {:.3} ({lo:.3}, {hi:.3}) [{}, {}]: {verdict}",
                t.llr(s.elo0, s.elo1),
                s.elo0,
                s.elo1
            );
        }
    } else {
        println!(
            "{:<4} {:<24} {:>8} {:>8} {:>6} {:>7} {:>6}",
            "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
        );
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|&x, &y| {
            report.tallies[y]
                .score()
                .total_cmp(&report.tallies[x].score())
        });
        for (rank, &i) in order.iter().enumerate() {
            let t = report.tallies[i];
            let (elo, err) = t
                .elo()
                .map_or(("inf".to_string(), "-".to_string()), |(e, r)| {
                    (format!("{e:.1}"), format!("{r:.1}"))
                });
            println!(
                "{:<4} {:<24} {:>8} {:>8} {:>6} {:>6.1}% {:>5.1}%  (Elo against the field)",
                rank + 1,
                names[i],
                elo,
                err,
                t.games(),
                100.0 * t.score(),
                100.0 * t.draws as f64 / t.games().max(1) as f64
            );
        }
    }
    Ok(())
}

fn pgn_check(file: &std::path::Path, default_variant: &str, dialect: &str) -> Result<(), String> {
    use menagerie::notation::Dialect;
    let (dialect, other, other_name) = match dialect {
        "uci" => (Dialect::Uci, Dialect::Cecp, "cecp"),
        "cecp" | "xboard" => (Dialect::Cecp, Dialect::Uci, "uci"),
        d => return Err(format!("--dialect {d}: expected uci or cecp")),
    };
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let games = arena::pgn::read(&text);
    if games.is_empty() {
        return Err(format!("{} holds no game", file.display()));
    }
    for (i, g) in games.iter().enumerate() {
        let name = g.tag("Variant").unwrap_or(default_variant);
        let name = if name == "normal" { "chess" } else { name };
        let v = variants::by_name(name).map_err(|e| format!("game {}: {e}", i + 1))?;
        if let Err(e) = replay_pgn_game(v, g, dialect) {
            // On ten ranks the dialects number squares differently: a file written in one often
            // fails in the other, so say which one replays it.
            let hint = if replay_pgn_game(v, g, other).is_ok() {
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
fn replay_pgn_game(
    v: &'static dyn menagerie::variants::Variant,
    g: &arena::pgn::ReadGame,
    dialect: menagerie::notation::Dialect,
) -> Result<(), String> {
    use menagerie::notation::{parse_move, parse_san, Dialect};
    use menagerie::protocol::xboard_variant as xboard;
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
        let m = parse_move(v, &pos, dialect, token)
            .or_else(|_| parse_san(v, &pos, dialect, token))
            .or_else(|e| match dialect {
                Dialect::Cecp => xboard::parse_xboard_san(v, &pos, token)
                    .or_else(|_| xboard::parse_kill_san(v, &pos, token))
                    .map_err(|_| e),
                Dialect::Uci => Err(e),
            })
            .map_err(|e| {
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

fn bench(variant: Option<&str>, threads: usize, depth: Option<u32>) -> Result<(), String> {
    let list: Vec<&'static dyn menagerie::variants::Variant> = match variant {
        Some(name) => vec![variants::by_name(name).map_err(|e| e.to_string())?],
        None => variants::all().to_vec(),
    };
    if let Some(d) = depth.filter(|d| !(1..=64).contains(d)) {
        return Err(format!("depth must be between 1 and 64, not {d}"));
    }
    if !(1..=256).contains(&threads) {
        return Err(format!("threads must be between 1 and 256, not {threads}"));
    }
    let mut nodes = 0u64;
    let mut time = std::time::Duration::ZERO;
    for v in list {
        let depth = depth.unwrap_or_else(|| v.bench().depth);
        let r = menagerie::bench::run(v, depth, threads, |i, fen, n, t| {
            eprintln!(
                "{} position {}: {n} nodes, {} ms ({fen})",
                v.name(),
                i + 1,
                t.as_millis()
            )
        });
        nodes += r.nodes;
        time += r.time;
    }
    println!("Nodes searched: {nodes}");
    println!(
        "Nodes/second: {}",
        (nodes as u128 * 1000 / time.as_millis().max(1)) as u64
    );
    Ok(())
}

fn perft(
    variant: &str,
    fen: Option<&str>,
    depth: u32,
    divide: bool,
    threads: usize,
) -> Result<(), String> {
    let v = variants::by_name(variant).map_err(|e| e.to_string())?;
    if depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
        ));
    }
    if threads == 0 || threads > 256 {
        return Err(format!("threads must be between 1 and 256, not {threads}"));
    }
    let pos = match fen {
        Some(f) => v.parse_fen(f).map_err(|e| e.to_string())?,
        None => v.start_position(),
    };
    if depth == 0 {
        println!("Nodes searched: 1");
        return Ok(());
    }
    let bar = std::io::stderr().is_terminal().then(|| {
        let mut moves = menagerie::core::MoveList::new();
        v.legal_moves(&pos, &mut moves);
        let bar = indicatif::ProgressBar::new(moves.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "perft {bar:40} {pos}/{len} root moves, {elapsed}",
            )
            .expect("valid template"),
        );
        bar
    });
    let progress = |n: usize| {
        if let Some(b) = &bar {
            b.set_position(n as u64);
        }
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    let counts = menagerie::perft::divide(v, &pos, depth, threads, &progress, &never)
        .expect("a perft nobody stops runs to the end");
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if divide {
        for (m, n) in &counts {
            println!("{}: {n}", move_text(v, Dialect::Uci, *m));
        }
        println!();
    }
    println!(
        "Nodes searched: {}",
        counts.iter().map(|(_, n)| n).sum::<u64>()
    );
    Ok(())
}

fn list_variants() {
    for v in variants::all() {
        let g = v.rules().geometry();
        println!(
            "{:<16} {:>2}x{:<2}  {}",
            v.name(),
            g.files(),
            g.ranks(),
            v.description()
        );
    }
}

fn main() -> ExitCode {
    // Log lines start with '#': XBoard reads the engine's stderr as protocol lines and ignores those.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format(|buf, record| {
            use std::io::Write;
            writeln!(
                buf,
                "# {} {}: {}",
                record.level(),
                record.target(),
                record.args()
            )
        })
        .init();
    use clap::{CommandFactory, FromArgMatches};
    let parsed = Cli::command().try_get_matches().and_then(|m| {
        let mut cli = Cli::from_arg_matches(&m)?;
        // Each `--engine` keeps its own words: clap's derive flattens repeated lists.
        if let (Some(Command::Match(a)), Some(sub)) =
            (&mut cli.command, m.subcommand_matches("match"))
        {
            a.engine_groups = sub
                .get_occurrences::<String>("engine")
                .map(|o| o.map(|g| g.cloned().collect()).collect())
                .unwrap_or_default();
        }
        Ok(cli)
    });
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // One line: clap's first line says what is wrong, and when it ends in a colon the
            // next lines name the arguments.
            let text = e.render().to_string();
            let mut lines = text.lines();
            let mut line = lines.next().unwrap_or("error: bad arguments").to_string();
            if line.ends_with(':') {
                let names: Vec<&str> = lines.map(str::trim).take_while(|l| !l.is_empty()).collect();
                line = format!("{} {}", line, names.join(", "));
            }
            eprintln!("{line}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Some(Command::Perft {
            variant,
            fen,
            depth,
            divide,
            threads,
        }) => perft(&variant, fen.as_deref(), depth, divide, threads),
        Some(Command::Bench {
            variant,
            threads,
            depth,
        }) => bench(variant.as_deref(), threads, depth),
        Some(Command::Match(args)) => run_match(&args),
        Some(Command::PgnCheck {
            file,
            variant,
            dialect,
        }) => pgn_check(&file, &variant, &dialect),
        Some(Command::Gui {
            port,
            address,
            no_open,
        }) => menagerie::gui::run(&menagerie::gui::Options {
            address,
            port,
            open: !no_open,
        }),
        Some(Command::Variants) => {
            list_variants();
            Ok(())
        }
        None => {
            menagerie::protocol::run();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
