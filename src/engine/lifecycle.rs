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
