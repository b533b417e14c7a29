//! Search properties that hold for every registered variant: a legal answer in any position,
//! determinism with one thread, and a table of exactly the size asked for.

use super::*;
use crate::core::MoveList;
use crate::variants;

use crate::core::rng::SplitMix as Rng;

/// Positions from seeded random playouts, `count` of them.
fn random_positions(v: &dyn Variant, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = v.start_position();
        let plies = 1 + rng.next_u64() % 120;
        for _ in 0..plies {
            let mut moves = MoveList::new();
            v.legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos = v.play(
                &pos,
                moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize],
            );
        }
        out.push(pos);
    }
    out
}

fn quick_search(
    v: &dyn Variant,
    pos: &Position,
    limits: &Limits,
    tt: &TranspositionTable,
) -> SearchResult {
    let control = Control::new(false);
    search(SearchInput::new(v, pos, limits, &control, tt), &mut |_| {})
}

#[test]
fn the_best_move_is_always_legal() {
    let tt = TranspositionTable::new(1);
    let limits = Limits {
        nodes: Some(2_000),
        depth: Some(4),
        ..Default::default()
    };
    for v in variants::all() {
        for (i, pos) in random_positions(*v, 1_000, 7).iter().enumerate() {
            let mut legal = MoveList::new();
            v.legal_moves(pos, &mut legal);
            let r = quick_search(*v, pos, &limits, &tt);
            match r.best {
                Some(m) => assert!(
                    legal.contains(m),
                    "{} position {i}: {m:?} is not legal in {}",
                    v.name(),
                    pos.to_fen(v.rules())
                ),
                None => assert!(
                    legal.is_empty(),
                    "{} position {i}: no move in {}",
                    v.name(),
                    pos.to_fen(v.rules())
                ),
            }
            if let Some(p) = r.ponder {
                let next = v.play(pos, r.best.unwrap());
                let mut replies = MoveList::new();
                v.legal_moves(&next, &mut replies);
                assert!(
                    replies.contains(p),
                    "{}: ponder move {p:?} is not legal",
                    v.name()
                );
            }
        }
    }
}

#[test]
fn one_thread_is_deterministic() {
    for v in variants::all() {
        let pos = v.start_position();
        let limits = Limits {
            depth: Some(6),
            ..Default::default()
        };
        let runs: Vec<(Option<Move>, u64, i32)> = (0..2)
            .map(|_| {
                let tt = TranspositionTable::new(4);
                let r = quick_search(*v, &pos, &limits, &tt);
                (r.best, r.nodes, r.score)
            })
            .collect();
        assert_eq!(runs[0], runs[1], "{}", v.name());
        assert!(runs[0].1 > 0);
    }
}

#[test]
fn two_threads_answer_legally_and_stop() {
    let v = variants::by_name("chess").unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .stack_size(THREAD_STACK_BYTES)
        .build()
        .unwrap();
    let tt = TranspositionTable::new(2);
    let pos = v.start_position();
    let control = Control::new(false);
    let limits = Limits {
        depth: Some(6),
        ..Default::default()
    };
    let input = SearchInput::new(v, &pos, &limits, &control, &tt).with_pool(Some(&pool));
    let r = search(input, &mut |_| {});
    let mut legal = MoveList::new();
    v.legal_moves(&pos, &mut legal);
    assert!(legal.contains(r.best.unwrap()));
    assert_eq!(r.depth, 6);
}

/// What a two-thread search reported and answered: the (depth, score, first move) of every
/// reported line, and the result.
fn two_thread_search(
    v: &dyn Variant,
    pos: &Position,
    limits: &Limits,
    pool: &rayon::ThreadPool,
) -> (Vec<(u32, i32, Move)>, SearchResult) {
    let tt = TranspositionTable::new(4);
    let mut reported = Vec::new();
    let control = Control::new(false);
    let input = SearchInput::new(v, pos, limits, &control, &tt).with_pool(Some(pool));
    let r = search(input, &mut |info: &Info| {
        reported.push((info.depth, info.score, info.pv[0]))
    });
    (reported, r)
}

/// With two threads every depth is reported once, in order from 1 without a gap, whichever
/// thread finished it; the answer is the deepest reported line's move and score. Several games
/// and runs, since two threads search differently each time.
#[test]
fn two_threads_report_every_depth_once_and_answer_from_the_deepest() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .stack_size(THREAD_STACK_BYTES)
        .build()
        .unwrap();
    for name in [
        "chess",
        "schizophrenic",
        "chaos",
        "afterlife",
        "existentialist",
    ] {
        let v = variants::by_name(name).unwrap();
        let positions = std::iter::once(v.start_position()).chain(random_positions(v, 3, 5));
        for (i, pos) in positions.enumerate() {
            let mut legal = MoveList::new();
            v.legal_moves(&pos, &mut legal);
            if legal.is_empty() || pos.turn() == Color::Neutral {
                continue;
            }
            for run in 0..3 {
                let limits = Limits {
                    depth: Some(5),
                    nodes: Some(3_000_000),
                    ..Default::default()
                };
                let (reported, r) = two_thread_search(v, &pos, &limits, &pool);
                let depths: Vec<u32> = reported.iter().map(|l| l.0).collect();
                let want: Vec<u32> = (1..=r.depth).collect();
                assert_eq!(depths, want, "{name} position {i} run {run}");
                assert_eq!(r.depth, 5, "{name} position {i} run {run}");
                let &(_, score, best) = reported.last().unwrap();
                assert_eq!((r.best, r.score), (Some(best), score), "{name} {i} {run}");
                assert!(legal.contains(best));
            }
        }
    }
}

