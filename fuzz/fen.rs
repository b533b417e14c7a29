//! FEN and move-text fuzzing at library level, for every registered game.
//!
//! FENs come from seeded playouts (valid), from mutations of those (characters, fields, piece
//! state) and from random boards. Each is parsed; a refusal is fine, a panic is not. A FEN that
//! parses must:
//! - print back to a FEN that parses to the same position (same hash, same FEN again);
//! - give the same move tree as its printed form, two plies deep, and the same moves by the fast
//!   and the reference generator;
//! - survive a short search and a short random playout, every move's text in both dialects
//!   parsing back to the move;
//! - go through CECP's FEN form and back unchanged.
//!
//! Accepted mutants join the corpus, so later mutations start from odd positions too; so do
//! hand-written FENs that must be refused (`REFUSED`).

use crate::{env_number, seed};
use menagerie::board::Position;
use menagerie::core::rng::SplitMix as Rng;
use menagerie::core::{Color, Move, MoveList, PieceKind};
use menagerie::notation::{move_text, parse_move, parse_san, Dialect};
use menagerie::protocol::xboard_variant::{fen_from_cecp, fen_to_cecp, parse_wire, Shown};
use menagerie::search::{self, Control, Limits, SearchInput, TranspositionTable};
use menagerie::variants::{self, Variant};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// FENs per game in `cargo test`; `MENAGERIE_FUZZ_FENS` sets it for a long run.
const FENS_PER_GAME: u64 = 400;
/// Playouts and their length that seed the corpus.
const SEED_PLAYOUTS: u64 = 12;
const SEED_PLIES: usize = 70;
/// Plies of the random playout from each accepted FEN.
const PLAYOUT_PLIES: usize = 6;
/// Nodes of the search on each accepted FEN.
const SEARCH_NODES: u64 = 300;
/// Random move texts tried on each accepted FEN.
const MOVE_TEXTS: usize = 12;
/// Most accepted mutants kept in the corpus.
const CORPUS_LIMIT: usize = 400;
/// One in this many pieces of a random board is neutral, and one carries state.
const RARE: usize = 40;
/// Failures reported in full.
const REPORTED: usize = 12;

/// Hand-written FENs of positions that cannot arise or of text that once read as something
/// else, by game (issue 24): each must be refused, and each joins its game's corpus, so that
/// mutations start from just beyond what is valid.
const REFUSED: &[(&str, &str)] = &[
    // A King in a reserve; Nature's King and Pawn (RULINGS §5.2, §5.4 item 6, §11 item 12).
    ("chaos", "4k3/8/8/8/8/8/8/3K4[K] w - - 0 1 0"),
    ("chaos", "4k3/8/8/8/8/8/8/3K4[_K] w - - 0 1 0"),
    ("chaos", "4k3/8/8/8/8/8/8/3K4[_P] w - - 0 1 0"),
    ("chaos", "4k3/8/8/3_K4/8/8/8/3K4 w - - 0 1 0"),
    ("chaos", "4k3/8/8/3_P4/8/8/8/3K4 w - - 0 1 0"),
    // Nature to move without the seventh field; a reserve without its `]`, or text after it.
    ("chaos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[_Q_R_B_N] n KQkq - 0 1"),
    ("chaos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[_Q_R_B_N w KQkq - 0 1 0"),
    ("chaos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[_Q_R_B_N]x w KQkq - 0 1 0"),
    // Two White Archers: one free and one carried, two hosts (§1.4 item 10).
    (
        "existentialist",
        "dscvokvcsd/ytlhxazjty/pppppppppp/10/10/10/10/PPPPPPPPPP/YTLHXAZJTY/DSCVOK{aA}VCSD w KQkq - 0 1",
    ),
    ("existentialist", "9k/10/10/10/10/10/10/10/10/K{aA}S{aA}8 w - - 0 1"),
    // An unclosed brace at the end of the board field and mid-board; leading zeros; empty
    // braces; an item twice; a link number with a gap.
    ("existentialist", "9k/10/10/10/10/10/10/10/10/K8O{c3 w - - 0 1"),
    ("existentialist", "9k/10/10/10/10/10/2O{c32/10/10/K9 w - - 0 1"),
    ("existentialist", "9k/10/10/10/10/10/10/10/10/K0009 w - - 0 1"),
    ("existentialist", "9k/10/10/10/10/10/10/10/10/K8O{} w - - 0 1"),
    ("existentialist", "9k/10/10/10/10/10/10/10/10/K8O{c1,c2} w - - 0 1"),
    ("existentialist", "9k/10/10/10/10/10/10/10/2Z{g3}Z{g3}6/K9 w - - 0 1"),
    ("schizophrenic", "6k{t,t}5/12/12/12/12/12/6K5 w - - 0 1"),
    ("chess", "4k3/8/8/8/8/8/8/K0007 w - - 0 1"),
    // An empty Twelve Hours.
    (
        "afterlife",
        "wphw*1*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*1**1/SSSS*1*4/WHPW*1*1**1 w - - 0 1",
    ),
    (
        "afterlife-optional-limbo",
        "wphw*1*****/ssss*******/4*1*****/1_M_M1*1*****/4*1*1**1/SSSS*1*4/WHPW*1*1**1 w - - 0 1",
    ),
];

