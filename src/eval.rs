//! Static evaluation for any registered variant: material, and piece-square terms derived from
//! the rules (how many squares a piece reaches from each square of an empty board, and how far a
//! pawn has come) and square tables the tuner fits (by rank, by file and by square, both wings
//! shared), mobility (and the part of it enemy pawns do not attack), king safety (shield,
//! tropism, the squares pieces reach next to the enemy king, the danger of several attackers
//! together, safe checks, and the pawns that shelter a king or storm it), pawn structure
//! (passed pawns by rank, with their path and the kings' distances; phalanxes and defended
//! pawns), pairs of a kind, pieces riding along open files, outposts, threats, and the game's
//! own terms (`SearchSwitches::eval_terms`). Values are in centipawns from the side to move's
//! point of view. What depends on the pawn-like and royal pieces alone can be kept in a pawn
//! cache (`PawnCache`), and whole evaluations in an evaluation cache (`EvalCache`), one of each
//! per search thread.
//!
//! The evaluation is tapered: every weight has a middlegame and an endgame value, blended by the
//! game's phase, which is the material of the pieces on the board (neither pawn-like nor royal,
//! at their default values) against that of the start position.
//!
//! Every weight is a named parameter ([`Params`]): the shared defaults below, replaced by what
//! the game's parameter file sets (`src/eval/params/<game>.txt`, compiled in), which the tuner
//! (`menagerie tune`) writes. Every term but mop-up is a weight times a feature of the position.

mod cache;
mod params;
mod pawn_cache;

pub(crate) use cache::EvalCache;
pub use params::{shipped_file, value_table, ParamError, Params, TABLE_BEGIN, TABLE_END};
pub(crate) use pawn_cache::PawnCache;

use crate::board::Position;
use crate::core::{Bitboard, Color, KindSet, PieceKind, Square, MAX_KINDS, MAX_RANKS, NUM_SQUARES};
use crate::rules::{Direction, Rules};
use crate::variants::switches::GameTerm;
use crate::variants::Variant;

/// Default value of a piece per square it reaches on average on an empty board. Fitted so that
/// a knight (5.25 squares on 8x8) comes out near 320 and a queen (22.75) near 900.
const VALUE_PER_MOBILITY: i32 = 33;
/// Default value of a piece that reaches no square at all, in the same fit.
const VALUE_BASE: i32 = 146;
/// Default value of a pawn-like piece whose value the catalogue does not give.
const PAWN_VALUE: i32 = 100;
/// Default bonus per square a piece reaches from its square, above its average, on an empty
/// board (royal pieces: none).
const CENTRALITY_WEIGHT: i32 = 3;
/// Default bonus per rank a pawn has advanced.
const PAWN_ADVANCE: i32 = 6;
/// Default bonus for having the move.
const TEMPO: i32 = 10;
/// Default bonus per square a piece can move to or capture on, with the real board.
const MOBILITY_WEIGHT: i32 = 2;
/// Default bonus per square a piece reaches that no enemy pawn-like piece attacks, beside the
/// plain mobility: none until a game's file sets it.
const MOBILITY_SAFE: i32 = 0;
/// Default bonus per own piece next to one's royal piece (a shield).
const KING_SHIELD: i32 = 6;
/// Default penalty per enemy piece (not pawn-like) within two squares of one's royal piece.
const KING_TROPISM: i32 = -12;
/// Default pawn structure, for pawn-like pieces: per extra pawn on a file, per pawn with no own
/// pawn on a neighbouring file, and for a passed pawn a base plus a bonus per rank advanced.
const DOUBLED_PAWN: i32 = -12;
const ISOLATED_PAWN: i32 = -10;
const PASSED_PAWN: i32 = 10;
const PASSED_PAWN_PER_RANK: i32 = 8;
/// Default bonus for two or more pieces of a kind, and for a piece that rides along files on a
/// file without pawns (open) or without own pawns (half-open): none until a game's file sets
/// them.
const PAIR: i32 = 0;
const OPEN_FILE: i32 = 0;
const HALF_OPEN_FILE: i32 = 0;
/// Default bonus per square a piece reaches next to the enemy royal piece (or on its square):
/// none until a game's file sets it.
const KING_ATTACK: i32 = 0;
/// Default bonus per enemy piece (neither royal nor pawn-like) that one's pawn-like pieces
/// attack, per one (neither royal nor pawn-like) that a cheaper piece attacks (neither royal nor
/// pawn-like), and per enemy piece (not royal) attacked and not defended: none until a game's
/// file sets them.
const THREAT_BY_PAWN: i32 = 0;
const THREAT_BY_LESSER: i32 = 0;
const HANGING: i32 = 0;
/// Default passed-pawn terms beyond the base and the bonus per rank: a bonus by the rank a
/// passed pawn stands on (a table, as the value of a passer grows faster than its rank), per
/// rank advanced when the square ahead is empty, per rank advanced times the distance of the
/// own and of the enemy royal piece to the square ahead; and per pawn with an own pawn beside
/// it (a phalanx) and per pawn an own pawn defends: none until a game's file sets them.
const PAWN_EXTRA: i32 = 0;
/// Default king danger, per unit of (pieces reaching the enemy royal piece's neighbourhood
/// times the squares of it they reach) / `KING_DANGER_DIVISOR`: none until a game's file sets
/// it. A lone piece near the king is little danger; several together are much more than the
/// sum, which the linear king-attack term cannot say.
const KING_DANGER: i32 = 0;
const KING_DANGER_DIVISOR: i32 = 4;
/// Default bonus per piece on an outpost: a square in the enemy half that an own pawn-like
/// piece defends and no enemy pawn-like piece can come to attack (none stands on a
/// neighbouring file ahead of it): none until a game's file sets it.
const OUTPOST: i32 = 0;
/// Default bonus per safe check of a kind: a square from which a piece of the kind would attack
/// the enemy royal piece, which one reaches and the enemy does not attack: none until a game's
/// file sets it.
const SAFE_CHECK: i32 = 0;
/// Default pawn shelter and storm in front of the royal piece, per file next to it and its own
/// ([`Eval::shelter_counts`]): none until a game's file sets them.
const SHELTER: i32 = 0;
/// The shelter and storm terms: an own pawn-like piece 1, 2, or 3 or more ranks ahead of the
/// royal piece (the nearest on the file), none on the file ahead of it; the nearest enemy
/// pawn-like piece 1 to 4 ranks ahead, and that one standing right in front of the nearest own
/// one (a blocked storm, which cannot come on).
const SHELTER_NAMES: [&str; 9] = [
    "shelter.1",
    "shelter.2",
    "shelter.3",
    "shelter_open",
    "storm.1",
    "storm.2",
    "storm.3",
    "storm.4",
    "storm_blocked",
];
/// Where `shelter_open`, the storm terms and `storm_blocked` stand in [`SHELTER_NAMES`].
const SHELTER_OPEN: usize = 3;
const STORM: usize = 4;
const STORM_BLOCKED: usize = 8;
/// The farthest an enemy pawn-like piece stands ahead of the royal piece, in ranks, to count as
/// a storm.
const STORM_REACH: u8 = 4;
/// The names of the pawn terms after the passed-pawn table, in the order of
/// [`PawnCounts::extras`].
const PAWN_EXTRA_NAMES: [&str; 5] = [
    "passed_free",
    "passed_king_own",
    "passed_king_enemy",
    "phalanx_pawn",
    "supported_pawn",
];
/// Material lead from which a side with only royal pieces left is hunted (mop-up). Mop-up is
/// not a weight times a feature (it depends on the score), so it is not a parameter: the tuner
/// leaves it as it is.
const MOPUP_LEAD: i32 = 300;
/// Mop-up: bonus per step the lone royal piece stands from the centre...
const MOPUP_EDGE: i32 = 20;
/// ...and per step the attacking royal piece stands closer to it.
const MOPUP_CLOSE: i32 = 8;
/// The most terms a game may bring (`SearchSwitches::eval_terms`).
pub const MAX_GAME_TERMS: usize = 16;

