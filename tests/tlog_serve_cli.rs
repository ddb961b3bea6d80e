//! The transparency log served by `kifu serve --checkpoint-key`: the demo
//! recorded through the server, its signed checkpoint fetched and checked
//! offline by `kifu check-proof` and by Go's `sumdb/note` and `sumdb/tlog`
//! (which read the tree through the served tiles), served tiles equal to
//! `kifu tiles --out`, later checkpoints consistent with earlier ones, the
//! checkpoint kept across a restart, periodic signing, and a server without
//! a key that still serves proofs and tiles.

mod common;
use common::*;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// GET: status, headers we look at, body bytes.
fn get(url: &str) -> (u16, BTreeMap<String, String>, Vec<u8>) {
    let r = match ureq::get(url).call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{url}: {e}"),
    };
    let status = r.status();
    let mut headers = BTreeMap::new();
    for h in ["content-type", "cache-control", "retry-after"] {
        if let Some(v) = r.header(h) {
            headers.insert(h.to_string(), v.to_string());
        }
    }
    let mut body = Vec::new();
    r.into_reader().read_to_end(&mut body).expect("body");
    (status, headers, body)
}

fn post(url: &str) -> (u16, Vec<u8>) {
    let r = match ureq::post(url).call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{url}: {e}"),
    };
    let status = r.status();
    let mut body = Vec::new();
    r.into_reader().read_to_end(&mut body).expect("body");
    (status, body)
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("UTF-8")
}

fn cp_size(note: &str) -> u64 {
    note.lines().nth(1).unwrap().parse().unwrap()
}

