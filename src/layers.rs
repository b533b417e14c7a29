//! The floors of the house and the test that keeps them importing one way
//! (`docs/architecture.md`, "Layers").
//!
//! Every top-level module of the library stands on one floor; a module may name its own floor's
//! module only if it is itself, and any module on a floor below. The test reads every `crate::...`
//! path (`use crate::x::...`, `use crate::{x, y}`, `crate::x::f(...)`, `$crate::x` in a macro)
//! and every `super::` path that climbs out of its top-level module, in every file of `src/`,
//! and fails on an import that runs back up, naming the file and the import. A macro exported
//! at the crate root (`crate::special_kinds!`) stands where it is defined.
//!
//! Test code is not production code: a `#[cfg(test)]` item (a `mod tests { ... }`, a test
//! helper function) and the files of a `#[cfg(test)] mod tests;` may assemble the whole house
//! to test a floor (a board test builds a real game), so they are skipped. `src/main.rs` is the
//! binary on the top floor and names the library as `menagerie::`; `src/lib.rs` only declares
//! the modules.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The floors from the ground up. `main.rs`, which only parses arguments and calls `cli`, stands
/// above them all.
pub const FLOORS: &[&[&str]] = &[
    // Squares, bitboards, pieces and moves.
    &["core"],
    // Piece movement as data, compiled into tables.
    &["rules"],
    // Positions, FEN, making a core move.
    &["board"],
    // The shared pipeline with the rules seam (`movegen::Hooks`), and move text.
    &["movegen", "notation"],
    // The games, the facade (`variants::Variant`), the registry.
    &["variants"],
    // What runs over a game without searching: evaluation, the game record, perft, the third
    // party's policy and seeded choice.
    &["eval", "game", "perft", "third_party"],
    // The search, and the tuner (which fits the evaluation's parameters to game results).
    &["search", "tune"],
    // The engine (a game with a search, the third party's engine policy) and `menagerie bench`.
    &["bench", "engine"],
    // The front ends: the protocols, the match runner (which reads CECP text), the browser board
    // (which writes the runner's PGN).
    &["protocol"],
    &["arena"],
    &["gui"],
    // The subcommands `main.rs` calls.
    &["cli"],
];

/// The floor of a top-level module, `None` if the map does not place it.
fn floor(module: &str) -> Option<usize> {
    FLOORS.iter().position(|f| f.contains(&module))
}