/// Where each parameter of a game stands in its [`Params`]: the shared terms, then the game's.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Per kind: its value (royal kinds have none).
    pub value: [Option<usize>; MAX_KINDS],
    /// Per kind: the weight of its placement feature ([`Layout::placement_feature`]).
    pub placement: [Option<usize>; MAX_KINDS],
    /// Per kind counted for mobility: the weight per square reached.
    pub mobility: [Option<usize>; MAX_KINDS],
    /// Per kind: the first parameter of its square table, which is a bonus per rank (counted
    /// from the piece's side) plus a bonus per file (counted from the nearer edge, so the
    /// table is the same on both wings), plus a bonus per square (rank and file counted so):
    /// `rank.<kind>.<n>`, `file.<kind>.<n>`, `square.<kind>.<rank>.<file>`, from 1.
    pub square_table: [Option<usize>; MAX_KINDS],
    pub tempo: usize,
    pub king_shield: usize,
    pub king_tropism: usize,
    pub doubled_pawn: usize,
    pub isolated_pawn: usize,
    pub passed_pawn: usize,
    pub passed_pawn_rank: usize,
    /// Per kind counted for mobility: the weight per square of the enemy royal piece's
    /// neighbourhood reached (`king_attack.<kind>`).
    pub king_attack: [Option<usize>; MAX_KINDS],
    /// Per kind counted for mobility, in a game with pawn-like kinds: the weight per square
    /// reached that no enemy pawn-like piece attacks (`mobility_safe.<kind>`).
    pub mobility_safe: [Option<usize>; MAX_KINDS],
    /// Per kind counted for mobility: the bonus per safe check (`safe_check.<kind>`).
    pub safe_check: [Option<usize>; MAX_KINDS],
    /// Per kind counted for mobility: the bonus for two or more (`pair.<kind>`).
    pub pair: [Option<usize>; MAX_KINDS],
    /// Per kind counted for mobility, in a game with pawn-like kinds: the bonus per piece on an
    /// outpost (`outpost.<kind>`).
    pub outpost: [Option<usize>; MAX_KINDS],
    /// Per kind that rides both ways along files, in a game with pawns: the bonus on a file
    /// without pawns and on one without own pawns (`open_file.<kind>`, `half_open_file.<kind>`).
    pub open_file: [Option<usize>; MAX_KINDS],
    pub half_open_file: [Option<usize>; MAX_KINDS],
    /// Threats: enemy pieces attacked by pawn-like pieces, by cheaper pieces, and attacked
    /// but not defended (`Eval::threat_counts`).
    pub threats: [usize; 3],
    /// The first of the passed-pawn table by rank (`passed_rank.<n>`, rank counted from the
    /// pawn's side, from 1), and the other pawn terms ([`PawnCounts`]'s last five, in order).
    pub passed_rank: usize,
    pub pawn_extras: [usize; 5],
    pub king_danger: usize,
    /// In a game with pawn-like kinds: the first of the shelter and storm terms
    /// ([`SHELTER_NAMES`], in order).
    pub shelter: Option<usize>,
    /// The first of the game's own terms, which follow in their order.
    pub game: usize,
    pub game_terms: &'static [GameTerm],
    /// Per kind: what a piece adds to the phase (its default value; 0 for pawn-like and royal
    /// kinds), and the phase of the start position, where the middlegame weights count fully.
    pub phase_value: [i32; MAX_KINDS],
    pub max_phase: i32,
    /// Per (colour, kind, square): the placement feature, how many squares a piece reaches
    /// there on an empty board above its average (rounded), or for a pawn-like kind its rank
    /// counted from its side.
    placement_feature: Vec<i32>,
    /// Per (colour, kind, square): the rank, file and square parameters of its square table.
    square_params: Vec<[u32; 3]>,
}

/// The names of the kinds (not the movement templates) in parameter names: lower case, words joined by `_`; a name two kinds share
/// is told apart by the kind's number.
fn kind_names(rules: &Rules) -> Vec<String> {
    let base: Vec<String> = rules.kinds[..rules.num_kinds()]
        .iter()
        .map(|k| {
            k.spec
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_lowercase()
                    } else {
                        '_'
                    }
                })
                .collect()
        })
        .collect();
    base.iter()
        .enumerate()
        .map(|(i, n)| {
            if base.iter().filter(|m| *m == n).count() > 1 {
                format!("{n}_{i}")
            } else {
                n.clone()
            }
        })
        .collect()
}

impl Layout {
    /// The parameters of `variant` with the shared defaults (before its file is read), and
    /// where each stands.
    pub fn new(variant: &dyn Variant) -> (Layout, Params) {
        let rules = variant.rules();
        let board = rules.geometry().board();
        let names = kind_names(rules);
        let mut params = Params::default();
        let mut value = [None; MAX_KINDS];
        let mut placement = [None; MAX_KINDS];
        let mut mobility = [None; MAX_KINDS];
        let mut placement_feature = vec![0; 3 * MAX_KINDS * NUM_SQUARES];
        let mut square_table = [None; MAX_KINDS];
        let mut square_params = vec![[0; 3]; 3 * MAX_KINDS * NUM_SQUARES];
        let mut phase_value = [0; MAX_KINDS];
        for (ki, info) in rules.kinds.iter().enumerate().take(rules.num_kinds()) {
            let kind = PieceKind(ki as u8);
            let total: u32 = board
                .into_iter()
                .map(|s| empty_reach(rules, Color::White, kind, s))
                .sum();
            let avg = total as f64 / board.count().max(1) as f64;
            let spec = &info.spec;
            if !spec.royal {
                let v = if spec.value != 0 {
                    spec.value
                } else if spec.pawn {
                    PAWN_VALUE
                } else {
                    VALUE_PER_MOBILITY * avg.round() as i32 + VALUE_BASE
                };
                value[ki] = Some(params.push(format!("value.{}", names[ki]), v));
                if !spec.pawn {
                    phase_value[ki] = v;
                }
            }
            let (name, weight) = if spec.pawn {
                ("advance", PAWN_ADVANCE)
            } else if spec.royal {
                ("centrality", 0)
            } else {
                ("centrality", CENTRALITY_WEIGHT)
            };
            placement[ki] = Some(params.push(format!("{name}.{}", names[ki]), weight));
            for c in Color::ALL {
                for sq in board {
                    placement_feature[index(c, kind, sq)] = if spec.pawn {
                        rules.geometry().relative_rank(c, sq) as i32
                    } else {
                        (empty_reach(rules, c, kind, sq) as f64 - avg).round() as i32
                    };
                }
            }
            let first = push_square_table(&mut params, rules, &names[ki]);
            square_table[ki] = Some(first);
            for c in Color::ALL {
                for sq in board {
                    square_params[index(c, kind, sq)] = square_table_params(rules, first, c, sq);
                }
            }
        }
        for k in mobile_kinds(rules) {
            mobility[k.index()] =
                Some(params.push(format!("mobility.{}", names[k.index()]), MOBILITY_WEIGHT));
        }
        let tempo = params.push("tempo".into(), TEMPO);
        let king_shield = params.push("king_shield".into(), KING_SHIELD);
        let king_tropism = params.push("king_tropism".into(), KING_TROPISM);
        let doubled_pawn = params.push("doubled_pawn".into(), DOUBLED_PAWN);
        let isolated_pawn = params.push("isolated_pawn".into(), ISOLATED_PAWN);
        let passed_pawn = params.push("passed_pawn".into(), PASSED_PAWN);
        let passed_pawn_rank = params.push("passed_pawn_rank".into(), PASSED_PAWN_PER_RANK);
        let mut king_attack = [None; MAX_KINDS];
        let mut pair = [None; MAX_KINDS];
        let mut safe_check = [None; MAX_KINDS];
        let mut mobility_safe = [None; MAX_KINDS];
        let mut outpost = [None; MAX_KINDS];
        let mut open_file = [None; MAX_KINDS];
        let mut half_open_file = [None; MAX_KINDS];
        for k in mobile_kinds(rules) {
            let name = &names[k.index()];
            pair[k.index()] = Some(params.push(format!("pair.{name}"), PAIR));
            king_attack[k.index()] = Some(params.push(format!("king_attack.{name}"), KING_ATTACK));
            safe_check[k.index()] = Some(params.push(format!("safe_check.{name}"), SAFE_CHECK));
            if rules.pawns.nonempty() {
                outpost[k.index()] = Some(params.push(format!("outpost.{name}"), OUTPOST));
                mobility_safe[k.index()] =
                    Some(params.push(format!("mobility_safe.{name}"), MOBILITY_SAFE));
            }
        }
        for k in file_riders(rules) {
            let name = &names[k.index()];
            open_file[k.index()] = Some(params.push(format!("open_file.{name}"), OPEN_FILE));
            half_open_file[k.index()] =
                Some(params.push(format!("half_open_file.{name}"), HALF_OPEN_FILE));
        }
        let threats = [
            ("threat_by_pawn", THREAT_BY_PAWN),
            ("threat_by_lesser", THREAT_BY_LESSER),
            ("hanging", HANGING),
        ]
        .map(|(name, v)| params.push(name.into(), v));
        let passed_rank = params.len();
        for n in 1..=rules.geometry().ranks() {
            params.push(format!("passed_rank.{n}"), PAWN_EXTRA);
        }
        let pawn_extras = PAWN_EXTRA_NAMES.map(|name| params.push(name.into(), PAWN_EXTRA));
        let king_danger = params.push("king_danger".into(), KING_DANGER);
        let shelter = rules.pawns.nonempty().then(|| {
            let first = params.len();
            for name in SHELTER_NAMES {
                params.push(name.into(), SHELTER);
            }
            first
        });
        let game = params.len();
        let game_terms = variant.switches().eval_terms();
        for t in game_terms {
            params.push(t.name.to_string(), t.default);
        }
        let start = variant.start_position();
        let max_phase = phase_of(&phase_value, rules, &start).max(1);
        let layout = Layout {
            value,
            placement,
            mobility,
            square_table,
            tempo,
            king_shield,
            king_tropism,
            doubled_pawn,
            isolated_pawn,
            passed_pawn,
            passed_pawn_rank,
            king_attack,
            mobility_safe,
            safe_check,
            pair,
            outpost,
            open_file,
            half_open_file,
            threats,
            passed_rank,
            pawn_extras,
            king_danger,
            shelter,
            game,
            game_terms,
            phase_value,
            max_phase,
            placement_feature,
            square_params,
        };
        (layout, params)
    }