fn tree_size_metric(url: &str) -> (u64, u64) {
    let (_, _, b) = get(&format!("{url}/metrics"));
    let m = text(&b);
    let value = |name: &str| -> u64 {
        m.lines()
            .find_map(|l| l.strip_prefix(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} missing from /metrics"))
            .trim()
            .parse()
            .unwrap()
    };
    (
        value("kifu_checkpoints_signed_total"),
        value("kifu_tlog_tree_size"),
    )
}

struct Dir {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

impl Dir {
    fn new() -> Dir {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        Dir { _tmp: tmp, root }
    }
    fn p(&self, n: &str) -> PathBuf {
        self.root.join(n)
    }
    fn s(&self, n: &str) -> String {
        self.p(n).display().to_string()
    }
}

/// Runs a client command through the server.
fn through(d: &Dir, url: &str, args: &[&str]) -> std::process::Output {
    let mut all = vec!["--server", url];
    all.extend_from_slice(args);
    run(&d.p("client"), &all)
}

fn append_reading(d: &Dir, url: &str, game: &str, black_ms: u64) {
    let key = d.s("client/demo-keys/referee.key");
    let ev = json!({"clock_reading": {"black_ms": black_ms, "white_ms": 1000, "black_overtime": null, "white_overtime": null, "read_by": "served log test"}});
    ok(&run_stdin(
        &d.p("client"),
        &["--server", url, "append", game, "--key", &key],
        &ev.to_string(),
    ));
}

/// `kifu checkpoint --server URL --fresh --out FILE` until the server has
/// signed a tree of at least `size` (it signs at most one a second on
/// demand); bounded in count.
fn fresh_checkpoint(d: &Dir, url: &str, out: &str, size: u64) -> Value {
    for _ in 0..50 {
        let o = through(
            d,
            url,
            &["checkpoint", "--fresh", "--json", "--out", &d.s(out)],
        );
        let v: Value = serde_json::from_str(&ok(&o)).unwrap();
        if v["size"].as_u64().unwrap() >= size {
            return v;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("the server did not sign a checkpoint of size {size}");
}

fn keygen(d: &Dir, name: &str) -> String {
    ok(&run(&d.p("client"), &["keygen", &d.s(name)]));
    d.s(&format!("{name}.key"))
}

/// Every tile and entry bundle of a tree of `size`, fetched from the server.
fn fetch_tiles(url: &str, size: u64) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for (level, index, width) in kifu_tlog::tiles::tiles_for_size(size) {
        let mut paths = vec![kifu_tlog::tiles::tile_path(level, index, width)];
        if level == 0 {
            paths.push(kifu_tlog::tiles::entries_path(index, width));
        }
        for p in paths {
            let (status, h, body) = get(&format!("{url}/{p}"));
            assert_eq!(status, 200, "{p}: {}", text(&body));
            let cache = &h["cache-control"];
            if width == 256 {
                assert!(cache.contains("immutable"), "{p}: {cache}");
            } else {
                assert!(cache.contains("max-age=10"), "{p}: {cache}");
            }
            out.insert(p, body);
        }
    }
    out
}

/// Go's `sumdb` packages read the server: `None` when Go is absent.
fn go_check(doc: &Value, file: &Path) -> Option<String> {
    let sources = Path::new("/usr/share/gocode/src/golang.org/x/mod/sumdb/tlog/tlog.go");
    let go_ok = Command::new("go")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !go_ok || !sources.exists() {
        assert!(
            !peers_required(),
            "KIFU_REQUIRE_PEERS=1 but go or golang.org/x/mod is absent"
        );
        eprintln!("skipped: go or golang.org/x/mod sources absent (apt-get install golang-go golang-golang-x-mod-dev)");
        return None;
    }
    std::fs::write(file, serde_json::to_vec(doc).unwrap()).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cache = root.join("target/gocache");
    let _ = std::fs::create_dir_all(&cache);
    let o = Command::new("go")
        .current_dir(&root)
        .env("GOPATH", "/usr/share/gocode")
        .env("GO111MODULE", "off")
        .env("GOFLAGS", "-mod=mod")
        .env("GOCACHE", &cache)
        .env("GOTOOLCHAIN", "local")
        .args(["run", "tests/peers/sumdb_check.go"])
        .arg(file)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    Some(out)
}

/// The `curl` lines of the ```bash blocks of docs/API.md (the log's
/// section; the other sections' ```sh blocks run in serve_cli).
fn run_api_examples(d: &Dir, url: &str, game: &str) {
    let curl = Command::new("curl")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !curl {
        assert!(!peers_required(), "curl is required (KIFU_REQUIRE_PEERS=1)");
        eprintln!("skipping the API examples: curl is not installed");
        return;
    }
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/API.md"))
            .unwrap();
    let mut examples = Vec::new();
    let mut in_bash = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            in_bash = line == "```bash";
            continue;
        }
        if in_bash && line.starts_with("curl ") {
            examples.push(line.to_string());
        }
    }
    assert!(examples.len() >= 10, "{examples:?}");
    let work = d.p("api-work");
    std::fs::create_dir_all(&work).unwrap();
    for ex in &examples {
        let o = Command::new("bash")
            .args(["-c", ex])
            .current_dir(&work)
            .env("KIFU", url)
            .env("GAME", &game[..12])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{ex}\n{}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert_eq!(std::fs::read(work.join("tile-0-000")).unwrap().len(), 8192);
}

#[test]
fn the_served_log_checks_offline_with_kifu_and_go_and_survives_a_restart() {
    let d = Dir::new();
    let data = d.p("data");
    let op = keygen(&d, "op");
    let server = Served::start(
        &data,
        &[
            "--checkpoint-key",
            &op,
            "--origin",
            "kifu.example/served",
            "--checkpoint-every",
            "0",
        ],
    );
    let url = server.url.clone();

    // The empty log is signed at start: size 0.
    let (status, h, body) = get(&format!("{url}/checkpoint"));
    assert_eq!(status, 200);
    assert!(h["content-type"].starts_with("text/plain"));
    assert!(text(&body).starts_with("kifu.example/served\n0\n"));

    // Five demo games: over 256 leaves, so a full tile, a partial one and
    // a level-1 tile are served.
    let mut game = String::new();
    let mut s1 = 0;
    for _ in 0..5 {
        let demo: Value =
            serde_json::from_str(&ok(&through(&d, &url, &["demo", "--json"]))).unwrap();
        if game.is_empty() {
            game = demo["game"].as_str().unwrap().to_string();
        }
        s1 = demo["store_events"].as_u64().unwrap();
    }
    assert!(s1 > 256, "{s1}");

    // On demand: signed once the tree grew (201), then the same one (200).
    let v1 = fresh_checkpoint(&d, &url, "cp1", s1);
    assert_eq!(v1["size"].as_u64(), Some(s1));
    assert_eq!(v1["origin"], "kifu.example/served");
    let log_key = v1["log_key"].as_str().unwrap().to_string();
    let cp1 = std::fs::read_to_string(d.p("cp1")).unwrap();
    let (status, again) = post(&format!("{url}/checkpoint"));
    assert_eq!(status, 200, "the tree did not grow: nothing new is signed");
    assert_eq!(text(&again), cp1);
    let (_, _, served) = get(&format!("{url}/checkpoint"));
    assert_eq!(text(&served), cp1, "GET /checkpoint is the exact note");

    // The examples of docs/API.md's "The transparency log" run as written.
    assert_eq!(s1, 315, "the examples assume the five demo games");
    run_api_examples(&d, &url, &game);

    // An inclusion proof fetched through --server checks offline.
    let inc1 = ok(&through(&d, &url, &["prove", "inclusion", &game, "5"]));
    std::fs::write(d.p("inc1.json"), &inc1).unwrap();
    let o = run(
        &d.p("client"),
        &[
            "check-proof",
            "inclusion",
            &d.s("inc1.json"),
            "--checkpoint",
            &d.s("cp1"),
            "--log-key",
            &log_key,
        ],
    );
    ok(&o);
    let inc1: Value = serde_json::from_str(&inc1).unwrap();
    assert_eq!(inc1["tree_size"].as_u64(), Some(s1));
    // The text form is the same from the command line and the endpoint.
    let t = ok(&through(
        &d,
        &url,
        &["prove", "inclusion", &game, "5", "--text"],
    ));
    let (_, _, tb) = get(&format!(
        "{url}/proof/inclusion?game={game}&seq=5&format=text"
    ));
    assert_eq!(t, text(&tb));
    assert!(t.starts_with("leaf_index="), "{t}");

    // More appends, a newer checkpoint, consistent with the first.
    append_reading(&d, &url, &game, 41_000);
    // The new event is after the checkpoint until one is signed (the
    // periodic signer is off here).
    let (_, _, head) = get(&format!("{url}/games/{game}/head"));
    let head: Value = serde_json::from_slice(&head).unwrap();
    let last = head["seq"].as_u64().unwrap();
    let (status, _, body) = get(&format!("{url}/proof/inclusion?game={game}&seq={last}"));
    assert_eq!(status, 409, "{}", text(&body));
    assert!(text(&body).contains("POST /checkpoint"));
    let v2 = fresh_checkpoint(&d, &url, "cp2", s1 + 1);
    let s2 = v2["size"].as_u64().unwrap();
    assert_eq!(s2, s1 + 1);
    let cons = ok(&through(
        &d,
        &url,
        &["prove", "consistency", &s1.to_string(), &s2.to_string()],
    ));
    std::fs::write(d.p("cons.json"), &cons).unwrap();
    let o = run(
        &d.p("client"),
        &[
            "check-proof",
            "consistency",
            &d.s("cons.json"),
            "--old",
            &d.s("cp1"),
            "--new",
            &d.s("cp2"),
            "--log-key",
            &log_key,
        ],
    );
    ok(&o);
    let (signed, size) = tree_size_metric(&url);
    assert_eq!(size, s2);
    assert!(signed >= 3, "start, cp1, cp2: {signed}");

    // Refusals are JSON with a reason.
    for (path, status) in [
        ("/tile/0/0001".to_string(), 404),
        (format!("/tile/0/000.p/{}", s2 + 1), 404),
        (format!("/proof/consistency?old=1&new={}", s2 + 5), 400),
        ("/proof/inclusion?game=zz&seq=0".to_string(), 404),
    ] {
        let (st, h, b) = get(&format!("{url}{path}"));
        assert_eq!(st, status, "{path}: {}", text(&b));
        assert!(h["content-type"].starts_with("application/json"), "{path}");
        let v: Value = serde_json::from_slice(&b).unwrap();
        assert!(v["error"]["message"].as_str().is_some(), "{path}");
    }

    // Go opens the served checkpoint and reads the tree through the tiles.
    let inc2: Value =
        serde_json::from_str(&ok(&through(&d, &url, &["prove", "inclusion", &game, "5"]))).unwrap();
    assert_eq!(inc2["tree_size"].as_u64(), Some(s2));
    let doc = json!({
        "log_vkey": log_key,
        "checkpoint": cp1,
        "server": url,
        "inclusion": [inc1, inc2],
        "consistency": [serde_json::from_str::<Value>(&cons).unwrap()],
    });
    if let Some(out) = go_check(&doc, &d.p("go.json")) {
        assert!(
            out.contains("Go note.Open verifies the checkpoint served by kifu serve"),
            "{out}"
        );
        // The checkpoint names the map of game heads, and Go reads it as any
        // other checkpoint.
        assert!(
            out.contains("carries the extension line \"kifu-map/1 "),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "{s2} entries hash to their leaves; 2 served proofs equal Go's"
            )),
            "{out}"
        );
        assert!(
            out.contains("CheckRecord accepts 2 inclusion proofs"),
            "{out}"
        );
        assert!(
            out.contains("CheckTree accepts 1 consistency proofs"),
            "{out}"
        );
    }

    // Served tiles are the bytes `kifu tiles --out` writes.
    let tiles = fetch_tiles(&url, s2);
    server.stop();
    ok(&run(&data, &["tiles", "--out", &d.s("site")]));
    for (p, bytes) in &tiles {
        let written = std::fs::read(d.p("site").join(p)).unwrap();
        assert_eq!(&written, bytes, "{p}");
    }
    assert_eq!(
        std::fs::read_to_string(d.p("site/checkpoint")).unwrap(),
        std::fs::read_to_string(d.p("cp2")).unwrap()
    );

    // A restart keeps the checkpoint (the tree did not grow: not re-signed),
    // and the next one is consistent with it.
    let server = Served::start(&data, &["--checkpoint-key", &op, "--checkpoint-every", "0"]);
    let url = server.url.clone();
    let (_, _, body) = get(&format!("{url}/checkpoint"));
    assert_eq!(text(&body), std::fs::read_to_string(d.p("cp2")).unwrap());
    assert_eq!(tree_size_metric(&url).0, 0, "nothing signed at this start");
    append_reading(&d, &url, &game, 40_000);
    fresh_checkpoint(&d, &url, "cp3", s2 + 1);
    let cons = ok(&through(
        &d,
        &url,
        &[
            "prove",
            "consistency",
            &s2.to_string(),
            &(s2 + 1).to_string(),
            "--text",
        ],
    ));
    std::fs::write(d.p("cons3.txt"), &cons).unwrap();
    let o = run(
        &d.p("client"),
        &[
            "check-proof",
            "consistency",
            &d.s("cons3.txt"),
            "--old",
            &d.s("cp2"),
            "--new",
            &d.s("cp3"),
            "--log-key",
            &log_key,
        ],
    );
    ok(&o);
    assert!(std::fs::read_to_string(d.p("cp3"))
        .unwrap()
        .starts_with("kifu.example/served\n"));
    server.stop();
}

