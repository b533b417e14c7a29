//! The two players' clocks of a game at the page: base time and increment, the time each has
//! left, and the one that runs.

use super::view;
use crate::core::Color;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The two players' clocks.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Base time and increment; `None`: no clock.
    pub control: Option<(Duration, Duration)>,
    left: [Duration; 2],
    /// The side whose clock runs, and since when.
    pub running: Option<(Color, Instant)>,
}

impl Clocks {
    /// Both clocks full and stopped, for `control` (base time and increment; `None`: no clock).
    pub fn new(control: Option<(Duration, Duration)>) -> Clocks {
        let base = control.map_or(Duration::ZERO, |c| c.0);
        Clocks {
            control,
            left: [base; 2],
            running: None,
        }
    }

    /// Time left of a player now.
    pub fn now(&self, c: Color) -> Duration {
        let left = self.left[c.index().min(1)];
        match self.running {
            Some((r, since)) if r == c => left.saturating_sub(since.elapsed()),
            _ => left,
        }
    }

    /// Stops the running clock; `moved` adds the increment.
    pub fn stop(&mut self, moved: bool) {
        if let Some((c, since)) = self.running.take() {
            let i = c.index().min(1);
            self.left[i] = self.left[i].saturating_sub(since.elapsed());
            if moved {
                self.left[i] += self.control.map_or(Duration::ZERO, |c| c.1);
            }
        }
    }

    /// Starts the clock of `c`, when a clock is kept and `c` is a player.
    pub fn start(&mut self, c: Color) {
        if self.control.is_some() && c != Color::Neutral {
            self.running = Some((c, Instant::now()));
        }
    }

    /// The player whose time ran out, if any.
    pub fn flagged(&self) -> Option<Color> {
        self.running
            .filter(|&(c, _)| self.now(c).is_zero())
            .map(|(c, _)| c)
    }

    /// The clocks for the page; `None` when no clock is kept.
    pub fn json(&self) -> Option<Value> {
        self.control.map(|(base, inc)| {
            json!({
                "base_ms": base.as_millis() as u64,
                "increment_ms": inc.as_millis() as u64,
                "w": self.now(Color::White).as_millis() as u64,
                "b": self.now(Color::Black).as_millis() as u64,
                "running": self.running.map(|(c, _)| view::side_code(c).to_string()),
            })
        })
    }
}
