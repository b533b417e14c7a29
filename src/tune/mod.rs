//! Fitting a game's evaluation parameters to game results (Texel tuning): every labelled
//! position becomes its features (`Eval::features`), the evaluation a linear function of the
//! parameters; the scale constant `K` of the logistic that turns an evaluation into an expected
//! score is fitted first, then every parameter (middlegame and endgame) by gradient descent
//! (Adam) on the mean squared difference between result and expected score. Mop-up is not a
//! weight times a feature and stays as it is. `menagerie tune` (`crate::cli`) reads the data and
//! writes the game's parameter file; docs/tuning.md says how.

use crate::board::Position;
use crate::core::{Color, MoveList};
use crate::eval::{Eval, Features, Layout, Params};
use crate::variants::Variant;
use rayon::prelude::*;
use std::path::Path;

#[cfg(test)]
mod tests;

/// A labelled position: its features and the result for White (1, 1/2 or 0).
#[derive(Clone, Debug)]
pub struct Sample {
    pub features: Features,
    pub result: f64,
}

/// A game result for White from its text: `1-0`, `0-1`, `1/2-1/2`, or a number from 0 to 1
/// (`1.0`, `0.5`, or an expected score such as a stronger engine's judgement, `0.7310`);
/// quotes, brackets and a trailing `;` are ignored.
pub fn parse_result(text: &str) -> Option<f64> {
    let t = text
        .trim()
        .trim_end_matches(';')
        .trim_matches(|c| c == '"' || c == '[' || c == ']')
        .trim();
    match t {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" | "1/2" | "=" => Some(0.5),
        _ => t.parse::<f64>().ok().filter(|r| (0.0..=1.0).contains(r)),
    }
}

/// A line of EPD labelled with a result: the position (FEN, or EPD without the clocks), then
/// the result as an opcode `c9 "1-0";` or in brackets `[1.0]` / `[1-0]` (as common Texel data
/// writes it). `Ok(None)` for a blank line or a `#` comment.
pub fn parse_epd_line(
    variant: &dyn Variant,
    line: &str,
) -> Result<Option<(Position, f64)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (fen, result) = if let Some(i) = line.find(" c9 ") {
        (&line[..i], &line[i + 4..])
    } else if let Some(i) = line.rfind('[') {
        (&line[..i], &line[i..])
    } else {
        return Err("no result (expected c9 \"1-0\"; or [1.0])".to_string());
    };
    let result = result.split(';').next().unwrap_or("");
    let result =
        parse_result(result).ok_or_else(|| format!("cannot read the result '{result}'"))?;
    let fen = fen.trim().trim_end_matches(';').trim();
    let pos = variant
        .parse_fen(fen)
        .or_else(|e| variant.parse_fen(&format!("{fen} 0 1")).map_err(|_| e))
        .map_err(|e| format!("{e}"))?;
    Ok(Some((pos, result)))
}

/// The evaluation for White.
fn white_eval(variant: &dyn Variant, eval: &Eval, pos: &Position) -> i32 {
    let pov = variant.rulings().point_of_view(pos);
    let e = eval.evaluate(variant, pos, pov);
    if pov == Color::Black {
        -e
    } else {
        e
    }
}

/// What a capture must win, by the static evaluation, for a position not to count as quiet.
const QUIET_MARGIN: i32 = 50;

/// Whether a position is quiet enough to label: the side to move is not in check, the game is
/// not over, and no move that quiescence would search (`Variant::noisy_moves`) gains more than
/// `QUIET_MARGIN` by the static evaluation for the side it is played by.
pub fn quiet(variant: &dyn Variant, eval: &Eval, pos: &Position) -> bool {
    if variant.in_check(pos) {
        return false;
    }
    let mut legal = MoveList::new();
    variant.legal_moves(pos, &mut legal);
    if legal.is_empty() {
        return false;
    }
    let mut noisy = MoveList::new();
    variant.noisy_moves(pos, false, &mut noisy);
    let mover = variant.rulings().point_of_view(pos);
    let sign = if mover == Color::Black { -1 } else { 1 };
    let before = sign * white_eval(variant, eval, pos);
    noisy.as_slice().iter().all(|&m| {
        let after = sign * white_eval(variant, eval, &variant.play(pos, m));
        after <= before + QUIET_MARGIN
    })
}

/// The sample of a position whose game ended with `result` for White.
pub fn sample(
    variant: &dyn Variant,
    eval: &Eval,
    layout: &Layout,
    pos: &Position,
    result: f64,
) -> Sample {
    let pov = variant.rulings().point_of_view(pos);
    Sample {
        features: eval.features(variant, layout, pos, pov),
        result,
    }
}

