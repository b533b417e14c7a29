//! The search lifecycle every front end shares (UCI, CECP and the browser board): at most one
//! search at a time, started on the engine's search thread with a purpose the front end gives
//! it (play, analyse, ponder...); its lines stream to the front end as they finish, and its end
//! is announced on the front end's channel, where the front end collects the result. A search
//! may be stopped with its result still to come, finished (stopped, waited for and its result
//! taken) or abandoned (stopped and its result dropped).

use super::Engine;
use crate::search::{Info, Limits, SearchResult};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

/// Tells one search from another, so that a late report of a search since replaced is ignored.
pub type SearchId = u64;

/// The announcement that search `.0` has ended, sent on the front end's channel as an event of
/// the front end's own type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished(pub SearchId);

/// Where a search's result waits to be collected.
type Slot = Arc<Mutex<Option<SearchResult>>>;

/// The running search, with what it is for.
struct Running<P> {
    id: SearchId,
    purpose: P,
    slot: Slot,
}

/// At most one search at a time for one front end.
pub struct Searches<P> {
    announce: Arc<dyn Fn(Finished) + Send + Sync>,
    next_id: SearchId,
    running: Option<Running<P>>,
}

impl<P: Copy> Searches<P> {
    /// No search yet; each search's end will be announced on `events`.
    pub fn new<E: From<Finished> + Send + 'static>(events: Sender<E>) -> Searches<P> {
        Searches {
            announce: Arc::new(move |done| {
                // A closed channel means the front end is gone; nobody waits for the result.
                let _ = events.send(E::from(done));
            }),
            next_id: 0,
            running: None,
        }
    }

    /// Starts searching the engine's position for `purpose`, after stopping any search.
    /// `on_info` gets the search's id and each finished line, on the search thread.
    pub fn start(
        &mut self,
        engine: &mut Engine,
        limits: Limits,
        pondering: bool,
        purpose: P,
        mut on_info: impl FnMut(SearchId, &Info) + Send + 'static,
    ) {
        let id = self.next_id;
        self.next_id += 1;
        let slot: Slot = Arc::new(Mutex::new(None));
        let done_slot = Arc::clone(&slot);
        let announce = Arc::clone(&self.announce);
        engine.start_search(
            limits,
            pondering,
            move |info| on_info(id, info),
            move |result| {
                // Stored first, so that the front end finds it when the announcement comes.
                *lock(&done_slot) = Some(result);
                announce(Finished(id));
            },
        );
        self.running = Some(Running { id, purpose, slot });
    }

    /// Whether a search runs (or has ended and was not yet collected).
    pub fn active(&self) -> bool {
        self.running.is_some()
    }

    /// What the running search is for, if one runs (or has ended and was not yet collected).
    pub fn purpose(&self) -> Option<P> {
        self.running.as_ref().map(|r| r.purpose)
    }

    /// Changes what the running search is for.
    pub fn set_purpose(&mut self, purpose: P) {
        if let Some(r) = &mut self.running {
            r.purpose = purpose;
        }
    }

    /// Whether `id` is the running search.
    pub fn is_current(&self, id: SearchId) -> bool {
        self.running.as_ref().is_some_and(|r| r.id == id)
    }

    /// Asks the running search to stop; its end is still announced and its result collected.
    pub fn stop(&self, engine: &Engine) {
        engine.stop();
    }

    /// The opponent played the move being pondered on: the search goes on as a normal one.
    pub fn ponderhit(&self, engine: &Engine) {
        engine.ponderhit();
    }

    /// The running search's result and purpose, if it has ended; it is then forgotten.
    pub fn collect(&mut self) -> Option<(P, SearchResult)> {
        let r = self.running.as_ref()?;
        let result = lock(&r.slot).take()?;
        let purpose = r.purpose;
        self.running = None;
        Some((purpose, result))
    }

    /// Stops the running search, waits for it and returns its result and purpose.
    pub fn finish(&mut self, engine: &mut Engine) -> Option<(P, SearchResult)> {
        let r = self.running.take()?;
        engine.stop_and_wait();
        let result = lock(&r.slot).take()?;
        Some((r.purpose, result))
    }

    /// Stops the running search and drops its result; true if there was one.
    pub fn abandon(&mut self, engine: &mut Engine) -> bool {
        let had = self.running.take().is_some();
        if had {
            engine.stop_and_wait();
        }
        had
    }
}

