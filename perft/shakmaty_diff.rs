//! Differential test of the FIDE chess rules against the independent `shakmaty` crate.
//!
//! Seeded random playouts advance both engines in lockstep, from the start position and from
//! the standard perft test positions (Kiwipete, positions 3–5, an en-passant position). At every
//! position reached this proves that:
//!
//! - our legal move list equals shakmaty's, move for move, as sets of UCI strings, and ours holds
//!   no duplicates;
//! - our check detection agrees with shakmaty's;
//! - the FEN our `to_fen` writes parses in shakmaty to a position with the same legal moves, and
//!   agrees field by field with the X-FEN shakmaty writes (board, side, castling, en passant when
//!   a pawn stands ready to capture, clocks);
//! - shakmaty's FEN parses in our `parse_fen` to a position with the same legal moves.
//!
//! Playouts favour castling, en passant and promotions so those rules are exercised often.
//! Over 1,000 positions are compared; the test fails with the FEN and the symmetric difference
//! of the move sets on the first disagreement.

use std::collections::BTreeSet;

use menagerie::board::Position as OurPosition;
use menagerie::core::{Move as OurMove, MoveList};
use menagerie::notation::{move_text, Dialect};
use menagerie::variants::{by_name, Variant};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move as ShakMove, Position};

/// Starting FENs besides the initial position, biased towards castling, en passant,
/// promotions and pins.
const EXTRA_FENS: &[&str] = &[
    // Kiwipete.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Position 3.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    // Position 4.
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    // Position 5.
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    // En passant available at once.
    "8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3",
];

const START_GAMES: u64 = 150;
const GAMES_PER_EXTRA_FEN: u64 = 30;
const MAX_PLIES: usize = 150;
const MIN_POSITIONS: usize = 1_000;

