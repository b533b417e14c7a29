use super::*;
use crate::core::rng::SplitMix;
use crate::variants;

/// Positions of seeded random chess games, every one of them (quiet or not).
fn random_positions(v: &dyn Variant, games: usize, plies: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = v.start_position();
        for _ in 0..plies {
            let mut moves = MoveList::new();
            v.legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos = v.play(&pos, moves.as_slice()[rng.below(moves.len())]);
            out.push(pos.clone());
        }
    }
    out
}

/// A value most positions carry is fitted with or without the penalty; a value that one
/// position alone carries runs as far as Adam's steps take it without the penalty, and stays
/// near where it started with it.
#[test]
fn the_penalty_holds_back_values_few_positions_carry() {
    let v = variants::by_name("chess").unwrap();
    let (_, start) = Params::for_variant(v);
    // Labels made with the pawn's starting value, so that the scale K comes out near 1.
    let (common, rare) = (
        start.find("value.pawn").unwrap(),
        start.find("rank.king.7").unwrap(),
    );
    let truth = f64::from(start.value(common).0);
    let mut rng = SplitMix(3);
    let features = |i: usize, c: f32| Features {
        coef: vec![(i as u32, c)],
        phase: 1.0,
        fixed: 0.0,
    };
    let mut samples: Vec<Sample> = (0..4000)
        .map(|n| {
            let c = if n % 2 == 0 { 1.0 } else { -1.0 };
            let p = sigmoid(1.0, truth * f64::from(c));
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            Sample {
                features: features(common, c),
                result: if u < p { 1.0 } else { 0.0 },
            }
        })
        .collect();
    samples.push(Sample {
        features: features(rare, 1.0),
        result: 1.0,
    });
    let fit = |regularize| {
        let options = Options {
            epochs: 300,
            rate: 4.0,
            regularize,
            min_weight: 0.0,
            holdout: 0.0,
            blend: 1.0,
        };
        let params = tune(&samples, &start, &[], options, &[], |_, _, _| {}).params;
        (params.value(common).0, params.value(rare).0)
    };
    let (free_common, free_rare) = fit(0.0);
    let (held_common, held_rare) = fit(Options::default().regularize);
    for c in [free_common, held_common] {
        assert!(
            (f64::from(c) - truth).abs() < 40.0,
            "pawn {c}, labels made with {truth}"
        );
    }
    assert!(free_rare > 300, "without the penalty: {free_rare}");
    assert!(held_rare.abs() < 200, "with the penalty: {held_rare}");
}

/// Labels drawn from the logistic of a hand-set evaluation, in which a knight is worth far more
/// than a bishop (the defaults say the opposite) and a passed pawn much: the tuner, started
/// from the defaults, finds the order of the hand-set values.
#[test]
fn the_tuner_recovers_the_order_of_the_values_that_made_the_labels() {
    let v = variants::by_name("chess").unwrap();
    let (layout, start) = Params::for_variant(v);
    let mut truth = start.clone();
    let set = |p: &mut Params, name: &str, mg: i32, eg: i32| {
        let i = p.find(name).unwrap();
        p.set(i, mg, eg);
    };
    set(&mut truth, "value.knight", 600, 600);
    set(&mut truth, "value.bishop", 200, 200);
    set(&mut truth, "value.rook", 450, 450);
    set(&mut truth, "value.queen", 1000, 1000);
    set(&mut truth, "mobility.queen", 0, 0);
    let true_eval = Eval::with_params(v, &layout, &truth);
    let eval = Eval::with_params(v, &layout, &start);
    let mut rng = SplitMix(11);
    let samples: Vec<Sample> = random_positions(v, 400, 60, 5)
        .iter()
        .map(|pos| {
            let s = sample(v, &true_eval, &layout, pos, 0.0);
            let p = sigmoid(1.0, s.features.score(&truth));
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let mut s = sample(v, &eval, &layout, pos, if u < p { 1.0 } else { 0.0 });
            s.features.fixed = 0.0;
            s
        })
        .collect();
    assert!(samples.len() > 10_000);
    let options = Options {
        epochs: 300,
        rate: 4.0,
        min_weight: 0.0,
        holdout: 0.0,
        blend: 1.0,
        ..Options::default()
    };
    let values: Vec<usize> = layout.value.iter().flatten().copied().collect();
    let fit = tune(&samples, &start, &values, options, &[], |_, _, _| {});
    let value = |name: &str| {
        let (mg, eg) = fit.params.value(fit.params.find(name).unwrap());
        (mg + eg) / 2
    };
    let (n, b, r, q) = (
        value("value.knight"),
        value("value.bishop"),
        value("value.rook"),
        value("value.queen"),
    );
    assert!(fit.loss_after < fit.loss_before, "{fit:?}");
    assert!(n > b + 150, "knight {n}, bishop {b}");
    assert!(q > r && r > b, "queen {q}, rook {r}, bishop {b}");
    assert!((0.5..2.0).contains(&fit.k), "K {}", fit.k);
}