/// Characters a mutation may put into a FEN besides the game's own letters.
const FEN_PUNCTUATION: &[char] = &[
    '/', '{', '}', ',', '*', '_', '[', ']', '@', '-', '+', '~', ' ', '0', '1', '2', '9', 'w', 'b',
    'n', 'm', 'c', 'f', 'g', 's', 'a', 'k', 't', 'x', 'é', '\u{0}', '\u{7f}', '\t',
];

pub(crate) fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

/// A random number text, often at an edge.
pub(crate) fn number(rng: &mut Rng) -> String {
    const EDGES: &[&str] = &[
        "0", "1", "2", "9", "99", "100", "101", "255", "256", "9999", "10000", "10001", "65535",
        "65536", "-1", "+3", "1e3", "007",
    ];
    match rng.below(3) {
        0 => (rng.next_u64() % 300).to_string(),
        _ => pick(rng, EDGES).to_string(),
    }
}

/// A square text, sometimes off the board or malformed.
pub(crate) fn square(rng: &mut Rng, v: &dyn Variant) -> String {
    let g = v.rules().geometry();
    let file = (b'a' + (rng.below(g.files() as usize + 2)) as u8) as char;
    let rank = rng.below(g.ranks() as usize + 2);
    format!("{file}{rank}")
}

/// The game's piece letters, both cases.
pub(crate) fn letters(v: &dyn Variant) -> Vec<char> {
    v.rules()
        .pieces()
        .iter()
        .flat_map(|k| [k.spec.letter, k.spec.letter.to_ascii_lowercase()])
        .collect()
}

/// A piece state item list such as `{c3,t}`, from the items FEN knows and some it does not.
fn state(rng: &mut Rng, v: &dyn Variant) -> String {
    let spec = &v.rules().spec.state;
    let mut items = Vec::new();
    for _ in 0..=rng.below(3) {
        let item = match rng.below(9) {
            0 => "m".to_string(),
            1 => format!("c{}", number(rng)),
            2 => format!("f{}", number(rng)),
            3 => format!("g{}", number(rng)),
            4 if !spec.flags.is_empty() => pick(rng, spec.flags).to_string(),
            5 if !spec.spells.is_empty() => {
                format!("s{}@{}", pick(rng, spec.spells), number(rng))
            }
            6 => format!("a{}", pick(rng, &letters(v))),
            7 => format!("a_{}", pick(rng, &letters(v))),
            _ => pick(rng, FEN_PUNCTUATION).to_string(),
        };
        items.push(item);
    }
    format!("{{{}}}", items.join(","))
}

/// One to four edits of single characters.
pub(crate) fn mutate_chars(rng: &mut Rng, v: &dyn Variant, fen: &str) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    let alphabet: Vec<char> = letters(v)
        .into_iter()
        .chain(FEN_PUNCTUATION.iter().copied())
        .collect();
    for _ in 0..=rng.below(4) {
        let at = rng.below(chars.len() + 1);
        let c = *pick(rng, &alphabet);
        match rng.below(3) {
            0 if at < chars.len() => chars[at] = c,
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ => chars.insert(at, c),
        }
    }
    chars.into_iter().collect()
}

