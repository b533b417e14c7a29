//! `menagerie perft`: the leaf nodes of the legal move tree, each root move's count printed as
//! soon as it is known with `--divide`, and `--suite FILE` to check a perft file position by
//! position. A progress bar shows on stderr when the run lasts over a second and both stdout and
//! stderr are terminals.

use crate::board::Position;
use crate::core::Move;
use crate::notation::{move_text, Dialect};
use crate::perft::suite;
use crate::variants::{self, Variant};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Prints a line to stdout; once stdout is closed (`| head`), ends the process quietly, since
/// nobody reads the rest.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        if writeln!(out, $($arg)*).and_then(|()| out.flush()).is_err() {
            std::process::exit(1);
        }
    }};
}

/// Deepest perft the CLI accepts.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// How long a count runs before its progress bar shows.
const BAR_DELAY: Duration = Duration::from_secs(1);

/// Counts the leaves `depth` plies below `fen` (the start position when `None`) of `variant`
/// (chess when `None`), the root moves split over `threads`. With `divide`, each root move's
/// count is printed as soon as it is known: in generation order with one thread, in the order
/// the moves finish with several.
pub fn perft(
    variant: Option<&str>,
    fen: Option<&str>,
    depth: u32,
    divide: bool,
    threads: usize,
) -> Result<(), String> {
    let v = variants::by_name(variant.unwrap_or("chess")).map_err(|e| e.to_string())?;
    check_depth(depth)?;
    check_threads(threads)?;
    let pos = match fen {
        Some(f) => v.parse_fen(f).map_err(|e| e.to_string())?,
        None => v.start_position(),
    };
    if depth == 0 {
        say!("Nodes searched: 1");
        return Ok(());
    }
    let total = count(v, &pos, depth, threads, |bar, m, n| {
        if divide {
            bar.suspend(|| say!("{}: {n}", move_text(v, Dialect::Uci, m)));
        }
    });
    if divide {
        say!();
    }
    say!("Nodes searched: {total}");
    Ok(())
}

/// Runs the perft file `file`: one line per count with PASS, FAIL or SKIP (expected count over
/// `max_nodes`), the expected and found counts and the time, then a summary. The variant is
/// `variant`, or else the file's name (`chess.perft` is chess). Fails if any count fails.
pub fn perft_suite(
    file: &Path,
    variant: Option<&str>,
    max_nodes: Option<u64>,
    threads: usize,
) -> Result<(), String> {
    check_threads(threads)?;
    let name = match variant {
        Some(name) => name.to_string(),
        None => file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let v = variants::by_name(&name).map_err(|e| match variant {
        Some(_) => e.to_string(),
        None => format!(
            "{}: the file's name is not a variant ({e}); name one with --variant",
            file.display()
        ),
    })?;
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let cases = suite::parse(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let width = cases.iter().map(|c| c.id.len()).max().unwrap_or(0);
    let start = Instant::now();
    let (mut passed, mut failed, mut skipped) = (0usize, 0usize, 0usize);
    for case in &cases {
        let pos = match v.parse_fen(&case.fen) {
            Ok(pos) => pos,
            Err(e) => {
                say!("FAIL  {:<width$}  bad FEN: {e}", case.id);
                failed += case.counts.len().max(1);
                continue;
            }
        };
        for &(depth, expected) in &case.counts {
            let head = format!(
                "{:<width$}  depth {depth:>2}  expected {expected:>12}",
                case.id
            );
            if max_nodes.is_some_and(|max| expected > max) {
                say!("SKIP  {head}  (over --max-nodes)");
                skipped += 1;
                continue;
            }
            if let Err(e) = check_depth(depth) {
                say!("FAIL  {head}  {e}");
                failed += 1;
                continue;
            }
            let t = Instant::now();
            let found = count(v, &pos, depth, threads, |_, _, _| {});
            let secs = t.elapsed().as_secs_f64();
            let verdict = if found == expected {
                passed += 1;
                "PASS"
            } else {
                failed += 1;
                "FAIL"
            };
            say!("{verdict}  {head}  found {found:>12}  {secs:.2} s");
        }
    }
    say!(
        "{}: {passed} passed, {failed} failed, {skipped} skipped ({} positions, variant {}) in {:.2} s",
        file.display(),
        cases.len(),
        v.name(),
        start.elapsed().as_secs_f64()
    );
    if failed > 0 {
        return Err(format!(
            "{failed} of {} perft counts failed",
            passed + failed
        ));
    }
    Ok(())
}

fn check_depth(depth: u32) -> Result<(), String> {
    if depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
        ));
    }
    Ok(())
}

fn check_threads(threads: usize) -> Result<(), String> {
    if threads == 0 || threads > 256 {
        return Err(format!("threads must be between 1 and 256, not {threads}"));
    }
    Ok(())
}

/// The leaves `depth` (at least 1) plies below `pos`, with `on_move` called with the bar as each
/// root move's count is known; prints through the bar's `suspend` keep it intact.
fn count(
    v: &dyn Variant,
    pos: &Position,
    depth: u32,
    threads: usize,
    on_move: impl Fn(&ProgressBar, Move, u64) + Sync,
) -> u64 {
    let mut moves = crate::core::MoveList::new();
    v.legal_moves(pos, &mut moves);
    let bar = ProgressBar::with_draw_target(Some(moves.len() as u64), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template(
            "perft {bar:30} {pos}/{len} root moves, {msg} nodes, {elapsed}",
        )
        .expect("valid template"),
    );
    let nodes = AtomicU64::new(0);
    let each = |m: Move, n: u64| {
        let sum = nodes.fetch_add(n, Ordering::Relaxed) + n;
        bar.set_message(sum.to_string());
        bar.inc(1);
        on_move(&bar, m, n);
    };
    let show = std::io::stdout().is_terminal() && std::io::stderr().is_terminal();
    let never = AtomicBool::new(false);
    let (done, wait) = mpsc::channel::<()>();
    let counts = std::thread::scope(|s| {
        if show {
            let bar = bar.clone();
            s.spawn(move || {
                if wait.recv_timeout(BAR_DELAY) == Err(mpsc::RecvTimeoutError::Timeout) {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(200));
                }
            });
        }
        let counts = crate::perft::divide_each(v, pos, depth, threads, &each, &never);
        drop(done);
        counts
    });
    bar.finish_and_clear();
    counts
        .expect("a perft nobody stops runs to the end")
        .iter()
        .map(|(_, n)| n)
        .sum()
}