    /// The placement feature of a piece of kind `k` and colour `c` on `sq`.
    #[inline]
    pub fn placement_feature(&self, c: Color, k: PieceKind, sq: Square) -> i32 {
        self.placement_feature[index(c, k, sq)]
    }

    /// The three parameters of the square table of kind `k` that a piece of colour `c` on
    /// `sq` counts once each: its rank's, its file's and its square's.
    #[inline]
    pub fn square_params(&self, c: Color, k: PieceKind, sq: Square) -> [usize; 3] {
        self.square_params[index(c, k, sq)].map(|i| i as usize)
    }
}

/// Files counted from the nearer edge: a square table's file parameters.
fn edge_files(files: u8) -> u8 {
    files.div_ceil(2)
}

/// Appends the square table of a kind named `name` (0 everywhere); its first parameter.
fn push_square_table(params: &mut Params, rules: &Rules, name: &str) -> usize {
    let g = rules.geometry();
    let first = params.len();
    for n in 1..=g.ranks() {
        params.push(format!("rank.{name}.{n}"), 0);
    }
    for n in 1..=edge_files(g.files()) {
        params.push(format!("file.{name}.{n}"), 0);
    }
    for r in 1..=g.ranks() {
        for f in 1..=edge_files(g.files()) {
            params.push(format!("square.{name}.{r}.{f}"), 0);
        }
    }
    first
}

/// The rank, file and square parameters of a piece of colour `c` on `sq`, in the square table
/// that starts at `first`.
fn square_table_params(rules: &Rules, first: usize, c: Color, sq: Square) -> [u32; 3] {
    let g = rules.geometry();
    let (ranks, files) = (g.ranks() as usize, edge_files(g.files()) as usize);
    let rank = g.relative_rank(c, sq) as usize;
    let file = sq.file().min(g.files() - 1 - sq.file()) as usize;
    let square = first + ranks + files + rank * files + file;
    [first + rank, first + ranks + file, square].map(|i| i as u32)
}

/// The material on the board counted by `phase_value`.
fn phase_of(phase_value: &[i32; MAX_KINDS], rules: &Rules, pos: &Position) -> i32 {
    let mut phase = 0;
    for c in Color::PLAYERS {
        for (ki, &v) in phase_value.iter().enumerate().take(rules.num_kinds()) {
            if v != 0 {
                phase += v * pos.pieces(c, PieceKind(ki as u8)).count() as i32;
            }
        }
    }
    phase
}

/// A middlegame and an endgame score, packed in one word: the endgame's in the low 32 bits, the
/// middlegame's above (less the endgame's borrow), so that a sum, or a product by a count, is one
/// operation for both. Every score of an evaluation fits 32 bits each.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct S(i64);

impl S {
    #[inline]
    const fn new(mg: i32, eg: i32) -> S {
        S(((mg as i64) << 32) + eg as i64)
    }

    #[inline]
    const fn mg(self) -> i32 {
        ((self.0 + (1 << 31)) >> 32) as i32
    }

    #[inline]
    const fn eg(self) -> i32 {
        self.0 as i32
    }
}

impl std::fmt::Debug for S {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "S({}, {})", self.mg(), self.eg())
    }
}

impl std::ops::Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0 + o.0)
    }
}

impl std::ops::Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0)
    }
}

impl std::ops::SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
    }
}

impl std::ops::AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
    }
}

impl std::ops::Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, n: i32) -> S {
        S(self.0 * i64::from(n))
    }
}

impl From<(i32, i32)> for S {
    fn from((mg, eg): (i32, i32)) -> S {
        S::new(mg, eg)
    }
}

/// King steps between two squares (the larger of the file and rank distances).
fn king_steps(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}

/// Kinds counted for mobility: neither royal nor pawn-like.
fn mobile_kinds(rules: &Rules) -> KindSet {
    PieceKind::all(rules.num_kinds())
        .filter(|k| !rules.pawns.contains(*k) && !rules.royal.contains(*k))
        .collect()
}

/// The squares next to the royal piece of `c`'s opponent, and its own (none without one): where
/// the king-attack term counts the squares `c`'s pieces reach.
fn enemy_king_zone(rules: &Rules, pos: &Position, c: Color) -> Bitboard {
    pos.royals(rules, c.opponent())
        .first()
        .map_or(Bitboard::EMPTY, |r| rules.tables.within(r, 1))
}

/// Kinds counted for mobility that capture riding both ways along files without a range, in a
/// game with pawn-like kinds (whose files they open): FIDE's rook and queen.
/// The game's only pawn-like kind, if it captures by leaps alone in both colours.
fn lone_pawn(rules: &Rules) -> Option<PieceKind> {
    let mut pawns = rules.pawns.into_iter();
    let (Some(k), None) = (pawns.next(), pawns.next()) else {
        return None;
    };
    let leaps_alone = Color::PLAYERS
        .into_iter()
        .all(|c| rules.tables.capture_rides(c, k).dirs == 0);
    leaps_alone.then_some(k)
}

fn file_riders(rules: &Rules) -> KindSet {
    if rules.pawns.is_empty() {
        return KindSet::default();
    }
    let along_files = [(0, 1), (0, -1)].map(|(df, dr)| {
        Direction::from_step(df, dr)
            .expect("a unit step is a direction")
            .0 as usize
    });
    mobile_kinds(rules)
        .into_iter()
        .filter(|&k| {
            let rides = rules.tables.capture_rides(Color::White, k);
            along_files
                .iter()
                .all(|&d| rides.dirs & (1 << d) != 0 && rides.range[d] == 0)
        })
        .collect()
}

/// A position as the tuner sees it (`Eval::features`).
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// Parameter index and coefficient, for the parameters whose coefficient is not 0.
    pub coef: Vec<(u32, f32)>,
    /// The middlegame's share of the blend, from 0 to 1.
    pub phase: f64,
    /// What is not a parameter times a feature (mop-up), for White.
    pub fixed: f64,
}

impl Features {
    /// The evaluation for White with `params`, unrounded.
    pub fn score(&self, params: &Params) -> f64 {
        self.fixed
            + self
                .coef
                .iter()
                .map(|&(i, c)| {
                    let (mg, eg) = params.value(i as usize);
                    f64::from(c) * (f64::from(mg) * self.phase + f64::from(eg) * (1.0 - self.phase))
                })
                .sum::<f64>()
    }
}

/// The evaluation tables of one variant.
pub struct Eval {
    /// Middlegame values, for the search's exchange counts.
    values: [i32; MAX_KINDS],
    /// Kinds counted for mobility (neither royal nor pawn-like), with their weights.
    mobile: KindSet,
    mobility_weight: [S; MAX_KINDS],
    /// Per kind: the weight per square reached that no enemy pawn-like piece attacks, and
    /// whether any is not 0 (else those squares are not counted).
    mobility_safe: [S; MAX_KINDS],
    mobility_safe_on: bool,
    king_attack: [S; MAX_KINDS],
    /// Pawn-like kinds.
    pawns: KindSet,
    /// Squares of each file.
    files: Vec<Bitboard>,
    /// Per (colour, square): the squares ahead on the same and neighbouring files, which must
    /// hold no enemy pawn for a pawn there to be passed.
    front_span: Vec<Bitboard>,
    /// Per (colour, kind, square): value plus placement bonus.
    table: Vec<S>,
    /// What a piece adds to the phase, and the start position's phase.
    phase_value: [i32; MAX_KINDS],
    max_phase: i32,
    tempo: S,
    king_shield: S,
    king_tropism: S,
    doubled_pawn: S,
    isolated_pawn: S,
    passed_pawn: S,
    passed_pawn_rank: S,
    /// Per kind: the pair bonus, the open and half-open file bonuses and the outpost bonus (0
    /// where the layout has none).
    pair: [S; MAX_KINDS],
    open_file: [S; MAX_KINDS],
    half_open_file: [S; MAX_KINDS],
    outpost: [S; MAX_KINDS],
    /// Whether any outpost bonus is not 0 (else outposts are not looked for).
    outposts_on: bool,
    /// Per colour: the enemy half of the board (the ranks from the middle on, counted from the
    /// colour's side).
    enemy_half: [Bitboard; 2],
    /// Per (colour, square): the squares ahead on the neighbouring files, where an enemy pawn
    /// could come from to attack the square.
    attack_span: Vec<Bitboard>,
    /// Kinds with a file bonus.
    file_riders: KindSet,
    /// The game's only pawn-like kind, where it captures by leaps alone: its attacks are then
    /// the pawn terms' `leaps`, which the threat terms take from the pawn cache.
    lone_pawn: Option<PieceKind>,
    /// The threat weights (`Layout::threats`), and whether any is not 0 (else the attacks
    /// they need are not worked out).
    threats: [S; 3],
    threats_on: bool,
    /// Per kind: the bonus per safe check (`Eval::safe_checks`), and whether any is not 0
    /// (else they are not counted).
    safe_check: [S; MAX_KINDS],
    safe_checks_on: bool,
    /// Per kind: the mobile kinds of a lower middlegame value, whose attacks on it are threats.
    cheaper: [KindSet; MAX_KINDS],
    /// The passed-pawn table by rank counted from the pawn's side (from 0), the other pawn
    /// terms (`PAWN_EXTRA_NAMES`), and whether any of them is not 0 (else what they count is
    /// not worked out).
    passed_rank: Vec<S>,
    pawn_extras: [S; 5],
    pawn_extras_on: bool,
    /// Per (colour, square): the square a pawn there would advance to, if the board has it.
    ahead: Vec<Option<Square>>,
    king_danger: S,
    /// The shelter and storm weights ([`SHELTER_NAMES`]; 0 in games without pawn-like kinds),
    /// and whether any is not 0 (else they are not counted).
    shelter: [S; SHELTER_NAMES.len()],
    shelter_on: bool,
    /// The game's own terms: weight and divisor.
    game_terms: Vec<(S, i32)>,
}