/// A change to whole fields: dropped, doubled, swapped, added, or replaced by edge values.
pub(crate) fn mutate_fields(rng: &mut Rng, v: &dyn Variant, fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    let n = fields.len();
    match rng.below(8) {
        0 if n > 1 => {
            fields.remove(rng.below(n));
        }
        1 => {
            let f = fields[rng.below(n)].clone();
            fields.insert(rng.below(n + 1), f);
        }
        2 if n > 1 => {
            let (a, b) = (rng.below(n), rng.below(n));
            fields.swap(a, b);
        }
        3 => fields.push(match rng.below(3) {
            0 => number(rng),
            1 => format!("{}{}", number(rng), pick(rng, &["w", "b", "n"])),
            _ => pick(rng, FEN_PUNCTUATION).to_string(),
        }),
        4 if n > 1 => fields[1] = pick(rng, &["w", "b", "n", "x", "W", "-"]).to_string(),
        5 if n > 2 => {
            let castling: Vec<char> = v.rules().spec.castling.iter().map(|c| c.letter).collect();
            let mut text: String = (0..rng.below(4))
                .map(|_| match rng.below(3) {
                    0 if !castling.is_empty() => *pick(rng, &castling),
                    1 => (b'a' + rng.below(12) as u8) as char,
                    _ => *pick(rng, &['K', 'Q', 'k', 'q', '-']),
                })
                .collect();
            if text.is_empty() {
                text.push('-');
            }
            fields[2] = text;
        }
        6 if n > 3 => {
            fields[3] = match rng.below(3) {
                0 => "-".to_string(),
                1 => square(rng, v),
                _ => format!("{}{}", square(rng, v), square(rng, v)),
            }
        }
        _ if n > 4 => {
            let i = 4 + rng.below((n - 4).min(2));
            fields[i] = number(rng);
        }
        _ => {}
    }
    fields.join(" ")
}

/// A state item list put after a random piece letter of the board field.
pub(crate) fn inject_state(rng: &mut Rng, v: &dyn Variant, fen: &str) -> String {
    let board_end = fen.find(' ').unwrap_or(fen.len());
    let spots: Vec<usize> = fen[..board_end]
        .char_indices()
        .filter(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, c)| i + c.len_utf8())
        .filter(|&i| !fen[i..].starts_with('{'))
        .collect();
    if spots.is_empty() {
        return fen.to_string();
    }
    let mut out = fen.to_string();
    for _ in 0..=rng.below(3) {
        let at = *pick(rng, &spots);
        if out.is_char_boundary(at) {
            out.insert_str(at, &state(rng, v));
        }
    }
    out
}

