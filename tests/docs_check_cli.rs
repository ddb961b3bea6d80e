//! `docs/ARCHITECTURE.md` states only what the tree holds, in at most
//! 25,000 characters. Every file path it names in backticks exists, and
//! every Rust or JavaScript name it gives in code form (`kifu_store::Store`,
//! `Store::commit`, `replay_json()`, `GameState`, `SETTLE_AT`) is defined
//! somewhere in the sources: as a `fn`, `struct`, `enum`, `trait`, `mod`
//! (or a module's file), `const`, `static`, `type`, an enum variant, or a
//! JavaScript `function`, `class` or export. Every segment of a path is
//! checked: a crate name against `crates/`, what follows it in that crate
//! (its own items and re-exports), and a `Type::member` among the type's
//! variants and the items of its `impl` blocks.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The longest the architecture document may be, in characters.
const MAX_CHARS: usize = 25_000;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What the sources define, and which files the tree holds.
struct Tree {
    root: PathBuf,
    /// Names defined by a Rust item, a module file, an enum variant, or a
    /// JavaScript function, class or export.
    names: HashSet<String>,
    /// File names (`ingest.rs`), to find a bare one anywhere.
    file_names: HashSet<String>,
    /// Crate names as Rust spells them (`kifu_store`).
    crates: HashSet<String>,
    /// The names each crate defines or re-exports (`pub use`), by crate: a
    /// path that starts with a crate's name is looked for in that crate.
    crate_names: HashMap<String, HashSet<String>>,
    /// What a type or trait holds: an enum's variants, the functions and
    /// constants of its `impl` blocks, a trait's items.
    members: HashMap<String, HashSet<String>>,
}

impl Tree {
    fn read(root: &Path) -> Tree {
        let mut tree = Tree {
            root: root.to_path_buf(),
            names: HashSet::new(),
            file_names: HashSet::new(),
            crates: HashSet::new(),
            crate_names: HashMap::new(),
            members: HashMap::new(),
        };
        for entry in std::fs::read_dir(root.join("crates")).expect("crates/") {
            let name = entry.expect("an entry").file_name();
            tree.crates.insert(name.to_string_lossy().replace('-', "_"));
        }
        for dir in ["crates", "tests", "benches", "fixtures", "docs"] {
            tree.walk(&root.join(dir));
        }
        tree
    }

    fn walk(&mut self, dir: &Path) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            if path.is_dir() {
                if name != "target" && name != "node_modules" && !name.starts_with('.') {
                    self.walk(&path);
                }
                continue;
            }
            self.file_names.insert(name.clone());
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            match ext {
                "rs" => {
                    let mut names = HashSet::new();
                    if let Some(stem) = path.file_stem() {
                        names.insert(stem.to_string_lossy().to_string());
                    }
                    if let Ok(text) = std::fs::read_to_string(&path) {
                        rust_names(&text, &mut names);
                        rust_members(&text, &mut self.members);
                        if let Some(krate) = self.crate_of(&path) {
                            let own = self.crate_names.entry(krate).or_default();
                            own.extend(names.iter().cloned());
                            reexported_names(&text, own);
                        }
                    }
                    self.names.extend(names);
                }
                "js" | "mjs" => {
                    if let Ok(text) = std::fs::read_to_string(&path) {
                        js_names(&text, &mut self.names);
                    }
                }
                _ => {}
            }
        }
    }

    /// The crate a file under `crates/` belongs to, as Rust spells it.
    fn crate_of(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(self.root.join("crates")).ok()?;
        let dir = rel.components().next()?.as_os_str().to_string_lossy();
        Some(dir.replace('-', "_"))
    }

    /// What is wrong with one code span of the document, if anything.
    fn problem(&self, span: &str) -> Option<String> {
        match classify(span)? {
            Claim::File(path) => {
                let found = if path.contains('/') {
                    self.root.join(path.trim_end_matches('/')).exists()
                } else {
                    self.file_names.contains(path)
                };
                (!found).then(|| format!("`{span}`: no such file"))
            }
            Claim::Name(segments) => {
                // `kifu_store::...`: the rest is looked for in that crate.
                let within = self.crate_names.get(segments[0]);
                for (i, s) in segments.iter().enumerate() {
                    let known = if i == 0 && s.starts_with("kifu_") {
                        self.crates.contains(*s)
                    } else if let Some(own) = within {
                        own.contains(*s)
                    } else {
                        self.names.contains(*s)
                    };
                    if !known {
                        return Some(format!("`{span}`: `{s}` is defined nowhere"));
                    }
                    // `Type::member`: the member is the type's own.
                    if i > 0 {
                        if let Some(members) = self.members.get(segments[i - 1]) {
                            if !members.contains(*s) {
                                return Some(format!(
                                    "`{span}`: `{}` holds no `{s}`",
                                    segments[i - 1]
                                ));
                            }
                        }
                    }
                }
                None
            }
        }
    }
}

