//! Runs every `perft/<variant>.perft` file: each count must match, and at every node of each
//! position (to a small depth) the fast generator must equal the slow reference generator.

use menagerie::board::Position;
use menagerie::core::MoveList;
use menagerie::perft::perft;
use menagerie::perft::suite::{self, Case};
use menagerie::variants::{self, Variant};
use std::path::Path;

/// Default largest node count run by `cargo test`; `MENAGERIE_PERFT_LIMIT` overrides it.
const DEFAULT_NODE_LIMIT: u64 = 20_000_000;
/// Nodes visited per position by the fast-versus-reference comparison.
const SYNCED_NODE_LIMIT: u64 = 3_000;

/// The positions of a perft file, read by the library's parser (`menagerie::perft::suite`),
/// which refuses a position without a source line.
fn parse_file(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap();
    suite::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn perft_files() -> Vec<(String, std::path::PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("perft");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    files.sort();
    files
}

fn node_limit() -> u64 {
    std::env::var("MENAGERIE_PERFT_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_NODE_LIMIT)
}

#[test]
fn every_registered_variant_has_a_perft_file() {
    let files: Vec<String> = perft_files().into_iter().map(|(n, _)| n).collect();
    for v in variants::all() {
        assert!(
            files.contains(&v.name().to_string()),
            "perft/{}.perft is missing",
            v.name()
        );
    }
}

#[test]
fn perft_counts_match() {
    let limit = node_limit();
    let mut checked = 0;
    for (name, path) in perft_files() {
        let v = variants::by_name(&name).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for case in parse_file(&path) {
            let pos = v
                .parse_fen(&case.fen)
                .unwrap_or_else(|e| panic!("{name} {}: {e}", case.id));
            for &(depth, expected) in &case.counts {
                if expected > limit {
                    continue;
                }
                assert_eq!(
                    perft(v, &pos, depth),
                    expected,
                    "{name} {} depth {depth}",
                    case.id
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

/// Visits nodes depth-first up to `depth`, comparing generators at each, until `budget` runs out.
fn synced(v: &dyn Variant, pos: &Position, depth: u32, budget: &mut u64) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let mut fast = MoveList::new();
    v.legal_moves(pos, &mut fast);
    let mut a: Vec<u32> = fast.iter().map(|m| m.to_bits()).collect();
    let mut b: Vec<u32> = v.reference_moves(pos).iter().map(|m| m.to_bits()).collect();
    a.sort();
    b.sort();
    assert_eq!(
        a,
        b,
        "{}: generators differ at {}",
        v.name(),
        pos.to_fen(v.rules())
    );
    if depth > 0 {
        for &m in fast.iter() {
            synced(v, &v.play(pos, m), depth - 1, budget);
        }
    }
}

#[test]
fn fast_generator_equals_reference_at_every_node() {
    for (name, path) in perft_files() {
        let v = variants::by_name(&name).unwrap();
        for case in parse_file(&path) {
            let pos = v.parse_fen(&case.fen).unwrap();
            let mut budget = SYNCED_NODE_LIMIT;
            synced(v, &pos, 3, &mut budget);
        }
    }
}