/// A two-thread search stopped by its clock still answers from its deepest reported line, and
/// reports its depths in order without a gap.
#[test]
fn a_timed_two_thread_search_answers_from_its_last_report() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .stack_size(THREAD_STACK_BYTES)
        .build()
        .unwrap();
    for name in ["chess", "afterlife"] {
        let v = variants::by_name(name).unwrap();
        let limits = Limits {
            movetime: Some(Duration::from_millis(150)),
            ..Default::default()
        };
        let (reported, r) = two_thread_search(v, &v.start_position(), &limits, &pool);
        let depths: Vec<u32> = reported.iter().map(|l| l.0).collect();
        assert_eq!(depths, (1..=r.depth).collect::<Vec<u32>>(), "{name}");
        let &(_, score, best) = reported.last().unwrap();
        assert_eq!((r.best, r.score), (Some(best), score), "{name}");
    }
}

/// Iterations another thread has finished are taken in by the main thread: reported first, in
/// order, and searched on from, one ply deeper. Here they are those of an earlier one-thread
/// search, put in the record by hand before the main thread starts.
#[test]
fn the_main_thread_reports_and_deepens_from_iterations_others_finished() {
    let v = variants::by_name("chess").unwrap();
    let pos = v.start_position();
    let mut earlier = Vec::new();
    let tt = TranspositionTable::new(4);
    let shallow = Limits {
        depth: Some(3),
        ..Default::default()
    };
    let control = Control::new(false);
    search(
        SearchInput::new(v, &pos, &shallow, &control, &tt),
        &mut |info: &Info| earlier.push((info.depth, info.score, info.pv.clone())),
    );
    assert_eq!(earlier.len(), 3);
    let limits = Limits {
        depth: Some(5),
        ..Default::default()
    };
    let control = Control::new(false);
    let shared = Shared::new(v, Arc::new(Eval::new(v)), &tt, &control, &limits, 0);
    for (depth, score, pv) in &earlier {
        shared.complete(Iteration {
            depth: *depth,
            seldepth: 0,
            lines: vec![(*score, pv.clone())],
        });
    }
    // A gap or a repeat is refused.
    shared.complete(Iteration {
        depth: 5,
        seldepth: 0,
        lines: vec![(0, earlier[0].2.clone())],
    });
    shared.complete(Iteration {
        depth: 2,
        seldepth: 0,
        lines: vec![(0, earlier[0].2.clone())],
    });
    assert_eq!(shared.completed(), 3);
    let mut reported = Vec::new();
    let mut nodes_at = Vec::new();
    let mut tables = SearchTables::new();
    let r = worker::Worker::new(
        &shared,
        0,
        &mut tables.for_search(1, ordering::stat_keys(v))[0],
        &[],
    )
    .run(&pos, &mut |info: &Info| {
        reported.push((info.depth, info.score, info.pv.clone()));
        nodes_at.push(info.nodes);
    });
    assert_eq!(reported[..3], earlier[..]);
    assert_eq!(
        reported.iter().map(|l| l.0).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5]
    );
    // Depths 1 to 3 cost the main thread nothing.
    assert_eq!(nodes_at[..3], [0, 0, 0]);
    assert_eq!(r.depth, 5);
    assert_eq!(r.best, reported[4].2.first().copied());
}

#[test]
fn the_engine_table_has_the_size_of_the_hash_option() {
    let mut engine = crate::engine::Engine::new();
    for mb in [1usize, 3, 8] {
        engine.options.hash_mb = mb;
        engine.start_search(
            Limits {
                depth: Some(1),
                ..Default::default()
            },
            false,
            |_| {},
            |_| {},
        );
        engine.stop_and_wait();
        assert_eq!(engine.hash_bytes(), mb << 20);
    }
}

/// Around a third party's turns (Chaos's Nature), every policy answers with a legal move, at the
/// players' nodes and at the third party's, and the random policy's answer on the third party's
/// turn is its seeded choice.
#[test]
fn third_party_turns_get_legal_answers_under_every_policy() {
    let v = variants::by_name("chaos").unwrap();
    let tt = TranspositionTable::new(1);
    let policies = [
        crate::third_party::Policy::Random,
        crate::third_party::Policy::Engine,
        crate::third_party::Policy::External,
    ];
    let positions = random_positions(v, 150, 11);
    assert!(positions.iter().any(|p| p.turn() == Color::Neutral));
    for (i, pos) in positions.iter().enumerate() {
        let mut legal = MoveList::new();
        v.legal_moves(pos, &mut legal);
        for policy in policies {
            let third_party = ThirdParty {
                policy,
                seed: 5,
                favors: Color::Black,
            };
            let limits = Limits {
                nodes: Some(3_000),
                depth: Some(4),
                third_party,
                ..Default::default()
            };
            let r = quick_search(v, pos, &limits, &tt);
            match r.best {
                Some(m) => assert!(legal.contains(m), "{policy} position {i}: {m:?}"),
                None => assert!(legal.is_empty(), "{policy} position {i}: no answer"),
            }
            if pos.turn() == Color::Neutral && policy == crate::third_party::Policy::Random {
                assert_eq!(r.best, seeded_choice(v, pos, 5), "position {i}");
            }
        }
    }
}