/// A board from scratch: the game's geometry with holes where it has them, random pieces with
/// some state, and random fields. Half the boards get exactly one royal piece a side, so that
/// many of them are positions a game can accept.
pub(crate) fn random_board(rng: &mut Rng, v: &dyn Variant) -> String {
    let rules = v.rules();
    let g = rules.geometry();
    let royal: Vec<char> = (0..rules.num_kinds())
        .map(|i| PieceKind(i as u8))
        .filter(|&k| rules.is_royal(k))
        .map(|k| rules.letter(k, Color::White))
        .collect();
    let one_royal_each = !royal.is_empty() && rng.below(2) == 0;
    let pieces: Vec<char> = letters(v)
        .into_iter()
        .filter(|c| !(one_royal_each && royal.contains(&c.to_ascii_uppercase())))
        .collect();
    let density = 1 + rng.below(4);
    // Each square: None for a hole, Some("") for empty, else the piece's text.
    let mut cells: Vec<Vec<Option<String>>> = (0..g.ranks())
        .map(|rank| {
            (0..g.files())
                .map(|file| {
                    let on_board = g.square(file, rank).is_some_and(|sq| g.contains(sq));
                    on_board.then(|| {
                        let letter = *pick(rng, &pieces);
                        if rng.below(10) >= density || promotes_there(v, letter, file, rank) {
                            return String::new();
                        }
                        let mut text = String::new();
                        if rng.below(RARE) == 0 {
                            text.push('_');
                        }
                        text.push(letter);
                        if rng.below(RARE) == 0 {
                            text += &state(rng, v);
                        }
                        text
                    })
                })
                .collect()
        })
        .collect();
    if one_royal_each {
        for letter in [
            pick(rng, &royal).to_ascii_uppercase(),
            pick(rng, &royal).to_ascii_lowercase(),
        ] {
            let (rank, file) = (rng.below(g.ranks() as usize), rng.below(g.files() as usize));
            if let Some(cell) = &mut cells[rank][file] {
                *cell = letter.to_string();
            }
        }
    }
    let mut ranks = Vec::new();
    for row in cells.iter().rev() {
        let mut text = String::new();
        let mut empty = 0;
        for cell in row {
            match cell {
                Some(c) if c.is_empty() => {
                    empty += 1;
                    continue;
                }
                _ if empty > 0 => {
                    text += &empty.to_string();
                    empty = 0;
                }
                _ => {}
            }
            text += cell.as_deref().unwrap_or("*");
        }
        if empty > 0 {
            text += &empty.to_string();
        }
        ranks.push(text);
    }
    let turn = *pick(rng, &["w", "b", "w", "b", "n"]);
    format!("{} {turn} - - 0 1", ranks.join("/"))
}

/// Whether the piece `letter` would stand on its own promotion zone (no game accepts that).
fn promotes_there(v: &dyn Variant, letter: char, file: u8, rank: u8) -> bool {
    let rules = v.rules();
    let color = if letter.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let kind = rules.kind_by_letter(letter).expect("a letter of the game");
    let sq = rules.geometry().square(file, rank).expect("on the board");
    rules.promoting.contains(kind) && rules.promotion_zone(color).contains(sq)
}

/// FENs of seeded playouts from the start position.
pub(crate) fn seed_corpus(v: &dyn Variant, rng: &mut Rng) -> Vec<String> {
    let mut out = vec![v.rules().spec.start_fen.to_string()];
    for _ in 0..SEED_PLAYOUTS {
        let mut pos = v.start_position();
        for _ in 0..SEED_PLIES {
            let moves = legal(v, &pos);
            if moves.is_empty() {
                break;
            }
            pos = v.play(&pos, *pick(rng, moves.as_slice()));
            if rng.below(4) == 0 {
                out.push(v.fen(&pos));
            }
        }
    }
    out
}

pub(crate) fn legal(v: &dyn Variant, pos: &Position) -> MoveList {
    let mut moves = MoveList::new();
    v.legal_moves(pos, &mut moves);
    moves
}

fn sorted_bits(moves: impl IntoIterator<Item = Move>) -> Vec<u32> {
    let mut bits: Vec<u32> = moves.into_iter().map(Move::to_bits).collect();
    bits.sort_unstable();
    bits
}

/// Leaves two plies deep.
fn perft2(v: &dyn Variant, pos: &Position) -> u64 {
    legal(v, pos)
        .iter()
        .map(|&m| legal(v, &v.play(pos, m)).len() as u64)
        .sum()
}