/// Replaces comments, string and character literals with spaces, keeping line breaks, so that
/// only code is read.
fn strip(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_'))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &c[i..j.min(c.len())] {
                blank(&mut out, ch);
            }
            i = j;
        } else if c[i] == '"' {
            blank(&mut out, c[i]);
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            if i < c.len() {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if c[i] == '\'' {
            // A character literal ('x', '\n', '\u{1F600}'), or a lifetime ('a), left as it is.
            let end = if next == Some('\\') {
                (i + 2..c.len()).find(|&j| c[j] == '\'')
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    for &ch in &c[i..=e] {
                        blank(&mut out, ch);
                    }
                    i = e + 1;
                }
                None => {
                    out.push(c[i]);
                    i += 1;
                }
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// Blanks every `#[cfg(test)]` item of stripped code, and returns the names of the file modules
/// it declares (`#[cfg(test)] mod tests;`).
fn drop_test_items(code: &mut String) -> Vec<String> {
    const MARK: &str = "#[cfg(test)]";
    let mut test_mods = Vec::new();
    while let Some(start) = code.find(MARK) {
        let b = code.as_bytes();
        let mut i = start + MARK.len();
        // Further attributes, then the item up to its `;` or its closing brace.
        let mut depth = 0i32;
        let mut end = b.len();
        let mut head_end = None;
        while i < b.len() {
            match b[i] {
                b'[' | b'(' => depth += 1,
                b']' | b')' => depth -= 1,
                b';' if depth == 0 => {
                    end = i + 1;
                    head_end = Some(i);
                    break;
                }
                b'{' if depth == 0 => {
                    let mut braces = 0;
                    while i < b.len() {
                        match b[i] {
                            b'{' => braces += 1,
                            b'}' => {
                                braces -= 1;
                                if braces == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                    end = (i + 1).min(b.len());
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        if let Some(h) = head_end {
            let words: Vec<&str> = code[start + MARK.len()..h].split_whitespace().collect();
            if let Some(p) = words.iter().position(|&w| w == "mod") {
                if let Some(name) = words.get(p + 1) {
                    test_mods.push(name.to_string());
                }
            }
        }
        let blanked: String = code[start..end]
            .chars()
            .map(|ch| if ch == '\n' { '\n' } else { ' ' })
            .collect();
        code.replace_range(start..end, &blanked);
    }
    test_mods
}

fn ident_at(b: &[u8], mut i: usize) -> (String, usize) {
    while i < b.len() && (b[i] as char).is_whitespace() {
        i += 1;
    }
    let s = i;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    (String::from_utf8_lossy(&b[s..i]).into_owned(), i)
}

/// The top-level modules a file's code names, with the line and the text of each naming.
/// `module_path` is the file's module path (`["variants", "afterlife", "turn"]`).
fn named_modules(code: &str, module_path: &[String]) -> Vec<(usize, String, String)> {
    let b = code.as_bytes();
    let mut found = Vec::new();
    let line_of = |i: usize| code[..i].matches('\n').count() + 1;
    let line_text = |i: usize| {
        let s = code[..i].rfind('\n').map_or(0, |p| p + 1);
        let e = code[i..].find('\n').map_or(code.len(), |p| i + p);
        code[s..e].trim().to_string()
    };
    let boundary = |i: usize| {
        i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':')
    };
    let mut i = 0;
    while i < b.len() {
        if code[i..].starts_with("crate::") && (boundary(i) || (i > 0 && b[i - 1] == b'$')) {
            let after = i + "crate::".len();
            let (name, j) = ident_at(b, after);
            if !name.is_empty() {
                found.push((line_of(i), name, line_text(i)));
            } else if b.get(j) == Some(&b'{') {
                // `crate::{a::X, b}`: the first name of each item at the group's top level.
                let mut k = j + 1;
                let mut depth = 0;
                let mut at_item = true;
                while k < b.len() {
                    match b[k] {
                        b'{' => depth += 1,
                        b'}' if depth == 0 => break,
                        b'}' => depth -= 1,
                        b',' if depth == 0 => at_item = true,
                        c if at_item && (c.is_ascii_alphabetic() || c == b'_') => {
                            let (name, e) = ident_at(b, k);
                            if name != "self" {
                                found.push((line_of(i), name, line_text(i)));
                            }
                            at_item = false;
                            k = e;
                            continue;
                        }
                        _ => {}
                    }
                    k += 1;
                }
            }
            i = after;
        } else if code[i..].starts_with("super::") && boundary(i) {
            let mut up = 0;
            let mut j = i;
            while code[j..].starts_with("super::") {
                up += 1;
                j += "super::".len();
            }
            let (name, _) = ident_at(b, j);
            // `super` from a file's module: its parent; from the crate root's children, the
            // crate root, whose names are top-level modules.
            if up >= module_path.len() && !name.is_empty() {
                found.push((line_of(i), name, line_text(i)));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    found
}

/// A file of `src/` with its module path and its text.
pub struct SourceFile {
    /// Relative to the crate root, for messages (`src/board/fen.rs`).
    pub path: String,
    /// The module path (`board`, `fen`).
    pub module: Vec<String>,
    /// Whether it is test code as a whole (a `#[cfg(test)] mod tests;` file).
    pub test_only: bool,
    /// The text.
    pub text: String,
}

/// The macros exported at the crate root (`#[macro_export] macro_rules! name`), with the
/// top-level module that defines each: `crate::name!` names that module.
fn exported_macros(files: &[SourceFile]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for f in files {
        let Some(top) = f.module.first() else {
            continue;
        };
        let code = strip(&f.text);
        let mut rest = code.as_str();
        while let Some(at) = rest.find("#[macro_export]") {
            rest = &rest[at + "#[macro_export]".len()..];
            let words: Vec<&str> = rest.split_whitespace().take(2).collect();
            if let [kw, name] = words.as_slice() {
                if *kw == "macro_rules!" {
                    let name = name.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_');
                    out.push((name.to_string(), top.clone()));
                }
            }
        }
    }
    out
}

/// Every import of `files` that runs back up the floors, as `file:line: message` lines.
pub fn back_edges(files: &[SourceFile]) -> Vec<String> {
    let mut errors = Vec::new();
    let macros = exported_macros(files);
    for f in files.iter().filter(|f| !f.test_only) {
        let Some(top) = f.module.first() else {
            continue;
        };
        let Some(own) = floor(top) else {
            errors.push(format!(
                "{}: module `{top}` stands on no floor of `layers::FLOORS`",
                f.path
            ));
            continue;
        };
        let mut code = strip(&f.text);
        drop_test_items(&mut code);
        for (line, name, text) in named_modules(&code, &f.module) {
            // An exported macro stands where it is defined.
            let name = macros
                .iter()
                .find(|(m, _)| *m == name)
                .map_or(name, |(_, module)| module.clone());
            if name == *top {
                continue;
            }
            match floor(&name) {
                Some(theirs) if theirs < own => {}
                Some(theirs) => errors.push(format!(
                    "{}:{line}: `{top}` (floor {own}) names `crate::{name}` (floor {theirs}): {text}",
                    f.path
                )),
                None => errors.push(format!(
                    "{}:{line}: `{top}` names `crate::{name}`, which stands on no floor: {text}",
                    f.path
                )),
            }
        }
    }
    errors
}

/// Reads the library's files under `src/`, marking the files of `#[cfg(test)]` modules.
pub fn read_sources(root: &Path) -> Vec<SourceFile> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir)
            .expect("src/ is readable")
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    let src = root.join("src");
    let mut paths = Vec::new();
    walk(&src, &mut paths);
    let mut files: Vec<SourceFile> = Vec::new();
    for p in paths {
        let rel = p.strip_prefix(&src).expect("under src");
        let mut module: Vec<String> = rel
            .iter()
            .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        if module == ["main"] {
            continue;
        }
        if module == ["lib"] {
            // The crate root: read for its `#[cfg(test)]` modules, with no floor of its own.
            module.clear();
        }
        files.push(SourceFile {
            path: format!("src/{}", rel.to_string_lossy()),
            module,
            test_only: false,
            text: fs::read_to_string(&p).expect("a source file is UTF-8"),
        });
    }
    // A `#[cfg(test)] mod x;` makes the file module `x` beside it, and every file under it,
    // test code.
    let mut test_modules: BTreeSet<Vec<String>> = BTreeSet::new();
    for f in &files {
        let mut code = strip(&f.text);
        for m in drop_test_items(&mut code) {
            // `src/x.rs` and `src/x/mod.rs` both declare `x::m`; `src/lib.rs` declares `m`.
            let mut path = f.module.clone();
            path.push(m);
            test_modules.insert(path);
        }
    }
    for f in &mut files {
        f.test_only = test_modules
            .iter()
            .any(|t| f.module.len() >= t.len() && f.module[..t.len()] == t[..]);
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, text: &str) -> SourceFile {
        let rel = path.trim_start_matches("src/").trim_end_matches(".rs");
        let mut module: Vec<String> = rel.split('/').map(str::to_string).collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        SourceFile {
            path: path.to_string(),
            module,
            test_only: false,
            text: text.to_string(),
        }
    }

    /// The house as it stands imports one way.
    #[test]
    fn every_import_runs_down_the_floors() {
        let files = read_sources(Path::new(env!("CARGO_MANIFEST_DIR")));
        assert!(files.len() > 50, "the sources were read");
        let errors = back_edges(&files);
        assert!(
            errors.is_empty(),
            "imports that run back up:\n{}",
            errors.join("\n")
        );
    }

    /// The checker finds a back edge in each form a path takes, and only in code.
    #[test]
    fn back_edges_are_found_in_every_form() {
        let cases = [
            ("src/board/x.rs", "use crate::search::Limits;", true),
            (
                "src/board/x.rs",
                "use crate::{core::Square, variants::Variant};",
                true,
            ),
            ("src/board/x.rs", "fn f() { crate::movegen::play(); }", true),
            (
                "src/movegen/x.rs",
                "fn f() -> u32 { crate::bench::DEFAULT_DEPTH }",
                true,
            ),
            ("src/eval.rs", "use super::variants::Variant;", false),
            ("src/eval.rs", "use super::search::Limits;", true),
            (
                "src/core/x.rs",
                "macro_rules! m { () => { $crate::rules::Rules } }",
                true,
            ),
            ("src/movegen/x.rs", "use crate::notation::Dialect;", true),
            // Down the floors, within the module, or not code at all.
            (
                "src/search/x.rs",
                "use crate::{core::Square, variants::Variant};",
                false,
            ),
            (
                "src/board/x.rs",
                "use crate::board::Position; use super::y;",
                false,
            ),
            (
                "src/board/x.rs",
                "// crate::search::x\n/* crate::gui */ fn f() {}",
                false,
            ),
            (
                "src/board/x.rs",
                "const S: &str = \"crate::search::x\";",
                false,
            ),
            (
                "src/board/x.rs",
                "const C: char = '\"'; // crate::search",
                false,
            ),
            (
                "src/board/x.rs",
                "fn f() {}\n#[cfg(test)]\nmod tests {\n use crate::search::x; fn g() { {} }\n}",
                false,
            ),
            (
                "src/board/x.rs",
                "#[cfg(test)]\nfn helper() {}\nfn f() { crate::search::x(); }",
                true,
            ),
        ];
        for (path, text, bad) in cases {
            let errors = back_edges(&[file(path, text)]);
            assert_eq!(!errors.is_empty(), bad, "{path}: {text}: {errors:?}");
            if bad {
                assert!(errors[0].starts_with(path), "{errors:?}");
            }
        }
        // An exported macro names the module that defines it.
        let defines = "#[macro_export]\nmacro_rules! kinds { () => {} }";
        let core = file("src/core/m.rs", defines);
        let search = file("src/search/m.rs", defines);
        let user = file("src/board/x.rs", "crate::kinds! {}");
        assert!(back_edges(&[core, file("src/board/x.rs", "crate::kinds! {}")]).is_empty());
        let errors = back_edges(&[search, user]);
        assert!(errors[0].contains("`crate::search`"), "{errors:?}");
        let errors = back_edges(&[file("src/newfloor/x.rs", "")]);
        assert!(errors[0].contains("no floor"), "{errors:?}");
    }
}
