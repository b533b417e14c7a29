//! Seeded fuzzers over every registered game (`variants::all()`, so a new game is fuzzed without
//! an edit here):
//!
//! - `fen`: FENs and move texts at library level. Random, mutated and hand-broken FENs never
//!   panic, and every FEN that parses prints back to a FEN that parses to the same position and
//!   the same move tree; every move text parses back to its move.
//! - `protocol`: the real binary over UCI and CECP, fed valid, broken and hostile lines; after
//!   every refused line the engine must be alive, have answered as its protocol says and have
//!   kept its position.
//!
//! `cargo test --release` runs a short slice of each. The long runs take their size and seed
//! from the environment (`docs/performance.md` records them):
//!
//! ```sh
//! MENAGERIE_FUZZ_FENS=20000 MENAGERIE_FUZZ_SEED=7 cargo test --release --test fuzz fen -- --nocapture
//! MENAGERIE_FUZZ_LINES=1000000 MENAGERIE_FUZZ_SEED=7 cargo test --release --test fuzz protocol -- --nocapture
//! ```

mod fen;
mod protocol;
#[path = "../test-support/protocol_lines.rs"]
mod protocol_lines;
#[path = "../engine-tests/protocol.rs"]
#[allow(dead_code)]
mod transcript;

/// A number from the environment, or `default`.
pub fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// The seed of every fuzzer: `MENAGERIE_FUZZ_SEED`, or a fixed one so that `cargo test`
/// always runs the same slice.
pub fn seed() -> u64 {
    env_number("MENAGERIE_FUZZ_SEED", 17)
}
