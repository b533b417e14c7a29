//! Elo estimates with error bars, the likelihood of superiority, and the sequential probability
//! ratio test, from win/draw/loss counts (trinomial) and from game pairs on one opening with
//! colours swapped (pentanomial), as fastchess and OpenBench compute them.

/// Results of one side against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins.
    pub wins: u32,
    /// Losses.
    pub losses: u32,
    /// Draws.
    pub draws: u32,
}

/// Normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Normalised Elo per unit of standardised score: 800 / ln 10.
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// The expected score of a logistic Elo difference.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// How the SPRT's Elo bounds are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo (cutechess-cli, OpenBench).
    Logistic,
    /// Normalised Elo (fastchess's default): the score's distance from 1/2 in standard
    /// deviations of one game, times 800 / ln 10.
    Normalized,
}

/// Mean, variance and count of a sample of scores from 0 to 1 given as `(score, count)`.
fn moments(sample: &[(f64, f64)]) -> (f64, f64, f64) {
    let n: f64 = sample.iter().map(|&(_, c)| c).sum();
    if n == 0.0 {
        return (0.5, 0.0, 0.0);
    }
    let mean = sample.iter().map(|&(s, c)| s * c).sum::<f64>() / n;
    let var = sample
        .iter()
        .map(|&(s, c)| c * (s - mean).powi(2))
        .sum::<f64>()
        / n;
    (mean, var, n)
}

/// The sequential test's log-likelihood ratio by the normal approximation (Van den Bergh,
/// "Normalized SPRT", as in fishtest, OpenBench and fastchess): `n` units (games or pairs) of
/// mean score `mean` and variance `var` per unit; `sd_game` converts normalised Elo.
fn llr_normal(n: f64, mean: f64, var: f64, sd_game: f64, sprt: &Sprt) -> f64 {
    if n == 0.0 || var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = match sprt.model {
        EloModel::Logistic => (logistic_score(sprt.elo0), logistic_score(sprt.elo1)),
        EloModel::Normalized => (
            0.5 + sprt.elo0 / NELO_SCALE * sd_game,
            0.5 + sprt.elo1 / NELO_SCALE * sd_game,
        ),
    };
    (s1 - s0) * (2.0 * mean - s0 - s1) * n / (2.0 * var)
}

/// Elo (logistic and normalised) with 95% errors, from a mean score, the variance of the mean
/// and one game's standard deviation; `None` when the score is 0 or 1.
fn elo_estimates(mean: f64, var_of_mean: f64, sd_game: f64) -> Option<Estimates> {
    if !(mean > 0.0 && mean < 1.0) {
        return None;
    }
    let se = var_of_mean.sqrt();
    let lo = (mean - Z95 * se).clamp(1e-6, 1.0 - 1e-6);
    let hi = (mean + Z95 * se).clamp(1e-6, 1.0 - 1e-6);
    let nelo = |p: f64| {
        if sd_game > 0.0 {
            (p - 0.5) / sd_game * NELO_SCALE
        } else {
            0.0
        }
    };
    Some(Estimates {
        elo: elo_of(mean),
        elo_error: (elo_of(hi) - elo_of(lo)) / 2.0,
        nelo: nelo(mean),
        nelo_error: (nelo(hi) - nelo(lo)) / 2.0,
        // With no spread at all, the sign of the lead decides.
        los: if var_of_mean > 0.0 {
            0.5 * (1.0 + erf((mean - 0.5) / (2.0 * var_of_mean).sqrt()))
        } else {
            match mean.total_cmp(&0.5) {
                std::cmp::Ordering::Less => 0.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 1.0,
            }
        },
    })
}

/// Elo estimates of a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimates {
    /// Logistic Elo difference.
    pub elo: f64,
    /// Its 95% error.
    pub elo_error: f64,
    /// Normalised Elo difference.
    pub nelo: f64,
    /// Its 95% error.
    pub nelo_error: f64,
    /// Likelihood of superiority, from 0 to 1.
    pub los: f64,
}

