//! Time management: a soft limit (do not start another iteration past it) and a hard limit (stop
//! searching at once), both from the limits of the search.

use super::Limits;
use std::time::Duration;

/// Moves assumed left in the game when the clock does not say.
const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Share of the increment spent on each move.
const INCREMENT_SHARE: f64 = 0.75;
/// The hard limit is this many soft limits...
const HARD_PER_SOFT: f64 = 2.5;
/// ...but never more than this share of the time left (after the overhead)...
const HARD_SHARE_OF_CLOCK: f64 = 0.25;
/// ...or, on the last move before the time control, this share.
const HARD_SHARE_LAST_MOVE: f64 = 0.8;
/// The least time a search is given.
const MINIMUM: Duration = Duration::from_millis(1);

/// How long a search may take.
#[derive(Clone, Copy, Debug)]
pub struct TimeBudget {
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeBudget {
    /// The budget for `limits` (the clock is the mover's).
    pub fn new(limits: &Limits) -> TimeBudget {
        let overhead = limits.move_overhead;
        if let Some(t) = limits.movetime {
            // A fixed time per move is used in full: no early stop between iterations.
            let t = t.saturating_sub(overhead).max(MINIMUM);
            return TimeBudget {
                soft: None,
                hard: Some(t),
            };
        }
        let Some(clock) = limits.clock else {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        };
        let left = clock.time.saturating_sub(overhead);
        let mtg = clock.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 60);
        let base = left / mtg + clock.inc.mul_f64(INCREMENT_SHARE);
        let share = if mtg == 1 {
            HARD_SHARE_LAST_MOVE
        } else {
            HARD_SHARE_OF_CLOCK
        };
        let cap = left.mul_f64(share);
        let hard = base.mul_f64(HARD_PER_SOFT).min(cap).max(MINIMUM);
        let soft = base.min(hard).max(MINIMUM);
        TimeBudget {
            soft: Some(soft),
            hard: Some(hard),
        }
    }

    /// Whether a new iteration should not start.
    pub fn soft_exceeded(&self, elapsed: Duration) -> bool {
        // An iteration takes a few times longer than the last, so stop at half the soft limit.
        self.soft.is_some_and(|s| elapsed >= s / 2)
    }

    /// Whether the search must stop now.
    pub fn hard_exceeded(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|h| elapsed >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Clock;
    use super::*;

    #[test]
    fn never_more_than_the_clock_allows() {
        for ms in [10u64, 100, 1_000, 20_000, 300_000] {
            let limits = Limits {
                clock: Some(Clock {
                    time: Duration::from_millis(ms),
                    inc: Duration::from_millis(100),
                    movestogo: None,
                }),
                move_overhead: Duration::from_millis(30),
                ..Default::default()
            };
            let b = TimeBudget::new(&limits);
            let left = Duration::from_millis(ms).saturating_sub(Duration::from_millis(30));
            assert!(
                b.hard.unwrap() <= left.mul_f64(HARD_SHARE_OF_CLOCK).max(MINIMUM),
                "{ms} ms"
            );
            assert!(b.soft.unwrap() <= b.hard.unwrap());
        }
    }

    #[test]
    fn fixed_time_per_move() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(500)),
            move_overhead: Duration::from_millis(30),
            ..Default::default()
        };
        let b = TimeBudget::new(&limits);
        assert_eq!(b.hard, Some(Duration::from_millis(470)));
        assert_eq!(b.soft, None, "the whole time is used");
    }
}
