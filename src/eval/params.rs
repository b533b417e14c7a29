//! The evaluation's parameters as data: a list of named weights per game, the shared defaults
//! replaced by what the game's parameter file sets. The files are compiled in and read once;
//! a test checks that every shipped file reads and names only parameters its game has.
//!
//! A file is text, one parameter a line: `name middlegame endgame`, the values integers in
//! centipawns (per unit of the feature the name stands for), or `name value` for both phases.
//! Blank lines and text after `#` are ignored. A parameter the file does not name keeps its
//! shared default (the same in both phases).

use super::Layout;
use crate::variants::Variant;
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// The parameter files shipped with the engine, by variant name (a variant of a game reads the
/// game's file).
const SHIPPED: &[(&str, &str)] = &[
    ("chess", include_str!("params/chess.txt")),
    ("divergent", include_str!("params/divergent.txt")),
    ("magician", include_str!("params/magician.txt")),
    ("schizophrenic", include_str!("params/schizophrenic.txt")),
    ("existentialist", include_str!("params/existentialist.txt")),
    ("afterlife", include_str!("params/afterlife.txt")),
    (
        "afterlife-optional-limbo",
        include_str!("params/afterlife.txt"),
    ),
    ("chaos", include_str!("params/chaos.txt")),
];

/// The text of the parameter file shipped for `variant`, if there is one.
pub fn shipped_file(variant: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(n, _)| *n == variant).map(|(_, t)| *t)
}

/// A line of a parameter file that cannot be read, or names a parameter the game lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The line, counted from 1.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParamError {}

/// One line of a parameter file: its number, the name and the values (middlegame, endgame).
type Entry = (usize, String, i32, i32);

/// Reads the lines of a parameter file.
pub fn parse(text: &str) -> Result<Vec<Entry>, ParamError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |message: String| ParamError {
            line: line_no,
            message,
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (name, values) = match fields[..] {
            [name, v] => (name, [v, v]),
            [name, mg, eg] => (name, [mg, eg]),
            _ => {
                return Err(err(format!(
                    "expected 'name value' or 'name middlegame endgame', found '{line}'"
                )))
            }
        };
        let number = |v: &str| {
            v.parse::<i32>()
                .map_err(|_| err(format!("'{v}' is not an integer")))
        };
        let (mg, eg) = (number(values[0])?, number(values[1])?);
        if out.iter().any(|(_, n, _, _): &Entry| n == name) {
            return Err(err(format!("'{name}' is set twice")));
        }
        out.push((line_no, name.to_string(), mg, eg));
    }
    Ok(out)
}

/// The directory named by this environment variable, if set, holds parameter files
/// (`<game>.txt`) read instead of the shipped ones: a tuned file can be played against the
/// shipped one without a build (docs/tuning.md). A file there that cannot be read or parsed
/// leaves the shipped file in force.
pub const PARAMS_DIR_VAR: &str = "MENAGERIE_PARAMS_DIR";

/// The shipped files (or their replacements from [`PARAMS_DIR_VAR`]), read once.
fn shipped_entries(variant: &str) -> Option<&'static Result<Vec<Entry>, ParamError>> {
    static READ: OnceLock<HashMap<&'static str, Result<Vec<Entry>, ParamError>>> = OnceLock::new();
    READ.get_or_init(|| {
        let dir = std::env::var_os(PARAMS_DIR_VAR).map(std::path::PathBuf::from);
        SHIPPED
            .iter()
            .map(|(n, t)| {
                let replaced = dir
                    .as_ref()
                    .and_then(|d| {
                        std::fs::read_to_string(d.join(format!("{}.txt", shipped_name(n)))).ok()
                    })
                    .and_then(|text| parse(&text).ok());
                (*n, replaced.map_or_else(|| parse(t), Ok))
            })
            .collect()
    })
    .get(variant)
}

/// The named weights of a game's evaluation, in the order of its [`Layout`], each with a
/// middlegame and an endgame value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    names: Vec<String>,
    values: Vec<(i32, i32)>,
}

impl Params {
    /// The parameters of `variant`: the shared defaults and what its shipped file sets. A
    /// shipped file that does not read leaves the defaults (a test keeps that from happening).
    pub fn for_variant(variant: &dyn Variant) -> (Layout, Params) {
        let (layout, defaults) = Layout::new(variant);
        let mut params = defaults.clone();
        if let Some(Ok(entries)) = shipped_entries(variant.name()) {
            if params.apply(entries).is_err() {
                params = defaults;
            }
        }
        (layout, params)
    }