/// The random policy's search knows Nature's ply: after a real move that hands the turn to
/// Nature, the principal variation continues with the seeded choice.
#[test]
fn the_search_follows_the_seeded_third_party_ply() {
    let v = variants::by_name("chaos").unwrap();
    // Counter 4: every White move hands the turn to Nature.
    let pos = v
        .parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[_Q_R_B_N] w KQkq - 2 3 4")
        .unwrap();
    let tt = TranspositionTable::new(1);
    let limits = Limits {
        depth: Some(4),
        ..Default::default()
    };
    let control = Control::new(false);
    let mut pv = Vec::new();
    search(
        SearchInput::new(v, &pos, &limits, &control, &tt),
        &mut |info: &Info| pv = info.pv.clone(),
    );
    assert!(pv.len() >= 2, "{pv:?}");
    let after = v.play(&pos, pv[0]);
    assert_eq!(after.turn(), Color::Neutral);
    assert_eq!(
        Some(pv[1]),
        seeded_choice(v, &after, ThirdParty::default().seed)
    );
}

/// Both sides stand in check on every ply (Black's protected King+Archer beside a White
/// Teleporter may stay attacked; Black's Dazzler checks White's King as a cannon from a9 or b10,
/// and the King steps between a4 and b4): every move gives check and every reply is an evasion.
/// Such a line once extended every ply in the main search and ran through quiescence to the
/// deepest ply, so that not even depth 1 ended. The depth-limited search ends, far within its
/// node cap.
#[test]
fn a_line_of_checks_on_both_sides_ends() {
    let v = variants::by_name("existentialist").unwrap();
    let pos = v
        .parse_fen("1dc1ok{aa}Tcsd/3h5y/1y4pppp/p2p6/10/6J3/1K5P2/PPPPPP1UPP/Y2HXA2TY/DSCVO1VCSD w k - 4 23")
        .unwrap();
    assert!(v.in_check(&pos));
    let limits = Limits {
        depth: Some(4),
        nodes: Some(2_000_000),
        ..Default::default()
    };
    let r = quick_search(v, &pos, &limits, &TranspositionTable::new(4));
    assert_eq!(r.depth, 4, "depth {} after {} nodes", r.depth, r.nodes);
}

/// A stalemate below the root is seen although the moves of a node out of check are generated
/// after reverse futility and the null move: White, a queen up, has many moves that leave
/// Black's king on a8 without a move (every king move, Qc7, Qb5, ...) and must play none.
/// From depth 2 on: at depth 1 the replies are judged by quiescence, which takes a side not in
/// check to have a move (stalemate is left to the full-width search, as in Stockfish's), so
/// there the choice depends on the evaluation alone.
#[test]
fn the_search_does_not_stalemate_when_ahead() {
    let v = variants::by_name("chess").unwrap();
    let pos = v.parse_fen("k7/8/1Q6/8/8/8/8/K7 w - - 0 1").unwrap();
    for depth in 2..=6 {
        let m = best_at_depth(v, &pos, depth).expect("White has moves");
        let after = v.play(&pos, m);
        let mut replies = MoveList::new();
        v.legal_moves(&after, &mut replies);
        assert!(!replies.is_empty(), "depth {depth}: {m:?} stalemates");
    }
}

/// Quiescence stores its result in the table, a mate counted from its node, and reads it back
/// at another ply counted from the root again: White's Rxe8 mates, found at ply 6 (mate at ply
/// 7) and read from the table at ply 2 (mate at ply 3), in one node. A node that stands pat
/// stores its static evaluation.
#[test]
fn quiescence_keeps_mate_distances_and_the_static_evaluation_in_the_table() {
    let v = variants::by_name("chess").unwrap();
    let pos = v
        .parse_fen("4r1k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1")
        .unwrap();
    let tt = TranspositionTable::new(1);
    tt.new_search();
    with_worker(v, &tt, |w| {
        assert_eq!(w.quiesce(&pos, 6, -INFINITY, INFINITY, false), MATE - 7);
        let e = tt.probe(pos.hash()).expect("quiescence stored its result");
        assert_eq!((e.score, e.depth, e.bound), (MATE - 1, 0, tt::Bound::Exact));
        let before = w.nodes;
        assert_eq!(w.quiesce(&pos, 2, -INFINITY, INFINITY, false), MATE - 3);
        assert_eq!(w.nodes - before, 1, "the table answered");

        let quiet = v
            .parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
        let eval = w.static_eval(&quiet);
        assert_eq!(w.quiesce(&quiet, 3, -INFINITY, eval - 50, false), eval);
        let (e, stored) = tt.probe_eval(quiet.hash()).expect("a stand-pat is stored");
        assert_eq!((e.score, e.bound, stored), (eval, tt::Bound::Lower, eval));
    });
}