/// The expected score for White of an evaluation `e` (centipawns), with scale `k`.
#[inline]
pub fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Parameter values as the tuner holds them: middlegame, endgame, unrounded.
pub type Values = Vec<[f64; 2]>;

fn values_of(params: &Params) -> Values {
    (0..params.len())
        .map(|i| {
            let (mg, eg) = params.value(i);
            [f64::from(mg), f64::from(eg)]
        })
        .collect()
}

fn score(f: &Features, v: &Values) -> f64 {
    f.fixed
        + f.coef
            .iter()
            .map(|&(i, c)| {
                let [mg, eg] = v[i as usize];
                f64::from(c) * (mg * f.phase + eg * (1.0 - f.phase))
            })
            .sum::<f64>()
}

/// The mean squared difference between result and expected score.
pub fn loss(samples: &[Sample], v: &Values, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .par_iter()
        .map(|s| {
            let d = s.result - sigmoid(k, score(&s.features, v));
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The scale `K` that fits the data best with the values `v` (golden-section search).
pub fn fit_k(samples: &[Sample], v: &Values) -> f64 {
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (loss(samples, v, c), loss(samples, v, d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = loss(samples, v, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = loss(samples, v, d);
        }
    }
    (a + b) / 2.0
}

/// The gradient of the loss with respect to every value, and the loss.
fn gradient(samples: &[Sample], v: &Values, k: f64) -> (Values, f64) {
    let n = v.len();
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let (g, l) = samples
        .par_chunks(1024)
        .map(|chunk| {
            let mut g = vec![[0.0; 2]; n];
            let mut l = 0.0;
            for s in chunk {
                let p = sigmoid(k, score(&s.features, v));
                let d = s.result - p;
                l += d * d;
                let de = -2.0 * d * p * (1.0 - p) * scale;
                let ph = s.features.phase;
                for &(i, c) in &s.features.coef {
                    let c = f64::from(c) * de;
                    g[i as usize][0] += c * ph;
                    g[i as usize][1] += c * (1.0 - ph);
                }
            }
            (g, l)
        })
        .reduce(
            || (vec![[0.0; 2]; n], 0.0),
            |(mut a, la), (b, lb)| {
                for (x, y) in a.iter_mut().zip(b) {
                    x[0] += y[0];
                    x[1] += y[1];
                }
                (a, la + lb)
            },
        );
    let m = samples.len().max(1) as f64;
    (g.into_iter().map(|[a, b]| [a / m, b / m]).collect(), l / m)
}

/// Per parameter, the positions where its feature is not zero, each weighed by its phase
/// (middlegame) and by 1 - phase (endgame).
pub fn evidence(samples: &[Sample], n: usize) -> Vec<[f64; 2]> {
    let mut w = vec![[0.0; 2]; n];
    for s in samples {
        for &(i, c) in &s.features.coef {
            if c != 0.0 {
                w[i as usize][0] += s.features.phase;
                w[i as usize][1] += 1.0 - s.features.phase;
            }
        }
    }
    w
}

/// The least a piece's value (`value.*`) is fitted to, in centipawns.
pub const MIN_PIECE_VALUE: f64 = 10.0;
/// A pawn's value squared, the unit of `Options::regularize`'s distance.
const PAWN_SQUARED: f64 = 100.0 * 100.0;

/// How the parameters are fitted.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Passes of gradient descent over the whole data.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub rate: f64,
    /// The evidence a value needs to move: a parameter's middlegame (endgame) value keeps its
    /// starting value unless the positions where its feature is not zero weigh at least this
    /// much, each by its phase (by 1 - phase). Adam steps as far on a faint gradient as on a
    /// strong one, so a value seen in a handful of positions would otherwise wander with their
    /// noise.
    pub min_weight: f64,
    /// The share of the positions (the last ones, so whole games as the data files hold them)
    /// held out of the fit: the values kept are those of the epoch where the loss on them was
    /// lowest, so a fit that starts to learn its data's noise stops there. 0: none held out,
    /// the values of the last epoch.
    pub holdout: f64,
    /// The share of the fitted change kept: the values written are start + blend x (fitted -
    /// start). The full fit swings the evaluation by many pawns for positional terms (the data's
    /// scale `K` is small), past what the search's pruning margins are set for; a third of it
    /// plays far better (docs/performance.md). 1: the fit itself.
    pub blend: f64,
    /// Weight of the penalty on every value's distance from where it started, per squared
    /// pawn (100 centipawns), added to the loss. Without it a value that few positions touch
    /// (a king on the seventh rank) or two values that move together (a piece's value and its
    /// whole square table) drift as far as the steps take them, since Adam moves every value
    /// at the same pace whatever the size of its gradient.
    pub regularize: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            epochs: 400,
            rate: 2.0,
            min_weight: 200.0,
            holdout: 0.1,
            blend: 0.3,
            regularize: 1e-4,
        }
    }
}

/// What a run fitted.
#[derive(Clone, Debug)]
pub struct Fit {
    pub params: Params,
    pub k: f64,
    pub loss_before: f64,
    pub loss_after: f64,
    /// The loss on the held-out positions with the starting values and with the values kept
    /// (both 0 when none are held out), and the epoch of the values kept.
    pub holdout_before: f64,
    pub holdout_after: f64,
    pub best_epoch: usize,
}

/// Fits every parameter of `start` to `samples` but those `fixed` (indices): `K` first with
/// the starting values, then Adam on the loss for `options.epochs` passes (a value with less
/// evidence than `options.min_weight` stays as it is; a piece's value stays at least
/// [`MIN_PIECE_VALUE`]), keeping the values of the epoch with the lowest loss on the held-out
/// positions; `progress` hears (epoch, loss, held-out loss) after each. The parameters
/// `unpenalized` (the pieces' values) are free of `options.regularize`: a piece's value and its
/// square table move together, and the penalty on the table alone leaves the level in the
/// value and the shape in the table.
pub fn tune(
    samples: &[Sample],
    start: &Params,
    unpenalized: &[usize],
    options: Options,
    fixed: &[usize],
    mut progress: impl FnMut(usize, f64, f64),
) -> Fit {
    let held = ((samples.len() as f64 * options.holdout.clamp(0.0, 0.5)) as usize)
        .min(samples.len().saturating_sub(1));
    let (train, check) = samples.split_at(samples.len() - held);
    let mut v = values_of(start);
    let start_values = v.clone();
    let mut penalty = vec![options.regularize; v.len()];
    for &i in unpenalized {
        penalty[i] = 0.0;
    }
    let k = fit_k(train, &v);
    let loss_before = loss(train, &v, k);
    let holdout_before = loss(check, &v, k);
    let (mut best, mut best_loss, mut best_epoch) = (v.clone(), holdout_before, 0);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![[0.0; 2]; v.len()];
    let mut s = vec![[0.0; 2]; v.len()];
    let free: Vec<[bool; 2]> = evidence(train, v.len())
        .into_iter()
        .enumerate()
        .map(|(i, [mg, eg])| {
            let free = !fixed.contains(&i);
            [
                free && mg >= options.min_weight,
                free && eg >= options.min_weight,
            ]
        })
        .collect();
    // A piece is worth something: the search orders and prunes captures by these values.
    let piece: Vec<bool> = (0..v.len())
        .map(|i| start.name(i).starts_with("value."))
        .collect();
    for epoch in 1..=options.epochs {
        let (mut g, l) = gradient(train, &v, k);
        for (i, g) in g.iter_mut().enumerate() {
            for p in 0..2 {
                g[p] += 2.0 * penalty[i] * (v[i][p] - start_values[i][p]) / PAWN_SQUARED;
            }
        }
        let t = epoch as i32;
        for i in 0..v.len() {
            for p in (0..2).filter(|&p| free[i][p]) {
                m[i][p] = b1 * m[i][p] + (1.0 - b1) * g[i][p];
                s[i][p] = b2 * s[i][p] + (1.0 - b2) * g[i][p] * g[i][p];
                let mh = m[i][p] / (1.0 - b1.powi(t));
                let sh = s[i][p] / (1.0 - b2.powi(t));
                v[i][p] -= options.rate * mh / (sh.sqrt() + eps);
                if piece[i] {
                    v[i][p] = v[i][p].max(MIN_PIECE_VALUE);
                }
            }
        }
        let vl = loss(check, &v, k);
        if check.is_empty() || vl < best_loss {
            (best, best_loss, best_epoch) = (v.clone(), vl, epoch);
        }
        progress(epoch, l, vl);
    }
    let mut params = start.clone();
    let blend = options.blend.clamp(0.0, 1.0);
    for (i, [mg, eg]) in best.iter().enumerate() {
        let (mg0, eg0) = start.value(i);
        let part = |to: f64, from: i32| (f64::from(from) + blend * (to - f64::from(from))).round();
        params.set(i, part(*mg, mg0) as i32, part(*eg, eg0) as i32);
    }
    let rounded = values_of(&params);
    Fit {
        loss_after: loss(train, &rounded, k),
        holdout_after: loss(check, &rounded, k),
        params,
        k,
        loss_before,
        holdout_before,
        best_epoch,
    }
}

/// Writes `text` to `path` through a temporary file beside it, renamed over it at the end, so
/// that an interrupted run leaves the old file whole.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}
