//! The subcommands of the `menagerie` binary, one function each, called by `main` once it has
//! parsed the arguments. They print their results and return an error in one line; this floor
//! sits above `protocol`, `arena` and `gui`, beside `main`, and nothing below imports it.

mod bench;
mod bookgen;
mod cutechess;
mod datagen;
mod match_config;
mod match_run;
mod perft;
mod pgn_check;
mod tune;

pub use bench::bench;
pub use bookgen::{bookgen, BookgenArgs};
pub use cutechess::translate as cutechess_args;
pub use datagen::{datagen, DatagenArgs};
pub use match_config::{match_config, MatchArgs};
pub use match_run::run_match;
pub use perft::{perft, perft_suite, MAX_PERFT_DEPTH};
pub use pgn_check::pgn_check;
pub use tune::{tune, TuneArgs};

use crate::variants;

/// `menagerie variants`: each variant with its board size and description.
pub fn list_variants() {
    for v in variants::all() {
        let g = v.rules().geometry();
        println!(
            "{:<16} {:>2}x{:<2}  {}",
            v.name(),
            g.files(),
            g.ranks(),
            v.description()
        );
    }
}