/// Game pairs on one opening with colours swapped, counted by the pair's points for the first
/// engine: `counts[k]` pairs scored `k / 2` points (0: two losses, 1: a loss and a draw, 2: two
/// draws or a win and a loss, 3: a win and a draw, 4: two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs per score `[0, 0.5, 1, 1.5, 2]`.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Adds a pair; `points` is the first engine's points over both games, doubled (0 to 4).
    pub fn add(&mut self, doubled_points: usize) {
        self.counts[doubled_points.min(4)] += 1;
    }

    /// Whether the pairs are spread over two cells or more: before that, the LLR stems from
    /// the regularisation of the empty cells alone (one pair of wins gives 3.8 for [0, 10]).
    pub fn has_spread(&self) -> bool {
        self.counts.iter().filter(|&&c| c > 0).count() >= 2
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    fn sample(&self, regularize: bool) -> Vec<(f64, f64)> {
        self.counts
            .iter()
            .enumerate()
            .map(|(k, &c)| {
                let c = if regularize && c == 0 { 1e-3 } else { c as f64 };
                (k as f64 / 4.0, c)
            })
            .collect()
    }

    /// Mean score per game, from 0 to 1.
    pub fn score(&self) -> f64 {
        moments(&self.sample(false)).0
    }

    /// Pairs that scored one point (two draws, or a win and a loss), as a fraction.
    pub fn draw_ratio(&self) -> f64 {
        self.counts[2] as f64 / self.pairs().max(1) as f64
    }

    /// Logistic and normalised Elo with 95% errors, and the LOS; `None` with no pairs or a
    /// score of 0 or 1.
    pub fn estimates(&self) -> Option<Estimates> {
        let (mean, var, n) = moments(&self.sample(false));
        if n == 0.0 {
            return None;
        }
        // A pair's score is the mean of two games, so one game's variance is twice the pair's.
        elo_estimates(mean, var / n, (2.0 * var).sqrt())
    }

    /// The log-likelihood ratio of `sprt`'s H1 against H0; empty cells count as 0.001 pairs,
    /// as OpenBench regularises them.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let (mean, var, n) = moments(&self.sample(true));
        llr_normal(n, mean, var, (2.0 * var).sqrt(), sprt)
    }
}

fn elo_of(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

fn erf(x: f64) -> f64 {
    // Abramowitz and Stegun 7.1.26; absolute error below 1.5e-7.
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Mean score per game, from 0 to 1.
    pub fn score(&self) -> f64 {
        let n = self.games().max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    fn sample(&self) -> [(f64, f64); 3] {
        [
            (1.0, self.wins as f64),
            (0.5, self.draws as f64),
            (0.0, self.losses as f64),
        ]
    }

    /// Draws, as a fraction of the games.
    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games().max(1) as f64
    }

    /// Logistic and normalised Elo with 95% errors, and the LOS; `None` with no games or when
    /// every game was won or lost by one side.
    pub fn estimates(&self) -> Option<Estimates> {
        let (mean, var, n) = moments(&self.sample());
        if n == 0.0 {
            return None;
        }
        elo_estimates(mean, var / n, var.sqrt())
    }

    /// Elo difference and its 95% error bar; `None` when every game was won or lost by one side.
    pub fn elo(&self) -> Option<(f64, f64)> {
        self.estimates().map(|e| (e.elo, e.elo_error))
    }

    /// Likelihood of superiority, from wins and losses.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    /// Log-likelihood ratio of `sprt`'s H1 against H0, trinomial.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        let (mean, var, n) = moments(&self.sample());
        llr_normal(n, mean, var, var.sqrt(), sprt)
    }
}

/// The decision of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H0 (Elo `elo0`) accepted.
    H0,
    /// H1 (Elo `elo1`) accepted.
    H1,
}

/// A sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// How `elo0` and `elo1` are read.
    pub model: EloModel,
}

impl Sprt {
    /// Lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision for a log-likelihood ratio, if any.
    pub fn decide(&self, llr: f64) -> Option<SprtDecision> {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Some(SprtDecision::H1)
        } else if llr <= lo {
            Some(SprtDecision::H0)
        } else {
            None
        }
    }
}

