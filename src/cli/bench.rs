//! `menagerie bench`: fixed positions searched to a fixed depth; the node count is the search's
//! checksum.

use crate::variants::{self, Variant};
use std::time::Duration;

/// Searches the bench positions of `variant` (every variant when `None`) with `threads`, to
/// `depth` or each variant's own bench depth; each position's count on stderr, the total and
/// the speed on stdout.
pub fn bench(variant: Option<&str>, threads: usize, depth: Option<u32>) -> Result<(), String> {
    let list: Vec<&'static dyn Variant> = match variant {
        Some(name) => vec![variants::by_name(name).map_err(|e| e.to_string())?],
        None => variants::all().to_vec(),
    };
    if let Some(d) = depth.filter(|d| !(1..=64).contains(d)) {
        return Err(format!("depth must be between 1 and 64, not {d}"));
    }
    if !(1..=256).contains(&threads) {
        return Err(format!("threads must be between 1 and 256, not {threads}"));
    }
    let mut nodes = 0u64;
    let mut time = Duration::ZERO;
    for v in list {
        let depth = depth.unwrap_or_else(|| v.bench().depth);
        let r = crate::bench::run(v, depth, threads, |i, fen, n, t| {
            eprintln!(
                "{} position {}: {n} nodes, {} ms ({fen})",
                v.name(),
                i + 1,
                t.as_millis()
            )
        });
        nodes += r.nodes;
        time += r.time;
    }
    println!("Nodes searched: {nodes}");
    println!(
        "Nodes/second: {}",
        (nodes as u128 * 1000 / time.as_millis().max(1)) as u64
    );
    Ok(())
}