/// What a code span claims exists.
#[derive(Debug, PartialEq)]
enum Claim<'a> {
    /// A file or folder (`crates/kifu-store/src/lib.rs`, `ingest.rs`).
    File(&'a str),
    /// A Rust or JavaScript name, by its segments.
    Name(Vec<&'a str>),
}

const FILE_ENDINGS: &[&str] = &[
    ".rs", ".js", ".mjs", ".md", ".json", ".toml", ".html", ".css", ".py", ".kifu",
];

/// Whether a code span names a file or a name, and which; `None` for
/// everything else a span holds (commands, routes, JSON, values).
fn classify(span: &str) -> Option<Claim<'_>> {
    let span = span.trim();
    if span.contains(char::is_whitespace) || span.is_empty() {
        return None;
    }
    if FILE_ENDINGS.iter().any(|e| span.ends_with(e))
        || (span.ends_with('/') && span.len() > 1 && !span.starts_with('/'))
    {
        // A route (`/web/{file}`) or a pattern (`<data>/...`) is no file.
        if span.starts_with('/') || span.contains(['{', '<', '*']) {
            return None;
        }
        return Some(Claim::File(span));
    }
    let called = span.strip_suffix("()");
    let bare = called.unwrap_or(span);
    let is_ident = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !s.starts_with(|c: char| c.is_ascii_digit())
    };
    let segments: Vec<&str> = bare.split("::").collect();
    if !segments.iter().all(|s| is_ident(s)) {
        return None;
    }
    let one = segments[0];
    let camel = one.starts_with(|c: char| c.is_ascii_uppercase())
        && one.chars().any(|c| c.is_ascii_lowercase());
    let constant = one.len() > 2
        && one.contains('_')
        && one
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if segments.len() > 1 || called.is_some() || camel || constant {
        Some(Claim::Name(segments))
    } else {
        None
    }
}

/// The names a Rust source defines: items (at any depth: methods in `impl`
/// blocks too), loosely, enum variants, and the environment variables it
/// reads (a string in capitals, `"KIFU_FIXTURES_DIR"`).
fn rust_names(text: &str, names: &mut HashSet<String>) {
    for quoted in text.split('"').skip(1).step_by(2) {
        if quoted.len() > 2
            && quoted.contains('_')
            && quoted
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        {
            names.insert(quoted.to_string());
        }
    }
    const ITEMS: &[&str] = &[
        "fn ",
        "struct ",
        "enum ",
        "trait ",
        "mod ",
        "const ",
        "static ",
        "type ",
        "union ",
        "macro_rules! ",
    ];
    for line in text.lines() {
        let mut t = line.trim_start();
        if t.starts_with("//") {
            continue;
        }
        let indented = t.len() < line.len();
        // `pub(crate) const fn name`: the qualifiers go, the item stays.
        loop {
            let before = t.len();
            for prefix in [
                "pub(crate) ",
                "pub(super) ",
                "pub ",
                "default ",
                "async ",
                "unsafe ",
                "extern \"C\" ",
            ] {
                t = t.strip_prefix(prefix).unwrap_or(t);
            }
            if t.starts_with("const fn ") {
                t = &t["const ".len()..];
            }
            if t.len() == before {
                break;
            }
        }
        for item in ITEMS {
            if let Some(rest) = t.strip_prefix(item) {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    names.insert(name);
                }
            }
        }
        // An enum variant: an indented capitalised name alone, or followed
        // by its fields or a comma (`Conflict,`, `Seq(u64)`, `Local(Store),`).
        if indented {
            let name: String = t
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let after = t[name.len()..].trim_start();
            if name.starts_with(|c: char| c.is_ascii_uppercase())
                && (after.is_empty()
                    || after.starts_with(',')
                    || after.starts_with('(')
                    || after.starts_with('{')
                    || after.starts_with('='))
            {
                names.insert(name);
            }
        }
    }
}