/// The pawn structure of one side, as the pawn terms count it ([`Eval::pawn_counts`]).
#[derive(Clone, Copy, Debug, Default)]
struct PawnCounts {
    /// Extra pawns on files, isolated pawns, passed pawns, and the ranks the passed pawns have
    /// advanced.
    base: [i32; 4],
    /// Passed pawns by rank counted from their side (from 0).
    passed_at: [i32; MAX_RANKS as usize],
    /// For the passed pawns: the ranks advanced of those whose square ahead is empty (counted
    /// apart, by `Eval::free_path`: it depends on every piece); the ranks advanced times the
    /// distance (in king steps) of the own royal piece to the square ahead, and the same for
    /// the enemy royal piece. Then the pawns with an own pawn beside them on the rank, and the
    /// pawns an own pawn defends (by its leaps).
    extras: [i32; 5],
    /// The passed pawns.
    passers: Bitboard,
}

/// What depends on the pawn-like pieces and the royal pieces alone, which the pawn cache keeps:
/// the pawn structure, shelter and storm terms of both sides for White; and per colour, the
/// passed pawns, the squares the pawn-like pieces capture on by leaps, and the outpost squares
/// (`Eval::outpost_squares`; empty where no outpost bonus is set).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PawnTerms {
    score: S,
    passers: [Bitboard; 2],
    leaps: [Bitboard; 2],
    outposts: [Bitboard; 2],
}

/// What the pieces of one side reach: squares, those of them no enemy pawn attacks, squares
/// next to the enemy royal piece, and the pieces that reach at least one of those.
#[derive(Clone, Copy, Debug, Default)]
struct Reach {
    squares: i32,
    /// Of `squares`, those no enemy pawn-like piece attacks (0 unless asked for).
    safe: i32,
    near_king: i32,
    attackers: i32,
}

impl Reach {
    /// The king-danger feature, before its divisor.
    fn danger(self) -> i32 {
        self.attackers * self.near_king
    }
}

/// What a side's mobility is counted against: the enemy royal piece's neighbourhood, and the
/// squares enemy pawn-like pieces attack (where safe squares are counted).
#[derive(Clone, Copy)]
struct Around {
    king_zone: Bitboard,
    pawn_attacks: Option<Bitboard>,
}

/// The pawn-like pieces a side's pair, file and outpost terms are counted against
/// ([`Eval::kind_counts_of`]): all of them, the side's own, and the side's outpost squares
/// (`Eval::outpost_squares`; empty where no outpost bonus is set).
#[derive(Clone, Copy)]
struct KindContext {
    pawns: Bitboard,
    own_pawns: Bitboard,
    outpost_squares: Bitboard,
}

/// Per kind: the squares the pieces of one side capture on.
type Attacks = [Bitboard; MAX_KINDS];

/// The squares the pieces of one side capture on, of every kind.
fn all_attacks(rules: &Rules, a: &Attacks) -> Bitboard {
    a.iter()
        .take(rules.num_kinds())
        .fold(Bitboard::EMPTY, |x, &y| x | y)
}

fn index(c: Color, k: PieceKind, sq: Square) -> usize {
    (c.index() * MAX_KINDS + k.index()) * NUM_SQUARES + sq.index()
}

/// Squares a piece reaches from `sq` on an empty board.
fn empty_reach(rules: &Rules, c: Color, k: PieceKind, sq: Square) -> u32 {
    let t = &rules.tables;
    let empty = Bitboard::EMPTY;
    let reach = t.leap_quiet(c, k, sq)
        | t.leap_capture(c, k, sq)
        | t.ride_targets(t.quiet_rides(c, k), sq, empty)
        | t.ride_targets(t.capture_rides(c, k), sq, empty);
    reach.count() + t.lame(c, k, sq).len() as u32
}

impl Eval {
    /// The evaluation of `variant` with its parameters: the shared defaults and what its
    /// parameter file sets.
    pub fn new(variant: &dyn Variant) -> Eval {
        let (layout, params) = Params::for_variant(variant);
        Eval::with_params(variant, &layout, &params)
    }

    /// The evaluation of `variant` with `params` (laid out by `layout`, from [`Layout::new`]).
    pub fn with_params(variant: &dyn Variant, layout: &Layout, params: &Params) -> Eval {
        let rules = variant.rules();
        let board = rules.geometry().board();
        let p = |i: usize| S::from(params.value(i));
        let mut values = [0; MAX_KINDS];
        let mut mobility_weight = [S::default(); MAX_KINDS];
        let mut table = vec![S::default(); 3 * MAX_KINDS * NUM_SQUARES];
        for ki in 0..rules.num_kinds() {
            let kind = PieceKind(ki as u8);
            let value = layout.value[ki].map_or(S::default(), p);
            values[ki] = value.mg();
            mobility_weight[ki] = layout.mobility[ki].map_or(S::default(), p);
            let weight = layout.placement[ki].map_or(S::default(), p);
            for c in Color::ALL {
                for sq in board {
                    let [rank, file, square] = layout.square_params(c, kind, sq);
                    table[index(c, kind, sq)] = value
                        + weight * layout.placement_feature(c, kind, sq)
                        + p(rank)
                        + p(file)
                        + p(square);
                }
            }
        }
        assert!(
            layout.game_terms.len() <= MAX_GAME_TERMS,
            "a game brings at most {MAX_GAME_TERMS} evaluation terms"
        );
        let game_terms = layout
            .game_terms
            .iter()
            .enumerate()
            .map(|(i, t)| (p(layout.game + i), t.divisor))
            .collect();
        let threats = layout.threats.map(p);
        let pawns = rules.pawns;
        let files: Vec<Bitboard> = (0..rules.geometry().files())
            .map(|f| board.into_iter().filter(|s| s.file() == f).collect())
            .collect();
        let outpost = layout.outpost.map(|i| i.map_or(S::default(), p));
        let geometry = rules.geometry();
        let enemy_half = [Color::White, Color::Black].map(|c| {
            board
                .into_iter()
                .filter(|&s| 2 * geometry.relative_rank(c, s) >= geometry.ranks())
                .collect()
        });
        let mut front_span = vec![Bitboard::EMPTY; 3 * NUM_SQUARES];
        let mut attack_span = vec![Bitboard::EMPTY; 3 * NUM_SQUARES];
        for c in [Color::White, Color::Black] {
            for sq in board {
                let span: Bitboard = board
                    .into_iter()
                    .filter(|s| s.file().abs_diff(sq.file()) <= 1)
                    .filter(|s| {
                        if c == Color::Black {
                            s.rank() < sq.rank()
                        } else {
                            s.rank() > sq.rank()
                        }
                    })
                    .collect();
                let i = c.index() * NUM_SQUARES + sq.index();
                front_span[i] = span;
                attack_span[i] = span.into_iter().filter(|s| s.file() != sq.file()).collect();
            }
        }
        let passed_rank: Vec<S> = (0..rules.geometry().ranks() as usize)
            .map(|r| p(layout.passed_rank + r))
            .collect();
        let pawn_extras = layout.pawn_extras.map(p);
        let pawn_extras_on = passed_rank
            .iter()
            .chain(&pawn_extras)
            .any(|&t| t != S::default());
        let mut ahead = vec![None; 3 * NUM_SQUARES];
        for c in [Color::White, Color::Black] {
            let step = if c == Color::Black { -1 } else { 1 };
            for sq in board {
                ahead[c.index() * NUM_SQUARES + sq.index()] = sq
                    .offset(0, step)
                    .filter(|&a| board.contains(a) && geometry.same_board(sq, a));
            }
        }
        let safe_check = layout.safe_check.map(|i| i.map_or(S::default(), p));
        let mobility_safe = layout.mobility_safe.map(|i| i.map_or(S::default(), p));
        let shelter: [S; SHELTER_NAMES.len()] =
            std::array::from_fn(|i| layout.shelter.map_or(S::default(), |first| p(first + i)));
        Eval {
            values,
            mobile: mobile_kinds(rules),
            mobility_weight,
            mobility_safe,
            mobility_safe_on: mobility_safe.iter().any(|&t| t != S::default()),
            king_attack: layout.king_attack.map(|i| i.map_or(S::default(), p)),
            pawns,
            files,
            attack_span,
            front_span,
            table,
            phase_value: layout.phase_value,
            max_phase: layout.max_phase,
            tempo: p(layout.tempo),
            king_shield: p(layout.king_shield),
            king_tropism: p(layout.king_tropism),
            doubled_pawn: p(layout.doubled_pawn),
            isolated_pawn: p(layout.isolated_pawn),
            passed_pawn: p(layout.passed_pawn),
            passed_pawn_rank: p(layout.passed_pawn_rank),
            pair: layout.pair.map(|i| i.map_or(S::default(), p)),
            outpost,
            outposts_on: outpost.iter().any(|&t| t != S::default()),
            enemy_half,
            open_file: layout.open_file.map(|i| i.map_or(S::default(), p)),
            half_open_file: layout.half_open_file.map(|i| i.map_or(S::default(), p)),
            file_riders: file_riders(rules),
            lone_pawn: lone_pawn(rules),
            threats,
            threats_on: threats.iter().any(|&t| t != S::default()),
            safe_check,
            safe_checks_on: safe_check.iter().any(|&t| t != S::default()),
            cheaper: std::array::from_fn(|e| {
                mobile_kinds(rules)
                    .into_iter()
                    .filter(|k| values[k.index()] < values[e])
                    .collect()
            }),
            passed_rank,
            pawn_extras,
            pawn_extras_on,
            ahead,
            king_danger: p(layout.king_danger),
            shelter,
            shelter_on: shelter.iter().any(|&t| t != S::default()),
            game_terms,
        }
    }

