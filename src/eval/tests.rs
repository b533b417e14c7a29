use super::params::parse;
use super::*;
use crate::variants;

#[test]
fn every_shipped_file_reads_and_names_only_known_parameters() {
    let mut read = 0;
    for v in variants::all() {
        let Some(text) = shipped_file(v.name()) else {
            continue;
        };
        let (_, mut params) = Layout::new(*v);
        if let Err(e) = params.read(text) {
            panic!("src/eval/params for {}: {e}", v.name());
        }
        read += 1;
    }
    assert!(read >= 7, "a parameter file for each of the seven games");
}

#[test]
fn parameter_names_are_unique_words_and_game_terms_fit() {
    for v in variants::all() {
        let (layout, params) = Layout::new(*v);
        assert!(layout.game_terms.len() <= MAX_GAME_TERMS, "{}", v.name());
        for i in 0..params.len() {
            let n = params.name(i);
            assert!(
                !n.is_empty() && !n.contains(char::is_whitespace) && !n.contains('#'),
                "{}: '{n}'",
                v.name()
            );
            assert_eq!(params.find(n), Some(i), "{}: '{n}' twice", v.name());
        }
    }
}

#[test]
fn parameter_text_round_trips() {
    for v in variants::all() {
        let (_, mut params) = Params::for_variant(*v);
        for i in 0..params.len() {
            params.set(i, (i as i32 * 37) % 201 - 100, i as i32 % 3 * 50);
        }
        let text = params.to_text("test\nround trip");
        let (_, mut back) = Layout::new(*v);
        back.read(&text).unwrap();
        assert_eq!(back, params, "{}", v.name());
    }
}

#[test]
fn bad_parameter_lines_are_refused_with_their_line() {
    let chess = variants::by_name("chess").unwrap();
    let cases = [
        ("tempo 10\nvalue.knight\n", 2),
        ("# c\n\ntempo ten\n", 3),
        ("tempo 1 2 3\n", 1),
        ("tempo 1 x\n", 1),
        ("tempo 1\ntempo 2\n", 2),
        ("tempo 1\nno_such_thing 4\n", 2),
        ("value.king 5\n", 1),
    ];
    for (text, line) in cases {
        let (_, mut params) = Layout::new(chess);
        let before = params.clone();
        let err = params.read(text).unwrap_err();
        assert_eq!(err.line, line, "{text:?}: {err}");
        assert_eq!(params, before, "nothing is set from a bad file");
    }
    assert_eq!(parse("  # only a comment\n\n").unwrap(), vec![]);
    let (_, mut params) = Layout::new(chess);
    params.read("tempo 17 # more\n").unwrap();
    assert_eq!(params.value(params.find("tempo").unwrap()), (17, 17));
    params.read("tempo 20 -3\n").unwrap();
    assert_eq!(params.value(params.find("tempo").unwrap()), (20, -3));
}

/// Writes the shared defaults as every game's parameter file (run by hand with `--ignored`
/// when a game's terms change).
#[test]
#[ignore]
fn write_default_parameter_files() {
    for v in variants::all() {
        if v.name() == "afterlife-optional-limbo" {
            continue;
        }
        let (_, params) = Layout::new(*v);
        let header = format!(
            "Evaluation parameters of {} (centipawns per unit of each feature), read at start.\n\
             The shared defaults, not yet tuned; `menagerie tune` rewrites this file \
             (docs/tuning.md).",
            v.name()
        );
        std::fs::write(
            format!("src/eval/params/{}.txt", v.name()),
            params.to_text(&header),
        )
        .unwrap();
    }
}

#[test]
fn the_evaluation_reads_its_parameters() {
    for name in ["chess", "chaos", "afterlife", "existentialist"] {
        let v = variants::by_name(name).unwrap();
        let pos = v.start_position();
        let (layout, mut params) = Params::for_variant(v);
        let base = Eval::with_params(v, &layout, &params).evaluate(v, &pos, Color::White);
        assert_eq!(base, Eval::new(v).evaluate(v, &pos, Color::White));
        let (mg, eg) = params.value(layout.tempo);
        params.set(layout.tempo, mg + 7, eg + 7);
        let more = Eval::with_params(v, &layout, &params).evaluate(v, &pos, Color::White);
        assert_eq!(more, base + 7, "{name}");
    }
}

