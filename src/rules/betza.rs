//! A Betza-like movement notation, parsed into atoms.
//!
//! The same text goes to XBoard in `piece` commands, so a piece is described once. Supported:
//!
//! - atoms `W F D N A H C Z G` (leaps (1,0) (1,1) (2,0) (2,1) (2,2) (3,0) (3,1) (3,2) (3,3)) and
//!   the shorthands `K` = `WF`, `R` = `WW`, `B` = `FF`, `Q` = `RB`;
//! - a doubled atom or a range suffix makes a rider: `WW` or `W0` slides without limit, `W3` up to
//!   three steps (riders only along orthogonals and diagonals);
//! - modality prefixes `m` (move only) and `c` (capture only);
//! - direction prefixes `f b l r v s`, with the pairs `fl fr bl br` on diagonal atoms and
//!   `ff fs bb bs ll lv rr rv` on oblique atoms naming single directions;
//! - `i` (only from the piece's initial squares) and `n` (lame: the leap is blocked by a piece on
//!   the straight path, or for `N` on the orthogonal first step);
//! - XBoard's two-leg `afsW` (Mao: a step, then a diagonal step turning 45 degrees outward) and
//!   `afsF` (Moa: a diagonal step, then an orthogonal step outward), optionally with `m` or `c` after
//!   `fs` for the second leg; both reach the knight squares, blocked on the first leg's square.
//!
//! Directions are from White's side; Black's atoms are mirrored by the compiler.

use std::fmt;

/// What a move along an atom may do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Modality {
    /// Move to an empty square or capture.
    Both,
    /// Move to an empty square only.
    Move,
    /// Capture only.
    Capture,
}

impl Modality {
    /// Whether it allows a non-capturing move.
    pub fn moves(self) -> bool {
        self != Modality::Capture
    }

    /// Whether it allows a capture.
    pub fn captures(self) -> bool {
        self != Modality::Move
    }
}

/// One direction of movement.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Atom {
    /// File step (positive towards the h-file).
    pub dx: i8,
    /// Rank step (positive towards Black, for White's pieces).
    pub dy: i8,
    /// 1 for a leap; 0 for an unlimited rider; n > 1 for a rider of at most n steps.
    pub range: u8,
    /// Move, capture or both.
    pub modality: Modality,
    /// Allowed only from the piece's initial squares.
    pub initial: bool,
    /// A leap that the squares between can block.
    pub lame: bool,
    /// For a two-leg atom (`afsW`, `afsF`): the first leg's step, the one square that blocks it.
    pub leg: Option<(i8, i8)>,
    /// Files the piece must stand on to use this atom (a piece with faces, `PieceSpec::faces`);
    /// every file for ordinary atoms.
    pub files: (u8, u8),
}

/// The file range of an atom usable from every file.
pub const ALL_FILES: (u8, u8) = (0, u8::MAX);

impl Atom {
    /// Whether a piece standing on `file` may use this atom.
    #[inline]
    pub fn usable_on_file(&self, file: u8) -> bool {
        (self.files.0..=self.files.1).contains(&file)
    }

    /// Whether the piece slides along this atom.
    pub fn is_rider(&self) -> bool {
        self.range != 1
    }

    /// The squares (as steps from the origin) that must be empty for a lame leap.
    pub fn lame_path(&self) -> Vec<(i8, i8)> {
        if !self.lame {
            return Vec::new();
        }
        if let Some(leg) = self.leg {
            return vec![leg];
        }
        let (ax, ay) = (self.dx.abs(), self.dy.abs());
        if ax == 0 || ay == 0 || ax == ay {
            let n = ax.max(ay);
            (1..n).map(|i| (self.dx / n * i, self.dy / n * i)).collect()
        } else if ax == 2 && ay == 1 {
            vec![(self.dx.signum(), 0)]
        } else {
            vec![(0, self.dy.signum())]
        }
    }
}

/// A notation error: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// The text that failed.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "movement '{}': {}", self.text, self.reason)
    }
}