/// The names a Rust source re-exports (`pub use a::{b, c as d};`), loosely:
/// every name in the statement.
fn reexported_names(text: &str, names: &mut HashSet<String>) {
    let mut inside = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("pub use ") || t.starts_with("pub(crate) use ") {
            inside = true;
        }
        if inside {
            for word in t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                if !word.is_empty() {
                    names.insert(word.to_string());
                }
            }
            if t.contains(';') {
                inside = false;
            }
        }
    }
}

/// The members of each enum, trait and `impl` block of a Rust source, by
/// the type's name. Braces are counted line by line, which the sources'
/// formatting (rustfmt) makes enough.
fn rust_members(text: &str, members: &mut HashMap<String, HashSet<String>>) {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    // (the type, the depth inside its block, whether it is an enum)
    let mut open: Vec<(String, usize, bool)> = Vec::new();
    let mut depth = 0usize;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("//") {
            continue;
        }
        let mut item = t;
        for prefix in ["pub(crate) ", "pub(super) ", "pub ", "unsafe "] {
            item = item.strip_prefix(prefix).unwrap_or(item);
        }
        if let Some((owner, inner, is_enum)) = open.last() {
            if depth == *inner {
                let members = members.entry(owner.clone()).or_default();
                let mut it = item;
                loop {
                    let before = it.len();
                    for prefix in ["default ", "async ", "unsafe "] {
                        it = it.strip_prefix(prefix).unwrap_or(it);
                    }
                    if it.starts_with("const fn ") {
                        it = &it["const ".len()..];
                    }
                    if it.len() == before {
                        break;
                    }
                }
                for kw in ["fn ", "const ", "type "] {
                    if let Some(rest) = it.strip_prefix(kw) {
                        members.insert(ident(rest));
                    }
                }
                if *is_enum {
                    let name = ident(t);
                    if name.starts_with(|c: char| c.is_ascii_uppercase()) {
                        members.insert(name);
                    }
                }
            }
        }
        let header = if let Some(rest) = item.strip_prefix("enum ") {
            Some((ident(rest), true))
        } else if let Some(rest) = item.strip_prefix("trait ") {
            Some((ident(rest), false))
        } else if item.starts_with("impl")
            && (item.starts_with("impl ") || item.starts_with("impl<"))
        {
            // `impl<T> Trait for Type<T> {` or `impl Type {`: the type.
            let head = item.split('{').next().unwrap_or(item);
            let head = head.split(" where").next().unwrap_or(head);
            let target = match head.rsplit_once(" for ") {
                Some((_, ty)) => ty,
                None => head.trim_start_matches("impl").trim_start(),
            };
            // Skip the impl's own generics, then take the path's last name.
            let target = if target.starts_with('<') {
                let mut level = 0;
                let mut end = 0;
                for (i, c) in target.char_indices() {
                    match c {
                        '<' => level += 1,
                        '>' => {
                            level -= 1;
                            if level == 0 {
                                end = i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                target[end..].trim_start()
            } else {
                target
            };
            let path = target.split('<').next().unwrap_or(target).trim();
            let name = path
                .rsplit("::")
                .next()
                .unwrap_or(path)
                .trim_start_matches('&');
            Some((ident(name), false))
        } else {
            None
        };
        let opens = line.matches('{').count();
        let closes = line.matches('}').count();
        if let Some((name, is_enum)) = header {
            if !name.is_empty() && opens > closes {
                open.push((name, depth + 1, is_enum));
            }
        }
        depth = (depth + opens).saturating_sub(closes);
        while open.last().is_some_and(|(_, inner, _)| depth < *inner) {
            open.pop();
        }
    }
}

/// The names a JavaScript module defines: functions, classes and exports.
fn js_names(text: &str, names: &mut HashSet<String>) {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
            .collect()
    };
    for line in text.lines() {
        let t = line.trim_start();
        let t = t.strip_prefix("export ").unwrap_or(t);
        let t = t.strip_prefix("default ").unwrap_or(t);
        let t = t.strip_prefix("async ").unwrap_or(t);
        for kw in ["function* ", "function ", "class ", "const ", "let "] {
            if let Some(rest) = t.strip_prefix(kw) {
                let name = ident(rest);
                if !name.is_empty() {
                    names.insert(name);
                }
            }
        }
        if let Some(list) = line.trim_start().strip_prefix("export {") {
            for part in list.split([',', '}']) {
                let part = part.trim();
                let name = part.rsplit(" as ").next().unwrap_or(part);
                let name = ident(name);
                if !name.is_empty() {
                    names.insert(name);
                }
            }
        }
    }
}

/// The code spans of a Markdown text (single backticks, outside fenced
/// blocks).
fn code_spans(text: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut parts = line.split('`');
        parts.next();
        while let (Some(inside), Some(_)) = (parts.next(), parts.next()) {
            spans.push(inside.to_string());
        }
    }
    // A span broken over two lines is joined by Markdown; the document
    // keeps code spans on one line, so such a span is lost here rather
    // than misread.
    spans
}

fn problems(tree: &Tree, text: &str) -> Vec<String> {
    let mut out: Vec<String> = code_spans(text)
        .iter()
        .filter_map(|s| tree.problem(s))
        .collect();
    out.dedup();
    out
}

#[test]
fn the_architecture_names_only_what_the_tree_holds() {
    let root = workspace();
    let text = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).expect("the document");
    let chars = text.chars().count();
    assert!(
        chars <= MAX_CHARS,
        "docs/ARCHITECTURE.md is {chars} characters; at most {MAX_CHARS}"
    );
    let tree = Tree::read(&root);
    let found = problems(&tree, &text);
    assert!(
        found.is_empty(),
        "docs/ARCHITECTURE.md names what the tree does not hold:\n{}",
        found.join("\n")
    );
    // The check checks something: the document names files and code.
    let checked = code_spans(&text)
        .iter()
        .filter(|s| classify(s).is_some())
        .count();
    assert!(checked > 100, "only {checked} names checked");
}

