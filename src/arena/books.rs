//! The opening books shipped with the program (`books/*.epd`, written by `menagerie bookgen`;
//! docs/match.md says how), compiled in: a match without `--openings` starts from its game's
//! book.

/// Each game's book: one FEN of that game per line; blank and `#` lines are comments.
const BOOKS: &[(&str, &str)] = &[
    ("chess", include_str!("../../books/chess.epd")),
    ("divergent", include_str!("../../books/divergent.epd")),
    ("magician", include_str!("../../books/magician.epd")),
    (
        "schizophrenic",
        include_str!("../../books/schizophrenic.epd"),
    ),
    (
        "existentialist",
        include_str!("../../books/existentialist.epd"),
    ),
    ("afterlife", include_str!("../../books/afterlife.epd")),
    (
        "afterlife-optional-limbo",
        include_str!("../../books/afterlife-optional-limbo.epd"),
    ),
    ("chaos", include_str!("../../books/chaos.epd")),
];

/// The positions of the book of the game named `variant`; empty when it has none.
pub fn book(variant: &str) -> Vec<String> {
    BOOKS
        .iter()
        .find(|(name, _)| *name == variant)
        .map(|(_, text)| {
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    /// Every game has a book of the promised size, each line a position the game's FEN parser
    /// accepts, none twice, and none where the game is already over.
    #[test]
    fn every_shipped_book_line_is_a_position_of_its_game() {
        for v in variants::all() {
            let fens = book(v.name());
            let want = if v.name() == "chess" { 1000 } else { 500 };
            assert!(
                fens.len() >= want,
                "{}: {} positions, want {want}",
                v.name(),
                fens.len()
            );
            let mut seen = std::collections::HashSet::new();
            for (i, f) in fens.iter().enumerate() {
                let pos = v
                    .parse_fen(f)
                    .unwrap_or_else(|e| panic!("{} line {}: {f}: {e}", v.name(), i + 1));
                assert!(
                    seen.insert(pos.hash()),
                    "{} line {}: a duplicate",
                    v.name(),
                    i + 1
                );
                let mut legal = crate::core::MoveList::new();
                v.legal_moves(&pos, &mut legal);
                assert!(
                    !legal.is_empty(),
                    "{} line {}: no legal move",
                    v.name(),
                    i + 1
                );
            }
        }
    }

    #[test]
    fn an_unknown_game_has_no_book() {
        assert!(book("no-such-game").is_empty());
    }
}