    /// Material value of a kind (middlegame).
    #[inline]
    pub fn value(&self, k: PieceKind) -> i32 {
        self.values[k.index()]
    }

    /// Evaluation from `pov`'s point of view (the side to move, or the player a third party's
    /// turn hands the move to).
    pub fn evaluate(&self, variant: &dyn Variant, pos: &Position, pov: Color) -> i32 {
        self.evaluate_with(variant, pos, pov, None)
    }

    /// `evaluate`, with the pawn terms kept in and taken from `cache`, which must only ever
    /// serve this evaluation (its weights are in the terms it keeps).
    pub(crate) fn evaluate_cached(
        &self,
        variant: &dyn Variant,
        pos: &Position,
        pov: Color,
        cache: &mut PawnCache,
    ) -> i32 {
        self.evaluate_with(variant, pos, pov, Some(cache))
    }

    /// `evaluate`, with the pawn terms through `cache` where there is one.
    fn evaluate_with(
        &self,
        variant: &dyn Variant,
        pos: &Position,
        pov: Color,
        cache: Option<&mut PawnCache>,
    ) -> i32 {
        let rules = variant.rules();
        let (mut score, phase) = self.material(rules, pos);
        let phase = phase.min(self.max_phase);
        let mop_up = self.mop_up(rules, pos, self.taper(score, phase));
        let pawns = if self.pawns.is_empty() {
            PawnTerms::default()
        } else {
            match cache {
                Some(cache) => cache.get(pawn_cache::key(rules, pos, self.pawns), || {
                    self.pawn_terms(rules, pos)
                }),
                None => self.pawn_terms(rules, pos),
            }
        };
        let (mobility, danger) = if self.threats_on || self.safe_checks_on {
            self.mobility_and_threats(rules, pos, &pawns)
        } else {
            let ignore = |_: PieceKind, _: Bitboard| {};
            let [w_leaps, b_leaps] = pawns.leaps;
            let [w_outposts, b_outposts] = pawns.outposts;
            let (w, w_danger) =
                self.mobility(rules, pos, Color::White, b_leaps, w_outposts, ignore);
            let (b, b_danger) =
                self.mobility(rules, pos, Color::Black, w_leaps, b_outposts, ignore);
            (w - b, w_danger - b_danger)
        };
        score += mobility;
        score += S::new(
            self.king_danger.mg() * danger / KING_DANGER_DIVISOR,
            self.king_danger.eg() * danger / KING_DANGER_DIVISOR,
        );
        score +=
            self.king_safety(rules, pos, Color::White) - self.king_safety(rules, pos, Color::Black);
        score += pawns.score;
        if self.pawn_extras_on {
            let [w, b] = pawns.passers;
            let free = self.free_path(pos, Color::White, w) - self.free_path(pos, Color::Black, b);
            score += self.pawn_extras[0] * free;
        }
        if !self.game_terms.is_empty() {
            let mut features = [0; MAX_GAME_TERMS];
            let features = &mut features[..self.game_terms.len()];
            variant.switches().eval_features(pos, features);
            for (&(weight, divisor), &f) in self.game_terms.iter().zip(features.iter()) {
                score += S::new(weight.mg() * f / divisor, weight.eg() * f / divisor);
            }
        }
        let us = if pov == Color::Black { -1 } else { 1 };
        us * (self.taper(score, phase) + mop_up) + self.taper(self.tempo, phase)
    }

    /// The players' material and placement (the square tables), for White, and the material
    /// counted by the phase values (before the start position's cap).
    fn material(&self, rules: &Rules, pos: &Position) -> (S, i32) {
        let mut score = S::default();
        let mut phase = 0;
        let (white, black) = (pos.color_bb(Color::White), pos.color_bb(Color::Black));
        for ki in 0..rules.num_kinds() {
            let k = PieceKind(ki as u8);
            let of_kind = pos.kind_bb(k) & (white | black);
            if of_kind.is_empty() {
                continue;
            }
            phase += self.phase_value[ki] * of_kind.count() as i32;
            for sq in of_kind & white {
                score += self.table[index(Color::White, k, sq)];
            }
            for sq in of_kind & black {
                score -= self.table[index(Color::Black, k, sq)];
            }
        }
        (score, phase)
    }

