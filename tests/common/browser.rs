//! One headless Chromium driven over the DevTools protocol, for the tests
//! of the pages: `chromium --remote-debugging-pipe`, the protocol's JSON
//! messages, each ended by a NUL byte, on two named pipes. Every wait is
//! bounded. Without Chromium a test says so and passes, unless
//! `KIFU_REQUIRE_PEERS=1`.
#![allow(dead_code)]

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};

use super::{peers_required, wait_bounded};

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
    to: File,
    from: mpsc::Receiver<Value>,
    next_id: u64,
    session: String,
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
        let (tx, rx) = mpsc::channel();
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
            next_id: 0,
            session: String::new(),
        };
        let target = b.call("Target.createTarget", json!({"url": "about:blank"}), false);
        let target = target["targetId"].as_str().expect("a target").to_string();
        let attached = b.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
            false,
        );
        b.session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        b.call("Page.enable", json!({}), true);
        b.size(1280, 800);
        b
    }

    /// Sends one command and waits (bounded) for its answer.
    pub fn call(&mut self, method: &str, params: Value, on_page: bool) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if on_page {
            msg["sessionId"] = Value::String(self.session.clone());
        }
        let mut bytes = serde_json::to_vec(&msg).expect("JSON");
        bytes.push(0);
        self.to
            .write_all(&bytes)
            .expect("the browser reads commands");
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = self
                .from
                .recv_timeout(left)
                .unwrap_or_else(|e| panic!("{method}: no answer from the browser: {e}"));
            if m["id"].as_u64() == Some(id) {
                assert!(m["error"].is_null(), "{method}: {}", m["error"]);
                return m["result"].clone();
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
            if self.eval(expr) == Value::Bool(true) {
                return;
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
        let _ = self
            .to
            .write_all(b"{\"id\":999999,\"method\":\"Browser.close\"}\0");
        wait_bounded(&mut self.child, Duration::from_secs(10));
    }
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
