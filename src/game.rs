//! A game: a start position and the moves played from it, with every position kept so that moves
//! can be taken back and repetitions found. Protocols and the match runner hold one.

use crate::board::Position;
use crate::core::{Move, MoveList};
use crate::notation::{parse_move, Dialect, MoveError};
use crate::variants::{Outcome, Variant};

/// A game of one variant.
#[derive(Clone)]
pub struct Game {
    variant: &'static dyn Variant,
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game from `start`.
    pub fn new(variant: &'static dyn Variant, start: Position) -> Game {
        Game {
            variant,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// A game from the variant's start position.
    pub fn from_start(variant: &'static dyn Variant) -> Game {
        Game::new(variant, variant.start_position())
    }

    /// The variant.
    pub fn variant(&self) -> &'static dyn Variant {
        self.variant
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// The position before the last move, if a move was played.
    pub fn position_before_last(&self) -> Option<&Position> {
        let n = self.positions.len();
        (n >= 2).then(|| &self.positions[n - 2])
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// Moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Hashes of the positions before the current one, oldest first.
    pub fn history(&self) -> Vec<u64> {
        self.positions[..self.positions.len() - 1]
            .iter()
            .map(Position::hash)
            .collect()
    }

    /// Legal moves now.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.variant.legal_moves(self.position(), &mut moves);
        moves
    }

    /// Plays a move that must be legal.
    pub fn play(&mut self, m: Move) {
        let next = self.variant.play(self.position(), m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Parses and plays a move; the game is unchanged if it is refused.
    pub fn play_text(&mut self, dialect: Dialect, text: &str) -> Result<Move, MoveError> {
        let m = parse_move(self.variant, self.position(), dialect, text)?;
        self.play(m);
        Ok(m)
    }

    /// Takes back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_some() {
            self.positions.pop();
            true
        } else {
            false
        }
    }

    /// The result, if the game is over by the rules.
    pub fn outcome(&self) -> Option<Outcome> {
        let legal = self.legal_moves().len();
        self.variant
            .rulings()
            .outcome(self.position(), legal, &self.history())
    }
}
