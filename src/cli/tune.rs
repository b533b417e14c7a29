//! `menagerie tune`: fits a game's evaluation parameters to labelled positions (EPD with a
//! result, or PGN written by `menagerie match`) and writes its parameter file (docs/tuning.md).

use super::pgn_check::replay_positions;
use crate::arena::pgn;
use crate::eval::{Eval, Params};
use crate::notation::Dialect;
use crate::tune::{self, Options, Sample};
use crate::variants::{self, Variant};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// The arguments of `menagerie tune`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// The game whose parameters are fitted.
    #[arg(long)]
    pub variant: String,
    /// Data files: `.pgn` (games; every quiet position labelled with the game's result), any
    /// other name EPD (one labelled position a line).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The parameter file written; default src/eval/params/<variant>.txt.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Passes of gradient descent.
    #[arg(long, default_value_t = Options::default().epochs)]
    pub epochs: usize,
    /// Adam's step size (centipawns).
    #[arg(long, default_value_t = Options::default().rate)]
    pub rate: f64,
    /// Evidence a value needs to move: the positions where its feature is not zero, weighed
    /// by their phase (middlegame) or 1 - phase (endgame); values with less keep their start.
    #[arg(long, default_value_t = Options::default().min_weight)]
    pub min_weight: f64,
    /// Share of the positions (the last ones) held out: the values kept are those of the
    /// epoch with the lowest loss on them.
    #[arg(long, default_value_t = Options::default().holdout)]
    pub holdout: f64,
    /// Share of the fitted change written: start + blend x (fitted - start).
    #[arg(long, default_value_t = Options::default().blend)]
    pub blend: f64,
    /// Parameters kept at their values (by name, comma-separated), e.g. `value.pawn` as the
    /// unit of the others.
    #[arg(long, value_delimiter = ',')]
    pub fix: Vec<String>,
    /// Weight of the penalty on each value's squared distance (in pawns) from its starting
    /// value, added to the loss (0: none).
    #[arg(long, default_value_t = Options::default().regularize)]
    pub regularize: f64,
    /// Square numbering of PGN moves: uci or cecp.
    #[arg(long, default_value = "uci")]
    pub dialect: String,
    /// Plies at the start of each PGN game left out (the book's).
    #[arg(long, default_value_t = 8)]
    pub skip_plies: usize,
}

/// What reading the data found.
#[derive(Default)]
struct Counts {
    samples: Vec<Sample>,
    bad: usize,
    not_quiet: usize,
    wrong_game: usize,
}

/// `menagerie tune`.
pub fn tune(args: &TuneArgs) -> Result<(), String> {
    let v = variants::by_name(&args.variant).map_err(|e| e.to_string())?;
    let dialect = match args.dialect.as_str() {
        "uci" => Dialect::Uci,
        "cecp" | "xboard" => Dialect::Cecp,
        d => return Err(format!("--dialect {d}: expected uci or cecp")),
    };
    let (layout, start) = Params::for_variant(v);
    let eval = Eval::with_params(v, &layout, &start);
    let mut counts = Counts::default();
    for file in &args.data {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        if file
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        {
            read_pgn(
                v,
                &eval,
                &layout,
                file,
                &text,
                dialect,
                args.skip_plies,
                &mut counts,
            );
        } else {
            read_epd(v, &eval, &layout, file, &text, &mut counts);
        }
    }
    if counts.samples.is_empty() {
        return Err(format!(
            "no labelled position to tune {} on ({} bad lines or games, {} not quiet)",
            v.name(),
            counts.bad,
            counts.not_quiet
        ));
    }
    eprintln!(
        "{} positions ({} bad lines or games skipped, {} positions not quiet, {} games of \
         another variant)",
        counts.samples.len(),
        counts.bad,
        counts.not_quiet,
        counts.wrong_game
    );
    let options = Options {
        epochs: args.epochs,
        rate: args.rate,
        min_weight: args.min_weight,
        holdout: args.holdout,
        blend: args.blend,
        regularize: args.regularize,
    };
    let terminal = std::io::stderr().is_terminal();
    let bar = indicatif::ProgressBar::new(options.epochs as u64);
    if !terminal {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut fixed = Vec::new();
    for name in &args.fix {
        fixed.push(
            start
                .find(name)
                .ok_or_else(|| format!("--fix {name}: no such parameter in {}", v.name()))?,
        );
    }
    let values: Vec<usize> = layout.value.iter().flatten().copied().collect();
    let fit = tune::tune(
        &counts.samples,
        &start,
        &values,
        options,
        &fixed,
        |epoch, loss, held| {
            bar.set_position(epoch as u64);
            bar.set_message(format!("loss {loss:.6}, held out {held:.6}"));
            if !terminal && (epoch % 50 == 0 || epoch == options.epochs) {
                eprintln!(
                    "epoch {epoch}/{}: loss {loss:.6}, held out {held:.6}",
                    options.epochs
                );
            }
        },
    );
    bar.finish_and_clear();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("src/eval/params/{}.txt", v.name())));
    let held = if options.holdout > 0.0 {
        format!(
            "held out {:.6} before, {:.6} after (epoch {})",
            fit.holdout_before, fit.holdout_after, fit.best_epoch
        )
    } else {
        format!("no games held out (epoch {})", fit.best_epoch)
    };
    let header = format!(
        "Evaluation parameters of {} (centipawns per unit of each feature; 'name mg eg'), read \
         at start.\nWritten by `menagerie tune` from {} positions: K {:.4}, loss {:.6} before, \
         {:.6} after; {held}; blend {} (docs/tuning.md).",
        v.name(),
        counts.samples.len(),
        fit.k,
        fit.loss_before,
        fit.loss_after,
        options.blend
    );
    tune::write_atomic(&out, &fit.params.to_text(&header))
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!(
        "{} positions, {} bad skipped, {} not quiet; K {:.4}; loss {:.6} -> {:.6}; {held}; \
         wrote {}",
        counts.samples.len(),
        counts.bad,
        counts.not_quiet,
        fit.k,
        fit.loss_before,
        fit.loss_after,
        out.display()
    );
    Ok(())
}