/// The start position is all middlegame, bare kings and pawns all endgame, and in between the
/// blend follows the material left.
#[test]
fn the_evaluation_is_tapered_by_the_material_on_the_board() {
    let v = variants::by_name("chess").unwrap();
    let (layout, base) = Params::for_variant(v);
    let eval_with = |mg: i32, eg: i32, fen: &str| {
        let mut params = base.clone();
        params.set(layout.tempo, mg, eg);
        let pos = v.parse_fen(fen).unwrap();
        Eval::with_params(v, &layout, &params).evaluate(v, &pos, Color::White)
    };
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let pawns = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1";
    assert_eq!(eval_with(0, 1000, start), eval_with(0, 0, start));
    assert_eq!(eval_with(1000, 0, pawns), eval_with(0, 0, pawns));
    // Half the pieces of each side gone: queen and two minor pieces, or rook, knight and bishop.
    let half = "r2qk3/pppppppp/8/8/8/8/PPPPPPPP/R2QK3 w - - 0 1";
    let blend = eval_with(0, 1000, half) - eval_with(0, 0, half);
    assert!(blend > 300 && blend < 700, "{blend}");
}

/// The tuner's view of a position (features times parameters) is the evaluation itself, in
/// every game, over positions of random games, with parameters set apart in the two phases.
#[test]
fn features_times_parameters_are_the_evaluation() {
    let mut rng = crate::core::rng::SplitMix(7);
    for v in variants::all() {
        let (layout, mut params) = Params::for_variant(*v);
        for i in 0..params.len() {
            let (mg, eg) = params.value(i);
            params.set(i, mg + (i as i32 % 5) - 2, eg * 2 - (i as i32 % 7));
        }
        let eval = Eval::with_params(*v, &layout, &params);
        // Each rounding: the blend, the king danger's divisor and each game term's.
        let slack = 3.0 + layout.game_terms.len() as f64;
        let mut checked = 0;
        for _ in 0..6 {
            let mut pos = v.start_position();
            for _ in 0..60 {
                let pov = v.rulings().point_of_view(&pos);
                let f = eval.features(*v, &layout, &pos, pov);
                let got = eval.evaluate(*v, &pos, pov);
                let white = if pov == Color::Black { -got } else { got };
                let want = f.score(&params);
                assert!(
                    (f64::from(white) - want).abs() <= slack,
                    "{}: {} evaluates {white}, features say {want}",
                    v.name(),
                    v.fen(&pos)
                );
                checked += 1;
                let mut moves = crate::core::MoveList::new();
                v.legal_moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.below(moves.len())];
                pos = v.play(&pos, m);
            }
        }
        assert!(checked > 50, "{}", v.name());
    }
}

/// The pawn cache changes no evaluation: over positions of random games in every game, with one
/// cache a game (so most positions find their pawns in it), the cached evaluation is the one
/// worked out afresh. A passed pawn's free path depends on the other pieces, not only on the
/// pawns the cache is keyed by: a knight that blocks one leaves the key as it is and still
/// counts.
#[test]
fn the_pawn_cache_changes_no_evaluation() {
    let mut rng = crate::core::rng::SplitMix(11);
    for v in variants::all() {
        let eval = Eval::new(*v);
        let mut cache = PawnCache::new();
        for _ in 0..6 {
            let mut pos = v.start_position();
            for _ in 0..80 {
                let pov = v.rulings().point_of_view(&pos);
                let fresh = eval.evaluate(*v, &pos, pov);
                let cached = eval.evaluate_cached(*v, &pos, pov, &mut cache);
                assert_eq!(cached, fresh, "{}: {}", v.name(), v.fen(&pos));
                let mut moves = crate::core::MoveList::new();
                v.legal_moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                pos = v.play(&pos, moves.as_slice()[rng.below(moves.len())]);
            }
        }
    }
    let v = variants::by_name("chess").unwrap();
    let eval = Eval::new(v);
    let mut cache = PawnCache::new();
    let free = v
        .parse_fen("4k3/8/8/3P4/2P2p2/8/4PP2/4K3 w - - 0 1")
        .unwrap();
    let blocked = v
        .parse_fen("4k3/8/3n4/3P4/2P2p2/8/4PP2/4K3 w - - 0 1")
        .unwrap();
    for pos in [&free, &blocked, &free] {
        let fresh = eval.evaluate(v, pos, Color::White);
        assert_eq!(
            eval.evaluate_cached(v, pos, Color::White, &mut cache),
            fresh
        );
    }
}