/// The base leap of an atom letter.
fn leap_of(c: char) -> Option<(i8, i8)> {
    Some(match c {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// All orientations of a leap.
fn orientations(x: i8, y: i8) -> Vec<(i8, i8)> {
    let mut v = Vec::new();
    for (a, b) in [(x, y), (y, x)] {
        for sa in [1, -1] {
            for sb in [1, -1] {
                let p = (a * sa, b * sb);
                if !v.contains(&p) {
                    v.push(p);
                }
            }
        }
    }
    v
}

/// Whether `(dx, dy)` is selected by one direction term (a letter or a pair).
fn term_selects(term: &str, dx: i8, dy: i8) -> bool {
    let (ax, ay) = (dx.abs(), dy.abs());
    let one = |c: char| match c {
        'f' => dy > 0,
        'b' => dy < 0,
        'l' => dx < 0,
        'r' => dx > 0,
        'v' => ax < ay || (dx == 0),
        's' => ax > ay || (dy == 0),
        _ => false,
    };
    let mut cs = term.chars();
    match (cs.next(), cs.next()) {
        (Some(a), None) => one(a),
        // Doubled letter on an oblique atom: the narrow pair in that direction.
        (Some(a), Some(b)) if a == b => {
            one(a)
                && if matches!(a, 'f' | 'b') {
                    ay > ax
                } else {
                    ax > ay
                }
        }
        (Some(a), Some(b)) => one(a) && one(b),
        _ => true,
    }
}

/// Splits direction letters into terms for an atom of shape `(x, y)`.
fn direction_terms(dirs: &str, x: i8, y: i8) -> Vec<String> {
    let diagonal = x == y;
    let oblique = x != y && x != 0 && y != 0;
    let pairs: &[&str] = if diagonal {
        &["fl", "fr", "bl", "br", "lf", "rf", "lb", "rb"]
    } else if oblique {
        &[
            "ff", "fs", "bb", "bs", "ll", "lv", "rr", "rv", "fl", "fr", "bl", "br",
        ]
    } else {
        &[]
    };
    let chars: Vec<char> = dirs.chars().collect();
    let mut terms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if i + 1 < chars.len() {
            let pair: String = chars[i..i + 2].iter().collect();
            if pairs.contains(&pair.as_str()) {
                terms.push(pair);
                i += 2;
                continue;
            }
        }
        terms.push(chars[i].to_string());
        i += 1;
    }
    terms
}

/// Parses a movement description into atoms, from White's side.
pub fn parse(text: &str) -> Result<Vec<Atom>, BetzaError> {
    let err = |reason: String| BetzaError {
        text: text.to_string(),
        reason,
    };
    let chars: Vec<char> = text.chars().collect();
    let mut atoms = Vec::new();
    let mut i = 0;
    if chars.is_empty() {
        return Err(err("empty description".into()));
    }
    while i < chars.len() {
        // Two-leg atoms: `a`, `fs`, an optional modality, then W or F.
        if chars[i] == 'a' {
            let rest: String = chars[i..].iter().collect();
            let (modality, atom_at) = if rest.starts_with("afsm") {
                (Modality::Move, 4)
            } else if rest.starts_with("afsc") {
                (Modality::Capture, 4)
            } else if rest.starts_with("afs") {
                (Modality::Both, 3)
            } else {
                return Err(err(
                    "only the two-leg forms afsW and afsF are supported".into()
                ));
            };
            let diagonal = match chars.get(i + atom_at) {
                Some('W') => false,
                Some('F') => true,
                _ => {
                    return Err(err(
                        "only the two-leg forms afsW and afsF are supported".into()
                    ))
                }
            };
            i += atom_at + 1;
            for (dx, dy) in orientations(2, 1) {
                // The first leg: orthogonally along the long side (Mao), or diagonally (Moa).
                let leg = if diagonal {
                    (dx.signum(), dy.signum())
                } else if dx.abs() == 2 {
                    (dx.signum(), 0)
                } else {
                    (0, dy.signum())
                };
                atoms.push(Atom {
                    dx,
                    dy,
                    range: 1,
                    modality,
                    initial: false,
                    lame: true,
                    leg: Some(leg),
                    files: ALL_FILES,
                });
            }
            continue;
        }
        // Prefix letters.
        let mut dirs = String::new();
        let (mut m, mut c, mut initial, mut lame) = (false, false, false, false);
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'm' => m = true,
                'c' => c = true,
                'i' => initial = true,
                'n' => lame = true,
                d @ ('f' | 'b' | 'l' | 'r' | 'v' | 's') => dirs.push(d),
                other => return Err(err(format!("unsupported modifier '{other}'"))),
            }
            i += 1;
        }
        let Some(&letter) = chars.get(i) else {
            return Err(err("modifiers without an atom at the end".into()));
        };
        i += 1;
        // Shorthands expand to base atoms with a rider flag.
        let bases: Vec<(char, bool)> = match letter {
            'K' => vec![('W', false), ('F', false)],
            'R' => vec![('W', true)],
            'B' => vec![('F', true)],
            'Q' => vec![('W', true), ('F', true)],
            l if leap_of(l).is_some() => vec![(l, false)],
            other => return Err(err(format!("unknown atom '{other}'"))),
        };
        // Rider suffix: a repeated letter or a number.
        let mut range: Option<u8> = None;
        if bases.len() == 1 && !bases[0].1 && chars.get(i) == Some(&letter) {
            range = Some(0);
            i += 1;
        } else if chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
            let start = i;
            while chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
                i += 1;
            }
            let n: u8 = chars[start..i]
                .iter()
                .collect::<String>()
                .parse()
                .map_err(|_| err("range too large".into()))?;
            range = Some(n);
        }
        let modality = match (m, c) {
            (true, false) => Modality::Move,
            (false, true) => Modality::Capture,
            _ => Modality::Both,
        };
        for (base, rider) in bases {
            let (x, y) = leap_of(base).expect("checked above");
            let range = match (rider, range) {
                (true, Some(n)) => n,
                (true, None) => 0,
                (false, Some(n)) => n,
                (false, None) => 1,
            };
            // A range of one is a plain leap; anything else slides.
            if range != 1 && !(base == 'W' || base == 'F') {
                return Err(err(format!("riders along '{base}' are not supported")));
            }
            if lame && range == 1 && x != y && y != 0 && !(x == 2 && y == 1) {
                return Err(err(format!("lame '{base}' is not supported")));
            }
            let terms = direction_terms(&dirs, x, y);
            for (dx, dy) in orientations(x, y) {
                if terms.is_empty() || terms.iter().any(|t| term_selects(t, dx, dy)) {
                    atoms.push(Atom {
                        dx,
                        dy,
                        range,
                        modality,
                        initial,
                        lame: lame && range == 1,
                        leg: None,
                        files: ALL_FILES,
                    });
                }
            }
        }
    }
    Ok(atoms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors(text: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<_> = parse(text).unwrap().iter().map(|a| (a.dx, a.dy)).collect();
        v.sort();
        v
    }

    #[test]
    fn leapers_have_all_orientations() {
        assert_eq!(vectors("N").len(), 8);
        assert_eq!(vectors("W").len(), 4);
        assert_eq!(vectors("F").len(), 4);
        assert_eq!(vectors("K").len(), 8);
        assert_eq!(vectors("G").len(), 4);
    }

    #[test]
    fn fide_pawn() {
        let atoms = parse("fmWfcFifmnD").unwrap();
        assert_eq!(atoms.len(), 4);
        assert_eq!(
            (atoms[0].dx, atoms[0].dy, atoms[0].modality),
            (0, 1, Modality::Move)
        );
        let caps: Vec<_> = atoms
            .iter()
            .filter(|a| a.modality == Modality::Capture)
            .map(|a| (a.dx, a.dy))
            .collect();
        assert_eq!(caps.len(), 2);
        assert!(caps.iter().all(|&(_, dy)| dy == 1));
        let double = atoms.iter().find(|a| a.initial).unwrap();
        assert_eq!((double.dx, double.dy, double.lame), (0, 2, true));
        assert_eq!(double.lame_path(), vec![(0, 1)]);
    }

    #[test]
    fn riders_and_ranges() {
        let q = parse("Q").unwrap();
        assert_eq!(q.len(), 8);
        assert!(q.iter().all(|a| a.range == 0));
        assert!(parse("WW").unwrap().iter().all(|a| a.range == 0));
        assert!(parse("W3").unwrap().iter().all(|a| a.range == 3));
        assert!(parse("NN").is_err());
    }

    #[test]
    fn direction_pairs() {
        assert_eq!(vectors("flF"), vec![(-1, 1)]);
        assert_eq!(vectors("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(vectors("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(vectors("fN").len(), 4);
        assert_eq!(vectors("sW"), vec![(-1, 0), (1, 0)]);
        assert_eq!(vectors("vW"), vec![(0, -1), (0, 1)]);
    }

    #[test]
    fn lame_knight_steps_orthogonally_first() {
        for a in parse("nN").unwrap() {
            let path = a.lame_path();
            assert_eq!(path.len(), 1);
            let (px, py) = path[0];
            assert!(px == 0 || py == 0);
            assert!((px == 0 && a.dy.abs() == 2) || (py == 0 && a.dx.abs() == 2));
        }
    }

    #[test]
    fn mao_and_moa() {
        // Mao (afsW): the knight leaps, each blocked on the orthogonal neighbour on its long side.
        let mao = parse("afsmW").unwrap();
        assert_eq!(mao.len(), 8);
        for a in &mao {
            assert_eq!(a.modality, Modality::Move);
            let (px, py) = a.lame_path()[0];
            assert_eq!(px.abs() + py.abs(), 1);
            assert!((px != 0 && a.dx.abs() == 2) || (py != 0 && a.dy.abs() == 2));
        }
        // Moa (afsF): blocked on the diagonal neighbour towards the target.
        let moa = parse("afscF").unwrap();
        assert_eq!(moa.len(), 8);
        for a in &moa {
            assert_eq!(a.modality, Modality::Capture);
            assert_eq!(a.lame_path(), vec![(a.dx.signum(), a.dy.signum())]);
        }
        assert_eq!(parse("mWafsmWcFafscF").unwrap().len(), 4 + 8 + 4 + 8);
        assert!(parse("afbW").is_err());
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(parse("").is_err());
        assert!(parse("fm").unwrap_err().reason.contains("without an atom"));
        assert!(parse("X").unwrap_err().reason.contains("unknown atom"));
        assert!(parse("qW").unwrap_err().reason.contains("modifier"));
    }
}