/// Checks one position that the game accepted or reached; Err says what is wrong.
fn check_position(v: &dyn Variant, pos: &Position) -> Result<(), String> {
    let printed = v.fen(pos);
    let back = v
        .parse_fen(&printed)
        .map_err(|e| format!("prints {printed:?}, which it refuses: {e}"))?;
    if v.fen(&back) != printed || back.hash() != pos.hash() || back != *pos {
        return Err(format!(
            "prints {printed:?}, which reads back as another position ({:?})",
            v.fen(&back)
        ));
    }
    if pos.hash() != pos.compute_hash() {
        return Err(format!("{printed}: its hash is not the fresh hash"));
    }
    let fast = legal(v, pos);
    if sorted_bits(fast.iter().copied()) != sorted_bits(v.reference_moves(pos)) {
        return Err(format!(
            "{printed}: the fast and the reference generator disagree"
        ));
    }
    for &m in fast.iter() {
        for dialect in [Dialect::Uci, Dialect::Cecp] {
            let text = move_text(v, dialect, m);
            if parse_move(v, pos, dialect, &text) != Ok(m) {
                return Err(format!(
                    "{printed}: {dialect:?} text {text:?} does not read back as its move"
                ));
            }
        }
        let after = v.play(pos, m);
        if after.hash() != after.compute_hash() {
            return Err(format!(
                "{printed}: after {}, the hash is not the fresh hash",
                move_text(v, Dialect::Uci, m)
            ));
        }
    }
    let cecp = fen_to_cecp(v.rules(), &printed);
    let from_cecp = fen_from_cecp(v.rules(), &cecp);
    // CECP's lossy forms: the start array without rights reads as the start position; a
    // neutral piece of a kind that players own too (XBoard knows two colours) reads back in the
    // colour XBoard shows it in; and in a game with a third party, a FEN without its reserve
    // (XBoard writes none) reads back with the start's pool. What XBoard sees must then at
    // least stay the same.
    let lossy = printed.contains('_') || menagerie::third_party::has_third_party(v);
    let no_reserve = |fen: &str| match (fen.find('['), fen.find(']')) {
        (Some(a), Some(b)) if a < b => format!("{}{}", &fen[..a], &fen[b + 1..]),
        _ => fen.to_string(),
    };
    let neutral_shown =
        lossy && no_reserve(&fen_to_cecp(v.rules(), &from_cecp)) == no_reserve(&cecp);
    if from_cecp != printed && from_cecp != v.rules().spec.start_fen && !neutral_shown {
        return Err(format!(
            "{printed}: CECP form {cecp:?} reads back as {from_cecp:?}"
        ));
    }
    Ok(())
}

/// A short search, which must end with a legal move or none where there is none.
fn check_search(v: &'static dyn Variant, pos: &Position) -> Result<(), String> {
    let limits = Limits {
        nodes: Some(SEARCH_NODES),
        ..Default::default()
    };
    let tt = TranspositionTable::new(1);
    let control = Control::new(false);
    let r = search::search(
        SearchInput::new(v, pos, &limits, &control, &tt),
        &mut |_| {},
    );
    let moves = legal(v, pos);
    match r.best {
        Some(m) if !moves.contains(m) => {
            Err(format!("{}: the search plays an illegal move", v.fen(pos)))
        }
        None if !moves.is_empty() => Err(format!("{}: the search finds no move", v.fen(pos))),
        _ => Ok(()),
    }
}

/// Random texts near the legal ones: none may panic, and what parses is legal.
fn check_move_texts(v: &dyn Variant, pos: &Position, rng: &mut Rng) -> Result<(), String> {
    let moves = legal(v, pos);
    const NOISE: &[&str] = &[
        "", "0000", "@@@@", "a10", "a0", "l12", "z9", ",", "@", "=", "+", "/", "e2e4,", "x", "Q",
        "é", "\u{0}", "10", "99",
    ];
    for _ in 0..MOVE_TEXTS {
        let mut text = if moves.is_empty() || rng.below(3) == 0 {
            format!("{}{}", square(rng, v), square(rng, v))
        } else {
            move_text(v, Dialect::Uci, *pick(rng, moves.as_slice()))
        };
        for _ in 0..rng.below(3) {
            let noise = pick(rng, NOISE);
            let at = rng.below(text.len() + 1);
            if text.is_char_boundary(at) {
                text.insert_str(at, noise);
            }
        }
        for dialect in [Dialect::Uci, Dialect::Cecp] {
            let parsed = [
                parse_move(v, pos, dialect, &text),
                parse_san(v, pos, dialect, &text),
            ];
            for m in parsed.into_iter().flatten() {
                if !moves.contains(m) {
                    return Err(format!("{}: {text:?} reads as an illegal move", v.fen(pos)));
                }
            }
        }
        if let Ok(m) = parse_wire(v, pos, &Shown::of(v.rules(), pos), &text) {
            if !moves.contains(m) {
                return Err(format!("{}: wire text {text:?} is illegal", v.fen(pos)));
            }
        }
    }
    Ok(())
}