    /// The evaluation of `pos` as the tuner sees it, for White: the feature (coefficient) of
    /// every parameter of `layout` (the one this evaluation was built with) that is not 0, the
    /// share of the middlegame in the blend, and what is not a weight times a feature (mop-up,
    /// with this evaluation's weights). With the parameters' values `p`, the evaluation for
    /// White is `fixed + sum of coef * (mg * phase + eg * (1 - phase))`, to the rounding of the
    /// blend and of the game's terms' divisors; `evaluate` is that from the point of view
    /// `pov`, so the tempo's coefficient is +1 when `pov` is White, -1 when it is Black.
    pub fn features(
        &self,
        variant: &dyn Variant,
        layout: &Layout,
        pos: &Position,
        pov: Color,
    ) -> Features {
        let rules = variant.rules();
        let mut coef = vec![0.0f64; layout.game + layout.game_terms.len()];
        let mut attacks = [[Bitboard::EMPTY; MAX_KINDS]; 2];
        let mut table = S::default();
        let mut phase = 0;
        let mut danger = 0;
        for c in Color::PLAYERS {
            let sign = if c == Color::White { 1 } else { -1 };
            let around = Around {
                king_zone: enemy_king_zone(rules, pos, c),
                pawn_attacks: Some(self.pawn_leaps(rules, pos, c.opponent())),
            };
            let mut reach = Reach::default();
            let outposts = self.outposts(rules, pos, c);
            for ki in 0..rules.num_kinds() {
                let k = PieceKind(ki as u8);
                let pieces = pos.pieces(c, k);
                for sq in pieces {
                    table += self.table[index(c, k, sq)] * sign;
                    if let Some(i) = layout.value[ki] {
                        coef[i] += f64::from(sign);
                    }
                    if let Some(i) = layout.placement[ki] {
                        coef[i] += f64::from(sign * layout.placement_feature(c, k, sq));
                    }
                    for i in layout.square_params(c, k, sq) {
                        coef[i] += f64::from(sign);
                    }
                }
                phase += self.phase_value[ki] * pieces.count() as i32;
                if let Some(i) = layout.mobility[ki] {
                    let attacks = &mut attacks[c.index()][ki];
                    let record = |a: Bitboard| *attacks |= a;
                    let r = self.reach_counts(rules, pos, c, k, around, record);
                    coef[i] += f64::from(sign * r.squares);
                    if let Some(j) = layout.mobility_safe[ki] {
                        coef[j] += f64::from(sign * r.safe);
                    }
                    if let Some(j) = layout.king_attack[ki] {
                        coef[j] += f64::from(sign * r.near_king);
                    }
                    reach.near_king += r.near_king;
                    reach.attackers += r.attackers;
                }
                let counts = self.kind_counts(pos, c, k, outposts);
                let at = [
                    layout.pair[ki],
                    layout.open_file[ki],
                    layout.half_open_file[ki],
                    layout.outpost[ki],
                ];
                for (i, n) in at.into_iter().zip(counts) {
                    if let Some(i) = i {
                        coef[i] += f64::from(sign * n);
                    }
                }
            }
            danger += sign * reach.danger();
            let (shield, enemies) = self.king_counts(rules, pos, c);
            coef[layout.king_shield] += f64::from(sign * shield);
            coef[layout.king_tropism] += f64::from(sign * enemies);
            if self.pawns.nonempty() {
                let mut counts = self.pawn_counts(rules, pos, c, true);
                counts.extras[0] = self.free_path(pos, c, counts.passers);
                let at = [
                    layout.doubled_pawn,
                    layout.isolated_pawn,
                    layout.passed_pawn,
                    layout.passed_pawn_rank,
                ];
                let ranks = (0..rules.geometry().ranks() as usize).map(|r| layout.passed_rank + r);
                let counted = (at.into_iter().zip(counts.base))
                    .chain(ranks.zip(counts.passed_at))
                    .chain(layout.pawn_extras.into_iter().zip(counts.extras));
                for (i, n) in counted {
                    coef[i] += f64::from(sign * n);
                }
            }
            if let Some(first) = layout.shelter {
                for (i, n) in self.shelter_counts(rules, pos, c).into_iter().enumerate() {
                    coef[first + i] += f64::from(sign * n);
                }
            }
        }
        coef[layout.king_danger] = f64::from(danger) / f64::from(KING_DANGER_DIVISOR);
        let leaps = Color::PLAYERS.map(|c| self.pawn_leaps(rules, pos, c));
        let ([w, b], [w_all, b_all]) = self.threat_counts(rules, pos, &leaps, &mut attacks);
        for ((i, w), b) in layout.threats.into_iter().zip(w).zip(b) {
            coef[i] += f64::from(w - b);
        }
        let [wa, ba] = &attacks;
        let white = self.safe_checks(rules, pos, Color::White, wa, b_all);
        let black = self.safe_checks(rules, pos, Color::Black, ba, w_all);
        for (ki, i) in layout.safe_check.iter().enumerate() {
            if let Some(i) = i {
                coef[*i] += f64::from(white[ki] - black[ki]);
            }
        }
        coef[layout.tempo] = if pov == Color::Black { -1.0 } else { 1.0 };
        let phase = phase.min(self.max_phase);
        let fixed = self.mop_up(rules, pos, self.taper(table, phase));
        if !layout.game_terms.is_empty() {
            let mut f = [0; MAX_GAME_TERMS];
            let f = &mut f[..layout.game_terms.len()];
            variant.switches().eval_features(pos, f);
            for (i, (t, &n)) in layout.game_terms.iter().zip(f.iter()).enumerate() {
                coef[layout.game + i] = f64::from(n) / f64::from(t.divisor);
            }
        }
        Features {
            coef: coef
                .into_iter()
                .enumerate()
                .filter(|(_, c)| *c != 0.0)
                .map(|(i, c)| (i as u32, c as f32))
                .collect(),
            phase: f64::from(phase) / f64::from(self.max_phase),
            fixed: f64::from(fixed),
        }
    }

    /// The blend of a middlegame and an endgame score at `phase` (from 0, the endgame, to
    /// `max_phase`, the start).
    #[inline]
    fn taper(&self, s: S, phase: i32) -> i32 {
        let mg = i64::from(s.mg()) * i64::from(phase);
        let eg = i64::from(s.eg()) * i64::from(self.max_phase - phase);
        ((mg + eg) / i64::from(self.max_phase)) as i32
    }

    /// Squares the pieces of `c` reach, not counting their own pieces' squares, those of them
    /// outside `enemy_leaps` (what the enemy pawn-like pieces capture on) and those next to the
    /// enemy royal piece, weighted by kind, with the pair, file and outpost terms of each kind
    /// (`Eval::kind_counts_of`; `outpost_squares` are those of `c`); and the king-danger feature
    /// of `c` (`Reach::danger`). Each piece's attacks (as `Eval::reach_counts` gives them) go to
    /// `record`, with its kind. The kind terms are counted here, in the one walk over the kinds,
    /// for speed; `Eval::features` counts them apart.
    fn mobility(
        &self,
        rules: &Rules,
        pos: &Position,
        c: Color,
        enemy_leaps: Bitboard,
        outpost_squares: Bitboard,
        mut record: impl FnMut(PieceKind, Bitboard),
    ) -> (S, i32) {
        let mut score = S::default();
        let mut all = Reach::default();
        let around = Around {
            king_zone: enemy_king_zone(rules, pos, c),
            pawn_attacks: self.mobility_safe_on.then_some(enemy_leaps),
        };
        let kinds = self.kind_context(pos, c, outpost_squares);
        for k in self.mobile {
            let pieces = pos.pieces(c, k);
            // A kind with no piece counts nothing.
            if pieces.is_empty() {
                continue;
            }
            let r = self.reach_counts(rules, pos, c, k, around, |a| record(k, a));
            let [pair, open, half_open, outpost] = self.kind_counts_of(k, pieces, kinds);
            let i = k.index();
            score += self.mobility_weight[i] * r.squares
                + self.mobility_safe[i] * r.safe
                + self.king_attack[i] * r.near_king
                + self.pair[i] * pair
                + self.open_file[i] * open
                + self.half_open_file[i] * half_open
                + self.outpost[i] * outpost;
            all.near_king += r.near_king;
            all.attackers += r.attackers;
        }
        (score, all.danger())
    }

    /// Squares the pieces of kind `k` and colour `c` reach, not counting their own pieces'
    /// squares; of those, the ones outside `around.pawn_attacks` (if given) and the ones in
    /// `around.king_zone`; and how many pieces reach one there. The squares they capture on
    /// by leaps and rides go to `record`, piece by piece.
    fn reach_counts(
        &self,
        rules: &Rules,
        pos: &Position,
        c: Color,
        k: PieceKind,
        around: Around,
        mut record: impl FnMut(Bitboard),
    ) -> Reach {
        let t = &rules.tables;
        let occ = pos.occupied();
        let own = pos.color_bb(c);
        let mut out = Reach::default();
        for sq in pos.pieces(c, k) {
            let captures =
                t.leap_capture(c, k, sq) | t.ride_targets(t.capture_rides(c, k), sq, occ);
            record(captures);
            // Pieces that move as they capture need their targets worked out once.
            let reach = if t.symmetric(c, k) {
                captures
            } else {
                captures | t.leap_quiet(c, k, sq) | t.ride_targets(t.quiet_rides(c, k), sq, occ)
            };
            let near = (reach & !own & around.king_zone).count() as i32;
            out.squares += (reach & !own).count() as i32;
            if let Some(pawn_attacks) = around.pawn_attacks {
                out.safe += (reach & !own & !pawn_attacks).count() as i32;
            }
            out.near_king += near;
            out.attackers += i32::from(near > 0);
        }
        out
    }

    /// The outposts of `c` ([`OUTPOST`]) that its pieces counted for mobility stand on.
    fn outposts(&self, rules: &Rules, pos: &Position, c: Color) -> Bitboard {
        if self.pawns.is_empty() {
            return Bitboard::EMPTY;
        }
        let held = pos.kinds_bb(self.mobile) & pos.color_bb(c);
        held & self.outpost_squares(pos, c, self.pawn_leaps(rules, pos, c))
    }

    /// The outpost squares of `c` ([`OUTPOST`]), whoever stands there: in the enemy half, on
    /// `defended` (what its pawn-like pieces capture on) and out of every enemy pawn-like
    /// piece's reach as it advances.
    fn outpost_squares(&self, pos: &Position, c: Color, defended: Bitboard) -> Bitboard {
        let theirs = pos.kinds_bb(self.pawns) & pos.color_bb(c.opponent());
        (defended & self.enemy_half[c.index()])
            .into_iter()
            .filter(|sq| {
                (theirs & self.attack_span[c.index() * NUM_SQUARES + sq.index()]).is_empty()
            })
            .collect()
    }

    /// The squares the pawn-like pieces of `c` capture on by leaps: what they defend.
    pub fn pawn_leaps(&self, rules: &Rules, pos: &Position, c: Color) -> Bitboard {
        let t = &rules.tables;
        let mut leaps = Bitboard::EMPTY;
        for k in self.pawns {
            for sq in pos.pieces(c, k) {
                leaps |= t.leap_capture(c, k, sq);
            }
        }
        leaps
    }