/// A number as the results table shows it: `+inf`, `-inf`, and never `-0.0`.
pub fn shown(x: f64, decimals: usize) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "+inf" } else { "-inf" }.to_string();
    }
    let text = format!("{x:.decimals$}");
    if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') {
        text[1..].to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        // A 75% score is 190.8 Elo (400 * log10(3)).
        let t = Tally {
            wins: 60,
            losses: 10,
            draws: 30,
        };
        let (elo, err) = t.elo().unwrap();
        assert!((elo - 190.85).abs() < 0.1, "{elo}");
        assert!(err > 0.0 && err < 100.0);
        assert!(Tally {
            wins: 5,
            losses: 0,
            draws: 0
        }
        .elo()
        .is_none());
        assert!(
            (Tally {
                wins: 10,
                losses: 10,
                draws: 5
            }
            .elo()
            .unwrap()
            .0)
                .abs()
                < 1e-9
        );
    }

    #[test]
    fn los_and_sprt() {
        assert!(
            (Tally {
                wins: 10,
                losses: 10,
                draws: 0
            }
            .los()
                - 0.5)
                .abs()
                < 1e-9
        );
        assert!(
            Tally {
                wins: 30,
                losses: 10,
                draws: 0
            }
            .los()
                > 0.99
        );
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        let decide = |wins, losses, draws| {
            sprt.decide(
                Tally {
                    wins,
                    losses,
                    draws,
                }
                .llr(&sprt),
            )
        };
        assert_eq!(decide(400, 100, 100), Some(SprtDecision::H1));
        assert_eq!(decide(100, 400, 100), Some(SprtDecision::H0));
        assert_eq!(decide(3, 2, 1), None);
    }

    #[test]
    fn pentanomial_by_hand() {
        // Pairs scoring 0, 0.5, 1, 1.5, 2 points: 1, 2, 3, 3, 1 (10 pairs, 20 games).
        let p = Pentanomial {
            counts: [1, 2, 3, 3, 1],
        };
        // Points 0 + 1 + 3 + 4.5 + 2 = 10.5 of 20: mean 0.525. Pair scores 0, .25, .5, .75, 1
        // around it: variance (0.525² + 2·0.275² + 3·0.025² + 3·0.225² + 0.475²) / 10
        // = 0.80625 / 10 = 0.080625; standard error of the mean sqrt(0.080625 / 10) = 0.0897915.
        assert!((p.score() - 0.525).abs() < 1e-12);
        let e = p.estimates().unwrap();
        // Logistic Elo -400·log10(1/0.525 - 1) = 17.386; error: half the Elo distance between
        // 0.525 ± 1.96·0.0897915 (0.349012 and 0.700988): (148.26 - (-107.99)) / 2 = 128.151.
        // Normalised Elo: (0.525 - 0.5) / sqrt(2·0.080625) · 800 / ln 10 = 21.630, error
        // 1.96·0.0897915 / sqrt(0.16125) · 347.436 = 152.268. The formulas are those of
        // fastchess's elo_pentanomial.cpp; the figures were worked out with a pocket calculator
        // (and checked with Python's math module).
        assert!((e.elo - 17.386).abs() < 0.01, "{e:?}");
        assert!((e.elo_error - 128.151).abs() < 0.01, "{e:?}");
        assert!((e.nelo - 21.630).abs() < 0.01, "{e:?}");
        assert!((e.nelo_error - 152.268).abs() < 0.01, "{e:?}");
        // LOS: Phi((0.525 - 0.5) / 0.0897915) = Phi(0.27842) = 0.60966.
        assert!((e.los - 0.60966).abs() < 1e-4, "{e:?}");
        // LLR for H0 = 0, H1 = 10 logistic Elo (s0 = 0.5, s1 = 1 / (1 + 10^(-1/40)) = 0.514387):
        // N (s1 - s0) (2 mean - s0 - s1) / (2 var) = 10 · 0.014387 · 0.035613 / 0.16125
        // = 0.031775 (the normal approximation of fishtest and OpenBench; no cell is empty, so
        // regularisation changes nothing).
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        assert!((p.llr(&sprt) - 0.031775).abs() < 1e-5, "{}", p.llr(&sprt));
        // The same games unpaired (the 1-point pairs taken as two draws): 5 wins, 11 draws,
        // 4 losses. Variance per game (5·0.475² + 11·0.025² + 4·0.525²) / 20 = 0.111875; LLR
        // 20 · 0.014387 · 0.035613 / (2 · 0.111875) = 0.045798.
        let t = Tally {
            wins: 3 + 2,
            draws: 2 + 2 * 3 + 3,
            losses: 2 + 2,
        };
        assert!((t.score() - 0.525).abs() < 1e-12);
        assert!((t.llr(&sprt) - 0.045798).abs() < 1e-5, "{}", t.llr(&sprt));
        // Every pair drawn: no spread, an even LOS, never NaN.
        let even = Pentanomial {
            counts: [0, 0, 4, 0, 0],
        }
        .estimates()
        .unwrap();
        assert_eq!((even.elo, even.los), (0.0, 0.5));
        // One pair of wins alone has no spread: its LLR is regularisation's.
        let one = Pentanomial {
            counts: [0, 0, 0, 0, 1],
        };
        assert!(one.llr(&sprt) > 2.944 && !one.has_spread());
        assert!(p.has_spread());
        // An empty match has no estimate and a zero LLR.
        assert!(Pentanomial::default().estimates().is_none());
        assert_eq!(Pentanomial::default().llr(&sprt), 0.0);
    }

    #[test]
    fn shown_numbers() {
        assert_eq!(shown(-0.0001, 1), "0.0");
        assert_eq!(shown(-0.0, 1), "0.0");
        assert_eq!(shown(f64::INFINITY, 1), "+inf");
        assert_eq!(shown(f64::NEG_INFINITY, 1), "-inf");
        assert_eq!(shown(-12.34, 1), "-12.3");
        assert_eq!(shown(5.0, 2), "5.00");
    }
}