/// Everything one FEN must survive; Ok(true) if the game accepted it.
fn check_fen(v: &'static dyn Variant, fen: &str, rng: &mut Rng) -> Result<bool, String> {
    let Ok(start) = v.parse_fen(fen) else {
        return Ok(false);
    };
    let mut pos = start.clone();
    for ply in 0..=PLAYOUT_PLIES {
        check_position(v, &pos).map_err(|e| format!("ply {ply} of the playout: {e}"))?;
        if ply == 0 {
            let (p2, back2) = (
                perft2(v, &pos),
                perft2(v, &v.parse_fen(&v.fen(&pos)).unwrap()),
            );
            if p2 != back2 {
                return Err(format!("perft 2 is {p2}, of its printed FEN {back2}"));
            }
            check_search(v, &pos)?;
            check_move_texts(v, &pos, rng)?;
        }
        let moves = legal(v, &pos);
        if moves.is_empty() {
            break;
        }
        pos = v.play(&pos, *pick(rng, moves.as_slice()));
    }
    Ok(true)
}

/// What one game's run found.
#[derive(Default)]
struct Tally {
    accepted: u64,
    refused: u64,
    failures: Vec<String>,
}

fn fuzz_game(v: &'static dyn Variant, fens: u64, seed: u64) -> Tally {
    let mut rng = Rng(seed);
    let mut corpus = seed_corpus(v, &mut rng);
    let mut tally = Tally::default();
    for &(_, fen) in REFUSED.iter().filter(|(game, _)| *game == v.name()) {
        match catch_unwind(AssertUnwindSafe(|| v.parse_fen(fen))) {
            Ok(Err(_)) => corpus.push(fen.to_string()),
            Ok(Ok(_)) => tally
                .failures
                .push(format!("{fen:?}: accepted, but it cannot arise")),
            Err(_) => tally.failures.push(format!("{fen:?}: panicked")),
        }
    }
    for i in 0..fens {
        let base = pick(&mut rng, &corpus).clone();
        let fen = match rng.below(8) {
            0 => base.clone(),
            1..=2 => mutate_chars(&mut rng, v, &base),
            3..=4 => mutate_fields(&mut rng, v, &base),
            5..=6 => inject_state(&mut rng, v, &base),
            _ => random_board(&mut rng, v),
        };
        let mut check_rng = Rng(seed ^ i);
        match catch_unwind(AssertUnwindSafe(|| check_fen(v, &fen, &mut check_rng))) {
            Ok(Ok(true)) => {
                tally.accepted += 1;
                if corpus.len() < CORPUS_LIMIT && fen != base {
                    corpus.push(fen);
                }
            }
            Ok(Ok(false)) => tally.refused += 1,
            Ok(Err(why)) => tally.failures.push(format!("{fen:?}: {why}")),
            Err(_) => tally.failures.push(format!("{fen:?}: panicked")),
        }
    }
    tally
}

#[test]
fn fen_and_move_text_fuzzing_over_every_game() {
    let fens = env_number("MENAGERIE_FUZZ_FENS", FENS_PER_GAME);
    let seed = seed();
    let mut failures = Vec::new();
    for (game, fen) in REFUSED {
        if !variants::all().iter().any(|v| v.name() == *game) {
            failures.push(format!("{game}: no such game, for {fen:?}"));
        }
    }
    for (i, &v) in variants::all().iter().enumerate() {
        let t = fuzz_game(v, fens, seed.wrapping_add(i as u64 * 0x1000_0000));
        eprintln!(
            "{}: {fens} FENs (seed {seed}): {} accepted, {} refused, {} failures",
            v.name(),
            t.accepted,
            t.refused,
            t.failures.len()
        );
        failures.extend(t.failures.into_iter().map(|f| format!("{}: {f}", v.name())));
    }
    assert!(
        failures.is_empty(),
        "{} failures (seed {seed}), the first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(REPORTED)].join("\n")
    );
}
