//! Elo estimates with error bars, the likelihood of superiority, and the sequential probability
//! ratio test, from win/draw/loss counts.

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
const Z95: f64 = 1.959_964;

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

    /// Per-game score variance.
    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let p = self.score();
        (self.wins as f64 * (1.0 - p).powi(2)
            + self.losses as f64 * p.powi(2)
            + self.draws as f64 * (0.5 - p).powi(2))
            / n
    }

    /// Elo difference and its 95% error bar; `None` when every game was won or lost by one side.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.games();
        let p = self.score();
        if n == 0 || p <= 0.0 || p >= 1.0 {
            return None;
        }
        let se = (self.variance() / n as f64).sqrt();
        let lo = (p - Z95 * se).clamp(1e-6, 1.0 - 1e-6);
        let hi = (p + Z95 * se).clamp(1e-6, 1.0 - 1e-6);
        Some((elo_of(p), (elo_of(hi) - elo_of(lo)) / 2.0))
    }

    /// Likelihood of superiority, from wins and losses.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    /// Log-likelihood ratio of H1 (Elo `elo1`) against H0 (Elo `elo0`), by the normal
    /// approximation of the mean score.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.games() as f64;
        let var = self.variance();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let s = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let (s0, s1) = (s(elo0), s(elo1));
        (s1 - s0) * (2.0 * self.score() - s0 - s1) * n / (2.0 * var)
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
}

impl Sprt {
    /// Lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision so far, if any.
    pub fn decide(&self, t: &Tally) -> Option<SprtDecision> {
        let llr = t.llr(self.elo0, self.elo1);
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
        };
        assert_eq!(
            sprt.decide(&Tally {
                wins: 400,
                losses: 100,
                draws: 100
            }),
            Some(SprtDecision::H1)
        );
        assert_eq!(
            sprt.decide(&Tally {
                wins: 100,
                losses: 400,
                draws: 100
            }),
            Some(SprtDecision::H0)
        );
        assert_eq!(
            sprt.decide(&Tally {
                wins: 3,
                losses: 2,
                draws: 1
            }),
            None
        );
    }
}
