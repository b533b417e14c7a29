//! Match settings, parsed from cutechess-cli style `KEY=VALUE` words into typed values.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Which protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCI.
    Uci,
    /// XBoard / CECP v2.
    Xboard,
}

/// How long engines may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock: `moves` per period (0: the whole game), `base` time, `inc` per move.
    Clock {
        moves: u32,
        base: Duration,
        inc: Duration,
    },
    /// A fixed time per move.
    PerMove(Duration),
    /// A fixed node count per move.
    Nodes(u64),
    /// No time limit (`tc=inf`): the engine's `depth=` bounds its search.
    Infinite,
}

impl TimeControl {
    /// The PGN `TimeControl` tag value.
    pub fn pgn(&self) -> String {
        match *self {
            TimeControl::Clock { moves, base, inc } => {
                let b = trim_secs(base);
                let i = if inc.is_zero() {
                    String::new()
                } else {
                    format!("+{}", trim_secs(inc))
                };
                if moves > 0 {
                    format!("{moves}/{b}{i}")
                } else {
                    format!("{b}{i}")
                }
            }
            TimeControl::PerMove(t) => format!("{}/move", trim_secs(t)),
            TimeControl::Nodes(n) => format!("{n} nodes/move"),
            TimeControl::Infinite => "-".to_string(),
        }
    }
}

fn trim_secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One engine of the match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Display name.
    pub name: String,
    /// Program.
    pub cmd: PathBuf,
    /// Arguments.
    pub args: Vec<String>,
    /// Working directory.
    pub dir: Option<PathBuf>,
    /// Protocol.
    pub proto: Proto,
    /// Engine options, sent as UCI `setoption` or CECP `option`.
    pub options: Vec<(String, String)>,
    /// Time control.
    pub tc: Option<TimeControl>,
    /// Grace beyond the clock before a move counts as late.
    pub time_margin: Duration,
    /// Search depth limit per move, if any.
    pub depth: Option<u32>,
}

/// A configuration error, in one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, ConfigError> {
    Err(ConfigError(msg.into()))
}

fn seconds(text: &str, what: &str) -> Result<Duration, ConfigError> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..1e7).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => err(format!("{what}: '{text}' is not a number of seconds")),
    }
}

/// Parses `tc=` values: `MOVES/TIME+INC`, `TIME+INC`, `TIME`, with TIME in seconds or `M:SS`.
pub fn parse_tc(text: &str) -> Result<TimeControl, ConfigError> {
    if text == "inf" || text == "infinite" {
        return Ok(TimeControl::Infinite);
    }
    let (moves, rest) = match text.split_once('/') {
        Some((m, r)) => (
            m.parse::<u32>()
                .map_err(|_| ConfigError(format!("tc={text}: '{m}' is not a move count")))?,
            r,
        ),
        None => (0, text),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (rest, None),
    };
    let what = format!("tc={text}");
    let base = match base.split_once(':') {
        Some((m, s)) => seconds(m, &what)? * 60 + seconds(s, &what)?,
        None => seconds(base, &what)?,
    };
    let inc = inc
        .map(|i| seconds(i, &what))
        .transpose()?
        .unwrap_or_default();
    if base.is_zero() {
        return err(format!("tc={text}: the time must be above zero"));
    }
    Ok(TimeControl::Clock { moves, base, inc })
}

/// Applies one `KEY=VALUE` setting to an engine.
pub fn apply(spec: &mut EngineSpec, word: &str) -> Result<(), ConfigError> {
    let Some((key, value)) = word.split_once('=') else {
        return err(format!("engine setting '{word}' is not KEY=VALUE"));
    };
    match key {
        "cmd" => spec.cmd = PathBuf::from(value),
        "arg" => spec.args.push(value.to_string()),
        "name" => spec.name = value.to_string(),
        "dir" => spec.dir = Some(PathBuf::from(value)),
        "proto" => {
            spec.proto = match value {
                "uci" => Proto::Uci,
                "xboard" | "cecp" => Proto::Xboard,
                _ => return err(format!("proto={value}: expected uci or xboard")),
            }
        }
        "tc" => {
            let tc = parse_tc(value)?;
            // `nodes=` then `tc=inf` keeps the node limit.
            if !(tc == TimeControl::Infinite && matches!(spec.tc, Some(TimeControl::Nodes(_)))) {
                spec.tc = Some(tc);
            }
        }
        "depth" => match value.parse::<u32>() {
            Ok(d) if d > 0 => spec.depth = Some(d),
            _ => return err(format!("depth={value}: expected a positive number")),
        },
        // Every game starts its engines afresh, which is restart=on; off is accepted.
        "restart" => match value {
            "on" | "off" => {}
            _ => return err(format!("restart={value}: expected on or off")),
        },
        "st" => spec.tc = Some(TimeControl::PerMove(seconds(value, "st")?)),
        "nodes" => match value.parse::<u64>() {
            Ok(n) if n > 0 => spec.tc = Some(TimeControl::Nodes(n)),
            _ => return err(format!("nodes={value}: expected a positive number")),
        },
        "timemargin" => match value.parse::<u64>() {
            Ok(ms) => spec.time_margin = Duration::from_millis(ms),
            Err(_) => return err(format!("timemargin={value}: expected milliseconds")),
        },
        k if k.starts_with("option.") && k.len() > "option.".len() => spec.options.push((k["option.".len()..].to_string(), value.to_string())),
        _ => return err(format!("unknown engine setting '{key}' (known: cmd, arg, name, dir, proto, tc, st, nodes, depth, timemargin, restart, option.NAME)")),
    }
    Ok(())
}