#[test]
fn results_are_read_in_every_form_texel_data_uses() {
    for (text, r) in [
        ("\"1-0\";", Some(1.0)),
        ("\"0-1\"", Some(0.0)),
        ("\"1/2-1/2\";", Some(0.5)),
        ("[1.0]", Some(1.0)),
        ("[0.5]", Some(0.5)),
        ("[0-1]", Some(0.0)),
        ("[0.7]", Some(0.7)),
        ("\"0.2500\";", Some(0.25)),
        ("[1.5]", None),
        ("[-0.1]", None),
        ("[NaN]", None),
        ("\"*\"", None),
        ("", None),
    ] {
        assert_eq!(parse_result(text), r, "{text}");
    }
    let v = variants::by_name("chess").unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let (pos, r) = parse_epd_line(v, &format!("{start} c9 \"0-1\";"))
        .unwrap()
        .unwrap();
    assert_eq!((v.fen(&pos), r), (v.fen(&v.start_position()), 0.0));
    let (_, r) = parse_epd_line(v, &format!("{start} 0 1 [0.5]"))
        .unwrap()
        .unwrap();
    assert_eq!(r, 0.5);
    assert_eq!(parse_epd_line(v, "  # comment").unwrap(), None);
    for bad in [
        start.to_string(),
        format!("{start} c9 \"2-0\";"),
        "rnbqkbnr/pppppppp/8/8 w - - c9 \"1-0\";".to_string(),
        "[1.0]".to_string(),
    ] {
        assert!(parse_epd_line(v, &bad).is_err(), "{bad}");
    }
}

#[test]
fn a_position_with_a_winning_capture_or_in_check_is_not_quiet() {
    let v = variants::by_name("chess").unwrap();
    let eval = Eval::new(v);
    let q = |fen: &str| quiet(v, &eval, &v.parse_fen(fen).unwrap());
    assert!(q(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    ));
    // White's knight takes a hanging queen.
    assert!(!q("4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1"));
    // The same with Black to move: Black's queen takes nothing, and is not attacked... but the
    // side to move has no winning capture, so it is quiet.
    assert!(q("4k3/8/8/3q4/8/4N3/8/4K3 b - - 0 1"));
    // In check.
    assert!(!q("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"));
}

#[test]
fn parameter_files_are_written_whole_and_read_back() {
    let v = variants::by_name("afterlife").unwrap();
    let (layout, mut params) = Params::for_variant(v);
    params.set(layout.tempo, 3, 33);
    let dir = std::env::temp_dir().join(format!("menagerie-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("afterlife.txt");
    std::fs::write(&path, "old").unwrap();
    write_atomic(&path, &params.to_text("tuned")).unwrap();
    let (_, mut back) = Layout::new(v);
    back.read(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(back, params);
    assert!(!dir.join("afterlife.txt.tmp").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A value seen in too few positions, or only in the other phase, keeps its starting value;
/// one with enough evidence moves.
#[test]
fn values_without_enough_evidence_stay() {
    let v = variants::by_name("chess").unwrap();
    let (_, start) = Params::for_variant(v);
    let knight = start.find("value.knight").unwrap();
    let bishop = start.find("value.bishop").unwrap();
    // White a knight up wins nine games in ten, a rook up only half: all middlegame. A bishop
    // up, five games.
    let one = |i: usize, phase: f64, result: f64| Sample {
        features: Features {
            coef: vec![(i as u32, 1.0)],
            phase,
            fixed: 0.0,
        },
        result,
    };
    let rook = start.find("value.rook").unwrap();
    let mut samples: Vec<Sample> = (0..1000)
        .map(|i| one(knight, 1.0, if i % 10 == 0 { 0.0 } else { 1.0 }))
        .chain((0..1000).map(|i| one(rook, 1.0, if i % 2 == 0 { 0.0 } else { 1.0 })))
        .collect();
    samples.extend((0..5).map(|_| one(bishop, 0.5, 1.0)));
    let ev = evidence(&samples, start.len());
    assert_eq!(ev[knight], [1000.0, 0.0]);
    assert_eq!(ev[bishop], [2.5, 2.5]);
    let options = Options {
        epochs: 50,
        rate: 2.0,
        min_weight: 100.0,
        holdout: 0.0,
        blend: 1.0,
        regularize: 0.0,
    };
    let fit = tune(&samples, &start, &[], options, &[], |_, _, _| {});
    let (n0, b0) = (start.value(knight), start.value(bishop));
    let (n1, b1) = (fit.params.value(knight), fit.params.value(bishop));
    assert!(
        n1.0 > n0.0 + 50,
        "the knight's middlegame value moves: {n0:?} -> {n1:?}"
    );
    assert_eq!(n1.1, n0.1, "no endgame evidence for the knight");
    assert_eq!(b1, b0, "five positions are not enough for the bishop");
    let free = Options {
        min_weight: 0.0,
        ..options
    };
    let fit = tune(&samples, &start, &[], free, &[], |_, _, _| {});
    assert_ne!(
        fit.params.value(bishop),
        b0,
        "without the floor the bishop moves"
    );
}