#[test]
fn a_server_signs_periodically_and_without_a_key_still_serves_proofs() {
    let d = Dir::new();
    let data = d.p("data");

    // No key: /checkpoint says so; proofs and tiles are served.
    let server = Served::start(&data, &[]);
    let url = server.url.clone();
    let demo: Value = serde_json::from_str(&ok(&through(&d, &url, &["demo", "--json"]))).unwrap();
    let game = demo["game"].as_str().unwrap().to_string();
    let n = demo["store_events"].as_u64().unwrap();
    for r in [get(&format!("{url}/checkpoint")), {
        let (s, b) = post(&format!("{url}/checkpoint"));
        (s, BTreeMap::new(), b)
    }] {
        assert_eq!(r.0, 404);
        let v: Value = serde_json::from_slice(&r.2).unwrap();
        assert_eq!(v["error"]["code"], "no_operator_key");
        assert!(v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--checkpoint-key"));
    }
    let o = through(&d, &url, &["checkpoint"]);
    assert!(!o.status.success());
    assert!(err(&o).contains("no operator key"), "{}", err(&o));
    // Against the current tree when nothing is signed.
    let inc: Value =
        serde_json::from_str(&ok(&through(&d, &url, &["prove", "inclusion", &game, "0"]))).unwrap();
    assert_eq!(inc["tree_size"].as_u64(), Some(n));
    let (status, _, tile) = get(&format!("{url}/tile/0/000.p/{n}"));
    assert_eq!(status, 200);
    assert_eq!(tile.len() as u64, 32 * n);
    let (signed, size) = tree_size_metric(&url);
    assert_eq!((signed, size), (0, n));
    server.stop();

    // With a key and a one-second interval: a checkpoint of the grown tree
    // appears without being asked for.
    let op = keygen(&d, "op");
    let server = Served::start(&data, &["--checkpoint-key", &op, "--checkpoint-every", "1"]);
    let url = server.url.clone();
    let (_, _, first) = get(&format!("{url}/checkpoint"));
    let first = text(&first);
    assert!(first.starts_with("kifu.local/log\n"), "{first}");
    assert_eq!(cp_size(&first), n);
    append_reading(&d, &url, &game, 39_000);
    let start = Instant::now();
    let mut seen = first.clone();
    for _ in 0..300 {
        let (_, _, b) = get(&format!("{url}/checkpoint"));
        seen = text(&b);
        // The counter moves just after the checkpoint is kept: wait for both.
        let counted = tree_size_metric(&url).0 >= 2;
        if (cp_size(&seen) == n + 1 && counted) || start.elapsed() > Duration::from_secs(30) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(cp_size(&seen), n + 1, "no periodic checkpoint: {seen}");
    let (signed, size) = tree_size_metric(&url);
    assert_eq!(size, n + 1);
    assert!(signed >= 2, "start and periodic: {signed}");
    server.stop();
}