/// An engine from its `--engine` words and the `--each` words, which come first so that the
/// engine's own words win.
pub fn engine_spec(
    words: &[String],
    each: &[String],
    index: usize,
) -> Result<EngineSpec, ConfigError> {
    let mut spec = EngineSpec {
        name: String::new(),
        cmd: PathBuf::new(),
        args: Vec::new(),
        dir: None,
        proto: Proto::Uci,
        options: Vec::new(),
        tc: None,
        time_margin: Duration::from_millis(DEFAULT_TIME_MARGIN_MS),
        depth: None,
    };
    for w in each.iter().chain(words) {
        apply(&mut spec, w)?;
    }
    if spec.cmd.as_os_str().is_empty() {
        return err(format!("engine {} has no cmd=PATH", index + 1));
    }
    if spec.name.is_empty() {
        spec.name = spec.cmd.file_name().map_or_else(
            || format!("engine{}", index + 1),
            |n| n.to_string_lossy().into_owned(),
        );
    }
    if spec.tc.is_none() && spec.depth.is_some() {
        spec.tc = Some(TimeControl::Infinite);
    }
    if spec.tc.is_none() {
        return err(format!(
            "engine {} has no time control (tc=, st=, nodes= or depth=; --each applies one to all)",
            spec.name
        ));
    }
    if spec.tc == Some(TimeControl::Infinite) && spec.depth.is_none() {
        return err(format!(
            "engine {}: tc=inf needs depth= or nodes=, or its games could never end",
            spec.name
        ));
    }
    Ok(spec)
}

/// Default grace beyond the clock, in ms.
pub const DEFAULT_TIME_MARGIN_MS: u64 = 200;

/// Parses `KEY=VALUE` words of an option group (`--openings`, `--sprt`, `--draw`, `--resign`).
pub fn pairs(
    words: &[String],
    group: &str,
    known: &[&str],
) -> Result<Vec<(String, String)>, ConfigError> {
    let mut out = Vec::new();
    for w in words {
        let Some((k, v)) = w.split_once('=') else {
            return err(format!("{group}: '{w}' is not KEY=VALUE"));
        };
        if !known.contains(&k) {
            return err(format!(
                "{group}: unknown key '{k}' (known: {})",
                known.join(", ")
            ));
        }
        out.push((k.to_string(), v.to_string()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            parse_tc("40/60+0.6").unwrap(),
            TimeControl::Clock {
                moves: 40,
                base: Duration::from_secs(60),
                inc: Duration::from_millis(600)
            }
        );
        assert_eq!(
            parse_tc("3+0.05").unwrap(),
            TimeControl::Clock {
                moves: 0,
                base: Duration::from_secs(3),
                inc: Duration::from_millis(50)
            }
        );
        assert_eq!(
            parse_tc("1:30").unwrap(),
            TimeControl::Clock {
                moves: 0,
                base: Duration::from_secs(90),
                inc: Duration::ZERO
            }
        );
        assert_eq!(parse_tc("3+0.05").unwrap().pgn(), "3+0.05");
        assert!(parse_tc("abc").is_err());
        assert_eq!(parse_tc("inf").unwrap(), TimeControl::Infinite);
        assert!(parse_tc("40/").is_err());
        assert!(parse_tc("1+x").is_err());
        assert!(parse_tc("0+1").is_err());
    }

    #[test]
    fn engine_words() {
        let each = vec!["tc=3+0.05".to_string(), "proto=xboard".to_string()];
        let words = vec![
            "cmd=/bin/engine".to_string(),
            "proto=uci".to_string(),
            "option.Hash=32".to_string(),
        ];
        let spec = engine_spec(&words, &each, 0).unwrap();
        assert_eq!(
            spec.proto,
            Proto::Uci,
            "the engine's own words win over --each"
        );
        assert_eq!(spec.name, "engine");
        assert_eq!(spec.options, vec![("Hash".to_string(), "32".to_string())]);
        assert!(engine_spec(&["name=x".to_string()], &each, 0)
            .unwrap_err()
            .0
            .contains("cmd"));
        assert!(
            engine_spec(&["cmd=a".to_string(), "speed=9".to_string()], &each, 0)
                .unwrap_err()
                .0
                .contains("unknown engine setting")
        );
        let inf = |w: &[&str]| {
            let words: Vec<String> = w.iter().map(|s| s.to_string()).collect();
            engine_spec(&words, &[], 0)
        };
        assert!(inf(&["cmd=a", "tc=inf"]).unwrap_err().0.contains("depth="));
        let d = inf(&["cmd=a", "tc=inf", "depth=4"]).unwrap();
        assert_eq!((d.tc, d.depth), (Some(TimeControl::Infinite), Some(4)));
        assert_eq!(
            inf(&["cmd=a", "nodes=500", "tc=inf"]).unwrap().tc,
            Some(TimeControl::Nodes(500))
        );
    }
}