/// The slot's content; a search thread that panicked while holding it left it readable.
fn lock(slot: &Slot) -> std::sync::MutexGuard<'_, Option<SearchResult>> {
    slot.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{channel, Receiver};
    use std::time::Duration;

    /// Longer than any of these searches takes, even on a loaded machine.
    const WAIT: Duration = Duration::from_secs(120);

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    fn setup() -> (Engine, Searches<char>, Receiver<Finished>) {
        let (tx, rx) = channel();
        (Engine::new(), Searches::new(tx), rx)
    }

    fn announced(rx: &Receiver<Finished>) -> SearchId {
        rx.recv_timeout(WAIT)
            .expect("the search's end is announced")
            .0
    }

    #[test]
    fn a_search_streams_its_lines_then_is_announced_and_collected() {
        let (mut engine, mut searches, rx) = setup();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&lines);
        searches.start(&mut engine, depth(3), false, 'p', move |id, info| {
            seen.lock().unwrap().push((id, info.depth));
        });
        assert!(searches.active());
        let id = announced(&rx);
        assert!(searches.is_current(id));
        let (purpose, result) = searches.collect().expect("the result waits");
        assert_eq!(purpose, 'p');
        let best = result.best.expect("a best move");
        assert!(engine.game().legal_moves().contains(best));
        assert!(!searches.active() && !searches.is_current(id));
        let lines = lines.lock().unwrap();
        assert!(lines.iter().all(|&(line_id, _)| line_id == id));
        assert_eq!(lines.last().map(|l| l.1), Some(3));
    }

    #[test]
    fn an_abandoned_search_leaves_nothing_and_its_late_end_is_not_current() {
        let (mut engine, mut searches, rx) = setup();
        searches.start(&mut engine, infinite(), false, 'a', |_, _| {});
        assert!(searches.abandon(&mut engine));
        assert!(!searches.active() && searches.collect().is_none());
        let old = announced(&rx);
        searches.start(&mut engine, depth(1), false, 'b', |_, _| {});
        assert!(!searches.is_current(old));
        let new = announced(&rx);
        assert!(searches.is_current(new));
        assert_eq!(searches.collect().map(|(p, _)| p), Some('b'));
        assert!(!searches.abandon(&mut engine));
    }

    #[test]
    fn a_stopped_search_still_gives_its_result_and_finish_waits_for_one() {
        let (mut engine, mut searches, rx) = setup();
        searches.start(&mut engine, infinite(), false, 's', |_, _| {});
        searches.set_purpose('t');
        searches.stop(&engine);
        let id = announced(&rx);
        assert!(searches.is_current(id));
        assert_eq!(searches.collect().map(|(p, _)| p), Some('t'));
        searches.start(&mut engine, infinite(), false, 'f', |_, _| {});
        assert_eq!(searches.finish(&mut engine).map(|(p, _)| p), Some('f'));
        assert!(!searches.active());
    }

    #[test]
    fn a_pondering_search_ignores_its_time_until_ponderhit() {
        let (mut engine, mut searches, rx) = setup();
        let limits = Limits {
            movetime: Some(Duration::from_millis(1)),
            ..Limits::default()
        };
        searches.start(&mut engine, limits, true, 'p', |_, _| {});
        std::thread::sleep(Duration::from_millis(300));
        assert!(rx.try_recv().is_err(), "a pondering search waits");
        searches.ponderhit(&engine);
        let id = announced(&rx);
        assert_eq!(searches.purpose(), Some('p'));
        assert!(searches.is_current(id));
    }
}
