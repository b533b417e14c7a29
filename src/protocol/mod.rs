//! Protocol adapters over the engine facade. stdin is read on its own thread, which feeds one
//! channel of events together with the search thread's results, so the protocol loop handles
//! `stop`, `?`, `ping` and `quit` while a search runs. The first command (`uci` or `xboard`)
//! picks the protocol.

pub mod session;
pub mod uci;
pub mod xboard;
pub mod xboard_variant;

use crate::engine::lifecycle::{Finished, SearchId};
use std::io::{BufRead, Read, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// Most bytes of one input line; a longer line is refused whole.
pub const MAX_LINE: usize = 1 << 16;

/// Something the protocol loop must handle.
#[derive(Debug)]
pub enum Event {
    /// A line from stdin, without its line ending.
    Line(String),
    /// A line longer than `MAX_LINE` bytes came and was dropped.
    TooLong,
    /// stdin is closed.
    Eof,
    /// The search with this id finished; its result waits in the adapter's `Searches`.
    Done(SearchId),
}

impl From<Finished> for Event {
    fn from(Finished(id): Finished) -> Event {
        Event::Done(id)
    }
}

/// Writes whole protocol lines to stdout, flushed, from any thread.
#[derive(Clone)]
pub struct Output(Arc<Mutex<()>>);

impl Output {
    fn new() -> Output {
        Output(Arc::new(Mutex::new(())))
    }

    /// Writes one line.
    pub fn line(&self, text: &str) {
        let _guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = std::io::stdout().lock();
        // A closed pipe means the GUI is gone; the reader thread will see EOF.
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

fn spawn_reader(tx: Sender<Event>) {
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            let mut buf = Vec::new();
            loop {
                buf.clear();
                // One byte more than a line may have, with its newline, tells a long line.
                let limit = MAX_LINE as u64 + 1;
                let event = match lock.by_ref().take(limit).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) if n as u64 == limit && buf.last() != Some(&b'\n') => {
                        // Its tail is skipped too: no part of it may run as a command.
                        if lock.skip_until(b'\n').is_err() {
                            break;
                        }
                        Event::TooLong
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf);
                        Event::Line(text.trim_end_matches(['\n', '\r']).to_string())
                    }
                };
                if tx.send(event).is_err() {
                    return;
                }
            }
            let _ = tx.send(Event::Eof);
        })
        .expect("the stdin thread starts");
}

/// Reads a protocol on stdin until `quit` or the end of input.
pub fn run() {
    let (tx, rx): (Sender<Event>, Receiver<Event>) = channel();
    spawn_reader(tx.clone());
    let out = Output::new();
    for event in rx.iter() {
        match event {
            Event::Line(line) => match line.split_whitespace().next() {
                None => continue,
                Some("uci") => return uci::Uci::new(out, tx).run(rx),
                Some("xboard") => return xboard::Xboard::new(out, tx).run(rx),
                Some("quit") => return,
                Some(other) => out.line(&format!(
                    "info string unknown command '{}': start with uci or xboard",
                    session::clip(other)
                )),
            },
            Event::TooLong => out.line(&format!(
                "info string a line of more than {MAX_LINE} bytes was refused"
            )),
            Event::Eof => return,
            Event::Done(_) => {}
        }
    }
}
