//! `menagerie match`: plays the match, a line per finished game on stderr, the games appended
//! to the PGN file, and the result on stdout as cutechess-cli prints it.

use super::match_config::{match_config, MatchArgs};
use crate::arena::stats::SprtDecision;
use crate::arena::{self, MatchConfig, MatchReport, Tournament};
use std::fs::File;
use std::io::Write;

/// Plays the match `a` describes and prints its result.
pub fn run_match(a: &MatchArgs) -> Result<(), String> {
    let config = match_config(a)?;
    arena::check_engines(&config)?;
    let mut pgn_file = open_pgn(a)?;
    let date = pgn_date();
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let total = games_in(&config);
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
        print_duel(&config, &report, &names);
    } else {
        print_table(&report, &names);
    }
    Ok(())
}

/// The `--pgnout` file, opened to append.
fn open_pgn(a: &MatchArgs) -> Result<Option<File>, String> {
    let Some(p) = a.pgnout() else {
        return Ok(None);
    };
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(p)
        .map(Some)
        .map_err(|e| format!("--pgnout: cannot open {}: {e}", p.display()))
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

/// Two engines: the score, the Elo difference and the SPRT's state.
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
    let draw_ratio = 100.0 * t.draws as f64 / t.games().max(1) as f64;
    match t.elo() {
        Some((elo, err)) => println!("Elo difference: {elo:.1} +/- {err:.1}, LOS: {:.1} %, DrawRatio: {draw_ratio:.1} %", 100.0 * t.los()),
        None => println!("Elo difference: not finite (one side scored every point), LOS: {:.1} %, DrawRatio: {draw_ratio:.1} %", 100.0 * t.los()),
    }
    if let Some(s) = config.sprt {
        let (lo, hi) = s.bounds();
        let verdict = match report.sprt {
            Some(SprtDecision::H0) => "H0 was accepted",
            Some(SprtDecision::H1) => "H1 was accepted",
            None => "no decision",
        };
        println!(
            "SPRT: llr {:.3} ({lo:.3}, {hi:.3}) [{}, {}]: {verdict}",
            t.llr(s.elo0, s.elo1),
            s.elo0,
            s.elo1
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
