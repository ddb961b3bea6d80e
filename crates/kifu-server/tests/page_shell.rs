//! The pages share one shell (`web/page.js`, `web/db.js`, `web/live.js`)
//! and one head; each keeps only what is its own. A page that builds its
//! own elements, asks the server its own way, opens its own stream or its
//! own database, or grows a head of its own again fails here.

use kifu_server::web::{WebFile, FILES};

/// What only one module may do, and the words that give it away.
const ONLY_IN: &[(&str, &[&str])] = &[
    // The element builder.
    ("page.js", &["document.createElement("]),
    // The one way to ask the API, with its one error.
    (
        "page.js",
        &[
            "function api(",
            "const api =",
            "function post(",
            "const post =",
            "class ApiError",
            "extends Error",
        ],
    ),
    // The message log, the security policy's reports, the seat request.
    (
        "page.js",
        &[
            "securitypolicyviolation",
            "\"Kifu-Device-Signature\":",
            "ResizeObserver(",
        ],
    ),
    // Every stream, opened again when the server refused it.
    ("live.js", &["new EventSource(", "new Source("]),
    // Every database, by its name, version and stores.
    (
        "db.js",
        &["indexedDB.open(", "idb.open(", "createObjectStore("],
    ),
];

/// Modules that are not pages: the record library (its own errors are the
/// format's) and the service worker (it fetches the page shell itself).
fn exempt(file: &WebFile, what: &str) -> bool {
    (file.name == "record.js" && what == "extends Error")
        || (file.name == "sw.js" && what == "fetch(")
}

#[test]
fn each_part_of_the_shell_is_defined_in_one_module() {
    let mut found = Vec::new();
    for (owner, words) in ONLY_IN {
        for word in *words {
            for f in FILES.iter().filter(|f| f.name.ends_with(".js")) {
                if f.name != *owner && !exempt(f, word) && f.text.contains(word) {
                    found.push(format!("{} has {word:?}, which is {owner}'s", f.name));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn only_page_js_and_the_service_worker_fetch() {
    for f in FILES.iter().filter(|f| f.name.ends_with(".js")) {
        if f.name == "page.js" || f.name == "sw.js" {
            continue;
        }
        let calls = f
            .text
            .match_indices("fetch(")
            .filter(|(i, _)| {
                // `fetch(` as a call of its own, not the end of a longer name.
                let before = f.text[..*i].chars().next_back();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            })
            .count();
        assert_eq!(calls, 0, "{} calls fetch itself, not page.js's api", f.name);
    }
}

/// The one head: the page's title, icon, style sheet and module, nothing
/// else. The Content-Security-Policy is the server's header on every
/// answer (`headers.rs`), not a tag each page repeats.
fn head(name: &str, title: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n\
         <link rel=\"icon\" href=\"/web/favicon.svg\" type=\"image/svg+xml\">\n\
         <link rel=\"stylesheet\" href=\"/web/{name}.css\">\n\
         <script type=\"module\" src=\"/web/{name}.js\"></script>\n</head>\n"
    )
}

#[test]
fn every_page_has_the_one_head_and_no_other_script() {
    let pages: Vec<&WebFile> = FILES.iter().filter(|f| f.name.ends_with(".html")).collect();
    assert!(pages.len() >= 5, "{} pages", pages.len());
    for f in pages {
        let name = f.name.trim_end_matches(".html");
        let title = f
            .text
            .split_once("<title>")
            .and_then(|(_, rest)| rest.split_once("</title>"))
            .map(|(t, _)| t)
            .unwrap_or_else(|| panic!("{} has no title", f.name));
        assert!(
            f.text.starts_with(&head(name, title)),
            "{} does not open with the pages' head:\n{}",
            f.name,
            head(name, title)
        );
        assert_eq!(f.text.matches("<script").count(), 1, "{}", f.name);
        assert!(f.text.contains("<body>"), "{}", f.name);
    }
}

#[test]
fn the_board_tablet_keeps_every_module_it_loads() {
    // A tablet reloaded while the server is away opens from what the
    // service worker kept: every module the board page imports, at any
    // depth, must be in its list.
    let sw = kifu_server::web::file("sw.js").expect("sw.js").text;
    let mut todo = vec!["board.js"];
    let mut seen = Vec::new();
    while let Some(name) = todo.pop() {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        assert!(
            sw.contains(&format!("\"/web/{name}\"")),
            "sw.js does not keep {name}"
        );
        let text = kifu_server::web::file(name)
            .unwrap_or_else(|| panic!("{name} is not served"))
            .text;
        for line in text.lines().filter(|l| l.starts_with("import ")) {
            let Some((_, from)) = line.rsplit_once(" from \"") else {
                continue;
            };
            let path = from.trim_end_matches("\";");
            let module = path.trim_start_matches("/web/").trim_start_matches("./");
            let module = FILES
                .iter()
                .find(|f| f.name == module)
                .unwrap_or_else(|| panic!("{name} imports {path}, which is not served"))
                .name;
            todo.push(module);
        }
    }
    assert!(
        seen.contains(&"page.js") && seen.contains(&"db.js"),
        "{seen:?}"
    );
}

#[test]
fn every_test_a_module_names_exists() {
    // A module says which test checks it (`web/test/live.test.mjs`,
    // `tests/board_cli.rs`): the file must be there.
    let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = crate_dir.join("../..");
    let test_dir = crate_dir.join("web/test");
    let mut texts: Vec<(String, String)> = FILES
        .iter()
        .map(|f| (f.name.to_string(), f.text.to_string()))
        .collect();
    for e in std::fs::read_dir(&test_dir).expect("web/test") {
        let p = e.expect("entry").path();
        texts.push((
            p.display().to_string(),
            std::fs::read_to_string(&p).expect("a test file"),
        ));
    }
    let token = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    let mut missing = Vec::new();
    for (name, text) in &texts {
        for word in text.split(|c: char| !token(c)) {
            let word = word.trim_end_matches('.');
            if word.ends_with(".test.mjs") {
                let file = word.rsplit('/').next().unwrap_or(word);
                if !test_dir.join(file).is_file() {
                    missing.push(format!("{name} names {word}"));
                }
            } else if word.contains("tests/") && word.ends_with(".rs") {
                let path = &word[word.find("tests/").unwrap_or(0)..];
                let prefix = &word[..word.len() - path.len()];
                let found = [root.join(word), root.join(path), crate_dir.join(path)]
                    .iter()
                    .any(|p| p.is_file());
                if !found || !(prefix.is_empty() || root.join(prefix).is_dir()) {
                    missing.push(format!("{name} names {word}"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
