//! Runs every `perft/<variant>.perft` file: each count must match, and at every node of each
//! position (to a small depth) the fast generator must equal the slow reference generator.

use menagerie::arena::books::book;
use menagerie::board::Position;
use menagerie::core::rng::SplitMix;
use menagerie::core::{Move, MoveKind, MoveList};
use menagerie::notation::Dialect;
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
    assert_eq!(
        v.legal_count(pos),
        b.len(),
        "{}: the count differs from the reference at {}",
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

/// Positions the biased playouts visit per run of `cargo test`; `MENAGERIE_PLAYOUT_POSITIONS`
/// sets another number (the long run of `docs/performance.md`).
const DEFAULT_PLAYOUT_POSITIONS: u64 = 12_000;
/// Plies of one playout before it starts again from another seed.
const PLAYOUT_PLIES: usize = 16;

/// Seeds for the playouts beyond each game's start and the positions of its perft file: the
/// states a playout from the start seldom reaches. Existentialist: a King carrying its Archer
/// with the fire streak at 2 (its third shot next) and 3 (its rest turn) near the enemy King,
/// Existentialists at counters 15-19 (the 20th move's blast next) near both Kings. Chaos:
/// Nature with pieces on the board and a reserve full of the pieces it took.
const EXTRA_SEEDS: &[(&str, &str)] = &[
    (
        "existentialist",
        "10/10/10/10/5P4/10/5k{aa,f2}4/10/10/3K6 b - - 0 30",
    ),
    (
        "existentialist",
        "10/10/10/10/10/10/3P3p2/6k{aa,f3}3/10/4K5 b - - 0 30",
    ),
    (
        "existentialist",
        "3k6/10/10/5K{aA,f2}4/10/5p4/10/10/10/10 w - - 0 30",
    ),
    (
        "existentialist",
        "5k4/3p6/4K{aA,f3}5/10/10/10/10/10/1P8/10 w - - 0 30",
    ),
    (
        "existentialist",
        "4k5/3pp5/10/6x{c18}3/10/10/3X{c17}6/10/4PP4/5K{aA,f1}4 w - - 0 30",
    ),
    (
        "existentialist",
        "3k6/10/4x{c15}5/2p7/10/10/6X{c18}3/10/5P4/4K5 b - - 0 30",
    ),
    (
        "existentialist",
        "6k{aa,f2}3/4pp4/5X{c16}4/10/10/10/10/4x{c19}5/4PP4/5K4 w - - 0 30",
    ),
    (
        "existentialist",
        "4k5/4h5/4d5/10/10/10/3Xd5/4H5/10/3K{aA,f2}6 w - - 0 30",
    ),
    (
        "chaos",
        "r3kbnr/ppp2ppp/2_N5/4p3/3_B4/5N2/PPP2PPP/R3KB1R[QBPPqbpp_Q_R] w KQkq - 0 12 4",
    ),
    (
        "chaos",
        "r3kbnr/ppp2ppp/2_N5/4p3/3_B4/5N2/PPP2PPP/R3KB1R[QBPPqbpp_Q_R] n KQkq - 0 12 5w",
    ),
    (
        "chaos",
        "4k3/3ppp2/8/1_Q4_R1/8/2_B2_N2/3PPP2/4K3[QRRBBNNPPPqrrbbnnppp] w - - 0 40 3",
    ),
];

fn playout_positions() -> u64 {
    std::env::var("MENAGERIE_PLAYOUT_POSITIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_PLAYOUT_POSITIONS)
}

/// A random legal move, with the weight of each move biased toward the game's own kinds (shots,
/// merges, drops, transformations, castling, en passant, promotions), captures and the moves of
/// royal pieces, so that streaks, counters, spells and shared squares come about.
fn biased_pick(v: &dyn Variant, pos: &Position, moves: &MoveList, rng: &mut SplitMix) -> Move {
    let royals = pos.royals(v.rules(), pos.turn());
    let weight = |m: Move| -> u64 {
        if m.kind() != MoveKind::Normal {
            8
        } else if v.rulings().is_noisy(pos, m) {
            4
        } else if royals.contains(m.from()) {
            3
        } else {
            1
        }
    };
    let total: u64 = moves.iter().map(|&m| weight(m)).sum();
    let mut r = rng.next_u64() % total;
    for &m in moves.iter() {
        let w = weight(m);
        if r < w {
            return m;
        }
        r -= w;
    }
    unreachable!("r < total")
}

/// The fast generator equals the reference on the positions of seeded random playouts of every
/// game, biased toward its special pieces and states: from its start, from each position of its
/// perft file and from `EXTRA_SEEDS` (every other playout), in turn, each playout `PLAYOUT_PLIES` long, until the
/// game's share of `MENAGERIE_PLAYOUT_POSITIONS` has been compared.
#[test]
fn fast_generator_equals_reference_on_biased_playouts() {
    let files = perft_files();
    let games = variants::all();
    let share = playout_positions().div_ceil(games.len() as u64);
    let started = std::time::Instant::now();
    for v in games {
        let mut seeds: Vec<Position> = EXTRA_SEEDS
            .iter()
            .filter(|(n, _)| *n == v.name())
            .map(|(_, fen)| {
                v.parse_fen(fen)
                    .unwrap_or_else(|e| panic!("{}: {fen}: {e}", v.name()))
            })
            .collect();
        let extra = seeds.len();
        seeds.push(v.start_position());
        if let Some((_, path)) = files.iter().find(|(n, _)| n == v.name()) {
            seeds.extend(
                parse_file(path)
                    .iter()
                    .map(|c| v.parse_fen(&c.fen).unwrap()),
            );
        }
        let game_started = std::time::Instant::now();
        let mut rng = SplitMix(0x5eed ^ share);
        let (mut visited, mut playouts) = (0u64, 0usize);
        while visited < share {
            // Every other playout starts from one of the rare states.
            let i = match extra {
                0 => playouts % seeds.len(),
                _ if playouts % 2 == 1 => playouts / 2 % extra,
                _ => playouts / 2 % seeds.len(),
            };
            let mut pos = seeds[i].clone();
            playouts += 1;
            for _ in 0..PLAYOUT_PLIES {
                if visited == share {
                    break;
                }
                visited += 1;
                let mut fast = MoveList::new();
                v.legal_moves(&pos, &mut fast);
                let mut a: Vec<Move> = fast.iter().copied().collect();
                let mut b = v.reference_moves(&pos);
                assert_eq!(
                    v.legal_count(&pos),
                    b.len(),
                    "{}: the count differs from the reference at {}",
                    v.name(),
                    v.fen(&pos)
                );
                a.sort_by_key(|m| m.to_bits());
                b.sort_by_key(|m| m.to_bits());
                if a != b {
                    let text = |ms: Vec<&Move>| -> Vec<String> {
                        ms.into_iter()
                            .map(|&m| v.move_text(m, Dialect::Uci))
                            .collect()
                    };
                    panic!(
                        "{}: generators differ at {}: only fast {:?}, only reference {:?}",
                        v.name(),
                        v.fen(&pos),
                        text(a.iter().filter(|m| !b.contains(m)).collect()),
                        text(b.iter().filter(|m| !a.contains(m)).collect()),
                    );
                }
                if fast.is_empty() {
                    break;
                }
                let m = biased_pick(*v, &pos, &fast, &mut rng);
                pos = v.play(&pos, m);
            }
        }
        eprintln!(
            "{}: {visited} positions in {playouts} playouts from {} seeds, {:.1} s",
            v.name(),
            seeds.len(),
            game_started.elapsed().as_secs_f64()
        );
    }
    eprintln!("biased playouts: {:.1} s", started.elapsed().as_secs_f64());
}

/// Positions where Existentialist's count at the last ply must list and judge moves it
/// otherwise counts (`Hooks::counts_in_bulk`, `Hooks::judged_as_ordinary`): a Dazzler beside a
/// sleeping Existentialist and beside an enemy shield, whose leaps over them are refused
/// (RULINGS §1.4 items 4 and 20, §12 item 19); an Archer pinned on the King's file whose
/// merges expose the King; an Archer that is one of two screens between the King and an enemy
/// Dazzler's cannon; Zednick merges beside a protected King+Archer and one on its rest turn
/// (§12 items 8 and 15); shield merges on the cannon's line.
const COUNT_SEEDS: &[&str] = &[
    "5k4/10/10/10/10/4x{c10,sz@20}5/4D5/10/10/5K4 w - - 0 1",
    "5k4/10/10/10/4z{g1}z{g1}4/4D5/10/10/10/5K4 w - - 0 1",
    "5k4/5r4/10/10/10/10/10/4P1P3/4PAZ3/4OK4 w - - 0 1",
    "4d4k/10/10/10/10/4P5/3N6/4A5/10/4K5 w - - 0 1",
    "4d4k/10/10/10/10/4P5/3PZ5/4B5/2T7/4K{aA,f1}5 w - - 0 1",
    "4d4k/10/10/10/10/3P6/3PZT4/4BT4/2T7/4K{aA,f3}5 w - - 0 1",
    "4d4k/10/10/10/4P5/3T6/3ZT5/4A5/3P6/4K5 w - - 0 1",
];

/// Plies of each playout from a position of Existentialist's book.
const BOOK_PLAYOUT_PLIES: usize = 10;

/// Existentialist's last ply, counted in bulk where its shortcuts prove moves legal, equals
/// the number of moves the slow reference generator finds and the number the fast one lists,
/// on every position of a seeded playout from each position of its opening book
/// (`books/existentialist.epd`, 500 positions eight plies into the game) and from
/// `COUNT_SEEDS`, and at every node two plies below each seed.
#[test]
fn existentialist_count_equals_reference_from_the_book() {
    let v = variants::by_name("existentialist").unwrap();
    let parse = |fen: &str| v.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for fen in COUNT_SEEDS {
        let mut budget = SYNCED_NODE_LIMIT;
        synced(v, &parse(fen), 2, &mut budget);
    }
    let fens = book("existentialist");
    assert!(fens.len() >= 500, "the book has {} positions", fens.len());
    let mut rng = SplitMix(0xb00c);
    let mut visited = 0u64;
    for fen in fens
        .iter()
        .map(String::as_str)
        .chain(COUNT_SEEDS.iter().copied())
    {
        let mut pos = parse(fen);
        for _ in 0..BOOK_PLAYOUT_PLIES {
            visited += 1;
            let mut listed = MoveList::new();
            v.legal_moves(&pos, &mut listed);
            let reference = v.reference_moves(&pos).len();
            let counted = v.legal_count(&pos);
            assert_eq!(
                (counted, listed.len()),
                (reference, reference),
                "existentialist: counted and listed against the reference at {}",
                v.fen(&pos)
            );
            if listed.is_empty() {
                break;
            }
            pos = v.play(&pos, biased_pick(v, &pos, &listed, &mut rng));
        }
    }
    assert!(visited >= 5_000, "{visited} positions");
}