/// Every game's rules page carries the table of the values its parameter file sets
/// (`value_table`), between the two marker lines. `MENAGERIE_BLESS=1 cargo test --release --lib
/// rules_pages_carry` writes the tables into the pages instead of checking them.
#[test]
fn rules_pages_carry_the_learned_values() {
    let bless = std::env::var_os("MENAGERIE_BLESS").is_some();
    let mut stale = Vec::new();
    for v in variants::all() {
        if v.name() == "afterlife-optional-limbo" {
            continue;
        }
        let path = format!("{}/docs/rules/{}.md", env!("CARGO_MANIFEST_DIR"), v.name());
        let page = std::fs::read_to_string(&path).unwrap();
        let (Some(b), Some(e)) = (page.find(TABLE_BEGIN), page.find(TABLE_END)) else {
            panic!("{path}: no lines '{TABLE_BEGIN}' and '{TABLE_END}'");
        };
        let start = b + TABLE_BEGIN.len();
        assert!(start <= e, "{path}: the end marker comes first");
        let want = format!("\n{}", value_table(*v));
        if page[start..e] != want {
            if bless {
                let new = format!("{}{want}{}", &page[..start], &page[e..]);
                std::fs::write(&path, new).unwrap();
            } else {
                stale.push(format!("{path}; expected:{want}"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "rules pages whose table of learned values differs from src/eval/params \
         (MENAGERIE_BLESS=1 rewrites them):\n{}",
        stale.join("\n")
    );
}

/// The table lists every kind with a value, in pawns, and says where the numbers come from.
#[test]
fn the_value_table_lists_the_valued_kinds_in_pawns() {
    let chess = variants::by_name("chess").unwrap();
    let table = value_table(chess);
    let (layout, params) = Params::for_variant(chess);
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| piece"))
        .collect();
    let valued = layout.value.iter().filter(|v| v.is_some()).count();
    assert_eq!(rows.len(), valued, "{table}");
    let (mg, eg) = params.value(params.find("value.queen").unwrap());
    let queen = format!(
        "| queen (Q) | {:.2} | {:.2} |",
        f64::from(mg) / 100.0,
        f64::from(eg) / 100.0
    );
    assert!(rows.contains(&queen.as_str()), "{queen} in\n{table}");
    assert!(!table.contains("| king (K) |"), "royal kinds have no value");
    assert!(table.contains("src/eval/params/chess.txt"));
}

/// Whether a parameter belongs to a square table: by rank, by file or by square.
fn is_square_table(name: &str) -> bool {
    ["rank.", "file.", "square."]
        .iter()
        .any(|p| name.starts_with(p))
}

/// A square table counts a piece by its rank from its own side and its file from the nearer
/// edge, and by its square so counted: mirrored armies (colours swapped and ranks reversed, or
/// files reversed) score the same whatever the table holds.
#[test]
fn square_tables_are_seen_from_each_side_and_both_wings() {
    let v = variants::by_name("chess").unwrap();
    let (layout, mut params) = Params::for_variant(v);
    for i in 0..params.len() {
        if is_square_table(params.name(i)) {
            // The same in both phases, so the blend does not matter below.
            let x = (i as i32 * 37) % 101 - 50;
            params.set(i, x, x);
        }
    }
    // The tempo the same in both phases, so that it is one number whatever the material.
    let tempo = params.value(layout.tempo).0;
    params.set(layout.tempo, tempo, tempo);
    let eval = Eval::with_params(v, &layout, &params);
    let score = |fen: &str| eval.evaluate(v, &v.parse_fen(fen).unwrap(), Color::White);
    // Colours swapped and ranks reversed: the score changes sign, but for the tempo.
    let a = score("4k3/8/8/8/2N5/8/1P6/4K3 w - - 0 1");
    let b = score("4k3/1p6/8/2n5/8/8/8/4K3 w - - 0 1");
    assert_eq!(a - tempo, -(b - tempo));
    // Files reversed: the same score.
    assert_eq!(
        score("6k1/8/8/8/1Q6/8/8/K7 w - - 0 1"),
        score("1k6/8/8/8/6Q1/8/8/7K w - - 0 1")
    );
    // The table does count: a knight on c4 and one on a1 differ by their tables' entries (a
    // black pawn keeps mop-up, which is not linear in the values, out of the sums).
    let (r4, f3) = (params.find("rank.knight.4"), params.find("file.knight.3"));
    let (r1, f1) = (params.find("rank.knight.1"), params.find("file.knight.1"));
    let (c4_square, a1_square) = (
        params.find("square.knight.4.3"),
        params.find("square.knight.1.1"),
    );
    let mg = |i: Option<usize>| params.value(i.unwrap()).0;
    let c4 = score("4k3/7p/8/8/2N5/8/8/4K3 w - - 0 1");
    let a1 = score("4k3/7p/8/8/8/8/8/N3K3 w - - 0 1");
    let other_terms = {
        // The shipped values with every square table at zero.
        let mut flat = Params::for_variant(v).1;
        for i in 0..flat.len() {
            if is_square_table(flat.name(i)) {
                flat.set(i, 0, 0);
            }
        }
        let flat = Eval::with_params(v, &layout, &flat);
        let s = |fen: &str| flat.evaluate(v, &v.parse_fen(fen).unwrap(), Color::White);
        s("4k3/7p/8/8/2N5/8/8/4K3 w - - 0 1") - s("4k3/7p/8/8/8/8/8/N3K3 w - - 0 1")
    };
    let table = |r, f, square| mg(r) + mg(f) + mg(square);
    assert_ne!(table(r4, f3, c4_square), table(r1, f1, a1_square));
    assert_ne!(mg(c4_square), mg(a1_square));
    let expected = table(r4, f3, c4_square) - table(r1, f1, a1_square);
    assert!((c4 - a1 - other_terms - expected).abs() <= 2);
}

/// The pair and file terms count by hand: White's two bishops and two rooks are pairs, its rook
/// on a1 stands behind its own pawn (neither open nor half-open) and the one on h1 on a file
/// with only Black's pawn (half-open); Black's one rook stands on an empty file (open). Knights
/// and queens have no pair here, and only rooks and queens, which ride along files, have file
/// terms.
#[test]
fn pair_and_file_terms_count_by_hand() {
    let v = variants::by_name("chess").unwrap();
    let (layout, params) = Params::for_variant(v);
    let eval = Eval::with_params(v, &layout, &params);
    let pos = v.parse_fen("3rk3/7p/8/8/8/8/P7/RB2KB1R w - - 0 1").unwrap();
    let f = eval.features(v, &layout, &pos, Color::White);
    let coef = |name: &str| {
        let i = params.find(name).unwrap_or_else(|| panic!("{name}")) as u32;
        f.coef.iter().find(|(j, _)| *j == i).map_or(0.0, |c| c.1)
    };
    assert_eq!(coef("pair.bishop"), 1.0);
    assert_eq!(coef("pair.rook"), 1.0);
    assert_eq!(coef("pair.knight"), 0.0);
    assert_eq!(coef("open_file.rook"), -1.0);
    assert_eq!(coef("half_open_file.rook"), 1.0);
    assert!(params.find("open_file.bishop").is_none());
    assert!(params.find("open_file.queen").is_some());
}

/// The feature (coefficient) of the parameter `name` in the chess position `fen`, for White.
fn chess_feature(fen: &str, name: &str) -> f32 {
    let v = variants::by_name("chess").unwrap();
    let (layout, params) = Params::for_variant(v);
    let eval = Eval::with_params(v, &layout, &params);
    let f = eval.features(v, &layout, &v.parse_fen(fen).unwrap(), Color::White);
    let i = params.find(name).unwrap_or_else(|| panic!("{name}")) as u32;
    f.coef.iter().find(|(j, _)| *j == i).map_or(0.0, |c| c.1)
}

/// The king-attack term counts, per piece, the squares it reaches next to the enemy royal piece
/// or on it: a knight on f5 reaches h6 and g7 around Black's king on g7 (e7 and the rest of its
/// squares lie outside), and no square near White's king.
#[test]
fn king_attack_counts_the_squares_reached_next_to_the_enemy_king() {
    let coef = chess_feature;
    assert_eq!(
        coef("8/6k1/8/5N2/8/8/8/4K3 b - - 0 1", "king_attack.knight"),
        2.0
    );
    // Black's knight on the mirrored square counts against White.
    assert_eq!(
        coef("4k3/8/8/8/5n2/8/6K1/8 w - - 0 1", "king_attack.knight"),
        -2.0
    );
    // A rook's reach stops at the first piece: h8 is blocked by the pawn on h7.
    assert_eq!(
        coef("7k/7p/8/8/8/8/8/K6R w - - 0 1", "king_attack.rook"),
        1.0
    );
}

/// The threat terms, counted by hand. White's pawn b5 attacks Black's knight c6; White's
/// knight e3 (320) attacks Black's rook d5 (497), which Black's bishop defends from h1 along
/// h1-d5; nothing defends the knight c6. Black's rook attacks b5, which a4 defends. So White
/// has one threat by a pawn, one by a cheaper piece and one undefended victim, Black none.
/// With the bishop on h2 the rook is undefended too.
#[test]
fn threat_terms_count_by_hand() {
    let coef = chess_feature;
    let defended = "4k3/8/2n5/1P1r4/P7/4N3/8/4K2b w - - 0 1";
    assert_eq!(coef(defended, "threat_by_pawn"), 1.0);
    assert_eq!(coef(defended, "threat_by_lesser"), 1.0);
    assert_eq!(coef(defended, "hanging"), 1.0);
    let undefended = "4k3/8/2n5/1P1r4/P7/4N3/7b/4K3 w - - 0 1";
    assert_eq!(coef(undefended, "hanging"), 2.0);
    // The same, colours swapped, counts against White.
    let mirrored = "4k2B/8/4n3/p7/1p1R4/2N5/8/4K3 b - - 0 1";
    assert_eq!(coef(mirrored, "threat_by_pawn"), -1.0);
    assert_eq!(coef(mirrored, "threat_by_lesser"), -1.0);
    assert_eq!(coef(mirrored, "hanging"), -1.0);
}

/// The pawn terms beyond the base, counted by hand. White's pawns d5 and c4 are passed
/// (Black's one pawn, f4, stands on neither's files nor beside them ahead); e2 and f2 are not
/// (f4 is ahead of them on a neighbouring file), nor is f4 (e2 and f2). d5 stands on the fifth
/// rank, c4 on the fourth. Both squares ahead (d6, c5) are empty: 4 + 3 ranks advanced. White's
/// king e1 stands 5 steps from d6 and 4 from c5 (4 x 5 + 3 x 4 = 32), Black's king e8 2 from d6
/// and 3 from c5 (4 x 2 + 3 x 3 = 17). e2 and f2 stand side by side (a phalanx of two); c4
/// defends d5.
#[test]
fn pawn_terms_count_by_hand() {
    let fen = "4k3/8/8/3P4/2P2p2/8/4PP2/4K3 w - - 0 1";
    let coef = |name: &str| chess_feature(fen, name);
    assert_eq!(coef("passed_rank.5"), 1.0);
    assert_eq!(coef("passed_rank.4"), 1.0);
    assert_eq!(coef("passed_rank.2"), 0.0);
    assert_eq!(coef("passed_free"), 7.0);
    assert_eq!(coef("passed_king_own"), 32.0);
    assert_eq!(coef("passed_king_enemy"), 17.0);
    assert_eq!(coef("phalanx_pawn"), 2.0);
    assert_eq!(coef("supported_pawn"), 1.0);
    // A blocked passer is not free: a Black knight on d6.
    let blocked = "4k3/8/3n4/3P4/2P2p2/8/4PP2/4K3 w - - 0 1";
    assert_eq!(chess_feature(blocked, "passed_free"), 3.0);
}

/// King danger counts, for each side, the pieces reaching the enemy king's neighbourhood times
/// the squares of it they reach, over 4. Around Black's king on g7 the knight f5 reaches g7 and
/// h6 (1 piece x 2 squares), and with the rook a7 also f7 and g7 (2 pieces x 4 squares).
#[test]
fn king_danger_grows_with_the_attackers_together() {
    assert_eq!(
        chess_feature("8/6k1/8/5N2/8/8/8/4K3 b - - 0 1", "king_danger"),
        0.5
    );
    assert_eq!(
        chess_feature("8/R5k1/8/5N2/8/8/8/4K3 b - - 0 1", "king_danger"),
        2.0
    );
}

/// Outposts counted by hand: White's knight e5 stands in Black's half and d4 defends it; Black's
/// pawn c6 can never attack it, but a pawn on d7 could (from d6). On e4, in its own half, it is
/// no outpost. Black's knight e4, defended by d5, with White's pawn on c3, counts against White.
#[test]
fn outposts_count_by_hand() {
    let coef = |fen: &str| chess_feature(fen, "outpost.knight");
    assert_eq!(coef("4k3/8/2p5/4N3/3P4/8/8/4K3 w - - 0 1"), 1.0);
    assert_eq!(coef("4k3/3p4/8/4N3/3P4/8/8/4K3 w - - 0 1"), 0.0);
    assert_eq!(coef("4k3/8/8/8/4N3/3P4/8/4K3 w - - 0 1"), 0.0);
    assert_eq!(coef("4k3/8/8/3p4/4n3/2P5/8/4K3 w - - 0 1"), -1.0);
}

/// Shelter and storm counted by hand. White's king g1 has f2 and g2 one rank ahead and h3 two;
/// Black's g4 stands three ranks ahead of it on the g-file (a storm), not in front of g2. Black's
/// king g8 has no pawn ahead on f and h (open) and its own g4 four ranks ahead (3 or more);
/// White's pawns stand five and six ranks ahead of it, beyond the storm's reach.
#[test]
fn shelter_and_storm_count_by_hand() {
    let fen = "6k1/8/8/8/6p1/7P/5PP1/6K1 w - - 0 1";
    let coef = |name: &str| chess_feature(fen, name);
    assert_eq!(coef("shelter.1"), 2.0);
    assert_eq!(coef("shelter.2"), 1.0);
    assert_eq!(coef("shelter.3"), -1.0);
    assert_eq!(coef("shelter_open"), -2.0);
    assert_eq!(coef("storm.3"), 1.0);
    assert_eq!(coef("storm.4"), 0.0);
    assert_eq!(coef("storm_blocked"), 0.0);
    // Black's g3 stands right in front of White's g2: a blocked storm two ranks ahead.
    let blocked = |name: &str| chess_feature("6k1/8/8/8/8/6p1/6P1/6K1 w - - 0 1", name);
    assert_eq!(blocked("storm.2"), 1.0);
    assert_eq!(blocked("storm_blocked"), 1.0);
    assert_eq!(blocked("shelter.1"), 1.0);
    assert_eq!(blocked("shelter_open"), 0.0);
    // A king on the edge has two files: White's g-file is open, Black's g and h are. A pawn
    // level with the king (h2 beside the king g2) shelters nothing.
    let edge = |name: &str| chess_feature("7k/8/8/8/8/8/7P/7K w - - 0 1", name);
    assert_eq!(edge("shelter_open"), -1.0);
    assert_eq!(edge("shelter.1"), 1.0);
    let level = |name: &str| chess_feature("7k/8/8/8/8/8/6KP/8 w - - 0 1", name);
    assert_eq!(level("shelter_open"), 1.0);
}

/// Safe checks counted by hand. Around Black's king g8, White's knight e4 reaches f6, one of the
/// knight's checking squares (e7, f6, h6), which Black does not attack; White's rook a1 reaches
/// a8, from which it would check along the empty eighth rank (its way along the first rank
/// stops at its own king). With a Black pawn on g7, f6 is attacked and no longer safe. Colours
/// swapped, the checks count against White.
#[test]
fn safe_checks_count_by_hand() {
    let fen = "6k1/8/8/8/4N3/8/8/R3K3 w - - 0 1";
    assert_eq!(chess_feature(fen, "safe_check.knight"), 1.0);
    assert_eq!(chess_feature(fen, "safe_check.rook"), 1.0);
    let pawn = "6k1/6p1/8/8/4N3/8/8/R3K3 w - - 0 1";
    assert_eq!(chess_feature(pawn, "safe_check.knight"), 0.0);
    assert_eq!(chess_feature(pawn, "safe_check.rook"), 1.0);
    let mirrored = "r3k3/8/8/4n3/8/8/8/6K1 b - - 0 1";
    assert_eq!(chess_feature(mirrored, "safe_check.knight"), -1.0);
    assert_eq!(chess_feature(mirrored, "safe_check.rook"), -1.0);
}

/// Safe mobility counted by hand: White's knight d4 reaches eight squares; Black's pawns c7 and
/// g7 attack b6 and d6, and f6 and h6: of the knight's squares, b5, c6, e6, f5, f3, e2, c2 and
/// b3, none is attacked, so all eight are safe. With Black's pawn on d7 (attacking c6 and e6),
/// six are.
#[test]
fn safe_mobility_counts_by_hand() {
    let coef = |fen: &str| chess_feature(fen, "mobility_safe.knight");
    assert_eq!(coef("4k3/2p3p1/8/8/3N4/8/8/4K3 w - - 0 1"), 8.0);
    assert_eq!(coef("4k3/3p4/8/8/3N4/8/8/4K3 w - - 0 1"), 6.0);
    // Colours swapped, against White.
    assert_eq!(coef("4k3/8/8/3n4/8/8/3P4/4K3 b - - 0 1"), -6.0);
}

/// A packed score keeps both halves through sums, differences and products by counts, whatever
/// their signs: the endgame's borrow from the middlegame half is undone when the halves are read.
#[test]
fn packed_scores_keep_both_halves() {
    let halves = [
        (0, 0),
        (1, -1),
        (-1, 1),
        (-300, 250),
        (12_000, -9_000),
        (-70_000, -70_000),
    ];
    for &(a_mg, a_eg) in &halves {
        for &(b_mg, b_eg) in &halves {
            let (a, b) = (S::new(a_mg, a_eg), S::new(b_mg, b_eg));
            assert_eq!(((a + b).mg(), (a + b).eg()), (a_mg + b_mg, a_eg + b_eg));
            assert_eq!(((a - b).mg(), (a - b).eg()), (a_mg - b_mg, a_eg - b_eg));
            let mut c = a;
            c -= b;
            c += b;
            assert_eq!(c, a);
            for n in [-3, 0, 1, 7] {
                assert_eq!(((a * n).mg(), (a * n).eg()), (a_mg * n, a_eg * n));
            }
        }
    }
}

#[test]
fn the_eval_cache_returns_what_it_kept_and_tells_positions_apart() {
    let v = variants::by_name("chess").unwrap();
    let eval = Eval::new(v);
    let a = v
        .parse_fen("4k3/8/8/3P4/2P2p2/8/4PP2/4K3 w - - 0 1")
        .unwrap();
    let b = v
        .parse_fen("4k3/8/3n4/3P4/2P2p2/8/4PP2/4K3 w - - 0 1")
        .unwrap();
    let mut cache = EvalCache::new();
    let ea = eval.evaluate(v, &a, Color::White);
    let eb = eval.evaluate(v, &b, Color::White);
    assert_ne!(ea, eb);
    assert_eq!(cache.get(a.hash(), || ea), ea);
    // Kept: the second look does not evaluate again.
    assert_eq!(cache.get(a.hash(), || unreachable!("a is kept")), ea);
    // Another position is evaluated, whatever slot it falls in, and then kept in its place.
    assert_eq!(cache.get(b.hash(), || eb), eb);
    assert_eq!(cache.get(b.hash(), || unreachable!("b is kept")), eb);
}
