//! The transposition tables and search threads of all the browser board's games share one cap.
//! Every game holds at least the engine's defaults (16 MB and one thread), and what is kept for
//! the defaults of the game slots not in use is never given to another game, so a new page can
//! always start; beyond that a game's settings get only what the others leave.

use super::session::Session;
use crate::engine::Options;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// The caps, and what the games hold now.
#[derive(Debug)]
pub struct Budget {
    hash_mb: usize,
    threads: usize,
    slots: usize,
    used: Mutex<Used>,
}

#[derive(Debug, Default)]
struct Used {
    hash_mb: usize,
    threads: usize,
    games: usize,
}

/// The engine's default table size and threads, which every game holds.
fn base() -> (usize, usize) {
    let o = Options::default();
    (o.hash_mb, o.threads)
}

impl Budget {
    /// `hash_mb` and `threads` shared by at most `slots` games (raised so that every slot can
    /// hold the defaults).
    pub fn new(hash_mb: usize, threads: usize, slots: usize) -> Arc<Budget> {
        let (h, t) = base();
        Arc::new(Budget {
            hash_mb: hash_mb.max(slots * h),
            threads: threads.max(slots * t),
            slots,
            used: Mutex::new(Used::default()),
        })
    }

    /// A new game's hold on the defaults; `None` when every slot is taken.
    pub fn join(self: &Arc<Budget>) -> Option<Hold> {
        let (h, t) = base();
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        if used.games >= self.slots {
            return None;
        }
        used.games += 1;
        used.hash_mb += h;
        used.threads += t;
        Some(Hold {
            budget: Arc::clone(self),
            hash_mb: h,
            threads: t,
        })
    }
}

/// One game's share; given back when dropped.
#[derive(Debug)]
pub struct Hold {
    budget: Arc<Budget>,
    hash_mb: usize,
    threads: usize,
}

impl Hold {
    /// Changes the share to `hash_mb` and `threads` if the other games and the free slots leave
    /// that much; otherwise keeps it and says what is left.
    fn change(&mut self, hash_mb: usize, threads: usize) -> Result<(), String> {
        let b = &*self.budget;
        let (h, t) = base();
        let mut used = b.used.lock().unwrap_or_else(|e| e.into_inner());
        let free_slots = b.slots - used.games;
        let hash_left = b.hash_mb - (used.hash_mb - self.hash_mb) - free_slots * h;
        let threads_left = b.threads - (used.threads - self.threads) - free_slots * t;
        if hash_mb > hash_left {
            return Err(format!(
                "hash_mb: {hash_mb} MB is more than the {hash_left} MB this game may have now \
                 (all games share {} MB)",
                b.hash_mb
            ));
        }
        if threads > threads_left {
            return Err(format!(
                "threads: {threads} is more than the {threads_left} this game may have now \
                 (all games share {})",
                b.threads
            ));
        }
        used.hash_mb = used.hash_mb - self.hash_mb + hash_mb;
        used.threads = used.threads - self.threads + threads;
        self.hash_mb = hash_mb;
        self.threads = threads;
        Ok(())
    }

    /// Hands a page's command to its session, first checking a `settings` command's `hash_mb`
    /// and `threads` against the caps: one over what is left is refused as the session refuses
    /// a bad value (an error, then the unchanged state). After the command the share is what
    /// the session took.
    pub fn handle(&mut self, session: &mut Session, text: &str) -> Vec<Value> {
        let wanted = serde_json::from_str::<Value>(text)
            .ok()
            .filter(|cmd| cmd.get("cmd").and_then(Value::as_str) == Some("settings"))
            .map(|cmd| {
                let get = |k: &str| cmd.get(k).and_then(Value::as_u64).map(|n| n.max(1));
                (get("hash_mb"), get("threads"))
            });
        let Some((hash_mb, threads)) = wanted else {
            return session.handle(text);
        };
        let to_usize =
            |n: Option<u64>, now: usize| n.map_or(now, |n| n.try_into().unwrap_or(usize::MAX));
        let (hash_mb, threads) = (
            to_usize(hash_mb, self.hash_mb),
            to_usize(threads, self.threads),
        );
        if let Err(message) = self.change(hash_mb.max(self.hash_mb), threads.max(self.threads)) {
            return vec![
                json!({ "type": "error", "message": message }),
                session.state(),
            ];
        }
        let out = session.handle(text);
        let state = match out.last() {
            Some(s) if s["type"] == "state" => s.clone(),
            _ => session.state(),
        };
        let took = |k: &str| state["engine"][k].as_u64().map(|n| n as usize);
        if let (Some(h), Some(t)) = (took("hash_mb"), took("threads")) {
            // Down from what was reserved, so it always fits.
            let _ = self.change(h, t);
        }
        out
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut used = self.budget.used.lock().unwrap_or_else(|e| e.into_inner());
        used.games -= 1;
        used.hash_mb -= self.hash_mb;
        used.threads -= self.threads;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    fn settings(hold: &mut Hold, s: &mut Session, hash: u64, threads: u64) -> bool {
        let out = hold.handle(
            s,
            &format!(r#"{{"cmd":"settings","hash_mb":{hash},"threads":{threads}}}"#),
        );
        out[0]["type"] == "state"
    }

    #[test]
    fn games_share_the_caps_and_a_free_slot_keeps_its_defaults() {
        let budget = Budget::new(256, 8, 4);
        let (tx, _rx) = channel();
        let mut s = Session::new(tx);
        let mut a = budget.join().unwrap();
        // Three free slots keep 3 x 16 MB and 3 threads.
        assert!(!settings(&mut a, &mut s, 256, 1));
        assert!(settings(&mut a, &mut s, 208, 5));
        assert_eq!(s.state()["engine"]["hash_mb"], 208);
        let mut b = budget.join().unwrap();
        let (tx, _rx2) = channel();
        let mut t = Session::new(tx);
        assert!(!settings(&mut b, &mut t, 32, 1));
        assert!(!settings(&mut b, &mut t, 16, 2));
        assert_eq!(t.state()["engine"]["threads"], 1);
        // A refused value changes nothing, and lowering gives back.
        assert!(settings(&mut a, &mut s, 64, 1));
        assert!(settings(&mut b, &mut t, 160, 5));
        let _c = budget.join().unwrap();
        let _d = budget.join().unwrap();
        assert!(budget.join().is_none());
        drop(a);
        assert!(budget.join().is_some());
        // Settings the session refuses leave the share where it was.
        let out = b.handle(
            &mut t,
            r#"{"cmd":"settings","hash_mb":16,"white":"nobody"}"#,
        );
        assert_eq!(out[0]["type"], "error");
        assert_eq!(b.hash_mb, 160);
    }
}