    /// For the pieces of kind `k` and colour `c`: whether there are two or more (1 or 0), how
    /// many stand on open files and how many on half-open ones (for the kinds with file
    /// bonuses), and how many on `outposts`.
    fn kind_counts(&self, pos: &Position, c: Color, k: PieceKind, outposts: Bitboard) -> [i32; 4] {
        self.kind_counts_of(k, pos.pieces(c, k), self.kind_context(pos, c, outposts))
    }

    /// What the kind counts of the pieces of `c` are counted against, with `outpost_squares`
    /// (a superset of the outposts its pieces stand on will do).
    fn kind_context(&self, pos: &Position, c: Color, outpost_squares: Bitboard) -> KindContext {
        let pawns = pos.kinds_bb(self.pawns);
        KindContext {
            pawns,
            own_pawns: pawns & pos.color_bb(c),
            outpost_squares,
        }
    }

    /// `Eval::kind_counts` of the pieces `pieces`, of kind `k`.
    fn kind_counts_of(&self, k: PieceKind, pieces: Bitboard, around: KindContext) -> [i32; 4] {
        let pair = i32::from(pieces.more_than_one());
        let outpost = (pieces & around.outpost_squares).count() as i32;
        if !self.file_riders.contains(k) {
            return [pair, 0, 0, outpost];
        }
        let (mut open, mut half_open) = (0, 0);
        for sq in pieces {
            let file = self.files[usize::from(sq.file())];
            if (file & around.pawns).is_empty() {
                open += 1;
            } else if (file & around.own_pawns).is_empty() {
                half_open += 1;
            }
        }
        [pair, open, half_open, outpost]
    }

    /// The mobility (with the kind terms), threat and safe-check terms, for White, and White's
    /// king-danger feature less Black's: the threats and safe checks need the attacks mobility
    /// works out. `pawns` holds, per colour, the squares its pawn-like pieces capture on by
    /// leaps and its outpost squares.
    fn mobility_and_threats(&self, rules: &Rules, pos: &Position, pawns: &PawnTerms) -> (S, i32) {
        let mut attacks = [[Bitboard::EMPTY; MAX_KINDS]; 2];
        let [w, b] = &mut attacks;
        let leaps = &pawns.leaps;
        let [w_leaps, b_leaps] = *leaps;
        let [w_outposts, b_outposts] = pawns.outposts;
        let (white, w_danger) = self.mobility(
            rules,
            pos,
            Color::White,
            b_leaps,
            w_outposts,
            |k: PieceKind, a: Bitboard| w[k.index()] |= a,
        );
        let (black, b_danger) = self.mobility(
            rules,
            pos,
            Color::Black,
            w_leaps,
            b_outposts,
            |k: PieceKind, a: Bitboard| b[k.index()] |= a,
        );
        let mut score = white - black;
        let ([w, b], [w_all, b_all]) = self.threat_counts(rules, pos, leaps, &mut attacks);
        for ((weight, w), b) in self.threats.into_iter().zip(w).zip(b) {
            score += weight * (w - b);
        }
        if self.safe_checks_on {
            let [w, b] = &attacks;
            let white = self.safe_checks(rules, pos, Color::White, w, b_all);
            let black = self.safe_checks(rules, pos, Color::Black, b, w_all);
            for k in self.mobile {
                score += self.safe_check[k.index()] * (white[k.index()] - black[k.index()]);
            }
        }
        (score, w_danger - b_danger)
    }

    /// Adds to `attacks` those of the kinds of `c` that mobility leaves out (pawn-like and
    /// royal): per kind, the squares its pieces capture on by leaps and rides (not by lame
    /// leaps or a game's own captures, which the threat terms leave out). `pawn_leaps` is what
    /// the pawn-like pieces of `c` capture on by leaps (`PawnTerms::leaps`).
    fn other_attacks(
        &self,
        rules: &Rules,
        pos: &Position,
        c: Color,
        pawn_leaps: Bitboard,
        attacks: &mut Attacks,
    ) {
        let t = &rules.tables;
        let occ = pos.occupied();
        for k in PieceKind::all(rules.num_kinds()).filter(|k| !self.mobile.contains(*k)) {
            if self.lone_pawn == Some(k) {
                attacks[k.index()] |= pawn_leaps;
                continue;
            }
            let rides = t.capture_rides(c, k);
            for sq in pos.pieces(c, k) {
                attacks[k.index()] |= t.leap_capture(c, k, sq);
                if rides.dirs != 0 {
                    attacks[k.index()] |= t.ride_targets(rides, sq, occ);
                }
            }
        }
    }

    /// White's and Black's threats ([`Eval::side_threats`]), with the mobile kinds' attacks of
    /// each side (by colour) in `attacks`, and what each side's pawn-like pieces capture on by
    /// leaps in `leaps`; and the squares each side attacks with every kind. `attacks` is left
    /// with the attacks of every kind.
    fn threat_counts(
        &self,
        rules: &Rules,
        pos: &Position,
        leaps: &[Bitboard; 2],
        attacks: &mut [Attacks; 2],
    ) -> ([[i32; 3]; 2], [Bitboard; 2]) {
        let [w_leaps, b_leaps] = *leaps;
        self.other_attacks(rules, pos, Color::White, w_leaps, &mut attacks[0]);
        self.other_attacks(rules, pos, Color::Black, b_leaps, &mut attacks[1]);
        let [w, b] = &*attacks;
        let (w_all, b_all) = (all_attacks(rules, w), all_attacks(rules, b));
        let counts = [
            self.side_threats(rules, pos, Color::White, w, w_all, b_all),
            self.side_threats(rules, pos, Color::Black, b, b_all, w_all),
        ];
        (counts, [w_all, b_all])
    }

    /// The threats of `c`, whose attacks are `ours` (by kind; `attacked` together) and whose
    /// opponent attacks `defended`: enemy pieces (neither royal nor pawn-like) its pawn-like
    /// pieces attack; enemy pieces (neither royal nor pawn-like) a cheaper piece of `c` (neither
    /// royal nor pawn-like) attacks; and enemy pieces (not royal) that `c` attacks and their
    /// side does not defend.
    fn side_threats(
        &self,
        rules: &Rules,
        pos: &Position,
        c: Color,
        ours: &Attacks,
        attacked: Bitboard,
        defended: Bitboard,
    ) -> [i32; 3] {
        let by_kinds = |kinds: KindSet| {
            kinds
                .into_iter()
                .fold(Bitboard::EMPTY, |x, k| x | ours[k.index()])
        };
        let theirs_not_royal = pos.color_bb(c.opponent()) & !pos.kinds_bb(rules.royal);
        let pieces = theirs_not_royal & !pos.kinds_bb(self.pawns);
        let mut by_lesser = 0;
        for e in self.mobile {
            let victims = pos.pieces(c.opponent(), e);
            if victims.nonempty() {
                by_lesser += (victims & by_kinds(self.cheaper[e.index()])).count() as i32;
            }
        }
        [
            (pieces & by_kinds(self.pawns)).count() as i32,
            by_lesser,
            (theirs_not_royal & attacked & !defended).count() as i32,
        ]
    }

    /// Per kind counted for mobility, the safe checks of `c`, whose attacks are `ours` and whose
    /// opponent attacks `theirs` (with every kind): the squares from which a piece of the kind
    /// would attack the enemy royal piece, that a piece of `c` of the kind captures on (so
    /// reaches, for a kind that moves as it captures), holding no piece of `c`, and that the
    /// enemy does not attack.
    fn safe_checks(
        &self,
        rules: &Rules,
        pos: &Position,
        c: Color,
        ours: &Attacks,
        theirs: Bitboard,
    ) -> [i32; MAX_KINDS] {
        let mut counts = [0; MAX_KINDS];
        let e = c.opponent();
        let Some(king) = pos.royals(rules, e).first() else {
            return counts;
        };
        let t = &rules.tables;
        let free = !pos.color_bb(c) & !theirs;
        for k in self.mobile {
            let reached = ours[k.index()] & free;
            if reached.nonempty() {
                let from = t.capture_origins(c, k, king, pos.occupied());
                counts[k.index()] = (reached & from).count() as i32;
            }
        }
        counts
    }

    /// Own pieces around the royal piece, and enemy pieces close to it.
    fn king_safety(&self, rules: &Rules, pos: &Position, c: Color) -> S {
        let (shield, enemies) = self.king_counts(rules, pos, c);
        self.king_shield * shield + self.king_tropism * enemies
    }

    /// Own pieces next to the royal piece of `c`, and enemy pieces (neither royal nor
    /// pawn-like) within two squares of it.
    fn king_counts(&self, rules: &Rules, pos: &Position, c: Color) -> (i32, i32) {
        let Some(k) = pos.royals(rules, c).first() else {
            return (0, 0);
        };
        let t = &rules.tables;
        let near = t.within(k, 1);
        let close = t.within(k, 2);
        let shield = (near & pos.color_bb(c)).count() as i32;
        let enemies = pos.color_bb(c.opponent())
            & close
            & !pos.royals(rules, c.opponent())
            & !pos.kinds_bb(self.pawns);
        (shield, enemies.count() as i32)
    }

