//! Menagerie: a chess-variant engine for Existentialist, Schizophrenic, Afterlife, Magician's
//! Deathmatch, Chaos's and Divergent Chess, with FIDE chess as the baseline.
//!
//! The data flows one way: a variant module writes a [`rules::RuleSpec`], compiled into
//! [`rules::Rules`]; FEN text becomes a [`board::Setup`] and then a checked [`board::Position`];
//! [`movegen`] generates moves from the rules' tables; [`perft`] counts them. See
//! `docs/architecture.md`.

pub mod arena;
pub mod bench;
pub mod board;
pub mod cli;
pub mod core;
pub mod engine;
pub mod eval;
pub mod game;
pub mod gui;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod third_party;
pub mod tune;
pub mod variants;

#[cfg(test)]
mod layers;