    /// Appends a parameter; its index.
    pub(super) fn push(&mut self, name: String, value: i32) -> usize {
        self.names.push(name);
        self.values.push((value, value));
        self.names.len() - 1
    }

    /// How many parameters there are.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The name of parameter `i`.
    pub fn name(&self, i: usize) -> &str {
        &self.names[i]
    }

    /// The values of parameter `i`: middlegame, endgame.
    #[inline]
    pub fn value(&self, i: usize) -> (i32, i32) {
        self.values[i]
    }

    /// Sets parameter `i`: middlegame, endgame.
    pub fn set(&mut self, i: usize, mg: i32, eg: i32) {
        self.values[i] = (mg, eg);
    }

    /// The index of the parameter called `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Sets the parameters a file's lines name; an unknown name is an error (nothing is set).
    fn apply(&mut self, entries: &[Entry]) -> Result<(), ParamError> {
        // By name, the first of a name as `find` gives it: a game's file sets hundreds of
        // parameters, and every search builds its evaluation.
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(self.names.len());
        for (i, n) in self.names.iter().enumerate() {
            index.entry(n.as_str()).or_insert(i);
        }
        let mut found = Vec::with_capacity(entries.len());
        for (line, name, mg, eg) in entries {
            let i = *index.get(name.as_str()).ok_or_else(|| ParamError {
                line: *line,
                message: format!("no parameter '{name}' in this game"),
            })?;
            found.push((i, (*mg, *eg)));
        }
        for (i, v) in found {
            self.values[i] = v;
        }
        Ok(())
    }

    /// Sets the parameters the text of a parameter file names.
    pub fn read(&mut self, text: &str) -> Result<(), ParamError> {
        self.apply(&parse(text)?)
    }

    /// The parameters as the text of a parameter file, after `header` (lines given `# `).
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        for (n, &(mg, eg)) in self.names.iter().zip(&self.values) {
            if mg == eg {
                out.push_str(&format!("{n} {mg}\n"));
            } else {
                out.push_str(&format!("{n} {mg} {eg}\n"));
            }
        }
        out
    }
}

/// The first line of a parameter file's header that `menagerie tune` writes.
const TUNED_MARK: &str = "Written by `menagerie tune`";

/// The piece values `variant` plays with, as the Markdown block its rules page carries
/// (`docs/rules/<game>.md`, between [`TABLE_BEGIN`] and [`TABLE_END`]; a test keeps the two the
/// same): a line saying where the numbers come from, then one row a kind with a value, in pawns
/// (centipawns / 100), middlegame and endgame.
pub fn value_table(variant: &dyn Variant) -> String {
    let (layout, params) = Params::for_variant(variant);
    let file = SHIPPED
        .iter()
        .find(|(n, _)| *n == variant.name())
        .map_or("", |(_, t)| *t);
    let source = file
        .lines()
        .filter_map(|l| l.strip_prefix("# "))
        .find(|l| l.starts_with(TUNED_MARK))
        .map_or_else(
            || "Not tuned yet: the shared defaults.".to_string(),
            |l| {
                // "Written by `menagerie tune` from N positions: K ..., loss ..."
                let rest = l[TUNED_MARK.len()..].trim();
                let from = rest.split(':').next().unwrap_or(rest);
                format!("Learned by `menagerie tune` {from} of self-play (docs/tuning.md).")
            },
        );
    let rules = variant.rules();
    let mut out = format!(
        "{source} Generated from `src/eval/params/{}.txt`.\n\n\
         | piece | middlegame | endgame |\n|---|---|---|\n",
        shipped_name(variant.name())
    );
    for ki in 0..rules.num_kinds() {
        let Some(i) = layout.value[ki] else { continue };
        let (mg, eg) = params.value(i);
        out.push_str(&format!(
            "| {} ({}) | {:.2} | {:.2} |\n",
            rules.kinds[ki].spec.name,
            rules.kinds[ki].spec.letter,
            f64::from(mg) / 100.0,
            f64::from(eg) / 100.0
        ));
    }
    out
}

/// The game whose parameter file `variant` reads (a variant of a game reads the game's).
fn shipped_name(variant: &str) -> &str {
    if variant == "afterlife-optional-limbo" {
        "afterlife"
    } else {
        variant
    }
}

/// The lines around the generated table of learned values in `docs/rules/<game>.md`.
pub const TABLE_BEGIN: &str = "<!-- learned values: generated, see docs/tuning.md -->";
pub const TABLE_END: &str = "<!-- end of learned values -->";