/// The first ply of quiescence searches quiet checks where the game's switch turns them on
/// (forced on here, in chess): a rook's quiet Ra8 mates on the back rank, and a knight's quiet
/// Nf7 smothers the king in the corner, each at the ply after the node. In the third position
/// the rook on c8 guards d8, so Rd8+ would lose the rook by static exchange: it is not even
/// tried, and quiescence stands pat in one node.
#[test]
fn quiescence_finds_mates_by_quiet_checks_at_its_first_ply() {
    let v = variants::by_name("chess").unwrap();
    let tt = TranspositionTable::new(1);
    tt.new_search();
    with_worker(v, &tt, |w| {
        w.quiet_checks_on = true;
        for fen in [
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
            "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1",
        ] {
            let pos = v.parse_fen(fen).unwrap();
            assert_eq!(
                w.quiesce(&pos, 0, -INFINITY, INFINITY, false),
                MATE - 1,
                "{fen}"
            );
        }
        let guarded = v
            .parse_fen("2r3k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
            .unwrap();
        let (eval, before) = (w.static_eval(&guarded), w.nodes);
        assert_eq!(w.quiesce(&guarded, 0, -INFINITY, INFINITY, false), eval);
        assert_eq!(w.nodes - before, 1, "Rd8+ was searched");
    });
}

/// Runs `f` with a worker of one thread for `v`, searching into `tt` with the default limits and
/// empty move-ordering tables.
fn with_worker(
    v: &'static dyn Variant,
    tt: &TranspositionTable,
    f: impl FnOnce(&mut worker::Worker),
) {
    let limits = Limits::default();
    let control = Control::new(false);
    let shared = Shared::new(v, Arc::new(Eval::new(v)), tt, &control, &limits, 0);
    let mut tables = SearchTables::new();
    let keys = ordering::stat_keys(v);
    f(&mut worker::Worker::new(
        &shared,
        0,
        &mut tables.for_search(1, keys)[0],
        &[],
    ));
}

/// A one-thread search of `pos` (after the game's `history`) to `depth` with a fresh table and
/// the move-ordering tables `tables`: its nodes and best move.
fn search_with_tables(
    v: &dyn Variant,
    pos: &Position,
    history: &[u64],
    depth: u32,
    tables: &mut SearchTables,
) -> (u64, Option<Move>) {
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let tt = TranspositionTable::new(1);
    let control = Control::new(false);
    let input = SearchInput::new(v, pos, &limits, &control, &tt).after(history);
    let r = search_in_game(input, tables, &mut |_| {});
    (r.nodes, r.best)
}

/// The move-ordering tables of a game: the history one search learns orders the next search
/// (of the position after a move: other nodes than with empty tables), the killers do not
/// outlive their search, and clearing the tables is a new game (the same nodes as empty ones).
#[test]
fn move_ordering_tables_outlive_a_search_until_cleared() {
    let v = variants::by_name("chess").unwrap();
    let first = v
        .parse_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
        .unwrap();
    let mut tables = SearchTables::new();
    assert!(tables.is_clear());
    let (_, best) = search_with_tables(v, &first, &[], 6, &mut tables);
    assert!(!tables.is_clear(), "the search learnt nothing");
    let t = tables.thread(0);
    assert!(t.killers.iter().any(|k| k[0] != Move::NULL));
    assert!(t.history.iter().any(|&h| h != 0));
    let second = v.play(&first, best.unwrap());
    let history = [first.hash()];

    let (fresh, _) = search_with_tables(v, &second, &history, 6, &mut SearchTables::new());
    let mut kept = SearchTables::new();
    search_with_tables(v, &first, &[], 6, &mut kept);
    let (with_kept, _) = search_with_tables(v, &second, &history, 6, &mut kept);
    assert_ne!(
        with_kept, fresh,
        "the second search ignored what the first learnt"
    );

    // A new search starts with no killers and the history it was left.
    let before: Vec<i32> = tables.thread(0).history.clone();
    let t = &tables.for_search(1, ordering::stat_keys(v))[0];
    assert!(t.killers.iter().all(|k| *k == [Move::NULL; 2]));
    assert_eq!(t.history, before);

    tables.clear();
    assert!(tables.is_clear());
    let (cleared, _) = search_with_tables(v, &second, &history, 6, &mut tables);
    assert_eq!(cleared, fresh, "a cleared table still held something");
}

/// With helper threads every thread has its own tables, made when the number of threads grows.
/// (Whether a helper learns anything depends on how soon it runs, so only the main thread's are
/// checked for content.)
#[test]
fn each_thread_has_its_own_move_ordering_tables() {
    let v = variants::by_name("chess").unwrap();
    let pos = v.start_position();
    let mut tables = SearchTables::new();
    search_with_tables(v, &pos, &[], 5, &mut tables);
    assert_eq!(tables.threads(), 1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .stack_size(THREAD_STACK_BYTES)
        .build()
        .unwrap();
    let tt = TranspositionTable::new(1);
    let limits = Limits {
        depth: Some(7),
        ..Default::default()
    };
    let control = Control::new(false);
    let input = SearchInput::new(v, &pos, &limits, &control, &tt).with_pool(Some(&pool));
    search_in_game(input, &mut tables, &mut |_| {});
    assert_eq!(tables.threads(), 3);
    assert!(tables.thread(0).history.iter().any(|&h| h != 0));
}

/// The continuation tables answer the last two moves of the line: a third party's pass is passed
/// over (it leaves the board as it was), while a null move takes its place as a move without a
/// key, and nothing comes from before the root.
#[test]
fn the_moves_before_a_node_pass_over_a_third_partys_pass() {
    use worker::LinePly::{Keyed, Passed, Unkeyed};
    let v = variants::by_name("chaos").unwrap();
    with_worker(v, &TranspositionTable::new(1), |w| {
        w.played[..5].copy_from_slice(&[Keyed(1), Keyed(2), Passed, Keyed(3), Passed]);
        assert_eq!(w.keys_before(5), [Some(3), Some(2)]);
        assert_eq!(w.keys_before(3), [Some(2), Some(1)]);
        assert_eq!(w.keys_before(1), [Some(1), None]);
        assert_eq!(w.keys_before(0), [None, None]);
        w.played[..4].copy_from_slice(&[Keyed(1), Unkeyed, Passed, Keyed(3)]);
        assert_eq!(w.keys_before(4), [Some(3), None]);
        assert_eq!(w.keys_before(3), [None, Some(1)]);
    });
}

/// Every line ends by a rule within two plies (the fifty-move rule, White to move at 99 plies
/// without a capture or a pawn move, with no mate at hand), so deeper iterations repeat the
/// same tree: the search stops deepening by itself, well short of its node limit.
#[test]
fn a_tree_the_rules_resolve_stops_deepening() {
    let v = variants::by_name("chess").unwrap();
    let pos = v.parse_fen("8/8/8/4k3/8/8/8/K6R w - - 99 80").unwrap();
    let limits = Limits {
        nodes: Some(5_000_000),
        ..Default::default()
    };
    let r = quick_search(v, &pos, &limits, &TranspositionTable::new(1));
    assert!(r.depth <= 4, "depth {} after {} nodes", r.depth, r.nodes);
    assert_eq!(r.score, 0);
}

/// FIDE chess and a position of it.
fn chess_at(fen: &str) -> (&'static dyn Variant, Position) {
    let v = variants::by_name("chess").unwrap();
    (v, v.parse_fen(fen).unwrap())
}

/// The move `s` (UCI notation) in `pos`.
fn uci(v: &dyn Variant, pos: &Position, s: &str) -> Move {
    crate::notation::parse_move(v, pos, crate::notation::Dialect::Uci, s).unwrap()
}

/// Capture history reorders captures: exf5 takes a knight and comes before exd5, which takes a
/// pawn, until exd5 has refuted the node many times after exf5 was tried; then exd5 comes
/// first. Quiet moves' cutoffs after exf5 only punish exf5, which alone does not flip them.
#[test]
fn capture_history_reorders_captures_by_their_cutoffs() {
    let (v, pos) = chess_at("4k3/8/8/3p1n2/4P3/8/8/4K3 w - - 0 1");
    let (exf5, exd5) = (uci(v, &pos, "e4f5"), uci(v, &pos, "e4d5"));
    let first_capture = |w: &mut worker::Worker| {
        let mut moves = MoveList::new();
        v.legal_moves(&pos, &mut moves);
        let mut scores = picker::Scores::default();
        let mut picker = w.picker(&pos, &mut moves, &mut scores, 1, Move::NULL);
        std::iter::from_fn(|| picker.next())
            .find(|&m| m == exf5 || m == exd5)
            .unwrap()
    };
    with_worker(v, &TranspositionTable::new(1), |w| {
        assert_eq!(first_capture(w), exf5);
        let mut tried = ordering::TriedCaptures::new();
        tried.push(exf5);
        for _ in 0..50 {
            w.reward_captures(&pos, None, 10, &tried);
        }
        assert_eq!(first_capture(w), exf5);
        for _ in 0..50 {
            w.reward_captures(&pos, Some(exd5), 10, &tried);
        }
        assert_eq!(first_capture(w), exd5);
    });
}

/// A check extends unless it loses material by static exchange: Qa8+ is safe, Qe5+ hands the
/// queen to the knight on c6.
#[test]
fn a_check_that_loses_material_is_not_extended() {
    let (v, pos) = chess_at("4k3/8/2n5/8/8/8/8/Q3K3 w - - 0 1");
    let mv = |s: &str| uci(v, &pos, s);
    with_worker(v, &TranspositionTable::new(1), |w| {
        w.root_depth = 4;
        assert!(w.extends_check(&pos, mv("a1a8"), 1));
        assert!(!w.extends_check(&pos, mv("a1e5"), 1));
        // Past twice the iteration's depth nothing extends.
        assert!(!w.extends_check(&pos, mv("a1a8"), 8));
    });
}

/// A step to the square before promotion extends, for either side, unless it loses the pawn
/// by static exchange (to the rook on c7); a step further back does not, nor any move past the
/// extension's ply limit.
#[test]
fn a_step_to_the_square_before_promotion_is_extended() {
    for (fen, step, extended) in [
        ("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1", "b6b7", true),
        ("4k3/8/8/8/8/1p6/8/4K3 b - - 0 1", "b3b2", true),
        ("4k3/8/8/1P6/8/8/8/4K3 w - - 0 1", "b5b6", false),
        ("4k3/2r5/1P6/8/8/8/8/4K3 w - - 0 1", "b6b7", false),
    ] {
        let (v, pos) = chess_at(fen);
        let m = uci(v, &pos, step);
        with_worker(v, &TranspositionTable::new(1), |w| {
            w.root_depth = 4;
            assert_eq!(w.extends_push(&pos, m, 1), extended, "{fen}: {step}");
            assert!(
                !w.extends_push(&pos, m, 8),
                "{fen}: {step} past the ply limit"
            );
        });
    }
}

/// A quiet move that takes a piece out of an enemy pawn's attack gains order, and one that
/// puts it there loses as much: the knight on e4 (attacked by d5) leaving, the knight on b2
/// going to c4 (attacked by d5); a king's move, a pawn's and a knight's between safe squares
/// neither.
#[test]
fn quiet_moves_are_ordered_by_the_enemy_pawns_threats() {
    for (fen, mv, sign) in [
        ("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1", "e4f6", 1),
        ("4k3/8/8/3p4/8/8/1N6/4K3 w - - 0 1", "b2c4", -1),
        ("4k3/8/8/3p4/8/8/1N6/4K3 w - - 0 1", "b2a4", 0),
        ("4k3/8/8/3p4/8/8/1N6/4K3 w - - 0 1", "e1d1", 0),
        ("4k3/8/8/3p4/8/8/1NP5/4K3 w - - 0 1", "c2c4", 0),
    ] {
        let (v, pos) = chess_at(fen);
        let m = uci(v, &pos, mv);
        with_worker(v, &TranspositionTable::new(1), |w| {
            let score = w.pawn_threat_score(&pos, m, w.pawn_threats(&pos));
            assert_eq!(score.signum(), sign, "{fen}: {mv}");
        });
    }
}

/// Singular extension asks whether the table's move is the only good one, by a search without
/// it: `exd4`, taking a queen, is the only move that does not leave White a queen down, so it is
/// extended; any queen move of a lone queen keeps White's whole lead, so the other moves beat a
/// beta well below the entry's score and the node is cut there; in the start position `e2e4`
/// is one good move among several, neither extended nor cut.
#[test]
fn singular_extension_extends_the_only_move_and_cuts_where_others_refute() {
    use super::alphabeta::{Node, NodeKind};
    use super::pruning::Singular;
    use super::tt::{Bound, TtEntry};
    let ask = |fen: &str, mv: &str, score: i32, beta: i32| {
        let (v, pos) = chess_at(fen);
        let m = uci(v, &pos, mv);
        let entry = TtEntry {
            mv: m,
            score,
            depth: 9,
            bound: Bound::Lower,
        };
        let node = Node {
            depth: 10,
            ply: 1,
            kind: NodeKind::Cut,
            in_check: false,
            excluded: Move::NULL,
            singular: Move::NULL,
        };
        let mut moves = MoveList::new();
        v.legal_moves(&pos, &mut moves);
        let mut found = None;
        with_worker(v, &TranspositionTable::new(1), |w| {
            w.root_depth = 10;
            found = Some(match w.singular(&pos, node, Some(entry), &moves, beta) {
                Singular::No => "no".to_string(),
                Singular::Extend => "extend".to_string(),
                Singular::Cut(s) => format!("cut {s}"),
            });
            assert_eq!(w.excluded[1], Move::NULL, "the left-out move is cleared");
        });
        found.unwrap()
    };
    assert_eq!(
        ask("4k3/8/8/8/3q4/4P3/8/4K3 w - - 0 1", "e3d4", 100, 100),
        "extend"
    );
    // Singular beta: 800 - 2 x 10.
    assert_eq!(
        ask("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", "a1a2", 800, 500),
        "cut 780"
    );
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(ask(start, "e2e4", 30, 100), "no");
}

/// ProbCut, asked at a non-PV node of depth 6: where White, a queen down, takes the queen with a
/// pawn (its exchange, 900, lifts the evaluation past a raised beta of -200 + 200 = 0), the
/// shallower search confirms it and the node ends at or above that raised beta, with the capture
/// stored as a lower bound; where the beta is so high that no capture's exchange reaches it, or
/// on a PV line, or with no capture at all, nothing is cut.
#[test]
fn probcut_cuts_on_a_capture_that_clears_a_raised_beta() {
    use super::alphabeta::{Node, NodeKind};
    use super::tt::Bound;
    let ask = |fen: &str, beta: i32, kind: NodeKind| {
        let (v, pos) = chess_at(fen);
        let node = Node {
            depth: 6,
            ply: 1,
            kind,
            in_check: false,
            excluded: Move::NULL,
            singular: Move::NULL,
        };
        let mut moves = MoveList::new();
        v.legal_moves(&pos, &mut moves);
        let tt = TranspositionTable::new(1);
        let mut found = None;
        with_worker(v, &tt, |w| {
            w.root_depth = 6;
            let eval = w.static_eval(&pos);
            found = Some(w.probcut(&pos, node, &moves, beta, eval, None));
        });
        let stored = tt.probe(pos.hash()).map(|e| (e.mv, e.bound));
        (
            found.unwrap(),
            stored.map(|(m, b)| (m == uci(v, &pos, "e3d4"), b)),
        )
    };
    let queen_down = "4k3/8/8/8/3q4/4P3/8/4K3 w - - 0 1";
    let (cut, stored) = ask(queen_down, -200, NodeKind::Cut);
    assert!(
        cut.is_some_and(|s| s >= 0),
        "cut at the raised beta: {cut:?}"
    );
    assert_eq!(stored, Some((true, Bound::Lower)));
    assert_eq!(
        ask(queen_down, 1_000, NodeKind::Cut).0,
        None,
        "no exchange reaches it"
    );
    assert_eq!(
        ask(queen_down, -200, NodeKind::Pv).0,
        None,
        "not on a PV line"
    );
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(ask(start, -500, NodeKind::Cut).0, None, "no capture");
}

/// Razoring, asked of nodes near the horizon: at depth 3 the static evaluation must lie more
/// than 300 + 150 x 3² = 1,650 below alpha; never on PV lines, in check, deeper than 3 plies or
/// against a mate score.
#[test]
fn razoring_needs_an_evaluation_far_below_alpha_near_the_horizon() {
    use super::alphabeta::{Node, NodeKind};
    use super::pruning::razor;
    let node = Node {
        depth: 3,
        ply: 4,
        kind: NodeKind::Cut,
        in_check: false,
        excluded: Move::NULL,
        singular: Move::NULL,
    };
    assert!(razor(node, 0, -1_651));
    assert!(!razor(node, 0, -1_650));
    assert!(!razor(
        Node {
            kind: NodeKind::Pv,
            ..node
        },
        0,
        -5_000
    ));
    assert!(!razor(
        Node {
            in_check: true,
            ..node
        },
        0,
        -5_000
    ));
    assert!(!razor(Node { depth: 4, ..node }, 0, -5_000));
    assert!(razor(Node { depth: 1, ..node }, 0, -451));
    assert!(!razor(node, MATE - 5, 0));
}

/// An iteration stopped part way answers with a move it has proven better than the last
/// finished iteration's. In Win at Chess's first position the search to depth 4 prefers Nh5;
/// at depth 5, Qg6 (mate in 2) beats Nh5 by far once Nh5 is searched. 6,000 nodes stop the
/// search inside iteration 5 (depth 4 takes fewer, depth 5 more: both checked here), after
/// Qg6 has beaten the window, so the answer is Qg6 and not the finished iteration's Nh5.
#[test]
fn a_stopped_iteration_answers_with_a_move_it_proved_better() {
    let (v, pos) = chess_at("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    let run = |limits: Limits| quick_search(v, &pos, &limits, &TranspositionTable::new(1));
    let to_depth = |d| Limits {
        depth: Some(d),
        ..Default::default()
    };
    let (depth4, depth5) = (run(to_depth(4)), run(to_depth(5)));
    assert!(depth4.nodes < 6_000 && depth5.nodes > 6_000);
    assert_eq!(depth4.best, Some(uci(v, &pos, "f6h5")));
    assert_eq!(depth5.best, Some(uci(v, &pos, "g3g6")));
    let stopped = run(Limits {
        nodes: Some(6_000),
        ..Default::default()
    });
    assert_eq!(stopped.best, Some(uci(v, &pos, "g3g6")));
}

/// A null move's cut is verified at depth: in `kbK5/pp6/1P6/8/8/8/8/R7 w` 1.Ra6! mates in 2 by
/// zugzwang (1...bxa6 2.b7#, any bishop move 2.Rxa7#), and Black's only "defence" is to pass.
/// Without the verification Black's null move cuts every iteration until depth 24; with it the
/// mate (three plies) is found by depth 14 (11 today).
#[test]
fn a_mate_by_zugzwang_survives_the_null_move() {
    let (v, pos) = chess_at("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1");
    let limits = Limits {
        depth: Some(14),
        ..Default::default()
    };
    let r = quick_search(v, &pos, &limits, &TranspositionTable::new(16));
    assert_eq!(r.best, Some(uci(v, &pos, "a1a6")));
    assert_eq!(r.score, MATE - 3);
}

/// The null move at a cut node, White three knights against a rook: with a White pawn on a2,
/// Ra1 is not at hand and passing still leaves White far ahead (a cut); without it, Black
/// answers a pass with Ra1 mate (White's knights cannot reach the first rank), so the null move
/// finds a threat.
#[test]
fn the_null_move_cuts_or_finds_a_threat() {
    use super::alphabeta::{Node, NodeKind};
    use super::pruning::NullMove;
    let ask = |fen: &str| {
        let (v, pos) = chess_at(fen);
        let node = Node {
            depth: 6,
            ply: 1,
            kind: NodeKind::Cut,
            in_check: false,
            excluded: Move::NULL,
            singular: Move::NULL,
        };
        let mut found = None;
        with_worker(v, &TranspositionTable::new(1), |w| {
            w.root_depth = 6;
            let eval = w.static_eval(&pos);
            assert!(eval > 0, "White is ahead: {eval}");
            found = Some(w.null_move(&pos, node, 0, eval));
        });
        found.unwrap()
    };
    assert!(matches!(
        ask("r5k1/5ppp/8/2NNN3/8/8/P4PPP/6K1 w - - 0 1"),
        NullMove::Cut(s) if s > 0
    ));
    assert_eq!(
        ask("r5k1/5ppp/8/2NNN3/8/8/5PPP/6K1 w - - 0 1"),
        NullMove::Refuted
    );
}

/// The searches of a game share one evaluation, built at the first; another game gets its own,
/// which evaluates as one built afresh.
#[test]
fn a_games_searches_share_its_evaluation() {
    let mut tables = SearchTables::new();
    let chess = variants::by_name("chess").unwrap();
    let first = tables.eval_for(chess);
    assert!(Arc::ptr_eq(&first, &tables.eval_for(chess)));
    let divergent = variants::by_name("divergent").unwrap();
    let kept = tables.eval_for(divergent);
    assert!(!Arc::ptr_eq(&first, &kept));
    let pos = divergent.start_position();
    let fresh = Eval::new(divergent);
    for pov in [Color::White, Color::Black] {
        assert_eq!(
            kept.evaluate(divergent, &pos, pov),
            fresh.evaluate(divergent, &pos, pov)
        );
    }
}

/// A static evaluation improves when it is above the same player's two plies before; one not
/// known there (check, the root), or from another player's point of view, counts as improving.
#[test]
fn improving_compares_with_the_same_player_two_plies_before() {
    let v = variants::by_name("chess").unwrap();
    let tt = TranspositionTable::new(1);
    let white_to_move = v.start_position();
    with_worker(v, &tt, |w| {
        assert!(w.improving(&white_to_move, 1, -500), "no ply two before");
        assert!(
            w.improving(&white_to_move, 2, -500),
            "not known at the root"
        );
        w.evals[2] = Some((Color::White, 30));
        assert!(w.improving(&white_to_move, 4, 31));
        assert!(!w.improving(&white_to_move, 4, 30));
        assert!(!w.improving(&white_to_move, 4, -10));
        w.evals[2] = Some((Color::Black, 30));
        assert!(
            w.improving(&white_to_move, 4, -10),
            "another player's evaluation"
        );
    });
}

/// Each game's worker prunes late moves in the degree its switch asks for: FIDE chess
/// selectively, Divergent as before (its switch is off). The selective degree prunes deeper, and
/// after fewer moves where the evaluation is not improving.
#[test]
fn late_move_pruning_follows_the_games_selectivity() {
    use super::pruning::{PLAIN, SELECTIVE};
    let tt = TranspositionTable::new(1);
    with_worker(variants::by_name("chess").unwrap(), &tt, |w| {
        assert_eq!(*w.selectivity, SELECTIVE);
    });
    with_worker(variants::by_name("divergent").unwrap(), &tt, |w| {
        assert_eq!(*w.selectivity, PLAIN);
    });
    // Depth 6: beyond the plain degree's depth 4; 5 + 36 quiet moves while improving, half
    // (20) while not.
    assert!(!PLAIN.late_move_prune(6, 100, true));
    assert!(SELECTIVE.late_move_prune(6, 41, true));
    assert!(!SELECTIVE.late_move_prune(6, 40, true));
    assert!(SELECTIVE.late_move_prune(6, 20, false));
    assert!(!SELECTIVE.late_move_prune(6, 19, false));
    // Depth 2: the plain degree's 3 + 4 moves, improving or not.
    assert!(PLAIN.late_move_prune(2, 7, false));
    assert!(!PLAIN.late_move_prune(2, 6, false));
}

/// Late-move reductions by degree: the selective one reduces from the second move on and quiet
/// checks too, the plain one from the fourth and never a check. In FIDE chess (selective), at an
/// all node of depth 8 with no history: the third move (index 2) by 0.75 + ln 8 ln 2 / 1.75 =
/// 1.57, so 1 ply; a quiet check at index 10 by 0.75 + ln 8 ln 10 / 1.75 = 3.49, a ply less: 2.
#[test]
fn late_move_reductions_follow_the_games_selectivity() {
    use super::alphabeta::{Node, NodeKind};
    use super::pruning::{PLAIN, SELECTIVE};
    assert!(SELECTIVE.may_reduce(1, false) && SELECTIVE.may_reduce(1, true));
    assert!(!SELECTIVE.may_reduce(0, false));
    assert!(!PLAIN.may_reduce(2, false) && PLAIN.may_reduce(3, false));
    assert!(!PLAIN.may_reduce(30, true));
    // White's Bf1-b5 checks the king on e8; Ng1-f3 does not.
    let (v, pos) = chess_at("4k3/8/8/8/8/8/8/4KBN1 w - - 0 1");
    let node = Node {
        depth: 8,
        ply: 1,
        kind: NodeKind::All,
        in_check: false,
        excluded: Move::NULL,
        singular: Move::NULL,
    };
    let (check, quiet) = (uci(v, &pos, "f1b5"), uci(v, &pos, "g1f3"));
    with_worker(v, &TranspositionTable::new(1), |w| {
        assert_eq!(
            w.late_move_reduction(&pos, node, quiet, 2, true, false, 7),
            1
        );
        assert_eq!(
            w.late_move_reduction(&pos, node, check, 10, true, true, 7),
            2
        );
        assert_eq!(
            w.late_move_reduction(&pos, node, quiet, 0, true, false, 7),
            0
        );
    });
}