/// SplitMix64: a tiny seeded generator, so every run plays the same games.
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform-enough index below `n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

fn chess() -> &'static dyn Variant {
    by_name("chess").expect("chess is registered")
}

/// Our legal moves as (UCI text, move), sorted by text.
fn our_moves(v: &dyn Variant, pos: &OurPosition) -> Vec<(String, OurMove)> {
    let mut list = MoveList::new();
    v.legal_moves(pos, &mut list);
    let mut out: Vec<(String, OurMove)> = list
        .iter()
        .map(|&m| (move_text(v, Dialect::Uci, m), m))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Shakmaty's legal moves as (UCI text, move), sorted by text.
fn shak_moves(pos: &Chess) -> Vec<(String, ShakMove)> {
    let mut out: Vec<(String, ShakMove)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (m.to_uci(CastlingMode::Standard).to_string(), m))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn shak_from_fen(fen: &str) -> Chess {
    let parsed: Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("shakmaty rejects FEN {fen:?}: {e}"));
    parsed
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("shakmaty rejects position {fen:?}: {e}"))
}

fn shak_fen(pos: &Chess, mode: EnPassantMode) -> String {
    Fen::from_position(pos, mode).to_string()
}

/// Fails with the FEN and the symmetric difference unless the two texts sets are equal.
fn assert_same_moves(what: &str, fen: &str, ours: &[String], theirs: &[String]) {
    let ours_set: BTreeSet<&str> = ours.iter().map(String::as_str).collect();
    assert_eq!(
        ours_set.len(),
        ours.len(),
        "{what}: duplicate moves in our list at {fen}: {ours:?}"
    );
    let theirs_set: BTreeSet<&str> = theirs.iter().map(String::as_str).collect();
    if ours_set != theirs_set {
        let only_ours: Vec<&str> = ours_set.difference(&theirs_set).copied().collect();
        let only_theirs: Vec<&str> = theirs_set.difference(&ours_set).copied().collect();
        panic!(
            "{what}: legal moves differ at {fen}\n  only ours:      {only_ours:?}\n  only shakmaty: {only_theirs:?}"
        );
    }
}

/// Moves of both engines keyed by their UCI text, sorted.
type MovePairs = (Vec<(String, OurMove)>, Vec<(String, ShakMove)>);

/// Every check made at one position; returns the sorted move texts of both engines.
fn compare_position(v: &dyn Variant, ours: &OurPosition, theirs: &Chess) -> MovePairs {
    let our_fen = ours.to_fen(v.rules());
    // Our writer follows X-FEN: the en-passant square is written when a pawn stands ready to
    // take en passant, even if the capture would expose its king.
    let their_xfen = shak_fen(theirs, EnPassantMode::PseudoLegal);
    let their_fen = shak_fen(theirs, EnPassantMode::Legal);

    let our_list = our_moves(v, ours);
    let their_list = shak_moves(theirs);
    let our_texts: Vec<String> = our_list.iter().map(|(t, _)| t.clone()).collect();
    let their_texts: Vec<String> = their_list.iter().map(|(t, _)| t.clone()).collect();
    assert_same_moves("lockstep", &our_fen, &our_texts, &their_texts);

    assert_eq!(
        v.in_check(ours),
        theirs.is_check(),
        "check detection differs at {our_fen}"
    );

    // Our FEN writer: shakmaty reads it back to a position with the same moves.
    let reparsed = shak_from_fen(&our_fen);
    let reparsed_texts: Vec<String> = shak_moves(&reparsed).into_iter().map(|(t, _)| t).collect();
    assert_same_moves(
        "our FEN read by shakmaty",
        &our_fen,
        &our_texts,
        &reparsed_texts,
    );

    // Field by field against shakmaty's X-FEN writer.
    let ours_fields: Vec<&str> = our_fen.split_whitespace().collect();
    let theirs_fields: Vec<&str> = their_xfen.split_whitespace().collect();
    assert_eq!(
        ours_fields, theirs_fields,
        "FEN text differs\n  ours:     {our_fen}\n  shakmaty: {their_xfen}"
    );

    // Our FEN reader: shakmaty's FEN (en passant only when legally capturable, so it differs
    // from ours exactly when an en-passant capture is pinned) gives us the same moves.
    let ours_again = v
        .parse_fen(&their_fen)
        .unwrap_or_else(|e| panic!("we reject shakmaty's FEN {their_fen}: {e:?}"));
    let again_texts: Vec<String> = our_moves(v, &ours_again)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert_same_moves(
        "shakmaty's FEN read by us",
        &their_fen,
        &again_texts,
        &their_texts,
    );

    (our_list, their_list)
}

/// Picks a move index, favouring castling, en passant and promotions half the time.
fn pick(rng: &mut SplitMix64, their_list: &[(String, ShakMove)]) -> usize {
    let special: Vec<usize> = their_list
        .iter()
        .enumerate()
        .filter(|(_, (_, m))| m.is_castle() || m.is_en_passant() || m.is_promotion())
        .map(|(i, _)| i)
        .collect();
    if !special.is_empty() && rng.below(2) == 0 {
        special[rng.below(special.len())]
    } else {
        rng.below(their_list.len())
    }
}

/// What the playouts covered.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    checks: usize,
    mates: usize,
    castles: usize,
    en_passants: usize,
    promotions: usize,
    /// Positions where en passant is pseudo-legal but not legal (pinned capturer).
    pinned_en_passants: usize,
}

/// Plays one seeded random game from `fen` in both engines, adding to `cov`.
fn playout(v: &dyn Variant, fen: &str, seed: u64, cov: &mut Coverage) {
    let mut rng = SplitMix64::new(seed);
    let mut ours = v
        .parse_fen(fen)
        .unwrap_or_else(|e| panic!("we reject {fen}: {e:?}"));
    let mut theirs = shak_from_fen(fen);
    for _ in 0..MAX_PLIES {
        let (our_list, their_list) = compare_position(v, &ours, &theirs);
        cov.positions += 1;
        cov.checks += theirs.is_check() as usize;
        if shak_fen(&theirs, EnPassantMode::Legal) != shak_fen(&theirs, EnPassantMode::PseudoLegal)
        {
            cov.pinned_en_passants += 1;
        }
        if their_list.is_empty() {
            cov.mates += theirs.is_check() as usize;
            break;
        }
        // Both lists are sorted by the same (equal) texts, so one index names one move.
        let i = pick(&mut rng, &their_list);
        assert_eq!(our_list[i].0, their_list[i].0);
        let m = their_list[i].1;
        cov.castles += m.is_castle() as usize;
        cov.en_passants += m.is_en_passant() as usize;
        cov.promotions += m.is_promotion() as usize;
        ours = v.play(&ours, our_list[i].1);
        theirs.play_unchecked(m);
    }
}

#[test]
fn start_position_matches() {
    let v = chess();
    let ours = v.start_position();
    let theirs = Chess::default();
    let (our_list, _) = compare_position(v, &ours, &theirs);
    assert_eq!(our_list.len(), 20);
}

#[test]
fn random_playouts_match_shakmaty() {
    let v = chess();
    let start_fen = v.start_position().to_fen(v.rules());
    let mut cov = Coverage::default();
    let mut seed = 1;
    for _ in 0..START_GAMES {
        playout(v, &start_fen, seed, &mut cov);
        seed += 1;
    }
    for fen in EXTRA_FENS {
        for _ in 0..GAMES_PER_EXTRA_FEN {
            playout(v, fen, seed, &mut cov);
            seed += 1;
        }
    }
    eprintln!("shakmaty_diff: {cov:?}");
    assert!(
        cov.positions >= MIN_POSITIONS,
        "only {} positions compared, want at least {MIN_POSITIONS}",
        cov.positions
    );
    // The special rules were really exercised, not just compared on quiet positions.
    assert!(cov.checks > 0, "{cov:?}");
    assert!(cov.mates > 0, "{cov:?}");
    assert!(cov.castles > 0, "{cov:?}");
    assert!(cov.en_passants > 0, "{cov:?}");
    assert!(cov.promotions > 0, "{cov:?}");
}

/// Chaos's Chess is FIDE chess until Nature's first turn (RULINGS §11 item 1: after five real
/// plies with the counter at 0), so from each FEN above with Nature's pool and the counter 0,
/// perft to depth 4 must equal shakmaty's FIDE perft.
#[test]
fn chaos_equals_fide_before_nature_can_act() {
    let v = by_name("chaos").expect("chaos is registered");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for fen in std::iter::once(start).chain(EXTRA_FENS.iter().copied()) {
        let (board, rest) = fen.split_once(' ').expect("a FEN has fields");
        let ours = v
            .parse_fen(&format!("{board}[_Q_R_B_N] {rest} 0"))
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        let theirs: Chess = fen
            .parse::<Fen>()
            .expect("shakmaty reads the FEN")
            .into_position(CastlingMode::Standard)
            .expect("a legal position");
        for depth in 1..=4 {
            assert_eq!(
                menagerie::perft::perft(v, &ours, depth),
                shakmaty::perft(&theirs, depth),
                "{fen} depth {depth}"
            );
        }
    }
}

/// Our SAN (`variants::san::write`) of every legal move, at every position of seeded random
/// playouts from the start and the test positions, equals shakmaty's SAN with its check marks.
#[test]
fn san_matches_shakmaty() {
    use menagerie::variants::san;
    use shakmaty::san::SanPlus;
    let v = chess();
    let start_fen = v.start_position().to_fen(v.rules());
    let mut compared = 0;
    for (k, fen) in std::iter::once(start_fen.as_str())
        .chain(EXTRA_FENS.iter().copied())
        .enumerate()
    {
        for seed in 0..6 {
            let mut rng = SplitMix64::new(1000 + 10 * k as u64 + seed);
            let mut ours = v.parse_fen(fen).unwrap();
            let mut theirs = shak_from_fen(fen);
            for _ in 0..MAX_PLIES {
                let our_list = our_moves(v, &ours);
                let their_list = shak_moves(&theirs);
                if their_list.is_empty() {
                    break;
                }
                for ((ut, um), (tt, tm)) in our_list.iter().zip(&their_list) {
                    assert_eq!(ut, tt);
                    let expected = SanPlus::from_move(theirs.clone(), *tm).to_string();
                    assert_eq!(
                        san::write(v, &ours, *um),
                        expected,
                        "{ut} in {}",
                        ours.to_fen(v.rules())
                    );
                    compared += 1;
                }
                let i = pick(&mut rng, &their_list);
                ours = v.play(&ours, our_list[i].1);
                theirs.play_unchecked(their_list[i].1);
            }
        }
    }
    assert!(compared > 10_000, "{compared} moves compared");
}