fn read_epd(
    v: &dyn Variant,
    eval: &Eval,
    layout: &crate::eval::Layout,
    file: &Path,
    text: &str,
    counts: &mut Counts,
) {
    for (i, line) in text.lines().enumerate() {
        match tune::parse_epd_line(v, line) {
            Ok(None) => {}
            Ok(Some((pos, result))) => {
                if tune::quiet(v, eval, &pos) {
                    counts
                        .samples
                        .push(tune::sample(v, eval, layout, &pos, result));
                } else {
                    counts.not_quiet += 1;
                }
            }
            Err(e) => {
                eprintln!("{}:{}: {e}; skipped", file.display(), i + 1);
                counts.bad += 1;
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn read_pgn(
    v: &'static dyn Variant,
    eval: &Eval,
    layout: &crate::eval::Layout,
    file: &Path,
    text: &str,
    dialect: Dialect,
    skip_plies: usize,
    counts: &mut Counts,
) {
    // The line each game starts on, for the reports: its first tag after movetext.
    let mut starts = Vec::new();
    let mut in_tags = false;
    for (i, line) in text.lines().enumerate() {
        let tag = line.trim_start().starts_with('[');
        if tag && !in_tags {
            starts.push(i + 1);
        }
        if !line.trim().is_empty() {
            in_tags = tag;
        }
    }
    for (n, g) in pgn::read(text).iter().enumerate() {
        let line = starts.get(n).copied().unwrap_or(0);
        let name = g.tag("Variant").unwrap_or("chess");
        let name = if name == "normal" { "chess" } else { name };
        if name != v.name() {
            counts.wrong_game += 1;
            continue;
        }
        let Some(result) = tune::parse_result(&g.result) else {
            eprintln!(
                "{}:{line}: game {} has no result ('{}'); skipped",
                file.display(),
                n + 1,
                g.result
            );
            counts.bad += 1;
            continue;
        };
        match replay_positions(v, g, dialect) {
            Ok(positions) => {
                for pos in positions.iter().skip(skip_plies) {
                    if tune::quiet(v, eval, pos) {
                        counts
                            .samples
                            .push(tune::sample(v, eval, layout, pos, result));
                    } else {
                        counts.not_quiet += 1;
                    }
                }
            }
            Err(e) => {
                eprintln!("{}:{line}: game {}{e}; skipped", file.display(), n + 1);
                counts.bad += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts_of(variant: &str, name: &str, text: &str) -> Counts {
        let v = variants::by_name(variant).unwrap();
        let (layout, params) = Params::for_variant(v);
        let eval = Eval::with_params(v, &layout, &params);
        let mut counts = Counts::default();
        let file = Path::new(name);
        if name.ends_with(".pgn") {
            read_pgn(v, &eval, &layout, file, text, Dialect::Uci, 0, &mut counts);
        } else {
            read_epd(v, &eval, &layout, file, text, &mut counts);
        }
        counts
    }

    #[test]
    fn bad_epd_lines_are_skipped_and_counted() {
        let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1-0\";\n\
                    # a comment\n\
                    not a position c9 \"1-0\";\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n\
                    4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1 [1.0]\n\
                    rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - [0.5]\n";
        let c = counts_of("chess", "d.epd", text);
        assert_eq!((c.samples.len(), c.bad, c.not_quiet), (2, 2, 1));
        assert_eq!(c.samples[1].result, 0.5);
    }

    #[test]
    fn pgn_games_give_their_positions_and_bad_games_are_counted() {
        let text = "[Event \"a\"]\n[Variant \"chess\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
                    [Event \"b\"]\n[Variant \"chess\"]\n\n1. e4 e4 0-1\n\n\
                    [Event \"c\"]\n[Variant \"chess\"]\n\n1. d4 d5 *\n\n\
                    [Event \"d\"]\n[Variant \"divergent\"]\n\n1. d4 1-0\n";
        let c = counts_of("chess", "g.pgn", text);
        assert_eq!((c.bad, c.wrong_game), (2, 1));
        assert_eq!(
            c.samples.len() + c.not_quiet,
            5,
            "four plies and the last position"
        );
        assert!(c.samples.iter().all(|s| s.result == 1.0));
    }
}