#[test]
fn a_made_up_name_or_file_is_caught() {
    let tree = Tree::read(&workspace());
    let text = "The writer calls `Store::commit`, `LedgerError::Conflict`, `Engine::exchange()` and `kifu_store::Store::commit_prepared` \
                in `crates/kifu-store/src/batch.rs`; the page's `seatFrom()` draws.\n\
                Then `kifu_store::Store::commit_gloriously`, `kifu_stor::Store`, `kifu_tlog::GameState`, \
                `crates/kifu-store/src/nowhere.rs`, `MadeUpState`, `flyAway()`, \
                `MAX_WONDERS` and `StoreError::Conflict` are made up, and `kifu serve`, `POST /records`, `--json` \
                are no names.";
    let found = problems(&tree, text);
    assert_eq!(
        found,
        [
            "`kifu_store::Store::commit_gloriously`: `commit_gloriously` is defined nowhere",
            "`kifu_stor::Store`: `kifu_stor` is defined nowhere",
            "`kifu_tlog::GameState`: `GameState` is defined nowhere",
            "`crates/kifu-store/src/nowhere.rs`: no such file",
            "`MadeUpState`: `MadeUpState` is defined nowhere",
            "`flyAway()`: `flyAway` is defined nowhere",
            "`MAX_WONDERS`: `MAX_WONDERS` is defined nowhere",
            "`StoreError::Conflict`: `StoreError` holds no `Conflict`",
        ],
        "{found:#?}"
    );
}

#[test]
fn spans_are_read_as_files_names_or_neither() {
    assert_eq!(classify("web/board.js"), Some(Claim::File("web/board.js")));
    assert_eq!(classify("ingest.rs"), Some(Claim::File("ingest.rs")));
    assert_eq!(classify("/web/{file}"), None);
    assert_eq!(classify("<data>/tournaments/<id>.kifu"), None);
    assert_eq!(
        classify("kifu_game::GameState::at"),
        Some(Claim::Name(vec!["kifu_game", "GameState", "at"]))
    );
    assert_eq!(
        classify("replay_json()"),
        Some(Claim::Name(vec!["replay_json"]))
    );
    assert_eq!(classify("GameState"), Some(Claim::Name(vec!["GameState"])));
    assert_eq!(classify("SETTLE_AT"), Some(Claim::Name(vec!["SETTLE_AT"])));
    for neither in [
        "kifu serve",
        "--json",
        "B+3.5",
        "verify_records",
        "ok",
        "GET /feed",
    ] {
        assert_eq!(classify(neither), None, "{neither}");
    }
}
