//! `menagerie match`: plays the match, a line per finished game on stderr, the games appended
//! to the PGN file, and the result on stdout as cutechess-cli prints it.

use super::match_config::{match_config, MatchArgs};
use crate::arena::stats::{shown, EloModel, Estimates, SprtDecision};
use crate::arena::{self, MatchConfig, MatchReport, Tournament};
use std::fs::File;
use std::io::{IsTerminal, Write};

/// Plays the match `a` describes and prints its result.
pub fn run_match(a: &MatchArgs) -> Result<(), String> {
    let config = match_config(a)?;
    arena::check_engines(&config)?;
    let mut pgn_file = open_append(a.pgnout()?, "--pgnout")?;
    let mut epd_file = open_append(a.epdout()?, "--epdout")?;
    let date = pgn_date();
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let total = games_in(&config);
    let live = std::io::stderr().is_terminal();
    let interval = a.rating_interval();
    let mut done = 0;
    let mut write_error = None;
    let report = arena::run(&config, |g, report| {
        done += 1;
        let t = &report.tallies[0];
        if live {
            // Clear the live line before the game's line.
            eprint!("\r\x1b[2K");
        }
        eprintln!(
            "Finished game {} ({} vs {}): {} {{{}}}  [{done}/{total}]  Score of {} vs field: {} - {} - {} [{:.3}]",
            g.number, names[g.white], names[g.black], g.result, g.reason, names[0], t.wins, t.losses, t.draws, t.score()
        );
        if live {
            eprint!("{}", progress_line(&config, report, done, total));
        }
        if interval > 0 && done % interval == 0 {
            print_results(&config, report, &names);
        }
        let mut write = |file: &mut Option<File>, text: String, flag: &str| {
            if let Some(f) = file {
                if let Err(e) = f.write_all(text.as_bytes()) {
                    write_error = Some(format!("{flag}: {e}"));
                }
            }
        };
        write(
            &mut pgn_file,
            arena::to_pgn(&config, g, &date).to_pgn(),
            "--pgnout",
        );
        write(
            &mut epd_file,
            format!("{}\n", epd_of(&g.final_fen)),
            "--epdout",
        );
    })?;
    if live {
        eprint!("\r\x1b[2K");
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    if let Some(why) = &report.stopped {
        eprintln!("Match stopped: {why}");
    }
    print_results(&config, &report, &names);
    Ok(())
}

/// The results so far: the duel's statistics, or the table of a tournament.
fn print_results(config: &MatchConfig, report: &MatchReport, names: &[String]) {
    if config.engines.len() == 2 {
        print_duel(config, report, names);
    } else {
        print_table(report, names);
    }
}

/// The live line on a terminal: games, score, Elo with its error, and the LLR.
fn progress_line(config: &MatchConfig, report: &MatchReport, done: u32, total: u32) -> String {
    let t = &report.tallies[0];
    let est = if MatchReport::paired(config) && report.penta.pairs() > 0 {
        report.penta.estimates()
    } else {
        t.estimates()
    };
    let elo = est.map_or("Elo -".to_string(), |e| {
        format!("Elo {} +/- {}", shown(e.elo, 1), shown(e.elo_error, 1))
    });
    let llr = config.sprt.map_or(String::new(), |s| {
        format!(", LLR {}", shown(report.llr(config, &s), 2))
    });
    format!(
        "Games {done}/{total}, score {} - {} - {} [{:.3}], {elo}{llr}",
        t.wins,
        t.losses,
        t.draws,
        t.score()
    )
}

/// An EPD line from a FEN: its first four fields.
fn epd_of(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// A file opened to append.
fn open_append(path: Option<std::path::PathBuf>, flag: &str) -> Result<Option<File>, String> {
    let Some(p) = path else {
        return Ok(None);
    };
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&p)
        .map(Some)
        .map_err(|e| format!("{flag}: cannot open {}: {e}", p.display()))
}

/// The number of games the match plays if it goes to the end.
fn games_in(config: &MatchConfig) -> u32 {
    let n = config.engines.len() as u32;
    let pairings = match config.tournament {
        Tournament::RoundRobin => n * (n - 1) / 2,
        Tournament::Gauntlet => n - 1,
    };
    pairings * config.games * config.rounds
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

/// Two engines: the score, the Elo differences (logistic and normalised) with their errors,
/// LOS and draw ratio, pentanomial when the games are paired (trinomial beside them), and the
/// SPRT's state.
fn print_duel(config: &MatchConfig, report: &MatchReport, names: &[String]) {
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
    let estimates = |e: Option<Estimates>, draws: f64, what: &str| match e {
        Some(e) => println!(
            "{what}: Elo {} +/- {}, nElo {} +/- {}, LOS: {} %, DrawRatio: {} %",
            shown(e.elo, 2),
            shown(e.elo_error, 2),
            shown(e.nelo, 2),
            shown(e.nelo_error, 2),
            shown(100.0 * e.los, 2),
            shown(100.0 * draws, 2)
        ),
        None => {
            let s = if what == "Pentanomial" {
                report.penta.score()
            } else {
                t.score()
            };
            let inf = if s >= 0.5 { "+inf" } else { "-inf" };
            println!(
                "{what}: Elo {inf} (one side scored every point), DrawRatio: {} %",
                shown(100.0 * draws, 2)
            )
        }
    };
    // cutechess-cli's line, from the games.
    let draw_ratio = shown(100.0 * t.draw_ratio(), 1);
    match t.elo() {
        Some((elo, err)) => println!(
            "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {draw_ratio} %",
            shown(elo, 1),
            shown(err, 1),
            shown(100.0 * t.los(), 1)
        ),
        None => println!(
            "Elo difference: {} +/- -, LOS: {} %, DrawRatio: {draw_ratio} %",
            if t.score() >= 0.5 { "+inf" } else { "-inf" },
            shown(100.0 * t.los(), 1)
        ),
    }
    let paired = MatchReport::paired(config) && report.penta.pairs() > 0;
    if paired {
        let c = report.penta.counts;
        println!(
            "Ptnml(0-2): [{}, {}, {}, {}, {}], {} pairs",
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            report.penta.pairs()
        );
        estimates(
            report.penta.estimates(),
            report.penta.draw_ratio(),
            "Pentanomial",
        );
    }
    estimates(t.estimates(), t.draw_ratio(), "Trinomial");
    if let Some(s) = config.sprt {
        let (lo, hi) = s.bounds();
        let verdict = match report.sprt {
            Some(SprtDecision::H0) => "H0 was accepted",
            Some(SprtDecision::H1) => "H1 was accepted",
            None if !report.can_decide(config) => {
                "no decision (the results are all of one kind so far)"
            }
            None => "no decision",
        };
        let model = match s.model {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        };
        let tri = format!("trinomial LLR {}", shown(t.llr(&s), 3));
        let (llr, beside) = if paired {
            (report.penta.llr(&s), format!(", {tri}"))
        } else {
            (t.llr(&s), " (games unpaired: trinomial)".to_string())
        };
        println!(
            "SPRT: LLR {} ({}, {}) [{}, {}] {model}{beside}: {verdict}",
            shown(llr, 3),
            shown(lo, 3),
            shown(hi, 3),
            shown(s.elo0, 2),
            shown(s.elo1, 2)
        );
    }
}

/// More engines: a table ranked by score, each with its Elo against the field.
fn print_table(report: &MatchReport, names: &[String]) {
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
        let (elo, err) = t.elo().map_or_else(
            || {
                let inf = if t.score() >= 0.5 { "+inf" } else { "-inf" };
                (inf.to_string(), "-".to_string())
            },
            |(e, r)| (shown(e, 1), shown(r, 1)),
        );
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
