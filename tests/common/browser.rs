//! A headless Chromium driven over the DevTools protocol, for the tests of
//! the pages: one `chromium --remote-debugging-pipe` process per test, the
//! protocol's JSON messages, each ended by a NUL byte, on two named pipes.
//! Every wait is bounded. Without Chromium a test says so and passes,
//! unless `KIFU_REQUIRE_PEERS=1`.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};

use super::{peers_required, wait_bounded, workspace};

/// Longest wait for anything the browser or the server does.
pub const WAIT: Duration = Duration::from_secs(30);

pub fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    })
}

/// The browser, or `None` (with the message) when the test is to be skipped.
pub fn browser_or_skip(what: &str) -> Option<&'static str> {
    let b = chromium();
    if b.is_none() {
        assert!(
            !peers_required(),
            "chromium is required (KIFU_REQUIRE_PEERS=1)"
        );
        eprintln!("skipping {what}: chromium is not installed");
    }
    b
}

/// One headless Chromium, one page, driven over the DevTools protocol.
pub struct Browser {
    child: Child,
    to: Arc<Mutex<File>>,
    from: mpsc::Receiver<Value>,
    /// What [`Browser::lossy_network`] loses, counted by the reading thread.
    pub loss: Arc<Loss>,
    next_id: u64,
    session: String,
    /// Events the browser sent while a command waited for its answer.
    events: Vec<Value>,
}