    /// What the evaluation works out from the pawn-like and royal pieces alone ([`PawnTerms`]).
    fn pawn_terms(&self, rules: &Rules, pos: &Position) -> PawnTerms {
        let mut terms = PawnTerms::default();
        for c in Color::PLAYERS {
            let sign = if c == Color::White { 1 } else { -1 };
            let (structure, passers) = self.pawn_structure(rules, pos, c);
            terms.score += structure * sign;
            terms.passers[c.index()] = passers;
            let leaps = self.pawn_leaps(rules, pos, c);
            terms.leaps[c.index()] = leaps;
            if self.outposts_on {
                terms.outposts[c.index()] = self.outpost_squares(pos, c, leaps);
            }
            if self.shelter_on {
                terms.score += self.shelter(rules, pos, c) * sign;
            }
        }
        terms
    }

    /// The passed pawns of `c` among `passers` whose square ahead is empty, by the ranks each
    /// has advanced.
    fn free_path(&self, pos: &Position, c: Color, passers: Bitboard) -> i32 {
        let mut ranks = 0;
        for sq in passers {
            let ahead = self.ahead[c.index() * NUM_SQUARES + sq.index()];
            if ahead.is_some_and(|a| !pos.occupied().contains(a)) {
                ranks += self.advanced(c, sq);
            }
        }
        ranks
    }

    /// The ranks a pawn of `c` on `sq` has advanced from its side's first rank of the file.
    fn advanced(&self, c: Color, sq: Square) -> i32 {
        let ranks = self.files[usize::from(sq.file())].count() as i32;
        if c == Color::Black {
            ranks - 1 - sq.rank() as i32
        } else {
            sq.rank() as i32
        }
    }

    /// The pawn terms of `c` but the free path of its passed pawns, and those passed pawns.
    fn pawn_structure(&self, rules: &Rules, pos: &Position, c: Color) -> (S, Bitboard) {
        let counts = self.pawn_counts(rules, pos, c, self.pawn_extras_on);
        let [doubled, isolated, passed, ranks] = counts.base;
        let mut score = self.doubled_pawn * doubled
            + self.isolated_pawn * isolated
            + self.passed_pawn * passed
            + self.passed_pawn_rank * ranks;
        if self.pawn_extras_on {
            for (&w, &n) in self.passed_rank.iter().zip(&counts.passed_at) {
                score += w * n;
            }
            for (w, n) in self.pawn_extras.into_iter().zip(counts.extras) {
                score += w * n;
            }
        }
        (score, counts.passers)
    }

    /// What the pawn terms count of the pawns of `c` ([`PawnCounts`]); with `extras` false,
    /// only its `base`.
    fn pawn_counts(&self, rules: &Rules, pos: &Position, c: Color, extras: bool) -> PawnCounts {
        let pawns_of = |color: Color| pos.kinds_bb(self.pawns) & pos.color_bb(color);
        let ours = pawns_of(c);
        let theirs = pawns_of(c.opponent());
        let nfiles = self.files.len();
        let mut counts = PawnCounts::default();
        let royal = |color: Color| pos.royals(rules, color).first();
        let kings = extras.then(|| (royal(c), royal(c.opponent())));
        for f in 0..nfiles {
            let here = ours & self.files[f];
            let n = here.count() as i32;
            if n == 0 {
                continue;
            }
            counts.base[0] += n - 1;
            let left = if f > 0 {
                self.files[f - 1]
            } else {
                Bitboard::EMPTY
            };
            let right = if f + 1 < nfiles {
                self.files[f + 1]
            } else {
                Bitboard::EMPTY
            };
            if (ours & (left | right)).is_empty() {
                counts.base[1] += n;
            }
            for sq in here {
                if (theirs & self.front_span[c.index() * NUM_SQUARES + sq.index()]).is_empty() {
                    let advanced = self.advanced(c, sq);
                    counts.passers.insert(sq);
                    counts.base[2] += 1;
                    counts.base[3] += advanced;
                    if let Some((own, enemy)) = kings {
                        let rank = rules.geometry().relative_rank(c, sq);
                        counts.passed_at[usize::from(rank)] += 1;
                        self.count_passer(c, sq, advanced, [own, enemy], &mut counts);
                    }
                }
            }
        }
        if extras {
            let defended = self.pawn_leaps(rules, pos, c);
            let beside = |sq: Square, df: i8| sq.offset(df, 0).is_some_and(|s| ours.contains(s));
            counts.extras[3] = ours
                .into_iter()
                .filter(|&sq| beside(sq, -1) || beside(sq, 1))
                .count() as i32;
            counts.extras[4] = (ours & defended).count() as i32;
        }
        counts
    }

    /// Counts the passed pawn of `c` on `sq`, `advanced` ranks from its side, into the
    /// kings' distances of `counts.extras` (with the own and the enemy royal pieces, where
    /// there are any).
    fn count_passer(
        &self,
        c: Color,
        sq: Square,
        advanced: i32,
        kings: [Option<Square>; 2],
        counts: &mut PawnCounts,
    ) {
        let Some(ahead) = self.ahead[c.index() * NUM_SQUARES + sq.index()] else {
            return;
        };
        for (i, king) in kings.into_iter().enumerate() {
            if let Some(k) = king {
                counts.extras[1 + i] += advanced * i32::from(king_steps(k, ahead));
            }
        }
    }

    /// The shelter and storm terms of `c`.
    fn shelter(&self, rules: &Rules, pos: &Position, c: Color) -> S {
        let counts = self.shelter_counts(rules, pos, c);
        let mut score = S::default();
        for (w, n) in self.shelter.into_iter().zip(counts) {
            score += w * n;
        }
        score
    }

    /// What the shelter and storm terms count for the royal piece of `c` ([`SHELTER_NAMES`]):
    /// on its file and each neighbouring one, the nearest own and the nearest enemy pawn-like
    /// piece ahead of it, by the ranks between them and it. Pawns level with the royal piece or
    /// behind it shelter nothing.
    fn shelter_counts(
        &self,
        rules: &Rules,
        pos: &Position,
        c: Color,
    ) -> [i32; SHELTER_NAMES.len()] {
        let mut counts = [0; SHELTER_NAMES.len()];
        let Some(k) = pos.royals(rules, c).first() else {
            return counts;
        };
        let g = rules.geometry();
        let king_rank = g.relative_rank(c, k);
        let span = self.front_span[c.index() * NUM_SQUARES + k.index()];
        // Per file, from the one left of the royal piece: the nearest own and enemy pawns.
        let (mut own, mut enemy) = ([u8::MAX; 3], [u8::MAX; 3]);
        for sq in pos.kinds_bb(self.pawns) & span {
            let slot = usize::from(sq.file() + 1 - k.file());
            let d = g.relative_rank(c, sq) - king_rank;
            if pos.color_bb(c).contains(sq) {
                own[slot] = own[slot].min(d);
            } else if pos.color_bb(c.opponent()).contains(sq) {
                enemy[slot] = enemy[slot].min(d);
            }
        }
        for slot in 0..3 {
            let file = usize::from(k.file()) + slot;
            if file == 0 || file > self.files.len() {
                continue;
            }
            let shelter = if own[slot] == u8::MAX {
                SHELTER_OPEN
            } else {
                usize::from(own[slot].min(3)) - 1
            };
            counts[shelter] += 1;
            if enemy[slot] <= STORM_REACH {
                counts[STORM + usize::from(enemy[slot]) - 1] += 1;
                if own[slot] != u8::MAX && enemy[slot] == own[slot] + 1 {
                    counts[STORM_BLOCKED] += 1;
                }
            }
        }
        counts
    }

    /// When one side has only royal pieces left and is well behind, the winner is paid for
    /// driving the lone royal piece to the edge and for bringing its own royal piece near: the
    /// material terms alone give no way to make progress.
    fn mop_up(&self, rules: &Rules, pos: &Position, score: i32) -> i32 {
        let g = rules.geometry();
        let (winner, loser, sign) = if score >= MOPUP_LEAD {
            (Color::White, Color::Black, 1)
        } else if score <= -MOPUP_LEAD {
            (Color::Black, Color::White, -1)
        } else {
            return 0;
        };
        let lone = pos.royals(rules, loser);
        if (pos.color_bb(loser) & !lone).nonempty() {
            return 0;
        }
        let (Some(l), Some(w)) = (lone.first(), pos.royals(rules, winner).first()) else {
            return 0;
        };
        let from_centre = |sq: Square| {
            let df = (2 * sq.file() as i32 - (g.files() as i32 - 1)).abs();
            let dr = (2 * sq.rank() as i32 - (g.ranks() as i32 - 1)).abs();
            df.max(dr) / 2
        };
        let apart = i32::from(king_steps(l, w));
        let most_apart = g.files().max(g.ranks()) as i32;
        sign * (MOPUP_EDGE * from_centre(l) + MOPUP_CLOSE * (most_apart - apart))
    }
}

#[cfg(test)]
mod tests;
