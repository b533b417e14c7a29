//! What both protocols share: the loop that feeds protocol lines and the ends of searches to an
//! adapter. The searches themselves run through the engine's lifecycle
//! (`engine::lifecycle::Searches`), which announces each end on the protocol's channel.

use super::Event;
use crate::engine::lifecycle::SearchId;
use std::sync::mpsc::Receiver;

/// A protocol adapter, driven by `serve`.
pub trait Adapter {
    /// Handles one input line; false on `quit`.
    fn command(&mut self, line: &str) -> bool;
    /// A line longer than `MAX_LINE` bytes was dropped: it is refused, once.
    fn too_long(&mut self);
    /// A search with this id has finished.
    fn search_done(&mut self, id: SearchId);
    /// Input has ended or `quit` came: stop everything.
    fn shutdown(&mut self);
}

/// Feeds every event to `adapter` until `quit` or the end of input.
pub fn serve(adapter: &mut dyn Adapter, rx: Receiver<Event>) {
    for event in rx.iter() {
        match event {
            Event::Line(line) => {
                if !adapter.command(&line) {
                    break;
                }
            }
            Event::TooLong => adapter.too_long(),
            Event::Eof => break,
            Event::Done(id) => adapter.search_done(id),
        }
    }
    adapter.shutdown();
}

/// Most characters of an input echoed back in a refusal.
const ECHO_CHARS: usize = 80;

/// The start of `text`, for echoing a refused input without flooding the output.
pub fn clip(text: &str) -> String {
    text.chars().take(ECHO_CHARS).collect()
}