impl Browser {
    pub fn start(program: &str, dir: &Path) -> Browser {
        std::fs::create_dir_all(dir).expect("browser dir");
        let (pipe_in, pipe_out) = (dir.join("cdp-in"), dir.join("cdp-out"));
        for p in [&pipe_in, &pipe_out] {
            let st = Command::new("mkfifo").arg(p).status().expect("mkfifo runs");
            assert!(st.success(), "mkfifo {}", p.display());
        }
        // The protocol pipe is file descriptors 3 (commands in) and 4
        // (answers out); the shell opens them on the named pipes, then
        // becomes the browser (so the child's pid is the browser's).
        let child = Command::new("bash")
            .args([
                "-c",
                r#"exec "$0" --headless --no-sandbox --disable-gpu --no-first-run \
                   --remote-debugging-pipe --user-data-dir="$3" --window-size=1280,800 \
                   about:blank 3<"$1" 4>"$2""#,
                program,
            ])
            .arg(&pipe_in)
            .arg(&pipe_out)
            .arg(dir.join("profile"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let to = OpenOptions::new()
            .write(true)
            .open(&pipe_in)
            .expect("the command pipe opens");
        let from = File::open(&pipe_out).expect("the answer pipe opens");
        let to = Arc::new(Mutex::new(to));
        let loss = Arc::new(Loss::default());
        let (tx, rx) = mpsc::channel();
        let (writer, lossy) = (to.clone(), loss.clone());
        std::thread::spawn(move || {
            let mut r = BufReader::new(from);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if buf.last() == Some(&0) {
                            buf.pop();
                        }
                        if let Ok(v) = serde_json::from_slice::<Value>(&buf) {
                            // A request held by a lossy network is let go
                            // or lost here, at once, whatever the test does.
                            if v["method"] == "Fetch.requestPaused"
                                && lossy.active.load(Ordering::SeqCst)
                            {
                                lossy.decide(&v, &writer);
                                continue;
                            }
                            if v["id"].as_u64().is_some_and(|id| id >= Loss::IDS) {
                                continue;
                            }
                            if tx.send(v).is_err() {
                                return;
                            }
                        }
                    }
                }
            }
        });
        let mut b = Browser {
            child,
            to,
            from: rx,
            loss,
            next_id: 0,
            session: String::new(),
            events: Vec::new(),
        };
        b.new_tab("about:blank");
        b.size(1280, 800);
        b
    }

    /// Sends one command and waits (bounded) for its answer.
    pub fn call(&mut self, method: &str, params: Value, on_page: bool) -> Value {
        match self.try_call(method, params, on_page) {
            Ok(r) => r,
            Err(e) => panic!("{method}: {e}"),
        }
    }

    /// Like [`Browser::call`], giving the browser's error instead of failing.
    pub fn try_call(&mut self, method: &str, params: Value, on_page: bool) -> Result<Value, Value> {
        let id = self.send(method, params, on_page);
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = self
                .from
                .recv_timeout(left)
                .unwrap_or_else(|e| panic!("{method}: no answer from the browser: {e}"));
            if m["id"].as_u64() == Some(id) {
                if !m["error"].is_null() {
                    return Err(m["error"].clone());
                }
                return Ok(m["result"].clone());
            }
            if m["method"].is_string() && self.events.len() < 100_000 {
                self.events.push(m);
            }
        }
    }

    /// Sends one command to the current tab (or the browser) without
    /// waiting for its answer; gives its id.
    pub fn send(&mut self, method: &str, params: Value, on_page: bool) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if on_page {
            msg["sessionId"] = Value::String(self.session.clone());
        }
        let mut bytes = serde_json::to_vec(&msg).expect("JSON");
        bytes.push(0);
        self.to
            .lock()
            .expect("the command pipe")
            .write_all(&bytes)
            .expect("the browser reads commands");
        id
    }

    /// A venue network that loses things, on the current page: `latency_ms`
    /// each way, one request in `one_in` lost before it reaches the server,
    /// and one answer to a submission (`POST /records`) in `answers_one_in`
    /// lost after the server recorded it (what a dropped Wi-Fi frame does to
    /// a page once TCP gives up: the connection is reset). The losses are
    /// counted in [`Browser::loss`].
    pub fn lossy_network(&mut self, latency_ms: u64, one_in: u64, answers_one_in: u64) {
        self.venue_network(latency_ms);
        self.loss.one_in.store(one_in, Ordering::SeqCst);
        self.loss
            .answers_one_in
            .store(answers_one_in, Ordering::SeqCst);
        self.loss.active.store(true, Ordering::SeqCst);
        self.call(
            "Fetch.enable",
            json!({"patterns": [
                {"urlPattern": "*", "requestStage": "Request"},
                {"urlPattern": "*/records", "requestStage": "Response"},
            ]}),
            true,
        );
    }

    /// Has the current tab report what its console says and every
    /// Content-Security-Policy violation the page sees (for
    /// [`Browser::csp_violations`]).
    fn watch_csp(&mut self) {
        self.call("Log.enable", json!({}), true);
        self.call("Runtime.enable", json!({}), true);
        self.call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": "window.__cspViolations = []; document.addEventListener('securitypolicyviolation', e => window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`));"}),
            true,
        );
    }

    /// Every Content-Security-Policy violation reported so far: in the
    /// console, and to the current page's own listener.
    pub fn csp_violations(&mut self) -> Vec<String> {
        let mut out: Vec<String> = self
            .events
            .iter()
            .filter_map(|m| {
                let text = match m["method"].as_str()? {
                    "Log.entryAdded" => m["params"]["entry"]["text"].as_str()?.to_string(),
                    "Runtime.consoleAPICalled" => m["params"]["args"].to_string(),
                    _ => return None,
                };
                text.contains("Content Security Policy").then_some(text)
            })
            .collect();
        if let Value::Array(seen) = self.eval("window.__cspViolations || []") {
            out.extend(seen.iter().map(|v| v.to_string()));
        }
        out
    }

    /// Every console error, uncaught exception and unhandled promise
    /// rejection the pages reported so far (Chromium reports an unhandled
    /// rejection as an exception thrown).
    pub fn console_errors(&mut self) -> Vec<String> {
        // Collects what arrived since the last command.
        self.eval("true");
        self.events
            .iter()
            .filter_map(|m| match m["method"].as_str()? {
                "Runtime.exceptionThrown" => Some(m["params"]["exceptionDetails"].to_string()),
                "Runtime.consoleAPICalled" if m["params"]["type"] == "error" => {
                    Some(m["params"]["args"].to_string())
                }
                "Log.entryAdded" if m["params"]["entry"]["level"] == "error" => Some(format!(
                    "{} {}",
                    m["params"]["entry"]["text"],
                    m["params"]["entry"]["url"].as_str().unwrap_or("")
                )),
                _ => None,
            })
            .collect()
    }

    /// What the page itself got wrong: [`Browser::console_errors`] without
    /// the browser's own lines about requests the network lost (which the
    /// page answers in its own words).
    pub fn page_errors(&mut self) -> Vec<String> {
        self.eval("true");
        self.events
            .iter()
            .filter(|m| {
                !(m["method"] == "Log.entryAdded" && m["params"]["entry"]["source"] == "network")
            })
            .filter_map(|m| match m["method"].as_str()? {
                "Runtime.exceptionThrown" => Some(m["params"]["exceptionDetails"].to_string()),
                "Runtime.consoleAPICalled" if m["params"]["type"] == "error" => {
                    Some(m["params"]["args"].to_string())
                }
                "Log.entryAdded" if m["params"]["entry"]["level"] == "error" => {
                    Some(m["params"]["entry"]["text"].to_string())
                }
                _ => None,
            })
            .collect()
    }

    /// Emulates a venue's network on the current page: `latency_ms` each way.
    pub fn venue_network(&mut self, latency_ms: u64) {
        self.call("Network.enable", json!({}), true);
        self.call(
            "Network.emulateNetworkConditions",
            json!({"offline": false, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1}),
            true,
        );
    }

    /// Fails the test when the page broke its Content-Security-Policy.
    pub fn assert_no_csp_violation(&mut self) {
        let v = self.csp_violations();
        assert!(v.is_empty(), "Content-Security-Policy violations: {v:#?}");
    }

    /// Opens another tab at `url` and drives it from now on; gives its
    /// session (for [`Browser::use_tab`]).
    pub fn new_tab(&mut self, url: &str) -> String {
        let target = self.call("Target.createTarget", json!({"url": "about:blank"}), false);
        let target = target["targetId"].as_str().expect("a target").to_string();
        let attached = self.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
            false,
        );
        self.session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        self.call("Page.enable", json!({}), true);
        self.watch_csp();
        if url != "about:blank" {
            self.goto(url);
        }
        self.session.clone()
    }

    /// The tab the next commands go to.
    pub fn session(&self) -> String {
        self.session.clone()
    }

    /// Drives the tab of `session` from now on.
    pub fn use_tab(&mut self, session: &str) {
        self.session = session.to_string();
    }

    /// Runs `source` in every document the tab loads from now on, before
    /// the page's own scripts.
    pub fn before_each_page(&mut self, source: &str) {
        self.call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": source}),
            true,
        );
    }

    /// Waits (bounded) for an event `method` of the current tab for which
    /// `pred` holds, and takes it.
    pub fn wait_event(&mut self, method: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + WAIT;
        loop {
            let session = self.session.clone();
            if let Some(i) = self.events.iter().position(|m| {
                m["method"] == method
                    && m["sessionId"].as_str() == Some(&session)
                    && pred(&m["params"])
            }) {
                return self.events.remove(i)["params"].clone();
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let m = self
                .from
                .recv_timeout(left)
                .unwrap_or_else(|e| panic!("no {method} event from the browser: {e}"));
            if m["method"].is_string() && self.events.len() < 100_000 {
                self.events.push(m);
            }
        }
    }

    /// The value of a JavaScript expression in the page (promises awaited).
    pub fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
            true,
        );
        assert!(
            r["exceptionDetails"].is_null(),
            "{expr}: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    /// Waits (bounded) until `expr` is true in the page.
    pub fn wait_for(&mut self, what: &str, expr: &str) {
        let start = Instant::now();
        loop {
            // A page navigating away answers "navigated or closed" or has no
            // context yet: not there yet, asked again.
            let r = self.try_call(
                "Runtime.evaluate",
                json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
                true,
            );
            match r {
                Ok(r) => {
                    assert!(
                        r["exceptionDetails"].is_null(),
                        "{expr}: {}",
                        r["exceptionDetails"]
                    );
                    if r["result"]["value"] == Value::Bool(true) {
                        return;
                    }
                }
                Err(e) => {
                    let why = e["message"].as_str().unwrap_or("");
                    assert!(
                        why.contains("navigated")
                            || why.contains("context")
                            || why.contains("destroyed"),
                        "{expr}: {e}"
                    );
                }
            }
            if start.elapsed() > WAIT {
                let body = self.eval("document.body.innerText");
                panic!("waited {WAIT:?} for {what}; the page shows:\n{body}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn goto(&mut self, url: &str) {
        let r = self.call("Page.navigate", json!({"url": url}), true);
        assert!(r["errorText"].is_null(), "{url}: {}", r["errorText"]);
    }

    /// Presses and releases a key, as a keyboard does.
    pub fn key(&mut self, key: &str, code: u32) {
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
                true,
            );
        }
    }

    pub fn size(&mut self, width: u32, height: u32) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
            true,
        );
    }

    /// Opens a page in a new browser context (its own cookies, storage and
    /// IndexedDB, as another device's) and makes it the current page;
    /// returns its session, for [`Browser::switch`].
    pub fn new_context(&mut self, width: u32, height: u32) -> String {
        let ctx = self.call("Target.createBrowserContext", json!({}), false);
        let ctx = ctx["browserContextId"]
            .as_str()
            .expect("a context")
            .to_string();
        let target = self.call(
            "Target.createTarget",
            json!({"url": "about:blank", "browserContextId": ctx}),
            false,
        );
        let target = target["targetId"].as_str().expect("a target").to_string();
        let attached = self.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
            false,
        );
        self.session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        self.call("Page.enable", json!({}), true);
        self.watch_csp();
        self.size(width, height);
        self.session.clone()
    }

    /// Makes the page of `session` the current one.
    pub fn switch(&mut self, session: &str) {
        self.session = session.to_string();
    }

    /// Clicks the element `selector` of the current page (a script click:
    /// the element's own handlers run as for a tap).
    pub fn click(&mut self, selector: &str) {
        let sel = serde_json::to_string(selector).expect("JSON");
        self.wait_for(
            &format!("{selector} to be enabled"),
            &format!("(() => {{ const e = document.querySelector({sel}); return !!e && !e.disabled; }})()"),
        );
        self.eval(&format!(
            "(() => {{ const e = document.querySelector({sel}); if (e.click) e.click(); else e.dispatchEvent(new MouseEvent('click', {{bubbles: true, cancelable: true}})); return true; }})()"
        ));
    }

    /// The text of the element `selector` (empty when absent).
    pub fn text(&mut self, selector: &str) -> String {
        let sel = serde_json::to_string(selector).expect("JSON");
        self.eval(&format!(
            "(() => {{ const e = document.querySelector({sel}); return e ? e.textContent : \"\"; }})()"
        ))
        .as_str()
        .unwrap_or("")
        .to_string()
    }

    pub fn screenshot(&mut self) -> Vec<u8> {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}), true);
        base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().expect("image data"))
            .expect("base64")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Closing asks the browser to end its own helper processes.
        if let Ok(mut to) = self.to.lock() {
            let _ = to.write_all(b"{\"id\":999999,\"method\":\"Browser.close\"}\0");
        }
        wait_bounded(&mut self.child, Duration::from_secs(10));
    }
}

/// The losses of [`Browser::lossy_network`]: which requests go, counted.
#[derive(Debug, Default)]
pub struct Loss {
    /// One request in how many is lost (0: none).
    pub one_in: AtomicU64,
    /// Set by [`Browser::lossy_network`]: the reading thread answers the
    /// paused requests (else a test's own `Fetch` interception gets them).
    pub active: std::sync::atomic::AtomicBool,
    /// One submission's answer in how many is lost (0: none).
    pub answers_one_in: AtomicU64,
    /// Requests seen.
    pub seen: AtomicU64,
    /// Submissions' answers seen.
    pub answers_seen: AtomicU64,
    /// Requests lost before the server.
    pub requests_lost: AtomicU64,
    /// Answers lost after the server recorded the submission.
    pub answers_lost: AtomicU64,
    next_id: AtomicU64,
}

impl Loss {
    /// Ids of the commands the reading thread sends itself.
    const IDS: u64 = 1 << 30;

    fn decide(&self, paused: &Value, to: &Mutex<File>) {
        let p = &paused["params"];
        let answered = !p["responseStatusCode"].is_null() || !p["responseErrorReason"].is_null();
        // Every `one_in`-th request, every `answers_one_in`-th answer, is lost.
        let (n, one_in) = if answered {
            (&self.answers_seen, &self.answers_one_in)
        } else {
            (&self.seen, &self.one_in)
        };
        let n = n.fetch_add(1, Ordering::SeqCst) + 1;
        let one_in = one_in.load(Ordering::SeqCst);
        let lose = one_in > 0 && n % one_in == 0;
        let method = if lose {
            if answered {
                self.answers_lost.fetch_add(1, Ordering::SeqCst);
            } else {
                self.requests_lost.fetch_add(1, Ordering::SeqCst);
            }
            "Fetch.failRequest"
        } else if answered {
            "Fetch.continueResponse"
        } else {
            "Fetch.continueRequest"
        };
        let mut params = json!({"requestId": p["requestId"]});
        if lose {
            params["errorReason"] = json!("ConnectionReset");
        }
        let id = Self::IDS + self.next_id.fetch_add(1, Ordering::SeqCst);
        let msg =
            json!({"id": id, "method": method, "params": params, "sessionId": paused["sessionId"]});
        let mut bytes = serde_json::to_vec(&msg).expect("JSON");
        bytes.push(0);
        if let Ok(mut to) = to.lock() {
            let _ = to.write_all(&bytes);
        }
    }
}

/// The page's current event, once it has drawn it.
pub fn shown(b: &mut Browser, seq: u64) {
    b.wait_for(
        &format!("event {seq} drawn"),
        &format!("document.getElementById('board') && document.getElementById('board').dataset.seq === '{seq}'"),
    );
}

/// Where the test keeps what CI keeps: `KIFU_ARTIFACTS_DIR`, else
/// `target/artifacts` of the workspace.
pub fn artifacts_dir() -> PathBuf {
    match std::env::var_os("KIFU_ARTIFACTS_DIR") {
        Some(d) => PathBuf::from(d),
        None => workspace().join("target/artifacts"),
    }
}

pub fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
}

impl Browser {
    /// Presses Enter on the focused element, as a keyboard does (the key
    /// with its character, so a focused button is activated).
    pub fn press_enter(&mut self) {
        for (kind, text) in [("keyDown", "\r"), ("keyUp", "")] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": "Enter", "code": "Enter", "text": text, "windowsVirtualKeyCode": 13}),
                true,
            );
        }
    }

    /// The page printed as Chromium prints it (`--print-to-pdf`'s engine):
    /// the PDF's bytes, the page size from the print stylesheet's `@page`.
    pub fn print_to_pdf(&mut self) -> Vec<u8> {
        let r = self.call(
            "Page.printToPDF",
            json!({"preferCSSPageSize": true, "printBackground": false}),
            true,
        );
        base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().expect("PDF data"))
            .expect("base64")
    }
}

/// The pages of a PDF as Chromium writes it (each object whole, between
/// `obj` and `endobj`): each page object's `/MediaBox` width and height in
/// points (1/72 inch).
pub fn pdf_pages(pdf: &[u8]) -> Vec<(f64, f64)> {
    let text = String::from_utf8_lossy(pdf);
    let mut pages = Vec::new();
    for object in text.split("endobj") {
        let is_page = object
            .match_indices("/Type /Page")
            .any(|(at, m)| !object[at + m.len()..].starts_with('s'));
        let Some(mb) = object.find("/MediaBox") else {
            continue;
        };
        if !is_page {
            continue;
        }
        let nums: Vec<f64> = object[mb + "/MediaBox".len()..]
            .trim_start()
            .trim_start_matches('[')
            .split(']')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .filter_map(|n| n.parse().ok())
            .collect();
        if let [x0, y0, x1, y1] = nums[..] {
            pages.push((x1 - x0, y1 - y0));
        }
    }
    pages
}
